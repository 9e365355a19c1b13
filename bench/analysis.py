"""Benchmark: ``analyse_hand`` over fixed, seeded sets of hands, in-process.

Goals: median under 2 ms for typical hands (10-13 cards, 0-2 jokers, the four base presets,
every round); under 50 ms for the hardest hand we could build — Liverpool round 6 (1 set + 2
runs) at a table of three decks with all 6 jokers, 18 cards after buys. The hardest hands below
were found by hill-climbing on the analysis time (mutating one card at a time, keeping the
slower hand) and by trying whole families (one suit, two suits, duplicates); the worst are
single-suit hands with no pair, one card short, whose ``needs`` is nearly every card.

The machine is shared and noisy: each hand is timed as the best of a few runs, and every
figure is also given as a multiple of one ``check_contract`` call (with the hand) measured in
the same run.

    .venv/bin/python bench/analysis.py

Speed is half of a change to the search; ``bench/analysis_answers.py`` is the other half: one
hash over every answer on these hands and more, to show the answers did not move.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from contract_check import HAND, MELDS

from rules import DECK, JOKER, Card, Ruleset, check_contract, find_ruleset, parse_cards
from rules.analysis import analyse_hand

Case = tuple[Ruleset, int, int | None, list[Card]]

#: The slowest round-6 hands found (12 naturals and 6 jokers each).
HARDEST = [
    "AH 2H 4H 5H 6H 7H 8H 9H 10H JH KH 3S",
    "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH",
    "AH 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
    "7H 5H 9H 3H QH 4H 10H 8H KH AH JH 6H",
    "7H 5H 9H 3H 2D 4H 10H 8H KH AS JH 6H",
    "10S 7C 2H 9D 3D KH 6C 9D 9S QC AS 5S",
    "10S KC QH 9D 3D 7H 6C 6H 9S QC AS 5S",
    "KC 10C 9C 7C 5C AC 6C 3C JC 8S QS 2C",
    "2D 9D 6D 8D AD 7D 9H QD 5D 8S 6S 3D",
    "7C 10C 9C 10C 5C AC 6C 3C 4C 8C 2C 10S",
]


def typical_hands(count: int, seed: int = 2026) -> list[Case]:
    rng = random.Random(seed)
    cases: list[Case] = []
    for _ in range(count):
        ruleset = find_ruleset(
            rng.choice(["liverpool", "contract-rummy", "progressive", "california"])
        )
        number = rng.randint(1, ruleset.round_count)
        players = rng.choice([ruleset.min_players, ruleset.max_players])
        table = ruleset.table(players)
        size = rng.randint(10, 13)
        jokers = rng.randint(0, min(2, table.jokers))
        deck = [card for card in DECK for _ in range(table.decks)]
        cases.append((ruleset, number, players, rng.sample(deck, size - jokers) + [JOKER] * jokers))
    return cases


def worst_hands(count: int, seed: int = 2026) -> list[Case]:
    """The hardest hands found, then seeded random ones of the same kind."""
    liverpool = find_ruleset("liverpool")
    cases: list[Case] = [
        (liverpool, 6, 8, [*parse_cards(text.split()), *[JOKER] * 6]) for text in HARDEST
    ]
    rng = random.Random(seed)
    deck = [card for card in DECK for _ in range(3)]
    while len(cases) < count:
        cases.append((liverpool, 6, 8, rng.sample(deck, 12) + [JOKER] * 6))
    return cases


def timed(case: Case, repeat: int) -> float:
    """Best of ``repeat`` runs, in seconds."""
    ruleset, number, players, hand = case
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        analyse_hand(ruleset, number, hand, players)
        best = min(best, time.perf_counter() - start)
    return best


def baseline() -> float:
    """One round-6 contract check with the hand (as bench/contract_check.py), in seconds."""
    ruleset = find_ruleset("liverpool")
    melds = [parse_cards(meld) for meld in MELDS]
    hand = parse_cards(HAND)
    runs = timeit.repeat(
        lambda: check_contract(ruleset, 6, melds, hand=hand), number=2000, repeat=7
    )
    return statistics.median(runs) / 2000


def report(name: str, times: list[float], base: float, goal_ms: float, on: str) -> bool:
    ordered = sorted(times)
    median = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    worst = ordered[-1]
    figure = {"median": median, "max": worst}[on]
    ok = figure * 1e3 < goal_ms
    print(
        f"{name:26} {len(times):5} {median * 1e3:9.2f} {p99 * 1e3:9.2f} {worst * 1e3:9.2f}"
        f"   {median / base:7.0f} {p99 / base:7.0f} {worst / base:7.0f}"
        f"   {on} < {goal_ms:g} ms: {'yes' if ok else 'NO'}"
    )
    return ok


def main() -> None:
    typical = typical_hands(400)
    worst = worst_hands(40)
    for case in typical[:20] + worst[:3]:  # warm the caches and the interpreter
        timed(case, 1)
    base = baseline()
    print(f"baseline: one check_contract with the hand = {base * 1e6:.1f} µs\n")
    print(
        f"{'':26} {'hands':>5} {'median':>9} {'p99':>9} {'max':>9}"
        f"   {'× baseline (median, p99, max)':>23}"
    )
    print(f"{'':26} {'':5} {'ms':>9} {'ms':>9} {'ms':>9}")
    ok = report("typical (10-13, 0-2 JK)", [timed(c, 3) for c in typical], base, 2, "median")
    hardest = [timed(c, 3) for c in worst]
    ok &= report("hardest (r6, 18, 6 JK)", hardest, base, 50, "max")
    ruleset, number, players, hand = worst[max(range(len(worst)), key=hardest.__getitem__)]
    print(f"\nslowest hand: {ruleset.id} round {number}: {' '.join(map(str, hand))}")
    if not ok:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
