"""rummy-referee's rules engine: cards, rulesets as data, and the checks of docs/rules.md.

Pure Python with no I/O: the web layer (``api``) converts requests into these values and
verdicts back into JSON.

>>> from rules import Card, find_ruleset, check_contract, parse_cards
>>> verdict = check_contract(find_ruleset("liverpool"), 1,
...                          [parse_cards(["7H", "7S", "JK"]), parse_cards(["KD", "KC", "KS"])])
>>> verdict.valid, verdict.melds[0].wilds[0].stands_for
(True, '7')
"""

from rules.cards import DECK, JOKER, Card, Rank, Suit, format_cards, parse_cards
from rules.checks import (
    BuyVerdict,
    ContractVerdict,
    LayoffVerdict,
    Penalty,
    SwapVerdict,
    check_buy,
    check_contract,
    check_joker_swap,
    check_layoff,
    check_meld,
    penalty,
)
from rules.choices import CONTRACT_DOWN, ENDS, MAX_SEATS, MELD_TYPES, OBLIGATIONS, ORDERS
from rules.errors import CardNotationError, MoveError, RoundError, RulesError, RulesetError
from rules.melds import Meld, Wild, read_meld
from rules.presets import PRESETS, find_ruleset, resolve_ruleset
from rules.ruleset import (
    PARAMETERS,
    Contract,
    MeldSpec,
    RoundSpec,
    Ruleset,
    TableSize,
    contract_as_dict,
)
from rules.violations import MESSAGES, Violation

__all__ = [
    "CONTRACT_DOWN",
    "ENDS",
    "MAX_SEATS",
    "MELD_TYPES",
    "OBLIGATIONS",
    "ORDERS",
    "DECK",
    "JOKER",
    "MESSAGES",
    "PARAMETERS",
    "PRESETS",
    "BuyVerdict",
    "Card",
    "CardNotationError",
    "Contract",
    "ContractVerdict",
    "LayoffVerdict",
    "Meld",
    "MeldSpec",
    "MoveError",
    "Penalty",
    "Rank",
    "RoundError",
    "RoundSpec",
    "Ruleset",
    "RulesError",
    "RulesetError",
    "Suit",
    "SwapVerdict",
    "TableSize",
    "Violation",
    "Wild",
    "check_buy",
    "check_contract",
    "check_joker_swap",
    "check_layoff",
    "check_meld",
    "contract_as_dict",
    "find_ruleset",
    "format_cards",
    "parse_cards",
    "penalty",
    "read_meld",
    "resolve_ruleset",
]
