"""Benchmark: recording rounds (``PUT /v1/matches/{id}/rounds/{n}``) against a bare insert.

Starts, in one go and against one scratch database, the project (``gunicorn -w 2 wsgi:app``)
and ``bench/bare_rows.py`` (a Flask view that parses the same JSON body and inserts one row
through SQLAlchemy, also ``gunicorn -w 2``), and drives them alternately with ``wrk``. The
project records rounds on sheets made beforehand — round 1 of every sheet, then round 2 of
every sheet... — so no two writes contend for one sheet, and a sheet's next round comes
``--sheets`` writes after its last (a few seconds at the default, 3000: with too few sheets one
slow write lets the walk overtake it, and the run stops on the 409 that follows). Run on SQLite
and on PostgreSQL; the goal is at least 50% of the bare view's requests per second on each.

    .venv/bin/python bench/http_rounds.py [--seconds 5] [--rounds 3] [--connections 32]
        [--backends sqlite,postgresql] [--sheets 3000] [--ops]

``--ops`` serves the project a second time, on the same database, with the access log, the
metrics and the rate limits off (``ACCESS_LOG=0 METRICS=0 RATELIMIT_ENABLED=0``), so one run
shows what they cost a write: the project (all on, as deployed) against that ``no-ops`` server.

Needs ``wrk`` (Debian: ``apt-get install wrk``) and, for PostgreSQL, the server at
``BENCH_POSTGRES_URL`` (default ``postgresql+psycopg://postgres@127.0.0.1:5432/test``), where a
scratch database is created and dropped. Only loopback addresses are used; every run is
bounded in time.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import tempfile
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from harness import LIMITS_OUT_OF_REACH, OPS_OFF, gunicorn, run_wrk, wrk_arguments, wrk_options
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

POSTGRES = os.environ.get("BENCH_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
PLAYERS = ["Ann", "Bob", "Cleo", "Dan"]


def results(number: int) -> dict[str, Any]:
    out = number % len(PLAYERS)
    return {
        "results": [
            {"seat": s, "went_out": True} if s == out else {"seat": s, "points": 5 * (s + 2)}
            for s in range(len(PLAYERS))
        ]
    }


@contextmanager
def scratch_database(backend: str, folder: Path) -> Iterator[str]:
    if backend == "sqlite":
        yield f"sqlite:///{folder / 'bench.sqlite3'}"
        return
    name = f"rummy_bench_{secrets.token_hex(4)}"
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def make_bare_table(database: str) -> None:
    """The table ``bench/bare_rows.py`` inserts into, in ``database``."""
    engine = create_engine(database)
    with engine.begin() as connection:
        connection.execute(
            text(
                "CREATE TABLE IF NOT EXISTS bench_rows (id INTEGER PRIMARY KEY"
                + (
                    " AUTOINCREMENT"
                    if database.startswith("sqlite")
                    else " GENERATED ALWAYS AS IDENTITY"
                )
                + ", body TEXT NOT NULL)"
            )
        )
    engine.dispose()


def create_sheet(url: str) -> Any:
    """A new liverpool sheet for the benchmark's players: the sheet and its edit token."""
    sent = urllib.request.Request(
        url + "/v1/matches",
        data=json.dumps({"ruleset": "liverpool", "players": PLAYERS}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(sent, timeout=10) as answer:
        return json.loads(answer.read())


#: wrk walks a list of prepared requests: "PUT path token body" per line, round-major.
LUA_PROJECT = """
local requests = {}
local i = 0
function init(args)
  for line in io.lines(args[1]) do
    local path, token, body = line:match("^(%S+) (%S+) (.*)$")
    requests[#requests + 1] = wrk.format("PUT", path, {
      ["Content-Type"] = "application/json",
      ["Authorization"] = "Bearer " .. token,
      -- Any version: the walk wraps round and corrects rounds already recorded.
      ["If-Match"] = "*",
    }, body)
  end
end
function request()
  i = i % #requests + 1
  return requests[i]
end
function response(status, headers, body)
  if status >= 300 then
    io.stderr:write("status " .. status .. ": " .. body .. "\\n")
  end
end
"""

LUA_BARE = """
local i = 0
function request()
  i = i + 1
  return wrk.format("PUT", "/rows/bench/" .. i, {["Content-Type"] = "application/json"},
                    {body})
end
"""


def bench_backend(backend: str, args: argparse.Namespace, workdir: Path) -> dict[str, float]:
    """Each server's requests per second (the median of its runs): ``project``, ``bare`` and,
    with ``--ops``, ``no-ops``."""
    with ExitStack() as stack:
        database = stack.enter_context(scratch_database(backend, workdir))
        env = {"DATABASE_URL": database}

        def ready_project(url: str) -> urllib.request.Request:
            return urllib.request.Request(url + "/healthz")

        def ready_bare(url: str) -> urllib.request.Request:
            return urllib.request.Request(
                url + "/rows/ready/0",
                data=b"{}",
                method="PUT",
                headers={"Content-Type": "application/json"},
            )

        project = stack.enter_context(
            gunicorn("project", "wsgi:app", ready_project, env={**env, **LIMITS_OUT_OF_REACH})
        )
        servers = {"project": project}
        if args.ops:
            servers["no-ops"] = stack.enter_context(
                gunicorn("no-ops", "wsgi:app", ready_project, env={**env, **OPS_OFF})
            )
        # The bare view's table, made here so that neither server pays for it while measured.
        make_bare_table(database)
        bare = stack.enter_context(
            gunicorn("bare", "bare_rows:app", ready_bare, "--pythonpath", "bench", env=env)
        )

        sheets = [create_sheet(project) for _ in range(args.sheets)]
        plan = workdir / f"{backend}-requests.txt"
        with plan.open("w", encoding="utf-8") as out:
            # wrk calls request() once before measuring, which would skip the first line and
            # leave that sheet's later rounds out of order: the first line goes in twice (the
            # second is a correction, which is a write all the same).
            first = json.dumps(results(1))
            out.write(f"/v1/matches/{sheets[0]['id']}/rounds/1 {sheets[0]['edit_token']} {first}\n")
            for number in range(1, 8):
                body = json.dumps(results(number))
                for sheet in sheets:
                    out.write(
                        f"/v1/matches/{sheet['id']}/rounds/{number} {sheet['edit_token']} {body}\n"
                    )
        project_lua = workdir / "project.lua"
        project_lua.write_text(LUA_PROJECT, encoding="utf-8")
        bare_lua = workdir / "bare.lua"
        bare_lua.write_text(
            LUA_BARE.replace("{body}", json.dumps(json.dumps(results(1)))), encoding="utf-8"
        )

        def drive(name: str, seconds: int) -> float:
            if name in servers:
                # Both project servers walk the same plan from its start: rounds already
                # recorded are corrections, the next one comes in order.
                try:
                    return run_wrk(
                        servers[name], str(project_lua), seconds, args.connections,
                        script_args=[str(plan)],
                    )  # fmt: skip
                except SystemExit as refused:
                    if "rounds are recorded in order" not in str(refused):
                        raise
                    # One write outlived a whole pass over the sheets (a checkpoint, a
                    # pause): the walk reached that sheet's next round before it committed.
                    raise SystemExit(
                        f"{refused}\nA sheet's rounds are {args.sheets} writes apart, less"
                        " than one slow write took here: run with more --sheets"
                        " (the default 3000)."
                    ) from None
            return run_wrk(bare, str(bare_lua), seconds, args.connections)

        drive("bare", 1)  # warm up: imports, first connections (the project warmed up above)
        measured: dict[str, list[float]] = {name: [] for name in (*servers, "bare")}
        for _ in range(args.rounds):
            for name in measured:
                measured[name].append(drive(name, args.seconds))
    medians = {name: statistics.median(values) for name, values in measured.items()}
    for name, values in measured.items():
        runs = ", ".join(f"{rps:.0f}" for rps in values)
        print(f"{backend}: {name:8} {medians[name]:7.0f} req/s (runs {runs})")
    return medians


def main() -> None:
    parser = wrk_options(__doc__, rounds=3, rounds_help="runs per server, alternating")
    parser.add_argument("--sheets", type=int, default=3000, help="sheets made beforehand")
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument(
        "--ops",
        action="store_true",
        help="also serve the project without access log, metrics and rate limits",
    )
    args = wrk_arguments(parser)
    if not 10 <= args.sheets <= 20000:
        parser.error("keep it bounded: 10-20000 sheets")
    summary = {}
    with tempfile.TemporaryDirectory() as folder:
        for backend in args.backends.split(","):
            workdir = Path(folder) / backend
            workdir.mkdir()
            summary[backend] = bench_backend(backend, args, workdir)
    print(f"gunicorn -w 2 each, wrk -c {args.connections}, {args.rounds} x {args.seconds} s")
    for backend, medians in summary.items():
        ratio = medians["project"] / medians["bare"]
        verdict = "met" if ratio >= 0.5 else "NOT met"
        print(
            f"  {backend:10} project {medians['project']:7.0f}  bare {medians['bare']:7.0f}"
            f"  ratio {ratio:.2f} (goal >= 0.50: {verdict})"
        )
        if "no-ops" in medians:
            print(
                f"  {'':10} no-ops  {medians['no-ops']:7.0f}  ratio {medians['no-ops'] / medians['bare']:.2f}"
            )


if __name__ == "__main__":
    main()
