"""The checks' fast paths: cards are read through a table, which is the documented pattern."""

from __future__ import annotations

import itertools
import re

from api.fields import CARD_PATTERN, CARDS
from rules import Card


def test_card_table_is_the_pattern() -> None:
    """CARDS holds every string CARD_PATTERN admits, and no other, each read as Card.parse."""
    pattern = re.compile(CARD_PATTERN)
    alphabet = sorted(set("".join(CARDS)) | set("01BXx \n\t🃏"))
    for length in (1, 2, 3):
        for letters in itertools.product(alphabet, repeat=length):
            text = "".join(letters)
            assert (text in CARDS) == (pattern.fullmatch(text) is not None), repr(text)
    for text, card in CARDS.items():
        assert card == Card.parse(text)
