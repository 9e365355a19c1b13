"""The reader's language, as the engine sees it: a translations object the caller provides.

The engine never chooses a language, and never writes in one by itself: what it says to a
person — a violation, a contract, an error — is a :class:`Phrase`, a template of the catalogs
and the facts that fill it in, and ``str()`` of it is English. Whoever serves a reader (the web
layer) makes a :class:`Language` from any object with the standard library's ``gettext``
interface (``gettext.GNUTranslations``, Babel's ``Translations``) and writes phrases in it with
:meth:`Language.phrase`. Texts to translate are marked with :func:`N_` so that Babel finds them;
the English text is the catalog's message id.

>>> contract = Phrase.counted(Nn_("{count} run", "{count} runs"), {"count": 2})
>>> str(contract), ENGLISH.phrase(contract)
('2 runs', '2 runs')

The engine's own words differ by family in some languages (the German Progressive sheet says
*Satz* and *Vertrag* where the German Liverpool sheet says *Buch* and *Kontrakt*): a
translation made for a family is looked up first under the family's name as its gettext
context, then without one.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol


class Translations(Protocol):
    """The part of the standard library's ``gettext`` translations the engine uses."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...

    def pgettext(self, context: str, message: str, /) -> str: ...

    def npgettext(self, context: str, singular: str, plural: str, n: int, /) -> str: ...


def N_(text: str) -> str:
    """Mark ``text`` for the catalog; it is translated where it is written out."""
    return text


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a text whose form a number chooses (``"{count} set"``, ``"{count} sets"``)."""
    return singular, plural


@dataclass(frozen=True, slots=True)
class Phrase:
    """A part of a message with words of its own, translated as a whole and then filled in.

    ``plural`` is the English text when ``params[count] != 1``; each language chooses its own
    form through its catalog's plural rule. ``str()`` is the English text.
    """

    template: str
    params: Mapping[str, Any] = field(default_factory=dict)
    plural: str | None = None
    count: str = "count"

    @staticmethod
    def counted(forms: tuple[str, str], params: Mapping[str, Any], count: str = "count") -> Phrase:
        """A phrase whose form the number ``params[count]`` chooses, from :func:`Nn_`."""
        return Phrase(forms[0], params, plural=forms[1], count=count)

    def __str__(self) -> str:
        return ENGLISH.phrase(self)


@dataclass(frozen=True, slots=True)
class Language:
    """One language (and family) to write in, its templates looked up once and kept."""

    code: str
    translations: Translations
    family: str | None = None
    # Looked up once: a message id's text, and texts made from several (a contract's words).
    _memo: dict[str, str] = field(default_factory=dict, repr=False, compare=False)
    _kept: dict[Hashable, str] = field(default_factory=dict, repr=False, compare=False)

    def text(self, message: str) -> str:
        """``message`` in this language (the family's word first, where it has its own)."""
        found = self._memo.get(message)
        if found is None:
            found = message
            if self.family is not None:
                found = self.translations.pgettext(self.family, message)
            if found == message:
                found = self.translations.gettext(message)
            self._memo[message] = found
        return found

    def remember(self, key: Hashable, make: Callable[[], str]) -> str:
        """A text made once in this language and kept (a contract's words)."""
        found = self._kept.get(key)
        if found is None:
            found = self._kept[key] = make()
        return found

    def plural(self, singular: str, plural: str, n: int) -> str:
        """The form of ``singular``/``plural`` this language uses for ``n``."""
        if self.family is not None:
            found = self.translations.npgettext(self.family, singular, plural, n)
            if found not in (singular, plural):
                return found
        return self.translations.ngettext(singular, plural, n)

    def phrase(self, phrase: Phrase) -> str:
        """A phrase in this language, its parameters (phrases too) filled in."""
        if phrase.plural is None:
            template = self.text(phrase.template)
        else:
            template = self.plural(phrase.template, phrase.plural, int(phrase.params[phrase.count]))
        return self.fill(template, phrase.params)

    def fill(self, template: str, params: Mapping[str, Any]) -> str:
        """``template`` with ``{name}`` replaced by each parameter, phrases in this language."""
        return template.format_map(
            {k: self.phrase(v) if isinstance(v, Phrase) else v for k, v in params.items()}
        )


#: English: every text as the engine writes it.
ENGLISH = Language("en", gettext.NullTranslations())


__all__ = ["ENGLISH", "Language", "N_", "Nn_", "Phrase", "Translations"]
