"""The fast path for match sheets (:mod:`api.fastjson` for the checks).

A sheet's answer is the whole evening — the resolved ruleset, every round's deal and results,
the totals and standings — and it is written on every round recorded, so marshmallow's walk of
SheetSchema costs more than storing the round. Sheets keep Flask's own layout
(``app.json.dumps``: the bytes a retried creation repeats), so the fast path does not write
text: it builds the very dict ``SheetSchema.dump`` builds, and the provider encodes it as it
encodes the stock one. It knows the sheet's schemas by their declared fields, checked when the
schema is made; a sheet schema with other fields is dumped by marshmallow alone. What it knows
beyond the fields are the schemas' two rules for leaving keys out: a pending round has no
``stock_ran_out`` and no ``results``, and a result given as points has no ``cards``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import marshmallow as ma
from marshmallow import fields

from ..schemas.common import contract_text
from . import GiveUp, RequestSchema, fast_json_on, field_loader, schema_loader

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
    "title": "string",
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
    "total": "integer",
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
        "text": contract_text(contract),
    }


def _result(result: Any) -> dict[str, Any]:
    dumped = {
        "seat": _dumped_integer(result.seat),
        "points": _dumped_integer(result.points),
        "total": _dumped_integer(result.total),
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
        "title": _dumped_text(score.title),
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
