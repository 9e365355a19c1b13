"""Replaying the peer engine's ("May I?", DroopyTersen/mayi) test vectors against ours.

``mayi_vectors.json`` (a copy of the May I? engine's vectors; their format is §13 of the May I?
engine's rules) holds 381 vectors taken from the peer's own tests. :func:`replay` turns one
vector into the question our engine answers — under the ``may-i`` preset and nothing else, no
special cases — and returns what the engine says beside what the peer expects.

How each kind maps onto our checks:

``set`` / ``run``
    ``read_meld(cards, ruleset, type).valid``. The peer's ``isValidRun`` is positional, and our
    runs are read in table order, so those vectors are replayed as given. The peer's
    ``normalizeRunCards`` vectors ask something else: "can these cards, in any order, lie on the
    table as a run?" — its lay-down sorts them before they are placed. That is our checks'
    ``order="any"``: ``check_meld(ruleset, cards, "run", order="any")``, the engine laying the
    run out itself (naturals in rank order, wilds in the gaps, a spare wild at the high end,
    else the low end) and judging that arrangement.
``contract``
    ``check_contract(ruleset, round, melds, hand=..., types=...)`` with the declared meld types.
    Turn-machine vectors give the hand before the draw and the card drawn; both make the hand.
    ``LAY_DOWN`` / ``canLayDown`` vectors are checked with ``order="any"`` (the peer sorts their
    runs before it checks); ``validateContractMelds`` / ``meetsContract`` ones as given. A
    player already down (``is_down``) asks with ``contract_down``. ``validMelds`` (no round) is
    every meld read as its declared type.
``layoff``
    ``check_layoff``; ``contract_down`` is "no" when the player is not down, "this_turn" when
    the contract was laid this turn, else "earlier_turn" (also when the vector tests the card
    fit alone and says nothing about the player). ``position`` start/end is ``end`` low/high.
``swap``
    ``check_joker_swap`` at the vector's ``wild_index``; ``player_is_down`` gives
    ``contract_down`` ("this_turn" when the vector says the contract was laid this turn).
    ``identify_wild_positions`` queries compare what the reading says each wild stands for.
``buy``
    ``check_buy``. Player ids become seats; the player on turn is the peer's current player
    (or ``current_player_after`` when the turn moved on). The peer's caller is a caller, and so
    is every player who CLAIMs when prompted — except the current player: in our API the player
    on turn who wants the discard simply draws it (``check_buy`` refuses on_turn as a caller,
    "taking the discard is its draw, not a buy"), which is exactly the peer's outcome (the
    current player gets the card, no penalty card, the caller nothing).
``score``
    ``penalty(ruleset, cards).total``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules import (
    Card,
    CardNotationError,
    MoveError,
    Rank,
    Ruleset,
    check_buy,
    check_contract,
    check_joker_swap,
    check_layoff,
    check_meld,
    parse_cards,
    penalty,
    read_meld,
)

VECTORS_PATH = Path(__file__).with_name("mayi_vectors.json")
KINDS = ("set", "run", "contract", "layoff", "swap", "buy", "score")


@dataclass(frozen=True)
class Vector:
    """One peer test vector, named ``<kind>-<index within its kind>`` (e.g. ``run-030``)."""

    id: str
    kind: str
    source: str
    cards: tuple[str, ...]
    context: dict[str, Any]
    expect_valid: bool
    expect_detail: str
    note: str


def load_vectors(path: Path = VECTORS_PATH) -> list[Vector]:
    raw = json.loads(path.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    vectors = []
    for item in raw:
        kind = item["kind"]
        index = seen.get(kind, 0)
        seen[kind] = index + 1
        vectors.append(
            Vector(
                id=f"{kind}-{index:03d}",
                kind=kind,
                source=item["source"],
                cards=tuple(item["cards"]),
                context=item["context"],
                expect_valid=item["expect_valid"],
                expect_detail=item["expect_detail"],
                note=item["note"],
            )
        )
    return vectors


@dataclass
class Replay:
    """What our engine said about a vector, and every further fact the peer's test asserts."""

    #: Our engine's answer to the vector's yes/no question.
    valid: bool
    #: Why, in the engine's words (violations, refusals), for failure messages.
    detail: str
    #: Further (what, expected, actual) facts the peer's test asserts besides the outcome.
    facts: list[tuple[str, Any, Any]] = field(default_factory=list)
    #: The violation codes behind the answer (refusal codes for a buy).
    codes: tuple[str, ...] = ()
    #: Their messages, in English.
    messages: tuple[str, ...] = ()

    def mismatches(self) -> list[str]:
        return [
            f"{what}: peer {exp!r}, ours {act!r}" for what, exp, act in self.facts if exp != act
        ]


def _cards(texts: Sequence[str]) -> tuple[Card, ...]:
    return parse_cards(texts)


def _why(violations: Sequence[Any]) -> str:
    return "; ".join(f"{v.code}: {v.message}" for v in violations) or "no violations"


def _verdict(valid: bool, violations: Sequence[Any], detail: str | None = None) -> Replay:
    return Replay(
        valid,
        detail if detail is not None else _why(violations),
        codes=tuple(v.code for v in violations),
        messages=tuple(v.message for v in violations),
    )


# --- the kinds ---------------------------------------------------------------------------------


def _replay_set(vector: Vector, ruleset: Ruleset) -> Replay:
    meld = read_meld(_cards(vector.cards), ruleset, "set")
    return _verdict(meld.valid, meld.violations)


def _is_normalizer(vector: Vector) -> bool:
    return vector.context.get("order_sensitive") is False


def _replay_run(vector: Vector, ruleset: Ruleset) -> Replay:
    cards = _cards(vector.cards)
    if _is_normalizer(vector):
        meld = check_meld(ruleset, cards, "run", order="any")
    else:
        meld = read_meld(cards, ruleset, "run")
    shown = " ".join(map(str, meld.cards))
    return _verdict(meld.valid, meld.violations, f"read as [{shown}]: {_why(meld.violations)}")


def _lays_down(vector: Vector) -> bool:
    """LAY_DOWN / canLayDown vectors: the peer sorts each run before checking it."""
    function: str = vector.context["function"]
    return function.startswith(("turnMachine LAY_DOWN", "canLayDown"))


def _replay_contract(vector: Vector, ruleset: Ruleset) -> Replay:
    context = vector.context
    melds = [_cards(meld["cards"]) for meld in context["melds"]]
    types = [meld["type"] for meld in context["melds"]]
    order = "any" if _lays_down(vector) else "table"
    if "round" not in context:  # validMelds: each meld on its own, as declared
        readings = [
            check_meld(ruleset, c, t, order=order)  # type: ignore[arg-type]
            for c, t in zip(melds, types, strict=True)
        ]
        violations = [v for reading in readings for v in reading.violations]
        return _verdict(not violations, violations)
    hand: tuple[Card, ...] | None = None
    if "hand" in context:
        hand = _cards(context["hand"])
    elif "hand_before_draw" in context:
        hand = _cards([*context["hand_before_draw"], context["drawn_from_stock"]])
    down = _contract_down(context) if context.get("is_down") else "no"
    verdict = check_contract(
        ruleset,
        context["round"],
        melds,
        hand=hand,
        types=types,
        order=order,  # type: ignore[arg-type]
        contract_down=down,  # type: ignore[arg-type]
    )
    replay = _verdict(verdict.valid, verdict.violations)
    if verdict.valid and hand is not None:
        # The state the peer's turn machine ends in: out at once ("wentOut", "hand empty"), or
        # out by the one discard left ("then goes out"), or still in ("awaitingDiscard" with
        # more cards). Ours: whether the player can end the round on this turn.
        detail = vector.expect_detail
        if re.search(r"wentOut|went out|hand empty|then goes out", detail):
            replay.facts.append(("goes out on this turn", True, verdict.goes_out))
        elif re.search(r"awaitingDiscard|turnComplete", detail):
            replay.facts.append(("goes out on this turn", False, verdict.goes_out))
    return replay


#: A lay-off that fits whatever the timing: used by the peer's precondition-only vectors
#: (``canLayOffCard`` with no card or meld), so that only the timing decides the verdict.
NEUTRAL_LAYOFF = (("9D", "9H", "9S"), "set", ("9C",))

_AT_INDEX = re.compile(r"(\w+) (?:at|appended at) index (\d+)")


def _contract_down(context: dict[str, Any]) -> str:
    if context.get("is_down") is False:
        return "no"
    if context.get("laid_down_this_turn"):
        return "this_turn"
    return "earlier_turn"


def _replay_layoff(vector: Vector, ruleset: Ruleset) -> Replay:
    context = vector.context
    existing = context["existing_meld"]
    meld_cards, meld_type, cards = existing["cards"], existing["type"], vector.cards
    if not cards and not meld_cards:
        meld_cards, meld_type, cards = NEUTRAL_LAYOFF
    end = {"start": "low", "end": "high", None: None}[context.get("position")]
    verdict = check_layoff(
        ruleset,
        1,
        _cards(meld_cards),
        _cards(cards),
        _contract_down(context),  # type: ignore[arg-type]
        end=end,  # type: ignore[arg-type]
        meld_type=meld_type,
    )
    replay = _verdict(verdict.valid, verdict.violations)
    if verdict.valid:
        # "JK at index 0 (acts as 4S)", "9S at index 4": where the card lands in the meld.
        for card, index in _AT_INDEX.findall(vector.expect_detail):
            table = [str(c) for c in verdict.meld.cards]
            at = table[int(index)] if int(index) < len(table) else None
            replay.facts.append((f"card at index {index} of the result", card, at))
        acts = re.search(r"acts as (\w+)", vector.expect_detail)
        if acts and cards == ("JK",):
            stands = [w.stands_for for w in verdict.meld.wilds]
            replay.facts.append(
                ("a wild stands for", acts[1], acts[1] if acts[1] in stands else stands)
            )
    return replay


def _names_a_card(text: str) -> bool:
    """Whether a wild's ``stands_for`` is a card ("6S", in a run) rather than a rank ("9")."""
    try:
        Card.parse(text)
    except CardNotationError:
        return False
    return True


def _replay_swap(vector: Vector, ruleset: Ruleset) -> Replay:
    context = vector.context
    meld_cards = _cards(context["meld"]["cards"])
    meld_type = context["meld"]["type"]
    if context.get("query") == "identify_wild_positions":
        reading = read_meld(meld_cards, ruleset, meld_type)
        if not reading.valid:
            return _verdict(False, reading.violations)
        # The peer lists, for a run, what each wild card acts as (a card of the run); a set's
        # wilds act as a rank only, so it lists none. Ours: a wild whose stands_for is a card.
        positions = [
            {
                "index": wild.index,
                "acting_as": wild.stands_for,
                "is_joker": meld_cards[wild.index].is_joker,
            }
            for wild in reading.wilds
            if _names_a_card(wild.stands_for)
        ]
        replay = Replay(True, f"wilds: {reading.wilds}")
        if "expect_positions" in context:
            replay.facts.append(("wild positions", context["expect_positions"], positions))
        return replay
    down = context.get("player_is_down", False)
    if not down:
        contract_down = "no"
    elif "laying down this turn" in context.get("turn_state", ""):
        contract_down = "this_turn"
    else:
        contract_down = "earlier_turn"
    verdict = check_joker_swap(
        ruleset,
        context.get("round", 1),
        meld_cards,
        Card.parse(vector.cards[0]),
        contract_down,  # type: ignore[arg-type]
        joker=context["wild_index"],
        meld_type=meld_type,
    )
    replay = _verdict(verdict.valid, verdict.violations)
    if verdict.valid:
        # The joker goes to the swapper's hand, free to use (the peer's "joker goes into hand").
        replay.facts.append(("where the freed joker goes", "hand", verdict.obligation))
        if "expect_meld_after" in context:
            after = [str(c) for c in verdict.meld.cards]
            replay.facts.append(("meld after the swap", context["expect_meld_after"], after))
        # "swap accepted; then LAY_DOWN [KC KD KH] + [9C 9D JK(swapped)] accepted": the freed
        # joker is the swapper's to lay down on the same turn.
        then = re.search(r"then LAY_DOWN ((?:\[[^\]]*\](?: \+ )?)+) accepted", vector.expect_detail)
        if then:
            melds = [
                _cards(re.sub(r"\(.*?\)", "", group).split())
                for group in re.findall(r"\[([^\]]*)\]", then[1])
            ]
            after_swap = check_contract(ruleset, context.get("round", 1), melds)
            replay.facts.append(
                (
                    "the lay-down after the swap is legal",
                    True,
                    after_swap.valid or after_swap.violations,
                )
            )
    return replay


#: The one refusal that does not refuse the call itself: someone nearer the player on turn won.
_NEARER = "nearer_caller"


@dataclass(frozen=True)
class _BuyTable:
    seats: int
    seat_of: dict[str, int]
    on_turn: int
    caller: int
    down: frozenset[int]
    current_claims: bool
    claimers: tuple[int, ...]


def _buy_table(context: dict[str, Any]) -> _BuyTable:
    players = context["players"]
    seat_of = {player: seat for seat, player in enumerate(players)}
    current = context.get("current_player_after") or context["current_player"]
    on_turn = seat_of[current]
    claimers: list[int] = []
    current_claims = False
    for event in context["events"]:
        player, action = event.split(" ", 1)
        if action.startswith("CLAIM_MAY_I"):
            if seat_of[player] == on_turn:
                current_claims = True
            else:
                claimers.append(seat_of[player])
    return _BuyTable(
        seats=len(players),
        seat_of=seat_of,
        on_turn=on_turn,
        caller=seat_of[context["caller"]],
        down=frozenset(seat_of[p] for p in context["down"]),
        current_claims=current_claims,
        claimers=tuple(claimers),
    )


def _replay_buy(vector: Vector, ruleset: Ruleset) -> Replay:
    context = vector.context
    table = _buy_table(context)
    round_number = context["round"]

    def ask(callers: Sequence[int]) -> Any:
        return check_buy(
            ruleset, round_number, table.seats, table.on_turn, list(callers), down=table.down
        )

    # Is the call itself accepted? The caller alone, refused for anything but a nearer caller.
    alone = ask([table.caller])
    refusals = [r.violation for r in alone.refused if r.seat == table.caller]
    accepted = not any(v.code != _NEARER for v in refusals)
    replay = _verdict(accepted, refusals)
    if not accepted:
        return replay

    name = {seat: player for player, seat in table.seat_of.items()}
    # Who gets the card, and whether a penalty card goes with it.
    winner: int | None
    penalty_cards: int
    callers = [*table.claimers, table.caller]
    if table.current_claims:
        callers.insert(0, table.on_turn)
    try:
        verdict = ask(callers)
    except MoveError:
        # Only when the player on turn claims: our API refuses it as a caller, because taking
        # the discard is its draw — it gets the card and no penalty card goes with it.
        assert table.current_claims
        winner, penalty_cards = table.on_turn, 0
    else:
        winner, penalty_cards = verdict.winner, verdict.penalty_cards
    if context.get("expect_winner") is not None:
        replay.facts.append(("winner", context["expect_winner"], name.get(winner)))
    if context.get("penalty_card_to_winner") is not None:
        replay.facts.append(
            ("penalty card to the winner", context["penalty_card_to_winner"], penalty_cards == 1)
        )
    if (
        table.current_claims
        and "caller" in vector.expect_detail
        and "unchanged" in vector.expect_detail
    ):
        replay.facts.append(("the blocked caller gets the card", False, winner == table.caller))

    # Who stands between the player on turn and the caller (the peer's playersToCheck, bar
    # the current player, whose claim is a draw in our API): every seat that would win the
    # card from the caller by calling too.
    ahead = []
    seat = (table.on_turn + 1) % table.seats
    while seat != table.caller:
        if ask([seat, table.caller]).winner == seat:
            ahead.append(name[seat])
        seat = (seat + 1) % table.seats
    expected_ahead = _expected_ahead(vector, name[table.on_turn])
    if expected_ahead is not None:
        replay.facts.append(
            ("seats ahead of the caller (current player aside)", expected_ahead, ahead)
        )
    return replay


#: The peer's ``playersToCheck`` where a test asserts it, with the current player left out
#: (in our API the player on turn draws; it never competes as a buyer).
_PLAYERS_TO_CHECK: dict[str, list[str]] = {
    # "contains player-1 (current, not yet drawn) and player-2"
    "buy-000": ["player-1", "player-2"],
    "buy-001": ["player-1"],  # "excludes player-2" (down); player-1 current
    "buy-002": ["player-2"],  # "excludes player-1" (drew from stock)
    "buy-003": [],  # "resolves immediately" (player-1 and player-2 down)
    "buy-017": ["player-1", "player-2", "player-3"],  # "first prompted is player-1"
    "buy-018": ["player-1", "player-2", "player-3"],  # "prompts player-1, then 2, then 3"
    "buy-019": ["player-2"],  # "excludes player-1, contains player-2"
    "buy-020": ["player-2"],  # "excludes player-1; player-2 prompted first"
}


def _expected_ahead(vector: Vector, current: str) -> list[str] | None:
    expected = _PLAYERS_TO_CHECK.get(vector.id)
    if expected is None:
        return None
    return [player for player in expected if player != current]


def _replay_score(vector: Vector, ruleset: Ruleset) -> Replay:
    total = penalty(ruleset, _cards(vector.cards)).total
    expected = vector.context["expect_points"]
    return Replay(True, f"{total} points", [("points", expected, total)])


_REPLAYS: dict[str, Callable[[Vector, Ruleset], Replay]] = {
    "set": _replay_set,
    "run": _replay_run,
    "contract": _replay_contract,
    "layoff": _replay_layoff,
    "swap": _replay_swap,
    "buy": _replay_buy,
    "score": _replay_score,
}


#: Where the peer's test asserts *why* a move is refused (its error text or the rule its test
#: names), the violation our engine must report for the same reason.
PEER_REASONS: dict[str, str] = {
    "run-050": "too_many_wilds",  # 'Run must have at least one natural card'
    "contract-001": "contract_mismatch",  # error contains '2 set(s)'
    "contract-003": "contract_mismatch",  # error contains '0 run(s)'
    "contract-013": "run_mixed_suits",  # 9C 9D 9H 9S declared as a run is 'invalid'
    "contract-016": "set_mixed_ranks",  # error contains 'invalid'
    "contract-017": "run_not_consecutive",  # error contains 'invalid'
    "contract-019": "set_mixed_ranks",  # error contains 'invalid'
    "contract-026": "runs_too_close",  # error contains 'gap' (gap of 1)
    "contract-027": "runs_too_close",  # error contains 'gap' (adjacent runs, gap 0)
    "contract-028": "runs_too_close",  # error contains 'gap' (overlapping runs)
    "contract-029": "runs_too_close",  # error contains 'gap' (gap of 1, with wilds)
    "contract-034": "runs_too_close",  # error contains 'gap' (adjacent runs in round 6)
    "contract-036": "runs_too_close",  # error mentions the suits (adjacent runs)
    "contract-060": "contract_already_down",  # 'rejects if player is already down'
    "contract-069": "hand_not_used",  # lastError contains 'Round 6'
    "contract-085": "contract_mismatch",  # lastError contains 'contract requires'
    "contract-091": "set_mixed_ranks",  # lastError contains 'valid set'
    "layoff-047": "set_mixed_ranks",  # 'card does not fit this meld'
    "swap-013": "run_out_of_range",  # throws 'Invalid rank value: 2'
    "swap-015": "joker_locked",  # 'Can only swap Jokers from runs, not sets'
    "swap-016": "swap_card_mismatch",  # "Card does not fit Joker's position in run"
    "swap-017": "swap_card_mismatch",  # "Card does not fit Joker's position in run"
    "swap-019": "joker_locked",  # 'Can only swap Jokers, not 2s'
    "swap-020": "swap_after_contract",  # 'Cannot swap Joker after laying down'
    "buy-012": "caller_down",  # 'rejects CALL_MAY_I from down player'
    "buy-013": "own_discard",  # 'rejects CALL_MAY_I from player who discarded the card'
}

#: Words the peer's test requires in its error message, that ours must carry too.
PEER_MESSAGE_WORDS: dict[str, str] = {
    "contract-036": "spades",  # 'error message mentions the affected suits'
}


def replay(vector: Vector, ruleset: Ruleset) -> Replay:
    """Ask our engine the vector's question under ``ruleset``."""
    wild = {Rank.parse(rank) for rank in vector.context.get("wild_ranks", [])}
    assert wild == set(ruleset.wild_ranks), (
        f"the vector plays with {sorted(wild)} wild, the ruleset with {sorted(ruleset.wild_ranks)}"
    )
    result = _REPLAYS[vector.kind](vector, ruleset)
    code = PEER_REASONS.get(vector.id)
    if code is not None:
        result.facts.append(("refused for", code, code if code in result.codes else result.codes))
    word = PEER_MESSAGE_WORDS.get(vector.id)
    if word is not None:
        said = " ".join(result.messages)
        result.facts.append(("the message names", word, word if word in said else said))
    return result
