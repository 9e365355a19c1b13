"""The errors the rules engine raises.

Everything is a :class:`ValueError`: the caller gave something that is not a card, not a
ruleset or not a round. A *broken rule* is never an exception — checks return a verdict listing
the violations — so an exception always means "the question itself was malformed".

An error is raised with its message as a template and the facts that fill it in, so that a
caller serving a reader writes it in the reader's language (:attr:`RulesError.words`); ``str()``
of the error is the English message.

>>> error = CardNotationError("not a card: {text!r}", text="ZZ")
>>> str(error), error.words.template, dict(error.words.params)
("not a card: 'ZZ'", 'not a card: {text!r}', {'text': 'ZZ'})
"""

from __future__ import annotations

from typing import Any

from rules.i18n import Phrase


class RulesError(ValueError):
    """Base of every error the engine raises; ``field`` names the offending input when known."""

    field: str | None = None

    def __init__(self, template: str, *, field: str | None = None, **params: Any) -> None:
        super().__init__(template.format_map(params))
        #: The message as a template of the catalogs and its facts.
        self.words = Phrase(template, params)
        if field is not None:
            self.field = field


class CardNotationError(RulesError):
    """Text that is not a card in the notation of docs/rules.md §2."""


class RulesetError(RulesError):
    """An unknown preset, or a house option that is unknown or inconsistent."""

    @classmethod
    def about(cls, field: str, error: RulesError) -> RulesetError:
        """``error`` as the fault of ``field``: a bad rank inside an option is the option's."""
        return cls(error.words.template, field=field, **error.words.params)


class RoundError(RulesError):
    """A round number the ruleset does not have."""


class MoveError(RulesError):
    """A move described inconsistently (e.g. a seat that is not at the table)."""


__all__ = ["CardNotationError", "MoveError", "RoundError", "RulesError", "RulesetError"]
