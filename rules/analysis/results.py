"""What the hand analysis answers: :class:`Analysis`, and for a hand that cannot lay its
contract, the :class:`Closest` arrangement of :class:`PartialMeld` values."""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import Card
from rules.choices import MeldType
from rules.melds import Meld
from rules.ruleset import RoundSpec


@dataclass(frozen=True, slots=True)
class PartialMeld:
    """One contract meld of the closest arrangement: the cards held for it and what is missing.

    ``missing`` says what each absent card stands for, as a wild card's ``stands_for`` does:
    a card in a run (``"8H"``), a rank in a set (``"7"``).
    """

    type: MeldType
    #: The held cards, in table order (runs low to high; wild cards where they stand).
    cards: tuple[Card, ...]
    missing: tuple[str, ...]

    @property
    def complete(self) -> bool:
        return not self.missing


@dataclass(frozen=True, slots=True)
class Closest:
    """The nearest the hand comes to the contract.

    Defined as the arrangement of the round's contract melds, filled from the hand plus cards
    not held, that needs the fewest cards not held; among those, the one completing the most
    melds; then, as for a laid contract, the lowest penalty left in hand, the fewest wild cards,
    the most cards from hand. It looks at the melds only: whether a card would be left to
    discard, or a whole-hand round would use every card, is what ``needs`` answers.

    Two conventions keep it simple: a held natural goes wherever it fits (it is never kept back
    for a wild card to take its place), and a run holding no card from hand at all is counted
    at its shortest. Neither changes the number of cards missing.
    """

    melds: tuple[PartialMeld, ...]
    #: Cards not held that the melds need (the sum of the melds' ``missing``).
    missing: int
    #: Melds with nothing missing.
    complete: int
    remaining: tuple[Card, ...]
    penalty: int


@dataclass(frozen=True, slots=True)
class Analysis:
    """What a hand can do with the round's contract (see :func:`analyse_hand`)."""

    round: RoundSpec
    can_lay: bool
    #: The best arrangement, in table order, as :func:`check_contract` reads it; empty when the
    #: contract cannot be laid.
    melds: tuple[tuple[Card, ...], ...]
    #: The contract check's reading of ``melds`` (type, suit, what each wild card stands for).
    readings: tuple[Meld, ...]
    #: The hand minus the melds, in the hand's order (the whole hand when nothing is laid).
    remaining: tuple[Card, ...]
    #: What ``remaining`` costs.
    penalty: int
    #: Whether laying ``melds`` lets the player end the round on this turn (as the contract
    #: check's ``goes_out``).
    goes_out: bool
    #: When the contract cannot be laid: every card (canonical, in deck order, ``"JK"`` last)
    #: that, added to the hand, would make it layable — going-out rules included, and only
    #: cards the table still has a copy of.
    needs: tuple[str, ...]
    #: When the contract cannot be laid: the nearest partial arrangement.
    closest: Closest | None
