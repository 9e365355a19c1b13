"""Hand analysis: can this hand lay the round's contract, and if not, what is it waiting for?

:func:`analyse_hand` answers from the hand alone. When the contract can be laid it gives the
best arrangement — the one that leaves the lowest penalty in hand, then uses the fewest wild
cards, then lays the most cards — as card lists in table order that
:func:`~rules.checks.check_contract` accepts as they are (and is checked against before it is
returned). When it cannot, it gives every single card that would make it layable (``needs``)
and the nearest partial arrangement (``closest``).

The search is exact, and over shapes rather than card subsets: a set is one rank (suits do not
matter to it), a run one suit over a window of values.

1. Windows for the runs: (suit, low, high), each with the hand's naturals wherever it holds
   them and a wild card (or, for ``closest`` and ``needs``, a card not held) in every gap.
2. Who gets a card that two windows both cover but the hand holds too few copies of.
3. The ranks of the sets, and which run naturals of those ranks go to a set instead (the run
   then takes a wild card there).
4. The sets, in closed form: they take every natural of their rank (an exact-minimum set, up
   to its size); only counts matter.
5. Spare wild cards: added to sets, or swapped into a meld for a cheaper natural that goes back
   to the hand (per-meld tables combined by a small knapsack); and, where a card must be kept
   to discard, the cheapest way to keep one.

Why nothing is missed: in any legal arrangement, a wild card standing where the hand still
holds that natural can be swapped for it without breaking any rule; the swap back is step 5.
Steps 1-4 enumerate every arrangement without such wild cards.

What keeps it fast: optimistic bounds at each step (gaps against wild cards, cards not held,
the least penalty that could be left) prune what cannot beat the best arrangement found;
windows holding the most are tried first; the search stops at once on an arrangement
nothing could beat; and a hand's windows are worked out once, each made into a run of the
search only at the first budget that could use it. Two dominance rules hold where a set
takes any number of wild cards: a wild card at the end of a run longer than its minimum
might as well lie in that set (so such windows are never searched), and every sharing of
contested copies lays the same cards (so the first that works settles it).

The three questions are three searches over the same steps: laying (the best arrangement,
going-out rules included); ``closest`` (deepening on the number of cards not held, going-out
rules left aside); ``needs`` (every arrangement short of exactly one card, going-out rules
included, collecting the cards that would fill the gap — stopping when nothing new can turn
up).

>>> from rules import find_ruleset, parse_cards
>>> hand = parse_cards("7H 7S 7D KC KD JK 2C 9H 4S 5D 6D".split())
>>> result = analyse_hand(find_ruleset("liverpool"), 1, hand)
>>> result.can_lay, [[str(c) for c in meld] for meld in result.melds]
(True, [['7S', '7H', '7D'], ['KD', 'KC', 'JK']])
>>> [str(c) for c in result.remaining], result.penalty, result.goes_out
(['2C', '9H', '4S', '5D', '6D'], 25, False)
"""

from __future__ import annotations

import bisect
import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rules.cards import DECK, JOKER, Card, Rank, Suit
from rules.checks import check_contract, count_cards, penalty, require_possible_hand
from rules.melds import HIGH_ACE, Meld, plausible_types, rank_of, read_meld
from rules.ruleset import MeldType, RoundSpec, Ruleset

__all__ = ["Analysis", "Closest", "PartialMeld", "analyse_hand"]


# --- results ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PartialMeld:
    """One contract meld of the closest arrangement: the cards held for it and what is missing.

    ``missing`` says what each absent card stands for, as a wild card's ``stands_for`` does:
    a card in a run (``"8H"``), a rank in a set (``"7"``).
    """

    type: MeldType
    #: The held cards, in table order (runs low to high; wild cards where they stand).
    cards: tuple[Card, ...]
    missing: tuple[str, ...]

    @property
    def complete(self) -> bool:
        return not self.missing


@dataclass(frozen=True, slots=True)
class Closest:
    """The nearest the hand comes to the contract.

    Defined as the arrangement of the round's contract melds, filled from the hand plus cards
    not held, that needs the fewest cards not held; among those, the one completing the most
    melds; then, as for a laid contract, the lowest penalty left in hand, the fewest wild cards,
    the most cards from hand. It looks at the melds only: whether a card would be left to
    discard, or a whole-hand round would use every card, is what ``needs`` answers.

    Two conventions keep it simple: a held natural goes wherever it fits (it is never kept back
    for a wild card to take its place), and a run holding no card from hand at all is counted
    at its shortest. Neither changes the number of cards missing.
    """

    melds: tuple[PartialMeld, ...]
    #: Cards not held that the melds need (the sum of the melds' ``missing``).
    missing: int
    #: Melds with nothing missing.
    complete: int
    remaining: tuple[Card, ...]
    penalty: int


@dataclass(frozen=True, slots=True)
class Analysis:
    """What a hand can do with the round's contract (see :func:`analyse_hand`)."""

    round: RoundSpec
    can_lay: bool
    #: The best arrangement, in table order, as :func:`check_contract` reads it; empty when the
    #: contract cannot be laid.
    melds: tuple[tuple[Card, ...], ...]
    #: The contract check's reading of ``melds`` (type, suit, what each wild card stands for).
    readings: tuple[Meld, ...]
    #: The hand minus the melds, in the hand's order (the whole hand when nothing is laid).
    remaining: tuple[Card, ...]
    #: What ``remaining`` costs.
    penalty: int
    #: Whether laying ``melds`` lets the player end the round on this turn (as the contract
    #: check's ``goes_out``).
    goes_out: bool
    #: When the contract cannot be laid: every card (canonical, in deck order, ``"JK"`` last)
    #: that, added to the hand, would make it layable — going-out rules included, and only
    #: cards the table still has a copy of.
    needs: tuple[str, ...]
    #: When the contract cannot be laid: the nearest partial arrangement.
    closest: Closest | None


# --- cards as numbers ------------------------------------------------------------------------

_SUITS = tuple(Suit)
#: Natural card by index ``suit * 13 + rank - 1``.
_CARDS = tuple(Card(Rank(i % 13 + 1), _SUITS[i // 13]) for i in range(52))
_INDEX = {card: i for i, card in enumerate(_CARDS)}


def _index(suit: int, value: int) -> int:
    """The card at run value ``value`` (1-14, both aces are the ace) of suit ``suit``."""
    return suit * 13 + (0 if value == HIGH_ACE else value - 1)


def _option_number(run: _Run) -> int:
    return run.option


#: A run window in one suit: suit, low, high, length, cards, positions only a wild card can
#: fill, and the positions a natural can.
_Shape = tuple[int, int, int, int, tuple[int, ...], int, int]
#: A window of a hand: its number among the spec's shapes, suit, low, high, length, cards,
#: held positions, forced ones.
_Window = tuple[int, int, int, int, int, tuple[int, ...], int, int]


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# --- the rules of one round, as the search needs them ----------------------------------------


class _Rules:
    """Everything about a ruleset's round that the search asks, worked out once."""

    def __init__(self, ruleset: Ruleset, number: int) -> None:
        spec = ruleset.round(number)
        self.ruleset = ruleset
        self.spec = spec
        self.exact = spec.exact_minimum
        self.whole = spec.whole_hand
        # RULES §4: a round that ends with a discard needs a card left to discard.
        self.keep_one = (
            not spec.whole_hand and spec.discard_to_go_out and not ruleset.go_out_by_melding
        )
        self.set_nat = ruleset.set_min_naturals
        self.run_nat = ruleset.run_min_naturals
        self.at_most = ruleset.wilds_at_most_naturals
        self.outside = ruleset.wilds_outside_span
        self.per = ruleset.run_wilds_per_cards
        self.may_touch = ruleset.runs_may_touch
        self.gap = ruleset.same_suit_run_gap
        self.natural_ranks = tuple(r for r in range(1, 14) if Rank(r) not in ruleset.wild_ranks)
        self.rank_points = tuple(
            ruleset.points(Card(Rank(r), Suit.SPADES)) if r else 0 for r in range(14)
        )
        self.points = tuple(ruleset.points(card) for card in _CARDS)

        # Sets: the size each contract set is laid at (at least), None if it cannot be laid.
        self.set_sizes: tuple[int, ...] = tuple(
            sorted(
                (
                    m.min if spec.exact_minimum else max(m.min, ruleset.set_min)
                    for m in spec.contract.melds
                    if m.type == "set"
                ),
                reverse=True,
            )
        )
        self.sets_possible = not spec.exact_minimum or all(
            size >= ruleset.set_min for size in self.set_sizes
        )
        # A set that takes any number of extra wild cards soaks up every spare one.
        self.absorbing = bool(self.set_sizes) and not self.exact and not self.at_most

        # Runs: every window (low, high) of values each contract run may span.
        lowest = 1 if ruleset.ace_low else 2
        highest = HIGH_ACE if ruleset.ace_high else 13
        wild_value = [False] * 15
        dead = [False] * 15
        for value in range(1, 15):
            if rank_of(value) in ruleset.wild_ranks:
                # California's queens stand in a run as wild cards for the queen; May I's twos
                # are no rank at all, and no run passes through them.
                wild_value[value] = ruleset.wild_rank_in_melds
                dead[value] = not ruleset.wild_rank_in_melds
        self.wild_value = tuple(wild_value)
        run_mins = sorted((m.min for m in spec.contract.melds if m.type == "run"), reverse=True)
        self.run_mins = tuple(run_mins)
        self.run_min_eff = tuple(max(m, ruleset.run_min) for m in run_mins)
        # Where a set takes any number of wild cards, a wild card at the end of a run longer
        # than it need be could as well lie in that set (and nothing about spacing between
        # runs can hang on it): such ends are never searched.
        self.trim = self.absorbing and self.may_touch and not self.gap
        windows: list[tuple[tuple[int, int], ...]] = []
        for minimum in run_mins:
            if spec.exact_minimum:
                lengths = [minimum] if minimum >= ruleset.run_min else []
            else:
                lengths = list(range(max(minimum, ruleset.run_min), 14))
            found = []
            for low in range(lowest, highest + 1):
                for length in lengths:
                    high = low + length - 1
                    if high > highest:
                        break
                    if any(dead[v] for v in range(low, high + 1)):
                        break
                    found.append((low, high))
            windows.append(tuple(found))
        self.windows = tuple(windows)
        self.shapes = self._shapes()
        #: The length of each run spec's shortest window (0: none).
        self.shortest = tuple(min((h - lo + 1 for lo, h in w), default=0) for w in windows)
        self.count_cap: dict[int, int] = {}
        for length in range(1, 15):
            cap = length - self.run_nat
            if self.at_most:
                cap = min(cap, length // 2)
            if self.per is not None:
                cap = min(cap, length // self.per)
            self.count_cap[length] = cap
        # Filled as searches go. Each value depends on its key alone, so two threads at worst
        # work one out twice.
        self._w_cap: dict[tuple[int, int, int], int] = {}
        self._subs: dict[tuple[int, int, int], list[int | None]] = {}

    def _shapes(self) -> tuple[tuple[_Shape, ...], ...]:
        """Each run spec's windows in every suit, with their cards: the same for every hand.

        Specs of one minimum share one tuple, so that a hand reads their windows once.
        """
        by_windows: dict[tuple[tuple[int, int], ...], tuple[_Shape, ...]] = {}
        shapes = []
        for windows in self.windows:
            found = by_windows.get(windows)
            if found is None:
                found = tuple(
                    self._shape(suit, low, high) for suit in range(4) for low, high in windows
                )
                by_windows[windows] = found
            shapes.append(found)
        return tuple(shapes)

    def _shape(self, suit: int, low: int, high: int) -> _Shape:
        length = high - low + 1
        idxs = tuple(_index(suit, v) for v in range(low, high + 1))
        forced = sum(1 << p for p in range(length) if self.wild_value[low + p])
        return (suit, low, high, length, idxs, forced, ((1 << length) - 1) & ~forced)

    # -- runs --

    def run_ok(self, length: int, nat: int) -> bool:
        """Whether a run of ``length`` with naturals at the positions of ``nat`` is legal."""
        if not nat:
            return False
        wilds = length - nat.bit_count()
        if wilds > self.count_cap[length]:
            return False
        if self.outside is not None:
            first = (nat & -nat).bit_length() - 1
            last = nat.bit_length() - 1
            if first + length - 1 - last > self.outside:
                return False
        return True

    def w_cap(self, length: int, held: int, forced: int) -> int:
        """Most positions of a run that may be wild when the others are natural (-1: none).

        ``held`` positions are natural; ``forced`` ones can only be wild; the rest may be
        either (a card not held counts as natural).
        """
        key = (length, held, forced)
        cached = self._w_cap.get(key)
        if cached is not None:
            return cached
        full = (1 << length) - 1
        free = full & ~held & ~forced
        can_nat = held | free
        need_nat = length - self.count_cap[length]
        if held:
            first_held = (held & -held).bit_length() - 1
            last_held = held.bit_length() - 1
        else:
            first_held, last_held = length - 1, 0
        best = -1
        for a in _bits(can_nat & ((1 << (first_held + 1)) - 1)):
            for b in _bits(can_nat & ~((1 << max(a, last_held)) - 1)):
                if self.outside is not None and a + length - 1 - b > self.outside:
                    continue
                span = ((1 << (b + 1)) - 1) & ~((1 << a) - 1)
                most = (can_nat & span).bit_count()
                least = held.bit_count() + ((free >> a) & 1) + (((free >> b) & 1) if b != a else 0)
                natural = max(least, need_nat)
                if natural <= most:
                    best = max(best, length - natural)
        self._w_cap[key] = best
        return best

    def trimmed(self, spec_i: int, length: int, nat: int) -> int:
        """End positions of a run that may not take a wild card (see ``trim``): its gaps there."""
        if not self.trim or length <= self.run_min_eff[spec_i]:
            return 0
        return (1 | (1 << (length - 1))) & ~nat

    def gap_cap(self, spec_i: int, length: int, nat: int, forced: int) -> int:
        """Most real wild cards a run's gaps take, the trimmed ends staying missing (-1: none)."""
        must = self.trimmed(spec_i, length, nat)
        cap = self.w_cap(length, nat | (must & ~forced), forced)
        if cap < 0:
            return -1
        return cap - (must & forced).bit_count()

    def w_witness(self, spec_i: int, length: int, held: int, forced: int, wilds: int) -> int:
        """Positions for ``wilds`` wild cards (forced ones first) keeping the run legal.

        The trimmed ends stay missing: natural ones count as natural, forced ones as wild.
        """
        must = self.trimmed(spec_i, length, held)
        full = (1 << length) - 1
        held |= must & ~forced
        free = full & ~held & ~forced
        open_forced = forced & ~must
        extra = wilds - open_forced.bit_count()
        if extra <= 0:
            # Fewer wild cards than forced positions: the rest of those stay missing.
            return _lowest_bits(open_forced, wilds)
        for subset in itertools.combinations(list(_bits(free)), extra):
            mask = sum(1 << p for p in subset)
            if self.run_ok(length, full & ~forced & ~mask):
                return open_forced | mask
        raise AssertionError("no legal placement of wild cards")  # pragma: no cover

    def substitutions(self, low: int, high: int, nat: int) -> list[int | None]:
        """Fewest points of naturals a run can give back for ``t`` wild cards, by ``t``.

        Entry ``t`` is None when no ``t`` of the run's naturals can be replaced by wild cards
        with the run still legal.
        """
        key = (low, high, nat)
        cached = self._subs.get(key)
        if cached is not None:
            return cached
        length = high - low + 1
        positions = list(_bits(nat))
        points = [self.rank_points[rank_of(low + p)] for p in positions]
        best: list[int | None] = [None] * (len(positions) + 1)
        for i in range(len(positions)):
            for j in range(i, len(positions)):
                outside = points[:i] + points[j + 1 :]
                base_t = len(outside)
                base_r = sum(outside)
                inner = sorted(
                    range(i + 1, j), key=lambda k: (points[k], k)
                )  # cheapest naturals first
                mask = nat
                for k in range(i):
                    mask &= ~(1 << positions[k])
                for k in range(j + 1, len(positions)):
                    mask &= ~(1 << positions[k])
                released = base_r
                for extra in range(len(inner) + 1):
                    if extra:
                        k = inner[extra - 1]
                        mask &= ~(1 << positions[k])
                        released += points[k]
                    t = base_t + extra
                    if self.run_ok(length, mask):
                        old = best[t]
                        if old is None or released < old:
                            best[t] = released
        self._subs[key] = best
        return best

    def spacing_ok(self, a: tuple[int, int], b: tuple[int, int]) -> bool:
        """Two runs of one suit in one contract, as the contract check sees them."""
        if self.may_touch and not self.gap:
            return True
        lower, upper = sorted((a, b))
        gap = upper[0] - lower[1] - 1
        if gap == 0 and not self.may_touch:
            return False
        return not (self.gap and gap < self.gap)

    # -- sets --

    def set_wild_cap(self, naturals: int, gap: int) -> int:
        """Most of a set's ``gap`` missing cards wild cards may fill, beside ``naturals``."""
        cap = min(gap, naturals + gap - self.set_nat)
        if self.at_most:
            cap = min(cap, (naturals + gap) // 2)
        return max(cap, 0)

    def set_naturals(self, group: _Group, available: int) -> int:
        """The naturals the sets of ``group`` take: every one of the rank (an exact-minimum
        set, up to its size)."""
        return min(available, group.total) if self.exact else available

    def set_floor(self, size: int) -> int:
        """Fewest naturals a set of ``size`` needs (more wilds than naturals where forbidden)."""
        floor = self.set_nat
        if self.at_most:
            floor = max(floor, (size + 1) // 2)
        return floor


def _lowest_bits(mask: int, count: int) -> int:
    out = 0
    for position in _bits(mask):
        if count <= 0:
            break
        out |= 1 << position
        count -= 1
    return out


@lru_cache(maxsize=64)
def _rules(ruleset: Ruleset, number: int) -> _Rules:
    return _Rules(ruleset, number)


# --- the search ------------------------------------------------------------------------------


@dataclass(slots=True)
class _Run:
    """A run window of the search: suit, values, and which positions hold what."""

    #: Where the search tries it among the spec's windows (increasing; see ``_Search._run``).
    option: int
    suit: int
    low: int
    high: int
    length: int
    idxs: tuple[int, ...]
    #: Positions whose card the hand holds (and that are not wild-only positions).
    held: int
    #: Positions only a wild card can fill (California's queens).
    forced: int
    #: Positions not held: each takes a wild card or a card not held.
    fill: int = 0
    #: Cards not held it needs however many wild cards there are.
    short: int = 0
    #: Which contract run it is for.
    spec: int = 0
    #: The cards at the held positions.
    held_idxs: tuple[int, ...] = ()
    #: What the cards at the held positions cost.
    points: int = 0
    #: Closest and needs: cards not held it lacks with every wild card of the hand (needs:
    #: and one more) in its gaps; no search of a smaller budget can use it.
    need: int = 0


@dataclass(slots=True)
class _Candidates:
    """Closest and needs: the runs made so far of a hand's windows (see ``_candidates``)."""

    #: Each run spec's, by option number.
    runs: list[list[_Run]]
    #: Windows with up to this many gaps are made.
    fill: int = -1


@dataclass(slots=True)
class _Group:
    """The contract sets laid on one rank, handled together: only counts matter to them."""

    rank: int
    sizes: tuple[int, ...]
    total: int
    floor: int
    points: int


@dataclass(slots=True)
class _ClosestDetail:
    """What the closest arrangement is made of, to spell out as cards at the end."""

    #: Each run window, its natural positions, and the positions its wild cards take.
    runs: list[tuple[_Run, int, int]]
    #: Each set group, its naturals shared among its sets, and spare wild cards added.
    sets: list[tuple[_Group, tuple[int, ...], int]]
    #: Wild cards filling each set's gap to its size, in order.
    set_wilds: list[int]
    #: Wild cards laid in all.
    wilds: int


@dataclass(slots=True)
class _Best:
    key: tuple[int, ...]
    runs: list[tuple[_Run, int]]  # window and its final natural positions
    groups: list[tuple[_Group, int, int]]  # group, naturals, wild cards
    wilds: int


_OPT, _CLOSEST, _NEEDS = "opt", "closest", "needs"


class _Search:
    """One hand against one round: the three questions share the hand's precomputations."""

    def __init__(self, rules: _Rules, hand: Sequence[Card], decks: int, jokers: int) -> None:
        self.rules = rules
        self.hand = tuple(hand)
        counts = [0] * 52
        wild_cards: list[Card] = []
        for card in hand:
            if rules.ruleset.is_wild(card):
                wild_cards.append(card)
            else:
                counts[_INDEX[card]] += 1
        self.counts = counts
        ruleset = rules.ruleset
        # The most expensive wild cards are laid first: wild cards are interchangeable in a
        # meld, and what stays in hand should cost least.
        wild_cards.sort(key=lambda c: (-ruleset.points(c), str(c)))
        self.wild_cards = wild_cards
        self.wilds = len(wild_cards)
        prefix = [0]
        for card in wild_cards:
            prefix.append(prefix[-1] + ruleset.points(card))
        self.wild_prefix = prefix
        self.positive_wilds = sum(1 for card in wild_cards if ruleset.points(card) > 0)
        self.naturals = sum(counts)
        self.size = len(self.hand)
        natural_points = sum(rules.points[i] * c for i, c in enumerate(counts))
        self.total_points = natural_points + prefix[-1]
        self.decks = decks
        self.floor_key = self._floor_key(rules, hand)
        held_jokers = sum(1 for card in hand if card.is_joker)
        self.joker_spare = held_jokers < jokers
        self.spare_wild = self.joker_spare or any(
            counts_rank < decks * 4 for counts_rank in self._wild_rank_counts(hand)
        )
        self.rank_counts = [0] * 14
        for i, c in enumerate(counts):
            self.rank_counts[i % 13 + 1] += c
        self._windows_cache: list[list[list[_Window]]] | None = None
        self._candidates_cache: dict[str, _Candidates] = {}

    def whole_hand_possible(self) -> bool:
        """Whole-hand rounds: could every natural find a meld at all? (Adding cards never helps.)

        Some ranks go to the sets (at most one a set); of the rest, each suit needs at least as
        many runs as it holds copies of one card.
        """
        rules = self.rules
        present = [r for r in rules.natural_ranks if self.rank_counts[r]]
        runs = len(rules.run_mins)
        for size in range(min(len(rules.set_sizes), len(present)) + 1):
            for ranks in itertools.combinations(present, size):
                needed = 0
                for suit in range(4):
                    needed += max(
                        (
                            self.counts[suit * 13 + r - 1]
                            for r in rules.natural_ranks
                            if r not in ranks
                        ),
                        default=0,
                    )
                if needed <= runs:
                    return True
        return False

    def _floor_key(self, rules: _Rules, hand: Sequence[Card]) -> tuple[int, ...] | None:
        """The best key any arrangement could have: nothing left, or the cheapest card.

        Only where every card costs something (a free card changes what "best" leaves).
        """
        ruleset = rules.ruleset
        if not hand or any(ruleset.points(card) == 0 for card in hand):
            return None
        if rules.whole or not rules.keep_one:
            return (0, self.wilds, -len(hand))
        cheapest = min(ruleset.points(card) for card in hand)
        wild = any(ruleset.points(c) == cheapest for c in hand if ruleset.is_wild(c))
        return (cheapest, self.wilds - wild, -(len(hand) - 1))

    def _wild_rank_counts(self, hand: Sequence[Card]) -> list[int]:
        wild_ranks = self.rules.ruleset.wild_ranks
        return [sum(1 for c in hand if c.rank is rank) for rank in wild_ranks]

    # -- phase 1: run windows --

    def _window_data(self) -> list[list[list[_Window]]]:
        """Each run spec's windows in every suit, by their number of gaps: worked out once.

        Those holding a natural, and, for closest and needs, runs of cards not held at all.
        Those only at their shortest: such a run only grows by cards not held or by wild
        cards, so its shortest length lacks the fewest. Every card of it can still be drawn
        (the hand holds none of them).
        """
        if self._windows_cache is not None:
            return self._windows_cache
        rules = self.rules
        counts = self.counts
        # Run values the hand holds, a bit each, by suit (the ace at both ends).
        values = [0] * 4
        for idx in range(52):
            if counts[idx]:
                suit, rank = divmod(idx, 13)
                values[suit] |= (1 << (rank + 1)) | ((1 << HIGH_ACE) if rank == 0 else 0)
        # Specs of one minimum share their shapes, and so their windows.
        by_shapes: dict[int, list[list[_Window]]] = {}
        data = []
        for shapes, shortest in zip(rules.shapes, rules.shortest, strict=True):
            by_fill = by_shapes.get(id(shapes))
            if by_fill is None:
                by_fill = [[] for _ in range(HIGH_ACE + 1)]
                for number, (suit, low, high, length, idxs, forced, open_) in enumerate(shapes):
                    held = (values[suit] >> low) & open_
                    if held or length == shortest:
                        by_fill[length - held.bit_count()].append(
                            (number, suit, low, high, length, idxs, held, forced)
                        )
                by_shapes[id(shapes)] = by_fill
            data.append(by_fill)
        self._windows_cache = data
        return data

    def run_options(self, mode: str, budget: int) -> list[list[_Run]]:
        """Each run spec's windows a search may use, in the order it tries them."""
        if mode == _OPT:
            return self._laying_options()
        # Closest and needs: a window needing more cards not held than the budget, even with
        # every wild card of the hand in its gaps, fits no arrangement within it.
        return [
            [run for run in runs if run.need <= budget] for runs in self._candidates(mode, budget)
        ]

    def _laying_options(self) -> list[list[_Run]]:
        rules = self.rules
        options: list[list[_Run]] = []
        for spec_i, by_fill in enumerate(self._window_data()):
            found: list[_Run] = []
            # More gaps than wild cards: never laid.
            for windows in by_fill[: self.wilds + 1]:
                for window in windows:
                    _, _, _, _, length, _, held, _ = window
                    # (A window holding nothing is never legal.)
                    if not rules.run_ok(length, held):
                        continue
                    # A wild card at an end the search trims could as well lie in a set.
                    if rules.trimmed(spec_i, length, held):
                        continue
                    found.append(self._run(_OPT, spec_i, window))
            found.sort(key=_option_number)
            options.append(found)
        return options

    def _candidates(self, mode: str, budget: int) -> list[list[_Run]]:
        """Closest and needs: every window a search within ``budget`` could use, as runs.

        Made once, and only as the deepening reaches them: a window with ``fill`` gaps lacks
        at least ``fill`` less the hand's wild cards (needs: and one more) cards not held,
        and so ``need`` is at least that; windows with more gaps than ``budget`` and those
        wild cards are left for a larger budget, when none of them could be used yet.
        """
        made = self._candidates_cache.get(mode)
        if made is None:
            made = _Candidates([[] for _ in self.rules.windows])
            self._candidates_cache[mode] = made
        extra = self.wilds + (mode == _NEEDS)
        most = budget + extra
        if most <= made.fill:
            return made.runs
        for spec_i, by_fill in enumerate(self._window_data()):
            runs = made.runs[spec_i]
            for windows in by_fill[made.fill + 1 : most + 1]:
                for window in windows:
                    cap = self._gap_cap(spec_i, window)
                    if cap < 0:
                        continue
                    run = self._run(mode, spec_i, window)
                    run.short = run.fill - cap
                    run.need = run.fill - min(extra, cap)
                    runs.append(run)
            runs.sort(key=_option_number)
        made.fill = most
        return made.runs

    def _gap_cap(self, spec_i: int, window: _Window) -> int:
        """Closest and needs: most gaps of a window wild cards may fill (-1: not a run)."""
        _, _, _, _, length, _, held, forced = window
        rules = self.rules
        return rules.gap_cap(spec_i, length, held, forced)

    def least_lacking(self) -> list[tuple[int, int]]:
        """Closest, whatever the budget: each run spec's fewest gaps and cards not held.

        The fewest over every window the largest budget would search, without making them
        into runs: the first bucket with a window that can be a run has the fewest gaps, and
        once a window lacks none, no other can lack fewer.
        """
        least = []
        for spec_i, by_fill in enumerate(self._window_data()):
            fill: int | None = None
            short: int | None = None
            for gaps, windows in enumerate(by_fill):
                for window in windows:
                    cap = self._gap_cap(spec_i, window)
                    if cap < 0:
                        continue
                    if fill is None:
                        fill = gaps
                    # Never below none: wild cards may fill no more gaps than there are.
                    short = gaps - cap if short is None else min(short, gaps - cap)
                if short == 0:
                    break
            least.append((fill or 0, short or 0))
        return least

    def _run(self, mode: str, spec_i: int, window: _Window) -> _Run:
        """A window as a run of the search, numbered in the order the search tries them.

        Laying and closest try windows holding the most first, then those with fewest gaps
        (good arrangements early make bounds bite); needs the fewest gaps first (the cards
        needed turn up early, and then the checks for anything new to find cut the rest).
        Runs holding nothing come last; ties go by the window's place among the shapes.

        The number depends on the window alone, not on which others a budget keeps: every
        budget's list of a spec keeps one order, and specs of one minimum number their common
        windows alike (see ``_windows``).
        """
        number, suit, low, high, length, idxs, held, forced = window
        count = held.bit_count()
        fill = length - count
        # Held cards and gaps are at most 14 each: one digit of 16 each.
        if mode == _NEEDS:
            order = (not held) * 16 + fill
        else:
            order = (15 - count) * 16 + fill
        shapes = len(self.rules.shapes[spec_i])
        run = _Run(order * shapes + number, suit, low, high, length, idxs, held, forced, fill)
        run.spec = spec_i
        run.held_idxs = tuple(idxs[p] for p in _bits(held))
        run.points = sum(self.rules.points[idx] for idx in run.held_idxs)
        return run

    # -- the search proper --

    def search(self, mode: str, budget: int = 0) -> _SearchState:
        state = _SearchState(self, mode, budget)
        state.run()
        return state


def _rest_bounds(s: _Search, mode: str, least: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """For each run spec, the fewest gaps (and cards not held) of it and all after it.

    ``least`` is each spec's own fewest of each. The sets count too, each at its best rank as
    if the runs took nothing.
    """
    rules = s.rules
    best_rank = max((s.rank_counts[r] for r in rules.natural_ranks), default=0)
    set_fill = set_short = 0
    for size in rules.set_sizes:
        n = min(best_rank, size)
        gap = size - n
        if mode == _OPT:
            gap = size - n if n >= rules.set_floor(size) else size
            set_fill += gap
            continue
        set_fill += gap
        set_short += gap - rules.set_wild_cap(n, gap)
    rest = [(set_fill, set_short)]
    for fill, short in reversed(least):
        rest.append((rest[-1][0] + fill, rest[-1][1] + short))
    rest.reverse()
    return rest


class _SearchState:
    """One depth-first search over windows, allocations, set ranks and fills."""

    def __init__(self, search: _Search, mode: str, budget: int) -> None:
        rules = search.rules
        self.s = search
        self.rules = rules
        self.mode = mode
        #: Cards not held the arrangements may lack (0 when laying).
        self.budget = budget
        self.best: _Best | None = None
        self.closest_detail: _ClosestDetail | None = None
        #: Needs: cards found (natural indexes; -1 for "a wild card").
        self.identities: set[int] = set()
        self.stop = False
        self.options = search.run_options(mode, budget)
        least = [
            (
                min((run.fill for run in opts), default=0),
                min((run.short for run in opts), default=0),
            )
            for opts in self.options
        ]
        self.rest = _rest_bounds(search, mode, least)
        self.sound = [[run for run in opts if not run.short] for opts in self.options]
        self.melds = len(rules.run_mins) + len(rules.set_sizes)
        #: Copies of each card the chosen windows ask for.
        self.demand = [0] * 52
        #: Set ranks settled for the current windows (see ``settled``).
        self.done: set[tuple[int, ...]] = set()
        self.settled = False
        #: Copies of each rank the current windows lay.
        self.in_runs = [0] * 14
        self.rest_points = self._rest_points()
        self.universe = self._universe() if mode == _NEEDS else None
        # Sets that no rank of the hand has naturals enough for: never complete.
        most = max((search.rank_counts[r] for r in rules.natural_ranks), default=0)
        self.sets_broken = sum(1 for size in rules.set_sizes if most < rules.set_floor(size))
        # The best key this search could find: the deepening has ruled out fewer cards not
        # held; with some missing, one meld at least is incomplete, and only melds the hand
        # (and its wild cards) can fill alone can be complete; nothing left in hand.
        self.floor: tuple[int, ...] | None = None
        if search.floor_key is not None:
            if mode == _OPT:
                self.floor = search.floor_key
            elif mode == _CLOSEST:
                fillable = (
                    len(rules.set_sizes)
                    - self.sets_broken
                    + sum(
                        1
                        for opts in self.options
                        if any(not run.short and run.fill <= search.wilds for run in opts)
                    )
                )
                complete = min(self.melds - (budget > 0), fillable)
                self.floor = (budget, -complete, 0, search.wilds, -search.size)

    def run(self) -> None:
        if not self.rules.sets_possible:
            return
        if self.mode == _OPT and any(not opts for opts in self.options):
            return
        self._windows(0, [], 0, 0, 0, 0)

    def _universe(self) -> set[int] | None:
        """Needs: every card that could be needed at all, when that is few enough to check.

        Where no rank of the hand has naturals enough for a set, every set is short of one
        whatever its rank, so the missing card is in the set: a card of a rank the hand holds
        (or any rank, where one natural makes a set).
        """
        rules = self.rules
        s = self.s
        if not rules.set_sizes:
            return None
        floor = min(rules.set_floor(size) for size in rules.set_sizes)
        if any(s.rank_counts[r] >= floor for r in rules.natural_ranks):
            return None
        return {
            suit * 13 + rank - 1
            for rank in rules.natural_ranks
            if s.rank_counts[rank] + 1 >= rules.set_nat
            for suit in range(4)
            if s.counts[suit * 13 + rank - 1] < s.decks
        }

    def _rest_points(self) -> list[int]:
        """For each run spec, the most points it and the melds after it could lay, wilds too."""
        s = self.s
        rules = self.rules
        by_rank = sorted(
            (rules.rank_points[r] * s.rank_counts[r] for r in rules.natural_ranks), reverse=True
        )
        sets = sum(by_rank[: len(rules.set_sizes)])
        rest = [sets + s.wild_prefix[-1]]
        for opts in reversed(self.options):
            rest.append(rest[-1] + max((run.points for run in opts), default=0))
        rest.reverse()
        return rest

    # phase 1

    def _windows(
        self, spec_i: int, chosen: list[_Run], fill: int, short: int, broken: int, points: int
    ) -> None:
        if self.stop:
            return
        rules = self.rules
        if spec_i == len(self.options):
            self._allocate(chosen)
            return
        start = 0
        if spec_i and rules.run_mins[spec_i] == rules.run_mins[spec_i - 1]:
            start = chosen[-1].option
        rest_fill, rest_short = self.rest[spec_i + 1]
        limit = self.budget + self.s.wilds - rest_fill
        slack = self.budget - short - rest_short
        if slack < 0:
            return
        # No card not held to spare: only windows that need none.
        candidates = self.options[spec_i] if slack else self.sound[spec_i]
        if start:
            # Runs of one minimum are interchangeable: this one from the window of the one
            # before on. Both lists keep the same windows by the same numbers (see
            # ``_Search._run``), so this finds that window here (or the next one kept).
            candidates = candidates[bisect.bisect_left(candidates, start, key=_option_number) :]
        spacing = not (rules.may_touch and not rules.gap)
        mode = self.mode
        last = spec_i + 1 == len(self.options)
        demand = self.demand
        counts = self.s.counts
        card_points = rules.points
        for run in candidates:
            new_fill = fill + run.fill
            if new_fill > limit:
                continue
            if run.short > slack:
                continue
            # A card this window shares with earlier ones, held too few times for all: one
            # of them takes a wild card (or a card not held) there instead.
            new_points = points
            for idx in run.held_idxs:
                if demand[idx] >= counts[idx]:
                    new_fill += 1
                else:
                    new_points += card_points[idx]
            if new_fill > limit:
                continue
            best = self.best
            if spacing and any(
                other.suit == run.suit
                and not rules.spacing_ok((other.low, other.high), (run.low, run.high))
                for other in chosen
            ):
                continue
            new_short = short + run.short
            new_broken = broken + (run.short > 0)
            chosen.append(run)
            for idx in run.held_idxs:
                demand[idx] += 1
            if mode == _NEEDS:
                ok = not (last and rules.whole) or self._covers_all(chosen)
            elif last and rules.whole and mode == _OPT and not self._covers_all(chosen):
                ok = False
            elif best is None:
                ok = True
            else:
                # The most the arrangement can lay: these windows' naturals, the best of what
                # the other melds could take, every wild card.
                if last:
                    rest = self._sets_most(chosen) + self.s.wild_prefix[-1]
                else:
                    rest = self.rest_points[spec_i + 1]
                rem = self.s.total_points - new_points - rest
                missing = max(new_short + rest_short, new_fill + rest_fill - self.s.wilds)
                ok = self._bound(missing, new_broken + self.sets_broken, rem, new_fill + rest_fill)
            if ok:
                self._windows(spec_i + 1, chosen, new_fill, new_short, new_broken, new_points)
            chosen.pop()
            for idx in run.held_idxs:
                demand[idx] -= 1
            if self.stop:
                return

    def _sets_most(self, chosen: list[_Run]) -> int:
        """The most points the sets can add to these windows: the best ranks' other naturals.

        (A run natural given to a set is already counted with the runs.)
        """
        rules = self.rules
        if not rules.set_sizes:
            return 0
        s = self.s
        left = list(s.rank_counts)
        demand = self.demand
        for idx in range(52):
            if demand[idx]:
                left[idx % 13 + 1] -= min(demand[idx], s.counts[idx])
        most = sorted((rules.rank_points[r] * left[r] for r in rules.natural_ranks), reverse=True)
        return sum(most[: len(rules.set_sizes)])

    def _bound(self, missing: int, broken: int, rem: int, fill: int) -> bool:
        """Can an arrangement this good at best still beat the best one found?"""
        best = self.best
        assert best is not None
        if self.mode == _OPT:
            return (rem, fill) <= (best.key[0], best.key[1])
        return (missing, broken - self.melds, rem) <= best.key[:3]

    def _covers_all(self, chosen: list[_Run]) -> bool:
        """Whole-hand rounds: the naturals no window covers must fit the sets' ranks."""
        s = self.s
        covered: Counter[int] = Counter()
        for run in chosen:
            for p in _bits(run.held):
                covered[run.idxs[p]] += 1
            for p in _bits(((1 << run.length) - 1) & ~run.held & ~run.forced):
                covered[run.idxs[p]] += 1
        ranks = set()
        for idx, c in enumerate(s.counts):
            if c > covered.get(idx, 0):
                ranks.add(idx % 13 + 1)
        return len(ranks) <= len(self.rules.set_sizes)

    # phase 2: copies two windows both want

    def _allocate(self, runs: list[_Run]) -> None:
        self.done = set()
        counts = self.s.counts
        cover: dict[int, list[tuple[int, int]]] = {}
        for j, run in enumerate(runs):
            for p in _bits(run.held):
                cover.setdefault(run.idxs[p], []).append((j, p))
        contested = [(idx, entries) for idx, entries in cover.items() if counts[idx] < len(entries)]
        base = [run.held for run in runs]
        # Which run gets a contested copy changes neither what the sets have to work with
        # nor what can be laid (each card is laid min(copies, windows) times): the sets'
        # choices are worked out once for the windows.
        by_rank = list(self.s.rank_counts)
        in_runs = [0] * 14
        run_points = 0
        points = self.rules.points
        for idx, entries in cover.items():
            laid = min(counts[idx], len(entries))
            by_rank[idx % 13 + 1] -= laid
            in_runs[idx % 13 + 1] += laid
            run_points += points[idx] * laid
        self.in_runs = in_runs
        loose = [0] * len(runs)
        for _, entries in contested:
            for j, p in entries:
                loose[j] |= 1 << p
        if self.mode == _NEEDS and self._windows_known(runs, base, loose, by_rank, in_runs):
            return
        plan = self._set_plan(runs, base, by_rank, in_runs, run_points)
        if plan is not None and not plan:
            return
        if not contested:
            if self._runs_legal(runs, base):
                self._set_stage(runs, base, by_rank, plan)
            return
        if self.mode == _NEEDS and plan:
            # Losing copies only makes runs worse: with every run whole, and the positions
            # that may be lost counted as gaps, is there anything new to find at all?
            suspects = self._run_suspects(runs, base, self._releasable(runs, base), loose)
            if all(self._nothing_new(ranks, by_rank, suspects) for ranks, *_ in plan):
                return
        choices = [list(itertools.combinations(entries, counts[idx])) for idx, entries in contested]
        for combo in itertools.product(*choices):
            nat = list(base)
            for (_, entries), keep in zip(contested, combo, strict=True):
                for j, p in entries:
                    if (j, p) not in keep:
                        nat[j] &= ~(1 << p)
            if self._runs_legal(runs, nat):
                self._set_stage(runs, nat, by_rank, plan)
            if self.stop:
                return

    def _runs_legal(self, runs: list[_Run], nat: list[int]) -> bool:
        """Whether every run can still be legal (releases to sets only take naturals away)."""
        rules = self.rules
        if self.mode == _OPT:
            return all(rules.run_ok(run.length, mask) for run, mask in zip(runs, nat, strict=True))
        for run, mask in zip(runs, nat, strict=True):
            if rules.gap_cap(run.spec, run.length, mask, run.forced) < 0:
                return False
        return True

    @staticmethod
    def _releasable(runs: list[_Run], nat: list[int]) -> list[list[tuple[int, int]]]:
        """Run naturals of each rank that could go to a set instead."""
        releasable: list[list[tuple[int, int]]] = [[] for _ in range(14)]
        for j, (run, mask) in enumerate(zip(runs, nat, strict=True)):
            low = run.low
            for p in _bits(mask):
                releasable[1 if low + p == HIGH_ACE else low + p].append((j, p))
        return releasable

    def _run_shortfall(self, runs: list[_Run], nat: list[int]) -> tuple[int, int, int]:
        """Gaps, cards not held however many wild cards, and runs that lack some."""
        rules = self.rules
        fill = short = broken = 0
        for run, mask in zip(runs, nat, strict=True):
            gaps = run.length - mask.bit_count()
            fill += gaps
            if self.mode != _OPT:
                cap = rules.gap_cap(run.spec, run.length, mask, run.forced)
                if gaps > cap:
                    short += gaps - cap
                    broken += 1
        return fill, short, broken

    # phase 3: ranks of the sets, and run naturals given up to them

    def _set_plan(
        self,
        runs: list[_Run],
        base: list[int],
        by_rank: list[int],
        in_runs: list[int],
        run_points: int,
    ) -> list[tuple[tuple[int, ...], int, int, int, int]] | None:
        """Every choice of the sets' ranks that could still matter for these windows.

        Each comes with what the sets add to the bound: gaps, cards not held, sets short of
        some; and the least penalty the whole arrangement could leave. None when the contract
        has no sets.
        """
        rules = self.rules
        s = self.s
        sizes = rules.set_sizes
        if not sizes:
            return None
        mode = self.mode
        if mode == _OPT:
            eligible = [r for r in rules.natural_ranks if by_rank[r] + in_runs[r] >= rules.set_nat]
        elif mode == _NEEDS:
            eligible = [
                r for r in rules.natural_ranks if by_rank[r] + in_runs[r] + 1 >= rules.set_nat
            ]
        else:
            eligible = [r for r in rules.natural_ranks if by_rank[r] + in_runs[r] >= 1]
            empty = [
                r
                for r in rules.natural_ranks
                if by_rank[r] + in_runs[r] == 0 and s.rank_counts[r] < 4 * s.decks
            ]
            if empty:
                # Any rank the hand lacks is as good as another: one stands for them all.
                eligible.append(empty[0])
                eligible.sort()
        if not eligible:
            return []
        # Runs at their best: every copy they cover, as few cards not held as may be.
        # (Their gaps are counted against every copy they cover, not only the held ones.)
        _, run_short, run_broken = self._run_shortfall(runs, base)
        run_fill = sum(run.length for run in runs) - sum(in_runs)
        wilds = s.wilds
        budget = self.budget
        best = self.best
        melds = self.melds
        plan: list[tuple[tuple[int, ...], int, int, int, int]] = []
        assignment: list[int] = []
        laid_base = run_points + s.wild_prefix[-1]

        def assign(i: int, fill: int, short: int, broken: int) -> None:
            if i == len(sizes):
                set_points = sum(rules.rank_points[r] * by_rank[r] for r in set(assignment))
                rem = s.total_points - laid_base - set_points
                if best is not None:
                    total_fill = run_fill + fill
                    if mode == _OPT:
                        if (rem, total_fill) > (best.key[0], best.key[1]):
                            return
                    elif mode == _CLOSEST:
                        missing = max(run_short + short, total_fill - wilds)
                        key = (missing, run_broken + broken - melds, rem)
                        if key > best.key[:3]:
                            return
                plan.append(
                    (
                        tuple(assignment),
                        fill,
                        short,
                        broken,
                        rem,
                    )
                )
                return
            start = 0
            if i and sizes[i] == sizes[i - 1]:
                start = eligible.index(assignment[-1])
            size = sizes[i]
            for r in eligible[start:]:
                most = by_rank[r] + in_runs[r]
                new_short = short
                new_broken = broken
                if mode != _OPT:
                    # Short of naturals: at best the runs give up every one of the rank.
                    gap = max(0, size - most)
                    cap = rules.set_wild_cap(most, gap)
                    if gap > cap:
                        new_short += gap - cap
                        new_broken += 1
                # Gaps: a natural a run gives up leaves a gap in the run instead, so the
                # total is what the sets lack beside the runs' naturals.
                new_fill = fill + max(0, size - by_rank[r])
                if max(run_short + new_short, run_fill + new_fill - wilds) > budget:
                    continue
                assignment.append(r)
                assign(i + 1, new_fill, new_short, new_broken)
                assignment.pop()

        assign(0, 0, 0, 0)
        return plan

    def _set_stage(
        self,
        runs: list[_Run],
        nat: list[int],
        by_rank: list[int],
        plan: list[tuple[tuple[int, ...], int, int, int, int]] | None,
    ) -> None:
        """One sharing of contested copies: each planned choice of set ranks, then releases."""
        if plan is None:
            self._fills(runs, nat, [], by_rank)
            return
        s = self.s
        mode = self.mode
        run_fill, run_short, run_broken = self._run_shortfall(runs, nat)
        releasable = self._releasable(runs, nat)
        suspects = self._run_suspects(runs, nat, releasable) if mode == _NEEDS else None
        for ranks, fill, short, broken, rem in plan:
            if self.stop:
                return
            if ranks in self.done:
                continue
            missing = max(run_short + short, run_fill + fill - s.wilds)
            if missing > self.budget:
                continue
            best = self.best
            if suspects is not None:
                if self._nothing_new(ranks, by_rank, suspects):
                    # Suspects go stale as cards are found: look again for the next sharing.
                    continue
            elif best is not None:
                if mode == _OPT:
                    if (rem, run_fill + fill) > (best.key[0], best.key[1]):
                        continue
                elif (missing, run_broken + broken - self.melds, rem) > best.key[:3]:
                    continue
            self.settled = False
            self._releases(runs, nat, list(ranks), by_rank, releasable)
            if self.settled:
                self.done.add(ranks)

    def _run_suspects(
        self,
        runs: list[_Run],
        nat: list[int],
        releasable: list[list[tuple[int, int]]],
        loose: list[int] | None = None,
    ) -> tuple[list[list[int]], bool, list[list[int]]]:
        """Needs, runs' side: cards a run could be short of, for :meth:`_nothing_new`.

        Returns the runs that cannot be legal on wild cards alone (each with the cards that
        could complete it), whether every card the other runs could take is already known, and
        by rank the run naturals that could go to a set (a gap in the run if they do).
        """
        rules = self.rules
        known = self._known
        shorts: list[list[int]] = []
        all_known = True
        for j, (run, mask) in enumerate(zip(runs, nat, strict=True)):
            gaps = ((1 << run.length) - 1) & ~mask & ~run.forced
            if loose is not None:
                gaps |= loose[j]
            must = rules.trimmed(run.spec, run.length, mask)
            if must:
                shorts.append([run.idxs[p] for p in _bits(must & ~run.forced)])
            elif not rules.run_ok(run.length, mask):
                shorts.append([run.idxs[p] for p in _bits(gaps)])
            elif all_known:
                all_known = all(known(run.idxs[p]) for p in _bits(gaps))
        released = [[runs[j].idxs[p] for j, p in entries] for entries in releasable]
        return shorts, all_known, released

    def _windows_known(
        self,
        runs: list[_Run],
        base: list[int],
        loose: list[int],
        by_rank: list[int],
        in_runs: list[int],
    ) -> bool:
        """Needs: whether these windows, with any sets at all, can only repeat known cards."""
        rules = self.rules
        known = self._known
        releasable = self._releasable(runs, base)
        shorts, runs_known, released = self._run_suspects(runs, base, releasable, loose)
        if len(shorts) > 1:
            return True
        eligible = [
            rank
            for rank in rules.natural_ranks
            if by_rank[rank] + in_runs[rank] + 1 >= rules.set_nat
        ]
        if rules.set_sizes:
            floor = min(rules.set_floor(size) for size in rules.set_sizes)
            if all(by_rank[rank] + in_runs[rank] < floor for rank in eligible):
                # Every set is short of naturals whatever its rank: the card it lacks is the
                # one missing, and nothing else can be.
                if shorts:
                    return True
                return all(known(suit * 13 + rank - 1) for rank in eligible for suit in range(4))
        every_released = [idx for cards in released for idx in cards]
        if not all(known(idx) for idx in every_released):
            return False
        if shorts:
            return all(known(idx) for idx in shorts[0])
        if not runs_known or (-1 not in self.identities and self.s.spare_wild):
            return False
        return all(known(suit * 13 + rank - 1) for rank in eligible for suit in range(4))

    def _known(self, idx: int) -> bool:
        return idx in self.identities or self.s.counts[idx] >= self.s.decks

    def _nothing_new(
        self,
        ranks: tuple[int, ...],
        by_rank: list[int],
        suspects: tuple[list[list[int]], bool, list[list[int]]],
    ) -> bool:
        """Needs: whether every card this arrangement could be short of is already known.

        A meld that cannot be legal with wild cards alone must hold the one missing card, so
        only its cards count; two such melds and there is nothing to find at all.
        """
        rules = self.rules
        known = self._known
        run_shorts, runs_known, released = suspects
        shorts = list(run_shorts)
        released_here = [idx for rank in set(ranks) for idx in released[rank]]
        set_cards: list[int] = []
        floors: dict[int, int] = {}
        for rank, size in zip(ranks, rules.set_sizes, strict=True):
            floors[rank] = floors.get(rank, 0) + rules.set_floor(size)
        for rank, floor in floors.items():
            cards = [suit * 13 + rank - 1 for suit in range(4)]
            # Copies the runs hold of the rank, each counted once however many runs want it.
            if by_rank[rank] + self.in_runs[rank] < floor:
                shorts.append(cards)
            else:
                set_cards.extend(cards)
        if len(shorts) > 1:
            return True
        if shorts:
            if len(run_shorts) == 1 and not all(known(idx) for idx in released_here):
                return False
            return all(known(idx) for idx in shorts[0])
        if -1 not in self.identities and self.s.spare_wild:
            return False
        return (
            runs_known
            and all(known(idx) for idx in released_here)
            and all(known(idx) for idx in set_cards)
        )

    def _releases(
        self,
        runs: list[_Run],
        nat: list[int],
        ranks: list[int],
        by_rank: list[int],
        releasable: list[list[tuple[int, int]]],
    ) -> None:
        rules = self.rules
        groups: dict[int, list[int]] = {}
        for rank, size in zip(ranks, rules.set_sizes, strict=True):
            groups.setdefault(rank, []).append(size)
        group_list = []
        for rank, group_sizes in groups.items():
            floor = sum(rules.set_floor(size) for size in group_sizes)
            group_list.append(
                _Group(rank, tuple(group_sizes), sum(group_sizes), floor, rules.rank_points[rank])
            )
        # For each group: the run naturals it could take, and how many at most.
        offers: list[tuple[list[tuple[int, int]], int]] = []
        for group in group_list:
            entries = releasable[group.rank]
            if rules.absorbing and self.mode == _OPT:
                # A set that takes any wild card gains nothing from a run's natural but
                # legality: give up only as many as its fewest naturals need.
                most = group.floor - by_rank[group.rank]
            elif rules.at_most and not rules.exact:
                # Each natural more makes room for one more wild card.
                most = len(entries)
            else:
                # A set full to its size has no use for another natural (an exact set cannot
                # take it; a longer one would only hold what a run needed).
                most = group.total - by_rank[group.rank]
            if entries and most > 0:
                offers.append((entries, min(most, len(entries))))
        if not offers:
            self._fills(runs, nat, group_list, by_rank)
            return
        choices = [
            [chosen for size in range(most + 1) for chosen in itertools.combinations(entries, size)]
            for entries, most in offers
        ]
        for combo in itertools.product(*choices):
            new_nat = list(nat)
            new_by_rank = list(by_rank)
            for chosen in combo:
                for j, p in chosen:
                    new_nat[j] &= ~(1 << p)
                    new_by_rank[runs[j].idxs[p] % 13 + 1] += 1
            self._fills(runs, new_nat, group_list, new_by_rank)
            if self.stop or self.settled:
                return

    # phase 4: fills and sets

    def _fills(
        self,
        runs: list[_Run],
        nat: list[int],
        groups: list[_Group],
        by_rank: list[int],
    ) -> None:
        if self.mode == _OPT:
            self._leaf_opt(runs, nat, groups, by_rank)
        elif self.mode == _CLOSEST:
            self._leaf_closest(runs, nat, groups, by_rank)
        else:
            self._leaf_needs(runs, nat, groups, by_rank)

    # -- laying: the best arrangement --

    def _leaf_opt(
        self, runs: list[_Run], nat: list[int], groups: list[_Group], by_rank: list[int]
    ) -> None:
        rules = self.rules
        s = self.s
        run_wilds = 0
        run_nat_points = 0
        run_naturals = 0
        points = rules.points
        for run, mask in zip(runs, nat, strict=True):
            if not rules.run_ok(run.length, mask):
                return
            run_wilds += run.length - mask.bit_count()
            run_naturals += mask.bit_count()
            for p in _bits(mask):
                run_nat_points += points[run.idxs[p]]
        if run_wilds > s.wilds:
            return
        # Sets take every natural of their rank (exact rounds: up to their size); with a card
        # to keep back, one natural fewer in one group is the other candidate.
        group_naturals: list[int] = []
        for group in groups:
            available = by_rank[group.rank]
            n = rules.set_naturals(group, available)
            if n < group.floor:
                return
            group_naturals.append(n)
        variants = [group_naturals]
        if rules.keep_one and not rules.exact:
            for g, group in enumerate(groups):
                if group_naturals[g] - 1 >= group.floor:
                    variant = list(group_naturals)
                    variant[g] -= 1
                    variants.append(variant)
        for number, variant in enumerate(variants):
            self._opt_variant(
                runs, nat, groups, variant, run_wilds, run_naturals, run_nat_points, number == 0
            )

    def _opt_variant(
        self,
        runs: list[_Run],
        nat: list[int],
        groups: list[_Group],
        naturals: list[int],
        run_wilds: int,
        run_naturals: int,
        run_nat_points: int,
        base: bool,
    ) -> None:
        rules = self.rules
        s = self.s
        group_wilds = [max(0, g.total - n) for g, n in zip(groups, naturals, strict=True)]
        used = run_wilds + sum(group_wilds)
        if used > s.wilds:
            return
        laid_naturals = run_naturals + sum(naturals)
        laid_points = run_nat_points + sum(
            g.points * n for g, n in zip(groups, naturals, strict=True)
        )
        idle = s.wilds - used
        base_left = s.naturals - laid_naturals
        base_rem = s.total_points - laid_points - s.wild_prefix[used]
        base_cards = laid_naturals + used
        # Post-step: spare wild cards.
        if idle == 0:
            plan: _Post | None = _Post(0, 0, 0, [], [])
        elif rules.absorbing and not rules.whole:
            add = max(0, min(idle, s.positive_wilds - used))
            plan = _Post(add, add, 0, [], [])
            if rules.keep_one and base_left + idle - add == 0:
                plan = self._post(runs, nat, groups, naturals, group_wilds, used, base_left)
        else:
            plan = self._post(runs, nat, groups, naturals, group_wilds, used, base_left)
        if plan is None:
            return
        rem = base_rem - (s.wild_prefix[used + plan.wilds] - s.wild_prefix[used]) + plan.released
        cards = base_cards + plan.added
        left_count = s.size - cards
        if rules.whole and left_count:
            return
        if rules.keep_one and not left_count:
            return
        if base and rules.absorbing and not rules.whole and used <= s.positive_wilds:
            if not plan.run_masks and (not rules.keep_one or left_count > 1 or idle > plan.added):
                # Where sets soak up every spare wild card, any other sharing of contested
                # copies or run naturals given to these sets lays the same cards and as many
                # wild cards: the same key. No need to look at them.
                self.settled = True
        key = (rem, used + plan.wilds, -cards)
        best = self.best
        if best is not None and key >= best.key:
            return
        if key == self.floor:
            # Nothing can beat it: stop the search.
            self.stop = True
        final_runs: list[tuple[_Run, int]] = []
        for r, (run, mask) in enumerate(zip(runs, nat, strict=True)):
            final_runs.append((run, plan.run_masks[r] if plan.run_masks else mask))
        final_groups: list[tuple[_Group, int, int]] = []
        for g, group in enumerate(groups):
            n = naturals[g]
            k = group_wilds[g]
            if plan.group_moves:
                sub, add = plan.group_moves[g]
                n -= sub
                k += sub + add
            elif plan.added and g == 0:
                # Any set of an absorbing ruleset takes the spare wild cards.
                k += plan.added
            final_groups.append((group, n, k))
        self.best = _Best(key, final_runs, final_groups, used + plan.wilds)

    def _post(
        self,
        runs: list[_Run],
        nat: list[int],
        groups: list[_Group],
        naturals: list[int],
        group_wilds: list[int],
        used: int,
        base_left: int,
    ) -> _Post | None:
        """Place spare wild cards: added to sets, or swapped in for naturals (a knapsack).

        Each meld offers choices of (wild cards taken, points of naturals given back to the
        hand, cards added); the knapsack keeps, for each number of wild cards placed (and
        whether any natural went back, which leaves a card to discard), the fewest points
        given back, then the most cards added.
        """
        rules = self.rules
        s = self.s
        idle = s.wilds - used
        # A meld's choice: (wild cards, points given back, cards added, (swapped, added)).
        Choice = tuple[int, int, int, tuple[int, int]]
        items: list[list[Choice]] = []
        for run, mask in zip(runs, nat, strict=True):
            choices: list[Choice] = []
            for t, released in enumerate(rules.substitutions(run.low, run.high, mask)):
                if t > idle or (t and rules.whole):
                    break
                if released is not None:
                    choices.append((t, released, 0, (t, 0)))
            items.append(choices)
        for g, group in enumerate(groups):
            n = naturals[g]
            k = group_wilds[g]
            choices = []
            for t in range(0, n - group.floor + 1):
                if t > idle or (t and rules.whole):
                    break
                room = 0 if rules.exact else idle - t
                if rules.at_most:
                    room = min(room, (n - t) - (k + t))
                for a in range(0, room + 1):
                    choices.append((t + a, t * group.points, a, (t, a)))
            if not choices:
                return None
            items.append(choices)
        knapsack: dict[tuple[int, bool], tuple[int, int, list[tuple[int, int]]]] = {
            (0, False): (0, 0, [])
        }
        for choices in items:
            following: dict[tuple[int, bool], tuple[int, int, list[tuple[int, int]]]] = {}
            for (w, swapped), (given, neg_added, picks) in knapsack.items():
                for cw, cgiven, cadded, pick in choices:
                    placed = w + cw
                    if placed > idle:
                        continue
                    state = (placed, swapped or pick[0] > 0)
                    value = (given + cgiven, neg_added - cadded, [*picks, pick])
                    old = following.get(state)
                    if old is None or value[:2] < old[:2]:
                        following[state] = value
            knapsack = following
        best_key: tuple[int, int, int] | None = None
        best_plan: _Post | None = None
        for (w, _), (given, neg_added, picks) in knapsack.items():
            added = -neg_added
            left = base_left + idle - added
            if (rules.whole and left) or (rules.keep_one and not left):
                continue
            key = (given - (s.wild_prefix[used + w] - s.wild_prefix[used]), w, -added)
            if best_key is None or key < best_key:
                best_key = key
                run_masks = [
                    self._substituted(run, mask, pick[0]) if pick[0] else mask
                    for run, mask, pick in zip(runs, nat, picks, strict=False)
                ]
                best_plan = _Post(w, added, given, run_masks, picks[len(runs) :])
        return best_plan

    def _substituted(self, run: _Run, mask: int, t: int) -> int:
        """The run's naturals after the cheapest legal swap of ``t`` of them for wild cards."""
        rules = self.rules
        target = rules.substitutions(run.low, run.high, mask)[t]
        positions = list(_bits(mask))
        for chosen in itertools.combinations(positions, t):
            new = mask
            released = 0
            for p in chosen:
                new &= ~(1 << p)
                released += rules.rank_points[rank_of(run.low + p)]
            if released == target and rules.run_ok(run.length, new):
                return new
        raise AssertionError("substitution table and placement disagree")  # pragma: no cover

    # -- closest --

    def _leaf_closest(
        self,
        runs: list[_Run],
        nat: list[int],
        groups: list[_Group],
        by_rank: list[int],
    ) -> None:
        rules = self.rules
        melds: list[tuple[int, int]] = []  # (fill, cap)
        laid_naturals = 0
        laid_points = 0
        for run, mask in zip(runs, nat, strict=True):
            cap = rules.gap_cap(run.spec, run.length, mask, run.forced)
            if cap < 0:
                return
            fill = run.length - mask.bit_count()
            melds.append((fill, min(cap, fill)))
            laid_naturals += mask.bit_count()
            for p in _bits(mask):
                laid_points += rules.points[run.idxs[p]]
        # Sets: every natural of the rank, split among the sets of that rank in every way.
        per_group: list[list[tuple[int, ...]]] = []
        for group in groups:
            available = by_rank[group.rank]
            n = rules.set_naturals(group, available)
            per_group.append(_splits(n, group.sizes, rules.exact))
            laid_naturals += n
            laid_points += group.points * n
        for combo in itertools.product(*per_group):
            self._closest_eval(
                runs, nat, melds, laid_naturals, laid_points, list(zip(groups, combo, strict=True))
            )

    def _closest_eval(
        self,
        runs: list[_Run],
        nat: list[int],
        run_melds: list[tuple[int, int]],
        laid_naturals: int,
        laid_points: int,
        set_parts: list[tuple[_Group, tuple[int, ...]]],
    ) -> None:
        rules = self.rules
        s = self.s
        decks = s.decks
        groups = [group for group, _ in set_parts]
        melds = list(run_melds)
        for group, split in set_parts:
            for size, ni in zip(group.sizes, split, strict=True):
                fill = max(0, size - ni)
                melds.append((fill, rules.set_wild_cap(ni, fill)))
        total_fill = sum(f for f, _ in melds)
        usable = sum(c for _, c in melds)
        wild_used = min(s.wilds, usable)
        missing = total_fill - wild_used
        if missing > self.budget:
            return
        # Complete as many melds as the wild cards allow, smallest gaps first.
        order = sorted(range(len(melds)), key=lambda i: (melds[i][0], i))
        alloc = [0] * len(melds)
        supply = s.wilds
        complete = 0
        for i in order:
            fill, cap = melds[i]
            if cap == fill and fill <= supply:
                alloc[i] = fill
                supply -= fill
                complete += 1
        for i in order:
            fill, cap = melds[i]
            if alloc[i] < cap:
                extra = min(cap - alloc[i], supply)
                alloc[i] += extra
                supply -= extra
        # Obtainable: a missing natural must exist beyond the copies held. Only where the
        # hand holds nearly every copy does it matter which gaps the wild cards fill.
        gaps: Counter[int] = Counter()
        for run, mask in zip(runs, nat, strict=True):
            for p in _bits(((1 << run.length) - 1) & ~mask & ~run.forced):
                gaps[run.idxs[p]] += 1
        run_wild_masks: list[int] | None = None
        virtual: Counter[int] = gaps
        if any(s.counts[idx] + k > decks for idx, k in gaps.items()):
            run_wild_masks = self._wild_masks(runs, nat, alloc)
            virtual = Counter()
            for run, mask, wmask in zip(runs, nat, run_wild_masks, strict=True):
                for p in _bits(((1 << run.length) - 1) & ~mask & ~wmask & ~run.forced):
                    virtual[run.idxs[p]] += 1
            if any(s.counts[idx] + k > decks for idx, k in virtual.items()):
                return
        m = len(runs)
        for group, split in set_parts:
            need = 0
            for ni, size in zip(split, group.sizes, strict=True):
                need += max(0, size - ni) - alloc[m]
                m += 1
            if need <= 0:
                continue
            spare = sum(
                decks - s.counts[suit * 13 + group.rank - 1] - virtual[suit * 13 + group.rank - 1]
                for suit in range(4)
            )
            if need > spare:
                return
        # Spare wild cards join sets that take them.
        idle = s.wilds - wild_used
        added = 0
        add_to: list[int] = [0] * len(groups)
        if idle and not rules.exact and groups:
            room_total = 0
            positive_idle = max(0, min(idle, s.positive_wilds - wild_used))
            for g, (group, split) in enumerate(set_parts):
                if not rules.at_most:
                    room = positive_idle
                else:
                    room = 0
                    base = len(runs) + sum(len(p[1]) for p in set_parts[:g])
                    for i, (ni, size) in enumerate(zip(split, group.sizes, strict=True)):
                        fill = max(0, size - ni)
                        room += ni + (fill - alloc[base + i]) - alloc[base + i]
                take = min(room, positive_idle - room_total)
                add_to[g] = max(take, 0)
                room_total += add_to[g]
            added = room_total
        wilds = wild_used + added
        rem = s.total_points - laid_points - s.wild_prefix[wilds]
        cards = laid_naturals + wilds
        key = (missing, -complete, rem, wilds, -cards)
        if self.best is not None and key >= self.best.key:
            return
        self.best = _Best(key, [], [], wilds)
        if key == self.floor:
            self.stop = True
        if run_wild_masks is None:
            run_wild_masks = self._wild_masks(runs, nat, alloc)
        self.closest_detail = _ClosestDetail(
            list(zip(runs, nat, run_wild_masks, strict=True)),
            [(g, split, add_to[i]) for i, (g, split) in enumerate(set_parts)],
            alloc[len(runs) :],
            wilds,
        )

    def _wild_masks(self, runs: list[_Run], nat: list[int], alloc: list[int]) -> list[int]:
        rules = self.rules
        return [
            rules.w_witness(run.spec, run.length, mask, run.forced, alloc[r])
            for r, (run, mask) in enumerate(zip(runs, nat, strict=True))
        ]

    # -- needs --

    def _leaf_needs(
        self,
        runs: list[_Run],
        nat: list[int],
        groups: list[_Group],
        by_rank: list[int],
    ) -> None:
        rules = self.rules
        laid_naturals = 0
        # Each run: its gaps, whether wild cards in all of them make it legal, and the gaps
        # that must be the missing card (see ``trim``).
        run_info: list[tuple[int, bool, int]] = []
        for run, mask in zip(runs, nat, strict=True):
            fill = run.length - mask.bit_count()
            must = rules.trimmed(run.spec, run.length, mask)
            if must.bit_count() > 1 or must & run.forced:
                return
            run_info.append((fill, not must and rules.run_ok(run.length, mask), must))
            laid_naturals += mask.bit_count()
        set_variants: list[list[tuple[_Group, int]]] = [[]]
        for group in groups:
            available = by_rank[group.rank]
            n = rules.set_naturals(group, available)
            options = [n]
            if rules.keep_one and not rules.exact and n - 1 >= 0:
                options.append(n - 1)
            set_variants = [[*v, (group, k)] for v in set_variants for k in options]
        for variant in set_variants:
            self._needs_variant(runs, nat, run_info, variant, laid_naturals)
        if self.universe is not None and self.universe <= self.identities:
            # Every card that could ever be needed is: nothing left to find.
            self.stop = True

    def _needs_variant(
        self,
        runs: list[_Run],
        nat: list[int],
        run_info: list[tuple[int, bool, int]],
        variant: list[tuple[_Group, int]],
        run_naturals: int,
    ) -> None:
        rules = self.rules
        s = self.s
        naturals_left = s.naturals - run_naturals - sum(n for _, n in variant)
        set_fill = [max(0, g.total - n) for g, n in variant]

        def set_ok(g: _Group, n: int, extra_nat: int, wild_k: int) -> bool:
            return n + extra_nat >= g.floor and not (rules.at_most and wild_k > n + extra_nat)

        def room(g: _Group, n: int, k: int) -> int:
            if rules.exact:
                return 0
            if not rules.at_most:
                return 1 << 20
            return max(0, n - k)

        runs_ok = [ok for _, ok, _ in run_info]
        sets_ok = [set_ok(g, n, 0, f) for (g, n), f in zip(variant, set_fill, strict=True)]
        total_fill = sum(f for f, _, _ in run_info) + sum(set_fill)

        def going_out(idle: int, extra_nat_group: int) -> bool:
            if idle < 0:
                return False
            if rules.whole:
                if naturals_left:
                    return False
                capacity = 0
                for i, ((g, n), f) in enumerate(zip(variant, set_fill, strict=True)):
                    capacity += room(g, n + (1 if i == extra_nat_group else 0), f)
                return capacity >= idle
            if rules.keep_one:
                return naturals_left + idle >= 1
            return True

        # A wild card completes it: every meld legal with wild cards in all its gaps.
        if all(runs_ok) and all(sets_ok) and total_fill >= 1 and s.spare_wild:
            if going_out(s.wilds + 1 - total_fill, -1):
                self.identities.add(-1)
        # A natural in a run's gap.
        for r, (run, mask) in enumerate(zip(runs, nat, strict=True)):
            if total_fill - 1 > s.wilds:
                break
            if not all(ok for i, ok in enumerate(runs_ok) if i != r) or not all(sets_ok):
                continue
            free = run_info[r][2] or ((1 << run.length) - 1) & ~mask & ~run.forced
            for p in _bits(free):
                idx = run.idxs[p]
                if self._known(idx):
                    continue
                if rules.run_ok(run.length, mask | (1 << p)) and going_out(
                    s.wilds - (total_fill - 1), -1
                ):
                    self.identities.add(idx)
        # A natural in a set.
        for i, (g, n) in enumerate(variant):
            fill = set_fill[i]
            wanted = [
                idx for idx in (suit * 13 + g.rank - 1 for suit in range(4)) if not self._known(idx)
            ]
            if not wanted:
                continue
            if not all(runs_ok) or not all(ok for j, ok in enumerate(sets_ok) if j != i):
                continue
            if fill >= 1:
                if total_fill - 1 > s.wilds or not set_ok(g, n, 1, fill - 1):
                    continue
                if not going_out(s.wilds - (total_fill - 1), i):
                    continue
            else:
                # An extra natural: only ever needed to make room for spare wild cards.
                if not (rules.whole and rules.at_most) or total_fill > s.wilds:
                    continue
                if not sets_ok[i] or not going_out(s.wilds - total_fill, i):
                    continue
            self.identities.update(wanted)


@dataclass(slots=True)
class _Post:
    wilds: int
    added: int
    released: int
    run_masks: list[int]
    group_moves: list[tuple[int, int]]


def _splits(n: int, sizes: tuple[int, ...], exact: bool) -> list[tuple[int, ...]]:
    """Every way to share ``n`` naturals among sets of these sizes (none over size if exact)."""
    if len(sizes) == 1:
        return [(n,)] if not exact or n <= sizes[0] else []
    out = []
    top = min(n, sizes[0]) if exact else n
    for first in range(top, -1, -1):
        for rest in _splits(n - first, sizes[1:], exact):
            # Sets of one size are interchangeable: list each sharing once.
            if sizes[1] == sizes[0] and rest[0] > first:
                continue
            out.append((first, *rest))
    return out


def _split(n: int, sizes: tuple[int, ...], rules: _Rules) -> list[int]:
    """Share ``n`` naturals among sets of one rank: fewest naturals each first, then sizes."""
    split = [min(rules.set_floor(size), size) for size in sizes]
    rest = n - sum(split)
    if rest < 0:
        # Not enough for every set's floor: fill them in turn.
        split = []
        rest = n
        for size in sizes:
            take = min(rest, size)
            split.append(take)
            rest -= take
        if rest:
            split[0] += rest
        return split
    for i, size in enumerate(sizes):
        take = min(rest, size - split[i])
        split[i] += take
        rest -= take
    split[0] += rest
    return split


# --- the public function ---------------------------------------------------------------------


def analyse_hand(
    ruleset: Ruleset,
    round_number: int,
    hand: Sequence[Card],
    players: int | None = None,
) -> Analysis:
    """Whether ``hand`` can lay the round's contract now, the best way to, or what it lacks.

    ``hand`` is every card the player holds. A hand holding more copies of a card (or more
    jokers) than the decks of the table hold cannot exist, and raises :class:`MoveError` (the
    contract check would report ``too_many_copies`` for any melds from it).

    >>> from rules import find_ruleset, parse_cards
    >>> hand = parse_cards("4H 5H 6H 8C 9C 9S KD QS 2D 3D JK".split())
    >>> result = analyse_hand(find_ruleset("liverpool"), 2, hand)
    >>> result.can_lay, result.needs
    (False, ('3H', '7H', '9S', '9H', '9D', '9C', 'JK'))
    >>> [(meld.type, meld.missing) for meld in result.closest.melds]
    [('set', ('9',)), ('run', ())]
    """
    rules = _rules(ruleset, round_number)
    table = ruleset.table(players)
    require_possible_hand(ruleset, hand, players, field="hand")
    search = _Search(rules, hand, table.decks, table.jokers)
    spec = rules.spec
    # A whole-hand round where some natural can never find a meld: nothing to search.
    hopeless = rules.whole and not search.whole_hand_possible()
    state = search.search(_OPT) if not hopeless else None
    if state is not None and state.best is not None:
        melds = _lay_out(search, state.best)
        verdict = check_contract(ruleset, round_number, melds, hand=hand, players=players)
        if not verdict.valid:  # pragma: no cover - a bug in the search, never the hand
            raise AssertionError(f"analysis laid an illegal contract: {verdict.violations}")
        remaining = verdict.remaining or ()
        return Analysis(
            round=spec,
            can_lay=True,
            melds=tuple(tuple(m) for m in melds),
            readings=verdict.melds,
            remaining=remaining,
            penalty=penalty(ruleset, remaining).total,
            goes_out=bool(verdict.goes_out),
            needs=(),
            closest=None,
        )
    closest, missing = _closest(search)
    needs: tuple[str, ...] = ()
    if hopeless:
        pass
    elif missing == 0 and rules.keep_one:
        # The melds use every card: any card at all gives one to discard.
        needs = _all_cards(search)
    elif missing is not None and missing <= 1:
        needs = _needs(search)
    return Analysis(
        round=spec,
        can_lay=False,
        melds=(),
        readings=(),
        remaining=tuple(hand),
        penalty=penalty(ruleset, hand).total,
        goes_out=False,
        needs=needs,
        closest=closest,
    )


def _lay_out(search: _Search, best: _Best) -> list[list[Card]]:
    """Cards for the best arrangement, in an order the contract check reads as intended."""
    rules = search.rules
    wild_iter = iter(search.wild_cards[: best.wilds])
    pool = list(search.counts)
    typed: list[tuple[MeldType, list[Card]]] = []
    for run, mask in best.runs:
        cards: list[Card] = []
        for p in range(run.length):
            if (mask >> p) & 1:
                idx = run.idxs[p]
                pool[idx] -= 1
                cards.append(_CARDS[idx])
            else:
                cards.append(next(wild_iter))
        typed.append(("run", cards))
    set_melds: list[tuple[MeldType, list[Card]]] = []
    for group, n, k in best.groups:
        naturals: list[Card] = []
        for suit in range(4):
            idx = suit * 13 + group.rank - 1
            take = min(pool[idx], n - len(naturals))
            naturals.extend([_CARDS[idx]] * take)
            pool[idx] -= take
        split = _split(n, group.sizes, rules)
        wild_split = _wild_split(split, group.sizes, k, rules)
        start = 0
        for ni, ki in zip(split, wild_split, strict=True):
            meld = naturals[start : start + ni] + [next(wild_iter) for _ in range(ki)]
            start += ni
            set_melds.append(("set", meld))
    return _table_order(rules.ruleset, set_melds + typed)


def _wild_split(split: list[int], sizes: tuple[int, ...], k: int, rules: _Rules) -> list[int]:
    """Share ``k`` wild cards among sets of one rank: gaps to the minimum first."""
    wilds = [max(0, size - n) for n, size in zip(split, sizes, strict=True)]
    rest = k - sum(wilds)
    for i, n in enumerate(split):
        if rest <= 0:
            break
        room = (n - wilds[i]) if rules.at_most else rest
        if rules.exact:
            room = 0
        take = min(rest, max(room, 0))
        wilds[i] += take
        rest -= take
    if rest > 0:  # pragma: no cover - the search only adds what fits
        raise AssertionError("wild cards left over in a set group")
    return wilds


def _table_order(ruleset: Ruleset, typed: list[tuple[MeldType, list[Card]]]) -> list[list[Card]]:
    """Order melds so that the contract check gives each the type it was built as.

    A meld of one natural and wild cards may read as a set or a run; the check gives such
    melds, in order, whichever type the contract still lacks most (sets on a tie). Placing
    them in the sequence that rule produces makes it produce the intended types.
    """
    fixed: list[list[Card]] = []
    open_sets: list[list[Card]] = []
    open_runs: list[list[Card]] = []
    for meld_type, cards in typed:
        if len(plausible_types(cards, ruleset)) == 2:
            other: MeldType = "run" if meld_type == "set" else "set"
            if read_meld(cards, ruleset, other).valid:
                (open_sets if meld_type == "set" else open_runs).append(cards)
                continue
        fixed.append(cards)
    ordered = list(fixed)
    while open_sets or open_runs:
        if open_sets and len(open_sets) >= len(open_runs):
            ordered.append(open_sets.pop(0))
        else:
            ordered.append(open_runs.pop(0))
    return ordered


def _closest(search: _Search) -> tuple[Closest | None, int | None]:
    """The closest arrangement, by deepening: the fewest cards not held that any can lack.

    The first budgets are cheap searches; past them, the search starts from a lower bound
    (what the melds lack however they share the hand) rather than climbing one at a time.
    """
    rules = search.rules
    limit = rules.spec.contract.min_cards + 13
    budget = 0
    while budget <= limit:
        state = search.search(_CLOSEST, budget)
        if state.best is not None:
            return _closest_result(search, state), state.best.key[0]
        budget += 1
        if budget == 3:
            fill, short = _rest_bounds(search, _CLOSEST, search.least_lacking())[0]
            budget = max(budget, short, fill - search.wilds)
    return None, None


def _closest_result(search: _Search, state: _SearchState) -> Closest:
    rules = search.rules
    detail = state.closest_detail
    assert detail is not None
    runs, sets, set_alloc, wilds = detail.runs, detail.sets, detail.set_wilds, detail.wilds
    wild_iter = iter(search.wild_cards[:wilds])
    pool = list(search.counts)
    run_parts: list[PartialMeld] = []
    for run, mask, wmask in runs:
        cards: list[Card] = []
        missing: list[str] = []
        for p in range(run.length):
            if (mask >> p) & 1:
                idx = run.idxs[p]
                pool[idx] -= 1
                cards.append(_CARDS[idx])
            elif (wmask >> p) & 1:
                cards.append(next(wild_iter))
            else:
                missing.append(str(Card(rank_of(run.low + p), _SUITS[run.suit])))
        run_parts.append(PartialMeld("run", tuple(cards), tuple(missing)))
    set_parts: list[PartialMeld] = []
    i = 0
    for group, split, added in sets:
        for j, (ni, size) in enumerate(zip(split, group.sizes, strict=True)):
            cards = []
            for suit in range(4):
                idx = suit * 13 + group.rank - 1
                take = min(pool[idx], ni - len(cards))
                cards.extend([_CARDS[idx]] * take)
                pool[idx] -= take
            k = set_alloc[i] + (added if j == 0 else 0)
            cards.extend(next(wild_iter) for _ in range(k))
            gap = max(0, size - ni) - set_alloc[i]
            set_parts.append(
                PartialMeld("set", tuple(cards), (Rank(group.rank).symbol,) * max(gap, 0))
            )
            i += 1
    melds = tuple(set_parts + run_parts)
    used: Counter[Card] = Counter(card for meld in melds for card in meld.cards)
    remaining: list[Card] = []
    for card in search.hand:
        if used[card]:
            used[card] -= 1
        else:
            remaining.append(card)
    missing_total = sum(len(m.missing) for m in melds)
    return Closest(
        melds=melds,
        missing=missing_total,
        complete=sum(1 for m in melds if m.complete),
        remaining=tuple(remaining),
        penalty=penalty(rules.ruleset, remaining).total,
    )


def _needs(search: _Search) -> tuple[str, ...]:
    """Every card that would make the contract layable, in deck order (``JK`` last)."""
    state = search.search(_NEEDS, 1)
    naturals = sorted((i for i in state.identities if i >= 0), key=_deck_order)
    out = [str(_CARDS[i]) for i in naturals]
    if -1 in state.identities:
        out = _with_wilds(search, out)
    return tuple(out)


def _with_wilds(search: _Search, out: list[str]) -> list[str]:
    """A wild card would do: every wild card the hand could still get."""
    ruleset = search.rules.ruleset
    held = count_cards(search.hand)
    cards = [Card.parse(name) for name in out]
    for rank in sorted(ruleset.wild_ranks):
        for suit in _SUITS:
            card = Card(rank, suit)
            if held.get(card, 0) < search.decks and card not in cards:
                cards.append(card)
    result = [str(card) for card in sorted(cards, key=_DECK_PLACE.__getitem__)]
    if search.joker_spare:
        result.append(str(JOKER))
    return result


def _all_cards(search: _Search) -> tuple[str, ...]:
    """Every card the hand could still be dealt."""
    held = count_cards(search.hand)
    out = [str(card) for card in DECK if held.get(card, 0) < search.decks]
    if search.joker_spare:
        out.append(str(JOKER))
    return tuple(out)


#: Each card's place in :data:`rules.cards.DECK` (rank, then suit): the order of ``needs``.
_DECK_PLACE = {card: place for place, card in enumerate(DECK)}


def _deck_order(index: int) -> int:
    return _DECK_PLACE[_CARDS[index]]
