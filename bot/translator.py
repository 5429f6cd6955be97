"""French names and descriptions for the slash commands.

Discord shows a command's localisations to users whose client is in that
language; the table maps each English string (name, description, choice) to
its French text.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

import discord
from discord import app_commands


@cache
def french_commands() -> dict[str, str]:
    text = resources.files("bot").joinpath("locales/commands.fr.json").read_text(encoding="utf-8")
    table: dict[str, str] = json.loads(text)
    return table


class CommandTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is not discord.Locale.french:
            return None
        table = french_commands()
        # One English word can need two French ones: the option "game" is
        # "jeu" while the group "game" is "partie".
        if context.location is app_commands.TranslationContextLocation.parameter_name:
            return table.get(f"param:{string.message}") or table.get(string.message)
        return table.get(string.message)
