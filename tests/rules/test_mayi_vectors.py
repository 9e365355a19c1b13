"""Every test vector of the peer engine "May I?" (DroopyTersen/mayi), replayed under ``may-i``.

The ``may-i`` preset claims to play the peer's rules through ruleset data alone. This module
holds it to that: each of the 381 vectors in ``mayi_vectors.json`` (taken from the peer's own
tests; see §13 of the May I? engine's rules) is one test case, id ``<kind>-<index>``,
that requires the peer's outcome — and every further fact the peer's test asserts (a buy's
winner, where a lay-off lands, why a move is refused). ``mayi_replay`` says how each kind of
vector becomes a question to our engine.

Two explicit lists, and nothing outside them, keep a vector from simply passing:

* :data:`NOT_APPLICABLE` — vectors that ask something our stateless checks cannot be asked
  (the file flags most of them). They are reported as skipped, with the reason.
* :data:`ENGINE_GAPS` — vectors where the engine disagrees with the peer, each with the
  analysis; strict ``xfail`` so that fixing the engine makes them fail until the entry goes.

:func:`test_counts` pins how many vectors each kind has and how many apply, so a suite that
silently shrinks fails; a per-kind tally of the outcomes is printed at the end of the run.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

# A sibling module, imported by name: tests/rules/ is deliberately not a package (conftest.py).
from mayi_replay import KINDS, Vector, load_vectors, replay

from rules import find_ruleset

RULESET = find_ruleset("may-i")
VECTORS = load_vectors()

# Degenerate fixtures the file flags with existing_meld_valid_in_mayi=false: 3-card "runs" and
# all-wild melds, which the peer itself could never lay down (its tests use them to probe end
# positions only). Our check_layoff first reads the meld on the table and refuses these as not
# a legal meld, so the question the vector asks never arises.
_DEGENERATE_FIXTURE = (
    "existing_meld_valid_in_mayi=false: the table meld is a test fixture no player could lay"
    " down ({meld}); check_layoff refuses it as not a legal meld before placing the card"
)

#: Vectors our engine cannot be asked, and why. Nothing else is skipped.
NOT_APPLICABLE: dict[str, str] = {
    # Physical card identity: the peer tells copies apart by id, our notation by count only.
    # (contract-022, three *different* 9C, and contract-092, one 9C from the hand used twice,
    # are expressible — as three copies, and as more copies melded than held — and do run.)
    "contract-020": "depends_on_card_identity: the same physical 9C (one id) in both melds;"
    " in card notation it is three copies of 9C, legal with 3 decks, and no hand is given to"
    " count them against",
    "contract-021": "depends_on_card_identity: the same physical 9C (id card-123) in both"
    " melds; indistinguishable in card notation from three copies, and no hand is given",
    # Game flow the stateless checks do not model.
    "layoff-042": "game flow: has_drawn=false (a lay-off before drawing); check_layoff has no"
    " turn phase",
    "swap-018": "hand state: the swap card is not in the player's hand; check_joker_swap is"
    " given the card and does not see the hand",
    "swap-022": "game flow: turn state awaitingDraw (before drawing); check_joker_swap has no"
    " turn phase",
    "swap-023": "game flow: turn state awaitingDiscard after SKIP_LAY_DOWN; check_joker_swap"
    " has no turn phase",
    "buy-010": "game flow: a second CALL_MAY_I while a resolution is in progress is ignored;"
    " check_buy is given all the calls for one discard at once",
    "buy-011": "game flow: the current player already drew the discard, so nothing is left"
    " to buy; check_buy is only asked while the discard is on the pile",
    "layoff-059": _DEGENERATE_FIXTURE.format(meld="3-card run 4H 5H 6H"),
    "layoff-060": _DEGENERATE_FIXTURE.format(meld="3-card run 4H 5H 6H"),
    "layoff-061": _DEGENERATE_FIXTURE.format(meld="3-card run 4H 5H 6H"),
    "layoff-062": _DEGENERATE_FIXTURE.format(meld="3-card run 4H 5H 6H"),
    "layoff-063": _DEGENERATE_FIXTURE.format(meld="3-card run 4H 5H 6H"),
    "layoff-064": _DEGENERATE_FIXTURE.format(meld="3-card run 5H 6H 7H"),
    "layoff-065": _DEGENERATE_FIXTURE.format(meld="3-card run QH KH AH"),
    "layoff-066": _DEGENERATE_FIXTURE.format(meld="3-card run 3H 4H 5H"),
    "layoff-068": _DEGENERATE_FIXTURE.format(meld="3-card run 4H JK 6H"),
    "layoff-069": _DEGENERATE_FIXTURE.format(meld="3-card run 4H JK 6H"),
    "layoff-070": _DEGENERATE_FIXTURE.format(meld="all-wild set JK 2H 2S"),
    "layoff-071": _DEGENERATE_FIXTURE.format(meld="all-wild set JK 2H 2S"),
    "layoff-072": _DEGENERATE_FIXTURE.format(meld="all-wild run JK 2H 2S"),
    "layoff-073": _DEGENERATE_FIXTURE.format(meld="all-wild run JK 2H 2S"),
    "layoff-096": _DEGENERATE_FIXTURE.format(meld="all-wild set JK JK 2S"),
}

#: Vectors where our engine disagrees with the peer: the analysis, until the engine is fixed.
ENGINE_GAPS: dict[str, str] = {}

#: Per kind: vectors in the file, vectors that apply (run, not skipped), and engine gaps.
EXPECTED_COUNTS: dict[str, tuple[int, int, int]] = {
    "set": (27, 27, 0),
    "run": (59, 59, 0),
    "contract": (101, 99, 0),
    "layoff": (97, 81, 0),
    "swap": (35, 32, 0),
    "buy": (21, 19, 0),
    "score": (41, 41, 0),
}


def _params() -> list[Any]:
    return list(_each_param())


def _each_param() -> Iterator[Any]:
    for vector in VECTORS:
        marks: list[pytest.MarkDecorator] = []
        if vector.id in NOT_APPLICABLE:
            reason = f"{vector.id} not applicable: {NOT_APPLICABLE[vector.id]}"
            marks.append(pytest.mark.skip(reason=reason))
        elif vector.id in ENGINE_GAPS:
            reason = f"{vector.id} engine gap: {ENGINE_GAPS[vector.id]}"
            marks.append(pytest.mark.xfail(strict=True, reason=reason))
        yield pytest.param(vector, id=vector.id, marks=marks)


@pytest.mark.parametrize("vector", _params())
def test_vector(vector: Vector) -> None:
    result = replay(vector, RULESET)
    where = f"{vector.source}\n  cards {' '.join(vector.cards)}\n  ours: {result.detail}"
    assert result.valid == vector.expect_valid, (
        f"peer says {'valid' if vector.expect_valid else 'invalid'}"
        f" ({vector.expect_detail}), ours says {'valid' if result.valid else 'invalid'}\n{where}"
    )
    mismatches = result.mismatches()
    assert not mismatches, "; ".join(mismatches) + f"\n{where}"


def test_counts() -> None:
    """The suite of vectors is whole: every vector is run, skipped for a reason, or an engine gap."""
    by_kind = Counter(vector.kind for vector in VECTORS)
    ids = {vector.id for vector in VECTORS}
    assert set(NOT_APPLICABLE) <= ids and set(ENGINE_GAPS) <= ids
    assert not set(NOT_APPLICABLE) & set(ENGINE_GAPS)
    # The file's own flags are all honoured.
    for vector in VECTORS:
        context = vector.context
        flagged = (
            context.get("existing_meld_valid_in_mayi") is False
            or context.get("has_drawn") is False
            or context.get("swap_card_in_hand") is False
        )
        if flagged:
            assert vector.id in NOT_APPLICABLE, vector.id
        if NOT_APPLICABLE.get(vector.id, "").startswith("existing_meld_valid_in_mayi"):
            assert context.get("existing_meld_valid_in_mayi") is False, vector.id
            assert " ".join(context["existing_meld"]["cards"]) in NOT_APPLICABLE[vector.id]
    actual = {
        kind: (
            by_kind[kind],
            sum(1 for v in VECTORS if v.kind == kind and v.id not in NOT_APPLICABLE),
            sum(1 for v in VECTORS if v.kind == kind and v.id in ENGINE_GAPS),
        )
        for kind in KINDS
    }
    assert actual == EXPECTED_COUNTS
    assert sum(total for total, _, _ in EXPECTED_COUNTS.values()) == len(VECTORS) == 381


# --- a per-kind tally at the end of the run ---------------------------------------------------

_NODE = re.compile(r"test_mayi_vectors\.py::test_vector\[(\w+)-\d+\]")


class _Tally:
    """Prints, at the end of the session, how the vectors of each kind came out."""

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        outcomes: dict[str, dict[str, str]] = {kind: {} for kind in KINDS}
        for outcome in ("passed", "failed", "skipped", "xfailed", "xpassed", "error"):
            for report in terminalreporter.stats.get(outcome, []):
                match = _NODE.search(getattr(report, "nodeid", ""))
                if match and match[1] in outcomes:
                    outcomes[match[1]].setdefault(report.nodeid, outcome)
        if not any(outcomes.values()):
            return
        terminalreporter.write_sep("-", "may-i peer vectors (DroopyTersen/mayi) by kind")
        columns = ("passed", "xfailed", "skipped", "failed", "xpassed", "error")
        for kind in KINDS:
            tally = Counter(outcomes[kind].values())
            cells = ", ".join(f"{tally[c]} {c}" for c in columns if tally[c] or c == "passed")
            terminalreporter.write_line(f"{kind:>9}: {cells}")


@pytest.fixture(autouse=True, scope="module")
def _report_tally(request: pytest.FixtureRequest) -> None:
    manager = request.config.pluginmanager
    if not manager.has_plugin("mayi-vector-tally"):
        manager.register(_Tally(), "mayi-vector-tally")
