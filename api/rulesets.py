"""``/v1/rulesets``: the presets the referee knows, with every parameter and every round, and
the house options a house ruleset may set on them."""

from __future__ import annotations

from typing import Any

from rules import PARAMETERS, PRESETS, Ruleset
from rules.i18n import N_, Language, Phrase

from . import i18n
from .errors import Problem
from .parsing import Blueprint
from .schemas.rulesets import RulesetDetailSchema, RulesetListSchema

blp = Blueprint(
    "rulesets",
    __name__,
    url_prefix="/v1/rulesets",
    description="The presets: each a way to play, from docs/rules.md §3.",
)

#: The house options as each preset is shown, by preset id, language and family: the same for
#: every reader of one language, so each is made once.
_HOUSE_OPTIONS: dict[tuple[str, str, str | None], list[dict[str, Any]]] = {}


def house_options(ruleset: Ruleset) -> list[dict[str, Any]]:
    """Every option a house ruleset may set, in the engine's order: its values' schema (the
    one requests are checked against), the value ``ruleset`` plays with, and what it means in
    the reader's language (a German Progressive table reads *Satz* where Liverpool's reads
    *Buch*)."""
    language = i18n.words()
    key = (ruleset.id, language.code, language.family)
    shown = _HOUSE_OPTIONS.get(key)
    if shown is None:
        shown = _HOUSE_OPTIONS[key] = [
            {
                "name": name,
                "schema": _described_in(parameter.value_schema(), language),
                "value": parameter.value_of(ruleset),
                "description": language.text(parameter.description),
            }
            for name, parameter in PARAMETERS.items()
        ]
    return shown


def _described_in(schema: Any, language: Language) -> Any:
    """A JSON Schema with every description in ``language`` (a round's fields are described
    inside the ``rounds`` option's schema)."""
    if isinstance(schema, dict):
        return {
            key: language.text(value)
            if key == "description" and isinstance(value, str)
            else _described_in(value, language)
            for key, value in schema.items()
        }
    if isinstance(schema, list):
        return [_described_in(item, language) for item in schema]
    return schema


#: The house options the example shows, of the many an answer lists.
_EXAMPLE_OPTIONS = ("min_players", "set_min", "layoff_timing", "buy_limit")
_LIVERPOOL = PRESETS["liverpool"].as_dict()
_LIST_EXAMPLE = {
    "rulesets": [
        {key: _LIVERPOOL[key] for key in ("id", "name", "family", "players", "round_count")}
    ]
}
_DETAIL_EXAMPLE = {
    **_LIVERPOOL,
    "house_options": [
        entry for entry in house_options(PRESETS["liverpool"]) if entry["name"] in _EXAMPLE_OPTIONS
    ],
}


@blp.get("")
@blp.response(200, RulesetListSchema, example=_LIST_EXAMPLE)
def list_rulesets() -> dict[str, Any]:
    """List the presets

    Every preset's id (to use as `ruleset` in a check), name, family, table size and number
    of rounds, in the order docs/rules.md gives them.
    """
    return {"rulesets": [_shown(ruleset) for ruleset in PRESETS.values()]}


@blp.get("/<ruleset_id>")
@blp.response(200, RulesetDetailSchema, example=_DETAIL_EXAMPLE)
@blp.alt_response(404, response="NOT_FOUND")
def get_ruleset(ruleset_id: str) -> dict[str, Any]:
    """Show one preset

    Every parameter and every round: its contract, hand size, and whether it is laid as the
    whole hand and ends with a discard. Then `house_options`: each option a house ruleset's
    `options` may replace, with the values it takes, the preset's value, and what it means in
    the reader's language (the example shows four of them).
    """
    ruleset = PRESETS.get(ruleset_id)
    if ruleset is None:
        raise Problem(
            404,
            Phrase(
                N_("no ruleset {input!r}; the presets are: {presets}"),
                {"input": ruleset_id, "presets": ", ".join(PRESETS)},
            ),
        )
    i18n.about_family(ruleset.family)  # its contracts in the words of its family's sheet
    return {**_shown(ruleset), "house_options": house_options(ruleset)}


def _shown(ruleset: Ruleset) -> dict[str, Any]:
    """A preset as the API shows it: its name and description in the reader's language (the
    contracts' words are written so by their schema)."""
    shown = ruleset.as_dict()
    language = i18n.words()
    shown["name"] = language.text(ruleset.name)
    shown["description"] = language.text(ruleset.description)
    return shown
