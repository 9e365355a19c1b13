"""The referee's checks: pure functions from a proposed move to a verdict.

Each check answers whether the move is legal under a ruleset, how it reads (every meld, every
wild card), and *every* rule it breaks — never just the first. A broken rule is data in the
verdict; only a malformed question (a seat that is not at the table, a wild card index that
does not exist) raises, and then with a :class:`~rules.errors.RulesError`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain

from rules.arrange import read_meld_any, read_run_any
from rules.cards import Card
from rules.choices import CONTRACT_DOWN, MELD_TYPES, ORDERS, ContractDown, End, Obligation, Order
from rules.errors import MoveError
from rules.i18n import N_, Phrase
from rules.layoffs import add_to_run, add_to_set
from rules.melds import Meld, plausible_types, read_meld, read_run, read_set, suit_name
from rules.ruleset import Contract, MeldSpec, MeldType, RoundSpec, Ruleset, TableSize
from rules.violations import Violation

#: How each type of meld is read, by how its cards were given: as they lie, or in any order
#: (a run then laid out by the referee, rules.arrange).
_Reader = Callable[[Sequence[Card], Ruleset], Meld]
_READERS: Mapping[MeldType, _Reader] = {"set": read_set, "run": read_run}
_ANY_ORDER_READERS: Mapping[MeldType, _Reader] = {"set": read_set, "run": read_run_any}


def _require_order(order: Order) -> None:
    if order not in ORDERS:
        raise MoveError(
            N_("order must be one of {choices}, not {value!r}"),
            field="order",
            choices=ORDERS,
            value=order,
        )


def _any_order_readers(order: Order) -> Mapping[MeldType, _Reader]:
    _require_order(order)
    return _ANY_ORDER_READERS


# --- the contract ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ContractVerdict:
    valid: bool
    round: RoundSpec
    melds: tuple[Meld, ...]
    #: The hand minus the melds, when the hand was given.
    remaining: tuple[Card, ...] | None
    #: Whether the player can end the round on this turn (None without the hand).
    goes_out: bool | None
    violations: tuple[Violation, ...]

    @property
    def contract(self) -> Contract:
        return self.round.contract


def check_contract(
    ruleset: Ruleset,
    round_number: int,
    melds: Sequence[Sequence[Card]],
    hand: Sequence[Card] | None = None,
    players: int | None = None,
    types: Sequence[MeldType | None] | None = None,
    *,
    jokers: int | None = None,
    order: Order = "table",
    contract_down: ContractDown = "no",
) -> ContractVerdict:
    """Check a proposed contract (docs/rules.md §3, §4): the melds, and the hand they come from
    (``order="any"``: runs for the referee to lay out; ``contract_down``: laid once a round)."""
    spec = ruleset.round(round_number)
    table = ruleset.table(players, jokers)
    readers = _READERS if order == "table" else _any_order_readers(order)
    readings = _assign_types(ruleset, spec.contract, melds, types, readers)
    violations: list[Violation] = [_already_down(contract_down)] if contract_down != "no" else []
    sets: list[int] = []
    runs: list[int] = []
    for index, meld in enumerate(readings):
        (sets if meld.type == "set" else runs).append(index)
        if meld.violations:
            violations.extend(v.at(index) for v in meld.violations)
    contract = spec.contract
    if len(sets) != contract.sets or len(runs) != contract.runs:
        violations.append(
            Violation(
                "contract_mismatch",
                {
                    "round": spec.number,
                    "expected": contract.words,
                    "actual": Contract.of(len(sets), len(runs)).words,
                },
            )
        )
    _check_sizes(spec, contract.set_specs, readings, sets, violations)
    _check_sizes(spec, contract.run_specs, readings, runs, violations)
    if len(runs) > 1 and (not ruleset.runs_may_touch or ruleset.same_suit_run_gap):
        violations.extend(_check_run_spacing(ruleset, readings, runs))

    melded = count_cards(chain.from_iterable(melds))
    remaining: tuple[Card, ...] | None = None
    goes_out: bool | None = None
    counted = melded
    if hand is not None:
        held = count_cards(hand)
        left = dict(held)
        for card, count in melded.items():
            have = left.get(card, 0)
            if count > have:
                violations.append(
                    Violation(
                        "cards_not_in_hand",
                        {"melded": count, "held": have},
                        card=str(card),
                    )
                )
            else:
                left[card] = have - count
        kept: list[Card] = []
        for card in hand:  # in the hand's own order, each copy once
            if left[card] > 0:
                kept.append(card)
                left[card] -= 1
        remaining = tuple(kept)
        violations.extend(_check_going_out(ruleset, spec, remaining))
        counted = held
        for card, count in melded.items():
            if count > held.get(card, 0):
                held[card] = count
    violations.extend(copies_beyond(counted, table))

    valid = not violations
    if remaining is not None:
        goes_out = valid and _can_go_out(ruleset, spec, len(remaining))
    return ContractVerdict(valid, spec, tuple(readings), remaining, goes_out, tuple(violations))


def _already_down(contract_down: ContractDown) -> Violation:
    if contract_down not in CONTRACT_DOWN:
        raise MoveError(
            N_("contract_down must be one of {choices}, not {value!r}"),
            field="contract_down",
            choices=CONTRACT_DOWN,
            value=contract_down,
        )
    return Violation("contract_already_down", {"contract_down": contract_down})


def _assign_types(
    ruleset: Ruleset,
    contract: Contract,
    melds: Sequence[Sequence[Card]],
    types: Sequence[MeldType | None] | None,
    readers: Mapping[MeldType, _Reader] = _READERS,
) -> list[Meld]:
    """Read each meld, deciding set or run where the cards alone leave it open.

    A meld that reads legally one way only is that; an open one (one natural and wild cards,
    or a broken meld) becomes what the contract still lacks, so that a broken set in a
    two-sets round is reported as a broken set.
    """
    readings: list[Meld | None] = [None] * len(melds)
    open_melds: list[tuple[int, dict[MeldType, Meld]]] = []
    need: dict[MeldType, int] = {"set": contract.sets, "run": contract.runs}
    for index, cards in enumerate(melds):
        declared = types[index] if types is not None and index < len(types) else None
        if declared is not None:
            readings[index] = readers[declared](cards, ruleset)
            need[declared] -= 1
            continue
        plausible = plausible_types(cards, ruleset)
        if len(plausible) == 1:  # the usual case: the cards say what they are
            meld = readers[plausible[0]](cards, ruleset)
            if meld.valid:
                readings[index] = meld
                need[meld.type] -= 1
                continue
            options = {meld.type: meld}
        else:
            options = {t: readers[t](cards, ruleset) for t in plausible}
            valid = [t for t, m in options.items() if m.valid]
            if len(valid) == 1:
                readings[index] = options[valid[0]]
                need[valid[0]] -= 1
                continue
        open_melds.append((index, options))
    # Legal-either-way melds first, then broken ones, each taking what is still needed.
    open_melds.sort(key=lambda item: not any(m.valid for m in item[1].values()))
    for index, options in open_melds:
        wanted = [t for t in MELD_TYPES if need[t] > 0]
        choice: MeldType
        if len(options) == 1:
            choice = next(iter(options))
        elif wanted:
            choice = max(wanted, key=lambda t: need[t])
        else:
            choice = min(options, key=lambda t: len(options[t].violations))
        if choice not in options:
            options[choice] = readers[choice](melds[index], ruleset)
        readings[index] = options[choice]
        need[choice] -= 1
    return [reading for reading in readings if reading is not None]


def _check_sizes(
    spec: RoundSpec,
    wanted: Sequence[MeldSpec],
    readings: list[Meld],
    indexes: list[int],
    violations: list[Violation],
) -> None:
    """Each meld against the contract meld it fills: longest meld to the largest minimum."""
    if len(wanted) == 1 and len(indexes) == 1:  # the common case needs no pairing
        pairs: Iterable[tuple[int, int]] = ((indexes[0], wanted[0].min),)
    else:
        minima = sorted((w.min for w in wanted), reverse=True)
        by_length = sorted(indexes, key=lambda i: -len(readings[i].cards))
        pairs = zip(by_length, minima, strict=False)
    for index, minimum in pairs:
        meld = readings[index]
        length = len(meld.cards)
        if length < minimum:
            code = f"{meld.type}_too_short"
            if not any(v.code == code for v in meld.violations):
                violations.append(Violation(code, {"min": minimum, "length": length}, meld=index))
        elif length > minimum and spec.exact_minimum:
            violations.append(
                Violation(
                    "exceeds_contract_minimum",
                    {"round": spec.number, "type": meld.type, "min": minimum, "length": length},
                    meld=index,
                )
            )


def _check_run_spacing(
    ruleset: Ruleset, readings: list[Meld], runs: list[int]
) -> Iterable[Violation]:
    """Two runs of one suit in one contract: docs/rules.md §3.2 (no touching) and May I's gap."""
    if ruleset.runs_may_touch and not ruleset.same_suit_run_gap:
        return
    placed = [
        (i, readings[i])
        for i in runs
        if readings[i].low is not None and readings[i].suit is not None
    ]
    for a in range(len(placed)):
        for b in range(a + 1, len(placed)):
            (_, first), (j, second) = placed[a], placed[b]
            if first.suit is not second.suit:
                continue
            lower, upper = sorted((first, second), key=lambda m: m.low or 0)
            gap = (upper.low or 0) - (lower.high or 0) - 1
            params = {
                "suit": suit_name(first.suit, plural=True),
                "first": lower.span_text(),
                "second": upper.span_text(),
            }
            # A gap rule is the stricter one (it forbids overlapping too), so it speaks first:
            # "leave a gap or overlap them" would be wrong advice under it.
            if ruleset.same_suit_run_gap:
                if gap < ruleset.same_suit_run_gap:
                    yield Violation(
                        "runs_too_close",
                        {**params, "gap": ruleset.same_suit_run_gap, "actual": max(gap, 0)},
                        meld=j,
                    )
            elif gap == 0 and not ruleset.runs_may_touch:
                yield Violation("runs_touch", params, meld=j)


def _check_going_out(
    ruleset: Ruleset, spec: RoundSpec, remaining: Sequence[Card]
) -> Iterable[Violation]:
    if spec.whole_hand and remaining:
        yield Violation(
            "hand_not_used",
            {
                "round": spec.number,
                "count": len(remaining),
                "cards": " ".join(map(str, remaining)),
            },
        )
    elif spec.discard_to_go_out and not remaining and not ruleset.go_out_by_melding:
        yield Violation("no_discard_left", {"round": spec.number})


def _can_go_out(ruleset: Ruleset, spec: RoundSpec, remaining: int) -> bool:
    if ruleset.go_out_by_melding:
        return remaining <= (1 if spec.discard_to_go_out else 0)
    return remaining == (1 if spec.discard_to_go_out else 0)


def count_cards(cards: Iterable[Card]) -> dict[Card, int]:
    """How many of each card: ``dict(Counter(cards))``, counted by hand, as every check
    counts a hand or a meld and a Counter brings machinery a count of 53 keys does not need."""
    counts: dict[Card, int] = {}
    get = counts.get
    for card in cards:
        counts[card] = get(card, 0) + 1
    return counts


def require_possible_hand(
    ruleset: Ruleset,
    hand: Iterable[Card],
    players: int | None,
    *,
    field: str,
    jokers: int | None = None,
) -> None:
    """Raise :class:`MoveError` for ``field`` when ``hand`` holds more copies of a card (or
    more jokers) than the decks of the table hold: no such hand can be asked about."""
    beyond = copies_beyond(count_cards(hand), ruleset.table(players, jokers))
    if beyond:
        count, limit = beyond[0].params["count"], beyond[0].params["limit"]
        raise MoveError(
            N_("the hand holds {count} of {card}, but only {limit} are in play"),
            field=field,
            count=count,
            card=beyond[0].card,
            limit=limit,
        )


def copies_beyond(counts: Mapping[Card, int], table: TableSize) -> list[Violation]:
    """``too_many_copies`` for each card counted more often than the table holds it
    (docs/rules.md §2: once per deck in play; jokers, as many as the table has), in the order
    of ``counts``."""
    # The usual hand: no card, joker or not, more often than the table holds any.
    if max(counts.values(), default=0) <= min(table.decks, table.jokers):
        return []
    found = []
    for card, count in counts.items():
        limit = table.jokers if card.rank is None else table.decks
        if count > limit:
            found.append(
                Violation("too_many_copies", {"count": count, "limit": limit}, card=str(card))
            )
    return found


def check_meld(
    ruleset: Ruleset,
    cards: Sequence[Card],
    meld_type: MeldType | None = None,
    players: int | None = None,
    *,
    jokers: int | None = None,
    order: Order = "table",
) -> Meld:
    """One meld on its own, by the ruleset's minima and wild-card limits (a run laid out by
    the referee with ``order="any"``)."""
    if order == "table":
        meld = read_meld(cards, ruleset, meld_type)
    else:
        _require_order(order)
        meld = read_meld_any(cards, ruleset, meld_type)
    extra = tuple(copies_beyond(count_cards(cards), ruleset.table(players, jokers)))
    if extra:
        meld = _with(meld, extra)
    return meld


def _with(meld: Meld, violations: Iterable[Violation]) -> Meld:
    return Meld(
        meld.type,
        meld.cards,
        meld.wilds,
        (*meld.violations, *violations),
        meld.rank,
        meld.suit,
        meld.low,
        meld.high,
        meld.descending,
    )


# --- lay-offs -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LayoffVerdict:
    valid: bool
    #: The meld with the cards added, in table order.
    meld: Meld
    violations: tuple[Violation, ...]


def _timing(ruleset: Ruleset, spec: RoundSpec, contract_down: ContractDown) -> list[Violation]:
    if contract_down not in CONTRACT_DOWN:
        raise MoveError(
            N_("contract_down must be one of {choices}, not {value!r}"),
            field="contract_down",
            choices=CONTRACT_DOWN,
            value=contract_down,
        )
    if spec.whole_hand:
        return [Violation("whole_hand_round", {"round": spec.number})]
    if contract_down == "no":
        return [
            Violation(
                "contract_not_down",
                {"detail": Phrase(N_("lay-offs need one's own contract on the table first"))},
            )
        ]
    if contract_down == "this_turn" and ruleset.layoff_timing == "next_turn":
        return [Violation("layoff_same_turn")]
    return []


def check_layoff(
    ruleset: Ruleset,
    round_number: int,
    meld: Sequence[Card],
    cards: Sequence[Card],
    contract_down: ContractDown,
    end: End | None = None,
    players: int | None = None,
    meld_type: MeldType | None = None,
    *,
    jokers: int | None = None,
    order: Order = "table",
) -> LayoffVerdict:
    """Add ``cards`` from hand to a meld on the table (docs/rules.md §3: lay-offs).

    ``cards`` may come in any order (each goes where it fits); ``order="any"`` says the table
    meld's cards were given in any order too, for the referee to lay out.
    """
    spec = ruleset.round(round_number)
    if not cards:
        raise MoveError(N_("a lay-off adds at least one card"), field="cards")
    if end not in (None, "low", "high"):
        raise MoveError(N_("end must be 'low' or 'high', not {end!r}"), field="end", end=end)
    violations = _timing(ruleset, spec, contract_down)
    if order == "table":
        table_meld = read_meld(meld, ruleset, meld_type)
    else:
        _require_order(order)
        table_meld = read_meld_any(meld, ruleset, meld_type)
    if not table_meld.valid:
        violations.append(
            Violation("table_meld_invalid", {"detail": table_meld.violations[0].words})
        )
        return LayoffVerdict(False, table_meld, tuple(violations))
    if table_meld.type == "set":
        result_cards, placing = add_to_set(ruleset, table_meld, cards)
    else:
        result_cards, placing = add_to_run(ruleset, table_meld, cards, end)
    violations.extend(placing)
    result = read_meld(
        result_cards, ruleset, table_meld.type, wild_limits=ruleset.wild_limits_on_layoff
    )
    if not placing:
        violations.extend(result.violations)
    violations.extend(copies_beyond(count_cards(result_cards), ruleset.table(players, jokers)))
    return LayoffVerdict(not violations, result, tuple(violations))


# --- joker swaps -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SwapVerdict:
    valid: bool
    #: The meld after the swap (the natural in the joker's place).
    meld: Meld
    #: The wild card taken off the table.
    freed: Card | None
    obligation: Obligation
    violations: tuple[Violation, ...]


def check_joker_swap(
    ruleset: Ruleset,
    round_number: int,
    meld: Sequence[Card],
    card: Card,
    contract_down: ContractDown,
    joker: int | None = None,
    meld_type: MeldType | None = None,
    players: int | None = None,
    *,
    jokers: int | None = None,
) -> SwapVerdict:
    """Take a wild card off the table by putting the natural it stands for in its place."""
    spec = ruleset.round(round_number)
    if contract_down not in CONTRACT_DOWN:
        raise MoveError(
            N_("contract_down must be one of {choices}, not {value!r}"),
            field="contract_down",
            choices=CONTRACT_DOWN,
            value=contract_down,
        )
    joker = _swapped_position(ruleset, meld, joker)
    obligation: Obligation = ruleset.freed_joker
    table_meld = read_meld(meld, ruleset, meld_type)
    violations: list[Violation] = []
    if not ruleset.swaps:
        violations.append(Violation("swaps_not_allowed"))
    if spec.whole_hand:
        violations.append(Violation("whole_hand_round", {"round": spec.number}))
    if not table_meld.valid:
        violations.append(
            Violation("table_meld_invalid", {"detail": table_meld.violations[0].words})
        )
    wild = next((w for w in table_meld.wilds if w.index == joker), None)
    taken = meld[joker]
    if wild is None:
        violations.append(Violation("no_wild_there", {"index": joker}, card=str(taken)))
        return SwapVerdict(False, table_meld, None, obligation, tuple(violations))
    if ruleset.swaps:
        violations.extend(_swap_limits(ruleset, table_meld, taken, contract_down))
    fits = (
        card.rank == table_meld.rank if table_meld.type == "set" else str(card) == wild.stands_for
    )
    if ruleset.is_wild(card) or not fits:
        violations.append(
            Violation("swap_card_mismatch", {"stands_for": wild.stands_for}, card=str(card))
        )
    swapped = tuple(card if i == joker else c for i, c in enumerate(meld))
    result = read_meld(swapped, ruleset, table_meld.type)
    # The natural comes from the hand: with it, the meld may hold more copies than the decks.
    violations.extend(copies_beyond(count_cards(swapped), ruleset.table(players, jokers)))
    return SwapVerdict(not violations, result, taken, obligation, tuple(violations))


def _swapped_position(ruleset: Ruleset, meld: Sequence[Card], joker: int | None) -> int:
    """The position of the wild card to take: the one given, or the meld's only wild card."""
    wild_at = [i for i, c in enumerate(meld) if ruleset.is_wild(c)]
    if joker is None:
        if len(wild_at) > 1:
            raise MoveError(
                N_("the meld holds {count} wild cards (at {at}); say which with 'joker'"),
                field="joker",
                count=len(wild_at),
                at=wild_at,
            )
        joker = wild_at[0] if wild_at else 0
    if not 0 <= joker < len(meld):
        raise MoveError(
            N_("the meld has positions 0 to {last}, not {joker}"),
            field="joker",
            last=len(meld) - 1,
            joker=joker,
        )
    return joker


def _swap_limits(
    ruleset: Ruleset, table_meld: Meld, taken: Card, contract_down: ContractDown
) -> list[Violation]:
    """Why a ruleset that has joker swaps forbids this one: where the wild card lies, what it
    is, and whether the swapper's contract is down."""
    violations: list[Violation] = []
    locked = None
    if table_meld.type == "set" and not ruleset.swap_from_sets:
        locked = N_("a joker in a set is locked")
    if table_meld.type == "run" and not ruleset.swap_from_runs:
        locked = N_("a joker in a run is locked")
    if locked is not None:
        violations.append(Violation("joker_locked", {"detail": Phrase(locked)}, card=str(taken)))
    if ruleset.swap_jokers_only and not taken.is_joker:
        violations.append(
            Violation(
                "joker_locked",
                {
                    "detail": Phrase(
                        N_("only jokers may be taken; {card} stays where it lies"),
                        {"card": str(taken)},
                    )
                },
                card=str(taken),
            )
        )
    if ruleset.swap_timing == "earlier_turn" and contract_down != "earlier_turn":
        violations.append(
            Violation(
                "contract_not_down",
                {
                    "detail": Phrase(
                        N_(
                            "a joker may be swapped only once one's contract was laid on an"
                            " earlier turn"
                        )
                    )
                },
            )
        )
    elif ruleset.swap_timing == "not_down" and contract_down != "no":
        violations.append(Violation("swap_after_contract"))
    return violations


# --- buying ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Refusal:
    seat: int
    violation: Violation


@dataclass(frozen=True, slots=True)
class BuyVerdict:
    winner: int | None
    penalty_cards: int
    refused: tuple[Refusal, ...]


def check_buy(
    ruleset: Ruleset,
    round_number: int,
    seats: int,
    on_turn: int,
    callers: Sequence[int],
    buys_used: Mapping[int, int] | None = None,
    previous_buyer: int | None = None,
    down: Iterable[int] = (),
) -> BuyVerdict:
    """Who gets the discard when ``callers`` ask to buy it (docs/rules.md §3, buying)."""
    ruleset.round(round_number)
    ruleset.table(seats)
    buys_used = buys_used or {}
    down = set(down)
    for name, seat in [
        ("on_turn", on_turn),
        ("previous_buyer", previous_buyer),
        *(("callers", c) for c in callers),
        *(("buys_used", s) for s in buys_used),
        *(("down", s) for s in down),
    ]:
        if seat is not None and not 0 <= seat < seats:
            raise MoveError(
                N_("seat {seat} is not at a table of {seats}"), field=name, seat=seat, seats=seats
            )
    for seat, used in buys_used.items():
        if used < 0:
            raise MoveError(
                N_("seat {seat} cannot have used {used} buys"),
                field="buys_used",
                seat=seat,
                used=used,
            )
    if on_turn in callers:
        raise MoveError(
            N_("seat {seat} is on turn: taking the discard is its draw, not a buy"),
            field="callers",
            seat=on_turn,
        )
    if len(set(callers)) != len(callers):
        raise MoveError(N_("a seat calls at most once"), field="callers")
    discarder = (on_turn - 1) % seats
    refused: list[Refusal] = []
    eligible: list[int] = []
    for seat in callers:
        reasons: list[Violation] = []
        if not ruleset.buying:
            reasons.append(Violation("buying_not_allowed"))
        else:
            if seat == discarder:
                reasons.append(Violation("own_discard", {"seat": seat}))
            used = buys_used.get(seat, 0)
            if ruleset.buy_limit is not None and used >= ruleset.buy_limit:
                reasons.append(
                    Violation(
                        "buy_limit_reached",
                        {"seat": seat, "used": used, "limit": ruleset.buy_limit},
                    )
                )
            if ruleset.no_consecutive_buys and previous_buyer == seat:
                reasons.append(Violation("consecutive_buy", {"seat": seat}))
            if not ruleset.buy_when_down and seat in down:
                reasons.append(Violation("caller_down", {"seat": seat}))
        if reasons:
            refused.extend(Refusal(seat, reason) for reason in reasons)
        else:
            eligible.append(seat)
    # The caller nearest the player on turn, clockwise, wins.
    eligible.sort(key=lambda seat: (seat - on_turn) % seats)
    winner = eligible[0] if eligible else None
    refused.extend(
        Refusal(seat, Violation("nearer_caller", {"winner": winner})) for seat in eligible[1:]
    )
    refused.sort(key=lambda r: (r.seat - on_turn) % seats)
    return BuyVerdict(
        winner, ruleset.buy_penalty_cards if winner is not None else 0, tuple(refused)
    )


# --- penalties -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Penalty:
    total: int
    cards: tuple[tuple[Card, int], ...]
    #: Why no table could deal this hand (``too_many_copies``); the total is counted anyway.
    violations: tuple[Violation, ...] = ()


def penalty(
    ruleset: Ruleset,
    cards: Sequence[Card],
    players: int | None = None,
    *,
    jokers: int | None = None,
) -> Penalty:
    """What the cards left in a hand cost at the end of a round.

    A hand no table could deal (more copies of a card, or more jokers, than the decks of the
    table hold: docs/rules.md §2) is still counted, card by card, and says why it cannot exist.
    """
    scored = tuple((card, ruleset.points(card)) for card in cards)
    impossible = copies_beyond(count_cards(cards), ruleset.table(players, jokers))
    return Penalty(sum(points for _, points in scored), scored, tuple(impossible))
