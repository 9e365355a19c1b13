"""What cards left in hand cost (docs/rules.md §3): every preset's card values and the sheets'
examples."""

from __future__ import annotations

import pytest
from rules_testing import ALL_PRESETS, LIVERPOOL_FAMILY, PROGRESSIVE_FAMILY, C

import rules
from rules import Card, find_ruleset, penalty

RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()

# the German Liverpool sheet: "Strafwerte der Karten am Rundenende: Ass = 15, K/D/B/10 = 10 je, 9–2
#                             = 5 je, Joker = 15."
# the Dutch Liverpool sheet: "Aas = 15, H/V/B/10 = 10 elk, 9-2 = 5 elk, Joker = 15."
# the Italian Liverpool sheet: "Asso = 15, R/D/F/10 = 10 ciascuno, 9-2 = 5 ciascuno, Jolly = 15."
LIVERPOOL_VALUES = (
    {"A": 15, **dict.fromkeys("2 3 4 5 6 7 8 9".split(), 5)}
    | dict.fromkeys(["10", "J", "Q", "K"], 10)
    | {"JK": 15}
)
# docs/rules.md §3.2: "2–10 at face value, J Q K 10, A 15 (Decision ...), joker 15."
CONTRACT_RUMMY_VALUES = (
    {"A": 15, **{str(n): n for n in range(2, 11)}} | dict.fromkeys(["J", "Q", "K"], 10) | {"JK": 15}
)
# the German Progressive sheet: "Joker = 25 Punkte, Asse = 15 Punkte, Könige / Damen / Buben /
#                               Zehnen = je 10 Punkte, alle
#      anderen Karten = je 5 Punkte."
PROGRESSIVE_VALUES = LIVERPOOL_VALUES | {"JK": 25}
# docs/rules.md §3.3 california Decision: "a queen left in hand costs what a joker would (25)"
CALIFORNIA_VALUES = PROGRESSIVE_VALUES | {"Q": 25}

VALUES = (
    dict.fromkeys(LIVERPOOL_FAMILY, LIVERPOOL_VALUES)
    | {"contract-rummy": CONTRACT_RUMMY_VALUES}
    | dict.fromkeys(PROGRESSIVE_FAMILY, PROGRESSIVE_VALUES)
    | {"california": CALIFORNIA_VALUES}
)


def expected(preset: str, card: Card) -> int:
    key = "JK" if card.is_joker else str(card)[:-1]
    return VALUES[preset][key]


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_every_card_value(preset: str) -> None:
    ruleset = find_ruleset(preset)
    cards = (*rules.DECK, rules.JOKER)
    scored = penalty(ruleset, cards)
    assert [(str(card), points) for card, points in scored.cards] == [
        (str(card), expected(preset, card)) for card in cards
    ]
    assert scored.total == sum(expected(preset, card) for card in cards)
    for card in cards:
        assert ruleset.points(card) == expected(preset, card)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_the_points_table_shown_by_the_api(preset: str) -> None:
    # docs/api.md: GET /v1/rulesets/{id} shows "one preset with every parameter"
    assert find_ruleset(preset).as_dict()["points"] == {r: VALUES[preset][r] for r in RANKS} | {
        "JK": VALUES[preset]["JK"]
    }


def test_norwegian_example() -> None:
    # the Norwegian sheet: "En hånd med 4, 8, dame og joker gir 4 + 8 + 10 + 15 = 37 straffepoeng."
    scored = penalty(find_ruleset("contract-rummy"), C("4S 8H QD JK"))
    assert scored.total == 37
    assert [points for _, points in scored.cards] == [4, 8, 10, 15]


@pytest.mark.parametrize("preset", LIVERPOOL_FAMILY)
def test_liverpool_joker_costs_fifteen(preset: str) -> None:
    # the German Liverpool sheet: "Ein Joker, der sich am Rundenende noch in der Hand befindet, gibt
    #                             15 Strafpunkte."
    assert penalty(find_ruleset(preset), C("JK")).total == 15
    assert penalty(find_ruleset(preset), C("4S 8H QD JK")).total == 5 + 5 + 10 + 15


@pytest.mark.parametrize("preset", [p for p in PROGRESSIVE_FAMILY if p != "california"])
def test_progressive_joker_costs_twenty_five(preset: str) -> None:
    # the German Progressive sheet: "Keine Joker horten. Sie sind je 25 Punkte wert, wenn man sie
    #                               mit ihnen erwischt."
    assert penalty(find_ruleset(preset), C("JK")).total == 25
    assert penalty(find_ruleset(preset), C("4S 8H QD JK")).total == 5 + 5 + 10 + 25


def test_california_queen_costs_twenty_five() -> None:
    scored = penalty(find_ruleset("california"), C("QH QS KD 2C"))
    assert [points for _, points in scored.cards] == [25, 25, 10, 5]
    assert scored.total == 65


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_an_empty_hand_costs_nothing(preset: str) -> None:
    # the German Progressive sheet: "Spieler, die rausgehen, erhalten 0 Punkte für die Runde."
    scored = penalty(find_ruleset(preset), ())
    assert (scored.total, scored.cards) == (0, ())


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_copies_each_cost(preset: str) -> None:
    scored = penalty(find_ruleset(preset), C("AS AS KH"))
    assert scored.total == 15 + 15 + 10
    assert [str(card) for card, _ in scored.cards] == ["AS", "AS", "KH"]


def test_house_points() -> None:
    # the Norwegian sheet: "Noen norske bord bruker andre jokerverdier"
    house = find_ruleset("contract-rummy").with_options({"points": {"JK": 25, "A": 1}})
    assert penalty(house, C("4S 8H QD JK AS")).total == 4 + 8 + 10 + 25 + 1


@pytest.mark.parametrize(
    ("preset", "hand", "players"),
    [
        # docs/rules.md §3.3: california plays "with no jokers in the deck".
        ("california", "JK", None),
        # docs/rules.md §2: "Jokers: at most the number of jokers in play" (6 with three decks).
        ("liverpool", "JK JK JK JK JK JK JK", None),
        # docs/rules.md §2: "The same card may appear once per deck in play": contract-rummy deals
        # two.
        ("contract-rummy", "AS AS AS", None),
        ("liverpool", "AS AS AS", 4),  # two decks for up to 4 players
    ],
)
def test_a_hand_no_table_could_deal_says_so(preset: str, hand: str, players: int | None) -> None:
    scored = penalty(find_ruleset(preset), C(hand), players)
    # Counted all the same (the peer's "11 Jokers = 550" is such a hand), and flagged.
    assert scored.total == sum(points for _, points in scored.cards) > 0
    assert [v.code for v in scored.violations] == ["too_many_copies"]


def test_the_table_sets_how_many_copies_a_hand_can_hold() -> None:
    liverpool = find_ruleset("liverpool")
    assert penalty(liverpool, C("AS AS AS")).violations == ()  # three decks at the largest table
    assert penalty(liverpool, C("AS AS AS"), 5).violations == ()
    assert penalty(liverpool, C("AS AS AS"), 4).violations != ()
    assert penalty(liverpool, C("AS AS"), 3).violations == ()
