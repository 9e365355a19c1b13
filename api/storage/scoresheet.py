"""A stored sheet read as the score sheet a table keeps: the rounds in order, who deals each,
what every seat scored, the totals, the standings and, at the end, the winners.

:func:`score_sheet` builds it from a :class:`~api.storage.sheets.Sheet` (``rules.match`` does
the arithmetic); the web layer's ``SheetSchema`` writes it as JSON and as a spreadsheet.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from rules import parse_cards
from rules.match import Result, TieBreak, outcome, schedule
from rules.ruleset import Contract

from .sheets import Sheet


@dataclass(frozen=True, slots=True)
class SeatName:
    seat: int
    name: str


@dataclass(frozen=True, slots=True)
class RecordedResult:
    """One seat's result in a played round, as recorded: the cards only if they were given."""

    seat: int
    points: int
    #: The seat's running total after this round.
    total: int
    penalty: int
    went_out: bool
    buys: int | None
    bonus: int
    cards: list[str] | None


@dataclass(frozen=True, slots=True)
class SheetRound:
    """A round of the match: its deal, and once played, how it ended and what each seat scored."""

    number: int
    contract: Contract
    hand_size: int
    whole_hand: bool
    discard_to_go_out: bool
    dealer: int
    cutter: int
    first_player: int
    #: "played" or "pending"; a pending round has no stock_ran_out and no results.
    status: str
    stock_ran_out: bool | None = None
    results: list[RecordedResult] | None = None


@dataclass(frozen=True, slots=True)
class Total:
    seat: int
    total: int


@dataclass(frozen=True, slots=True)
class Placing:
    """A seat's place in the standings (equal totals share a rank), with the player's name."""

    rank: int
    seat: int
    name: str
    total: int


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    id: str
    #: The resolved ruleset, exactly as stored with the sheet.
    ruleset: Mapping[str, Any]
    players: list[SeatName]
    first_dealer: int
    rounds: list[SheetRound]
    totals: list[Total]
    standings: list[Placing]
    #: "in_progress" or "finished".
    status: str
    winners: list[int] | None
    tie_break: TieBreak | None
    version: int
    created_at: str
    updated_at: str
    title: str | None = None
    #: Shown once, in the answer that created the sheet; never stored in the clear.
    edit_token: str | None = None


def score_sheet(sheet: Sheet, *, edit_token: str | None = None) -> ScoreSheet:
    """The sheet as a table reads it."""
    ruleset = sheet.ruleset
    names = sheet.players
    played = {record["number"]: record for record in sheet.rounds}
    scored = [[_result_of(item) for item in record["results"]] for record in sheet.rounds]
    result = outcome(ruleset, len(names), scored)
    rounds = []
    running = [0] * len(names)
    for seating in schedule(ruleset, len(names), sheet.first_dealer):
        spec = seating.round
        record = played.get(spec.number)
        results = None
        if record is not None:
            results = []
            for item in record["results"]:
                running[item["seat"]] += item["points"]
                results.append(_recorded(item, running[item["seat"]]))
        rounds.append(
            SheetRound(
                number=spec.number,
                contract=spec.contract,
                hand_size=spec.hand_size,
                whole_hand=spec.whole_hand,
                discard_to_go_out=spec.discard_to_go_out,
                dealer=seating.dealer,
                cutter=seating.cutter,
                first_player=seating.first_player,
                status="pending" if record is None else "played",
                stock_ran_out=None if record is None else record["stock_ran_out"],
                results=results,
            )
        )
    return ScoreSheet(
        id=sheet.id,
        ruleset=sheet.ruleset_data,
        players=[SeatName(seat, name) for seat, name in enumerate(names)],
        first_dealer=sheet.first_dealer,
        rounds=rounds,
        totals=[Total(seat, total) for seat, total in enumerate(result.totals)],
        standings=[
            Placing(standing.rank, standing.seat, names[standing.seat], standing.total)
            for standing in result.standings
        ],
        status="finished" if result.finished else "in_progress",
        winners=list(result.winners) if result.finished else None,
        tie_break=result.tie_break,
        version=sheet.version,
        created_at=_iso(sheet.created_at),
        updated_at=_iso(sheet.updated_at),
        title=sheet.title,
        edit_token=edit_token,
    )


def _recorded(stored: dict[str, Any], total: int) -> RecordedResult:
    return RecordedResult(
        seat=stored["seat"],
        points=stored["points"],
        total=total,
        penalty=stored.get("penalty", stored["points"]),
        went_out=stored["went_out"],
        buys=stored.get("buys"),
        bonus=stored.get("bonus", 0),
        cards=stored.get("cards"),
    )


def _result_of(stored: dict[str, Any]) -> Result:
    cards = parse_cards(stored["cards"]) if stored.get("cards") is not None else None
    return Result(
        seat=stored["seat"],
        points=stored["points"],
        went_out=stored["went_out"],
        buys=stored.get("buys"),
        bonus=stored.get("bonus", 0),
        penalty=stored.get("penalty", stored["points"]),
        cards=cards,
    )


def _iso(moment: datetime) -> str:
    """RFC 3339 in UTC to the second, as ``2026-12-01T11:40:00Z``."""
    if moment.tzinfo is None:  # SQLite hands back naive datetimes; they were stored as UTC
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


__all__ = [
    "Placing",
    "RecordedResult",
    "ScoreSheet",
    "SeatName",
    "SheetRound",
    "Total",
    "score_sheet",
]
