"""api.limits.ProcessCounts, the in-memory counts, answers as the ``limits`` library's own
memory storage does, without its timer thread; and it keeps no ended window for long."""

from __future__ import annotations

import time

import pytest
from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter

from api.limits import ProcessCounts

#: (seconds after the start, hits at that moment): away from the windows' ends, so that the
#: microseconds between asking one storage and the other never straddle one.
WALK = [(0.0, 4), (0.3, 1), (0.6, 3), (1.15, 2), (1.5, 4), (2.3, 1), (2.45, 5)]
ITEMS = [parse("3 per second"), parse("5 per 2 seconds"), parse("1 per hour")]


def test_the_counts_answer_as_the_librarys_memory_storage() -> None:
    ours, theirs = FixedWindowRateLimiter(ProcessCounts()), FixedWindowRateLimiter(MemoryStorage())
    start = time.time()
    compared, refused = 0, 0
    for at, hits in WALK:
        time.sleep(max(0.0, start + at - time.time()))
        for _ in range(hits):
            for item in ITEMS:
                for client in ("192.0.2.1", "192.0.2.2"):
                    keys = ("prefix", client, "write")
                    allowed = theirs.hit(item, *keys)
                    assert ours.hit(item, *keys) == allowed, (at, item)
                    refused += not allowed
                    assert ours.test(item, *keys) == theirs.test(item, *keys), (at, item)
                    mine, library = (
                        ours.get_window_stats(item, *keys),
                        theirs.get_window_stats(item, *keys),
                    )
                    assert mine.remaining == library.remaining, (at, item)
                    assert mine.reset_time == pytest.approx(library.reset_time, abs=0.05)
                    compared += 1
    assert compared == 2 * 3 * sum(hits for _, hits in WALK)
    # The walk filled windows and saw them end: 3 a second lets 3 of 8 through in the first
    # second, the hour's limit 1 of the whole walk.
    assert refused > len(WALK) * 2


def test_ended_windows_are_swept_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ProcessCounts, "SWEEP_EVERY", 0.2)
    counts = ProcessCounts()
    limiter = FixedWindowRateLimiter(counts)
    second = parse("2 per second")
    for client in range(50):  # a flood from fifty addresses
        limiter.hit(second, f"198.51.100.{client}")
    limiter.hit(parse("1 per hour"), "203.0.113.9")
    assert len(counts) == 51
    time.sleep(1.1)
    assert limiter.hit(second, "198.51.100.0")  # a new window, and the sweep is due
    assert len(counts) == 2  # the hour's window and the new one
    assert counts.get(parse("1 per hour").key_for("203.0.113.9")) == 1
