"""The third question: every single card that, drawn, would make the contract layable.

:class:`NeedsSearch` looks at every arrangement short of exactly one card not held, going-out
rules included, and collects the cards that would fill the gap. Most of the work is knowing
when nothing new can turn up: a meld that cannot be legal on wild cards alone must hold the
missing card, so only its cards count, and two such melds leave nothing to find; once every
card an arrangement could be short of is known (found already, or every copy held), it is
skipped, and the search stops when every card that could ever be needed is found.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.cards import DECK, JOKER, Card, Natural
from rules.checks import count_cards

from .bitmasks import CARDS, RANK_CARDS, SUITS, every_position, positions
from .hand import Hand
from .search import PartialSearch, SetGroup, SetPlan, Suspects, releasable_naturals
from .windows import Run, RunOrder

#: Found among the needs: "any wild card" (natural cards are found by their index).
A_WILD_CARD = -1


@dataclass(slots=True)
class _RunGaps:
    """A run of one arrangement, as needs sees it."""

    gaps: int
    #: Whether wild cards in all its gaps make it legal.
    legal_with_wilds: bool
    #: The trimmed end that must be the missing card (see ``trims_run_ends``), if any.
    trimmed: int


class NeedsSearch(PartialSearch):
    """The cards that would complete an arrangement short of exactly one."""

    going_out_rules: ClassVar[bool] = True
    run_order: ClassVar[RunOrder] = RunOrder.FEWEST_GAPS_FIRST
    extra_cards: ClassVar[int] = 1

    def __init__(self, hand: Hand) -> None:
        super().__init__(hand, budget=1)
        #: Cards found (natural indexes, or :data:`A_WILD_CARD`).
        self.found: set[int] = set()
        self.universe = self._universe()

    def _universe(self) -> set[int] | None:
        """Every card that could be needed at all, when that is few enough to check.

        Where no rank of the hand has naturals enough for a set, every set is short of one
        whatever its rank, so the missing card is in the set: a card of a rank the hand holds
        (or any rank, where one natural makes a set).
        """
        rules = self.rules
        hand = self.hand
        if not rules.set_sizes:
            return None
        least = min(rules.least_set_naturals(size) for size in rules.set_sizes)
        if any(hand.rank_counts[rank] >= least for rank in rules.natural_ranks):
            return None
        return {
            card
            for rank in rules.natural_ranks
            if hand.rank_counts[rank] + 1 >= rules.set_min_naturals
            for card in RANK_CARDS[rank]
            if hand.counts[card] < hand.decks
        }

    def known(self, card: int) -> bool:
        """Whether ``card`` is found already, or can never be drawn (every copy held)."""
        return card in self.found or self.hand.counts[card] >= self.hand.decks

    def beaten(self, missing: int, broken: int, left: int, gaps: int) -> bool:
        # Needs keeps no best arrangement: every one short of a card counts.
        return False

    def eligible_set_ranks(self, by_rank: list[int], in_runs: list[int]) -> list[int]:
        rules = self.rules
        return [
            rank
            for rank in rules.natural_ranks
            if by_rank[rank] + in_runs[rank] + 1 >= rules.set_min_naturals
        ]

    # -- knowing when nothing new can turn up --

    def suspects(
        self,
        runs: list[Run],
        naturals: list[int],
        releasable: list[list[tuple[int, int]]],
        loose: list[int] | None = None,
    ) -> Suspects:
        """What the runs could be short of (``loose``: positions that may lose their natural
        to another window, counted as gaps)."""
        rules = self.rules
        known = self.known
        run_shorts: list[list[int]] = []
        runs_known = True
        for number, (run, mask) in enumerate(zip(runs, naturals, strict=True)):
            gaps = every_position(run.length) & ~mask & ~run.wild_only
            if loose is not None:
                gaps |= loose[number]
            trimmed = rules.trimmed_ends(run.run_number, run.length, mask)
            if trimmed:
                run_shorts.append(
                    [run.cards[position] for position in positions(trimmed & ~run.wild_only)]
                )
            elif not rules.run_is_legal(run.length, mask):
                run_shorts.append([run.cards[position] for position in positions(gaps)])
            elif runs_known:
                runs_known = all(known(run.cards[position]) for position in positions(gaps))
        released = [
            [runs[number].cards[position] for number, position in entries] for entries in releasable
        ]
        return Suspects(run_shorts, runs_known, released)

    def windows_hopeless(
        self,
        runs: list[Run],
        naturals: list[int],
        loose: list[int],
        by_rank: list[int],
        in_runs: list[int],
    ) -> bool:
        rules = self.rules
        known = self.known
        releasable = releasable_naturals(runs, naturals)
        suspects = self.suspects(runs, naturals, releasable, loose)
        run_shorts = suspects.run_shorts
        if len(run_shorts) > 1:
            return True
        eligible = self.eligible_set_ranks(by_rank, in_runs)
        if rules.set_sizes:
            least = min(rules.least_set_naturals(size) for size in rules.set_sizes)
            if all(by_rank[rank] + in_runs[rank] < least for rank in eligible):
                # Every set is short of naturals whatever its rank: the card it lacks is the
                # one missing, and nothing else can be.
                if run_shorts:
                    return True
                return all(known(card) for rank in eligible for card in RANK_CARDS[rank])
        if not all(known(card) for cards in suspects.released for card in cards):
            return False
        if run_shorts:
            return all(known(card) for card in run_shorts[0])
        if not suspects.runs_known or (A_WILD_CARD not in self.found and self.hand.spare_wild):
            return False
        return all(known(card) for rank in eligible for card in RANK_CARDS[rank])

    def sharings_hopeless(
        self,
        runs: list[Run],
        naturals: list[int],
        loose: list[int],
        by_rank: list[int],
        plans: list[SetPlan],
    ) -> bool:
        # Losing copies only makes runs worse: with every run whole, and the positions that
        # may be lost counted as gaps, is there anything new to find at all?
        suspects = self.suspects(runs, naturals, releasable_naturals(runs, naturals), loose)
        return all(self._nothing_new(plan.ranks, by_rank, suspects) for plan in plans)

    def plan_hopeless(
        self,
        plan: SetPlan,
        missing: int,
        run_broken: int,
        run_gaps: int,
        by_rank: list[int],
        suspects: Suspects | None,
    ) -> bool:
        # Suspects go stale as cards are found: looked at again for each sharing.
        assert suspects is not None
        return self._nothing_new(plan.ranks, by_rank, suspects)

    def _nothing_new(self, ranks: tuple[int, ...], by_rank: list[int], suspects: Suspects) -> bool:
        """Whether every card this arrangement could be short of is already known."""
        rules = self.rules
        known = self.known
        shorts = list(suspects.run_shorts)
        released_here = [card for rank in set(ranks) for card in suspects.released[rank]]
        set_cards: list[int] = []
        least: dict[int, int] = {}
        for rank, size in zip(ranks, rules.set_sizes, strict=True):
            least[rank] = least.get(rank, 0) + rules.least_set_naturals(size)
        for rank, fewest in least.items():
            # Copies the runs hold of the rank, each counted once however many runs want it.
            if by_rank[rank] + self.in_runs[rank] < fewest:
                shorts.append(list(RANK_CARDS[rank]))
            else:
                set_cards.extend(RANK_CARDS[rank])
        if len(shorts) > 1:
            return True
        if shorts:
            if len(suspects.run_shorts) == 1 and not all(known(card) for card in released_here):
                return False
            return all(known(card) for card in shorts[0])
        if A_WILD_CARD not in self.found and self.hand.spare_wild:
            return False
        return (
            suspects.runs_known
            and all(known(card) for card in released_here)
            and all(known(card) for card in set_cards)
        )

    # -- the leaf --

    def leaf(
        self, runs: list[Run], naturals: list[int], groups: list[SetGroup], by_rank: list[int]
    ) -> None:
        rules = self.rules
        laid_naturals = 0
        run_gaps: list[_RunGaps] = []
        for run, mask in zip(runs, naturals, strict=True):
            trimmed = rules.trimmed_ends(run.run_number, run.length, mask)
            if trimmed.bit_count() > 1 or trimmed & run.wild_only:
                return
            legal = not trimmed and rules.run_is_legal(run.length, mask)
            run_gaps.append(_RunGaps(run.length - mask.bit_count(), legal, trimmed))
            laid_naturals += mask.bit_count()
        # Sets take every natural of their rank; with a card to keep back, or one fewer.
        variants: list[list[tuple[SetGroup, int]]] = [[]]
        for group in groups:
            taken = rules.set_naturals(group.total, by_rank[group.rank])
            options = [taken]
            if rules.keeps_a_discard and not rules.exact_minimum and taken - 1 >= 0:
                options.append(taken - 1)
            variants = [[*variant, (group, count)] for variant in variants for count in options]
        for variant in variants:
            sets = _Sets(self, variant, laid_naturals)
            self._wild_card_completes(run_gaps, sets)
            self._run_card_completes(runs, naturals, run_gaps, sets)
            self._set_card_completes(run_gaps, sets)
        if self.universe is not None and self.universe <= self.found:
            # Every card that could ever be needed is: nothing left to find.
            self.stop = True

    def _wild_card_completes(self, run_gaps: list[_RunGaps], sets: _Sets) -> None:
        """A wild card completes it: every meld legal with wild cards in all its gaps."""
        if not self.hand.spare_wild or sets.total_gaps(run_gaps) < 1:
            return
        if all(run.legal_with_wilds for run in run_gaps) and all(sets.legal):
            if sets.going_out(self.hand.wilds + 1 - sets.total_gaps(run_gaps)):
                self.found.add(A_WILD_CARD)

    def _run_card_completes(
        self, runs: list[Run], naturals: list[int], run_gaps: list[_RunGaps], sets: _Sets
    ) -> None:
        """A natural in a run's gap completes it."""
        rules = self.rules
        wilds = self.hand.wilds
        total_gaps = sets.total_gaps(run_gaps)
        for number, (run, mask) in enumerate(zip(runs, naturals, strict=True)):
            if total_gaps - 1 > wilds:
                break
            others = (gaps for other, gaps in enumerate(run_gaps) if other != number)
            if not all(gaps.legal_with_wilds for gaps in others) or not all(sets.legal):
                continue
            free = run_gaps[number].trimmed or every_position(run.length) & ~mask & ~run.wild_only
            for position in positions(free):
                card = run.cards[position]
                if self.known(card):
                    continue
                if rules.run_is_legal(run.length, mask | (1 << position)) and sets.going_out(
                    wilds - (total_gaps - 1)
                ):
                    self.found.add(card)

    def _set_card_completes(self, run_gaps: list[_RunGaps], sets: _Sets) -> None:
        """A natural in a set completes it."""
        rules = self.rules
        wilds = self.hand.wilds
        total_gaps = sets.total_gaps(run_gaps)
        for number, (group, taken) in enumerate(sets.variant):
            gaps = sets.gaps[number]
            wanted = [card for card in RANK_CARDS[group.rank] if not self.known(card)]
            if not wanted:
                continue
            if not all(run.legal_with_wilds for run in run_gaps):
                continue
            if not all(legal for other, legal in enumerate(sets.legal) if other != number):
                continue
            if gaps >= 1:
                if total_gaps - 1 > wilds or not sets.set_legal(group, taken, 1, gaps - 1):
                    continue
                if not sets.going_out(wilds - (total_gaps - 1), number):
                    continue
            else:
                # An extra natural: only ever needed to make room for spare wild cards.
                if not (rules.whole_hand and rules.wilds_at_most_naturals) or total_gaps > wilds:
                    continue
                if not sets.legal[number] or not sets.going_out(wilds - total_gaps, number):
                    continue
            self.found.update(wanted)


class _Sets:
    """The sets of one arrangement, as needs sees them: each group and the naturals it takes."""

    def __init__(
        self, search: NeedsSearch, variant: list[tuple[SetGroup, int]], run_naturals: int
    ) -> None:
        self.rules = search.rules
        self.variant = variant
        #: Each group's gaps, and whether it is legal with wild cards in all of them.
        self.gaps = [max(0, group.total - taken) for group, taken in variant]
        self.legal = [
            self.set_legal(group, taken, 0, gaps)
            for (group, taken), gaps in zip(variant, self.gaps, strict=True)
        ]
        laid = run_naturals + sum(taken for _, taken in variant)
        self.naturals_left = search.hand.naturals - laid

    def total_gaps(self, run_gaps: list[_RunGaps]) -> int:
        return sum(run.gaps for run in run_gaps) + sum(self.gaps)

    def set_legal(self, group: SetGroup, taken: int, extra: int, wilds: int) -> bool:
        """Whether a group of ``taken`` naturals, ``extra`` more and ``wilds`` wild cards is
        legal."""
        rules = self.rules
        naturals = taken + extra
        return naturals >= group.least_naturals and not (
            rules.wilds_at_most_naturals and wilds > naturals
        )

    def room(self, group: SetGroup, naturals: int, wilds: int) -> int:
        """How many more wild cards a group takes."""
        rules = self.rules
        if rules.exact_minimum:
            return 0
        if not rules.wilds_at_most_naturals:
            return 1 << 20
        return max(0, naturals - wilds)

    def going_out(self, idle: int, extra_natural_group: int = -1) -> bool:
        """Whether laying it, with ``idle`` wild cards spare (and a natural more in group
        ``extra_natural_group``), keeps the going-out rules."""
        if idle < 0:
            return False
        rules = self.rules
        if rules.whole_hand:
            if self.naturals_left:
                return False
            capacity = 0
            for number, ((group, taken), gaps) in enumerate(
                zip(self.variant, self.gaps, strict=True)
            ):
                capacity += self.room(group, taken + (number == extra_natural_group), gaps)
            return capacity >= idle
        if rules.keeps_a_discard:
            return self.naturals_left + idle >= 1
        return True


def needed_cards(hand: Hand) -> tuple[str, ...]:
    """Every card that would make the contract layable, in deck order (``JK`` last)."""
    search = NeedsSearch(hand)
    search.run()
    found = sorted(
        (CARDS[card] for card in search.found if card != A_WILD_CARD),
        key=DECK_PLACE.__getitem__,
    )
    if A_WILD_CARD in search.found:
        return tuple(_with_wild_cards(hand, found))
    return tuple(str(card) for card in found)


def _with_wild_cards(hand: Hand, found: list[Natural]) -> list[str]:
    """A wild card would do: every wild card the hand could still get."""
    ruleset = hand.rules.ruleset
    held = count_cards(hand.cards)
    cards = list(found)
    for rank in sorted(ruleset.wild_ranks):
        for suit in SUITS:
            card = Card(rank, suit)
            if held.get(card, 0) < hand.decks and card not in cards:
                cards.append(card)
    result = [str(card) for card in sorted(cards, key=DECK_PLACE.__getitem__)]
    if hand.joker_spare:
        result.append(str(JOKER))
    return result


def every_card(hand: Hand) -> tuple[str, ...]:
    """Every card the hand could still be dealt."""
    held = count_cards(hand.cards)
    names = [str(card) for card in DECK if held.get(card, 0) < hand.decks]
    if hand.joker_spare:
        names.append(str(JOKER))
    return tuple(names)


#: Each card's place in :data:`rules.cards.DECK` (rank, then suit): the order of ``needs``.
DECK_PLACE = {card: place for place, card in enumerate(DECK)}
