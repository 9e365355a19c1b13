"""Phase 4 of the best arrangement: where the wild cards the melds do not need go.

A spare wild card may join a set, or be swapped into a meld for a cheaper natural that goes
back to the hand: in any legal arrangement, a wild card standing where the hand still holds
that natural can be swapped for it without breaking any rule, so the search (phases 1-3) only
lays naturals wherever it can, and this is the swap back. Each meld offers its choices, and a
small knapsack combines them; where a card must be kept to discard, it also finds the cheapest
way to keep one.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from rules.melds import rank_of

from .bitmasks import positions
from .hand import Hand
from .search import SetGroup
from .windows import Run


@dataclass(slots=True)
class Placement:
    """Where the spare wild cards of an arrangement go."""

    #: Spare wild cards placed.
    wilds: int
    #: Cards the melds gain (wild cards added, not swapped for a natural).
    added: int
    #: Points of naturals given back to the hand.
    given_back: int
    #: Each run's naturals after the swaps (empty: the runs are unchanged).
    run_naturals: list[int]
    #: Each set group's (naturals swapped out, wild cards added); empty when the groups are
    #: unchanged.
    set_moves: list[tuple[int, int]]


#: No spare wild card to place.
NOTHING_SPARE = Placement(0, 0, 0, [], [])


@dataclass(slots=True)
class _Choice:
    """One meld's choice: wild cards it takes, points given back, cards it gains."""

    wilds: int
    given_back: int
    added: int
    #: (Naturals swapped out, wild cards added.)
    move: tuple[int, int]


#: The knapsack's state: spare wild cards placed, and whether a natural went back to the hand.
_State = tuple[int, bool]
#: Its value: points given back, minus cards gained, each meld's move.
_Value = tuple[int, int, list[tuple[int, int]]]


def place_spare_wilds(
    hand: Hand,
    runs: list[Run],
    naturals: list[int],
    groups: list[SetGroup],
    set_naturals: list[int],
    set_wilds: list[int],
    used: int,
    naturals_left: int,
) -> Placement | None:
    """The best place for the wild cards beyond the ``used`` ones the melds need.

    The knapsack keeps, for each number of wild cards placed (and whether any natural went
    back, which leaves a card to discard), the fewest points given back, then the most cards
    added. None when a set can take no choice at all.
    """
    rules = hand.rules
    idle = hand.wilds - used
    items = _run_choices(hand, runs, naturals, idle)
    for group, group_naturals, group_wilds in zip(groups, set_naturals, set_wilds, strict=True):
        choices = _set_choices(hand, group, group_naturals, group_wilds, idle)
        if not choices:
            return None
        items.append(choices)
    knapsack: dict[_State, _Value] = {(0, False): (0, 0, [])}
    for choices in items:
        following: dict[_State, _Value] = {}
        for (placed_before, swapped), (given_back, fewer_cards, moves) in knapsack.items():
            for choice in choices:
                placed = placed_before + choice.wilds
                if placed > idle:
                    continue
                state = (placed, swapped or choice.move[0] > 0)
                value = (
                    given_back + choice.given_back,
                    fewer_cards - choice.added,
                    [*moves, choice.move],
                )
                old = following.get(state)
                if old is None or value[:2] < old[:2]:
                    following[state] = value
        knapsack = following
    best_key: tuple[int, int, int] | None = None
    best: Placement | None = None
    for (placed, _), (given_back, fewer_cards, moves) in knapsack.items():
        added = -fewer_cards
        left = naturals_left + idle - added
        if (rules.whole_hand and left) or (rules.keeps_a_discard and not left):
            continue
        wild_points = hand.wild_points[used + placed] - hand.wild_points[used]
        key = (given_back - wild_points, placed, -added)
        if best_key is None or key < best_key:
            best_key = key
            run_naturals = [
                swapped_naturals(hand, run, mask, move[0]) if move[0] else mask
                for run, mask, move in zip(runs, naturals, moves[: len(runs)], strict=True)
            ]
            best = Placement(placed, added, given_back, run_naturals, moves[len(runs) :])
    return best


def _run_choices(
    hand: Hand, runs: list[Run], naturals: list[int], idle: int
) -> list[list[_Choice]]:
    """Each run's choices: swap some of its naturals for wild cards (none in a whole-hand
    round, where every card is laid anyway)."""
    rules = hand.rules
    items = []
    for run, mask in zip(runs, naturals, strict=True):
        choices = []
        for swapped, given_back in enumerate(rules.substitutions(run.low, run.high, mask)):
            if swapped > idle or (swapped and rules.whole_hand):
                break
            if given_back is not None:
                choices.append(_Choice(swapped, given_back, 0, (swapped, 0)))
        items.append(choices)
    return items


def _set_choices(
    hand: Hand, group: SetGroup, naturals: int, wilds: int, idle: int
) -> list[_Choice]:
    """A set group's choices: swap some naturals for wild cards, and add wild cards."""
    rules = hand.rules
    choices = []
    for swapped in range(0, naturals - group.least_naturals + 1):
        if swapped > idle or (swapped and rules.whole_hand):
            break
        room = 0 if rules.exact_minimum else idle - swapped
        if rules.wilds_at_most_naturals:
            room = min(room, (naturals - swapped) - (wilds + swapped))
        for added in range(0, room + 1):
            move = (swapped, added)
            choices.append(_Choice(swapped + added, swapped * group.points, added, move))
    return choices


def swapped_naturals(hand: Hand, run: Run, naturals: int, swapped: int) -> int:
    """The run's naturals after the cheapest legal swap of ``swapped`` of them for wild cards."""
    rules = hand.rules
    target = rules.substitutions(run.low, run.high, naturals)[swapped]
    for chosen in itertools.combinations(list(positions(naturals)), swapped):
        kept = naturals
        given_back = 0
        for position in chosen:
            kept &= ~(1 << position)
            given_back += rules.rank_points[rank_of(run.low + position)]
        if given_back == target and rules.run_is_legal(run.length, kept):
            return kept
    raise AssertionError("substitution table and placement disagree")  # pragma: no cover
