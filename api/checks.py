"""``/v1/checks/...`` and ``/v1/hands/penalty``: the referee's stateless checks.

Each view says which family of rules it answers about (its words, :func:`api.i18n.about_family`),
hands the loaded request to the matching check of :mod:`rules` and returns its verdict for the
response schema to dump. A well-formed request always gets a ``200`` verdict,
legal move or not; only a malformed one (an unknown ruleset or round, a card that does not
parse, a seat off the table) is a ``4xx`` problem document — the schemas and
:mod:`api.errors` see to that, so the views hold no error handling of their own.
"""

from __future__ import annotations

from typing import Any

import rules

from . import i18n
from .errors import renamed_fields
from .parsing import Blueprint
from .schemas.checks import (
    BuyCheckSchema,
    BuyVerdictSchema,
    ContractCheckSchema,
    ContractVerdictSchema,
    HandPenaltySchema,
    JokerSwapCheckSchema,
    JokerSwapVerdictSchema,
    LayoffCheckSchema,
    LayoffVerdictSchema,
    MeldCheckSchema,
    MeldVerdictSchema,
    PenaltyVerdictSchema,
)

blp = Blueprint(
    "checks",
    __name__,
    url_prefix="/v1",
    description="Stateless checks of a move under a ruleset: nothing is stored.",
)


@blp.post("/checks/meld")
@blp.json_body(
    MeldCheckSchema,
    example={"ruleset": "liverpool", "cards": ["4H", "5H", "JK", "7H"]},
)
@blp.response(
    200,
    MeldVerdictSchema,
    example={
        "valid": True,
        "meld": {
            "type": "run",
            "suit": "H",
            "rank": None,
            "cards": ["4H", "5H", "JK", "7H"],
            "wilds": [{"index": 2, "stands_for": "6H"}],
        },
        "violations": [],
    },
)
def check_meld(args: dict[str, Any]) -> rules.Meld:
    """Check one meld

    Reads the cards as a set or a run (or as `type`, when given) by the ruleset's minima and
    wild-card limits, says what every wild card stands for, and lists every rule broken. With
    `order: "any"` the cards came in any order and a run is laid out by the referee, its
    `cards` answered in the order chosen.
    """
    i18n.about_family(args["ruleset"].family)
    return rules.check_meld(
        args["ruleset"],
        args["cards"],
        args.get("type"),
        args.get("players"),
        jokers=args.get("jokers"),
        order=args.get("order", "table"),
    )


@blp.post("/checks/contract")
@blp.json_body(
    ContractCheckSchema,
    example={
        "ruleset": "liverpool",
        "round": 2,
        "melds": [["7H", "7S", "7D"], ["4H", "5H", "JK", "7H"]],
        "hand": ["7H", "7S", "7D", "4H", "5H", "JK", "7H", "KD"],
    },
)
@blp.response(
    200,
    ContractVerdictSchema,
    example={
        "valid": True,
        "round": 2,
        "contract": {
            "melds": [{"type": "set", "min": 3}, {"type": "run", "min": 4}],
            "text": "1 set + 1 run",
        },
        "melds": [
            {
                "type": "set",
                "suit": None,
                "rank": "7",
                "cards": ["7H", "7S", "7D"],
                "wilds": [],
            },
            {
                "type": "run",
                "suit": "H",
                "rank": None,
                "cards": ["4H", "5H", "JK", "7H"],
                "wilds": [{"index": 2, "stands_for": "6H"}],
            },
        ],
        "remaining": ["KD"],
        "goes_out": True,
        "violations": [],
    },
)
def check_contract(args: dict[str, Any]) -> rules.ContractVerdict:
    """Check a contract

    Whether the melds are the round's contract, laid all at once: each meld's reading, every
    violation (with the index of the meld at fault), and — when the whole `hand` is given —
    the cards that remain and whether the player goes out. With `order: "any"` each run is
    laid out by the referee; a player whose contract is down already (`contract_down`) cannot
    lay another this round.
    """
    i18n.about_family(args["ruleset"].family)
    return rules.check_contract(
        args["ruleset"],
        args["round"],
        args["melds"],
        hand=args.get("hand"),
        players=args.get("players"),
        types=args.get("types"),
        jokers=args.get("jokers"),
        order=args.get("order", "table"),
        contract_down=args.get("contract_down", "no"),
    )


@blp.post("/checks/layoff")
@blp.json_body(
    LayoffCheckSchema,
    example={
        "ruleset": "liverpool",
        "round": 3,
        "meld": ["4H", "5H", "6H", "7H"],
        "cards": ["8H", "JK"],
        "contract_down": "earlier_turn",
    },
)
@blp.response(
    200,
    LayoffVerdictSchema,
    example={
        "valid": True,
        "meld": {
            "type": "run",
            "suit": "H",
            "rank": None,
            "cards": ["4H", "5H", "6H", "7H", "8H", "JK"],
            "wilds": [{"index": 5, "stands_for": "9H"}],
        },
        "violations": [],
    },
)
def check_layoff(args: dict[str, Any]) -> rules.LayoffVerdict:
    """Check a lay-off

    Adds the cards, in any order, to the table meld — naturals where their rank goes, wild
    cards into the gaps and then at `end` — and says whether the player may, given when their
    own contract went down.
    """
    i18n.about_family(args["ruleset"].family)
    return rules.check_layoff(
        args["ruleset"],
        args["round"],
        args["meld"],
        args["cards"],
        args["contract_down"],
        end=args.get("end"),
        players=args.get("players"),
        meld_type=args.get("type"),
        jokers=args.get("jokers"),
        order=args.get("order", "table"),
    )


@blp.post("/checks/joker-swap")
@blp.json_body(
    JokerSwapCheckSchema,
    example={
        "ruleset": "liverpool",
        "round": 3,
        "meld": ["4H", "JK", "6H", "7H"],
        "card": "5H",
        "contract_down": "no",
    },
)
@blp.response(
    200,
    JokerSwapVerdictSchema,
    example={
        "valid": True,
        "meld": {
            "type": "run",
            "suit": "H",
            "rank": None,
            "cards": ["4H", "5H", "6H", "7H"],
            "wilds": [],
        },
        "freed": "JK",
        "obligation": "own_meld_now",
        "violations": [],
    },
)
def check_joker_swap(args: dict[str, Any]) -> rules.SwapVerdict:
    """Check a joker swap

    Puts the natural in the wild card's place and says whether the player may take the wild
    card, and where it must go then (`obligation`).
    """
    i18n.about_family(args["ruleset"].family)
    return rules.check_joker_swap(
        args["ruleset"],
        args["round"],
        args["meld"],
        args["card"],
        args["contract_down"],
        joker=args.get("joker"),
        meld_type=args.get("type"),
        players=args.get("players"),
        jokers=args.get("jokers"),
    )


@blp.post("/checks/buy")
@blp.json_body(
    BuyCheckSchema,
    example={
        "ruleset": "liverpool",
        "round": 1,
        "seats": 4,
        "on_turn": 1,
        "callers": [2, 3, 0],
        "buys_used": {"2": 3},
    },
)
@blp.response(
    200,
    BuyVerdictSchema,
    example={
        "winner": 3,
        "penalty_cards": 1,
        "refused": [
            {
                "seat": 2,
                "code": "buy_limit_reached",
                "message": "seat 2 has used 3 of 3 buys this round",
            },
            {
                "seat": 0,
                "code": "own_discard",
                "message": "seat 0 threw this card and cannot buy it back",
            },
        ],
    },
)
def check_buy(args: dict[str, Any]) -> rules.BuyVerdict:
    """Check who may buy the discard

    Of the seats calling for the discard the player on turn declined, the nearest to that
    player clockwise who may buy gets it; every other caller is listed with the reason.
    """
    i18n.about_family(args["ruleset"].family)
    with renamed_fields(players="seats"):
        return rules.check_buy(
            args["ruleset"],
            args["round"],
            args["seats"],
            args["on_turn"],
            args["callers"],
            args["buys_used"],
            previous_buyer=args.get("previous_buyer"),
            down=args.get("down", ()),
        )


@blp.post("/hands/penalty")
@blp.json_body(HandPenaltySchema, example={"ruleset": "liverpool", "cards": ["QD", "JK", "4S"]})
@blp.response(
    200,
    PenaltyVerdictSchema,
    example={
        "total": 30,
        "cards": [
            {"card": "QD", "points": 10},
            {"card": "JK", "points": 15},
            {"card": "4S", "points": 5},
        ],
        "violations": [],
    },
)
def hand_penalty(args: dict[str, Any]) -> rules.Penalty:
    """Count a hand's penalty

    What the cards left in a hand cost at the end of a round, card by card. A hand no table
    could deal (more copies of a card, or more jokers, than the decks in play hold) is counted
    all the same, with `too_many_copies` in `violations`.
    """
    i18n.about_family(args["ruleset"].family)
    return rules.penalty(
        args["ruleset"], args["cards"], args.get("players"), jokers=args.get("jokers")
    )
