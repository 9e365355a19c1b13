"""The pages as the server answers them, without a browser: caching, QR codes, the blank sheet,
what a Content-Security-Policy will demand of the markup, and the weight of each page."""

from __future__ import annotations

import gzip
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import brotli
import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from api.pages import SeenSheets, blp
from api.pages.assets import Assets
from api.pages.texts import script_texts
from rules import PRESETS

STATIC = Path(__file__).resolve().parents[2] / "api" / "pages" / "static"
#: A sheet's page is asked for by its id, made for each test (``page_path``).
PAGES = ["/", "/m/<sheet>", "/rulesets/liverpool/sheet", "/rulesets/liverpool", "/check", "/hand"]
MOST_PAGE_BYTES = 100 * 1024


def get(client: FlaskClient, path: str, **options: Any) -> TestResponse:
    """GET ``path``, its body read and the answer closed (a static file is an open file)."""
    answer = client.get(path, **options)
    answer.get_data()
    answer.close()
    return answer


class Markup(HTMLParser):
    """What a page links and whatever a strict CSP would refuse in it."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.refused: list[str] = []

    def handle_starttag(self, tag: str, attributes: list[tuple[str, str | None]]) -> None:
        named = dict(attributes)
        for name, value in attributes:
            if name == "style" or name.startswith("on"):
                self.refused.append(f"<{tag} {name}=...>")
            if name in ("src", "href") and value and not value.startswith("#"):
                self.links.append(value)
        if tag == "script" and "src" not in named and named.get("type") != "application/json":
            self.refused.append("<script> with inline code")
        if tag == "style":
            self.refused.append("<style>")


@pytest.fixture
def page_path(client: FlaskClient) -> Any:
    """A page's path, a sheet's made for the test: a sheet's page is there only for a sheet."""

    def made(path: str) -> str:
        if "<sheet>" not in path:
            return path
        answer = client.post(
            "/v1/matches", json={"ruleset": "liverpool", "players": ["A", "B", "C"]}
        )
        return path.replace("<sheet>", answer.get_json()["id"])

    return made


def test_a_sheet_that_is_not_there_has_no_page(client: FlaskClient) -> None:
    answer = get(client, "/m/AbCdEfGhIjKlMnOpQrStUv")
    assert answer.status_code == 404 and answer.mimetype == "text/html"
    assert get(client, "/m/not*an*id").status_code == 404


def read(client: FlaskClient, path: str) -> Markup:
    answer = get(client, path)
    assert answer.status_code == 200, path
    markup = Markup()
    markup.feed(answer.get_data(as_text=True))
    return markup


@pytest.mark.parametrize("path", PAGES)
def test_a_page_is_revalidated_by_its_etag(client: FlaskClient, page_path: Any, path: str) -> None:
    path = page_path(path)
    answer = get(client, path)
    assert answer.status_code == 200
    assert answer.mimetype == "text/html"
    assert answer.headers["Cache-Control"] == "no-cache"
    again = get(client, path, headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304
    assert again.data == b""


@pytest.mark.parametrize("path", PAGES)
def test_a_page_holds_nothing_a_strict_policy_refuses(
    client: FlaskClient, page_path: Any, path: str
) -> None:
    markup = read(client, page_path(path))
    assert markup.refused == []
    # Everything is served by this origin: the table may have no internet. (The language
    # switch's links are the page itself with another ?lang=.)
    assert [link for link in markup.links if not link.startswith(("/", "?lang="))] == []


def test_static_files_by_digest_are_cached_for_a_year(client: FlaskClient) -> None:
    for link in read(client, "/").links:
        if not link.startswith("/assets/"):
            continue
        answer = get(client, link)
        assert answer.status_code == 200
        assert "max-age=31536000" in answer.headers["Cache-Control"]
        assert "immutable" in answer.headers["Cache-Control"]
        # The same file without its digest is revalidated instead, so it is never stale.
        plain = get(client, link.split("?")[0])
        assert "max-age" not in plain.headers.get("Cache-Control", "")
        again = get(client, link.split("?")[0], headers={"If-None-Match": plain.headers["ETag"]})
        assert again.status_code == 304


def test_no_static_file_outside_its_folder(client: FlaskClient) -> None:
    assert get(client, "/assets/../__init__.py").status_code == 404
    assert get(client, "/assets/%2e%2e/texts.py").status_code == 404
    assert get(client, "/assets/missing.js").status_code == 404


#: How a browser asks for a file over plain HTTP: gzip, not Brotli (which browsers ask for over
#: HTTPS only), so a page's weight is counted as the larger of the two.
BROWSER_ENCODINGS = {"Accept-Encoding": "gzip, deflate"}
#: What a phone parses, whatever the wire carried: kept in bounds too.
MOST_UNCOMPRESSED_BYTES = 200 * 1024


def _with_imports(client: FlaskClient, link: str, seen: set[str]) -> tuple[int, int]:
    """The bytes sent (compressed) and the bytes as they are, of a file and, for a script, of
    every module it imports."""
    if link in seen:
        return 0, 0
    seen.add(link)
    sent = get(client, link, headers=BROWSER_ENCODINGS)
    assert sent.status_code == 200, link
    body = get(client, link).data
    total = (len(sent.data), len(body))
    if link.split("?")[0].endswith(".js"):
        for name in re.findall(rb'from "\./([\w.-]+\.js(?:\?v=\w+)?)"', body):
            more = _with_imports(client, f"/assets/{name.decode()}", seen)
            total = (total[0] + more[0], total[1] + more[1])
    return total


def page_weight(client: FlaskClient, path: str) -> tuple[int, int]:
    """A page with everything it loads: (bytes sent, bytes as they are)."""
    seen: set[str] = set()
    sent = len(get(client, path, headers=BROWSER_ENCODINGS).data)
    whole = len(get(client, path).data)
    links = [
        link for link in read(client, path).links if link.startswith(("/assets/", "/manifest/"))
    ]
    for link in links:
        more = _with_imports(client, link, seen)
        sent, whole = sent + more[0], whole + more[1]
    return sent, whole


@pytest.mark.parametrize("path", PAGES)
def test_each_page_with_all_it_loads_weighs_under_100_kb(
    client: FlaskClient, page_path: Any, path: str
) -> None:
    sent, whole = page_weight(client, page_path(path))
    assert sent < MOST_PAGE_BYTES, f"{path} sends {sent} bytes"
    assert whole < MOST_UNCOMPRESSED_BYTES, f"{path} is {whole} bytes uncompressed"
    assert sent < whole / 2, "compression saves less than half: is it on?"


def test_the_start_page_offers_every_preset_with_its_rounds(client: FlaskClient) -> None:
    page = get(client, "/").get_data(as_text=True)
    for ruleset in PRESETS.values():
        assert f'value="{ruleset.id}"' in page
        assert f'data-max-players="{ruleset.max_players}"' in page
        assert f"/rulesets/{ruleset.id}/sheet" in page
    liverpool = page[page.index('id="ruleset-liverpool"') : page.index('id="ruleset-liverpool-9"')]
    contracts = re.findall(r'<span class="contract">([^<]+)</span>', liverpool)
    assert contracts == [spec.contract.text for spec in PRESETS["liverpool"].rounds]


def test_the_blank_sheet_has_every_round_and_eight_players(client: FlaskClient) -> None:
    page = get(client, "/rulesets/shanghai/sheet").get_data(as_text=True)
    rows = re.findall(r'<td class="contract">([^<]+)</td>\s*<td class="dealt">(\d+)</td>', page)
    assert rows == [
        (spec.contract.text, str(spec.hand_size)) for spec in PRESETS["shanghai"].rounds
    ]
    assert page.count('class="name-box"') == 8
    assert page.count('class="box total"') == 8 * 8


def test_an_unknown_ruleset_or_sheet_address_is_a_page_not_found(client: FlaskClient) -> None:
    for path in ("/rulesets/snap/sheet", "/m/not.an.id"):
        answer = get(client, path)
        assert answer.status_code == 404
        assert answer.mimetype == "text/html"
    # The API's own answers are unchanged: a problem document.
    assert get(client, "/v1/nothing").mimetype == "application/problem+json"


#: The scripts of each page family, by the texts they carry (api.pages.texts.script_texts).
SCRIPTS = {
    "scorekeeping": [
        "common",
        "start",
        "sheet",
        "entry",
        "scores",
        "share",
        "lean-qr",
        "picker",
        "chart",
        "print",
        "wakelock",
    ],
    "referee": ["common", "referee", "check", "hand"],
}
#: The scripts of every page, which show no text: the colours and the service worker.
EVERY_PAGE = ["theme", "offline"]


@pytest.mark.parametrize("page", sorted(SCRIPTS))
def test_every_text_the_scripts_show_is_in_their_pages_dictionary(page: str) -> None:
    """Each key the scripts of a page pass to say() (the first argument, a literal or a choice
    between literals) is defined in that page's script_texts, and each text defined there is
    named by one of its scripts."""
    used: set[str] = set()
    named: set[str] = set()
    for name in SCRIPTS[page]:
        source = (STATIC / f"{name}.js").read_text()
        for argument in re.findall(r"say\(([^,)]+)", source):
            used |= set(re.findall(r'"(\w+)"', argument))
        named |= set(re.findall(r'"(\w+)"', source))
    texts = script_texts(page)
    assert len(used) > 20, "few texts found: the pattern no longer matches the scripts"
    assert used - set(texts) == set()
    assert set(texts) - named == set()


def test_every_script_belongs_to_a_page() -> None:
    scripts = {path.stem for path in STATIC.glob("*.js")}
    assert scripts == {name for names in SCRIPTS.values() for name in names} | set(EVERY_PAGE)
    for name in EVERY_PAGE:
        assert "say(" not in (STATIC / f"{name}.js").read_text()


@pytest.mark.parametrize("path", ["/check", "/hand"])
@pytest.mark.parametrize("language", ["en", "de", "nl", "it", "nb"])
def test_the_referees_pages_speak_each_language(
    client: FlaskClient, path: str, language: str
) -> None:
    """Each referee page, in each language: its own words, every preset, and the card grid."""
    answer = get(client, f"{path}?lang={language}")
    assert answer.status_code == 200
    assert answer.headers["Content-Language"] == language
    page = answer.get_data(as_text=True)
    assert f'<html lang="{language}">' in page
    english = get(client, f"{path}?lang=en").get_data(as_text=True)
    heading = re.search(r"<h1>([^<]+)</h1>", page)
    assert heading is not None
    if language != "en":
        assert heading.group(1) not in english
    assert page.count('class="card-button') == 53
    # Every preset to choose from, by its name in the language; its rounds are the API's.
    for ruleset in PRESETS.values():
        assert f'<option value="{ruleset.id}">' in page


def test_the_start_page_links_the_referee_and_each_rulesets_rules(client: FlaskClient) -> None:
    page = get(client, "/").get_data(as_text=True)
    assert 'href="/check"' in page and 'href="/hand"' in page
    for ruleset in PRESETS.values():
        assert f'href="/rulesets/{ruleset.id}"' in page
        assert f'href="/check?ruleset={ruleset.id}"' in page


def test_the_sheet_page_has_the_referees_links(client: FlaskClient, page_path: Any) -> None:
    page = get(client, page_path("/m/<sheet>")).get_data(as_text=True)
    for link in ("check-link", "hand-link", "rules-link"):
        assert f'id="{link}"' in page


# --- compression, module graphs, the worker and the manifest -----------------------------------


def asset_url(client: FlaskClient, name: str) -> str:
    """A static file's versioned address, as the pages link it."""
    with client.application.test_request_context():
        return blp.asset_url(name)


@pytest.mark.parametrize(("accepted", "encoding"), [("gzip, deflate", "gzip"), ("gzip, br", "br")])
@pytest.mark.parametrize("path", ["/", "/check", "/assets/pages.css", "/sw.js"])
def test_text_is_sent_compressed_when_the_browser_accepts_it(
    client: FlaskClient, path: str, accepted: str, encoding: str
) -> None:
    plain = get(client, path)
    sent = get(client, path, headers={"Accept-Encoding": accepted})
    assert sent.headers["Content-Encoding"] == encoding
    assert "Accept-Encoding" in sent.headers["Vary"]
    assert "Accept-Encoding" in plain.headers["Vary"]
    assert len(sent.data) < len(plain.data) / 2
    decompress = gzip.decompress if encoding == "gzip" else brotli.decompress
    assert decompress(sent.data) == plain.data
    # Each form has an ETag of its own; any of them shows the browser has the content.
    assert sent.headers["ETag"] != plain.headers["ETag"]
    again = get(
        client,
        path,
        headers={"Accept-Encoding": accepted, "If-None-Match": sent.headers["ETag"]},
    )
    assert again.status_code == 304


def test_the_json_api_is_sent_as_it_is(client: FlaskClient) -> None:
    answer = get(client, "/v1/rulesets/liverpool", headers={"Accept-Encoding": "gzip, br"})
    assert "Content-Encoding" not in answer.headers


def test_a_png_is_not_compressed_again(client: FlaskClient) -> None:
    answer = get(client, "/assets/icon-192.png", headers={"Accept-Encoding": "gzip, br"})
    assert answer.status_code == 200 and "Content-Encoding" not in answer.headers


def test_a_module_imports_its_neighbours_by_digest(client: FlaskClient) -> None:
    """As served, each import names the versioned address the page's links use: cached for a
    year, and one module for the page whichever way it is reached."""
    sheet = get(client, "/assets/sheet.js").get_data(as_text=True)
    imports = re.findall(r'from "\./([\w.-]+\.js)(\?v=\w+)?"', sheet)
    assert {name for name, _ in imports} >= {"common.js", "entry.js", "scores.js"}
    for name, version in imports:
        assert version, f"sheet.js imports {name} without its digest"
        assert f"/assets/{name}{version}" == asset_url(client, name)
    source = (STATIC / "sheet.js").read_text()
    assert 'from "./common.js";' in source  # the file itself is as written


@pytest.mark.parametrize("path", ["/m/<sheet>", "/check", "/hand", "/"])
def test_each_page_preloads_its_whole_module_graph(
    client: FlaskClient, page_path: Any, path: str
) -> None:
    page = get(client, page_path(path)).get_data(as_text=True)
    entries = re.findall(r'<script type="module"[^>]* src="/assets/([\w.-]+\.js)\?v=', page)
    preloaded = re.findall(r'<link rel="modulepreload" href="(/assets/[^"]+)"', page)
    wanted: set[str] = set()
    waiting = list(entries)
    while waiting:
        body = get(client, asset_url(client, waiting.pop())).get_data(as_text=True)
        for name in re.findall(r'from "\./([\w.-]+\.js)\?v=', body):
            if asset_url(client, name) not in wanted:
                wanted.add(asset_url(client, name))
                waiting.append(name)
    assert set(preloaded) == wanted
    if path != "/":
        assert wanted, "a page whose script imports nothing: the pattern no longer matches"


def test_a_sheet_page_names_its_sheets_data_to_preload(client: FlaskClient, page_path: Any) -> None:
    path = page_path("/m/<sheet>")
    answer = get(client, path, headers={"Accept-Language": "de"})
    assert answer.headers["Link"] == f"</v1/matches/{path[3:]}>; rel=preload; as=fetch; crossorigin"
    # A page in another language than the browser's: the browser's preload would bring the
    # sheet in its own languages, so there is none.
    assert "Link" not in get(client, f"{path}?lang=nl", headers={"Accept-Language": "de"}).headers


def test_a_changed_file_makes_a_new_worker(
    client: FlaskClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker names every static file by digest: a change to any (here common.js, which
    the other modules import) gives new addresses, so the browser installs a new worker."""
    static = tmp_path / "static"
    shutil.copytree(STATIC, static)
    monkeypatch.setattr(blp, "_assets", Assets(static, look_again=0), raising=False)
    before = get(client, "/sw.js")
    assert before.headers["Cache-Control"] == "no-cache"
    worker = before.get_data(as_text=True)
    for path in static.iterdir():
        # Every file the pages use is fetched when the worker installs (the launcher's icons
        # are not: the phone keeps its own copy).
        listed = f'"{asset_url(client, path.name)}"' in worker
        assert listed == (path.suffix != ".png"), path.name
    with (static / "icon-192.png").open("ab") as icon:
        icon.write(b"\0")
    assert get(client, "/sw.js").get_data(as_text=True) != worker
    worker = get(client, "/sw.js").get_data(as_text=True)
    with (static / "common.js").open("a") as common:
        common.write("// changed\n")
    changed = get(client, "/sw.js").get_data(as_text=True)
    assert changed != worker
    assert (
        asset_url(client, "common.js") in changed and asset_url(client, "common.js") not in worker
    )
    # sheet.js is unchanged, but it imports common.js: its address changes too.
    assert asset_url(client, "sheet.js") not in worker


def test_the_manifest_speaks_the_pages_language(client: FlaskClient) -> None:
    page = get(client, "/?lang=nl").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest/nl.webmanifest">' in page
    answer = get(client, "/manifest/nl.webmanifest")
    assert answer.mimetype == "application/manifest+json"
    manifest = json.loads(answer.data)
    assert manifest["name"] == "Rummy-scheidsrechter" and manifest["lang"] == "nl"
    assert manifest["start_url"] == manifest["scope"] == "/"
    for icon in manifest["icons"]:
        assert get(client, icon["src"]).status_code == 200
    assert get(client, "/manifest/fr.webmanifest").status_code == 404


def test_a_sheet_found_is_remembered_for_a_minute() -> None:
    """The sheet page asks the database once a minute per sheet, and forgets the oldest first."""
    seen = SeenSheets(seconds=60, most=2)
    assert not seen.recently("a")
    for sheet_id in ("a", "b", "c"):
        seen.saw(sheet_id)
    assert not seen.recently("a") and seen.recently("b") and seen.recently("c")
    assert not SeenSheets(seconds=0).recently("b")
    stale = SeenSheets(seconds=0)
    stale.saw("b")
    assert not stale.recently("b")


def test_a_module_fetched_when_wanted_is_versioned_but_not_preloaded(
    client: FlaskClient, page_path: Any
) -> None:
    """The sheet's chart, sharing and picker are fetched once the totals are shown: their
    addresses are versioned like every import, and the page does not preload them."""
    sheet = get(client, "/assets/sheet.js").get_data(as_text=True)
    lazy = dict(re.findall(r'import\("\./([\w.-]+\.js)(\?v=\w+)"\)', sheet))
    assert set(lazy) == {"chart.js", "share.js"}
    for name, version in lazy.items():
        assert f"/assets/{name}{version}" == asset_url(client, name)
    page = get(client, page_path("/m/<sheet>")).get_data(as_text=True)
    preloaded = re.findall(r'<link rel="modulepreload" href="/assets/([\w.-]+\.js)\?', page)
    assert not {"chart.js", "share.js", "picker.js", "lean-qr.js"} & set(preloaded)
