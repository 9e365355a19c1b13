"""A match, scored: who deals, cuts and starts each round; results, totals, standings, winners.

Pure functions over plain values: the web layer stores a sheet's rounds and asks this module
what they mean. A round's results are validated here too — a round that cannot have happened
(two players out, a seat missing, points no hand can add up to) is refused with every reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from rules.cards import Card
from rules.checks import copies_beyond
from rules.errors import MoveError
from rules.i18n import N_
from rules.ruleset import RoundSpec, Ruleset
from rules.violations import Violation


@dataclass(frozen=True, slots=True)
class Seating:
    """Who deals, who cuts and who plays first in one round."""

    round: RoundSpec
    dealer: int
    cutter: int
    first_player: int


def seating(ruleset: Ruleset, players: int, first_dealer: int, round_number: int) -> Seating:
    """The deal passes left (clockwise) each round; the player left of the dealer starts."""
    spec = ruleset.round(round_number)
    if players < 1:
        raise MoveError(
            N_("a table has at least one player, not {players}"), field="players", players=players
        )
    dealer = (first_dealer + round_number - 1) % players
    cutter = (
        (dealer + 1) % players if ruleset.cutter == "left_of_dealer" else (dealer - 1) % players
    )
    return Seating(spec, dealer, cutter, (dealer + 1) % players)


def schedule(ruleset: Ruleset, players: int, first_dealer: int = 0) -> tuple[Seating, ...]:
    return tuple(
        seating(ruleset, players, first_dealer, n) for n in range(1, ruleset.round_count + 1)
    )


@dataclass(frozen=True, slots=True)
class Entry:
    """One seat's result as the table reports it: out, points, or the cards left in hand."""

    seat: int
    went_out: bool = False
    points: int | None = None
    cards: tuple[Card, ...] | None = None
    buys: int | None = None
    bonus: int = 0


@dataclass(frozen=True, slots=True)
class Result:
    """One seat's scored result in one round."""

    seat: int
    #: What the round adds to the seat's total (penalty less any bonus).
    points: int
    went_out: bool
    buys: int | None
    bonus: int
    #: The penalty before the bonus.
    penalty: int
    cards: tuple[Card, ...] | None = None


def score_round(
    ruleset: Ruleset,
    round_number: int,
    players: int,
    entries: Sequence[Entry],
    stock_ran_out: bool = False,
    first_dealer: int = 0,
) -> tuple[tuple[Result, ...], tuple[Violation, ...]]:
    """Score a round's entries, or say every reason it cannot have happened."""
    spec = ruleset.round(round_number)
    if players < 1:
        raise MoveError(
            N_("a table has at least one player, not {players}"), field="players", players=players
        )
    problems: list[Violation] = []
    seats = Counter(entry.seat for entry in entries)
    for seat in range(players):
        if seats[seat] == 0:
            problems.append(Violation("seat_missing", {"seat": seat}))
    for seat, count in sorted(seats.items()):
        if not 0 <= seat < players:
            problems.append(Violation("seat_unknown", {"seat": seat, "players": players}))
        elif count > 1:
            problems.append(Violation("seat_repeated", {"seat": seat, "count": count}))

    out = [entry.seat for entry in entries if entry.went_out]
    if len(out) > 1:
        problems.append(Violation("several_went_out", {"seats": ", ".join(map(str, out))}))
    if stock_ran_out and out:
        problems.append(Violation("out_when_stock_ran_out", {"seat": out[0]}))
    if not stock_ran_out and not out:
        problems.append(Violation("nobody_went_out", {"round": spec.number}))

    cutter = seating(ruleset, players, first_dealer, round_number).cutter
    results: list[Result] = []
    in_hands: Counter[Card] = Counter()
    for entry in entries:
        problems.extend(_check_entry(ruleset, spec, entry, cutter, stock_ran_out))
        if entry.cards is not None:
            in_hands.update(entry.cards)
            points = sum(ruleset.points(card) for card in entry.cards)
        else:
            points = entry.points or 0
        results.append(
            Result(
                entry.seat,
                points - entry.bonus,
                entry.went_out,
                entry.buys,
                entry.bonus,
                points,
                entry.cards,
            )
        )
    if ruleset.min_players <= players <= ruleset.max_players:
        by_text = dict(sorted(in_hands.items(), key=lambda item: str(item[0])))
        problems.extend(copies_beyond(by_text, ruleset.table(players)))
    results.sort(key=lambda result: result.seat)
    return tuple(results), tuple(problems)


def _check_entry(
    ruleset: Ruleset, spec: RoundSpec, entry: Entry, cutter: int, stock_ran_out: bool
) -> list[Violation]:
    seat = entry.seat
    problems: list[Violation] = []
    given = sum((entry.went_out, entry.points is not None, entry.cards is not None))
    if given != 1:
        problems.append(Violation("result_ambiguous", {"seat": seat}))
        return problems
    buys = entry.buys
    if buys is not None:
        if buys < 0:
            problems.append(Violation("buys_negative", {"seat": seat}))
        elif not ruleset.buying and buys:
            problems.append(Violation("buying_not_allowed", {"seat": seat}))
        elif ruleset.buy_limit is not None and buys > ruleset.buy_limit:
            problems.append(
                Violation("too_many_buys", {"seat": seat, "buys": buys, "limit": ruleset.buy_limit})
            )
    if entry.bonus:
        if not ruleset.cut_bonus:
            problems.append(Violation("bonus_not_allowed", {"seat": seat}))
        elif entry.bonus != ruleset.cut_bonus or seat != cutter:
            problems.append(
                Violation(
                    "bonus_wrong", {"seat": seat, "bonus": ruleset.cut_bonus, "cutter": cutter}
                )
            )
    if entry.went_out:
        return problems
    most_cards = _most_cards(ruleset, spec, buys, stock_ran_out)
    if entry.cards is not None:
        if not entry.cards:
            problems.append(Violation("zero_points", {"seat": seat}))
        elif len(entry.cards) > most_cards:
            problems.append(
                Violation(
                    "too_many_cards",
                    {"seat": seat, "count": len(entry.cards), "most": most_cards},
                )
            )
        return problems
    points = entry.points or 0
    if points < 0:
        problems.append(Violation("points_negative", {"seat": seat, "points": points}))
    elif points == 0:
        problems.append(Violation("zero_points", {"seat": seat}))
    else:
        if not possible_points(ruleset, points, most_cards):
            problems.append(
                Violation(
                    "points_impossible",
                    {
                        "seat": seat,
                        "points": points,
                        "cards": most_cards,
                        "values": ", ".join(map(str, ruleset.card_values())),
                    },
                )
            )
    return problems


def _most_cards(ruleset: Ruleset, spec: RoundSpec, buys: int | None, stock_ran_out: bool) -> int:
    """The most cards a player who did not go out can hold when the round ends.

    The hand dealt, and for each buy the discard and the penalty cards. A turn draws one card
    and discards one, and the round ends on the turn of the player who goes out, so nobody
    else is holding a card drawn: except where the stock ran out, which may leave the player
    on turn with the card just drawn.
    """
    if buys is None:
        buys = (
            ruleset.buy_limit
            if ruleset.buying and ruleset.buy_limit is not None
            else (10 if ruleset.buying else 0)
        )
    drawn = 1 if stock_ran_out else 0
    return spec.hand_size + drawn + buys * (1 + ruleset.buy_penalty_cards)


def possible_points(ruleset: Ruleset, points: int, most_cards: int) -> bool:
    """Whether 1..most_cards cards of the ruleset's values can add up to ``points``."""
    return bool(_sums(ruleset.card_values(), most_cards) >> points & 1)


@cache
def _sums(values: tuple[int, ...], most_cards: int) -> int:
    # A bitset: bit n is set when some hand of 1..most_cards cards costs n.
    reach, total = 1, 0
    for _ in range(most_cards):
        step = 0
        for value in values:
            step |= reach << value
        reach = step
        total |= reach
    return total


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    seat: int
    total: int


@dataclass(frozen=True, slots=True)
class TieBreak:
    """How an equal lowest total was decided (or not)."""

    method: str
    seats: tuple[int, ...]
    round: int | None
    decided: bool


@dataclass(frozen=True, slots=True)
class Outcome:
    totals: tuple[int, ...]
    standings: tuple[Standing, ...]
    finished: bool
    winners: tuple[int, ...]
    tie_break: TieBreak | None


def outcome(ruleset: Ruleset, players: int, rounds: Iterable[Sequence[Result]]) -> Outcome:
    """Totals, standings and, once every round is played, the winners (lowest total wins)."""
    totals = [0] * players
    played: list[Sequence[Result]] = list(rounds)
    for results in played:
        for result in results:
            totals[result.seat] += result.points
    finished = len(played) == ruleset.round_count
    last = {r.seat: r.points for r in played[-1]} if played else {}
    tie_break: TieBreak | None = None

    def key(seat: int) -> tuple[int, int]:
        if finished and ruleset.tie_break == "last_round":
            return totals[seat], last.get(seat, 0)
        return totals[seat], 0

    order = sorted(range(players), key=lambda seat: (key(seat), seat))
    standings: list[Standing] = []
    for position, seat in enumerate(order):
        if position and key(seat) == key(order[position - 1]):
            rank = standings[-1].rank
        else:
            rank = position + 1
        standings.append(Standing(rank, seat, totals[seat]))
    winners: tuple[int, ...] = ()
    if finished and players:
        best = min(totals)
        level = tuple(seat for seat in range(players) if totals[seat] == best)
        winners = tuple(s.seat for s in standings if s.rank == 1)
        if len(level) > 1:
            tie_break = TieBreak(
                method=ruleset.tie_break,
                seats=level,
                # "replay": the table replays this round; until then the win is shared.
                round=len(played) if ruleset.tie_break in ("last_round", "replay") else None,
                decided=len(winners) == 1,
            )
    return Outcome(tuple(totals), tuple(standings), finished, winners, tie_break)
