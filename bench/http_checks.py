"""Benchmark: ``POST /v1/checks/contract`` over HTTP, against a bare Flask view.

Starts, in one go, the project twice (``gunicorn -w 2 wsgi:app``: on the fast path, and with
``FAST_JSON=0``, marshmallow and Flask alone) and ``bench/bare_app.py`` (a Flask view that
parses the same JSON body and answers a constant, also ``gunicorn -w 2``), each on a free
loopback port, and drives them in turn with ``wrk`` for a round-2 contract check. Prints each
one's requests per second (the median of the rounds) and each project's ratio to the bare
view, the median of the rounds' ratios. The goal is a ratio of at least 0.80 on the path the
app serves by default: the check, its validation and its verdict cost no more than a quarter
of what serving a JSON request costs anyway. All three run under the same server settings
(``harness.gunicorn``: gunicorn.conf.py's threaded workers, ``WEB_THREADS`` threads each), so
the ratio compares the apps, not the servers.

    .venv/bin/python bench/http_checks.py [--seconds 5] [--rounds 5] [--connections 8]

Needs ``wrk`` (Debian: ``apt-get install wrk``). Only loopback addresses are used, and every
run is bounded in time; the servers are stopped at the end, whatever happens.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import urllib.request
from contextlib import ExitStack
from pathlib import Path

from harness import gunicorn, run_wrk, wrk_arguments, wrk_options

PATH = "/v1/checks/contract"
#: A round-2 Liverpool contract (1 set + 1 run, one joker) with the whole hand.
BODY = {
    "ruleset": "liverpool",
    "round": 2,
    "melds": [["7H", "7S", "7D"], ["4H", "5H", "JK", "7H"]],
    "hand": ["7H", "7S", "7D", "4H", "5H", "JK", "7H", "KD", "2C", "9S", "QH"],
}


def _ready(url: str) -> urllib.request.Request:
    return urllib.request.Request(
        url + PATH, data=json.dumps(BODY).encode(), headers={"Content-Type": "application/json"}
    )


LUA = """
wrk.method = "POST"
wrk.body = {body}
wrk.headers["Content-Type"] = "application/json"
"""


def main() -> None:
    args = wrk_arguments(wrk_options(__doc__, rounds=5, rounds_help="runs per server, alternating"))

    with ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        script = workdir / "post.lua"
        script.write_text(LUA.format(body=json.dumps(json.dumps(BODY))), encoding="utf-8")
        project = stack.enter_context(gunicorn("project", "wsgi:app", _ready))
        stock = stack.enter_context(gunicorn("stock", "wsgi:app", _ready, env={"FAST_JSON": "0"}))
        bare = stack.enter_context(
            gunicorn("bare", "bare_app:app", _ready, "--pythonpath", "bench")
        )
        servers = {"project": project, "stock": stock, "bare": bare}
        for url in servers.values():  # warm up: imports, caches, first connections
            run_wrk(url + PATH, str(script), 1, args.connections)
        results: dict[str, list[float]] = {name: [] for name in servers}
        for _ in range(args.rounds):
            for name, url in servers.items():
                results[name].append(
                    run_wrk(url + PATH, str(script), args.seconds, args.connections)
                )

    print(f"POST {PATH} (round 2, liverpool), gunicorn -w 2 each, wrk -c {args.connections}")
    for name in servers:
        runs = ", ".join(f"{rps:.0f}" for rps in results[name])
        print(f"  {name:8} {statistics.median(results[name]):8.0f} req/s  (runs: {runs})")
    # Each round's ratio compares runs seconds apart, so a slow drift in what else the machine
    # is doing cancels out; the reported ratio is the median of the rounds' ratios.
    for name in ("project", "stock"):
        ratios = [p / b for p, b in zip(results[name], results["bare"], strict=True)]
        each = ", ".join(f"{r:.2f}" for r in ratios)
        print(f"  {name + ' / bare':16} {statistics.median(ratios):5.2f}  (rounds: {each})")
    ratio = statistics.median(
        p / b for p, b in zip(results["project"], results["bare"], strict=True)
    )
    print(f"  goal project / bare >= 0.80: {'met' if ratio >= 0.80 else 'NOT met'}")


if __name__ == "__main__":
    main()
