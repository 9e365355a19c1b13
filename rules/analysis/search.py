"""The depth-first search the three questions share, and its first phase: choosing windows.

:class:`Search` chooses one window for each contract run (phase 1, here), shares out the copies
of a card that two windows both want (phase 2, :mod:`~rules.analysis.contested`), chooses the
sets' ranks and the run naturals given up to them (phase 3, :mod:`~rules.analysis.set_ranks`),
and hands each resulting arrangement of naturals to its question's :meth:`Search.leaf`, which
places the wild cards (phase 4). The questions are its subclasses — the best arrangement
(:mod:`~rules.analysis.laying`), the closest partial one (:mod:`~rules.analysis.closest`), the
cards that would complete one (:mod:`~rules.analysis.needs`) — and differ in what an
arrangement may lack, how one is judged better, and which bound prunes a branch.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from dataclasses import dataclass
from typing import ClassVar

from .bitmasks import CARD_COUNT, RANK_OF, every_position, positions
from .contested import share_contested_copies
from .hand import Hand, Key
from .set_ranks import SetGroup, SetPlan
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
            share_contested_copies(self, chosen)
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
