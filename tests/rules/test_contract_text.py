"""The grammar of a house round's contract text, twice: ``CONTRACT_PATTERN`` in the document
(what a client's validator and schemathesis read) and ``Contract.parse`` (what the engine
reads). A text one accepts and the other refuses is a request the document calls valid and the
API refuses, or the other way round; these tests hold the two to the same language.

A text that parses may still be impossible at a table (a set of 2 where sets take 3): that is
the ruleset's consistency check, not the grammar's, and is not tested here.
"""

from __future__ import annotations

import re

import jsonschema_rs
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rules import PARAMETERS, RulesetError
from rules.parameters import CONTRACT_PATTERN
from rules.ruleset import Contract

#: The schema a client validates a contract text with, as the document gives it.
CONTRACT_SCHEMA = PARAMETERS["rounds"].value_schema()["items"]["properties"]["contract"]
VALIDATOR = jsonschema_rs.Draft4Validator(CONTRACT_SCHEMA)

ACCEPTED = (
    "2 sets",
    "1 set + 1 run",
    "3 runs",
    "1 run of 7",
    "2 Books + 1 sequence of 5",
    "1 SET + 2 RUNS OF 4 OR MORE",
    "6 sequences of 13",
    "01 set of 03",
    "  1 book\t+\n2 runs  ",
    "1 run of 10 or more+1 set",
    "1 set of 1",
)
REFUSED = (
    "0",
    "00",
    "0 sets",
    "7 runs",
    "1 set of 0",
    "1 set of 14",
    "1 run of 100",
    "",
    "   ",
    "sets",
    "1sets",
    "1 set of",
    "1 set or more",
    "1 set +",
    "+ 1 set",
    "1 set ++ 1 run",
    "1 set, 1 run",
    "1 sett",
    "1 seq",
    "-1 set",
    "1.0 set",
    "1 set of 4.5",
    "\u0663 sets",  # an Arabic-Indic three
    "1 boo\u212as",  # the Kelvin sign, which lower() turns into "k"
    "1\u00a0set",  # a no-break space
    "1 set\u2003+ 1 run",  # an em space
    "1 set\x1c",  # a separator Python's Unicode \s calls blank, ECMAScript's does not
)


def parses(text: str) -> bool:
    try:
        Contract.parse(text)
    except RulesetError:
        return False
    return True


def in_pattern(text: str) -> bool:
    return re.fullmatch(CONTRACT_PATTERN, text) is not None


@pytest.mark.parametrize("text", ACCEPTED)
def test_a_contract_the_parser_reads_is_valid_by_the_schema(text: str) -> None:
    assert parses(text)
    assert in_pattern(text)
    assert VALIDATOR.is_valid(text)


@pytest.mark.parametrize("text", REFUSED)
def test_a_text_the_parser_refuses_is_invalid_by_the_schema(text: str) -> None:
    assert not parses(text)
    assert not in_pattern(text)
    assert not VALIDATOR.is_valid(text)


#: The pieces contract texts are made of, near misses and look-alikes included.
_PIECES = st.sampled_from(
    [
        *("0", "1", "3", "6", "7", "01", "10", "13", "14", "\u0663"),
        *("set", "sets", "Book", "BOOKS", "run", "RUNS", "sequence", "sequences", "seq"),
        *("of", "OF", "or", "more", "Or More", "boo\u212as", "s"),
        *(" ", "  ", "\t", "\n", "\u00a0", "\u2003", "\x1c", "+", "+", ",", ""),
    ]
)


@settings(max_examples=1000)
@given(st.lists(_PIECES, max_size=14).map("".join))
@example("1 set of 13 or more + 6 runs")
@example("1 run of 14")
def test_the_pattern_and_the_parser_agree_on_any_text(text: str) -> None:
    assert in_pattern(text) == parses(text), text
    assert VALIDATOR.is_valid(text) == parses(text), text


@settings(max_examples=150)
@given(st.from_regex(CONTRACT_PATTERN, fullmatch=True))
def test_every_text_the_pattern_generates_parses(text: str) -> None:
    # What schemathesis sends as a valid contract is drawn this way.
    assert parses(text), text
