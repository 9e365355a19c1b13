"""Draw the pages' app icons (PNG) from api/pages/static/icon.svg, with the headless Chromium
the page tests use; run again whenever icon.svg changes, and commit what it writes:

    .venv/bin/python bin/make-icons.py

A phone's home screen and the install prompt want PNGs of fixed sizes (the web app manifest
lists them): 192 and 512 px as drawn, and a "maskable" 512 px one, whose drawing keeps to the
middle circle (80 % of the width) that every launcher's mask leaves whole, on the header's tint.
"""

from __future__ import annotations

import base64
from pathlib import Path

from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parent.parent / "api" / "pages" / "static"
CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run"]
#: The header's tint in light (pages.css --tint), behind the maskable icon.
TINT = "#eef2f7"
#: The drawing's farthest point from the middle of its 32-unit square is about 20.2 units
#: away: drawn 324 px wide, it stays inside the 204.8 px safe circle of a 512 px icon.
MASKABLE_DRAWING = 324


def page_html(svg: str, size: int, drawing: int, background: str) -> str:
    source = "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()
    return (
        "<!doctype html><html><body style='margin:0'>"
        f"<div style='width:{size}px;height:{size}px;background:{background};"
        "display:flex;align-items:center;justify-content:center'>"
        f"<img src='{source}' width='{drawing}' height='{drawing}'></div></body></html>"
    )


def main() -> None:
    svg = (STATIC / "icon.svg").read_text()
    icons = {
        "icon-192.png": (192, 192, "transparent"),
        "icon-512.png": (512, 512, "transparent"),
        "icon-maskable-512.png": (512, MASKABLE_DRAWING, TINT),
    }
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            for name, (size, drawing, background) in icons.items():
                page = browser.new_page(viewport={"width": size, "height": size})
                page.set_content(page_html(svg, size, drawing, background))
                page.screenshot(path=str(STATIC / name), omit_background=True)
                page.close()
                print(f"wrote {STATIC / name}")
        finally:
            browser.close()


if __name__ == "__main__":
    main()
