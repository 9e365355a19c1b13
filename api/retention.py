"""Retention in the service: ``flask --app wsgi sheets purge``, and the purge the service runs
itself about once a day, so that the embedded default (SQLite, no cron) never grows forever.

The service's purge rides on the sheets' writes, never on the checks or the reads: after a
successful write, at most once an hour per worker, the worker asks the database whether a day
has passed since the last purge (:func:`api.storage.retention.purge_if_due`; one worker of all
instances wins), and if so purges once the answer has been sent, so no client waits for it.
"""

from __future__ import annotations

import time
from datetime import timedelta

import click
from flask import Flask, Response, current_app, request
from flask.cli import with_appcontext

from api.storage import Storage, StorageUnavailable
from api.storage import retention as storage_retention

#: How often one worker asks the database whether the day's purge is due.
ASK_EVERY = 3600.0
WRITES = frozenset({"POST", "PUT", "DELETE"})


def _retention(app: Flask) -> timedelta:
    return timedelta(days=app.config["SHEET_RETENTION_DAYS"])


def _purge_if_due(app: Flask) -> None:
    storage: Storage = app.extensions["database"]
    try:
        purged = storage_retention.purge_if_due(storage, _retention(app))
    except StorageUnavailable as error:  # an outage, already answered 503 elsewhere
        app.logger.warning("the daily purge is put off, the database is unavailable: %s", error)
        return
    except Exception:  # the answer is sent: a failed purge is tried again in an hour
        app.logger.exception("the daily purge failed")
        return
    if purged is not None:
        app.logger.info(
            "purged %d sheets untouched since %s and %d expired idempotency keys",
            purged.sheets,
            purged.before.isoformat(timespec="seconds"),
            purged.keys,
        )


class DailyPurge:
    """When this process next asks whether the day's purge is due (a forked worker asks at its
    first write)."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.next_ask = 0.0

    def after(self, response: Response) -> Response:
        """After a successful write, at most once an hour: purge once the answer is sent."""
        if (
            request.method in WRITES
            and response.status_code < 400
            and time.monotonic() >= self.next_ask
        ):
            self.next_ask = time.monotonic() + ASK_EVERY
            app = self.app
            response.call_on_close(lambda: _purge_if_due(app))
        return response


def init_app(app: Flask) -> None:
    """The purge by hand (``sheets purge``), and the daily one the sheets' writes ask for
    (:func:`purge_when_due`, an ``after_request`` hook of theirs)."""
    app.cli.add_command(sheets_commands)
    app.extensions["daily_purge"] = DailyPurge(app)


def purge_when_due(response: Response) -> Response:
    """A hook for the writes that may bring the daily purge due: the sheets'."""
    purge: DailyPurge = current_app.extensions["daily_purge"]
    return purge.after(response)


@click.group("sheets")
def sheets_commands() -> None:
    """The stored match sheets."""


@sheets_commands.command("purge")
@click.option(
    "--days",
    type=click.IntRange(min=1),
    default=None,
    help="Keep sheets changed in the last DAYS days (default: SHEET_RETENTION_DAYS).",
)
@with_appcontext
def purge_command(days: int | None) -> None:
    """Delete the sheets untouched for SHEET_RETENTION_DAYS and the expired idempotency keys."""
    retention = timedelta(days=days) if days is not None else _retention(current_app)
    purged = storage_retention.purge(current_app.extensions["database"], retention)
    click.echo(
        f"purged {purged.sheets} sheets untouched since"
        f" {purged.before.isoformat(timespec='seconds')}"
        f" and {purged.keys} expired idempotency keys"
    )


__all__ = ["DailyPurge", "init_app", "purge_when_due", "sheets_commands"]
