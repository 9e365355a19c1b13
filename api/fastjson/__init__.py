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
  it is; a schema that declares ``values_never_change`` (a round's contract) has each
  object's text written once and recalled after that;
* :func:`json_view` serves each check whose body a plan loads in place of webargs' and
  flask-smorest's wrappers around it — the documented view stays theirs, in the OpenAPI
  document and on the stock path — and hands every body or verdict its plans are not sure of
  to that documented view, so that every error is the stock path's own.
* :func:`body_view` does the same for a view that reads a body a plan loads and answers with
  a Response of its own (a round recorded: the whole sheet, :mod:`api.fastjson.sheets`), so
  that recording a round pays for neither webargs' parse nor flask-smorest's wrappers;
* :class:`~api.fastjson.lane.Lane` answers a plain check (a JSON body of known length, no
  query string) with the same plans beside Flask, whose request machinery costs a check more
  than the check itself, and hands every other request to Flask.

Either way the answer is the same bytes as marshmallow's and ``flask.jsonify``'s: a test sends
a corpus of valid and broken requests through both paths and compares them. With the switch
off the schemas are plain marshmallow schemas and the provider is Flask's own.

The plans know marshmallow's kinds of field only by their public attributes (``inner``,
``schema``, ``validators``, ``truthy``...); a schema with a field of another kind, or with
``pre_``/``post_`` hooks (which only a schema's author can know of: such schemas derive from
``marshmallow.Schema`` instead), is left to marshmallow.
"""

from __future__ import annotations

import functools
import inspect
import json
import typing
from collections.abc import Callable, Sequence
from http import HTTPStatus
from json.encoder import encode_basestring_ascii
from operator import attrgetter
from typing import Any

import flask
import marshmallow as ma
from flask.json.provider import DefaultJSONProvider
from marshmallow import fields
from marshmallow.types import StrSequenceOrSet, UnknownOption

from rules import DECK, JOKER, PRESETS, Card
from rules import i18n as words
from rules.cards import SPELLINGS

from .. import i18n, parsing
from ..fields import CardField, RulesetField, StrictBoolean, card_of, spelt_as_a_card

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

    def sends_as_written(self, debug: bool) -> bool:
        """Whether :meth:`response` sends a written body as it is, in an app in ``debug`` mode
        or not: compact (as Flask writes outside debug mode, unless told), ASCII, in order."""
        compact = not debug if self.compact is None else self.compact
        return (
            compact
            and self.ensure_ascii
            and not self.sort_keys
            and self.mimetype == "application/json"
        )


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


#: Every spelling :data:`~api.fields.CARD_PATTERN` admits, and the card ``card_of`` reads it
#: as: what a hand's cards are looked up in, one by one.
CARD_OF_TEXT: dict[str, Card] = {
    text: card for text in SPELLINGS if (card := card_of(text)) is not None
}


def _card(value: Any) -> Any:
    card = CARD_OF_TEXT.get(value) if value.__class__ is str else None
    if card is None:
        raise GiveUp
    return card


def _preset(value: Any) -> Any:
    if value.__class__ is str and value in PRESETS:
        ruleset = PRESETS[value]
        i18n.for_family(ruleset.family)  # as RulesetField.resolve does
        return ruleset
    raise GiveUp  # a house ruleset, or no ruleset: marshmallow's


def _cards(value: Any) -> Any:
    """A hand or a meld: a list of cards, every one of them spelt as a card."""
    if value.__class__ is not list:
        raise GiveUp
    find = CARD_OF_TEXT.get
    try:
        loaded = [find(text) for text in value]
    except TypeError:  # a list or an object where a card should be
        raise GiveUp from None
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


def nesting(schema: ma.Schema) -> int:
    """How deeply a body the plan of ``schema`` loads can nest arrays and objects: its plans
    take a list only for a List field, an object only for the body itself or a Nested field.
    Within ``MAX_JSON_DEPTH`` (at least 8), a body the plan loads need not be walked to know
    it is not too deep."""

    def depth(field: fields.Field[Any]) -> int:
        if isinstance(field, fields.List):
            return 1 + depth(field.inner)
        if isinstance(field, fields.Nested):
            return nesting(field.schema)
        return 0

    return 1 + max((depth(field) for field in schema.load_fields.values()), default=0)


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
    write = _object_writer(schema)
    if write is None or not getattr(schema, "values_never_change", False):
        return write
    return _written_once(write)


#: How many objects a :func:`_written_once` writer remembers: every round of every preset.
WRITTEN_ONCE = 1024


def _written_once(write: Writer) -> Writer:
    """``write`` for a schema whose objects are long-lived values that never change (a
    preset's contracts): each object's text written once, then recalled by its identity. The
    memory holds the object beside its text, so no other object can take that identity while
    the text is remembered."""
    memo: dict[tuple[int, int], tuple[Any, Any, str]] = {}

    def recall(obj: Any) -> str:
        # By language too: a contract's words are written in the reader's (rules.i18n).
        language = words.current()
        key = (id(obj), id(language))
        known = memo.get(key)
        if known is not None:
            return known[2]
        text = write(obj)
        if len(memo) >= WRITTEN_ONCE:
            memo.clear()  # house rulesets each bring their own contracts: start again
        memo[key] = (obj, language, text)
        return text

    return recall


def _object_writer(schema: ma.Schema) -> Writer | None:
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


class JSONView:
    """A view whose JSON body and verdict its plans load and write: what :func:`json_view`
    serves inside Flask, and :class:`~api.fastjson.lane.Lane` beside it."""

    def __init__(
        self,
        decorated: Callable[..., Any],
        load: Callable[[dict[str, Any]], dict[str, Any]],
        write: Callable[[Any], str],
        status: int,
        depth: int,
    ) -> None:
        self.decorated = decorated
        self.view = inspect.unwrap(decorated)
        self.load = load
        self.write = write
        self.status = status
        self.status_line = f"{status} {HTTPStatus(status).phrase}"
        #: How deeply a body the plan loads can nest (:func:`nesting`).
        self.depth = depth

    def verdict(self, body: Any) -> str | None:
        """The verdict's JSON text for a parsed body, or None where the plans are not sure of
        the body or the verdict (the decorated view answers those)."""
        loaded = sure_load(self.load, body)
        if loaded is None:
            return None
        try:
            return self.write(self.view(loaded))
        except (GiveUp, ma.ValidationError):
            return None  # marshmallow's dump writes it, or names the fault


def sure_load(load: Callable[[dict[str, Any]], dict[str, Any]], body: Any) -> dict[str, Any] | None:
    """What a plan loads of a parsed body, or None where it is not sure of it (marshmallow
    then loads it from scratch and names the fault)."""
    if type(body) is not dict:
        return None
    try:
        return load(body)
    except (GiveUp, ma.ValidationError):
        return None


def body_plan(schema: ma.Schema) -> Callable[[dict[str, Any]], dict[str, Any]] | None:
    """The plan loading a body ``schema`` reads, if it has one."""
    return schema.one_pass if isinstance(schema, RequestSchema) else None


def planned(
    decorated: Callable[..., Any],
    request_schema: ma.Schema,
    status: int,
    response_schema: ma.Schema,
) -> JSONView | None:
    """The :class:`JSONView` of a view, if plans can load its body and write its verdict."""
    write = response_schema.one_pass if isinstance(response_schema, ResponseSchema) else None
    load = body_plan(request_schema)
    if write is None or load is None:
        return None
    return JSONView(decorated, load, write, status, nesting(request_schema))


def json_view(plan: JSONView) -> Callable[..., Any]:
    """One view doing what the decorated view (webargs' and flask-smorest's wrappers around
    it) does for a body the plans are sure of: read it by the API's strict rules, load it, run
    the view, write the verdict. Any other body, and any verdict the writer gives up on, is
    served by the decorated view itself, so that every error and every unusual answer is the
    stock path's.
    """
    decorated = plan.decorated
    parser = parsing.JSONBodyParser()

    @functools.wraps(decorated)
    def answer(*args: Any, **kwargs: Any) -> Any:
        # A body that is not JSON or too long raises here as it does in webargs; one too deep
        # for the plan is read again by webargs, which says so.
        app = flask.current_app
        if args or kwargs or plan.depth > app.config["MAX_JSON_DEPTH"]:
            return decorated(*args, **kwargs)
        text = plan.verdict(parser.read_json(flask.request))
        if text is None:
            return decorated(*args, **kwargs)
        response = app.json.response(EncodedJSON(text))
        response.status_code = plan.status
        return response

    return answer


def answers_itself(view: Callable[..., Any]) -> bool:
    """Whether ``view`` is declared (and, under mypy, checked) to return a Response of its own,
    which flask-smorest's response wrapper hands on untouched: a sheet, with its ETag."""
    try:
        returns = typing.get_type_hints(view).get("return")
    except (NameError, TypeError):
        return False
    return isinstance(returns, type) and issubclass(returns, flask.Response)


def body_view(
    decorated: Callable[..., Any], load: Callable[[dict[str, Any]], dict[str, Any]], depth: int
) -> Callable[..., Any]:
    """One view doing what webargs' and flask-smorest's wrappers do around a view that
    answers itself (:func:`answers_itself`): read the body by the API's strict rules, load it
    by its plan, and call the view with it and the URL's values. A body the plan is not sure
    of is served by the decorated view, which reads it again, so every refusal of a body is
    the stock path's; whatever the view then refuses, it refuses the same either way."""
    view = inspect.unwrap(decorated)
    parser = parsing.JSONBodyParser()

    @functools.wraps(decorated)
    def answer(**values: Any) -> Any:
        if depth > flask.current_app.config["MAX_JSON_DEPTH"]:
            return decorated(**values)  # webargs walks the body, and says it is too deep
        data = sure_load(load, parser.read_json(flask.request))
        return decorated(**values) if data is None else view(data, **values)

    return answer


def init_app(app: flask.Flask) -> dict[str, JSONView]:
    """Put the app on the fast path: its JSON provider sends written bodies as they are, every
    view that reads a JSON body and answers with a :class:`ResponseSchema` is served by its
    :func:`json_view`, and every other view whose body a plan loads and that answers itself by
    its :func:`body_view` — called after the blueprints are registered. Answers the
    :func:`json_view` plans, by URL rule, for :class:`~api.fastjson.lane.Lane`."""
    app.json = FastJSONProvider(app)
    body_schemas: dict[Callable[..., Any], ma.Schema] = {}
    answer_schemas: dict[Callable[..., Any], tuple[int, ma.Schema]] = {}
    for blueprint in app.blueprints.values():
        if isinstance(blueprint, parsing.Blueprint):
            body_schemas.update(blueprint.body_schemas)
            answer_schemas.update(blueprint.answer_schemas)
    plans: dict[str, JSONView] = {}
    for endpoint, decorated in list(app.view_functions.items()):
        view = inspect.unwrap(decorated)
        if view not in body_schemas or view not in answer_schemas:
            continue
        status, response_schema = answer_schemas[view]
        body_schema = body_schemas[view]
        plan = planned(decorated, body_schema, status, response_schema)
        if plan is not None:
            app.view_functions[endpoint] = json_view(plan)
            plans[endpoint] = plan
            continue
        load = body_plan(body_schema)
        if load is not None and answers_itself(view):
            app.view_functions[endpoint] = body_view(decorated, load, nesting(body_schema))
    return {
        rule.rule: plans[rule.endpoint]
        for rule in app.url_map.iter_rules()
        if rule.endpoint in plans and not rule.arguments and "POST" in (rule.methods or ())
    }
