"""``POST /v1/hands/analysis``: can this hand lay the round's contract, and what is it waiting for?

The question new players ask most at a real table. The answer comes from
:func:`rules.analysis.analyse_hand`, an exact search: the best way to lay the contract (read
exactly as ``POST /v1/checks/contract`` reads melds, so feeding it back is always valid), or
every single card that would make it layable and the nearest partial arrangement.
"""

from __future__ import annotations

from typing import Any

from rules.analysis import Analysis, analyse_hand

from . import i18n
from .parsing import Blueprint
from .schemas.analysis import AnalysisRequestSchema, AnalysisSchema

blp = Blueprint(
    "analysis",
    __name__,
    url_prefix="/v1/hands",
    description="Hand analysis: the best contract a hand can lay, or the cards it waits for.",
)


@blp.post("/analysis")
@blp.json_body(
    AnalysisRequestSchema,
    example={
        "ruleset": "liverpool",
        "round": 2,
        "hand": ["4H", "5H", "6H", "8C", "9C", "9S", "KD", "QS", "2D", "3D", "JK"],
    },
)
@blp.response(
    200,
    AnalysisSchema,
    example={
        "can_lay": False,
        "round": 2,
        "contract": {
            "melds": [{"type": "set", "min": 3}, {"type": "run", "min": 4}],
            "text": "1 set + 1 run",
        },
        "melds": [],
        "remaining": ["4H", "5H", "6H", "8C", "9C", "9S", "KD", "QS", "2D", "3D", "JK"],
        "penalty": 75,
        "goes_out": False,
        "needs": ["3H", "7H", "9S", "9H", "9D", "9C", "JK"],
        "closest": {
            "melds": [
                {"type": "set", "cards": ["9S", "9C"], "missing": ["9"]},
                {"type": "run", "cards": ["JK", "4H", "5H", "6H"], "missing": []},
            ],
            "missing": 1,
            "complete": 1,
            "remaining": ["8C", "KD", "QS", "2D", "3D"],
            "penalty": 35,
        },
    },
)
def analyse(args: dict[str, Any]) -> Analysis:
    """Analyse a hand

    Whether the round's contract can be laid from this hand now and the best way to lay it
    (the arrangement leaving the lowest penalty in hand, then the fewest wild cards, then the
    most cards laid); when it cannot, every single card that would make it layable, and the
    closest partial arrangement.
    """
    i18n.about_family(args["ruleset"].family)
    return analyse_hand(
        args["ruleset"], args["round"], args["hand"], args.get("players"), jokers=args.get("jokers")
    )
