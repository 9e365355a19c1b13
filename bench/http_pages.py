"""Benchmark: the start page and the sheet page over HTTP, against a bare Flask view.

Starts, in one go, the project (``gunicorn -w 2 wsgi:app``) and a bare Flask app (also
``gunicorn -w 2``) whose views answer a constant HTML string exactly as long as each page, each
on a free loopback port, and drives them alternately with ``wrk``. Prints each one's requests
per second (the median of the rounds) and, per page, the ratio: the median of the rounds'
ratios. The goal is at least 0.70: rendering a page's template costs less than a third of what
serving that many bytes costs anyway. Then prints each page's weight with everything it loads.

    .venv/bin/python bench/http_pages.py [--seconds 5] [--rounds 5] [--connections 32]

Needs ``wrk`` (Debian: ``apt-get install wrk``). Only loopback addresses are used, and every
run is bounded in time; the servers are stopped at the end, whatever happens.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import tempfile
import urllib.request
from contextlib import ExitStack
from pathlib import Path

from flask import Flask
from harness import alternate, gunicorn, print_rates, wrk_arguments, wrk_options

GOAL = 0.70
LUA = 'wrk.method = "GET"\nwrk.headers["Accept"] = "text/html"\n'
#: Environment variables that tell the bare app how long each page is.
SIZES = {"/": "BENCH_START_BYTES", "/m/sheet": "BENCH_SHEET_BYTES"}


def make_bare_app() -> Flask:
    """The baseline: views answering a constant page of the project's pages' sizes
    (``gunicorn 'http_pages:make_bare_app()'``)."""
    app = Flask("bare_pages")

    def constant(size: int) -> str:
        head = "<!doctype html><title>bare</title>"
        return head + "x" * (size - len(head))

    start = constant(int(os.environ[SIZES["/"]]))
    sheet = constant(int(os.environ[SIZES["/m/sheet"]]))
    app.add_url_rule("/", "start", lambda: start)
    app.add_url_rule("/m/<match_id>", "sheet", lambda match_id: sheet)
    return app


def _get(url: str) -> urllib.request.Request:
    return urllib.request.Request(url, headers={"Accept": "text/html"})


def _new_sheet(url: str) -> str:
    """A sheet made through the API, so that the page benchmarked is a real sheet's."""
    body = {"ruleset": "liverpool", "players": ["Ann", "Bob", "Cleo", "Dan"]}
    request = urllib.request.Request(
        f"{url}/v1/matches",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return str(json.load(answer)["id"])


def _read(url: str) -> bytes:
    with urllib.request.urlopen(_get(url), timeout=10) as answer:
        return bytes(answer.read())


def weight(url: str, path: str) -> int:
    """A page's bytes with its styles, scripts (and the modules they import) and images."""
    page = _read(url + path)
    seen: set[str] = set()
    total = len(page)
    links = re.findall(rb'(?:src|href)="(/(?:assets|m)/[^"]+)"', page)
    while links:
        link = links.pop().decode()
        if link in seen:
            continue
        seen.add(link)
        body = _read(url + link.replace("&amp;", "&"))
        total += len(body)
        links += [b"/assets/" + name for name in re.findall(rb'from "\./([\w.-]+\.js)"', body)]
    return total


def main() -> None:
    args = wrk_arguments(wrk_options(__doc__, rounds=5, rounds_help="runs per server and page"))

    with ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        script = workdir / "get.lua"
        script.write_text(LUA, encoding="utf-8")
        database = {"DATABASE_URL": f"sqlite:///{workdir / 'sheets.sqlite3'}"}
        project = stack.enter_context(
            gunicorn("project", "wsgi:app", lambda url: _get(url + "/"), env=database)
        )
        paths = {"start page": "/", "sheet page": f"/m/{_new_sheet(project)}"}
        sizes = {
            SIZES["/"]: str(len(_read(project + paths["start page"]))),
            SIZES["/m/sheet"]: str(len(_read(project + paths["sheet page"]))),
        }
        bare = stack.enter_context(
            gunicorn(
                "bare",
                "http_pages:make_bare_app()",
                lambda url: _get(url + "/"),
                "--pythonpath",
                "bench",
                env=sizes,
            )
        )
        servers = {"project": project, "bare": bare}
        print(f"GET the pages, gunicorn -w 2 each, wrk -c {args.connections}")
        for page, path in paths.items():
            targets = {name: (url + path, str(script)) for name, url in servers.items()}
            results = alternate(targets, args.rounds, args.seconds, args.connections)
            # Each round's ratio compares two runs seconds apart, so a slow drift in what else
            # the machine is doing cancels out.
            ratios = [p / b for p, b in zip(results["project"], results["bare"], strict=True)]
            ratio = statistics.median(ratios)
            size = len(_read(project + path))
            shown = "/m/<id>" if path.startswith("/m/") else path
            print(f"{page} (GET {shown}, {size} bytes)")
            print_rates(results)
            each = ", ".join(f"{r:.2f}" for r in ratios)
            print(f"  ratio    {ratio:8.2f}  (rounds: {each})")
            print(f"  goal >= {GOAL:.2f}: {'met' if ratio >= GOAL else 'NOT met'}")
        # The sheet page also reads the sheet itself from the API (a new one: it grows by
        # about 0.4 KB a round played).
        with urllib.request.urlopen(project + "/v1/matches" + paths["sheet page"][2:]) as answer:
            sheet_json = len(answer.read())
        for page, path in paths.items():
            total = weight(project, path) + (sheet_json if page == "sheet page" else 0)
            verdict = "under" if total < 100 * 1024 else "NOT under"
            print(f"{page}: {total} bytes with everything it loads ({verdict} 100 KB)")


if __name__ == "__main__":
    main()
