"""Fixtures for the page tests: the service under gunicorn, and Debian's headless Chromium.

The browser is /usr/bin/chromium driven by Playwright (which never downloads a browser here).
Without it the tests are skipped — except under ``CI=true``, where a missing browser fails
them, so CI cannot pass without ever opening a page. Screenshots and PDFs go to
``tests/pages/output/`` (ignored by git), to be looked at.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import (
        Browser,
        BrowserContext,
        ConsoleMessage,
        Page,
        Request,
        Response,
        Route,
    )

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
OUTPUT = Path(__file__).resolve().parent / "output"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def serving(folder: Path, *binds: str) -> Iterator[str]:
    """The service under gunicorn (two workers, as deployed) on a free loopback port, storing
    sheets in an SQLite file of its own in ``folder``; answers its loopback address. ``binds``
    are more addresses to listen on, at the same port (``{port}`` is filled in)."""
    port = _free_port()
    log = folder / "gunicorn.log"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{folder / 'sheets.sqlite3'}",
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "WEB_CONCURRENCY": "2",
        "LOG_LEVEL": "info",
    }
    # gunicorn's command line takes precedence over gunicorn.conf.py's bind.
    extra = [f"--bind={bind.format(port=port)}" for bind in binds]
    if extra:
        extra.insert(0, f"--bind=127.0.0.1:{port}")
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "wsgi:app", *extra],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                if process.poll() is not None:
                    raise RuntimeError(f"gunicorn exited: {log.read_text()}")
                try:
                    with urllib.request.urlopen(f"{url}/healthz", timeout=2) as answer:
                        if answer.status == 200:
                            break
                except OSError:
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"gunicorn did not start: {log.read_text()}") from None
                    time.sleep(0.1)
            yield url
        finally:
            process.terminate()
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The service on a free loopback port, for a module's tests (:func:`serving`)."""
    with serving(tmp_path_factory.mktemp("pages-server")) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        message = f"no browser at {CHROMIUM} (Debian: apt-get install chromium)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI needs Chromium for the page tests; {message}")
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        try:
            yield chromium
        finally:
            chromium.close()


@dataclass
class Phone:
    """One browser context (a phone at the table) and what it asked for and complained of."""

    context: BrowserContext
    origin: str
    requests: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    #: Each request to the API: method, path and the headers that make it conditional.
    api_calls: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)
    #: The status of each answer from the API.
    api_statuses: list[int] = field(default_factory=list)

    def page(self) -> Page:
        return self.watch(self.context.new_page())

    def watch(self, page: Page) -> Page:
        """Count what ``page`` complains of (a page this phone opened itself, too)."""
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.problems.append(f"script error: {error}"))
        return page

    def _console(self, message: ConsoleMessage) -> None:
        # A refused request (a 412 or a 422 the page handles) is logged by the browser too.
        if message.type == "error" and "Failed to load resource" not in message.text:
            self.problems.append(message.text)

    def foreign_requests(self) -> list[str]:
        return [url for url in self.requests if not url.startswith(self.origin + "/")]


@pytest.fixture
def phones(browser: Browser, server: str) -> Iterator[Callable[..., Phone]]:
    """Make phones (browser contexts) of a given width; every request any of them makes is
    recorded, and none leaves the service. The pages run under the Content-Security-Policy the
    service sends (api.security): a violation is a console error, which fails the test."""
    made: list[Phone] = []

    def phone(
        width: int = 360, height: int = 780, *, touch: bool = False, locale: str | None = None
    ) -> Phone:
        """A browser context of this size; with ``touch``, a phone's: touch, twice the pixels."""
        screen: dict[str, Any] = {"viewport": {"width": width, "height": height}}
        if touch:
            screen.update(has_touch=True, is_mobile=True, device_scale_factor=2)
        if locale is not None:
            screen["locale"] = locale
        context = browser.new_context(**screen)
        made.append(result := Phone(context, server))

        def record(request: Request) -> None:
            result.requests.append(request.url)
            if request.url.startswith(f"{server}/v1/"):
                headers = request.headers
                kept = ("if-match", "if-none-match", "authorization", "idempotency-key")
                conditional = {name: headers[name] for name in kept if name in headers}
                result.api_calls.append((request.method, request.url[len(server) :], conditional))

        def answered(response: Response) -> None:
            if response.url.startswith(f"{server}/v1/"):
                result.api_statuses.append(response.status)

        context.on("request", record)
        context.on("response", answered)

        def only_the_service(route: Route) -> None:
            if not route.request.url.startswith(server + "/"):
                route.abort()  # recorded above, and refused: the table may have no internet
                return
            route.continue_()

        context.route("**/*", only_the_service)
        return result

    yield phone
    for each in made:
        each.context.close()


@pytest.fixture(scope="session")
def output() -> Path:
    OUTPUT.mkdir(exist_ok=True)
    return OUTPUT
