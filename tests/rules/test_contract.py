"""The contract check (docs/rules.md §3, §4, §5): each round's contract, exact minimums, touching
runs,
the hand the melds come from, going out, and copies by decks in play."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from rules_testing import ALL_PRESETS, LIVERPOOL_FAMILY, PROGRESSIVE_FAMILY, codes

import rules
from rules import check_contract, find_ruleset

EVERY_ROUND = [
    (preset, number)
    for preset in ALL_PRESETS
    for number in range(1, find_ruleset(preset).round_count + 1)
]
# Cards the example melds never use (no queens: they are wild in California).
SPARE = ["2C", "3C", "4C", "5C"]


def example(preset: str, number: int) -> list[list[str]]:
    """The round's contract at its minimum: sets of 9, 10, K and runs from 2 in S, H, D."""
    melds: list[list[str]] = []
    ranks, suits = iter(["9", "10", "K"]), iter("SHD")
    for spec in find_ruleset(preset).round(number).contract.melds:
        if spec.type == "set":
            rank = next(ranks)
            melds.append([rank + suit for suit in "SHDC"][: spec.min])
        else:
            suit = next(suits)
            melds.append([f"{value}{suit}" for value in range(2, 2 + spec.min)])
    return melds


def longer(meld: list[str]) -> list[str]:
    """The same meld one card longer (a set gains a club, a run its next rank)."""
    first = meld[0]
    if first[:-1] == meld[1][:-1]:  # a set
        return [*meld, first[:-1] + "C"]
    return [*meld, f"{len(meld) + 2}{first[-1]}"]


def check(
    preset: str,
    number: int,
    melds: Sequence[Sequence[str]],
    hand: Sequence[str] | None = None,
    players: int | None = None,
) -> rules.ContractVerdict:
    return check_contract(
        find_ruleset(preset),
        number,
        [rules.parse_cards(m) for m in melds],
        None if hand is None else rules.parse_cards(hand),
        players,
    )


def where(verdict: rules.ContractVerdict) -> list[tuple[str, int | None, str | None]]:
    return [(v.code, v.meld, v.card) for v in verdict.violations]


# --- each round's contract ------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "number"), EVERY_ROUND)
def test_the_contract_at_its_minimum_is_valid(preset: str, number: int) -> None:
    # the German Liverpool sheet: "In jedem Zug ... darf seinen Kontrakt ablegen, sobald die
    #                             Anforderungen erfüllt sind"
    melds = example(preset, number)
    verdict = check(preset, number, melds)
    assert verdict.valid, where(verdict)
    assert verdict.violations == ()
    spec = find_ruleset(preset).round(number).contract
    assert [m.type for m in verdict.melds] == [s.type for s in spec.melds]
    assert [rules.format_cards(m.cards) for m in verdict.melds] == melds
    # docs/api.md: remaining "when hand was given"; docs/rules.md §4: goes_out "without the hand it
    # is null"
    assert verdict.remaining is None
    assert verdict.goes_out is None
    assert verdict.contract == spec


@pytest.mark.parametrize(("preset", "number"), EVERY_ROUND)
def test_a_partial_or_padded_contract_is_a_mismatch(preset: str, number: int) -> None:
    # the Norwegian sheet: "Du kan ikke legge bare ett sett og spare resten av kontrakten til neste
    #                      tur."
    # the German Progressive sheet: "teilweise Verträge dürfen nicht gemeldet werden."
    # the German Liverpool sheet: "nachdem er liegt, können keine weiteren Bücher oder Sequenzen als
    #                             eigenständige
    #      Meldungen hinzugefügt werden"
    melds = example(preset, number)
    assert "contract_mismatch" in codes(check(preset, number, melds[:-1]))
    assert "contract_mismatch" in codes(check(preset, number, [*melds, ["JS", "JH", "JD"]]))
    assert "contract_mismatch" in codes(check(preset, number, [*melds, ["6C", "7C", "8C", "9C"]]))
    assert codes(check(preset, number, [])) == ["contract_mismatch"]


@pytest.mark.parametrize(
    ("preset", "number", "melds"),
    [
        ("liverpool", 1, [["9S", "9H", "9D"], ["2S", "3S", "4S", "5S"]]),
        ("liverpool", 3, [["2S", "3S", "4S", "5S"], ["9S", "9H", "9D"]]),
        (
            "contract-rummy",
            4,
            [["9S", "9H", "9D"], ["10S", "10H", "10D"], ["2S", "3S", "4S", "5S"]],
        ),
        (
            "progressive",
            7,
            [["2S", "3S", "4S", "5S"], ["2H", "3H", "4H", "5H"], ["9S", "9H", "9D"]],
        ),
    ],
)
def test_the_wrong_kind_of_meld_is_a_mismatch(
    preset: str, number: int, melds: list[list[str]]
) -> None:
    verdict = check(preset, number, melds)
    assert not verdict.valid
    assert "contract_mismatch" in codes(verdict)


# --- longer than the minimum ------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "number"), EVERY_ROUND)
def test_longer_melds_only_where_the_round_allows(preset: str, number: int) -> None:
    # the German Liverpool sheet: "Ein „Buch” besteht aus drei oder mehr Karten" / "Eine „Sequenz”
    #                             besteht aus vier oder
    #      mehr Karten" -- contract melds may be longer (docs/rules.md §3.1, §3.3 Decision);
    # the Norwegian sheet: "I første utlegg i runde 1–6 legger du nøyaktig kontraktens minimum: tre
    #                      per sett og
    #      fire per rekke."
    exact = preset == "contract-rummy" and number <= 6
    base = example(preset, number)
    for index in range(len(base)):
        melds = [longer(m) if i == index else m for i, m in enumerate(base)]
        verdict = check(preset, number, melds)
        if exact:
            assert where(verdict) == [("exceeds_contract_minimum", index, None)]
        else:
            assert verdict.valid, (index, where(verdict))


def test_contract_rummy_sheet_example_round_two() -> None:
    # the Norwegian sheet: "Eksempel, runde 2: Du holder tre 9-ere og hjerter 4–5–6–7–8. Kontrakten
    #                      er sett +
    #      rekke. Legg 9-erne og hjerter 4–5–6–7. Hjerter 8 må vente til en senere tur"
    hand = "9C 9D 9S 4H 5H 6H 7H 8H 2S KD JC".split()
    verdict = check("contract-rummy", 2, [["9C", "9D", "9S"], ["4H", "5H", "6H", "7H"]], hand)
    assert verdict.valid, where(verdict)
    assert rules.format_cards(verdict.remaining or ()) == ["8H", "2S", "KD", "JC"]
    assert verdict.goes_out is False
    verdict = check("contract-rummy", 2, [["9C", "9D", "9S"], ["4H", "5H", "6H", "7H", "8H"]], hand)
    assert where(verdict) == [("exceeds_contract_minimum", 1, None)]
    # The same lay-down is fine where contract melds may be longer.
    for preset in ("liverpool", "progressive"):
        assert check(preset, 2, [["9C", "9D", "9S"], ["4H", "5H", "6H", "7H", "8H"]], hand).valid


@pytest.mark.parametrize("number", [1, 4, 5])
def test_contract_rummy_four_of_a_kind_exceeds_the_minimum(number: int) -> None:
    # the Norwegian sheet: "tre per sett"
    melds = example("contract-rummy", number)
    melds[0] = [*melds[0], "9C"]
    assert where(check("contract-rummy", number, melds)) == [("exceeds_contract_minimum", 0, None)]


@pytest.mark.parametrize(
    ("preset", "number"),
    [("liverpool", 7), ("liverpool-9", 7), ("liverpool-fixed-hand", 7), ("liverpool-no-buy", 7)],
)
def test_liverpool_round_seven_is_one_run_of_seven_or_more(preset: str, number: int) -> None:
    # the German Liverpool sheet: "Runde 7: Eine Sequenz aus sieben Karten einer einzigen Farbe
    #                             (S7)."
    # the Italian Liverpool sheet: "Mano 7: Una scala di sette dello stesso seme (S7)."
    assert check(preset, number, [["4H", "5H", "6H", "7H", "8H", "9H", "10H"]]).valid
    assert check(preset, number, ["4H 5H 6H 7H 8H 9H 10H JH".split()]).valid
    verdict = check(preset, number, ["4H 5H 6H 7H 8H 9H JK".split()])
    assert verdict.valid
    assert [(w.index, w.stands_for) for w in verdict.melds[0].wilds] == [(6, "10H")]
    assert where(check(preset, number, ["4H 5H 6H 7H 8H 9H".split()])) == [
        ("run_too_short", 0, None)
    ]
    verdict = check(preset, number, ["4H 5H 6H 7H 8S 9H 10H".split()])
    assert ("run_mixed_suits", 0, "8S") in where(verdict)
    assert "contract_mismatch" in codes(check(preset, number, [["4H", "5H", "6H", "7H"]] * 2))


def test_liverpool_nine_round_nine_needs_runs_of_five() -> None:
    # the German Liverpool sheet: "2 Sequenzen zu je 5 (S5-S5) in Runde 9"
    verdict = check("liverpool-9", 9, ["4H 5H 6H 7H".split(), "8S 9S 10S JS QS".split()])
    assert where(verdict) == [("run_too_short", 0, None)]
    assert check("liverpool-9", 9, ["4H 5H 6H 7H 8H".split(), "8S 9S 10S JS QS".split()]).valid
    # the German Liverpool sheet: "3 Sequenzen zu je 4 (S-S-S) in Runde 8"
    runs = ["4H 5H 6H 7H".split(), "8S 9S 10S JS".split(), "AC 2C 3C 4C".split()]
    assert check("liverpool-9", 8, runs).valid
    assert "contract_mismatch" in codes(check("liverpool-9", 8, runs[:2]))


# --- two runs of one suit ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("number", "extra"),
    [(3, []), (6, [["9S", "9C", "9D"]]), (7, [["2S", "3S", "4S", "5S", "6S"]])],
)
@pytest.mark.parametrize(
    ("first", "second", "touch"),
    [
        # the Norwegian sheet: "To rekker i samme sort kan ikke bare være to sammenhengende deler av
        #                      én lang rekke.
        #      De må ha et mellomrom eller overlappe i verdi, med egne fysiske kort i hver rekke."
        ("4H 5H 6H 7H", "8H 9H 10H JH", True),
        ("8H 9H 10H JH", "4H 5H 6H 7H", True),
        ("7H 6H 5H 4H", "JH 10H 9H 8H", True),
        ("4H 5H 6H 7H", "JK 9H 10H JH", True),  # the joker stands for 8H
        ("AH 2H 3H 4H", "5H 6H 7H 8H", True),
        ("4H 5H 6H 7H", "9H 10H JH QH", False),
        ("4H 5H 6H 7H", "6H 7H 8H 9H", False),
        ("4H 5H 6H 7H", "4H 5H 6H 7H", False),
        ("4H 5H 6H 7H", "8S 9S 10S JS", False),
    ],
)
def test_contract_rummy_runs_of_one_suit_may_not_touch(
    number: int, extra: list[list[str]], first: str, second: str, touch: bool
) -> None:
    # docs/rules.md §5 Decision: "the two-runs-must-not-touch rule applies to every contract of that
    # ruleset with two or more runs of one suit, round 7 included."
    melds = [*extra, first.split(), second.split()]
    if number == 7:  # the whole-hand round: the third run must not be touched by the others
        melds = [first.split(), second.split(), *extra]
    verdict = check("contract-rummy", number, melds)
    if touch:
        # The later of the two runs is the one at fault.
        assert where(verdict) == [("runs_touch", melds.index(second.split()), None)]
    else:
        assert verdict.valid, where(verdict)


@pytest.mark.parametrize(
    ("preset", "number"),
    [(p, 3) for p in ALL_PRESETS if p != "contract-rummy"]
    + [(p, 6) for p in ALL_PRESETS if p != "contract-rummy"]
    + [("liverpool-9", 8), ("liverpool-9", 9), ("progressive", 7), ("shanghai", 7)],
)
def test_runs_may_touch_in_every_other_preset(preset: str, number: int) -> None:
    # docs/rules.md §3.1: "Runs of one suit may touch (♥4–7 and ♥8–J are two legal runs); only
    # contract-rummy forbids it."
    melds = example(preset, number)
    runs = [i for i, m in enumerate(melds) if m[0][:-1] != m[1][:-1]]
    a, b = runs[0], runs[1]
    size_a, size_b = len(melds[a]), len(melds[b])
    ranks = "2 3 4 5 6 7 8 9 10 J Q K A".split()
    melds[a] = [rank + "H" for rank in ranks[:size_a]]
    melds[b] = [rank + "H" for rank in ranks[size_a : size_a + size_b]]
    verdict = check(preset, number, melds)
    assert verdict.valid, where(verdict)


# --- the hand the melds come from -------------------------------------------------------------


def test_cards_not_in_hand_are_named() -> None:
    hand = "9C 9D 4H 5H 6H 7H 2S 9S".split()
    verdict = check("liverpool", 2, [["9C", "9D", "9H"], ["4H", "5H", "6H", "7H"]], hand)
    assert where(verdict) == [("cards_not_in_hand", None, "9H")]
    assert verdict.goes_out is False


def test_a_card_melded_twice_must_be_held_twice() -> None:
    # docs/rules.md §1: duplicates exist only because two or three decks are in play -- each copy
    # counts.
    hand = "9C 9C 9D 4H 5H 6H 7H 2S".split()
    verdict = check("liverpool", 2, [["9C", "9C", "9D"], ["4H", "5H", "6H", "7H"]], hand)
    assert verdict.valid
    hand.remove("9C")
    verdict = check("liverpool", 2, [["9C", "9C", "9D"], ["4H", "5H", "6H", "7H"]], hand)
    assert where(verdict) == [("cards_not_in_hand", None, "9C")]


def test_remaining_is_the_hand_minus_the_melds_in_canonical_form() -> None:
    hand = "9c 2s 9d th 4h 5h 6h 7h 9s jk".split()
    verdict = check("liverpool", 2, [["9C", "9D", "9S"], ["4H", "5H", "6H", "7H"]], hand)
    assert verdict.valid
    assert rules.format_cards(verdict.remaining or ()) == ["2S", "10H", "JK"]


# --- going out (docs/rules.md §4)
# ---------------------------------------------------------------------


def _round_kind(preset: str, number: int) -> str:
    spec = find_ruleset(preset).round(number)
    if spec.whole_hand:
        return "whole_hand"
    return "discard" if spec.discard_to_go_out else "no_discard"


def test_round_kinds_are_as_the_sheets_say() -> None:
    kinds = {(p, n): _round_kind(p, n) for p, n in EVERY_ROUND}
    # the German Liverpool sheet: round 7 needs no discard but is not laid as the whole hand
    #                             (lay-offs may follow).
    assert {p: kinds[(p, 7)] for p in LIVERPOOL_FAMILY} == dict.fromkeys(
        LIVERPOOL_FAMILY, "no_discard"
    )
    # 002/the German Progressive sheet: round 7 is the whole hand; shanghai's round 8 too
    # (docs/rules.md §3.3 Decision).
    assert {p: kinds[(p, 7)] for p in ("contract-rummy", *PROGRESSIVE_FAMILY)} == dict.fromkeys(
        ("contract-rummy", *PROGRESSIVE_FAMILY), "whole_hand"
    )
    assert kinds[("shanghai", 8)] == "whole_hand"
    others = [k for (p, n), k in kinds.items() if n < 7 or p == "liverpool-9" and n > 7]
    assert set(others) == {"discard"}


@pytest.mark.parametrize(("preset", "number"), EVERY_ROUND)
def test_goes_out_with_the_hand_given(preset: str, number: int) -> None:
    # docs/rules.md §4: "goes_out ... is true when the player can end the round on this turn: in a
    # round
    # with a final discard, exactly one card remains (and lay-offs are not needed); in a round
    # without one, nothing remains."
    melds = example(preset, number)
    used = [card for meld in melds for card in meld]
    kind = _round_kind(preset, number)

    exact = check(preset, number, melds, used)
    one_left = check(preset, number, melds, [*used, SPARE[0]])
    two_left = check(preset, number, melds, [*used, *SPARE[:2]])
    assert rules.format_cards(one_left.remaining or ()) == SPARE[:1]
    assert rules.format_cards(two_left.remaining or ()) == SPARE[:2]
    if kind == "discard":
        # docs/rules.md §4 Decision: "a contract check given the whole hand reports no_discard_left
        # when
        # the melds use every card in such a round."
        assert codes(exact) == ["no_discard_left"]
        assert exact.goes_out is False
        assert one_left.valid and one_left.goes_out is True
        assert two_left.valid and two_left.goes_out is False
    elif kind == "no_discard":
        # the German Liverpool sheet: "Man geht aus, sobald die 7-Karten-Sequenz vollständig ist
        #                             (kein abschließendes
        #      Abwerfen erforderlich)."
        assert exact.valid and exact.goes_out is True
        assert exact.remaining == ()
        assert one_left.valid and one_left.goes_out is False
        assert two_left.valid and two_left.goes_out is False
    else:
        # the Norwegian sheet: "I runde 7 må hele hånden legges i tre rekker samtidig." / the German
        #                      Progressive sheet: "man geht raus,
        #      indem man das gesamte Blatt auf einmal ablegt"
        assert exact.valid and exact.goes_out is True
        assert exact.remaining == ()
        assert codes(one_left) == ["hand_not_used"]
        assert one_left.goes_out is False
        assert codes(two_left) == ["hand_not_used"]


@pytest.mark.parametrize(
    ("preset", "number"),
    [(p, 7) for p in ("contract-rummy", *PROGRESSIVE_FAMILY)] + [("shanghai", 8)],
)
def test_a_whole_hand_round_without_the_hand_is_judged_on_its_melds(
    preset: str, number: int
) -> None:
    # docs/rules.md §4: "without the hand it is null, and a whole-hand round is judged on its melds
    # alone."
    verdict = check(preset, number, example(preset, number))
    assert verdict.valid
    assert verdict.goes_out is None


def test_contract_rummy_round_seven_uses_every_card_even_after_buys() -> None:
    # the Norwegian sheet: "Etter vanlig trekk har du minst 13 kort, så minst én rekke blir lengre
    #                      enn fire. Har
    #      du kjøpt flere kort, må også disse brukes. Du avslutter uten å kaste et siste kort."
    runs = ["2S 3S 4S 5S 6S".split(), "2H 3H 4H 5H".split(), "9D 10D JD QD".split()]
    hand = [c for r in runs for c in r]
    verdict = check("contract-rummy", 7, runs, hand)
    assert verdict.valid and verdict.goes_out is True and len(hand) == 13
    runs_after_buy = [[*runs[0], "7S", "8S"], runs[1], runs[2]]
    hand = [c for r in runs_after_buy for c in r]
    verdict = check("contract-rummy", 7, runs_after_buy, hand)
    assert verdict.valid and verdict.goes_out is True and len(hand) == 15
    verdict = check("contract-rummy", 7, runs, [*hand])
    assert codes(verdict) == ["hand_not_used"]
    assert rules.format_cards(verdict.remaining or ()) == ["7S", "8S"]


def test_liverpool_fixed_hand_round_six_can_only_be_laid_after_a_buy() -> None:
    # docs/rules.md §3.1: "round 6 (11 cards) can only be laid after a buy" -- 10 dealt + 1 drawn
    # leaves
    # nothing to discard; a buy brings the discard and a penalty card.
    melds = [["9S", "9H", "9D"], ["2S", "3S", "4S", "5S"], ["2H", "3H", "4H", "5H"]]
    drawn = [c for m in melds for c in m]
    assert len(drawn) == 11
    verdict = check("liverpool-fixed-hand", 6, melds, drawn)
    assert codes(verdict) == ["no_discard_left"]
    verdict = check("liverpool-fixed-hand", 6, melds, [*drawn, "KC", "2C"])
    assert verdict.valid and verdict.goes_out is False


def test_goes_out_is_false_when_the_contract_is_not_valid() -> None:
    verdict = check(
        "liverpool", 1, [["9S", "9H", "8D"], ["KS", "KH", "KD"]], "9S 9H 8D KS KH KD 2C".split()
    )
    assert not verdict.valid
    assert verdict.goes_out is False


# --- copies by decks in play ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "melds", "players", "bad"),
    [
        # the German Liverpool sheet: "3–4 Spieler: Zwei Standard-Kartendecks ... plus 2 bis 4
        #                             Joker"
        ("liverpool", [["9S", "9S", "9S"], ["KH", "KH", "KD"]], 4, ["9S"]),
        ("liverpool", [["9S", "9S", "9S"], ["KH", "KH", "KD"]], 5, []),
        ("liverpool", [["9S", "9S", "9S"], ["KH", "KH", "KD"]], None, []),
        ("liverpool", [["9S", "9S", "9S", "9S"], ["KH", "KH", "KD"]], None, ["9S"]),
        ("liverpool", [["9S", "9H", "JK", "JK", "JK"], ["KH", "KS", "JK", "JK"]], 4, ["JK"]),
        ("liverpool", [["9S", "9H", "JK", "JK", "JK"], ["KH", "KS", "JK", "JK"]], 8, []),
        # the Norwegian sheet: "to jokere med tre spillere, tre med fire og fire med fem."
        ("contract-rummy", [["9S", "JK", "JK"], ["KH", "KS", "JK"]], 3, ["JK"]),
        ("contract-rummy", [["9S", "JK", "JK"], ["KH", "KS", "JK"]], 4, []),
        ("contract-rummy", [["9S", "JK", "JK"], ["KH", "JK", "JK"]], 4, ["JK"]),
        ("contract-rummy", [["9S", "JK", "JK"], ["KH", "JK", "JK"]], 5, []),
        ("contract-rummy", [["9S", "JK", "JK"], ["KH", "JK", "JK"]], None, []),
        ("contract-rummy", [["9S", "9S", "9S"], ["KH", "KS", "KD"]], None, ["9S"]),
        # the German Progressive sheet: two decks up to 6 players, three for 7 or 8.
        ("progressive", [["9S", "9S", "9S"], ["KH", "KH", "KD"]], 6, ["9S"]),
        ("progressive", [["9S", "9S", "9S"], ["KH", "KH", "KD"]], 7, []),
        ("california", [["9S", "9H", "JK"], ["KH", "KS", "KD"]], None, ["JK"]),
    ],
)
def test_too_many_copies_by_the_decks_in_play(
    preset: str, melds: list[list[str]], players: int | None, bad: list[str]
) -> None:
    # docs/rules.md §2: "The same card may appear once per deck in play ... Jokers: at most the
    # number of
    # jokers in play." docs/rules.md §5 Decision: "when a check is not told the number of players,
    # copies
    # of a card are limited by the largest table the ruleset allows".
    verdict = check(preset, 1, melds, players=players)
    assert [v.card for v in verdict.violations if v.code == "too_many_copies"] == bad
    assert verdict.valid is (not bad)


def test_copies_count_the_cards_left_in_hand_too() -> None:
    melds = [["9S", "9H", "JK"], ["KH", "KS", "JK"]]
    hand = [c for m in melds for c in m] + ["JK", "JK", "2C"]
    verdict = check("contract-rummy", 1, melds, hand, players=4)
    assert [(v.code, v.card) for v in verdict.violations] == [("too_many_copies", "JK")]
    assert check("contract-rummy", 1, melds, hand, players=5).valid


# --- malformed questions ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "number"),
    [
        ("liverpool", 0),
        ("liverpool", 8),
        ("liverpool-9", 10),
        ("shanghai", 9),
        ("contract-rummy", -1),
    ],
)
def test_a_round_the_ruleset_does_not_have_raises(preset: str, number: int) -> None:
    with pytest.raises(rules.RoundError) as caught:
        check(preset, number, [["9S", "9H", "9D"]])
    assert caught.value.field == "round"


@pytest.mark.parametrize(
    ("preset", "players"), [("liverpool", 2), ("liverpool", 9), ("contract-rummy", 6)]
)
def test_a_table_size_the_ruleset_does_not_play_raises(preset: str, players: int) -> None:
    with pytest.raises(rules.RulesetError) as caught:
        check(preset, 1, example(preset, 1), players=players)
    assert caught.value.field == "players"


# --- every violation at once, and the readings ------------------------------------------------


def test_every_violation_is_reported_together() -> None:
    # docs/rules.md §5: "several violations are reported together, not just the first one found."
    melds = [["9S", "9H"], ["4H", "5S", "6H"], ["KH"]]
    verdict = check("liverpool", 2, melds, ["2C"])
    found = where(verdict)
    assert ("set_too_short", 0, None) in found
    assert ("run_mixed_suits", 1, "5S") in found
    assert ("run_too_short", 1, None) in found
    assert ("contract_mismatch", None, None) in found
    assert {v.card for v in verdict.violations if v.code == "cards_not_in_hand"} == {
        "9S",
        "9H",
        "4H",
        "5S",
        "6H",
        "KH",
    }


def test_contract_rummy_reports_exact_minimum_and_touching_together() -> None:
    melds = [["9S", "9H", "9D", "9C"], ["4H", "5H", "6H", "7H"], ["8H", "9H", "10H", "JH"]]
    verdict = check("contract-rummy", 6, melds)
    assert sorted(where(verdict), key=str) == sorted(
        [("exceeds_contract_minimum", 0, None), ("runs_touch", 2, None)], key=str
    )


def test_the_verdict_reads_every_wild_card() -> None:
    # docs/api.md: "melds (each: type, suit for runs, cards in table order, wilds: [{index,
    # stands_for}])"
    verdict = check("liverpool", 2, [["7H", "7S", "JK"], ["4H", "JK", "6H", "7H"]])
    assert verdict.valid
    set_, run = verdict.melds
    assert (set_.type, [(w.index, w.stands_for) for w in set_.wilds]) == ("set", [(2, "7")])
    assert (run.type, run.suit, [(w.index, w.stands_for) for w in run.wilds]) == (
        "run",
        rules.Suit.HEARTS,
        [(1, "5H")],
    )


def test_a_one_natural_meld_becomes_what_the_contract_still_needs() -> None:
    # "7H JK JK JK" is a set of 7s or 7H-10H; in round 2 beside a set of 9s it must be the run.
    verdict = check("progressive", 2, [["7H", "JK", "JK", "JK"], ["9S", "9H", "9D"]])
    assert verdict.valid, where(verdict)
    assert [m.type for m in verdict.melds] == ["run", "set"]
    assert [(w.index, w.stands_for) for w in verdict.melds[0].wilds] == [
        (1, "8H"),
        (2, "9H"),
        (3, "10H"),
    ]


# --- a contract is laid once a round ---------------------------------------------------------


@pytest.mark.parametrize("down", ["this_turn", "earlier_turn"])
def test_a_player_already_down_cannot_lay_a_contract_again(down: str) -> None:
    liverpool = find_ruleset("liverpool")
    melds = [rules.parse_cards("7H 7S 7D".split()), rules.parse_cards("KH KS KD".split())]
    hand = [*melds[0], *melds[1], *rules.parse_cards(["2C"])]
    assert check_contract(liverpool, 1, melds, hand).valid
    verdict = check_contract(liverpool, 1, melds, hand, contract_down=down)  # type: ignore[arg-type]
    assert codes(verdict) == ["contract_already_down"]
    assert verdict.valid is False and verdict.goes_out is False
    assert verdict.violations[0].params == {"contract_down": down}
    # The melds are still read, and every other broken rule still reported.
    assert [meld.type for meld in verdict.melds] == ["set", "set"]
    broken = check_contract(liverpool, 1, melds[:1], contract_down=down)  # type: ignore[arg-type]
    assert codes(broken) == ["contract_already_down", "contract_mismatch"]


def test_contract_down_no_is_the_default_and_anything_else_is_malformed() -> None:
    liverpool = find_ruleset("liverpool")
    melds = [rules.parse_cards("7H 7S 7D".split()), rules.parse_cards("KH KS KD".split())]
    assert check_contract(liverpool, 1, melds, contract_down="no").valid
    with pytest.raises(rules.MoveError) as raised:
        check_contract(liverpool, 1, melds, contract_down="yes")  # type: ignore[arg-type]
    assert raised.value.field == "contract_down"
