"""Response schemas whose dump is compiled, once, from their declared fields.

A sheet is answered on every round recorded — seven rounds of four results, each round's
contract, the totals and standings: about three hundred values — and marshmallow's walk of a
schema asks each field, through several calls, for each value. :class:`CompiledSchema` is a
marshmallow schema like any other (flask-smorest calls its ``dump`` as it calls every
schema's), which, when it is made, compiles what each of its fields does into one function per
schema: read the value, write it as the field's kind writes it, leave the key out where
marshmallow would. Its answers are marshmallow's, value for value: the property tests of
``tests/api/test_compiled_schemas.py`` dump hypothesis's objects through both and compare.

Only what it can compile exactly is compiled: the kinds of :data:`WRITERS`, ``List`` and
``Nested``. A schema with any other feature — a ``pre_dump`` or ``post_dump`` hook, a kind of
field it does not know (a field class from outside marshmallow and :mod:`api.fields`, a
``Method``, a ``Pluck``, a ``DateTime``, a number written as a string, a ``Dict`` of typed keys
or values) — is refused when the schema is made, that is when the app starts, with the schema
and the field named: never half-compiled, never handed back to marshmallow.

What it honours: ``data_key``, ``attribute`` (dotted too), ``dump_default``, ``only`` and
``exclude`` (through ``dump_fields``), ``many``, a schema's own ``get_attribute``, and for
``Function`` fields their function.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import marshmallow as ma
from marshmallow import fields, utils

Writer = Callable[[Any], Any]
Getter = Callable[[Any], Any]

missing = ma.missing


class UncompilableSchema(TypeError):
    """A response schema has a feature :class:`CompiledSchema` cannot write as marshmallow
    does."""


def _as_text(value: Any) -> Any:
    """String: ``str()`` of the value (bytes decoded as UTF-8), None as it is."""
    if value is None or value.__class__ is str:
        return value
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _as_integer(value: Any) -> Any:
    """Integer: ``int()`` of the value, None as it is."""
    if value is None or value.__class__ is int:
        return value
    return int(value)


def _as_is(value: Any) -> Any:
    """Boolean, Raw and Function: the value as it is."""
    return value


def _as_dict(value: Any) -> Any:
    """Dict without typed keys or values: a ``dict`` of the mapping, None as it is."""
    return None if value is None else dict(value)


def _list_of(inner: Writer) -> Writer:
    def write(values: Any) -> Any:
        return None if values is None else [inner(value) for value in values]

    return write


def _nested(write_object: Writer, many: bool) -> Writer:
    if many:
        return lambda value: None if value is None else [write_object(item) for item in value]
    return lambda value: None if value is None else write_object(value)


#: How each kind of marshmallow field writes a value (its serialisation), by the kind's class.
WRITERS: dict[type[fields.Field[Any]], Writer] = {
    fields.String: _as_text,
    fields.Integer: _as_integer,
    fields.Boolean: _as_is,
    fields.Raw: _as_is,
    fields.Function: _as_is,
    fields.Dict: _as_dict,
}
#: Where the API's own fields are: they read values of their own, but write as the marshmallow
#: kind they extend (``tests/test_layout.py`` holds every class of the project to that).
OWN_FIELDS = "api.fields"


def kind_of(field: fields.Field[Any]) -> type[fields.Field[Any]] | None:
    """The marshmallow kind ``field`` writes as: its own class if marshmallow's, else the
    nearest marshmallow class above the API's own; None for a field from anywhere else."""
    for cls in type(field).__mro__:
        if cls.__module__ == "marshmallow.fields":
            return cls
        if cls.__module__ != OWN_FIELDS:
            return None
    return None


def field_writer(schema: ma.Schema, name: str, field: fields.Field[Any]) -> Writer:
    """How ``field`` writes a value, as its kind's serialisation does; refused if unknown."""
    where = f"{type(schema).__name__}.{name} ({type(field).__name__})"
    kind = kind_of(field)
    if kind is fields.Nested:
        assert isinstance(field, fields.Nested)
        nested = field.schema
        return _nested(compile_schema(nested), bool(nested.many or field.many))
    if kind is fields.List:
        assert isinstance(field, fields.List)
        return _list_of(field_writer(schema, f"{name}[]", field.inner))
    if isinstance(field, fields.Integer) and field.as_string:
        raise UncompilableSchema(f"{where}: an Integer written as a string")
    if kind is fields.Dict:
        assert isinstance(field, fields.Dict)
        if field.key_field is not None or field.value_field is not None:
            raise UncompilableSchema(f"{where}: a Dict of typed keys or values")
        if field.mapping_type is not dict:
            raise UncompilableSchema(f"{where}: a Dict of another mapping type")
    if kind is None or kind not in WRITERS:
        raise UncompilableSchema(f"{where}: a kind of field it does not compile")
    return WRITERS[kind]


def _getter(schema: ma.Schema, name: str, field: fields.Field[Any]) -> tuple[str | None, Getter]:
    """How marshmallow reads the field's value off an object (``Field.get_value`` through the
    schema's ``get_attribute``), ``missing`` where there is none: the attribute's name when
    it is read off a plain object as it is, and the function that reads it off anything."""
    if isinstance(field, fields.Function):
        function = field.serialize_func
        if function is None or len(inspect.signature(function).parameters) != 1:
            raise UncompilableSchema(f"{type(schema).__name__}.{name}: a Function of one object")
        read: Getter = function
        return None, read
    attribute = field.attribute if field.attribute is not None else name
    if type(schema).get_attribute is not ma.Schema.get_attribute:
        get_attribute = schema.get_attribute
        return None, lambda obj: get_attribute(obj, attribute, missing)

    def get(obj: Any) -> Any:
        # marshmallow asks a mapping (or a sequence) for a key first, anything else for an
        # attribute; a dotted attribute is a path through both.
        return utils.get_value(obj, attribute, missing)

    return (None if "." in attribute else attribute), get


def _has_hooks(schema: ma.Schema) -> list[str]:
    """The names of the schema's ``pre_``/``post_dump`` (and load) processors."""
    return [
        name
        for name, member in inspect.getmembers(type(schema), callable)
        if getattr(member, "__marshmallow_hook__", None)
    ]


def compile_schema(schema: ma.Schema) -> Writer:
    """One object written as ``schema.dump`` writes it (``many`` aside)."""
    hooks = _has_hooks(schema)
    if hooks:
        raise UncompilableSchema(f"{type(schema).__name__}: processors {hooks}")
    steps = []
    for name, field in schema.dump_fields.items():
        key = field.data_key if field.data_key is not None else name
        attribute, get = _getter(schema, name, field)
        # A Function's value is its function's, never dump_default.
        default = missing if isinstance(field, fields.Function) else field.dump_default
        steps.append((key, attribute, get, field_writer(schema, name, field), default))

    def write_object(obj: Any) -> dict[str, Any]:
        written = {}
        # The engine's values and the read model's are plain objects: their fields are read
        # as attributes, as marshmallow reads anything that takes no [key].
        plain = not hasattr(obj, "__getitem__")
        for key, attribute, get, write, default in steps:
            value = getattr(obj, attribute, missing) if plain and attribute else get(obj)
            if value is missing:
                if default is missing:
                    continue  # marshmallow leaves the key out
                value = default() if callable(default) else default
                if value is missing:
                    continue
            written[key] = write(value)
        return written

    return write_object


class CompiledSchema(ma.Schema):
    """A response schema dumped by the function compiled from its fields when it is made."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.write_object = compile_schema(self)

    def dump(self, obj: Any, *, many: bool | None = None) -> Any:
        many = self.many if many is None else many
        if many:
            return [self.write_object(item) for item in obj]
        return self.write_object(obj)


__all__ = ["CompiledSchema", "UncompilableSchema", "compile_schema"]
