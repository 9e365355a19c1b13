"""Joker swaps (docs/rules.md §3): who may take a joker off the table, for which natural, and where
the
freed joker must go."""

from __future__ import annotations

import pytest
from rules_testing import LIVERPOOL_FAMILY, PROGRESSIVE_FAMILY, C, codes, result

import rules
from rules import Card, check_joker_swap, find_ruleset

DOWN = ("no", "this_turn", "earlier_turn")


def swap(
    preset: str,
    meld: str,
    card: str,
    down: str = "earlier_turn",
    joker: int | None = None,
    number: int = 1,
) -> rules.SwapVerdict:
    return check_joker_swap(
        find_ruleset(preset),
        number,
        C(meld),
        Card.parse(card),
        down,  # type: ignore[arg-type]
        joker,
    )


# --- Liverpool ------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", LIVERPOOL_FAMILY)
@pytest.mark.parametrize("down", DOWN)
@pytest.mark.parametrize(
    ("meld", "card", "expected"),
    [
        # docs/rules.md §3.1: "Jokers in sets may be swapped for any natural of the set's rank."
        ("7H 7S JK", "7D", "7H 7S 7D"),
        ("7H 7S JK", "7C", "7H 7S 7C"),
        ("7H 7S JK", "7H", "7H 7S 7H"),
        ("JK 7H 7S 7D", "7C", "7C 7H 7S 7D"),
        # runs: the card the joker stands for
        ("5H JK 7H 8H", "6H", "5H 6H 7H 8H"),
        ("JK 5H 6H 7H", "4H", "4H 5H 6H 7H"),
        ("5H 6H 7H JK", "8H", "5H 6H 7H 8H"),
        ("8H JK 6H 5H", "7H", "8H 7H 6H 5H"),
        ("JK QH KH AH", "JH", "JH QH KH AH"),
        ("AH JK 3H 4H", "2H", "AH 2H 3H 4H"),
    ],
)
def test_liverpool_swap_for_the_natural_the_joker_stands_for(
    preset: str, down: str, meld: str, card: str, expected: str
) -> None:
    # the German Liverpool sheet: "Joker-Tausch: Wenn Sie in Ihrem Zug (während der Meldungs- oder
    #                             Anlegephase) die
    #      natürliche Karte besitzen, die ein auf dem Tisch liegender Joker darstellt, dürfen Sie
    #      Ihre natürliche Karte gegen diesen Joker tauschen und den zurückgeholten Joker sofort als
    #      Wildkarte in Ihrer eigenen Meldung verwenden."
    # docs/rules.md §3.1: "The contract need not be down beforehand."
    verdict = swap(preset, meld, card, down)
    assert verdict.valid, codes(verdict)
    assert result(verdict) == expected
    assert verdict.meld.valid
    assert verdict.freed == rules.JOKER
    # "the freed joker must at once be used as a wild card in a meld of that player's own"
    assert verdict.obligation == "own_meld_now"


@pytest.mark.parametrize("preset", LIVERPOOL_FAMILY)
@pytest.mark.parametrize(
    ("meld", "card"),
    [
        ("7H 7S JK", "8H"),
        ("5H JK 7H 8H", "6S"),
        ("5H JK 7H 8H", "7H"),
        ("5H JK 7H 8H", "JK"),
        ("JK 5H 6H 7H", "8H"),
    ],
)
def test_liverpool_swap_needs_the_card_the_joker_stands_for(
    preset: str, meld: str, card: str
) -> None:
    # the Dutch Liverpool sheet: "als je de natuurlijke kaart bezit die een joker op tafel
    #                            vertegenwoordigt"
    verdict = swap(preset, meld, card)
    assert not verdict.valid
    assert [(v.code, v.card) for v in verdict.violations] == [("swap_card_mismatch", card)]


@pytest.mark.parametrize("preset", LIVERPOOL_FAMILY)
def test_liverpool_swap_of_a_gap_joker_among_several(preset: str) -> None:
    # docs/api.md: "joker (index of the wild card in meld; required when the meld holds more than
    # one)"
    verdict = swap(preset, "5H JK JK 8H", "7H", joker=2)
    assert verdict.valid
    assert result(verdict) == "5H JK 7H 8H"
    assert [(w.index, w.stands_for) for w in verdict.meld.wilds] == [(1, "6H")]
    assert not swap(preset, "5H JK JK 8H", "7H", joker=1).valid


@pytest.mark.parametrize("preset", LIVERPOOL_FAMILY)
def test_liverpool_swaps_in_round_seven_too(preset: str) -> None:
    verdict = swap(preset, "5H JK 7H 8H 9H 10H JH", "6H", "this_turn", number=7)
    assert verdict.valid and result(verdict) == "5H 6H 7H 8H 9H 10H JH"


# --- Contract Rummy -------------------------------------------------------------------------


@pytest.mark.parametrize("down", DOWN)
@pytest.mark.parametrize("meld", ["7H 7S JK", "JK JK 7H", "7H JK 7S 7D"])
def test_contract_rummy_set_jokers_are_locked(down: str, meld: str) -> None:
    # the Norwegian sheet: "En joker i et sett er låst og kan ikke hentes ut i dette regelsettet."
    joker = meld.split().index("JK")
    verdict = swap("contract-rummy", meld, "7C", down, joker=joker)
    assert not verdict.valid
    assert "joker_locked" in codes(verdict)
    assert ("joker_locked", "JK") in [(v.code, v.card) for v in verdict.violations]


@pytest.mark.parametrize(("meld", "card"), [("5H JK 7H 8H", "6H"), ("JK 5H 6H 7H", "4H")])
def test_contract_rummy_run_swap_after_an_earlier_turns_contract(meld: str, card: str) -> None:
    # the Norwegian sheet: "Når du allerede har lagt kontrakt på en tidligere tur, kan du på din tur
    #                      bytte inn det
    #      ekte kortet og bruke jokeren et annet sted på bordet samme tur. Den kan ikke lagres på
    #      hånden."
    verdict = swap("contract-rummy", meld, card, "earlier_turn")
    assert verdict.valid, codes(verdict)
    assert verdict.freed == rules.JOKER
    assert verdict.obligation == "table_this_turn"
    for down in ("no", "this_turn"):
        verdict = swap("contract-rummy", meld, card, down)
        assert codes(verdict) == ["contract_not_down"]
        assert verdict.obligation == "table_this_turn"


def test_contract_rummy_run_swap_needs_the_right_card() -> None:
    verdict = swap("contract-rummy", "5H JK 7H 8H", "6D")
    assert [(v.code, v.card) for v in verdict.violations] == [("swap_card_mismatch", "6D")]


def test_contract_rummy_no_swaps_in_the_whole_hand_round() -> None:
    # the Norwegian sheet: round 7 is laid all at once and ends the round: no contract from an
    #                      earlier turn.
    assert not swap("contract-rummy", "5H JK 7H 8H", "6H", number=7).valid


# --- Progressive and its variants -----------------------------------------------------------


@pytest.mark.parametrize("preset", PROGRESSIVE_FAMILY)
@pytest.mark.parametrize("down", DOWN)
@pytest.mark.parametrize(("meld", "card"), [("5H W 7H 8H", "6H"), ("7H 7S W", "7D")])
def test_progressive_has_no_joker_swaps(preset: str, down: str, meld: str, card: str) -> None:
    # docs/rules.md §3.3: "The sheet describes no joker swap: swaps are not allowed (house option)."
    wild = "QS" if preset == "california" else "JK"
    verdict = swap(preset, meld.replace("W", wild), card, down)
    assert not verdict.valid
    assert "swaps_not_allowed" in codes(verdict)


def test_progressive_house_option_allows_swaps() -> None:
    # docs/rules.md §3.3: swaps are "not allowed (house option)" -- a house may allow them, and must
    # say from which melds: switching swaps on alone names no meld and is refused, not guessed.
    house = find_ruleset("progressive").with_options({"swaps": True, "swap_from_runs": True})
    verdict = check_joker_swap(house, 1, C("5H JK 7H 8H"), Card.parse("6H"), "earlier_turn")
    assert verdict.valid
    with pytest.raises(rules.RulesetError) as caught:
        find_ruleset("progressive").with_options({"swaps": True})
    assert caught.value.field == "options.swaps"


# --- the position named ---------------------------------------------------------------------


@pytest.mark.parametrize("preset", (*LIVERPOOL_FAMILY, "contract-rummy"))
@pytest.mark.parametrize(
    ("meld", "joker", "card"), [("5H JK 7H 8H", 0, "5H"), ("5H JK 7H 8H", 3, "8H")]
)
def test_no_wild_there(preset: str, meld: str, joker: int, card: str) -> None:
    verdict = swap(preset, meld, "6H", joker=joker)
    assert not verdict.valid
    assert ("no_wild_there", card) in [(v.code, v.card) for v in verdict.violations]
    assert verdict.freed is None


def test_a_meld_without_a_wild_card() -> None:
    verdict = swap("liverpool", "5H 6H 7H 8H", "6H")
    assert "no_wild_there" in codes(verdict)
    assert not verdict.valid


def test_several_wild_cards_need_an_index() -> None:
    # docs/api.md: "required when the meld holds more than one wild card, else a 422"
    with pytest.raises(rules.MoveError) as caught:
        swap("liverpool", "5H JK JK 8H", "6H")
    assert caught.value.field == "joker"


@pytest.mark.parametrize("joker", [4, -1, 99])
def test_a_position_outside_the_meld(joker: int) -> None:
    with pytest.raises(rules.MoveError) as caught:
        swap("liverpool", "5H JK 7H 8H", "6H", joker=joker)
    assert caught.value.field == "joker"


def test_contract_down_must_be_one_of_three_values() -> None:
    with pytest.raises(rules.MoveError) as caught:
        swap("liverpool", "5H JK 7H 8H", "6H", "soon")
    assert caught.value.field == "contract_down"


def test_a_round_the_ruleset_does_not_have() -> None:
    with pytest.raises(rules.RoundError):
        swap("liverpool", "5H JK 7H 8H", "6H", number=8)


# --- copies of a card -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("meld", "players", "expected"),
    [
        # docs/rules.md §2: "The same card may appear once per deck in play: at most 2 copies with
        # two
        # decks, 3 with three." The natural comes from the hand, on top of the meld's own.
        ("7H 7H 7H JK", None, ["too_many_copies"]),  # a fourth 7H: three decks at most
        ("7H 7H JK", None, []),
        ("7H 7H JK", 3, ["too_many_copies"]),  # liverpool: two decks for 3-4 players
        ("7H 7H JK", 5, []),
        ("7S 7H 7H JK", 4, ["too_many_copies"]),
    ],
)
def test_a_swap_cannot_make_more_copies_than_the_decks_hold(
    meld: str, players: int | None, expected: list[str]
) -> None:
    verdict = check_joker_swap(
        find_ruleset("liverpool"), 2, C(meld), Card.parse("7H"), "earlier_turn", players=players
    )
    assert codes(verdict) == expected
    assert verdict.valid == (not expected)
    if expected:
        assert verdict.violations[0].card == "7H"
