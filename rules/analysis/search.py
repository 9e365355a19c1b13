"""The depth-first search the three questions share: windows, contested copies, set ranks.

:class:`Search` goes in phases, each a level of its depth-first search:

1. A window for each contract run (:mod:`~rules.analysis.windows` lists them).
2. Who gets a card that two chosen windows both cover but the hand holds too few copies of:
   every way of sharing those copies is tried, and the window that goes without one takes a
   wild card (or, where the question allows it, a card not held) there instead. Which window
   gets a copy changes neither what the sets have to work with nor how many cards are laid,
   so the sets' choices are worked out once for the windows and tried for each sharing.
3. The ranks of the sets, and which run naturals of those ranks go to a set instead (the run
   then takes a wild card, or lacks the card, there). A set is one rank, and suits do not
   matter to it: only how many naturals of its rank it takes. The contract sets laid on one
   rank are handled together as a :class:`SetGroup`; they take every natural of their rank the
   runs leave (an exact-minimum set, up to its size), so the choices left are the ranks and
   the run naturals given up.

Each arrangement of naturals the phases reach goes to its question's :meth:`Search.leaf`,
which places the wild cards (phase 4). The questions are its subclasses — the best
arrangement (:mod:`~rules.analysis.laying`), the closest partial one
(:mod:`~rules.analysis.closest`), the cards that would complete one
(:mod:`~rules.analysis.needs`) — and differ in what an arrangement may lack, how one is judged
better, and which bound prunes a branch. The module ends with how a group's naturals and wild
cards are shared among its sets once an arrangement is chosen.
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from collections import Counter
from dataclasses import dataclass
from typing import ClassVar

from rules.cards import Card

from .bitmasks import CARD_COUNT, CARDS, RANK_CARDS, RANK_OF, every_position, positions
from .hand import Hand, Key
from .round_rules import RoundRules
from .windows import Run, RunOrder


@dataclass(slots=True)
class Suspects:
    """Needs, the runs' side: cards an arrangement could be short of (see ``needs``)."""

    #: The runs that cannot be legal on wild cards alone, each with the cards that could
    #: complete it.
    run_shorts: list[list[int]]
    #: Whether every card the other runs could take is already known.
    runs_known: bool
    #: By rank, the run naturals that could go to a set (a gap in the run if they do).
    released: list[list[int]]


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


def rest_bounds(hand: Hand, least: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """For each contract run, the fewest gaps (and cards not held) of it and all after it.

    ``least`` is each run's own fewest of each. The sets count too, each at the hand's best
    rank as if the runs took nothing. (A set too short of naturals for wild cards to fill it
    lacks cards not held: the best arrangement, which may lack none, stops there.)
    """
    rules = hand.rules
    best_rank = max((hand.rank_counts[rank] for rank in rules.natural_ranks), default=0)
    set_gaps = set_lacking = 0
    for size in rules.set_sizes:
        naturals = min(best_rank, size)
        set_gaps += size - naturals
        set_lacking += rules.set_lacking(size, naturals)
    rest = [(set_gaps, set_lacking)]
    for gaps, lacking in reversed(least):
        rest.append((rest[-1][0] + gaps, rest[-1][1] + lacking))
    rest.reverse()
    return rest


class Search(ABC):
    """One depth-first search of one hand over windows, sharings, set ranks and wild cards."""

    #: Whether the going-out rules (a card left to discard, a whole-hand round using every
    #: card) bind the arrangements this question looks at.
    going_out_rules: ClassVar[bool]

    def __init__(self, hand: Hand, budget: int = 0) -> None:
        rules = hand.rules
        self.hand = hand
        self.rules = rules
        #: Cards not held the arrangements may lack (0 when laying).
        self.budget = budget
        #: The key of the best arrangement found (laying and closest).
        self.best_key: Key | None = None
        #: Set when nothing could beat what is found: every branch returns.
        self.stop = False
        self.options = self.run_options()
        least = [
            (
                min((run.gaps for run in options), default=0),
                min((run.lacking for run in options), default=0),
            )
            for options in self.options
        ]
        #: For each contract run, the fewest gaps and cards not held of it and all after it.
        self.rest = rest_bounds(hand, least)
        self.melds = len(rules.run_minimums) + len(rules.set_sizes)
        #: Copies of each card the chosen windows ask for.
        self.demand = [0] * CARD_COUNT
        #: Set ranks settled for the current windows (see ``settled``).
        self.done: set[tuple[int, ...]] = set()
        #: Set by a leaf when every other sharing of these windows would give the same key.
        self.settled = False
        #: Copies of each rank the current windows lay.
        self.in_runs = [0] * 14
        self.rest_points = self._rest_points()
        # Sets that no rank of the hand has naturals enough for: never complete.
        most = max((hand.rank_counts[rank] for rank in rules.natural_ranks), default=0)
        self.sets_broken = sum(
            1 for size in rules.set_sizes if most < rules.least_set_naturals(size)
        )

    # -- what each question decides --

    @abstractmethod
    def run_options(self) -> list[list[Run]]:
        """Each contract run's windows this search may use, in the order it tries them."""

    @abstractmethod
    def beaten(self, missing: int, broken: int, left: int, gaps: int) -> bool:
        """Whether arrangements this good at best (cards not held, melds short of some,
        penalty left, gaps) cannot beat the best one found, which there is."""

    @abstractmethod
    def runs_legal(self, runs: list[Run], naturals: list[int]) -> bool:
        """Whether every run can still be legal with these naturals (releases to sets only
        take naturals away)."""

    @abstractmethod
    def eligible_set_ranks(self, by_rank: list[int], in_runs: list[int]) -> list[int]:
        """The ranks a set may take, given the naturals of each rank left and in the runs."""

    @abstractmethod
    def leaf(
        self, runs: list[Run], naturals: list[int], groups: list[SetGroup], by_rank: list[int]
    ) -> None:
        """One arrangement of naturals: place the wild cards and judge it."""

    def run_shortfall(self, runs: list[Run], naturals: list[int]) -> tuple[int, int, int]:
        """Gaps, cards not held however many wild cards, and runs that lack some."""
        rules = self.rules
        gaps = lacking = broken = 0
        for run, mask in zip(runs, naturals, strict=True):
            run_gaps = run.length - mask.bit_count()
            gaps += run_gaps
            capacity = rules.gap_wild_capacity(run.run_number, run.length, mask, run.wild_only)
            if run_gaps > capacity:
                lacking += run_gaps - capacity
                broken += 1
        return gaps, lacking, broken

    def most_given_up(self, group: SetGroup, offered: int, by_rank: list[int]) -> int:
        """The most run naturals worth giving up to a group of sets, of ``offered``."""
        rules = self.rules
        if rules.wilds_at_most_naturals and not rules.exact_minimum:
            # Each natural more makes room for one more wild card.
            return offered
        # A set full to its size has no use for another natural (an exact set cannot take
        # it; a longer one would only hold what a run needed).
        return group.total - by_rank[group.rank]

    def windows_hopeless(
        self,
        runs: list[Run],
        naturals: list[int],
        loose: list[int],
        by_rank: list[int],
        in_runs: list[int],
    ) -> bool:
        """Whether nothing these windows lead to can matter, with any sets at all."""
        return False

    def sharings_hopeless(
        self,
        runs: list[Run],
        naturals: list[int],
        loose: list[int],
        by_rank: list[int],
        plans: list[SetPlan],
    ) -> bool:
        """Whether no sharing of the contested copies (``loose``) can matter."""
        return False

    def suspects(
        self, runs: list[Run], naturals: list[int], releasable: list[list[tuple[int, int]]]
    ) -> Suspects | None:
        """Needs: what the runs of one sharing could be short of; None for other questions."""
        return None

    def plan_hopeless(
        self,
        plan: SetPlan,
        missing: int,
        run_broken: int,
        run_gaps: int,
        by_rank: list[int],
        suspects: Suspects | None,
    ) -> bool:
        """Whether one choice of set ranks, for one sharing, cannot matter."""
        if self.best_key is None:
            return False
        return self.beaten(missing, run_broken + plan.broken, plan.left, run_gaps + plan.gaps)

    # -- bounds --

    def _rest_points(self) -> list[int]:
        """For each contract run, the most points it and the melds after it could lay, wild
        cards too."""
        hand = self.hand
        rules = self.rules
        by_rank = sorted(
            (rules.rank_points[rank] * hand.rank_counts[rank] for rank in rules.natural_ranks),
            reverse=True,
        )
        sets = sum(by_rank[: len(rules.set_sizes)])
        rest = [sets + hand.wild_points[-1]]
        for options in reversed(self.options):
            rest.append(rest[-1] + max((run.points for run in options), default=0))
        rest.reverse()
        return rest

    # -- phase 1: a window for each contract run --

    def run(self) -> None:
        if self.rules.sets_possible:
            self._choose_window(0, [], 0, 0, 0, 0)

    def _choose_window(
        self, run_number: int, chosen: list[Run], gaps: int, lacking: int, broken: int, points: int
    ) -> None:
        """Try each window for contract run ``run_number``, the ones before it chosen.

        ``gaps``, ``lacking``, ``broken`` and ``points`` are the chosen windows' gaps, cards not
        held, runs short of some, and points of naturals laid.
        """
        if self.stop:
            return
        rules = self.rules
        if run_number == len(self.options):
            self._share_contested_copies(chosen)
            return
        rest_gaps, rest_lacking = self.rest[run_number + 1]
        limit = self.budget + self.hand.wilds - rest_gaps
        slack = self.budget - lacking - rest_lacking
        if slack < 0:
            return
        candidates = self.options[run_number]
        if run_number and rules.run_minimums[run_number] == rules.run_minimums[run_number - 1]:
            # Runs of one minimum are interchangeable: this one from the window of the one
            # before on. Both lists keep the same windows by the same order numbers (see
            # ``HandWindows.run``), so this finds that window here (or the next one kept).
            start = chosen[-1].order
            candidates = [run for run in candidates if run.order >= start]
        spacing = rules.runs_need_spacing
        demand = self.demand
        for run in candidates:
            new_gaps = gaps + run.gaps
            if new_gaps > limit or run.lacking > slack:
                continue
            # A card this window shares with earlier ones, held too few times for all: one
            # of them takes a wild card (or a card not held) there instead.
            new_points = points
            for card in run.held_cards:
                if demand[card] >= self.hand.counts[card]:
                    new_gaps += 1
                else:
                    new_points += rules.card_points[card]
            if new_gaps > limit or (spacing and not self._spaced(chosen, run)):
                continue
            new_lacking = lacking + run.lacking
            new_broken = broken + (run.lacking > 0)
            chosen.append(run)
            for card in run.held_cards:
                demand[card] += 1
            if self._promising(chosen, run_number, new_gaps, new_lacking, new_broken, new_points):
                self._choose_window(
                    run_number + 1, chosen, new_gaps, new_lacking, new_broken, new_points
                )
            chosen.pop()
            for card in run.held_cards:
                demand[card] -= 1
            if self.stop:
                return

    def _spaced(self, chosen: list[Run], run: Run) -> bool:
        """Whether ``run`` keeps its distance from the chosen runs of its suit."""
        rules = self.rules
        return all(
            other.suit != run.suit
            or rules.runs_spaced((other.low, other.high), (run.low, run.high))
            for other in chosen
        )

    def _promising(
        self, chosen: list[Run], run_number: int, gaps: int, lacking: int, broken: int, points: int
    ) -> bool:
        """Whether the windows chosen up to ``run_number`` could still lead anywhere."""
        rules = self.rules
        hand = self.hand
        last = run_number + 1 == len(self.options)
        if last and rules.whole_hand and self.going_out_rules and not self._covers_all(chosen):
            return False
        if self.best_key is None:
            return True
        # The most the arrangement can lay: these windows' naturals, the best of what the
        # other melds could take, every wild card.
        if last:
            rest = self._sets_most() + hand.wild_points[-1]
        else:
            rest = self.rest_points[run_number + 1]
        left = hand.total_points - points - rest
        rest_gaps, rest_lacking = self.rest[run_number + 1]
        missing = max(lacking + rest_lacking, gaps + rest_gaps - hand.wilds)
        return not self.beaten(missing, broken + self.sets_broken, left, gaps + rest_gaps)

    def _sets_most(self) -> int:
        """The most points the sets can add to the chosen windows: the best ranks' other
        naturals. (A run natural given to a set is already counted with the runs.)"""
        rules = self.rules
        if not rules.set_sizes:
            return 0
        hand = self.hand
        left = list(hand.rank_counts)
        demand = self.demand
        for card in range(CARD_COUNT):
            if demand[card]:
                left[RANK_OF[card]] -= min(demand[card], hand.counts[card])
        most = sorted(
            (rules.rank_points[rank] * left[rank] for rank in rules.natural_ranks), reverse=True
        )
        return sum(most[: len(rules.set_sizes)])

    def _covers_all(self, chosen: list[Run]) -> bool:
        """Whole-hand rounds: the naturals no window covers must fit the sets' ranks."""
        covered: Counter[int] = Counter()
        for run in chosen:
            for position in positions(every_position(run.length) & ~run.wild_only):
                covered[run.cards[position]] += 1
        ranks = {
            RANK_OF[card]
            for card, count in enumerate(self.hand.counts)
            if count > covered.get(card, 0)
        }
        return len(ranks) <= len(self.rules.set_sizes)

    # -- phase 2: the copies two windows contest --

    def _share_contested_copies(self, runs: list[Run]) -> None:
        """Every sharing of the copies these windows contest, each then on to the sets."""
        self.done = set()
        counts = self.hand.counts
        #: Each held card the windows cover, with the (run, position) of every window wanting it.
        cover: dict[int, list[tuple[int, int]]] = {}
        for number, run in enumerate(runs):
            for position in positions(run.held):
                cover.setdefault(run.cards[position], []).append((number, position))
        contested = [
            (card, entries) for card, entries in cover.items() if counts[card] < len(entries)
        ]
        held = [run.held for run in runs]
        by_rank = list(self.hand.rank_counts)
        in_runs = [0] * 14
        run_points = 0
        card_points = self.rules.card_points
        for card, entries in cover.items():
            # Each card is laid min(copies, windows) times, whichever windows get the copies.
            laid = min(counts[card], len(entries))
            by_rank[RANK_OF[card]] -= laid
            in_runs[RANK_OF[card]] += laid
            run_points += card_points[card] * laid
        self.in_runs = in_runs
        #: Each run's positions that may lose their natural to another window.
        loose = [0] * len(runs)
        for _, entries in contested:
            for number, position in entries:
                loose[number] |= 1 << position
        if self.windows_hopeless(runs, held, loose, by_rank, in_runs):
            return
        plans = self._plan_set_ranks(runs, held, by_rank, in_runs, run_points)
        if plans is not None and not plans:
            return
        if not contested:
            if self.runs_legal(runs, held):
                self._try_set_ranks(runs, held, by_rank, plans)
            return
        if plans and self.sharings_hopeless(runs, held, loose, by_rank, plans):
            return
        choices = [
            list(itertools.combinations(entries, counts[card])) for card, entries in contested
        ]
        for sharing in itertools.product(*choices):
            naturals = list(held)
            for (_, entries), keep in zip(contested, sharing, strict=True):
                for number, position in entries:
                    if (number, position) not in keep:
                        naturals[number] &= ~(1 << position)
            if self.runs_legal(runs, naturals):
                self._try_set_ranks(runs, naturals, by_rank, plans)
            if self.stop:
                return

    # -- phase 3: the sets' ranks, and the run naturals given up to them --

    def _plan_set_ranks(
        self,
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
        if not self.rules.set_sizes:
            return None
        eligible = self.eligible_set_ranks(by_rank, in_runs)
        if not eligible:
            return []
        # Runs at their best: every copy they cover, as few cards not held as may be. (Their gaps
        # are counted against every copy they cover, not only the held ones.)
        _, run_lacking, run_broken = self.run_shortfall(runs, naturals)
        planner = _Planner(
            self,
            eligible,
            by_rank,
            in_runs,
            run_gaps=sum(run.length for run in runs) - sum(in_runs),
            run_lacking=run_lacking,
            run_broken=run_broken,
            laid=run_points + self.hand.wild_points[-1],
        )
        planner.assign(0, 0, 0, 0)
        return planner.plans

    def _try_set_ranks(
        self,
        runs: list[Run],
        naturals: list[int],
        by_rank: list[int],
        plans: list[SetPlan] | None,
    ) -> None:
        """One sharing of contested copies: each planned choice of set ranks, then releases."""
        if plans is None:
            self.leaf(runs, naturals, [], by_rank)
            return
        run_gaps, run_lacking, run_broken = self.run_shortfall(runs, naturals)
        releasable = releasable_naturals(runs, naturals)
        suspects = self.suspects(runs, naturals, releasable)
        for plan in plans:
            if self.stop:
                return
            if plan.ranks in self.done:
                continue
            missing = max(run_lacking + plan.lacking, run_gaps + plan.gaps - self.hand.wilds)
            if missing > self.budget:
                continue
            if self.plan_hopeless(plan, missing, run_broken, run_gaps, by_rank, suspects):
                continue
            self.settled = False
            self._give_up_naturals(runs, naturals, plan.ranks, by_rank, releasable)
            if self.settled:
                self.done.add(plan.ranks)

    def _give_up_naturals(
        self,
        runs: list[Run],
        naturals: list[int],
        ranks: tuple[int, ...],
        by_rank: list[int],
        releasable: list[list[tuple[int, int]]],
    ) -> None:
        """Each choice of run naturals given up to the sets of ``ranks``, then to the leaf."""
        groups = set_groups(self.rules, ranks)
        # For each group: the run naturals it could take, and how many at most.
        offers: list[tuple[list[tuple[int, int]], int]] = []
        for group in groups:
            entries = releasable[group.rank]
            most = self.most_given_up(group, len(entries), by_rank)
            if entries and most > 0:
                offers.append((entries, min(most, len(entries))))
        if not offers:
            self.leaf(runs, naturals, groups, by_rank)
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
            self.leaf(runs, new_naturals, groups, new_by_rank)
            if self.stop or self.settled:
                return


class _Planner:
    """The choices of :meth:`Search._plan_set_ranks`, one set at a time."""

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


class PartialSearch(Search):
    """A question about arrangements that may lack cards the hand does not hold (up to the
    budget): the closest arrangement, and the cards that would complete one."""

    #: Which windows it tries first.
    run_order: ClassVar[RunOrder]
    #: Cards beside the hand's wild cards that may fill a gap (see ``candidate_runs``).
    extra_cards: ClassVar[int]

    def run_options(self) -> list[list[Run]]:
        return self.hand.windows.candidate_runs(
            self.run_order, self.hand.wilds + self.extra_cards, self.budget
        )

    def runs_legal(self, runs: list[Run], naturals: list[int]) -> bool:
        rules = self.rules
        return all(
            rules.gap_wild_capacity(run.run_number, run.length, mask, run.wild_only) >= 0
            for run, mask in zip(runs, naturals, strict=True)
        )


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


# --- sharing a group among its sets ----------------------------------------------------------


def every_sharing(naturals: int, sizes: tuple[int, ...], exact: bool) -> list[tuple[int, ...]]:
    """Every way to share ``naturals`` among sets of these sizes (none over its size if
    ``exact``), each once: sets of one size are interchangeable.

    >>> every_sharing(5, (3, 3), exact=False)
    [(5, 0), (4, 1), (3, 2)]
    >>> every_sharing(5, (3, 3), exact=True)
    [(3, 2)]
    """
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
