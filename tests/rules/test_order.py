"""Card order: runs given in any order (``order="any"``), laid out by the referee; and the
lay-off, whose cards may always come in any order.

docs/api.md, Card order: naturals in rank order, wild cards into the gaps, a spare wild card at
the high end, or the low end where the high end is an ace or illegal; the arrangement is judged
like any other run, and the verdict's cards are the order chosen, with each wild's reading.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from rules_testing import ALL_PRESETS, C, codes, result

import rules
from rules import Card, MoveError, Rank, Suit, find_ruleset, read_meld
from rules.arrange import read_meld_any, run_orders

LIVERPOOL = find_ruleset("liverpool")
MAY_I = find_ruleset("may-i")
PROGRESSIVE = find_ruleset("progressive")


def shown(meld: rules.Meld) -> str:
    return " ".join(rules.format_cards(meld.cards))


def readings(meld: rules.Meld) -> list[tuple[int, str]]:
    return [(wild.index, wild.stands_for) for wild in meld.wilds]


# --- the meld check ----------------------------------------------------------------------------


def test_a_run_tapped_in_any_order_is_refused_in_table_order_and_laid_out_in_any() -> None:
    cards = C("QH 10H KH JH")
    assert codes(rules.check_meld(LIVERPOOL, cards)) == ["run_not_consecutive"]
    meld = rules.check_meld(LIVERPOOL, cards, order="any")
    assert meld.valid and meld.type == "run"
    assert shown(meld) == "10H JH QH KH"
    assert (meld.low, meld.high, meld.suit) == (10, 13, Suit.HEARTS)


@pytest.mark.parametrize(
    ("given", "laid", "wilds"),
    [
        # A wild card goes into the gap between the naturals.
        ("QH 10H JK KH", "10H JK QH KH", [(1, "JH")]),
        # A spare wild card goes to the high end...
        ("5H JK 4H 6H", "4H 5H 6H JK", [(3, "7H")]),
        # ...or to the low end where the high end is an ace.
        ("KH JK AH QH", "JK QH KH AH", [(0, "JH")]),
        # An ace low where that makes the run, high where that does.
        ("3H AH JK 4H", "AH JK 3H 4H", [(1, "2H")]),
        ("AH JH KH QH", "JH QH KH AH", []),
        # Gaps first, then the spare one.
        ("9S JK 6S JK 8S", "6S JK 8S 9S JK", [(1, "7S"), (4, "10S")]),
    ],
)
def test_the_referee_lays_a_run_out(given: str, laid: str, wilds: list[tuple[int, str]]) -> None:
    meld = rules.check_meld(LIVERPOOL, C(given), order="any")
    assert meld.valid, codes(meld)
    assert (shown(meld), readings(meld)) == (laid, wilds)


def test_a_spare_wild_goes_low_where_the_high_end_is_illegal() -> None:
    """Aces low only (a house rule): nothing lies above the king."""
    ace_low_only = LIVERPOOL.with_options({"ace_high": False})
    meld = rules.check_meld(ace_low_only, C("QH JK KH JH"), order="any")
    assert meld.valid, codes(meld)
    assert (shown(meld), readings(meld)) == ("JK JH QH KH", [(0, "10H")])
    # The May I? engine's aces are high only, and its twos are wild: A 2 is no run.
    meld = rules.check_meld(MAY_I, C("AS QS JK KS"), "run", order="any")
    assert (shown(meld), readings(meld)) == ("JK QS KS AS", [(0, "JS")])


def test_naturals_of_one_rank_in_any_order_are_a_set_and_stay_as_given() -> None:
    meld = rules.check_meld(LIVERPOOL, C("7S JK 7H"), order="any")
    assert meld.valid and meld.type == "set"
    assert shown(meld) == "7S JK 7H"
    assert readings(meld) == [(1, "7")]


@pytest.mark.parametrize(
    ("given", "code"),
    [
        ("5H 5H 6H 7H", "run_not_consecutive"),  # a repeated rank is never a run
        ("5H 6S 7H 8H", "run_mixed_suits"),
        ("2H 3H KH AH", "run_wraps_around"),  # K A 2 3 only round the corner
        ("2H JK KH QH", "run_wraps_around"),  # Q K (A) 2
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "run_wraps_around"),  # aces at both ends
        ("2H 5H 9H JH", "run_not_consecutive"),
    ],
)
def test_what_no_arrangement_makes_a_run(given: str, code: str) -> None:
    meld = rules.check_meld(LIVERPOOL, C(given), "run", order="any")
    assert codes(meld) == [code]


def test_a_declared_set_is_read_as_a_set_in_any_order() -> None:
    meld = rules.check_meld(LIVERPOOL, C("4H 6H 5H 7H"), "set", order="any")
    assert meld.type == "set" and "set_mixed_ranks" in codes(meld)


def test_spare_wilds_go_high_then_low_within_the_wild_limits() -> None:
    """Progressive has no limit on wild cards beyond the naturals: spares go high while there is
    room, the rest low. Liverpool lets one lie beyond them: the referee never lays out a run
    the table could not lay, so two spares are refused."""
    meld = rules.check_meld(PROGRESSIVE, C("JK 6H JK 5H 7H"), "run", order="any")
    assert (shown(meld), readings(meld)) == ("5H 6H 7H JK JK", [(3, "8H"), (4, "9H")])
    meld = rules.check_meld(PROGRESSIVE, C("KH JK QH JK"), "run", order="any")
    assert (shown(meld), readings(meld)) == ("JK QH KH JK", [(0, "JH"), (3, "AH")])
    assert codes(rules.check_meld(LIVERPOOL, C("JK 6H JK 5H 7H"), "run", order="any")) == [
        "too_many_wilds"
    ]


def test_an_unknown_order_is_a_question_that_cannot_be_asked() -> None:
    with pytest.raises(MoveError) as raised:
        rules.check_meld(LIVERPOOL, C("4H 5H 6H 7H"), order="random")  # type: ignore[arg-type]
    assert raised.value.field == "order"
    with pytest.raises(MoveError):
        rules.check_contract(LIVERPOOL, 1, [C("7H 7S 7D")], order="sorted")  # type: ignore[arg-type]


# --- the contract and the lay-off --------------------------------------------------------------


def test_a_contract_in_any_order_reads_each_run_laid_out() -> None:
    melds = [C("7S 7H 7D"), C("QH 10H JK KH")]
    hand = (*melds[0], *melds[1], *C("2C"))
    assert not rules.check_contract(LIVERPOOL, 2, melds, hand).valid
    verdict = rules.check_contract(LIVERPOOL, 2, melds, hand, order="any")
    assert verdict.valid, codes(verdict)
    assert [shown(meld) for meld in verdict.melds] == ["7S 7H 7D", "10H JK QH KH"]
    assert readings(verdict.melds[1]) == [(1, "JH")]
    assert rules.format_cards(verdict.remaining or ()) == ["2C"]
    assert verdict.goes_out is True


def test_two_runs_in_any_order_are_spaced_by_their_arrangement() -> None:
    """Pagat's runs of one suit may not touch; that is judged on the runs as laid out."""
    contract_rummy = find_ruleset("contract-rummy")
    melds = [C("6H 4H 3H 5H"), C("8H 10H 7H 9H")]
    verdict = rules.check_contract(contract_rummy, 3, melds, order="any")
    assert "runs_touch" in codes(verdict)
    assert [shown(meld) for meld in verdict.melds] == ["3H 4H 5H 6H", "7H 8H 9H 10H"]


def test_a_contract_in_any_order_with_declared_types() -> None:
    melds = [C("9C 9D JK"), C("KC KD KH")]
    verdict = rules.check_contract(MAY_I, 1, melds, types=["set", "set"], order="any")
    assert verdict.valid, codes(verdict)


def test_a_lay_off_onto_a_table_meld_given_in_any_order() -> None:
    meld, cards = C("QH 10H KH JH"), C("JK 9H")
    refused = rules.check_layoff(LIVERPOOL, 3, meld, cards, "earlier_turn")
    assert codes(refused) == ["table_meld_invalid"]
    verdict = rules.check_layoff(LIVERPOOL, 3, meld, cards, "earlier_turn", order="any")
    assert verdict.valid, codes(verdict)
    assert result(verdict) == "9H 10H JH QH KH JK"
    assert readings(verdict.meld) == [(5, "AH")]


@pytest.mark.parametrize("cards", ["JK 2C 9S", "2C JK 9S", "9S JK 2C", "9S 2C JK"])
def test_different_wild_cards_laid_off_land_alike_in_any_order(cards: str) -> None:
    """May I?'s twos and jokers are both wild: whichever comes first, each lands in one place."""
    verdict = rules.check_layoff(MAY_I, 2, C("5S 6S 7S 8S"), C(cards), "earlier_turn")
    assert verdict.valid, codes(verdict)
    assert result(verdict) == "5S 6S 7S 8S 9S 2C JK"


@pytest.mark.parametrize("cards", ["8H JK 3H", "3H 8H JK", "JK 3H 8H"])
def test_a_lay_off_takes_its_cards_in_any_order(cards: str) -> None:
    verdict = rules.check_layoff(PROGRESSIVE, 3, C("4H 5H 6H 7H"), C(cards), "earlier_turn")
    assert verdict.valid, codes(verdict)
    assert result(verdict) == "3H 4H 5H 6H 7H 8H JK"


# --- properties --------------------------------------------------------------------------------

presets = st.sampled_from(ALL_PRESETS)
PROPERTY = settings(
    max_examples=150,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)


def _wild(preset: str) -> Card:
    return Card.parse("QS" if preset == "california" else "JK")


def _at(value: int, suit: Suit) -> Card:
    return Card(Rank.ACE if value == 14 else Rank(value), suit)


@st.composite
def legal_runs(draw: st.DrawFn) -> tuple[str, list[Card]]:
    """A run that is legal as it lies on the table, some positions taken by wild cards."""
    preset = draw(presets)
    length = draw(st.integers(4, 13))
    low = draw(st.integers(1, 14 - length + 1))
    suit = draw(st.sampled_from([s for s in Suit if s is not Suit.SPADES]))
    cards = [_at(value, suit) for value in range(low, low + length)]
    for index in draw(st.sets(st.integers(0, length - 1), max_size=length - 2)):
        cards[index] = _wild(preset)
    assume(read_meld(cards, find_ruleset(preset), "run").valid)
    return preset, cards


@PROPERTY
@given(legal_runs(), st.randoms(use_true_random=False))
def test_any_order_of_a_legal_run_is_valid_and_laid_out_alike(
    case: tuple[str, list[Card]], random: object
) -> None:
    preset, cards = case
    ruleset = find_ruleset(preset)
    shuffled = list(cards)
    random.shuffle(shuffled)  # type: ignore[attr-defined]
    laid = read_meld_any(shuffled, ruleset, "run")
    assert laid.valid, ([str(c) for c in shuffled], codes(laid))
    random.shuffle(shuffled)  # type: ignore[attr-defined]
    again = read_meld_any(shuffled, ruleset, "run")
    assert (again.cards, again.wilds) == (laid.cards, laid.wilds)
    # The arrangement is a run in table order: read as it lies, it reads the same.
    assert read_meld(laid.cards, ruleset, "run").wilds == laid.wilds
    assert sorted(map(str, laid.cards)) == sorted(map(str, cards))


@PROPERTY
@given(presets, st.integers(4, 13), st.sampled_from(list(Suit)), st.data())
def test_a_shuffled_natural_run_is_refused_in_table_order(
    preset: str, length: int, suit: Suit, data: st.DataObject
) -> None:
    low = data.draw(st.integers(1, 14 - length + 1))
    cards = [_at(value, suit) for value in range(low, low + length)]
    shuffled = data.draw(st.permutations(cards))
    assume(list(shuffled) not in (cards, cards[::-1]))
    ruleset = find_ruleset(preset)
    assert not read_meld(shuffled, ruleset, "run").valid
    laid = read_meld_any(shuffled, ruleset, "run")
    assert laid.valid
    if length < 13:  # thirteen cards with an ace lie either way round: A..K or 2..A
        assert laid.cards == tuple(cards)


@PROPERTY
@given(presets, st.integers(4, 9), st.data())
def test_lay_off_cards_in_any_order_give_the_same_meld(
    preset: str, length: int, data: st.DataObject
) -> None:
    ruleset = find_ruleset(preset)
    low = data.draw(st.integers(2, 13 - length))
    high = low + length - 1
    table = [_at(value, Suit.HEARTS) for value in range(low, high + 1)]
    below = data.draw(st.integers(0, low - 2))
    above = data.draw(st.integers(0, 13 - high))
    values = (*range(low - below, low), *range(high + 1, high + 1 + above))
    added = [_at(value, Suit.HEARTS) for value in values]
    assume(added)
    if data.draw(st.booleans()):
        added[data.draw(st.integers(0, len(added) - 1))] = _wild(preset)
    first = rules.check_layoff(ruleset, 1, table, added, "earlier_turn")
    again = rules.check_layoff(ruleset, 1, table, data.draw(st.permutations(added)), "earlier_turn")
    assert (again.valid, again.meld.cards, codes(again)) == (
        first.valid,
        first.meld.cards,
        codes(first),
    )


def test_the_arranger_only_proposes_orders_of_the_same_cards() -> None:
    cards = C("JK 8S 5S 2C")
    for order in run_orders(cards, MAY_I):
        assert sorted(map(str, order)) == sorted(map(str, cards))
