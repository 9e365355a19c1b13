"""An evening at a card table, in a real browser: start a Liverpool match for four on the start
page, play its seven rounds on the sheet page (points typed, and counted with the card picker),
see a mistake refused next to its field, the winner and the chart, correct a round, take one
back, reload, follow the match from a second phone by the view link, lose a race to a third
phone without losing what was typed, and print both sheets.

Every page is checked by axe-core, screenshotted at 360 px and 1280 px, and served under a
strict Content-Security-Policy; no request may leave the server's origin.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = [pytest.mark.browser, pytest.mark.server]

NAMES = ["Ann", "Bob", "Cleo", "Dan"]
#: Each round: who went out, and every other seat's points (a list: cards for the picker).
ROUNDS: list[tuple[int, dict[int, int | list[str]]]] = [
    (0, {1: 35, 2: 20, 3: 25}),
    (1, {0: ["KH", "KS", "JK"], 2: 40, 3: 15}),
    (2, {0: 10, 1: ["7H", "7H"], 3: 60}),
    (3, {0: 5, 1: 50, 2: 30}),
    (0, {1: 20, 2: 10, 3: 45}),
    (1, {0: 30, 2: 25, 3: 10}),
    (2, {0: 15, 1: 65, 3: 20}),
]
#: The totals after the seven rounds (the picker's cards cost 10 + 10 + 15 and 5 + 5).
TOTALS = [95, 180, 125, 175]


def check_accessibility(page: Page, name: str) -> None:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    assert results.violations_count == 0, f"{name}: {results.generate_report()}"


def screenshots(page: Page, name: str, output: Path) -> None:
    """The page at a phone's width and at a desktop's, the whole length of it."""
    size = page.viewport_size
    assert size is not None, "each phone's context is made with a viewport"
    for width in (360, 1280):
        page.set_viewport_size({"width": width, "height": 800})
        # From the top: a page scrolled to a focused field is drawn short in a full-page shot.
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(100)
        # Nothing makes the page itself wider than the phone: wide tables scroll in their box.
        assert page.evaluate("document.documentElement.scrollWidth") <= width, f"{name} at {width}"
        page.screenshot(path=str(output / f"{name}-{width}.png"), full_page=True)
    page.set_viewport_size(size)


def start_match(page: Page, server: str) -> str:
    """Fill the start page as a table would, with a reorder and a removal; answers the id."""
    page.goto(server + "/")
    page.wait_for_selector("#player-3")
    assert page.is_checked("#ruleset-liverpool")
    for seat, name in enumerate(["Ann", "Cleo", "Bob", "Dan"]):
        page.fill(f"#player-{seat}", name)
    # Bob before Cleo, by keyboard: the focus follows the moved player, so a second press
    # would move Bob again.
    page.focus("#player-list li:nth-child(3) [data-action=up]")
    page.keyboard.press("Enter")
    assert (
        page.evaluate("document.activeElement.closest('li').querySelector('input').value") == "Bob"
    )
    assert page.evaluate("document.activeElement.dataset.action") == "up"
    page.click("#add-player")
    page.fill("#player-4", "Eve")
    page.click("#player-list li:nth-child(5) [data-action=remove]")
    names = page.eval_on_selector_all(".player-name", "inputs => inputs.map(i => i.value)")
    assert names == NAMES
    page.select_option("#first-dealer", "0")
    # Mistakes are refused next to the fields they concern: a fourth name that is the first's
    # (by the page, before anything is sent), then a buy limit of none at all (by the API).
    page.fill("#player-3", "ANN")
    page.click("#start-button")
    page.wait_for_selector("#error-players-3:not([hidden])")
    assert page.get_attribute("#player-3", "aria-invalid") == "true"
    assert "already the name of player 1" in page.inner_text("#error-players-3")
    page.fill("#player-3", "Dan")
    page.fill("#buy-limit", "0")
    page.click("#start-button")
    page.wait_for_selector("#error-ruleset-options-buy_limit:not([hidden])")
    assert "equal to 20" in page.inner_text("#error-ruleset-options-buy_limit")
    assert page.input_value("#player-2") == "Cleo"
    check_accessibility(page, "start page, refused")
    page.fill("#buy-limit", "")
    # A double tap sends the form twice; the Idempotency-Key makes it one sheet.
    with page.expect_navigation(url=re.compile(r"/m/[\w-]+$")):
        page.dblclick("#start-button")
    return page.url.rsplit("/", 1)[1]


def enter_round(page: Page, out: int, points: dict[int, int | list[str]]) -> None:
    page.check(f"#out-{out}")
    for seat, value in points.items():
        if isinstance(value, list):
            page.click(f"[data-count='{seat}']")
            for card in value:
                page.click(f"#picker [data-card='{card}']")
            assert page.is_visible("#picker-total")
            page.click("#picker button[value=use]")
        else:
            page.fill(f"#points-{seat}", str(value))


def save_round(page: Page, number: int) -> None:
    page.click("#save-round")
    page.wait_for_function(
        "number => document.getElementById('entry-status').textContent.includes('Round ' + number)",
        arg=number,
    )


def roles(page: Page) -> dict[str, str]:
    """Who deals, cuts and plays first, as the briefing says it."""
    pairs = page.eval_on_selector_all(
        "#roles .role",
        "roles => roles.map(r => [r.querySelector('dt').textContent, r.querySelector('dd').textContent])",
    )
    return dict(pairs)


def column_totals(page: Page) -> list[int]:
    cells = page.eval_on_selector_all(
        "#score-table tfoot td.total", "cells => cells.map(c => c.textContent)"
    )
    return [int(text) for text in cells]


def pdf_pages(path: Path) -> int:
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", path.read_bytes()))


def api_put(server: str, match_id: str, token: str, number: int, body: dict[str, Any]) -> None:
    """A round recorded by another client of the API (the third phone's script, in effect)."""
    with urllib.request.urlopen(f"{server}/v1/matches/{match_id}") as answer:
        etag = answer.headers["ETag"]
    request = urllib.request.Request(
        f"{server}/v1/matches/{match_id}/rounds/{number}",
        data=json.dumps(body).encode(),
        method="PUT",
        headers={
            "Content-Type": "application/json",
            "Authorization": f"Bearer {token}",
            "If-Match": etag,
        },
    )
    with urllib.request.urlopen(request) as answer:
        assert answer.status == 200


def test_an_evening_at_the_table(phones: Any, server: str, output: Path) -> None:
    scorer = phones(width=360)
    page = scorer.page()
    # The scorekeeper's phone polls only when the test says so: what it shows after the race
    # below is then the 412's doing, not a poll's.
    page.clock.install()

    page.goto(server + "/")
    page.wait_for_selector("#player-3")
    check_accessibility(page, "start page")
    screenshots(page, "start", output)
    match_id = start_match(page, server)

    # The briefing before the first deal.
    page.wait_for_selector("#entry:not([hidden])")
    assert page.inner_text("#briefing-title") == "Round 1 of 7: 2 sets"
    briefing = page.inner_text("#briefing-lines")
    assert "Deal 10 cards to each player." in briefing
    assert "Play with 2 decks and 4 jokers." in briefing
    assert roles(page) == {"Deals": "Ann", "Cuts": "Bob", "Plays first": "Bob"}
    check_accessibility(page, "sheet page, empty")
    screenshots(page, "sheet-empty", output)

    # A mistake is refused next to its field, and nothing typed is lost.
    enter_round(page, 0, {1: 35, 2: 20, 3: 3})
    page.click("#save-round")
    error = page.wait_for_selector("#error-results-3:not([hidden])")
    assert (
        error.inner_text()
        == "Dan: no hand of up to 10 cards costs 3 points (cards cost 5, 10, 15)."
    )
    assert page.get_attribute("#points-3", "aria-invalid") == "true"
    assert page.is_checked("#out-0")
    assert [page.input_value(f"#points-{seat}") for seat in (1, 2)] == ["35", "20"]
    check_accessibility(page, "sheet page, a refused round")
    screenshots(page, "sheet-refused", output)
    page.fill("#points-3", "25")
    save_round(page, 1)

    # The other six rounds, with the picker in rounds 2 and 3 (a king, a king and a joker;
    # the same seven twice) and a buy in round 4.
    for number, (out, points) in enumerate(ROUNDS[1:], start=2):
        assert page.inner_text("#briefing-title").startswith(f"Round {number} of 7")
        enter_round(page, out, points)
        if number == 2:
            assert page.inner_text("#counted-0").startswith("3 cards: 35 points")
        if number == 3:
            assert page.inner_text("#counted-1").startswith("2 cards: 10 points")
        if number == 4:
            page.fill("#buys-1", "1")
        if number == 2:
            page.click("[data-count='3']")
            page.click("#picker [data-card='QD']")
            screenshots(page, "picker", output)
            check_accessibility(page, "card picker")
            page.keyboard.press("Escape")  # the picker is a modal dialog: Escape cancels it
            assert page.is_hidden("#picker")
            assert page.input_value("#points-3") == "15"
        save_round(page, number)

    # The winner, the final ranking and the chart.
    assert page.inner_text("#ending-title") == "Ann wins!"
    assert page.inner_text("#result-line") == "with 95 points"
    assert column_totals(page) == TOTALS
    assert page.inner_text("#ranking li >> nth=0") == "1st\nAnn\n95"
    assert page.locator("#chart svg polyline").count() == 4
    assert page.get_attribute("#chart svg polyline", "points").count(",") == 8  # 0 and 7 rounds
    assert page.is_hidden("#entry")
    check_accessibility(page, "sheet page, finished")
    screenshots(page, "sheet-finished", output)
    for paper in ("A4", "Letter"):
        filled = output / f"sheet-filled-{paper.lower()}.pdf"
        page.pdf(path=str(filled), format=paper, print_background=True)
        assert pdf_pages(filled) == 1, f"the filled sheet takes more than one {paper} page"

    # Correct round 3 (from its details): Dan held 40, not 60.
    page.click(".round-row[data-round='3'] .round-toggle")
    page.click("[data-correct='3']")
    assert page.inner_text("#entry-title") == "Correct round 3"
    assert page.input_value("#points-3") == "60"
    assert page.inner_text("#counted-1").startswith("2 cards: 10 points")
    page.fill("#points-3", "40")
    page.click("#save-round")
    page.wait_for_function(
        "() => document.querySelector('#score-table tfoot').textContent.includes('155')"
    )
    assert column_totals(page) == [95, 180, 125, 155]

    # Take back round 7.
    page.click("#take-back-button")
    page.click("#take-back-yes")
    page.wait_for_selector("#entry:not([hidden])")
    assert page.inner_text("#entry-title") == "Enter round 7"
    assert page.is_hidden("#ending")
    assert column_totals(page) == [80, 115, 125, 135]

    # A reload keeps the edit token: the page can still enter round 7.
    page.reload()
    page.wait_for_selector("#entry:not([hidden])")
    assert page.inner_text("#entry-title") == "Enter round 7"
    view_link = page.input_value("#view-link")
    edit_link = page.input_value("#edit-link")
    assert view_link == f"{server}/m/{match_id}"
    assert edit_link.startswith(f"{server}/m/{match_id}#edit=")
    page.click("#show-edit-qr")
    page.wait_for_selector("#edit-qr svg")

    # A second phone follows by the view link, and cannot write.
    viewer_phone = phones(width=1280)
    viewer = viewer_phone.page()
    viewer.goto(view_link)
    viewer.wait_for_selector("#scores:not([hidden])")
    assert viewer.is_hidden("#entry") and viewer.is_hidden("#edit-share")
    assert "only view" in viewer.inner_text("#sheet-status")
    check_accessibility(viewer, "sheet page, view only")

    # The scorekeeper types round 7 while a third phone records it first: the 412 shows both
    # entries side by side; replacing theirs corrects the round knowingly.
    enter_round(page, 2, {0: 15, 1: 65, 3: 20})
    token = edit_link.split("#edit=", 1)[1]
    third = {
        "results": [
            {"seat": 0, "points": 20},
            {"seat": 1, "points": 60},
            {"seat": 2, "went_out": True},
            {"seat": 3, "points": 20},
        ]
    }
    api_put(server, match_id, token, 7, third)
    page.click("#save-round")
    conflict = page.wait_for_selector("#conflict:not([hidden])")
    assert "Another phone saved round 7 first." in conflict.inner_text()
    assert [page.input_value(f"#points-{seat}") for seat in (0, 1, 3)] == ["15", "65", "20"]
    assert page.is_checked("#out-2")
    assert page.inner_text("#entry-title") == "Correct round 7"  # saving now corrects it
    page.click("#replace-mine")
    page.wait_for_function(
        "() => document.getElementById('entry-status').textContent === 'Round 7 is saved.'"
    )
    assert page.inner_text("#ending-title") == "Ann wins!"

    # The view phone sees the round appear without a reload (it polls every few seconds).
    viewer.wait_for_function(
        "() => document.getElementById('ending-title').textContent === 'Ann wins!'",
        timeout=15_000,
    )
    screenshots(viewer, "sheet-view-only", output)
    # Nothing changes now: the next poll is answered 304 Not Modified.
    with viewer.expect_response(lambda answer: answer.status == 304, timeout=15_000):
        pass

    # The blank sheet of the ruleset, printed on one Letter page.
    page.goto(f"{server}/rulesets/liverpool/sheet")
    assert page.locator(".blank-sheet tbody tr").count() == 7
    assert page.locator(".blank-sheet thead .name-box").count() == 8
    check_accessibility(page, "blank sheet")
    screenshots(page, "blank-sheet", output)
    page.pdf(path=str(output / "sheet-blank.pdf"), format="Letter", prefer_css_page_size=True)
    assert pdf_pages(output / "sheet-blank.pdf") == 1

    # The start page lists the one sheet this device opened.
    page.goto(server + "/")
    page.wait_for_selector("#earlier:not([hidden])")
    assert page.locator("#earlier-list li").count() == 1
    assert "Ann, Bob, Cleo, Dan" in page.inner_text("#earlier-list")
    check_accessibility(page, "start page, with a sheet")

    # An address that names no sheet says so, in words.
    answer = page.goto(f"{server}/m/NoSuchSheetAtAll")
    assert answer is not None and answer.status == 404
    assert "There is no match sheet at this address" in page.inner_text("main")

    # Every write carried the edit token and the ETag it was based on; the sheet was created
    # with an Idempotency-Key; the view phone polled with If-None-Match and was answered 304.
    writes = [call for call in scorer.api_calls if call[0] in ("PUT", "DELETE")]
    assert len(writes) >= 10
    for _, path, headers in writes:
        assert headers["authorization"].startswith("Bearer ") and headers["if-match"], path
    creations = [headers for method, _, headers in scorer.api_calls if method == "POST"]
    assert creations and all(headers.get("idempotency-key") for headers in creations)
    polls = [headers for method, _, headers in viewer_phone.api_calls if method == "GET"]
    assert any("if-none-match" in headers for headers in polls)
    assert 304 in viewer_phone.api_statuses

    for phone in (scorer, viewer_phone):
        assert phone.foreign_requests() == []
        assert phone.problems == []


def test_eight_players_and_nine_rounds_print_on_one_page(
    phones: Any, server: str, output: Path
) -> None:
    """The widest sheet: every column fits across one A4 page, long names and all."""
    names = ["Annabelle", "Bartholomew", "Cleo", "Dan", "Eve", "Frederik", "Gunnhild", "Hassan"]
    request = urllib.request.Request(
        f"{server}/v1/matches",
        data=json.dumps(
            {"ruleset": "liverpool-9", "players": names, "title": "Hassan's birthday"}
        ).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as answer:
        sheet = json.load(answer)
    for number in range(1, 10):
        results: list[dict[str, Any]] = [
            {"seat": seat, "went_out": True}
            if seat == number % 8
            else {"seat": seat, "points": 5 * ((seat + number) % 20 + 1)}
            for seat in range(8)
        ]
        api_put(server, sheet["id"], sheet["edit_token"], number, {"results": results})
    phone = phones(width=360)
    page = phone.page()
    page.goto(f"{server}/m/{sheet['id']}")
    page.wait_for_function("() => document.getElementById('result-line').textContent !== ''")
    assert page.text_content("#sheet-title") == "Hassan's birthday"
    assert page.text_content("#sheet-subtitle").startswith("Liverpool Rummy, 9 rounds · ")
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 700, "height": 1000})  # about an A4 page less its margins
    table = page.eval_on_selector("#score-table", "t => t.getBoundingClientRect().right")
    body = page.evaluate("document.querySelector('main').getBoundingClientRect().right")
    assert table <= body + 1
    printed = output / "sheet-filled-eight-players.pdf"
    page.pdf(path=str(printed), format="A4")
    assert pdf_pages(printed) == 1
    assert phone.problems == [] and phone.foreign_requests() == []


def test_a_round_the_stock_ended_and_a_cut_bonus(phones: Any, server: str) -> None:
    """The rarer ways a round ends and scores: nobody out, and a house cut bonus."""
    body = {
        "ruleset": {"base": "liverpool", "options": {"cut_bonus": 20}},
        "players": ["Ann", "Bob", "Cleo"],
    }
    request = urllib.request.Request(
        f"{server}/v1/matches",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as answer:
        sheet = json.load(answer)
    phone = phones(width=360)
    page = phone.page()
    page.goto(f"{server}/m/{sheet['id']}#edit={sheet['edit_token']}")
    page.wait_for_selector("#entry:not([hidden])")
    assert "#edit=" not in page.url  # the token left the address bar for this browser's storage

    # Round 1 ended with the stock run out: everyone scores a hand; Bob (the cutter) cut exactly.
    page.check("#out-stock")
    for seat, points in enumerate([40, 35, 10]):
        page.fill(f"#points-{seat}", str(points))
    assert page.locator("#result-rows input[type=checkbox]").count() == 1
    page.check("#bonus-1")
    save_round(page, 1)
    assert column_totals(page) == [40, 15, 10]
    check_accessibility(page, "sheet page, a house ruleset")
    assert phone.problems == [] and phone.foreign_requests() == []


def test_a_round_played_in_german(phones: Any, server: str, output: Path) -> None:
    """The language switch: the page, its script's texts and the API's messages in German,
    kept for the next page; the page as accessible as in English."""
    body = {"ruleset": "liverpool-no-buy", "players": ["Ann", "Bob", "Cleo"]}
    request = urllib.request.Request(
        f"{server}/v1/matches",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as answer:
        sheet = json.load(answer)
    phone = phones(width=360)
    page = phone.page()
    page.goto(f"{server}/m/{sheet['id']}#edit={sheet['edit_token']}")
    page.wait_for_selector("#entry:not([hidden])")
    assert page.get_attribute("html", "lang") == "en"
    assert page.inner_text("#sheet-title") == "Liverpool Rummy, no buying"
    with page.expect_navigation(url=re.compile(r"\?lang=de")):
        page.click("a[data-lang=de]")
    page.wait_for_selector("#entry:not([hidden])")
    assert page.get_attribute("html", "lang") == "de"
    assert page.get_attribute("a[data-lang=de]", "aria-current") == "true"
    assert page.inner_text("#sheet-title") == "Liverpool Rummy, ohne Kaufen"
    assert page.inner_text("#briefing-title") == "Runde 1 von 7: 2 Bücher"
    briefing = page.inner_text("#briefing-lines")
    assert "Jedem Spieler 10 Karten austeilen." in briefing
    assert roles(page) == {"Gibt": "Ann", "Hebt ab": "Bob", "Spielt zuerst": "Bob"}

    # The API refuses in German, next to the field it names.
    enter_round(page, 0, {1: 35, 2: 3})
    page.click("#save-round")
    error = page.wait_for_selector("#error-results-2:not([hidden])")
    assert error.inner_text() == (
        "Cleo: Keine Hand aus bis zu 10 Karten kostet 3 Punkte (Karten kosten 5, 10, 15)."
    )
    page.fill("#points-2", "25")
    page.click("#save-round")
    page.wait_for_function(
        "text => document.getElementById('entry-status').textContent.includes(text)",
        arg="Runde 1 ist gespeichert.",
    )
    assert page.inner_text("#briefing-title") == "Runde 2 von 7: ein Buch und eine Sequenz"
    assert column_totals(page) == [0, 35, 25]
    check_accessibility(page, "sheet page in German")
    screenshots(page, "sheet-german", output)

    # The choice stays: the start page, opened without ?lang, is German too.
    page.goto(server + "/")
    assert page.get_attribute("html", "lang") == "de"
    assert page.inner_text("h1") == "Spiel beginnen"
    assert "Vertragsrommé (Progressive Rummy)" in page.inner_text(".rulesets")
    check_accessibility(page, "start page in German")
    screenshots(page, "start-german", output)
    assert phone.problems == [] and phone.foreign_requests() == []
