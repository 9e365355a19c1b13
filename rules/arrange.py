"""Laying out a meld whose cards were given in any order (``order: "any"``).

A phone app lets a player tap the cards of a run in any order; the table reads a run as its
cards lie (docs/rules.md §2). With ``order="any"`` the referee lays the run out itself, as a
player would: the naturals in rank order, the wild cards into the gaps between them, and a
spare wild card at the high end — or at the low end where the high end is an ace or leaves
the ranks in play. It then judges that arrangement by the same rules as any other run, and the
verdict's cards are the order it chose.

The arranger proposes orders only; :func:`rules.melds.read_run` decides what is legal. Of the
orders it proposes, the first legal one is taken, else the one with the fewest broken rules, so
the reason a hopeless run is refused is the one a player laying it out by hand would hear.
A set is read in any order anyway and is never rearranged.

>>> from rules import find_ruleset, parse_cards
>>> run = read_meld_any(parse_cards(["10H", "JK", "7H", "9H"]), find_ruleset("liverpool"))
>>> run.valid, " ".join(map(str, run.cards)), run.wilds
(True, '7H JK 9H 10H', (Wild(index=1, stands_for='8H'),))
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.cards import Card, Natural, Rank
from rules.melds import HIGH_ACE, LOW_ACE, Meld, plausible_types, read_run, read_set
from rules.ruleset import MeldType, Ruleset


def wild_key(card: Card) -> tuple[int, int, str]:
    """Wild cards in one fixed order whatever order they came in (jokers last), so that any
    order of the same cards gives the same arrangement."""
    if isinstance(card, Natural):
        return (False, int(card.rank), card.suit.value)
    return (True, 0, "")


#: How the naturals' aces are valued in one proposed order: every ace low, every ace high, or
#: (two aces or more) the first low and the others high.
_AceMode = tuple[int, int]


def _ace_modes(ruleset: Ruleset, naturals: Sequence[Natural]) -> tuple[_AceMode, ...]:
    """The ways to value the naturals' aces: low first, as a run read in table order. Two
    aces in one run can only be one at each end, which the reading then refuses as turning
    the corner."""
    aces = sum(1 for card in naturals if card.rank is Rank.ACE)
    if not aces:
        return ((LOW_ACE, LOW_ACE),)  # no natural ace: its value changes nothing
    if aces > 1:
        return ((LOW_ACE, HIGH_ACE),)
    allowed = ((LOW_ACE, ruleset.ace_low), (HIGH_ACE, ruleset.ace_high))
    return tuple((value, value) for value, ok in allowed if ok)


def _ranked(naturals: Sequence[Natural], mode: _AceMode) -> list[tuple[int, Natural]]:
    """The naturals with their values in rank order (by suit within a rank)."""
    first, others = mode
    valued: list[tuple[int, Natural]] = []
    aces = 0
    for card in sorted(naturals, key=lambda card: card.suit.value):
        if card.rank is Rank.ACE:
            valued.append((first if aces == 0 else others, card))
            aces += 1
        else:
            valued.append((int(card.rank), card))
    valued.sort(key=lambda item: (item[0], item[1].suit.value))
    return valued


def _filled(
    ranked: Sequence[tuple[int, Natural]], wilds: Sequence[Card]
) -> tuple[list[Card], list[Card]]:
    """The naturals with wild cards into the gaps between them while they last, and the
    spare wild cards."""
    spare = list(wilds)
    body: list[Card] = []
    for index, (value, card) in enumerate(ranked):
        if index:
            for _ in range(value - ranked[index - 1][0] - 1):
                if spare:
                    body.append(spare.pop(0))
        body.append(card)
    return body, spare


def run_orders(cards: Sequence[Card], ruleset: Ruleset) -> list[tuple[Card, ...]]:
    """Every table order the arranger proposes for ``cards`` as a run, in order of preference.

    For each way to value the aces: the naturals in rank order (by suit within a rank, so a
    run of mixed suits or a repeated rank is laid out as plainly as it can be, and refused),
    each gap between them filled with wild cards while they last, then the spare wild cards
    all at the high end, then one by one moved to the low end.
    """
    wilds = sorted((card for card in cards if ruleset.is_wild(card)), key=wild_key)
    naturals = ruleset.naturals(cards)
    orders: list[tuple[Card, ...]] = []
    for mode in _ace_modes(ruleset, naturals):
        body, spare = _filled(_ranked(naturals, mode), wilds)
        for low in range(len(spare) + 1):
            order = (*spare[len(spare) - low :], *body, *spare[: len(spare) - low])
            if order not in orders:
                orders.append(order)
    return orders


def _corner_orders(cards: Sequence[Card], ruleset: Ruleset) -> list[tuple[Card, ...]]:
    """The orders that take the naturals round the corner (``K A 2``): never legal, but when
    the cards follow each other only that way, the reading says so (``run_wraps_around``)."""
    wilds = sorted((card for card in cards if ruleset.is_wild(card)), key=wild_key)
    ranked = _ranked(ruleset.naturals(cards), (LOW_ACE, LOW_ACE))
    orders = []
    for start in range(1, len(ranked)):
        turned = [*ranked[start:], *((value + 13, card) for value, card in ranked[:start])]
        body, spare = _filled(turned, wilds)
        orders.append((*body, *spare))
    return orders


def read_run_any(cards: Sequence[Card], ruleset: Ruleset, *, wild_limits: bool = True) -> Meld:
    """``cards`` read as a run laid out by the referee: the first legal order it proposes, or
    else the one breaking the fewest rules (one that turns the corner, where the cards follow
    each other only that way)."""
    readings = []
    for order in run_orders(cards, ruleset):
        meld = read_run(order, ruleset, wild_limits=wild_limits)
        if meld.valid:
            return meld
        readings.append(meld)
    readings.extend(
        read_run(order, ruleset, wild_limits=wild_limits)
        for order in _corner_orders(cards, ruleset)
    )
    if not readings:  # no cards at all: nothing to arrange
        return read_run(cards, ruleset, wild_limits=wild_limits)
    return min(
        readings,
        key=lambda meld: (
            len(meld.violations),
            all(v.code != "run_wraps_around" for v in meld.violations),
        ),
    )


def read_meld_any(
    cards: Sequence[Card],
    ruleset: Ruleset,
    meld_type: MeldType | None = None,
    *,
    wild_limits: bool = True,
) -> Meld:
    """:func:`rules.melds.read_meld` for cards given in any order: a run is laid out by the
    referee, a set read as it is. Without a type, naturals all of one rank make a set (a run
    never repeats a rank), naturals of one suit a run, as in table order."""
    if meld_type == "set":
        return read_set(cards, ruleset, wild_limits=wild_limits)
    if meld_type == "run":
        return read_run_any(cards, ruleset, wild_limits=wild_limits)
    readings = [
        read_meld_any(cards, ruleset, kind, wild_limits=wild_limits)
        for kind in plausible_types(cards, ruleset)
    ]
    for reading in readings:
        if reading.valid:
            return reading
    return min(readings, key=lambda reading: len(reading.violations))
