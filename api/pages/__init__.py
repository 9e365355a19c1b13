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
import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from flask import Response, current_app, jsonify, render_template, request, url_for
from werkzeug.exceptions import NotFound

from rules import PRESETS, Contract, Ruleset

from .. import i18n
from ..extensions import database
from ..schemas.sheets import MAX_NAME, MAX_TITLE
from ..storage import StorageUnavailable, sheets
from . import network
from .assets import Encoded, PagesBlueprint, encoded
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
#: The colours of the header and of the page in light (pages.css's --tint and --paper): the
#: manifest's, and the colour a phone paints around the page.
THEME_COLOUR = "#eef2f7"
BACKGROUND_COLOUR = "#ffffff"


@blp.context_processor
def page_globals() -> dict[str, Any]:
    return {
        "_": gettext,
        "ngettext": ngettext,
        "words": i18n.words().text,
        "contract_text": contract_text,
        "asset_url": blp.asset_url,
        "module_preloads": blp.module_preloads,
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


#: What this blueprint answers the same whatever the language cookie says.
SAME_IN_EVERY_LANGUAGE = {"pages.static", "pages.service_worker", "pages.manifest"}


@blp.after_request
def keep_language(response: Response) -> Response:
    """A page asked for in a language (``?lang=``, the language switch) stays in it: the
    choice is kept in a cookie the later pages read (:func:`api.i18n.choose`)."""
    # The language switch's cookie chooses the page's language, as the browser's languages
    # do (and nothing else's: a static file, the service worker and the manifest are the same
    # whatever the cookie). Said as a string, without werkzeug's parse and rewrite of the Vary
    # set, which costs more than answering a page from memory (api.i18n then finds
    # Accept-Language already said).
    if request.endpoint not in SAME_IN_EVERY_LANGUAGE:
        vary = response.headers.get("Vary")
        by_language = "Cookie, Accept-Language"
        response.headers["Vary"] = f"{vary}, {by_language}" if vary else by_language
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
#: the same for every request that shares these, so it is rendered (and compressed) once per
#: process.
_RENDERED: dict[tuple[str, ...], Encoded] = {}


def page(
    template: str,
    *,
    key: tuple[str, ...] = (),
    status: int = 200,
    keep: bool = True,
    made: Callable[[], dict[str, Any]] | None = None,
    **context: Any,
) -> Response:
    """A rendered page with an ETag of its body, compressed when the browser accepts it; a
    phone that already has it gets a 304.

    ``key`` names what, besides the template, the language and the mount point, the page
    depends on: no page shows anything else of the request, so it is rendered once and
    answered from memory after (except in debug mode, where templates change as one works).
    A page made from whatever its address says (``keep=False``: a house ruleset's rules) is
    rendered for each request instead, and its language links keep its query. ``made``
    gives what else the template needs, asked for only when the page is rendered.
    """
    cache_key = (template, request.script_root, language(), *key)
    kept = None if current_app.debug or not keep else _RENDERED.get(cache_key)
    if kept is None:
        if not keep:
            context.setdefault("query_kept", request.args.to_dict())
        if made is not None:
            context.update(made())
        body = render_template(template, **context).encode()
        kept = encoded(body, "text/html", once=not keep)
        if keep and not current_app.debug:
            _RENDERED[cache_key] = kept
    if status != 200:
        return kept.answer(status=status)
    # A page has no ranges and no dates: its ETag is all a browser revalidates by.
    return kept.answer({"Cache-Control": "no-cache"})


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


class SeenSheets:
    """The sheets this process found stored in the last minute: the phones of a table open
    one sheet's page again and again (each phone, each reload, the view link), and the page
    is the same for every sheet, so only the first of them asks the database whether it is
    there. A sheet deleted meanwhile still gets its page for that minute, whose script then
    says it is gone, as it does for a sheet deleted while its page is open."""

    def __init__(self, seconds: float = 60, most: int = 4096) -> None:
        self.seconds = seconds
        self.most = most
        self._seen: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()  # a worker's threads note sheets at once

    def recently(self, sheet_id: str) -> bool:
        seen = self._seen.get(sheet_id)
        return seen is not None and time.monotonic() - seen < self.seconds

    def saw(self, sheet_id: str) -> None:
        with self._lock:
            self._seen[sheet_id] = time.monotonic()
            self._seen.move_to_end(sheet_id)
            while len(self._seen) > self.most:
                self._seen.popitem(last=False)


_SEEN_SHEETS = SeenSheets()


@blp.get("/m/<match_id>")
def sheet(match_id: str) -> Response:
    """One match sheet; its script reads it from the API and, with the edit token, writes it.

    The page is the same for every sheet (its script takes the id from the address), so it
    is rendered once and cached like the start page; a sheet that does not exist is a 404.
    """
    if not _SEEN_SHEETS.recently(match_id):
        try:
            with database.transaction() as connection:
                found = sheets.exists(connection, match_id)
        except StorageUnavailable:
            found = True  # the page's script asks the API, which says what is wrong
        else:
            if found:
                _SEEN_SHEETS.saw(match_id)
    else:
        found = True
    if not found:
        return page("not_found.html", key=("sheet",), status=404, sheet=True)
    answer = page(
        "sheet.html",
        matches=MATCHES,
        made=lambda: {"ranks": rank_names(), "suits": suit_names()},
    )
    # The page's script asks the API for the sheet as soon as it runs; on a slow network the
    # browser may ask while it fetches the scripts instead (the body stays the same for every
    # sheet: only this header names it). The browser asks in its own languages, not in the
    # page's (the script's request says the page's): so only where the two agree, else the
    # sheet's words would come in the wrong language.
    browsers = i18n.choose(request.environ.get("HTTP_ACCEPT_LANGUAGE", ""))
    if browsers == language():
        data = f"{request.script_root}{MATCHES}/{match_id}"
        answer.headers["Link"] = f"<{data}>; rel=preload; as=fetch; crossorigin"
    return answer


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


#: The service worker and the manifest, by mount point (and language): made once per process.
_APP_FILES: dict[tuple[str, ...], Encoded] = {}


@blp.get("/sw.js")
def service_worker() -> Response:
    """The service worker that keeps the pages and their files for a phone with no network
    (``templates/sw.js``). Served from the root, so that it may serve every page; its text
    names every static file by its digest, so any changed file makes a new worker, which the
    browser installs in place of the old one (it checks at each visit: ``no-cache``)."""
    every = [blp.asset_url(asset.name) for asset in blp.assets.all()]
    version = hashlib.blake2b("\n".join(every).encode(), digest_size=8).hexdigest()
    # The app's PNG icons are for the phone's launcher, which keeps its own copy: no page
    # needs them offline.
    files = [url for url in every if ".png?" not in url]
    key = ("sw.js", request.script_root, version)
    kept = None if current_app.debug else _APP_FILES.get(key)
    if kept is None:
        body = render_template("sw.js", version=version, files=files, root=request.script_root)
        kept = _APP_FILES[key] = encoded(body.encode(), "text/javascript; charset=utf-8")
    return kept.answer({"Cache-Control": "no-cache"})


@blp.get("/manifest/<code>.webmanifest")
def manifest(code: str) -> Response:
    """The web app manifest, in the language of the page that links it: what a phone needs to
    install the pages as an app of the home screen, opening on the start page."""
    if code not in i18n.LANGUAGES:
        raise NotFound()
    key = ("manifest", request.script_root, code)
    kept = None if current_app.debug else _APP_FILES.get(key)
    if kept is None:
        name = i18n.language(None, code).text("Rummy referee")
        start_url = url_for("pages.start")
        icon = blp.asset_url
        document = {
            "id": start_url,
            "name": name,
            "short_name": name,
            "lang": code,
            "dir": "ltr",
            "start_url": start_url,
            "scope": start_url,
            "display": "standalone",
            # The header's colour and the page's, in light: what the phone shows around the
            # app and while it opens.
            "theme_color": THEME_COLOUR,
            "background_color": BACKGROUND_COLOUR,
            "icons": [
                {"src": icon("icon-192.png"), "sizes": "192x192", "type": "image/png"},
                {"src": icon("icon-512.png"), "sizes": "512x512", "type": "image/png"},
                {
                    "src": icon("icon-maskable-512.png"),
                    "sizes": "512x512",
                    "type": "image/png",
                    "purpose": "maskable",
                },
                {"src": icon("icon.svg"), "sizes": "any", "type": "image/svg+xml"},
            ],
        }
        body = json.dumps(document, ensure_ascii=False, indent=1).encode()
        kept = _APP_FILES[key] = encoded(body, "application/manifest+json")
    return kept.answer({"Cache-Control": "no-cache"})


# The referee's pages and the rules of a ruleset are views of this blueprint too.
from . import referee, rulebook  # noqa: E402, F401
