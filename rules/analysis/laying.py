"""The first question: the best way to lay the contract from the hand, going-out rules included.

Best is the arrangement that leaves the lowest penalty in hand, then lays the fewest wild
cards, then lays the most cards. :class:`LayingSearch` judges each arrangement of naturals the
search reaches (the sets take every natural of their rank, the spare wild cards go where
:mod:`~rules.analysis.placement` says), and :func:`lay_out` spells the best one out as card
lists in an order the contract check reads as intended.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.cards import Card
from rules.choices import MeldType
from rules.melds import plausible_types, read_meld
from rules.ruleset import Ruleset

from .bitmasks import CARDS, positions
from .hand import Hand, Key
from .placement import NOTHING_SPARE, Placement, place_spare_wilds
from .search import Search, SetGroup, share_naturals, share_wilds, take_naturals
from .windows import Run


@dataclass(frozen=True, slots=True)
class BestArrangement:
    """The best arrangement found: each run's naturals, each set group's counts."""

    #: Penalty left, wild cards laid, minus cards laid.
    key: Key
    #: Each run window and the positions of its naturals.
    runs: list[tuple[Run, int]]
    #: Each set group, its naturals and its wild cards.
    groups: list[tuple[SetGroup, int, int]]
    #: Wild cards laid in all.
    wilds: int


class LayingSearch(Search):
    """The best arrangement: every card laid is held, the going-out rules hold."""

    going_out_rules: ClassVar[bool] = True

    def __init__(self, hand: Hand) -> None:
        super().__init__(hand)
        self.best: BestArrangement | None = None

    def run_options(self) -> list[list[Run]]:
        return self.hand.windows.laying_runs()

    def beaten(self, missing: int, broken: int, left: int, gaps: int) -> bool:
        best = self.best_key
        assert best is not None
        return (left, gaps) > (best[0], best[1])

    def runs_legal(self, runs: list[Run], naturals: list[int]) -> bool:
        rules = self.rules
        return all(
            rules.run_is_legal(run.length, mask) for run, mask in zip(runs, naturals, strict=True)
        )

    def run_shortfall(self, runs: list[Run], naturals: list[int]) -> tuple[int, int, int]:
        gaps = sum(run.length - mask.bit_count() for run, mask in zip(runs, naturals, strict=True))
        return gaps, 0, 0

    def eligible_set_ranks(self, by_rank: list[int], in_runs: list[int]) -> list[int]:
        rules = self.rules
        return [
            rank
            for rank in rules.natural_ranks
            if by_rank[rank] + in_runs[rank] >= rules.set_min_naturals
        ]

    def most_given_up(self, group: SetGroup, offered: int, by_rank: list[int]) -> int:
        if self.rules.sets_absorb_wilds:
            # A set that takes any wild card gains nothing from a run's natural but legality:
            # give up only as many as its fewest naturals need.
            return group.least_naturals - by_rank[group.rank]
        return super().most_given_up(group, offered, by_rank)

    def run(self) -> None:
        if all(self.options):
            super().run()

    # -- the leaf --

    def leaf(
        self, runs: list[Run], naturals: list[int], groups: list[SetGroup], by_rank: list[int]
    ) -> None:
        rules = self.rules
        run_wilds = run_naturals = run_points = 0
        card_points = rules.card_points
        for run, mask in zip(runs, naturals, strict=True):
            if not rules.run_is_legal(run.length, mask):
                return
            run_wilds += run.length - mask.bit_count()
            run_naturals += mask.bit_count()
            for position in positions(mask):
                run_points += card_points[run.cards[position]]
        if run_wilds > self.hand.wilds:
            return
        # Sets take every natural of their rank (exact rounds: up to their size); with a card
        # to keep back, one natural fewer in one group is the other candidate.
        set_naturals: list[int] = []
        for group in groups:
            taken = rules.set_naturals(group.total, by_rank[group.rank])
            if taken < group.least_naturals:
                return
            set_naturals.append(taken)
        variants = [set_naturals]
        if rules.keeps_a_discard and not rules.exact_minimum:
            for number, group in enumerate(groups):
                if set_naturals[number] - 1 >= group.least_naturals:
                    variant = list(set_naturals)
                    variant[number] -= 1
                    variants.append(variant)
        laid = _Laid(run_wilds, run_naturals, run_points)
        for number, variant in enumerate(variants):
            self._judge(runs, naturals, groups, variant, laid, every_natural=number == 0)

    def _judge(
        self,
        runs: list[Run],
        naturals: list[int],
        groups: list[SetGroup],
        set_naturals: list[int],
        laid: _Laid,
        every_natural: bool,
    ) -> None:
        """One arrangement: its spare wild cards placed, then kept if it is the best yet."""
        rules = self.rules
        hand = self.hand
        set_wilds = [
            max(0, group.total - taken) for group, taken in zip(groups, set_naturals, strict=True)
        ]
        used = laid.run_wilds + sum(set_wilds)
        if used > hand.wilds:
            return
        laid_naturals = laid.run_naturals + sum(set_naturals)
        laid_points = laid.run_points + sum(
            group.points * taken for group, taken in zip(groups, set_naturals, strict=True)
        )
        idle = hand.wilds - used
        naturals_left = hand.naturals - laid_naturals
        placement: Placement | None
        if idle == 0:
            placement = NOTHING_SPARE
        elif rules.sets_absorb_wilds and not rules.whole_hand:
            # Any set takes the spare wild cards that cost something (a free one might as
            # well stay in hand) — unless that leaves nothing to discard.
            added = max(0, min(idle, hand.positive_wilds - used))
            placement = Placement(added, added, 0, [], [])
            if rules.keeps_a_discard and naturals_left + idle - added == 0:
                placement = place_spare_wilds(
                    hand, runs, naturals, groups, set_naturals, set_wilds, used, naturals_left
                )
        else:
            placement = place_spare_wilds(
                hand, runs, naturals, groups, set_naturals, set_wilds, used, naturals_left
            )
        if placement is None:
            return
        spare_points = hand.wild_points[used + placement.wilds] - hand.wild_points[used]
        left = (
            hand.total_points
            - laid_points
            - hand.wild_points[used]
            - spare_points
            + placement.given_back
        )
        cards = laid_naturals + used + placement.added
        left_count = hand.size - cards
        if (rules.whole_hand and left_count) or (rules.keeps_a_discard and not left_count):
            return
        if every_natural and rules.sets_absorb_wilds and not rules.whole_hand:
            if used <= hand.positive_wilds and not placement.run_naturals:
                if not rules.keeps_a_discard or left_count > 1 or idle > placement.added:
                    # Where sets soak up every spare wild card, any other sharing of contested
                    # copies or run naturals given to these sets lays the same cards and as
                    # many wild cards: the same key. No need to look at them.
                    self.settled = True
        key = (left, used + placement.wilds, -cards)
        if self.best_key is not None and key >= self.best_key:
            return
        if key == self.hand.best_possible:
            # Nothing can beat it: stop the search.
            self.stop = True
        self._keep(key, runs, naturals, groups, set_naturals, set_wilds, placement, used)

    def _keep(
        self,
        key: Key,
        runs: list[Run],
        naturals: list[int],
        groups: list[SetGroup],
        set_naturals: list[int],
        set_wilds: list[int],
        placement: Placement,
        used: int,
    ) -> None:
        final_naturals = placement.run_naturals or naturals
        final_groups: list[tuple[SetGroup, int, int]] = []
        for number, group in enumerate(groups):
            taken = set_naturals[number]
            wilds = set_wilds[number]
            if placement.set_moves:
                swapped, added = placement.set_moves[number]
                taken -= swapped
                wilds += swapped + added
            elif placement.added and number == 0:
                # Any set of a ruleset whose sets absorb wild cards takes the spare ones.
                wilds += placement.added
            final_groups.append((group, taken, wilds))
        self.best_key = key
        self.best = BestArrangement(
            key,
            list(zip(runs, final_naturals, strict=True)),
            final_groups,
            used + placement.wilds,
        )


@dataclass(slots=True)
class _Laid:
    """What an arrangement's runs lay: wild cards, naturals, and the naturals' points."""

    run_wilds: int
    run_naturals: int
    run_points: int


def lay_out(hand: Hand, best: BestArrangement) -> list[list[Card]]:
    """Cards for the best arrangement, in an order the contract check reads as intended."""
    rules = hand.rules
    wild_cards = iter(hand.wild_cards[: best.wilds])
    pool = list(hand.counts)
    typed: list[tuple[MeldType, list[Card]]] = []
    for run, mask in best.runs:
        cards: list[Card] = []
        for position in range(run.length):
            if (mask >> position) & 1:
                card = run.cards[position]
                pool[card] -= 1
                cards.append(CARDS[card])
            else:
                cards.append(next(wild_cards))
        typed.append(("run", cards))
    set_melds: list[tuple[MeldType, list[Card]]] = []
    for group, taken, wilds in best.groups:
        naturals = take_naturals(pool, group.rank, taken)
        shares = share_naturals(taken, group.sizes, rules)
        start = 0
        for share, wild_share in zip(
            shares, share_wilds(shares, group.sizes, wilds, rules), strict=True
        ):
            meld = naturals[start : start + share] + [next(wild_cards) for _ in range(wild_share)]
            start += share
            set_melds.append(("set", meld))
    return _table_order(rules.ruleset, set_melds + typed)


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
