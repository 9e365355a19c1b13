"""The rules page, ``GET /rulesets/<id>``: every preset's rules written from its data in each of
the five languages, a house ruleset's options (``?options=<JSON object>``) changing what it
says, refusals as pages, and, in Chromium, the page on a phone and on a desktop (axe, no
sideways scroll, screenshots), by keyboard, and printed on at most two A4 pages."""

from __future__ import annotations

import html
import json
import re
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from babel.messages.pofile import read_po
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api import i18n
from api.pages.rulebook import PROGRESSIVE_WORDS
from rules import PARAMETERS, PRESETS
from tests.pages.conftest import Phone
from tests.pages.test_table import check_accessibility, pdf_pages
from tests.pages.test_views import get

if TYPE_CHECKING:
    from playwright.sync_api import Page

CATALOGS = Path(__file__).resolve().parents[2] / "api" / "translations"


def rules_path(ruleset_id: str, options: Any = None, lang: str | None = None) -> str:
    """The rules page's address; ``options`` as JSON, or a string sent as it is."""
    query = {}
    if options is not None:
        query["options"] = options if isinstance(options, str) else json.dumps(options)
    if lang is not None:
        query["lang"] = lang
    path = f"/rulesets/{ruleset_id}"
    return f"{path}?{urllib.parse.urlencode(query)}" if query else path


class Reading(HTMLParser):
    """What a reader of the rules page reads: its language, headings, rules, links, and the
    text of the rules themselves (the part a house ruleset's options change)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lang = ""
        self.headings: list[str] = []
        self.rules: list[str] = []
        self.links: list[str] = []
        self.rulebook = ""
        self._open: list[str] = []  # the classes of the open elements being read
        self._text = ""
        self._depth = 0  # elements open inside div.rulebook

    def handle_starttag(self, tag: str, attributes: list[tuple[str, str | None]]) -> None:
        named = dict(attributes)
        if tag == "html":
            self.lang = named.get("lang") or ""
        if tag == "a" and named.get("href"):
            self.links.append(named["href"] or "")
        if self._depth or "rulebook" in (named.get("class") or "").split():
            self._depth += 1
        if tag in ("h2", "li"):
            self._text = ""

    def handle_endtag(self, tag: str) -> None:
        text = " ".join(self._text.split())
        if tag == "h2":
            self.headings.append(text)
        if tag == "li" and self._depth:
            self.rules.append(text)
        if self._depth:
            self._depth -= 1

    def handle_data(self, data: str) -> None:
        self._text += data
        if self._depth:
            self.rulebook += data


def read(client: FlaskClient, path: str) -> Reading:
    answer = get(client, path)
    assert answer.status_code == 200, (path, answer.get_data(as_text=True)[:2000])
    assert answer.mimetype == "text/html"
    reading = Reading()
    reading.feed(answer.get_data(as_text=True))
    return reading


ROUND_ROW = re.compile(
    r'<th scope="row" class="number">(\d+)</th>\s*<td class="contract">'
    r'<span class="contract-words">([^<]*)</span>(.*?)</td>\s*<td class="dealt">(\d+)</td>',
    re.S,
)


def rounds(client: FlaskClient, path: str) -> list[tuple[int, str, int, list[str]]]:
    """Each row of the rounds table: number, contract, cards dealt and the round's notes."""
    page = get(client, path).get_data(as_text=True)
    return [
        (int(number), html.unescape(contract), int(dealt), NOTE.findall(notes))
        for number, contract, notes, dealt in ROUND_ROW.findall(page)
    ]


NOTE = re.compile(r'<span class="round-note">([^<]*)</span>')


def rules_text(client: FlaskClient, ruleset_id: str, options: Any = None) -> str:
    return " ".join(read(client, rules_path(ruleset_id, options)).rulebook.split())


# --- every preset, in every language ------------------------------------------------------------


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("ruleset_id", list(PRESETS))
def test_each_preset_lists_its_rounds_in_each_language(
    client: FlaskClient, ruleset_id: str, lang: str
) -> None:
    ruleset = PRESETS[ruleset_id]
    path = rules_path(ruleset_id, lang=lang)
    page = read(client, path)
    assert page.lang == lang
    words = i18n.language(ruleset.family, lang)
    assert [row[:3] for row in rounds(client, path)] == [
        (spec.number, words.phrase(spec.contract.words), spec.hand_size) for spec in ruleset.rounds
    ]
    if lang != "en":
        english = read(client, rules_path(ruleset_id, lang="en"))
        # Written in the reader's language: no heading and no rule is left in English.
        assert not set(page.headings) & set(english.headings)
        assert not set(page.rules) & set(english.rules)


def test_each_round_says_how_it_is_laid_and_how_it_ends(client: FlaskClient) -> None:
    contract_rummy = rounds(client, rules_path("contract-rummy"))
    assert contract_rummy[0] == (1, "2 sets", 10, ["each meld at exactly its minimum size"])
    assert contract_rummy[6] == (
        7,
        "3 runs",
        12,
        ["the whole hand, laid at once", "no final discard"],
    )
    liverpool = rounds(client, rules_path("liverpool"))
    assert [notes for *_, notes in liverpool] == [[]] * 6 + [["no final discard"]]


def test_a_progressive_table_reads_the_words_of_its_own_sheet(client: FlaskClient) -> None:
    """The German Progressive sheet says Satz and Vertrag where the Liverpool sheet says Buch
    and Kontrakt; the rules page says what the table's own sheet says."""
    progressive = read(client, rules_path("progressive", lang="de"))
    liverpool = read(client, rules_path("liverpool", lang="de"))
    assert "Satz" in progressive.rulebook and "Vertrag" in progressive.rulebook
    assert "Buch" not in progressive.rulebook and "Kontrakt" not in progressive.rulebook
    assert "Buch" in liverpool.rulebook and "Kontrakt" in liverpool.rulebook


def test_the_progressive_words_are_texts_the_page_says() -> None:
    """Each text marked for the Progressive family's words is one the page writes as well,
    so the two never drift apart."""
    with open(CATALOGS / "messages.pot", "rb") as file:
        plain = {
            message.id if isinstance(message.id, str) else message.id[0]
            for message in read_po(file)
            if message.id and not message.context
        }
    for text in PROGRESSIVE_WORDS:
        assert (text if isinstance(text, str) else text[0]) in plain


def test_a_preset_links_its_blank_sheet_and_its_json(client: FlaskClient) -> None:
    for ruleset_id in PRESETS:
        links = read(client, rules_path(ruleset_id)).links
        for link in (f"/rulesets/{ruleset_id}/sheet", f"/v1/rulesets/{ruleset_id}"):
            assert link in links
            assert get(client, link).status_code == 200


POINTS_ROW = re.compile(r'<tr><th scope="row">([^<]*)</th><td class="points">([^<]*)</td></tr>')


def card_points(client: FlaskClient, ruleset_id: str, options: Any = None) -> list[tuple[str, str]]:
    page = get(client, rules_path(ruleset_id, options)).get_data(as_text=True)
    return [(html.unescape(cards), points) for cards, points in POINTS_ROW.findall(page)]


def test_the_card_points_are_the_rulesets(client: FlaskClient) -> None:
    assert card_points(client, "liverpool") == [
        ("ace", "15"),
        ("king, queen, jack, 10", "10"),
        ("2 to 9", "5"),
        ("joker", "15"),
    ]
    # Pips at face value, the Norwegian sheet's way; a wild rank at what it costs as a wild.
    assert card_points(client, "contract-rummy")[2:] == [("2 to 9", "face value"), ("joker", "15")]
    assert card_points(client, "may-i")[2:] == [
        ("3 to 9", "face value"),
        ("2 (wild)", "20"),
        ("joker", "50"),
    ]
    assert card_points(client, "california") == [
        ("ace", "15"),
        ("king, jack, 10", "10"),
        ("2 to 9", "5"),
        ("queen (wild)", "25"),
    ]
    assert card_points(client, "liverpool", {"points": {"9": 9, "8": 8, "K": 13}}) == [
        ("ace", "15"),
        ("king", "13"),
        ("queen, jack, 10", "10"),
        ("9", "9"),
        ("8", "8"),
        ("2 to 7", "5"),
        ("joker", "15"),
    ]


# --- house rulesets --------------------------------------------------------------------------

#: Each option, on a preset where it means something, with values that each change the rules:
#: the first the preset's own.
EVERY_OPTION: list[tuple[str, str, list[Any]]] = [
    ("liverpool", "min_players", [3, 4, 5]),
    ("liverpool", "max_players", [8, 6, 4]),
    (
        "liverpool",
        "rounds",
        [
            [{"contract": "2 sets", "hand_size": 10}],
            [{"contract": "2 sets", "hand_size": 9}],
            [{"contract": "1 run of 7", "hand_size": 12, "whole_hand": True}],
            [{"contract": "1 run of 7", "hand_size": 12, "discard_to_go_out": False}],
            [{"contract": "2 sets", "hand_size": 10, "exact_minimum": True}],
        ],
    ),
    ("liverpool", "round_count", [7, 6, 1]),
    ("liverpool", "hand_size", [10, 11]),
    ("contract-rummy", "exact_minimum", [True, False]),
    ("liverpool", "tables", [[{"max_players": 8, "decks": 3, "jokers": 4}]]),
    ("liverpool", "jokers", [4, 2]),
    ("liverpool", "wild_ranks", [[], ["2"], ["2", "Q"]]),
    ("may-i", "wild_rank_in_melds", [False, True]),
    ("liverpool", "ace_low", [True, False]),
    ("liverpool", "ace_high", [True, False]),
    ("contract-rummy", "set_min", [3, 2]),
    ("liverpool", "run_min", [4, 3]),
    ("liverpool", "runs_may_touch", [True, False]),
    ("liverpool", "same_suit_run_gap", [0, 1, 2]),
    ("liverpool", "layoff_timing", ["same_turn", "next_turn"]),
    ("liverpool", "set_min_naturals", [2, 1, 3]),
    ("liverpool", "run_min_naturals", [1, 2]),
    ("liverpool", "wilds_outside_span", [1, 0, 2, None]),
    ("liverpool", "run_wilds_per_cards", [None, 4, 3]),
    ("liverpool", "wilds_at_most_naturals", [False, True]),
    ("liverpool", "wild_limits_on_layoff", [True, False]),
    ("liverpool", "swaps", [True, False]),
    ("liverpool", "swap_from_sets", [True, False]),
    ("liverpool", "swap_from_runs", [True, False]),
    ("may-i", "swap_jokers_only", [True, False]),
    ("liverpool", "swap_timing", ["any", "earlier_turn", "not_down"]),
    ("liverpool", "freed_joker", ["own_meld_now", "table_this_turn", "hand"]),
    ("liverpool", "buying", [True, False]),
    ("liverpool", "buy_limit", [3, 2, 1, None]),
    ("liverpool", "buy_penalty_cards", [1, 0, 2]),
    ("liverpool", "no_consecutive_buys", [False, True]),
    ("liverpool", "buy_when_down", [True, False]),
    ("liverpool", "go_out_by_melding", [False, True]),
    ("liverpool", "points", [{"A": 15}, {"A": 20}, {"JK": 25}, {"2": 2}]),
    ("liverpool", "tie_break", ["last_round", "shared", "replay"]),
    ("liverpool", "cut_bonus", [0, 50, 1]),
    ("liverpool", "cutter", ["left_of_dealer", "right_of_dealer"]),
    ("liverpool", "first_dealer", ["agreed", "highest_card"]),
    ("liverpool", "stock_exhausted", ["reshuffle", "end_round"]),
]


def test_every_option_is_tried() -> None:
    assert {name for _, name, _ in EVERY_OPTION} == set(PARAMETERS)


@pytest.mark.parametrize(("base", "name", "values"), EVERY_OPTION, ids=lambda v: str(v))
def test_every_value_of_an_option_changes_the_rules(
    client: FlaskClient, base: str, name: str, values: list[Any]
) -> None:
    texts = [rules_text(client, base, {name: value}) for value in values]
    assert len(set(texts)) == len(values)


@pytest.mark.parametrize(
    ("options", "said", "unsaid"),
    [
        ({"buy_limit": 2}, "A player buys at most 2 discards a round.", "at most 3"),
        ({"buy_limit": 1}, "A player buys at most 1 discard a round.", "at most 3"),
        ({"buy_limit": None}, "There is no limit on buys.", "at most 3"),
        ({"buying": False}, "There is no buying", "penalty card"),
        ({"buy_penalty_cards": 2}, "takes 2 penalty cards", "1 penalty card"),
        ({"swaps": False}, "There are no joker swaps", "swapper"),
        ({"swap_from_sets": False}, "a joker in a set is locked", "out of a set or"),
        ({"cut_bonus": 50}, "takes 50 points off the cutter's total", None),
        ({"stock_exhausted": "end_round"}, "the round ends and every player scores", "shuffled"),
        ({"tie_break": "replay"}, "the last round is played again", "lower score"),
        ({"wild_ranks": ["2"]}, "Wild cards: the jokers and every two.", None),
        (
            {"jokers": 0, "wild_ranks": ["Q"]},
            "Wild cards: every queen. No jokers are played.",
            None,
        ),
        ({"jokers": 0}, "No card is wild.", "the jokers"),
        ({"round_count": 3}, "Going out takes a final discard onto the discard pile.", "round 7"),
        (
            {"exact_minimum": True},
            "In every round the melds of the contract are laid at exactly their minimum size.",
            "may be longer",
        ),
        ({"same_suit_run_gap": 1}, "at least 1 missing rank between them", "may touch"),
        ({"ace_low": False}, "The ace is high only", "The ace is low"),
        (
            {"wilds_outside_span": 0},
            "Every wild card of a run lies between two of its naturals",
            None,
        ),
    ],
)
def test_a_house_ruleset_says_what_its_options_set(
    client: FlaskClient, options: dict[str, Any], said: str, unsaid: str | None
) -> None:
    house = read(client, rules_path("liverpool", options))
    text = " ".join(house.rulebook.split())
    assert said in text
    assert said not in rules_text(client, "liverpool")
    if unsaid is not None:
        assert unsaid not in text


def test_a_house_page_names_its_changes_and_links_its_preset(client: FlaskClient) -> None:
    answer = get(client, rules_path("liverpool", {"buy_limit": 2, "cut_bonus": 50}))
    page = answer.get_data(as_text=True)
    assert "Liverpool Rummy, with house rules" in page
    assert "most buys per player per round; points off for an exact cut" in page
    reading = read(client, rules_path("liverpool", {"buy_limit": 2}))
    assert "/rulesets/liverpool" in reading.links
    # No blank sheet or JSON for a house ruleset: those are the presets'.
    assert not [link for link in reading.links if link.endswith("/sheet")]
    assert "/v1/rulesets/liverpool" not in reading.links


def test_no_options_at_all_is_the_preset(client: FlaskClient) -> None:
    assert rules_text(client, "shanghai", {}) == rules_text(client, "shanghai")


# --- refusals -----------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset_id", ["snap", "LIVERPOOL", "liverpool.json"])
def test_an_unknown_ruleset_is_not_found(client: FlaskClient, ruleset_id: str) -> None:
    for path in (rules_path(ruleset_id), rules_path(ruleset_id, {"buy_limit": 2})):
        answer = get(client, path)
        assert answer.status_code == 404 and answer.mimetype == "text/html"
        assert "There is nothing at this address." in answer.get_data(as_text=True)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ("{buy_limit: 2}", "The house options are not JSON (at character 2)."),
        ("", "The house options are not JSON (at character 1)."),
        ("[1, 2]", "The house options must be a JSON object"),
        ('"buy_limit"', "The house options must be a JSON object"),
        ("[" * 3000 + "]" * 1000, "nested too deeply"),
        ({"buy_limt": 2}, "unknown option &#39;buy_limt&#39;"),
        ({"buy_limit": 0}, "buy_limit must be a whole number from 1 to 20, not 0"),
        ({"buy_limit": "two"}, "buy_limit must be a whole number from 1 to 20"),
        ({"tie_break": "coin"}, "tie_break must be one of last_round, shared, replay"),
        ({"points": {"Z": 3}}, "not a rank: &#39;Z&#39;"),
        ({"buying": False, "buy_limit": 2}, "buy_limit is set but buying is not allowed"),
        ({"rounds": [{"contract": "2 sets"}]}, "round 1 needs a contract and a hand_size"),
    ],
)
def test_options_no_table_can_play_are_a_page_saying_why(
    client: FlaskClient, options: Any, message: str
) -> None:
    answer = get(client, rules_path("liverpool", options))
    assert answer.status_code == 422 and answer.mimetype == "text/html"
    page = answer.get_data(as_text=True)
    assert "These house rules cannot be played" in page
    assert message in page
    assert 'href="/rulesets/liverpool"' in page


def test_a_refusal_is_written_in_the_readers_language(client: FlaskClient) -> None:
    path = rules_path("liverpool", {"buy_limit": 0}, lang="de")
    page = get(client, path).get_data(as_text=True)
    assert '<html lang="de">' in page
    words = i18n.language("liverpool", "de")
    expected = words.text("{name} must be a whole number from {low} to {high}, not {value!r}")
    assert expected != "{name} must be a whole number from {low} to {high}, not {value!r}"
    assert expected.format(name="buy_limit", low=1, high=20, value=0) in page
    # The page's own refusals too.
    dutch = get(client, rules_path("liverpool", "[]", lang="nl")).get_data(as_text=True)
    assert "De huisregelopties moeten een JSON-object zijn" in dutch
    assert "Met deze huisregels kan niet gespeeld worden" in dutch


def test_options_too_long_to_read_are_refused(client: FlaskClient) -> None:
    options = json.dumps({"rounds": [{"contract": "2 sets", "hand_size": 10}] * 120})
    answer = get(client, rules_path("liverpool", options))
    assert answer.status_code == 414 and answer.mimetype == "text/html"
    assert "longer than 4096 characters" in answer.get_data(as_text=True)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 600) | st.floats() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=8,
)


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    options=st.dictionaries(st.sampled_from(sorted(PARAMETERS)), JSON, max_size=3),
    base=st.sampled_from(list(PRESETS)),
)
def test_no_options_make_the_page_fail(
    client: FlaskClient, options: dict[str, Any], base: str
) -> None:
    assert get(client, rules_path(base, options)).status_code in (200, 422)


# --- caching -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", [rules_path("liverpool"), rules_path("may-i", {"buy_limit": 2}, lang="nb")]
)
def test_a_rules_page_is_revalidated_by_its_etag(client: FlaskClient, path: str) -> None:
    answer = get(client, path)
    assert answer.status_code == 200
    assert answer.headers["Cache-Control"] == "no-cache"
    again = get(client, path, headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    assert get(client, path, headers={"If-None-Match": '"other"'}).status_code == 200


def test_each_language_and_each_house_ruleset_has_its_own_etag(client: FlaskClient) -> None:
    etags = {
        get(client, path).headers["ETag"]
        for path in (
            rules_path("liverpool"),
            rules_path("liverpool", lang="de"),
            rules_path("liverpool", {"buy_limit": 2}),
            rules_path("liverpool", {"buy_limit": 1}),
        )
    }
    assert len(etags) == 4


# --- in Chromium ---------------------------------------------------------------------------------

#: The two screens a table reads the rules on: a phone held in the hand, and a laptop.
SCREENS: dict[str, dict[str, Any]] = {
    "phone": {"width": 360, "height": 780, "touch": True},
    "desktop": {"width": 1280, "height": 900},
}


@pytest.fixture
def screen(phones: Callable[..., Phone]) -> Iterator[Callable[[str], Page]]:
    """A page on one of the SCREENS; whatever it logs as an error, or asks of another origin,
    fails the test."""
    made: list[Phone] = []

    def page(kind: str) -> Page:
        made.append(phone := phones(**SCREENS[kind]))
        return phone.page()

    yield page
    for phone in made:
        assert phone.problems == []
        assert phone.foreign_requests() == []


def look_at(page: Page, name: str, output: Path) -> None:
    """The page as it is shown: nothing wider than the screen, axe content, a screenshot."""
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width, name
    check_accessibility(page, name)
    page.screenshot(path=str(output / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("kind", list(SCREENS))
@pytest.mark.parametrize("ruleset_id", list(PRESETS))
@pytest.mark.browser
@pytest.mark.server
def test_every_preset_reads_well_on_each_screen(
    screen: Callable[[str], Page], server: str, output: Path, ruleset_id: str, kind: str
) -> None:
    page = screen(kind)
    answer = page.goto(server + rules_path(ruleset_id))
    assert answer is not None and answer.status == 200
    assert page.inner_text("h1") == f"The rules of {PRESETS[ruleset_id].name}"
    look_at(page, f"rules-{ruleset_id}-{kind}", output)


@pytest.mark.parametrize(
    ("name", "path"),
    [
        ("rules-house-de", rules_path("may-i", {"buy_limit": 2, "cut_bonus": 50}, lang="de")),
        ("rules-refused-it", rules_path("liverpool", {"buy_limit": 0}, lang="it")),
        ("rules-progressive-nb", rules_path("progressive", lang="nb")),
    ],
)
@pytest.mark.browser
@pytest.mark.server
def test_house_rules_and_refusals_read_well_too(
    screen: Callable[[str], Page], server: str, output: Path, name: str, path: str
) -> None:
    for kind in SCREENS:
        page = screen(kind)
        page.goto(server + path)
        look_at(page, f"{name}-{kind}", output)


def longest_language(server: str, ruleset_id: str) -> str:
    """The language whose rules of ``ruleset_id`` are the longest text: if they print on two
    pages, so do the others (printing every preset in every language would cost the suite a
    minute)."""

    def length(lang: str) -> int:
        with urllib.request.urlopen(server + rules_path(ruleset_id, lang=lang)) as answer:
            page = answer.read().decode()
        return len(re.sub(r"<[^>]+>", "", page[page.index("<main") :]))

    return max(i18n.LANGUAGES, key=length)


@pytest.mark.parametrize("ruleset_id", list(PRESETS))
@pytest.mark.browser
@pytest.mark.server
def test_every_preset_prints_on_two_pages_at_most(
    screen: Callable[[str], Page], server: str, output: Path, ruleset_id: str
) -> None:
    lang = longest_language(server, ruleset_id)
    page = screen("desktop")
    page.goto(server + rules_path(ruleset_id, lang=lang))
    page.emulate_media(media="print")
    printed = output / f"rules-{ruleset_id}-{lang}.pdf"
    page.pdf(path=str(printed), format="A4")
    assert 1 <= pdf_pages(printed) <= 2


@pytest.mark.browser
@pytest.mark.server
def test_the_keyboard_reaches_every_link(screen: Callable[[str], Page], server: str) -> None:
    page = screen("desktop")
    page.goto(server + rules_path("liverpool"))
    reached: list[str] = []
    for _ in range(40):
        page.keyboard.press("Tab")
        reached.append(
            page.evaluate(
                "() => { const e = document.activeElement;"
                " return e.getAttribute('href') || e.getAttribute('role') || e.tagName; }"
            )
        )
    for wanted in ("/rulesets/liverpool/sheet", "/v1/rulesets/liverpool", "/", "region"):
        assert wanted in reached, reached
