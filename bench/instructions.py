"""Benchmark: instructions per check or request, counted by valgrind's callgrind.

The wall-clock benches on a shared machine swing two-fold between runs seconds apart; an
instruction count does not move with the machine's load. Each scenario is run twice under
``valgrind --tool=callgrind``, making ``--calls`` and then twice as many calls after the same
set-up and warm-up, so the difference divided by ``--calls`` is what one call costs, with the
start-up, the imports and the set-up left out.

    .venv/bin/python bench/instructions.py [--calls 100] [--database sqlite|postgresql]
        [SCENARIO ...]

Scenarios (all of them when none is named):

* ``parse-cards``, ``contract-check``: :mod:`bench.contract_check`'s baseline (parsing the 11
  cards) and its round-6 check, in the engine alone;
* ``check``, ``check-bare``: ``POST /v1/checks/contract`` through the project's WSGI app (every
  layer, as deployed) and through ``bench/bare_app.py``, :mod:`bench.http_checks`'s pair;
* ``round``, ``round-no-ops``, ``round-bare``: ``PUT /v1/matches/{id}/rounds/{n}`` through the
  project (rate limits, access log and metrics on, as deployed; then off) and the same body
  through ``bench/bare_rows.py``, :mod:`bench.http_rounds`'s trio, on a scratch database.

The requests are WSGI calls in one process, not HTTP: a gunicorn ``gthread`` worker adds the
same cost to every request of any app (about 0.6 M instructions on CPython 3.11), which the
wall-clock benches include. ``PYTHONHASHSEED=0`` keeps the counts repeatable.

Needs ``valgrind`` (Debian: ``apt-get install valgrind``); a run of every scenario takes a few
minutes.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH.parent), str(BENCH)]

#: Calls made before counting starts in either run: first connections, caches, lazy imports.
WARM_UP = 20


# --- the scenarios: each makes its set-up and returns the call to count ------------------------


def _engine_calls(what: str) -> Callable[[int], None]:
    from contract_check import HAND, MELDS

    from rules import check_contract, find_ruleset, parse_cards

    ruleset = find_ruleset("liverpool")
    melds = [parse_cards(meld) for meld in MELDS]
    assert check_contract(ruleset, 6, melds, hand=parse_cards(HAND)).valid

    def call(_: int) -> None:
        if what == "parse-cards":
            for meld in MELDS:
                parse_cards(meld)
        else:
            check_contract(ruleset, 6, melds)

    return call


def _environ(method: str, path: str, body: bytes, headers: dict[str, str]) -> dict[str, Any]:
    """What gunicorn hands an app for one request from a loopback client."""
    return {
        "REQUEST_METHOD": method,
        "SCRIPT_NAME": "",
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1:8000",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        **headers,
    }


def _requester(app: Callable[..., Any]) -> Callable[..., bytes]:
    def send(method: str, path: str, body: Any, expect: str, **headers: str) -> bytes:
        status: list[str] = []
        environ = _environ(method, path, json.dumps(body).encode(), headers)
        answer = b"".join(app(environ, lambda line, _headers, _info=None: status.append(line)))
        if not status[0].startswith(expect):
            raise SystemExit(f"{method} {path}: {status[0]} {answer[:300]!r}")
        return answer

    return send


def _project(env: dict[str, str]) -> Callable[..., Any]:
    os.environ.update(env)
    from api import create_app
    from api.storage.schema import migrate

    if env.get("DATABASE_URL"):
        migrate(env["DATABASE_URL"])
    return create_app()


def _check_calls(what: str) -> Callable[[int], None]:
    from harness import LIMITS_OUT_OF_REACH
    from http_checks import BODY, PATH

    if what == "check-bare":
        import bare_app

        send = _requester(bare_app.app)
    else:
        send = _requester(_project(LIMITS_OUT_OF_REACH))

    def call(_: int) -> None:
        send("POST", PATH, BODY, "200")

    return call


def _round_calls(what: str, database: str, longest: int) -> Callable[[int], None]:
    """Round 1, then round 2, of sheets made beforehand: a write never waits for another."""
    from harness import LIMITS_OUT_OF_REACH, OPS_OFF
    from http_rounds import PLAYERS, make_bare_table, results

    os.environ["DATABASE_URL"] = database
    if what == "round-bare":
        make_bare_table(database)
        import bare_rows

        put = _requester(bare_rows.app)

        def insert(index: int) -> None:
            put("PUT", f"/rows/bench/{index}", results(1), "200")

        return insert
    app = _project(
        {
            "DATABASE_URL": database,
            **LIMITS_OUT_OF_REACH,
            **(OPS_OFF if what == "round-no-ops" else {}),
        }
    )
    send = _requester(app)
    # As many sheets as the longer run needs, in both runs: the same set-up to subtract.
    count = (WARM_UP + longest + 1) // 2
    made = [
        json.loads(send("POST", "/v1/matches", {"ruleset": "liverpool", "players": PLAYERS}, "201"))
        for _ in range(count)
    ]
    writes = [(number, sheet) for number in (1, 2) for sheet in made]

    def call(index: int) -> None:
        number, sheet = writes[index]
        send(
            "PUT",
            f"/v1/matches/{sheet['id']}/rounds/{number}",
            results(number),
            "200",
            HTTP_AUTHORIZATION=f"Bearer {sheet['edit_token']}",
            HTTP_IF_MATCH="*",
        )

    return call


SCENARIOS = (
    "parse-cards",
    "contract-check",
    "check",
    "check-bare",
    "round",
    "round-no-ops",
    "round-bare",
)


def inner(what: str, calls: int, total: int, database: str) -> None:
    """The counted process: set up, warm up, then ``calls`` calls (of ``total`` in the pair)."""
    if what in ("parse-cards", "contract-check"):
        call = _engine_calls(what)
    elif what.startswith("check"):
        call = _check_calls(what)
    else:
        call = _round_calls(what, database, total)
    for index in range(WARM_UP + calls):
        call(index)


# --- the counting ---------------------------------------------------------------------------------


def count(what: str, calls: int, total: int, kind: str) -> int:
    """Instructions of one whole run of ``calls`` calls, start-up and set-up included."""
    with tempfile.TemporaryDirectory() as folder, ExitStack() as stack:
        url = ""  # the checks and the engine store nothing
        if what.startswith("round"):
            from http_rounds import scratch_database

            url = stack.enter_context(scratch_database(kind, Path(folder)))
        out = Path(folder) / "callgrind.out"
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                __file__,
                "--inner",
                what,
                str(calls),
                str(total),
                url,
            ],
            env={**os.environ, "PYTHONHASHSEED": "0"},
            capture_output=True,
            text=True,
            timeout=1800,
            check=False,
        )
        collected = re.search(r"Collected : (\d+)", done.stderr)
        if done.returncode != 0 or collected is None:
            raise SystemExit(f"{what}: the counted run failed\n{done.stderr[-2000:]}")
        return int(collected.group(1))


def main() -> None:
    if sys.argv[1:2] == ["--inner"]:
        what, calls, total, database = sys.argv[2:6]
        inner(what, int(calls), int(total), database)
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenarios", nargs="*", metavar="SCENARIO", help=", ".join(SCENARIOS))
    parser.add_argument("--calls", type=int, default=100, help="calls counted (then twice as many)")
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    args = parser.parse_args()
    if not 10 <= args.calls <= 1000:
        parser.error("keep it bounded: 10-1000 calls")
    unknown = set(args.scenarios) - set(SCENARIOS)
    if unknown:
        parser.error(f"no such scenario: {', '.join(sorted(unknown))}")
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is missing: apt-get update && apt-get install -y valgrind")
    per_call = {}
    for what in args.scenarios or SCENARIOS:
        once = count(what, args.calls, args.calls * 2, args.database)
        twice = count(what, args.calls * 2, args.calls * 2, args.database)
        per_call[what] = (twice - once) / args.calls
        print(f"{what:16} {per_call[what]:12,.0f} instructions a call", flush=True)
    for project, bare in (("check", "check-bare"), ("round", "round-bare")):
        if project in per_call and bare in per_call:
            print(f"{project} / {bare}: {per_call[project] / per_call[bare]:.2f} times the work")
    if "round-no-ops" in per_call and "round" in per_call:
        ops = per_call["round"] - per_call["round-no-ops"]
        print(f"rate limits, access log and metrics: {ops:,.0f} instructions a write")


if __name__ == "__main__":
    main()
