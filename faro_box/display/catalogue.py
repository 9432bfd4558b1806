"""Every text the views show, in English, Russian and French (``texts.json``), with counts told in
each language's CLDR plural categories (Babel's plural rules: "1 карта", "3 карты", "31 карта",
"5 карт"). The pages get the same catalogue (``page_texts``), so no page keeps a copy of its own.

A text is a string, or ``{"plural": {category: string}}`` with every category the language has,
or (the Baccarat page's "waiting" sentences) a table of strings by the table's state.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib.resources import files
from typing import Any

from babel import Locale

from faro_box.errors import ScriptError

LANGUAGES = ("en", "ru", "fr")


@cache
def catalogue() -> Mapping[str, Mapping[str, Mapping[str, Any]]]:
    """{view: {key: {lang: text}}}."""
    return json.loads(files("faro_box.display").joinpath("texts.json").read_text(encoding="utf-8"))


@cache
def plural_categories(lang: str) -> frozenset[str]:
    """The CLDR plural categories of ``lang``, "other" included."""
    return frozenset(Locale.parse(lang).plural_form.tags) | {"other"}


def plural_category(lang: str, n: float) -> str:
    return str(Locale.parse(lang).plural_form(n))


def text(view: str, key: str, lang: str, count: float | None = None, /, **fields: object) -> str:
    """The text ``key`` of ``view`` in ``lang`` with its ``{fields}``; a plural one is chosen by
    ``count``, which its forms show as ``{n}``."""
    if lang not in LANGUAGES:
        raise ScriptError(f"unknown language {lang!r}: use one of {', '.join(LANGUAGES)}")
    entry = catalogue()[view][key][lang]
    if isinstance(entry, Mapping) and "plural" in entry:
        if count is None:
            raise ScriptError(f"the text {view}.{key} needs a count")
        forms = entry["plural"]
        entry = forms.get(plural_category(lang, count), forms["other"])
        fields = {"n": count, **fields}
    if not isinstance(entry, str):
        raise ScriptError(f"the text {view}.{key} is a table, not one text")
    return entry.format(**fields) if fields else entry


def page_texts() -> dict[str, dict[str, dict[str, Any]]]:
    """{view: {lang: {key: text}}}: the shape the pages look texts up in."""
    return {view: {lang: {key: entry[lang] for key, entry in keys.items()} for lang in LANGUAGES}
            for view, keys in catalogue().items()}
