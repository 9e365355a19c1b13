"""Every closed list of words the game uses, said once: meld types, when a contract went down,
how a meld's cards were given, where a freed joker goes, the ruleset's own choices, and the
most seats a table can have.

Each list is a ``Literal`` type, for mypy, and the tuple of its words, for whoever must check a
value or document it (the web layer's schemas take their choices from here, never a copy).
"""

from __future__ import annotations

from typing import Literal, get_args

#: The two kinds of meld: a set (one rank) and a run (one suit, consecutive ranks).
MeldType = Literal["set", "run"]
#: When the player's own contract went down, seen from the moment before the move.
ContractDown = Literal["no", "this_turn", "earlier_turn"]
#: Which end of a run a wild card is laid off at.
End = Literal["low", "high"]
#: How a meld's cards were given: as they lie on the table, or in any order (tapped on a
#: phone), for the referee to lay out.
Order = Literal["table", "any"]
#: Where a joker freed by a swap must go.
Obligation = Literal["own_meld_now", "table_this_turn", "hand"]
#: The first turn a player may lay off after laying the contract.
LayoffTiming = Literal["same_turn", "next_turn"]
#: When the swapper's contract must be down for a joker swap.
SwapTiming = Literal["any", "earlier_turn", "not_down"]
#: How an equal lowest total at the end of a match is decided.
TieBreak = Literal["last_round", "shared", "replay"]
#: Who cuts the deck: the dealer's neighbour on one side.
Neighbour = Literal["left_of_dealer", "right_of_dealer"]
#: What happens when the stock runs out.
StockRule = Literal["reshuffle", "end_round"]
#: How the first dealer is chosen.
FirstDealer = Literal["agreed", "highest_card"]

MELD_TYPES: tuple[MeldType, ...] = get_args(MeldType)
CONTRACT_DOWN: tuple[ContractDown, ...] = get_args(ContractDown)
ENDS: tuple[End, ...] = get_args(End)
ORDERS: tuple[Order, ...] = get_args(Order)
OBLIGATIONS: tuple[Obligation, ...] = get_args(Obligation)
LAYOFF_TIMINGS: tuple[LayoffTiming, ...] = get_args(LayoffTiming)
SWAP_TIMINGS: tuple[SwapTiming, ...] = get_args(SwapTiming)
TIE_BREAKS: tuple[TieBreak, ...] = get_args(TieBreak)
NEIGHBOURS: tuple[Neighbour, ...] = get_args(Neighbour)
STOCK_RULES: tuple[StockRule, ...] = get_args(StockRule)
FIRST_DEALERS: tuple[FirstDealer, ...] = get_args(FirstDealer)

#: The most seats any table may have: no ruleset may allow more players than this.
MAX_SEATS = 12
