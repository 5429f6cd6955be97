"""The Rematch button under a finished game's post (see :mod:`bot.rematch`).

The final post builds the button by its ``custom_id`` (:func:`cogs.turn_post.rematch_button`);
this extension routes the clicks, after a restart too.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot import i18n
from bot.rematch import Rematch, rematch
from cogs.buttons import lobby_view
from cogs.interactions import game_of_this_channel, run_component, service_of
from cogs.lobby_text import lobby_lines, seat_lines, start_lines
from cogs.turn_post import REMATCH_ID, publish

if TYPE_CHECKING:
    from bot.app import Caravanserai


class RematchButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=REMATCH_ID + r":(?P<game>\d+)"
):
    """One click per player of the finished game: the first opens the new
    table, the last starts it."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="rematch", custom_id=f"{REMATCH_ID}:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RematchButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await run_component(interaction, self.act(interaction))

    async def act(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        await game_of_this_channel(interaction, self.game_id)
        service = service_of(interaction)
        user = interaction.user
        click = await rematch(
            service, interaction.channel_id, self.game_id, user.id, user.display_name
        )
        lobby = click.lobby
        lang = lobby.lang
        if click.started is not None:
            head = i18n.t(lang, "rematch.started", old=self.game_id)
            await publish(interaction, service, click.started, [head, *start_lines(lobby)])
            return
        lines = [*(lobby_lines(lobby, lang) if click.opened else seat_lines(lobby, lang))]
        lines.insert(0, news(click, self.game_id, user.mention))
        # The first click calls the others back (a ping each, once); later ones only report.
        pinged = click.waiting if click.opened else frozenset()
        await interaction.response.send_message(
            "\n".join(lines),
            view=lobby_view(lobby),
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(u) for u in sorted(pinged)]
            ),
        )


def news(click: Rematch, old_id: int, who: str) -> str:
    """Who clicked, and whose click is still awaited."""
    lang = click.lobby.lang
    waiting = " ".join(f"<@{user}>" for user in sorted(click.waiting))
    key = "rematch.opened" if click.opened else "rematch.joined"
    return i18n.t(lang, key, user=who, old=old_id, id=click.lobby.id, waiting=waiting)


async def setup(bot: Caravanserai) -> None:
    bot.add_dynamic_items(RematchButton)
