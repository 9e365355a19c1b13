"""Benchmark: one round-6 contract check (1 set + 2 runs, two jokers), in-process.

Goal (issue 2): under 20 µs per check. The machine is shared and noisy, so the figure is
reported beside a baseline measured in the same run: parsing the same 11 card strings, the
least work any check of these cards must do.

    .venv/bin/python bench/contract_check.py
"""

from __future__ import annotations

import statistics
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import check_contract, find_ruleset, parse_cards

MELDS = [["9S", "9H", "JK"], ["4H", "JK", "6H", "7H"], ["8C", "9C", "10C", "JC"]]
HAND = [card for meld in MELDS for card in meld] + ["KD"]


def main() -> None:
    ruleset = find_ruleset("liverpool")
    melds = [parse_cards(meld) for meld in MELDS]
    hand = parse_cards(HAND)
    verdict = check_contract(ruleset, 6, melds, hand=hand)
    assert verdict.valid and verdict.goes_out, verdict.violations

    def check() -> None:
        check_contract(ruleset, 6, melds)

    def check_with_hand() -> None:
        check_contract(ruleset, 6, melds, hand=hand)

    def parse() -> None:
        for meld in MELDS:
            parse_cards(meld)

    number = 20_000
    rows = []
    for name, fn in (
        ("parse 11 cards (baseline)", parse),
        ("check_contract", check),
        ("check_contract + hand", check_with_hand),
    ):
        runs = timeit.repeat(fn, number=number, repeat=7)
        best = min(runs) / number * 1e6
        median = statistics.median(runs) / number * 1e6
        rows.append((name, best, median))
    base = rows[0][2]
    print(f"{'':28} {'best µs':>9} {'median µs':>10} {'× baseline':>11}")
    for name, best, median in rows:
        print(f"{name:28} {best:9.2f} {median:10.2f} {median / base:11.1f}")


if __name__ == "__main__":
    main()
