"""Localised names and descriptions for the slash commands.

Every command string is a ``locale_str(english, key=<catalogue key>)``;
Discord shows the catalogue's text to users whose client is in that
language. The English default stays in the code so the command tree reads
naturally there.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot import i18n
from games import catalogue


def cmd(english: str, key: str) -> app_commands.locale_str:
    """A command string with the catalogue key that translates it."""
    return app_commands.locale_str(english, key=key)


class CommandTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        if not isinstance(key, str):
            # Autocomplete's choices (already in the reader's words) come here one
            # by one on every keystroke: the cheapest answer first.
            return None
        lang = i18n.language(locale)
        if lang == catalogue.FALLBACK:
            return None
        if not catalogue.has(key, lang):
            return None
        return catalogue.text(lang, key)
