"""Phase 1 of the search: the windows a hand's runs may lie in, and the order they are tried.

A window is one suit over a range of values (a :class:`~rules.analysis.round_rules.RunShape`),
with the hand's naturals wherever it holds them and a gap — for a wild card, or, when the
question allows it, a card not held — everywhere else. :class:`HandWindows` works a hand's
windows out once, sorted by their number of gaps, and makes them into the search's
:class:`Run` values only as a question first needs them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from rules.melds import HIGH_ACE

from .bitmasks import CARD_COUNT, RANK_OF, SUIT_OF, positions
from .round_rules import RoundRules, RunShape

#: A window of a hand: the number of its :class:`RunShape` among the contract run's shapes,
#: and the positions whose natural the hand holds (never a wild-only one). A pair rather than
#: a named tuple: a hand has a hundred-odd windows, most of them made and never tried.
Window = tuple[int, int]


class RunOrder(enum.Enum):
    """Which windows a search tries first."""

    #: Windows holding the most first, then those with the fewest gaps: good arrangements
    #: found early make the bounds bite (the best arrangement, the closest).
    MOST_HELD_FIRST = enum.auto()
    #: The fewest gaps first: the cards needed turn up early, and then the checks for anything
    #: new to find cut the rest (needs).
    FEWEST_GAPS_FIRST = enum.auto()


@dataclass(slots=True)
class Run:
    """A run window of the search: suit, values, and which positions hold what."""

    #: Where the search tries it among the contract run's windows (increasing; see
    #: :meth:`HandWindows.run`).
    order: int
    suit: int
    low: int
    high: int
    length: int
    cards: tuple[int, ...]
    #: Positions whose card the hand holds (and that are not wild-only positions).
    held: int
    #: Positions only a wild card can fill (California's queens).
    wild_only: int
    #: Positions not held: each takes a wild card or a card not held.
    gaps: int
    #: Which contract run it is for.
    run_number: int
    #: The cards at the held positions.
    held_cards: tuple[int, ...]
    #: What the cards at the held positions cost.
    points: int
    #: Cards not held it needs however many wild cards there are.
    lacking: int = 0
    #: Closest and needs: cards not held it lacks with every wild card of the hand (needs:
    #: and one more) in its gaps; no search of a smaller budget can use it.
    lacking_at_best: int = 0


def run_order(run: Run) -> int:
    return run.order


@dataclass(slots=True)
class _Candidates:
    """Closest and needs: the runs made so far of a hand's windows."""

    #: Each contract run's, by order.
    runs: list[list[Run]]
    #: Windows with up to this many gaps are made.
    gaps: int = -1


class HandWindows:
    """Each contract run's windows for one hand, by their number of gaps: worked out once.

    Those holding a natural, and, for the closest arrangement and needs, runs of cards not
    held at all — those only at their shortest: such a run only grows by cards not held or by
    wild cards, so its shortest length lacks the fewest. Every card of it can still be drawn
    (the hand holds none of them).
    """

    def __init__(self, rules: RoundRules, counts: list[int], wilds: int) -> None:
        self.rules = rules
        self.wilds = wilds
        self.by_gaps = self._by_gaps(counts)
        self._candidates: dict[tuple[RunOrder, int], _Candidates] = {}

    def _by_gaps(self, counts: list[int]) -> list[list[list[Window]]]:
        rules = self.rules
        # Run values the hand holds, a bit each, by suit (the ace at both ends).
        values = [0] * 4
        for index in range(CARD_COUNT):
            if counts[index]:
                value = RANK_OF[index]
                values[SUIT_OF[index]] |= (1 << value) | ((1 << HIGH_ACE) if value == 1 else 0)
        # Contract runs of one minimum share their shapes, and so their windows: each is
        # worked out once (Liverpool's two-run rounds, the hardest hands, have two).
        by_shapes: dict[int, list[list[Window]]] = {}
        found = []
        for shapes, shortest in zip(rules.run_shapes, rules.shortest_windows, strict=True):
            by_gaps = by_shapes.get(id(shapes))
            if by_gaps is None:
                by_gaps = [[] for _ in range(HIGH_ACE + 1)]
                for number, shape in enumerate(shapes):
                    held = (values[shape.suit] >> shape.low) & shape.natural_places
                    if held or shape.length == shortest:
                        by_gaps[shape.length - held.bit_count()].append((number, held))
                by_shapes[id(shapes)] = by_gaps
            found.append(by_gaps)
        return found

    def laying_runs(self) -> list[list[Run]]:
        """Each contract run's windows that can be laid from the hand, in the order tried."""
        rules = self.rules
        options: list[list[Run]] = []
        for run_number, by_gaps in enumerate(self.by_gaps):
            shapes = rules.run_shapes[run_number]
            found: list[Run] = []
            # More gaps than wild cards: never laid.
            for windows in by_gaps[: self.wilds + 1]:
                for number, held in windows:
                    length = shapes[number].length
                    # (A window holding nothing is never legal.)
                    if not rules.run_is_legal(length, held):
                        continue
                    # A wild card at an end the search trims could as well lie in a set.
                    if rules.trimmed_ends(run_number, length, held):
                        continue
                    found.append(self.run(RunOrder.MOST_HELD_FIRST, run_number, number, held))
            found.sort(key=run_order)
            options.append(found)
        return options

    def candidate_runs(self, order: RunOrder, extra: int, budget: int) -> list[list[Run]]:
        """Closest and needs: every window a search within ``budget`` could use, as runs.

        ``extra`` is the number of cards beside the hand's naturals a gap may take: its wild
        cards (needs: and one more). Made once, and only as the deepening reaches them: a
        window with ``gaps`` gaps lacks at least ``gaps - extra`` cards not held; windows with
        more gaps than ``budget + extra`` are left for a larger budget, when none of them
        could be used yet.
        """
        made = self._candidates.get((order, extra))
        if made is None:
            made = _Candidates([[] for _ in self.by_gaps])
            self._candidates[order, extra] = made
        most = budget + extra
        if most > made.gaps:
            for run_number, by_gaps in enumerate(self.by_gaps):
                runs = made.runs[run_number]
                for windows in by_gaps[made.gaps + 1 : most + 1]:
                    for number, held in windows:
                        capacity = self.gap_wild_capacity(run_number, number, held)
                        if capacity < 0:
                            continue
                        run = self.run(order, run_number, number, held)
                        run.lacking = run.gaps - capacity
                        run.lacking_at_best = run.gaps - min(extra, capacity)
                        runs.append(run)
                runs.sort(key=run_order)
            made.gaps = most
        # A window needing more cards not held than the budget, even with every wild card of
        # the hand in its gaps, fits no arrangement within it.
        return [[run for run in runs if run.lacking_at_best <= budget] for runs in made.runs]

    def gap_wild_capacity(self, run_number: int, number: int, held: int) -> int:
        """Most gaps of a window wild cards may fill (-1: it is no run)."""
        shape = self.rules.run_shapes[run_number][number]
        return self.rules.gap_wild_capacity(run_number, shape.length, held, shape.wild_only)

    def least_lacking(self) -> list[tuple[int, int]]:
        """Closest, whatever the budget: each contract run's fewest gaps and cards not held.

        The fewest over every window the largest budget would search, without making them
        into runs: the first bucket with a window that can be a run has the fewest gaps, and
        once a window lacks none, no other can lack fewer.
        """
        least = []
        for run_number, by_gaps in enumerate(self.by_gaps):
            fewest_gaps: int | None = None
            lacking: int | None = None
            for gaps, windows in enumerate(by_gaps):
                for number, held in windows:
                    capacity = self.gap_wild_capacity(run_number, number, held)
                    if capacity < 0:
                        continue
                    if fewest_gaps is None:
                        fewest_gaps = gaps
                    # Never below none: wild cards may fill no more gaps than there are.
                    lacks = gaps - capacity
                    lacking = lacks if lacking is None else min(lacking, lacks)
                if lacking == 0:
                    break
            least.append((fewest_gaps or 0, lacking or 0))
        return least

    def run(self, order: RunOrder, run_number: int, number: int, held: int) -> Run:
        """A window as a run of the search, numbered in the order the search tries them.

        Runs holding nothing come last; ties go by the window's place among the shapes. The
        number depends on the window alone, not on which others a budget keeps: every budget's
        list of a contract run keeps one order, and contract runs of one minimum number their
        common windows alike.
        """
        shapes = self.rules.run_shapes[run_number]
        shape: RunShape = shapes[number]
        held_count = held.bit_count()
        gaps = shape.length - held_count
        # Held cards and gaps are at most 14 each: one digit of 16 each.
        if order is RunOrder.FEWEST_GAPS_FIRST:
            rank = (not held) * 16 + gaps
        else:
            rank = (15 - held_count) * 16 + gaps
        held_cards = tuple(shape.cards[position] for position in positions(held))
        card_points = self.rules.card_points
        points = sum(card_points[card] for card in held_cards)
        # By position, in the order of Run's fields: a hand makes a hundred-odd runs.
        return Run(
            rank * len(shapes) + number,
            shape.suit,
            shape.low,
            shape.high,
            shape.length,
            shape.cards,
            held,
            shape.wild_only,
            gaps,
            run_number,
            held_cards,
            points,
        )
