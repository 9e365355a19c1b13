"""Where the cards of a lay-off go: onto a set, beside it; onto a run, each natural where its
rank goes and the wild cards into the gaps, then at an end (docs/rules.md §3: lay-offs).

The cards may be given in any order: each is placed by what it is, never by where it came in
the list. What cannot be placed is said as a violation (another suit, no free place, a card
that would take the run round the corner past an ace).
"""

from __future__ import annotations

from collections.abc import Sequence, Set

from rules.arrange import wild_key
from rules.cards import Card, Natural, Rank
from rules.choices import End
from rules.i18n import N_, Phrase
from rules.melds import HIGH_ACE, LOW_ACE, Meld, rank_of, suit_name
from rules.ruleset import Ruleset
from rules.violations import Violation


def add_to_set(
    ruleset: Ruleset, table_meld: Meld, cards: Sequence[Card]
) -> tuple[tuple[Card, ...], list[Violation]]:
    violations = [
        Violation("set_mixed_ranks", {"rank": table_meld.rank.symbol}, card=str(card))
        for card in cards
        if not ruleset.is_wild(card)
        and table_meld.rank is not None
        and card.rank != table_meld.rank
    ]
    return (*table_meld.cards, *cards), violations


def add_to_run(
    ruleset: Ruleset, table_meld: Meld, cards: Sequence[Card], end: End | None
) -> tuple[tuple[Card, ...], list[Violation]]:
    """Place naturals where their rank goes, then wild cards at the named end."""
    assert table_meld.low is not None and table_meld.high is not None
    low, high, suit = table_meld.low, table_meld.high, table_meld.suit
    lowest = LOW_ACE if ruleset.ace_low else 2
    highest = HIGH_ACE if ruleset.ace_high else 13
    dead = set() if ruleset.wild_rank_in_melds else set(ruleset.wild_ranks)
    below, above, wilds, violations = _place_naturals(ruleset, table_meld, cards)
    if violations:
        return (*table_meld.cards, *cards), violations
    new_low = min(below, default=low)
    new_high = max(above, default=high)
    gaps = (low - new_low - len(below)) + (new_high - high - len(above))
    spare = len(wilds) - gaps
    if spare < 0:
        missing = [
            str(Card(rank_of(v), suit))
            for v in (*range(new_low, low), *range(high + 1, new_high + 1))
            if v not in below and v not in above
        ]
        corner = [
            card
            for card in (*below.values(), *above.values())
            if _turns_corner(card.rank, low, high, len(wilds))
        ]
        if corner:
            return (*table_meld.cards, *cards), [_wraps(table_meld, corner[0], wilds)]
        return (*table_meld.cards, *cards), [
            Violation(
                "run_not_consecutive",
                {
                    "detail": Phrase(
                        N_("nothing fills {missing} next to {meld}"),
                        {"missing": ", ".join(missing), "meld": table_meld.span_text()},
                    )
                },
            )
        ]
    # Spare wild cards go to the named end; unnamed, to the high end unless that is an ace
    # (docs/rules.md §2), and to the other end when a run has no room left on that side. A run
    # spans at most 13 ranks: an ace never sits at both ends.
    room_high = max(0, min(highest, new_low + 12) - new_high)
    room_low = max(0, new_low - max(lowest, new_high - 12))
    side = end or ("low" if new_high >= HIGH_ACE or room_high <= 0 else "high")
    if end is None and side == "high" and room_high < spare:
        side = "low"
    if side == "high":
        extend = min(spare, room_high) if end is None else spare
        new_high += extend
        new_low -= spare - extend
    else:
        extend = min(spare, room_low) if end is None else spare
        new_low -= extend
        new_high += spare - extend
    wraps = new_low < LOW_ACE or new_high > HIGH_ACE or new_high - new_low > 12
    if (
        wraps
        or new_low < lowest
        or new_high > highest
        or any(rank_of(v) in dead for v in range(new_low, new_high + 1))
    ):
        return (*table_meld.cards, *cards), [
            Violation(
                "run_wraps_around" if wraps else "run_out_of_range",
                {"detail": Phrase(_no_room(side, spare), {"meld": table_meld.span_text()})},
            )
        ]
    spare_wilds = iter(wilds)
    placed = {**below, **above}
    existing = {table_meld.low + k: card for k, card in enumerate(_ascending(table_meld))}
    ordered = [
        existing.get(v) or placed.get(v) or next(spare_wilds) for v in range(new_low, new_high + 1)
    ]
    if table_meld.descending:
        ordered.reverse()
    return tuple(ordered), []


def _no_room(side: str, spare: int) -> str:
    """Where a run has no room for the wild cards laid off with it, in words."""
    if spare <= 0:
        return N_("no room at either end of {meld}")
    if side == "high":
        return N_("no room at the high end of {meld}")
    return N_("no room at the low end of {meld}")


def _place_naturals(
    ruleset: Ruleset, table_meld: Meld, cards: Sequence[Card]
) -> tuple[dict[int, Natural], dict[int, Natural], list[Card], list[Violation]]:
    """The naturals laid off below and above a run, by value, the wild cards, and why a
    natural fits at neither end (another suit, no free place)."""
    assert table_meld.low is not None and table_meld.high is not None
    low, high, suit = table_meld.low, table_meld.high, table_meld.suit
    lowest = LOW_ACE if ruleset.ace_low else 2
    highest = HIGH_ACE if ruleset.ace_high else 13
    violations: list[Violation] = []
    below: dict[int, Natural] = {}
    above: dict[int, Natural] = {}
    # In one fixed order, whatever order they came in: a lay-off's cards may come in any.
    wilds = sorted((card for card in cards if ruleset.is_wild(card)), key=wild_key)
    for card in ruleset.naturals(cards):
        if card.suit is not suit:
            violations.append(
                Violation("run_mixed_suits", {"suit": suit_name(suit)}, card=str(card))
            )
            continue
        taken = below.keys() | above.keys()
        value = _place(card.rank, low, high, lowest, highest, taken)
        if value is None and _turns_corner(card.rank, low, high, len(wilds)):
            violations.append(_wraps(table_meld, card, wilds))
        elif value is None:
            violations.append(
                Violation(
                    "run_not_consecutive",
                    {
                        "detail": Phrase(
                            N_("{card} has no free place at either end of {meld}"),
                            {"card": str(card), "meld": table_meld.span_text()},
                        )
                    },
                    card=str(card),
                )
            )
        elif value < low:
            below[value] = card
        else:
            above[value] = card
    return below, above, wilds, violations


def _ascending(meld: Meld) -> tuple[Card, ...]:
    return tuple(reversed(meld.cards)) if meld.descending else meld.cards


def _place(
    rank: Rank, low: int, high: int, lowest: int, highest: int, taken: Set[int]
) -> int | None:
    """The value a natural takes beside a run spanning ``low..high``, if any end has room
    not ``taken`` by another card of the lay-off.

    An ace takes whichever of its values lies nearer the run (below ``2H 3H``, above ``KH``).
    """
    candidates = [HIGH_ACE, LOW_ACE] if rank is Rank.ACE else [int(rank)]
    fitting = [
        v for v in candidates if lowest <= v <= highest and (v < low or v > high) and v not in taken
    ]
    if not fitting:
        return None
    return min(fitting, key=lambda v: low - v if v < low else v - high)


def _turns_corner(rank: Rank, low: int, high: int, wilds: int) -> bool:
    """Whether a natural that has no place in a run spanning ``low..high`` would follow it
    round the corner past an ace at its end (``JH QH KH AH`` + ``2H``, ``AH 2H 3H`` + ``KH``),
    with the lay-off's ``wilds`` wild cards filling the ranks between: an ace used as a
    bridge, which the meld check calls ``run_wraps_around``. (An ace never follows an ace:
    a second one has its place at the other end, or none.)"""
    if rank is Rank.ACE:
        return False
    value = int(rank)
    past_high = value + 13 - high - 1  # ranks to fill between the high ace and the card
    past_low = low - (value - 13) - 1  # ranks to fill between the card and the low ace
    return (high == HIGH_ACE and past_high <= wilds) or (low == LOW_ACE and past_low <= wilds)


def _wraps(table_meld: Meld, card: Card, wilds: Sequence[Card]) -> Violation:
    """``run_wraps_around`` for ``card`` laid past the ace at an end of the run, the wild cards
    between: the cards as they would lie, as the meld check would be shown them."""
    ascending = _ascending(table_meld)
    past_high = table_meld.high == HIGH_ACE
    cards = (*ascending, *wilds, card) if past_high else (card, *wilds, *ascending)
    return Violation("run_wraps_around", {"detail": " ".join(map(str, cards))}, card=str(card))
