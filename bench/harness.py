"""What the HTTP benchmarks share: their command line, free ports, gunicorn processes, and wrk
runs.

Every server binds a loopback address and is stopped on leaving its ``with`` block, whatever
happens; every wrk run is bounded in time.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The operations switched off, for a bench's ``--ops``: what they cost, beside the project.
OPS_OFF = {"ACCESS_LOG": "0", "METRICS": "0", "RATELIMIT_ENABLED": "0"}
#: The limits stay on, counting every write, but set past what one address sends in a bench:
#: it measures what a write costs, not the refusal of a flood.
LIMITS_OUT_OF_REACH = {
    "RATELIMIT_WRITE": "100000000 per minute",
    "RATELIMIT_CREATE": "100000000 per minute",
}


def wrk_options(doc: str, *, rounds: int, rounds_help: str) -> argparse.ArgumentParser:
    """The options every wrk benchmark takes; a bench adds its own before :func:`wrk_arguments`."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=5, help="length of each wrk run")
    parser.add_argument("--rounds", type=int, default=rounds, help=rounds_help)
    # 32: with eight connections to two workers, how they happen to split between the
    # workers decides a run, and a server's rate falls into two modes two-fold apart.
    parser.add_argument("--connections", type=int, default=32, help="wrk's open connections")
    return parser


def wrk_arguments(parser: argparse.ArgumentParser) -> argparse.Namespace:
    """The options given, refused unless the run stays bounded, and only where wrk is there."""
    args = parser.parse_args()
    if not 1 <= args.seconds <= 60 or not 1 <= args.rounds <= 10:
        parser.error("keep it bounded: 1-60 seconds, 1-10 rounds")
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is missing: apt-get update && apt-get install -y wrk")
    return args


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def gunicorn(
    name: str,
    app: str,
    ready: Callable[[str], urllib.request.Request],
    *extra: str,
    env: dict[str, str] | None = None,
) -> Iterator[str]:
    """A ``gunicorn -w 2`` serving ``app`` on a free loopback port, from the repository root;
    ``ready(url)`` is the request that must answer 200 before the server counts as up. Stopped
    on leaving.

    Every server, the project's and each bare baseline alike, reads the same gunicorn.conf.py:
    the same worker class (``gthread``), threads per worker (``WEB_THREADS``) and timeouts, so a
    ratio compares the apps, never two ways of serving them."""
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "--workers",
        "2",
        "--bind",
        f"127.0.0.1:{port}",
        "--log-level",
        "warning",
        *extra,
        app,
    ]
    # The servers' output (each request's access-log line among it) goes to a file, as in a
    # deployment, not to the terminal, whose speed would be measured too.
    log = tempfile.NamedTemporaryFile(prefix=f"bench-{name}-", suffix=".log", delete=False)
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        env={**os.environ, "LOG_LEVEL": "WARNING", **(env or {})},
        stdout=log,
        stderr=log,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_serving(f"{name} (output in {log.name})", ready(url), process)
        yield url
        os.unlink(log.name)  # kept only when the server failed, to be read
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def _wait_until_serving(
    name: str, request: urllib.request.Request, process: subprocess.Popen[bytes]
) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"{name}: gunicorn exited with {process.returncode}")
        try:
            with urllib.request.urlopen(request, timeout=2) as response:
                if response.status in (200, 201):
                    return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"{name}: not serving {request.full_url} after 60 s")


def run_wrk(
    url: str, script: str, seconds: int, connections: int, script_args: list[str] | None = None
) -> float:
    """Requests per second over ``seconds``; every answer must be a 2xx."""
    completed = subprocess.run(
        [
            "wrk",
            "--threads",
            "1",
            "--connections",
            str(connections),
            "--duration",
            f"{seconds}s",
            "--timeout",
            "5s",
            "--script",
            script,
            url,
            # wrk hands what follows "--" to the script's init(args).
            *(["--", *script_args] if script_args else []),
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=seconds + 30,
    )
    output = completed.stdout
    if "Non-2xx" in output or "Socket errors" in output:
        raise SystemExit(f"wrk saw errors against {url}:\n{output}\n{completed.stderr[-3000:]}")
    match = re.search(r"Requests/sec:\s+([\d.]+)", output)
    if match is None:
        raise SystemExit(f"no Requests/sec in wrk's output:\n{output}")
    return float(match[1])


def alternate(
    targets: dict[str, tuple[str, str]], rounds: int, seconds: int, connections: int
) -> dict[str, list[float]]:
    """Each target's requests per second in each round: ``targets`` names a (URL, wrk script)
    each, warmed up once (imports, caches, first connections), then driven in turn, round
    after round, so that a slow drift in what else the machine does touches all alike."""
    for url, script in targets.values():
        run_wrk(url, script, 1, connections)
    results: dict[str, list[float]] = {name: [] for name in targets}
    for _ in range(rounds):
        for name, (url, script) in targets.items():
            results[name].append(run_wrk(url, script, seconds, connections))
    return results


def print_rates(results: dict[str, list[float]]) -> None:
    """One line per target: the median of its runs, and every run."""
    for name, rates in results.items():
        runs = ", ".join(f"{rps:.0f}" for rps in rates)
        print(f"  {name:8} {statistics.median(rates):8.0f} req/s  (runs: {runs})")
