"""Message catalogues (bot/locales/*.json) and lookup by Discord locale.

Keys are shared by every language; English is the fallback. Engine errors
carry their own key and params (games.core.MoveError), so they are
translated here too. Params named ``colour``/``colours`` are camel colours
and are translated as words.
"""

from __future__ import annotations

import json
import string
from collections.abc import Mapping
from functools import cache
from importlib import resources

LANGUAGES = ("en", "fr")


@cache
def catalogue(lang: str) -> dict[str, str]:
    text = resources.files("bot").joinpath(f"locales/{lang}.json").read_text(encoding="utf-8")
    data: dict[str, str] = json.loads(text)
    return data


def language(locale: object) -> str:
    """Discord locale ('fr', 'en-US', discord.Locale…) -> catalogue language."""
    value = str(getattr(locale, "value", locale) or "").lower()
    return "fr" if value.startswith("fr") else "en"


def has(key: str) -> bool:
    return key in catalogue("en")


def t(locale: object, key: str, /, default: str | None = None, **params: object) -> str:
    """The message ``key`` in the locale's language, formatted with params."""
    return translate(locale, key, params, default)


def translate(
    locale: object, key: str, params: Mapping[str, object], default: str | None = None
) -> str:
    """``t`` with the params as a mapping (engine errors carry theirs as a dict)."""
    lang = language(locale)
    template = catalogue(lang).get(key) or catalogue("en").get(key) or default or key
    # An error wrapping another (e.g. part 2 of a command refused) carries the
    # inner key: translate the inner message with the same params.
    inner = params.get("reason_key")
    if isinstance(inner, str) and inner != key:
        inner_params = {k: v for k, v in params.items() if k not in ("reason_key", "reason")}
        reason = translate(locale, inner, inner_params, str(params.get("reason", "")))
        params = {**params, "reason": reason}
    values = {name: _localise_param(lang, name, value) for name, value in params.items()}
    return string.Formatter().vformat(template, (), _Defaults(values))


def colour_name(locale: object, colour: str) -> str:
    return t(locale, f"colour.{colour}", default=colour)


def _localise_param(lang: str, name: str, value: object) -> object:
    if name == "colour" and isinstance(value, str):
        return catalogue(lang).get(f"colour.{value}", value)
    return value


class _Defaults(dict[str, object]):
    """Leave unknown placeholders visible instead of raising KeyError."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"
