"""What cards left in hand cost (docs/rules.md §3): every preset's card values and the sheets'
examples."""

from __future__ import annotations

import pytest
from rules_testing import ALL_PRESETS, LIVERPOOL_FAMILY, PROGRESSIVE_FAMILY, C, codes

import rules
from rules import Card, find_ruleset, penalty
from rules.analysis import analyse_hand

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


# --- the jokers a table really shuffled in -------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "players", "fewest", "most"),
    [
        ("liverpool", 4, 2, 4),  # the Liverpool sheets: 2 decks and 2-4 jokers
        ("liverpool", 6, 3, 6),  # 3 decks and 3-6 jokers
        ("liverpool", None, 2, 6),  # an unknown table: any table size's range
        ("contract-rummy", 3, 2, 2),  # Pagat: one joker fewer than the players
        ("contract-rummy", 5, 2, 4),
        ("california", 4, 0, 0),  # no jokers at all
    ],
)
def test_a_tables_jokers_lie_within_the_rulesets_range(
    preset: str, players: int | None, fewest: int, most: int
) -> None:
    ruleset = find_ruleset(preset)
    for jokers in range(fewest, most + 1):
        table = ruleset.table(players, jokers)
        assert table.jokers == jokers
        assert table.decks == ruleset.table(players).decks
    for jokers in (fewest - 1, most + 1):
        if jokers < 0:
            continue
        with pytest.raises(rules.RulesetError) as raised:
            ruleset.table(players, jokers)
        assert raised.value.field == "jokers"
        assert f"not {jokers}" in str(raised.value)


def test_jokers_limit_the_copies_of_the_joker_in_every_check() -> None:
    liverpool = find_ruleset("liverpool")
    three = rules.parse_cards("JK JK JK".split())
    assert not penalty(liverpool, three, 4).violations  # four jokers at a table of four
    limited = penalty(liverpool, three, 4, jokers=2)
    assert [(v.code, v.params) for v in limited.violations] == [
        ("too_many_copies", {"count": 3, "limit": 2})
    ]
    assert limited.total == 45  # still counted
    meld = rules.parse_cards("7H 7S JK JK JK".split())
    assert rules.check_meld(find_ruleset("progressive"), meld, jokers=3).valid
    assert codes(rules.check_meld(find_ruleset("progressive"), meld, jokers=2)) == [
        "too_many_copies"
    ]
    swap = rules.check_joker_swap(
        liverpool, 1, rules.parse_cards("7H 7S JK".split()), rules.parse_cards(["7D"])[0], "no",
        players=4, jokers=3,
    )  # fmt: skip
    assert swap.valid
    # A hand no table of four with two jokers could deal is not a question hand analysis takes.
    with pytest.raises(rules.MoveError) as raised:
        analyse_hand(liverpool, 1, [*three, *C("7H 7S 7D KH KS")], 4, jokers=2)
    assert raised.value.field == "hand"
