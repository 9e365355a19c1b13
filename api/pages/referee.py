"""The referee at the table: ``GET /check`` and ``GET /hand``, asking the API with the card picker.

A table arguing over a play taps the cards in; the page's script sends them to the public
checks (``/v1/checks/...``, ``/v1/hands/analysis``) and shows the verdict the API answers, its
messages in the reader's language. No rule is written again here or in the script: the server
renders only what the presets say of themselves (names, rounds, contracts, table sizes), so the
page can offer a round before it has asked anything.

The state of a page lives in its address (docs/pages.md, "Addresses"): the page is the same
for every query, so it is rendered once per language, and the script reads the query.
"""

from __future__ import annotations

from typing import Any

from flask import Response

from rules import PRESETS, Ruleset

from .. import i18n
from . import blp, contract_text, page
from .texts import rank_names, suit_names


def preset_facts(ruleset: Ruleset) -> dict[str, Any]:
    """What the script needs of a preset to offer its rounds (a place for each meld of a
    contract) and table sizes, in the reader's language; named as the API names them in
    ``GET /v1/rulesets/{id}``, and only what the page uses: every page carries all of them."""
    return {
        "id": ruleset.id,
        "name": i18n.words().text(ruleset.name),
        "players": {"min": ruleset.min_players, "max": ruleset.max_players},
        "rounds": [
            {
                "number": spec.number,
                "contract": {
                    "melds": [{"type": meld.type} for meld in spec.contract.melds],
                    "text": contract_text(spec.contract, ruleset.family),
                },
                "hand_size": spec.hand_size,
            }
            for spec in ruleset.rounds
        ],
    }


def _referee_page(template: str, script: str) -> Response:
    return page(
        template,
        facts=[preset_facts(ruleset) for ruleset in PRESETS.values()],
        page_texts="referee",
        ranks=rank_names(),
        suits=suit_names(),
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
