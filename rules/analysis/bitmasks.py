"""Cards and run positions as numbers, the way the search counts them, each spelled once.

A natural card is an index from 0 to 51, ``suit * 13 + rank - 1``, so that a hand is a list of
52 counts; a run's positions are the bits of an ``int``, bit 0 its lowest value, so that which
positions hold a natural, take a wild card or lie at an end are masks. A run's values go from
1 (the low ace) to 14 (:data:`~rules.melds.HIGH_ACE`): both aces are the ace card.
"""

from __future__ import annotations

from collections.abc import Iterator

from rules.cards import Card, Rank, Suit
from rules.melds import HIGH_ACE

#: The suits in the order of their indexes.
SUITS = tuple(Suit)
#: Natural cards in one deck: the length of a hand's counts.
CARD_COUNT = 52


def card_index(suit: int, rank: int) -> int:
    """The index of the natural card of rank ``rank`` (1-13) and suit ``suit`` (0-3).

    >>> CARDS[card_index(SUITS.index(Suit.HEARTS), 7)], RANK_OF[card_index(0, 12)]
    (Card.parse('7H'), 12)
    """
    return suit * 13 + rank - 1


def run_card(suit: int, value: int) -> int:
    """The index of the card at run value ``value`` (1-14: both aces are the ace).

    >>> run_card(2, 14) == run_card(2, 1) == card_index(2, 1)
    True
    """
    return card_index(suit, 1 if value == HIGH_ACE else value)


#: The natural card at each index.
CARDS = tuple(Card(Rank(index % 13 + 1), SUITS[index // 13]) for index in range(CARD_COUNT))
#: Each natural card's index.
INDEX = {card: index for index, card in enumerate(CARDS)}
#: The rank (1-13) of the card at each index.
RANK_OF = tuple(index % 13 + 1 for index in range(CARD_COUNT))
#: The suit (0-3) of the card at each index.
SUIT_OF = tuple(index // 13 for index in range(CARD_COUNT))
#: The four cards of each rank (1-13), one a suit; nothing at 0.
RANK_CARDS: tuple[tuple[int, ...], ...] = ((),) + tuple(
    tuple(card_index(suit, rank) for suit in range(4)) for rank in range(1, 14)
)


def positions(mask: int) -> Iterator[int]:
    """The positions set in ``mask``, lowest first.

    >>> list(positions(0b10110)), first_position(0b10110), last_position(0b10110)
    ([1, 2, 4], 1, 4)
    """
    while mask:
        lowest = mask & -mask
        yield lowest.bit_length() - 1
        mask ^= lowest


def lowest_positions(mask: int, count: int) -> int:
    """The ``count`` lowest positions of ``mask`` (all of them if it has fewer).

    >>> bin(lowest_positions(0b10110, 2)), bin(positions_between(1, 3)), bin(every_position(4))
    ('0b110', '0b1110', '0b1111')
    """
    kept = 0
    for position in positions(mask):
        if count <= 0:
            break
        kept |= 1 << position
        count -= 1
    return kept


def first_position(mask: int) -> int:
    """The lowest position set in ``mask`` (which is not empty)."""
    return (mask & -mask).bit_length() - 1


def last_position(mask: int) -> int:
    """The highest position set in ``mask`` (which is not empty)."""
    return mask.bit_length() - 1


def every_position(length: int) -> int:
    """All positions of a run of ``length`` cards."""
    return (1 << length) - 1


def run_ends(length: int) -> int:
    """The lowest and highest positions of a run of ``length`` cards."""
    return 1 | (1 << (length - 1))


def positions_between(first: int, last: int) -> int:
    """The positions from ``first`` to ``last``, both included."""
    return ((1 << (last + 1)) - 1) & ~((1 << first) - 1)
