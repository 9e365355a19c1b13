"""The request and response bodies, as marshmallow schemas: one module per resource.

They are the contract of docs/api.md in code: the views load requests with them, the
responses are dumped with them, and ``openapi.yaml`` is generated from them.

* :mod:`api.schemas.common` — the bounds of a request, the round, and what several resources
  show: a contract, a meld, a violation;
* :mod:`api.schemas.rulesets` — the presets, and a house ruleset as a request names it;
* :mod:`api.schemas.checks` — each check's request and verdict;
* :mod:`api.schemas.analysis` — the hand analysis;
* :mod:`api.schemas.sheets` — starting a match sheet, a round's results, and the sheet;
* :mod:`api.schemas.health` — the health check.
"""

from __future__ import annotations

from .common import (
    MAX_HAND,
    MAX_MELD,
    MAX_MELDS,
    MAX_ROUND,
    ContractSchema,
    MeldSchema,
    MeldSpecSchema,
    ViolationSchema,
    WildSchema,
    round_field,
)
from .health import HealthSchema
from .rulesets import (
    HouseOptionsSchema,
    HouseRulesetSchema,
    PlayersSchema,
    PointsSchema,
    RoundOptionSchema,
    RoundSchema,
    RulesetDetailSchema,
    RulesetListSchema,
    RulesetSummarySchema,
    TableSchema,
    ruleset_field,
)

__all__ = [
    "MAX_HAND",
    "MAX_MELD",
    "MAX_MELDS",
    "MAX_ROUND",
    "ContractSchema",
    "HealthSchema",
    "HouseOptionsSchema",
    "HouseRulesetSchema",
    "MeldSchema",
    "MeldSpecSchema",
    "PlayersSchema",
    "PointsSchema",
    "RoundOptionSchema",
    "RoundSchema",
    "RulesetDetailSchema",
    "RulesetListSchema",
    "RulesetSummarySchema",
    "TableSchema",
    "ViolationSchema",
    "WildSchema",
    "round_field",
    "ruleset_field",
]
