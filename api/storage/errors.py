"""What storage refuses, in the terms of a score sheet: one small tree under :class:`StorageError`.

Storage knows nothing of HTTP; the web layer answers each of these with a status and the
headers it needs (``api.errors``, the one place that mapping is made). An error carries what a
client needs to act on it: the sheet's current version for a stale write, and for input that
cannot be stored, every field at fault. What it says is a :class:`~rules.i18n.Phrase` (a
template of the catalogs and its facts), written in the reader's language by the web layer;
``str()`` of an error is its English text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.i18n import N_, Phrase


@dataclass(frozen=True)
class FieldError:
    """One field of the request at fault: its dotted path, what is wrong, and the rule broken."""

    field: str
    words: Phrase
    code: str | None = None


class StorageError(Exception):
    """A sheet cannot be read or changed as asked."""

    #: The fields at fault, when the input is what cannot be stored.
    errors: tuple[FieldError, ...] | None = None

    def __init__(self, template: str, **params: Any) -> None:
        #: What went wrong, to be written in the reader's language.
        self.words = Phrase(template, params)
        super().__init__(str(self.words))


class SheetNotFound(StorageError):
    def __init__(self, sheet_id: str) -> None:
        # The id is not repeated: whoever asked knows it, and an error's text is logged.
        super().__init__(N_("there is no match sheet with this id"))
        self.sheet_id = sheet_id


class NoSuchRound(StorageError):
    """A round number the sheet's ruleset does not have."""

    def __init__(self, ruleset_id: str, round_count: int, number: int) -> None:
        super().__init__(
            N_("{ruleset!r} has rounds 1 to {count}, not {number}"),
            ruleset=ruleset_id,
            count=round_count,
            number=number,
        )


class TokenMissing(StorageError):
    """A change asked for without any edit token (refused before the sheet is looked up)."""

    def __init__(self) -> None:
        super().__init__(
            N_("changing a sheet needs its edit token: Authorization: Bearer <edit_token>")
        )


class BadToken(StorageError):
    def __init__(self) -> None:
        super().__init__(N_("that is not this sheet's edit token"))


class PreconditionMissing(StorageError):
    """A change to a stored sheet that does not say which version it was meant for.

    Without it a phone could overwrite a round it has never seen; it sends the ETag it last
    read as ``If-Match`` (or ``*``, knowingly, for any version).
    """

    def __init__(self) -> None:
        super().__init__(
            N_("changing a sheet needs If-Match with the ETag last read (GET the sheet first)")
        )


class StaleSheet(StorageError):
    """The change was meant for a version of the sheet that is no longer the stored one."""

    def __init__(self, version: int) -> None:
        super().__init__(
            N_("the sheet has changed: it is at version {version} now; read it again"),
            version=version,
        )
        self.version = version


class ConcurrentWrite(StorageError):
    """Another writer saved the sheet between this one's reading and writing it."""

    def __init__(self) -> None:
        super().__init__(N_("the sheet changed while this request was being served; retry"))


class RoundOutOfOrder(StorageError):
    """Rounds are recorded in order, and only the last recorded one is taken back."""


class InvalidInput(StorageError):
    """Input that no sheet could hold, with every field at fault."""

    def __init__(self, template: str, errors: tuple[FieldError, ...], **params: Any) -> None:
        super().__init__(template, **params)
        self.errors = errors


class InvalidSheet(InvalidInput):
    """A table the ruleset does not seat, or a first dealer who is not at it."""

    def __init__(self, errors: tuple[FieldError, ...]) -> None:
        super().__init__(N_("invalid input: {message}"), errors, message=errors[0].words)


class ImpossibleRound(InvalidInput):
    """Results that no round of the ruleset could have ended with."""

    def __init__(self, number: int, errors: tuple[FieldError, ...]) -> None:
        super().__init__(
            N_("round {number} cannot have happened: {message}"),
            errors,
            number=number,
            message=errors[0].words,
        )
        self.number = number


class IdempotencyMismatch(InvalidInput):
    """An Idempotency-Key sent again with another request than the first."""

    def __init__(self) -> None:
        super().__init__(
            N_("this Idempotency-Key was used with a different request body"),
            (FieldError("Idempotency-Key", Phrase(N_("already used with a different body"))),),
        )


class IdempotencyConflict(StorageError):
    """The first request with an Idempotency-Key has no answer to repeat (yet)."""


#: Why the database cannot serve, as a 503 says it: each a text of the catalogs.
UNREACHABLE = N_("the database is unreachable")
READ_ONLY = N_("the database is read-only: sheets can be read, not changed")
DISK_FULL = N_("the disk holding the database is full")
BUSY = N_("another write held the database too long")
TOO_SLOW = N_("the database did not answer in time")


class StorageUnavailable(StorageError):
    """The database cannot serve: unreachable, read-only, full, busy, too slow to answer, or
    not the code's schema — ``reason`` says which (:data:`UNREACHABLE`, :data:`READ_ONLY`...)."""

    def __init__(self, cause: BaseException, reason: str = UNREACHABLE, **params: Any) -> None:
        super().__init__(reason, **params)
        self.cause = cause
        self.reason = reason

    def cause_text(self) -> str:
        """What the driver said, for the log: its error's kind and first line (never the
        statement or its parameters, which hold ids and token hashes)."""
        cause = getattr(self.cause, "orig", None) or self.cause
        said = str(cause).strip().splitlines()
        return f"{type(cause).__name__}: {said[0] if said else ''}"


__all__ = [
    "BUSY",
    "DISK_FULL",
    "READ_ONLY",
    "TOO_SLOW",
    "UNREACHABLE",
    "BadToken",
    "ConcurrentWrite",
    "FieldError",
    "IdempotencyConflict",
    "IdempotencyMismatch",
    "ImpossibleRound",
    "InvalidInput",
    "InvalidSheet",
    "NoSuchRound",
    "PreconditionMissing",
    "RoundOutOfOrder",
    "SheetNotFound",
    "StaleSheet",
    "StorageError",
    "StorageUnavailable",
    "TokenMissing",
]
