"""The reader's language: chosen by Flask-Babel's locale selector, said on every answer.

The catalogs (``api/translations/<lang>/LC_MESSAGES/messages.po``, compiled to ``.mo`` and
checked in) hold every text of the engine, of the errors and of the pages; Flask-Babel loads
them. A request's language is the ``lang`` query parameter if it names one of ours, else (on a
page) the ``lang`` cookie its language switch sets, else the best of ``Accept-Language`` by
quality value; English when nothing matches. ``no`` and ``nn`` read Bokmål, a region
(``de-AT``, ``nl-BE``) its language. Every answer says the language in ``Content-Language``
and varies on ``Accept-Language``.

The engine writes nothing in a language by itself: its verdicts, contracts and errors hold
:class:`~rules.i18n.Phrase` values, written here, at the edge, with :func:`words` — the
request's language as a :class:`rules.i18n.Language`. Some words also depend on the family of
rules a request is about (the German Progressive sheet says *Satz* and *Vertrag* where the
German Liverpool sheet says *Buch* and *Kontrakt*): a view that answers about a ruleset says
so with :func:`about_family`, and the texts of its answer use that family's words.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import cast

from babel import Locale
from babel.support import Translations
from flask import Flask, Response, g, has_app_context, request
from flask_babel import force_locale, get_locale, get_translations
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from rules.i18n import ENGLISH, Language, Phrase
from rules.i18n import Translations as Catalog

#: Where the catalogs are, one folder per language (Flask-Babel's translation directory).
CATALOGS = Path(__file__).parent / "translations"
#: The languages the referee speaks, English first (what a reader gets when nothing matches).
LANGUAGES = ("en", "de", "nl", "it", "nb")
#: Tags read as another of ours: Norwegian and Nynorsk readers get Bokmål.
ALIASES = {"no": "nb", "nn": "nb"}
#: The name of each language in itself, for the pages' language switch.
NAMES = {"en": "English", "de": "Deutsch", "nl": "Nederlands", "it": "Italiano", "nb": "Norsk"}
#: The cookie the pages' language switch sets.
COOKIE = "lang"


def ours(tag: str | None) -> str | None:
    """The language of ours a tag names (``de-AT`` → ``de``, ``nn`` → ``nb``), if any."""
    if not tag:
        return None
    primary = tag.strip().lower().replace("_", "-").split("-")[0]
    primary = ALIASES.get(primary, primary)
    return primary if primary in LANGUAGES else None


@functools.lru_cache(maxsize=512)
def choose(accept: str, wanted: str = "", cookie: str = "") -> str:
    """The language for a ``lang`` parameter, a cookie and an ``Accept-Language`` header.

    >>> choose("fr;q=0.9, de-AT;q=0.8, en;q=0.5")
    'de'
    >>> choose("de", wanted="nn")
    'nb'
    """
    found = ours(wanted) or ours(cookie)
    if found is not None:
        return found
    # werkzeug orders the header by quality and leaves out what has q=0.
    for tag, quality in parse_accept_header(accept, LanguageAccept):
        code = LANGUAGES[0] if tag == "*" else ours(tag)
        if code is not None and quality > 0:
            return code
    return LANGUAGES[0]


#: Each language as Babel's locale, made once: Flask-Babel takes a locale as it is.
LOCALES = {code: Locale.parse(code) for code in LANGUAGES}


def select_locale() -> Locale:
    """Flask-Babel's locale selector: the language of this request."""
    environ = request.environ
    wanted = request.args.get("lang", "") if environ.get("QUERY_STRING") else ""
    cookie = ""
    if COOKIE in environ.get("HTTP_COOKIE", "") and request.blueprint == "pages":
        cookie = request.cookies.get(COOKIE, "")
    return LOCALES[choose(environ.get("HTTP_ACCEPT_LANGUAGE", ""), wanted, cookie)]


def code() -> str:
    """The code of this request's language (``de``); English outside of a request."""
    locale = get_locale()
    return LANGUAGES[0] if locale is None else str(locale.language)


#: Each language met so far, by code and family: its looked-up texts are kept in it.
_LANGUAGES: dict[tuple[str, str | None], Language] = {("en", None): ENGLISH}


def language(family: str | None = None, language_code: str | None = None) -> Language:
    """The language ``language_code`` (this request's without it), with the words of
    ``family``'s rule sheets where the catalog has words of their own for it."""
    wanted = language_code or code()
    found = _LANGUAGES.get((wanted, family))
    if found is None:
        found = Language(wanted, _translations(wanted), family)
        _LANGUAGES[wanted, family] = found
    return found


def _translations(language_code: str) -> Catalog:
    """The catalog of a language, as Flask-Babel loaded it for the app (or, outside of an
    app, as Babel loads it)."""
    if not has_app_context():
        return cast(Catalog, Translations.load(str(CATALOGS), [language_code], "messages"))
    with force_locale(language_code):
        return cast(Catalog, get_translations())


def about_family(family: str) -> None:
    """Say that this request's answer is about rules of ``family``: its texts take that
    family's words."""
    g.rules_family = family
    g.pop("words", None)


def words() -> Language:
    """The language this request's answer is written in (:func:`about_family`); English
    outside of a request."""
    if not has_app_context():
        return ENGLISH
    found: Language | None = g.get("words")
    if found is None:
        found = g.words = language(g.get("rules_family"))
    return found


def say(phrase: Phrase) -> str:
    """A phrase of the engine or of the web layer, in this request's language."""
    return words().phrase(phrase)


def say_language(response: Response) -> Response:
    """Every answer says its language (a saved answer may say its own) and that it varies
    with ``Accept-Language``."""
    headers = response.headers
    names = {name.lower() for name in headers.keys()}
    if "content-language" not in names:
        headers.add("Content-Language", code())
    if "vary" not in names:
        headers.add("Vary", "Accept-Language")
    else:
        response.vary.add("Accept-Language")
    return response


def init_app(app: Flask) -> None:
    app.after_request(say_language)


__all__ = [
    "LANGUAGES",
    "NAMES",
    "about_family",
    "choose",
    "code",
    "init_app",
    "language",
    "ours",
    "say",
    "select_locale",
    "words",
]
