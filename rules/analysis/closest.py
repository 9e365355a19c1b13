"""The second question: the nearest the hand comes to the contract, when it cannot lay it.

The closest arrangement is the one of the round's contract melds, filled from the hand plus
cards not held, that needs the fewest cards not held; then completes the most melds; then, as
for a laid contract, leaves the lowest penalty, lays the fewest wild cards, the most cards. It
looks at the melds only (the going-out rules are left aside). :func:`closest_arrangement`
deepens on the number of cards not held: the first budget with any arrangement holds the
closest.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from typing import ClassVar

from rules.cards import Card, Rank
from rules.checks import penalty

from .bitmasks import CARDS, RANK_CARDS, every_position, positions
from .hand import Hand, Key
from .results import Closest, PartialMeld
from .search import PartialSearch, SetGroup, every_sharing, rest_bounds, take_naturals
from .windows import Run, RunOrder

#: A meld's gaps, and how many of them wild cards may fill.
_Gaps = tuple[int, int]
#: A set group and how its naturals are shared among its sets.
_SetShares = tuple[SetGroup, tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class _Detail:
    """What the closest arrangement is made of, to spell out as cards at the end."""

    #: Each run window, its natural positions, and the positions its wild cards take.
    runs: list[tuple[Run, int, int]]
    #: Each set group, its naturals shared among its sets, and spare wild cards added.
    sets: list[tuple[SetGroup, tuple[int, ...], int]]
    #: Wild cards filling each set's gap to its size, in order.
    set_wilds: list[int]
    #: Wild cards laid in all.
    wilds: int


class ClosestSearch(PartialSearch):
    """The closest arrangement within ``budget`` cards not held."""

    going_out_rules: ClassVar[bool] = False
    run_order: ClassVar[RunOrder] = RunOrder.MOST_HELD_FIRST
    extra_cards: ClassVar[int] = 0

    def __init__(self, hand: Hand, budget: int) -> None:
        super().__init__(hand, budget)
        self.detail: _Detail | None = None
        # The best key this search could find: the deepening has ruled out fewer cards not
        # held; with some missing, one meld at least is incomplete, and only melds the hand
        # (and its wild cards) can fill alone can be complete; nothing left in hand.
        self.best_possible: Key | None = None
        if hand.best_possible is not None:
            fillable = (
                len(self.rules.set_sizes)
                - self.sets_broken
                + sum(
                    1
                    for options in self.options
                    if any(not run.lacking and run.gaps <= hand.wilds for run in options)
                )
            )
            complete = min(self.melds - (budget > 0), fillable)
            self.best_possible = (budget, -complete, 0, hand.wilds, -hand.size)

    def beaten(self, missing: int, broken: int, left: int, gaps: int) -> bool:
        best = self.best_key
        assert best is not None
        return (missing, broken - self.melds, left) > best[:3]

    def eligible_set_ranks(self, by_rank: list[int], in_runs: list[int]) -> list[int]:
        hand = self.hand
        natural_ranks = self.rules.natural_ranks
        eligible = [rank for rank in natural_ranks if by_rank[rank] + in_runs[rank] >= 1]
        empty = [
            rank
            for rank in natural_ranks
            if by_rank[rank] + in_runs[rank] == 0 and hand.rank_counts[rank] < 4 * hand.decks
        ]
        if empty:
            # Any rank the hand lacks is as good as another: one stands for them all.
            eligible.append(empty[0])
            eligible.sort()
        return eligible

    def leaf(
        self, runs: list[Run], naturals: list[int], groups: list[SetGroup], by_rank: list[int]
    ) -> None:
        rules = self.rules
        run_gaps: list[_Gaps] = []
        laid_naturals = 0
        laid_points = 0
        for run, mask in zip(runs, naturals, strict=True):
            capacity = rules.gap_wild_capacity(run.run_number, run.length, mask, run.wild_only)
            if capacity < 0:
                return
            gaps = run.length - mask.bit_count()
            run_gaps.append((gaps, min(capacity, gaps)))
            laid_naturals += mask.bit_count()
            for position in positions(mask):
                laid_points += rules.card_points[run.cards[position]]
        # Sets: every natural of the rank, shared among the sets of that rank in every way.
        sharings: list[list[tuple[int, ...]]] = []
        for group in groups:
            taken = rules.set_naturals(group.total, by_rank[group.rank])
            sharings.append(every_sharing(taken, group.sizes, rules.exact_minimum))
            laid_naturals += taken
            laid_points += group.points * taken
        for shares in itertools.product(*sharings):
            set_shares = list(zip(groups, shares, strict=True))
            self._judge(runs, naturals, run_gaps, laid_naturals, laid_points, set_shares)

    def _judge(
        self,
        runs: list[Run],
        naturals: list[int],
        run_gaps: list[_Gaps],
        laid_naturals: int,
        laid_points: int,
        set_shares: list[_SetShares],
    ) -> None:
        """One arrangement: its wild cards placed, then kept if it is the closest yet."""
        rules = self.rules
        hand = self.hand
        melds = list(run_gaps)
        for group, shares in set_shares:
            for size, share in zip(group.sizes, shares, strict=True):
                gaps = max(0, size - share)
                melds.append((gaps, rules.set_wild_capacity(share, gaps)))
        wild_used = min(hand.wilds, sum(capacity for _, capacity in melds))
        missing = sum(gaps for gaps, _ in melds) - wild_used
        if missing > self.budget:
            return
        filled, complete = _fill_gaps(melds, hand.wilds)
        obtainable, run_wilds = self._obtainable(runs, naturals, filled, set_shares)
        if not obtainable:
            return
        added = self._spare_wilds(runs, filled, set_shares, wild_used)
        wilds = wild_used + sum(added)
        left = hand.total_points - laid_points - hand.wild_points[wilds]
        key = (missing, -complete, left, wilds, -(laid_naturals + wilds))
        if self.best_key is not None and key >= self.best_key:
            return
        self.best_key = key
        if key == self.best_possible:
            self.stop = True
        if run_wilds is None:
            run_wilds = self._wild_positions(runs, naturals, filled)
        self.detail = _Detail(
            list(zip(runs, naturals, run_wilds, strict=True)),
            [(group, shares, added[number]) for number, (group, shares) in enumerate(set_shares)],
            filled[len(runs) :],
            wilds,
        )

    def _obtainable(
        self, runs: list[Run], naturals: list[int], filled: list[int], set_shares: list[_SetShares]
    ) -> tuple[bool, list[int] | None]:
        """Whether every missing natural exists beyond the copies held; with the runs' wild
        positions, when they had to be worked out to tell.

        Only where the hand holds nearly every copy does it matter which gaps the wild cards
        fill.
        """
        hand = self.hand
        decks = hand.decks
        counts = hand.counts
        gaps: Counter[int] = Counter()
        for run, mask in zip(runs, naturals, strict=True):
            for position in positions(every_position(run.length) & ~mask & ~run.wild_only):
                gaps[run.cards[position]] += 1
        run_wilds: list[int] | None = None
        missing_cards = gaps
        if any(counts[card] + wanted > decks for card, wanted in gaps.items()):
            run_wilds = self._wild_positions(runs, naturals, filled)
            missing_cards = Counter()
            for run, mask, wild_mask in zip(runs, naturals, run_wilds, strict=True):
                open_positions = every_position(run.length) & ~mask & ~wild_mask & ~run.wild_only
                for position in positions(open_positions):
                    missing_cards[run.cards[position]] += 1
            if any(counts[card] + wanted > decks for card, wanted in missing_cards.items()):
                return False, None
        meld = len(runs)
        for group, shares in set_shares:
            wanted = 0
            for share, size in zip(shares, group.sizes, strict=True):
                wanted += max(0, size - share) - filled[meld]
                meld += 1
            if wanted <= 0:
                continue
            spare = sum(
                decks - counts[card] - missing_cards[card] for card in RANK_CARDS[group.rank]
            )
            if wanted > spare:
                return False, None
        return True, run_wilds

    def _spare_wilds(
        self, runs: list[Run], filled: list[int], set_shares: list[_SetShares], wild_used: int
    ) -> list[int]:
        """Spare wild cards that cost something join sets that take them: how many each
        group takes."""
        rules = self.rules
        hand = self.hand
        idle = hand.wilds - wild_used
        added = [0] * len(set_shares)
        if not idle or rules.exact_minimum or not set_shares:
            return added
        placed = 0
        positive_idle = max(0, min(idle, hand.positive_wilds - wild_used))
        meld = len(runs)
        for number, (group, shares) in enumerate(set_shares):
            if not rules.wilds_at_most_naturals:
                room = positive_idle
            else:
                # Missing cards count as naturals: they are what a player would draw.
                room = 0
                for share, size in zip(shares, group.sizes, strict=True):
                    gaps = max(0, size - share)
                    wilds = filled[meld]
                    room += share + (gaps - wilds) - wilds
                    meld += 1
            take = min(room, positive_idle - placed)
            added[number] = max(take, 0)
            placed += added[number]
        return added

    def _wild_positions(self, runs: list[Run], naturals: list[int], filled: list[int]) -> list[int]:
        rules = self.rules
        return [
            rules.wild_positions(run.run_number, run.length, mask, run.wild_only, filled[number])
            for number, (run, mask) in enumerate(zip(runs, naturals, strict=True))
        ]


def _fill_gaps(melds: list[_Gaps], wilds: int) -> tuple[list[int], int]:
    """Wild cards for each meld's gaps: complete as many melds as they allow, smallest gaps
    first, then the rest wherever they may go. Returns each meld's and the melds complete."""
    order = sorted(range(len(melds)), key=lambda meld: (melds[meld][0], meld))
    filled = [0] * len(melds)
    supply = wilds
    complete = 0
    for meld in order:
        gaps, capacity = melds[meld]
        if capacity == gaps and gaps <= supply:
            filled[meld] = gaps
            supply -= gaps
            complete += 1
    for meld in order:
        gaps, capacity = melds[meld]
        if filled[meld] < capacity:
            extra = min(capacity - filled[meld], supply)
            filled[meld] += extra
            supply -= extra
    return filled, complete


def closest_arrangement(hand: Hand) -> tuple[Closest | None, int | None]:
    """The closest arrangement and the cards not held it lacks (None, None: there is none).

    The first budgets are cheap searches; past them, the search starts from a lower bound
    (what the melds lack however they share the hand) rather than climbing one at a time.
    """
    limit = hand.rules.spec.contract.min_cards + 13
    budget = 0
    while budget <= limit:
        search = ClosestSearch(hand, budget)
        search.run()
        if search.best_key is not None:
            return _spelled_out(hand, search), search.best_key[0]
        budget += 1
        if budget == 3:
            gaps, lacking = rest_bounds(hand, hand.windows.least_lacking())[0]
            budget = max(budget, lacking, gaps - hand.wilds)
    return None, None


def _spelled_out(hand: Hand, search: ClosestSearch) -> Closest:
    """The closest arrangement as cards: sets first, then runs."""
    detail = search.detail
    assert detail is not None
    wild_cards = iter(hand.wild_cards[: detail.wilds])
    pool = list(hand.counts)
    run_parts: list[PartialMeld] = []
    for run, mask, wild_mask in detail.runs:
        cards: list[Card] = []
        missing: list[str] = []
        for position in range(run.length):
            index = run.cards[position]
            if (mask >> position) & 1:
                pool[index] -= 1
                cards.append(CARDS[index])
            elif (wild_mask >> position) & 1:
                cards.append(next(wild_cards))
            else:
                missing.append(str(CARDS[index]))
        run_parts.append(PartialMeld("run", tuple(cards), tuple(missing)))
    set_parts: list[PartialMeld] = []
    set_number = 0
    at_most_naturals = hand.rules.wilds_at_most_naturals
    for group, shares, added in detail.sets:
        for share, size in zip(shares, group.sizes, strict=True):
            cards = take_naturals(pool, group.rank, share)
            filled = detail.set_wilds[set_number]
            lacking = max(0, max(0, size - share) - filled)
            # The group's spare wild cards go to its sets in turn, each taking what it has
            # room for: where wild cards may not outnumber naturals, the naturals it holds
            # and the cards it lacks, less the wild cards it has.
            room = max(0, share + lacking - filled) if at_most_naturals else added
            spare = min(added, room)
            added -= spare
            cards.extend(next(wild_cards) for _ in range(filled + spare))
            set_parts.append(PartialMeld("set", tuple(cards), (Rank(group.rank).symbol,) * lacking))
            set_number += 1
    melds = tuple(set_parts + run_parts)
    used: Counter[Card] = Counter(card for meld in melds for card in meld.cards)
    remaining: list[Card] = []
    for card in hand.cards:
        if used[card]:
            used[card] -= 1
        else:
            remaining.append(card)
    return Closest(
        melds=melds,
        missing=sum(len(meld.missing) for meld in melds),
        complete=sum(1 for meld in melds if meld.complete),
        remaining=tuple(remaining),
        penalty=penalty(hand.rules.ruleset, remaining).total,
    )
