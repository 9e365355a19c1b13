"""Rulesets as declared data, and the registry of presets.

Every number RULES.md names is a field of :class:`Ruleset`, never a constant in the checks: a
variant is its base with some fields replaced (:func:`dataclasses.replace`), and a house ruleset
is a preset plus *options*, each checked against :data:`PARAMETERS` so that an unknown or
inconsistent option is refused with its reason instead of silently becoming a default.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from rules.cards import JOKER, Card, Rank, Suit
from rules.choices import (
    FirstDealer,
    LayoffTiming,
    MeldType,
    Neighbour,
    StockRule,
    SwapTiming,
    TieBreak,
)
from rules.choices import Obligation as FreedJoker
from rules.errors import RoundError, RulesError, RulesetError


@dataclass(frozen=True, slots=True)
class MeldSpec:
    """One meld a contract asks for: its type and the fewest cards it may have."""

    type: MeldType
    min: int

    @property
    def text(self) -> str:
        return f"{self.type} of {self.min}"


_CONTRACT_PART = re.compile(
    r"^\s*(\d+)\s+(set|sets|book|books|run|runs|sequence|sequences)(?:\s+of\s+(\d+)(?:\s+or\s+more)?)?\s*$"
)


@dataclass(frozen=True, slots=True)
class Contract:
    """The melds a round requires, all laid on one turn ("1 set + 2 runs").

    >>> Contract.parse("1 set + 2 runs").text
    '1 set + 2 runs'
    >>> Contract.parse("1 run of 7").min_cards
    7
    """

    melds: tuple[MeldSpec, ...]

    @staticmethod
    def parse(text: str, *, set_min: int = 3, run_min: int = 4) -> Contract:
        """Read "2 sets", "1 set + 1 run", "2 runs of 5"; minima default to the ruleset's."""
        if not isinstance(text, str) or not text.strip():
            raise RulesetError(f"not a contract: {text!r}")
        melds: list[MeldSpec] = []
        for part in text.split("+"):
            match = _CONTRACT_PART.match(part.lower())
            if match is None:
                raise RulesetError(
                    f"not a contract: {text!r} (write it like '1 set + 2 runs' or '1 run of 7')"
                )
            count, word, size = int(match[1]), match[2], match[3]
            meld_type: MeldType = "set" if word.startswith(("set", "book")) else "run"
            minimum = int(size) if size else (set_min if meld_type == "set" else run_min)
            if not 1 <= count <= 6 or not 1 <= minimum <= 13:
                raise RulesetError(f"not a contract: {text!r} (counts 1-6, sizes 1-13)")
            melds.extend([MeldSpec(meld_type, minimum)] * count)
        melds.sort(key=lambda spec: (spec.type != "set", -spec.min))
        return Contract(tuple(melds))

    # Derived once: every contract check asks for them.
    sets: int = field(init=False, repr=False, compare=False)
    runs: int = field(init=False, repr=False, compare=False)
    set_specs: tuple[MeldSpec, ...] = field(init=False, repr=False, compare=False)
    run_specs: tuple[MeldSpec, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        set_specs = tuple(spec for spec in self.melds if spec.type == "set")
        run_specs = tuple(spec for spec in self.melds if spec.type == "run")
        object.__setattr__(self, "set_specs", set_specs)
        object.__setattr__(self, "run_specs", run_specs)
        object.__setattr__(self, "sets", len(set_specs))
        object.__setattr__(self, "runs", len(run_specs))

    @property
    def min_cards(self) -> int:
        return sum(spec.min for spec in self.melds)

    def specs(self, meld_type: MeldType) -> tuple[MeldSpec, ...]:
        return self.set_specs if meld_type == "set" else self.run_specs

    @property
    def text(self) -> str:
        parts: list[str] = []
        for meld_type, default in (("set", 3), ("run", 4)):
            sizes: dict[int, int] = {}
            for spec in self.specs(cast(MeldType, meld_type)):
                sizes[spec.min] = sizes.get(spec.min, 0) + 1
            for size, count in sizes.items():
                noun = meld_type if count == 1 else meld_type + "s"
                parts.append(f"{count} {noun}" + ("" if size == default else f" of {size}"))
        return " + ".join(parts)


@dataclass(frozen=True, slots=True)
class RoundSpec:
    """One round of a match: its contract, how many cards are dealt, and how it ends."""

    number: int
    contract: Contract
    hand_size: int
    #: The contract is the whole hand, laid at once (and that ends the round).
    whole_hand: bool = False
    #: Going out takes a final discard; when false the last card played ends the round.
    discard_to_go_out: bool = True
    #: Contract melds must have exactly their minimum size (Pagat's Contract Rummy).
    exact_minimum: bool = False


@dataclass(frozen=True, slots=True)
class TableSize:
    """Decks and jokers for a table of up to ``max_players`` players."""

    max_players: int
    decks: int
    jokers: int


_FACE_TENS = (15, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10)  # A, 2..9, 10, J, Q, K (Liverpool)
_PIP_VALUE = (15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)  # pips at face value (Contract Rummy)


@dataclass(frozen=True)
class Ruleset:
    """Every parameter of one way to play; see RULES.md §3 for what each one means."""

    id: str
    name: str
    family: str
    description: str
    base: str | None = None
    # The table.
    min_players: int = 3
    max_players: int = 8
    tables: tuple[TableSize, ...] = (TableSize(4, 2, 4), TableSize(8, 3, 6))
    # Cards.
    wild_ranks: frozenset[Rank] = frozenset()
    #: Whether the wild ranks still exist as a rank a wild may stand for (California's queens
    #: do; May I's twos have no natural meaning at all).
    wild_rank_in_melds: bool = True
    ace_low: bool = True
    ace_high: bool = True
    set_min: int = 3
    run_min: int = 4
    rounds: tuple[RoundSpec, ...] = ()
    # Contracts.
    runs_may_touch: bool = True
    #: Fewest ranks missing between two runs of one suit in one contract (0: no such rule).
    same_suit_run_gap: int = 0
    # Lay-offs.
    layoff_timing: LayoffTiming = "same_turn"
    # Wild cards.
    set_min_naturals: int = 1
    run_min_naturals: int = 1
    #: Most wild cards a run may hold outside the span of its naturals (None: no limit).
    wilds_outside_span: int | None = None
    #: House option: at most one wild card per this many cards of a run (None: off).
    run_wilds_per_cards: int | None = None
    #: Wild cards may not outnumber the naturals of a meld.
    wilds_at_most_naturals: bool = False
    #: The wild-card limits also hold for a meld after a lay-off.
    wild_limits_on_layoff: bool = True
    # Joker swaps.
    swaps: bool = True
    swap_from_sets: bool = True
    swap_from_runs: bool = True
    #: Only jokers may be taken, never a wild card of a wild rank (May I's twos).
    swap_jokers_only: bool = False
    swap_timing: SwapTiming = "any"
    freed_joker: FreedJoker = "own_meld_now"
    # Buying.
    buying: bool = True
    buy_limit: int | None = 3
    buy_penalty_cards: int = 1
    no_consecutive_buys: bool = False
    buy_when_down: bool = True
    # Going out and scoring.
    #: A player may go out by melding every card, with no final discard.
    go_out_by_melding: bool = False
    rank_points: tuple[int, ...] = _FACE_TENS
    joker_points: int = 15
    #: What a card of a wild rank costs in hand (None: its rank's value).
    wild_rank_points: int | None = None
    tie_break: TieBreak = "last_round"
    #: Points taken off for cutting exactly the cards needed (0: no such bonus).
    cut_bonus: int = 0
    cutter: Neighbour = "left_of_dealer"
    first_dealer: FirstDealer = "agreed"
    stock_exhausted: StockRule = "reshuffle"
    #: The options this ruleset was made with, when it is a house ruleset.
    options: Mapping[str, Any] = field(default_factory=dict, compare=False)

    # --- questions the checks ask ---------------------------------------------------------

    def is_wild(self, card: Card) -> bool:
        return card.rank is None or card.rank in self.wild_ranks

    def round(self, number: int) -> RoundSpec:
        """The round with this number; raise :class:`RoundError` if the ruleset has none."""
        if isinstance(number, int) and not isinstance(number, bool):
            if 1 <= number <= len(self.rounds):
                return self.rounds[number - 1]
        raise RoundError(
            f"{self.id!r} has rounds 1 to {len(self.rounds)}, not {number!r}", field="round"
        )

    @property
    def round_count(self) -> int:
        return len(self.rounds)

    def table(self, players: int | None = None) -> TableSize:
        """Decks and jokers for ``players`` players; without a count, the largest table.

        RULES §5: not knowing the table must never make a legal meld illegal, so the default
        is the most decks and the most jokers the ruleset allows.
        """
        if players is None:
            return self.largest_table
        if not self.min_players <= players <= self.max_players:
            raise RulesetError(
                f"{self.id!r} is for {self.min_players} to {self.max_players} players,"
                f" not {players!r}",
                field="players",
            )
        for size in self.tables:
            if players <= size.max_players:
                return size
        return self.tables[-1]

    @functools.cached_property
    def largest_table(self) -> TableSize:
        """The most decks and the most jokers any table of this ruleset plays with."""
        return TableSize(
            self.max_players,
            max(size.decks for size in self.tables),
            max(size.jokers for size in self.tables),
        )

    def points(self, card: Card) -> int:
        """What ``card`` costs when it is left in hand at the end of a round."""
        if card.rank is None:
            return self.joker_points
        if card.rank in self.wild_ranks and self.wild_rank_points is not None:
            return self.wild_rank_points
        return self.rank_points[card.rank - 1]

    def card_values(self) -> tuple[int, ...]:
        """Every value a single card in play can cost, lowest first (for telling possible
        totals)."""
        return self._card_values

    @functools.cached_property
    def _card_values(self) -> tuple[int, ...]:
        values = {self.points(Card(rank, Suit.SPADES)) for rank in Rank}
        if any(size.jokers for size in self.tables):
            values.add(self.joker_points)
        return tuple(sorted(values))

    # --- making house rulesets ----------------------------------------------------------------

    def with_options(self, options: Mapping[str, Any]) -> Ruleset:
        """This ruleset with some parameters replaced; unknown or inconsistent options raise."""
        if not isinstance(options, Mapping):
            raise RulesetError("options must be an object of parameter values", field="options")
        changes: dict[str, Any] = {}
        for name, value in options.items():
            parameter = PARAMETERS.get(name)
            if parameter is None:
                raise RulesetError(
                    f"unknown option {name!r}; the options are: {', '.join(sorted(PARAMETERS))}",
                    field=f"options.{name}",
                )
            try:
                parameter.apply(self, value, changes)
            except RulesError as error:  # a bad rank inside an option is the option's fault
                raise RulesetError(str(error), field=f"options.{name}") from None
        changed = dataclasses.replace(
            self,
            id=self.id,
            base=self.base,
            options={**self.options, **options},
            **changes,
        )
        changed.check_consistent(given=set(options))
        return changed

    def check_consistent(self, given: Iterable[str] = ()) -> None:
        """Refuse a combination of parameters no table could play by."""
        given = set(given)
        problems: list[tuple[str, str]] = []
        if self.min_players > self.max_players:
            problems.append(("min_players", "min_players is more than max_players"))
        if self.tables[-1].max_players < self.max_players:
            problems.append(("tables", f"no decks are given for {self.max_players} players"))
        if not (self.ace_low or self.ace_high):
            problems.append(("ace_low", "the ace must rank low, high or both"))
        if not self.rounds:
            problems.append(("rounds", "a match needs at least one round"))
        if self.set_min_naturals > self.set_min:
            problems.append(("set_min_naturals", "a set cannot need more naturals than cards"))
        if self.run_min_naturals > self.run_min:
            problems.append(("run_min_naturals", "a run cannot need more naturals than cards"))
        if not self.buying:
            for name in ("buy_limit", "buy_penalty_cards", "no_consecutive_buys", "buy_when_down"):
                if name in given:
                    problems.append((name, f"{name} is set but buying is not allowed"))
        if not self.swaps:
            for name in (
                "swap_from_sets",
                "swap_from_runs",
                "swap_timing",
                "freed_joker",
                "swap_jokers_only",
            ):
                if name in given:
                    problems.append((name, f"{name} is set but joker swaps are not allowed"))
        elif not (self.swap_from_sets or self.swap_from_runs) and "swaps" in given:
            problems.append(("swaps", "swaps are allowed but from neither sets nor runs"))
        if given & {"set_min", "run_min", "rounds"}:
            # A contract meld shorter than any meld may be: misleading at best, and never
            # layable where the round asks for exactly its minimum.
            for spec in self.rounds:
                for meld in dict.fromkeys(spec.contract.melds):  # each kind of meld once
                    least = self.set_min if meld.type == "set" else self.run_min
                    if meld.min < least:
                        problems.append(
                            (
                                "rounds",
                                f"round {spec.number} asks for a {meld.text}, shorter"
                                f" than the {meld.type} minimum of {least}",
                            )
                        )
        if problems:
            name, reason = problems[0]
            raise RulesetError(
                "inconsistent ruleset: " + "; ".join(reason for _, reason in problems),
                field=f"options.{name}",
            )

    # --- describing -------------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """Every parameter as plain JSON-able data (what the API shows and a sheet stores)."""
        return {
            "id": self.id,
            "name": self.name,
            "family": self.family,
            "description": self.description,
            "base": self.base,
            "options": dict(self.options),
            "players": {"min": self.min_players, "max": self.max_players},
            "round_count": self.round_count,
            "tables": [
                {"max_players": t.max_players, "decks": t.decks, "jokers": t.jokers}
                for t in self.tables
            ],
            "wild_ranks": [rank.symbol for rank in sorted(self.wild_ranks)],
            "wild_rank_in_melds": self.wild_rank_in_melds,
            "ace_low": self.ace_low,
            "ace_high": self.ace_high,
            "set_min": self.set_min,
            "run_min": self.run_min,
            "runs_may_touch": self.runs_may_touch,
            "same_suit_run_gap": self.same_suit_run_gap,
            "layoff_timing": self.layoff_timing,
            "set_min_naturals": self.set_min_naturals,
            "run_min_naturals": self.run_min_naturals,
            "wilds_outside_span": self.wilds_outside_span,
            "run_wilds_per_cards": self.run_wilds_per_cards,
            "wilds_at_most_naturals": self.wilds_at_most_naturals,
            "wild_limits_on_layoff": self.wild_limits_on_layoff,
            "swaps": self.swaps,
            "swap_from_sets": self.swap_from_sets,
            "swap_from_runs": self.swap_from_runs,
            "swap_jokers_only": self.swap_jokers_only,
            "swap_timing": self.swap_timing,
            "freed_joker": self.freed_joker,
            "buying": self.buying,
            "buy_limit": self.buy_limit,
            "buy_penalty_cards": self.buy_penalty_cards,
            "no_consecutive_buys": self.no_consecutive_buys,
            "buy_when_down": self.buy_when_down,
            "go_out_by_melding": self.go_out_by_melding,
            "points": self.points_table(),
            "tie_break": self.tie_break,
            "cut_bonus": self.cut_bonus,
            "cutter": self.cutter,
            "first_dealer": self.first_dealer,
            "stock_exhausted": self.stock_exhausted,
            "rounds": [round_as_dict(spec) for spec in self.rounds],
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Ruleset:
        """Rebuild a ruleset from :meth:`as_dict` (how a match sheet keeps its rules).

        A sheet stores its ruleset resolved, so a later change to a preset never changes an
        old sheet's scores; this reads it back. Points come back as the table shows them
        (a wild rank's effective value), which scores every card the same.
        """
        try:
            fields = {name: data[name] for name in _PLAIN_FIELDS}
            points = data["points"]
            rounds = tuple(
                RoundSpec(
                    number=item["number"],
                    contract=Contract(
                        tuple(MeldSpec(m["type"], m["min"]) for m in item["contract"]["melds"])
                    ),
                    hand_size=item["hand_size"],
                    whole_hand=item["whole_hand"],
                    discard_to_go_out=item["discard_to_go_out"],
                    exact_minimum=item["exact_minimum"],
                )
                for item in data["rounds"]
            )
            return Ruleset(
                **fields,
                min_players=data["players"]["min"],
                max_players=data["players"]["max"],
                tables=tuple(
                    TableSize(t["max_players"], t["decks"], t["jokers"]) for t in data["tables"]
                ),
                wild_ranks=frozenset(Rank.parse(r) for r in data["wild_ranks"]),
                rounds=rounds,
                rank_points=tuple(points[rank.symbol] for rank in Rank),
                joker_points=points["JK"],
                options=dict(data.get("options") or {}),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise RulesetError(f"not a stored ruleset: {error!r}") from None

    def points_table(self) -> dict[str, int]:
        table = {rank.symbol: self.rank_points[rank - 1] for rank in Rank}
        if self.wild_rank_points is not None:
            for rank in self.wild_ranks:
                table[rank.symbol] = self.wild_rank_points
        table["JK"] = self.joker_points
        return table


# Fields that as_dict writes under their own name with a plain JSON value.
_PLAIN_FIELDS = (
    "id",
    "name",
    "family",
    "description",
    "base",
    "wild_rank_in_melds",
    "ace_low",
    "ace_high",
    "set_min",
    "run_min",
    "runs_may_touch",
    "same_suit_run_gap",
    "layoff_timing",
    "set_min_naturals",
    "run_min_naturals",
    "wilds_outside_span",
    "run_wilds_per_cards",
    "wilds_at_most_naturals",
    "wild_limits_on_layoff",
    "swaps",
    "swap_from_sets",
    "swap_from_runs",
    "swap_jokers_only",
    "swap_timing",
    "freed_joker",
    "buying",
    "buy_limit",
    "buy_penalty_cards",
    "no_consecutive_buys",
    "buy_when_down",
    "go_out_by_melding",
    "tie_break",
    "cut_bonus",
    "cutter",
    "first_dealer",
    "stock_exhausted",
)


def contract_as_dict(contract: Contract) -> dict[str, Any]:
    return {
        "melds": [{"type": spec.type, "min": spec.min} for spec in contract.melds],
        "text": contract.text,
    }


def round_as_dict(spec: RoundSpec) -> dict[str, Any]:
    return {
        "number": spec.number,
        "contract": contract_as_dict(spec.contract),
        "hand_size": spec.hand_size,
        "min_cards": spec.contract.min_cards,
        "whole_hand": spec.whole_hand,
        "discard_to_go_out": spec.discard_to_go_out,
        "exact_minimum": spec.exact_minimum,
    }


# --- the parameters a house ruleset may set ----------------------------------------------------


def _bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise RulesetError(f"{name} must be true or false, not {value!r}")
    return value


def _int(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesetError(f"{name} must be a whole number from {low} to {high}, not {value!r}")
    return value


@dataclass(frozen=True)
class Parameter:
    """One settable parameter: how a house option's value is checked and applied."""

    name: str
    description: str
    kind: Literal[
        "bool",
        "int",
        "optional_int",
        "choice",
        "ranks",
        "points",
        "rounds",
        "tables",
        "round_count",
        "hand_size",
        "exact_minimum",
        "jokers",
    ]
    low: int = 0
    high: int = 0
    choices: tuple[str, ...] = ()

    def apply(self, ruleset: Ruleset, value: Any, changes: dict[str, Any]) -> None:
        name = self.name
        if self.kind == "bool":
            changes[name] = _bool(value, name)
        elif self.kind == "int":
            changes[name] = _int(value, name, self.low, self.high)
        elif self.kind == "optional_int":
            changes[name] = None if value is None else _int(value, name, self.low, self.high)
        elif self.kind == "choice":
            if value not in self.choices:
                raise RulesetError(
                    f"{name} must be one of {', '.join(self.choices)}, not {value!r}"
                )
            changes[name] = value
        elif self.kind == "ranks":
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise RulesetError(f"{name} must be a list of ranks like ['2'], not {value!r}")
            changes[name] = frozenset(Rank.parse(v) for v in value)
        elif self.kind == "points":
            changes.update(_points(ruleset, value))
        elif self.kind == "rounds":
            changes["rounds"] = _rounds(ruleset, value)
        elif self.kind == "tables":
            changes["tables"] = _tables(value)
        elif self.kind == "round_count":
            count = _int(value, name, self.low, min(self.high, len(ruleset.rounds)))
            changes["rounds"] = changes.get("rounds", ruleset.rounds)[:count]
        elif self.kind == "hand_size":
            size = _int(value, name, self.low, self.high)
            changes["rounds"] = tuple(
                dataclasses.replace(spec, hand_size=size)
                for spec in changes.get("rounds", ruleset.rounds)
            )
        elif self.kind == "exact_minimum":
            exact = _bool(value, name)
            changes["rounds"] = tuple(
                dataclasses.replace(spec, exact_minimum=exact and not spec.whole_hand)
                for spec in changes.get("rounds", ruleset.rounds)
            )
        elif self.kind == "jokers":
            jokers = _int(value, name, self.low, self.high)
            changes["tables"] = tuple(
                dataclasses.replace(size, jokers=jokers) for size in ruleset.tables
            )


def _points(ruleset: Ruleset, value: Any) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise RulesetError(f"points must map ranks (and 'JK') to points, not {value!r}")
    ranks = list(ruleset.rank_points)
    joker = ruleset.joker_points
    wild = ruleset.wild_rank_points
    for key, points in value.items():
        points = _int(points, f"points[{key!r}]", 0, 500)
        if isinstance(key, str) and key.strip().upper() in ("JK", "JOKER"):
            joker = points
            continue
        rank = Rank.parse(key)
        if rank in ruleset.wild_ranks:
            wild = points
        ranks[rank - 1] = points
    return {"rank_points": tuple(ranks), "joker_points": joker, "wild_rank_points": wild}


def _rounds(ruleset: Ruleset, value: Any) -> tuple[RoundSpec, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= 20:
        raise RulesetError("rounds must be a list of 1 to 20 rounds")
    rounds: list[RoundSpec] = []
    allowed = {"contract", "hand_size", "whole_hand", "discard_to_go_out", "exact_minimum"}
    for number, item in enumerate(value, start=1):
        if not isinstance(item, Mapping) or not {"contract", "hand_size"} <= set(item):
            raise RulesetError(f"round {number} needs a contract and a hand_size")
        unknown = set(item) - allowed
        if unknown:
            raise RulesetError(f"round {number}: unknown field(s) {sorted(unknown)}")
        contract = Contract.parse(
            item["contract"], set_min=ruleset.set_min, run_min=ruleset.run_min
        )
        whole_hand = _bool(item.get("whole_hand", False), "whole_hand")
        rounds.append(
            RoundSpec(
                number=number,
                contract=contract,
                hand_size=_int(item["hand_size"], "hand_size", 1, 30),
                whole_hand=whole_hand,
                discard_to_go_out=_bool(
                    item.get("discard_to_go_out", not whole_hand), "discard_to_go_out"
                ),
                exact_minimum=_bool(item.get("exact_minimum", False), "exact_minimum"),
            )
        )
    return tuple(rounds)


def _tables(value: Any) -> tuple[TableSize, ...]:
    if not isinstance(value, list) or not value:
        raise RulesetError("tables must be a list of {max_players, decks, jokers}")
    tables = []
    for item in value:
        if not isinstance(item, Mapping) or set(item) != {"max_players", "decks", "jokers"}:
            raise RulesetError("each table needs exactly max_players, decks and jokers")
        tables.append(
            TableSize(
                _int(item["max_players"], "max_players", 2, 12),
                _int(item["decks"], "decks", 1, 4),
                _int(item["jokers"], "jokers", 0, 12),
            )
        )
    tables.sort(key=lambda t: t.max_players)
    return tuple(tables)


def _p(name: str, kind: Any, description: str, **kw: Any) -> tuple[str, Parameter]:
    return name, Parameter(name, description, kind, **kw)


#: Every option a house ruleset may set, by name.
PARAMETERS: dict[str, Parameter] = dict(
    [
        _p("min_players", "int", "fewest players", low=2, high=12),
        _p("max_players", "int", "most players", low=2, high=12),
        _p("tables", "tables", "decks and jokers by table size"),
        _p("jokers", "jokers", "jokers in play, whatever the table size", high=12),
        _p("wild_ranks", "ranks", "ranks that are wild besides jokers"),
        _p("wild_rank_in_melds", "bool", "a wild may stand for the wild rank itself"),
        _p("ace_low", "bool", "the ace may rank below the 2"),
        _p("ace_high", "bool", "the ace may rank above the king"),
        _p("set_min", "int", "fewest cards in a set", low=2, high=8),
        _p("run_min", "int", "fewest cards in a run", low=3, high=13),
        _p("rounds", "rounds", "the rounds: contract and hand size of each"),
        _p("round_count", "round_count", "play only the first N rounds", low=1, high=20),
        _p("hand_size", "hand_size", "deal this many cards in every round", low=1, high=30),
        _p("exact_minimum", "exact_minimum", "contract melds at exactly their minimum size"),
        _p("runs_may_touch", "bool", "two runs of one suit in a contract may touch"),
        _p("same_suit_run_gap", "int", "fewest missing ranks between same-suit runs", high=6),
        _p(
            "layoff_timing",
            "choice",
            "first turn lay-offs are allowed",
            choices=("same_turn", "next_turn"),
        ),
        _p("set_min_naturals", "int", "fewest natural cards in a set", low=1, high=8),
        _p("run_min_naturals", "int", "fewest natural cards in a run", low=1, high=13),
        _p("wilds_outside_span", "optional_int", "most wilds outside a run's naturals", high=12),
        _p(
            "run_wilds_per_cards",
            "optional_int",
            "at most one wild per N cards of a run",
            low=2,
            high=13,
        ),
        _p("wilds_at_most_naturals", "bool", "wild cards may not outnumber naturals"),
        _p("wild_limits_on_layoff", "bool", "wild limits hold after a lay-off too"),
        _p("swaps", "bool", "jokers on the table may be swapped"),
        _p("swap_from_sets", "bool", "jokers may be taken out of sets"),
        _p("swap_from_runs", "bool", "jokers may be taken out of runs"),
        _p("swap_jokers_only", "bool", "only jokers, not wild-rank cards, may be taken"),
        _p(
            "swap_timing",
            "choice",
            "when the swapper's contract must be down",
            choices=("any", "earlier_turn", "not_down"),
        ),
        _p(
            "freed_joker",
            "choice",
            "where the freed joker must go",
            choices=("own_meld_now", "table_this_turn", "hand"),
        ),
        _p("buying", "bool", "discards may be bought out of turn"),
        _p("buy_limit", "optional_int", "most buys per player per round", low=1, high=20),
        _p("buy_penalty_cards", "int", "extra cards a buyer takes from the stock", high=3),
        _p("no_consecutive_buys", "bool", "nobody buys two discards in a row"),
        _p("buy_when_down", "bool", "a player whose contract is down may still buy"),
        _p("go_out_by_melding", "bool", "going out without a final discard"),
        _p("points", "points", "penalty points by rank, and 'JK'"),
        _p(
            "tie_break",
            "choice",
            "how an equal lowest total is decided",
            choices=("last_round", "shared", "replay"),
        ),
        _p("cut_bonus", "int", "points off for an exact cut (0: none)", high=500),
        _p("cutter", "choice", "who cuts", choices=("left_of_dealer", "right_of_dealer")),
        _p(
            "first_dealer",
            "choice",
            "how the first dealer is chosen",
            choices=("agreed", "highest_card"),
        ),
        _p(
            "stock_exhausted",
            "choice",
            "what happens when the stock runs out",
            choices=("reshuffle", "end_round"),
        ),
    ]
)


# --- the presets ---------------------------------------------------------------------------------


def _rounds_of(
    *plan: tuple[str, int],
    whole_hand_last: bool = False,
    exact: Iterable[int] = (),
    last_discard: bool = True,
) -> tuple[RoundSpec, ...]:
    exact = set(exact)
    rounds = []
    for number, (text, hand) in enumerate(plan, start=1):
        last = number == len(plan)
        whole = whole_hand_last and last
        rounds.append(
            RoundSpec(
                number,
                Contract.parse(text),
                hand,
                whole_hand=whole,
                discard_to_go_out=not whole and (last_discard or not last),
                exact_minimum=number in exact,
            )
        )
    return tuple(rounds)


_LIVERPOOL_ROUNDS = _rounds_of(
    ("2 sets", 10),
    ("1 set + 1 run", 10),
    ("2 runs", 10),
    ("3 sets", 10),
    ("2 sets + 1 run", 12),
    ("1 set + 2 runs", 12),
    ("1 run of 7", 12),
    last_discard=False,
)

LIVERPOOL = Ruleset(
    id="liverpool",
    name="Liverpool Rummy",
    family="liverpool",
    description="British seven-round contract rummy with buying and joker swaps (seeds 000, 001, 003).",
    min_players=3,
    max_players=8,
    tables=(TableSize(4, 2, 4), TableSize(8, 3, 6)),
    rounds=_LIVERPOOL_ROUNDS,
    layoff_timing="same_turn",
    set_min_naturals=2,
    run_min_naturals=1,
    wilds_outside_span=1,
    swaps=True,
    swap_from_sets=True,
    swap_from_runs=True,
    swap_timing="any",
    freed_joker="own_meld_now",
    buying=True,
    buy_limit=3,
    buy_penalty_cards=1,
    rank_points=_FACE_TENS,
    joker_points=15,
    tie_break="last_round",
    cutter="left_of_dealer",
    first_dealer="agreed",
)

CONTRACT_RUMMY = Ruleset(
    id="contract-rummy",
    name="Contract Rummy (Pagat)",
    family="contract-rummy",
    description="Pagat's Contract Rummy: exact-minimum contracts, locked set jokers, no buy limit (seed 002).",
    min_players=3,
    max_players=5,
    tables=(TableSize(3, 2, 2), TableSize(4, 2, 3), TableSize(5, 2, 4)),
    rounds=_rounds_of(
        ("2 sets", 10),
        ("1 set + 1 run", 10),
        ("2 runs", 10),
        ("3 sets", 12),
        ("2 sets + 1 run", 12),
        ("1 set + 2 runs", 12),
        ("3 runs", 12),
        whole_hand_last=True,
        exact=range(1, 7),
    ),
    runs_may_touch=False,
    layoff_timing="next_turn",
    set_min_naturals=1,
    run_min_naturals=1,
    swaps=True,
    swap_from_sets=False,
    swap_from_runs=True,
    swap_timing="earlier_turn",
    freed_joker="table_this_turn",
    buying=True,
    buy_limit=None,
    buy_penalty_cards=1,
    no_consecutive_buys=True,
    rank_points=_PIP_VALUE,
    joker_points=15,
    tie_break="shared",
    cutter="right_of_dealer",
    first_dealer="agreed",
)

_PROGRESSIVE_PLAN = (
    ("2 sets", 10),
    ("1 set + 1 run", 10),
    ("2 runs", 10),
    ("3 sets", 10),
    ("2 sets + 1 run", 12),
    ("1 set + 2 runs", 12),
    ("3 runs", 12),
)

PROGRESSIVE = Ruleset(
    id="progressive",
    name="Progressive Rummy (Vertragsrommé)",
    family="progressive",
    description="Progressive Rummy: exact contract combinations, no joker swaps, 25-point jokers (seed 004).",
    min_players=3,
    max_players=8,
    tables=(TableSize(6, 2, 4), TableSize(8, 3, 6)),
    rounds=_rounds_of(*_PROGRESSIVE_PLAN, whole_hand_last=True),
    layoff_timing="next_turn",
    set_min_naturals=1,
    run_min_naturals=1,
    swaps=False,
    swap_from_sets=False,
    swap_from_runs=False,
    buying=True,
    buy_limit=3,
    buy_penalty_cards=1,
    rank_points=_FACE_TENS,
    joker_points=25,
    tie_break="last_round",
    cutter="right_of_dealer",
    first_dealer="highest_card",
)


def _variant(base: Ruleset, id: str, name: str, description: str, **changes: Any) -> Ruleset:
    return dataclasses.replace(
        base, id=id, name=name, description=description, base=base.id, **changes
    )


_SHANGHAI_ROUNDS = (
    *_rounds_of(*_PROGRESSIVE_PLAN, whole_hand_last=True),
    # RULES §3.3: 13 cards after the draw are exactly 3 sets + 1 run, so round 8 is whole-hand.
    RoundSpec(8, Contract.parse("3 sets + 1 run"), 12, whole_hand=True, discard_to_go_out=False),
)

MAY_I = Ruleset(
    id="may-i",
    name="May I?",
    family="may-i",
    description=(
        "The North American family game as the peer engine DroopyTersen/mayi plays it: twos and "
        "jokers wild, aces high, six rounds of 11 cards, the last laid as the whole hand."
    ),
    min_players=3,
    max_players=8,
    tables=(TableSize(5, 2, 4), TableSize(8, 3, 6)),
    wild_ranks=frozenset({Rank.TWO}),
    wild_rank_in_melds=False,
    ace_low=False,
    ace_high=True,
    rounds=(
        *_rounds_of(
            ("2 sets", 11),
            ("1 set + 1 run", 11),
            ("2 runs", 11),
            ("3 sets", 11),
            ("2 sets + 1 run", 11),
        ),
        RoundSpec(
            6, Contract.parse("1 set + 2 runs"), 11, whole_hand=True, discard_to_go_out=False
        ),
    ),
    runs_may_touch=False,
    same_suit_run_gap=2,
    layoff_timing="next_turn",
    set_min_naturals=1,
    run_min_naturals=1,
    wilds_at_most_naturals=True,
    wild_limits_on_layoff=False,
    swaps=True,
    swap_from_sets=False,
    swap_from_runs=True,
    swap_jokers_only=True,
    swap_timing="not_down",
    freed_joker="hand",
    buying=True,
    buy_limit=None,
    buy_penalty_cards=1,
    buy_when_down=False,
    go_out_by_melding=True,
    rank_points=(15, 20, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10),
    joker_points=50,
    wild_rank_points=20,
    tie_break="shared",
    cutter="right_of_dealer",
)

#: Every preset, by id, in the order RULES.md lists them.
PRESETS: dict[str, Ruleset] = {
    ruleset.id: ruleset
    for ruleset in (
        LIVERPOOL,
        _variant(
            LIVERPOOL,
            "liverpool-9",
            "Liverpool Rummy, 9 rounds",
            "Liverpool with two more rounds: 3 runs, then 2 runs of 5.",
            rounds=(
                *_LIVERPOOL_ROUNDS,
                RoundSpec(8, Contract.parse("3 runs"), 12),
                RoundSpec(9, Contract.parse("2 runs of 5"), 12),
            ),
        ),
        _variant(
            LIVERPOOL,
            "liverpool-fixed-hand",
            "Liverpool Rummy, fixed hand",
            "Liverpool with 10 cards dealt in every round.",
            rounds=tuple(dataclasses.replace(spec, hand_size=10) for spec in _LIVERPOOL_ROUNDS),
        ),
        _variant(
            LIVERPOOL,
            "liverpool-no-buy",
            "Liverpool Rummy, no buying",
            "Liverpool without buying discards out of turn.",
            buying=False,
        ),
        CONTRACT_RUMMY,
        PROGRESSIVE,
        _variant(
            PROGRESSIVE,
            "shanghai",
            "Shanghai Rummy",
            "Progressive Rummy with an eighth round: 3 sets + 1 run, the whole hand.",
            rounds=_SHANGHAI_ROUNDS,
        ),
        _variant(
            PROGRESSIVE,
            "california",
            "California Contract",
            "Progressive Rummy with the queens as the wild cards and no jokers.",
            tables=(TableSize(6, 2, 0), TableSize(8, 3, 0)),
            wild_ranks=frozenset({Rank.QUEEN}),
            wild_rank_points=25,
        ),
        _variant(
            PROGRESSIVE,
            "progressive-no-buy",
            "Progressive Rummy, no buying",
            "Progressive Rummy without buying discards out of turn.",
            buying=False,
        ),
        _variant(
            PROGRESSIVE,
            "double-progressive",
            "Double Progressive Rummy",
            "Progressive Rummy with 7 cards dealt in round 1.",
            rounds=(
                dataclasses.replace(PROGRESSIVE.rounds[0], hand_size=7),
                *PROGRESSIVE.rounds[1:],
            ),
        ),
        MAY_I,
    )
}


def find_ruleset(ruleset_id: str) -> Ruleset:
    """The preset with this id; raise :class:`RulesetError` naming the presets if there is none."""
    try:
        return PRESETS[ruleset_id]
    except (KeyError, TypeError):
        raise RulesetError(
            f"unknown ruleset {ruleset_id!r}; the presets are: {', '.join(PRESETS)}",
            field="ruleset",
        ) from None


def resolve_ruleset(spec: str | Mapping[str, Any] | Ruleset) -> Ruleset:
    """A preset id, or ``{"base": id, "options": {...}}`` for a house ruleset."""
    if isinstance(spec, Ruleset):
        return spec
    if isinstance(spec, str):
        return find_ruleset(spec)
    if isinstance(spec, Mapping):
        unknown = set(spec) - {"base", "options"}
        if unknown or "base" not in spec:
            raise RulesetError(
                'a house ruleset is {"base": preset id, "options": {...}}', field="ruleset"
            )
        base = find_ruleset(spec["base"])
        options = spec.get("options", {})
        if not isinstance(options, Mapping):
            raise RulesetError(
                f"options must be an object of parameter values, not {options!r}",
                field="ruleset.options",
            )
        if not options:
            return base
        try:
            return base.with_options(options)
        except RulesetError as error:
            raise RulesetError(str(error), field=f"ruleset.{error.field or 'options'}") from None
    raise RulesetError(f"not a ruleset: {spec!r}", field="ruleset")


__all__ = [
    "JOKER",
    "PARAMETERS",
    "PRESETS",
    "Contract",
    "MeldSpec",
    "MeldType",
    "RoundSpec",
    "Ruleset",
    "TableSize",
    "contract_as_dict",
    "find_ruleset",
    "round_as_dict",
    "resolve_ruleset",
]
