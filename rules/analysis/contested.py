"""Phase 2 of the search: who gets a card that two chosen windows both cover but the hand holds
too few copies of.

Every way of sharing those copies is tried; the window that goes without one takes a wild card
(or, where the question allows it, a card not held) there instead. Which window gets a copy
changes neither what the sets have to work with nor how many cards are laid, so the sets'
choices (phase 3) are worked out once for the windows and tried for each sharing.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from .bitmasks import RANK_OF, positions
from .set_ranks import plan_set_ranks, try_set_ranks

if TYPE_CHECKING:
    from .search import Search
    from .windows import Run


def share_contested_copies(search: Search, runs: list[Run]) -> None:
    """Every sharing of the copies these windows contest, each then on to the sets."""
    search.done = set()
    counts = search.hand.counts
    #: Each held card the windows cover, with the (run, position) of every window wanting it.
    cover: dict[int, list[tuple[int, int]]] = {}
    for number, run in enumerate(runs):
        for position in positions(run.held):
            cover.setdefault(run.cards[position], []).append((number, position))
    contested = [(card, entries) for card, entries in cover.items() if counts[card] < len(entries)]
    held = [run.held for run in runs]
    by_rank = list(search.hand.rank_counts)
    in_runs = [0] * 14
    run_points = 0
    card_points = search.rules.card_points
    for card, entries in cover.items():
        # Each card is laid min(copies, windows) times, whichever windows get the copies.
        laid = min(counts[card], len(entries))
        by_rank[RANK_OF[card]] -= laid
        in_runs[RANK_OF[card]] += laid
        run_points += card_points[card] * laid
    search.in_runs = in_runs
    #: Each run's positions that may lose their natural to another window.
    loose = [0] * len(runs)
    for _, entries in contested:
        for number, position in entries:
            loose[number] |= 1 << position
    if search.windows_hopeless(runs, held, loose, by_rank, in_runs):
        return
    plans = plan_set_ranks(search, runs, held, by_rank, in_runs, run_points)
    if plans is not None and not plans:
        return
    if not contested:
        if search.runs_legal(runs, held):
            try_set_ranks(search, runs, held, by_rank, plans)
        return
    if plans and search.sharings_hopeless(runs, held, loose, by_rank, plans):
        return
    choices = [list(itertools.combinations(entries, counts[card])) for card, entries in contested]
    for sharing in itertools.product(*choices):
        naturals = list(held)
        for (_, entries), keep in zip(contested, sharing, strict=True):
            for number, position in entries:
                if (number, position) not in keep:
                    naturals[number] &= ~(1 << position)
        if search.runs_legal(runs, naturals):
            try_set_ranks(search, runs, naturals, by_rank, plans)
        if search.stop:
            return
