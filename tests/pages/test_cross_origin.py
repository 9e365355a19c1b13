"""A web app on another origin calls the API from Chromium (docs/api.md, "Browsers and other
origins"): a page served by a tiny static server on one loopback port creates a sheet, records a
round with If-Match and the token (both preflighted), reads the ETag and Location from its
script, and meets a 412 it can read. A server narrowed by CORS_ORIGINS serves that page's origin
and refuses another's."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from tests.servers import sqlite_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

PAGE = b"<!doctype html><html lang='en'><title>another app</title><p>scores</p></html>"

#: What the other app's script does: a whole read-modify-write, as fetch sees it.
SCRIPT = """
async (api) => {
  const seen = {};
  const created = await fetch(`${api}/v1/matches`, {
    method: "POST",
    headers: {"Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID()},
    body: JSON.stringify({ruleset: "liverpool", players: ["Ann", "Bob", "Cleo"]}),
  });
  const sheet = await created.json();
  seen.created = [created.status, created.headers.get("ETag"), created.headers.get("Location")];
  const round = {results: [{seat: 0, went_out: true}, {seat: 1, points: 35}, {seat: 2, points: 5}]};
  const write = (etag) => fetch(`${api}/v1/matches/${sheet.id}/rounds/1`, {
    method: "PUT",
    headers: {"Content-Type": "application/json", "Authorization": `Bearer ${sheet.edit_token}`,
              "If-Match": etag},
    body: JSON.stringify(round),
  });
  const put = await write(seen.created[1]);
  seen.put = [put.status, put.headers.get("ETag"), (await put.json()).version];
  const stale = await write(seen.created[1]);
  seen.stale = [stale.status, stale.headers.get("ETag"), stale.headers.get("Content-Type"),
                (await stale.json()).status];
  const read = await fetch(`${api}/v1/matches/${sheet.id}`, {headers: {"If-None-Match": seen.put[1]}});
  seen.read = [read.status, read.headers.get("ETag")];
  const gone = await fetch(`${api}/v1/matches/${sheet.id}`, {
    method: "DELETE",
    headers: {"Authorization": `Bearer ${sheet.edit_token}`, "If-Match": seen.put[1]},
  });
  seen.deleted = gone.status;
  return seen;
}
"""


class _Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def origins() -> Iterator[list[str]]:
    """Two static sites on loopback ports of their own: two origins other than the API's."""
    servers = [http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Page) for _ in range(2)]
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    yield [f"http://127.0.0.1:{server.server_address[1]}" for server in servers]
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def narrowed(tmp_path_factory: pytest.TempPathFactory, origins: list[str]) -> Iterator[str]:
    """The API under gunicorn with CORS_ORIGINS naming the first origin only."""
    folder = tmp_path_factory.mktemp("cors-server")
    with sqlite_server(folder, env={"CORS_ORIGINS": origins[0]}) as server:
        yield server.url


def _run(browser: Browser, origin: str, api: str) -> Any:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{origin}/")
        return page.evaluate(SCRIPT, api)
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.server
def test_a_web_app_on_another_origin_keeps_score(
    browser: Browser, server: str, origins: list[str]
) -> None:
    seen = _run(browser, origins[0], server)
    assert seen["created"][0] == 201 and seen["created"][1] == '"1"'
    assert seen["created"][2].startswith("/v1/matches/")
    assert seen["put"] == [200, '"2"', 2]
    assert seen["stale"] == [412, '"2"', "application/problem+json", 412]
    assert seen["read"] == [304, '"2"']
    assert seen["deleted"] == 204


@pytest.mark.browser
@pytest.mark.server
def test_cors_origins_lets_one_origin_in_and_keeps_another_out(
    browser: Browser, narrowed: str, origins: list[str]
) -> None:
    seen = _run(browser, origins[0], narrowed)
    assert seen["put"] == [200, '"2"', 2] and seen["deleted"] == 204
    with pytest.raises(Exception, match="Failed to fetch"):
        _run(browser, origins[1], narrowed)
