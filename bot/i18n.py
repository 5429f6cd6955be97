"""Replies in the reader's language: Discord locales onto the shared catalogues.

The catalogues themselves (format, plurals, nested messages) are
:mod:`games.catalogue`; the bot adds its own source (``bot/locales``) and
each registered game adds its package's (see :mod:`bot.registry`).
"""

from __future__ import annotations

from collections.abc import Mapping

from games import catalogue
from games.text import Param, Term

catalogue.add_source("bot")

LANGUAGES = catalogue.LANGUAGES


def language(locale: object) -> str:
    """Discord locale ('fr', 'en-US', discord.Locale…) -> catalogue language."""
    value = str(getattr(locale, "value", locale) or "").lower()
    return "fr" if value.startswith("fr") else "en"


def has(key: str) -> bool:
    return catalogue.has(key)


def t(locale: object, key: str, /, default: str | None = None, **params: Param) -> str:
    """The message ``key`` in the locale's language, formatted with params."""
    return catalogue.text(language(locale), key, params, default)


def translate(
    locale: object,
    key: str,
    params: Mapping[str, Param],
    default: str | None = None,
    names: catalogue.Names | None = None,
) -> str:
    """``t`` with the params as a mapping (errors and events carry theirs as one);
    ``names`` are the table's (:meth:`bot.session.Session.people`), so a
    :class:`~games.text.Player` param reads as a person."""
    return catalogue.text(language(locale), key, params, default, names)


def term(locale: object, value: Term, names: catalogue.Names | None = None) -> str:
    return catalogue.term(language(locale), value, names)
