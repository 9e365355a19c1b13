"""Hand analysis (``rules.analysis``): hand-written cases per preset, and the search checked
against a deliberately simple brute force that tries every sub-multiset of the hand as a meld,
in every order that could read as one, with ``check_contract`` itself as the judge.

Every answer that can lay is fed back to ``check_contract``: it must be valid as it stands, with
the same remaining cards, penalty and ``goes_out``.
"""

from __future__ import annotations

import doctest
import itertools
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

import rules
import rules.analysis
import rules.analysis.bitmasks
from rules import (
    Card,
    MoveError,
    Rank,
    Ruleset,
    Suit,
    check_contract,
    find_ruleset,
    parse_cards,
    penalty,
    read_meld,
    resolve_ruleset,
)
from rules.analysis import Analysis, PartialMeld, analyse_hand
from rules.ruleset import MeldType


def C(text: str) -> list[Card]:
    return list(parse_cards(text.split()))


def laid(result: Analysis) -> list[str]:
    return [" ".join(map(str, meld)) for meld in result.melds]


def names(cards: Sequence[Card]) -> str:
    return " ".join(map(str, cards))


def key(ruleset: Ruleset, result: Analysis) -> tuple[int, int, int]:
    """What "best" orders by: penalty left, wild cards laid, cards laid (most first)."""
    wilds = sum(1 for meld in result.melds for card in meld if ruleset.is_wild(card))
    return (result.penalty, wilds, -sum(len(meld) for meld in result.melds))


def assert_round_trip(
    ruleset: Ruleset, number: int, hand: Sequence[Card], players: int | None, result: Analysis
) -> None:
    """The melds are valid for the contract check as they are, and it agrees on the rest."""
    verdict = check_contract(ruleset, number, result.melds, hand=hand, players=players)
    assert verdict.valid, verdict.violations
    assert verdict.remaining == result.remaining
    assert penalty(ruleset, result.remaining).total == result.penalty
    assert verdict.goes_out == result.goes_out


def analyse(preset: str, number: int, text: str, players: int | None = None) -> Analysis:
    ruleset = find_ruleset(preset)
    hand = C(text)
    result = analyse_hand(ruleset, number, hand, players)
    if result.can_lay:
        assert_round_trip(ruleset, number, hand, players, result)
    return result


# --- liverpool -------------------------------------------------------------------------------


def test_liverpool_two_sets_with_a_joker() -> None:
    result = analyse("liverpool", 1, "7H 7S 7D KC KD JK 2C 9H 4S 5D 6D")
    assert result.can_lay
    assert laid(result) == ["7S 7H 7D", "KD KC JK"]
    assert names(result.remaining) == "2C 9H 4S 5D 6D"
    assert (result.penalty, result.goes_out) == (25, False)
    assert result.needs == () and result.closest is None


def test_liverpool_lays_all_but_the_cheapest_card_and_goes_out() -> None:
    result = analyse("liverpool", 1, "7H 7S 7D 7C KC KD KS 2C")
    assert laid(result) == ["7S 7H 7D 7C", "KS KD KC"]
    # The 2 stays to be discarded: it is the cheapest card (5 points).
    assert (names(result.remaining), result.penalty, result.goes_out) == ("2C", 5, True)


def test_liverpool_melds_that_use_every_card_leave_nothing_to_discard() -> None:
    # docs/rules.md §4: the round ends with a discard, so the melds may not use the whole hand; any
    # card at all would give one to discard.
    result = analyse("liverpool", 1, "7H 7S 7D KC KD KS")
    assert not result.can_lay
    assert result.closest is not None and result.closest.missing == 0
    assert len(result.needs) == 53 and result.needs[-1] == "JK"


def test_liverpool_what_a_hand_waits_for() -> None:
    result = analyse("liverpool", 2, "4H 5H 6H 8C 9C 9S KD QS 2D 3D JK")
    assert not result.can_lay
    # The joker completes either meld; the other needs one card: a 9 (another 9C or 9S too,
    # with three decks in play), the heart on either end of the run, or a second joker.
    assert result.needs == ("3H", "7H", "9S", "9H", "9D", "9C", "JK")
    closest = result.closest
    assert closest is not None and (closest.missing, closest.complete) == (1, 1)
    assert [(m.type, names(m.cards), m.missing) for m in closest.melds] == [
        ("set", "9S 9C", ("9",)),
        ("run", "JK 4H 5H 6H", ()),
    ]
    # 8C, 2D and 3D at 5 points, KD and QS at 10.
    assert names(closest.remaining) == "8C KD QS 2D 3D" and closest.penalty == 35


def test_liverpool_two_cards_away_needs_nothing() -> None:
    result = analyse("liverpool", 2, "4H 5H 6H 8C 9C 9S KD QS 2D 3D")
    assert result.needs == ()
    assert result.closest is not None and result.closest.missing == 2


def test_liverpool_round_six_with_jokers_bought_into() -> None:
    hand = "3S 4S 5S 6S 9D 10D JD 8C 8H JK JK KC"
    result = analyse("liverpool", 6, hand, players=5)
    assert result.can_lay
    assert sorted(meld.type for meld in result.readings) == ["run", "run", "set"]
    # Everything goes down but the cheapest card: the king waits, or a joker is laid for it.
    assert len(result.remaining) == 1 and result.goes_out


def test_liverpool_round_seven_run_of_seven() -> None:
    result = analyse("liverpool", 7, "3D 4D 5D 6D 7D 8D 9D KS QC 2H JH")
    assert laid(result) == ["3D 4D 5D 6D 7D 8D 9D"]
    assert names(result.remaining) == "KS QC 2H JH"
    # No discard in round 7: going out is playing the last card.
    assert not result.goes_out


def test_liverpool_round_seven_goes_out_without_a_discard() -> None:
    result = analyse("liverpool", 7, "3D 4D 5D JK 7D 8D 9D 10D")
    assert laid(result) == ["3D 4D 5D JK 7D 8D 9D 10D"]
    assert result.readings[0].wilds[0].stands_for == "6D"
    assert result.remaining == () and result.goes_out


def test_liverpool_round_seven_two_jokers_cannot_both_lie_outside() -> None:
    # 2D..8D would put a joker beyond each end of the naturals: at most one may lie there.
    result = analyse("liverpool", 7, "3D 4D 5D 6D 7D JK JK")
    assert not result.can_lay
    assert result.needs == ("AD", "2D", "8D", "9D", "10D")


def test_liverpool_a_set_needs_two_naturals() -> None:
    result = analyse("liverpool", 1, "7H JK JK KC KD KS 2C")
    assert not result.can_lay
    assert "7S" in result.needs and "JK" not in result.needs


# --- contract rummy: exactly the minimum, no touching runs -----------------------------------


def test_contract_rummy_exact_minimum_keeps_the_cheaper_end() -> None:
    # The Norwegian sheet lays the 9s and 4H-7H and keeps 8H; exactly 4 cards either way, and 4H costs
    # less than 8H, so the best arrangement keeps 4H.
    result = analyse("contract-rummy", 2, "9S 9H 9D 4H 5H 6H 7H 8H KD")
    assert laid(result) == ["9S 9H 9D", "5H 6H 7H 8H"]
    assert (names(result.remaining), result.penalty) == ("4H KD", 14)


def test_contract_rummy_a_joker_stands_in_for_a_cheaper_natural() -> None:
    # Exactly four cards in the run: laying the joker for 4H keeps 4 points, not 15.
    result = analyse("contract-rummy", 2, "9S 9H 9D 4H 5H 6H 7H JK KD")
    assert laid(result) == ["9S 9H 9D", "JK 5H 6H 7H"]
    assert result.readings[1].wilds[0].stands_for == "4H"
    assert (names(result.remaining), result.penalty) == ("4H KD", 14)


def test_contract_rummy_runs_may_not_touch() -> None:
    # 4H-7H and 8H-JH are two halves of one run; without a way to part them, no contract.
    result = analyse("contract-rummy", 3, "4H 5H 6H 7H 8H 9H 10H JH KS")
    assert not result.can_lay
    assert result.needs == ("3H", "7H", "8H", "QH", "JK")


def test_contract_rummy_a_joker_leaves_the_gap() -> None:
    result = analyse("contract-rummy", 3, "4H 5H 6H 7H 8H 9H 10H JH JK KS")
    assert laid(result) == ["5H 6H 7H 8H", "JK 9H 10H JH"]
    assert (names(result.remaining), result.penalty) == ("4H KS", 14)


def test_contract_rummy_whole_hand_round() -> None:
    result = analyse("contract-rummy", 7, "3S 4S 5S 6S 7S 8H 9H 10H JH 2C 3C 4C 5C")
    assert result.can_lay and result.remaining == () and result.goes_out


def test_contract_rummy_whole_hand_round_with_a_card_that_fits_nowhere() -> None:
    result = analyse("contract-rummy", 7, "3S 4S 5S 6S 7S 8H 9H 10H JH 2C 3C 4C 5C KD")
    assert not result.can_lay
    # The melds are all there, but no single card lets the king into one of three runs.
    assert result.closest is not None and result.closest.missing == 0
    assert names(result.closest.remaining) == "KD"
    assert result.needs == ()


# --- progressive and california --------------------------------------------------------------


def test_progressive_longer_melds_and_a_joker_worth_25() -> None:
    result = analyse("progressive", 2, "8S 8D 8C JK 3C 4C 5C 6C KD")
    assert laid(result) == ["8S 8D 8C JK", "3C 4C 5C 6C"]
    assert (names(result.remaining), result.penalty, result.goes_out) == ("KD", 10, True)


def test_progressive_one_natural_and_wild_cards_reads_as_intended() -> None:
    # One natural and jokers reads as a set or a run: the melds come in the order that makes
    # the contract check read each as the type it was built as.
    result = analyse("progressive", 2, "5S JK JK JK KD KC KH 9D")
    assert [meld.type for meld in result.readings] == ["set", "run"]
    result = analyse("progressive", 2, "5S JK JK JK 9D JK JK JK 2C")
    assert sorted(meld.type for meld in result.readings) == ["run", "set"]
    assert (len(result.remaining), result.penalty) == (1, 5)


def test_california_a_queen_in_a_run_stands_for_its_queen() -> None:
    result = analyse("california", 2, "10H JH QS KH 7C 7D 7S 2C")
    assert laid(result) == ["7S 7D 7C", "10H JH QS KH"]
    assert result.readings[1].wilds[0].stands_for == "QH"
    assert (names(result.remaining), result.penalty, result.goes_out) == ("2C", 5, True)


def test_california_queens_alone_are_no_meld() -> None:
    result = analyse("california", 1, "QS QH QD 5C 5D 9H 2S")
    # Three queens alone have no natural: they join the 5s and the 2 as wild cards.
    assert result.can_lay
    assert all(meld.rank is not None for meld in result.readings)
    assert result.penalty == 5


def test_california_a_queen_left_in_hand_costs_25() -> None:
    result = analyse("california", 1, "5C 5D 5H 9C 9D 9H QS KD")
    assert result.can_lay
    # The queen goes into a set: keeping it would cost 25, the king 10.
    assert names(result.remaining) == "KD"


def test_may_i_spare_wild_cards_never_outnumber_a_sets_naturals() -> None:
    # In May I? wild cards may not outnumber a meld's naturals. The two sets of aces share the
    # spare twos, so that with the missing aces drawn each is legal (all three extra twos in
    # the first set made it 2 aces and 3 twos).
    result = analyse("may-i", 1, "2H 2S 2S 2S AS AH")
    closest = result.closest
    assert closest is not None and (closest.missing, closest.complete) == (2, 1)
    assert [(m.type, names(m.cards), m.missing) for m in closest.melds] == [
        ("set", "AS AH 2H 2S", ()),
        ("set", "2S 2S", ("A", "A")),
    ]


# --- the hand itself -------------------------------------------------------------------------


def test_more_copies_than_the_table_holds_is_not_a_hand() -> None:
    hand = C("7H 7H 7H 8C 9C")
    with pytest.raises(MoveError, match="7H") as info:
        analyse_hand(find_ruleset("liverpool"), 1, hand, players=4)  # two decks
    assert info.value.field == "hand"
    # Without the table size, three decks may be in play.
    assert analyse_hand(find_ruleset("liverpool"), 1, hand).can_lay is False


def test_too_many_jokers_is_not_a_hand() -> None:
    with pytest.raises(MoveError):
        analyse_hand(find_ruleset("contract-rummy"), 1, C("JK JK JK 7H"), players=3)


def test_an_unknown_round_raises() -> None:
    with pytest.raises(rules.RoundError):
        analyse_hand(find_ruleset("liverpool"), 8, C("7H 7S 7D"))


def test_an_empty_hand() -> None:
    result = analyse_hand(find_ruleset("liverpool"), 1, [])
    assert not result.can_lay and result.needs == () and result.penalty == 0


# --- a deliberately simple brute force -------------------------------------------------------


def sub_multisets(hand: Sequence[Card]) -> Iterator[tuple[Card, ...]]:
    counts = Counter(hand)
    cards = sorted(counts, key=str)
    for picks in itertools.product(*(range(counts[card] + 1) for card in cards)):
        yield tuple(card for card, k in zip(cards, picks, strict=True) for _ in range(k))


def run_orders(cards: Sequence[Card], ruleset: Ruleset) -> Iterator[tuple[Card, ...]]:
    """Every way these cards could lie as a run low to high: naturals at their values, wild
    cards in the positions left (with the ace low or high)."""
    naturals = [card for card in cards if not ruleset.is_wild(card)]
    wilds = [card for card in cards if ruleset.is_wild(card)]
    length = len(cards)
    for ace in (1, 14):
        values = [ace if c.rank is Rank.ACE else int(c.rank or 0) for c in naturals]
        if len(set(values)) != len(values):
            continue
        for low in range(1, 15 - length + 1):
            if all(low <= v < low + length for v in values):
                slots: list[Card | None] = [None] * length
                for card, value in zip(naturals, values, strict=True):
                    slots[value - low] = card
                spare = iter(wilds)
                yield tuple(slot if slot is not None else next(spare) for slot in slots)


def meld_candidates(
    hand: Sequence[Card], ruleset: Ruleset
) -> list[tuple[MeldType, tuple[Card, ...]]]:
    found: list[tuple[MeldType, tuple[Card, ...]]] = []
    for cards in sub_multisets(hand):
        if len(cards) < min(ruleset.set_min, ruleset.run_min):
            continue
        if read_meld(cards, ruleset, "set").valid:
            found.append(("set", cards))
        for order in set(run_orders(cards, ruleset)):
            if read_meld(order, ruleset, "run").valid:
                found.append(("run", order))
    return found


def layings(
    ruleset: Ruleset,
    number: int,
    hand: Sequence[Card],
    players: int | None,
    relaxed: bool = False,
) -> Iterator[list[tuple[Card, ...]]]:
    """Every legal way to lay the contract from the hand, as the contract check judges it.

    ``relaxed``: the melds alone, as if nothing about going out mattered.
    """
    wanted = [spec.type for spec in ruleset.round(number).contract.melds]
    candidates = meld_candidates(hand, ruleset)
    by_type = {t: [c for c in candidates if c[0] == t] for t in ("set", "run")}
    held = Counter(hand)
    chosen: list[tuple[MeldType, tuple[Card, ...]]] = []

    def pick(i: int, start: int, used: Counter[Card]) -> Iterator[list[tuple[Card, ...]]]:
        if i == len(wanted):
            melds = [cards for _, cards in chosen]
            verdict = check_contract(
                ruleset,
                number,
                melds,
                hand=None if relaxed else hand,
                players=players,
                types=[t for t, _ in chosen],
            )
            if verdict.valid:
                yield melds
            return
        meld_type = wanted[i]
        first = start if i and wanted[i - 1] == meld_type else 0
        pool = by_type[meld_type]
        for k in range(first, len(pool)):
            more = used + Counter(pool[k][1])
            if any(more[card] > held[card] for card in pool[k][1]):
                continue
            chosen.append(pool[k])
            yield from pick(i + 1, k, more)
            chosen.pop()

    yield from pick(0, 0, Counter())


def brute_best(
    ruleset: Ruleset, number: int, hand: Sequence[Card], players: int | None
) -> tuple[int, int, int] | None:
    best = None
    for melds in layings(ruleset, number, hand, players):
        rest = list((Counter(hand) - Counter(c for m in melds for c in m)).elements())
        wilds = sum(1 for meld in melds for card in meld if ruleset.is_wild(card))
        found = (penalty(ruleset, rest).total, wilds, -sum(map(len, melds)))
        if best is None or found < best:
            best = found
    return best


def brute_can_lay(
    ruleset: Ruleset, number: int, hand: Sequence[Card], players: int | None, relaxed: bool = False
) -> bool:
    return next(layings(ruleset, number, hand, players, relaxed), None) is not None


def brute_needs(
    ruleset: Ruleset, number: int, hand: Sequence[Card], players: int | None
) -> tuple[str, ...]:
    table = ruleset.table(players)
    held = Counter(hand)
    found = []
    for card in (*rules.DECK, rules.JOKER):
        limit = table.jokers if card.is_joker else table.decks
        if held[card] < limit and brute_can_lay(ruleset, number, [*hand, card], players):
            found.append(str(card))
    return tuple(found)


# --- hands to test with ----------------------------------------------------------------------

HOUSE = {
    "liverpool, a wild card per 4": {"base": "liverpool", "options": {"run_wilds_per_cards": 4}},
    "liverpool, exact minimum": {"base": "liverpool", "options": {"exact_minimum": True}},
    "liverpool, runs apart": {
        "base": "liverpool",
        "options": {"runs_may_touch": False, "same_suit_run_gap": 1},
    },
    "progressive, wilds at most naturals": {
        "base": "progressive",
        "options": {"wilds_at_most_naturals": True, "go_out_by_melding": True},
    },
    "progressive, ace high only": {
        "base": "progressive",
        "options": {"ace_low": False, "set_min_naturals": 2, "wilds_outside_span": 2},
    },
    "contract rummy, free jokers and fives": {
        "base": "contract-rummy",
        "options": {"wilds_outside_span": 0, "points": {"JK": 0, "5": 0}},
    },
}
RULESETS = [
    *(find_ruleset(name) for name in ("liverpool", "contract-rummy", "progressive")),
    *(find_ruleset(name) for name in ("california", "shanghai", "liverpool-9", "may-i")),
    *(resolve_ruleset(spec) for spec in HOUSE.values()),
]
SUITS = list(Suit)
RANKS = list(Rank)


@st.composite
def contract_hands(
    draw: st.DrawFn,
    max_cards: int,
    max_wilds: int = 12,
    shapes: Sequence[str] = ("extra cards", "one card short", "melds only"),
) -> tuple[Ruleset, int, int | None, list[Card]]:
    """A hand built around the round's contract: its melds (some with wild cards, some a card
    longer), then a card or two beside them, or one of their cards taken away (and perhaps
    another card in its place)."""
    shape = draw(st.sampled_from(shapes))
    ruleset = draw(st.sampled_from(RULESETS))
    number = draw(st.integers(1, ruleset.round_count))
    spec = ruleset.round(number)
    assume(spec.contract.min_cards < max_cards)
    players = draw(st.sampled_from([None, ruleset.min_players, ruleset.max_players]))
    table = ruleset.table(players)
    wild_cards = [rules.JOKER] * table.jokers + [
        Card(rank, suit) for rank in ruleset.wild_ranks for suit in SUITS
    ]
    hand: list[Card] = []
    for meld in spec.contract.melds:
        size = meld.min + draw(st.integers(0, 1))
        if meld.type == "set":
            rank = draw(st.sampled_from([r for r in RANKS if r not in ruleset.wild_ranks]))
            suits = draw(st.permutations(SUITS))
            cards: list[Card] = [Card(rank, suits[i % 4]) for i in range(size)]
        else:
            suit = draw(st.sampled_from(SUITS))
            low = draw(st.integers(1, 15 - size))
            cards = [Card(Rank.ACE if v == 14 else Rank(v), suit) for v in range(low, low + size)]
        for i, card in enumerate(cards):
            # (Hypothesis starts from the smallest draws: 4 of 0-4 makes wild cards the rarer.)
            if wild_cards and (card.rank in ruleset.wild_ranks or draw(st.integers(0, 4)) == 4):
                cards[i] = draw(st.sampled_from(wild_cards))
        hand.extend(cards)
    if shape == "extra cards":
        for _ in range(draw(st.integers(1, 2))):
            hand.append(draw(st.sampled_from([*rules.DECK, *wild_cards[:1]])))
    elif shape == "one card short":
        hand.pop(draw(st.integers(0, len(hand) - 1)))
    elif shape == "one card short, one beside":
        # (Where the round ends with a discard, the card beside is the one to discard.)
        hand[draw(st.integers(0, len(hand) - 1))] = draw(st.sampled_from(rules.DECK))
    counts: Counter[Card] = Counter()
    kept = []
    for card in draw(st.permutations(hand)):
        if counts[card] < (table.jokers if card.is_joker else table.decks):
            counts[card] += 1
            kept.append(card)
    assume(len(kept) <= max_cards)
    # (The brute force drowns in hands of many wild cards: nearly every subset is a meld.)
    assume(sum(1 for card in kept if ruleset.is_wild(card)) <= max_wilds)
    return ruleset, number, players, kept


@st.composite
def dense_hands(
    draw: st.DrawFn, max_cards: int, max_wilds: int = 12
) -> tuple[Ruleset, int, int | None, list[Card]]:
    """A hand from a few neighbouring ranks of two or three suits: melds half made."""
    ruleset = draw(st.sampled_from(RULESETS))
    number = draw(st.integers(1, ruleset.round_count))
    players = draw(st.sampled_from([None, ruleset.min_players]))
    table = ruleset.table(players)
    low = draw(st.integers(1, 10))
    ranks = [Rank((low - 1 + i) % 13 + 1) for i in range(draw(st.integers(3, 5)))]
    suits = draw(st.lists(st.sampled_from(SUITS), min_size=1, max_size=3, unique=True))
    pool = [Card(r, s) for r in ranks for s in suits] + [rules.JOKER] * (table.jokers > 0)
    hand: list[Card] = []
    for card in draw(st.lists(st.sampled_from(pool), min_size=4, max_size=max_cards)):
        if hand.count(card) < (table.jokers if card.is_joker else table.decks):
            hand.append(card)
    assume(sum(1 for card in hand if ruleset.is_wild(card)) <= max_wilds)
    return ruleset, number, players, hand


# Derandomised: the tallies' shares swing widely from one random run to another (hands
# needing a card once came to 3% of 100 against a usual fifth), and a check that fails by
# luck teaches nothing. A fixed sequence of hands still fails when a strategy drifts.
SLOW = settings(
    max_examples=200,
    derandomize=True,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
FAST = settings(SLOW, max_examples=200)


# --- the search against the brute force ------------------------------------------------------


Case = tuple[Ruleset, int, int | None, list[Card]]


class Tally:
    """How often a property test met each kind of answer: each is reported through
    ``hypothesis.event``, and :meth:`require` fails the test when a kind worth checking came
    back too rarely (a strategy drifting to trivial hands would otherwise pass unseen)."""

    def __init__(self) -> None:
        self.seen: Counter[str] = Counter()

    def saw(self, kind: str) -> None:
        event(kind)
        self.seen[kind] += 1

    def require(self, kind: str, least: float) -> None:
        total = sum(self.seen.values())
        assert total, "the property never ran"
        share = self.seen[kind] / total
        assert share >= least, f"{kind!r} in {share:.0%} of {total} hands: {dict(self.seen)}"


def test_best_arrangement_matches_the_brute_force() -> None:
    tally = Tally()

    @SLOW
    @given(st.one_of(contract_hands(11, max_wilds=3), contract_hands(11, 3), dense_hands(9, 3)))
    def check(case: Case) -> None:
        ruleset, number, players, hand = case
        result = analyse_hand(ruleset, number, hand, players)
        best = brute_best(ruleset, number, hand, players)
        if best is None:
            tally.saw("cannot lay")
            assert not result.can_lay
            # The closest arrangement lacks nothing exactly when the melds alone could be
            # laid, going-out rules aside.
            melds_alone = brute_can_lay(ruleset, number, hand, players, relaxed=True)
            missing = result.closest.missing if result.closest else None
            assert (missing == 0) == melds_alone
        else:
            tally.saw("lays the contract")
            assert result.can_lay
            assert_round_trip(ruleset, number, hand, players, result)
            assert key(ruleset, result) == best

    check()
    # About a quarter lay, three quarters cannot: either below a tenth, the strategy drifted.
    tally.require("lays the contract", 0.1)
    tally.require("cannot lay", 0.1)


def test_needs_match_the_brute_force() -> None:
    tally = Tally()

    short = ("one card short", "one card short, one beside")

    @settings(SLOW, max_examples=100)
    @given(
        st.one_of(
            contract_hands(8, max_wilds=3, shapes=short),
            contract_hands(8, 3),
            dense_hands(7, 3),
        )
    )
    def check(case: Case) -> None:
        ruleset, number, players, hand = case
        result = analyse_hand(ruleset, number, hand, players)
        if result.can_lay:
            tally.saw("lays the contract")
            assert result.needs == ()
            return
        expected = brute_needs(ruleset, number, hand, players)
        tally.saw("needs some card" if expected else "needs no single card")
        assert set(result.needs) == set(expected)

    check()
    # About a fifth of these hands need some card: below a tenth, the strategy has drifted.
    tally.require("needs some card", 0.08)


# --- properties on bigger hands --------------------------------------------------------------


def completions(
    melds: Sequence[PartialMeld], ruleset: Ruleset, decks: int
) -> list[list[tuple[Card, ...]]]:
    """The closest arrangement's melds with their missing cards drawn: a run's as named, a
    set's in suits the table still has a copy of; for each meld, every order of its cards
    that reads as its type (a run's wild cards may stand at either end)."""
    copies = Counter(card for meld in melds for card in meld.cards)
    for meld in melds:
        if meld.type == "run":
            copies.update(Card.parse(name) for name in meld.missing)

    def spare_copy(rank: Rank) -> Card | None:
        """A card of ``rank`` the table still has a copy of, beyond those already used."""
        for suit in SUITS:
            if copies[Card(rank, suit)] < decks:
                copies[Card(rank, suit)] += 1
                return Card(rank, suit)
        return None

    found: list[list[tuple[Card, ...]]] = []
    for meld in melds:
        if meld.type == "set":
            drawn = [spare_copy(Rank.parse(rank)) for rank in meld.missing]
            cards = [card for card in drawn if card is not None]
            found.append([(*meld.cards, *cards)] if len(cards) == len(drawn) else [])
            continue
        cards = [*meld.cards, *(Card.parse(name) for name in meld.missing)]
        orders = set(run_orders(cards, ruleset))
        valid = [order for order in orders if read_meld(order, ruleset, "run").valid]
        found.append(sorted(valid, key=names))
    return found


def test_every_answer_round_trips() -> None:
    tally = Tally()

    @FAST
    @given(st.one_of(contract_hands(max_cards=16), dense_hands(max_cards=14)))
    def check(case: Case) -> None:
        ruleset, number, players, hand = case
        result = analyse_hand(ruleset, number, hand, players)
        if result.can_lay:
            tally.saw("lays the contract")
            assert_round_trip(ruleset, number, hand, players, result)
            assert result.needs == () and result.closest is None
            return
        assert result.melds == () and result.remaining == tuple(hand)
        tally.saw("needs some card" if result.needs else "needs no single card")
        # Every card named would make the contract layable (a few of them: that is enough).
        for name in result.needs[:5]:
            assert analyse_hand(ruleset, number, [*hand, Card.parse(name)], players).can_lay
        closest = result.closest
        if closest is None:
            return
        # The closest arrangement is the round's contract, from the hand's own cards ...
        wanted = sorted(spec.type for spec in ruleset.round(number).contract.melds)
        assert sorted(meld.type for meld in closest.melds) == wanted
        used = Counter(card for meld in closest.melds for card in meld.cards)
        assert used + Counter(closest.remaining) == Counter(hand)
        # ... and with the cards it names as missing drawn, a contract the check accepts,
        # going-out rules aside.
        types = [meld.type for meld in closest.melds]
        choices = completions(closest.melds, ruleset, ruleset.table(players).decks)
        assert any(
            check_contract(ruleset, number, melds, players=players, types=types).valid
            for melds in itertools.islice(itertools.product(*choices), 500)
        ), closest
        # One card can complete an arrangement missing only one.
        if closest.missing > 1:
            assert result.needs == ()

    check()
    # About half lay and one in seven needs some card: far below, the strategy drifted.
    tally.require("lays the contract", 0.2)
    tally.require("needs some card", 0.05)


def test_the_examples_in_the_docstrings_hold() -> None:
    for module in (rules.analysis, rules.analysis.bitmasks):
        failed, attempted = doctest.testmod(module)
        assert attempted and not failed, module.__name__
