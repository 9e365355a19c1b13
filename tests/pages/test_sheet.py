"""The sheet page as a table uses it on its phones, in a real browser at 360 px (touch, twice the
pixels) and 1280 px: every total in sight, a round's details a tap away, one colour per player,
entry that forgives (one write per tap, drafts kept across a reload, rounds saved with no network
sent when it is back, two phones saving one round shown side by side), messages in the table's
words, the end of the match and a rematch, and sharing from the machine itself.

Every state is checked by axe; no request leaves the server's origin.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from flask.testing import FlaskClient

from api.pages import network
from tests.pages.conftest import Phone, serving
from tests.pages.test_table import check_accessibility, screenshots

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Dialog, ElementHandle, Page

pytestmark = [pytest.mark.browser, pytest.mark.server]

EIGHT = ["Annabelle", "Bartholomew", "Cleo", "Dan", "Eve", "Frederik", "Gunnhild", "Hassan"]


def call(server: str, method: str, path: str, body: Any = None, **headers: str) -> tuple[str, Any]:
    """A request to the API as another client would send it: its ETag and its JSON."""
    request = urllib.request.Request(
        server + path,
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={"Content-Type": "application/json", **headers},
    )
    with urllib.request.urlopen(request) as answer:
        return answer.headers["ETag"], json.load(answer)


def new_sheet(server: str, players: list[str], ruleset: Any = "liverpool", **more: Any) -> Any:
    return call(server, "POST", "/v1/matches", {"ruleset": ruleset, "players": players, **more})[1]


def play(server: str, sheet: Any, number: int, results: list[dict[str, Any]]) -> Any:
    """Round ``number`` recorded by another client of the API; answers the sheet after it."""
    etag, _ = call(server, "GET", f"/v1/matches/{sheet['id']}")
    return call(
        server,
        "PUT",
        f"/v1/matches/{sheet['id']}/rounds/{number}",
        {"results": results},
        Authorization=f"Bearer {sheet['edit_token']}",
        **{"If-Match": etag},
    )[1]


def some_round(players: int, number: int) -> list[dict[str, Any]]:
    """A round in which seat ``number % players`` went out and the others hold cards."""
    results: list[dict[str, Any]] = []
    for seat in range(players):
        if seat == number % players:
            results.append({"seat": seat, "went_out": True})
        elif seat == (number + 1) % players:
            results.append({"seat": seat, "cards": ["KH", "JK", "7S"], "buys": 1})
        else:
            results.append({"seat": seat, "points": 5 * ((seat * 7 + number * 3) % 20 + 1)})
    return results


def shown(page: Page, selector: str) -> ElementHandle:
    """The element ``selector`` names, once it is visible."""
    element = page.wait_for_selector(selector)
    assert element is not None
    return element


def english_ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def edit(phone: Phone, server: str, sheet: Any, *, clock: bool = False) -> Page:
    """The sheet opened by its edit link, ready to enter a round; with ``clock``, its timers
    run only when the test says (it polls when told to)."""
    page = phone.page()
    if clock:
        page.clock.install()
    page.goto(f"{server}/m/{sheet['id']}#edit={sheet['edit_token']}")
    page.wait_for_selector("#board:not([hidden])")
    return page


def rounds_written(phone: Phone) -> list[str]:
    return [path for method, path, _ in phone.api_calls if method == "PUT"]


@pytest.fixture
def phone(phones: Any) -> Iterator[Phone]:
    made: Phone = phones(360, touch=True)
    yield made
    assert made.problems == [] and made.foreign_requests() == []


# --- what a phone shows --------------------------------------------------------------------------


def test_eight_players_totals_fit_a_phone_and_each_round_opens(
    phone: Phone, server: str, output: Path
) -> None:
    sheet = new_sheet(server, EIGHT, "liverpool-9", title="Hassan's birthday")
    for number in range(1, 5):
        play(server, sheet, number, some_round(8, number))
    page = edit(phone, server, sheet)

    # Every total, on the board and at the foot of the table, is inside the phone's width.
    for selector in ("#board-list .tile", "#score-table tfoot td.total"):
        boxes = page.eval_on_selector_all(
            selector, "cells => cells.map(c => c.getBoundingClientRect().right)"
        )
        assert len(boxes) == 8 and max(boxes) <= 360, selector
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    totals = page.eval_on_selector_all(".tile-total", "cells => cells.map(c => c.textContent)")
    api_sheet = call(server, "GET", f"/v1/matches/{sheet['id']}")[1]
    assert totals == [str(total["total"]) for total in api_sheet["totals"]]

    # One colour per player: the board's tile, the table's column, the entry's row and the
    # chart's line of each seat share it; and no two seats share one.
    colours = page.evaluate(
        """() => [...Array(8).keys()].map(seat => [
            getComputedStyle(document.querySelectorAll('.tile')[seat]).borderTopColor,
            getComputedStyle(document.querySelectorAll('#score-table thead th.player')[seat]).borderTopColor,
            getComputedStyle(document.querySelector(`.result-row[data-seat="${seat}"]`)).borderLeftColor,
            getComputedStyle(document.querySelectorAll('#chart polyline')[seat]).stroke,
        ])"""
    )
    assert all(len(set(each)) == 1 for each in colours), colours
    assert len({each[0] for each in colours}) == 8

    # Who deals, cuts and plays first, in type that reads across the table.
    roles = page.eval_on_selector_all(
        "#roles dd",
        "cells => cells.map(c => [c.textContent, parseFloat(getComputedStyle(c).fontSize)])",
    )
    assert [name for name, _ in roles] == ["Eve", "Frederik", "Frederik"]
    assert min(size for _, size in roles) >= 20

    # Each row while entering: the player's total and place.
    standings = {each["seat"]: each for each in api_sheet["standings"]}
    for seat in (0, 6):
        expected = f"{standings[seat]['total']} points · {english_ordinal(standings[seat]['rank'])}"
        assert page.inner_text(f"[data-seat='{seat}'] .who-standing") == expected

    # A round's details are a tap away: who went out, the cards as the picker shows them, buys.
    assert page.is_hidden("#detail-2")
    page.tap(".round-row[data-round='2'] td.score >> nth=3")
    detail = page.inner_text("#detail-2")
    assert "Cleo: went out · total 30" in detail
    assert "Dan: 30 points (K♥ Joker 7♠) · 1 buy · total 55" in detail
    assert page.get_attribute(".round-row[data-round='2'] .round-toggle", "aria-expanded") == "true"
    check_accessibility(page, "sheet, a round's details")
    screenshots(page, "sheet-eight", output)
    page.tap(".round-row[data-round='2'] .round-toggle")
    assert page.is_hidden("#detail-2")

    # Everything a finger taps on the sheet is at least 44 px each way.
    small = page.evaluate(
        """() => [...document.querySelectorAll(
            '#sheet button, #sheet a, #sheet select, #sheet input[type=number], #sheet input[type=text], #sheet label.out-option')]
            .filter(e => e.getClientRects().length)
            .map(e => [e.id || e.className || e.textContent, e.getBoundingClientRect()])
            .filter(([, box]) => box.width < 44 || box.height < 44)
            .map(([name, box]) => `${name}: ${Math.round(box.width)}x${Math.round(box.height)}`)"""
    )
    assert small == []

    # A desktop shows the same, every total in sight.
    page.set_viewport_size({"width": 1280, "height": 800})
    right = page.eval_on_selector_all(
        "#score-table tfoot td.total", "cells => cells.map(c => c.getBoundingClientRect().right)"
    )
    assert max(right) <= 1280


def test_one_tap_one_write_and_the_message_where_the_eye_is(
    phone: Phone, server: str, output: Path
) -> None:
    sheet = new_sheet(server, ["Ann", "Bob", "Cleo"])
    page = edit(phone, server, sheet)
    page.tap("label[for='out-0']")  # the whole box answers the tap, not only its circle
    assert page.is_checked("#out-0")
    page.fill("#points-1", "35")
    page.fill("#points-2", "20")
    page.dblclick("#save-round")
    page.wait_for_function(
        "() => document.getElementById('entry-title').textContent === 'Enter round 2'"
    )
    assert rounds_written(phone) == [f"/v1/matches/{sheet['id']}/rounds/1"]
    assert page.evaluate("document.activeElement.id") == "entry-status"
    assert page.inner_text("#entry-status") == "Round 1 is saved."
    box = page.eval_on_selector("#entry-status", "e => e.getBoundingClientRect().bottom")
    assert 0 < box <= 780, "the message is on the screen"
    check_accessibility(page, "sheet, a round saved")


def test_messages_name_the_player_in_the_pages_words(phone: Phone, server: str) -> None:
    sheet = new_sheet(server, ["Ann", "Bob", "Cleo", "Dan"])
    page = edit(phone, server, sheet)

    # Nothing chosen, nothing typed: said before anything is sent, at the fields, by name.
    page.tap("#save-round")
    assert page.inner_text("#error-results") == "Choose who went out, or that the stock ran out."
    assert page.inner_text("#error-results-2") == (
        "Enter the points of Cleo, or count the cards left in the hand."
    )
    assert "not saved yet" in page.inner_text("#entry-status")
    assert rounds_written(phone) == []

    # The API's refusal, by its code, in the same words: Dan cannot hold 3 points.
    page.tap("label[for='out-0']")
    for seat, points in ((1, "35"), (2, "20"), (3, "3")):
        page.fill(f"#points-{seat}", points)
    page.tap("#save-round")
    page.wait_for_function(
        "() => document.getElementById('error-results-3').textContent.startsWith('Dan: no hand')"
    )
    assert page.inner_text("#error-results-3") == (
        "Dan: no hand of up to 10 cards costs 3 points (cards cost 5, 10, 15)."
    )
    assert page.evaluate("document.activeElement.id") == "points-3"
    assert page.get_attribute("#points-3", "aria-invalid") == "true"
    check_accessibility(page, "sheet, a refused round")

    # The same in German: no English, the player named.
    page.goto(f"{server}/m/{sheet['id']}?lang=de")
    page.wait_for_selector("#entry:not([hidden])")
    # The draft of round 1 is still there after the reload.
    assert page.input_value("#points-3") == "3" and page.is_checked("#out-0")
    page.tap("#save-round")
    error = shown(page, "#error-results-3:not([hidden])")
    assert error.inner_text().startswith("Dan: ")
    assert "no hand" not in error.inner_text()


def test_a_draft_survives_a_reload_and_leaving_asks_first(phone: Phone, server: str) -> None:
    sheet = new_sheet(server, ["Ann", "Bob", "Cleo"])
    page = edit(phone, server, sheet)
    page.tap("label[for='out-2']")
    page.fill("#points-0", "15")
    page.tap("[data-count='1']")
    for card in ("AS", "KH", "JK"):
        page.tap(f"#picker [data-card='{card}']")
    page.tap("#picker button[value=use]")
    page.wait_for_function("() => !document.getElementById('counted-1').hidden")
    assert page.inner_text("#counted-1") == "3 cards: 40 points: A♠ K♥ Joker"
    page.reload()
    page.wait_for_selector("#entry:not([hidden])")
    assert page.is_checked("#out-2")
    assert page.input_value("#points-0") == "15"
    assert page.inner_text("#counted-1") == "3 cards: 40 points: A♠ K♥ Joker"

    # Leaving with it unsaved asks first.
    asked: list[str] = []

    def answer(dialog: Dialog) -> None:
        asked.append(dialog.type)
        dialog.dismiss()

    page.on("dialog", answer)
    page.close(run_before_unload=True)
    page.wait_for_timeout(200)
    assert asked == ["beforeunload"]


def test_a_round_saved_with_no_network_is_sent_when_it_is_back(
    phone: Phone, server: str, output: Path
) -> None:
    sheet = new_sheet(server, ["Ann", "Bob", "Cleo"])
    page = edit(phone, server, sheet)
    phone.context.set_offline(True)
    page.tap("label[for='out-1']")
    page.fill("#points-0", "25")
    page.fill("#points-2", "40")
    page.tap("#save-round")
    status = shown(page, "#entry-status:has-text('kept on this phone')")
    assert "round 1" in status.inner_text()
    assert page.evaluate("document.activeElement.id") == "entry-status"
    assert page.inner_text(".round-row[data-round='1'] .to-play") == "waiting to be sent"
    # The next round can be entered meanwhile.
    assert page.inner_text("#entry-title") == "Enter round 2"
    check_accessibility(page, "sheet, a round waiting to be sent")
    screenshots(page, "sheet-outbox", output)

    phone.context.set_offline(False)
    page.wait_for_function(
        "() => document.getElementById('entry-status').textContent.includes('is saved now')",
        timeout=15_000,
    )
    stored = call(server, "GET", f"/v1/matches/{sheet['id']}")[1]
    assert [result.get("points") for result in stored["rounds"][0]["results"]] == [25, 0, 40]
    writes = [headers for method, _, headers in phone.api_calls if method == "PUT"]
    assert writes and all(headers.get("if-match") for headers in writes)


def test_polls_that_fail_say_how_old_the_scores_are(phone: Phone, server: str) -> None:
    sheet = new_sheet(server, ["Ann", "Bob", "Cleo"])
    page = phone.page()
    page.clock.install()
    page.goto(f"{server}/m/{sheet['id']}")
    page.wait_for_selector("#board:not([hidden])")
    phone.context.set_offline(True)
    page.clock.run_for(5_000)
    line = shown(page, "#connection:not([hidden])")
    assert line.inner_text() == "No connection: last updated less than a minute ago."
    page.clock.run_for(125_000)
    page.wait_for_function(
        "() => document.getElementById('connection').textContent.includes('2 minutes ago')"
    )
    check_accessibility(page, "sheet, no connection")
    # Back online, the browser says so and the page asks at once.
    phone.context.set_offline(False)
    page.wait_for_function(
        "() => document.getElementById('connection').textContent === 'Connected again.'"
    )
    page.clock.run_for(5_000)
    assert page.is_hidden("#connection")


def test_two_phones_save_one_round(phones: Any, server: str, output: Path) -> None:
    sheet = new_sheet(server, ["Ann", "Bob", "Cleo"])
    first, second = phones(360, touch=True), phones(1280)
    faster = edit(first, server, sheet, clock=True)
    slower = edit(second, server, sheet, clock=True)

    # The faster phone saves round 1; the slower one, not having seen it, saves its own.
    faster.tap("label[for='out-0']")
    faster.fill("#points-1", "35")
    faster.fill("#points-2", "20")
    faster.tap("#save-round")
    faster.wait_for_function(
        "() => document.getElementById('entry-title').textContent === 'Enter round 2'"
    )
    slower.check("#out-0")
    slower.fill("#points-1", "30")
    slower.fill("#points-2", "20")
    slower.click("#save-round")

    # The slower phone is shown both entries and chooses.
    slower.wait_for_function("() => !document.getElementById('conflict').hidden")
    box = slower.locator("#conflict")
    assert "Another phone saved round 1 first." in box.inner_text()
    rows = slower.eval_on_selector_all(
        ".conflict-table tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
    )
    assert rows == [["Ann", "went out", "went out"], ["Bob", "35", "30"], ["Cleo", "20", "20"]]
    assert slower.evaluate("document.activeElement.id") == "conflict"
    check_accessibility(slower, "sheet, two phones saved one round")
    screenshots(slower, "sheet-conflict", output)
    slower.click("#replace-mine")
    slower.wait_for_function(
        "() => document.getElementById('entry-status').textContent === 'Round 1 is saved.'"
    )
    assert slower.inner_text("#entry-title") == "Enter round 2"
    stored = call(server, "GET", f"/v1/matches/{sheet['id']}")[1]
    assert stored["rounds"][0]["results"][1]["points"] == 30

    # The faster phone is told its round was replaced, and what changed.
    faster.clock.run_for(5_000)
    notice = shown(faster, "#sheet-notice:not([hidden])")
    assert "Round 1, which this phone saved, was changed on another phone." in notice.inner_text()
    assert "Bob: 35 → 30" in notice.inner_text()

    # Round 2 the other way: the slower phone keeps what the faster one saved.
    faster.tap("label[for='out-1']")
    faster.fill("#points-0", "10")
    faster.fill("#points-2", "10")
    faster.tap("#save-round")
    faster.wait_for_function(
        "() => document.getElementById('entry-title').textContent === 'Enter round 3'"
    )
    slower.check("#out-2")
    slower.fill("#points-0", "10")
    slower.fill("#points-1", "50")
    slower.click("#save-round")
    slower.wait_for_selector("#conflict:not([hidden])")
    slower.click("#keep-theirs")
    slower.wait_for_function(
        "() => document.getElementById('entry-title').textContent === 'Enter round 3'"
    )
    assert "stays as the other phone saved it" in slower.inner_text("#entry-status")
    assert call(server, "GET", f"/v1/matches/{sheet['id']}")[1]["rounds"][1]["results"][1][
        "went_out"
    ]
    for each in (first, second):
        assert each.problems == [] and each.foreign_requests() == []


def test_correcting_is_a_mode_with_a_way_out(phone: Phone, server: str) -> None:
    sheet = new_sheet(server, ["Ann", "Bob", "Cleo"])
    play(server, sheet, 1, some_round(3, 1))
    page = edit(phone, server, sheet)
    page.tap(".round-row[data-round='1'] .round-toggle")
    page.tap("[data-correct='1']")
    assert page.inner_text("#entry-title") == "Correct round 1"
    assert page.is_visible("#correcting")
    assert "saving replaces what was recorded" in page.inner_text("#correcting")
    assert page.input_value("#points-0") == "20"
    check_accessibility(page, "sheet, correcting a round")
    page.tap("#cancel-correction")
    assert page.inner_text("#entry-title") == "Enter round 2"
    assert page.is_hidden("#correcting")


def test_the_end_of_a_match_and_a_rematch(phone: Phone, server: str, output: Path) -> None:
    sheet = new_sheet(server, ["Ann", "Bob", "Cleo"], "liverpool", first_dealer=1, title="Friday")
    for number in range(1, 8):
        play(server, sheet, number, some_round(3, number))
    page = edit(phone, server, sheet)
    ending = shown(page, "#ending:not([hidden])")
    finished = call(server, "GET", f"/v1/matches/{sheet['id']}")[1]
    winner = finished["standings"][0]
    assert page.inner_text("#ending-title") == f"{winner['name']} wins!"
    assert (
        float(
            page.eval_on_selector("#ending-title", "e => parseFloat(getComputedStyle(e).fontSize)")
        )
        >= 28
    )
    # The final ranking is the first thing on the page after the title.
    assert page.eval_on_selector(
        "#ending", "e => e.getBoundingClientRect().top"
    ) < page.eval_on_selector("#board", "e => e.getBoundingClientRect().top")
    ranking = page.eval_on_selector_all(
        "#ranking li .ranking-name", "cells => cells.map(c => c.textContent)"
    )
    assert ranking == [standing["name"] for standing in finished["standings"]]
    assert ending.is_visible() and page.is_hidden("#entry")
    check_accessibility(page, "sheet, the end")
    screenshots(page, "sheet-ending", output)

    with page.expect_navigation(url=lambda url: "/m/" in url and sheet["id"] not in url):
        page.dblclick("#rematch")
    page.wait_for_selector("#entry:not([hidden])")
    creations = [headers for method, path, headers in phone.api_calls if method == "POST"]
    assert len({headers["idempotency-key"] for headers in creations}) == 1
    new_id = page.url.rsplit("/", 1)[1]
    rematch = call(server, "GET", f"/v1/matches/{new_id}")[1]
    assert [player["name"] for player in rematch["players"]] == ["Ann", "Bob", "Cleo"]
    assert rematch["rounds"][0]["dealer"] == 2  # the next dealer after Bob
    assert rematch["title"] == "Friday" and rematch["ruleset"]["id"] == "liverpool"


def test_a_sheet_opened_on_the_machine_itself_says_the_others_cannot_use_its_address(
    phone: Phone, server: str
) -> None:
    sheet = new_sheet(server, ["Ann", "Bob", "Cleo"], "contract-rummy")
    page = edit(phone, server, sheet)
    notice = shown(page, "#local-host:not([hidden])")
    # The test's server listens on loopback only: the page says how to let the table in.
    assert "HOST=0.0.0.0" in notice.inner_text()
    # The view link's QR code is drawn in the page; the edit link's too, when asked for, and no
    # request carries the edit token anywhere.
    assert page.locator("#view-qr svg path").count() == 1
    page.tap("#show-edit-qr")
    assert page.locator("#edit-qr svg path").count() == 1
    assert page.get_attribute("#show-edit-qr", "aria-expanded") == "true"
    assert not [url for url in phone.requests if sheet["edit_token"] in url]
    page.tap("[data-copy='view-link']")
    page.wait_for_function("() => document.getElementById('view-link-status').textContent !== ''")
    assert page.inner_text("#view-link-status") in (
        "The link is copied.",
        "The link is selected: copy it.",
    )
    check_accessibility(page, "sheet, sharing")


# --- the machine's own address ------------------------------------------------------------------


def test_the_network_addresses_are_told_to_the_machine_itself_only(client: FlaskClient) -> None:
    answer = client.get("/network")
    assert answer.status_code == 200
    assert answer.headers["Cache-Control"] == "no-store"
    origins = [address["origin"] for address in answer.get_json()["addresses"]]
    assert origins == [f"http://{host}:80" for host in network.machine_addresses()]
    # Through a proxy, from another machine, or asked for by another name: nothing.
    assert client.get("/network", headers={"X-Forwarded-For": "198.51.100.7"}).status_code == 404
    assert client.get("/network", environ_base={"REMOTE_ADDR": "192.0.2.77"}).status_code == 404
    assert client.get("/network", base_url="http://rummy.example").status_code == 404


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("localhost", True),
        ("127.0.0.1", True),
        ("127.1.2.3", True),
        ("[::1]", True),
        ("app.localhost", True),
        ("192.168.1.20", False),
        ("rummy.example", False),
        ("", False),
    ],
)
def test_which_addresses_are_the_machine_itself(host: str, loopback: bool) -> None:
    assert network.is_loopback(host) is loopback


def test_a_sheet_opened_on_the_machine_links_its_network_address(
    browser: Browser, tmp_path: Path, output: Path
) -> None:
    lan = network.machine_addresses()
    if not lan:
        pytest.skip("this machine has no address but loopback")
    with serving(tmp_path, f"{lan[0]}:{{port}}") as url:
        port = url.rsplit(":", 1)[1]
        sheet = new_sheet(url, ["Ann", "Bob", "Cleo"])
        context = browser.new_context(viewport={"width": 360, "height": 780})
        try:
            page = context.new_page()
            page.goto(f"{url}/m/{sheet['id']}#edit={sheet['edit_token']}")
            notice = shown(page, "#local-host:not([hidden])")
            assert "reach it at its address on your network" in notice.inner_text()
            page.wait_for_function(
                "() => document.getElementById('view-link').value.includes(':" + port + "')"
            )
            view = page.input_value("#view-link")
            assert view == f"http://{lan[0]}:{port}/m/{sheet['id']}"
            assert page.input_value("#edit-link").startswith(f"{view}#edit=")
            check_accessibility(page, "sheet, opened on the machine itself")
            screenshots(page, "sheet-local-host", output)
            # Another phone opens that link, and is not told anything of the kind.
            other = context.new_page()
            other.goto(view)
            other.wait_for_selector("#board:not([hidden])")
            assert other.is_hidden("#local-host")
        finally:
            context.close()
