"""Benchmark: the start page and the sheet page over HTTP, against a bare Flask view.

Starts, in one go, the project (``gunicorn -w 2 wsgi:app``) and a bare Flask app (also
``gunicorn -w 2``) whose views answer, as constants, the very bytes the project sends for each
page, compressed as the project compresses it, each on a free loopback port, and drives them
alternately with ``wrk``, asking as a browser over HTTPS asks (``Accept-Encoding: gzip,
deflate, br, zstd``). Prints each one's requests per second (the median of the rounds) and, per
page, the ratio: the median of the rounds' ratios. The goal is at least 0.70: finding a page
(rendered and compressed once per process) costs less than a third of what serving that many
bytes costs anyway. Then prints each page's weight with everything it loads, as sent.

    .venv/bin/python bench/http_pages.py [--seconds 5] [--rounds 5] [--connections 32] [--ops]

``--ops`` serves the project a third time with the access log, the metrics and the rate
limits off (``ACCESS_LOG=0 METRICS=0 RATELIMIT_ENABLED=0``), so one run shows what they cost
a page (a page from memory costs little else, so they are much of what is left).

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
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

from flask import Flask, Response
from harness import OPS_OFF, alternate, gunicorn, print_rates, wrk_arguments, wrk_options

GOAL = 0.70
#: What a browser asks with over HTTPS (over plain HTTP it leaves out br and zstd).
ACCEPT_ENCODING = "gzip, deflate, br, zstd"
LUA = (
    'wrk.method = "GET"\nwrk.headers["Accept"] = "text/html"\n'
    f'wrk.headers["Accept-Encoding"] = "{ACCEPT_ENCODING}"\n'
)
#: Environment variables naming the files that hold each page as the project sends it.
BODIES = {"/": "BENCH_START_BODY", "/m/sheet": "BENCH_SHEET_BODY"}
ENCODING = "BENCH_ENCODING"


def make_bare_app() -> Flask:
    """The baseline: views answering, as constants, the bytes the project sends for its pages,
    with the same Content-Encoding (``gunicorn 'http_pages:make_bare_app()'``)."""
    app = Flask("bare_pages")
    headers = {"Content-Encoding": os.environ[ENCODING], "Vary": "Accept-Encoding"}

    def constant(variable: str) -> Callable[..., Response]:
        body = Path(os.environ[variable]).read_bytes()
        return lambda **_: Response(body, headers=headers, mimetype="text/html")

    app.add_url_rule("/", "start", constant(BODIES["/"]))
    app.add_url_rule("/m/<match_id>", "sheet", constant(BODIES["/m/sheet"]))
    return app


def _get(url: str) -> urllib.request.Request:
    return urllib.request.Request(url, headers={"Accept": "text/html"})


def _sent(url: str) -> tuple[bytes, str]:
    """A page as the project sends it to a browser: its body, compressed, and the encoding."""
    request = urllib.request.Request(
        url, headers={"Accept": "text/html", "Accept-Encoding": ACCEPT_ENCODING}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return bytes(answer.read()), str(answer.headers.get("Content-Encoding", "identity"))


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
    """A page's bytes as sent (compressed), with its styles, scripts (and the modules they
    import), images and manifest."""
    page = _read(url + path)
    seen: set[str] = set()
    total = len(_sent(url + path)[0])
    links = re.findall(rb'(?:src|href)="(/(?:assets|m|manifest)/[^"]+)"', page)
    while links:
        link = links.pop().decode().replace("&amp;", "&")
        if link in seen:
            continue
        seen.add(link)
        total += len(_sent(url + link)[0])
        body = _read(url + link)
        modules = re.findall(rb'from "\./([\w.-]+\.js(?:\?v=\w+)?)"', body)
        links += [b"/assets/" + name for name in modules]
    return total


def main() -> None:
    parser = wrk_options(__doc__, rounds=5, rounds_help="runs per server and page")
    parser.add_argument(
        "--ops",
        action="store_true",
        help="also serve the project without access log, metrics and rate limits",
    )
    args = wrk_arguments(parser)

    with ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        script = workdir / "get.lua"
        script.write_text(LUA, encoding="utf-8")
        database = {"DATABASE_URL": f"sqlite:///{workdir / 'sheets.sqlite3'}"}
        project = stack.enter_context(
            gunicorn("project", "wsgi:app", lambda url: _get(url + "/"), env=database)
        )
        paths = {"start page": "/", "sheet page": f"/m/{_new_sheet(project)}"}
        bodies: dict[str, str] = {}
        encodings = set()
        for path, variable in zip(paths.values(), BODIES.values(), strict=True):
            body, encoding = _sent(project + path)
            encodings.add(encoding)
            (workdir / variable).write_bytes(body)
            bodies[variable] = str(workdir / variable)
        (encoding,) = encodings
        bare = stack.enter_context(
            gunicorn(
                "bare",
                "http_pages:make_bare_app()",
                lambda url: _get(url + "/"),
                "--pythonpath",
                "bench",
                env={**bodies, ENCODING: encoding},
            )
        )
        servers = {"project": project, "bare": bare}
        if args.ops:
            servers["no-ops"] = stack.enter_context(
                gunicorn(
                    "no-ops", "wsgi:app", lambda url: _get(url + "/"), env={**database, **OPS_OFF}
                )
            )
        print(f"GET the pages, gunicorn -w 2 each, wrk -c {args.connections}")
        for page, path in paths.items():
            targets = {name: (url + path, str(script)) for name, url in servers.items()}
            results = alternate(targets, args.rounds, args.seconds, args.connections)
            # Each round's ratio compares two runs seconds apart, so a slow drift in what else
            # the machine is doing cancels out.
            size = len(_read(project + path))
            sent, encoding = _sent(project + path)
            shown = "/m/<id>" if path.startswith("/m/") else path
            print(f"{page} (GET {shown}, {size} bytes, sent as {len(sent)} bytes of {encoding})")
            print_rates(results)
            for name in [name for name in servers if name != "bare"]:
                ratios = [p / b for p, b in zip(results[name], results["bare"], strict=True)]
                ratio = statistics.median(ratios)
                each = ", ".join(f"{r:.2f}" for r in ratios)
                print(f"  {name + ' / bare':16} {ratio:5.2f}  (rounds: {each})")
                if name == "project":
                    print(f"  goal >= {GOAL:.2f}: {'met' if ratio >= GOAL else 'NOT met'}")
        # The sheet page also reads the sheet itself from the API (a new one: it grows by
        # about 0.4 KB a round played).
        with urllib.request.urlopen(project + "/v1/matches" + paths["sheet page"][2:]) as answer:
            sheet_json = len(answer.read())
        for page, path in paths.items():
            total = weight(project, path) + (sheet_json if page == "sheet page" else 0)
            verdict = "under" if total < 100 * 1024 else "NOT under"
            print(f"{page}: {total} bytes sent with everything it loads ({verdict} 100 KB)")


if __name__ == "__main__":
    main()
