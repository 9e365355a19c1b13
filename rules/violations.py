"""Broken rules: stable codes, their parameters, and the one place messages are written.

A check never builds a sentence itself. It records a :class:`Violation` — the code and the facts
(the card, the meld, the limit) — and :data:`MESSAGES` turns those into words. The tables that
play these games speak German, Dutch, Italian and Norwegian: each English template is a message
id of the catalogs, and :attr:`Violation.words` is the template with its facts, which whoever
serves a reader writes in the reader's language (:mod:`rules.i18n`); no check knows it. A number that chooses a word's form chooses it through
the catalog's plural rule (:data:`PLURALS`), never by adding an "s".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from rules.i18n import N_, Language, Nn_, Phrase

#: English message templates, by violation code. The placeholders are the violation's params;
#: the English text is the catalog's message id (rules.i18n), so each is marked with N_.
_MESSAGES: dict[str, str] = {
    "contract_mismatch": N_("round {round} needs {expected}; these melds are {actual}"),
    "set_mixed_ranks": N_("a set is cards of one rank; {card} is not a {rank}"),
    "run_mixed_suits": N_("a run is cards of one suit; {card} is not a {suit}"),
    "run_not_consecutive": N_("the cards of a run must follow each other in rank: {detail}"),
    "run_wraps_around": N_("an ace ends a run, it cannot turn the corner: {detail}"),
    "run_out_of_range": "{detail}",
    # The words of these two depend on the kind of meld: see BY_MELD_TYPE.
    "too_many_wilds": "too many wild cards in this {type}: {detail}",
    "runs_touch": N_(
        "two runs of {suit} may not be two halves of one longer run"
        " ({first} and {second}): leave a gap or overlap them"
    ),
    "cards_not_in_hand": N_("{card} is melded {melded} but held {held}"),
    "no_discard_left": N_(
        "round {round} ends with a discard, so the melds may not use every card in hand"
    ),
    "contract_already_down": N_(
        "a contract is laid once a round, and this player's is already down"
        " (contract_down: {contract_down})"
    ),
    "contract_not_down": "{detail}",
    "layoff_same_turn": N_("no lay-offs on the turn the contract is laid; wait for the next turn"),
    "joker_locked": "{detail}",
    "swap_card_mismatch": N_("the wild card stands for {stands_for}; {card} cannot replace it"),
    "no_wild_there": N_("position {index} of the meld holds {card}, not a wild card"),
    "swaps_not_allowed": N_("this ruleset has no joker swaps"),
    "swap_after_contract": N_("a joker may only be swapped before one's own contract is down"),
    "whole_hand_round": N_(
        "round {round} is laid as the whole hand at once: there are no lay-offs or swaps"
    ),
    "table_meld_invalid": N_("the meld on the table is not a legal meld: {detail}"),
    "buying_not_allowed": N_("this ruleset does not allow buying"),
    "consecutive_buy": N_("seat {seat} bought the previous discard and may not buy two in a row"),
    "own_discard": N_("seat {seat} threw this card and cannot buy it back"),
    "caller_down": N_("seat {seat} has laid the contract and can no longer buy"),
    "nearer_caller": N_("seat {winner} sits nearer to the player on turn and gets the card"),
    # A round's results on a match sheet.
    "seat_missing": N_("no result for seat {seat}"),
    "seat_unknown": N_("there is no seat {seat} at a table of {players}"),
    "seat_repeated": N_("seat {seat} has {count} results"),
    "several_went_out": N_("only one player goes out in a round; seats {seats} all did"),
    "nobody_went_out": N_(
        "nobody went out of round {round}; say stock_ran_out if the round ended that way"
    ),
    "out_when_stock_ran_out": N_(
        "seat {seat} went out, but the round is said to have ended with the stock run out"
    ),
    "result_ambiguous": N_("seat {seat}: give exactly one of went_out, points or cards"),
    "buys_negative": N_("seat {seat}: buys cannot be negative"),
    "too_many_buys": N_("seat {seat} bought {buys}; the limit is {limit} a round"),
    "bonus_not_allowed": N_("seat {seat}: this ruleset has no bonus"),
    "bonus_wrong": N_("seat {seat}: only the cutter (seat {cutter}) can earn the bonus of {bonus}"),
    "points_negative": N_("seat {seat}: {points} points is negative"),
    "zero_points": N_("seat {seat} did not go out, so it holds cards and cannot score 0"),
}

#: The messages that say a number of things, by code: their English singular and plural (each
#: language has its own plural forms, and its catalog chooses the one for the number), and the
#: parameter that counts.
PLURALS: Mapping[str, tuple[tuple[str, str], str]] = MappingProxyType(
    {
        "set_too_short": (
            Nn_(
                "a set needs at least {min} card; this one has {length}",
                "a set needs at least {min} cards; this one has {length}",
            ),
            "min",
        ),
        "run_too_short": (
            Nn_(
                "a run needs at least {min} card; this one has {length}",
                "a run needs at least {min} cards; this one has {length}",
            ),
            "min",
        ),
        "exceeds_contract_minimum": (
            (
                "in round {round} each {type} of the contract is laid at exactly {min} card;"
                " this one has {length}",
                "in round {round} each {type} of the contract is laid at exactly {min} cards;"
                " this one has {length}",
            ),
            "min",
        ),
        "runs_too_close": (
            Nn_(
                "two runs of {suit} must have at least {gap} missing rank between them"
                " ({first} and {second} have {actual})",
                "two runs of {suit} must have at least {gap} missing ranks between them"
                " ({first} and {second} have {actual})",
            ),
            "gap",
        ),
        "hand_not_used": (
            Nn_(
                "round {round} is laid as the whole hand at once; {count} card left over: {cards}",
                "round {round} is laid as the whole hand at once; {count} cards left over: {cards}",
            ),
            "count",
        ),
        "too_many_copies": (
            Nn_(
                "{card} appears {count}, but only {limit} is in play",
                "{card} appears {count}, but only {limit} are in play",
            ),
            "limit",
        ),
        "buy_limit_reached": (
            Nn_(
                "seat {seat} has used {used} of {limit} buy this round",
                "seat {seat} has used {used} of {limit} buys this round",
            ),
            "limit",
        ),
        "too_many_cards": (
            Nn_(
                "seat {seat}: {count} card left in hand, but no hand can hold more than {most}"
                " at the end of this round",
                "seat {seat}: {count} cards left in hand, but no hand can hold more than {most}"
                " at the end of this round",
            ),
            "count",
        ),
        "points_impossible": (
            Nn_(
                "seat {seat}: no hand of up to {cards} card costs {points} (cards cost {values})",
                "seat {seat}: no hand of up to {cards} cards costs {points} (cards cost {values})",
            ),
            "cards",
        ),
    }
)

#: English message templates, by violation code: the singular where a number chooses the form.
MESSAGES: Mapping[str, str] = MappingProxyType(
    {**_MESSAGES, **{code: forms[0] for code, (forms, _) in PLURALS.items()}}
)

#: Messages whose words depend on the kind of meld (in German a set is neuter, a run feminine):
#: the template for each ``type`` replaces the code's own.
BY_MELD_TYPE: Mapping[tuple[str, str], tuple[str, str | None]] = MappingProxyType(
    {
        ("too_many_wilds", "set"): (N_("too many wild cards in this set: {detail}"), None),
        ("too_many_wilds", "run"): (N_("too many wild cards in this run: {detail}"), None),
        ("exceeds_contract_minimum", "set"): Nn_(
            "in round {round} each set of the contract is laid at exactly {min} card;"
            " this one has {length}",
            "in round {round} each set of the contract is laid at exactly {min} cards;"
            " this one has {length}",
        ),
        ("exceeds_contract_minimum", "run"): Nn_(
            "in round {round} each run of the contract is laid at exactly {min} card;"
            " this one has {length}",
            "in round {round} each run of the contract is laid at exactly {min} cards;"
            " this one has {length}",
        ),
    }
)


#: The parameters, by code, that count how often something happens: written as "2 times"
#: (a phrase of their own), while the violation keeps the number itself.
TIMES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "cards_not_in_hand": ("melded", "held"),
        "too_many_copies": ("count",),
        "too_many_buys": ("buys",),
    }
)


def times(count: int) -> Phrase:
    """How often something happens, in words ("2 times")."""
    return Phrase.counted(Nn_("{count} time", "{count} times"), {"count": count})


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: a stable ``code``, the facts behind it, and where it happened.

    >>> broken = Violation("set_too_short", {"min": 3, "length": 2})
    >>> broken.message
    'a set needs at least 3 cards; this one has 2'
    """

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)
    #: Index of the meld in the request, when the rule concerns one meld.
    meld: int | None = None
    #: The card at fault, in canonical notation, when there is one.
    card: str | None = None

    @property
    def words(self) -> Phrase:
        """What the violation says, to be written in a reader's language."""
        values: dict[str, Any] = {"card": self.card, **self.params}
        for name in TIMES.get(self.code, ()):
            values[name] = times(self.params[name])
        singular, plural, count = MESSAGES[self.code], None, "count"
        if self.code in PLURALS:
            (singular, plural), count = PLURALS[self.code]
        if "type" in self.params:
            singular, plural = BY_MELD_TYPE.get(
                (self.code, self.params["type"]), (singular, plural)
            )
        return Phrase(singular, values, plural=plural, count=count)

    @property
    def message(self) -> str:
        """The message in English (:attr:`words`, for another language)."""
        return str(self.words)

    def at(self, meld: int | None) -> Violation:
        """The same violation, attributed to meld ``meld`` of a contract."""
        return Violation(self.code, self.params, meld, self.card)


def render(violation: Violation, language: Language) -> str:
    """The message of ``violation`` in ``language``."""
    return language.phrase(violation.words)
