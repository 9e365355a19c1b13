"""``/v1/rulesets``: the presets the referee knows, with every parameter and every round."""

from __future__ import annotations

from typing import Any

from werkzeug.exceptions import NotFound

from rules import PRESETS, Ruleset
from rules import i18n as words

from . import i18n
from .parsing import Blueprint
from .schemas.rulesets import RulesetDetailSchema, RulesetListSchema

blp = Blueprint(
    "rulesets",
    __name__,
    url_prefix="/v1/rulesets",
    description="The presets: each a way to play, from docs/rules.md §3.",
)

_LIVERPOOL = PRESETS["liverpool"].as_dict()
_LIST_EXAMPLE = {
    "rulesets": [
        {key: _LIVERPOOL[key] for key in ("id", "name", "family", "players", "round_count")}
    ]
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
@blp.response(200, RulesetDetailSchema, example=_LIVERPOOL)
@blp.alt_response(404, response="NOT_FOUND")
def get_ruleset(ruleset_id: str) -> dict[str, Any]:
    """Show one preset

    Every parameter (the names a house ruleset's `options` may replace) and every round:
    its contract, hand size, and whether it is laid as the whole hand and ends with a discard.
    """
    ruleset = PRESETS.get(ruleset_id)
    if ruleset is None:
        raise NotFound(f"no ruleset {ruleset_id!r}; the presets are: {', '.join(PRESETS)}")
    i18n.for_family(ruleset.family)  # its contracts in the words of its family's sheet
    return _shown(ruleset)


def _shown(ruleset: Ruleset) -> dict[str, Any]:
    """A preset as the API shows it: its name and description in the reader's language (the
    contracts' words are written so by their schema)."""
    shown = ruleset.as_dict()
    language = words.current()
    shown["name"] = language.text(ruleset.name)
    shown["description"] = language.text(ruleset.description)
    return shown
