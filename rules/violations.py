"""Broken rules: stable codes, their parameters, and the one place messages are written.

A check never builds a sentence itself. It records a :class:`Violation` — the code and the facts
(the card, the meld, the limit) — and :data:`MESSAGES` turns those into words. The tables that
play these games speak German, Dutch, Italian and Norwegian: a translation is one more table
of templates with the same placeholders, and no check changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

#: English message templates, by violation code. The placeholders are the violation's params.
MESSAGES: Mapping[str, str] = MappingProxyType(
    {
        "contract_mismatch": "round {round} needs {expected}; these melds are {actual}",
        "set_too_short": "a set needs at least {min} cards; this one has {length}",
        "run_too_short": "a run needs at least {min} cards; this one has {length}",
        "set_mixed_ranks": "a set is cards of one rank; {card} is not a {rank}",
        "run_mixed_suits": "a run is cards of one suit; {card} is not a {suit}",
        "run_not_consecutive": "the cards of a run must follow each other in rank: {detail}",
        "run_wraps_around": "an ace ends a run, it cannot turn the corner: {detail}",
        "run_out_of_range": "{detail}",
        "too_many_wilds": "too many wild cards in this {type}: {detail}",
        "exceeds_contract_minimum": (
            "in round {round} each {type} of the contract is laid at exactly {min} cards;"
            " this one has {length}"
        ),
        "runs_touch": (
            "two runs of {suit} may not be two halves of one longer run"
            " ({first} and {second}): leave a gap or overlap them"
        ),
        "runs_too_close": (
            "two runs of {suit} must have at least {gap} missing ranks between them"
            " ({first} and {second} have {actual})"
        ),
        "cards_not_in_hand": "{card} is melded {melded} time(s) but held {held} time(s)",
        "hand_not_used": (
            "round {round} is laid as the whole hand at once; {count} card(s) left over: {cards}"
        ),
        "no_discard_left": (
            "round {round} ends with a discard, so the melds may not use every card in hand"
        ),
        "too_many_copies": "{card} appears {count} times, but only {limit} are in play",
        "contract_already_down": (
            "a contract is laid once a round, and this player's is already down"
            " (contract_down: {contract_down})"
        ),
        "contract_not_down": "{detail}",
        "layoff_same_turn": "no lay-offs on the turn the contract is laid; wait for the next turn",
        "joker_locked": "{detail}",
        "swap_card_mismatch": "the wild card stands for {stands_for}; {card} cannot replace it",
        "no_wild_there": "position {index} of the meld holds {card}, not a wild card",
        "swaps_not_allowed": "this ruleset has no joker swaps",
        "swap_after_contract": ("a joker may only be swapped before one's own contract is down"),
        "whole_hand_round": (
            "round {round} is laid as the whole hand at once: there are no lay-offs or swaps"
        ),
        "table_meld_invalid": "the meld on the table is not a legal meld: {detail}",
        "buying_not_allowed": "this ruleset does not allow buying",
        "buy_limit_reached": "seat {seat} has used {used} of {limit} buys this round",
        "consecutive_buy": "seat {seat} bought the previous discard and may not buy two in a row",
        "own_discard": "seat {seat} threw this card and cannot buy it back",
        "caller_down": "seat {seat} has laid the contract and can no longer buy",
        "nearer_caller": "seat {winner} sits nearer to the player on turn and gets the card",
        # A round's results on a match sheet.
        "seat_missing": "no result for seat {seat}",
        "seat_unknown": "there is no seat {seat} at a table of {players}",
        "seat_repeated": "seat {seat} has {count} results",
        "several_went_out": "only one player goes out in a round; seats {seats} all did",
        "nobody_went_out": (
            "nobody went out of round {round}; say stock_ran_out if the round ended that way"
        ),
        "out_when_stock_ran_out": (
            "seat {seat} went out, but the round is said to have ended with the stock run out"
        ),
        "result_ambiguous": "seat {seat}: give exactly one of went_out, points or cards",
        "buys_negative": "seat {seat}: buys cannot be negative",
        "too_many_buys": "seat {seat} bought {buys} times; the limit is {limit} a round",
        "bonus_not_allowed": "seat {seat}: this ruleset has no bonus",
        "bonus_wrong": "seat {seat}: only the cutter (seat {cutter}) can earn the bonus of {bonus}",
        "points_negative": "seat {seat}: {points} points is negative",
        "zero_points": "seat {seat} did not go out, so it holds cards and cannot score 0",
        "too_many_cards": (
            "seat {seat}: {count} cards left in hand, but no hand can hold more than {most} at the"
            " end of this round"
        ),
        "points_impossible": (
            "seat {seat}: no hand of up to {cards} cards costs {points} (cards cost {values})"
        ),
    }
)


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: a stable ``code``, the facts behind it, and where it happened."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)
    #: Index of the meld in the request, when the rule concerns one meld.
    meld: int | None = None
    #: The card at fault, in canonical notation, when there is one.
    card: str | None = None

    @property
    def message(self) -> str:
        return render(self.code, self.params, self.card)

    def at(self, meld: int | None) -> Violation:
        """The same violation, attributed to meld ``meld`` of a contract."""
        return Violation(self.code, self.params, meld, self.card)

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "meld": self.meld, "card": self.card}


def render(
    code: str,
    params: Mapping[str, Any],
    card: str | None = None,
    messages: Mapping[str, str] = MESSAGES,
) -> str:
    """The message for ``code`` from a table of templates (English unless another is given)."""
    return messages[code].format_map({"card": card, **params})
