"""The sheet's read model and the schemas that dump it name the same fields.

A sheet is answered as storage reads it back (api.storage.scoresheet's frozen dataclasses) and
dumped by api.schemas.sheets: a field added to one and not the other fails here by its name,
before any answer is missing it.
"""

from __future__ import annotations

import dataclasses

import marshmallow as ma
import pytest

from api.schemas import sheets as schemas
from api.storage import scoresheet
from rules.match import TieBreak

PAIRS = [
    (schemas.SheetSchema, scoresheet.ScoreSheet, {"edit_token"}),
    (schemas.CreatedSheetSchema, scoresheet.ScoreSheet, set()),
    (schemas.SeatSchema, scoresheet.SeatName, set()),
    (schemas.SheetRoundSchema, scoresheet.SheetRound, set()),
    (schemas.ResultSchema, scoresheet.RecordedResult, set()),
    (schemas.TotalSchema, scoresheet.Total, set()),
    (schemas.StandingSchema, scoresheet.Placing, set()),
    (schemas.TieBreakSchema, TieBreak, set()),
]


@pytest.mark.parametrize(
    ("schema", "model", "kept_back"), PAIRS, ids=[schema.__name__ for schema, _, _ in PAIRS]
)
def test_each_schema_dumps_every_field_of_its_model(
    schema: type[ma.Schema], model: type, kept_back: set[str]
) -> None:
    names = [field.name for field in dataclasses.fields(model)]
    assert set(schema().dump_fields) == set(names) - kept_back


def test_the_sheet_is_dumped_in_the_models_order() -> None:
    """The order a client reads a sheet in is the read model's: id and ruleset first."""
    names = [field.name for field in dataclasses.fields(scoresheet.ScoreSheet)]
    assert list(schemas.CreatedSheetSchema().dump_fields) == names
