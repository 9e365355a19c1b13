"""The texts of errors that are written before anyone knows the reader's language.

marshmallow, werkzeug and the engine raise their errors with English text already filled in
("Must be one of: set, run.", "not a card: 'ZZ'"). Each template below is a catalog message
id; :func:`api.i18n.translated` recognises a filled-in text by its template and writes the
template's translation with the same values, when the problem document is written. A text
with no template here stays English (tests/api/test_languages.py checks that marshmallow's
own messages, and the titles of every status the API answers, are all here).
"""

from __future__ import annotations

from rules.i18n import N_

#: The title of each status a problem document has (its reason phrase).
TITLES = {
    400: N_("Bad Request"),
    401: N_("Unauthorized"),
    403: N_("Forbidden"),
    404: N_("Not Found"),
    405: N_("Method Not Allowed"),
    406: N_("Not Acceptable"),
    409: N_("Conflict"),
    412: N_("Precondition Failed"),
    413: N_("Request Entity Too Large"),
    415: N_("Unsupported Media Type"),
    422: N_("Unprocessable Entity"),
    428: N_("Precondition Required"),
    429: N_("Too Many Requests"),
    500: N_("Internal Server Error"),
    503: N_("Service Unavailable"),
}

#: werkzeug's own details, for a status a view raises without one.
HTTP_DETAILS = (
    N_("The browser (or proxy) sent a request that this server could not understand."),
    N_(
        "The requested URL was not found on the server. If you entered the URL manually please"
        " check your spelling and try again."
    ),
    N_("The method is not allowed for the requested URL."),
    N_("The server does not support the media type transmitted in the request."),
)

#: marshmallow's messages, as its fields and validators fill them in.
MARSHMALLOW = (
    N_("Missing data for required field."),
    N_("Field may not be null."),
    N_("Invalid value."),
    N_("Invalid input."),
    N_("Invalid type."),
    N_("Invalid input type."),
    N_("Unknown field."),
    N_("Not a valid boolean."),
    N_("Not a valid number."),
    N_("Not a valid integer."),
    N_("Number too large."),
    N_("Not a valid string."),
    N_("Not a valid utf-8 string."),
    N_("Not a valid list."),
    N_("Not a valid tuple."),
    N_("Not a valid mapping type."),
    N_("Special numeric values (nan or infinity) are not permitted."),
    N_("Must be one of: {choices}."),
    N_("Must be equal to {other}."),
    N_("Length must be between {min} and {max}."),
    N_("Length must be {equal}."),
    N_("Longer than maximum length {max}."),
    N_("Shorter than minimum length {min}."),
    N_("Must be greater than or equal to {min} and less than or equal to {max}."),
    N_("Must be greater than {min} and less than {max}."),
    N_("Must be greater than or equal to {min}."),
    N_("Must be less than or equal to {max}."),
    N_("Must be greater than {min}."),
    N_("Must be less than {max}."),
    N_("String does not match expected pattern."),
)

#: The web layer's own refusals.
API = (
    N_("the request body is larger than {limit} bytes"),
    N_("an unexpected error occurred; it has been logged"),
    N_("the body must be JSON, sent with Content-Type: application/json"),
    N_("the request has no body; it must be a JSON object"),
    N_("the JSON body is nested too deeply"),
    N_("the JSON body nests arrays and objects more than {limit} deep"),
    N_("the body is not valid JSON: {error}"),
    N_("a card is a string, like 10H"),
    N_("unknown ruleset {input!r}; the presets are: {presets}"),
    N_("no ruleset {input!r}; the presets are: {presets}"),
    N_("unknown option; the options are: {options}"),
    N_("a seat calls at most once"),
    N_("each seat at most once"),
    N_('give exactly one of "went_out": true, "points" or "cards"'),
    N_("Idempotency-Key must be 1 to 255 characters"),
    N_("1 to 255 characters"),
    # Storage's refusals.
    N_("invalid input: {message}"),
    N_("no match sheet {id!r}"),
    N_("{ruleset!r} has rounds 1 to {count}, not {number}"),
    N_("changing a sheet needs its edit token: Authorization: Bearer <edit_token>"),
    N_("that is not this sheet's edit token"),
    N_("the sheet has changed: it is at version {version} now; read it again"),
    N_("the sheet changed while this request was being served; retry"),
    N_("round {number} cannot have happened: {message}"),
    N_("this Idempotency-Key was used with a different request body"),
    N_("already used with a different body"),
    N_("the database is unreachable"),
    N_("{ruleset!r} is for {low} to {high} players, not {players}"),
)

#: The engine's refusals of a question (rules.errors), the ones a table meets.
#: (TEMPLATES, below, are all of them: what api.i18n.translated recognises.)
ENGINE = (
    N_("not a card: {text!r}"),
    N_("not a rank: {text!r}"),
    N_("not a contract: {text!r}"),
    N_("{ruleset!r} has rounds 1 to {count}, not {number!r}"),
    N_("{ruleset!r} is for {low} to {high} players, not {players!r}"),
    N_("unknown option {name!r}; the options are: {options}"),
    N_("{name} must be true or false, not {value!r}"),
    N_("{name} must be a whole number from {low} to {high}, not {value!r}"),
    N_("{name} must be one of {choices}, not {value!r}"),
    N_("inconsistent ruleset: {reasons}"),
    N_("a lay-off adds at least one card"),
    N_("end must be 'low' or 'high', not {end!r}"),
    N_("the meld has positions 0 to {last}, not {joker}"),
    N_("seat {seat} is not at a table of {seats}"),
    N_("seat {seat} cannot have used {used} buys"),
    N_("seat {seat} is on turn: taking the discard is its draw, not a buy"),
    N_("the meld holds {count} wild cards (at {at}); say which with 'joker'"),
    N_("contract_down must be one of {choices}, not {value!r}"),
    N_("the hand holds {count} of {card}, but only {limit} are in play"),
    N_("a table has at least one player, not {players}"),
    N_("not a card: rank {rank!r}, suit {suit!r}"),
    N_("a card needs both a rank and a suit, or neither: rank {rank!r}, suit {suit!r}"),
    N_("not a contract: {text!r} (write it like '1 set + 2 runs' or '1 run of 7')"),
    N_("not a contract: {text!r} (counts 1-6, sizes 1-13)"),
    N_("not a ruleset: {spec!r}"),
    N_("options must be an object of parameter values"),
    N_("options must be an object of parameter values, not {options!r}"),
    N_("{name} must be a list of ranks like ['2'], not {value!r}"),
    N_("points must map ranks (and 'JK') to points, not {value!r}"),
    N_("each table needs exactly max_players, decks and jokers"),
    N_("rounds must be a list of 1 to {most} rounds"),
    N_("round {number} needs a contract and a hand_size"),
    N_("round {number}: a contract is at most {most}"),
)

#: Every template an English error text is recognised by.
TEMPLATES = (*TITLES.values(), *HTTP_DETAILS, *MARSHMALLOW, *API, *ENGINE)
