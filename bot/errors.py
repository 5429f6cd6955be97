"""Errors a player caused; the cogs answer them ephemerally in his language."""

from __future__ import annotations

from games.core import Param


class UserError(Exception):
    """A refusal with a catalogue key (bot/locales/*.json) and its params."""

    def __init__(self, key: str, **params: Param) -> None:
        super().__init__(key)
        self.key = key
        self.params: dict[str, Param] = dict(params)
