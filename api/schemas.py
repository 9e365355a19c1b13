"""The request and response bodies of the rulesets and checks, as marshmallow schemas.

They are the contract of API.md in code: the views load requests with them, the responses are
dumped with them, and ``openapi.yaml`` is generated from them. Response schemas dump the rules
engine's own values (``Meld``, ``Violation``, ``Card``) by attribute, so the engine's reading of
a meld reaches the client without a copy in between.

Lists are bounded (at most 200 cards in a hand, 60 in a meld, 12 melds) so that no request is
expensive to check; nothing a table can hold comes near the bounds.
"""

from __future__ import annotations

from collections.abc import Callable
from keyword import iskeyword
from operator import attrgetter
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate
from marshmallow.decorators import POST_DUMP, PRE_DUMP
from marshmallow.types import StrSequenceOrSet, UnknownOption

from rules import CONTRACT_DOWN, MAX_SEATS, MELD_TYPES, PARAMETERS, PRESETS, Contract, Rank, Suit

from .fields import (
    RANK_PATTERN,
    CardField,
    CardList,
    RulesetField,
    StrictBoolean,
    Unsure,
    card_list_json,
    card_texts,
    cards,
    encode_json,
    integer,
    json_string,
)

MAX_HAND = 200
MAX_MELD = 60
MAX_MELDS = 12
MAX_ROUND = 20


# --- bodies in one pass --------------------------------------------------------------------
#
# Every check loads a request and dumps a verdict, and marshmallow's walk of a schema — a
# getter, an error store and several calls per field, a call per validator — costs more than
# the check itself. The schemas of the checks therefore compile, once, straight-line Python
# from their own fields, and load and dump through it; whatever that code is not sure of goes
# to marshmallow as before, so every error is marshmallow's own. Tests hold the compiled code
# to marshmallow's results.


class _Source:
    """The source of a function being compiled, and the values its names stand for."""

    def __init__(self, header: str) -> None:
        self.lines = [header]
        self.values: dict[str, Any] = {"Unsure": Unsure}
        self.temporaries = 0

    def name(self, value: Any) -> str:
        """A name in the source for ``value``."""
        name = f"_{len(self.values)}"
        self.values[name] = value
        return name

    def literal(self, value: Any) -> str:
        """``value`` in the source: written out if it is a plain int or str, else named."""
        return repr(value) if type(value) in (int, str) else self.name(value)

    def temporary(self) -> str:
        """A name for a local variable of the source, unused so far."""
        self.temporaries += 1
        return f"v{self.temporaries}"

    def add(self, indent: int, line: str) -> None:
        self.lines.append("    " * indent + line)

    def compile(self) -> Callable[..., Any]:
        namespace = dict(self.values)
        exec("\n".join(self.lines), namespace)  # noqa: S102 - source made from a schema
        return namespace["compiled"]  # type: ignore[no-any-return]


#: Field kinds whose loaded value is the JSON value itself, of exactly this type.
_EXACT_LOADS: dict[type, type] = {fields.Integer: int, fields.String: str}
#: Field kinds that dump a value of exactly this type as that value itself.
_EXACT_DUMPS: dict[type, type] = {fields.Boolean: bool, fields.Integer: int, fields.String: str}


def _field_loader(field: fields.Field[Any]) -> Callable[[Any], Any] | None:
    """A function that loads every value ``field.deserialize`` loads without error, to the
    same result, and raises :class:`Unsure` or ``ValidationError`` for any other; ``None`` for
    a kind of field it does not know.

    The game's fields (:mod:`api.fields`) bring their own ``load_fast``; strict integers,
    strings and lists are checked by type here, and marshmallow's length, range and choice
    validators are written out as comparisons where the value's type makes them plain.
    """
    source = _Source("def compiled(value):")
    source.add(1, "if value is None:")
    source.add(2, "return None" if field.allow_none else "raise Unsure")
    kind = type(field)
    exact = _EXACT_LOADS.get(kind)
    if kind is fields.Integer and (not field.strict or field.as_string):  # type: ignore[attr-defined]
        return None
    if hasattr(field, "load_fast"):
        source.add(1, f"value = {source.name(field.load_fast)}(value)")
    elif exact is not None:
        source.add(1, f"if value.__class__ is not {source.name(exact)}:")
        source.add(2, "raise Unsure")
    elif kind is fields.List:
        inner = _field_loader(field.inner)  # type: ignore[attr-defined]
        if inner is None:
            return None
        source.add(1, "if value.__class__ is not list:")
        source.add(2, "raise Unsure")
        source.add(1, f"value = [{source.name(inner)}(item) for item in value]")
    else:
        return None
    sized = isinstance(field, fields.List) or exact is str  # loads a list or a str
    for validator in field.validators:
        refused = []
        if type(validator) is validate.Length and sized:
            if validator.equal is not None:
                refused.append(f"len(value) != {source.literal(validator.equal)}")
            if validator.equal is None and validator.min:
                refused.append(f"len(value) < {source.literal(validator.min)}")
            if validator.equal is None and validator.max is not None:
                refused.append(f"len(value) > {source.literal(validator.max)}")
        elif type(validator) is validate.Range and exact is int:
            if validator.min is not None:
                low = "<" if validator.min_inclusive else "<="
                refused.append(f"value {low} {source.literal(validator.min)}")
            if validator.max is not None:
                high = ">" if validator.max_inclusive else ">="
                refused.append(f"value {high} {source.literal(validator.max)}")
        elif type(validator) is validate.OneOf and exact is not None:
            refused.append(f"value not in {source.name(validator.choices)}")
        else:
            source.add(1, f"{source.name(validator)}(value)")  # raises on a value it refuses
            continue
        if refused:
            source.add(1, f"if {' or '.join(refused)}:")
            source.add(2, "raise Unsure")
    source.add(1, "return value")
    return source.compile()


class RequestSchema(ma.Schema):
    """A request body, loaded in one pass when it is well-formed (see above).

    A body with a field too many or a required one missing, or a value some field's loader is
    unsure of, is loaded by marshmallow instead, from scratch. A schema with hooks, or with a
    kind of field :func:`_field_loader` does not know, is always loaded by marshmallow.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._load_fast = self._compile()

    def _compile(self) -> Callable[[dict[str, Any]], dict[str, Any]] | None:
        if self.many or self.partial or self.unknown != ma.RAISE or any(self._hooks.values()):
            return None
        source = _Source("def compiled(data):")
        keys = [field.data_key or name for name, field in self.load_fields.items()]
        source.add(1, f"if not {source.name(frozenset(keys))}.issuperset(data):")
        source.add(2, "raise Unsure")
        source.add(1, "loaded = {}")
        for key, (name, field) in zip(keys, self.load_fields.items(), strict=True):
            load = _field_loader(field)
            attribute = field.attribute or name
            if load is None or field.load_default is not ma.missing or "." in attribute:
                return None
            source.add(1, f"if {key!r} in data:")
            source.add(2, f"loaded[{attribute!r}] = {source.name(load)}(data[{key!r}])")
            if field.required:
                source.add(1, "else:")
                source.add(2, "raise Unsure")
        source.add(1, "return loaded")
        return source.compile()

    def load(
        self,
        data: Any,
        *,
        many: bool | None = None,
        partial: bool | StrSequenceOrSet | None = None,
        unknown: UnknownOption | None = None,
    ) -> Any:
        if (
            self._load_fast is not None
            and type(data) is dict
            and many is None
            and partial is None
            and unknown in (None, ma.RAISE)
        ):
            try:
                return self._load_fast(data)
            except (Unsure, ma.ValidationError):
                pass
        return super().load(data, many=many, partial=partial, unknown=unknown)


def _dumped(field: fields.Field[Any], value: str, name: str, source: _Source) -> str:
    """An expression for what ``field._serialize`` makes of the value of the expression
    ``value``, given, as marshmallow gives it, the field's name and the object, ``obj``."""
    kind = type(field)
    exact = _EXACT_DUMPS.get(kind)
    held = source.temporary()
    if kind is fields.List:
        item = source.temporary()
        each = _dumped(field.inner, item, name, source)  # type: ignore[attr-defined]
        return f"(None if ({held} := {value}) is None else [{each} for {item} in {held}])"
    write = f"{source.name(field._serialize)}({{}}, {name!r}, obj)"
    if exact is not None and not getattr(field, "as_string", False):
        # A value of exactly that type is dumped as itself; any other, by the field.
        test = f"({held} := {value}).__class__ is {source.name(exact)}"
        return f"({held} if {test} else {write.format(held)})"
    return write.format(value)


def _written(field: fields.Field[Any], value: str, name: str, source: _Source) -> str:
    """An expression for ``encode_json`` of what ``field._serialize`` makes of the value of
    the expression ``value`` (see :func:`_dumped`), written as JSON text directly.

    Fields of the game write their own (``write_json``); booleans, integers and strings of
    exactly those types are written here, lists item by item, anything else is dumped by the
    field and encoded.
    """
    kind = type(field)
    held = source.temporary()
    if kind is fields.List:
        item = source.temporary()
        each = _written(field.inner, item, name, source)  # type: ignore[attr-defined]
        items = f"','.join([{each} for {item} in {held}])"
        return f"('null' if ({held} := {value}) is None else '[' + {items} + ']')"
    write_json = getattr(field, "write_json", None)
    if write_json is not None:
        return f"{source.name(write_json)}({value})"
    encode = f"{source.name(encode_json)}({source.name(field._serialize)}({{}}, {name!r}, obj))"
    exact = _EXACT_DUMPS.get(kind)
    if exact is None or getattr(field, "as_string", False):
        return encode.format(value)
    encoded = encode.format(held)
    if exact is bool:
        return f"('true' if ({held} := {value}) is True else 'false' if {held} is False else {encoded})"
    if exact is int:
        text = f"{source.name(int.__repr__)}({held})"
    else:
        text = f"{source.name(json_string)}({held})"
    return f"({text} if ({held} := {value}).__class__ is {source.name(exact)} else {encoded})"


class ResponseSchema(ma.Schema):
    """A response body, dumped in one pass (see above) from an object with attributes — a
    verdict of the engine — or from a dict.

    An object lacking an attribute, one that answers ``[]`` (marshmallow reads its items
    then), or a dict for a schema with dotted attributes is dumped by marshmallow; so is every
    object for a schema with hooks or a field that reads no attribute (``Function``).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._dump_object = self._compile(from_dict=False, as_json=False)
        self._dump_dict = self._compile(from_dict=True, as_json=False)
        self._json_object = self._compile(from_dict=False, as_json=True)
        self._json_dict = self._compile(from_dict=True, as_json=True)

    def _compile(self, *, from_dict: bool, as_json: bool) -> Callable[[Any], Any] | None:
        if self.many or self._hooks[PRE_DUMP] or self._hooks[POST_DUMP]:
            return None
        source = _Source("def compiled(obj):")
        parts = []
        for name, field in self.dump_fields.items():
            attribute = field.attribute or name
            if not field._CHECK_ATTRIBUTE:  # Function and Method fields: no attribute to read
                return None
            if from_dict:
                if "." in attribute:
                    return None
                value = f"obj[{attribute!r}]"
            elif all(part.isidentifier() and not iskeyword(part) for part in attribute.split(".")):
                value = f"obj.{attribute}"
            else:
                value = f"{source.name(attrgetter(attribute))}(obj)"
            key = field.data_key or name
            if as_json:
                parts.append((f"{json_string(key)}:", _written(field, value, name, source)))
            else:
                parts.append((f"{key!r}: ", _dumped(field, value, name, source)))
        if as_json:
            # {"key":value,...} as one f-string; the keys' text is named, so needs no escaping.
            text = ",".join(f"{{{source.name(key)}}}{{{value}}}" for key, value in parts)
            source.add(1, f'return f"{{{{{text}}}}}"')
        else:
            source.add(1, "return {" + ", ".join(key + value for key, value in parts) + "}")
        return source.compile()

    def dump(self, obj: Any, *, many: bool | None = None) -> Any:
        if not many:
            dumped = _one_pass(obj, self._dump_dict, self._dump_object)
            if dumped is not None:  # a dump is a dict, never None
                return dumped
        return super().dump(obj, many=many)

    def dump_json(self, obj: Any) -> str | None:
        """``encode_json(self.dump(obj))`` written directly, or ``None`` where :meth:`dump`
        would not take its one pass."""
        return _one_pass(obj, self._json_dict, self._json_object)  # type: ignore[no-any-return]


def _one_pass(
    obj: Any,
    from_dict: Callable[[Any], Any] | None,
    from_object: Callable[[Any], Any] | None,
) -> Any:
    """What the compiled function for ``obj``'s kind (a dict, or an object with attributes)
    makes of it; ``None`` where there is none, or where it gives up and marshmallow must
    say what is missing."""
    try:
        if type(obj) is dict:
            if from_dict is not None:
                return from_dict(obj)
        elif from_object is not None and not hasattr(obj, "__getitem__"):
            return from_object(obj)
    except (AttributeError, KeyError):
        pass
    return None


# --- house rulesets ------------------------------------------------------------------------


class RoundOptionSchema(ma.Schema):
    contract = fields.String(
        required=True,
        validate=validate.Length(min=1, max=200),
        metadata={"description": 'Like "1 set + 2 runs" or "1 run of 7".'},
    )
    hand_size = integer(required=True)
    whole_hand = StrictBoolean()
    discard_to_go_out = StrictBoolean()
    exact_minimum = StrictBoolean()


class TableOptionSchema(ma.Schema):
    max_players = integer(required=True)
    decks = integer(required=True)
    jokers = integer(required=True)


def _option_field(name: str) -> fields.Field[Any]:
    """The field for one house option, from the engine's description of the parameter.

    Plain kinds carry their bounds in :data:`rules.PARAMETERS`; the structured ones are given
    their shape here and their values are checked by the engine, which names the option.
    """
    parameter = PARAMETERS[name]
    kind = parameter.kind
    meta = {"description": parameter.description}
    if kind in ("bool", "exact_minimum"):
        return StrictBoolean(metadata=meta)
    if kind in ("int", "optional_int"):
        return integer(
            validate=validate.Range(parameter.low, parameter.high),
            allow_none=kind == "optional_int",
            metadata=meta,
        )
    if kind in ("round_count", "hand_size", "jokers"):
        return integer(validate=validate.Range(min=0), metadata=meta)
    if kind == "choice":
        return fields.String(validate=validate.OneOf(parameter.choices), metadata=meta)
    if kind == "ranks":
        return fields.List(
            fields.String(validate=validate.Regexp(RANK_PATTERN)),
            validate=validate.Length(max=13),
            metadata=meta,
        )
    if kind == "points":
        return fields.Dict(
            keys=fields.String(validate=validate.Length(min=1, max=5)),
            values=integer(validate=validate.Range(min=0)),
            validate=validate.Length(max=14),
            metadata={**meta, "description": 'Points by rank and "JK", like {"JK": 25}.'},
        )
    if kind == "rounds":
        return fields.List(
            fields.Nested(RoundOptionSchema),
            validate=validate.Length(min=1, max=MAX_ROUND),
            metadata=meta,
        )
    if kind == "tables":
        return fields.List(
            fields.Nested(TableOptionSchema),
            validate=validate.Length(min=1, max=MAX_SEATS),
            metadata=meta,
        )
    # A kind this layer does not know yet: any JSON value, for the engine to judge.
    return fields.Raw(metadata=meta)


HouseOptionsSchema = ma.Schema.from_dict(
    {name: _option_field(name) for name in PARAMETERS}, name="HouseOptionsSchema"
)
HouseOptionsSchema.error_messages = {
    "unknown": "unknown option; the options are: " + ", ".join(sorted(PARAMETERS))
}


class HouseRulesetSchema(ma.Schema):
    """A preset with some of its parameters replaced."""

    base = fields.String(required=True, validate=validate.OneOf(list(PRESETS)))
    options = fields.Nested(
        HouseOptionsSchema,
        metadata={"description": "Parameters to replace; `GET /v1/rulesets/{id}` shows them."},
    )


def ruleset_field() -> RulesetField:
    return RulesetField(HouseRulesetSchema, required=True)


# --- rulesets ------------------------------------------------------------------------------


class PlayersSchema(ma.Schema):
    min = integer(required=True)
    max = integer(required=True)


class RulesetSummarySchema(ma.Schema):
    id = fields.String(required=True, metadata={"example": "liverpool"})
    name = fields.String(required=True, metadata={"example": "Liverpool Rummy"})
    family = fields.String(required=True, metadata={"example": "liverpool"})
    players = fields.Nested(PlayersSchema, required=True)
    round_count = integer(required=True, metadata={"example": 7})


class RulesetListSchema(ma.Schema):
    rulesets = fields.List(fields.Nested(RulesetSummarySchema), required=True)


class MeldSpecSchema(ma.Schema):
    type = fields.String(required=True, validate=validate.OneOf(MELD_TYPES))
    min = integer(required=True)


class ContractSchema(ma.Schema):
    melds = fields.List(fields.Nested(MeldSpecSchema), required=True)
    text = fields.String(required=True, metadata={"example": "1 set + 1 run"})


class RoundSchema(ma.Schema):
    number = integer(required=True)
    contract = fields.Nested(ContractSchema, required=True)
    hand_size = integer(required=True)
    min_cards = integer(required=True)
    whole_hand = fields.Boolean(required=True)
    discard_to_go_out = fields.Boolean(required=True)
    exact_minimum = fields.Boolean(required=True)


class TableSchema(ma.Schema):
    max_players = integer(required=True)
    decks = integer(required=True)
    jokers = integer(required=True)


class RulesetDetailSchema(RulesetSummarySchema):
    """Every parameter of a preset (RULES.md §3 says what each means), and its rounds."""

    description = fields.String(required=True)
    base = fields.String(required=True, allow_none=True)
    options = fields.Dict(required=True)
    tables = fields.List(fields.Nested(TableSchema), required=True)
    wild_ranks = fields.List(fields.String(), required=True)
    wild_rank_in_melds = fields.Boolean(required=True)
    ace_low = fields.Boolean(required=True)
    ace_high = fields.Boolean(required=True)
    set_min = integer(required=True)
    run_min = integer(required=True)
    runs_may_touch = fields.Boolean(required=True)
    same_suit_run_gap = integer(required=True)
    layoff_timing = fields.String(required=True)
    set_min_naturals = integer(required=True)
    run_min_naturals = integer(required=True)
    wilds_outside_span = integer(required=True, allow_none=True)
    run_wilds_per_cards = integer(required=True, allow_none=True)
    wilds_at_most_naturals = fields.Boolean(required=True)
    wild_limits_on_layoff = fields.Boolean(required=True)
    swaps = fields.Boolean(required=True)
    swap_from_sets = fields.Boolean(required=True)
    swap_from_runs = fields.Boolean(required=True)
    swap_jokers_only = fields.Boolean(required=True)
    swap_timing = fields.String(required=True)
    freed_joker = fields.String(required=True)
    buying = fields.Boolean(required=True)
    buy_limit = integer(required=True, allow_none=True)
    buy_penalty_cards = integer(required=True)
    no_consecutive_buys = fields.Boolean(required=True)
    buy_when_down = fields.Boolean(required=True)
    go_out_by_melding = fields.Boolean(required=True)
    points = fields.Dict(keys=fields.String(), values=integer(), required=True)
    tie_break = fields.String(required=True)
    cut_bonus = integer(required=True)
    cutter = fields.String(required=True)
    first_dealer = fields.String(required=True)
    stock_exhausted = fields.String(required=True)
    rounds = fields.List(fields.Nested(RoundSchema), required=True)


# --- verdicts ------------------------------------------------------------------------------


class ViolationSchema(ma.Schema):
    code = fields.String(required=True, metadata={"example": "run_not_consecutive"})
    message = fields.String(required=True)
    meld = integer(
        required=True,
        allow_none=True,
        metadata={"description": "Index of the meld in the request, when one is at fault."},
    )
    card = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "The card at fault, canonical, when there is one."},
    )


class WildSchema(ma.Schema):
    index = integer(
        required=True, metadata={"description": "Position of the wild card in `cards`."}
    )
    stands_for = fields.String(
        required=True,
        metadata={
            "description": "In a run the card it stands for (`6H`), in a set the rank alone"
            " (`7`); `?` where the meld's naturals fix nothing.",
            "example": "6H",
        },
    )


def _suit(meld: Any) -> str | None:
    return None if meld.suit is None else str(meld.suit.value)


def _rank(meld: Any) -> str | None:
    return None if meld.rank is None else str(meld.rank.symbol)


class MeldSchema(ma.Schema):
    """A meld as the referee reads it."""

    type = fields.String(required=True, validate=validate.OneOf(MELD_TYPES))
    suit = fields.Function(
        _suit,
        required=True,
        allow_none=True,
        metadata={"type": "string", "description": "A run's suit (`H`); null for a set."},
    )
    rank = fields.Function(
        _rank,
        required=True,
        allow_none=True,
        metadata={"type": "string", "description": "A set's rank (`7`); null for a run."},
    )
    cards = CardList(required=True, metadata={"description": "In table order, canonical."})
    wilds = fields.List(fields.Nested(WildSchema), required=True)


#: What ``_suit`` and ``_rank`` write, by suit and rank: their enums' value and symbol are
#: Python properties, and these look-ups hash in C.
_SUIT_TEXTS = {suit: str(suit.value) for suit in Suit}
_RANK_TEXTS = {rank: str(rank.symbol) for rank in Rank}
_SUIT_JSON = {suit: json_string(text) for suit, text in _SUIT_TEXTS.items()}
_RANK_JSON = {rank: json_string(text) for rank, text in _RANK_TEXTS.items()}


def _wild_json(wild: Any) -> str:
    index, stands_for = wild.index, wild.stands_for
    if index.__class__ is int and stands_for.__class__ is str:
        return f'{{"index":{index!r},"stands_for":{json_string(stands_for)}}}'
    return encode_json({"index": index, "stands_for": stands_for})


class MeldField(fields.Nested):
    """``Nested(MeldSchema)``, written directly.

    Verdicts are dumped on every check, and marshmallow's field-by-field dump of their melds
    and violations costs more than the check; these fields write the same JSON (a test holds
    them to the schemas they stand for) and are documented as those schemas.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(MeldSchema, **kwargs)

    def _serialize(self, nested_obj: Any, attr: Any, obj: Any, **kwargs: Any) -> Any:  # type: ignore[override]  # marshmallow renames the parameter
        meld = nested_obj
        if meld is None:
            return None
        suit, rank = meld.suit, meld.rank
        return {
            "type": meld.type,
            "suit": None if suit is None else _SUIT_TEXTS[suit],
            "rank": None if rank is None else _RANK_TEXTS[rank],
            "cards": card_texts(meld.cards),
            "wilds": [{"index": w.index, "stands_for": w.stands_for} for w in meld.wilds],
        }

    def write_json(self, meld: Any) -> str:
        """``encode_json(self._serialize(meld, ...))``, written directly."""
        if meld is None:
            return "null"
        suit, rank, kind = meld.suit, meld.rank, meld.type
        wilds = meld.wilds
        return (
            f'{{"type":{json_string(kind) if kind.__class__ is str else encode_json(kind)},'
            f'"suit":{"null" if suit is None else _SUIT_JSON[suit]},'
            f'"rank":{"null" if rank is None else _RANK_JSON[rank]},'
            f'"cards":{card_list_json(meld.cards)},'
            f'"wilds":{"[" + ",".join([_wild_json(w) for w in wilds]) + "]" if wilds else "[]"}}}'
        )


class ViolationField(fields.Nested):
    """``Nested(ViolationSchema)``, written by the engine's own ``Violation.as_dict()``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(ViolationSchema, **kwargs)

    def _serialize(self, nested_obj: Any, attr: Any, obj: Any, **kwargs: Any) -> Any:  # type: ignore[override]  # marshmallow renames the parameter
        return None if nested_obj is None else nested_obj.as_dict()

    def write_json(self, violation: Any) -> str:
        """``encode_json(self._serialize(violation, ...))``."""
        return "null" if violation is None else encode_json(violation.as_dict())


class ContractField(fields.Nested):
    """``Nested(ContractSchema)``, written as the engine's own ``contract_as_dict`` writes it,
    with the contract's text — which the engine composes anew each time it is asked, at more
    cost than the rest of a verdict — composed once per contract."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(ContractSchema, **kwargs)

    def _serialize(self, nested_obj: Any, attr: Any, obj: Any, **kwargs: Any) -> Any:  # type: ignore[override]  # marshmallow renames the parameter
        return None if nested_obj is None else _contract_dict(nested_obj)

    def write_json(self, contract: Contract | None) -> str:
        """``encode_json(self._serialize(contract, ...))``, encoded once per contract."""
        return "null" if contract is None else _contract_json(contract)


def _contract_dict(contract: Contract) -> dict[str, Any]:
    return {
        "melds": [{"type": spec.type, "min": spec.min} for spec in contract.melds],
        "text": _contract_text(contract),
    }


class _PerContract:
    """A value computed once per contract: kept by the contract's identity, each entry holding
    its contract so that no other object can have its id while it is kept. Bounded, since a
    house ruleset's contracts are new objects each time. (An lru_cache would hash contracts,
    field by field in Python, at about the cost of computing the value again.)"""

    def __init__(self, compute: Callable[[Contract], str]) -> None:
        self.compute = compute
        self.known: dict[int, tuple[Contract, str]] = {}

    def __call__(self, contract: Contract) -> str:
        known = self.known.get(id(contract))
        if known is not None and known[0] is contract:
            return known[1]
        value = self.compute(contract)
        if len(self.known) >= 256:
            self.known.clear()
        self.known[id(contract)] = (contract, value)
        return value


#: The engine composes a contract's text anew each time it is asked.
_contract_text = _PerContract(lambda contract: contract.text)
_contract_json = _PerContract(lambda contract: encode_json(_contract_dict(contract)))


def _violations() -> fields.List[Any]:
    return fields.List(ViolationField(), required=True)


class MeldVerdictSchema(ResponseSchema):
    valid = fields.Boolean(required=True)
    meld = MeldField(required=True)
    violations = _violations()


class ContractVerdictSchema(ResponseSchema):
    valid = fields.Boolean(required=True)
    round = integer(required=True, attribute="round.number")
    contract = ContractField(required=True)
    melds = fields.List(MeldField(), required=True)
    remaining = CardList(
        required=True,
        allow_none=True,
        metadata={"description": "The hand minus the melds; null when no hand was given."},
    )
    goes_out = fields.Boolean(
        required=True,
        allow_none=True,
        metadata={
            "description": "Whether the player can end the round on this turn; null when no"
            " hand was given."
        },
    )
    violations = _violations()


class LayoffVerdictSchema(ResponseSchema):
    valid = fields.Boolean(required=True)
    meld = MeldField(required=True, metadata={"description": "The meld with the cards added."})
    violations = _violations()


class JokerSwapVerdictSchema(ResponseSchema):
    valid = fields.Boolean(required=True)
    meld = MeldField(
        required=True,
        metadata={"description": "The meld after the swap, the natural in the wild card's place."},
    )
    freed = CardField(
        required=True,
        allow_none=True,
        metadata={"description": "The wild card taken off the table; null if none is there."},
    )
    obligation = fields.String(
        required=True,
        validate=validate.OneOf(("own_meld_now", "table_this_turn", "hand")),
        metadata={
            "description": "Where the freed wild card must go: into a meld of the player's own"
            " at once, onto the table this turn, or (where the ruleset allows) the hand."
        },
    )
    violations = _violations()


class RefusalSchema(ma.Schema):
    seat = integer(required=True)
    code = fields.String(
        required=True, attribute="violation.code", metadata={"example": "own_discard"}
    )
    message = fields.String(required=True, attribute="violation.message")


class BuyVerdictSchema(ResponseSchema):
    winner = integer(
        required=True,
        allow_none=True,
        metadata={"description": "The seat that gets the discard; null if nobody may buy it."},
    )
    penalty_cards = integer(
        required=True, metadata={"description": "Cards the winner also takes from the stock."}
    )
    refused = fields.List(
        fields.Nested(RefusalSchema),
        required=True,
        metadata={"description": "Every caller who does not get the card, and why."},
    )


class PenaltyCardSchema(ma.Schema):
    card = CardField(required=True)
    points = integer(required=True)


class PenaltyVerdictSchema(ResponseSchema):
    total = integer(required=True)
    cards = fields.List(fields.Nested(PenaltyCardSchema), required=True)
    violations = fields.List(
        ViolationField(),
        required=True,
        metadata={
            "description": "Why no table could deal this hand (`too_many_copies`: more copies"
            " of a card, or more jokers, than the decks in play hold); the total is counted"
            " anyway. Empty for a hand that can exist."
        },
    )


# --- check requests ------------------------------------------------------------------------


def _players() -> fields.Integer:
    return integer(
        validate=validate.Range(2, MAX_SEATS),
        metadata={
            "description": "Players at the table, within the ruleset's `players` range; it"
            " sets the decks and jokers in play. Without it, the largest table is assumed."
        },
    )


def round_field() -> fields.Integer:
    return integer(
        required=True,
        validate=validate.Range(1, MAX_ROUND),
        metadata={"description": "A round of the ruleset (1 to its `round_count`).", "example": 2},
    )


def _meld_type(description: str) -> fields.String:
    return fields.String(validate=validate.OneOf(MELD_TYPES), metadata={"description": description})


def _contract_down() -> fields.String:
    return fields.String(
        required=True,
        validate=validate.OneOf(CONTRACT_DOWN),
        metadata={
            "description": "The moment before the move: not down yet, laid earlier on this"
            " turn, or laid on a previous turn."
        },
    )


class MeldCheckSchema(RequestSchema):
    ruleset = ruleset_field()
    cards = cards(
        required=True,
        min_items=1,
        max_items=MAX_MELD,
        metadata={"description": "One meld, in table order."},
    )
    type = _meld_type("Read the cards as this; without it, as whichever they plainly are.")
    players = _players()


class ContractCheckSchema(RequestSchema):
    ruleset = ruleset_field()
    round = round_field()
    melds = fields.List(
        cards(min_items=1, max_items=MAX_MELD),
        required=True,
        validate=validate.Length(min=1, max=MAX_MELDS),
        metadata={"description": "The melds laid, each in table order."},
    )
    hand = cards(
        max_items=MAX_HAND,
        metadata={"description": "Every card the player holds, the melds' cards included."},
    )
    types = fields.List(
        fields.String(validate=validate.OneOf(MELD_TYPES), allow_none=True),
        validate=validate.Length(max=MAX_MELDS),
        metadata={
            "description": "The type of each meld, where the player declares it (null: read"
            " from the cards)."
        },
    )
    players = _players()


class LayoffCheckSchema(RequestSchema):
    ruleset = ruleset_field()
    round = round_field()
    meld = cards(
        required=True,
        min_items=1,
        max_items=MAX_MELD,
        metadata={"description": "The meld on the table, in table order."},
    )
    cards = cards(
        required=True,
        min_items=1,
        max_items=MAX_MELD,
        metadata={"description": "The cards added from hand."},
    )
    contract_down = _contract_down()
    end = fields.String(
        validate=validate.OneOf(("low", "high")),
        metadata={
            "description": "Where a wild card goes on a run; without it, the high end (the"
            " low end when the high end is an ace)."
        },
    )
    type = _meld_type("The table meld's type, where its cards leave it open.")
    players = _players()


class JokerSwapCheckSchema(RequestSchema):
    ruleset = ruleset_field()
    round = round_field()
    meld = cards(
        required=True,
        min_items=1,
        max_items=MAX_MELD,
        metadata={"description": "The meld on the table, in table order."},
    )
    joker = integer(
        validate=validate.Range(0, MAX_MELD - 1),
        metadata={
            "description": "Position in `meld` of the wild card to take; required when the"
            " meld holds more than one."
        },
    )
    card = CardField(required=True, metadata={"description": "The natural offered in its place."})
    contract_down = _contract_down()
    type = _meld_type("The table meld's type, where its cards leave it open.")
    players = _players()


def _seat(description: str, **kwargs: Any) -> fields.Integer:
    return integer(
        validate=validate.Range(0, MAX_SEATS - 1),
        metadata={"description": description},
        **kwargs,
    )


BuysUsedSchema = ma.Schema.from_dict(
    {str(seat): integer(validate=validate.Range(0, 99)) for seat in range(MAX_SEATS)},
    name="BuysUsedSchema",
)


class BuyCheckSchema(RequestSchema):
    ruleset = ruleset_field()
    round = round_field()
    seats = integer(
        required=True,
        validate=validate.Range(2, MAX_SEATS),
        metadata={"description": "Players at the table (seats 0 to seats - 1)."},
    )
    on_turn = _seat("The player on turn, who declined the discard.", required=True)
    callers = fields.List(
        _seat("A seat asking to buy."),
        required=True,
        validate=validate.Length(max=MAX_SEATS - 1),
        metadata={
            "uniqueItems": True,
            "description": "Seats asking to buy the discard, not including `on_turn`.",
        },
    )
    buys_used = fields.Nested(
        BuysUsedSchema,
        required=True,
        metadata={"description": "Buys each seat has made this round, by seat number."},
    )
    previous_buyer = _seat("The seat that bought the previous discard, if any.", allow_none=True)
    down = fields.List(
        _seat("A seat whose contract is down."),
        validate=validate.Length(max=MAX_SEATS),
        metadata={
            "uniqueItems": True,
            "description": "Seats whose contract is on the table (for rulesets where they"
            " may no longer buy).",
        },
    )

    @ma.validates("callers")
    def _distinct_callers(self, value: list[int], **kwargs: Any) -> None:
        if len(set(value)) != len(value):
            raise ma.ValidationError("a seat calls at most once")

    @ma.validates("down")
    def _distinct_down(self, value: list[int], **kwargs: Any) -> None:
        if len(set(value)) != len(value):
            raise ma.ValidationError("each seat at most once")

    @ma.post_load
    def _seat_numbers(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        data["buys_used"] = {int(seat): count for seat, count in data["buys_used"].items()}
        return data


class HandPenaltySchema(RequestSchema):
    ruleset = ruleset_field()
    cards = cards(
        required=True,
        max_items=MAX_HAND,
        metadata={"description": "The cards left in hand."},
    )
    players = _players()


class HealthSchema(ma.Schema):
    status = fields.String(required=True, metadata={"example": "ok"})
    database = fields.String(
        required=True, metadata={"description": "The database answered.", "example": "ok"}
    )
