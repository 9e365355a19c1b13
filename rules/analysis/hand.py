"""One hand as the search counts it: naturals by card and rank, wild cards by cost, and its
windows; shared by the three questions asked of it.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from rules.cards import Card

from .bitmasks import CARD_COUNT, INDEX, RANK_CARDS, RANK_OF
from .round_rules import RoundRules
from .windows import HandWindows

#: What "best" orders arrangements by (lower is better; see each question).
Key = tuple[int, ...]


class Hand:
    """A hand against one round, with what every search of it asks worked out once."""

    def __init__(self, rules: RoundRules, cards: Sequence[Card], decks: int, jokers: int) -> None:
        ruleset = rules.ruleset
        self.rules = rules
        self.cards = tuple(cards)
        self.size = len(self.cards)
        self.decks = decks
        counts = [0] * CARD_COUNT
        for card in ruleset.naturals(cards):
            counts[INDEX[card]] += 1
        wild_cards = [card for card in cards if ruleset.is_wild(card)]
        #: Copies held of each natural card, by index.
        self.counts = counts
        # The most expensive wild cards are laid first: wild cards are interchangeable in a
        # meld, and what stays in hand should cost least.
        wild_cards.sort(key=lambda card: (-ruleset.points(card), str(card)))
        self.wild_cards = wild_cards
        self.wilds = len(wild_cards)
        #: What the first ``n`` wild cards laid cost, by ``n``.
        self.wild_points = list(
            itertools.accumulate((ruleset.points(card) for card in wild_cards), initial=0)
        )
        self.positive_wilds = sum(1 for card in wild_cards if ruleset.points(card) > 0)
        self.naturals = sum(counts)
        self.total_points = (
            sum(rules.card_points[index] * count for index, count in enumerate(counts))
            + self.wild_points[-1]
        )
        self.best_possible = self._best_possible()
        #: Whether the table still has a joker the hand could draw.
        self.joker_spare = sum(1 for card in cards if card.is_joker) < jokers
        #: Whether the table still has any wild card the hand could draw.
        self.spare_wild = self.joker_spare or any(
            sum(1 for card in cards if card.rank is rank) < decks * 4 for rank in ruleset.wild_ranks
        )
        #: Naturals held of each rank (1-13).
        self.rank_counts = [0] * 14
        for index, count in enumerate(counts):
            self.rank_counts[RANK_OF[index]] += count
        self.windows = HandWindows(rules, counts, self.wilds)

    def _best_possible(self) -> Key | None:
        """The best key any arrangement could have: nothing left, or the cheapest card.

        Only where every card costs something (a free card changes what "best" leaves).
        """
        rules = self.rules
        ruleset = rules.ruleset
        if not self.cards or any(ruleset.points(card) == 0 for card in self.cards):
            return None
        if rules.whole_hand or not rules.keeps_a_discard:
            return (0, self.wilds, -self.size)
        cheapest = min(ruleset.points(card) for card in self.cards)
        kept_wild = any(
            ruleset.points(card) == cheapest for card in self.cards if ruleset.is_wild(card)
        )
        return (cheapest, self.wilds - kept_wild, -(self.size - 1))

    def whole_hand_possible(self) -> bool:
        """Whole-hand rounds: could every natural find a meld at all? (Adding cards never helps.)

        Some ranks go to the sets (at most one a set); of the rest, each suit needs at least as
        many runs as it holds copies of one card.
        """
        rules = self.rules
        present = [rank for rank in rules.natural_ranks if self.rank_counts[rank]]
        runs = len(rules.run_minimums)
        for size in range(min(len(rules.set_sizes), len(present)) + 1):
            for ranks in itertools.combinations(present, size):
                needed = 0
                for suit in range(4):
                    needed += max(
                        (
                            self.counts[RANK_CARDS[rank][suit]]
                            for rank in rules.natural_ranks
                            if rank not in ranks
                        ),
                        default=0,
                    )
                if needed <= runs:
                    return True
        return False
