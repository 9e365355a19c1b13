"""The deployment of docs/deploy.md, started on this machine: nginx (Debian's package, with
deploy/rummy-referee.nginx.conf) buffering TLS in front of two gunicorn instances on one
PostgreSQL, counting their limits in one Redis.

Through it: phones racing to write rounds with If-Match on the same sheets while one instance
is killed, and 300 slow clients holding connections meanwhile. Every acknowledged round is
stored exactly once, the phones are answered promptly, and the address the rate limits count
is the client's own as nginx saw it — a forged X-Forwarded-For is never believed.

nginx runs as a process this test owns: its own prefix, configuration, temporary folders and
log, on a free loopback port; the machine's nginx service is never touched.
"""

from __future__ import annotations

import datetime
import http.client
import ipaddress
import json
import os
import secrets
import signal
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from test_sheets_servers import results_for

from api.storage import migrate
from tests.servers import ROOT, Server, free_port

pytestmark = [pytest.mark.server, pytest.mark.postgres]

NGINX = Path("/usr/sbin/nginx")
SITE = ROOT / "deploy" / "rummy-referee.nginx.conf"
PHONES, SHEETS, ROUNDS = 8, 4, 7
SLOW_CLIENTS = 300
#: The client's own address: nginx sees it, and the instances must count by it.
CLIENT = "127.0.0.3"


def certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1, as the deployment's Let's Encrypt one."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    made = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    cert, private = folder / "cert.pem", folder / "key.pem"
    cert.write_bytes(made.public_bytes(serialization.Encoding.PEM))
    private.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert, private


def site_config(ports: list[int], listen: int, cert: Path, key: Path) -> str:
    """deploy's site, its ports and certificate the test's own; nothing else changed."""
    text = SITE.read_text()
    for default, port in zip(("127.0.0.1:8001", "127.0.0.1:8002"), ports, strict=True):
        assert default in text
        text = text.replace(default, f"127.0.0.1:{port}")
    replacements = {
        "listen 443 ssl http2;": f"listen 127.0.0.1:{listen} ssl http2;",
        "listen 80;": f"listen 127.0.0.1:{free_port()};",
        "/etc/letsencrypt/live/rummy.example.org/fullchain.pem": str(cert),
        "/etc/letsencrypt/live/rummy.example.org/privkey.pem": str(key),
    }
    for old, new in replacements.items():
        assert old in text, old
        text = text.replace(old, new)
    return text


@pytest.fixture(scope="module")
def topology(tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> Iterator[dict[str, Any]]:
    if not NGINX.exists():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI needs nginx (.ci/run installs it)")
        pytest.skip("no nginx: apt-get install -y nginx")
    from tests.conftest import scratch_postgres

    folder = tmp_path_factory.mktemp("deployment")
    with scratch_postgres() as database:
        migrate(database)
        prefix = f"rummy-test-{secrets.token_hex(6)}"
        env = {
            "RATELIMIT_ENABLED": "1",
            "RATELIMIT_STORAGE_URI": redis_url,
            "RATELIMIT_KEY_PREFIX": prefix,
            "FORWARDED_ALLOW_IPS": "127.0.0.1",
        }
        instances = [Server(database, 2, folder / f"instance-{n}.log", env) for n in range(2)]
        nginx: subprocess.Popen[bytes] | None = None
        try:
            for instance in instances:
                instance.wait_ready()
            cert, key = certificate(folder)
            listen = free_port()
            (folder / "site.conf").write_text(
                site_config([i.port for i in instances], listen, cert, key)
            )
            temp = "\n".join(
                f"    {kind}_temp_path {folder / kind};"
                for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
            )
            (folder / "nginx.conf").write_text(
                f"daemon off;\nworker_processes 1;\npid {folder / 'nginx.pid'};\n"
                f"error_log {folder / 'error.log'} warn;\n"
                "events { worker_connections 2048; }\n"
                f"http {{\n{temp}\n    include {folder / 'site.conf'};\n}}\n"
            )
            nginx = subprocess.Popen(
                [
                    str(NGINX),
                    "-p",
                    str(folder),
                    "-c",
                    str(folder / "nginx.conf"),
                    "-e",
                    str(folder / "error.log"),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.STDOUT,
            )
            deadline = time.monotonic() + 15
            while True:
                try:
                    if request(listen, "GET", "/healthz")[0] == 200:
                        break
                except OSError:
                    pass
                assert nginx.poll() is None, (folder / "error.log").read_text()
                assert time.monotonic() < deadline, "nginx did not answer"
                time.sleep(0.1)
            yield {"port": listen, "instances": instances, "prefix": prefix, "redis": redis_url}
        finally:
            if nginx is not None and nginx.poll() is None:
                nginx.send_signal(signal.SIGQUIT)
                try:
                    nginx.wait(10)
                except subprocess.TimeoutExpired:
                    nginx.kill()
                    nginx.wait(5)
            for instance in instances:
                instance.stop()


CONTEXT = ssl.create_default_context()
CONTEXT.check_hostname = False
CONTEXT.verify_mode = ssl.CERT_NONE


def request(
    port: int, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], Any]:
    """One HTTPS request through nginx, from the client's own address."""
    connection = http.client.HTTPSConnection(
        "127.0.0.1", port, timeout=30, context=CONTEXT, source_address=(CLIENT, 0)
    )
    try:
        payload = None if body is None else json.dumps(body)
        sent = {"Content-Type": "application/json"} if payload else {}
        connection.request(method, path, body=payload, headers={**sent, **(headers or {})})
        answer = connection.getresponse()
        raw = answer.read()
        kind = answer.getheader("Content-Type") or ""
        data = json.loads(raw) if raw and "json" in kind else None
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, data
    finally:
        connection.close()


def kill_instance(server: Server) -> None:
    """kill -9 of a whole instance, its workers and its master."""
    found = subprocess.run(
        ["pgrep", "-P", str(server.process.pid)], capture_output=True, text=True, check=False
    )
    for pid in [int(p) for p in found.stdout.split()] + [server.process.pid]:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    server.process.wait(10)


def slow_clients(port: int, stop: threading.Event, opened: list[socket.socket]) -> None:
    """SLOW_CLIENTS TLS connections sending a request's head a byte a second."""
    head = b"GET /v1/rulesets HTTP/1.1\r\nHost: x\r\nX-Padding: " + b"p" * 100 + b"\r\n\r\n"
    for _ in range(SLOW_CLIENTS):
        raw = socket.create_connection(("127.0.0.1", port), timeout=10)
        opened.append(CONTEXT.wrap_socket(raw))
    sent = 0
    while not stop.wait(1.0) and sent < len(head):
        for sock in opened:
            try:
                sock.sendall(head[sent : sent + 1])
            except OSError:
                pass
        sent += 1


def test_racing_phones_slow_clients_and_a_killed_instance(topology: dict[str, Any]) -> None:
    port = topology["port"]
    stop, opened = threading.Event(), list[socket.socket]()
    crowd = threading.Thread(target=slow_clients, args=(port, stop, opened), daemon=True)
    crowd.start()
    made = [
        request(port, "POST", "/v1/matches", {"ruleset": "liverpool", "players": list("ABCD")})
        for _ in range(SHEETS)
    ]
    assert [status for status, _, _ in made] == [201] * SHEETS, made
    sheets = [sheet for _, _, sheet in made]
    acknowledged: dict[str, list[int]] = {sheet["id"]: [] for sheet in sheets}
    slowest = [0.0]
    errors: list[BaseException] = []
    lock = threading.Lock()

    def phone(sheet: dict[str, Any]) -> None:
        path = f"/v1/matches/{sheet['id']}"
        token = {"Authorization": f"Bearer {sheet['edit_token']}"}
        try:
            for _ in range(300):  # bounded: far more tries than 7 rounds can need
                try:
                    started = time.monotonic()
                    status, headers, current = request(port, "GET", path)
                    if status != 200:
                        continue  # the instance went away under this request: read again
                    played = sum(1 for r in current["rounds"] if r["status"] == "played")
                    if played == ROUNDS:
                        return
                    put = {**token, "If-Match": headers["etag"]}
                    body = {"results": results_for(played + 1)}
                    status, _, _ = request(port, "PUT", f"{path}/rounds/{played + 1}", body, put)
                    with lock:
                        slowest[0] = max(slowest[0], time.monotonic() - started)
                        if status == 200:
                            acknowledged[sheet["id"]].append(played + 1)
                    assert status in (200, 412, 409, 502, 503), status
                except OSError:
                    continue
        except BaseException as error:  # surfaced in the main thread
            errors.append(error)

    phones = [threading.Thread(target=phone, args=(sheets[n % SHEETS],)) for n in range(PHONES)]
    try:
        for thread in phones:
            thread.start()
        time.sleep(1.0)
        kill_instance(topology["instances"][0])  # mid-evening, with writes in flight
        for thread in phones:
            thread.join(120)
    finally:
        stop.set()
        crowd.join(10)
        for sock in opened:
            sock.close()
    assert not errors, errors
    assert len(opened) == SLOW_CLIENTS
    for sheet in sheets:
        status, _, stored = request(port, "GET", f"/v1/matches/{sheet['id']}")
        assert status == 200
        played = [r["number"] for r in stored["rounds"] if r["status"] == "played"]
        # Nothing acknowledged is lost, nothing is recorded twice. A round whose answer died
        # with the killed instance may be stored unacknowledged: the phone read it back.
        acked = acknowledged[sheet["id"]]
        assert len(acked) == len(set(acked)) and set(acked) <= set(played), (acked, played)
        assert played == list(range(1, ROUNDS + 1))
        assert stored["version"] == 1 + ROUNDS
    assert slowest[0] < 10, f"a phone's read and write took {slowest[0]:.1f} s"


def test_the_limits_count_the_clients_own_address(topology: dict[str, Any]) -> None:
    import redis

    forged = {"X-Forwarded-For": "203.0.113.9"}
    body = {"ruleset": "liverpool", "players": list("ABC")}
    status, headers, _ = request(topology["port"], "POST", "/v1/matches", body, forged)
    assert status == 201 and int(headers["x-ratelimit-remaining"]) >= 0
    # Sent straight to an instance from an address that is not the proxy's: not believed.
    direct = topology["instances"][1]
    connection = http.client.HTTPConnection(
        "127.0.0.1", direct.port, timeout=10, source_address=("127.0.0.4", 0)
    )
    connection.request(
        "POST", "/v1/matches", json.dumps(body), {**forged, "Content-Type": "application/json"}
    )
    assert connection.getresponse().status == 201
    connection.close()
    client = redis.Redis.from_url(topology["redis"])
    try:
        keys = [key.decode() for key in client.scan_iter(f"*{topology['prefix']}*")]
    finally:
        client.close()
    counted = {
        address
        for key in keys
        for address in (CLIENT, "127.0.0.4", "203.0.113.9", "127.0.0.1")
        if f"/{address}/" in key
    }
    assert counted == {CLIENT, "127.0.0.4"}, keys


def test_behind_https_the_cookies_are_secure(topology: dict[str, Any]) -> None:
    """nginx says the request came over HTTPS (X-Forwarded-Proto), and the instances believe it
    from nginx: the pages' language cookie is Secure."""
    status, headers, _ = request(topology["port"], "GET", "/?lang=de")
    assert status == 200
    assert "lang=de" in headers["set-cookie"] and "Secure" in headers["set-cookie"]
