"""Every preset's parameters and rounds table (docs/rules.md §3), and house options.

Each row quotes the sheet it comes from; a preset that drifts from its sheet fails here before
it reaches the served API.
"""

from __future__ import annotations

from typing import Any

import pytest
from rules_testing import ALL_PRESETS, LIVERPOOL_FAMILY, PROGRESSIVE_FAMILY

import rules
from rules import Ruleset, find_ruleset, resolve_ruleset

# (contract text, hand size, whole hand, discard to go out, exact minimum)
Row = tuple[str, int, bool, bool, bool]

# the German Liverpool sheet: "Runden 1 bis 4 erhalten je 10 Karten; Runden 5 bis 7 erhalten je 12
#                             Karten."
# the German Liverpool sheet: "7. Runde 7: Eine Sequenz aus sieben Karten einer einzigen Farbe (S7).
#                             Dies ist der einzige
#      Kontrakt ohne übrige Karten zum Abwerfen ... (kein abschließendes Abwerfen erforderlich)."
LIVERPOOL_ROUNDS: list[Row] = [
    (
        "2 sets",
        10,
        False,
        True,
        False,
    ),  # the German Liverpool sheet: "Zwei Bücher zu je drei Karten (B-B)"
    (
        "1 set + 1 run",
        10,
        False,
        True,
        False,
    ),  # the German Liverpool sheet: "Ein Buch zu drei und eine Sequenz zu vier"
    (
        "2 runs",
        10,
        False,
        True,
        False,
    ),  # the German Liverpool sheet: "Zwei Sequenzen zu je vier (S-S)"
    (
        "3 sets",
        10,
        False,
        True,
        False,
    ),  # the German Liverpool sheet: "Drei Bücher zu je drei Karten (B-B-B)"
    ("2 sets + 1 run", 12, False, True, False),  # the German Liverpool sheet: "(B-B-S)"
    ("1 set + 2 runs", 12, False, True, False),  # the German Liverpool sheet: "(B-S-S)"
    (
        "1 run of 7",
        12,
        False,
        False,
        False,
    ),  # the German Liverpool sheet: "Eine Sequenz aus sieben Karten"
]
# the Norwegian sheet: "Del ti kort hver i runde 1–3 og tolv i runde 4–7."
# the Norwegian sheet: "I første utlegg i runde 1–6 legger du nøyaktig kontraktens minimum"
# the Norwegian sheet: "I runde 7 må hele hånden legges i tre rekker samtidig ... uten å kaste et
#                      siste kort."
CONTRACT_RUMMY_ROUNDS: list[Row] = [
    ("2 sets", 10, False, True, True),
    ("1 set + 1 run", 10, False, True, True),
    ("2 runs", 10, False, True, True),
    ("3 sets", 12, False, True, True),
    ("2 sets + 1 run", 12, False, True, True),
    ("1 set + 2 runs", 12, False, True, True),
    ("3 runs", 12, True, False, False),
]
# the German Progressive sheet: "1. Runde 1 (10 Karten austeilen): Zwei Sätze aus je 3 Karten" ...
#                               "4. Runde 4 (10 Karten
#      austeilen): Drei Sätze aus je 3." ... "7. Runde 7 (12 Karten austeilen): Drei Sequenzen aus
#      je 4, kein abschließendes Ablegen erlaubt (man geht raus, indem man das gesamte Blatt auf
#      einmal ablegt)."
PROGRESSIVE_ROUNDS: list[Row] = [
    ("2 sets", 10, False, True, False),
    ("1 set + 1 run", 10, False, True, False),
    ("2 runs", 10, False, True, False),
    ("3 sets", 10, False, True, False),
    ("2 sets + 1 run", 12, False, True, False),
    ("1 set + 2 runs", 12, False, True, False),
    ("3 runs", 12, True, False, False),
]

ROUNDS: dict[str, list[Row]] = {
    "liverpool": LIVERPOOL_ROUNDS,
    # the German Liverpool sheet: "9-Runden-Liverpool: Fügt zwei weitere Kontrakte hinzu: 3
    #                             Sequenzen zu je 4 (S-S-S) in
    #      Runde 8 und 2 Sequenzen zu je 5 (S5-S5) in Runde 9."
    "liverpool-9": [
        *LIVERPOOL_ROUNDS,
        ("3 runs", 12, False, True, False),
        ("2 runs of 5", 12, False, True, False),
    ],
    # the German Liverpool sheet: "Fixed-Hand-Liverpool: Alle 7 Runden werden mit 10-Karten-Händen
    #                             gespielt; der letzte
    #      Kontrakt wird je nach Hausregel zu einer Sequenz aus 6 oder 7 Karten."
    "liverpool-fixed-hand": [(text, 10, *rest) for text, _, *rest in LIVERPOOL_ROUNDS],  # type: ignore[misc]
    # the German Liverpool sheet: "No-Buy-Liverpool: Kaufen ist nicht erlaubt"
    "liverpool-no-buy": LIVERPOOL_ROUNDS,
    "contract-rummy": CONTRACT_RUMMY_ROUNDS,
    "progressive": PROGRESSIVE_ROUNDS,
    # the German Progressive sheet: "Shanghai Rummy (8 Runden): Fügt eine 8. Runde hinzu, die drei
    #                               Sätze und eine Sequenz
    #      aus 4 verlangt"; docs/rules.md §3.3 Decision: round 8 is laid as the whole hand, no
    #      discard.
    "shanghai": [*PROGRESSIVE_ROUNDS, ("3 sets + 1 run", 12, True, False, False)],
    "california": PROGRESSIVE_ROUNDS,
    "progressive-no-buy": PROGRESSIVE_ROUNDS,
    # the German Progressive sheet: "Doppelt Progressiv: Reduziert die Handgröße in Runde 1 auf nur
    #                               7 Karten"
    "double-progressive": [("2 sets", 7, False, True, False), *PROGRESSIVE_ROUNDS[1:]],
}

# (type, min) per contract text, in the order sets first.
MELDS = {
    "2 sets": [("set", 3), ("set", 3)],
    "1 set + 1 run": [("set", 3), ("run", 4)],
    "2 runs": [("run", 4), ("run", 4)],
    "3 sets": [("set", 3)] * 3,
    "2 sets + 1 run": [("set", 3), ("set", 3), ("run", 4)],
    "1 set + 2 runs": [("set", 3), ("run", 4), ("run", 4)],
    "1 run of 7": [("run", 7)],
    "3 runs": [("run", 4)] * 3,
    "2 runs of 5": [("run", 5), ("run", 5)],
    "3 sets + 1 run": [("set", 3)] * 3 + [("run", 4)],
}
# the German Liverpool sheet: "Mindestens 6 Karten werden benötigt." ... "Mindestens 11 Karten
#                             werden benötigt."
MIN_CARDS = {
    "2 sets": 6,
    "1 set + 1 run": 7,
    "2 runs": 8,
    "3 sets": 9,
    "2 sets + 1 run": 10,
    "1 set + 2 runs": 11,
    "1 run of 7": 7,
    "3 runs": 12,
    "2 runs of 5": 10,
    "3 sets + 1 run": 13,
}


def test_every_preset_of_rules_section_3_is_registered() -> None:
    assert set(ALL_PRESETS) <= set(rules.PRESETS)
    for preset in ALL_PRESETS:
        assert find_ruleset(preset).id == preset
        assert resolve_ruleset(preset) is find_ruleset(preset)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_rounds_table(preset: str) -> None:
    ruleset = find_ruleset(preset)
    expected = ROUNDS[preset]
    assert ruleset.round_count == len(expected)
    for number, (text, hand, whole, discard, exact) in enumerate(expected, start=1):
        spec = ruleset.round(number)
        assert spec.number == number
        assert spec.contract.text == text, (preset, number)
        assert [(m.type, m.min) for m in spec.contract.melds] == MELDS[text], (preset, number)
        assert spec.contract.min_cards == MIN_CARDS[text]
        assert spec.hand_size == hand, (preset, number)
        assert spec.whole_hand is whole, (preset, number)
        assert spec.discard_to_go_out is discard, (preset, number)
        assert spec.exact_minimum is exact, (preset, number)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_as_dict_describes_rounds_as_the_api_shows_them(preset: str) -> None:
    # docs/api.md: "rounds: number, contract, hand_size, whole_hand, discard_to_go_out"
    ruleset = find_ruleset(preset)
    shown = ruleset.as_dict()
    assert shown["id"] == preset
    assert shown["round_count"] == len(ROUNDS[preset])
    assert shown["players"] == {"min": ruleset.min_players, "max": ruleset.max_players}
    for row, item in zip(ROUNDS[preset], shown["rounds"], strict=True):
        text, hand, whole, discard, _ = row
        assert item["contract"] == {
            "melds": [{"type": t, "min": m} for t, m in MELDS[text]],
            "text": text,
        }
        assert (item["hand_size"], item["whole_hand"], item["discard_to_go_out"]) == (
            hand,
            whole,
            discard,
        )


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_a_stored_ruleset_reads_back_the_same(preset: str) -> None:
    # docs/api.md: "Its ruleset is resolved and stored with it when it is created, so later changes
    # to presets never change an old sheet."
    ruleset = find_ruleset(preset)
    stored = ruleset.as_dict()
    again = Ruleset.from_dict(stored)
    assert again.as_dict() == stored
    for card in (*rules.DECK, rules.JOKER):
        assert again.points(card) == ruleset.points(card)


def test_a_ruleset_that_is_not_stored_data_is_refused() -> None:
    with pytest.raises(rules.RulesetError):
        Ruleset.from_dict({"id": "liverpool"})


# --- players, decks and jokers ---------------------------------------------------------------

# the German Liverpool sheet: "Drei bis acht Spieler"; the Norwegian sheet: "for 3–5 spillere"; the
#                             German Progressive sheet: "3 bis 8 Spieler"
PLAYERS = {preset: (3, 8) for preset in ALL_PRESETS} | {"contract-rummy": (3, 5)}


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_players(preset: str) -> None:
    ruleset = find_ruleset(preset)
    low, high = PLAYERS[preset]
    assert (ruleset.min_players, ruleset.max_players) == (low, high)
    for outside in (low - 1, high + 1, 0):
        with pytest.raises(rules.RulesetError) as caught:
            ruleset.table(outside)
        assert caught.value.field == "players"


# (players, decks, jokers)
TABLES = {
    # the German Liverpool sheet: "3–4 Spieler: Zwei Standard-Kartendecks à 52 Karten plus 2 bis 4
    #                             Joker" / "5–8 Spieler:
    #      Drei Standard-Kartendecks à 52 Karten plus 3 bis 6 Joker"; docs/rules.md: default 4 and
    #      6.
    **{
        p: [(3, 2, 4), (4, 2, 4), (5, 3, 6), (6, 3, 6), (7, 3, 6), (8, 3, 6)]
        for p in LIVERPOOL_FAMILY
    },
    # the Norwegian sheet: "Bruk to vanlige kortstokker og én joker mindre enn antall spillere: to
    #                      jokere med tre
    #      spillere, tre med fire og fire med fem."
    "contract-rummy": [(3, 2, 2), (4, 2, 3), (5, 2, 4)],
    # the German Progressive sheet: "Zwei Standard-Kartendecks mit je 52 Karten plus vier Joker (108
    #                               Karten insgesamt) für
    #      bis zu 6 Spieler; für 7 oder 8 Spieler wird ein drittes Kartendeck und zwei weitere
    #      Joker hinzugefügt."
    **{
        p: [(3, 2, 4), (4, 2, 4), (5, 2, 4), (6, 2, 4), (7, 3, 6), (8, 3, 6)]
        for p in PROGRESSIVE_FAMILY
        if p != "california"
    },
    # docs/rules.md §3.3: california has "no jokers in the deck".
    "california": [(3, 2, 0), (4, 2, 0), (5, 2, 0), (6, 2, 0), (7, 3, 0), (8, 3, 0)],
}
# docs/rules.md §5 Decision: "when a check is not told the number of players, copies of a card are
# limited by the largest table the ruleset allows (most decks, most jokers)".
LARGEST = {p: (3, 6) for p in ALL_PRESETS} | {"contract-rummy": (2, 4), "california": (3, 0)}


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_decks_and_jokers_by_table_size(preset: str) -> None:
    ruleset = find_ruleset(preset)
    for players, decks, jokers in TABLES[preset]:
        size = ruleset.table(players)
        assert (size.decks, size.jokers) == (decks, jokers), (preset, players)
    largest = ruleset.table()
    assert (largest.decks, largest.jokers) == LARGEST[preset]


# --- the other parameters of docs/rules.md §3
# --------------------------------------------------------


def _family(preset: str) -> str:
    if preset in LIVERPOOL_FAMILY:
        return "liverpool"
    return "contract-rummy" if preset == "contract-rummy" else "progressive"


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_aces_and_meld_minimums(preset: str) -> None:
    # the German Liverpool sheet: "Asse dürfen in Sequenzen TIEF (A-2-3) oder HOCH (D-K-A) gespielt
    #                             werden, aber nie als
    #      Übergang (kein K-A-2)."  "Buch": "drei oder mehr"; "Sequenz": "vier oder mehr"
    # the Norwegian sheet: "Ess kan brukes lavt i A–2–3–4 eller høyt i knekt–dame–konge–ess"
    # the German Progressive sheet: "Asse können an beiden Enden einer Sequenz verwendet werden,
    #                               jedoch nicht als Brücke"
    ruleset = find_ruleset(preset)
    assert ruleset.ace_low and ruleset.ace_high
    assert (ruleset.set_min, ruleset.run_min) == (3, 4)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_lay_off_timing(preset: str) -> None:
    # 000 Schritt 4: lay-offs on the turn of the contract (steps 3 then 4);
    # the Norwegian sheet: "I dette regelsettet kan du ikke legge ekstra kort samme tur som første
    #                      utlegg."
    # the German Progressive sheet: "Nachdem Sie Ihren Vertrag abgelegt haben, dürfen Sie in
    #                               nachfolgenden Zügen ..."
    expected = "same_turn" if _family(preset) == "liverpool" else "next_turn"
    assert find_ruleset(preset).layoff_timing == expected


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_runs_may_touch_except_in_contract_rummy(preset: str) -> None:
    # the Norwegian sheet: "To rekker i samme sort kan ikke bare være to sammenhengende deler av én
    #                      lang rekke."
    assert find_ruleset(preset).runs_may_touch is (preset != "contract-rummy")


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_wild_cards(preset: str) -> None:
    ruleset = find_ruleset(preset)
    if _family(preset) == "liverpool":
        # the German Liverpool sheet: "Ein Buch muss mindestens zwei natürliche (nicht-wilde) Karten
        #                             enthalten"
        assert ruleset.set_min_naturals == 2
        assert ruleset.wilds_outside_span == 1
    else:
        # docs/rules.md §3.2/§3.3 Decision: "every meld needs at least one natural"
        assert ruleset.set_min_naturals == 1
        assert ruleset.wilds_outside_span is None
    assert ruleset.run_min_naturals == 1
    # docs/rules.md §3.1: "House option (off by default): at most one wild card per 4 cards of a
    # run."
    assert ruleset.run_wilds_per_cards is None
    # the German Progressive sheet: "California Contract: Verwendet Damen als primäre Wildkarte
    #                               anstelle von Jokern."
    queens = frozenset({rules.Rank.QUEEN}) if preset == "california" else frozenset()
    assert ruleset.wild_ranks == queens
    assert ruleset.is_wild(rules.JOKER)
    assert ruleset.is_wild(rules.Card.parse("QH")) is (preset == "california")


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_joker_swaps(preset: str) -> None:
    ruleset = find_ruleset(preset)
    family = _family(preset)
    if family == "liverpool":
        # the German Liverpool sheet: "den zurückgeholten Joker sofort als Wildkarte in Ihrer
        #                             eigenen Meldung verwenden"
        assert ruleset.swaps and ruleset.swap_from_sets and ruleset.swap_from_runs
        assert ruleset.swap_timing == "any"
        assert ruleset.freed_joker == "own_meld_now"
    elif family == "contract-rummy":
        # the Norwegian sheet: "En joker i et sett er låst" / "Når du allerede har lagt kontrakt på
        #                      en tidligere
        #      tur ... bruke jokeren et annet sted på bordet samme tur. Den kan ikke lagres på
        #      hånden."
        assert ruleset.swaps and ruleset.swap_from_runs
        assert not ruleset.swap_from_sets
        assert ruleset.swap_timing == "earlier_turn"
        assert ruleset.freed_joker == "table_this_turn"
    else:
        # docs/rules.md §3.3: "The sheet describes no joker swap: swaps are not allowed (house
        # option)."
        assert not ruleset.swaps


# (buying, limit, penalty cards, no two in a row)
BUYING = {
    # the German Liverpool sheet: "Der Käufer nimmt die Ablage UND eine Strafkarte vom Talon" / "bis
    #                             zu DREIMAL kaufen"
    **{p: (True, 3, 1, False) for p in ("liverpool", "liverpool-9", "liverpool-fixed-hand")},
    "liverpool-no-buy": (False, None, None, None),
    # the Norwegian sheet: "Varianten bruker ett straffekort ved kjøp" / "samme spiller kan ikke ta
    #                      to påfølgende
    #      kort på denne måten. Ikke avtal maks to kjøp og kall det denne grunnregelen"
    "contract-rummy": (True, None, 1, True),
    # the German Progressive sheet: "Sie müssen dann auch eine Strafkarte vom Talon nehmen. Jeder
    #                               Spieler darf maximal 3 Mal
    #      pro Runde kaufen."
    **{p: (True, 3, 1, False) for p in ("progressive", "shanghai", "california")},
    "double-progressive": (True, 3, 1, False),
    # the German Progressive sheet: "Streng ohne Kaufen: Entfernt die Kaufregel"
    "progressive-no-buy": (False, None, None, None),
}


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_buying(preset: str) -> None:
    ruleset = find_ruleset(preset)
    buying, limit, cards, no_two = BUYING[preset]
    assert ruleset.buying is buying
    if buying:
        assert ruleset.buy_limit == limit
        assert ruleset.buy_penalty_cards == cards
        assert ruleset.no_consecutive_buys is no_two


# (tie break, cutter, first dealer)
TABLE_CUSTOMS = {
    # the German Liverpool sheet: "Der Spieler links vom Geber hebt ab." / "Bei Gleichstand wird die
    #                             letzte Runde erneut
    #      gespielt oder die Strafpunkte der siebten Runde werden verglichen."
    **{p: ("last_round", "left_of_dealer", "agreed") for p in LIVERPOOL_FAMILY},
    # docs/rules.md §3.2: "the player to the dealer's right cuts"; Decision: "a tie is shared".
    "contract-rummy": ("shared", "right_of_dealer", None),
    # the German Progressive sheet: "Der Spieler rechts vom Geber hebt ab." / "Der erste Geber wird
    #                               durch Ziehen der
    #      höchsten Karte bestimmt" / "Bei Gleichstand entscheidet das niedrigste Ergebnis in
    #      Runde 7; wenn immer noch Gleichstand besteht, teilen sich die Spieler den Sieg."
    **{p: ("last_round", "right_of_dealer", "highest_card") for p in PROGRESSIVE_FAMILY},
}


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_tie_break_cutter_and_first_dealer(preset: str) -> None:
    ruleset = find_ruleset(preset)
    tie_break, cutter, first_dealer = TABLE_CUSTOMS[preset]
    assert ruleset.tie_break == tie_break
    assert ruleset.cutter == cutter
    if first_dealer is not None:
        assert ruleset.first_dealer == first_dealer


@pytest.mark.parametrize("preset", (*LIVERPOOL_FAMILY, "contract-rummy"))
def test_stock_exhausted_reshuffles_by_default(preset: str) -> None:
    # the German Liverpool sheet: "mischen manche Gruppen den Ablagestapel (außer der obersten
    #                             Karte) als neuen Talon";
    # docs/rules.md §3.1: "reshuffle the discards except the top card (default)"
    # the Norwegian sheet: "Ved tom trekkbunke beholdes øverste avkastkort, og resten stokkes til ny
    #                      trekkbunke."
    assert find_ruleset(preset).stock_exhausted == "reshuffle"


def test_contract_rummy_cut_bonus_is_off_by_default() -> None:
    # the Norwegian sheet: "Den bonusen er et valgfritt tillegg her, ikke nødvendig for å lære
    #                      kontraktspillet."
    assert find_ruleset("contract-rummy").cut_bonus == 0
    house = find_ruleset("contract-rummy").with_options({"cut_bonus": 50})
    assert house.cut_bonus == 50


# --- unknown presets and rounds ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["", "Liverpool", "liverpool-10", "rummy", None, 7])
def test_unknown_preset(name: Any) -> None:
    with pytest.raises(rules.RulesetError) as caught:
        find_ruleset(name)
    assert caught.value.field == "ruleset"
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_a_round_the_ruleset_does_not_have(preset: str) -> None:
    ruleset = find_ruleset(preset)
    for number in (0, -1, ruleset.round_count + 1, True, "1", 1.0):
        with pytest.raises(rules.RoundError) as caught:
            ruleset.round(number)  # type: ignore[arg-type]
        assert caught.value.field == "round"


# --- house options ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "options", "attribute", "value"),
    [
        # docs/rules.md §3.1 house option: "at most one wild card per 4 cards of a run"
        ("liverpool", {"run_wilds_per_cards": 4}, "run_wilds_per_cards", 4),
        # docs/rules.md §3.1 "Stock exhausted: house option ... or end the round"
        ("liverpool", {"stock_exhausted": "end_round"}, "stock_exhausted", "end_round"),
        ("liverpool", {"tie_break": "shared"}, "tie_break", "shared"),
        ("liverpool", {"buying": False}, "buying", False),
        ("liverpool", {"buy_limit": 2}, "buy_limit", 2),
        # the Norwegian sheet: "Noen norske bord bruker andre jokerverdier, flere straffekort ved
        #                      kjøp eller tillater
        #      pålegging samme tur."
        ("contract-rummy", {"buy_penalty_cards": 2}, "buy_penalty_cards", 2),
        ("contract-rummy", {"layoff_timing": "same_turn"}, "layoff_timing", "same_turn"),
        ("contract-rummy", {"points": {"JK": 25}}, "joker_points", 25),
        # docs/rules.md §3.3: "swaps are not allowed (house option)"
        ("progressive", {"swaps": True, "swap_from_runs": True}, "swaps", True),
        ("progressive", {"buying": False}, "buying", False),
    ],
)
def test_valid_house_options_apply(
    preset: str, options: dict[str, Any], attribute: str, value: Any
) -> None:
    house = resolve_ruleset({"base": preset, "options": options})
    assert getattr(house, attribute) == value
    assert dict(house.options) == options
    # The preset itself never changes.
    assert getattr(find_ruleset(preset), attribute) != value


def test_jokers_option_sets_the_jokers_of_every_table() -> None:
    # the German Liverpool sheet: "plus 2 bis 4 Joker" -- a table that plays with two.
    house = find_ruleset("liverpool").with_options({"jokers": 2})
    assert house.table(3).jokers == 2
    assert house.table(8).jokers == 2
    assert house.table(3).decks == 2


def test_hand_size_option_deals_ten_in_every_round() -> None:
    # the German Liverpool sheet: "(Manche Hausregelgruppen verwenden durchgängig 10; vorherige
    #                             Einigung erforderlich.)"
    house = find_ruleset("liverpool").with_options({"hand_size": 10})
    assert [spec.hand_size for spec in house.rounds] == [10] * 7


def test_fixed_hand_last_contract_of_six_as_a_house_rule() -> None:
    # the German Liverpool sheet: "der letzte Kontrakt wird je nach Hausregel zu einer Sequenz aus 6
    #                             oder 7 Karten."
    rounds = [
        {"contract": spec.contract.text, "hand_size": 10}
        for spec in find_ruleset("liverpool").rounds
    ]
    rounds[-1] = {"contract": "1 run of 6", "hand_size": 10, "discard_to_go_out": False}
    house = resolve_ruleset({"base": "liverpool-fixed-hand", "options": {"rounds": rounds}})
    last = house.round(7)
    assert [(m.type, m.min) for m in last.contract.melds] == [("run", 6)]
    assert last.discard_to_go_out is False
    six = rules.parse_cards("4H 5H 6H 7H 8H 9H".split())
    assert rules.check_contract(house, 7, [six]).valid
    assert not rules.check_contract(find_ruleset("liverpool-fixed-hand"), 7, [six]).valid


@pytest.mark.parametrize(
    ("preset", "options", "field"),
    [
        ("liverpool", {"wild_jacks": True}, "options.wild_jacks"),
        ("liverpool", {"buy_limit": "three"}, "options.buy_limit"),
        ("liverpool", {"buy_limit": -1}, "options.buy_limit"),
        ("liverpool", {"layoff_timing": "later"}, "options.layoff_timing"),
        ("liverpool", {"tie_break": "coin"}, "options.tie_break"),
        ("liverpool", {"set_min": 99}, "options.set_min"),
        ("liverpool", {"swaps": "yes"}, "options.swaps"),
        ("liverpool", {"points": {"JK": "many"}}, "options.points"),
        ("liverpool", {"wild_ranks": [2]}, "options.wild_ranks"),
        ("liverpool", {"rounds": []}, "options.rounds"),
        ("liverpool", {"rounds": [{"contract": "2 pairs", "hand_size": 10}]}, "options.rounds"),
        # inconsistent combinations
        ("liverpool", {"min_players": 9}, "options.min_players"),
        ("liverpool", {"ace_low": False, "ace_high": False}, "options.ace_low"),
        ("liverpool", {"max_players": 10}, "options.tables"),
        ("liverpool-no-buy", {"buy_limit": 2}, "options.buy_limit"),
        ("progressive-no-buy", {"buy_penalty_cards": 2}, "options.buy_penalty_cards"),
        ("progressive", {"swap_timing": "any"}, "options.swap_timing"),
        ("liverpool", {"set_min_naturals": 4}, "options.set_min_naturals"),
        ("liverpool", {"run_min": 5}, "options.rounds"),
        # A round's contract meld may not be shorter than any meld may be (docs/rules.md §1: a set
        # is
        # "3 or more cards of one rank", a run "4 or more cards of one suit").
        ("liverpool", {"rounds": [{"contract": "1 run of 3", "hand_size": 10}]}, "options.rounds"),
        ("liverpool", {"rounds": [{"contract": "2 sets of 2", "hand_size": 7}]}, "options.rounds"),
        (
            "liverpool",
            {"rounds": [{"contract": "1 run of 3", "hand_size": 10, "exact_minimum": True}]},
            "options.rounds",
        ),
    ],
)
def test_unknown_or_inconsistent_options_raise_with_a_field(
    preset: str, options: dict[str, Any], field: str
) -> None:
    with pytest.raises(rules.RulesetError) as caught:
        find_ruleset(preset).with_options(options)
    assert caught.value.field == field
    with pytest.raises(rules.RulesetError) as caught:
        resolve_ruleset({"base": preset, "options": options})
    assert caught.value.field == "ruleset." + field


@pytest.mark.parametrize(
    ("options", "field"),
    [({"points": {"Z": 5}}, "options.points"), ({"wild_ranks": ["Z"]}, "options.wild_ranks")],
)
def test_a_bad_rank_inside_an_option_is_a_ruleset_error_with_a_field(
    options: dict[str, Any], field: str
) -> None:
    # docs/api.md: invalid input answers "errors: a list of {field, message}" -- the option must be
    # named, as it is for every other bad option value.
    with pytest.raises(rules.RulesetError) as caught:
        find_ruleset("liverpool").with_options(options)
    assert caught.value.field == field


@pytest.mark.parametrize(
    "spec",
    [
        {"options": {"buy_limit": 2}},
        {"base": "liverpool", "extra": 1},
        {"base": "nope"},
        42,
        None,
        ["liverpool"],
    ],
)
def test_malformed_house_rulesets_raise(spec: Any) -> None:
    with pytest.raises(rules.RulesetError) as caught:
        resolve_ruleset(spec)
    assert caught.value.field == "ruleset"


def test_options_must_be_an_object() -> None:
    with pytest.raises(rules.RulesetError) as caught:
        find_ruleset("liverpool").with_options(["buying"])  # type: ignore[arg-type]
    assert caught.value.field == "options"


def test_no_options_is_the_preset() -> None:
    assert resolve_ruleset({"base": "liverpool"}) is find_ruleset("liverpool")
    assert resolve_ruleset({"base": "liverpool", "options": {}}) is find_ruleset("liverpool")


@pytest.mark.parametrize("preset", LIVERPOOL_FAMILY)
def test_a_shorter_game_of_five_rounds(preset: str) -> None:
    # the German Liverpool sheet: "Manche Gruppen spielen ein kürzeres Spiel über 5 Runden oder ein
    #                             längeres über 9
    #      Runden." (the Dutch Liverpool sheet: "een kortere wedstrijd van 5 rondes"; the Italian
    #      Liverpool sheet: "più breve di 5 mani")
    house = find_ruleset(preset).with_options({"round_count": 5})
    assert house.round_count == 5
    assert [spec.contract.text for spec in house.rounds] == [row[0] for row in ROUNDS[preset][:5]]
    with pytest.raises(rules.RoundError):
        house.round(6)
    with pytest.raises(rules.RulesetError) as caught:
        find_ruleset(preset).with_options({"round_count": 0})
    assert caught.value.field == "options.round_count"


def test_own_contracts_as_a_house_rule() -> None:
    # the German Progressive sheet: "Eigene Verträge: Manche Gruppen tauschen die Rundenreihenfolge
    #                               aus oder fügen exotische
    #      Verträge hinzu, wie zum Beispiel „eine Sequenz aus 7 Karten”."
    rounds = [
        {"contract": "1 run of 7", "hand_size": 10},
        {"contract": "2 sets", "hand_size": 10},
        {"contract": "3 runs", "hand_size": 12, "whole_hand": True},
    ]
    house = resolve_ruleset({"base": "progressive", "options": {"rounds": rounds}})
    assert house.round_count == 3
    assert [(m.type, m.min) for m in house.round(1).contract.melds] == [("run", 7)]
    assert house.round(2).contract.text == "2 sets"
    assert house.round(3).whole_hand and not house.round(3).discard_to_go_out
    seven = rules.parse_cards("2S 3S 4S 5S 6S 7S 8S".split())
    assert rules.check_contract(house, 1, [seven]).valid


def test_liverpool_tie_house_option_replays_the_last_round() -> None:
    # the German Liverpool sheet: "Bei Gleichstand wird die letzte Runde erneut gespielt oder die
    #                             Strafpunkte der siebten
    #      Runde werden verglichen." docs/rules.md §3.1: "house option: replay the last round."
    house = find_ruleset("liverpool").with_options({"tie_break": "replay"})
    assert house.tie_break == "replay"
