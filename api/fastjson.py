"""The one-pass fast path: request bodies loaded and responses written without marshmallow's
field-by-field walk, for the schemas of the checks.

Every check loads a request and dumps a verdict, and marshmallow's walk of a schema — a
getter, an error store and several calls per field, a call per validator — costs more than
the check itself. The schemas of the checks therefore compile, once, straight-line Python
from their own fields, and load and dump through it; whatever that code is not sure of goes
to marshmallow as before, so every error is marshmallow's own. Tests hold the compiled code
to marshmallow's results.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from json.encoder import encode_basestring_ascii
from keyword import iskeyword
from operator import attrgetter
from typing import Any

import flask
import marshmallow as ma
from flask.json.provider import DefaultJSONProvider
from marshmallow import fields, validate
from marshmallow.decorators import POST_DUMP, PRE_DUMP
from marshmallow.types import StrSequenceOrSet, UnknownOption


class Unsure(Exception):
    """Raised by a field's ``load_fast`` for a value it leaves to marshmallow.

    ``load_fast(value)`` is the field's fast path for :class:`RequestSchema`: it returns what
    ``_deserialize`` would for a value that loads without error, and raises this (or a
    ``ValidationError``) for anything else — the body is then loaded field by field by
    marshmallow, whose errors the client gets.
    """


# --- JSON written directly -----------------------------------------------------------------

#: What ``flask.jsonify`` writes for a value, in an app whose JSON provider is Flask's own,
#: compact, ASCII-only and unsorted (the blueprint writes JSON text directly only then).
encode_json = json.JSONEncoder(separators=(",", ":"), default=DefaultJSONProvider.default).encode
#: A str as a JSON string, escaped as ``encode_json`` escapes it (the same C function).
json_string = encode_basestring_ascii


def jsonify_writes_encode_json(app: flask.Flask) -> bool:
    """Whether ``flask.jsonify`` writes :data:`encode_json`'s text, and a newline: with
    Flask's own JSON provider, compact, ASCII-only, keys in their order."""
    provider = app.json
    return (
        type(provider) is DefaultJSONProvider
        and provider.ensure_ascii
        and not provider.sort_keys
        and provider.default is DefaultJSONProvider.default
        and (provider.compact or (provider.compact is None and not app.debug))
    )


# --- bodies in one pass --------------------------------------------------------------------
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
