"""The house options: what each parameter a house ruleset may set means, how a value of it is
read and checked, and the JSON Schema that tells a client its bounds.

Every option is declared once, on the :class:`~rules.ruleset.Ruleset` field it changes (most
options *are* a field; a few, like ``jokers`` or ``round_count``, rewrite one). The house-option
table :data:`rules.PARAMETERS` is gathered from those declarations by :func:`house_options`, and
the web layer documents each option from :meth:`Parameter.json_schema`, so the bounds a client
reads are the bounds the engine checks.

An option of the wrong shape or out of its bounds is refused with a :class:`RulesetError` that
names it; only whole rulesets are checked for consistency (``Ruleset.check_consistent``).
"""

from __future__ import annotations

import abc
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from rules.cards import Rank
from rules.choices import MAX_SEATS, MELD_TYPES
from rules.errors import RulesetError
from rules.i18n import N_

if TYPE_CHECKING:
    from rules.ruleset import RoundSpec, Ruleset, TableSize

#: Whatever a part of a ruleset holds (a hand size, a number of jokers).
Value = TypeVar("Value")

#: The parameter values a house ruleset replaces, by field name, as they are read.
Changes = dict[str, Any]

#: A rank as an option may spell it (what :meth:`Rank.parse` reads, without spaces).
RANK_PATTERN = r"^(?:[2-9]|10|[AaTtJjQqKk])$"

#: The most rounds a house ruleset may play, and the most cards a round may deal.
MOST_ROUNDS = 20
MOST_CARDS_DEALT = 30
#: The longest contract text a house round may give ("1 set + 2 runs of 5" is 19).
LONGEST_CONTRACT = 200
#: What one card may cost in hand, at most.
MOST_POINTS = 500

#: Blank between the words of a contract text (what ``\s`` is to ASCII text).
_BLANK = r"[ \t\n\r\f\v]"
#: One part of a contract text: a count of 1 to 6, a kind of meld, and optionally "of" a size of
#: 1 to 13 and "or more" ("2 runs of 5"), any case; spelled for the regex dialect JSON Schema and
#: Python share (no flags), so a client's validator and :meth:`Contract.parse` read it alike.
_CONTRACT_PART = (
    rf"{_BLANK}*0*[1-6]{_BLANK}+"
    r"(?:[Ss][Ee][Tt]|[Bb][Oo][Oo][Kk]|[Rr][Uu][Nn]|[Ss][Ee][Qq][Uu][Ee][Nn][Cc][Ee])[Ss]?"
    rf"(?:{_BLANK}+[Oo][Ff]{_BLANK}+0*(?:1[0-3]|[1-9])"
    rf"(?:{_BLANK}+[Oo][Rr]{_BLANK}+[Mm][Oo][Rr][Ee])?)?{_BLANK}*"
)
#: A contract text, its parts joined by "+" ("1 set + 2 runs"): every text the parser reads.
CONTRACT_PATTERN = rf"^{_CONTRACT_PART}(?:\+{_CONTRACT_PART})*$"


@dataclass(frozen=True, kw_only=True)
class Parameter(abc.ABC):
    """One house option: its name, what it means, and how a value of it is read.

    Declared on a ruleset field without a name, it takes the field's; an option that rewrites
    another field (``jokers`` rewrites ``tables``) is given its own.
    """

    description: str
    name: str = ""

    @abc.abstractmethod
    def apply(self, ruleset: Ruleset, value: Any, changes: Changes) -> None:
        """Read ``value`` and record in ``changes`` the fields of ``ruleset`` it replaces;
        raise :class:`RulesetError` if it is not a value of this option."""

    @abc.abstractmethod
    def value_schema(self) -> dict[str, Any]:
        """The JSON Schema (OpenAPI 3.0 dialect) of the values this option accepts."""

    def json_schema(self) -> dict[str, Any]:
        """:meth:`value_schema` with the option's description, as the web layer shows it."""
        return {**self.value_schema(), "description": self.description}

    @abc.abstractmethod
    def value_of(self, ruleset: Ruleset) -> Any:
        """What ``ruleset`` plays with, as a value of this option (JSON-able): given as the
        option, it changes nothing. None where no one value says it (an option that sets
        every round's hand size, of a ruleset whose rounds deal differently) or, for an
        option that may be null, where the rule is off."""


@dataclass(frozen=True, kw_only=True)
class FieldValue(Parameter):
    """An option whose value, once read, is the new value of its own field."""

    def apply(self, ruleset: Ruleset, value: Any, changes: Changes) -> None:
        changes[self.name] = self.read(value)

    def value_of(self, ruleset: Ruleset) -> Any:
        return getattr(ruleset, self.name)

    @abc.abstractmethod
    def read(self, value: Any) -> Any:
        """The field's value for an option value; raise :class:`RulesetError` if it is none."""


@dataclass(frozen=True, kw_only=True)
class Flag(FieldValue):
    """A rule that is on or off."""

    def read(self, value: Any) -> bool:
        if not isinstance(value, bool):
            raise RulesetError(
                N_("{name} must be true or false, not {value!r}"), name=self.name, value=value
            )
        return value

    def value_schema(self) -> dict[str, Any]:
        return {"type": "boolean"}


@dataclass(frozen=True, kw_only=True)
class Number(FieldValue):
    """A whole number from ``low`` to ``high``; with ``nullable``, also null (the rule is off)."""

    low: int = 0
    high: int
    nullable: bool = False

    def read(self, value: Any) -> int | None:
        if value is None and self.nullable:
            return None
        return self.whole_number(value, self.high)

    def whole_number(self, value: Any, high: int) -> int:
        """``value`` if it is a whole number from ``low`` to ``high`` (a bool is not one)."""
        if isinstance(value, bool) or not isinstance(value, int) or not self.low <= value <= high:
            raise RulesetError(
                N_("{name} must be a whole number from {low} to {high}, not {value!r}"),
                name=self.name,
                low=self.low,
                high=high,
                value=value,
            )
        return value

    def value_schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "integer", "minimum": self.low, "maximum": self.high}
        if self.nullable:
            schema["nullable"] = True
        return schema


@dataclass(frozen=True, kw_only=True)
class Choice(FieldValue):
    """One word of a closed list (the lists are in :mod:`rules.choices`)."""

    choices: tuple[str, ...]

    def read(self, value: Any) -> str:
        if value not in self.choices:
            raise RulesetError(
                N_("{name} must be one of {choices}, not {value!r}"),
                name=self.name,
                choices=", ".join(self.choices),
                value=value,
            )
        return str(value)

    def value_schema(self) -> dict[str, Any]:
        return {"type": "string", "enum": list(self.choices)}


@dataclass(frozen=True, kw_only=True)
class Ranks(FieldValue):
    """Some ranks, like ``["2"]`` (repeating one changes nothing)."""

    def read(self, value: Any) -> frozenset[Rank]:
        if (
            not isinstance(value, list)
            or len(value) > len(Rank)
            or not all(isinstance(item, str) for item in value)
        ):
            raise RulesetError(
                N_("{name} must be a list of ranks like ['2'], not {value!r}"),
                name=self.name,
                value=value,
            )
        return frozenset(Rank.parse(item) for item in value)

    def value_of(self, ruleset: Ruleset) -> list[str]:
        return [rank.symbol for rank in sorted(getattr(ruleset, self.name))]

    def value_schema(self) -> dict[str, Any]:
        return {
            "type": "array",
            "items": {"type": "string", "pattern": RANK_PATTERN},
            "maxItems": len(Rank),
        }


#: What any one card may cost: the value of an entry of the ``points`` option.
_CARD_POINTS = Number(name="points", description=N_("points for one card"), high=MOST_POINTS)


@dataclass(frozen=True, kw_only=True)
class Points(Parameter):
    """Penalty points by rank and for the joker (``"JK"``); the ranks not named keep theirs.

    Naming a wild rank sets what its cards cost as wild cards too: a table that says "twos
    cost 30" means the twos it plays with.
    """

    def apply(self, ruleset: Ruleset, value: Any, changes: Changes) -> None:
        if not isinstance(value, Mapping) or len(value) > len(Rank) + 1:
            raise RulesetError(
                N_("points must map ranks (and 'JK') to points, not {value!r}"), value=value
            )
        ranks = list(ruleset.rank_points)
        joker = ruleset.joker_points
        wild = ruleset.wild_rank_points
        for key, given in value.items():
            entry = dataclasses.replace(_CARD_POINTS, name=f"points[{key!r}]")
            points = entry.whole_number(given, MOST_POINTS)
            if isinstance(key, str) and key.strip().upper() in ("JK", "JOKER"):
                joker = points
                continue
            rank = Rank.parse(key)
            if rank in ruleset.wild_ranks:
                wild = points
            ranks[rank - 1] = points
        changes.update(rank_points=tuple(ranks), joker_points=joker, wild_rank_points=wild)

    def value_of(self, ruleset: Ruleset) -> dict[str, int]:
        # A wild rank at what it costs as a wild card: naming it sets that (see apply).
        return ruleset.points_table()

    def value_schema(self) -> dict[str, Any]:
        # The canonical spellings; the engine also reads "t", "q" or "joker" for them.
        keys = [*(rank.symbol for rank in Rank), "JK"]
        return {
            "type": "object",
            "title": "Points",
            "properties": {key: _CARD_POINTS.value_schema() for key in keys},
            "additionalProperties": False,
        }


#: The three numbers of one table size, each with its bounds.
_TABLE_SIZE = (
    Number(
        name="max_players", description=N_("the most players of this size"), low=2, high=MAX_SEATS
    ),
    Number(name="decks", description=N_("decks shuffled together"), low=1, high=4),
    Number(name="jokers", description=N_("jokers added to them"), high=MAX_SEATS),
)


@dataclass(frozen=True, kw_only=True)
class Tables(FieldValue):
    """Decks and jokers by table size: ``[{max_players, decks, jokers}, ...]``, any order."""

    def read(self, value: Any) -> tuple[TableSize, ...]:
        # Imported here: the model imports this module to declare its fields.
        from rules.ruleset import TableSize

        if not isinstance(value, list) or not 1 <= len(value) <= MAX_SEATS:
            raise RulesetError(N_("tables must be a list of {{max_players, decks, jokers}}"))
        names = {number.name for number in _TABLE_SIZE}
        tables = []
        for item in value:
            if not isinstance(item, Mapping) or set(item) != names:
                raise RulesetError(N_("each table needs exactly max_players, decks and jokers"))
            tables.append(
                TableSize(
                    *(number.whole_number(item[number.name], number.high) for number in _TABLE_SIZE)
                )
            )
        tables.sort(key=lambda size: size.max_players)
        return tuple(tables)

    def value_of(self, ruleset: Ruleset) -> list[dict[str, int]]:
        return [
            {"max_players": size.max_players, "decks": size.decks, "jokers": size.jokers}
            for size in ruleset.tables
        ]

    def value_schema(self) -> dict[str, Any]:
        return {
            "type": "array",
            "items": table_size_schema(),
            "minItems": 1,
            "maxItems": MAX_SEATS,
        }


@dataclass(frozen=True, kw_only=True)
class Jokers(Number):
    """The jokers of every table size at once."""

    def apply(self, ruleset: Ruleset, value: Any, changes: Changes) -> None:
        jokers = self.whole_number(value, self.high)
        changes["tables"] = tuple(
            dataclasses.replace(size, jokers=jokers) for size in ruleset.tables
        )

    def value_of(self, ruleset: Ruleset) -> int | None:
        return _the_one({size.jokers for size in ruleset.tables})


#: The fields of one round of the ``rounds`` option besides its contract, in the order read.
_ROUND_HAND_SIZE = Number(
    name="hand_size", description=N_("cards dealt to each player"), low=1, high=MOST_CARDS_DEALT
)
_ROUND_FLAGS = (
    Flag(name="whole_hand", description=N_("the contract is the whole hand, laid at once")),
    Flag(
        name="discard_to_go_out",
        description=N_("going out takes a final discard (default: unless whole_hand)"),
    ),
    Flag(name="exact_minimum", description=N_("contract melds at exactly their minimum size")),
)


@dataclass(frozen=True, kw_only=True)
class Rounds(Parameter):
    """The rounds, in order: ``[{contract, hand_size, whole_hand?, ...}, ...]``.

    A contract's melds take the ruleset's minima unless it gives its own ("2 runs of 5").
    """

    def apply(self, ruleset: Ruleset, value: Any, changes: Changes) -> None:
        # Imported here: the model imports this module to declare its fields.
        from rules.ruleset import Contract, RoundSpec

        if not isinstance(value, list) or not 1 <= len(value) <= MOST_ROUNDS:
            raise RulesetError(N_("rounds must be a list of 1 to {most} rounds"), most=MOST_ROUNDS)
        allowed = {"contract", _ROUND_HAND_SIZE.name, *(flag.name for flag in _ROUND_FLAGS)}
        whole_hand, discard_to_go_out, exact_minimum = _ROUND_FLAGS
        rounds: list[RoundSpec] = []
        for number, item in enumerate(value, start=1):
            if not isinstance(item, Mapping) or not {"contract", "hand_size"} <= set(item):
                raise RulesetError(
                    N_("round {number} needs a contract and a hand_size"), number=number
                )
            unknown = set(item) - allowed
            if unknown:
                raise RulesetError(
                    N_("round {number}: unknown field(s) {fields}"),
                    number=number,
                    fields=sorted(unknown),
                )
            text = item["contract"]
            if isinstance(text, str) and len(text) > LONGEST_CONTRACT:
                raise RulesetError(
                    N_("round {number}: a contract is at most {most}"),
                    number=number,
                    most=LONGEST_CONTRACT,
                )
            contract = Contract.parse(text, set_min=ruleset.set_min, run_min=ruleset.run_min)
            whole = whole_hand.read(item.get("whole_hand", False))
            rounds.append(
                RoundSpec(
                    number=number,
                    contract=contract,
                    hand_size=_ROUND_HAND_SIZE.whole_number(item["hand_size"], MOST_CARDS_DEALT),
                    whole_hand=whole,
                    discard_to_go_out=discard_to_go_out.read(
                        item.get("discard_to_go_out", not whole)
                    ),
                    exact_minimum=exact_minimum.read(item.get("exact_minimum", False)),
                )
            )
        changes["rounds"] = tuple(rounds)

    def value_of(self, ruleset: Ruleset) -> list[dict[str, Any]]:
        return [
            {
                "contract": _contract_option(spec, ruleset.set_min, ruleset.run_min),
                "hand_size": spec.hand_size,
                "whole_hand": spec.whole_hand,
                "discard_to_go_out": spec.discard_to_go_out,
                "exact_minimum": spec.exact_minimum,
            }
            for spec in ruleset.rounds
        ]

    def value_schema(self) -> dict[str, Any]:
        contract = {
            "type": "string",
            "minLength": 1,
            "maxLength": LONGEST_CONTRACT,
            "pattern": CONTRACT_PATTERN,
            "description": N_('Like "1 set + 2 runs" or "1 run of 7".'),
        }
        item = _object_schema(
            (_ROUND_HAND_SIZE, *_ROUND_FLAGS),
            required=["contract", "hand_size"],
            title="RoundOption",
        )
        item["properties"] = {"contract": contract, **item["properties"]}
        return {"type": "array", "items": item, "minItems": 1, "maxItems": MOST_ROUNDS}


def _contract_option(spec: RoundSpec, set_min: int, run_min: int) -> str:
    """A round's contract as the ``rounds`` option reads it ("1 set + 1 run", "1 run of 7"):
    a meld's size is said where it is not the ruleset's minimum, which the option assumes."""
    counts: dict[tuple[str, int], int] = {}
    for meld in spec.contract.melds:
        counts[meld.type, meld.min] = counts.get((meld.type, meld.min), 0) + 1
    parts = []
    for (meld_type, size), count in counts.items():
        least = set_min if meld_type == "set" else run_min
        part = f"{count} {meld_type}{'s' if count > 1 else ''}"
        parts.append(part if size == least else f"{part} of {size}")
    return " + ".join(parts)


def _the_one(values: set[Value]) -> Value | None:
    """The value, if every part of the ruleset has the same one; else None."""
    return next(iter(values)) if len(values) == 1 else None


def _rounds_so_far(ruleset: Ruleset, changes: Changes) -> tuple[RoundSpec, ...]:
    """The rounds as the options read so far leave them (``rounds`` may come first)."""
    rounds: tuple[RoundSpec, ...] = changes.get("rounds", ruleset.rounds)
    return rounds


@dataclass(frozen=True, kw_only=True)
class RoundCount(Number):
    """Play only the first rounds: at most as many as the ruleset has."""

    def apply(self, ruleset: Ruleset, value: Any, changes: Changes) -> None:
        count = self.whole_number(value, min(self.high, len(ruleset.rounds)))
        changes["rounds"] = _rounds_so_far(ruleset, changes)[:count]

    def value_of(self, ruleset: Ruleset) -> int:
        return ruleset.round_count


@dataclass(frozen=True, kw_only=True)
class HandSize(Number):
    """Deal the same number of cards in every round."""

    def apply(self, ruleset: Ruleset, value: Any, changes: Changes) -> None:
        size = self.whole_number(value, self.high)
        changes["rounds"] = tuple(
            dataclasses.replace(spec, hand_size=size) for spec in _rounds_so_far(ruleset, changes)
        )

    def value_of(self, ruleset: Ruleset) -> int | None:
        return _the_one({spec.hand_size for spec in ruleset.rounds})


@dataclass(frozen=True, kw_only=True)
class ExactMinimum(Flag):
    """Lay every contract meld at exactly its minimum (a whole-hand round has no minimum)."""

    def apply(self, ruleset: Ruleset, value: Any, changes: Changes) -> None:
        exact = self.read(value)
        changes["rounds"] = tuple(
            dataclasses.replace(spec, exact_minimum=exact and not spec.whole_hand)
            for spec in _rounds_so_far(ruleset, changes)
        )

    def value_of(self, ruleset: Ruleset) -> bool | None:
        # A whole-hand round has no minimum, so it says nothing either way.
        return _the_one({spec.exact_minimum for spec in ruleset.rounds if not spec.whole_hand})


def _object_schema(
    parameters: tuple[Parameter, ...], *, required: list[str], title: str
) -> dict[str, Any]:
    """An object of some named parameters and nothing else; ``title`` names its shape."""
    return {
        "title": title,
        "type": "object",
        "properties": {parameter.name: parameter.json_schema() for parameter in parameters},
        "required": required,
        "additionalProperties": False,
    }


def table_size_schema() -> dict[str, Any]:
    """One table size, ``{max_players, decks, jokers}``: as an option gives it and as a
    ruleset shows it."""
    return _object_schema(
        _TABLE_SIZE, required=[number.name for number in _TABLE_SIZE], title="Table"
    )


def stored_round_schema() -> dict[str, Any]:
    """One round as a ruleset shows it (``round_as_dict``): every field, each always there."""
    meld = {
        "title": "MeldSpec",
        "type": "object",
        "properties": {
            "type": {"type": "string", "enum": list(MELD_TYPES)},
            "min": {"type": "integer", "minimum": 1, "maximum": len(Rank)},
        },
        "required": ["type", "min"],
        "additionalProperties": False,
    }
    contract = {
        "title": "Contract",
        "type": "object",
        "properties": {
            "melds": {"type": "array", "items": meld},
            "text": {"type": "string", "example": "1 set + 1 run"},
        },
        "required": ["melds", "text"],
        "additionalProperties": False,
    }
    number = {"type": "integer", "minimum": 1, "maximum": MOST_ROUNDS}
    least = {"type": "integer", "minimum": 1, "description": "fewest cards the contract takes"}
    flags = {flag.name: flag.json_schema() for flag in _ROUND_FLAGS}
    properties = {
        "number": number,
        "contract": contract,
        "hand_size": _ROUND_HAND_SIZE.json_schema(),
        "min_cards": least,
        **flags,
    }
    return {
        "title": "Round",
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def house_options(model: type[Any]) -> dict[str, Parameter]:
    """Every option declared on the fields of ``model`` (a dataclass), by name, in field order."""
    options: dict[str, Parameter] = {}
    for model_field in dataclasses.fields(model):
        for parameter in model_field.metadata.get("options", ()):
            named = (
                parameter
                if parameter.name
                else dataclasses.replace(parameter, name=model_field.name)
            )
            options[named.name] = named
    return options


__all__ = [
    "Changes",
    "CONTRACT_PATTERN",
    "Choice",
    "ExactMinimum",
    "FieldValue",
    "Flag",
    "HandSize",
    "Jokers",
    "Number",
    "Parameter",
    "Points",
    "RANK_PATTERN",
    "RoundCount",
    "Rounds",
    "Ranks",
    "Tables",
    "house_options",
    "stored_round_schema",
    "table_size_schema",
]
