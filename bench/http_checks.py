"""Benchmark: ``POST /v1/checks/contract`` over HTTP, against a bare Flask view.

Starts, in one go, the project (``gunicorn -w 2 wsgi:app``) and ``bench/bare_app.py`` (a Flask
view that parses the same JSON body and answers a constant, also ``gunicorn -w 2``), each on a
free loopback port, and drives them in turn with ``wrk`` for a round-2 contract check. Prints
each one's requests per second (the median of the rounds) and the project's ratio to the bare
view, the median of the rounds' ratios. The goal is a ratio of at least 0.50, and 0.70 to aim
for: the one path — Flask's dispatch, flask-smorest's parsing and dumping, the hooks every
answer goes through — with the check, its validation and its verdict, costs at most as much
again as serving a JSON request does anyway. Both run under the same server settings
(``harness.gunicorn``: gunicorn.conf.py's threaded workers, ``WEB_THREADS`` threads each), so
the ratio compares the apps, not the servers.

    .venv/bin/python bench/http_checks.py [--seconds 5] [--rounds 5] [--connections 32] [--ops]

``--ops`` serves the project a third time with the access log, the metrics and the rate
limits off (``ACCESS_LOG=0 METRICS=0 RATELIMIT_ENABLED=0``), so one run shows what they cost:
the project (all on, as deployed) against that ``no-ops`` server.

With ``--lang de`` (or ``nl``, ``it``, ``nb``) it measures what speaking another language
costs instead: the project's server alone, driven in alternating runs with and without
``Accept-Language: de``, the same check; it prints both rates and the median of the rounds'
ratios, whose goal is at least 0.95 (translation costs a request nothing noticeable).

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
from typing import Any

from harness import OPS_OFF, alternate, gunicorn, print_rates, wrk_arguments, wrk_options

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
LANGUAGE_LUA = LUA + 'wrk.headers["Accept-Language"] = "{language}"\n'


def main() -> None:
    parser = wrk_options(__doc__, rounds=5, rounds_help="runs per server, alternating")
    parser.add_argument(
        "--lang", choices=["de", "nl", "it", "nb"], help="compare this language with English"
    )
    parser.add_argument(
        "--ops",
        action="store_true",
        help="also serve the project without access log, metrics and rate limits",
    )
    args = wrk_arguments(parser)
    if args.lang:
        compare_languages(args)
        return

    with ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        script = workdir / "post.lua"
        script.write_text(LUA.format(body=json.dumps(json.dumps(BODY))), encoding="utf-8")
        project = stack.enter_context(gunicorn("project", "wsgi:app", _ready))
        bare = stack.enter_context(
            gunicorn("bare", "bare_app:app", _ready, "--pythonpath", "bench")
        )
        servers = {"project": project, "bare": bare}
        if args.ops:
            servers["no-ops"] = stack.enter_context(
                gunicorn("no-ops", "wsgi:app", _ready, env=OPS_OFF)
            )
        targets = {name: (url + PATH, str(script)) for name, url in servers.items()}
        results = alternate(targets, args.rounds, args.seconds, args.connections)

    print(f"POST {PATH} (round 2, liverpool), gunicorn -w 2 each, wrk -c {args.connections}")
    print_rates(results)
    # Each round's ratio compares runs seconds apart, so a slow drift in what else the machine
    # is doing cancels out; the reported ratio is the median of the rounds' ratios.
    for name in ("project", "no-ops")[: 2 if args.ops else 1]:
        ratios = [p / b for p, b in zip(results[name], results["bare"], strict=True)]
        each = ", ".join(f"{r:.2f}" for r in ratios)
        print(f"  {name + ' / bare':16} {statistics.median(ratios):5.2f}  (rounds: {each})")
    ratio = statistics.median(
        p / b for p, b in zip(results["project"], results["bare"], strict=True)
    )
    print(f"  goal project / bare >= 0.50: {'met' if ratio >= 0.50 else 'NOT met'}")
    print(f"  aim  project / bare >= 0.70: {'met' if ratio >= 0.70 else 'not yet'}")


def compare_languages(args: Any) -> None:
    """The contract check in ``args.lang`` against English, on one server, in the same run."""
    with ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        body = json.dumps(json.dumps(BODY))
        scripts = {"en": workdir / "en.lua", args.lang: workdir / f"{args.lang}.lua"}
        scripts["en"].write_text(LUA.format(body=body), encoding="utf-8")
        scripts[args.lang].write_text(
            LANGUAGE_LUA.format(body=body, language=args.lang), encoding="utf-8"
        )
        url = stack.enter_context(gunicorn("project", "wsgi:app", _ready))
        targets = {name: (url + PATH, str(script)) for name, script in scripts.items()}
        results = alternate(targets, args.rounds, args.seconds, args.connections)

    print(f"POST {PATH} (round 2, liverpool), gunicorn -w 2, wrk -c {args.connections}")
    print_rates(results)
    ratios = [t / e for t, e in zip(results[args.lang], results["en"], strict=True)]
    ratio = statistics.median(ratios)
    each = ", ".join(f"{r:.2f}" for r in ratios)
    print(f"  {args.lang} / en {ratio:5.2f}  (rounds: {each})")
    print(f"  goal {args.lang} / en >= 0.95: {'met' if ratio >= 0.95 else 'NOT met'}")


if __name__ == "__main__":
    main()
