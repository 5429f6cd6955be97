"""The page's language: ``?lang=en|fr`` when given, else the best of the
browser's Accept-Language among the catalogue's languages, else English."""

from __future__ import annotations

from bot import i18n
from games.text import Param

LANGUAGES = i18n.LANGUAGES
DEFAULT = "en"
MOST_RANGES = 32  # an Accept-Language header longer than this is read that far


def chosen(query: str | None) -> str | None:
    """The ``lang`` query value when it names a language; anything else is
    ignored (a shared link never breaks on it)."""
    return query if query in LANGUAGES else None


def from_header(header: str | None) -> str:
    """The language the browser prefers among ours (RFC 9110 ranges with q
    values; ties go to the first listed), or the default."""
    best, best_q = DEFAULT, 0.0
    for part in (header or "").split(",")[:MOST_RANGES]:
        tag, _, params = part.strip().partition(";")
        primary = tag.strip().lower().split("-")[0]
        if primary not in LANGUAGES:
            continue
        q = 1.0
        name, _, value = params.strip().partition("=")
        if name.strip().lower() == "q":
            try:
                q = float(value)
            except ValueError:
                continue
            if not 0 <= q <= 1:
                continue
        if q > best_q:
            best, best_q = primary, q
    return best


def page_language(query: str | None, header: str | None) -> str:
    return chosen(query) or from_header(header)


def t(lang: str, key: str, /, default: str | None = None, **params: Param) -> str:
    """A text of the catalogue in ``lang`` (plain text: escape it for HTML)."""
    return i18n.t(lang, key, default, **params)
