"""Buttons on the lobby post, the resign confirmation and the proposal to
cancel a running game; they survive restarts.

Each is a discord.py ``DynamicItem``: its ``custom_id`` carries the game (and
the user where needed), and the callback reads everything else from the
database, so a post from before a restart still works. Only the right user
can use a button: anyone else gets a private explanation. The buttons under
a turn post are in :mod:`cogs.turn_post`.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot import i18n
from bot.errors import UserError
from bot.session import CancelVote, Session
from cogs.interactions import game_here, game_of_this_channel, run_component, service_of
from cogs.lobby_text import lobby_lines, start_lines
from cogs.turn_post import TURN_ITEMS, publish

# --------------------------------------------------------------------------- lobby


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"lobby:(?P<action>join|leave|start):(?P<game>\d+)",
):
    """Join, Leave and Start on the lobby post."""

    STYLES = {
        "join": discord.ButtonStyle.success,
        "leave": discord.ButtonStyle.secondary,
        "start": discord.ButtonStyle.primary,
    }

    def __init__(self, action: str, game_id: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or action,
                style=self.STYLES[action],
                custom_id=f"lobby:{action}:{game_id}",
            )
        )
        self.action = action
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        return cls(match["action"], int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await run_component(interaction, self.act(interaction))

    async def act(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        service = service_of(interaction)
        session = await game_here(interaction, self.game_id)
        user = interaction.user
        if self.action == "start":
            saved = await service.start(interaction.channel_id, user.id)
            await publish(interaction, service, saved, start_lines(saved.after))
            if interaction.message is not None:
                await interaction.message.edit(view=None)  # the lobby is closed
            return
        if self.action == "join":
            session = await service.join(interaction.channel_id, user.id, user.display_name)
        else:
            session, cancelled = await service.leave(interaction.channel_id, user.id)
            if cancelled:
                text = i18n.t(session.lang, "lobby.left_cancelled", user=user.mention)
                await interaction.response.edit_message(content=text, view=None)
                return
        await interaction.response.edit_message(
            content="\n".join(lobby_lines(session, session.lang)),
            view=lobby_view(session),
            allowed_mentions=discord.AllowedMentions.none(),
        )


def lobby_view(session: Session) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for action in ("join", "leave", "start"):
        label = i18n.t(session.lang, f"button.{action}")
        view.add_item(LobbyButton(action, session.id, label))
    return view


# --------------------------------------------------------------------------- resign


class ResignButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"resign:(?P<game>\d+):(?P<user>\d+)",
):
    """The confirmation of /game resign (sent privately to the player)."""

    def __init__(self, game_id: int, user_id: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or "resign",
                style=discord.ButtonStyle.danger,
                custom_id=f"resign:{game_id}:{user_id}",
            )
        )
        self.game_id = game_id
        self.user_id = user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ResignButton:
        return cls(int(match["game"]), int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await run_component(interaction, self.act(interaction))

    async def act(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        if interaction.user.id != self.user_id:
            raise UserError("button.not_yours")
        await game_here(interaction, self.game_id)
        service = service_of(interaction)
        saved = await service.resign(interaction.channel_id, interaction.user.id)
        head = [i18n.t(saved.after.lang, "game.resigned", user=interaction.user.mention)]
        if saved.void:
            head.append(i18n.t(saved.after.lang, "game.void", id=saved.after.id))
        await publish(interaction, service, saved, head)


def resign_view(session: Session, user_id: int, locale: object) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ResignButton(session.id, user_id, i18n.t(locale, "button.resign_confirm")))
    return view


# --------------------------------------------------------------------------- cancel by vote


class CancelVoteButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"cancelvote:(?P<game>\d+)"
):
    """ "I agree" under a proposal to cancel a running game: every human player must."""

    def __init__(self, game_id: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or "agree",
                style=discord.ButtonStyle.danger,
                custom_id=f"cancelvote:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> CancelVoteButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await run_component(interaction, self.act(interaction))

    async def act(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        await game_of_this_channel(interaction, self.game_id)
        vote = await service_of(interaction).vote_cancel(
            interaction.channel_id, interaction.user.id, self.game_id
        )
        await interaction.response.edit_message(
            content=vote_text(vote, interaction.user.mention),
            view=None if vote.cancelled else cancel_vote_view(vote.session),
            allowed_mentions=discord.AllowedMentions.none(),
        )


def vote_text(vote: CancelVote, who: str) -> str:
    lang = vote.session.lang
    if vote.cancelled:
        return i18n.t(lang, "game.cancelled_by_vote", id=vote.session.id)
    return i18n.t(lang, "game.cancel_vote", user=who, waiting=", ".join(vote.waiting))


def cancel_vote_view(session: Session) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(CancelVoteButton(session.id, i18n.t(session.lang, "button.agree_cancel")))
    return view


DYNAMIC_ITEMS = (LobbyButton, *TURN_ITEMS, ResignButton, CancelVoteButton)
"""The game posts' components, routed by their ``custom_id`` even after a restart
(the lobby cog registers them when it loads)."""
