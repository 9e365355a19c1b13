"""A match scored (docs/rules.md §3, docs/api.md match sheets): dealer, cutter and first player per
round,
rounds that cannot have happened, totals, standings and tie-breaks."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from rules_testing import ALL_PRESETS, LIVERPOOL_FAMILY, C

import rules
from rules import find_ruleset
from rules.match import Entry, Result, outcome, schedule, score_round, seating

# Card values are multiples of 5 except in contract-rummy (pips at face value).
FIVES = tuple(p for p in ALL_PRESETS if p != "contract-rummy")


def score(
    preset: str, number: int, players: int, entries: Sequence[Entry], **kw: object
) -> tuple[tuple[Result, ...], list[str]]:
    results, problems = score_round(find_ruleset(preset), number, players, entries, **kw)  # type: ignore[arg-type]
    return results, [p.code for p in problems]


# --- who deals, cuts and starts ---------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize(("players", "first_dealer"), [(3, 0), (4, 2), (5, 4)])
def test_dealer_cutter_and_first_player_each_round(
    preset: str, players: int, first_dealer: int
) -> None:
    ruleset = find_ruleset(preset)
    plan = schedule(ruleset, players, first_dealer)
    assert len(plan) == ruleset.round_count
    for number, seat in enumerate(plan, start=1):
        # the German Liverpool sheet: "nach jeder Runde wandert das Recht zum Geben nach links
        #                             weiter"; the Norwegian sheet: "Giveren
        #      flyttes med klokken etter hver runde"; the German Progressive sheet: "das Geben
        #      rotiert im Uhrzeigersinn"
        dealer = (first_dealer + number - 1) % players
        assert seat.dealer == dealer
        assert seat.round.number == number
        # the German Liverpool sheet: "Der Spieler links vom Geber macht den ersten Zug."; the
        #                             Norwegian sheet: "spilleren til venstre
        #      starter"; the German Progressive sheet: "Der Spieler links vom Geber beginnt"
        assert seat.first_player == (dealer + 1) % players
        if preset in LIVERPOOL_FAMILY:
            # the German Liverpool sheet: "Der Spieler links vom Geber hebt ab."
            assert seat.cutter == (dealer + 1) % players
        else:
            # the German Progressive sheet: "Der Spieler rechts vom Geber hebt ab."; docs/rules.md
            #                               §3.2: "the player to the
            #      dealer's right cuts"
            assert seat.cutter == (dealer - 1) % players
        assert seating(ruleset, players, first_dealer, number) == seat


def test_seating_in_a_round_the_ruleset_does_not_have() -> None:
    with pytest.raises(rules.RoundError):
        seating(find_ruleset("liverpool"), 4, 0, 8)


# --- a round's results ------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_a_round_scores_the_cards_left_in_hand(preset: str) -> None:
    # the German Liverpool sheet: "Die anderen Spieler zählen den Strafwert der Karten, die sich
    #                             noch in ihrer Hand
    #      befinden." the German Progressive sheet: "Spieler, die rausgehen, erhalten 0 Punkte für
    #      die Runde."
    results, problems = score(
        preset,
        1,
        3,
        [Entry(0, went_out=True), Entry(1, cards=C("4S 8H KD")), Entry(2, points=40)],
    )
    assert problems == []
    hand = 4 + 8 + 10 if preset == "contract-rummy" else 5 + 5 + 10
    assert [(r.seat, r.points, r.went_out) for r in results] == [
        (0, 0, True),
        (1, hand, False),
        (2, 40, False),
    ]


def test_the_norwegian_hand_scores_37() -> None:
    # the Norwegian sheet: "En hånd med 4, 8, dame og joker gir 4 + 8 + 10 + 15 = 37 straffepoeng."
    results, problems = score(
        "contract-rummy",
        1,
        3,
        [Entry(0, went_out=True), Entry(1, cards=C("4S 8H QD JK")), Entry(2, points=37)],
    )
    assert problems == []
    assert [r.points for r in results] == [0, 37, 37]


@pytest.mark.parametrize("preset", FIVES)
def test_37_points_are_impossible_where_every_card_costs_a_multiple_of_five(preset: str) -> None:
    # docs/api.md: "A round is rejected ... points the ruleset's card values cannot add up to"
    _, problems = score(
        preset, 1, 3, [Entry(0, went_out=True), Entry(1, points=37), Entry(2, points=35)]
    )
    assert problems == ["points_impossible"]


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_more_points_than_any_hand_can_hold(preset: str) -> None:
    _, problems = score(
        preset, 1, 3, [Entry(0, went_out=True), Entry(1, points=1000), Entry(2, points=10)]
    )
    assert problems == ["points_impossible"]


@pytest.mark.parametrize(
    ("points", "buys", "stock_ran_out", "possible"),
    [
        # liverpool round 1 deals 10 cards (docs/rules.md §3.1) and an ace costs 15: 150 at most...
        (150, 0, False, True),
        (155, 0, False, False),
        (165, 0, False, False),
        # ...and each buy brings the discard and 1 penalty card: 3 buys, 16 cards, 240.
        (240, 3, False, True),
        (245, 3, False, False),
        # Where the stock ran out, the player on turn may hold the card just drawn.
        (165, 0, True, True),
        (170, 0, True, False),
    ],
)
def test_a_hand_holds_no_more_cards_than_dealt_and_bought(
    points: int, buys: int, stock_ran_out: bool, possible: bool
) -> None:
    # the German Liverpool sheet: "Sobald ein Spieler ausgeht, endet die Runde sofort. Die anderen
    #                             Spieler zählen den
    #      Strafwert der Karten, die sich noch in ihrer Hand befinden." Nobody else is mid-turn.
    first = Entry(0, points=10) if stock_ran_out else Entry(0, went_out=True)
    others = [Entry(seat, points=points, buys=buys) for seat in (1, 2)]
    _, problems = score("liverpool", 1, 3, [first, *others], stock_ran_out=stock_ran_out)
    assert problems == ([] if possible else ["points_impossible", "points_impossible"])


@pytest.mark.parametrize(
    ("count", "buys", "possible"), [(10, 0, True), (11, 0, False), (12, 1, True)]
)
def test_cards_left_in_hand_are_no_more_than_a_hand_can_hold(
    count: int, buys: int, possible: bool
) -> None:
    hand = C(
        " ".join(["4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "2S"][:count])
    )
    _, problems = score(
        "liverpool",
        1,
        3,
        [Entry(0, went_out=True), Entry(1, cards=hand, buys=buys), Entry(2, points=10)],
    )
    assert problems == ([] if possible else ["too_many_cards"])


def test_one_point_is_impossible_in_contract_rummy() -> None:
    _, problems = score(
        "contract-rummy", 1, 3, [Entry(0, went_out=True), Entry(1, points=1), Entry(2, points=2)]
    )
    assert problems == ["points_impossible"]


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_only_one_player_goes_out(preset: str) -> None:
    # the German Liverpool sheet: "Sobald ein Spieler ausgeht, endet die Runde sofort."
    _, problems = score(
        preset, 1, 3, [Entry(0, went_out=True), Entry(1, went_out=True), Entry(2, points=10)]
    )
    assert problems == ["several_went_out"]


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_a_player_who_did_not_go_out_holds_cards(preset: str) -> None:
    # docs/api.md: "a player who did not go out with zero points" is rejected.
    _, problems = score(
        preset, 1, 3, [Entry(0, went_out=True), Entry(1, points=0), Entry(2, cards=())]
    )
    assert problems == ["zero_points", "zero_points"]


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_negative_points(preset: str) -> None:
    _, problems = score(
        preset, 1, 3, [Entry(0, went_out=True), Entry(1, points=-5), Entry(2, points=10)]
    )
    assert problems == ["points_negative"]


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_every_seat_exactly_once(preset: str) -> None:
    # docs/api.md: "a seat missing or repeated"
    _, problems = score(
        preset,
        1,
        4,
        [Entry(0, went_out=True), Entry(1, points=10), Entry(1, points=10), Entry(5, points=10)],
    )
    assert sorted(problems) == ["seat_missing", "seat_missing", "seat_repeated", "seat_unknown"]


@pytest.mark.parametrize(
    ("preset", "buys", "problems"),
    [
        # the German Liverpool sheet: "Jeder Spieler darf pro Runde bis zu DREIMAL kaufen."
        *[(p, 3, []) for p in ("liverpool", "liverpool-9", "liverpool-fixed-hand")],
        *[(p, 4, ["too_many_buys"]) for p in ("liverpool", "liverpool-9", "liverpool-fixed-hand")],
        # the German Progressive sheet: "Jeder Spieler darf maximal 3 Mal pro Runde kaufen."
        *[(p, 3, []) for p in ("progressive", "shanghai", "california", "double-progressive")],
        *[
            (p, 4, ["too_many_buys"])
            for p in ("progressive", "shanghai", "california", "double-progressive")
        ],
        # the Norwegian sheet: no limit
        ("contract-rummy", 9, []),
        # no-buy variants
        ("liverpool-no-buy", 0, []),
        ("liverpool-no-buy", 1, ["buying_not_allowed"]),
        ("progressive-no-buy", 1, ["buying_not_allowed"]),
    ],
)
def test_more_buys_than_the_ruleset_allows(preset: str, buys: int, problems: list[str]) -> None:
    _, found = score(
        preset, 5, 3, [Entry(0, went_out=True), Entry(1, points=60, buys=buys), Entry(2, points=10)]
    )
    assert found == problems


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_a_round_ended_by_the_stock(preset: str) -> None:
    # the German Liverpool sheet: "andere beenden die Runde und rechnen alle nicht abgezahlten Hände
    #                             ab."
    # the Norwegian sheet: "Finnes det ikke flere kort til trekk, avsluttes runden uten rundevinner,
    #                      og alle
    #      teller kortene på hånden."
    entries = [Entry(0, points=10), Entry(1, points=20), Entry(2, cards=C("KS"))]
    results, problems = score(preset, 1, 3, entries, stock_ran_out=True)
    assert problems == []
    assert [r.points for r in results] == [10, 20, 10]
    assert not any(r.went_out for r in results)
    _, problems = score(preset, 1, 3, entries)
    assert problems == ["nobody_went_out"]
    _, problems = score(preset, 1, 3, [Entry(0, went_out=True), *entries[1:]], stock_ran_out=True)
    assert problems == ["out_when_stock_ran_out"]


def test_every_problem_of_a_round_is_reported() -> None:
    _, problems = score(
        "liverpool",
        1,
        4,
        [
            Entry(0, went_out=True),
            Entry(1, went_out=True),
            Entry(2, points=37, buys=5),
            Entry(2, points=0),
        ],
    )
    assert sorted(problems) == sorted(
        [
            "seat_missing",
            "seat_repeated",
            "several_went_out",
            "too_many_buys",
            "points_impossible",
            "zero_points",
        ]
    )


def test_contract_rummy_cut_bonus_as_a_house_option() -> None:
    # the Norwegian sheet: "Pagat beskriver også en Liverpool-variant med 50 poengs fratrekk hvis
    #                      spilleren til
    #      høyre for giver kutter nøyaktig antall utdelingskort pluss startkortet. Den bonusen er
    #      et valgfritt tillegg her"
    house = find_ruleset("contract-rummy").with_options({"cut_bonus": 50})
    cutter = seating(house, 4, 0, 1).cutter
    assert cutter == 3
    entries = [
        Entry(0, went_out=True),
        Entry(1, points=10),
        Entry(2, points=10),
        Entry(3, points=20, bonus=50),
    ]
    results, problems = score_round(house, 1, 4, entries)
    assert problems == ()
    assert (results[3].points, results[3].penalty, results[3].bonus) == (-30, 20, 50)
    wrong = [
        Entry(0, went_out=True),
        Entry(1, points=10, bonus=50),
        Entry(2, points=10),
        Entry(3, points=20),
    ]
    assert [p.code for p in score_round(house, 1, 4, wrong)[1]] == ["bonus_wrong"]
    assert score("contract-rummy", 1, 4, entries)[1] == ["bonus_not_allowed"]


def test_copies_of_a_card_across_hands() -> None:
    entries = [Entry(0, went_out=True), Entry(1, cards=C("KS KS")), Entry(2, cards=C("KS 2C"))]
    _, problems = score("liverpool", 1, 4, [*entries, Entry(3, points=5)])
    assert problems == ["too_many_copies"]
    _, problems = score("liverpool", 1, 5, [*entries, Entry(3, points=5), Entry(4, points=5)])
    assert problems == []


def test_a_table_of_no_players_is_a_rules_error() -> None:
    with pytest.raises(rules.RulesError):
        score_round(find_ruleset("liverpool"), 1, 0, [])


# --- totals, standings, winners ---------------------------------------------------------------


def play(preset: str, players: int, table: list[list[int | None]]) -> list[tuple[Result, ...]]:
    """Score rounds given as points per seat, None for the seat that went out."""
    ruleset = find_ruleset(preset)
    rounds = []
    for number, row in enumerate(table, start=1):
        entries = [
            Entry(seat, went_out=True) if points is None else Entry(seat, points=points)
            for seat, points in enumerate(row)
        ]
        results, problems = score_round(ruleset, number, players, entries)
        assert problems == (), problems
        rounds.append(results)
    return rounds


def standings(result: object) -> list[tuple[int, int, int]]:
    return [(s.rank, s.seat, s.total) for s in result.standings]  # type: ignore[attr-defined]


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_lowest_total_wins(preset: str) -> None:
    # the German Liverpool sheet: "gewinnt der Spieler mit der NIEDRIGSTEN kumulativen
    #                             Strafpunktzahl das Spiel."
    count = find_ruleset(preset).round_count
    rounds = play(preset, 3, [[None, 10, 20]] * (count - 1) + [[15, None, 10]])
    result = outcome(find_ruleset(preset), 3, rounds)
    assert result.totals == (15, 10 * (count - 1), 20 * (count - 1) + 10)
    assert result.finished
    assert result.winners == (0,)
    assert result.tie_break is None
    assert standings(result) == [
        (1, 0, 15),
        (2, 1, 10 * (count - 1)),
        (3, 2, 20 * (count - 1) + 10),
    ]


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_equal_totals_share_a_rank_before_the_end(preset: str) -> None:
    # docs/api.md: "equal totals share a rank until a tie-break separates them"
    rounds = play(preset, 4, [[None, 10, 20, 10], [10, None, 10, 10]])
    result = outcome(find_ruleset(preset), 4, rounds)
    assert not result.finished
    assert result.winners == ()
    assert result.totals == (10, 10, 30, 20)
    assert standings(result) == [(1, 0, 10), (1, 1, 10), (3, 3, 20), (4, 2, 30)]


@pytest.mark.parametrize("preset", [p for p in ALL_PRESETS if p != "contract-rummy"])
def test_a_tie_goes_to_the_lower_last_round(preset: str) -> None:
    # the German Liverpool sheet: "Bei Gleichstand wird ... die Strafpunkte der siebten Runde werden
    #                             verglichen."
    # the German Progressive sheet: "Bei Gleichstand entscheidet das niedrigste Ergebnis in Runde 7"
    # docs/rules.md §3.3 shanghai: "the tie-break looks at round 8"
    ruleset = find_ruleset(preset)
    count = ruleset.round_count
    # Seat 0 goes out every round but the last, seat 1 scores 10 each; in the last round seat 0
    # scores what seat 1 is behind plus 5, and seat 1 scores 5: equal totals, seat 1 lower last.
    table: list[list[int | None]] = [[None, 10, 20]] * (count - 1)
    table.append([10 * (count - 1) + 5, 5, None])
    result = outcome(ruleset, 3, play(preset, 3, table))
    assert result.totals[0] == result.totals[1] == 10 * (count - 1) + 5
    assert result.winners == (1,)
    assert result.tie_break is not None
    assert result.tie_break.method == "last_round"
    assert result.tie_break.round == count
    assert result.tie_break.seats == (0, 1)
    assert result.tie_break.decided
    assert [(s.rank, s.seat) for s in result.standings] == [(1, 1), (2, 0), (3, 2)]


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_still_tied_is_shared(preset: str) -> None:
    # the German Progressive sheet: "wenn immer noch Gleichstand besteht, teilen sich die Spieler
    #                               den Sieg."
    # docs/rules.md §3.1: "Still tied: shared."
    ruleset = find_ruleset(preset)
    count = ruleset.round_count
    # Seats 0 and 1 take turns going out, and score alike in the last round.
    table: list[list[int | None]] = [
        [None, 10, 20] if n % 2 == 0 else [10, None, 20] for n in range(count - 1)
    ]
    if (count - 1) % 2:
        table[-1] = [10, 10, None]
    table.append([15, 15, None])
    result = outcome(ruleset, 3, play(preset, 3, table))
    assert result.totals[0] == result.totals[1] < result.totals[2]
    assert result.winners == (0, 1)
    assert result.tie_break is not None
    assert result.tie_break.seats == (0, 1)
    assert not result.tie_break.decided
    assert [(s.rank, s.seat) for s in result.standings] == [(1, 0), (1, 1), (3, 2)]


def test_contract_rummy_tie_is_shared() -> None:
    # docs/rules.md §3.2 Decision: "a tie is shared."
    ruleset = find_ruleset("contract-rummy")
    table: list[list[int | None]] = [[None, 10, 20]] * 6 + [[65, 5, None]]
    rounds = play("contract-rummy", 3, table)
    result = outcome(ruleset, 3, rounds)
    assert result.totals[:2] == (65, 65)
    assert result.winners == (0, 1)
    assert result.tie_break is not None
    assert result.tie_break.method == "shared"
    assert not result.tie_break.decided


def test_a_five_round_house_game_ends_and_breaks_ties_on_round_five() -> None:
    # the German Liverpool sheet: "Manche Gruppen spielen ein kürzeres Spiel über 5 Runden"
    house = find_ruleset("liverpool").with_options({"round_count": 5})
    table: list[list[int | None]] = [[None, 10, 20]] * 4 + [[45, 5, None]]
    rounds = []
    for number, row in enumerate(table, start=1):
        entries = [
            Entry(seat, went_out=True) if p is None else Entry(seat, points=p)
            for seat, p in enumerate(row)
        ]
        results, problems = score_round(house, number, 3, entries)
        assert problems == ()
        rounds.append(results)
    assert not outcome(house, 3, rounds[:4]).finished
    result = outcome(house, 3, rounds)
    assert result.finished
    assert result.totals == (45, 45, 80)
    assert result.winners == (1,)
    assert result.tie_break is not None and result.tie_break.round == 5
