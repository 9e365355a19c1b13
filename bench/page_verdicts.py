"""Benchmark: from the last tap to the verdict on the page, in Chromium at a phone's size.

Starts the project (``gunicorn -w 2 wsgi:app``, SQLite) on a free loopback port and opens
``/check`` (a contract of Liverpool's round 2) and ``/hand`` (a hand of ten cards) in headless
Chromium at 360 px with touch. Each sample taps one card in (or takes it off again) and times,
in the page's own clock, the tap until the page says the verdict is shown (``aria-busy`` leaves
the verdict's line). The baseline, measured in the same run and the same page, is the API's
answer alone: the body the page sent, fetched again from the page's script. The goal: a verdict
within 300 ms of the last tap on the local network. The page waits ``SETTLE_MS`` (120 ms, in
``referee.js``) after a tap before it asks, so that quick taps make one question; that wait is
in the figures. Then prints each page's weight with everything it loads (under 100 KB).

    .venv/bin/python bench/page_verdicts.py [--samples 40]

Needs Chromium at /usr/bin/chromium (Debian: ``apt-get install chromium``) and Playwright.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import urllib.request
from contextlib import ExitStack
from pathlib import Path

from harness import gunicorn
from http_pages import weight
from playwright.sync_api import Page, sync_playwright

GOAL_MS = 300
CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: Each page, the address it opens, the API it asks, and the card tapped in and out.
PAGES = {
    "check a contract": (
        "/check?ruleset=liverpool&round=2&melds=7H.7S.7D,4H.5H.JK",
        "/v1/checks/contract",
        "melds.1",
        "7H",
    ),
    "what a hand needs": (
        "/hand?ruleset=liverpool&round=2&hand=7H.7S.8D.8H.9H.JK.2C.KD.KS",
        "/v1/hands/analysis",
        "hand",
        "4H",
    ),
}

#: Taps a button and resolves with the milliseconds until the verdict's line is no longer busy.
TAP_TO_VERDICT = """async (selector) => {
  const line = document.getElementById("verdict-line");
  const shown = new Promise((resolve) => {
    const watch = new MutationObserver(() => {
      if (!line.hasAttribute("aria-busy")) { watch.disconnect(); resolve(performance.now()); }
    });
    watch.observe(line, { attributes: true, attributeFilter: ["aria-busy"] });
  });
  const tapped = performance.now();
  document.querySelector(selector).click();
  return (await shown) - tapped;
}"""

#: The baseline: the same question asked from the page's script, answer read.
FETCH = """async ([path, body]) => {
  const started = performance.now();
  const answer = await fetch(path, { method: "POST", body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", Accept: "application/json" } });
  await answer.json();
  return performance.now() - started;
}"""


def _ready(url: str) -> urllib.request.Request:
    return urllib.request.Request(url + "/healthz")


def measure(
    page: Page, path: str, place: str, card: str, samples: int
) -> tuple[list[float], list[float]]:
    """Tap-to-verdict and the API's answer alone, in milliseconds, ``samples`` of each."""
    taps: list[float] = []
    answers: list[float] = []
    bodies: list[object] = []
    page.on(
        "request",
        lambda request: (
            bodies.append(request.post_data_json) if request.url.endswith(path) else None
        ),
    )
    page.click(f"[data-place='{place}'] .place-choose")  # where the tapped card goes
    for sample in range(samples):
        if sample % 2 == 0:
            selector = f"#card-grid [data-card='{card}']"
        else:
            selector = f"[data-place='{place}'] li:last-child [data-remove]"
        taps.append(float(page.evaluate(TAP_TO_VERDICT, selector)))
        answers.append(float(page.evaluate(FETCH, [path, bodies[-1]])))
    return taps, answers


def _summary(name: str, values: list[float]) -> str:
    return f"  {name:<18} median {statistics.median(values):7.1f} ms   max {max(values):7.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=40, help="taps per page")
    args = parser.parse_args()
    with ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        database = {"DATABASE_URL": f"sqlite:///{workdir / 'sheets.sqlite3'}"}
        url = stack.enter_context(gunicorn("project", "wsgi:app", _ready, env=database))
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        stack.callback(browser.close)
        context = browser.new_context(
            viewport={"width": 360, "height": 780}, device_scale_factor=2, has_touch=True
        )
        print(f"tap to verdict in Chromium at 360 px, {args.samples} taps a page")
        for name, (address, path, place, card) in PAGES.items():
            page = context.new_page()
            page.goto(url + address)
            page.wait_for_function(
                "() => !document.getElementById('verdict-line').hasAttribute('aria-busy')"
                " && document.getElementById('verdict-line').textContent !== ''"
            )
            taps, answers = measure(page, path, place, card, args.samples)
            print(f"{name} ({address.split('?')[0]})")
            print(_summary("tap to verdict", taps))
            print(_summary("the API alone", answers))
            verdict = "met" if statistics.median(taps) <= GOAL_MS else "NOT met"
            print(f"  goal: a verdict within {GOAL_MS} ms of the last tap (median): {verdict}")
            page.close()
        for address in ("/check", "/hand"):
            total = weight(url, address)
            under = "under" if total < 100 * 1024 else "NOT under"
            print(f"{address}: {total} bytes with everything it loads ({under} 100 KB)")


if __name__ == "__main__":
    main()
