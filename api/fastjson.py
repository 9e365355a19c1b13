"""The fast path: request bodies loaded, and verdicts written as JSON text, in one pass.

Every check loads a request and dumps a verdict, and marshmallow's walk of a schema — a
getter, an error store and several calls per field, a call per validator — costs more than
the check itself. With ``FAST_JSON`` on (the default, see :mod:`api.config`), the schemas of
the checks take a shorter way, planned once from their own declared fields:

* :class:`RequestSchema` loads a well-formed body field by field with plain type tests and the
  fields' own validators; anything it is not sure of (a value of another type, a field too
  many or missing, a house ruleset) is loaded by marshmallow from scratch, so every error the
  client reads is marshmallow's;
* :class:`ResponseSchema` writes the verdict's JSON text directly, as :class:`EncodedJSON`,
  which :class:`FastJSONProvider` — the app's JSON provider when the switch is on — sends as
  it is. flask-smorest's own ``response`` decorator does the rest, as for any schema.

Either way the answer is the same bytes as marshmallow's and ``flask.jsonify``'s: a test sends
a corpus of valid and broken requests through both paths and compares them. With the switch
off the schemas are plain marshmallow schemas and the provider is Flask's own.

The plans know marshmallow's kinds of field only by their public attributes (``inner``,
``schema``, ``validators``, ``truthy``...); a schema with a field of another kind, or with
``pre_``/``post_`` hooks (which only a schema's author can know of: such schemas derive from
``marshmallow.Schema`` instead), is left to marshmallow.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from json.encoder import encode_basestring_ascii
from operator import attrgetter
from typing import Any

import flask
import marshmallow as ma
from flask.json.provider import DefaultJSONProvider
from marshmallow import fields
from marshmallow.types import StrSequenceOrSet, UnknownOption

from rules import DECK, JOKER, PRESETS, Card

from .fields import CardField, RulesetField, StrictBoolean, card_of, spelt_as_a_card

#: A str as a JSON string, escaped as Flask's provider escapes it (the same C function).
json_string = encode_basestring_ascii


class GiveUp(Exception):
    """A plan met a value it cannot be sure to treat as marshmallow would: marshmallow does."""


class EncodedJSON(str):
    """A response body already written as compact, ASCII-only JSON text."""


class FastJSONProvider(DefaultJSONProvider):
    """Flask's JSON provider, writing an :class:`EncodedJSON` body as it is.

    Only where Flask would write the same text: compact, ASCII-only, keys in their order. In
    debug mode (indented) or with other settings the text is read back and written Flask's way.
    """

    sort_keys = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if type(obj) is EncodedJSON:
            if kwargs == {"separators": (",", ":")} and self.ensure_ascii and not self.sort_keys:
                return obj
            obj = json.loads(obj)
        return super().dumps(obj, **kwargs)


def fast_json_on() -> bool:
    """Whether the app serving this request takes the fast path (its provider is the fast one)."""
    return flask.has_app_context() and isinstance(flask.current_app.json, FastJSONProvider)


# --- loading -------------------------------------------------------------------------------

Loader = Callable[[Any], Any]


def _type_test(kind: type) -> Loader:
    def load(value: Any) -> Any:
        if value.__class__ is not kind:
            raise GiveUp
        return value

    return load


def _boolean(value: Any) -> bool:
    if value is True or value is False:
        return value
    raise GiveUp


def _card(value: Any) -> Any:
    card = card_of(value) if value.__class__ is str else None
    if card is None:
        raise GiveUp
    return card


def _preset(value: Any) -> Any:
    if value.__class__ is str and value in PRESETS:
        return PRESETS[value]
    raise GiveUp  # a house ruleset, or no ruleset: marshmallow's


def _cards(value: Any) -> Any:
    """A hand or a meld: a list of cards, every one of them spelt as a card."""
    if value.__class__ is not list:
        raise GiveUp
    loaded = [card_of(text) if text.__class__ is str else None for text in value]
    if None in loaded:
        raise GiveUp  # not a card's spelling, or not even a str: marshmallow says which
    return loaded


def _list_of(inner: Loader) -> Loader:
    def load(value: Any) -> Any:
        if value.__class__ is not list:
            raise GiveUp
        return [inner(item) for item in value]

    return load


def _base_loader(field: fields.Field[Any]) -> Loader | None:
    """What ``field`` makes of a value of the one type it is sure of, before validators."""
    kind = type(field)
    if kind is StrictBoolean:
        return _boolean
    if kind is fields.Integer and field.strict and not field.as_string:  # type: ignore[attr-defined]
        return _type_test(int)
    if kind is fields.String:
        return _type_test(str)
    if kind is CardField:
        return _card
    if kind is RulesetField:
        return _preset
    if isinstance(field, fields.List) and type(field.inner) is CardField:
        if field.inner.validators == [spelt_as_a_card] and not field.inner.allow_none:
            return _cards
    if isinstance(field, fields.List) and type(field.inner) is not fields.Nested:
        inner = field_loader(field.inner)
        return None if inner is None else _list_of(inner)
    return None


def field_loader(field: fields.Field[Any]) -> Loader | None:
    """A function loading every value ``field.deserialize`` loads without error to the same
    result, and raising :class:`GiveUp` or ``ValidationError`` for any other; ``None`` for a
    kind of field it does not know."""
    base = _base_loader(field)
    if base is None:
        return None
    # A card's spelling is what _card checks; every other validator runs as marshmallow runs
    # it, on the loaded value (a card field's would see the text: that one marshmallow loads).
    validators = [validator for validator in field.validators if validator is not spelt_as_a_card]
    if isinstance(field, CardField) and validators:
        return None
    allow_none = field.allow_none

    def load(value: Any) -> Any:
        if value is None:
            if allow_none:
                return None
            raise GiveUp
        loaded = base(value)
        for validator in validators:
            if validator(loaded) is False:
                raise GiveUp
        return loaded

    return load


def schema_loader(schema: ma.Schema) -> Callable[[dict[str, Any]], dict[str, Any]] | None:
    """A function loading a body as ``schema.load`` does, for a body it is sure of."""
    if schema.many or schema.partial or schema.unknown != ma.RAISE:
        return None
    plan = []
    for name, field in schema.load_fields.items():
        load = field_loader(field)
        attribute = field.attribute or name
        if load is None or field.load_default is not ma.missing or "." in attribute:
            return None
        plan.append((field.data_key or name, attribute, load, field.required))
    keys = frozenset(key for key, _, _, _ in plan)

    def load_body(data: dict[str, Any]) -> dict[str, Any]:
        if not keys.issuperset(data):
            raise GiveUp  # a field too many: marshmallow names it
        loaded = {}
        for key, attribute, load, required in plan:
            if key in data:
                loaded[attribute] = load(data[key])
            elif required:
                raise GiveUp
        return loaded

    return load_body


class RequestSchema(ma.Schema):
    """A request body: loaded by marshmallow, or in one pass on the fast path."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.one_pass = schema_loader(self)

    def load(
        self,
        data: Any,
        *,
        many: bool | None = None,
        partial: bool | StrSequenceOrSet | None = None,
        unknown: UnknownOption | None = None,
    ) -> Any:
        if (
            self.one_pass is not None
            and type(data) is dict
            and many is None
            and partial is None
            and unknown in (None, ma.RAISE)
            and fast_json_on()
        ):
            try:
                return self.one_pass(data)
            except (GiveUp, ma.ValidationError):
                pass
        return super().load(data, many=many, partial=partial, unknown=unknown)


# --- writing -------------------------------------------------------------------------------
#
# A field's value is written by a look-up on its class: a str, an int, a card or None is
# written by one call into C, and anything else (a nested object, a list, a value of a type
# the field's kind would convert) by the field's writer below, which does what marshmallow's
# dump and Flask's encoder do with it together.

Writer = Callable[[Any], str]
NoneType = type(None)


def _null(value: None) -> str:
    return "null"


def json_value(value: Any) -> str:
    """A value marshmallow hands to the JSON encoder as it is, as JSON text."""
    kind = value.__class__
    if kind is str:
        return json_string(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if kind is int:
        return int.__repr__(value)
    raise GiveUp  # a float, a list...: Flask's encoder


def _string(value: Any) -> str:
    return "null" if value is None else json_string(str(value))


def _integer(value: Any) -> str:
    return "null" if value is None else int.__repr__(int(value))


#: What a value written as it is (a Function's, a Boolean's, a Raw field's) becomes, by class.
_AS_IS: dict[type, Writer] = {
    str: json_string,
    NoneType: _null,
    bool: lambda value: "true" if value else "false",
    int: int.__repr__,
}
#: Each card's canonical text as a JSON string: the engine's 53 cards are its only instances,
#: so a card is written by one look-up (``str`` of a card asks two enums for their text).
CARD_JSON: dict[Card, str] = {card: json_string(str(card)) for card in (*DECK, JOKER)}
#: What a String field writes of a value, by class: ``str(value)``, as a JSON string.
_AS_STRING: dict[type, Writer] = {str: json_string, NoneType: _null, Card: CARD_JSON.__getitem__}
#: What an Integer field writes of a value, by class: ``int(value)``.
_AS_INTEGER: dict[type, Writer] = {int: int.__repr__, NoneType: _null}


def _list_writer(inner: Writer, table: dict[type, Writer]) -> Writer:
    def write(values: Any) -> str:
        if values is None:
            return "null"
        get = table.get
        return "[" + ",".join([get(value.__class__, inner)(value) for value in values]) + "]"

    return write


def field_writer(field: fields.Field[Any]) -> tuple[dict[type, Writer], Writer] | None:
    """How to write, as JSON text, what ``field`` dumps a value as: a table of writers by the
    value's class, and the writer for every other class; ``None`` for a kind of field it does
    not know."""
    if isinstance(field, fields.Nested):
        schema = field.schema
        inner = schema_writer(schema)
        if inner is None:
            return None
        if schema.many or field.many:
            return {NoneType: _null}, _list_writer(inner, {NoneType: _null})
        return {NoneType: _null}, inner
    if isinstance(field, fields.List):
        inner_writers = field_writer(field.inner)
        if inner_writers is None:
            return None
        table, inner = inner_writers
        return {NoneType: _null}, _list_writer(inner, table)
    if isinstance(field, fields.Function | fields.Boolean) or type(field) is fields.Raw:
        return _AS_IS, json_value  # dumped as it is, then encoded
    if isinstance(field, fields.Integer) and not field.as_string:
        return _AS_INTEGER, _integer
    if type(field) in (fields.String, CardField):
        return _AS_STRING, _string
    return None


def _getter(schema: ma.Schema, name: str, field: fields.Field[Any]) -> Callable[[Any], Any]:
    """How ``schema`` reads ``field``'s value off an object, as marshmallow reads it."""
    if isinstance(field, fields.Function):
        serialize: Callable[[Any], Any] = field.serialize_func  # type: ignore[assignment]
        return serialize  # a field dumped has its function, which reads the object itself
    attribute = field.attribute or name
    get_attribute = schema.get_attribute

    def get(obj: Any) -> Any:
        value = get_attribute(obj, attribute, ma.missing)
        if value is ma.missing:
            raise GiveUp  # marshmallow leaves the key out, or writes the field's default
        return value

    return get


def _attributes_at_once(
    schema: ma.Schema, getters: list[Callable[[Any], Any]]
) -> Callable[[Any], Sequence[Any]] | None:
    """A function reading the fields' values off an object that takes no ``[key]``: its plain
    attributes in one go, as marshmallow's own ``get_attribute`` would one by one, the rest
    (a Function's value, a dotted attribute) by ``getters``; ``None`` where it cannot."""
    if type(schema).get_attribute is not ma.Schema.get_attribute:
        return None
    plain, others = [], []
    for position, (name, field) in enumerate(schema.dump_fields.items()):
        attribute = field.attribute or name
        if isinstance(field, fields.Function) or "." in attribute:
            others.append((position, getters[position]))
        else:
            plain.append(attribute)
    if len(plain) < 2:
        return None
    fetch = attrgetter(*plain)
    if not others:
        return fetch

    def read(obj: Any) -> list[Any]:
        values = list(fetch(obj))
        for position, get in others:
            values.insert(position, get(obj))
        return values

    return read


def schema_writer(schema: ma.Schema) -> Writer | None:
    """A function writing, as JSON text, what ``schema.dump`` makes of one object."""
    if schema.many:
        return None
    keys, getters, tables, writers = [], [], [], []
    for name, field in schema.dump_fields.items():
        found = field_writer(field)
        if found is None or isinstance(field, fields.Method | fields.Constant):
            return None
        keys.append(json_string(field.data_key or name) + ":")
        getters.append(_getter(schema, name, field))
        tables.append(found[0])
        writers.append(found[1])
    # {"key":value,...}, each value written into its place by str.format.
    format_object = ("{{" + ",".join(key + "{}" for key in keys) + "}}").format
    plan = list(zip(tables, writers, strict=True))

    def write_fields(obj: Any) -> str:
        if obj is None:
            return "null"  # a Nested field's None
        values = [get(obj) for get in getters]
        return format_object(
            *[
                table.get(value.__class__, write)(value)
                for (table, write), value in zip(plan, values, strict=True)
            ]
        )

    read = _attributes_at_once(schema, getters)
    if read is None:
        return write_fields

    def write_object(obj: Any) -> str:
        if obj is None:
            return "null"  # a Nested field's None
        if hasattr(obj, "__getitem__"):
            return write_fields(obj)  # a dict, or a sequence: marshmallow reads obj[key] first
        try:
            values = read(obj)
        except AttributeError:
            raise GiveUp from None  # marshmallow leaves the key out, or writes the default
        return format_object(
            *[
                table.get(value.__class__, write)(value)
                for (table, write), value in zip(plan, values, strict=True)
            ]
        )

    return write_object


class ResponseSchema(ma.Schema):
    """A response body: dumped by marshmallow, or written as JSON text on the fast path.

    For the schemas views answer with, not for nested ones: what the fast path dumps is text.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.one_pass = schema_writer(self)

    def dump(self, obj: Any, *, many: bool | None = None) -> Any:
        if self.one_pass is not None and not many and obj is not None and fast_json_on():
            try:
                return EncodedJSON(self.one_pass(obj))
            except GiveUp:
                pass
        return super().dump(obj, many=many)


def init_app(app: flask.Flask) -> None:
    """Put the app on the fast path: its JSON provider sends written bodies as they are."""
    app.json = FastJSONProvider(app)


# === match sheets ==================================================================================
#
# A sheet's answer is the whole evening — the resolved ruleset, every round's deal and results,
# the totals and standings — and it is written on every round recorded, so marshmallow's walk
# of SheetSchema costs more than storing the round. Sheets keep Flask's own layout
# (``app.json.dumps``: the bytes a retried creation repeats), so the fast path does not write
# text: it builds the very dict ``SheetSchema.dump`` builds, and the provider encodes it as it
# encodes the stock one. It knows the sheet's schemas by their declared fields, checked when the
# schema is made; a sheet schema with other fields is dumped by marshmallow alone. What it
# knows beyond the fields are the schemas' two rules for leaving keys out: a pending round has
# no ``stock_ran_out`` and no ``results``, and a result given as points has no ``cards``.

Dumper = Callable[[Any], Any]

#: The fields each schema of a sheet declares, in order, with their kind.
SHEET_FIELDS = {
    "id": "string",
    "ruleset": "dict",
    "players": "seats",
    "first_dealer": "integer",
    "rounds": "rounds",
    "totals": "totals",
    "standings": "standings",
    "status": "string",
    "winners": "integers",
    "tie_break": "tie_break",
    "version": "integer",
    "created_at": "string",
    "updated_at": "string",
}
SEAT_FIELDS = {"seat": "integer", "name": "string"}
ROUND_FIELDS = {
    "number": "integer",
    "contract": "contract",
    "hand_size": "integer",
    "whole_hand": "boolean",
    "discard_to_go_out": "boolean",
    "dealer": "integer",
    "cutter": "integer",
    "first_player": "integer",
    "status": "string",
    "stock_ran_out": "boolean",
    "results": "results",
}
RESULT_FIELDS = {
    "seat": "integer",
    "points": "integer",
    "penalty": "integer",
    "went_out": "boolean",
    "buys": "integer",
    "bonus": "integer",
    "cards": "strings",
}
CONTRACT_FIELDS = {"melds": "melds", "text": "string"}
MELD_SPEC_FIELDS = {"type": "string", "min": "integer"}
TOTAL_FIELDS = {"seat": "integer", "total": "integer"}
STANDING_FIELDS = {"rank": "integer", "seat": "integer", "name": "string", "total": "integer"}
TIE_BREAK_FIELDS = {
    "method": "string",
    "seats": "integers",
    "round": "integer",
    "decided": "boolean",
}
#: The nested schemas by the kind of the field holding them, and whether it holds a list.
NESTED_FIELDS: dict[str, tuple[dict[str, str], bool]] = {
    "seats": (SEAT_FIELDS, True),
    "rounds": (ROUND_FIELDS, True),
    "results": (RESULT_FIELDS, True),
    "contract": (CONTRACT_FIELDS, False),
    "melds": (MELD_SPEC_FIELDS, True),
    "totals": (TOTAL_FIELDS, True),
    "standings": (STANDING_FIELDS, True),
    "tie_break": (TIE_BREAK_FIELDS, False),
}


def _kind_is(field: fields.Field[Any], kind: str) -> bool:
    """Whether ``field`` dumps a value as the sheet's dumper does for ``kind``."""
    if field.data_key is not None or field.attribute is not None:
        return False
    if kind in NESTED_FIELDS:
        known, many = NESTED_FIELDS[kind]
        if isinstance(field, fields.List):
            field, many = field.inner, not many  # a list of nested objects: List(Nested(...))
            if field.data_key is not None or field.attribute is not None:
                return False
        if type(field) is not fields.Nested or bool(field.many) is not many:
            return False
        nested = field.schema
        if nested.only is not None or nested.exclude:
            return False
        return schema_declares(nested, known)
    if kind in ("integers", "strings"):
        return type(field) is fields.List and _kind_is(field.inner, kind[:-1])
    if kind == "integer":
        return type(field) is fields.Integer and not field.as_string
    if kind == "dict":
        return type(field) is fields.Dict and field.key_field is None and not field.value_field
    expected = {"string": fields.String, "boolean": fields.Boolean}[kind]
    return type(field) is expected


def schema_declares(schema: ma.Schema, known: dict[str, str]) -> bool:
    """Whether ``schema`` dumps exactly the fields ``known`` names, in order and of their kind,
    each read as a plain attribute."""
    dumped = schema.dump_fields
    return list(dumped) == list(known) and all(
        _kind_is(field, known[name]) for name, field in dumped.items()
    )


def _dumped_integer(value: Any) -> Any:
    """An Integer field's value: an int or None as it is; anything else is marshmallow's."""
    if value.__class__ is int or value is None:
        return value
    raise GiveUp


def _dumped_text(value: Any) -> Any:
    """A String field's value: a str or None as it is; anything else is marshmallow's."""
    if value.__class__ is str or value is None:
        return value
    raise GiveUp


def _dumped_integers(values: Any) -> list[Any] | None:
    return None if values is None else [_dumped_integer(value) for value in values]


def _contract(contract: Any) -> dict[str, Any] | None:
    if contract is None:
        return None
    return {
        "melds": [
            {"type": _dumped_text(meld.type), "min": _dumped_integer(meld.min)}
            for meld in contract.melds
        ],
        "text": _dumped_text(contract.text),
    }


def _result(result: Any) -> dict[str, Any]:
    dumped = {
        "seat": _dumped_integer(result.seat),
        "points": _dumped_integer(result.points),
        "penalty": _dumped_integer(result.penalty),
        "went_out": result.went_out,
        "buys": _dumped_integer(result.buys),
        "bonus": _dumped_integer(result.bonus),
    }
    if result.cards is not None:  # given as points: no cards to show, the key left out
        dumped["cards"] = [_dumped_text(card) for card in result.cards]
    return dumped


def _round(played: Any) -> dict[str, Any]:
    dumped = {
        "number": _dumped_integer(played.number),
        "contract": _contract(played.contract),
        "hand_size": _dumped_integer(played.hand_size),
        "whole_hand": played.whole_hand,
        "discard_to_go_out": played.discard_to_go_out,
        "dealer": _dumped_integer(played.dealer),
        "cutter": _dumped_integer(played.cutter),
        "first_player": _dumped_integer(played.first_player),
        "status": _dumped_text(played.status),
    }
    if dumped["status"] == "pending":  # a pending round has not ended: no outcome yet
        return dumped
    results = played.results
    dumped["stock_ran_out"] = played.stock_ran_out
    dumped["results"] = None if results is None else [_result(item) for item in results]
    return dumped


def _tie_break(tie: Any) -> dict[str, Any] | None:
    if tie is None:
        return None
    return {
        "method": _dumped_text(tie.method),
        "seats": _dumped_integers(tie.seats),
        "round": _dumped_integer(tie.round),
        "decided": tie.decided,
    }


def _sheet(score: Any) -> dict[str, Any]:
    ruleset = score.ruleset
    return {
        "id": _dumped_text(score.id),
        "ruleset": None if ruleset is None else dict(ruleset),
        "players": [
            {"seat": _dumped_integer(seat.seat), "name": _dumped_text(seat.name)}
            for seat in score.players
        ],
        "first_dealer": _dumped_integer(score.first_dealer),
        "rounds": [_round(played) for played in score.rounds],
        "totals": [
            {"seat": _dumped_integer(item.seat), "total": _dumped_integer(item.total)}
            for item in score.totals
        ],
        "standings": [
            {
                "rank": _dumped_integer(item.rank),
                "seat": _dumped_integer(item.seat),
                "name": _dumped_text(item.name),
                "total": _dumped_integer(item.total),
            }
            for item in score.standings
        ],
        "status": _dumped_text(score.status),
        "winners": _dumped_integers(score.winners),
        "tie_break": _tie_break(score.tie_break),
        "version": _dumped_integer(score.version),
        "created_at": _dumped_text(score.created_at),
        "updated_at": _dumped_text(score.updated_at),
    }


def _created_sheet(score: Any) -> dict[str, Any]:
    dumped = _sheet(score)
    dumped["edit_token"] = _dumped_text(score.edit_token)
    return dumped


def sheet_dumper(schema: ma.Schema) -> Dumper | None:
    """What ``schema.dump`` makes of a score sheet, built directly; ``None`` unless ``schema``
    is a sheet schema as this module knows it (with, or without, the created sheet's token)."""
    if schema.many or schema.only is not None or schema.exclude:
        return None
    if schema_declares(schema, SHEET_FIELDS):
        return _sheet
    if schema_declares(schema, SHEET_FIELDS | {"edit_token": "string"}):
        return _created_sheet
    return None


class SheetResponseSchema(ma.Schema):
    """A sheet schema: dumped by marshmallow, or built directly on the fast path."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.one_pass = sheet_dumper(self)

    def dump(self, obj: Any, *, many: bool | None = None) -> Any:
        if self.one_pass is not None and not many and obj is not None and fast_json_on():
            try:
                return self.one_pass(obj)
            except (GiveUp, AttributeError, TypeError):
                pass  # a value of another type, an attribute missing, a dict: marshmallow's
        return super().dump(obj, many=many)


# --- a round's results, loaded --------------------------------------------------------------------
#
# A round's body is a list of results, one per seat: marshmallow loads each entry as a nested
# schema, which costs more than scoring the round. The plan loads each entry with the entry
# schema's own one-pass plan (:func:`schema_loader`), then runs the one check that entry schema
# makes of a whole entry (``one_outcome``: exactly one of out, points or cards) as marshmallow
# runs it, after the fields; anything it is not sure of is marshmallow's from scratch, as for
# every RequestSchema, so every error the client reads is marshmallow's.


def round_loader(schema: ma.Schema) -> Callable[[dict[str, Any]], dict[str, Any]] | None:
    """A function loading a round's body as ``schema.load`` does, for a body it is sure of."""
    if schema.many or schema.partial or schema.unknown != ma.RAISE:
        return None
    declared = schema.load_fields
    results, stock_ran_out = declared.get("results"), declared.get("stock_ran_out")
    if list(declared) != ["results", "stock_ran_out"] or results is None or stock_ran_out is None:
        return None
    if type(results) is not fields.List or type(results.inner) is not fields.Nested:
        return None
    if results.inner.many or results.data_key or results.attribute or not results.required:
        return None
    entries = results.inner.schema
    load_entry, check_entry = schema_loader(entries), getattr(entries, "one_outcome", None)
    load_ran_out = field_loader(stock_ran_out)
    ran_out_default = stock_ran_out.load_default
    if load_entry is None or check_entry is None or load_ran_out is None:
        return None
    if stock_ran_out.data_key or stock_ran_out.attribute or type(ran_out_default) is not bool:
        return None
    results_validators = results.validators

    def load_body(data: dict[str, Any]) -> dict[str, Any]:
        if "results" not in data or not {"results", "stock_ran_out"}.issuperset(data):
            raise GiveUp  # a field missing or one too many: marshmallow names it
        given = data["results"]
        if given.__class__ is not list:
            raise GiveUp
        loaded = []
        for item in given:
            if item.__class__ is not dict:
                raise GiveUp
            entry = load_entry(item)
            check_entry(entry)
            loaded.append(entry)
        for validator in results_validators:
            if validator(loaded) is False:
                raise GiveUp
        if "stock_ran_out" in data:
            return {"results": loaded, "stock_ran_out": load_ran_out(data["stock_ran_out"])}
        return {"results": loaded, "stock_ran_out": ran_out_default}

    return load_body


class RoundRequestSchema(RequestSchema):
    """A round's results: loaded by marshmallow, or in one pass on the fast path."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.one_pass = round_loader(self)
