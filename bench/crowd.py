"""Benchmark: a contract check's latency behind a crowd of idle and slow connections, against
the same server without them.

Starts the project as ``bin/serve`` does (``gunicorn -w 2 wsgi:app``, gunicorn.conf.py's
worker) on a free loopback port and asks it a round-2 contract check one request after
another, in alternating rounds: quiet, then with ``--idle`` connections open and silent and
``--slow`` clients sending a request head or body a byte a second. Prints each round's median
and slowest answer, and the ratio of the crowded median to the quiet one (the median of the
rounds' ratios). The goal is a ratio under 2 and every answer well under a second: the worker
reads requests in its main loop, so a crowd costs it sockets, not threads.

    .venv/bin/python bench/crowd.py [--rounds 3] [--probes 60] [--idle 200] [--slow 100]

Only loopback addresses are used; every round is bounded, and the server and the crowd's
sockets are closed at the end, whatever happens.
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

from harness import gunicorn

CHECK = json.dumps(
    {"ruleset": "liverpool", "round": 2, "melds": [["7H", "7S", "7D"], ["4H", "5H", "JK", "7H"]]}
).encode()
HEAD = b"POST /v1/checks/contract HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"


def check(url: str) -> urllib.request.Request:
    return urllib.request.Request(
        f"{url}/v1/checks/contract", data=CHECK, headers={"Content-Type": "application/json"}
    )


def probe(url: str, times: int) -> list[float]:
    """Seconds each of ``times`` checks took, one after another."""
    took = []
    for _ in range(times):
        started = time.perf_counter()
        with urllib.request.urlopen(check(url), timeout=30) as answer:
            answer.read()
        took.append(time.perf_counter() - started)
    return took


@contextmanager
def crowd(port: int, idle: int, slow: int) -> Iterator[None]:
    """``idle`` silent connections and ``slow`` ones trickling a byte a second."""
    sockets = [socket.create_connection(("127.0.0.1", port), timeout=30) for _ in range(idle)]
    trickling = []
    for number in range(slow):
        sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        if number % 2:
            sock.sendall(HEAD + f"Content-Length: {len(CHECK)}\r\n\r\n".encode())
            trickling.append((sock, CHECK))
        else:
            trickling.append((sock, HEAD + b"X-Padding: " + b"p" * 200 + b"\r\n\r\n"))
    stop = threading.Event()

    def send() -> None:
        sent = 0
        while not stop.wait(1.0):
            for sock, raw in trickling:
                try:
                    sock.sendall(raw[sent : sent + 1])
                except OSError:
                    pass
            sent += 1

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    time.sleep(1.5)  # every slow client has begun
    try:
        yield
    finally:
        stop.set()
        sender.join(5)
        for sock in sockets + [sock for sock, _ in trickling]:
            sock.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--probes", type=int, default=60)
    parser.add_argument("--idle", type=int, default=200)
    parser.add_argument("--slow", type=int, default=100)
    args = parser.parse_args()
    if not 1 <= args.rounds <= 10 or not 1 <= args.probes <= 1000:
        parser.error("keep it bounded: 1-10 rounds, 1-1000 probes")
    ratios, slowest = [], 0.0
    with gunicorn("project", "wsgi:app", check, env={"RATELIMIT_ENABLED": "0"}) as url:
        port = int(url.rsplit(":", 1)[1])
        for number in range(1, args.rounds + 1):
            quiet = probe(url, args.probes)
            with crowd(port, args.idle, args.slow):
                crowded = probe(url, args.probes)
            slowest = max(slowest, max(crowded))
            ratio = statistics.median(crowded) / statistics.median(quiet)
            ratios.append(ratio)
            print(
                f"round {number}: quiet median {statistics.median(quiet) * 1000:.2f} ms,"
                f" crowded median {statistics.median(crowded) * 1000:.2f} ms"
                f" (slowest {max(crowded) * 1000:.1f} ms), ratio {ratio:.2f}"
            )
    print(
        f"{args.idle} idle + {args.slow} slow connections: crowded/quiet median latency"
        f" {statistics.median(ratios):.2f} (goal < 2), slowest crowded answer"
        f" {slowest * 1000:.1f} ms (goal < 1000)"
    )


if __name__ == "__main__":
    main()
