"""The shape of a WSGI layer that adds to the headers an answer starts with.

The headers every answer carries (its language, the security policy) are added where the
server's list of headers is at hand, when the answer starts: through werkzeug's ``Headers`` in
``after_request`` hooks the security headers cost a contract check about a tenth of its time
and the language's two about 6%, and a hook does not see every answer (a refusal made in
another hook).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment


class HeaderLayer:
    """WSGI middleware around ``wsgi_app`` that lets :meth:`edit` change every answer's list
    of headers as the answer starts."""

    def __init__(self, wsgi_app: WSGIApplication) -> None:
        self.wsgi_app = wsgi_app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        def start(
            status: str, headers: list[tuple[str, str]], exc_info: Any = None
        ) -> Callable[[bytes], object]:
            self.edit(headers)
            return start_response(status, headers, exc_info)

        return self.wsgi_app(environ, start)

    def edit(self, headers: list[tuple[str, str]]) -> None:
        """Change ``headers`` in place (called while the request's context is still current)."""
        raise NotImplementedError
