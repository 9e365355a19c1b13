"""The engine's texts whose words differ by family in some language: marked for the catalog.

The German Progressive sheet says *Satz* and *Vertrag* where the German Liverpool sheet says
*Buch* and *Kontrakt*; so each text below that names a set or the contract is in the catalog
a second time, under the family's name as its gettext context (``msgctxt "progressive"``),
and :class:`rules.i18n.Language` looks there first when it writes for that family. In a
language whose sheets agree, the translation is the plain one. Nothing here is called: the
marks are for ``pybabel extract`` (keywords ``NP_`` and ``NNP_``); tests/test_catalogs.py
checks each text is also a plain message id.
"""

from __future__ import annotations


def NP_(context: str, text: str) -> str:
    """Mark ``text`` for the catalog under ``context``."""
    return text


def NNP_(context: str, singular: str, plural: str) -> tuple[str, str]:
    """Mark a text whose form a number chooses for the catalog under ``context``."""
    return singular, plural


PROGRESSIVE = (
    NNP_("progressive", "{count} set", "{count} sets"),
    NNP_("progressive", "{count} set of {size}", "{count} sets of {size}"),
    NNP_(
        "progressive",
        "a set needs at least {min} card; this one has {length}",
        "a set needs at least {min} cards; this one has {length}",
    ),
    NNP_(
        "progressive",
        "a set needs at least {needed} natural card; this one has {naturals}",
        "a set needs at least {needed} natural cards; this one has {naturals}",
    ),
    NNP_(
        "progressive",
        "in round {round} each set of the contract is laid at exactly {min} card;"
        " this one has {length}",
        "in round {round} each set of the contract is laid at exactly {min} cards;"
        " this one has {length}",
    ),
    NNP_(
        "progressive",
        "in round {round} each run of the contract is laid at exactly {min} card;"
        " this one has {length}",
        "in round {round} each run of the contract is laid at exactly {min} cards;"
        " this one has {length}",
    ),
    NP_("progressive", "a set is cards of one rank; {card} is not a {rank}"),
    NP_("progressive", "too many wild cards in this set: {detail}"),
    NP_("progressive", "a joker in a set is locked"),
    NP_("progressive", "no lay-offs on the turn the contract is laid; wait for the next turn"),
    NP_("progressive", "a joker may only be swapped before one's own contract is down"),
    NP_("progressive", "seat {seat} has laid the contract and can no longer buy"),
    NP_("progressive", "lay-offs need one's own contract on the table first"),
    NP_(
        "progressive",
        "a joker may be swapped only once one's contract was laid on an earlier turn",
    ),
    NP_(
        "progressive",
        "a contract is laid once a round, and this player's is already down"
        " (contract_down: {contract_down})",
    ),
    NP_("progressive", "contract"),
    # The house options' descriptions (GET /v1/rulesets/{id}, house_options).
    NP_("progressive", "fewest cards in a set"),
    NP_("progressive", "fewest natural cards in a set"),
    NP_("progressive", "jokers may be taken out of sets"),
    NP_("progressive", "two runs of one suit in a contract may touch"),
    NP_("progressive", "contract melds at exactly their minimum size"),
    NP_("progressive", "when the swapper's contract must be down"),
    NP_("progressive", "a player whose contract is down may still buy"),
    NP_("progressive", "the rounds: contract and hand size of each"),
    NP_("progressive", "the contract is the whole hand, laid at once"),
    NP_("progressive", "when lay-offs may begin: the turn the contract is laid, or the next"),
)
