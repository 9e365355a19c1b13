"""The referee at the table: ``GET /check`` and ``GET /hand``, asking the API with the card picker.

A table arguing over a play taps the cards in; the page's script sends them to the public
checks (``/v1/checks/...``, ``/v1/hands/analysis``) and shows the verdict the API answers, its
messages in the reader's language. No rule is written again here or in the script: the server
renders the presets' names, and the script asks ``GET /v1/rulesets/{id}`` for the rounds of
the one chosen, like any other client.

The state of a page lives in its address (docs/pages.md, "Addresses"): the page is the same
for every query, so it is rendered once per language, and the script reads the query.
"""

from __future__ import annotations

from flask import Response

from rules import PRESETS

from . import blp, page
from .texts import rank_names, suit_names


def _referee_page(template: str, script: str) -> Response:
    return page(
        template,
        presets=list(PRESETS.values()),
        ranks=rank_names(),
        suits=suit_names(),
        page_texts="referee",
        script=script,
    )


@blp.get("/check")
def check() -> Response:
    """Check a play: a contract, a meld, a lay-off, a joker swap or a buy."""
    return _referee_page("check.html", "check.js")


@blp.get("/hand")
def hand() -> Response:
    """What a hand needs to lay the round's contract."""
    return _referee_page("hand.html", "hand.js")
