"""Card notation (docs/rules.md §2): canonical form, lenient parsing, round trips, quoted errors."""

from __future__ import annotations

import copy
import pickle
from collections import Counter

import pytest
from rules_testing import C

import rules
from rules import Card, Rank, Suit
from rules.cards import SPELLINGS, Joker, Natural


# docs/rules.md §2: "Ranks A 2 3 … 10 J Q K, suits S H D C; a card is rank then suit: 10H, QS, AD.
# A joker is JK. Parsing is case-insensitive, accepts T for ten and the suit symbols ♠ ♥ ♦ ♣;
# output is always the canonical form above."
@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("10H", "10H"),
        ("QS", "QS"),
        ("AD", "AD"),
        ("2C", "2C"),
        ("JK", "JK"),
        # case-insensitive
        ("10h", "10H"),
        ("qs", "QS"),
        ("aD", "AD"),
        ("jK", "JK"),
        ("jk", "JK"),
        ("kc", "KC"),
        ("jh", "JH"),
        # T for ten
        ("TH", "10H"),
        ("th", "10H"),
        ("Td", "10D"),
        # suit symbols
        ("Q♠", "QS"),
        ("10♥", "10H"),
        ("T♥", "10H"),
        ("A♦", "AD"),
        ("7♣", "7C"),
        ("k♣", "KC"),
    ],
)
def test_parse_gives_the_canonical_form(text: str, canonical: str) -> None:
    assert str(Card.parse(text)) == canonical


ALL_CARDS = (*rules.DECK, rules.JOKER)


def test_every_rank_and_suit_spelled_as_rules_section_2_has_it() -> None:
    # docs/rules.md §2: "Ranks A 2 3 … 10 J Q K, suits S H D C"
    ranks = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
    suits = "S H D C".split()
    assert [rank.symbol for rank in Rank] == ranks
    assert sorted(suit.value for suit in Suit) == sorted(suits)
    texts = [rank + suit for rank in ranks for suit in suits]
    assert sorted(str(card) for card in rules.DECK) == sorted(texts)
    assert len(set(rules.DECK)) == 52


@pytest.mark.parametrize("card", [*rules.DECK, rules.JOKER], ids=str)
def test_str_and_repr_round_trip(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert repr(card) == f"Card.parse({str(card)!r})"
    assert eval(repr(card), {"Card": Card}) == card


@pytest.mark.parametrize("card", [*rules.DECK, rules.JOKER], ids=str)
def test_lower_case_and_symbol_spellings_read_the_same_card(card: Card) -> None:
    text = str(card)
    assert Card.parse(text.lower()) == card
    if not card.is_joker:
        symbol = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[text[-1]]
        assert Card.parse(text[:-1] + symbol) == card
        assert Card.parse(text[:-1].replace("10", "T") + text[-1]) == card


def test_joker() -> None:
    joker = Card.parse("JK")
    assert joker.is_joker
    assert joker == rules.JOKER == Card.joker()
    assert (joker.rank, joker.suit) == (None, None)
    assert str(joker) == "JK"
    assert not Card.parse("JH").is_joker
    assert str(Card.parse("JH")) == "JH"


def test_a_card_is_a_natural_with_a_rank_and_a_suit_or_the_joker() -> None:
    # docs/rules.md §2: a card is rank then suit; a joker is JK, and has neither.
    for card in rules.DECK:
        assert isinstance(card, Natural) and not isinstance(card, Joker)
        assert isinstance(card.rank, Rank) and isinstance(card.suit, Suit)
        assert not card.is_joker
    assert isinstance(rules.JOKER, Joker) and not isinstance(rules.JOKER, Natural)
    assert isinstance(Card(Rank.TWO, Suit.CLUBS), Natural)
    assert isinstance(Card(None, None), Joker)
    assert all(isinstance(card, Card) for card in ALL_CARDS)
    assert {type(card) for card in SPELLINGS.values()} == {Natural, Joker}


def test_the_naturals_of_a_meld_are_its_cards_that_are_not_wild() -> None:
    # A card of a wild rank is a natural card (it has a rank and a suit) but not one of a
    # meld's naturals: May I's twos are wild.
    cards = rules.parse_cards(["2H", "JK", "7H", "QS"])
    assert rules.find_ruleset("may-i").naturals(cards) == [cards[2], cards[3]]
    assert rules.find_ruleset("california").naturals(cards) == [cards[0], cards[2]]
    assert rules.find_ruleset("liverpool").naturals(cards) == [cards[0], cards[2], cards[3]]


def test_parsed_card_has_rank_and_suit() -> None:
    card = Card.parse("10h")
    assert card.rank is Rank.TEN
    assert card.suit is Suit.HEARTS
    assert Card.parse("as").rank is Rank.ACE
    assert Card.parse("kc").suit is Suit.CLUBS


def test_cards_are_values_usable_in_counters_and_sets() -> None:
    # docs/rules.md §2: "The same card may appear once per deck in play" -- so copies must count.
    counted = Counter(C("9S 9s 9♠ 10H TH JK jk"))
    assert counted[Card.parse("9S")] == 3
    assert counted[Card.parse("10H")] == 2
    assert counted[rules.JOKER] == 2
    assert len(set(C("QS qs Q♠"))) == 1


def test_cards_are_immutable() -> None:
    card = Card.parse("QS")
    with pytest.raises(AttributeError, match="cannot be changed"):
        card.rank = Rank.KING
    with pytest.raises(AttributeError, match="cannot be changed"):
        del card.suit
    assert card == Card.parse("QS")


def test_every_spelling_reads_as_the_card_it_names() -> None:
    # docs/rules.md §2: rank then suit, any case, T for ten, the suit symbols; JK for a joker.
    for text, card in SPELLINGS.items():
        assert Card.parse(text) is card
        assert Card.parse(f" {text}\t") is card
        if card is rules.JOKER:
            assert text.upper() in ("JK", "JOKER", "🃏")
        else:
            assert str(card)[-1] in text.upper() or text[-1] in "♠♥♦♣♤♡♢♧"
    # 13 ranks (and T) in two cases, before 16 ways to write a suit; the joker in 37.
    assert len(SPELLINGS) == 19 * 16 + 4 + 32 + 1
    assert {str(card) for card in SPELLINGS.values()} == {str(card) for card in ALL_CARDS}


def test_a_cards_text_is_its_canonical_spelling() -> None:
    for card in ALL_CARDS:
        assert card.text == str(card) and Card.parse(card.text) is card
    with pytest.raises(AttributeError, match="cannot be changed"):
        rules.JOKER.text = "JOKER"


def test_each_card_exists_once() -> None:
    # Equal cards are one object, however they were made: parsed in any spelling, built from
    # a rank and a suit (or their values), copied or pickled.
    queen = Card.parse("QS")
    assert Card(Rank.QUEEN, Suit.SPADES) is queen
    assert Card(12, "S") is queen  # type: ignore[call-overload]
    assert Card.parse("q♠") is queen
    assert copy.copy(queen) is queen
    assert copy.deepcopy([queen])[0] is queen
    assert pickle.loads(pickle.dumps(queen)) is queen
    assert pickle.loads(pickle.dumps(rules.JOKER)) is rules.JOKER
    assert Card(None, None) is rules.JOKER
    assert len({id(card) for card in rules.DECK}) == 52


@pytest.mark.parametrize(
    ("rank", "suit"),
    [(Rank.ACE, None), (None, Suit.SPADES), (0, "S"), (Rank.ACE, "X"), ([1], "S"), ("A", "S")],
)
def test_a_card_of_no_rank_or_suit_raises_a_value_error_quoting_them(
    rank: object, suit: object
) -> None:
    with pytest.raises(rules.CardNotationError) as raised:
        Card(rank, suit)  # type: ignore[call-overload]
    assert isinstance(raised.value, ValueError)
    assert repr(rank) in str(raised.value) and repr(suit) in str(raised.value)


def test_parse_cards_and_format_cards_round_trip_in_order() -> None:
    cards = rules.parse_cards(["th", "q♠", "jk", "Ad", "2c"])
    assert rules.format_cards(cards) == ["10H", "QS", "JK", "AD", "2C"]
    assert rules.parse_cards(rules.format_cards(cards)) == cards


@pytest.mark.parametrize(
    "text",
    ["", "  ", "1H", "11H", "10X", "ZZ", "H10", "10", "K", "KK", "♥", "AS2", "JKR", "0S", "1OH"],
)
def test_not_a_card_raises_a_value_error_quoting_the_input(text: str) -> None:
    with pytest.raises(rules.CardNotationError) as caught:
        Card.parse(text)
    assert isinstance(caught.value, rules.RulesError)
    assert isinstance(caught.value, ValueError)
    assert repr(text) in str(caught.value)


@pytest.mark.parametrize("value", [None, 10, ["10H"], b"10H"])
def test_non_text_is_not_a_card(value: object) -> None:
    with pytest.raises(rules.CardNotationError):
        Card.parse(value)  # type: ignore[arg-type]


def test_parse_cards_quotes_the_first_bad_card() -> None:
    with pytest.raises(rules.CardNotationError) as caught:
        rules.parse_cards(["9S", "9H", "XQ", "JK"])
    assert "'XQ'" in str(caught.value)


def test_rank_parse() -> None:
    assert Rank.parse("t") is Rank.TEN
    assert Rank.parse("10") is Rank.TEN
    assert Rank.parse("a") is Rank.ACE
    assert Rank.parse("Q") is Rank.QUEEN
    with pytest.raises(rules.CardNotationError) as caught:
        Rank.parse("11")
    assert "'11'" in str(caught.value)


def test_error_tree_is_under_value_error() -> None:
    for error in (rules.CardNotationError, rules.RulesetError, rules.RoundError, rules.MoveError):
        assert issubclass(error, rules.RulesError)
    assert issubclass(rules.RulesError, ValueError)
