"""The referee at the table, in a real browser: a contract, a lay-off, a joker swap, a buy and a
hand's needs tapped in on /check and /hand, at a phone's 360 px (touch) and a desktop's 1280 px.

Every verdict the page shows is the API's: the body the page sent is sent again to the API, and
the answers must be equal; every broken rule the API names is on the page in its words. A
ruling's address opened cold shows the same verdict; the sheet page opens the referee on its
own ruleset, players and round; the keyboard alone is enough; axe finds nothing; and the pages
speak each of the five languages, the API's messages included.
"""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.pages.conftest import Phone
from tests.pages.test_table import check_accessibility, screenshots

if TYPE_CHECKING:
    from playwright.sync_api import Page, Response

pytestmark = [pytest.mark.browser, pytest.mark.server]

WIDTHS = [360, 1280]


class Table:
    """One browser page at the table, and every answer of the API's checks it received."""

    def __init__(self, phone: Phone, server: str, touch: bool, page: Page | None = None) -> None:
        self.phone = phone
        self.page = phone.watch(page) if page else phone.page()
        self.server = server
        self.touch = touch
        self.answers: list[Response] = []
        self.page.on("response", self._answered)

    def _answered(self, response: Response) -> None:
        if response.request.method == "POST" and "/v1/" in response.url:
            self.answers.append(response)

    def open(self, address: str) -> None:
        self.page.goto(self.server + address)
        self.settle()

    def tap(self, selector: str) -> None:
        if self.touch:
            self.page.tap(selector)
        else:
            self.page.click(selector)

    def tap_cards(self, *cards: str) -> None:
        for card in cards:
            self.tap(f"#card-grid [data-card='{card}']")

    def choose(self, place: str) -> None:
        self.tap(f"[data-place='{place}'] .place-choose")

    def settle(self) -> None:
        """Wait until the page has asked its last question and shown the answer."""
        # The page says it is asking (aria-busy) from the tap until the answer is shown.
        self.page.wait_for_function(
            "() => { const line = document.getElementById('verdict-line');"
            " return line.textContent.trim() !== '' && !line.hasAttribute('aria-busy'); }"
        )

    def last(self, path: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """The body the page last sent to ``path``, and the API's answer the page received."""
        found = [answer for answer in self.answers if answer.url.endswith(path)]
        assert found, f"the page never asked {path}"
        answer = found[-1]
        body = answer.request.post_data_json
        assert isinstance(body, dict)
        shown = answer.json()
        assert isinstance(shown, dict)
        return body, shown

    def line(self) -> str:
        return self.page.inner_text("#verdict-line").strip()

    def text(self) -> str:
        return self.page.inner_text("#referee")


def ask_api(server: str, path: str, body: dict[str, Any], language: str = "en") -> dict[str, Any]:
    """The same question, asked of the API by another client."""
    request = urllib.request.Request(
        server + path,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "Accept-Language": language},
    )
    with urllib.request.urlopen(request) as answer:
        result = json.load(answer)
        assert isinstance(result, dict)
        return result


def the_api_agrees(table: Table, path: str, language: str = "en") -> dict[str, Any]:
    """The page's last verdict is the API's for the same body; answers it."""
    body, shown = table.last(path)
    assert shown == ask_api(table.server, path, body, language)
    return shown


@pytest.fixture
def tables(phones: Callable[..., Phone], server: str) -> Callable[..., Table]:
    """Make tables: a phone of 360 px (touch, twice the pixels) or a desktop of 1280 px."""

    def table(width: int, locale: str = "en-GB") -> Table:
        phone = width < 600
        return Table(
            phones(width, 780 if phone else 900, touch=phone, locale=locale), server, phone
        )

    return table


@contextmanager
def no_problems(table: Table) -> Iterator[None]:
    yield
    assert table.phone.problems == []


@pytest.mark.parametrize("width", WIDTHS)
def test_a_contract_tapped_in(tables: Callable[..., Table], width: int, output: Path) -> None:
    table = tables(width)
    with no_problems(table):
        table.open("/check?ruleset=liverpool&round=2")
        # Round 2 of Liverpool is a set and a run: the page offers a place for each.
        assert table.page.locator("[data-place^='melds.']").count() == 2
        assert "Tap the cards in" in table.line()
        # A set of sevens, and a run tapped out of order with a joker in its gap.
        table.tap_cards("7H", "7S", "7D")
        table.settle()
        # The run is not tapped in yet: the set alone is asked about, and read.
        body, verdict = table.last("/v1/checks/contract")
        assert body["melds"] == [["7H", "7S", "7D"]]
        assert "Set (7)" in table.page.inner_text("[data-place='melds.0']")
        assert table.page.locator("[data-error-for='melds.1']").is_hidden()
        table.choose("melds.1")
        table.tap_cards("7H", "JK", "4H", "5H")
        table.settle()
        verdict = the_api_agrees(table, "/v1/checks/contract")
        assert verdict["valid"] is True
        assert verdict["melds"][1]["wilds"] == [{"index": 2, "stands_for": "6H"}]
        assert table.line() == "Legal: the contract may be laid."
        # The joker's reading is shown in its meld, as the picker shows cards.
        run = table.page.inner_text("[data-place='melds.1']")
        assert "= 6♥" in run and "Run (♥)" in run
        assert table.page.get_attribute("#referee", "data-valid") == "true"

        # A seven of clubs in the run: not legal, the broken rule marked at its meld.
        table.tap_cards("7C")
        table.choose("melds.0")
        table.tap("[data-place='melds.0'] [data-remove='7D']")  # the set is two sevens now
        table.settle()
        verdict = the_api_agrees(table, "/v1/checks/contract")
        assert verdict["valid"] is False
        codes = {violation["code"]: violation for violation in verdict["violations"]}
        assert {"set_too_short", "run_mixed_suits"} <= set(codes)
        assert codes["set_too_short"]["message"] in table.page.inner_text(
            "[data-verdict-for='melds.0']"
        )
        assert codes["run_mixed_suits"]["message"] in table.page.inner_text(
            "[data-verdict-for='melds.1']"
        )
        assert table.line() == "Not legal: this contract may not be laid."
        check_accessibility(table.page, f"check, a contract refused, {width}")

        # Mended, and with the rest of the hand: does the player go out?
        table.tap("[data-place='melds.1'] [data-remove='7C']")
        table.choose("melds.0")
        table.tap_cards("7D")
        table.page.check("#whole-hand")
        table.tap_cards("9D", "KS")
        table.settle()
        verdict = the_api_agrees(table, "/v1/checks/contract")
        assert verdict["valid"] is True
        assert sorted(verdict["remaining"]) == ["9D", "KS"]
        assert verdict["goes_out"] is False
        assert "The player does not go out." in table.text()
        body, _ = table.last("/v1/checks/contract")
        assert body["order"] == "any"
        assert sorted(body["hand"]) == sorted([*body["melds"][0], *body["melds"][1], "9D", "KS"])
        if width == WIDTHS[0]:  # screenshots() draws the page at both widths
            screenshots(table.page, "check-contract", output)

        # The address holds the ruling: opened cold elsewhere, it shows the same verdict.
        address = table.page.url
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(address).query)
        assert query["ruleset"] == ["liverpool"] and query["round"] == ["2"]
        assert query["melds"] == [",".join(".".join(meld) for meld in body["melds"])]
    cold = tables(width)
    with no_problems(cold):
        cold.page.goto(address)
        cold.settle()
        assert cold.last("/v1/checks/contract")[0] == body
        assert cold.line() == "Legal: the contract may be laid."
        assert cold.page.is_checked("#whole-hand")


def test_the_address_of_the_issue_opens_its_ruling(tables: Callable[..., Table]) -> None:
    table = tables(360)
    table.open("/check?ruleset=liverpool&round=2&melds=7H.7S.7D,4H.5H.JK.7H")
    body, verdict = table.last("/v1/checks/contract")
    assert body["melds"] == [["7H", "7S", "7D"], ["4H", "5H", "JK", "7H"]]
    assert verdict["valid"] is True
    assert table.line() == "Legal: the contract may be laid."


@pytest.mark.parametrize("width", WIDTHS)
def test_a_lay_off_and_a_joker_swap(tables: Callable[..., Table], width: int, output: Path) -> None:
    table = tables(width)
    with no_problems(table):
        table.open("/check?ruleset=liverpool&round=3&move=layoff&contract_down=earlier_turn")
        table.tap_cards("5H", "6H", "7H", "8H")
        table.choose("cards")
        table.tap_cards("JK", "9H")
        table.page.select_option("#end", "low")
        table.settle()
        verdict = the_api_agrees(table, "/v1/checks/layoff")
        assert verdict["valid"] is True
        assert verdict["meld"]["cards"][0] == "JK"  # the joker went to the low end
        assert "= 4♥" in table.page.inner_text("#verdict-details")
        if width == WIDTHS[0]:  # screenshots() draws the page at both widths
            screenshots(table.page, "check-layoff", output)
        check_accessibility(table.page, f"check, a lay-off, {width}")

        # Laid off before the contract is down: the API says no, in its words.
        table.page.select_option("#contract-down", "no")
        table.settle()
        verdict = the_api_agrees(table, "/v1/checks/layoff")
        assert verdict["valid"] is False
        for violation in verdict["violations"]:
            assert violation["message"] in table.text()

        # A joker swap: the meld on the table, the natural offered for its joker.
        table.tap("#move-swap + label" if not table.touch else "label[for=move-swap]")
        table.page.select_option("#contract-down", "earlier_turn")
        table.choose("meld")
        table.tap_cards("4S", "JK", "6S", "7S")
        table.choose("card")
        table.tap_cards("5S")
        table.settle()
        verdict = the_api_agrees(table, "/v1/checks/joker-swap")
        assert verdict["valid"] is True and verdict["freed"] == "JK"
        assert verdict["meld"]["cards"] == ["4S", "5S", "6S", "7S"]
        assert "Taken from the meld:" in table.text()
        assert "The freed wild card must go into a meld" in table.text()
        # Two jokers in the meld: which one is taken must be said, and a card that is not
        # wild is refused in the API's words.
        table.choose("meld")
        table.tap_cards("JK")
        table.settle()
        _, verdict = table.last("/v1/checks/joker-swap")
        table.page.select_option("#joker", "0")
        table.settle()
        verdict = the_api_agrees(table, "/v1/checks/joker-swap")
        assert verdict["valid"] is False
        assert "Taken from the meld:" not in table.text()
        for violation in verdict["violations"]:
            assert violation["message"] in table.text()
        table.page.select_option("#joker", "1")
        table.settle()
        assert the_api_agrees(table, "/v1/checks/joker-swap")["valid"] is True
        table.tap("[data-place='meld'] [data-remove='JK']")
        table.page.select_option("#joker", "")
        # The card offered is one card: a second tap replaces it.
        table.choose("card")
        table.tap_cards("3S")
        table.settle()
        body, _ = table.last("/v1/checks/joker-swap")
        assert body["card"] == "3S"
        verdict = the_api_agrees(table, "/v1/checks/joker-swap")
        assert verdict["valid"] is False
        if width == WIDTHS[0]:  # screenshots() draws the page at both widths
            screenshots(table.page, "check-swap", output)
        check_accessibility(table.page, f"check, a joker swap, {width}")


@pytest.mark.parametrize("width", WIDTHS)
def test_a_buy(tables: Callable[..., Table], width: int, output: Path) -> None:
    table = tables(width)
    with no_problems(table):
        table.open("/check?ruleset=liverpool&round=1&move=buy")
        assert "Tick who is calling" in table.line()
        table.page.select_option("#seats", "5")
        table.page.select_option("#on-turn", "1")
        table.page.check("#caller-3")
        table.page.check("#caller-2")
        table.page.fill("#buys-2", "3")
        table.page.dispatch_event("#buys-2", "change")
        table.settle()
        verdict = the_api_agrees(table, "/v1/checks/buy")
        body, _ = table.last("/v1/checks/buy")
        assert body["seats"] == 5 and body["on_turn"] == 1 and sorted(body["callers"]) == [2, 3]
        assert verdict["winner"] == 3
        assert table.line() == "Seat 3 gets the discard and takes 1 more card from the stock."
        refused = verdict["refused"]
        assert [refusal["code"] for refusal in refused] == ["buy_limit_reached"]
        assert f"Seat 2: {refused[0]['message']}" in table.text()
        if width == WIDTHS[0]:  # screenshots() draws the page at both widths
            screenshots(table.page, "check-buy", output)
        check_accessibility(table.page, f"check, a buy, {width}")
    cold = tables(width)
    cold.open(table.page.url.removeprefix(table.server))
    assert cold.last("/v1/checks/buy")[0] == body


@pytest.mark.parametrize("width", WIDTHS)
def test_what_a_hand_needs(tables: Callable[..., Table], width: int, output: Path) -> None:
    table = tables(width)
    with no_problems(table):
        table.open("/hand?ruleset=liverpool&round=2")
        table.tap_cards("7H", "7S", "8D", "8H", "9H", "JK", "2C", "KD", "KS", "4H")
        table.settle()
        analysis = the_api_agrees(table, "/v1/hands/analysis")
        assert analysis["can_lay"] is False
        assert table.line() == "Not yet: this hand cannot lay 1 set + 1 run."
        needs = table.page.inner_text("#verdict-details .needs")
        assert "6♥" in needs and "10♥" in needs and "Joker" in needs
        assert "The nearest it comes" in table.text()
        if width == WIDTHS[0]:  # screenshots() draws the page at both widths
            screenshots(table.page, "hand-needs", output)
        check_accessibility(table.page, f"hand, needs, {width}")
        # Drawing a king: now it lays, and the page shows the best arrangement.
        table.tap_cards("KH")
        table.settle()
        analysis = the_api_agrees(table, "/v1/hands/analysis")
        assert analysis["can_lay"] is True
        assert table.line() == "Yes: this hand can lay 1 set + 1 run."
        assert f"Points left in hand: {analysis['penalty']}" in table.text()
        if width == WIDTHS[0]:  # screenshots() draws the page at both widths
            screenshots(table.page, "hand-lays", output)
        check_accessibility(table.page, f"hand, lays, {width}")
        address = table.page.url
    cold = tables(width)
    cold.page.goto(address)
    cold.settle()
    assert cold.last("/v1/hands/analysis") == table.last("/v1/hands/analysis")


def test_a_bad_card_in_an_address_is_shown_next_to_its_meld(tables: Callable[..., Table]) -> None:
    table = tables(360)
    table.open("/check?ruleset=liverpool&round=1&melds=7H.7S.ZZ,8H.8S.8D")
    error = table.page.locator("[data-error-for='melds.0']")
    assert error.is_visible()
    assert "ZZ" in error.inner_text()
    assert "The referee cannot judge this yet" in table.line()
    check_accessibility(table.page, "check, a bad card")


def test_the_keyboard_alone(tables: Callable[..., Table]) -> None:
    """Tab to a card, Enter to add it, Tab to the next meld: no pointer at all."""
    table = tables(1280)
    table.open("/check?ruleset=liverpool&round=1")
    page = table.page
    page.focus("#card-grid [data-card='QH']")
    for _ in range(3):
        page.keyboard.press("Enter")
    page.focus("[data-place='melds.1'] .place-choose")
    page.keyboard.press("Enter")
    assert page.get_attribute("[data-place='melds.1'] .place-choose", "aria-pressed") == "true"
    page.focus("#card-grid [data-card='4C']")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")  # 5♣
    page.keyboard.press("Enter")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    table.settle()
    body, verdict = table.last("/v1/checks/contract")
    assert body["melds"] == [["QH", "QH", "QH"], ["4C", "5C", "4C"]]
    assert verdict["valid"] is False
    # A card tapped in a meld leaves it, by keyboard too, and the focus stays in the meld.
    page.focus("[data-place='melds.1'] [data-remove='5C']")
    page.keyboard.press("Enter")
    table.settle()
    assert table.last("/v1/checks/contract")[0]["melds"][1] == ["4C", "4C"]
    assert (
        page.evaluate("document.activeElement.closest('[data-place]').dataset.place") == "melds.1"
    )
    # The moves are radio buttons: the arrow keys choose one.
    page.focus("#move-contract")
    page.keyboard.press("ArrowRight")
    assert page.is_checked("#move-meld")


def test_the_sheet_opens_the_referee_on_its_own_table(
    tables: Callable[..., Table], server: str
) -> None:
    request = urllib.request.Request(
        f"{server}/v1/matches",
        data=json.dumps(
            {
                "ruleset": {"base": "liverpool", "options": {"buy_limit": 1}},
                "players": ["Ann", "Bob", "Cleo", "Dan"],
            }
        ).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request) as answer:
        sheet = json.load(answer)
    table = tables(360)
    page = table.page
    page.goto(f"{server}/m/{sheet['id']}")
    page.wait_for_selector("#ask-referee:not([hidden])")
    check = page.get_attribute("#check-link", "href")
    assert check is not None and f"sheet={sheet['id']}" in check and "round=1" in check
    rules = page.get_attribute("#rules-link", "href")
    assert rules is not None and rules.startswith(f"{server}/rulesets/liverpool?options=")
    assert json.loads(urllib.parse.parse_qs(urllib.parse.urlsplit(rules).query)["options"][0]) == {
        "buy_limit": 1
    }
    # The referee opens beside the sheet, so a round half typed in stays as it is.
    with page.context.expect_page() as opened:
        page.click("#check-link")
    page = opened.value
    table = Table(table.phone, server, table.touch, page=page)
    page.wait_for_url("**/check?*")
    assert page.locator("#seats-field").is_hidden()
    page.wait_for_function("() => document.getElementById('ruleset').value === 'sheet'")
    # A buy at this table: its players by name, its own house limit of one buy.
    page.click("label[for=move-buy]")
    page.check("#caller-1")
    page.fill("#buys-1", "1")
    page.dispatch_event("#buys-1", "change")
    page.check("#caller-2")
    table.settle()
    body, verdict = table.last("/v1/checks/buy")
    assert body["ruleset"] == {"base": "liverpool", "options": {"buy_limit": 1}}
    assert body["seats"] == 4
    assert verdict == ask_api(server, "/v1/checks/buy", body)
    assert verdict["winner"] == 2
    assert table.line() == "Cleo (seat 2) gets the discard and takes 1 more card from the stock."
    assert "Bob (seat 1):" in table.text()
    assert "sheet=" in page.url and "ruleset=" not in page.url


#: A contract that breaks a rule, and the page's line for it in each language.
REFUSED = "/check?ruleset=liverpool&round=1&melds=7H.7S,8H.8S.8D"


@pytest.mark.parametrize("language", ["de", "nl", "it", "nb"])
def test_each_language_at_the_table(
    tables: Callable[..., Table], language: str, output: Path
) -> None:
    english = tables(360)
    english.open(REFUSED)
    table = tables(360)
    with no_problems(table):
        table.open(f"{REFUSED}&lang={language}")
        assert table.page.get_attribute("html", "lang") == language
        verdict = the_api_agrees(table, "/v1/checks/contract", language)
        assert table.line() and table.line() != english.line()
        for violation in verdict["violations"]:
            assert violation["message"] in table.text()
        # The API's words are the reader's: not the English ones.
        english_messages = {
            v["message"] for v in english.last("/v1/checks/contract")[1]["violations"]
        }
        assert english_messages.isdisjoint(v["message"] for v in verdict["violations"])
        assert table.page.inner_text("h1") != english.page.inner_text("h1")
        # The language stays as cards are tapped, and in the address.
        table.choose("melds.0")
        table.tap_cards("7D")
        table.settle()
        assert the_api_agrees(table, "/v1/checks/contract", language)["valid"] is True
        assert f"lang={language}" in table.page.url
        check_accessibility(table.page, f"check in {language}")
        table.page.screenshot(path=str(output / f"check-{language}-360.png"), full_page=True)
        table.open(f"/hand?ruleset=may-i&round=1&hand=7H.7S.7D.2C&lang={language}")
        the_api_agrees(table, "/v1/hands/analysis", language)
        assert table.page.get_attribute("html", "lang") == language
        check_accessibility(table.page, f"hand in {language}")
