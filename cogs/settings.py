"""/settings: a player's own choices, everywhere the bot is — the language the
bot answers them in, a DM when it is their turn, reminders by DM."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.storage import UserSettings
from bot.translator import cmd

if TYPE_CHECKING:
    from bot.app import Caravanserai

LANGUAGES = [
    app_commands.Choice(name=cmd("English", "language.en"), value="en"),
    app_commands.Choice(name=cmd("French", "language.fr"), value="fr"),
    app_commands.Choice(name=cmd("Discord's language", "language.auto"), value="auto"),
]


def settings_lines(settings: UserSettings, locale: object) -> list[str]:
    def on_off(flag: bool) -> str:
        return i18n.t(locale, "settings.on" if flag else "settings.off")

    language = i18n.t(locale, f"language.{settings.lang or 'auto'}")
    return [
        i18n.t(locale, "settings.head"),
        i18n.t(locale, "settings.language", value=language),
        i18n.t(locale, "settings.dm_turn", value=on_off(settings.dm_turn)),
        i18n.t(locale, "settings.dm_reminders", value=on_off(settings.dm_reminders)),
    ]


class Settings(commands.Cog):
    def __init__(self, bot: Caravanserai) -> None:
        self.bot = bot

    @app_commands.command(
        name=cmd("settings", "cmd.settings.name"),
        description=cmd(
            "Your language, and DMs on your turn or for reminders", "cmd.settings.description"
        ),
    )
    @app_commands.rename(
        language=cmd("language", "cmd.settings.language.name"),
        dm_turn=cmd("dm_turn", "cmd.settings.dm_turn.name"),
        dm_reminders=cmd("dm_reminders", "cmd.settings.dm_reminders.name"),
    )
    @app_commands.describe(
        language=cmd("The language the bot answers you in", "cmd.settings.language.description"),
        dm_turn=cmd("A DM when it is your turn", "cmd.settings.dm_turn.description"),
        dm_reminders=cmd(
            "Turn-clock reminders by DM instead of in the game's thread",
            "cmd.settings.dm_reminders.description",
        ),
    )
    @app_commands.choices(language=LANGUAGES)
    async def settings(
        self,
        interaction: discord.Interaction,
        language: app_commands.Choice[str] | None = None,
        dm_turn: bool | None = None,
        dm_reminders: bool | None = None,
    ) -> None:
        chosen = await self.bot.service.absence.change_settings(
            interaction.user.id,
            lang=None if language is None else language.value,
            dm_turn=dm_turn,
            dm_reminders=dm_reminders,
        )
        # Answer in the language just chosen.
        locale = chosen.lang or i18n.language(interaction.locale)
        await interaction.response.send_message(
            "\n".join(settings_lines(chosen, locale)), ephemeral=True
        )


async def setup(bot: Caravanserai) -> None:
    await bot.add_cog(Settings(bot))
