"""A TCP proxy the test owns, in front of the machine's PostgreSQL: how outages are made.

The machine's server is never stopped; the proxy between it and the service breaks the way
networks and databases do:

* ``forward`` — passes bytes both ways (the database is fine);
* ``refuse`` — stops listening: new connections are refused at once (the server is down);
* ``blackhole`` — accepts connections and never answers, and stops passing bytes on the open
  ones (a partition, a server that hangs): only the client's own timeouts end a wait;
* :meth:`cut` — closes every open connection, mid-request or not (a server restart).
"""

from __future__ import annotations

import select
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class FaultProxy:
    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.mode = "forward"
        # None while the proxy plays a server that is down (refuse()).
        self._listener: socket.socket | None = self._listen(0)
        self.port: int = self._listener.getsockname()[1]
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self._lock = threading.Lock()
        self._stopped = False
        threading.Thread(target=self._accept_loop, daemon=True).start()

    @staticmethod
    def _listen(port: int) -> socket.socket:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", port))
        listener.listen(64)
        listener.settimeout(0.1)
        return listener

    # --- modes ---------------------------------------------------------------------------------

    def forward(self) -> None:
        with self._lock:
            if self._listener is None:
                self._listener = self._listen(self.port)
            self.mode = "forward"

    def blackhole(self) -> None:
        with self._lock:
            if self._listener is None:
                self._listener = self._listen(self.port)
            self.mode = "blackhole"

    def refuse(self) -> None:
        """A server that went down: listening stops, and its connections are closed."""
        with self._lock:
            self.mode = "refuse"
            if self._listener is not None:
                self._listener.close()
                self._listener = None
        self.cut()

    def cut(self) -> None:
        """Close every connection now, both ways (the mode stays what it was)."""
        with self._lock:
            pairs, self._pairs = self._pairs, []
        for pair in pairs:
            for end in pair:
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                end.close()

    def stop(self) -> None:
        self._stopped = True
        self.refuse()

    # --- the pumps -----------------------------------------------------------------------------

    def _accept_loop(self) -> None:
        held: list[socket.socket] = []  # blackholed connections: accepted, never answered
        while not self._stopped:
            listener = self._listener
            if listener is None:
                threading.Event().wait(0.05)
                continue
            try:
                client, _ = listener.accept()
            except (TimeoutError, OSError):
                continue
            if self.mode == "blackhole":
                held.append(client)
                continue
            try:
                server = socket.create_connection(self.upstream, timeout=5)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._pairs.append((client, server))
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()
        for client in held:
            client.close()

    def _pump(self, client: socket.socket, server: socket.socket) -> None:
        ends = [client, server]
        try:
            while not self._stopped:
                if self.mode == "blackhole":
                    threading.Event().wait(0.05)  # nothing passes; bytes wait in the buffers
                    if client.fileno() < 0 or server.fileno() < 0:
                        return
                    continue
                readable, _, _ = select.select(ends, [], [], 0.1)
                for end in readable:
                    data = end.recv(65536)
                    if not data:
                        return
                    (server if end is client else client).sendall(data)
        except (OSError, ValueError):
            return
        finally:
            for end in ends:
                try:
                    end.close()
                except OSError:
                    pass


@contextmanager
def fault_proxy(upstream: tuple[str, int]) -> Iterator[FaultProxy]:
    proxy = FaultProxy(upstream)
    try:
        yield proxy
    finally:
        proxy.stop()
