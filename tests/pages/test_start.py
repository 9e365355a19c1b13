"""The start page in Chromium, as a table starts its evening: the names first, last time's
ruleset already chosen, Enter moving from name to name, empty rows left out, mistakes said in
the page's words (in German too) before anything is sent, "my matches" with a new match for the
same table, forgetting one, emoji in names, every control big enough for a finger, and no
sideways scroll at 360 px."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from babel.dates import format_date

from tests.pages.conftest import Phone
from tests.pages.test_table import check_accessibility, screenshots

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = [pytest.mark.browser, pytest.mark.server]

#: A family, Scotland's flag, Norway's flag: emoji written with joiners, tags and pairs.
FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
NORWAY = "\U0001f1f3\U0001f1f4"
#: Forty letters and no space: a name that must wrap, not widen the page.
UNBROKEN = "Wolfeschlegelsteinhausenbergerdorffvoral"


def api(server: str, method: str, path: str, body: Any = None) -> dict[str, Any]:
    """Another client of the API (the test's own view of what the page stored)."""
    request = urllib.request.Request(
        server + path,
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as answer:
        result = json.load(answer)
        assert isinstance(result, dict)
        return result


def names(page: Page) -> list[str]:
    found = page.eval_on_selector_all(".player-name", "inputs => inputs.map(i => i.value)")
    assert isinstance(found, list)
    return found


def starts(phone: Phone) -> list[str]:
    """The matches the phone asked the API to start."""
    return [
        path for method, path, _ in phone.api_calls if (method, path) == ("POST", "/v1/matches")
    ]


def focused(page: Page) -> str:
    return str(page.evaluate("document.activeElement.id"))


def start_and_read(page: Page, server: str) -> dict[str, Any]:
    """Start the match the form holds; answers the sheet as the API keeps it."""
    with page.expect_navigation(url="**/m/**"):
        page.click("#start-button")
    return api(server, "GET", "/v1/matches/" + page.url.rsplit("/", 1)[1])


def shown_date(created_at: str, language: str) -> str:
    """A sheet's date as a reader of ``language`` writes it (CLDR's medium date, as Babel has
    it), on this machine's calendar, which the browser shares."""
    return format_date(datetime.fromisoformat(created_at).astimezone(), "medium", locale=language)


def small_targets(page: Page) -> list[str]:
    """Every control of the page's main part smaller than 44 × 44 CSS px to a finger, by its
    bounding box; a radio button or a checkbox counts with its label, which a tap also hits."""
    found = page.evaluate(
        """() => {
          const small = [];
          for (const control of document.querySelectorAll(
              'main a[href], main button, main input, main select, main summary')) {
            const boxes = [control, ...(control.labels || [])]
              .filter((each) => each.getClientRects().length)
              .map((each) => each.getBoundingClientRect());
            if (!boxes.length) continue;  // not shown
            const width = Math.max(...boxes.map((b) => b.right)) - Math.min(...boxes.map((b) => b.left));
            const height = Math.max(...boxes.map((b) => b.bottom)) - Math.min(...boxes.map((b) => b.top));
            if (width < 44 || height < 44) {
              small.push(`${control.id || control.textContent.trim() || control.outerHTML.slice(0, 60)}: ${width}x${height}`);
            }
          }
          return small;
        }"""
    )
    assert isinstance(found, list)
    return found


def test_names_first_enter_moves_on_and_empty_rows_are_no_players(
    phones: Callable[..., Phone], server: str, output: Path
) -> None:
    phone = phones(360, touch=True)
    page = phone.page()
    page.goto(server + "/")
    page.wait_for_selector("#player-3")

    # The first name is in the first screen; the ruleset's list (no ruleset used yet) follows.
    assert page.eval_on_selector("#player-0", "e => e.getBoundingClientRect().bottom") <= 780
    assert page.is_checked("#ruleset-liverpool") and page.is_visible("#ruleset-list")
    assert page.inner_text("#players-hint") == "Liverpool Rummy is for 3 to 8 players."
    assert small_targets(page) == []
    check_accessibility(page, "start page, first visit")
    screenshots(page, "start-first-visit", output)

    # Enter goes from name to name and never starts the match: on the empty last row, it goes
    # to the start button; on a named last row, it adds a row.
    page.tap("#player-0")
    page.keyboard.type("Ann")
    page.keyboard.press("Enter")
    assert focused(page) == "player-1"
    for name in ("Bob", "Cleo"):
        page.keyboard.type(name)
        page.keyboard.press("Enter")
    assert focused(page) == "player-3"
    page.keyboard.press("Enter")
    assert focused(page) == "start-button"
    page.fill("#player-3", "Dan")
    page.focus("#player-3")
    page.keyboard.press("Enter")
    assert focused(page) == "player-4"
    assert names(page) == ["Ann", "Bob", "Cleo", "Dan", ""]
    page.keyboard.press("Enter")
    assert focused(page) == "start-button"
    assert starts(phone) == [] and page.url == server + "/"

    # A table of three leaves the other rows empty: they are no players. The dealer is chosen
    # among the names, and the title and a house rule go with the match.
    page.fill("#player-3", "")
    assert page.eval_on_selector_all("#first-dealer option", "o => o.map(e => e.text)") == [
        "Ann",
        "Bob",
        "Cleo",
    ]
    page.select_option("#first-dealer", label="Bob")
    page.fill("#title", "Friday at Cleo\u2019s")
    page.tap("label[for=hand-size]")
    sheet = start_and_read(page, server)
    assert [player["name"] for player in sheet["players"]] == ["Ann", "Bob", "Cleo"]
    assert sheet["first_dealer"] == 1 and sheet["rounds"][0]["dealer"] == 1
    assert sheet["title"] == "Friday at Cleo\u2019s"
    assert sheet["ruleset"]["id"] == "liverpool"
    assert sheet["ruleset"]["options"] == {"hand_size": 10}
    assert starts(phone) == ["/v1/matches"]

    # Back on the start page: last time's ruleset is chosen, with its house rule, and closed;
    # so it stays after a reload; "change" opens the list.
    page.goto(server + "/")
    page.wait_for_selector("#earlier:not([hidden])")
    page.reload()
    page.wait_for_selector("#earlier:not([hidden])")
    assert page.is_hidden("#ruleset-list")
    assert page.inner_text("#chosen-name") == "Liverpool Rummy"
    assert page.inner_text("#chosen-house") == "House rules: Deal 10 cards in every round"
    assert page.get_attribute("#change-ruleset", "aria-expanded") == "false"
    # With a match to list, the first name is still in the first screen.
    assert page.eval_on_selector("#player-0", "e => e.getBoundingClientRect().bottom") <= 780
    entry = page.locator("#earlier-list .match").first
    assert entry.locator(".match-name").inner_text() == "Friday at Cleo\u2019s"
    assert entry.locator(".match-players").inner_text() == "Ann, Bob, Cleo"
    assert shown_date(sheet["created_at"], "en") in entry.locator(".meta").inner_text()
    assert "in progress" in entry.locator(".meta").inner_text()
    assert small_targets(page) == []
    check_accessibility(page, "start page, last time's ruleset")
    screenshots(page, "start-remembered", output)
    page.tap("#change-ruleset")
    assert page.is_visible("#ruleset-list") and page.is_checked("#hand-size")
    assert page.get_attribute("#change-ruleset", "aria-expanded") == "true"
    assert focused(page) == "ruleset-liverpool"
    # The whole box of a ruleset chooses it: a tap on its facts, beside the radio button, lands
    # on its label (forced: Playwright sees that the label is what takes the tap there).
    page.tap("#ruleset-contract-rummy-about .ruleset-facts", force=True)
    assert page.is_checked("#ruleset-contract-rummy")
    assert page.inner_text("#chosen-name") == "Contract Rummy (Pagat)"
    assert small_targets(page) == []
    check_accessibility(page, "start page, the list of rulesets")
    assert phone.problems == [] and phone.foreign_requests() == []


def test_mistakes_are_said_in_the_pages_words_before_anything_is_sent(
    phones: Callable[..., Phone], server: str, output: Path
) -> None:
    phone = phones(1280, 900)
    page = phone.page()
    page.goto(server + "/")
    page.wait_for_selector("#player-3")

    # One player: refused by the page itself, in its words, and nothing sent.
    page.fill("#player-0", "Ann")
    page.click("#start-button")
    assert page.inner_text("#error-players") == (
        "Liverpool Rummy is for 3 to 8 players: name at least 3."
    )
    assert focused(page) == "player-1"  # where the next name goes
    assert starts(phone) == []
    check_accessibility(page, "start page, too few players")

    # Six names, then a ruleset for five: the names stay, and the page says so.
    for seat, name in enumerate(["Ann", "Bob", "Cleo", "Dan", "Eve", "Finn"]):
        if seat >= 4:
            page.click("#add-player")
        page.fill(f"#player-{seat}", name)
    page.check("#ruleset-contract-rummy")
    assert names(page) == ["Ann", "Bob", "Cleo", "Dan", "Eve", "Finn"]
    assert page.is_disabled("#add-player")
    page.click("#start-button")
    assert page.inner_text("#error-players") == (
        "Contract Rummy (Pagat) is for 3 to 5 players: name at most 5."
    )
    page.click("#player-list li:nth-child(6) [data-action=remove]")

    # Two equal names (ignoring case), and a name too long: each at its row, named as the page
    # labels it, counted from 1.
    page.fill("#player-2", " ann ")
    page.fill("#player-3", "D" * 41)
    page.click("#start-button")
    assert page.inner_text("#error-players-2") == (
        "Player 3: \u201cann\u201d is already the name of player 1."
    )
    assert page.inner_text("#error-players-3") == "Player 4: a name has at most 40 characters."
    assert page.get_attribute("#player-2", "aria-invalid") == "true"
    assert focused(page) == "player-2"
    assert page.is_hidden("#error-players")
    assert starts(phone) == []
    check_accessibility(page, "start page, names refused on the page")
    screenshots(page, "start-refused", output)

    # What only the API can judge (a direction override hidden in a name) is asked, and its
    # refusal said in the page's words at the row.
    page.fill("#player-2", "Cleo")
    assert page.is_hidden("#error-players-2")  # a name being corrected is no longer refused
    page.fill("#player-3", "Dan\u202e")
    page.click("#start-button")
    page.wait_for_selector("#error-players-3:not([hidden])")
    assert page.inner_text("#error-players-3") == (
        "Player 4: a name cannot hold control or formatting characters (U+202E)."
    )
    assert focused(page) == "player-3"
    assert starts(phone) == ["/v1/matches"] and 422 in phone.api_statuses
    # The API's own words for it never show.
    assert "cannot be part" not in page.inner_text("main")
    check_accessibility(page, "start page, a name the API refused")

    # No network: said beside the start button, with the focus; then the same tap starts it.
    page.fill("#player-3", "Dan")
    page.route("**/v1/matches", lambda route: route.abort())
    page.click("#start-button")
    page.wait_for_selector("#error-form:not([hidden])")
    assert page.inner_text("#error-form") == (
        "The server cannot be reached. Nothing was lost; try again."
    )
    assert focused(page) == "error-form" and page.is_enabled("#start-button")
    page.unroute("**/v1/matches")
    sheet = start_and_read(page, server)
    assert [player["name"] for player in sheet["players"]] == ["Ann", "Bob", "Cleo", "Dan", "Eve"]
    assert phone.problems == [] and phone.foreign_requests() == []


def test_in_german_every_message_is_german(
    phones: Callable[..., Phone], server: str, output: Path
) -> None:
    phone = phones(360, touch=True, locale="de-DE")
    page = phone.page()
    page.goto(server + "/?lang=de")
    page.wait_for_selector("#player-3")
    for seat, name in enumerate(["Anna", "Bernd", "anna", "Dora\u200b"]):
        page.fill(f"#player-{seat}", name)
    page.tap("#start-button")
    assert page.inner_text("#error-players-2") == (
        "Spieler 3: \u201eanna\u201c ist schon der Name von Spieler 1."
    )
    assert starts(phone) == []
    page.fill("#player-2", "Clara")
    page.tap("#start-button")
    page.wait_for_selector("#error-players-3:not([hidden])")
    assert page.inner_text("#error-players-3") == (
        "Spieler 4: Ein Name darf keine Steuer- oder Formatzeichen enthalten (U+200B)."
    )
    for english in ("already", "name of seat", "at least", "Length", "cannot"):
        assert english not in page.inner_text("main")
    check_accessibility(page, "start page in German, a name refused")
    screenshots(page, "start-german-refused", output)

    page.fill("#player-3", "")
    page.fill("#player-1", "")
    page.tap("#start-button")
    assert page.inner_text("#error-players") == (
        "Liverpool Rummy ist für 3 bis 8 Spieler: mindestens 3 Namen eingeben."
    )
    page.fill("#player-1", "Bernd")
    page.fill("#title", "Freitag")
    sheet = start_and_read(page, server)
    page.goto(server + "/")
    entry = page.wait_for_selector("#earlier-list .match")
    assert entry is not None
    assert shown_date(sheet["created_at"], "de") in entry.inner_text()
    assert "läuft" in entry.inner_text() and "Freitag" in entry.inner_text()
    check_accessibility(page, "start page in German, my matches")
    assert phone.problems == [] and phone.foreign_requests() == []


def remember_by_edit_link(page: Page, server: str, sheet: dict[str, Any]) -> None:
    """The sheet opened on this phone by its edit link, as a table's second phone does: the
    sheet page remembers it (and its token) for the start page."""
    page.goto(f"{server}/m/{sheet['id']}#edit={sheet['edit_token']}")
    page.wait_for_selector("#entry:not([hidden])")


def test_my_matches_a_new_match_with_the_same_table_and_forgetting(
    phones: Callable[..., Phone], server: str, output: Path
) -> None:
    friday = api(
        server,
        "POST",
        "/v1/matches",
        {
            "ruleset": {"base": "liverpool", "options": {"buy_limit": 2}},
            "players": ["Ann", "Bob", "Cleo", "Dan"],
            "first_dealer": 3,
            "title": "Friday",
        },
    )
    pagat = api(
        server,
        "POST",
        "/v1/matches",
        {"ruleset": "contract-rummy", "players": [UNBROKEN, "Eve", FAMILY], "first_dealer": 1},
    )
    phone = phones(360, touch=True)
    page = phone.page()
    for sheet in (pagat, friday):
        remember_by_edit_link(page, server, sheet)
    # A sheet remembered before summaries kept the ruleset's id, the title and the dates.
    page.evaluate(
        """() => localStorage.setItem('rummy-referee.sheet.OldSheetOfLastYear', JSON.stringify({
          id: 'OldSheetOfLastYear', ruleset: 'Liverpool Rummy', players: ['Gus', 'Hal', 'Ida'],
          status: 'finished', played: 7, rounds: 7, seen: '2025-11-01T20:00:00.000Z'}))"""
    )
    page.goto(server + "/")
    page.wait_for_selector("#earlier:not([hidden])")

    # Newest first, two on a phone and the rest behind a button.
    matches = page.locator("#earlier-list .match")
    assert matches.count() == 3
    assert [matches.nth(i).is_visible() for i in range(3)] == [True, True, False]
    assert page.inner_text("#earlier-more") == "Show all 3 matches"
    first = matches.nth(0)
    assert first.locator(".match-name").inner_text() == "Friday"
    assert first.locator(".match-players").inner_text() == "Ann, Bob, Cleo, Dan"
    assert "Liverpool Rummy" in first.locator(".meta").inner_text()
    assert "0 of 7 rounds played" in first.locator(".meta").inner_text()
    assert shown_date(friday["created_at"], "en") in first.locator(".meta").inner_text()
    second = matches.nth(1)
    assert second.locator(".match-name").inner_text() == "Contract Rummy (Pagat)"
    assert second.locator(".match-players").inner_text() == f"{UNBROKEN}, Eve, {FAMILY}"
    page.tap("#earlier-more")
    old = matches.nth(2)
    assert old.is_visible()
    assert old.locator(".match-name").inner_text() == "Liverpool Rummy"
    assert "finished" in old.locator(".meta").inner_text()
    assert small_targets(page) == []
    check_accessibility(page, "start page, my matches")
    screenshots(page, "start-my-matches", output)

    # Forget the old one: gone at once, with an undo; undone, it is back; forgotten again, it
    # stays gone after a reload.
    page.tap("[data-forget=OldSheetOfLastYear]")
    assert page.evaluate("document.activeElement.dataset.undo") == "OldSheetOfLastYear"
    assert page.locator("#earlier-list .match").count() == 2
    assert "Liverpool Rummy is forgotten on this device." in page.inner_text("#earlier-list")
    check_accessibility(page, "start page, a match forgotten")
    page.tap("[data-undo]")
    assert page.locator("#earlier-list .match").count() == 3
    page.tap("[data-forget=OldSheetOfLastYear]")
    page.reload()
    page.wait_for_selector("#earlier:not([hidden])")
    assert page.locator("#earlier-list .match").count() == 2
    assert "Gus" not in page.inner_text("#earlier-list")
    assert page.evaluate("localStorage.getItem('rummy-referee.sheet.OldSheetOfLastYear')") is None

    # A new match with Friday's players: the same seats, the same house ruleset, the same
    # title, and the next dealer (Dan dealt round 1; Ann deals next, round the table).
    labels = page.eval_on_selector_all("[data-forget]", "b => b.map(e => e.ariaLabel)")
    assert labels == [
        "Forget Friday (Ann, Bob, Cleo, Dan) on this device",
        f"Forget Contract Rummy (Pagat) ({UNBROKEN}, Eve, {FAMILY}) on this device",
    ]
    page.tap(f"[data-again='{friday['id']}']")
    assert names(page) == ["Ann", "Bob", "Cleo", "Dan"]
    assert page.eval_on_selector("#first-dealer", "s => s.selectedOptions[0].text") == "Ann"
    assert page.is_checked("#ruleset-liverpool") and page.is_hidden("#ruleset-list")
    assert page.input_value("#buy-limit") == "2"
    assert page.input_value("#title") == "Friday"
    assert focused(page) == "start-button"
    assert page.inner_text("#start-status") == (
        "Same players, same seats, same ruleset: Ann deals the first round."
    )
    check_accessibility(page, "start page, a new match with the same table")
    screenshots(page, "start-again", output)
    again = start_and_read(page, server)
    assert [player["name"] for player in again["players"]] == ["Ann", "Bob", "Cleo", "Dan"]
    assert again["first_dealer"] == 0 and again["title"] == "Friday"
    assert again["ruleset"]["id"] == "liverpool" and again["ruleset"]["options"] == {"buy_limit": 2}

    # The same with the other table: an emoji and an unbroken name, a preset, dealer 1 -> 2.
    page.goto(server + "/")
    page.tap("#earlier-more")  # the rematch is the newest now: the other table is third
    page.tap(f"[data-again='{pagat['id']}']")
    assert page.is_checked("#ruleset-contract-rummy")
    assert page.input_value("#buy-limit") == "" and page.input_value("#title") == ""
    assert page.eval_on_selector("#first-dealer", "s => s.selectedOptions[0].text") == FAMILY
    screenshots(page, "start-again-long-names", output)
    again = start_and_read(page, server)
    assert [player["name"] for player in again["players"]] == [UNBROKEN, "Eve", FAMILY]
    assert again["first_dealer"] == 2 and again["ruleset"]["options"] == {}

    # The sheet page's rematch (its end screen) sends the same body for an API sheet.
    rematch = "async (sheet) => (await import('/assets/common.js')).rematchBody(sheet)"
    assert page.evaluate(rematch, api(server, "GET", f"/v1/matches/{friday['id']}")) == {
        "ruleset": {"base": "liverpool", "options": {"buy_limit": 2}},
        "players": ["Ann", "Bob", "Cleo", "Dan"],
        "first_dealer": 0,
        "title": "Friday",
    }
    assert page.evaluate(rematch, api(server, "GET", f"/v1/matches/{pagat['id']}")) == {
        "ruleset": "contract-rummy",
        "players": [UNBROKEN, "Eve", FAMILY],
        "first_dealer": 2,
    }
    assert phone.problems == [] and phone.foreign_requests() == []


def test_emoji_names_from_the_page_to_the_sheet(phones: Callable[..., Phone], server: str) -> None:
    phone = phones(1280, 900)
    page = phone.page()
    page.goto(server + "/")
    page.wait_for_selector("#player-3")
    players = [FAMILY, f"Ewan {SCOTLAND}", f"Bj\u00f8rn {NORWAY}", "Kim \U0001f44d\U0001f3fd"]
    for seat, name in enumerate(players):
        page.fill(f"#player-{seat}", name)
    sheet = start_and_read(page, server)
    assert [player["name"] for player in sheet["players"]] == players
    page.wait_for_selector("#entry:not([hidden])")
    assert FAMILY in page.inner_text("#board-list")
    page.goto(server + "/")
    entry = page.wait_for_selector("#earlier-list .match-players")
    assert entry is not None and entry.inner_text() == ", ".join(players)
    assert phone.problems == [] and phone.foreign_requests() == []
