"""Buttons and selects on game posts, for every game; they survive restarts.

Each component is a discord.py ``DynamicItem``: its ``custom_id`` carries the
game (and what else it needs), and the callback reads everything else from
the database, so a post from before a restart still works. The slash
commands stay the complete interface; these are shortcuts. Only the right
user can use a component: anyone else gets a private explanation. A
``custom_id`` is whatever the client sends, so a component acts only on a
game of the server and channel it is clicked in (``game_here``,
``game_of_this_channel``).
"""

from __future__ import annotations

import importlib
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

import discord

from bot import i18n
from bot.app import prepare_interaction, send_ephemeral
from bot.errors import UserError, refusal
from bot.service import GameService
from bot.session import CancelVote, Session
from bot.storage import GameRecord
from cogs.lobby_text import lobby_lines, seat_lines
from cogs.replies import title
from cogs.suggest import move_choices

if TYPE_CHECKING:
    from bot.app import Caravanserai

log = logging.getLogger(__name__)


async def guard(interaction: discord.Interaction, action: Awaitable[None]) -> None:
    """Run a component's action; a refusal is answered privately in the user's
    language, anything else is logged (discord.py only logs errors of
    dynamic items, leaving the user with "This interaction failed")."""
    try:
        await prepare_interaction(service_of(interaction).storage, interaction)
        await action
    except Exception as error:
        text = refusal(interaction.locale, error)
        if text is None:
            data = cast("dict[str, Any]", interaction.data or {})
            log.exception("Component %s failed", data.get("custom_id"))
            text = i18n.t(interaction.locale, "error.unexpected")
        await send_ephemeral(interaction, text)


def service_of(interaction: discord.Interaction) -> GameService:
    client = cast("Caravanserai", interaction.client)
    return client.service


def belongs_here(record: GameRecord, interaction: discord.Interaction) -> bool:
    """Whether the game is played where the interaction comes from: its server,
    and its thread or channel (``channel_id``)."""
    return record.guild_id == interaction.guild_id and record.channel_id == interaction.channel_id


async def game_of_this_channel(interaction: discord.Interaction, game_id: int) -> Session:
    """Game ``game_id``, named by a component's ``custom_id``, once sure it is
    played in the interaction's server and channel: a ``custom_id`` is whatever
    the client sends, and must not reach another server's or channel's game."""
    session = await service_of(interaction).get(game_id)
    if session is None or not belongs_here(session.record, interaction):
        raise UserError("button.not_here")
    return session


async def game_here(interaction: discord.Interaction, game_id: int) -> Session:
    """The channel's open game, which must be the one the component belongs to."""
    assert interaction.channel_id is not None
    session = await service_of(interaction).require_session(interaction.channel_id)
    if session.id != game_id:
        raise UserError("button.old_game")
    return session


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
        await guard(interaction, self.act(interaction))

    async def act(self, interaction: discord.Interaction) -> None:
        from cogs import flow  # flow posts these buttons: imported late, no cycle

        assert interaction.channel_id is not None
        service = service_of(interaction)
        session = await game_here(interaction, self.game_id)
        user = interaction.user
        if self.action == "start":
            report = await service.start(interaction.channel_id, user.id)
            lang = report.after.lang
            head = [
                i18n.t(lang, "lobby.started", game=title(report.after, lang), id=report.after.id),
                *seat_lines(report.after, lang),
            ]
            await flow.publish(interaction, service, report, head)
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


# --------------------------------------------------------------------------- moves


class MoveButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"move:(?P<game>\d+)"):
    """ "Your move" on a turn post: opens the player's private move picker."""

    def __init__(self, game_id: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or "move",
                emoji="🎲",
                style=discord.ButtonStyle.primary,
                custom_id=f"move:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MoveButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guard(interaction, self.act(interaction))

    async def act(self, interaction: discord.Interaction) -> None:
        await offer_moves(interaction, await game_here(interaction, self.game_id))


async def offer_moves(interaction: discord.Interaction, session: Session) -> None:
    """A private select of the clicking player's suggested moves, or why there is none."""
    locale = interaction.locale
    seat = session.seat_of(interaction.user.id)
    if seat is None:
        raise UserError("game.not_a_player")
    if session.ai_plays(seat):
        raise UserError("game.you_resigned")
    if seat not in session.to_act:
        waiting = ", ".join(session.shown(s) for s in session.awaited)
        raise UserError("game.not_your_turn", players=waiting)
    cpu = cast("Caravanserai", interaction.client).cpu
    choices = await cpu.run(move_choices, session, seat, "", i18n.language(locale))
    view = discord.ui.View(timeout=None)
    view.add_item(MoveSelect(session.id, session.record.version, choices, locale))
    prompt = "\n".join(
        i18n.translate(locale, d.key, d.params) for d in session.decisions if d.seat == seat
    )
    text = i18n.t(locale, "button.pick_head", prompt=prompt, command=f"/{session.key}")
    await interaction.response.send_message(text, view=view, ephemeral=True)


class MoveSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"pick:(?P<game>\d+):(?P<version>\d+)",
):
    """The private select of moves; its version tells a stale pick from a fresh one."""

    def __init__(
        self,
        game_id: int,
        version: int,
        choices: list[tuple[str, str]] | None = None,
        locale: object = "en",
    ) -> None:
        options = [discord.SelectOption(label=label, value=value) for label, value in choices or []]
        super().__init__(
            discord.ui.Select(
                custom_id=f"pick:{game_id}:{version}",
                placeholder=i18n.t(locale, "button.pick_placeholder"),
                options=options or [discord.SelectOption(label="-", value="-")],
            )
        )
        self.game_id = game_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MoveSelect:
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guard(interaction, self.act(interaction))

    async def act(self, interaction: discord.Interaction) -> None:
        data = cast("dict[str, Any]", interaction.data or {})
        values = data.get("values") or [""]
        await play_picked(interaction, self.game_id, self.version, str(values[0]))


async def play_picked(
    interaction: discord.Interaction, game_id: int, version: int, notation: str
) -> None:
    """A move picked on a component, played like the same /<game> move; the
    version it was offered at lets the service re-check a stale pick."""
    from cogs import flow  # flow posts these components: imported late, no cycle

    assert interaction.channel_id is not None
    await game_here(interaction, game_id)
    service = service_of(interaction)
    report = await service.play(
        interaction.channel_id, interaction.user.id, notation, expected_version=version
    )
    await flow.answer(interaction, service, report)


QuickMoves = Callable[[Session], Sequence[Any]]
MAX_QUICK = 4  # one row of five buttons, "Your move" included


def quick_moves(session: Session) -> Sequence[Any]:
    """The moves worth a button of their own on the turn post (Nomadi: buy /
    refuse, reroll / pay): the game's commands module names them with a
    ``quick_moves(session)`` function, if it has one; the "Your move" picker
    and /<game> move do the rest. Found from the session's spec, so no table
    is filled when a cog loads."""
    commands = importlib.import_module(session.spec.commands)
    offered: QuickMoves | None = getattr(commands, "quick_moves", None)
    return () if offered is None else offered(session)


def turn_view(session: Session) -> discord.ui.View | None:
    """The "Your move" entry under a turn post, when a human must act, after
    the game's buttons for its quick decisions (in the game's language)."""
    if session.record.status != "active":
        return None
    if not any(not session.ai_plays(s) for s in session.to_act):
        return None
    view = discord.ui.View(timeout=None)
    engine = session.engine
    for move in quick_moves(session)[:MAX_QUICK]:
        notation = engine.format_move(move)
        words = engine.move_words(move)
        label = notation if words is None else i18n.term(session.lang, words)
        view.add_item(QuickButton(session.id, session.record.version, notation, label))
    view.add_item(MoveButton(session.id, i18n.t(session.lang, "button.move")))
    return view


class QuickButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"quick:(?P<game>\d+):(?P<version>\d+):(?P<move>[^:]{1,60})",
):
    """One move in one click (``buy``); played like the same /<game> move, so the
    service checks the clicking user and, if the game moved on, the move again."""

    def __init__(self, game_id: int, version: int, notation: str, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=(label or notation)[:80],
                style=discord.ButtonStyle.secondary,
                custom_id=f"quick:{game_id}:{version}:{notation[:60]}",
            )
        )
        self.game_id = game_id
        self.version = version
        self.notation = notation

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> QuickButton:
        return cls(int(match["game"]), int(match["version"]), match["move"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await guard(interaction, self.act(interaction))

    async def act(self, interaction: discord.Interaction) -> None:
        await play_picked(interaction, self.game_id, self.version, self.notation)


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
        await guard(interaction, self.act(interaction))

    async def act(self, interaction: discord.Interaction) -> None:
        from cogs import flow  # flow posts these buttons: imported late, no cycle

        assert interaction.channel_id is not None
        if interaction.user.id != self.user_id:
            raise UserError("button.not_yours")
        await game_here(interaction, self.game_id)
        service = service_of(interaction)
        report = await service.resign(interaction.channel_id, interaction.user.id)
        head = [i18n.t(report.after.lang, "game.resigned", user=interaction.user.mention)]
        if report.void:
            head.append(i18n.t(report.after.lang, "game.void", id=report.after.id))
        await flow.publish(interaction, service, report, head)


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
        await guard(interaction, self.act(interaction))

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


DYNAMIC_ITEMS = (
    LobbyButton,
    MoveButton,
    MoveSelect,
    QuickButton,
    ResignButton,
    CancelVoteButton,
)
