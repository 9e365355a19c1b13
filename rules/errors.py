"""The errors the rules engine raises.

Everything is a :class:`ValueError`: the caller gave something that is not a card, not a
ruleset or not a round. A *broken rule* is never an exception — checks return a verdict listing
the violations — so an exception always means "the question itself was malformed".
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base of every error the engine raises; ``field`` names the offending input when known."""

    field: str | None = None

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        if field is not None:
            self.field = field


class CardNotationError(RulesError):
    """Text that is not a card in the notation of docs/rules.md §2."""


class RulesetError(RulesError):
    """An unknown preset, or a house option that is unknown or inconsistent."""


class RoundError(RulesError):
    """A round number the ruleset does not have."""


class MoveError(RulesError):
    """A move described inconsistently (e.g. a seat that is not at the table)."""
