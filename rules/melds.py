"""Reading one meld: is it a set or a run, and what does every wild card stand for?

docs/rules.md §2: a run is read in the order its cards lie on the table, low to high unless its
naturals descend; a wild card stands for the card its position requires. A set is read in any
order, and a wild card in it stands for "a card of the set's rank". The reading is the basis of
every check: the contract check reads each meld, a lay-off re-reads the meld it makes, a joker
swap reads where the joker sits.

Ranks in a run are *values*: 1 for a low ace, 2..13 for 2..K, 14 for a high ace.

>>> from rules import find_ruleset, parse_cards
>>> run = read_meld(parse_cards(["7H", "JK", "9H", "10H"]), find_ruleset("liverpool"))
>>> run.type, run.valid, run.wilds, (run.low, run.high)
('run', True, (Wild(index=1, stands_for='8H'),), (7, 10))
>>> jumbled = read_meld(parse_cards(["10H", "JK", "7H", "9H"]), find_ruleset("liverpool"))
>>> jumbled.valid, [broken.code for broken in jumbled.violations]
(False, ['run_not_consecutive'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from rules.cards import Card, Natural, Rank, Suit
from rules.i18n import N_, Nn_, Phrase
from rules.ruleset import MeldType, Ruleset
from rules.violations import Violation

LOW_ACE, HIGH_ACE = 1, 14
_T = TypeVar("_T")


#: Each suit as a word for messages, one card of it and several ("heart", "hearts").
_SUIT_WORDS: dict[Suit, tuple[str, str]] = {
    Suit.SPADES: (N_("spade"), N_("spades")),
    Suit.HEARTS: (N_("heart"), N_("hearts")),
    Suit.DIAMONDS: (N_("diamond"), N_("diamonds")),
    Suit.CLUBS: (N_("club"), N_("clubs")),
}


def suit_name(suit: Suit | None, *, plural: bool = False) -> Phrase | str:
    """The suit as a word for messages ("heart", "hearts"); "?" for a meld without naturals."""
    if suit is None:
        return "?"
    return Phrase(_SUIT_WORDS[suit][plural])


_RANK_AT: tuple[Rank, ...] = (Rank.KING, *Rank, Rank.ACE)  # index 0 is never a run value


def rank_of(value: int) -> Rank:
    """The rank at a run value (14 is the high ace)."""
    return _RANK_AT[value]


def _majority(items: Sequence[_T]) -> _T:
    """The most common item, the earliest on a tie (the reading the table most likely meant)."""
    return max(items, key=items.count)


@dataclass(frozen=True, slots=True)
class Wild:
    """A wild card of a meld: its index in table order and what it stands for."""

    index: int
    #: A card in a run (``"6H"``), the rank alone in a set (``"7"``).
    stands_for: str


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld as the referee reads it, legal or not."""

    type: MeldType
    cards: tuple[Card, ...]
    wilds: tuple[Wild, ...]
    violations: tuple[Violation, ...]
    #: A set's rank (from its naturals), when it has any.
    rank: Rank | None = None
    #: A run's suit (from its naturals), when it has any.
    suit: Suit | None = None
    #: A run's lowest and highest values, when its positions could be read.
    low: int | None = None
    high: int | None = None
    descending: bool = False

    @property
    def valid(self) -> bool:
        return not self.violations

    @property
    def naturals(self) -> int:
        return len(self.cards) - len(self.wilds)

    def span_text(self) -> str:
        """The run's extent for messages, e.g. ``4H-7H``."""
        if self.low is None or self.high is None or self.suit is None:
            return " ".join(map(str, self.cards))
        return f"{rank_of(self.low).symbol}{self.suit.value}-{rank_of(self.high).symbol}{self.suit.value}"


def read_meld(
    cards: Sequence[Card],
    ruleset: Ruleset,
    meld_type: MeldType | None = None,
    *,
    wild_limits: bool = True,
) -> Meld:
    """Read ``cards`` as a meld (of ``meld_type`` if given, else whichever it plainly is)."""
    if meld_type == "set":
        return read_set(cards, ruleset, wild_limits=wild_limits)
    if meld_type == "run":
        return read_run(cards, ruleset, wild_limits=wild_limits)
    candidates = plausible_types(cards, ruleset)
    readings = [read_meld(cards, ruleset, t, wild_limits=wild_limits) for t in candidates]
    for reading in readings:
        if reading.valid:
            return reading
    return min(readings, key=lambda reading: len(reading.violations))


def plausible_types(cards: Sequence[Card], ruleset: Ruleset) -> tuple[MeldType, ...]:
    """The types a meld could be read as, most likely first.

    Naturals of one rank can only be a set (a run never repeats a rank) unless there is just
    one natural; naturals of one suit and distinct ranks can only be a run.
    """
    ranks: list[Rank] = []
    suits: list[Suit] = []
    wild_ranks = ruleset.wild_ranks
    for card in cards:
        if isinstance(card, Natural) and card.rank not in wild_ranks:
            ranks.append(card.rank)
            suits.append(card.suit)
    naturals = len(ranks)
    one_rank = not ranks or ranks.count(ranks[0]) == naturals
    one_suit = not suits or suits.count(suits[0]) == naturals
    could_set = one_rank
    could_run = one_suit and (naturals <= 1 or len(set(ranks)) == naturals)
    if could_set and could_run:
        # One natural and wild cards: both readings exist; a set fixes its wilds by rank alone.
        return ("set", "run")
    if could_set:
        return ("set",)
    if could_run:
        return ("run",)
    return ("set", "run") if len(set(ranks)) <= len(set(suits)) else ("run", "set")


def read_set(cards: Sequence[Card], ruleset: Ruleset, *, wild_limits: bool = True) -> Meld:
    violations: list[Violation] = []
    wild_at: list[int] = []
    ranks: list[Rank] = []
    wild_ranks = ruleset.wild_ranks
    for index, card in enumerate(cards):
        natural = card.rank
        # ruleset.is_wild written out, as the rank is wanted anyway: a set counts by rank.
        if natural is None or natural in wild_ranks:
            wild_at.append(index)
        else:
            ranks.append(natural)
    rank = ranks[0] if ranks else None
    if rank is not None and ranks.count(rank) != len(ranks):
        rank = _majority(ranks)
        for card in cards:
            if card.rank is not rank and not ruleset.is_wild(card):
                violations.append(
                    Violation("set_mixed_ranks", {"rank": rank.symbol}, card=str(card))
                )
    if len(cards) < ruleset.set_min:
        violations.append(
            Violation("set_too_short", {"min": ruleset.set_min, "length": len(cards)})
        )
    if wild_limits:
        reason = _wild_limit_reason(ruleset, "set", len(ranks), len(wild_at))
        if reason is not None:
            violations.append(Violation("too_many_wilds", {"type": "set", "detail": reason}))
    stands_for = rank.symbol if rank is not None else "?"
    # Positional, with lists: every check reads a meld or more, so this is the engine's
    # innermost step.
    return Meld(
        "set",
        tuple(cards),
        tuple([Wild(index, stands_for) for index in wild_at]) if wild_at else (),
        tuple(violations),
        rank,
    )


def _wild_limit_reason(
    ruleset: Ruleset, meld_type: MeldType, naturals: int, wilds: int
) -> Phrase | None:
    needed = ruleset.set_min_naturals if meld_type == "set" else ruleset.run_min_naturals
    values = {"needed": needed, "naturals": naturals, "wilds": wilds}
    if naturals < needed:
        if meld_type == "set":
            return Phrase.counted(
                Nn_(
                    "a set needs at least {needed} natural card; this one has {naturals}",
                    "a set needs at least {needed} natural cards; this one has {naturals}",
                ),
                values,
                count="needed",
            )
        return Phrase.counted(
            Nn_(
                "a run needs at least {needed} natural card; this one has {naturals}",
                "a run needs at least {needed} natural cards; this one has {naturals}",
            ),
            values,
            count="needed",
        )
    if ruleset.wilds_at_most_naturals and wilds > naturals:
        return Phrase.counted(
            Nn_(
                "{wilds} wild cards outnumber {naturals} natural card",
                "{wilds} wild cards outnumber {naturals} natural cards",
            ),
            values,
            count="naturals",
        )
    return None


#: A way to read a run's positions: (value at position 0, +1 low to high or -1 high to low).
_Reading = tuple[int, int]


def _readings(naturals: list[tuple[int, Rank]], ace_values: tuple[int, ...]) -> list[_Reading]:
    """Every way the naturals' positions fit one run, for each value the ace may take."""
    for _, rank in naturals:
        if rank == LOW_ACE:  # a rank is its value with the ace low
            break
    else:
        # Without a natural ace its value changes nothing: one reading or none. (A rank is an
        # int, so it is a run value as it is.)
        first_index, first_value = naturals[0]
        if len(naturals) == 1:
            return [(first_value - first_index, 1)]
        step = -1 if naturals[1][1] < first_value else 1
        start = first_value - step * first_index
        for i, r in naturals:
            if r != start + step * i:
                return []
        return [(start, step)]
    found = []
    for ace in ace_values:
        values = [(i, ace if r == LOW_ACE else int(r)) for i, r in naturals]
        step = -1 if len(values) >= 2 and values[1][1] < values[0][1] else 1
        start = values[0][1] - step * values[0][0]
        if all(v == start + step * i for i, v in values):
            found.append((start, step))
    return found


def read_run(cards: Sequence[Card], ruleset: Ruleset, *, wild_limits: bool = True) -> Meld:
    violations: list[Violation] = []
    naturals: list[tuple[int, Rank]] = []
    suits: list[Suit] = []
    wild_at: list[int] = []
    wild_ranks = ruleset.wild_ranks
    for index, card in enumerate(cards):
        if isinstance(card, Natural) and card.rank not in wild_ranks:
            naturals.append((index, card.rank))
            suits.append(card.suit)
        else:
            wild_at.append(index)
    suit = suits[0] if suits else None
    if suit is not None and suits.count(suit) != len(suits):
        suit = _majority(suits)
        for card in cards:
            if card.suit is not suit and not ruleset.is_wild(card):
                violations.append(
                    Violation("run_mixed_suits", {"suit": suit_name(suit)}, card=str(card))
                )
    length = len(cards)
    if length < ruleset.run_min:
        violations.append(Violation("run_too_short", {"min": ruleset.run_min, "length": length}))

    reading: _Placed | None = None
    if naturals:
        reading = _place_run(naturals, ruleset, length)
        if reading is None:
            violations.append(_why_not_a_run(naturals, cards, ruleset, length))
    if wild_limits:
        reason = _wild_limit_reason(ruleset, "run", len(naturals), len(wild_at))
        if reason is None and naturals and wild_at:  # the limits below count wild cards
            reason = _run_wild_limits(ruleset, naturals, wild_at, length)
        if reason is not None:
            violations.append(Violation("too_many_wilds", {"type": "run", "detail": reason}))

    if reading is not None and suit is not None:
        start, step, low, high = reading
        wilds = [Wild(index, Card(rank_of(start + step * index), suit).text) for index in wild_at]
        # Positional, as in read_set: type, cards, wilds, violations, rank, suit, low, high,
        # descending.
        return Meld(
            "run", tuple(cards), tuple(wilds), tuple(violations), None, suit, low, high, step < 0
        )
    return Meld(
        type="run",
        cards=tuple(cards),
        wilds=tuple(Wild(index, "?") for index in wild_at),
        violations=tuple(violations),
        suit=suit,
    )


#: Where a run lies: its reading (start, step) and its lowest and highest values.
_Placed = tuple[int, int, int, int]


def _ace_values(ruleset: Ruleset) -> tuple[int, ...]:
    """The values an ace may take in a run: low (1), high (14) or either."""
    if ruleset.ace_low and ruleset.ace_high:
        return (LOW_ACE, HIGH_ACE)
    return (LOW_ACE,) if ruleset.ace_low else (HIGH_ACE,)


def _dead_ranks(ruleset: Ruleset) -> tuple[Rank, ...]:
    """Ranks no run may pass through: wild ranks that are not ranks at all (May I's twos)."""
    return () if ruleset.wild_rank_in_melds else tuple(ruleset.wild_ranks)


def _place_run(naturals: list[tuple[int, Rank]], ruleset: Ruleset, length: int) -> _Placed | None:
    """The first reading of the naturals' positions that puts the whole run within the ranks
    in play, or None if none does."""
    lowest = LOW_ACE if ruleset.ace_low else 2
    highest = HIGH_ACE if ruleset.ace_high else 13
    dead = _dead_ranks(ruleset)
    for start, step in _readings(naturals, _ace_values(ruleset)):
        end = start + step * (length - 1)
        low, high = (start, end) if step > 0 else (end, start)
        if (
            lowest <= low
            and high <= highest
            and high - low <= 12  # 13 ranks at most: never an ace at both ends
            and not (
                dead
                and any(
                    low <= int(rank) <= high or (rank == LOW_ACE and high == HIGH_ACE)
                    for rank in dead
                )
            )
        ):
            return (start, step, low, high)
    return None


def _run_wild_limits(
    ruleset: Ruleset, naturals: list[tuple[int, Rank]], wild_at: list[int], length: int
) -> Phrase | None:
    if ruleset.wilds_outside_span is not None:
        first, last = naturals[0][0], naturals[-1][0]
        outside = len([i for i in wild_at if i < first or i > last])
        if outside > ruleset.wilds_outside_span:
            return Phrase.counted(
                Nn_(
                    "{outside} wild card lies outside the naturals; at most {most} may,"
                    " where the naturals cannot fix their place",
                    "{outside} wild cards lie outside the naturals; at most {most} may,"
                    " where the naturals cannot fix their place",
                ),
                {"outside": outside, "most": ruleset.wilds_outside_span},
                count="outside",
            )
    per = ruleset.run_wilds_per_cards
    if per is not None and len(wild_at) > length // per:
        return Phrase(
            N_("at most one wild card per {per} cards of a run; this one has {wilds}"),
            {"per": per, "wilds": len(wild_at)},
        )
    return None


def _why_not_a_run(
    naturals: list[tuple[int, Rank]], cards: Sequence[Card], ruleset: Ruleset, length: int
) -> Violation:
    """Tell apart a run that turns the corner, one that leaves the ranks in play, and a jumble."""
    allowed = _ace_values(ruleset)
    dead = set(_dead_ranks(ruleset))
    text = " ".join(map(str, cards))
    fits = _readings(naturals, (LOW_ACE, HIGH_ACE))
    for start, step in fits:
        ends = (start, start + step * (length - 1))
        lo, hi = min(ends), max(ends)
        if lo < LOW_ACE or hi > HIGH_ACE or (lo <= LOW_ACE and hi >= HIGH_ACE):
            continue
        uses_ace = {v for v in (LOW_ACE, HIGH_ACE) if lo <= v <= hi}
        if uses_ace and not uses_ace & set(allowed):
            only = N_("the ace ranks only high here: {cards}") if ruleset.ace_high else None
            return Violation(
                "run_out_of_range",
                {
                    "detail": Phrase(
                        only or N_("the ace ranks only low here: {cards}"), {"cards": text}
                    )
                },
            )
        dead_here = sorted({rank_of(v) for v in range(lo, hi + 1)} & dead)
        if dead_here:
            return Violation(
                "run_out_of_range",
                {
                    "detail": Phrase(
                        N_("{rank}s are only wild here and no run passes through them: {cards}"),
                        {"rank": dead_here[0].symbol, "cards": text},
                    )
                },
            )
    # Positions fit if ranks are taken round the corner (K A 2): a bridge.
    first_index, first_rank = naturals[0]
    for step in (1, -1):
        if all(
            (int(r) - int(first_rank) - step * (i - first_index)) % 13 == 0 for i, r in naturals
        ):
            return Violation("run_wraps_around", {"detail": text})
    if fits:  # consecutive, but running past an ace (a wild beyond A, or 14+ cards)
        return Violation("run_wraps_around", {"detail": text})
    return Violation("run_not_consecutive", {"detail": text})
