"""Lay-offs (docs/rules.md §2, §3): timing per ruleset, sets and both run ends, several cards at
once,
where a wild card goes, and the wild-card limits after the lay-off."""

from __future__ import annotations

import pytest
from rules_testing import ALL_PRESETS, LIVERPOOL_FAMILY, PROGRESSIVE_FAMILY, C, codes, result

import rules
from rules import check_layoff, find_ruleset

NEXT_TURN = ("contract-rummy", *PROGRESSIVE_FAMILY)
WITH_JOKERS = tuple(p for p in ALL_PRESETS if p != "california")


def lay_off(
    preset: str,
    meld: str,
    cards: str,
    down: str = "earlier_turn",
    end: str | None = None,
    number: int = 1,
    players: int | None = None,
) -> rules.LayoffVerdict:
    return check_layoff(
        find_ruleset(preset),
        number,
        C(meld),
        C(cards),
        down,  # type: ignore[arg-type]
        end,  # type: ignore[arg-type]
        players,
    )


def wilds(verdict: rules.LayoffVerdict) -> list[tuple[int, str]]:
    return [(w.index, w.stands_for) for w in verdict.meld.wilds]


# --- timing -----------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", LIVERPOOL_FAMILY)
@pytest.mark.parametrize("down", ["this_turn", "earlier_turn"])
def test_liverpool_lays_off_on_the_turn_of_the_contract_or_later(preset: str, down: str) -> None:
    # the German Liverpool sheet: "4. Schritt 4 (Anlegen): Wenn Ihr Kontrakt bereits auf dem Tisch
    #                             liegt, dürfen Sie
    #      einzelne Karten aus Ihrer Hand an beliebige Meldungen auf dem Tisch anlegen" -- after
    #      "Schritt 3 (Kontrakt ablegen)" of the same turn.
    verdict = lay_off(preset, "5H 6H 7H 8H", "9H", down)
    assert verdict.valid, codes(verdict)
    assert result(verdict) == "5H 6H 7H 8H 9H"


@pytest.mark.parametrize("preset", NEXT_TURN)
def test_lay_offs_wait_for_the_next_turn(preset: str) -> None:
    # the Norwegian sheet: "Fra en senere tur kan du legge kort til egne eller andres kombinasjoner.
    #                      I dette
    #      regelsettet kan du ikke legge ekstra kort samme tur som første utlegg."
    # the German Progressive sheet: "Nachdem Sie Ihren Vertrag abgelegt haben, dürfen Sie in
    #                               nachfolgenden Zügen
    #      zusätzliche Karten an jede bereits auf dem Tisch liegende Meldung anlegen"
    verdict = lay_off(preset, "5H 6H 7H 8H", "9H", "this_turn")
    assert codes(verdict) == ["layoff_same_turn"]
    assert not verdict.valid
    verdict = lay_off(preset, "5H 6H 7H 8H", "9H", "earlier_turn")
    assert verdict.valid and result(verdict) == "5H 6H 7H 8H 9H"


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_lay_offs_need_ones_own_contract_down(preset: str) -> None:
    # the German Liverpool sheet: "Wenn Ihr Kontrakt bereits auf dem Tisch liegt, dürfen Sie ...
    #                             anlegen"
    # 004 Glossar: "Vertrag: ... muss vollständig abgelegt werden, bevor angelegt werden darf."
    verdict = lay_off(preset, "5H 6H 7H 8H", "9H", "no")
    assert codes(verdict) == ["contract_not_down"]
    assert not verdict.valid


def test_contract_rummy_sheet_example_eight_of_hearts_waits() -> None:
    # the Norwegian sheet: "Hjerter 8 må vente til en senere tur; den kan ikke utvides på samme tur
    #                      som
    #      kontrakten legges."
    assert codes(lay_off("contract-rummy", "4H 5H 6H 7H", "8H", "this_turn", number=2)) == [
        "layoff_same_turn"
    ]
    verdict = lay_off("contract-rummy", "4H 5H 6H 7H", "8H", "earlier_turn", number=2)
    assert verdict.valid and result(verdict) == "4H 5H 6H 7H 8H"


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_lay_off_timing_on_a_set_too(preset: str) -> None:
    same_turn = lay_off(preset, "9S 9H 9D", "9C", "this_turn")
    assert same_turn.valid is (preset in LIVERPOOL_FAMILY)
    assert lay_off(preset, "9S 9H 9D", "9C", "earlier_turn").valid


@pytest.mark.parametrize("preset", LIVERPOOL_FAMILY)
def test_liverpool_round_seven_takes_lay_offs(preset: str) -> None:
    # the German Liverpool sheet: "Ein Spieler „geht aus”, indem er seine Hand leert: ... oder die
    #                             Sequenz der Runde 7
    #      mit seiner letzten Karte vervollständigt." -- round 7 is no whole-hand round.
    verdict = lay_off(preset, "4H 5H 6H 7H 8H 9H 10H", "JH", "this_turn", number=7)
    assert verdict.valid and result(verdict) == "4H 5H 6H 7H 8H 9H 10H JH"


@pytest.mark.parametrize(("preset", "number"), [(p, 7) for p in NEXT_TURN] + [("shanghai", 8)])
def test_no_lay_offs_in_a_whole_hand_round(preset: str, number: int) -> None:
    # the Norwegian sheet: "I runde 7 må hele hånden legges i tre rekker samtidig" -- laying it ends
    #                      the round, so
    # there is never an earlier contract to lay off from.
    verdict = lay_off(preset, "4H 5H 6H 7H", "8H", "earlier_turn", number=number)
    assert not verdict.valid


def test_contract_down_must_be_one_of_three_values() -> None:
    # docs/api.md: contract_down: "earlier_turn", "this_turn" or "no"
    with pytest.raises(rules.MoveError) as caught:
        lay_off("liverpool", "5H 6H 7H 8H", "9H", "yesterday")
    assert caught.value.field == "contract_down"


def test_a_lay_off_adds_at_least_one_card() -> None:
    with pytest.raises(rules.MoveError) as caught:
        check_layoff(find_ruleset("liverpool"), 1, C("5H 6H 7H 8H"), (), "earlier_turn")
    assert caught.value.field == "cards"


def test_end_is_low_or_high() -> None:
    with pytest.raises(rules.MoveError) as caught:
        lay_off("liverpool", "5H 6H 7H 8H", "JK", end="middle")
    assert caught.value.field == "end"


# --- sets ------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize(
    ("meld", "cards", "expected"),
    [
        ("9S 9H 9D", "9C", "9S 9H 9D 9C"),
        ("9S 9H 9D", "9C 9S", "9S 9H 9D 9C 9S"),  # two decks: a second 9S
        ("KS KH KD KC", "KH", "KS KH KD KC KH"),
    ],
)
def test_a_set_takes_cards_of_its_rank(preset: str, meld: str, cards: str, expected: str) -> None:
    # the German Liverpool sheet: "Karten müssen Bücher (gleicher Wert) oder Sequenzen (gleiche
    #                             Farbe, aufeinanderfolgende
    #      Werte) regelkonform verlängern."
    verdict = lay_off(preset, meld, cards)
    assert verdict.valid, codes(verdict)
    assert result(verdict) == expected
    assert verdict.meld.type == "set"


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_a_set_refuses_another_rank(preset: str) -> None:
    verdict = lay_off(preset, "9S 9H 9D", "8C")
    assert [(v.code, v.card) for v in verdict.violations] == [("set_mixed_ranks", "8C")]
    verdict = lay_off(preset, "9S 9H 9D", "9C 8C")
    assert [(v.code, v.card) for v in verdict.violations] == [("set_mixed_ranks", "8C")]


@pytest.mark.parametrize("preset", WITH_JOKERS)
def test_a_wild_card_laid_off_on_a_set_stands_for_its_rank(preset: str) -> None:
    verdict = lay_off(preset, "9S 9H 9D", "JK")
    assert verdict.valid
    assert wilds(verdict) == [(3, "9")]


# --- runs -------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize(
    ("meld", "cards", "expected"),
    [
        ("5H 6H 7H 8H", "4H", "4H 5H 6H 7H 8H"),
        ("5H 6H 7H 8H", "9H", "5H 6H 7H 8H 9H"),
        # several cards at once, at both ends and in any order
        ("5H 6H 7H 8H", "9H 4H", "4H 5H 6H 7H 8H 9H"),
        ("5H 6H 7H 8H", "3H 4H", "3H 4H 5H 6H 7H 8H"),
        ("5H 6H 7H 8H", "10H 9H 3H 4H", "3H 4H 5H 6H 7H 8H 9H 10H"),
        # aces: "D-K-A ist erlaubt"
        ("10H JH QH KH", "AH", "10H JH QH KH AH"),
        ("JH QH KH AH", "10H", "10H JH QH KH AH"),
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "AH", "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"),
        # a run lying descending keeps its direction
        ("8H 7H 6H 5H", "9H", "9H 8H 7H 6H 5H"),
        ("8H 7H 6H 5H", "4H", "8H 7H 6H 5H 4H"),
    ],
)
def test_a_run_takes_cards_at_either_end(preset: str, meld: str, cards: str, expected: str) -> None:
    # the Dutch Liverpool sheet: "Kaarten moeten drielingen (dezelfde waarde) of reeksen (dezelfde
    #                            kleur, opeenvolgende
    #      waarde) geldig uitbreiden."
    verdict = lay_off(preset, meld, cards)
    assert verdict.valid, codes(verdict)
    assert result(verdict) == expected
    assert verdict.meld.type == "run"


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_an_ace_goes_below_a_run_that_starts_at_two(preset: str) -> None:
    # the Norwegian sheet: "Ess kan brukes lavt i A–2–3–4"; the German Liverpool sheet: "Asse dürfen
    #                      in Sequenzen TIEF (A-2-3) ...
    #      gespielt werden"
    verdict = lay_off(preset, "2H 3H 4H 5H", "AH")
    assert verdict.valid, codes(verdict)
    assert result(verdict) == "AH 2H 3H 4H 5H"


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize(
    ("meld", "cards", "code", "card"),
    [
        ("5H 6H 7H 8H", "3H", "run_not_consecutive", None),
        ("5H 6H 7H 8H", "6H", "run_not_consecutive", "6H"),
        ("5H 6H 7H 8H", "9S", "run_mixed_suits", "9S"),
        ("5H 6H 7H 8H", "9H 9S", "run_mixed_suits", "9S"),
        ("5H 6H 7H 8H", "9H 9H", "run_not_consecutive", "9H"),
    ],
)
def test_a_run_refuses_cards_that_do_not_extend_it(
    preset: str, meld: str, cards: str, code: str, card: str | None
) -> None:
    verdict = lay_off(preset, meld, cards)
    assert not verdict.valid
    assert (code, card) in [(v.code, v.card) for v in verdict.violations]


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_no_ace_at_both_ends_after_a_lay_off(preset: str) -> None:
    # the German Liverpool sheet: "aber nie als Übergang (kein K-A-2)"; docs/rules.md §2 Decision:
    #                             at most 13 cards.
    verdict = lay_off(preset, "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "AH")
    assert not verdict.valid
    verdict = lay_off(preset, "JH QH KH AH", "2H")
    assert not verdict.valid


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_an_ace_at_both_ends_is_reported_as_wrapping(preset: str) -> None:
    verdict = lay_off(preset, "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "AH")
    assert codes(verdict) == ["run_wraps_around"]


# --- where a wild card goes (docs/rules.md §2)
# --------------------------------------------------------


@pytest.mark.parametrize("preset", WITH_JOKERS)
@pytest.mark.parametrize(
    ("meld", "end", "expected", "stands_for"),
    [
        # "unnamed, to the high end"
        ("5H 6H 7H 8H", None, "5H 6H 7H 8H JK", [(4, "9H")]),
        ("10H JH QH KH", None, "10H JH QH KH JK", [(4, "AH")]),
        # "or the low end when the high end is an ace"
        ("JH QH KH AH", None, "JK JH QH KH AH", [(0, "10H")]),
        # "goes to the end the player names (low or high)"
        ("5H 6H 7H 8H", "low", "JK 5H 6H 7H 8H", [(0, "4H")]),
        ("5H 6H 7H 8H", "high", "5H 6H 7H 8H JK", [(4, "9H")]),
        ("AH 2H 3H 4H", "high", "AH 2H 3H 4H JK", [(4, "5H")]),
        ("AH 2H 3H 4H", None, "AH 2H 3H 4H JK", [(4, "5H")]),
        # a descending run: its high end lies first
        ("8H 7H 6H 5H", None, "JK 8H 7H 6H 5H", [(0, "9H")]),
        ("8H 7H 6H 5H", "low", "8H 7H 6H 5H JK", [(4, "4H")]),
        ("8H 7H 6H 5H", "high", "JK 8H 7H 6H 5H", [(0, "9H")]),
    ],
)
def test_a_wild_card_goes_to_the_named_end_else_high(
    preset: str, meld: str, end: str | None, expected: str, stands_for: list[tuple[int, str]]
) -> None:
    verdict = lay_off(preset, meld, "JK", end=end)
    assert verdict.valid, codes(verdict)
    assert result(verdict) == expected
    assert wilds(verdict) == stands_for


@pytest.mark.parametrize("preset", WITH_JOKERS)
@pytest.mark.parametrize(("meld", "end"), [("JH QH KH AH", "high"), ("AH 2H 3H 4H", "low")])
def test_a_wild_card_cannot_go_past_an_ace(preset: str, meld: str, end: str) -> None:
    # the Norwegian sheet: "men ikke rundt hjørnet i dame–konge–ess–2"
    verdict = lay_off(preset, meld, "JK", end=end)
    assert not verdict.valid
    assert codes(verdict) == ["run_wraps_around"]


@pytest.mark.parametrize("preset", WITH_JOKERS)
def test_a_wild_card_and_naturals_together(preset: str) -> None:
    # A natural finds its own place; the wild card then goes high.
    verdict = lay_off(preset, "5H 6H 7H 8H", "4H JK")
    assert verdict.valid
    assert result(verdict) == "4H 5H 6H 7H 8H JK"
    assert wilds(verdict) == [(5, "9H")]
    # A wild card may fill the gap a natural leaves.
    verdict = lay_off(preset, "5H 6H 7H 8H", "3H JK")
    assert verdict.valid
    assert result(verdict) == "3H JK 5H 6H 7H 8H"
    assert wilds(verdict) == [(1, "4H")]


def test_california_queen_laid_off_is_a_wild_card() -> None:
    # docs/rules.md §3.3: "queens are the wild cards, always"
    verdict = lay_off("california", "5H 6H 7H 8H", "QS")
    assert verdict.valid and wilds(verdict) == [(4, "9H")]
    verdict = lay_off("california", "8H 9H 10H JH", "QH")
    assert verdict.valid and wilds(verdict) == [(4, "QH")]


# --- wild-card limits after the lay-off -------------------------------------------------------


@pytest.mark.parametrize("preset", LIVERPOOL_FAMILY)
@pytest.mark.parametrize(
    ("meld", "cards", "end"),
    [
        ("5H 6H 7H 8H", "JK JK", None),
        ("JK 5H 6H 7H", "JK", None),
        ("5H 6H 7H JK", "JK", "low"),
        ("5H 6H 7H JK", "JK", None),
    ],
)
def test_liverpool_wild_limits_hold_after_a_lay_off(
    preset: str, meld: str, cards: str, end: str | None
) -> None:
    # the German Liverpool sheet: "Sie dürfen keiner Meldung, die bereits einen Joker enthält, einen
    #                             zweiten Joker
    #      hinzufügen, es sei denn, die natürlichen Karten der Meldung bestimmen die Position des
    #      zweiten Jokers eindeutig"; docs/rules.md §3.1: "The same limits hold for a meld after a
    #      lay-off."
    verdict = lay_off(preset, meld, cards, end=end)
    assert not verdict.valid
    assert "too_many_wilds" in codes(verdict)


@pytest.mark.parametrize("preset", NEXT_TURN)
@pytest.mark.parametrize(
    ("meld", "cards", "end"),
    [("5H 6H 7H 8H", "W W", None), ("W 5H 6H 7H", "W", None), ("5H 6H 7H W", "W", "low")],
)
def test_one_natural_rulesets_take_more_wild_cards(
    preset: str, meld: str, cards: str, end: str | None
) -> None:
    # the German Progressive sheet: "Joker sind Wilde und können für jede Karte in jeder Meldung
    #                               eingesetzt werden."
    wild = "QS" if preset == "california" else "JK"
    verdict = lay_off(preset, meld.replace("W", wild), cards.replace("W", wild), end=end)
    assert verdict.valid, codes(verdict)


@pytest.mark.parametrize("preset", LIVERPOOL_FAMILY)
def test_liverpool_wild_cards_on_a_set_are_not_limited(preset: str) -> None:
    # docs/rules.md §3.1 Decision: "a set may hold any number of wilds beside its 2 naturals"
    verdict = lay_off(preset, "9S 9H JK", "JK JK")
    assert verdict.valid
    assert [w.stands_for for w in verdict.meld.wilds] == ["9", "9", "9"]


def test_liverpool_house_option_one_wild_per_four_cards_after_a_lay_off() -> None:
    # the German Liverpool sheet: "höchstens einen Joker pro Vier-Karten-Segment (vorherige Einigung
    #                             erforderlich)"
    house = find_ruleset("liverpool").with_options({"run_wilds_per_cards": 4})
    ok = check_layoff(house, 1, C("5H 6H 7H 8H"), C("JK"), "earlier_turn")
    assert ok.valid
    refused = check_layoff(house, 1, C("5H JK 7H 8H"), C("JK"), "earlier_turn")
    assert [v.code for v in refused.violations] == ["too_many_wilds"]
    assert lay_off("liverpool", "5H JK 7H 8H", "JK").valid


# --- copies and broken table melds ------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "players", "valid"),
    [
        ("liverpool", None, True),
        ("liverpool", 5, True),
        ("liverpool", 4, False),
        ("contract-rummy", None, False),
    ],
)
def test_copies_after_a_lay_off(preset: str, players: int | None, valid: bool) -> None:
    # docs/rules.md §2: "at most 2 copies with two decks, 3 with three."
    verdict = lay_off(preset, "9S 9S 9H", "9S", players=players)
    assert verdict.valid is valid
    assert ([(v.code, v.card) for v in verdict.violations] == [("too_many_copies", "9S")]) is (
        not valid
    )


@pytest.mark.parametrize("meld", ["5H 6H 7H", "5H 6H 8H 9H", "9S 9H"])
def test_a_broken_table_meld_takes_no_lay_off(meld: str) -> None:
    verdict = lay_off("liverpool", meld, "4H")
    assert not verdict.valid
    assert verdict.violations


@pytest.mark.parametrize("preset", LIVERPOOL_FAMILY)
@pytest.mark.parametrize(
    ("meld", "cards", "expected", "stands_for", "valid"),
    [
        # a natural below the outside joker puts that joker into a gap between naturals
        ("JK 5H 6H 7H", "3H", "3H JK 5H 6H 7H", [(1, "4H"), None], True),
        ("JK 5H 6H 7H", "3H JK", "3H JK 5H 6H 7H JK", [(1, "4H"), (5, "8H")], True),
        (
            "JK 5H 6H 7H",
            "3H JK JK",
            "3H JK 5H 6H 7H JK JK",
            [(1, "4H"), (5, "8H"), (6, "9H")],
            False,
        ),
    ],
)
def test_liverpool_the_span_is_measured_after_the_lay_off(
    preset: str,
    meld: str,
    cards: str,
    expected: str,
    stands_for: list[tuple[int, str] | None],
    valid: bool,
) -> None:
    # docs/rules.md §3.1 Decision: "at most one wild card may lie outside the span between the
    # lowest and
    # highest natural, and wild cards inside gaps between naturals are not limited. The same
    # limits hold for a meld after a lay-off."
    verdict = lay_off(preset, meld, cards)
    assert verdict.valid is valid
    assert result(verdict) == expected
    assert wilds(verdict) == [w for w in stands_for if w is not None]
    assert ("too_many_wilds" in codes(verdict)) is not valid


# --- an ace at the end of the run is the end (the ace bridge) ------------------------------------


@pytest.mark.parametrize(
    ("meld", "cards", "detail"),
    [
        ("JH QH KH AH", "2H", "JH QH KH AH 2H"),  # the example: an ace as a bridge
        ("AH KH QH JH", "2H", "JH QH KH AH 2H"),  # read high to low, the same run
        ("AH 2H 3H 4H", "KH", "KH AH 2H 3H 4H"),  # round the corner below the low ace
        ("JH QH KH AH", "JK 3H", "JH QH KH AH JK 3H"),  # the joker would bridge A and 3
    ],
)
def test_a_card_past_the_ace_wraps_around_as_the_meld_check_says(
    meld: str, cards: str, detail: str
) -> None:
    verdict = lay_off("liverpool", meld, cards)
    assert codes(verdict) == ["run_wraps_around"]
    assert verdict.violations[0].params["detail"] == detail
    # The meld check says the same of those cards laid as one meld.
    assert codes(rules.check_meld(find_ruleset("liverpool"), C(detail), "run")) == [
        "run_wraps_around"
    ]


def test_a_second_ace_onto_a_king_high_run_would_put_aces_at_both_ends() -> None:
    verdict = lay_off("liverpool", "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "AH AH")
    assert codes(verdict) == ["run_wraps_around"]
    # One ace fits, either end.
    assert lay_off("liverpool", "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "AH").valid


@pytest.mark.parametrize(
    ("meld", "cards"),
    [
        ("10H JH QH KH AH", "JH"),  # a rank the run has: no place, and no corner to turn
        ("JH QH KH AH", "9H"),  # a gap below, not a bridge
        ("JH QH KH AH", "AH"),  # an ace never follows an ace; the low end is far off
        ("4H 5H 6H 7H", "2H"),  # no ace at the end
    ],
)
def test_a_card_that_does_not_follow_is_not_a_bridge(meld: str, cards: str) -> None:
    assert codes(lay_off("liverpool", meld, cards)) == ["run_not_consecutive"]
