"""The rules of one ruleset's round, as the search asks them: worked out once per round.

:class:`RoundRules` holds what the contract check would decide about any meld of the round —
how many wild cards a run of a given length may hold, where they may lie, when two runs of one
suit are far enough apart, how many naturals a set needs — in the shape the search wants:
positions as bitmasks, cards as indexes (see :mod:`rules.analysis.bitmasks`). It also lists
every window of values each contract run may span, in every suit (:class:`RunShape`), since
those are the same for every hand.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from rules.cards import Card, Rank, Suit
from rules.melds import HIGH_ACE, rank_of
from rules.ruleset import RoundSpec, Ruleset

from .bitmasks import (
    CARDS,
    every_position,
    first_position,
    last_position,
    lowest_positions,
    positions,
    positions_between,
    run_card,
    run_ends,
)


class RunShape(NamedTuple):
    """A window of values one contract run may span, in one suit: the same for every hand."""

    suit: int
    low: int
    high: int
    length: int
    #: The card index at each position, low to high.
    cards: tuple[int, ...]
    #: Positions only a wild card can fill (California's queens stand there as wild cards).
    wild_only: int
    #: Positions a natural can fill: the others.
    natural_places: int


@dataclass(frozen=True, slots=True)
class RoundRules:
    """Everything about a ruleset's round that the search asks (built by :func:`round_rules`)."""

    ruleset: Ruleset
    spec: RoundSpec
    exact_minimum: bool
    whole_hand: bool
    #: The round ends with a discard, so the melds must leave a card to discard
    #: (docs/rules.md §4).
    keeps_a_discard: bool
    set_min_naturals: int
    run_min_naturals: int
    wilds_at_most_naturals: bool
    wilds_outside_span: int | None
    runs_may_touch: bool
    same_suit_run_gap: int
    #: Whether two runs of one suit in one contract can be too close.
    runs_need_spacing: bool
    #: The ranks (1-13) that are no wild card.
    natural_ranks: tuple[int, ...]
    #: What a natural of each rank costs in hand (index 0 unused).
    rank_points: tuple[int, ...]
    #: What each natural card costs in hand, by index.
    card_points: tuple[int, ...]
    #: The size each contract set is laid at (at least), largest first.
    set_sizes: tuple[int, ...]
    #: False where an exact-minimum set would be smaller than any set may be.
    sets_possible: bool
    #: A set takes any number of extra wild cards, and so soaks up every spare one.
    sets_absorb_wilds: bool
    #: Each contract run's minimum, largest first.
    run_minimums: tuple[int, ...]
    #: Each contract run's least length (its minimum, or the ruleset's, if larger).
    least_run_lengths: tuple[int, ...]
    #: A wild card at the end of a run longer than its least length could as well lie in a
    #: set that takes any number of them, and nothing about spacing between runs can hang on
    #: it: such ends are never searched.
    trims_run_ends: bool
    #: Each contract run's windows in every suit; runs of one minimum share one tuple, so that
    #: a hand works their windows out once.
    run_shapes: tuple[tuple[RunShape, ...], ...]
    #: The length of each contract run's shortest window (0: it has none).
    shortest_windows: tuple[int, ...]
    #: The most wild cards a run of each length may hold, whatever their places.
    run_wild_caps: tuple[int, ...]
    # Every window of a search, and every sharing and release of its naturals, asks how many
    # wild cards a run of the same few shapes may take: the answers are kept. Filled as
    # searches go; each value depends on its key alone, so two threads at worst work one out
    # twice.
    _wild_positions_cache: dict[tuple[int, int, int], int] = field(
        default_factory=dict, repr=False, compare=False
    )

    # -- runs --

    def run_is_legal(self, length: int, naturals: int) -> bool:
        """Whether a run of ``length`` with naturals at the positions of ``naturals`` is legal."""
        if not naturals:
            return False
        if length - naturals.bit_count() > self.run_wild_caps[length]:
            return False
        if self.wilds_outside_span is not None:
            outside = first_position(naturals) + length - 1 - last_position(naturals)
            if outside > self.wilds_outside_span:
                return False
        return True

    def most_wild_positions(self, length: int, held: int, wild_only: int) -> int:
        """Most positions of a run that may be wild when the others are natural (-1: none).

        ``held`` positions are natural; ``wild_only`` ones can only be wild; the rest may be
        either (a card not held counts as natural). The naturals' span is tried at every pair
        of ends that could hold a natural.
        """
        key = (length, held, wild_only)
        cached = self._wild_positions_cache.get(key)
        if cached is not None:
            return cached
        free = every_position(length) & ~held & ~wild_only
        may_be_natural = held | free
        naturals_needed = length - self.run_wild_caps[length]
        if held:
            first_held, last_held = first_position(held), last_position(held)
        else:
            first_held, last_held = length - 1, 0
        best = -1
        for first in positions(may_be_natural & every_position(first_held + 1)):
            for last in positions(may_be_natural & ~every_position(max(first, last_held))):
                outside = first + length - 1 - last
                if self.wilds_outside_span is not None and outside > self.wilds_outside_span:
                    continue
                most = (may_be_natural & positions_between(first, last)).bit_count()
                # The held naturals, and a card not held at each end of the span.
                least = held.bit_count() + ((free >> first) & 1)
                if last != first:
                    least += (free >> last) & 1
                natural = max(least, naturals_needed)
                if natural <= most:
                    best = max(best, length - natural)
        self._wild_positions_cache[key] = best
        return best

    def trimmed_ends(self, run_number: int, length: int, naturals: int) -> int:
        """End positions of a run that may not take a wild card (see ``trims_run_ends``): its
        gaps there."""
        if not self.trims_run_ends or length <= self.least_run_lengths[run_number]:
            return 0
        return run_ends(length) & ~naturals

    def gap_wild_capacity(self, run_number: int, length: int, naturals: int, wild_only: int) -> int:
        """Most real wild cards a run's gaps take, the trimmed ends staying missing (-1: none)."""
        trimmed = self.trimmed_ends(run_number, length, naturals)
        capacity = self.most_wild_positions(length, naturals | (trimmed & ~wild_only), wild_only)
        if capacity < 0:
            return -1
        return capacity - (trimmed & wild_only).bit_count()

    def wild_positions(
        self, run_number: int, length: int, held: int, wild_only: int, wilds: int
    ) -> int:
        """Positions for ``wilds`` wild cards (wild-only ones first) keeping the run legal.

        The trimmed ends stay missing: natural ones count as natural, wild-only ones as wild.
        """
        trimmed = self.trimmed_ends(run_number, length, held)
        held |= trimmed & ~wild_only
        free = every_position(length) & ~held & ~wild_only
        open_wild_only = wild_only & ~trimmed
        extra = wilds - open_wild_only.bit_count()
        if extra <= 0:
            # Fewer wild cards than wild-only positions: the rest of those stay missing.
            return lowest_positions(open_wild_only, wilds)
        for chosen in itertools.combinations(list(positions(free)), extra):
            mask = sum(1 << position for position in chosen)
            if self.run_is_legal(length, every_position(length) & ~wild_only & ~mask):
                return open_wild_only | mask
        raise AssertionError("no legal placement of wild cards")  # pragma: no cover

    def substitutions(self, low: int, high: int, naturals: int) -> list[int | None]:
        """Fewest points of naturals a run can give back for ``swapped`` wild cards, by
        ``swapped``.

        Entry ``swapped`` is None when no ``swapped`` of the run's naturals can be replaced by
        wild cards with the run still legal. The naturals given back are those outside a span
        (the run's ends) and then the cheapest inside it.
        """
        length = high - low + 1
        held = list(positions(naturals))
        points = [self.rank_points[rank_of(low + position)] for position in held]
        best: list[int | None] = [None] * (len(held) + 1)
        for first in range(len(held)):
            for last in range(first, len(held)):
                outside = points[:first] + points[last + 1 :]
                # Cheapest naturals first.
                inner = sorted(range(first + 1, last), key=lambda number: (points[number], number))
                mask = naturals
                for number in (*range(first), *range(last + 1, len(held))):
                    mask &= ~(1 << held[number])
                given_back = sum(outside)
                for extra in range(len(inner) + 1):
                    if extra:
                        number = inner[extra - 1]
                        mask &= ~(1 << held[number])
                        given_back += points[number]
                    swapped = len(outside) + extra
                    if self.run_is_legal(length, mask):
                        old = best[swapped]
                        if old is None or given_back < old:
                            best[swapped] = given_back
        return best

    def runs_spaced(self, first: tuple[int, int], second: tuple[int, int]) -> bool:
        """Two runs (low, high) of one suit in one contract, as the contract check sees them."""
        if not self.runs_need_spacing:
            return True
        lower, upper = sorted((first, second))
        between = upper[0] - lower[1] - 1
        if between == 0 and not self.runs_may_touch:
            return False
        return not (self.same_suit_run_gap and between < self.same_suit_run_gap)

    # -- sets --

    def set_wild_capacity(self, naturals: int, gap: int) -> int:
        """Most of a set's ``gap`` missing cards wild cards may fill, beside ``naturals``."""
        capacity = min(gap, naturals + gap - self.set_min_naturals)
        if self.wilds_at_most_naturals:
            capacity = min(capacity, (naturals + gap) // 2)
        return max(capacity, 0)

    def set_lacking(self, size: int, naturals: int) -> int:
        """Cards not held a set of ``size`` lacks beside ``naturals``, however many wild cards
        there are."""
        gap = max(0, size - naturals)
        return gap - self.set_wild_capacity(naturals, gap)

    def set_naturals(self, total: int, available: int) -> int:
        """The naturals sets of ``total`` cards take: every one of the rank (exact-minimum
        sets: up to their size)."""
        return min(available, total) if self.exact_minimum else available

    def least_set_naturals(self, size: int) -> int:
        """Fewest naturals a set of ``size`` needs (more than its wild cards, where the wild
        cards may not outnumber them)."""
        least = self.set_min_naturals
        if self.wilds_at_most_naturals:
            least = max(least, (size + 1) // 2)
        return least


@lru_cache(maxsize=64)
def round_rules(ruleset: Ruleset, number: int) -> RoundRules:
    """The rules of round ``number`` of ``ruleset`` (raises :class:`RoundError` if none)."""
    spec = ruleset.round(number)
    exact = spec.exact_minimum
    at_most = ruleset.wilds_at_most_naturals
    set_sizes = tuple(
        sorted(
            (
                meld.min if exact else max(meld.min, ruleset.set_min)
                for meld in spec.contract.melds
                if meld.type == "set"
            ),
            reverse=True,
        )
    )
    absorbing = bool(set_sizes) and not exact and not at_most
    run_minimums = tuple(
        sorted((meld.min for meld in spec.contract.melds if meld.type == "run"), reverse=True)
    )
    spans = _run_spans(ruleset, spec, run_minimums)
    wild_at_value = tuple(
        rank_of(value) in ruleset.wild_ranks and ruleset.wild_rank_in_melds if value else False
        for value in range(HIGH_ACE + 1)
    )
    return RoundRules(
        ruleset=ruleset,
        spec=spec,
        exact_minimum=exact,
        whole_hand=spec.whole_hand,
        keeps_a_discard=(
            not spec.whole_hand and spec.discard_to_go_out and not ruleset.go_out_by_melding
        ),
        set_min_naturals=ruleset.set_min_naturals,
        run_min_naturals=ruleset.run_min_naturals,
        wilds_at_most_naturals=at_most,
        wilds_outside_span=ruleset.wilds_outside_span,
        runs_may_touch=ruleset.runs_may_touch,
        same_suit_run_gap=ruleset.same_suit_run_gap,
        runs_need_spacing=not ruleset.runs_may_touch or bool(ruleset.same_suit_run_gap),
        natural_ranks=tuple(rank for rank in range(1, 14) if Rank(rank) not in ruleset.wild_ranks),
        rank_points=tuple(
            ruleset.points(Card(Rank(rank), Suit.SPADES)) if rank else 0 for rank in range(14)
        ),
        card_points=tuple(ruleset.points(card) for card in CARDS),
        set_sizes=set_sizes,
        sets_possible=not exact or all(size >= ruleset.set_min for size in set_sizes),
        sets_absorb_wilds=absorbing,
        run_minimums=run_minimums,
        least_run_lengths=tuple(max(minimum, ruleset.run_min) for minimum in run_minimums),
        trims_run_ends=absorbing and ruleset.runs_may_touch and not ruleset.same_suit_run_gap,
        run_shapes=_run_shapes(spans, wild_at_value),
        shortest_windows=tuple(
            min((high - low + 1 for low, high in windows), default=0) for windows in spans
        ),
        run_wild_caps=_run_wild_caps(ruleset),
    )


def _run_spans(
    ruleset: Ruleset, spec: RoundSpec, run_minimums: tuple[int, ...]
) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every window (low, high) of values each contract run may span.

    May I's twos are no rank at all: no run passes through them. (California's queens stand in
    a run as wild cards for the queen: the window keeps that position for a wild card.)
    """
    lowest = 1 if ruleset.ace_low else 2
    highest = HIGH_ACE if ruleset.ace_high else 13
    dead = [
        bool(value) and rank_of(value) in ruleset.wild_ranks and not ruleset.wild_rank_in_melds
        for value in range(HIGH_ACE + 1)
    ]
    spans = []
    for minimum in run_minimums:
        if spec.exact_minimum:
            lengths = [minimum] if minimum >= ruleset.run_min else []
        else:
            lengths = list(range(max(minimum, ruleset.run_min), 14))
        found = []
        for low in range(lowest, highest + 1):
            for length in lengths:
                high = low + length - 1
                if high > highest or any(dead[value] for value in range(low, high + 1)):
                    break
                found.append((low, high))
        spans.append(tuple(found))
    return tuple(spans)


def _run_shapes(
    spans: tuple[tuple[tuple[int, int], ...], ...], wild_at_value: tuple[bool, ...]
) -> tuple[tuple[RunShape, ...], ...]:
    """Each contract run's windows in every suit; runs with the same windows share one tuple."""
    by_windows: dict[tuple[tuple[int, int], ...], tuple[RunShape, ...]] = {}
    shapes = []
    for windows in spans:
        found = by_windows.get(windows)
        if found is None:
            found = tuple(
                _run_shape(suit, low, high, wild_at_value)
                for suit in range(4)
                for low, high in windows
            )
            by_windows[windows] = found
        shapes.append(found)
    return tuple(shapes)


def _run_shape(suit: int, low: int, high: int, wild_at_value: tuple[bool, ...]) -> RunShape:
    length = high - low + 1
    cards = tuple(run_card(suit, value) for value in range(low, high + 1))
    wild_only = sum(1 << position for position in range(length) if wild_at_value[low + position])
    return RunShape(suit, low, high, length, cards, wild_only, every_position(length) & ~wild_only)


def _run_wild_caps(ruleset: Ruleset) -> tuple[int, ...]:
    """The most wild cards a run of each length (0-14) may hold, whatever their places."""
    caps = [0]
    for length in range(1, HIGH_ACE + 1):
        most = length - ruleset.run_min_naturals
        if ruleset.wilds_at_most_naturals:
            most = min(most, length // 2)
        if ruleset.run_wilds_per_cards is not None:
            most = min(most, length // ruleset.run_wilds_per_cards)
        caps.append(most)
    return tuple(caps)
