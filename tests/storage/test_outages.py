"""A database that fails answers 503 with Retry-After, fast; the checks never notice; nothing
acknowledged is lost; and the service recovers by itself.

docs/api.md, Errors: "The database being unreachable is a 503 with Retry-After, never a 500."
Running it: /healthz answers 200 only when the database is reachable within a short timeout and
its schema is at the code's revision. The outages are made by a TCP proxy the test owns
(``faultproxy``) between gunicorn and the machine's PostgreSQL, which is never stopped.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from faultproxy import FaultProxy, fault_proxy
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from api.storage import Storage

pytestmark = [pytest.mark.server, pytest.mark.postgres]

#: The server's timeouts, short so that the test is: an answer within them plus a margin. A
#: request that asks a silent database waits at least 3 s (a new connection's connect timeout,
#: or a pooled one's statement timeout and the client's 1 s of grace): a check that answers
#: within 2 s did not ask it.
TIMEOUTS = {"DATABASE_CONNECT_TIMEOUT": "3", "DATABASE_STATEMENT_TIMEOUT": "2"}
#: The worst wait: a pooled connection's ping waits out the statement timeout and the client's
#: grace (1 s) past it, then a new connection its connect timeout; and room for a busy machine.
PROMPT = 2 + 1 + 3 + 3
CHECK = {
    "ruleset": "liverpool",
    "round": 1,
    "melds": [["7H", "7S", "7D"], ["9C", "9D", "JK"]],
}


def call(
    base: str, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], Any, float]:
    """One request: status, headers, body (JSON when it is) and the seconds it took."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{base}{path}", data=data, method=method)
    request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            status, got, raw = answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        status, got, raw = error.code, dict(error.headers), error.read()
    took = time.monotonic() - started
    try:
        parsed = json.loads(raw) if raw else None
    except ValueError:
        parsed = raw.decode()
    return status, got, parsed, took


@pytest.fixture
def proxied(fresh_postgres_url: str, start_server: Any) -> Iterator[tuple[Any, FaultProxy]]:
    """gunicorn (two workers) on a scratch PostgreSQL database reached through the proxy."""
    direct = make_url(fresh_postgres_url)
    with fault_proxy((direct.host or "127.0.0.1", direct.port or 5432)) as proxy:
        url = direct.set(host="127.0.0.1", port=proxy.port)
        server = start_server(url.render_as_string(hide_password=False), 2, env=TIMEOUTS)
        yield server, proxy


def unavailable(answer: tuple[int, dict[str, str], Any, float]) -> None:
    status, headers, body, took = answer
    assert status == 503, (status, body)
    assert headers["Content-Type"] == "application/problem+json"
    assert int(headers["Retry-After"]) > 0
    assert body["status"] == 503 and body["detail"]
    assert took < PROMPT, f"{took:.1f} s"


def checks_still_answer(base: str) -> None:
    status, _, body, took = call(base, "POST", "/v1/checks/contract", CHECK)
    assert status == 200 and body["valid"] is True
    assert took < 2, f"the check took {took:.1f} s during the outage"


def wait_healthy(base: str, within: float = 15) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if call(base, "GET", "/healthz")[0] == 200:
            return
        time.sleep(0.25)
    raise AssertionError(f"/healthz not back to 200 within {within} s")


def test_outages_answer_503_promptly_and_the_service_recovers(
    proxied: tuple[Any, FaultProxy],
) -> None:
    server, proxy = proxied
    base = server.url
    status, _, sheet, _ = call(
        base, "POST", "/v1/matches", {"ruleset": "liverpool", "players": ["A", "B", "C"]}
    )
    assert status == 201
    # If-Match: * — the outages are the question here, not which version a write was meant for.
    auth = {"Authorization": f"Bearer {sheet['edit_token']}", "If-Match": "*"}
    path = f"/v1/matches/{sheet['id']}"
    acknowledged: list[int] = []

    def record(number: int) -> tuple[int, dict[str, str], Any, float]:
        results = [{"seat": 0, "went_out": True}, {"seat": 1, "points": 20 + 5 * number}]
        results.append({"seat": 2, "points": 35})
        answer = call(base, "PUT", f"{path}/rounds/{number}", {"results": results}, auth)
        if answer[0] == 200:
            acknowledged.append(number)
        return answer

    assert record(1)[0] == 200

    # A database that hangs: connections accepted and never answered, open ones silent.
    proxy.blackhole()
    unavailable(record(2))
    unavailable(call(base, "GET", path))
    checks_still_answer(base)
    health = call(base, "GET", "/healthz")
    unavailable(health)
    proxy.forward()
    wait_healthy(base)
    assert record(2)[0] == 200

    # A database that is down: connections refused.
    proxy.refuse()
    unavailable(record(3))
    unavailable(call(base, "GET", "/healthz"))
    checks_still_answer(base)
    proxy.forward()
    wait_healthy(base)

    # A connection cut in the middle of a request (it was waiting on a silent database).
    proxy.blackhole()
    answers: list[Any] = []
    writer = threading.Thread(target=lambda: answers.append(record(3)))
    writer.start()
    time.sleep(0.5)
    proxy.cut()
    proxy.forward()
    writer.join(30)
    assert answers and answers[0][0] in (200, 503), answers
    if answers[0][0] == 503:
        unavailable(answers[0])
    wait_healthy(base)
    assert record(len(acknowledged) + 1)[0] == 200

    # Nothing acknowledged is lost.
    status, _, stored, _ = call(base, "GET", path)
    assert status == 200
    assert [r["number"] for r in stored["rounds"] if r["status"] == "played"] == acknowledged
    log = server.log.read_text()
    assert "Traceback" not in log and "unexpected error" not in log


# --- a pooled connection the server closed is never handed out -----------------------------------
#
# The pool keeps connections between requests; a server restart, an administrator's
# pg_terminate_backend or a cut network closes them while nobody is looking. The next
# transaction must get a live connection, not fail with the dead one.


def _backend_pid(storage: Storage) -> int:
    with storage.transaction() as connection:
        pid: int = connection.execute(text("SELECT pg_backend_pid()")).scalar_one()
    return pid


def test_a_connection_the_server_ended_is_replaced_before_it_is_used(
    fresh_postgres_url: str,
) -> None:
    storage = Storage(fresh_postgres_url)
    admin = create_engine(fresh_postgres_url, isolation_level="AUTOCOMMIT")
    try:
        first = _backend_pid(storage)
        with admin.connect() as connection:
            connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": first})
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:  # the server has closed it once its row is gone
            with admin.connect() as connection:
                alive = connection.execute(
                    text("SELECT count(*) FROM pg_stat_activity WHERE pid = :pid"), {"pid": first}
                ).scalar_one()
            if not alive:
                break
            time.sleep(0.05)
        assert _backend_pid(storage) != first
    finally:
        storage.dispose()
        admin.dispose()


def test_a_connection_cut_off_is_replaced_before_it_is_used(fresh_postgres_url: str) -> None:
    direct = make_url(fresh_postgres_url)
    with fault_proxy((direct.host or "127.0.0.1", direct.port or 5432)) as proxy:
        storage = Storage(direct.set(host="127.0.0.1", port=proxy.port))
        try:
            first = _backend_pid(storage)
            proxy.cut()
            time.sleep(0.2)  # the proxy's FIN reaches the pooled connection
            assert _backend_pid(storage) != first
        finally:
            storage.dispose()
