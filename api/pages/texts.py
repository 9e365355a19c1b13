"""Every human text of the pages goes through :func:`gettext` (``_`` in the templates).

The texts are message ids of the one catalog (api/translations), written in the request's
language (:mod:`api.i18n`); a number that chooses a word's form goes through :func:`ngettext`.
The pages' script has no text of its own: :func:`script_texts` is the one dictionary it
reads, rendered into each page as a JSON data block, so its texts are translated in the same
catalog as the templates'.
"""

from __future__ import annotations

from collections.abc import Callable
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


def script_texts(page: str) -> dict[str, str]:
    """The texts the scripts of ``page`` (``"scorekeeping"`` or ``"referee"``) show, by key;
    ``{name}`` marks a value the script fills in."""
    texts: dict[str, str] = {}
    for part in _SCRIPT_TEXTS[page]:
        texts.update(part())
    return texts


def _shared_texts() -> dict[str, str]:
    """Texts every page's script shows (common.js)."""
    return {
        "network_error": _("The server cannot be reached. Nothing was lost; try again."),
        "unexpected": _("The server answered {status}: {detail}"),
        "joker": _("Joker"),
        # A place in a ranking, by the language's ordinal forms (Intl.PluralRules): English
        # needs four; a language with one form writes all four alike ("{n}." in German).
        "ordinal_one": _("{n}st"),
        "ordinal_two": _("{n}nd"),
        "ordinal_few": _("{n}rd"),
        "ordinal_other": _("{n}th"),
    }


def _copy_texts() -> dict[str, str]:
    """Copying a link, however the browser allows it (common.js)."""
    return {
        "link_copied": _("The link is copied."),
        "link_selected": _("The link is selected: copy it."),
    }


def _sheet_list_texts() -> dict[str, str]:
    """The start page's "my matches": each match kept on this device, its state, and what the
    table may do with it."""
    return {
        "in_progress": _("in progress"),
        "finished": _("finished"),
        "rounds_played": _("{played} of {count} rounds played"),
        "again": _("New match with these players"),
        "again_ready": _("Same players, same seats, same ruleset: {dealer} deals the first round."),
        "forget": _("Forget"),
        "forget_label": _("Forget {match} on this device"),
        "forgotten": _("{match} is forgotten on this device."),
        "undo": _("Undo"),
        "all_matches": _("Show all {count} matches"),
        "fewer_matches": _("Show fewer matches"),
    }


def _start_page_texts() -> dict[str, str]:
    """The start page: the players' list, the ruleset, starting the match, and every message
    before or after asking the API, each naming the player or the field as the page labels it."""
    return {
        "player_number": _("Player {number}"),
        "move_up": _("Move {name} up"),
        "move_down": _("Move {name} down"),
        "remove": _("Remove {name}"),
        "unnamed": _("player {number}"),
        "players_range": _("{ruleset} is for {min} to {max} players."),
        "change_ruleset": _("Change the ruleset"),
        "keep_ruleset": _("Keep this ruleset"),
        "house_rules": _("House rules:"),
        "more_house_rules": _("more house rules of the earlier match"),
        "starting": _("Starting the match…"),
        "too_few_players": _("{ruleset} is for {min} to {max} players: name at least {min}."),
        "too_many_players": _("{ruleset} is for {min} to {max} players: name at most {max}."),
        "name_too_long": _("{player}: a name has at most {most} characters."),
        "name_taken": _("{player}: “{name}” is already the name of {other}."),
        "name_characters": _(
            "{player}: a name cannot hold control or formatting characters ({characters})."
        ),
        "title_too_long": _("The title has at most {most} characters."),
        "title_characters": _(
            "The title cannot hold control or formatting characters ({characters})."
        ),
        "field_message": _("{field}: {message}"),
    }


def _sharing_texts() -> dict[str, str]:
    """The sheet page: loading it, following it from afar, and sharing it."""
    return {
        "not_found": _("There is no sheet at this address. It may have been deleted."),
        "view_only": _(
            "This phone can only view the sheet. Open the edit link on it to enter rounds."
        ),
        "view_qr_label": _("QR code of the view link"),
        "edit_qr_label": _("QR code of the edit link"),
        "share_view": _("Follow the scores of {title}"),
        "share_edit": _("Enter the rounds of {title}"),
        "local_offer": _(
            "This page is open at {host}, an address only this computer knows. The other phones"
            " reach it at its address on your network, which the links and QR codes below use."
        ),
        "local_closed": _(
            "This page is open at {host}, an address only this computer knows, and the service"
            " answers only this computer: the other phones cannot reach it. Start it with"
            " HOST=0.0.0.0 (see the README) and open this page at this computer's network"
            " address, {address}."
        ),
        "local_alone": _(
            "This page is open at {host}, an address only this computer knows: the links below"
            " work on this computer alone. Open the page at this computer's network address to"
            " share it."
        ),
    }


def _connection_texts() -> dict[str, str]:
    """The sheet page with no network: what it shows, what it keeps, what it sends later."""
    return {
        "offline_recent": _("No connection: last updated less than a minute ago."),
        "offline_since": _("No connection: last updated {ago}."),
        "offline_copy": _("No connection: this is the copy this phone kept, from {ago}."),
        "online_again": _("Connected again."),
        "queued": _(
            "No network: round {number} is kept on this phone and will be sent when the"
            " network is back."
        ),
        "queued_mark": _("waiting to be sent"),
        "sent": _("Round {number}, kept on this phone, is saved now."),
    }


def _briefing_texts() -> dict[str, str]:
    """The briefing before each deal."""
    return {
        "briefing_title": _("Round {number} of {count}: {contract}"),
        "deal": _("Deal {cards} cards to each player."),
        "table": _("Play with {decks} decks and {jokers} jokers."),
        "table_no_jokers": _("Play with {decks} decks and no jokers."),
        "role_deals": _("Deals"),
        "role_cuts": _("Cuts"),
        "role_starts": _("Plays first"),
        "whole_hand": _("The contract is the whole hand: laying it ends the round."),
        "no_discard": _("Going out needs no final discard."),
        "exact_minimum": _("Contract melds have exactly their minimum size."),
    }


def _round_entry_texts() -> dict[str, str]:
    """Entering, correcting and taking back a round."""
    return {
        "enter_round": _("Enter round {number}"),
        "correct_round": _("Correct round {number}"),
        "record_round": _("Record round {number}"),
        "save_correction": _("Save the correction of round {number}"),
        "correcting": _("You are correcting round {number}: saving replaces what was recorded."),
        "standing_now": _("{total} points · {place}"),
        "went_out": _("went out"),
        "stock_ran_out": _("Nobody: the stock ran out"),
        "points": _("Points"),
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
        "not_saved": _("Round {number} is not saved yet: {problem}"),
        "stale": _(
            "Another phone changed the sheet meanwhile: {changes}. What you typed is kept; check it and save again."
        ),
        "changed_elsewhere": _("Another phone changed the sheet: {changes}."),
        "change_recorded": _("round {number} was recorded"),
        "change_corrected": _("round {number} was corrected"),
        "change_taken_back": _("round {number} was taken back"),
        "change_other": _("the sheet was changed"),
        "mine_replaced": _("Round {number}, which this phone saved, was changed on another phone."),
        "take_back": _("Take back round {number}"),
        "take_back_confirm": _("Take back round {number}? Its points are removed."),
        "taken_back": _("Round {number} was taken back."),
        "correct_label": _("Correct round {number}"),
        "yes": _("Yes, take it back"),
        "no": _("No"),
    }


def _round_problem_texts() -> dict[str, str]:
    """What is wrong with a round, in the page's words: checked before sending where the page
    can, and the API's refusals (by their codes) said the same way, naming the player."""
    return {
        "need_out": _("Choose who went out, or that the stock ran out."),
        "need_points": _("Enter the points of {name}, or count the cards left in the hand."),
        "points_range": _("{name}: the points are a whole number from 1 to {most}."),
        "buys_range": _("{name}: the buys are a whole number from 0 to {most}."),
        "problem_zero_points": _(
            "{name} did not go out and so holds cards: the points cannot be 0."
        ),
        "problem_points_impossible": _(
            "{name}: no hand of up to {cards} cards costs {points} points (cards cost {values})."
        ),
        "problem_too_many_cards": _(
            "{name}: more cards than any hand can hold at the end of this round."
        ),
        "problem_too_many_buys": _("{name}: at most {limit} buys in a round."),
        "problem_buying_not_allowed": _("This ruleset has no buying: leave the buys empty."),
        "problem_bonus_wrong": _("Only {cutter}, who cut, can have the cut bonus."),
        "problem_several_went_out": _("Only one player can go out in a round."),
        "problem_round_order": _("Round {number} cannot be saved now: {detail}"),
        "problems_more": _("{count} things to fix, each marked above."),
        "problem_one": _("1 thing to fix, marked above."),
    }


def _conflict_texts() -> dict[str, str]:
    """Two phones that saved the same round: both entries side by side, and a choice."""
    return {
        "conflict_new": _("Another phone saved round {number} first."),
        "conflict_changed": _("Another phone changed round {number} meanwhile."),
        "conflict_lead": _(
            "Here are both. Keep what the other phone saved, or replace it with yours."
        ),
        "conflict_player": _("Player"),
        "conflict_theirs": _("Saved on the other phone"),
        "conflict_mine": _("Yours"),
        "keep_theirs": _("Keep theirs"),
        "replace_mine": _("Replace with mine"),
        "kept_theirs": _("Round {number} stays as the other phone saved it."),
        "value_out": _("went out"),
        "value_stock": _("the stock ran out"),
        "value_buys_one": _("1 buy"),
        "value_buys": _("{count} buys"),
        "value_bonus": _("{bonus} off"),
        "change_value": _("{name}: {before} → {after}"),
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
    """The totals, the scores round by round, the end of the match and the chart."""
    return {
        "winner_big": _("{names} wins!"),
        "winners_big": _("{names} share the win!"),
        "won_with": _("with {total} points"),
        "won_with_each": _("with {total} points each"),
        "tie_last_round": _("The tie was broken by the last round's points."),
        "tie_replay": _("The tie is to be broken by replaying round {round}."),
        "tie_shared": _("The tie stands: the win is shared."),
        "rematch_starting": _("Starting the rematch…"),
        "rematch_failed": _("The rematch could not be started: {detail}"),
        "chart_label": _("Running totals after each round"),
        "chart_round": _("Round"),
        "total": _("Total"),
        "contract": _("Contract"),
        "out": _("out"),
        "round_details": _("Round {number}: details"),
        "detail_dealt": _("{dealer} dealt {cards} cards. Contract: {contract}."),
        "detail_stock": _("Nobody went out: the stock ran out."),
        "detail_out": _("{name}: went out"),
        "detail_points": _("{points} points"),
        "detail_total": _("total {total}"),
    }


def _referee_texts() -> dict[str, str]:
    """The referee's pages: the table, the places cards are tapped into, asking."""
    return {
        "sheet_rules": _("The sheet's rules: {name}"),
        "sheet_unreadable": _("The sheet could not be read ({detail}); choose the ruleset."),
        "round_choice": _("Round {number}: {contract} ({cards} cards)"),
        "players_unsaid": _("not said"),
        "grid_label": _("Cards to add to {place}"),
        "grid_add": _("{card}: add to {place}"),
        "take_off": _("Take {card} off {place}"),
        "drop_place": _("Remove {place}"),
        "place_empty": _("Choose this place, then tap its cards below."),
        "meld_number": _("Meld {number}"),
        "rest_of_hand": _("The rest of the hand"),
        "rest_hint": _("The cards the player keeps in hand besides these melds."),
        "the_meld": _("The meld"),
        "table_meld": _("The meld on the table"),
        "laid_off": _("The cards laid off"),
        "offered": _("The card offered for the wild card"),
        "the_hand": _("The hand"),
        "only_wild": _("the meld's only wild card"),
        "card_at": _("card {number}: {card}"),
        "nobody": _("nobody"),
        "seat": _("Seat {seat}"),
        "seat_of": _("{name} (seat {seat})"),
        "buys_used_of": _("Buys {name} has used this round"),
        "buys_short": _("buys used"),
        "empty_cards": _("Tap the cards in to ask the referee."),
        "empty_buy": _("Tick who is calling for the discard."),
        "empty_hand": _("Tap in the cards of the hand."),
        "working": _("The referee is thinking…"),
        "not_asked": _("The referee cannot judge this yet: {detail}"),
    }


def _ruling_texts() -> dict[str, str]:
    """The referee's verdicts, around the API's own words."""
    return {
        "stands_for": _("= {card}"),
        "wild_reading": _("{card}, standing for {reading}"),
        "meld_unread": _("Not a meld"),
        "set_of": _("Set ({rank})"),
        "run_in": _("Run ({suit})"),
        "contract_is": _("The contract of this round: {contract}."),
        "valid_contract": _("Legal: the contract may be laid."),
        "invalid_contract": _("Not legal: this contract may not be laid."),
        "valid_meld": _("Legal: this is a meld."),
        "invalid_meld": _("Not legal: this is not a meld."),
        "valid_layoff": _("Legal: the cards may be laid off."),
        "invalid_layoff": _("Not legal: these cards may not be laid off."),
        "valid_swap": _("Legal: the wild card may be taken."),
        "invalid_swap": _("Not legal: the wild card may not be taken."),
        "after_layoff": _("The meld after the lay-off"),
        "after_swap": _("The meld after the swap"),
        "freed": _("Taken from the meld:"),
        "obligation_own_meld_now": _(
            "The freed wild card must go into a meld of the player's own at once."
        ),
        "obligation_table_this_turn": _(
            "The freed wild card must be played on the table this turn."
        ),
        "obligation_hand": _("The freed wild card goes into the player's hand."),
        "remaining": _("Left in hand:"),
        "no_cards": _("no cards"),
        "goes_out": _("The player goes out."),
        "does_not_go_out": _("The player does not go out."),
        "nobody_buys": _("Nobody may buy the discard."),
        "buys_only": _("{name} gets the discard."),
        "buys_one": _("{name} gets the discard and takes 1 more card from the stock."),
        "buys_cards": _("{name} gets the discard and takes {count} more cards from the stock."),
        "refused_callers": _("Why the others do not get it"),
        "refusal": _("{name}: {message}"),
        "can_lay": _("Yes: this hand can lay {contract}."),
        "cannot_lay": _("Not yet: this hand cannot lay {contract}."),
        "best_arrangement": _("The best way to lay it"),
        "penalty_left": _("Points left in hand: {points}"),
        "needs_title": _("Any one of these cards would let it"),
        "needs_none": _("No single card would let it lay the contract: it needs more than one."),
        "cards_short": _("Cards still missing from the contract: {count}"),
        "closest_title": _("The nearest it comes"),
        "partial_set": _("Set"),
        "partial_run": _("Run"),
        "lacks": _("lacks {cards}"),
        "complete": _("complete"),
    }


#: Each page's texts: a page carries only those its own scripts show.
_SCRIPT_TEXTS: dict[str, tuple[Callable[[], dict[str, str]], ...]] = {
    "scorekeeping": (
        _shared_texts,
        _sheet_list_texts,
        _start_page_texts,
        _sharing_texts,
        _copy_texts,
        _connection_texts,
        _briefing_texts,
        _round_entry_texts,
        _round_problem_texts,
        _conflict_texts,
        _picker_texts,
        _results_texts,
    ),
    "referee": (_shared_texts, _copy_texts, _referee_texts, _ruling_texts),
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
