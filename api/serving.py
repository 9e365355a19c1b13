"""How gunicorn serves the app: each request read whole before a thread is given it, and what
gunicorn answers on its own as problem documents.

**Crowds of idle and slow connections.** gunicorn's threaded worker (``gthread``) gives each new
connection a thread that waits up to 5 s for its first byte, and a thread reading a request
holds it until the last byte has arrived: 64 idle sockets, or 100 phones on a flaky Wi-Fi
sending their requests a byte at a time, and nobody else was answered. :class:`ProblemWorker`
reads every request in the worker's main loop instead — the loop that already watches every
kept-alive connection, with the same non-blocking socket and poller — and gives it to a thread
only once it has arrived whole: its head, and its body when it has a ``Content-Length`` within
``MAX_CONTENT_LENGTH`` or a chunked body's last chunk. An idle connection or a slow one costs a
socket and its bytes so far, never a thread, as behind a buffering proxy (nginx does the same,
and is still what goes in front on the open internet: docs/deploy.md). A request that falls
silent for ``REQUEST_READ_TIMEOUT`` seconds, or has not arrived within ``timeout`` (gunicorn's
worker timeout, 30 s), is answered then: a connection that sent nothing is closed, a head that
never ended is a ``408``, and a body shorter than its ``Content-Length`` a ``400``, in the
language its head asked for and in the app's words.
Under TLS (gunicorn's own ``certfile``, which this service leaves to the proxy) gunicorn's own
way is kept.

**Refusals.** gunicorn refuses some requests itself — a request line longer than
``limit_request_line`` (414), headers past ``limit_request_fields`` or
``limit_request_field_size`` (431), a request line or header it cannot parse (400) — and writes
an HTML page for each. The API promises ``application/problem+json`` for every error, so
:class:`ProblemWorker`'s ``handle_error`` writes those answers as problem documents of the same
shape as :func:`api.errors.problem`'s.

The detail says what kind of request it was, never the request itself: a request line can hold
a token in its query string, and neither the answer nor the log repeats it.
"""

from __future__ import annotations

import errno
import json
import re
import socket
import time
from http import HTTPStatus
from typing import Any

from gunicorn import util
from gunicorn.http import errors
from gunicorn.workers.gthread import TConn, ThreadWorker

from rules.i18n import N_, Phrase

from . import i18n
from .config import Config
from .errors import PROBLEM_JSON, problem_body, title
from .security import HEADERS

#: The status of each kind of request gunicorn refuses; any other it cannot read is a 400.
STATUSES: dict[type[Exception], int] = {
    errors.LimitRequestLine: 414,
    errors.LimitRequestHeaders: 431,
    errors.ExpectationFailed: 417,
    errors.UnsupportedTransferCoding: 501,
    errors.ForbiddenProxyRequest: 403,
}
#: What gunicorn's worker treats as the client's fault; anything else is the server's (500).
CLIENT_ERRORS = (errors.ParseException, errors.NoMoreData)
#: gunicorn's own faults among its parse errors: a header the app tried to send.
SERVER_ERRORS = (errors.InvalidResponseHeader, errors.InvalidResponseHeaderName)


def problem_bytes(status: int, detail: str, language: str = "en") -> bytes:
    """A whole HTTP/1.1 response: a problem document, and the connection closed after it.

    Most are written before any request header is read: in English, unless the request's
    ``Accept-Language`` was read and chose ``language``.
    """
    phrase = HTTPStatus(status).phrase
    body = json.dumps(problem_body(status, title(status, language), detail)).encode("ascii")
    head = (
        f"HTTP/1.1 {status} {phrase}\r\n"
        "Connection: close\r\n"
        f"Content-Type: {PROBLEM_JSON}\r\n"
        f"Content-Language: {language}\r\n"
        "Vary: Accept-Language\r\n"
        f"Content-Length: {len(body)}\r\n"
        + "".join(f"{name}: {value}\r\n" for name, value in HEADERS.items())
        + "\r\n"
    )
    return head.encode("latin-1") + body


def kind_of(error: Exception) -> str:
    """What kind of request gunicorn could not read, in words (``InvalidRequestLine`` →
    ``invalid request line``, ``InvalidHTTPVersion`` → ``invalid http version``)."""
    return re.sub(
        r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", type(error).__name__
    ).lower()


def refusal(error: Exception) -> tuple[int, str]:
    """The status and detail of a request gunicorn refused."""
    if isinstance(error, SERVER_ERRORS) or not isinstance(error, CLIENT_ERRORS):
        return 500, "the server could not answer this request"
    status = next((code for kind, code in STATUSES.items() if isinstance(error, kind)), 400)
    return status, f"the request cannot be read as HTTP: {kind_of(error)}"


# --- a request, arriving ----------------------------------------------------------------------

_CONTENT_LENGTH = re.compile(rb"\ncontent-length[ \t]*:[ \t]*([0-9]+)[ \t]*(?:\r?\n|$)")
_ACCEPT_LANGUAGE = re.compile(rb"\naccept-language[ \t]*:([^\r\n]*)", re.IGNORECASE)
#: What a head holds beyond its request line and fields: line ends and the blank line.
_HEAD_SLACK = 8


def arrived_whole(received: bytes | bytearray, body_limit: int, head_limit: int) -> bool:
    """Whether ``received`` holds a whole request, or as much of one as is worth waiting for.

    A head must end (``CRLF CRLF``), then its body arrive: all ``Content-Length`` bytes, or a
    chunked body's last chunk. A request gunicorn or the app will refuse without reading on —
    a head longer than gunicorn takes, a body larger than ``body_limit``, two lengths, a client
    waiting for ``100 Continue`` — is whole as soon as that is known.

    >>> arrived_whole(b"GET / HTTP/1.1\\r\\nHost: x\\r\\n", 10, 100)
    False
    >>> arrived_whole(b"GET / HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n", 10, 100)
    True
    >>> arrived_whole(b"POST / HTTP/1.1\\r\\nContent-Length: 4\\r\\n\\r\\n{}", 10, 100)
    False
    >>> arrived_whole(b"POST / HTTP/1.1\\r\\nContent-Length: 40\\r\\n\\r\\n{}", 10, 100)
    True
    """
    end = received.find(b"\r\n\r\n")
    if end < 0:
        return len(received) > head_limit
    head, body = bytes(received[:end]).lower(), len(received) - end - 4
    if b"\nexpect:" in head:
        return True
    if b"\ntransfer-encoding:" in head:
        return received.endswith(b"0\r\n\r\n") or body > body_limit
    lengths = _CONTENT_LENGTH.findall(head + b"\n")
    if not lengths:
        return True
    if len(lengths) > 1:
        return True
    wanted = int(lengths[0])
    return wanted > body_limit or body >= wanted


class Arrival:
    """The bytes of one request received so far, and when they began and last came."""

    __slots__ = ("began", "heard", "received")

    def __init__(self, now: float) -> None:
        self.received = bytearray()
        self.began = now
        self.heard = now


class ProblemWorker(ThreadWorker):  # type: ignore[misc]
    """gunicorn's threaded worker (``gthread``), reading each request whole in its main loop
    before a thread serves it, and answering what it refuses itself as problem documents."""

    #: Bytes read from a socket at a time in the main loop.
    READ_SIZE = 65536

    def init_process(self) -> None:
        config = Config()
        #: A request's body is read whole up to the app's limit; a larger one is refused.
        self.body_limit = config.MAX_CONTENT_LENGTH
        #: Seconds a request may fall silent before it is answered, or the connection closed.
        self.quiet_limit = float(config.REQUEST_READ_TIMEOUT)
        #: Seconds a request may take to arrive whole, however steadily it trickles.
        self.arrival_limit = float(self.cfg.timeout or 30)
        self.head_limit = (
            (self.cfg.limit_request_fields or 100)
            * ((self.cfg.limit_request_field_size or 8190) + 2)
            + (self.cfg.limit_request_line or 8190)
            + _HEAD_SLACK
        )
        #: The connections whose request is arriving, in the order they began.
        self.arriving: dict[Any, Arrival] = {}
        super().init_process()

    # --- connections, before their request has arrived ------------------------------------------

    def accept(self, listener: socket.socket) -> None:
        if self.cfg.is_ssl:  # the handshake is gunicorn's, in a thread
            super().accept(listener)
            return
        try:
            client, address = listener.accept()
        except OSError as error:
            if error.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        self.nr_conns += 1
        self._await_request(TConn(self.cfg, client, address, listener.getsockname()))

    def on_client_socket_readable(self, conn: Any, client: socket.socket) -> None:
        """A kept-alive connection's next request has begun: it arrives here too."""
        if self.cfg.is_ssl:
            super().on_client_socket_readable(conn, client)
            return
        self.poller.unregister(client)
        self.keepalived_conns.remove(conn)
        self._await_request(conn)

    def _await_request(self, conn: Any) -> None:
        conn.sock.setblocking(False)
        self.arriving[conn] = Arrival(time.monotonic())
        self.poller.register(conn.sock, 1, lambda sock: self._on_bytes(conn))  # EVENT_READ

    def _on_bytes(self, conn: Any) -> None:
        arrival = self.arriving.get(conn)
        if arrival is None:
            return
        try:
            data = conn.sock.recv(self.READ_SIZE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:  # the client left before its request was whole
            self._drop(conn)
            return
        arrival.received += data
        arrival.heard = time.monotonic()
        if arrived_whole(arrival.received, self.body_limit, self.head_limit):
            self._serve(conn)

    def _stop_waiting(self, conn: Any) -> Arrival:
        arrival = self.arriving.pop(conn)
        try:
            self.poller.unregister(conn.sock)
        except (KeyError, ValueError, OSError):
            pass
        return arrival

    def _serve(self, conn: Any) -> None:
        """Give the request to a thread, with every byte of it received so far."""
        conn.arrived = bytes(self._stop_waiting(conn).received)
        self.enqueue_req(conn)

    def _drop(self, conn: Any, answer: bytes = b"") -> None:
        self._stop_waiting(conn)
        if answer:
            try:
                conn.sock.send(answer)
            except OSError:
                pass
        self.nr_conns -= 1
        conn.close()

    def murder_pending(self) -> None:
        """Besides gunicorn's own, answer each request that fell silent or took too long."""
        super().murder_pending()
        now = time.monotonic()
        for conn, arrival in list(self.arriving.items()):
            if now - arrival.heard < self.quiet_limit and now - arrival.began < self.arrival_limit:
                continue
            if not arrival.received:
                self._drop(conn)
            elif b"\r\n\r\n" in arrival.received:
                self._drop(conn, self._body_stalled(arrival.received))
            else:
                detail = "the request's head did not arrive in time"
                self._drop(conn, problem_bytes(408, detail))

    def _body_stalled(self, received: bytes | bytearray) -> bytes:
        """The 400 of a body that stopped short of its length, in the language its head asked
        for: the words the app says it in."""
        head = bytes(received[: received.find(b"\r\n\r\n")])
        asked = _ACCEPT_LANGUAGE.search(head)
        language = i18n.choose(asked[1].decode("latin-1").strip() if asked else "")
        detail = i18n.language(language_code=language).phrase(
            Phrase(
                N_("the request body ended before its Content-Length, or stalled for {seconds} s"),
                {"seconds": int(self.quiet_limit)},
            )
        )
        return problem_bytes(400, detail, language)

    def handle(self, conn: Any) -> Any:
        """Serve a request in a thread, from the bytes the main loop received first."""
        arrived = getattr(conn, "arrived", None)
        if arrived is not None:
            conn.arrived = None
            conn.sock.setblocking(True)
            conn.init()
            conn.parser.unreader.unread(arrived)
        return super().handle(conn)

    # --- refusals ---------------------------------------------------------------------------

    def handle_error(self, req: Any, client: socket.socket, addr: Any, exc: Exception) -> None:
        status, detail = refusal(exc)
        if status == 500:
            self.log.exception("error handling a request")
        else:
            self.log.warning("refused a request from %s: %s", (addr or ("",))[0], kind_of(exc))
        try:
            util.write_nonblock(client, problem_bytes(status, detail))
        except Exception:  # the client went away: nothing is left to answer
            self.log.debug("failed to send error message")


__all__ = ["ProblemWorker", "arrived_whole", "problem_bytes", "refusal"]
