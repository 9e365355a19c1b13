"""Properties that hold for every input (hypothesis): runs read the same backwards, a swap keeps a
meld legal, a hand's penalty is the sum of its cards, and a malformed question only ever raises a
RulesError (so the API can answer it with a 4xx, never a 500)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import rules
from rules import Card, Rank, Suit, find_ruleset, read_meld

LIVERPOOL_FAMILY = ("liverpool", "liverpool-9", "liverpool-fixed-hand", "liverpool-no-buy")
PROGRESSIVE_FAMILY = (
    "progressive",
    "shanghai",
    "california",
    "progressive-no-buy",
    "double-progressive",
)
ALL_PRESETS = (*LIVERPOOL_FAMILY, "contract-rummy", *PROGRESSIVE_FAMILY)

FAST = settings(
    max_examples=150,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)

ALL_CARDS = (*rules.DECK, rules.JOKER)
cards_strategy = st.lists(st.sampled_from(ALL_CARDS), max_size=14)
presets = st.sampled_from(ALL_PRESETS)


def wild_for(preset: str) -> Card:
    return Card.parse("QS" if preset == "california" else "JK")


def at(value: int, suit: Suit) -> Card:
    """The card at a run value (1 low ace .. 14 high ace)."""
    return Card(Rank.ACE if value == 14 else Rank(value), suit)


@st.composite
def runs_with_wilds(draw: st.DrawFn) -> tuple[str, list[Card]]:
    """A run as it could lie on the table, some positions taken by the preset's wild card."""
    preset = draw(presets)
    length = draw(st.integers(4, 13))
    low = draw(st.integers(1, 14 - length + 1))
    suit = draw(st.sampled_from(list(Suit)))
    cards = [at(value, suit) for value in range(low, low + length)]
    for index in draw(st.sets(st.integers(0, length - 1), max_size=length - 2)):
        cards[index] = wild_for(preset)
    if draw(st.booleans()):
        cards.reverse()
    return preset, cards


@st.composite
def sets_with_wilds(draw: st.DrawFn) -> tuple[str, list[Card]]:
    preset = draw(presets)
    rank = draw(st.sampled_from([r for r in Rank if r is not Rank.QUEEN]))
    naturals = [
        Card(rank, draw(st.sampled_from(list(Suit)))) for _ in range(draw(st.integers(1, 5)))
    ]
    wilds = [wild_for(preset)] * draw(st.integers(0, 4))
    cards = draw(st.permutations(naturals + wilds))
    return preset, list(cards)


# --- runs read backwards ----------------------------------------------------------------------


@FAST
@given(runs_with_wilds())
def test_a_valid_run_stays_valid_read_in_reverse(case: tuple[str, list[Card]]) -> None:
    # RULES §2 Decision: "a run is read low to high, unless its naturals descend (which takes at
    # least two naturals), then high to low." -- so the reading needs two naturals to turn round.
    preset, cards = case
    ruleset = find_ruleset(preset)
    forward = read_meld(cards, ruleset, "run")
    assume(forward.valid and forward.naturals >= 2)
    backward = read_meld(cards[::-1], ruleset, "run")
    assert backward.valid, [v.code for v in backward.violations]
    assert backward.descending is not forward.descending
    assert (backward.low, backward.high, backward.suit) == (forward.low, forward.high, forward.suit)
    assert sorted(w.stands_for for w in backward.wilds) == sorted(
        w.stands_for for w in forward.wilds
    )
    length = len(cards)
    assert {length - 1 - w.index: w.stands_for for w in backward.wilds} == {
        w.index: w.stands_for for w in forward.wilds
    }


@FAST
@given(presets, st.integers(4, 13), st.sampled_from(list(Suit)), st.data())
def test_natural_runs_are_valid_both_ways(
    preset: str, length: int, suit: Suit, data: st.DataObject
) -> None:
    # 000: "Eine „Sequenz” besteht aus vier oder mehr Karten derselben Farbe in
    #      aufeinanderfolgenden Werten." (ace low or high, RULES §2)
    low = data.draw(st.integers(1, 14 - length + 1))
    cards = [at(value, suit) for value in range(low, low + length)]
    for order in (cards, cards[::-1]):
        reading = read_meld(order, find_ruleset(preset), "run")
        assert reading.valid, ([str(c) for c in order], [v.code for v in reading.violations])
        assert (reading.low, reading.high) == (low, low + length - 1)


# --- joker swaps keep melds legal -------------------------------------------------------------


@FAST
@given(st.one_of(runs_with_wilds(), sets_with_wilds()), st.data())
def test_swapping_a_wild_for_what_it_stands_for_keeps_the_meld_valid(
    case: tuple[str, list[Card]], data: st.DataObject
) -> None:
    preset, cards = case
    ruleset = find_ruleset(preset)
    reading = read_meld(cards, ruleset)
    assume(reading.valid and reading.wilds)
    wild = data.draw(st.sampled_from(reading.wilds))
    if reading.type == "run":
        natural = Card.parse(wild.stands_for)
    else:
        natural = Card(Rank.parse(wild.stands_for), data.draw(st.sampled_from(list(Suit))))
    swapped = [natural if i == wild.index else card for i, card in enumerate(cards)]
    after = read_meld(swapped, ruleset, reading.type)
    assert after.valid, [v.code for v in after.violations]
    assert (after.rank, after.suit, after.low, after.high) == (
        reading.rank,
        reading.suit,
        reading.low,
        reading.high,
    )
    remaining = {w.index: w.stands_for for w in reading.wilds if w.index != wild.index}
    if not ruleset.is_wild(natural):
        assert {w.index: w.stands_for for w in after.wilds} == remaining
    # Where swaps are allowed at all, the swap check agrees (Liverpool: sets and runs), unless
    # the natural is one copy more than the decks hold (RULES §2: once per deck in play).
    if preset in LIVERPOOL_FAMILY:
        verdict = rules.check_joker_swap(ruleset, 1, cards, natural, "no", wild.index)
        assert verdict.meld.valid
        if not dealable(preset, swapped):
            assert {v.code for v in verdict.violations} == {"too_many_copies"}
        else:
            assert verdict.valid, [v.code for v in verdict.violations]


# --- penalties --------------------------------------------------------------------------------

_FIVES = {"A": 15, "10": 10, "J": 10, "Q": 10, "K": 10} | {str(n): 5 for n in range(2, 10)}
VALUES: dict[str, dict[str, int]] = {
    # 000: "Ass = 15, K/D/B/10 = 10 je, 9–2 = 5 je, Joker = 15."
    **{p: _FIVES | {"JK": 15} for p in LIVERPOOL_FAMILY},
    # 002: "4 + 8 + 10 + 15 = 37"; RULES §3.2: A 15
    "contract-rummy": {"A": 15, "J": 10, "Q": 10, "K": 10, "JK": 15}
    | {str(n): n for n in range(2, 11)},
    # 004: "Joker = 25 Punkte, Asse = 15 Punkte, Könige / Damen / Buben / Zehnen = je 10 Punkte,
    #      alle anderen Karten = je 5 Punkte."
    **{p: _FIVES | {"JK": 25} for p in PROGRESSIVE_FAMILY},
    # RULES §3.3 california: "a queen left in hand costs what a joker would (25)"
    "california": _FIVES | {"JK": 25, "Q": 25},
}


def dealable(preset: str, hand: list[Card]) -> bool:
    """Whether the largest table of the preset could deal the hand: no more copies of a card
    than its decks, no more jokers than it has (RULES §2)."""
    table = find_ruleset(preset).table(None)
    counts = Counter(hand)
    return all(n <= (table.jokers if c.is_joker else table.decks) for c, n in counts.items())


@FAST
@given(presets, cards_strategy)
def test_a_hands_penalty_is_the_sum_of_its_cards(preset: str, hand: list[Card]) -> None:
    scored = rules.penalty(find_ruleset(preset), hand)
    # A hand no table could deal is counted all the same, and says so.
    assert (scored.violations == ()) is dealable(preset, hand)
    each = [VALUES[preset]["JK" if card.is_joker else str(card)[:-1]] for card in hand]
    assert [card for card, _ in scored.cards] == hand
    assert [points for _, points in scored.cards] == each
    assert scored.total == sum(each)


@FAST
@given(presets, cards_strategy, cards_strategy)
def test_penalties_add_up_over_a_split_hand(preset: str, one: list[Card], two: list[Card]) -> None:
    ruleset = find_ruleset(preset)
    assert (
        rules.penalty(ruleset, one + two).total
        == rules.penalty(ruleset, one).total + rules.penalty(ruleset, two).total
    )


# --- nothing but RulesError ---------------------------------------------------------------------

rounds = st.integers(-1, 10)
players = st.one_of(st.none(), st.integers(0, 10))
contract_down = st.sampled_from(["no", "this_turn", "earlier_turn"])
meld_types = st.sampled_from([None, "set", "run"])


def only_rules_errors(call: Any, *args: Any, **kwargs: Any) -> Any:
    """Run a check; a RulesError is a fine answer to a malformed question, anything else is not."""
    try:
        return call(*args, **kwargs)
    except rules.RulesError:
        return None


@FAST
@given(
    presets,
    rounds,
    st.lists(cards_strategy, max_size=4),
    st.one_of(st.none(), cards_strategy),
    players,
    st.lists(meld_types, max_size=4),
)
def test_the_contract_check_raises_only_rules_errors(
    preset: str,
    number: int,
    melds: list[list[Card]],
    hand: list[Card] | None,
    table: int | None,
    types: list[Any],
) -> None:
    verdict = only_rules_errors(
        rules.check_contract, find_ruleset(preset), number, melds, hand, table, types or None
    )
    if verdict is not None:
        assert verdict.valid is (not verdict.violations)
        if hand is None:
            assert verdict.goes_out is None and verdict.remaining is None
        else:
            assert verdict.goes_out in (True, False)
            assert Counter(verdict.remaining) <= Counter(hand)


@FAST
@given(presets, cards_strategy, meld_types, players)
def test_the_meld_check_raises_only_rules_errors(
    preset: str, cards: list[Card], meld_type: Any, table: int | None
) -> None:
    reading = only_rules_errors(rules.check_meld, find_ruleset(preset), cards, meld_type, table)
    if reading is not None:
        assert reading.valid is (not reading.violations)
        assert all(0 <= w.index < len(cards) for w in reading.wilds)


@FAST
@given(
    presets,
    rounds,
    cards_strategy,
    cards_strategy,
    contract_down,
    st.sampled_from([None, "low", "high"]),
    players,
    meld_types,
)
def test_the_layoff_check_raises_only_rules_errors(
    preset: str,
    number: int,
    meld: list[Card],
    cards: list[Card],
    down: Any,
    end: Any,
    table: int | None,
    meld_type: Any,
) -> None:
    verdict = only_rules_errors(
        rules.check_layoff, find_ruleset(preset), number, meld, cards, down, end, table, meld_type
    )
    if verdict is not None:
        assert verdict.valid is (not verdict.violations)
        if verdict.valid:  # the resulting meld is exactly the table's cards plus the new ones
            assert Counter(verdict.meld.cards) == Counter(meld) + Counter(cards)


@FAST
@given(
    presets,
    rounds,
    cards_strategy,
    st.sampled_from(ALL_CARDS),
    contract_down,
    st.one_of(st.none(), st.integers(-2, 15)),
    meld_types,
)
def test_the_swap_check_raises_only_rules_errors(
    preset: str,
    number: int,
    meld: list[Card],
    card: Card,
    down: Any,
    joker: int | None,
    meld_type: Any,
) -> None:
    verdict = only_rules_errors(
        rules.check_joker_swap, find_ruleset(preset), number, meld, card, down, joker, meld_type
    )
    if verdict is not None:
        assert verdict.valid is (not verdict.violations)


@FAST
@given(
    presets,
    rounds,
    st.integers(0, 10),
    st.integers(-1, 10),
    st.lists(st.integers(-1, 10), max_size=5),
    st.dictionaries(st.integers(-1, 10), st.integers(0, 5), max_size=4),
    st.one_of(st.none(), st.integers(-1, 10)),
)
def test_the_buy_check_raises_only_rules_errors(
    preset: str,
    number: int,
    seats: int,
    on_turn: int,
    callers: list[int],
    used: dict[int, int],
    previous: int | None,
) -> None:
    verdict = only_rules_errors(
        rules.check_buy, find_ruleset(preset), number, seats, on_turn, callers, used, previous
    )
    if verdict is not None:
        assert verdict.winner is None or verdict.winner in callers
        assert verdict.penalty_cards == (0 if verdict.winner is None else 1)


@FAST
@given(
    presets,
    rounds,
    st.integers(1, 10),
    st.lists(
        st.tuples(
            st.integers(-1, 10),
            st.booleans(),
            st.one_of(st.none(), st.integers(-20, 400)),
            st.one_of(st.none(), cards_strategy),
            st.one_of(st.none(), st.integers(-1, 6)),
        ),
        max_size=8,
    ),
    st.booleans(),
)
def test_scoring_a_round_raises_only_rules_errors(
    preset: str,
    number: int,
    table: int,
    raw: list[tuple[int, bool, int | None, list[Card] | None, int | None]],
    stock_ran_out: bool,
) -> None:
    from rules.match import Entry, score_round

    entries = [
        Entry(
            seat,
            went_out=out,
            points=points,
            cards=None if cards is None else tuple(cards),
            buys=buys,
        )
        for seat, out, points, cards, buys in raw
    ]
    scored = only_rules_errors(
        score_round, find_ruleset(preset), number, table, entries, stock_ran_out
    )
    if scored is not None:
        results, problems = scored
        assert len(results) == len(entries)
        assert all(p.code in rules.MESSAGES for p in problems)
