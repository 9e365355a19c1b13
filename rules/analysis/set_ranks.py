"""Phase 3 of the search: the ranks of the sets, and which run naturals of those ranks go to a
set instead (the run then takes a wild card, or lacks the card, there).

A set is one rank, and suits do not matter to it: only how many naturals of its rank it
takes. The contract sets laid on one rank are handled together as a :class:`SetGroup`; they
take every natural of their rank the runs leave (an exact-minimum set, up to its size), so
the choices left are the ranks and the run naturals given up. This module also shares a
group's naturals and wild cards among its sets once an arrangement is chosen.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.cards import Card

from .bitmasks import CARDS, RANK_CARDS, RANK_OF, positions

if TYPE_CHECKING:
    from .round_rules import RoundRules
    from .search import Search
    from .windows import Run


@dataclass(slots=True)
class SetGroup:
    """The contract sets laid on one rank, handled together: only counts matter to them."""

    rank: int
    #: Each set's size (at least), largest first.
    sizes: tuple[int, ...]
    #: The sizes' sum.
    total: int
    #: Fewest naturals the sets need together.
    least_naturals: int
    #: What a natural of the rank costs.
    points: int


@dataclass(slots=True)
class SetPlan:
    """A choice of rank for each contract set, with what it adds to the search's bounds."""

    ranks: tuple[int, ...]
    #: Gaps the sets leave beside the runs' naturals.
    gaps: int
    #: Cards not held the sets lack however many wild cards there are.
    lacking: int
    #: Sets short of some.
    broken: int
    #: The least penalty the whole arrangement could leave.
    left: int


def plan_set_ranks(
    search: Search,
    runs: list[Run],
    naturals: list[int],
    by_rank: list[int],
    in_runs: list[int],
    run_points: int,
) -> list[SetPlan] | None:
    """Every choice of the sets' ranks that could still matter for these windows.

    ``by_rank`` is the naturals of each rank the runs leave, ``in_runs`` those they lay. None
    when the contract has no sets.
    """
    rules = search.rules
    if not rules.set_sizes:
        return None
    eligible = search.eligible_set_ranks(by_rank, in_runs)
    if not eligible:
        return []
    # Runs at their best: every copy they cover, as few cards not held as may be. (Their gaps
    # are counted against every copy they cover, not only the held ones.)
    _, run_lacking, run_broken = search.run_shortfall(runs, naturals)
    planner = _Planner(
        search,
        eligible,
        by_rank,
        in_runs,
        run_gaps=sum(run.length for run in runs) - sum(in_runs),
        run_lacking=run_lacking,
        run_broken=run_broken,
        laid=run_points + search.hand.wild_points[-1],
    )
    planner.assign(0, 0, 0, 0)
    return planner.plans


class _Planner:
    """The choices of :func:`plan_set_ranks`, one set at a time."""

    def __init__(
        self,
        search: Search,
        eligible: list[int],
        by_rank: list[int],
        in_runs: list[int],
        run_gaps: int,
        run_lacking: int,
        run_broken: int,
        laid: int,
    ) -> None:
        self.search = search
        self.rules = search.rules
        self.eligible = eligible
        self.by_rank = by_rank
        self.in_runs = in_runs
        self.run_gaps = run_gaps
        self.run_lacking = run_lacking
        self.run_broken = run_broken
        self.laid = laid
        self.ranks: list[int] = []
        self.plans: list[SetPlan] = []

    def assign(self, number: int, gaps: int, lacking: int, broken: int) -> None:
        """Choose the rank of set ``number``, those before it chosen (``self.ranks``)."""
        search = self.search
        sizes = self.rules.set_sizes
        if number == len(sizes):
            self._finish(gaps, lacking, broken)
            return
        start = 0
        if number and sizes[number] == sizes[number - 1]:
            # Sets of one size are interchangeable: ranks from the one before's on.
            start = self.eligible.index(self.ranks[-1])
        size = sizes[number]
        wilds = search.hand.wilds
        rules = self.rules
        for rank in self.eligible[start:]:
            # Short of naturals: at best the runs give up every one of the rank.
            set_lacking = rules.set_lacking(size, self.by_rank[rank] + self.in_runs[rank])
            new_lacking = lacking + set_lacking
            new_broken = broken + (set_lacking > 0)
            # Gaps: a natural a run gives up leaves a gap in the run instead, so the total is
            # what the sets lack beside the runs' naturals.
            new_gaps = gaps + max(0, size - self.by_rank[rank])
            missing = max(self.run_lacking + new_lacking, self.run_gaps + new_gaps - wilds)
            if missing > search.budget:
                continue
            self.ranks.append(rank)
            self.assign(number + 1, new_gaps, new_lacking, new_broken)
            self.ranks.pop()

    def _finish(self, gaps: int, lacking: int, broken: int) -> None:
        search = self.search
        rules = self.rules
        set_points = sum(rules.rank_points[rank] * self.by_rank[rank] for rank in set(self.ranks))
        left = search.hand.total_points - self.laid - set_points
        if search.best_key is not None:
            total_gaps = self.run_gaps + gaps
            missing = max(self.run_lacking + lacking, total_gaps - search.hand.wilds)
            if search.beaten(missing, self.run_broken + broken, left, total_gaps):
                return
        self.plans.append(SetPlan(tuple(self.ranks), gaps, lacking, broken, left))


def try_set_ranks(
    search: Search,
    runs: list[Run],
    naturals: list[int],
    by_rank: list[int],
    plans: list[SetPlan] | None,
) -> None:
    """One sharing of contested copies: each planned choice of set ranks, then releases."""
    if plans is None:
        search.leaf(runs, naturals, [], by_rank)
        return
    run_gaps, run_lacking, run_broken = search.run_shortfall(runs, naturals)
    releasable = releasable_naturals(runs, naturals)
    suspects = search.suspects(runs, naturals, releasable)
    for plan in plans:
        if search.stop:
            return
        if plan.ranks in search.done:
            continue
        missing = max(run_lacking + plan.lacking, run_gaps + plan.gaps - search.hand.wilds)
        if missing > search.budget:
            continue
        if search.plan_hopeless(plan, missing, run_broken, run_gaps, by_rank, suspects):
            continue
        search.settled = False
        give_up_naturals(search, runs, naturals, plan.ranks, by_rank, releasable)
        if search.settled:
            search.done.add(plan.ranks)


def releasable_naturals(runs: list[Run], naturals: list[int]) -> list[list[tuple[int, int]]]:
    """By rank, the run naturals (run, position) that could go to a set instead."""
    releasable: list[list[tuple[int, int]]] = [[] for _ in range(14)]
    for number, (run, mask) in enumerate(zip(runs, naturals, strict=True)):
        for position in positions(mask):
            releasable[RANK_OF[run.cards[position]]].append((number, position))
    return releasable


def set_groups(rules: RoundRules, ranks: tuple[int, ...]) -> list[SetGroup]:
    """The contract sets, by the rank each is laid on, as groups."""
    sizes_by_rank: dict[int, list[int]] = {}
    for rank, size in zip(ranks, rules.set_sizes, strict=True):
        sizes_by_rank.setdefault(rank, []).append(size)
    return [
        SetGroup(
            rank,
            tuple(sizes),
            sum(sizes),
            sum(rules.least_set_naturals(size) for size in sizes),
            rules.rank_points[rank],
        )
        for rank, sizes in sizes_by_rank.items()
    ]


def give_up_naturals(
    search: Search,
    runs: list[Run],
    naturals: list[int],
    ranks: tuple[int, ...],
    by_rank: list[int],
    releasable: list[list[tuple[int, int]]],
) -> None:
    """Each choice of run naturals given up to the sets of ``ranks``, then to the leaf."""
    groups = set_groups(search.rules, ranks)
    # For each group: the run naturals it could take, and how many at most.
    offers: list[tuple[list[tuple[int, int]], int]] = []
    for group in groups:
        entries = releasable[group.rank]
        most = search.most_given_up(group, len(entries), by_rank)
        if entries and most > 0:
            offers.append((entries, min(most, len(entries))))
    if not offers:
        search.leaf(runs, naturals, groups, by_rank)
        return
    choices = [
        [chosen for size in range(most + 1) for chosen in itertools.combinations(entries, size)]
        for entries, most in offers
    ]
    for given_up in itertools.product(*choices):
        new_naturals = list(naturals)
        new_by_rank = list(by_rank)
        for chosen in given_up:
            for number, position in chosen:
                new_naturals[number] &= ~(1 << position)
                new_by_rank[RANK_OF[runs[number].cards[position]]] += 1
        search.leaf(runs, new_naturals, groups, new_by_rank)
        if search.stop or search.settled:
            return


# --- sharing a group among its sets ----------------------------------------------------------


def every_sharing(naturals: int, sizes: tuple[int, ...], exact: bool) -> list[tuple[int, ...]]:
    """Every way to share ``naturals`` among sets of these sizes (none over its size if
    ``exact``)."""
    if len(sizes) == 1:
        return [(naturals,)] if not exact or naturals <= sizes[0] else []
    found = []
    top = min(naturals, sizes[0]) if exact else naturals
    for first in range(top, -1, -1):
        for rest in every_sharing(naturals - first, sizes[1:], exact):
            # Sets of one size are interchangeable: list each sharing once.
            if sizes[1] == sizes[0] and rest[0] > first:
                continue
            found.append((first, *rest))
    return found


def share_naturals(naturals: int, sizes: tuple[int, ...], rules: RoundRules) -> list[int]:
    """Share ``naturals`` among sets of one rank: fewest naturals each first, then sizes."""
    shares = [min(rules.least_set_naturals(size), size) for size in sizes]
    rest = naturals - sum(shares)
    if rest < 0:
        # Not enough for every set's fewest: fill them in turn.
        shares = []
        rest = naturals
        for size in sizes:
            take = min(rest, size)
            shares.append(take)
            rest -= take
        if rest:
            shares[0] += rest
        return shares
    for number, size in enumerate(sizes):
        take = min(rest, size - shares[number])
        shares[number] += take
        rest -= take
    shares[0] += rest
    return shares


def share_wilds(
    shares: list[int], sizes: tuple[int, ...], wilds: int, rules: RoundRules
) -> list[int]:
    """Share ``wilds`` wild cards among sets of one rank: gaps to the size first."""
    taken = [max(0, size - naturals) for naturals, size in zip(shares, sizes, strict=True)]
    rest = wilds - sum(taken)
    for number, naturals in enumerate(shares):
        if rest <= 0:
            break
        if rules.exact_minimum:
            room = 0
        elif rules.wilds_at_most_naturals:
            room = naturals - taken[number]
        else:
            room = rest
        take = min(rest, max(room, 0))
        taken[number] += take
        rest -= take
    if rest > 0:  # pragma: no cover - the search only adds what fits
        raise AssertionError("wild cards left over in a set group")
    return taken


def take_naturals(pool: list[int], rank: int, count: int) -> list[Card]:
    """``count`` naturals of ``rank`` from ``pool`` (copies left, by card index), suit by suit."""
    taken: list[Card] = []
    for card in RANK_CARDS[rank]:
        take = min(pool[card], count - len(taken))
        taken.extend([CARDS[card]] * take)
        pool[card] -= take
    return taken
