"""The pages a card table uses: start a match, keep its sheet, print a blank sheet.

Server-rendered Jinja templates (``templates/``) and one small plain script per page
(``static/``). The server renders what the rules engine knows (the presets, their rounds and
tables); everything about a stored sheet the page's script reads and writes through the public
JSON API, like any other client, so the pages add no second way into the storage. Pages are
answered with an ETag and revalidated on every load; static files are named by their content's
digest and cached for a year.

These views are not part of the JSON API and not in openapi.yaml: they are registered on the
Flask app, not on the flask-smorest Api.
"""

from __future__ import annotations

import hashlib
from typing import Any
from urllib.parse import urlsplit

from flask import Response, current_app, jsonify, render_template, request
from werkzeug.exceptions import NotFound

from rules import PRESETS, Contract, Ruleset

from .. import i18n
from ..extensions import database
from ..schemas.sheets import MAX_NAME, MAX_TITLE
from ..storage import StorageUnavailable, sheets
from . import network
from .assets import PagesBlueprint
from .texts import family_name, gettext, ngettext, rank_names, script_texts, suit_names

blp = PagesBlueprint(
    "pages",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/assets",
)

#: Where the public API keeps match sheets: the pages' script reads and writes them there.
MATCHES = "/v1/matches"
#: The house options the start page offers, with the value each sets when chosen.
HAND_SIZE_THROUGHOUT = 10
RUN_WILDS_PER_CARDS = 4
#: The blank sheet has boxes for this many players: the most any preset seats.
BLANK_SHEET_SEATS = 8
#: How long the language a reader chose on a page is kept: a year, like any preference.
LANGUAGE_MAX_AGE = 365 * 24 * 3600


@blp.context_processor
def page_globals() -> dict[str, Any]:
    return {
        "_": gettext,
        "ngettext": ngettext,
        "words": i18n.words().text,
        "contract_text": contract_text,
        "asset_url": blp.asset_url,
        "lang": language(),
        "languages": i18n.NAMES,
        "texts": script_texts,
        "page_texts": "scorekeeping",
    }


def language() -> str:
    """The language the pages are written in for this request (:mod:`api.i18n` chose it)."""
    return i18n.code()


def contract_text(contract: Contract, family: str) -> str:
    """A contract's words in the reader's language, as its family's sheet says them."""
    words = i18n.language(family)
    return words.remember(("contract", contract), lambda: words.phrase(contract.words))


@blp.after_request
def keep_language(response: Response) -> Response:
    """A page asked for in a language (``?lang=``, the language switch) stays in it: the
    choice is kept in a cookie the later pages read (:func:`api.i18n.choose`)."""
    # The language switch's cookie chooses the page's language. A page from memory has no
    # Vary yet: said as it is, without werkzeug's parse of an empty set.
    if "Vary" in response.headers:
        response.vary.add("Cookie")
    else:
        response.headers["Vary"] = "Cookie"
    if not request.environ.get("QUERY_STRING"):
        return response  # nothing asked for: the language came from the cookie or the header
    wanted = i18n.ours(request.args.get("lang"))
    if wanted is not None and wanted == language():
        response.set_cookie(
            i18n.COOKIE,
            wanted,
            max_age=LANGUAGE_MAX_AGE,
            samesite="Lax",
            httponly=True,
            secure=request.is_secure,
        )
    return response


#: Rendered pages by template, mount point, language and what else the page shows; a page is
#: the same for every request that shares these, so it is rendered once per process.
_RENDERED: dict[tuple[str, ...], tuple[bytes, str]] = {}


def page(
    template: str,
    *,
    key: tuple[str, ...] = (),
    status: int = 200,
    keep: bool = True,
    **context: Any,
) -> Response:
    """A rendered page with an ETag of its body; a phone that already has it gets a 304.

    ``key`` names what, besides the template, the language and the mount point, the page
    depends on: no page shows anything else of the request, so it is rendered once and
    answered from memory after (except in debug mode, where templates change as one works).
    A page made from whatever its address says (``keep=False``: a house ruleset's rules) is
    rendered for each request instead, and its language links keep its query.
    """
    cache_key = (template, request.script_root, language(), *key)
    kept = None if current_app.debug or not keep else _RENDERED.get(cache_key)
    if kept is None:
        if not keep:
            context.setdefault("query_kept", request.args.to_dict())
        body = render_template(template, **context).encode()
        kept = (body, f'"{hashlib.blake2b(body, digest_size=12).hexdigest()}"')
        if keep and not current_app.debug:
            _RENDERED[cache_key] = kept
    body, etag = kept
    if status != 200:
        return Response(body, status=status, mimetype="text/html")
    # A page has no ranges and no dates: its ETag is all make_conditional would look at.
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if request.if_none_match.contains(etag.strip('"')):
        return Response(status=304, headers=headers)
    return Response(body, headers=headers, mimetype="text/html")


def tables_text(ruleset: Ruleset) -> list[str]:
    """Decks and jokers by table size, in words."""
    lines = []
    low = ruleset.min_players
    for size in ruleset.tables:
        high = min(size.max_players, ruleset.max_players)
        if high < low:
            continue
        players = str(low) if low == high else f"{low}–{high}"
        lines.append(
            gettext(
                "%(players)s players: %(decks)s decks, %(jokers)s jokers",
                players=players,
                decks=size.decks,
                jokers=size.jokers,
            )
        )
        low = high + 1
    return lines


@blp.get("/")
def start() -> Response:
    """Start a match: the presets to choose from, the house options, the players."""
    return page(
        "start.html",
        rulesets=list(PRESETS.values()),
        family_name=family_name,
        tables_text=tables_text,
        hand_size=HAND_SIZE_THROUGHOUT,
        run_wilds_per_cards=RUN_WILDS_PER_CARDS,
        # The API's limits, checked on the page before anything is sent (in characters, as the
        # API counts them: an input's maxlength counts UTF-16 units, two for most emoji).
        name_most=MAX_NAME,
        title_most=MAX_TITLE,
    )


@blp.get("/m/<match_id>")
def sheet(match_id: str) -> Response:
    """One match sheet; its script reads it from the API and, with the edit token, writes it.

    The page is the same for every sheet (its script takes the id from the address), so it
    is rendered once and cached like the start page; a sheet that does not exist is a 404.
    """
    try:
        with database.transaction() as connection:
            found = sheets.exists(connection, match_id)
    except StorageUnavailable:
        found = True  # the page's script asks the API, which says what is wrong
    if not found:
        return page("not_found.html", key=("sheet",), status=404, sheet=True)
    return page(
        "sheet.html",
        matches=MATCHES,
        ranks=rank_names(),
        suits=suit_names(),
    )


@blp.get("/network")
def network_addresses() -> Response:
    """This machine's addresses on the table's network, for a sheet opened on the machine
    itself (:mod:`api.pages.network`); a 404 for anyone else."""
    asked = urlsplit(f"//{request.host}")
    forwarded = "X-Forwarded-For" in request.headers or "Forwarded" in request.headers
    if (
        forwarded
        or not network.is_loopback(request.remote_addr or "")
        or not network.is_loopback(asked.hostname or "")
    ):
        raise NotFound()
    port = asked.port or (443 if request.scheme == "https" else 80)
    found = network.addresses(port)
    response = jsonify(
        addresses=[
            {"origin": f"{request.scheme}://{address.host}:{port}", "reachable": address.reachable}
            for address in found
        ]
    )
    response.cache_control.no_store = True
    return response


@blp.get("/rulesets/<ruleset_id>/sheet")
def blank_sheet(ruleset_id: str) -> Response:
    """A ruleset's blank score sheet, to print: rounds, contracts, hand sizes and boxes."""
    ruleset = PRESETS.get(ruleset_id)
    if ruleset is None:
        return page("not_found.html", status=404)
    return page(
        "blank_sheet.html",
        key=(ruleset.id,),
        ruleset=ruleset,
        seats=range(BLANK_SHEET_SEATS),
        family_name=family_name,
        tables_text=tables_text,
    )


# The referee's pages and the rules of a ruleset are views of this blueprint too.
from . import referee, rulebook  # noqa: E402, F401
