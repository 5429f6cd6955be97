"""Errors a player caused; the cogs answer them ephemerally in his language."""

from __future__ import annotations

from bot import i18n
from games.contract import MoveError
from games.text import Param


class UserError(Exception):
    """A refusal with a catalogue key (bot/locales/*.json) and its params."""

    def __init__(self, key: str, **params: Param) -> None:
        super().__init__(key)
        self.key = key
        self.params: dict[str, Param] = dict(params)


def refusal(locale: object, error: BaseException) -> str | None:
    """What to tell a player whose action was refused, in his language;
    None when the error is not a refusal (a bug, to be logged)."""
    if isinstance(error, UserError):
        return i18n.translate(locale, error.key, error.params)
    if isinstance(error, MoveError):
        return i18n.translate(locale, error.key, error.params, error.message, error.names)
    return None
