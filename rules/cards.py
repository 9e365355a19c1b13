"""Playing cards and their notation.

A card is written rank then suit (``10H``, ``QS``, ``AD``) and a joker is ``JK``. Parsing is
case-insensitive, takes ``T`` for ten and the suit symbols ``♠ ♥ ♦ ♣``; formatting always gives
the canonical form, so ``str(Card.parse(text))`` is the table's shared spelling of a card.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import ClassVar, Self, final, overload

from rules.errors import CardNotationError
from rules.i18n import N_


class Rank(enum.IntEnum):
    """A card rank; the value is the rank's place with the ace low (``A`` = 1, ``K`` = 13)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def symbol(self) -> str:
        """The rank as written on a card: ``A``, ``2`` … ``10``, ``J``, ``Q``, ``K``."""
        return _RANK_SYMBOLS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank symbol (``"10"``, ``"T"``, ``"q"``).

        >>> Rank.parse("t")
        <Rank.TEN: 10>
        """
        try:
            return _RANK_BY_SYMBOL[text.strip().upper()]
        except (KeyError, AttributeError):
            raise CardNotationError(N_("not a rank: {text!r}"), text=text) from None


class Suit(enum.StrEnum):
    """A card suit, written by its initial: a suit *is* that letter (``Suit.HEARTS == "H"``),
    so it reads from and writes to the notation as it is."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return self.value


_RANK_SYMBOLS = {
    rank: {1: "A", 11: "J", 12: "Q", 13: "K"}.get(rank.value, str(rank.value)) for rank in Rank
}
_RANK_BY_SYMBOL = {symbol: rank for rank, symbol in _RANK_SYMBOLS.items()} | {"T": Rank.TEN}
_SUIT_BY_SYMBOL = {suit.value: suit for suit in Suit} | {
    "♠": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    # The text-style variants some keyboards produce.
    "♤": Suit.SPADES,
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♧": Suit.CLUBS,
}


class Card:
    """One card: a :class:`Natural`, with a rank and a suit, or the :class:`Joker`, with
    neither.

    A table only ever holds 53 distinct cards, so each exists once: ``Card(rank, suit)``
    answers the one card of that rank and suit, and two cards are equal when they are the
    same object. Every check counts the cards of hands and melds, so a card is a key that
    compares by identity, never by its rank and suit. Each card knows its own spelling.

    ``isinstance(card, Natural)`` tells a card with a rank and a suit: code that has set the
    jokers aside holds naturals, whose ``rank`` and ``suit`` are never None.

    >>> Card.parse("10h")
    Card.parse('10H')
    >>> str(Card.parse("T♥"))
    '10H'
    >>> Card.parse("jk").is_joker, Card.parse("jk") is JOKER
    (True, True)
    >>> Card(Rank.TEN, Suit.HEARTS) is Card.parse("10H")
    True
    >>> card = Card.parse("QS")
    >>> isinstance(card, Natural), card.rank, card.suit
    (True, <Rank.QUEEN: 12>, <Suit.SPADES: 'S'>)
    """

    __slots__ = ("rank", "suit", "text")
    rank: Rank | None
    suit: Suit | None
    #: The canonical spelling, as ``str()`` gives it: ``10H``, ``JK``.
    text: str
    #: Whether this is the joker, the one card without a rank or a suit.
    is_joker: ClassVar[bool]

    @overload
    def __new__(cls, rank: Rank, suit: Suit) -> Natural: ...
    @overload
    def __new__(cls, rank: None, suit: None) -> Joker: ...
    @overload
    def __new__(cls, rank: Rank | None, suit: Suit | None) -> Card: ...
    def __new__(cls, rank: Rank | None, suit: Suit | None) -> Card:
        try:
            return _CARDS[rank, suit]
        except KeyError:
            pass
        except TypeError:  # an unhashable rank or suit
            raise CardNotationError(
                N_("not a card: rank {rank!r}, suit {suit!r}"), rank=rank, suit=suit
            ) from None
        if (rank is None) != (suit is None):
            raise CardNotationError(
                N_("a card needs both a rank and a suit, or neither: rank {rank!r}, suit {suit!r}"),
                rank=rank,
                suit=suit,
            )
        raise CardNotationError(
            N_("not a card: rank {rank!r}, suit {suit!r}"), rank=rank, suit=suit
        )

    @classmethod
    def _make(cls, rank: Rank | None, suit: Suit | None) -> Self:
        """The one card of its kind, made once when the module is loaded."""
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        text = "JK" if rank is None or suit is None else rank.symbol + suit.value
        object.__setattr__(card, "text", text)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a card cannot be changed: cannot set {name!r} of {self!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a card cannot be changed: cannot delete {name!r} of {self!r}")

    def __reduce__(self) -> tuple[type[Card], tuple[Rank | None, Suit | None]]:
        # Pickled and copied cards come back through Card(), as the one card they are.
        return Card, (self.rank, self.suit)

    @staticmethod
    def parse(text: str) -> Card:
        """Read a card in the notation of docs/rules.md §2; raise :class:`CardNotationError`
        if it is not one."""
        if not isinstance(text, str):
            raise CardNotationError(N_("not a card: {text!r}"), text=text)
        card = _SPELLINGS.get(text)
        return card if card is not None else _parse(text)

    @staticmethod
    def joker() -> Joker:
        return JOKER

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


@final
class Natural(Card):
    """A card with a rank and a suit: every card but the joker.

    Whether a natural is *wild* is the ruleset's to say (``ruleset.is_wild(card)``): where 2s
    are wild, a 2 is still a natural card here, with its rank and suit, and the melds read it
    as a wild card. The 52 of them are :data:`DECK`.
    """

    __slots__ = ()
    rank: Rank
    suit: Suit
    is_joker: ClassVar[bool] = False


@final
class Joker(Card):
    """The joker, :data:`JOKER`: no rank and no suit, and wild in every ruleset."""

    __slots__ = ()
    rank: None
    suit: None
    is_joker: ClassVar[bool] = True


#: Every card, by rank and suit (``Rank`` and ``Suit`` hash and compare as their values, so
#: ``Card(1, "S")`` is the ace of spades too), the joker by neither.
_CARDS: dict[tuple[Rank | None, Suit | None], Card] = {
    (rank, suit): Natural._make(rank, suit) for rank in Rank for suit in Suit
}
#: The joker: one card, however many of them a table shuffles in.
JOKER = _CARDS[None, None] = Joker._make(None, None)


def _spellings() -> dict[str, Card]:
    """Every way the notation writes a card without spaces: each rank symbol (and ``T``) in
    either case, before each suit letter in either case or suit symbol, and the joker."""
    ranks = {symbol: rank for symbol, rank in _RANK_BY_SYMBOL.items()}
    ranks |= {symbol.lower(): rank for symbol, rank in ranks.items()}
    suits = _SUIT_BY_SYMBOL | {letter.lower(): suit for letter, suit in _SUIT_BY_SYMBOL.items()}
    spellings = {
        rank_text + suit_text: _CARDS[rank, suit]
        for rank_text, rank in ranks.items()
        for suit_text, suit in suits.items()
    }
    for word in ("JK", "JOKER"):
        for cased in _every_case(word):
            spellings[cased] = JOKER
    spellings["🃏"] = JOKER
    return spellings


def _every_case(word: str) -> list[str]:
    if not word:
        return [""]
    return [
        head + rest for rest in _every_case(word[1:]) for head in {word[0].upper(), word[0].lower()}
    ]


def _parse(text: str) -> Card:
    """A card written with spaces around it, or not a card at all."""
    if len(text) > 8:  # long text is refused before it is cleaned
        raise CardNotationError(N_("not a card: {text!r}"), text=text)
    card = _SPELLINGS.get(text.strip())
    if card is None:
        raise CardNotationError(N_("not a card: {text!r}"), text=text)
    return card


#: Every spelling of a card the notation admits, without spaces around it, and the card it
#: reads as: reading a card is one look-up, since a table only ever writes a few hundred.
_SPELLINGS = _spellings()
SPELLINGS: Mapping[str, Card] = MappingProxyType(_SPELLINGS)


def parse_cards(texts: Iterable[str]) -> tuple[Card, ...]:
    """Read a list of cards, failing on the first that is not one (the error quotes it)."""
    return tuple(Card.parse(text) for text in texts)


def format_cards(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


#: Every distinct card of one deck, jokers aside, in rank then suit order.
DECK = tuple(card for card in _CARDS.values() if isinstance(card, Natural))
