"""Rulesets as declared data: the model every check reads its numbers from.

Every number docs/rules.md names is a field of :class:`Ruleset`, never a constant in the
checks. Each field is declared once, with what it means: the house options that may change it
(:mod:`rules.parameters`) and how it is written in the stored form a match sheet keeps
(:class:`Stored`). :meth:`Ruleset.as_dict`, :meth:`Ruleset.from_dict` and the house-option
table :data:`PARAMETERS` are all made from those declarations. The presets are in
:mod:`rules.presets`.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from rules.cards import JOKER, Card, Natural, Rank, Suit
from rules.choices import (
    FIRST_DEALERS,
    LAYOFF_TIMINGS,
    MAX_SEATS,
    NEIGHBOURS,
    OBLIGATIONS,
    STOCK_RULES,
    SWAP_TIMINGS,
    TIE_BREAKS,
    FirstDealer,
    LayoffTiming,
    MeldType,
    Neighbour,
    StockRule,
    SwapTiming,
    TieBreak,
)
from rules.choices import Obligation as FreedJoker
from rules.errors import RoundError, RulesError, RulesetError
from rules.i18n import ENGLISH, N_, Nn_, Phrase
from rules.parameters import (
    MOST_CARDS_DEALT,
    MOST_ROUNDS,
    Choice,
    ExactMinimum,
    Flag,
    HandSize,
    Jokers,
    Number,
    Parameter,
    Points,
    Ranks,
    RoundCount,
    Rounds,
    Tables,
    house_options,
    stored_round_schema,
)


@dataclass(frozen=True, slots=True)
class MeldSpec:
    """One meld a contract asks for: its type and the fewest cards it may have."""

    type: MeldType
    min: int

    @property
    def text(self) -> str:
        return f"{self.type} of {self.min}"


#: One part of a contract text. ASCII only: a Unicode digit ("٣ sets") or a letter that only
#: folds to ASCII (the Kelvin sign in "booKs") is no way to write a contract, and the document's
#: pattern (``CONTRACT_PATTERN``) says so too.
_CONTRACT_PART = re.compile(
    r"^\s*(\d+)\s+(set|sets|book|books|run|runs|sequence|sequences)(?:\s+of\s+(\d+)(?:\s+or\s+more)?)?\s*$",
    re.ASCII | re.IGNORECASE,
)


#: One part of a contract in words, by meld type and whether it has the usual size.
_CONTRACT_PARTS: dict[tuple[str, bool], tuple[str, str]] = {
    ("set", True): Nn_("{count} set", "{count} sets"),
    ("set", False): Nn_("{count} set of {size}", "{count} sets of {size}"),
    ("run", True): Nn_("{count} run", "{count} runs"),
    ("run", False): Nn_("{count} run of {size}", "{count} runs of {size}"),
}


@dataclass(frozen=True, slots=True)
class Contract:
    """The melds a round requires, all laid on one turn ("1 set + 2 runs").

    >>> Contract.parse("1 set + 2 runs").text
    '1 set + 2 runs'
    >>> Contract.parse("1 run of 7").min_cards
    7
    """

    melds: tuple[MeldSpec, ...]

    @staticmethod
    def parse(text: str, *, set_min: int = 3, run_min: int = 4) -> Contract:
        """Read "2 sets", "1 set + 1 run", "2 runs of 5"; minima default to the ruleset's."""
        if not isinstance(text, str) or not text.strip():
            raise RulesetError(N_("not a contract: {text!r}"), text=text)
        melds: list[MeldSpec] = []
        for part in text.split("+"):
            match = _CONTRACT_PART.match(part)
            if match is None:
                raise RulesetError(
                    N_("not a contract: {text!r} (write it like '1 set + 2 runs' or '1 run of 7')"),
                    text=text,
                )
            count, word, size = int(match[1]), match[2].lower(), match[3]
            meld_type: MeldType = "set" if word.startswith(("set", "book")) else "run"
            minimum = int(size) if size else (set_min if meld_type == "set" else run_min)
            if not 1 <= count <= 6 or not 1 <= minimum <= 13:
                raise RulesetError(
                    N_("not a contract: {text!r} (counts 1-6, sizes 1-13)"), text=text
                )
            melds.extend([MeldSpec(meld_type, minimum)] * count)
        melds.sort(key=lambda spec: (spec.type != "set", -spec.min))
        return Contract(tuple(melds))

    # Derived once: every contract check asks for them.
    sets: int = field(init=False, repr=False, compare=False)
    runs: int = field(init=False, repr=False, compare=False)
    set_specs: tuple[MeldSpec, ...] = field(init=False, repr=False, compare=False)
    run_specs: tuple[MeldSpec, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        set_specs = tuple(spec for spec in self.melds if spec.type == "set")
        run_specs = tuple(spec for spec in self.melds if spec.type == "run")
        object.__setattr__(self, "set_specs", set_specs)
        object.__setattr__(self, "run_specs", run_specs)
        object.__setattr__(self, "sets", len(set_specs))
        object.__setattr__(self, "runs", len(run_specs))

    @property
    def min_cards(self) -> int:
        return sum(spec.min for spec in self.melds)

    def specs(self, meld_type: MeldType) -> tuple[MeldSpec, ...]:
        return self.set_specs if meld_type == "set" else self.run_specs

    @staticmethod
    def of(sets: int, runs: int) -> Contract:
        """``sets`` sets and ``runs`` runs of the usual sizes: what some melds amount to."""
        return Contract((MeldSpec("set", 3),) * sets + (MeldSpec("run", 4),) * runs)

    @property
    def text(self) -> str:
        """The contract in the notation :meth:`parse` reads ("1 set + 2 runs"), in English."""
        return str(ENGLISH.phrase(self.words))

    @property
    def words(self) -> Phrase:
        """The contract in words, to be written in a reader's language ("ein Buch und eine
        Sequenz").

        Each kind and size of meld is one part with its count ("2 runs of 5"); the parts are
        joined by "+" in English and by the words each language uses for a list.
        """
        parts: list[Phrase] = []
        for meld_type, default in (("set", 3), ("run", 4)):
            sizes: dict[int, int] = {}
            for spec in self.specs(cast(MeldType, meld_type)):
                sizes[spec.min] = sizes.get(spec.min, 0) + 1
            for size, count in sizes.items():
                forms = _CONTRACT_PARTS[meld_type, size == default]
                parts.append(Phrase.counted(forms, {"count": count, "size": size}))
        if not parts:
            return Phrase(N_("no melds"))
        words = parts[0]
        for index, part in enumerate(parts[1:], start=2):
            join = N_("{first} + {last}") if index == len(parts) else N_("{first} + {next}")
            words = Phrase(join, {"first": words, "last": part, "next": part})
        return words


@dataclass(frozen=True, slots=True)
class RoundSpec:
    """One round of a match: its contract, how many cards are dealt, and how it ends."""

    number: int
    contract: Contract
    hand_size: int
    #: The contract is the whole hand, laid at once (and that ends the round).
    whole_hand: bool = False
    #: Going out takes a final discard; when false the last card played ends the round.
    discard_to_go_out: bool = True
    #: Contract melds must have exactly their minimum size (Pagat's Contract Rummy).
    exact_minimum: bool = False


@dataclass(frozen=True, slots=True)
class TableSize:
    """Decks and jokers for a table of up to ``max_players`` players."""

    max_players: int
    decks: int
    jokers: int

    @property
    def fewest_jokers(self) -> int:
        """The fewest jokers such a table may shuffle in: one a deck (each deck comes with
        two; the sheets give 2-4 jokers for two decks, 3-6 for three), never more than
        ``jokers``."""
        return min(self.decks, self.jokers)


#: Penalty points by rank, ace first: tens for the court cards and the ten, fives below
#: (the Liverpool sheets), and pips at face value (the Norwegian sheet).
FACE_TENS = (15, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10)
PIP_VALUE = (15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


# --- the stored form ------------------------------------------------------------------------


@dataclass(frozen=True)
class Stored:
    """One entry of the stored form: its key, how a ruleset writes it, and how it reads back.

    ``read`` answers the fields the entry gives back (none, for an entry derived from others,
    like ``round_count``); ``missing`` is the value read where an older stored form lacks the
    key (``None``: the key is required).
    """

    key: str
    write: Callable[[Ruleset], Any]
    read: Callable[[Any], dict[str, Any]]
    #: The JSON Schema (OpenAPI 3.0 dialect) of what ``write`` writes.
    schema: Mapping[str, Any]
    missing: Any = None
    #: Written after every other entry: the long ones, so a stored sheet reads rule by rule.
    last: bool = False


def _plain(model_field: dataclasses.Field[Any]) -> Stored:
    """A field written under its own name as it is (a bool, a number, a word or null),
    described as its own house option describes it, or else as text."""
    name = model_field.name
    own = [option for option in model_field.metadata.get("options", ()) if not option.name]
    schema: dict[str, Any] = {"type": "string"}
    if own:
        schema = own[0].json_schema()
    elif model_field.default is None:
        schema["nullable"] = True
    return Stored(name, lambda ruleset: getattr(ruleset, name), lambda value: {name: value}, schema)


def parameter(
    default: Any,
    *options: Parameter,
    stored: tuple[Stored, ...] | None = None,
    compare: bool = True,
) -> Any:
    """A field of :class:`Ruleset` and its declaration: the house options that change it and
    how the stored form writes it (by default under its own name, as it is)."""
    return field(default=default, compare=compare, metadata={"options": options, "stored": stored})


def _round_from_stored(item: Mapping[str, Any]) -> RoundSpec:
    melds = tuple(MeldSpec(meld["type"], meld["min"]) for meld in item["contract"]["melds"])
    return RoundSpec(
        number=item["number"],
        contract=Contract(melds),
        hand_size=item["hand_size"],
        whole_hand=item["whole_hand"],
        discard_to_go_out=item["discard_to_go_out"],
        exact_minimum=item["exact_minimum"],
    )


_MIN_PLAYERS = Number(description=N_("fewest players"), low=2, high=MAX_SEATS)
_MAX_PLAYERS = Number(description=N_("most players"), low=2, high=MAX_SEATS)

_TABLES_OPTION = Tables(description=N_("decks and jokers by table size"))
_WILD_RANKS_OPTION = Ranks(description=N_("ranks that are wild besides jokers"))
_POINTS_OPTION = Points(name="points", description=N_("penalty points by rank, and 'JK'"))

_OPTIONS = Stored(
    "options",
    lambda ruleset: dict(ruleset.options),
    lambda value: {"options": dict(value or {})},
    {"type": "object", "description": "the house options the ruleset was made with"},
    missing={},
)
_PLAYERS = Stored(
    "players",
    lambda ruleset: {"min": ruleset.min_players, "max": ruleset.max_players},
    lambda value: {"min_players": value["min"], "max_players": value["max"]},
    {
        "title": "Players",
        "type": "object",
        "properties": {"min": _MIN_PLAYERS.json_schema(), "max": _MAX_PLAYERS.json_schema()},
        "required": ["min", "max"],
        "additionalProperties": False,
    },
)
# Written for a reader of the stored form; read back from the rounds themselves.
_ROUND_COUNT = Stored(
    "round_count",
    lambda ruleset: ruleset.round_count,
    lambda value: {},
    {"type": "integer", "minimum": 1, "maximum": MOST_ROUNDS, "description": "rounds played"},
    missing=0,
)
_ROUNDS = Stored(
    "rounds",
    lambda ruleset: [round_as_dict(spec) for spec in ruleset.rounds],
    lambda value: {"rounds": tuple(_round_from_stored(item) for item in value)},
    {"type": "array", "items": stored_round_schema(), "description": "the rounds, in order"},
    last=True,
)
_TABLES = Stored(
    "tables",
    lambda ruleset: [
        {"max_players": size.max_players, "decks": size.decks, "jokers": size.jokers}
        for size in ruleset.tables
    ],
    lambda value: {
        "tables": tuple(TableSize(t["max_players"], t["decks"], t["jokers"]) for t in value)
    },
    _TABLES_OPTION.json_schema(),
)
_WILD_RANKS = Stored(
    "wild_ranks",
    lambda ruleset: [rank.symbol for rank in sorted(ruleset.wild_ranks)],
    lambda value: {"wild_ranks": frozenset(Rank.parse(symbol) for symbol in value)},
    _WILD_RANKS_OPTION.json_schema(),
)
# A card of a wild rank is stored at what it costs as a wild card, so a stored sheet scores
# every card as it was scored when it was made (and reads back without wild_rank_points).
_POINTS = Stored(
    "points",
    lambda ruleset: ruleset.points_table(),
    lambda value: {
        "rank_points": tuple(value[rank.symbol] for rank in Rank),
        "joker_points": value["JK"],
    },
    _POINTS_OPTION.json_schema(),
)
#: The entry of a field written as part of another field's entry.
WITH_ANOTHER: tuple[Stored, ...] = ()


@dataclass(frozen=True)
class Ruleset:
    """Every parameter of one way to play; docs/rules.md §3 says what each one means.

    Two rulesets are equal when every check answers the same under both: cards are compared
    by what they cost (:attr:`scores`), however the wild rank's value was spelt.
    """

    id: str = parameter(dataclasses.MISSING)
    name: str = parameter(dataclasses.MISSING)
    family: str = parameter(dataclasses.MISSING)
    description: str = parameter(dataclasses.MISSING)
    base: str | None = parameter(None)
    #: The options this ruleset was made with, when it is a house ruleset.
    options: Mapping[str, Any] = field(
        default_factory=dict, compare=False, metadata={"stored": (_OPTIONS,)}
    )
    # The table and the match.
    min_players: int = parameter(3, _MIN_PLAYERS, stored=(_PLAYERS,))
    max_players: int = parameter(8, _MAX_PLAYERS, stored=WITH_ANOTHER)
    rounds: tuple[RoundSpec, ...] = parameter(
        (),
        Rounds(description=N_("the rounds: contract and hand size of each")),
        RoundCount(
            name="round_count",
            description=N_("play only the first N rounds (at most the base ruleset's)"),
            low=1,
            high=MOST_ROUNDS,
        ),
        HandSize(
            name="hand_size",
            description=N_("deal this many cards in every round"),
            low=1,
            high=MOST_CARDS_DEALT,
        ),
        ExactMinimum(
            name="exact_minimum", description=N_("contract melds at exactly their minimum size")
        ),
        stored=(_ROUND_COUNT, _ROUNDS),
    )
    tables: tuple[TableSize, ...] = parameter(
        (TableSize(4, 2, 4), TableSize(8, 3, 6)),
        _TABLES_OPTION,
        Jokers(
            name="jokers", description=N_("jokers in play, whatever the table size"), high=MAX_SEATS
        ),
        stored=(_TABLES,),
    )
    # Cards.
    wild_ranks: frozenset[Rank] = parameter(frozenset(), _WILD_RANKS_OPTION, stored=(_WILD_RANKS,))
    #: Whether the wild ranks still exist as a rank a wild may stand for (California's queens
    #: do; May I's twos have no natural meaning at all).
    wild_rank_in_melds: bool = parameter(
        True, Flag(description=N_("a wild may stand for the wild rank itself"))
    )
    ace_low: bool = parameter(True, Flag(description=N_("the ace may rank below the 2")))
    ace_high: bool = parameter(True, Flag(description=N_("the ace may rank above the king")))
    set_min: int = parameter(3, Number(description=N_("fewest cards in a set"), low=2, high=8))
    run_min: int = parameter(4, Number(description=N_("fewest cards in a run"), low=3, high=13))
    # Contracts.
    runs_may_touch: bool = parameter(
        True, Flag(description=N_("two runs of one suit in a contract may touch"))
    )
    #: Fewest ranks missing between two runs of one suit in one contract (0: no such rule).
    same_suit_run_gap: int = parameter(
        0, Number(description=N_("fewest missing ranks between same-suit runs"), high=6)
    )
    # Lay-offs.
    layoff_timing: LayoffTiming = parameter(
        "same_turn",
        Choice(
            description=N_("when lay-offs may begin: the turn the contract is laid, or the next"),
            choices=LAYOFF_TIMINGS,
        ),
    )
    # Wild cards.
    set_min_naturals: int = parameter(
        1, Number(description=N_("fewest natural cards in a set"), low=1, high=8)
    )
    run_min_naturals: int = parameter(
        1, Number(description=N_("fewest natural cards in a run"), low=1, high=13)
    )
    #: Most wild cards a run may hold outside the span of its naturals (None: no limit).
    wilds_outside_span: int | None = parameter(
        None,
        Number(description=N_("most wilds outside a run's naturals"), high=12, nullable=True),
    )
    #: House option: at most one wild card per this many cards of a run (None: off).
    run_wilds_per_cards: int | None = parameter(
        None,
        Number(
            description=N_("at most one wild per N cards of a run"), low=2, high=13, nullable=True
        ),
    )
    #: Wild cards may not outnumber the naturals of a meld.
    wilds_at_most_naturals: bool = parameter(
        False, Flag(description=N_("wild cards may not outnumber naturals"))
    )
    #: The wild-card limits also hold for a meld after a lay-off.
    wild_limits_on_layoff: bool = parameter(
        True, Flag(description=N_("wild limits hold after a lay-off too"))
    )
    # Joker swaps.
    swaps: bool = parameter(True, Flag(description=N_("jokers on the table may be swapped")))
    swap_from_sets: bool = parameter(True, Flag(description=N_("jokers may be taken out of sets")))
    swap_from_runs: bool = parameter(True, Flag(description=N_("jokers may be taken out of runs")))
    #: Only jokers may be taken, never a wild card of a wild rank (May I's twos).
    swap_jokers_only: bool = parameter(
        False, Flag(description=N_("only jokers, not wild-rank cards, may be taken"))
    )
    swap_timing: SwapTiming = parameter(
        "any",
        Choice(description=N_("when the swapper's contract must be down"), choices=SWAP_TIMINGS),
    )
    freed_joker: FreedJoker = parameter(
        "own_meld_now",
        Choice(description=N_("where the freed joker must go"), choices=OBLIGATIONS),
    )
    # Buying.
    buying: bool = parameter(True, Flag(description=N_("discards may be bought out of turn")))
    buy_limit: int | None = parameter(
        3,
        Number(description=N_("most buys per player per round"), low=1, high=20, nullable=True),
    )
    buy_penalty_cards: int = parameter(
        1, Number(description=N_("extra cards a buyer takes from the stock"), high=3)
    )
    no_consecutive_buys: bool = parameter(
        False, Flag(description=N_("nobody buys two discards in a row"))
    )
    buy_when_down: bool = parameter(
        True, Flag(description=N_("a player whose contract is down may still buy"))
    )
    # Going out and scoring.
    #: A player may go out by melding every card, with no final discard.
    go_out_by_melding: bool = parameter(
        False, Flag(description=N_("going out without a final discard"))
    )
    # What each rank costs, a joker, and a card of a wild rank: compared by :attr:`scores`.
    rank_points: tuple[int, ...] = parameter(
        FACE_TENS,
        _POINTS_OPTION,
        stored=(_POINTS,),
        compare=False,
    )
    joker_points: int = parameter(15, stored=WITH_ANOTHER)
    #: What a card of a wild rank costs in hand (None: its rank's value).
    wild_rank_points: int | None = parameter(None, stored=WITH_ANOTHER, compare=False)
    tie_break: TieBreak = parameter(
        "last_round",
        Choice(description=N_("how an equal lowest total is decided"), choices=TIE_BREAKS),
    )
    #: Points taken off for cutting exactly the cards needed (0: no such bonus).
    cut_bonus: int = parameter(
        0, Number(description=N_("points off for an exact cut (0: none)"), high=500)
    )
    cutter: Neighbour = parameter(
        "left_of_dealer", Choice(description=N_("who cuts"), choices=NEIGHBOURS)
    )
    first_dealer: FirstDealer = parameter(
        "agreed",
        Choice(description=N_("how the first dealer is chosen"), choices=FIRST_DEALERS),
    )
    stock_exhausted: StockRule = parameter(
        "reshuffle",
        Choice(description=N_("what happens when the stock runs out"), choices=STOCK_RULES),
    )
    #: What a card of each rank costs in hand, ace first, the wild rank's value applied.
    scores: tuple[int, ...] = field(init=False, repr=False, metadata={"stored": WITH_ANOTHER})

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "scores", tuple(self.points(Card(rank, Suit.SPADES)) for rank in Rank)
        )

    # --- questions the checks ask ---------------------------------------------------------

    def is_wild(self, card: Card) -> bool:
        return card.rank is None or card.rank in self.wild_ranks

    def naturals(self, cards: Iterable[Card]) -> list[Natural]:
        """The cards of ``cards`` that are not wild under these rules, in order: the naturals
        of a meld (a joker is always wild).

        >>> from rules import find_ruleset, parse_cards
        >>> find_ruleset("may-i").naturals(parse_cards(["2H", "JK", "7H"]))  # twos are wild
        [Card.parse('7H')]
        """
        wild_ranks = self.wild_ranks
        return [card for card in cards if isinstance(card, Natural) and card.rank not in wild_ranks]

    def round(self, number: int) -> RoundSpec:
        """The round with this number; raise :class:`RoundError` if the ruleset has none."""
        if isinstance(number, int) and not isinstance(number, bool):
            if 1 <= number <= len(self.rounds):
                return self.rounds[number - 1]
        raise RoundError(
            N_("{ruleset!r} has rounds 1 to {count}, not {number!r}"),
            field="round",
            ruleset=self.id,
            count=len(self.rounds),
            number=number,
        )

    @property
    def round_count(self) -> int:
        return len(self.rounds)

    def table(self, players: int | None = None, jokers: int | None = None) -> TableSize:
        """Decks and jokers for ``players`` players; without a count, the largest table.

        docs/rules.md §5: not knowing the table must never make a legal meld illegal, so the default
        is the most decks and the most jokers the ruleset allows. ``jokers`` is how many this
        table really shuffled in, within what the ruleset allows a table of that size (any
        table size's range, without ``players``).
        """
        if jokers is not None:
            return self._table_with_jokers(players, jokers)
        if players is None:
            return self.largest_table
        if not self.min_players <= players <= self.max_players:
            raise RulesetError(
                N_("{ruleset!r} is for {low} to {high} players, not {players!r}"),
                field="players",
                ruleset=self.id,
                low=self.min_players,
                high=self.max_players,
                players=players,
            )
        for size in self.tables:
            if players <= size.max_players:
                return size
        return self.tables[-1]

    def _table_with_jokers(self, players: int | None, jokers: int) -> TableSize:
        table = self.table(players)
        sizes = (table,) if players is not None else self.tables
        fewest = min(size.fewest_jokers for size in sizes)
        most = max(size.jokers for size in sizes)
        if not fewest <= jokers <= most:
            where = f"a table of {players}" if players is not None else "its tables"
            raise RulesetError(
                N_("{ruleset!r} plays with {fewest} to {most} jokers at {where}, not {jokers!r}"),
                field="jokers",
                ruleset=self.id,
                fewest=fewest,
                most=most,
                where=where,
                jokers=jokers,
            )
        return dataclasses.replace(table, jokers=jokers)

    @functools.cached_property
    def largest_table(self) -> TableSize:
        """The most decks and the most jokers any table of this ruleset plays with."""
        return TableSize(
            self.max_players,
            max(size.decks for size in self.tables),
            max(size.jokers for size in self.tables),
        )

    def points(self, card: Card) -> int:
        """What ``card`` costs when it is left in hand at the end of a round."""
        if card.rank is None:
            return self.joker_points
        if card.rank in self.wild_ranks and self.wild_rank_points is not None:
            return self.wild_rank_points
        return self.rank_points[card.rank - 1]

    def card_values(self) -> tuple[int, ...]:
        """Every value a single card in play can cost, lowest first (for telling possible
        totals)."""
        return self._card_values

    @functools.cached_property
    def _card_values(self) -> tuple[int, ...]:
        values = {self.points(Card(rank, Suit.SPADES)) for rank in Rank}
        if any(size.jokers for size in self.tables):
            values.add(self.joker_points)
        return tuple(sorted(values))

    # --- making house rulesets ----------------------------------------------------------------

    def with_options(self, options: Mapping[str, Any]) -> Ruleset:
        """This ruleset with some parameters replaced; unknown or inconsistent options raise."""
        if not isinstance(options, Mapping):
            raise RulesetError(N_("options must be an object of parameter values"), field="options")
        changes: dict[str, Any] = {}
        for name, value in options.items():
            parameter = PARAMETERS.get(name)
            if parameter is None:
                raise RulesetError(
                    N_("unknown option {name!r}; the options are: {options}"),
                    field=f"options.{name}",
                    name=name,
                    options=", ".join(sorted(PARAMETERS)),
                )
            try:
                parameter.apply(self, value, changes)
            except RulesError as error:  # a bad rank inside an option is the option's fault
                raise RulesetError.about(f"options.{name}", error) from None
        changed = dataclasses.replace(
            self,
            id=self.id,
            base=self.base,
            options={**self.options, **options},
            **changes,
        )
        changed.check_consistent(given=set(options))
        return changed

    def check_consistent(self, given: Iterable[str] = ()) -> None:
        """Refuse a combination of parameters no table could play by."""
        given = set(given)
        problems: list[tuple[str, str]] = []
        if self.min_players > self.max_players:
            problems.append(("min_players", "min_players is more than max_players"))
        if self.tables[-1].max_players < self.max_players:
            problems.append(("tables", f"no decks are given for {self.max_players} players"))
        if not (self.ace_low or self.ace_high):
            problems.append(("ace_low", "the ace must rank low, high or both"))
        if not self.rounds:
            problems.append(("rounds", "a match needs at least one round"))
        if self.set_min_naturals > self.set_min:
            problems.append(("set_min_naturals", "a set cannot need more naturals than cards"))
        if self.run_min_naturals > self.run_min:
            problems.append(("run_min_naturals", "a run cannot need more naturals than cards"))
        if not self.buying:
            for name in ("buy_limit", "buy_penalty_cards", "no_consecutive_buys", "buy_when_down"):
                if name in given:
                    problems.append((name, f"{name} is set but buying is not allowed"))
        if not self.swaps:
            for name in (
                "swap_from_sets",
                "swap_from_runs",
                "swap_timing",
                "freed_joker",
                "swap_jokers_only",
            ):
                if name in given:
                    problems.append((name, f"{name} is set but joker swaps are not allowed"))
        elif not (self.swap_from_sets or self.swap_from_runs) and "swaps" in given:
            problems.append(("swaps", "swaps are allowed but from neither sets nor runs"))
        if given & {"set_min", "run_min", "rounds"}:
            # A contract meld shorter than any meld may be: misleading at best, and never
            # layable where the round asks for exactly its minimum.
            for spec in self.rounds:
                for meld in dict.fromkeys(spec.contract.melds):  # each kind of meld once
                    least = self.set_min if meld.type == "set" else self.run_min
                    if meld.min < least:
                        problems.append(
                            (
                                "rounds",
                                f"round {spec.number} asks for a {meld.text}, shorter"
                                f" than the {meld.type} minimum of {least}",
                            )
                        )
        if problems:
            name, reason = problems[0]
            raise RulesetError(
                N_("inconsistent ruleset: {reasons}"),
                field=f"options.{name}",
                reasons="; ".join(reason for _, reason in problems),
            )

    # --- describing -------------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """Every parameter as plain JSON-able data (what the API shows and a sheet stores)."""
        return {entry.key: entry.write(self) for entry in STORED}

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Ruleset:
        """Rebuild a ruleset from :meth:`as_dict` (how a match sheet keeps its rules).

        A sheet stores its ruleset resolved, so a later change to a preset never changes an
        old sheet's scores; this reads it back. Points come back as the table shows them
        (a wild rank's effective value), which scores every card the same.
        """
        try:
            fields: dict[str, Any] = {}
            for entry in STORED:
                value = data[entry.key] if entry.missing is None else data.get(entry.key)
                fields.update(entry.read(entry.missing if value is None else value))
            return Ruleset(**fields)
        except (KeyError, TypeError, ValueError) as error:
            raise RulesetError(N_("not a stored ruleset: {error!r}"), error=error) from None

    def points_table(self) -> dict[str, int]:
        table = {rank.symbol: self.rank_points[rank - 1] for rank in Rank}
        if self.wild_rank_points is not None:
            for rank in self.wild_ranks:
                table[rank.symbol] = self.wild_rank_points
        table["JK"] = self.joker_points
        return table


#: The entries of the stored form, in the order :meth:`Ruleset.as_dict` writes them.
STORED: tuple[Stored, ...] = tuple(
    sorted(
        (
            entry
            for model_field in dataclasses.fields(Ruleset)
            for entry in (
                (_plain(model_field),)
                if model_field.metadata.get("stored") is None
                else model_field.metadata["stored"]
            )
        ),
        key=lambda entry: entry.last,
    )
)

#: Every option a house ruleset may set, by name, as the fields of :class:`Ruleset` declare them.
PARAMETERS: dict[str, Parameter] = house_options(Ruleset)


def contract_as_dict(contract: Contract) -> dict[str, Any]:
    return {
        "melds": [{"type": spec.type, "min": spec.min} for spec in contract.melds],
        "text": contract.text,
    }


def round_as_dict(spec: RoundSpec) -> dict[str, Any]:
    return {
        "number": spec.number,
        "contract": contract_as_dict(spec.contract),
        "hand_size": spec.hand_size,
        "min_cards": spec.contract.min_cards,
        "whole_hand": spec.whole_hand,
        "discard_to_go_out": spec.discard_to_go_out,
        "exact_minimum": spec.exact_minimum,
    }


__all__ = [
    "FACE_TENS",
    "JOKER",
    "PARAMETERS",
    "PIP_VALUE",
    "STORED",
    "Contract",
    "MeldSpec",
    "MeldType",
    "RoundSpec",
    "Ruleset",
    "Stored",
    "TableSize",
    "contract_as_dict",
    "round_as_dict",
]
