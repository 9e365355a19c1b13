"""One SHA-256 over every answer ``analyse_hand`` gives on a fixed corpus of hands.

The corpus: every hand ``bench/analysis.py`` times (typical and hardest), then seeded hands
for every preset and a few house rules, every round: hands built around the round's contract
(whole, a card short, a card or two beyond), hands of a few neighbouring ranks, and random
ones. An answer is written as JSON (card names, never object reprs, so that a change of how
a ruleset prints itself does not move the hash), and a refused hand as its error's message.
Run it before and after a change to the search: the same hash means the same answers.

    PYTHONHASHSEED=0 .venv/bin/python bench/analysis_answers.py [--verbose]
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analysis import typical_hands, worst_hands

from rules import (
    DECK,
    JOKER,
    PRESETS,
    Card,
    Rank,
    RulesError,
    Ruleset,
    Suit,
    resolve_ruleset,
)
from rules.analysis import Analysis, analyse_hand

Case = tuple[Ruleset, int, int | None, list[Card]]

#: House rules that reach the search's other branches (as tests/rules/test_analysis.py's).
HOUSE = [
    {"base": "liverpool", "options": {"run_wilds_per_cards": 4}},
    {"base": "liverpool", "options": {"exact_minimum": True}},
    {"base": "liverpool", "options": {"runs_may_touch": False, "same_suit_run_gap": 1}},
    {"base": "progressive", "options": {"wilds_at_most_naturals": True, "go_out_by_melding": True}},
    {
        "base": "progressive",
        "options": {"ace_low": False, "set_min_naturals": 2, "wilds_outside_span": 2},
    },
    {
        "base": "contract-rummy",
        "options": {"wilds_outside_span": 0, "points": {"JK": 0, "5": 0}},
    },
]


def rulesets() -> list[Ruleset]:
    return [*PRESETS.values(), *HOUSE_RULESETS]


HOUSE_RULESETS = [resolve_ruleset(spec) for spec in HOUSE]


def label(ruleset: Ruleset) -> str:
    """The ruleset's name in an answer: its id, or which house rules it is."""
    for number, house in enumerate(HOUSE_RULESETS):
        if ruleset is house:
            return f"house {number}: {json.dumps(HOUSE[number], sort_keys=True)}"
    return ruleset.id


def wild_cards(ruleset: Ruleset, players: int | None) -> list[Card]:
    table = ruleset.table(players)
    ranks = [rank for rank in Rank if rank in ruleset.wild_ranks]
    return [JOKER] * table.jokers + [Card(rank, suit) for rank in ranks for suit in Suit]


def possible(ruleset: Ruleset, players: int | None, hand: list[Card]) -> list[Card]:
    """The hand without the copies beyond what the table holds."""
    table = ruleset.table(players)
    counts: dict[Card, int] = {}
    kept = []
    for card in hand:
        limit = table.jokers if card.is_joker else table.decks
        if counts.get(card, 0) < limit:
            counts[card] = counts.get(card, 0) + 1
            kept.append(card)
    return kept


def contract_hand(
    rng: random.Random, ruleset: Ruleset, number: int, players: int | None
) -> list[Card]:
    """The round's melds, some with wild cards, then a card short, or one or two beyond."""
    wilds = wild_cards(ruleset, players)
    naturals = [rank for rank in Rank if rank not in ruleset.wild_ranks]
    hand: list[Card] = []
    for meld in ruleset.round(number).contract.melds:
        size = meld.min + rng.randint(0, 1)
        if meld.type == "set":
            rank = rng.choice(naturals)
            suits = rng.sample(list(Suit), 4)
            cards: list[Card] = [Card(rank, suits[i % 4]) for i in range(size)]
        else:
            suit = rng.choice(list(Suit))
            low = rng.randint(1, max(1, 15 - size))
            cards = [
                Card(Rank.ACE if value == 14 else Rank(value), suit)
                for value in range(low, min(low + size, 15))
            ]
        for i, card in enumerate(cards):
            if wilds and (card.rank in ruleset.wild_ranks or rng.random() < 0.2):
                cards[i] = rng.choice(wilds)
        hand.extend(cards)
    shape = rng.choice(["short", "beyond", "exact"])
    if shape == "short" and hand:
        hand.pop(rng.randrange(len(hand)))
    elif shape == "beyond":
        for _ in range(rng.randint(1, 2)):
            hand.append(rng.choice([*DECK, JOKER]))
    rng.shuffle(hand)
    return hand


def dense_hand(rng: random.Random, ruleset: Ruleset, players: int | None) -> list[Card]:
    """A few neighbouring ranks of one to three suits, a joker perhaps: melds half made."""
    low = rng.randint(1, 10)
    ranks = [Rank((low - 1 + i) % 13 + 1) for i in range(rng.randint(3, 5))]
    suits = rng.sample(list(Suit), rng.randint(1, 3))
    pool = [Card(rank, suit) for rank in ranks for suit in suits] + [JOKER]
    return [rng.choice(pool) for _ in range(rng.randint(4, 13))]


def random_hand(rng: random.Random, ruleset: Ruleset, players: int | None) -> list[Card]:
    table = ruleset.table(players)
    deck = [card for card in DECK for _ in range(table.decks)] + [JOKER] * table.jokers
    return rng.sample(deck, rng.randint(6, 14))


def corpus(seed: int = 2026) -> list[Case]:
    rng = random.Random(seed)
    cases: list[Case] = [*typical_hands(400), *worst_hands(40)]
    for ruleset in rulesets():
        for number in range(1, ruleset.round_count + 1):
            for players in (None, ruleset.min_players, ruleset.max_players):
                for _ in range(4):
                    hand = contract_hand(rng, ruleset, number, players)
                    cases.append((ruleset, number, players, possible(ruleset, players, hand)))
                hand = dense_hand(rng, ruleset, players)
                cases.append((ruleset, number, players, possible(ruleset, players, hand)))
                hand = random_hand(rng, ruleset, players)
                cases.append((ruleset, number, players, hand))
    return cases


def answer(case: Case) -> dict[str, Any]:
    """The analysis of one hand as plain data: what the API would say, and the question."""
    ruleset, number, players, hand = case
    question = {
        "ruleset": label(ruleset),
        "round": number,
        "players": players,
        "hand": [str(card) for card in hand],
    }
    try:
        result = analyse_hand(ruleset, number, hand, players)
    except RulesError as error:
        return {"question": question, "refused": str(error)}
    return {"question": question, "answer": as_data(result)}


def as_data(result: Analysis) -> dict[str, Any]:
    closest = result.closest
    return {
        "can_lay": result.can_lay,
        "melds": [[str(card) for card in meld] for meld in result.melds],
        "readings": [
            [meld.type, [(wild.index, wild.stands_for) for wild in meld.wilds]]
            for meld in result.readings
        ],
        "remaining": [str(card) for card in result.remaining],
        "penalty": result.penalty,
        "goes_out": result.goes_out,
        "needs": list(result.needs),
        "closest": None
        if closest is None
        else {
            "melds": [
                [meld.type, [str(card) for card in meld.cards], list(meld.missing)]
                for meld in closest.melds
            ],
            "missing": closest.missing,
            "complete": closest.complete,
            "remaining": [str(card) for card in closest.remaining],
            "penalty": closest.penalty,
        },
    }


def main() -> None:
    verbose = "--verbose" in sys.argv
    cases = corpus()
    digest = hashlib.sha256()
    start = time.perf_counter()
    for case in cases:
        line = json.dumps(answer(case), sort_keys=True)
        if verbose:
            print(line)
        digest.update(line.encode())
        digest.update(b"\n")
    elapsed = time.perf_counter() - start
    print(f"{len(cases)} hands in {elapsed:.1f} s: sha256 {digest.hexdigest()}")


if __name__ == "__main__":
    main()
