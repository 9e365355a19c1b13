"""Hand analysis: can this hand lay the round's contract, and if not, what is it waiting for?

:func:`analyse_hand` answers from the hand alone. When the contract can be laid it gives the
best arrangement — the one that leaves the lowest penalty in hand, then uses the fewest wild
cards, then lays the most cards — as card lists in table order that
:func:`~rules.checks.check_contract` accepts as they are (and is checked against before it is
returned). When it cannot, it gives every single card that would make it layable (``needs``)
and the nearest partial arrangement (``closest``).

The search is exact, and over shapes rather than card subsets: a set is one rank (suits do not
matter to it), a run one suit over a window of values. It goes in phases, the first three
those of :class:`~rules.analysis.search.Search`:

1. Windows for the runs (:mod:`~rules.analysis.windows`), each with the hand's naturals
   wherever it holds them and a wild card (or, for ``closest`` and ``needs``, a card not held)
   in every gap; the search chooses one per contract run.
2. Who gets a card that two windows both cover but the hand holds too few copies of.
3. The ranks of the sets, and which run naturals of those ranks go to a set instead (the run
   then takes a wild card there). The sets take every natural of their rank (an
   exact-minimum set, up to its size); only counts matter.
4. Wild cards, by the question: for the best arrangement (:mod:`~rules.analysis.placement`),
   spare ones added to sets or swapped into a meld for a cheaper natural that goes back to the
   hand, and, where a card must be kept to discard, the cheapest way to keep one.

Why nothing is missed: in any legal arrangement, a wild card standing where the hand still
holds that natural can be swapped for it without breaking any rule; the swap back is step 4.
Steps 1-3 enumerate every arrangement without such wild cards.

What keeps it fast: optimistic bounds at each step (gaps against wild cards, cards not held,
the least penalty that could be left) prune what cannot beat the best arrangement found;
windows holding the most are tried first; the search stops at once on an arrangement
nothing could beat; and a hand's windows are worked out once, each made into a run of the
search only at the first budget that could use it. Two dominance rules hold where a set
takes any number of wild cards: a wild card at the end of a run longer than its minimum
might as well lie in that set (so such windows are never searched), and every sharing of
contested copies lays the same cards (so the first that works settles it).

The three questions are three searches over the same steps, subclasses of
:class:`~rules.analysis.search.Search`: laying (:mod:`~rules.analysis.laying`, the best
arrangement, going-out rules included); ``closest`` (:mod:`~rules.analysis.closest`,
deepening on the number of cards not held, going-out rules left aside); ``needs``
(:mod:`~rules.analysis.needs`, every arrangement short of exactly one card, going-out rules
included, collecting the cards that would fill the gap — stopping when nothing new can turn
up).

>>> from rules import find_ruleset, parse_cards
>>> hand = parse_cards("7H 7S 7D KC KD JK 2C 9H 4S 5D 6D".split())
>>> result = analyse_hand(find_ruleset("liverpool"), 1, hand)
>>> result.can_lay, [[str(c) for c in meld] for meld in result.melds]
(True, [['7S', '7H', '7D'], ['KD', 'KC', 'JK']])
>>> [str(c) for c in result.remaining], result.penalty, result.goes_out
(['2C', '9H', '4S', '5D', '6D'], 25, False)
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.cards import Card
from rules.checks import check_contract, penalty, require_possible_hand
from rules.ruleset import Ruleset

from .closest import closest_arrangement
from .hand import Hand
from .laying import LayingSearch, lay_out
from .needs import every_card, needed_cards
from .results import Analysis, Closest, PartialMeld
from .round_rules import round_rules

__all__ = ["Analysis", "Closest", "PartialMeld", "analyse_hand"]


def analyse_hand(
    ruleset: Ruleset,
    round_number: int,
    hand: Sequence[Card],
    players: int | None = None,
    *,
    jokers: int | None = None,
) -> Analysis:
    """Whether ``hand`` can lay the round's contract now, the best way to, or what it lacks.

    ``hand`` is every card the player holds (``jokers``: how many the table shuffled in, when
    it is not the ruleset's count). A hand holding more copies of a card (or more
    jokers) than the decks of the table hold cannot exist, and raises :class:`MoveError` (the
    contract check would report ``too_many_copies`` for any melds from it).

    >>> from rules import find_ruleset, parse_cards
    >>> hand = parse_cards("4H 5H 6H 8C 9C 9S KD QS 2D 3D JK".split())
    >>> result = analyse_hand(find_ruleset("liverpool"), 2, hand)
    >>> result.can_lay, result.needs
    (False, ('3H', '7H', '9S', '9H', '9D', '9C', 'JK'))
    >>> [(meld.type, meld.missing) for meld in result.closest.melds]
    [('set', ('9',)), ('run', ())]
    """
    rules = round_rules(ruleset, round_number)
    table = ruleset.table(players, jokers)
    require_possible_hand(ruleset, hand, players, field="hand", jokers=jokers)
    counted = Hand(rules, hand, table.decks, table.jokers)
    # A whole-hand round where some natural can never find a meld: nothing to search.
    hopeless = rules.whole_hand and not counted.whole_hand_possible()
    if not hopeless:
        laying = LayingSearch(counted)
        laying.run()
        if laying.best is not None:
            melds = lay_out(counted, laying.best)
            verdict = check_contract(ruleset, round_number, melds, hand=hand, players=players)
            if not verdict.valid:  # pragma: no cover - a bug in the search, never the hand
                raise AssertionError(f"analysis laid an illegal contract: {verdict.violations}")
            remaining = verdict.remaining or ()
            return Analysis(
                round=rules.spec,
                can_lay=True,
                melds=tuple(tuple(meld) for meld in melds),
                readings=verdict.melds,
                remaining=remaining,
                penalty=penalty(ruleset, remaining).total,
                goes_out=bool(verdict.goes_out),
                needs=(),
                closest=None,
            )
    closest, missing = closest_arrangement(counted)
    needs: tuple[str, ...] = ()
    if not hopeless and missing == 0 and rules.keeps_a_discard:
        # The melds use every card: any card at all gives one to discard.
        needs = every_card(counted)
    elif not hopeless and missing is not None and missing <= 1:
        needs = needed_cards(counted)
    return Analysis(
        round=rules.spec,
        can_lay=False,
        melds=(),
        readings=(),
        remaining=tuple(hand),
        penalty=penalty(ruleset, hand).total,
        goes_out=False,
        needs=needs,
        closest=closest,
    )
