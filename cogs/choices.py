"""Choices of slash-command options that several cogs offer."""

from __future__ import annotations

from discord import app_commands

from bot import i18n, registry
from bot.translator import cmd


def game_choices() -> list[app_commands.Choice[str]]:
    """One choice per registered game, titled in each reader's language."""
    return [
        app_commands.Choice(name=cmd(i18n.t("en", f"{key}.title"), f"{key}.title"), value=key)
        for key in registry.specs()
    ]
