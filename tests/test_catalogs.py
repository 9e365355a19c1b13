"""The catalogs: complete, consistent with the code, and compiled as checked in.

Every text the code marks is in the template (``messages.pot``), every language has every
entry translated and none fuzzy, placeholders survive translation, plural forms follow each
language's rule, and compiling the ``.po`` gives exactly the checked-in ``.mo``.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from pathlib import Path

import marshmallow as ma
import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask_babel.speaklater import LazyString

import api.fields
from api import i18n, messages
from rules import family_words

ROOT = Path(__file__).resolve().parents[1]
CATALOGS = ROOT / "api" / "translations"
LANGUAGES = [code for code in i18n.LANGUAGES if code != "en"]
#: The keywords of README's extract command (gettext's own are Babel's defaults).
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "N_": None,
    "_l": None,
    "Nn_": (1, 2),
    "NP_": ((1, "c"), 2),
    "NNP_": ((1, "c"), 2, 3),
}
BRACES = re.compile(r"\{(\w+)(?:![rs])?\}")
PERCENT = re.compile(r"%\((\w+)\)s")


def _placeholders(text: str) -> set[str]:
    return set(BRACES.findall(text)) | {f"%{name}" for name in PERCENT.findall(text)}


def _key(message_id: str | Sequence[str], context: str | None) -> tuple[str | None, str]:
    return context, message_id if isinstance(message_id, str) else message_id[0]


def _catalog(code: str) -> Catalog:
    with open(CATALOGS / code / "LC_MESSAGES" / "messages.po", "rb") as file:
        return read_po(file, locale=code)


def _template() -> Catalog:
    with open(CATALOGS / "messages.pot", "rb") as file:
        return read_po(file)


def test_the_template_lists_exactly_the_texts_the_code_marks() -> None:
    method_map = [
        ("rules/**.py", "python"),
        ("api/**.py", "python"),
        ("api/pages/templates/**.html", "jinja2"),
    ]
    found = {
        _key(message_id, context)
        for _, _, message_id, _, context in extract_from_dir(
            str(ROOT), method_map, keywords=KEYWORDS, comment_tags=()
        )
    }
    assert found == {_key(m.id, m.context) for m in _template() if m.id}


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_text_is_translated_in_every_language(code: str) -> None:
    catalog = _catalog(code)
    template = {_key(m.id, m.context) for m in _template() if m.id}
    assert {_key(m.id, m.context) for m in catalog if m.id} == template
    assert not catalog.obsolete
    assert not catalog.fuzzy
    for message in catalog:
        if not message.id:
            continue
        assert not message.fuzzy, message.id
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(forms), (code, message.id)


@pytest.mark.parametrize("code", LANGUAGES)
def test_placeholders_survive_translation(code: str) -> None:
    for message in _catalog(code):
        if not message.id:
            continue
        if isinstance(message.id, str):
            assert isinstance(message.string, str), message.id
            assert _placeholders(message.string) == _placeholders(message.id), message.id
            continue
        singular, plural = message.id
        # (Babel reads a text with plural forms as a tuple of them.)
        assert isinstance(message.string, tuple), message.id
        *fewer, most = message.string
        # The form for many names every value; a singular may say "one" for the count.
        assert _placeholders(most) == _placeholders(plural), message.id
        for form in fewer:
            assert _placeholders(form) <= _placeholders(plural), message.id
        assert _placeholders(plural) - _placeholders(singular) == set(), message.id


@pytest.mark.parametrize("code", LANGUAGES)
def test_plural_forms_are_the_languages_own(code: str) -> None:
    catalog = _catalog(code)
    # Babel's rule for the language, from the CLDR (Italian has a form for millions).
    assert catalog.plural_forms == Catalog(locale=code).plural_forms
    for message in catalog:
        if isinstance(message.id, tuple):
            assert isinstance(message.string, tuple), message.id
            assert len(message.string) == catalog.num_plurals, message.id


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_compiled_catalog_is_the_checked_in_one(code: str) -> None:
    compiled = io.BytesIO()
    write_mo(compiled, _catalog(code))
    checked_in = (CATALOGS / code / "LC_MESSAGES" / "messages.mo").read_bytes()
    assert compiled.getvalue() == checked_in, "run the README's compile command"


def test_a_familys_words_are_also_plain_texts() -> None:
    plain = {m.id if isinstance(m.id, str) else m.id[0] for m in _template() if not m.context}
    for text in family_words.PROGRESSIVE:
        assert (text if isinstance(text, str) else text[0]) in plain


def test_marshmallows_own_messages_are_the_catalogs() -> None:
    """Every message a marshmallow field of a request can refuse with has the catalog's text
    in api.fields: each kind of field there gives every key its base classes have, and each
    schema does for its own."""
    template = {m.id for m in _template() if isinstance(m.id, str)}
    kinds = [
        value
        for value in vars(api.fields).values()
        if isinstance(value, type)
        and issubclass(value, ma.fields.Field)
        and value.__module__ == "api.fields"
    ]
    assert kinds
    for kind in kinds:
        own = kind.default_error_messages
        for base in kind.__mro__[1:]:
            if base.__module__.startswith("marshmallow"):
                missing = set(getattr(base, "default_error_messages", {})) - set(own)
                assert not missing, (kind.__name__, base.__name__, missing)
        for key, message in own.items():
            assert isinstance(message, LazyString), (kind.__name__, key)
            assert str(message) in template, (kind.__name__, key)
    assert set(ma.Schema().error_messages) <= set(api.fields.RequestSchema.error_messages)
    assert set(messages.TITLES.values()) <= template
    assert set(messages.HTTP_DETAILS.values()) <= template
