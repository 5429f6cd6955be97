"""The turn post and its components, for every game: what a move answers
(the public post of a whole turn, or a private step), the AI turns posted
after it, and the buttons and select under the post (with the link to the
game's web page, if any).

A public action has one shape: validate and save first (fast, errors still
ephemeral), then acknowledge publicly, let AI seats play (``service.settle``:
the player's turn comes only with theirs), render off the loop and post the
whole in one message; private news follows (:mod:`cogs.news`).

Each component is a discord.py ``DynamicItem``: its ``custom_id`` carries the
game (and the version it was offered at), and the callback reads everything
else from the database, so a post from before a restart still works. The
slash commands stay the complete interface; these are shortcuts.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

import discord

from bot import i18n
from bot.errors import UserError
from bot.service import GameService
from bot.session import MoveReport, Saved, Session
from cogs.boards import board_file, boards_of
from cogs.deadline import answer_budget, saved_in_time, within
from cogs.interactions import game_here, run_component, service_of
from cogs.news import after_post, deliver_private, report_failure, send_final_chart, tell_parent
from cogs.replies import (
    GameMessage,
    describe,
    final_mentions,
    game_message,
    post_answer,
    post_to_channel,
    reply_with,
    seat_accent,
    send_kwargs,
    turn_lines,
)
from cogs.suggest import move_choices
from cogs.web_links import game_page_link

if TYPE_CHECKING:
    from bot.app import Caravanserai

# --------------------------------------------------------------------------- the post


async def answer(interaction: discord.Interaction, service: GameService, saved: Saved) -> None:
    """A move's answer: the public post of a whole turn, or a private step."""
    if saved.turn_over:
        await publish(interaction, service, saved)
    else:
        await answer_step(interaction, service, saved)


async def answer_step(interaction: discord.Interaction, service: GameService, saved: Saved) -> None:
    """A step inside a turn (a first camel): only the player sees it, with his board,
    as a card like a turn post's, in his own language.

    The channel gets the whole turn in one post when the turn ends.
    """
    locale = interaction.locale
    if not interaction.response.is_done():  # else "thinking…" was said under load
        await interaction.response.defer(ephemeral=True, thinking=True)
    report = await service.settle(saved)  # a step: the AI waits for the turn's end
    session = report.after
    (turn,) = report.turns
    people = session.people()
    lines = [describe(e, locale, names=people) for e in turn.events if e.to in (None, turn.seat)]
    lines += [
        i18n.translate(locale, d.key, d.params, names=people)
        for d in session.decisions
        if d.seat == turn.seat
    ]
    card = GameMessage(
        heading=i18n.t(locale, "game.step_title"),
        lines=tuple(lines),
        scores=(),
        footer="",
        colour=seat_accent(session, turn.seat),
        file=await board_file(boards_of(interaction.client), session, turn.seat, locale),
        mentions=discord.AllowedMentions.none(),
        # The same buttons as a turn post, so the next step is one click away too.
        buttons=tuple(turn_buttons(session, i18n.language(locale))),
    )
    await interaction.followup.send(ephemeral=True, **send_kwargs(card))  # type: ignore[call-overload]
    others = {s: e for s, e in report.private_events().items() if s != turn.seat}
    await deliver_private(interaction.client, session, others)


async def publish(
    interaction: discord.Interaction,
    service: GameService,
    saved: Saved,
    head: Sequence[str] = (),
) -> None:
    """Let AI seats play, post the turn in the game's language: the player's turn
    and the AI's that follow it, in one post.

    The post is the interaction's answer when it is ready within the
    acknowledgement budget (cogs/deadline.py): one request, and the post says
    who moved. When it is not (AI seats thinking, a busy pool), "thinking…" is
    said first and the post made in the channel, a new message that pings."""
    locale = saved.after.lang
    ready, making = await within(
        turn_message(interaction.client, service, saved, head),
        answer_budget(interaction),
    )
    if not ready and not interaction.response.is_done():
        await interaction.response.defer(thinking=True)
    try:
        report, now, message = await making
        channel = interaction.client.get_partial_messageable(now.record.channel_id)
        if interaction.response.is_done():
            posted = await post_answer(interaction, channel, message)
        else:
            posted = await reply_with(interaction, channel, message)
        await after_post(interaction.client, service, now, posted)
        if report.finished:
            await send_final_chart(channel.send, service, now, locale)
    except Exception:
        # The move is already saved: say so publicly rather than leave the player
        # without an answer (or "thinking…" forever).
        report_failure(
            interaction.client, "Posting game %s failed after the move was saved", saved.after.id
        )
        text = i18n.t(interaction.locale, "error.after_save")
        if interaction.response.is_done():
            await interaction.followup.send(text)
        else:
            await interaction.response.send_message(text)
        return
    await tell_parent(interaction.client, report.before, report.after)
    await deliver_private(interaction.client, report.after, report.private_events(), interaction)


async def turn_message(
    client: discord.Client, service: GameService, saved: Saved, head: Sequence[str]
) -> tuple[MoveReport, Session, GameMessage]:
    """The AI seats' answer to ``saved``, and the post of the whole: (the report,
    the session it shows, the post)."""
    locale = saved.after.lang
    report = await service.settle(saved)
    lines = [*head, *turn_lines(report.after, report.turns, locale)]
    now = report.after
    if len(saved.before.to_act) > 1:
        # Seats acting at once: another's move may have landed meanwhile; show the
        # newest board. (With one seat to act, none could: no need to read again.)
        now = await service.get(report.after.id) or report.after
    buttons = await post_buttons(client, now)
    message = await game_message(now, lines, locale, boards=boards_of(client), buttons=buttons)
    return report, now, message


async def post_ai_turns(client: discord.Client, service: GameService, session: Session) -> bool:
    """The AI plays what is due (bots, a seat just handed to it, turns a restart
    interrupted) and its turns are posted through the channel, as a turn post
    from a player would be: private news, the parent's line, the final chart.
    False if there was nothing to play."""
    report = await service.advance(session)
    if not report.turns:
        return False
    after, lang = report.after, report.after.lang
    lines = turn_lines(after, report.turns, lang)
    boards = boards_of(client)
    buttons = await post_buttons(client, after)
    message = await game_message(after, lines, lang, boards=boards, buttons=buttons)
    channel = client.get_partial_messageable(after.record.channel_id)
    posted = await post_to_channel(channel, message)
    await after_post(client, service, after, posted)
    if report.finished:
        await send_final_chart(channel.send, service, after, lang)
    await tell_parent(client, session, after)
    await deliver_private(client, after, report.private_events())
    return True


# --------------------------------------------------------------------------- its components


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
        await run_component(interaction, self.act(interaction))

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
    people = session.people()
    prompt = "\n".join(
        i18n.translate(locale, d.key, d.params, names=people)
        for d in session.decisions
        if d.seat == seat
    )
    text = i18n.t(locale, "button.pick_head", prompt=prompt, command=f"/{session.kind}")
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
        await run_component(interaction, self.act(interaction))

    async def act(self, interaction: discord.Interaction) -> None:
        data = cast("dict[str, Any]", interaction.data or {})
        values = data.get("values") or [""]
        await play_picked(interaction, self.game_id, self.version, str(values[0]))


async def play_picked(
    interaction: discord.Interaction, game_id: int, version: int, notation: str
) -> None:
    """A move picked on a component, played like the same /<game> move; the
    version it was offered at lets the service re-check a stale pick."""
    assert interaction.channel_id is not None
    channel_id, service = interaction.channel_id, service_of(interaction)

    async def save() -> Saved:
        await game_here(interaction, game_id)
        return await service.play(
            channel_id, interaction.user.id, notation, expected_version=version
        )

    saved = await saved_in_time(interaction, save())  # "thinking…" first under load
    await answer(interaction, service, saved)


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


def turn_buttons(session: Session, lang: str | None = None) -> list[discord.ui.Item[Any]]:
    """The buttons under a turn post: the game's for its quick decisions, then
    "Your move", when a human must act; Rematch under a finished game's post.
    In ``lang``, the language of the text they sit under: the game's for a
    public post (the default), the reader's for a private answer, so one
    message speaks one language."""
    lang = lang or session.lang
    if session.record.status == "finished":
        return rematch_buttons(session, lang)
    if session.record.status != "active":
        return []
    if not any(not session.ai_plays(s) for s in session.to_act):
        return []
    engine = session.engine
    people = session.people(plain=True)  # a button shows Markdown as typed
    buttons: list[discord.ui.Item[Any]] = []
    for move in quick_moves(session)[:MAX_QUICK]:
        notation = engine.format_move(move)
        words = engine.move_words(move)
        label = notation if words is None else i18n.term(lang, words, people)
        buttons.append(QuickButton(session.id, session.record.version, notation, label))
    buttons.append(MoveButton(session.id, i18n.t(lang, "button.move")))
    return buttons


async def post_buttons(client: discord.Client, session: Session) -> list[discord.ui.Item[Any]]:
    """The components under a public turn post: :func:`turn_buttons`, then the
    link to the game's web page when there is one (a sixth item starts a row)."""
    return [*turn_buttons(session), *await game_page_link(client, session, session.lang)]


def turn_view(session: Session, lang: str | None = None) -> discord.ui.View | None:
    """:func:`turn_buttons` as a classic view, for a message with text content
    (a reminder); None when there is no button."""
    buttons = turn_buttons(session, lang)
    if not buttons:
        return None
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(button)
    return view


# The custom_id of a finished game's Rematch button: ``rematch:<game id>``
# (the clicks are routed by :class:`cogs.rematch.RematchButton`).
REMATCH_ID = "rematch"


def rematch_buttons(session: Session, lang: str) -> list[discord.ui.Item[Any]]:
    """Rematch under the final post: the same players sit down again, one click
    each (:mod:`bot.rematch`). No button when no human played."""
    if not final_mentions(session):
        return []
    button: discord.ui.Button[Any] = discord.ui.Button(
        label=i18n.t(lang, "button.rematch"),
        style=discord.ButtonStyle.success,
        custom_id=f"{REMATCH_ID}:{session.id}",
    )
    return [button]


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
        await run_component(interaction, self.act(interaction))

    async def act(self, interaction: discord.Interaction) -> None:
        await play_picked(interaction, self.game_id, self.version, self.notation)


TURN_ITEMS = (MoveButton, MoveSelect, QuickButton)
"""The turn post's components, routed by their ``custom_id`` (see ``buttons.DYNAMIC_ITEMS``)."""
