"""Reading one meld (docs/rules.md §1, §2, §3): sets, runs, aces, direction, wild cards and their
limits."""

from __future__ import annotations

import pytest
from rules_testing import ALL_PRESETS, LIVERPOOL_FAMILY, PROGRESSIVE_FAMILY, C, codes

import rules
from rules import Card, check_meld, find_ruleset
from rules.ruleset import MeldType

# Presets where one natural is enough and there is no other wild-card limit (docs/rules.md §3.2,
# §3.3).
ONE_NATURAL = ("contract-rummy", *PROGRESSIVE_FAMILY)
# Presets where the joker is a wild card that is in the deck (California has queens instead).
WITH_JOKERS = tuple(p for p in ALL_PRESETS if p != "california")


def meld(
    preset: str, text: str, meld_type: MeldType | None = None, players: int | None = None
) -> rules.Meld:
    return check_meld(find_ruleset(preset), C(text), meld_type, players)


def wilds(reading: rules.Meld) -> list[tuple[int, str]]:
    return [(w.index, w.stands_for) for w in reading.wilds]


# --- sets ---------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("text", ["7H 7S 7D", "7H 7S 7D 7C", "KC KD KS KH KC", "AS AH AD"])
def test_three_or_more_of_one_rank_any_suits_is_a_set(preset: str, text: str) -> None:
    # the German Liverpool sheet: "Ein „Buch” besteht aus drei oder mehr Karten desselben Werts,
    #                             beliebige Farben."
    # the German Progressive sheet: "Satz: Drei oder mehr Karten gleichen Werts, beliebige Farben."
    reading = meld(preset, text)
    assert reading.valid, codes(reading)
    assert reading.type == "set"
    assert reading.rank is Card.parse(text.split()[0]).rank


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_duplicates_of_one_card_are_allowed_in_a_set(preset: str) -> None:
    # the Norwegian sheet: "Fordi to kortstokker er med, kan like kort av samme sort forekomme i et
    #                      sett."
    reading = meld(preset, "9H 9H 9S")
    assert reading.valid and reading.type == "set"


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_a_set_of_two_is_too_short(preset: str) -> None:
    # the Dutch Liverpool sheet: "Een 'drieling' bestaat uit drie of meer kaarten van dezelfde
    #                            waarde"
    reading = meld(preset, "9H 9S", "set")
    assert codes(reading) == ["set_too_short"]


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_a_set_of_mixed_ranks_names_the_odd_card(preset: str) -> None:
    reading = meld(preset, "9H 9S 8D", "set")
    assert not reading.valid
    assert [(v.code, v.card) for v in reading.violations] == [("set_mixed_ranks", "8D")]


# --- runs ---------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("text", ["4H 5H 6H 7H", "9S 10S JS QS KS", "2D 3D 4D 5D 6D 7D 8D"])
def test_four_or_more_consecutive_of_one_suit_is_a_run(preset: str, text: str) -> None:
    # the German Liverpool sheet: "Eine „Sequenz” besteht aus vier oder mehr Karten derselben Farbe
    #                             in
    #      aufeinanderfolgenden Werten."
    reading = meld(preset, text)
    assert reading.valid, codes(reading)
    assert reading.type == "run"
    assert reading.suit is Card.parse(text.split()[0]).suit
    assert not reading.descending


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_a_run_of_three_is_too_short(preset: str) -> None:
    # the Norwegian sheet: "En rekke har minst fire påfølgende kort i samme sort."
    reading = meld(preset, "4H 5H 6H", "run")
    assert codes(reading) == ["run_too_short"]


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_a_run_of_mixed_suits_names_the_odd_card(preset: str) -> None:
    # the Dutch Liverpool sheet: "Een 'reeks' bestaat uit vier of meer kaarten van dezelfde kleur in
    #                            opeenvolgende waarde."
    reading = meld(preset, "4H 5S 6H 7H", "run")
    assert [(v.code, v.card) for v in reading.violations] == [("run_mixed_suits", "5S")]


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("text", ["4H 5H 7H 8H", "4H 6H 5H 7H", "4H 5H 6H 6H"])
def test_a_run_must_be_consecutive_in_table_order(preset: str, text: str) -> None:
    # docs/rules.md §2: "Runs are given in the order the cards lie on the table"
    reading = meld(preset, text, "run")
    assert not reading.valid
    assert "run_not_consecutive" in codes(reading)


# --- aces ---------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("AH 2H 3H 4H", 1, 4),  # the Norwegian sheet: "Ess kan brukes lavt i A–2–3–4"
        ("JH QH KH AH", 11, 14),  # the Norwegian sheet: "eller høyt i knekt–dame–konge–ess"
    ],
)
def test_an_ace_ranks_low_or_high(preset: str, text: str, low: int, high: int) -> None:
    # the German Liverpool sheet: "Asse dürfen in Sequenzen TIEF (A-2-3) oder HOCH (D-K-A) gespielt
    #                             werden"
    # the Italian Liverpool sheet: "Gli Assi possono essere giocati BASSI (A-2-3) o ALTI (Q-K-A)
    #                              nelle scale"
    reading = meld(preset, text)
    assert reading.valid, codes(reading)
    assert (reading.type, reading.low, reading.high) == ("run", low, high)


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize(
    "text",
    [
        "QH KH AH 2H",  # the Norwegian sheet: "men ikke rundt hjørnet i dame–konge–ess–2"
        "KH AH 2H 3H",  # the German Liverpool sheet: "aber nie als Übergang (kein K-A-2)"; the German Progressive sheet: "K-A-2 ist nicht erlaubt"
        "JH QH KH AH 2H",
        # docs/rules.md §2 Decision: "a run therefore spans at most 13 cards" (an ace at both ends).
        "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
    ],
)
def test_an_ace_never_bridges_king_and_two(preset: str, text: str) -> None:
    reading = meld(preset, text, "run")
    assert not reading.valid
    assert "run_wraps_around" in codes(reading)


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize(
    "text",
    ["AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"],
)
def test_a_run_of_thirteen_is_the_longest(preset: str, text: str) -> None:
    reading = meld(preset, text)
    assert reading.valid, codes(reading)
    assert reading.high is not None and reading.low is not None
    assert reading.high - reading.low == 12


@pytest.mark.parametrize("preset", WITH_JOKERS)
def test_a_wild_card_cannot_make_the_ace_rank_at_both_ends(preset: str) -> None:
    # docs/rules.md §2: "An ace may be low (A 2 3 4) or high (J Q K A) but never both at once"
    reading = meld(preset, "JK 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "run")
    assert not reading.valid
    assert "run_wraps_around" in codes(reading)


@pytest.mark.parametrize("preset", WITH_JOKERS)
@pytest.mark.parametrize("text", ["JK AH 2H 3H", "QH KH AH JK"])
def test_a_wild_card_cannot_go_round_the_corner_either(preset: str, text: str) -> None:
    # the Norwegian sheet: "men ikke rundt hjørnet" -- a wild card past an ace would stand for K
    #                      before A-2 or
    # 2 after Q-K-A.
    reading = meld(preset, text, "run")
    assert not reading.valid
    assert "run_wraps_around" in codes(reading)


# --- direction and what wild cards stand for ----------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize(
    ("text", "low", "high"),
    [("7H 6H 5H 4H", 4, 7), ("AH KH QH JH", 11, 14), ("4H 3H 2H AH", 1, 4)],
)
def test_a_run_may_lie_descending(preset: str, text: str, low: int, high: int) -> None:
    # docs/rules.md §2 Decision: "a run is read low to high, unless its naturals descend ... then
    # high to
    # low."
    reading = meld(preset, text)
    assert reading.valid, codes(reading)
    assert reading.descending
    assert (reading.low, reading.high) == (low, high)


@pytest.mark.parametrize("preset", WITH_JOKERS)
@pytest.mark.parametrize(
    ("text", "expected", "descending"),
    [
        ("5H JK 7H 8H", [(1, "6H")], False),
        ("8H JK 6H 5H", [(1, "7H")], True),
        ("JK 8H 7H 6H", [(0, "9H")], True),
        ("JK 6H 7H 8H", [(0, "5H")], False),
        ("6H 7H 8H JK", [(3, "9H")], False),
        ("AH JK 3H 4H", [(1, "2H")], False),
        ("JK QH KH AH", [(0, "JH")], False),
        ("AH KH JK JH", [(2, "QH")], True),
    ],
)
def test_a_wild_card_in_a_run_stands_for_the_card_its_position_requires(
    preset: str, text: str, expected: list[tuple[int, str]], descending: bool
) -> None:
    # docs/rules.md §2: "a wild card stands for the card its position requires"
    # the Norwegian sheet: "I en rekke må det være tydelig hvilken verdi og sort den erstatter."
    reading = meld(preset, text)
    assert reading.valid, codes(reading)
    assert reading.type == "run"
    assert wilds(reading) == expected
    assert reading.descending is descending


@pytest.mark.parametrize("preset", ONE_NATURAL)
def test_one_natural_is_read_low_to_high(preset: str) -> None:
    # docs/rules.md §2 Decision: descending "takes at least two naturals".
    wild = "QS" if preset == "california" else "JK"
    cards = f"{wild} {wild} {wild} 7H"
    assert wilds(meld(preset, cards, "run")) == [(0, "4H"), (1, "5H"), (2, "6H")]
    cards = f"7H {wild} {wild} {wild}"
    assert wilds(meld(preset, cards, "run")) == [(1, "8H"), (2, "9H"), (3, "10H")]


@pytest.mark.parametrize("preset", WITH_JOKERS)
@pytest.mark.parametrize("text", ["7H 7S JK", "JK 7S 7H", "7S JK 7C"])
def test_a_wild_card_in_a_set_stands_for_the_rank(preset: str, text: str) -> None:
    # docs/rules.md §2: "a wild card in a set stands for "a card of the set's rank"."
    # docs/api.md: "in a set, where the suit is open, it is the rank alone ("7")"
    reading = meld(preset, text)
    assert reading.valid, codes(reading)
    assert reading.type == "set"
    assert [w.stands_for for w in reading.wilds] == ["7"]
    assert reading.cards[reading.wilds[0].index].is_joker


# --- wild-card limits: Liverpool ----------------------------------------------------------


@pytest.mark.parametrize("preset", LIVERPOOL_FAMILY)
@pytest.mark.parametrize("text", ["7H JK JK", "JK 7H JK JK", "JK JK JK"])
def test_liverpool_set_needs_two_naturals(preset: str, text: str) -> None:
    # the German Liverpool sheet: "Ein Buch muss mindestens zwei natürliche (nicht-wilde) Karten
    #                             enthalten"
    # the Italian Liverpool sheet: "Un tris deve contenere almeno due carte naturali (non jolly)"
    reading = meld(preset, text, "set")
    assert "too_many_wilds" in codes(reading)


@pytest.mark.parametrize("preset", LIVERPOOL_FAMILY)
@pytest.mark.parametrize("text", ["7H 7S JK", "7H 7S JK JK", "7H JK 7S JK JK"])
def test_liverpool_set_may_hold_any_wilds_beside_two_naturals(preset: str, text: str) -> None:
    # docs/rules.md §3.1 Decision: "in a set the rank fixes every wild card, so a set may hold any
    # number
    # of wilds beside its 2 naturals"
    reading = meld(preset, text)
    assert reading.valid, codes(reading)
    assert all(w.stands_for == "7" for w in reading.wilds)


@pytest.mark.parametrize("preset", LIVERPOOL_FAMILY)
@pytest.mark.parametrize(
    "text",
    [
        "JK JK 5H 6H",  # two below the naturals
        "5H 6H JK JK",  # two above
        "JK 5H 6H JK",  # one each side: still two outside the span
        "JK 5H JK JK",  # a single natural cannot fix three wild cards
    ],
)
def test_liverpool_run_holds_at_most_one_wild_outside_its_naturals(preset: str, text: str) -> None:
    # the German Liverpool sheet: "Sie dürfen keiner Meldung, die bereits einen Joker enthält, einen
    #                             zweiten Joker
    #      hinzufügen, es sei denn, die natürlichen Karten der Meldung bestimmen die Position des
    #      zweiten Jokers eindeutig"
    # docs/rules.md §3.1 Decision: "at most one wild card may lie outside the span between the
    # lowest and
    # highest natural"
    reading = meld(preset, text, "run")
    assert "too_many_wilds" in codes(reading)


@pytest.mark.parametrize("preset", LIVERPOOL_FAMILY)
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5H JK JK 8H", [(1, "6H"), (2, "7H")]),
        ("5H JK JK JK 9H", [(1, "6H"), (2, "7H"), (3, "8H")]),
        ("JK 5H JK 7H", [(0, "4H"), (2, "6H")]),
        ("5H JK 7H JK 9H JK", [(1, "6H"), (3, "8H"), (5, "10H")]),
    ],
)
def test_liverpool_wild_cards_in_gaps_between_naturals_are_not_limited(
    preset: str, text: str, expected: list[tuple[int, str]]
) -> None:
    # docs/rules.md §3.1 Decision: "wild cards inside gaps between naturals are not limited"
    reading = meld(preset, text)
    assert reading.valid, codes(reading)
    assert wilds(reading) == expected


@pytest.mark.parametrize(
    ("text", "valid"),
    [
        ("5H JK 7H 8H", True),
        ("5H JK JK 8H", False),
        ("5H JK 7H 8H 9H JK JH QH", True),
        ("5H JK 7H 8H JK", False),
    ],
)
def test_liverpool_house_option_one_wild_per_four_cards(text: str, valid: bool) -> None:
    # the German Liverpool sheet: "eine Sequenz darf laut vielen Hausregeln höchstens einen Joker
    #                             pro
    #      Vier-Karten-Segment enthalten (vorherige Einigung erforderlich)."
    house = find_ruleset("liverpool").with_options({"run_wilds_per_cards": 4})
    reading = check_meld(house, C(text), "run")
    assert reading.valid is valid
    assert ("too_many_wilds" in codes(reading)) is not valid
    # Off by default: the same gap wilds are fine in plain Liverpool.
    assert check_meld(find_ruleset("liverpool"), C(text), "run").valid


# --- wild-card limits: one natural is enough ------------------------------------------------


@pytest.mark.parametrize("preset", ONE_NATURAL)
@pytest.mark.parametrize(
    ("text", "meld_type"),
    [("7H W W", "set"), ("W W W 7H", "set"), ("W W 5H 6H", "run"), ("W 5H W W", "run")],
)
def test_one_natural_is_enough_outside_liverpool(
    preset: str, text: str, meld_type: MeldType
) -> None:
    # the German Progressive sheet: "Joker sind Wilde und können für jede Karte in jeder Meldung
    #                               eingesetzt werden."
    # docs/rules.md §3.2 Decision: "every meld needs at least one natural ... there is no other
    # limit."
    wild = "QS" if preset == "california" else "JK"
    reading = meld(preset, text.replace("W", wild), meld_type)
    assert reading.valid, codes(reading)
    assert reading.type == meld_type


@pytest.mark.parametrize("preset", WITH_JOKERS)
@pytest.mark.parametrize(("text", "meld_type"), [("JK JK JK", "set"), ("JK JK JK JK", "run")])
def test_every_meld_needs_a_natural(preset: str, text: str, meld_type: MeldType) -> None:
    # docs/rules.md §3.2/§3.3 Decision: "every meld needs at least one natural, which fixes a set's
    # rank
    # and a run's suit"
    reading = meld(preset, text, meld_type)
    assert "too_many_wilds" in codes(reading)


# --- California: queens are wild --------------------------------------------------------------


def test_california_queen_in_a_run_stands_for_the_queen() -> None:
    # docs/rules.md §3.3: "a queen in 10H JH QH KH is a wild standing for QH"
    reading = meld("california", "10H JH QH KH")
    assert reading.valid and reading.type == "run"
    assert wilds(reading) == [(2, "QH")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("9S QH JS QS", [(1, "10S"), (3, "QS")]),
        ("QD 4C 5C 6C", [(0, "3C")]),
        ("7H 7S QD", [(2, "7")]),
    ],
)
def test_california_queens_are_wild_anywhere(text: str, expected: list[tuple[int, str]]) -> None:
    # the German Progressive sheet: "California Contract: Verwendet Damen als primäre Wildkarte
    #                               anstelle von Jokern."
    reading = meld("california", text)
    assert reading.valid, codes(reading)
    assert wilds(reading) == expected


@pytest.mark.parametrize(("text", "meld_type"), [("QH QS QD", "set"), ("QH QS QD QC", None)])
def test_california_queens_alone_are_no_meld(text: str, meld_type: MeldType | None) -> None:
    # docs/rules.md §3.3: "a meld of queens alone has no natural and is not allowed"
    reading = meld("california", text, meld_type)
    assert not reading.valid
    assert "too_many_wilds" in codes(reading)


def test_california_has_no_jokers() -> None:
    # docs/rules.md §3.3 california: "no jokers in the deck"
    reading = meld("california", "7H 7S JK")
    assert [(v.code, v.card) for v in reading.violations if v.code == "too_many_copies"] == [
        ("too_many_copies", "JK")
    ]
    assert not meld("progressive", "7H 7S 7D QH").valid  # a queen is no wild in progressive


# --- copies of one card by decks in play ------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "text", "players", "valid"),
    [
        # the German Liverpool sheet: "3–4 Spieler: Zwei Standard-Kartendecks ... 5–8 Spieler: Drei"
        ("liverpool", "7H 7H 7H", None, True),
        ("liverpool", "7H 7H 7H", 5, True),
        ("liverpool", "7H 7H 7H", 4, False),
        ("liverpool", "7H 7H 7H 7H", None, False),
        # the Norwegian sheet: "Bruk to vanlige kortstokker"
        ("contract-rummy", "7H 7H 7S", 5, True),
        ("contract-rummy", "7H 7H 7H", None, False),
        # the German Progressive sheet: "für 7 oder 8 Spieler wird ein drittes Kartendeck ...
        #                               hinzugefügt"
        ("progressive", "7H 7H 7H", 6, False),
        ("progressive", "7H 7H 7H", 7, True),
        ("progressive", "7H 7H 7H", None, True),
        # jokers: 002 "to jokere med tre spillere"
        ("contract-rummy", "7H JK JK JK", 3, False),
        ("contract-rummy", "7H JK JK JK", 4, True),
        ("liverpool", "7H 7S JK JK JK JK JK", 4, False),
        ("liverpool", "7H 7S JK JK JK JK", 4, True),
    ],
)
def test_copies_are_limited_by_the_decks_in_play(
    preset: str, text: str, players: int | None, valid: bool
) -> None:
    # docs/rules.md §2: "at most 2 copies with two decks, 3 with three. Jokers: at most the number
    # of
    # jokers in play." docs/rules.md §5 Decision: without players, the largest table.
    reading = meld(preset, text, "set", players)
    assert reading.valid is valid, codes(reading)
    assert ("too_many_copies" in codes(reading)) is not valid


# --- several problems at once, and the declared type --------------------------------------


def test_every_problem_of_a_meld_is_reported() -> None:
    # docs/rules.md §5: "several violations are reported together, not just the first one found."
    reading = meld("liverpool", "9H 8S", "set")
    assert sorted(codes(reading)) == ["set_mixed_ranks", "set_too_short"]
    reading = meld("liverpool", "4H 5S 6H", "run")
    assert sorted(codes(reading)) == ["run_mixed_suits", "run_too_short"]


def test_a_declared_type_is_how_the_meld_is_read() -> None:
    # docs/api.md: "optional type ("set" or "run")"
    assert meld("liverpool", "4H 5H 6H 7H", "set").type == "set"
    assert "set_mixed_ranks" in codes(meld("liverpool", "4H 5H 6H 7H", "set"))
    assert meld("liverpool", "7H 7S 7D", "run").type == "run"
    assert not meld("liverpool", "7H 7S 7D", "run").valid
