"""The presets: every ruleset the referee knows by id, and how a request names one.

A preset is a :class:`~rules.ruleset.Ruleset` written out field by field from its sheet (the
sources are listed in docs/rules.md §"Sources"); a variant is its base with some fields
replaced; a house ruleset is a preset plus options (:meth:`Ruleset.with_options`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

from rules.cards import Rank
from rules.errors import RulesetError
from rules.i18n import N_
from rules.ruleset import FACE_TENS, PIP_VALUE, Contract, RoundSpec, Ruleset, TableSize


def _rounds_of(
    *plan: tuple[str, int],
    whole_hand_last: bool = False,
    exact: Iterable[int] = (),
    last_discard: bool = True,
) -> tuple[RoundSpec, ...]:
    exact = set(exact)
    rounds = []
    for number, (text, hand) in enumerate(plan, start=1):
        last = number == len(plan)
        whole = whole_hand_last and last
        rounds.append(
            RoundSpec(
                number,
                Contract.parse(text),
                hand,
                whole_hand=whole,
                discard_to_go_out=not whole and (last_discard or not last),
                exact_minimum=number in exact,
            )
        )
    return tuple(rounds)


_LIVERPOOL_ROUNDS = _rounds_of(
    ("2 sets", 10),
    ("1 set + 1 run", 10),
    ("2 runs", 10),
    ("3 sets", 10),
    ("2 sets + 1 run", 12),
    ("1 set + 2 runs", 12),
    ("1 run of 7", 12),
    last_discard=False,
)

LIVERPOOL = Ruleset(
    id="liverpool",
    name=N_("Liverpool Rummy"),
    family="liverpool",
    description=N_(
        "British seven-round contract rummy with buying and joker swaps (the German, "
        "Dutch and Italian Liverpool sheets)."
    ),
    min_players=3,
    max_players=8,
    tables=(TableSize(4, 2, 4), TableSize(8, 3, 6)),
    rounds=_LIVERPOOL_ROUNDS,
    layoff_timing="same_turn",
    set_min_naturals=2,
    run_min_naturals=1,
    wilds_outside_span=1,
    swaps=True,
    swap_from_sets=True,
    swap_from_runs=True,
    swap_timing="any",
    freed_joker="own_meld_now",
    buying=True,
    buy_limit=3,
    buy_penalty_cards=1,
    rank_points=FACE_TENS,
    joker_points=15,
    tie_break="last_round",
    cutter="left_of_dealer",
    first_dealer="agreed",
)

CONTRACT_RUMMY = Ruleset(
    id="contract-rummy",
    name=N_("Contract Rummy (Pagat)"),
    family="contract-rummy",
    description=N_(
        "Pagat's Contract Rummy: exact-minimum contracts, locked set jokers, no buy "
        "limit (the Norwegian sheet)."
    ),
    min_players=3,
    max_players=5,
    tables=(TableSize(3, 2, 2), TableSize(4, 2, 3), TableSize(5, 2, 4)),
    rounds=_rounds_of(
        ("2 sets", 10),
        ("1 set + 1 run", 10),
        ("2 runs", 10),
        ("3 sets", 12),
        ("2 sets + 1 run", 12),
        ("1 set + 2 runs", 12),
        ("3 runs", 12),
        whole_hand_last=True,
        exact=range(1, 7),
    ),
    runs_may_touch=False,
    layoff_timing="next_turn",
    set_min_naturals=1,
    run_min_naturals=1,
    swaps=True,
    swap_from_sets=False,
    swap_from_runs=True,
    swap_timing="earlier_turn",
    freed_joker="table_this_turn",
    buying=True,
    buy_limit=None,
    buy_penalty_cards=1,
    no_consecutive_buys=True,
    rank_points=PIP_VALUE,
    joker_points=15,
    tie_break="shared",
    cutter="right_of_dealer",
    first_dealer="agreed",
)

_PROGRESSIVE_PLAN = (
    ("2 sets", 10),
    ("1 set + 1 run", 10),
    ("2 runs", 10),
    ("3 sets", 10),
    ("2 sets + 1 run", 12),
    ("1 set + 2 runs", 12),
    ("3 runs", 12),
)

PROGRESSIVE = Ruleset(
    id="progressive",
    name=N_("Progressive Rummy (Vertragsrommé)"),
    family="progressive",
    description=N_(
        "Progressive Rummy: exact contract combinations, no joker swaps, 25-point jokers "
        "(the German Progressive sheet)."
    ),
    min_players=3,
    max_players=8,
    tables=(TableSize(6, 2, 4), TableSize(8, 3, 6)),
    rounds=_rounds_of(*_PROGRESSIVE_PLAN, whole_hand_last=True),
    layoff_timing="next_turn",
    set_min_naturals=1,
    run_min_naturals=1,
    swaps=False,
    swap_from_sets=False,
    swap_from_runs=False,
    buying=True,
    buy_limit=3,
    buy_penalty_cards=1,
    rank_points=FACE_TENS,
    joker_points=25,
    tie_break="last_round",
    cutter="right_of_dealer",
    first_dealer="highest_card",
)


def _variant(base: Ruleset, id: str, name: str, description: str, **changes: Any) -> Ruleset:
    return dataclasses.replace(
        base, id=id, name=name, description=description, base=base.id, **changes
    )


_SHANGHAI_ROUNDS = (
    *_rounds_of(*_PROGRESSIVE_PLAN, whole_hand_last=True),
    # docs/rules.md §3.3: 13 cards after the draw are exactly 3 sets + 1 run, so round 8 is
    # whole-hand.
    RoundSpec(8, Contract.parse("3 sets + 1 run"), 12, whole_hand=True, discard_to_go_out=False),
)

MAY_I = Ruleset(
    id="may-i",
    name=N_("May I?"),
    family="may-i",
    description=N_(
        "The North American family game as the peer engine DroopyTersen/mayi plays it: twos and "
        "jokers wild, aces high, six rounds of 11 cards, the last laid as the whole hand."
    ),
    min_players=3,
    max_players=8,
    tables=(TableSize(5, 2, 4), TableSize(8, 3, 6)),
    wild_ranks=frozenset({Rank.TWO}),
    wild_rank_in_melds=False,
    ace_low=False,
    ace_high=True,
    rounds=(
        *_rounds_of(
            ("2 sets", 11),
            ("1 set + 1 run", 11),
            ("2 runs", 11),
            ("3 sets", 11),
            ("2 sets + 1 run", 11),
        ),
        RoundSpec(
            6, Contract.parse("1 set + 2 runs"), 11, whole_hand=True, discard_to_go_out=False
        ),
    ),
    runs_may_touch=False,
    same_suit_run_gap=2,
    layoff_timing="next_turn",
    set_min_naturals=1,
    run_min_naturals=1,
    wilds_at_most_naturals=True,
    wild_limits_on_layoff=False,
    swaps=True,
    swap_from_sets=False,
    swap_from_runs=True,
    swap_jokers_only=True,
    swap_timing="not_down",
    freed_joker="hand",
    buying=True,
    buy_limit=None,
    buy_penalty_cards=1,
    buy_when_down=False,
    go_out_by_melding=True,
    rank_points=(15, 20, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10),
    joker_points=50,
    wild_rank_points=20,
    tie_break="shared",
    cutter="right_of_dealer",
)

#: Every preset, by id, in the order docs/rules.md lists them.
PRESETS: dict[str, Ruleset] = {
    ruleset.id: ruleset
    for ruleset in (
        LIVERPOOL,
        _variant(
            LIVERPOOL,
            "liverpool-9",
            N_("Liverpool Rummy, 9 rounds"),
            N_("Liverpool with two more rounds: 3 runs, then 2 runs of 5."),
            rounds=(
                *_LIVERPOOL_ROUNDS,
                RoundSpec(8, Contract.parse("3 runs"), 12),
                RoundSpec(9, Contract.parse("2 runs of 5"), 12),
            ),
        ),
        _variant(
            LIVERPOOL,
            "liverpool-fixed-hand",
            N_("Liverpool Rummy, fixed hand"),
            N_("Liverpool with 10 cards dealt in every round."),
            rounds=tuple(dataclasses.replace(spec, hand_size=10) for spec in _LIVERPOOL_ROUNDS),
        ),
        _variant(
            LIVERPOOL,
            "liverpool-no-buy",
            N_("Liverpool Rummy, no buying"),
            N_("Liverpool without buying discards out of turn."),
            buying=False,
        ),
        CONTRACT_RUMMY,
        PROGRESSIVE,
        _variant(
            PROGRESSIVE,
            "shanghai",
            N_("Shanghai Rummy"),
            N_("Progressive Rummy with an eighth round: 3 sets + 1 run, the whole hand."),
            rounds=_SHANGHAI_ROUNDS,
        ),
        _variant(
            PROGRESSIVE,
            "california",
            N_("California Contract"),
            N_("Progressive Rummy with the queens as the wild cards and no jokers."),
            tables=(TableSize(6, 2, 0), TableSize(8, 3, 0)),
            wild_ranks=frozenset({Rank.QUEEN}),
            wild_rank_points=25,
        ),
        _variant(
            PROGRESSIVE,
            "progressive-no-buy",
            N_("Progressive Rummy, no buying"),
            N_("Progressive Rummy without buying discards out of turn."),
            buying=False,
        ),
        _variant(
            PROGRESSIVE,
            "double-progressive",
            N_("Double Progressive Rummy"),
            N_("Progressive Rummy with 7 cards dealt in round 1."),
            rounds=(
                dataclasses.replace(PROGRESSIVE.rounds[0], hand_size=7),
                *PROGRESSIVE.rounds[1:],
            ),
        ),
        MAY_I,
    )
}


def find_ruleset(ruleset_id: str) -> Ruleset:
    """The preset with this id; raise :class:`RulesetError` naming the presets if there is none."""
    try:
        return PRESETS[ruleset_id]
    except (KeyError, TypeError):
        raise RulesetError(
            N_("unknown ruleset {input!r}; the presets are: {presets}"),
            field="ruleset",
            input=ruleset_id,
            presets=", ".join(PRESETS),
        ) from None


def resolve_ruleset(spec: str | Mapping[str, Any] | Ruleset) -> Ruleset:
    """A preset id, or ``{"base": id, "options": {...}}`` for a house ruleset."""
    if isinstance(spec, Ruleset):
        return spec
    if isinstance(spec, str):
        return find_ruleset(spec)
    if isinstance(spec, Mapping):
        unknown = set(spec) - {"base", "options"}
        if unknown or "base" not in spec:
            raise RulesetError(
                N_('a house ruleset is {{"base": preset id, "options": {{...}}}}'), field="ruleset"
            )
        base = find_ruleset(spec["base"])
        options = spec.get("options", {})
        if not isinstance(options, Mapping):
            raise RulesetError(
                N_("options must be an object of parameter values, not {options!r}"),
                field="ruleset.options",
                options=options,
            )
        if not options:
            return base
        try:
            return base.with_options(options)
        except RulesetError as error:
            raise RulesetError.about(f"ruleset.{error.field or 'options'}", error) from None
    raise RulesetError(N_("not a ruleset: {spec!r}"), field="ruleset", spec=spec)


__all__ = [
    "CONTRACT_RUMMY",
    "LIVERPOOL",
    "MAY_I",
    "PRESETS",
    "PROGRESSIVE",
    "find_ruleset",
    "resolve_ruleset",
]
