"""The pages' colours, light and dark: every page, in every language, in both, checked by axe in
Chromium (light on a desktop, dark on a phone); the variables' contrasts computed from the
stylesheets themselves; and screenshots of both, to be looked at."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest

from tests.pages.test_app_shell import NAMES, ROUNDS, new_sheet

STATIC = Path(__file__).resolve().parents[2] / "api" / "pages" / "static"
LANGUAGES = ["en", "de", "nl", "it", "nb"]
PAGES = {
    "start": "/",
    "blank-sheet": "/rulesets/liverpool/sheet",
    "rules": "/rulesets/liverpool",
    "check": "/check",
    "hand": "/hand",
    "sheet": "/m/{sheet}",
}
PLAYERS = [f"--player-{seat}" for seat in range(8)]
#: The pages whose scripts ask the API before the page is whole.
ASKING = {"check", "hand", "sheet"}


def variables(stylesheet: str) -> dict[str, str]:
    """The custom properties the stylesheet's first :root rule sets."""
    text = (STATIC / stylesheet).read_text()
    found = re.search(r":root \{(.*?)\}", text, re.S)
    assert found is not None, stylesheet
    return dict(re.findall(r"(--[\w-]+):\s*([^;]+);", found[1]))


def luminance(colour: str) -> float:
    assert re.fullmatch(r"#[0-9a-f]{6}", colour), colour

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = (channel(int(colour[i : i + 2], 16)) for i in (1, 3, 5))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(one: str, other: str) -> float:
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


LIGHT = variables("pages.css")
DARK = {**LIGHT, **variables("dark.css")}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_each_colour_reads_on_the_page_and_its_tint(scheme: str) -> None:
    """Texts at least 7:1 (a phone read in sunlight), a player's colour at least 4.5:1 as text
    or as a line, on the page and on the tint of headers and table heads."""
    colours = LIGHT if scheme == "light" else DARK
    for background in ("--paper", "--tint"):
        for name in ("--ink", "--muted", "--accent", "--error", "--good", "--red-suit"):
            assert contrast(colours[name], colours[background]) >= 7, (name, background)
        for name in PLAYERS:
            assert contrast(colours[name], colours[background]) >= 4.5, (name, background)
    assert contrast(colours["--accent-ink"], colours["--accent"]) >= 7
    assert contrast(colours["--error"], colours["--error-tint"]) >= 7
    assert contrast(colours["--good"], colours["--good-tint"]) >= 7
    assert contrast(colours["--ink"], colours["--notice-tint"]) >= 7


def test_every_colour_has_its_dark_value_and_players_differ() -> None:
    assert set(variables("dark.css")) == {name for name in LIGHT if name != "--radius"}
    for colours in (LIGHT, DARK):
        assert len({colours[name] for name in PLAYERS}) == 8
    # The chart draws each player's line in that player's colour.
    pages = (STATIC / "pages.css").read_text()
    for seat, name in enumerate(PLAYERS):
        assert f".series-{seat} {{ stroke: var({name}); fill: var({name}); }}" in pages


def test_no_colour_is_written_outside_the_variables() -> None:
    """Every colour of the pages comes from a variable (so dark.css changes it), except where
    paper is meant: black lines in print."""
    text = (STATIC / "pages.css").read_text()
    body = text[text.index("}", text.index(":root {")) :]
    outside_print = re.sub(r"@media print \{.*?\n\}", "", body, flags=re.S)
    literal = re.compile(r"#[0-9a-fA-F]{3,6}\b|rgba?\(")
    found = [line.strip() for line in outside_print.splitlines() if literal.search(line)]
    # A QR code stays black on white in any scheme: that is what a camera reads. A dialog's
    # backdrop is painted outside the page, where not every browser passes variables.
    assert found == [
        ".qr-paper { fill: #fff; }",
        ".qr-ink { fill: #000; }",
        ".picker::backdrop { background: rgba(0, 0, 0, 0.45); }",
    ]


@pytest.fixture(scope="module")
def sheet_path(server: str) -> str:
    return PAGES["sheet"].format(sheet=new_sheet(server, NAMES, ROUNDS[:1]))


@pytest.mark.browser
@pytest.mark.server
@pytest.mark.parametrize(
    ("scheme", "language"), list(itertools.product(["light", "dark"], LANGUAGES))
)
def test_every_page_passes_axe_in_light_and_dark(
    browser: Any, server: str, sheet_path: str, output: Path, scheme: str, language: str
) -> None:
    """Light at a desktop's width, dark on a phone (touch, twice the pixels): every page, a
    sheet with a round played included; in English, each is screenshotted."""
    screen: dict[str, Any] = {"color_scheme": scheme}
    if scheme == "light":
        screen["viewport"] = {"width": 1280, "height": 800}
    else:
        screen.update(
            viewport={"width": 360, "height": 780},
            has_touch=True,
            is_mobile=True,
            device_scale_factor=2,
        )
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    context = browser.new_context(**screen)
    problems: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: problems.append(str(error)))
        for name, path in PAGES.items():
            path = sheet_path if name == "sheet" else path
            page.goto(f"{server}{path}?lang={language}")
            page.wait_for_load_state("networkidle" if name in ASKING else "load")
            assert page.get_attribute("html", "lang") == language
            dark = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
            assert dark == (scheme == "dark")
            results = axe.run(page)
            assert results.violations_count == 0, f"{name} in {language}, {scheme}: " + (
                results.generate_report()
            )
            if language == "en":
                shot = output / f"colours-{scheme}-{name}.png"
                page.screenshot(path=str(shot), full_page=True)
        assert problems == []
    finally:
        context.close()
