"""Buying the discard out of turn (docs/rules.md §3): who wins it, who may not buy, and its
price."""

from __future__ import annotations

import pytest
from rules_testing import ALL_PRESETS

import rules
from rules import check_buy, find_ruleset

NO_BUY = ("liverpool-no-buy", "progressive-no-buy")
BUYING = tuple(p for p in ALL_PRESETS if p not in NO_BUY)
LIMIT_THREE = tuple(p for p in BUYING if p != "contract-rummy")


def buy(
    preset: str,
    seats: int,
    on_turn: int,
    callers: list[int],
    used: dict[int, int] | None = None,
    previous: int | None = None,
    number: int = 1,
) -> rules.BuyVerdict:
    return check_buy(find_ruleset(preset), number, seats, on_turn, callers, used, previous)


def refusals(verdict: rules.BuyVerdict) -> list[tuple[int, str]]:
    return [(r.seat, r.violation.code) for r in verdict.refused]


def reasons(verdict: rules.BuyVerdict, seat: int) -> set[str]:
    return {r.violation.code for r in verdict.refused if r.seat == seat}


# --- who wins -------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", BUYING)
@pytest.mark.parametrize(
    ("seats", "on_turn", "callers", "winner"),
    [
        (5, 2, [0, 4, 3], 3),
        (5, 2, [4, 0], 4),
        (5, 2, [0], 0),
        (5, 0, [3, 2], 2),
        (4, 3, [2, 1, 0], 0),  # clockwise from seat 3 wraps to seat 0 first
        (3, 1, [2], 2),
        (5, 4, [3, 1], 1),  # seat 3 threw the card
    ],
)
def test_the_caller_nearest_after_the_player_on_turn_wins(
    preset: str, seats: int, on_turn: int, callers: list[int], winner: int
) -> None:
    # the German Liverpool sheet: "Wenn zwei oder mehr Spieler gleichzeitig ankündigen, gewinnt
    #                             derjenige Käufer, der dem
    #      aktuellen Spieler (im Uhrzeigersinn) am nächsten sitzt."
    # the Norwegian sheet: "Vil flere kjøpe, har spilleren som står nærmest i den kommende
    #                      turrekkefølgen
    #      prioritet."
    # docs/rules.md §3.3 Decision: "nearest in turn order after the player on turn wins, as in the
    # other
    # rulesets."
    verdict = buy(preset, seats, on_turn, callers)
    assert verdict.winner == winner
    assert verdict.penalty_cards == 1
    losers = {seat for seat in callers if seat != winner}
    assert {seat for seat, _ in refusals(verdict)} == losers


@pytest.mark.parametrize("preset", BUYING)
def test_the_discarder_cannot_buy_it_back(preset: str) -> None:
    # docs/rules.md §3.1 Decision (all rulesets): "the player who discarded the card cannot buy it
    # back"
    # docs/api.md: "own_discard: the caller threw that card, i.e. sits just before on_turn"
    verdict = buy(preset, 4, 2, [1])
    assert verdict.winner is None
    assert verdict.penalty_cards == 0
    assert refusals(verdict) == [(1, "own_discard")]
    verdict = buy(preset, 4, 0, [3, 1])
    assert verdict.winner == 1
    assert "own_discard" in reasons(verdict, 3)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_the_player_on_turn_does_not_buy(preset: str) -> None:
    # docs/rules.md §3.1 Decision: "the player on turn does not buy (taking the discard is that
    # player's
    # draw)." the German Progressive sheet: "Der aktive Spieler hat immer das erste Vorkaufsrecht
    # auf die Ablagekarte."
    with pytest.raises(rules.MoveError) as caught:
        buy(preset, 4, 2, [2, 3])
    assert caught.value.field == "callers"


@pytest.mark.parametrize("preset", BUYING)
def test_nobody_calls(preset: str) -> None:
    verdict = buy(preset, 4, 0, [])
    assert (verdict.winner, verdict.penalty_cards, verdict.refused) == (None, 0, ())


# --- limits ---------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", LIMIT_THREE)
def test_three_buys_a_round_at_most(preset: str) -> None:
    # the German Liverpool sheet: "Jeder Spieler darf pro Runde bis zu DREIMAL kaufen. Nach dem
    #                             dritten Kauf darf nicht
    #      mehr in dieser Runde gekauft werden."
    # the German Progressive sheet: "Jeder Spieler darf maximal 3 Mal pro Runde kaufen."
    verdict = buy(preset, 5, 0, [1, 2], {1: 3, 2: 2})
    assert verdict.winner == 2
    assert reasons(verdict, 1) == {"buy_limit_reached"}
    verdict = buy(preset, 5, 0, [1], {1: 3})
    assert verdict.winner is None
    assert refusals(verdict) == [(1, "buy_limit_reached")]
    assert buy(preset, 5, 0, [1], {1: 2}).winner == 1


def test_contract_rummy_has_no_buy_limit() -> None:
    # the Norwegian sheet: "Ikke avtal maks to kjøp og kall det denne grunnregelen; kjøpsgrenser
    #                      finnes i andre
    #      varianter."
    verdict = buy("contract-rummy", 5, 0, [1], {1: 12})
    assert verdict.winner == 1
    assert verdict.penalty_cards == 1


def test_contract_rummy_no_two_discards_in_a_row() -> None:
    # the Norwegian sheet: "Nye synlige avkastkort kan også kjøpes, men samme spiller kan ikke ta to
    #                      påfølgende
    #      kort på denne måten."
    verdict = buy("contract-rummy", 5, 0, [1, 2], previous=1)
    assert verdict.winner == 2
    assert reasons(verdict, 1) == {"consecutive_buy"}
    verdict = buy("contract-rummy", 5, 0, [1], previous=1)
    assert verdict.winner is None
    assert refusals(verdict) == [(1, "consecutive_buy")]
    assert buy("contract-rummy", 5, 0, [1], previous=2).winner == 1


@pytest.mark.parametrize("preset", LIMIT_THREE)
def test_buying_two_in_a_row_is_fine_elsewhere(preset: str) -> None:
    verdict = buy(preset, 5, 0, [1], {1: 1}, previous=1)
    assert verdict.winner == 1


@pytest.mark.parametrize("preset", NO_BUY)
def test_no_buy_variants_refuse_every_caller(preset: str) -> None:
    # the German Liverpool sheet: "No-Buy-Liverpool: Kaufen ist nicht erlaubt"; the German
    #                             Progressive sheet: "Streng ohne Kaufen: Entfernt die
    #      Kaufregel"
    verdict = buy(preset, 5, 0, [1, 2, 3])
    assert verdict.winner is None
    assert verdict.penalty_cards == 0
    assert refusals(verdict) == [
        (1, "buying_not_allowed"),
        (2, "buying_not_allowed"),
        (3, "buying_not_allowed"),
    ]


def test_every_reason_a_caller_may_not_buy_is_given() -> None:
    verdict = buy("liverpool", 4, 1, [0], {0: 3})
    assert reasons(verdict, 0) == {"own_discard", "buy_limit_reached"}
    verdict = buy("contract-rummy", 4, 1, [0], previous=0)
    assert reasons(verdict, 0) == {"own_discard", "consecutive_buy"}


# --- the price ------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", BUYING)
def test_the_buyer_takes_one_penalty_card(preset: str) -> None:
    # the German Liverpool sheet: "Der Käufer nimmt die Ablage UND eine Strafkarte vom Talon"
    # the Norwegian sheet: "Varianten bruker ett straffekort ved kjøp, ikke Shanghais to."
    # the German Progressive sheet: "Sie müssen dann auch eine Strafkarte vom Talon nehmen."
    assert buy(preset, 4, 0, [2]).penalty_cards == 1


def test_house_option_two_penalty_cards() -> None:
    # the Norwegian sheet: "Noen norske bord bruker ... flere straffekort ved kjøp"
    house = find_ruleset("contract-rummy").with_options({"buy_penalty_cards": 2})
    assert check_buy(house, 1, 4, 0, [2]).penalty_cards == 2


# --- malformed questions --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seats", "on_turn", "callers", "used", "previous", "field"),
    [
        (4, 4, [1], None, None, "on_turn"),
        (4, -1, [1], None, None, "on_turn"),
        (4, 0, [4], None, None, "callers"),
        (4, 0, [1, 1], None, None, "callers"),
        (4, 0, [1], {7: 1}, None, "buys_used"),
        (4, 0, [1], None, 9, "previous_buyer"),
    ],
)
def test_seats_not_at_the_table_raise(
    seats: int,
    on_turn: int,
    callers: list[int],
    used: dict[int, int] | None,
    previous: int | None,
    field: str,
) -> None:
    with pytest.raises(rules.MoveError) as caught:
        buy("liverpool", seats, on_turn, callers, used, previous)
    assert caught.value.field == field


@pytest.mark.parametrize(
    ("preset", "seats"), [("liverpool", 2), ("liverpool", 9), ("contract-rummy", 6)]
)
def test_a_table_the_ruleset_does_not_play(preset: str, seats: int) -> None:
    with pytest.raises(rules.RulesetError) as caught:
        buy(preset, seats, 0, [1])
    assert caught.value.field == "players"


def test_a_round_the_ruleset_does_not_have() -> None:
    with pytest.raises(rules.RoundError):
        buy("liverpool", 4, 0, [1], number=8)
