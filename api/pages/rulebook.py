"""The rules of a ruleset, for a browser: ``GET /rulesets/<id>``, written from its data.

Every sentence is made from the ruleset's own fields, so a house ruleset reads as it plays:
``GET /rulesets/<base>?options=<JSON object>`` shows the ruleset the API resolves from
``{"base": base, "options": {...}}``. Nothing is said of a preset beyond its description; what
the page says of the cards, the melds, buying, joker swaps, going out and scoring is what the
checks and the match sheet apply.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from flask import Response, request

from rules import (
    PARAMETERS,
    PRESETS,
    Card,
    Rank,
    RoundSpec,
    RulesError,
    Ruleset,
    Suit,
    resolve_ruleset,
)
from rules.family_words import NNP_, NP_
from rules.i18n import N_

from .. import i18n
from . import blp, contract_text, page, tables_text
from .texts import family_name, gettext, ngettext, rank_names

_ = gettext

#: The longest house options a rules page reads: every option of a ruleset at once, twenty
#: rounds included, is well under this, and a request line longer than 4 KB is refused by
#: gunicorn before it gets here anyway.
LONGEST_OPTIONS = 4096
#: The house options a refusal shows as an example: a house rule every preset can take.
EXAMPLE_OPTIONS = '{"cut_bonus": 50}'

#: "every queen": a wild rank as the list of wild cards names it (each language gives the word
#: its gender).
EVERY_RANK = {
    Rank.ACE: N_("every ace"),
    Rank.TWO: N_("every two"),
    Rank.THREE: N_("every three"),
    Rank.FOUR: N_("every four"),
    Rank.FIVE: N_("every five"),
    Rank.SIX: N_("every six"),
    Rank.SEVEN: N_("every seven"),
    Rank.EIGHT: N_("every eight"),
    Rank.NINE: N_("every nine"),
    Rank.TEN: N_("every ten"),
    Rank.JACK: N_("every jack"),
    Rank.QUEEN: N_("every queen"),
    Rank.KING: N_("every king"),
}
#: The ranks as a rule sheet lists their points: the ace, then from the king down to the two.
POINTS_ORDER = (Rank.ACE, *reversed(tuple(Rank)[1:]))


@dataclass(frozen=True)
class RoundRow:
    """One round as the rules page lists it."""

    number: int
    contract: str
    dealt: int
    #: What is particular about laying the contract and going out in this round.
    notes: list[str]


@dataclass(frozen=True)
class Rulebook:
    """Everything the rules page says of a ruleset, in the reader's language."""

    #: The family of rule sheets it belongs to, by name.
    family: str
    rounds: list[RoundRow]
    deal: list[str]
    melds: list[str]
    wild_cards: list[str]
    laying: list[str]
    buying: list[str]
    swaps: list[str]
    going_out: list[str]
    scoring: list[str]
    #: Each row of the points table: which cards, and what each costs in hand.
    card_points: list[tuple[str, str]]
    #: What the house options change, one description each (none for a preset).
    changes: list[str]


class Refused(Exception):
    """House options no table can play by: the status to answer and why, in the reader's
    language."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


@blp.get("/rulesets/<ruleset_id>")
def rules_of(ruleset_id: str) -> Response:
    """The rules of a preset, or of a house ruleset on it (``?options=<JSON object>``)."""
    base = PRESETS.get(ruleset_id)
    if base is None:
        return page("not_found.html", status=404)
    i18n.about_family(base.family)  # in the words of its family's sheet (Satz, Vertrag)
    options = request.args.get("options")
    if options is None:
        return page("rules.html", key=(base.id,), ruleset=base, rules=rulebook(base))
    # A house ruleset's page is made for each request and never kept as page() keeps the
    # presets': its options are whatever a link says, and keeping a page for every one of
    # them would let anybody fill the process's memory, one address at a time.
    try:
        ruleset = house_ruleset(base, options)
    except Refused as refused:
        return page(
            "rules.html",
            keep=False,
            status=refused.status,
            ruleset=base,
            refusal=refused.reason,
            example=EXAMPLE_OPTIONS,
        )
    return page("rules.html", keep=False, ruleset=ruleset, rules=rulebook(ruleset))


def house_ruleset(base: Ruleset, options: str) -> Ruleset:
    """``{"base": base, "options": <options>}`` resolved as the API resolves it; raise
    :class:`Refused` if the options are not a JSON object or the engine refuses them."""
    if len(options) > LONGEST_OPTIONS:
        raise Refused(
            414,
            _("The house options are longer than %(most)s characters.", most=LONGEST_OPTIONS),
        )
    try:
        parsed = json.loads(options)
    except json.JSONDecodeError as error:
        raise Refused(
            422,
            _(
                "The house options are not JSON (at character %(position)s).",
                position=error.pos + 1,
            ),
        ) from None
    except RecursionError:
        raise Refused(422, _("The house options are nested too deeply.")) from None
    if not isinstance(parsed, dict):
        raise Refused(
            422,
            _(
                "The house options must be a JSON object, like %(example)s.",
                example=EXAMPLE_OPTIONS,
            ),
        )
    try:
        return resolve_ruleset({"base": base.id, "options": parsed})
    except RulesError as error:
        raise Refused(422, i18n.say(error.words)) from None


def rulebook(ruleset: Ruleset) -> Rulebook:
    """The rules page of ``ruleset``, part by part."""
    return Rulebook(
        family=family_name(ruleset.family),
        rounds=[
            RoundRow(
                spec.number,
                contract_text(spec.contract, ruleset.family),
                spec.hand_size,
                round_notes(spec),
            )
            for spec in ruleset.rounds
        ],
        deal=deal_rules(ruleset),
        melds=meld_rules(ruleset),
        wild_cards=wild_card_rules(ruleset),
        laying=laying_rules(ruleset),
        buying=buying_rules(ruleset),
        swaps=swap_rules(ruleset),
        going_out=going_out_rules(ruleset),
        scoring=scoring_rules(ruleset),
        card_points=card_points(ruleset),
        changes=[_(PARAMETERS[name].description) for name in ruleset.options],
    )


# --- the words the parts share ------------------------------------------------------------------


def joined(items: list[str]) -> str:
    """``a, b and c`` in the reader's language."""
    if len(items) < 2:
        return "".join(items)
    return _("%(first)s and %(last)s", first=", ".join(items[:-1]), last=items[-1])


def in_a_row(cards: str) -> str:
    """Cards in a row ("J-Q-K-A") as the reader's cards are marked, never broken across two
    lines (the hyphens do not break)."""
    return _(cards).replace("-", "\u2011")


def round_numbers(numbers: list[int]) -> str:
    """Round numbers as a sheet writes them: ``1–6``, ``3 and 7``."""
    spans: list[list[int]] = []
    for number in numbers:
        if spans and spans[-1][1] == number - 1:
            spans[-1][1] = number
        else:
            spans.append([number, number])
    return joined([str(low) if low == high else f"{low}–{high}" for low, high in spans])


def has_jokers(ruleset: Ruleset) -> bool:
    return any(size.jokers for size in ruleset.tables)


def round_notes(spec: RoundSpec) -> list[str]:
    """What the rounds table says of a round beside its contract and its hand."""
    notes = []
    if spec.whole_hand:
        notes.append(_("the whole hand, laid at once"))
    if spec.exact_minimum:
        notes.append(_("each meld at exactly its minimum size"))
    if not spec.discard_to_go_out:
        notes.append(_("no final discard"))
    return notes


# --- the parts -----------------------------------------------------------------------------------


def deal_rules(ruleset: Ruleset) -> list[str]:
    """The decks, the deal and the cut."""
    rules = tables_text(ruleset)
    rules.append(
        _("The table agrees who deals first.")
        if ruleset.first_dealer == "agreed"
        else _("Whoever draws the highest card deals first.")
    )
    rules.append(
        _("The deal passes to the left each round; the player on the dealer's left plays first.")
    )
    rules.append(
        _("The player on the dealer's left cuts.")
        if ruleset.cutter == "left_of_dealer"
        else _("The player on the dealer's right cuts.")
    )
    if ruleset.cut_bonus:
        rules.append(
            ngettext(
                "Cutting exactly the cards needed for the deal and the upcard takes %(num)s point off the cutter's total.",
                "Cutting exactly the cards needed for the deal and the upcard takes %(num)s points off the cutter's total.",
                ruleset.cut_bonus,
            )
        )
    return rules


def meld_rules(ruleset: Ruleset) -> list[str]:
    """How long sets and runs are, where the ace goes, and how runs of one suit lie."""
    rules = [
        _("A set is at least %(num)s cards of one rank, in any suits.", num=ruleset.set_min),
        _("A run is at least %(num)s cards of one suit in rank order.", num=ruleset.run_min),
    ]
    low, high, corner = in_a_row(N_("A-2-3-4")), in_a_row(N_("J-Q-K-A")), in_a_row(N_("K-A-2"))
    if ruleset.ace_low and ruleset.ace_high:
        rules.append(
            _(
                "The ace is low (%(low)s) or high (%(high)s), never both in one run: no run goes round the corner (%(corner)s).",
                low=low,
                high=high,
                corner=corner,
            )
        )
    elif ruleset.ace_low:
        rules.append(_("The ace is low only (%(low)s): it never follows the king.", low=low))
    else:
        rules.append(
            _("The ace is high only (%(high)s): it never comes before the two.", high=high)
        )
    rules.append(same_suit_rule(ruleset))
    rules.append(contract_size_rule(ruleset))
    return rules


def same_suit_rule(ruleset: Ruleset) -> str:
    """How two runs of one suit in one contract may lie (a gap rule forbids touching too)."""
    if ruleset.same_suit_run_gap:
        return ngettext(
            "Two runs of one suit in one contract need at least %(num)s missing rank between them: they may neither touch nor overlap.",
            "Two runs of one suit in one contract need at least %(num)s missing ranks between them: they may neither touch nor overlap.",
            ruleset.same_suit_run_gap,
        )
    if not ruleset.runs_may_touch:
        return _(
            "Two runs of one suit in one contract may not touch, as one long run cut in two would: a rank must be missing between them, or they must overlap."
        )
    return _("Two runs of one suit in one contract may touch or overlap.")


def contract_size_rule(ruleset: Ruleset) -> str:
    """Whether the melds of a contract may be longer than their minimum."""
    exact = [spec.number for spec in ruleset.rounds if spec.exact_minimum]
    if not exact:
        return _("The melds of a contract may be longer than their minimum.")
    if len(exact) == ruleset.round_count:
        return _("In every round the melds of the contract are laid at exactly their minimum size.")
    return ngettext(
        "In round %(rounds)s the melds of the contract are laid at exactly their minimum size; in the other rounds they may be longer.",
        "In rounds %(rounds)s the melds of the contract are laid at exactly their minimum size; in the other rounds they may be longer.",
        len(exact),
        rounds=round_numbers(exact),
    )


def wild_card_rules(ruleset: Ruleset) -> list[str]:
    """Which cards are wild, and how many of them a meld may hold."""
    wild = [_("the jokers")] if has_jokers(ruleset) else []
    wild += [_(EVERY_RANK[rank]) for rank in sorted(ruleset.wild_ranks)]
    if not wild:
        return [_("No card is wild.")]
    rules = [_("Wild cards: %(cards)s.", cards=joined(wild))]
    if not has_jokers(ruleset):
        rules.append(_("No jokers are played."))
    if ruleset.wild_ranks:
        rules.append(_("A card of a wild rank is always wild, even where it would fit as itself."))
        rules.append(
            _("A wild card may stand for a card of the wild rank.")
            if ruleset.wild_rank_in_melds
            else _(
                "The wild rank has no place in a meld: no run passes through it, and no wild card stands for it."
            )
        )
    rules.append(
        ngettext(
            "A set needs at least %(num)s natural card (a card that is not wild).",
            "A set needs at least %(num)s natural cards (cards that are not wild).",
            ruleset.set_min_naturals,
        )
    )
    rules.append(
        ngettext(
            "A run needs at least %(num)s natural card.",
            "A run needs at least %(num)s natural cards.",
            ruleset.run_min_naturals,
        )
    )
    rules.append(outside_span_rule(ruleset.wilds_outside_span))
    if ruleset.run_wilds_per_cards is not None:
        rules.append(
            _(
                "A run holds at most one wild card for every %(num)s cards.",
                num=ruleset.run_wilds_per_cards,
            )
        )
    if ruleset.wilds_at_most_naturals:
        rules.append(_("Wild cards may never outnumber the naturals of a meld."))
    rules.append(
        _("These limits hold for a meld after a lay-off too.")
        if ruleset.wild_limits_on_layoff
        else _("Cards laid off are not held to these limits.")
    )
    return rules


def outside_span_rule(most: int | None) -> str:
    """How many wild cards may lie beyond a run's outermost naturals: the naturals fix every
    wild card between them, but only the way the cards lie fixes one beyond them."""
    if most is None:
        return _("Any number of wild cards may lie beyond a run's outermost naturals.")
    if most == 0:
        return _("Every wild card of a run lies between two of its naturals.")
    return ngettext(
        "At most %(num)s wild card may lie beyond a run's outermost naturals; between them, wild cards fill any gap.",
        "At most %(num)s wild cards may lie beyond a run's outermost naturals; between them, wild cards fill any gap.",
        most,
    )


def laying_rules(ruleset: Ruleset) -> list[str]:
    """Laying the contract, and when laying off begins."""
    return [
        _(
            "The contract goes down once a round, all of it on one turn; after that a player makes no new melds, only lay-offs."
        ),
        _(
            "Laying off may begin on the very turn the contract goes down, onto any meld on the table."
        )
        if ruleset.layoff_timing == "same_turn"
        else _(
            "Laying off begins on the turn after the contract goes down, then onto any meld on the table."
        ),
    ]


def buying_rules(ruleset: Ruleset) -> list[str]:
    """Buying the top discard out of turn."""
    if not ruleset.buying:
        return [_("There is no buying: only the player on turn takes the top discard.")]
    rules = [
        _(
            "When the player on turn does not take the top discard, any other player may call for it; the caller nearest the player on turn, going clockwise, buys it. The player who threw it cannot buy it back."
        ),
        ngettext(
            "The buyer takes %(num)s penalty card from the stock with it.",
            "The buyer takes %(num)s penalty cards from the stock with it.",
            ruleset.buy_penalty_cards,
        )
        if ruleset.buy_penalty_cards
        else _("The buyer takes no penalty card."),
        _("There is no limit on buys.")
        if ruleset.buy_limit is None
        else ngettext(
            "A player buys at most %(num)s discard a round.",
            "A player buys at most %(num)s discards a round.",
            ruleset.buy_limit,
        ),
    ]
    if ruleset.no_consecutive_buys:
        rules.append(_("Nobody buys two discards in a row."))
    rules.append(
        _("A player whose contract is down may still buy.")
        if ruleset.buy_when_down
        else _("A player whose contract is down can no longer buy.")
    )
    return rules


def swap_rules(ruleset: Ruleset) -> list[str]:
    """Taking a joker off the table for the natural it stands for."""
    if not ruleset.swaps:
        return [_("There are no joker swaps: a joker on the table stays where it is.")]
    wild_ranks_too = bool(ruleset.wild_ranks) and not ruleset.swap_jokers_only
    rules = [
        _(
            "On their turn, a player holding the natural card a wild card on the table stands for may put it in the wild card's place and take the wild card."
        )
        if wild_ranks_too
        else _(
            "On their turn, a player holding the natural card a joker on the table stands for may put it in the joker's place and take the joker."
        )
    ]
    if ruleset.wild_ranks and ruleset.swap_jokers_only:
        rules.append(_("Only a joker may be taken, never a card of a wild rank."))
    if ruleset.swap_from_sets and ruleset.swap_from_runs:
        rules.append(_("It may be taken out of a set or out of a run."))
    elif ruleset.swap_from_runs:
        rules.append(_("It may be taken out of a run only: a joker in a set is locked."))
    else:
        rules.append(_("It may be taken out of a set only: a joker in a run stays."))
    rules.append(
        {
            "any": _("The swapper's contract need not be down."),
            "earlier_turn": _(
                "Only a player whose contract went down on an earlier turn may swap."
            ),
            "not_down": _("Only a player whose contract is not down yet may swap."),
        }[ruleset.swap_timing]
    )
    rules.append(
        {
            "own_meld_now": _(
                "The joker taken must go at once into one of the swapper's own melds."
            ),
            "table_this_turn": _(
                "The joker taken must be played onto the table before the turn ends; it cannot be kept in hand."
            ),
            "hand": _("The joker taken goes into the swapper's hand."),
        }[ruleset.freed_joker]
    )
    return rules


def going_out_rules(ruleset: Ruleset) -> list[str]:
    """How a player goes out, which ends the round."""
    rules = [
        _("A player goes out by getting rid of the last card, and that ends the round at once.")
    ]
    without = [spec.number for spec in ruleset.rounds if not spec.discard_to_go_out]
    if not without:
        rules.append(_("Going out takes a final discard onto the discard pile."))
    elif len(without) == ruleset.round_count:
        rules.append(_("No round ends with a discard: the last card melded ends it."))
    else:
        rules.append(
            ngettext(
                "In round %(rounds)s the last card melded ends the round, with no final discard; in the other rounds going out takes a final discard.",
                "In rounds %(rounds)s the last card melded ends the round, with no final discard; in the other rounds going out takes a final discard.",
                len(without),
                rounds=round_numbers(without),
            )
        )
    whole = [spec.number for spec in ruleset.rounds if spec.whole_hand]
    if whole:
        rules.append(
            ngettext(
                "In round %(rounds)s the contract is the whole hand: every card goes down at once.",
                "In rounds %(rounds)s the contract is the whole hand: every card goes down at once.",
                len(whole),
                rounds=round_numbers(whole),
            )
        )
    if ruleset.go_out_by_melding:
        rules.append(
            _("A player who melds every card goes out at once, with no discard, in any round.")
        )
    elif len(without) < ruleset.round_count:
        rules.append(
            _(
                "Where a round ends with a discard, a player must keep a card to throw: melding every card does not go out."
            )
        )
    return rules


def scoring_rules(ruleset: Ruleset) -> list[str]:
    """What is counted, what the stock running out does, and who wins."""
    return [
        _(
            "When a player goes out, everyone else scores the cards left in hand, as the table below says; cards on the table cost nothing."
        ),
        _(
            "When the stock runs out, the discards, all but the top card, are shuffled into a new stock."
        )
        if ruleset.stock_exhausted == "reshuffle"
        else _(
            "When the stock runs out, the round ends and every player scores the cards in hand."
        ),
        _("Lowest total wins."),
        {
            "last_round": _(
                "On an equal lowest total, the lower score in the last round wins; players still level share the win."
            ),
            "shared": _("Players level on the lowest total share the win."),
            "replay": _("On an equal lowest total, the last round is played again to decide."),
        }[ruleset.tie_break],
    ]


def card_points(ruleset: Ruleset) -> list[tuple[str, str]]:
    """What a card left in hand costs, as a rule sheet lists it: the ace, then from the king
    down, ranks of one value together (a span where they are pips at face value), each wild
    rank on its own, the joker last."""
    values = {rank: ruleset.points(Card(rank, Suit.SPADES)) for rank in Rank}
    natural = [rank for rank in POINTS_ORDER if rank not in ruleset.wild_ranks]
    groups: list[list[Rank]] = []
    for rank in natural:
        if groups and values[groups[-1][0]] == values[rank]:
            groups[-1].append(rank)
        else:
            groups.append([rank])
    rows = face_value_spans(groups, values)
    rows += [
        (_("%(rank)s (wild)", rank=rank_word(rank)), str(values[rank]))
        for rank in sorted(ruleset.wild_ranks)
    ]
    if has_jokers(ruleset):
        rows.append((_("joker"), str(ruleset.joker_points)))
    return rows


def face_value_spans(groups: list[list[Rank]], values: dict[Rank, int]) -> list[tuple[str, str]]:
    """The rows of the points table for ``groups`` of ranks of one value; three or more pips
    in a row that each cost their own number are one row at face value ("3 to 9"), as the
    Norwegian sheet counts them."""
    rows: list[tuple[str, str]] = []
    span: list[Rank] = []  # pips at face value, from the highest down

    def end_span() -> None:
        if len(span) >= 3:
            rows.append((ranks_span(span), _("face value")))
        else:
            rows.extend((rank_word(rank), str(values[rank])) for rank in span)
        span.clear()

    for group in groups:
        rank = group[0]
        if len(group) == 1 and Rank.TWO <= rank <= Rank.TEN and values[rank] == rank:
            if span and span[-1] != rank + 1:
                end_span()
            span.append(rank)
            continue
        end_span()
        rows.append((ranks_text(group), str(values[rank])))
    end_span()
    return rows


def ranks_text(ranks: list[Rank]) -> str:
    """Ranks of one value: a span of three or more pips ("2 to 9"), else each named."""
    numbers = [int(rank) for rank in ranks]
    pips = all(Rank.TWO <= rank <= Rank.TEN for rank in ranks)
    if pips and len(ranks) >= 3 and numbers == list(range(numbers[0], numbers[-1] - 1, -1)):
        return ranks_span(ranks)
    return ", ".join(rank_word(rank) for rank in ranks)


def ranks_span(ranks: Iterable[Rank]) -> str:
    ordered = sorted(ranks)
    return _("%(low)s to %(high)s", low=rank_word(ordered[0]), high=rank_word(ordered[-1]))


def rank_word(rank: Rank) -> str:
    """A rank as the points table writes it: a pip by its number, the others by name."""
    if Rank.TWO <= rank <= Rank.TEN:
        return rank.symbol
    return dict(rank_names())[rank.symbol]


#: The texts above that name a set or the contract, in the catalog a second time under the
#: Progressive family: the German Progressive sheet says *Satz* and *Vertrag* where the German
#: Liverpool sheet says *Buch* and *Kontrakt* (rules/family_words.py says why). Nothing calls
#: this: the marks are for ``pybabel extract``, and :func:`rules_of` says the family.
PROGRESSIVE_WORDS = (
    NP_("progressive", "Contract"),
    NP_("progressive", "Each round's contract and the cards dealt for it"),
    NP_("progressive", "Sets and runs"),
    NP_("progressive", "Laying the contract and laying off"),
    NP_("progressive", "A set is at least %(num)s cards of one rank, in any suits."),
    NNP_(
        "progressive",
        "Two runs of one suit in one contract need at least %(num)s missing rank between them: they may neither touch nor overlap.",
        "Two runs of one suit in one contract need at least %(num)s missing ranks between them: they may neither touch nor overlap.",
    ),
    NP_(
        "progressive",
        "Two runs of one suit in one contract may not touch, as one long run cut in two would: a rank must be missing between them, or they must overlap.",
    ),
    NP_("progressive", "Two runs of one suit in one contract may touch or overlap."),
    NP_("progressive", "The melds of a contract may be longer than their minimum."),
    NP_(
        "progressive",
        "In every round the melds of the contract are laid at exactly their minimum size.",
    ),
    NNP_(
        "progressive",
        "In round %(rounds)s the melds of the contract are laid at exactly their minimum size; in the other rounds they may be longer.",
        "In rounds %(rounds)s the melds of the contract are laid at exactly their minimum size; in the other rounds they may be longer.",
    ),
    NNP_(
        "progressive",
        "A set needs at least %(num)s natural card (a card that is not wild).",
        "A set needs at least %(num)s natural cards (cards that are not wild).",
    ),
    NP_(
        "progressive",
        "The contract goes down once a round, all of it on one turn; after that a player makes no new melds, only lay-offs.",
    ),
    NP_(
        "progressive",
        "Laying off may begin on the very turn the contract goes down, onto any meld on the table.",
    ),
    NP_(
        "progressive",
        "Laying off begins on the turn after the contract goes down, then onto any meld on the table.",
    ),
    NP_("progressive", "A player whose contract is down may still buy."),
    NP_("progressive", "A player whose contract is down can no longer buy."),
    NP_("progressive", "It may be taken out of a set or out of a run."),
    NP_("progressive", "It may be taken out of a run only: a joker in a set is locked."),
    NP_("progressive", "It may be taken out of a set only: a joker in a run stays."),
    NP_("progressive", "The swapper's contract need not be down."),
    NP_("progressive", "Only a player whose contract went down on an earlier turn may swap."),
    NP_("progressive", "Only a player whose contract is not down yet may swap."),
    NNP_(
        "progressive",
        "In round %(rounds)s the contract is the whole hand: every card goes down at once.",
        "In rounds %(rounds)s the contract is the whole hand: every card goes down at once.",
    ),
)
