"""The reader's language: chosen once per request, and said on every answer.

The catalogs (``api/translations/<lang>/LC_MESSAGES/messages.po``, compiled to ``.mo`` and
checked in) hold every text of the engine (:mod:`rules.i18n`), of the errors and of the pages.
They are read once, at import: each language is a :class:`rules.i18n.Language` per family of
rulesets (the German Progressive sheet has words of its own), whose look-ups are kept.

A request's language is the ``lang`` query parameter if it names one of ours, else the best
of ``Accept-Language`` by quality value (a page also reads the ``lang`` cookie its language
switch sets, before the header); English when nothing matches. ``no`` and ``nn`` read Bokmål,
a region (``de-AT``, ``nl-BE``) its language. The choice is kept by the header's text, so a
request pays one dictionary look-up for it. Every answer says the language in
``Content-Language`` and varies on ``Accept-Language``.
"""

from __future__ import annotations

import functools
import gettext
import re
from pathlib import Path
from typing import Any

from babel.support import Translations
from flask import Flask, request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from rules import PRESETS
from rules import i18n as words
from rules.i18n import Language

from . import messages
from .layers import HeaderLayer

#: Where the catalogs are, one directory per language.
CATALOGS = Path(__file__).parent / "translations"
#: The languages the referee speaks, English first (what a reader gets when nothing matches).
LANGUAGES = ("en", "de", "nl", "it", "nb")
#: Tags read as another of ours: Norwegian and Nynorsk readers get Bokmål.
ALIASES = {"no": "nb", "nn": "nb"}
#: The name of each language in itself, for the pages' language switch.
NAMES = {"en": "English", "de": "Deutsch", "nl": "Nederlands", "it": "Italiano", "nb": "Norsk"}
#: The cookie the pages' language switch sets.
COOKIE = "lang"
#: How many ``Accept-Language`` texts the choice is kept for (browsers send a handful).
KEPT_CHOICES = 512


def _catalog(code: str) -> gettext.NullTranslations:
    if code == "en":
        return gettext.NullTranslations()
    return Translations.load(str(CATALOGS), [code], domain="messages")


_TRANSLATIONS = {code: _catalog(code) for code in LANGUAGES}
#: Each language, for texts of no family and for each family of the presets.
_LANGUAGES: dict[tuple[str, str | None], Language] = {
    (code, family): Language(code, _TRANSLATIONS[code], family)
    for code in LANGUAGES
    for family in (None, *sorted({ruleset.family for ruleset in PRESETS.values()}))
}
_CHOSEN: dict[tuple[str, str, str], str] = {}


def language_of(code: str) -> Language:
    return _LANGUAGES[code, None]


def language(code: str, family: str | None = None) -> Language:
    """The language ``code`` (one of :data:`LANGUAGES`), with the words of ``family``."""
    return _LANGUAGES.get((code, family)) or _LANGUAGES[code, None]


def ours(tag: str | None) -> str | None:
    """The language of ours a tag names (``de-AT`` → ``de``, ``nn`` → ``nb``), if any."""
    if not tag:
        return None
    primary = tag.strip().lower().replace("_", "-").split("-")[0]
    primary = ALIASES.get(primary, primary)
    return primary if primary in LANGUAGES else None


def choose(accept: str, wanted: str = "", cookie: str = "") -> str:
    """The language for a ``lang`` parameter, a cookie and an ``Accept-Language`` header."""
    key = (accept, wanted, cookie)
    chosen = _CHOSEN.get(key)
    if chosen is None:
        chosen = ours(wanted) or ours(cookie) or _best(accept)
        if len(_CHOSEN) >= KEPT_CHOICES:
            _CHOSEN.clear()
        _CHOSEN[key] = chosen
    return chosen


_PLACEHOLDER = re.compile(r"\{(\w+)(![rs])?\}")


def _pattern(template: str) -> re.Pattern[str]:
    """What ``template`` filled in looks like: each ``{name}`` (or ``{name!r}``) a group."""
    parts, last, names = [], 0, set()
    for match in _PLACEHOLDER.finditer(template):
        parts.append(re.escape(template[last : match.start()]))
        name = match[1]
        parts.append(f"(?P={name})" if name in names else f"(?P<{name}>.+?)")
        names.add(name)
        last = match.end()
    parts.append(re.escape(template[last:]))
    return re.compile("".join(parts), re.DOTALL)


@functools.cache
def _templates(code: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    """The templates of errors written in English (:mod:`api.messages`): how each looks
    filled in, and its translation (values go in as they were written, so ``!r`` is dropped)."""
    language = language_of(code)
    found = []
    for template in messages.TEMPLATES:
        if "{" in template and language.text(template) != template:
            found.append((_pattern(template), _PLACEHOLDER.sub(r"{\1}", language.text(template))))
    # The longest template first: "not a card: {text!r}" before "{detail}".
    found.sort(key=lambda item: -len(item[0].pattern))
    return tuple(found)


def translated(message: str) -> str:
    """A message written in English (marshmallow's, the engine's) in this request's language:
    by its own catalog entry, or by the template it was filled in from."""
    now = words.current()
    if now.code == "en":
        return message
    found = now.text(message)
    if found != message:
        return found
    for pattern, translation in _templates(now.code):
        match = pattern.fullmatch(message)
        if match is not None:
            return translation.format_map(match.groupdict())
    return message


def _best(accept: str) -> str:
    """The first language of ours in ``Accept-Language``, by quality (werkzeug orders them,
    and leaves out what has ``q=0``); a region reads its language, ``*`` English."""
    for tag, quality in parse_accept_header(accept, LanguageAccept):
        code = LANGUAGES[0] if tag == "*" else ours(tag)
        if code is not None and quality > 0:
            return code
    return LANGUAGES[0]


def current_code() -> str:
    """The language of this request (English outside of one)."""
    return words.current().code


def _own_words(code: str) -> frozenset[str]:
    """The families whose words differ from the plain ones in ``code``'s catalog."""
    catalog: dict[Any, str] = getattr(_TRANSLATIONS[code], "_catalog", {})
    families = set()
    for key, text in catalog.items():
        message = key[0] if isinstance(key, tuple) else key
        if isinstance(message, str) and "\x04" in message:
            family, plain = message.split("\x04", 1)
            plain_key = (plain, key[1]) if isinstance(key, tuple) else plain
            if catalog.get(plain_key) != text:
                families.add(family)
    return frozenset(families)


#: By language, the families that have words of their own in it (German: ``progressive``).
_OWN_WORDS = {code: _own_words(code) for code in LANGUAGES}


def for_family(family: str) -> None:
    """Write this request's texts with the words of ``family`` (its ruleset is known now).

    Only a family with words of its own in the request's language changes anything, so the
    other requests pay one set look-up.
    """
    now = words.current()
    wanted = family if family in _OWN_WORDS[now.code] else None
    if wanted != now.family:
        words.use(language(now.code, wanted))


def _choose_language() -> None:
    # Read from the WSGI environment: a request pays a few dictionary look-ups for this.
    environ = request.environ
    cookie = ""
    if COOKIE in environ.get("HTTP_COOKIE", "") and request.blueprint == "pages":
        cookie = request.cookies.get(COOKIE, "")
    wanted = request.args.get("lang", "") if environ.get("QUERY_STRING") else ""
    words.use(language(choose(environ.get("HTTP_ACCEPT_LANGUAGE", ""), wanted, cookie)))


class SayLanguage(HeaderLayer):
    """WSGI middleware: every answer says its language in ``Content-Language`` and varies on
    ``Accept-Language`` (the request's language is still the current one as it starts)."""

    def edit(self, headers: list[tuple[str, str]]) -> None:
        said = [("Content-Language", words.current().code)]
        for index in range(len(headers) - 1, -1, -1):
            name, value = headers[index]
            lowered = name.lower()
            if lowered == "content-language":
                del headers[index]
            elif lowered == "vary":
                del headers[index]
                if "accept-language" not in value.lower() and value.strip() != "*":
                    value = f"{value}, Accept-Language"
                said.append(("Vary", value))
        if len(said) == 1:
            said.append(("Vary", "Accept-Language"))
        headers.extend(said)


def _forget_language(_error: Any = None) -> None:
    words.use(words.ENGLISH)  # outside of a request, the engine writes English


def init_app(app: Flask) -> None:
    """Choose each request's language first (:class:`SayLanguage` says it on every answer)."""
    app.before_request_funcs.setdefault(None, []).insert(0, _choose_language)
    app.teardown_request(_forget_language)


__all__ = [
    "LANGUAGES",
    "NAMES",
    "SayLanguage",
    "choose",
    "current_code",
    "for_family",
    "init_app",
    "language",
    "translated",
]
