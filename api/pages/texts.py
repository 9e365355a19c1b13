"""Every human text of the pages goes through :func:`gettext` (``_`` in the templates).

The texts are message ids of the one catalog (api/translations), written in the request's
language (:mod:`api.i18n`); a number that chooses a word's form goes through :func:`ngettext`.
The pages' script has no text of its own: :func:`script_texts` is the one dictionary it
reads, rendered into each page as a JSON data block, so its texts are translated in the same
catalog as the templates'.
"""

from __future__ import annotations

from typing import Any

from rules.i18n import N_

from .. import i18n


def gettext(text: str, **values: Any) -> str:
    """``text`` in the reader's language, with ``%(name)s`` filled in."""
    found = i18n.words().text(text)
    return found % values if values else found


def ngettext(singular: str, plural: str, num: int, **values: Any) -> str:
    """The form of ``singular``/``plural`` for ``num`` in the reader's language, with
    ``%(num)s`` and the other ``%(name)s`` filled in."""
    return i18n.words().plural(singular, plural, num) % {"num": num, **values}


_ = gettext

#: How each family of presets is called on the pages (a house family shows its id).
FAMILIES = {
    "liverpool": N_("Liverpool"),
    "contract-rummy": N_("Contract Rummy"),
    "progressive": N_("Progressive Rummy"),
    "may-i": N_("May I?"),
}


def family_name(family: str) -> str:
    return _(FAMILIES[family]) if family in FAMILIES else family


def script_texts() -> dict[str, str]:
    """The texts the script shows, by key; ``{name}`` marks a value the script fills in."""
    texts: dict[str, str] = {}
    for part in (
        _shared_texts,
        _start_page_texts,
        _sharing_texts,
        _briefing_texts,
        _round_entry_texts,
        _picker_texts,
        _results_texts,
    ):
        texts.update(part())
    return texts


def _shared_texts() -> dict[str, str]:
    """Texts both pages' scripts show."""
    return {
        "network_error": _("The server cannot be reached. Nothing was lost; try again."),
        "unexpected": _("The server answered {status}: {detail}"),
        "player_number": _("Player {number}"),
        "in_progress": _("in progress"),
        "finished": _("finished"),
        "rounds_played": _("{played} of {count} rounds played"),
        "opened": _("opened {date}"),
    }


def _start_page_texts() -> dict[str, str]:
    """The start page: the players' list and starting the match."""
    return {
        "move_up": _("Move {name} up"),
        "move_down": _("Move {name} down"),
        "remove": _("Remove {name}"),
        "unnamed": _("player {number}"),
        "starting": _("Starting the match…"),
        "players_range": _("This ruleset is for {min} to {max} players."),
    }


def _sharing_texts() -> dict[str, str]:
    """The sheet page: loading it and sharing it."""
    return {
        "not_found": _("There is no sheet at this address. It may have been deleted."),
        "view_only": _(
            "This phone can only view the sheet. Open the edit link on it to enter rounds."
        ),
        "edit_qr_label": _("QR code of the edit link"),
    }


def _briefing_texts() -> dict[str, str]:
    """The briefing before each deal."""
    return {
        "briefing_title": _("Round {number} of {count}: {contract}"),
        "deal": _("Deal {cards} cards to each player."),
        "table": _("Play with {decks} decks and {jokers} jokers."),
        "table_no_jokers": _("Play with {decks} decks and no jokers."),
        "seating": _("{dealer} deals, {cutter} cuts, {first} plays first."),
        "whole_hand": _("The contract is the whole hand: laying it ends the round."),
        "no_discard": _("Going out needs no final discard."),
        "exact_minimum": _("Contract melds have exactly their minimum size."),
        "all_played": _("Every round is played."),
    }


def _round_entry_texts() -> dict[str, str]:
    """Entering, correcting and taking back a round."""
    return {
        "enter_round": _("Enter round {number}"),
        "correct_round": _("Correct round {number}"),
        "record_round": _("Record round {number}"),
        "save_correction": _("Save the correction of round {number}"),
        "went_out": _("went out"),
        "stock_ran_out": _("Nobody: the stock ran out"),
        "points": _("Points"),
        "points_short": _("Pts"),
        "cards": _("Cards"),
        "buys": _("Buys"),
        "points_of": _("Points of {name}"),
        "buys_of": _("Buys of {name}"),
        "bonus_of": _("{name} cut exactly: {bonus} points off"),
        "count_cards_of": _("Count the cards of {name}"),
        "counted": _("{count} cards: {points} points"),
        "counted_one": _("1 card: {points} points"),
        "saving": _("Saving…"),
        "saved": _("Round {number} is saved."),
        "refused": _("The round was not saved: {detail}"),
        "stale": _(
            "Another phone changed the sheet meanwhile: {changes}. What you typed is kept; check it and save again."
        ),
        "changed_elsewhere": _("Another phone changed the sheet: {changes}."),
        "change_recorded": _("round {number} was recorded"),
        "change_corrected": _("round {number} was corrected"),
        "change_taken_back": _("round {number} was taken back"),
        "change_other": _("the sheet was changed"),
        "take_back": _("Take back round {number}"),
        "take_back_confirm": _("Take back round {number}? Its points are removed."),
        "taken_back": _("Round {number} was taken back."),
        "correct": _("Correct"),
        "correct_label": _("Correct round {number}"),
    }


def _picker_texts() -> dict[str, str]:
    """The card picker that counts a hand's points."""
    return {
        "picker_title": _("Cards left in the hand of {name}"),
        "picker_add": _("Add {card}"),
        "picker_remove": _("Take off one {card}"),
        "picker_total": _("{count} cards, {points} points"),
        "picker_total_one": _("1 card, {points} points"),
        "picker_empty": _("No cards yet: tap the cards left in hand."),
    }


def _results_texts() -> dict[str, str]:
    """The scores, standings, winners and chart."""
    return {
        "standings_rank": _("{rank}."),
        "winner": _("{names} won with {total} points."),
        "winners_shared": _("{names} share the win with {total} points each."),
        "tie_last_round": _("The tie was broken by the last round's points."),
        "tie_replay": _("The tie is to be broken by replaying round {round}."),
        "tie_shared": _("The tie stands: the win is shared."),
        "chart_label": _("Running totals after each round"),
        "chart_round": _("Round"),
        "total": _("Total"),
        "contract": _("Contract"),
        "actions": _("Change"),
        "out": _("out"),
        "yes": _("Yes, take it back"),
        "no": _("No"),
    }


def rank_names() -> list[tuple[str, str]]:
    """Each rank's notation (as the API writes cards) and its name, ace first."""
    return [
        ("A", _("ace")),
        ("2", _("two")),
        ("3", _("three")),
        ("4", _("four")),
        ("5", _("five")),
        ("6", _("six")),
        ("7", _("seven")),
        ("8", _("eight")),
        ("9", _("nine")),
        ("10", _("ten")),
        ("J", _("jack")),
        ("Q", _("queen")),
        ("K", _("king")),
    ]


def suit_names() -> list[tuple[str, str, str]]:
    """Each suit's notation, its name and its symbol."""
    return [
        ("S", _("spades"), "♠"),
        ("H", _("hearts"), "♥"),
        ("D", _("diamonds"), "♦"),
        ("C", _("clubs"), "♣"),
    ]
