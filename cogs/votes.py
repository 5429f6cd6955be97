"""Votes with buttons: letting the AI play an absent player's seat, and
agreeing to another player's undo. Both survive restarts (DynamicItems) and
are decided from the database, so a vote is counted once whichever process
receives the click."""

from __future__ import annotations

import logging
import re
from datetime import UTC, datetime
from typing import Any

import discord

from bot import i18n
from bot.absence import Choice, ClockNews, TakeoverTally
from bot.names import md
from bot.service import GameService
from bot.session import Session
from bot.undo_requests import UndoOutcome
from cogs.boards import boards_of
from cogs.interactions import game_of_this_channel, run_component, service_of
from cogs.news import after_post
from cogs.replies import (
    board_link,
    game_message,
    post_answer,
    post_to_channel,
    title,
)
from cogs.turn_post import post_ai_turns, post_buttons, turn_view

log = logging.getLogger(__name__)


def names(session: Session, user_ids: tuple[int, ...] | list[int]) -> str:
    seats = [session.seat_of(u) for u in user_ids]
    return ", ".join(session.shown(s) for s in seats if s is not None)


# --------------------------------------------------------------------------- takeover


class TakeoverButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"takeover:(?P<game>\d+):(?P<seat>\d+):(?P<round>\d+):(?P<choice>bot|wait)",
):
    """After a player's time ran out: let the AI play the seat, or wait a period."""

    def __init__(self, game_id: int, seat: int, round_: int, choice: str, label: str = "") -> None:
        style = discord.ButtonStyle.danger if choice == "bot" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=label or choice,
                style=style,
                custom_id=f"takeover:{game_id}:{seat}:{round_}:{choice}",
            )
        )
        self.game_id, self.seat, self.round, self.choice = game_id, seat, round_, choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TakeoverButton:
        return cls(int(match["game"]), int(match["seat"]), int(match["round"]), match["choice"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await run_component(interaction, self.act(interaction))

    async def act(self, interaction: discord.Interaction) -> None:
        await game_of_this_channel(interaction, self.game_id)
        service = service_of(interaction)
        choice: Choice = "bot" if self.choice == "bot" else "wait"
        tally = await service.absence.vote_takeover(
            self.game_id, interaction.user.id, self.seat, self.round, choice
        )
        session = tally.session
        text = takeover_text(tally)
        if tally.decided is None:
            await interaction.response.edit_message(
                content=text, view=takeover_view(session, self.seat, self.round)
            )
            return
        await interaction.response.edit_message(content=text, view=None)
        if tally.decided == "bot":
            await post_ai_turns(interaction.client, service, session)


def takeover_text(tally: TakeoverTally) -> str:
    session, lang = tally.session, tally.session.lang
    absent = session.shown(tally.seat)
    if tally.decided == "bot":
        return i18n.t(lang, "takeover.done", player=absent)
    if tally.decided == "wait":
        hours = round(session.record.clock_hours)
        return i18n.t(lang, "takeover.waiting", player=absent, hours=hours)
    pending = [u for u in tally.voters if u not in tally.votes]
    return i18n.t(
        lang,
        "takeover.tally",
        player=absent,
        bot=sum(1 for c in tally.votes.values() if c == "bot"),
        wait=sum(1 for c in tally.votes.values() if c == "wait"),
        waiting=names(session, pending) or "—",
    )


def takeover_view(session: Session, seat: int, round_: int) -> discord.ui.View:
    lang = session.lang
    view = discord.ui.View(timeout=None)
    view.add_item(
        TakeoverButton(session.id, seat, round_, "bot", i18n.t(lang, "button.takeover_bot"))
    )
    view.add_item(
        TakeoverButton(session.id, seat, round_, "wait", i18n.t(lang, "button.takeover_wait"))
    )
    return view


# --------------------------------------------------------------------------- clock news


async def tell_clock_news(client: discord.Client, service: GameService, news: ClockNews) -> None:
    """Remind in the game's thread, or by DM for players who asked for it; when
    time ran out, open the takeover vote for the other players."""
    session, lang = news.session, news.session.lang
    link = board_link(session)
    game = title(session, lang)
    key = "clock.half" if news.action == "half" else "clock.out"
    in_thread: list[int] = []
    for user_id in news.users:
        settings = await service.storage.user_settings(user_id)
        if not settings.dm_reminders:
            in_thread.append(user_id)
            continue
        dm_lang = settings.lang or lang
        text = i18n.t(dm_lang, f"{key}.dm", game=title(session, dm_lang), id=session.id, link=link)
        try:
            user = client.get_user(user_id) or await client.fetch_user(user_id)
            await user.send(text)
        except discord.HTTPException:
            log.warning("Could not DM a reminder of game %s; said in the thread", session.id)
            in_thread.append(user_id)
    channel = client.get_partial_messageable(session.record.channel_id)
    pings = [f"<@{u}>" for u in in_thread]
    lines: list[str] = []
    if pings:
        lines.append(i18n.t(lang, key, players=", ".join(pings), game=game, id=session.id))
        lines.append(i18n.t(lang, "clock.board", link=link))
    view: discord.ui.View | None = turn_view(session) if news.action == "half" and pings else None
    mentions = [*in_thread]
    if news.action == "expired":
        for seat in news.absent:
            if not news.voters:
                lines.append(i18n.t(lang, "takeover.nobody", player=session.shown(seat)))
                continue
            voters = ", ".join(f"<@{u}>" for u in news.voters)
            lines.append(
                i18n.t(
                    lang,
                    "takeover.ask",
                    player=session.shown(seat),
                    voters=voters,
                    hours=round(session.record.clock_hours),
                )
            )
            mentions += news.voters
            view = takeover_view(session, seat, news.round)
    if not lines:
        return
    allowed = discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(u) for u in mentions]
    )
    text = "\n".join(lines)[:2000]
    if view is None:
        await channel.send(text, allowed_mentions=allowed)
    else:
        await channel.send(text, allowed_mentions=allowed, view=view)


# --------------------------------------------------------------------------- undo


class UndoVoteButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"undo:(?P<game>\d+):(?P<version>\d+):(?P<seat>\d+):(?P<at>\d+):(?P<agree>yes|no)",
):
    """Another player agrees to (or refuses) an undo; all must agree."""

    def __init__(
        self, game_id: int, version: int, seat: int, at: int, agree: bool, label: str = ""
    ) -> None:
        answer = "yes" if agree else "no"
        style = discord.ButtonStyle.success if agree else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=label or answer,
                style=style,
                custom_id=f"undo:{game_id}:{version}:{seat}:{at}:{answer}",
            )
        )
        self.game_id, self.version, self.seat, self.at, self.agree = (
            game_id,
            version,
            seat,
            at,
            agree,
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> UndoVoteButton:
        return cls(
            int(match["game"]),
            int(match["version"]),
            int(match["seat"]),
            int(match["at"]),
            match["agree"] == "yes",
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await run_component(interaction, self.act(interaction))

    async def act(self, interaction: discord.Interaction) -> None:
        await game_of_this_channel(interaction, self.game_id)
        service = service_of(interaction)
        outcome = await service.undo_requests.vote(
            self.game_id,
            interaction.user.id,
            version=self.version,
            seat=self.seat,
            asked_at=self.at,
            agree=self.agree,
            now=datetime.now(UTC),
        )
        if outcome.after is None:
            view = None if outcome.refused_by else undo_view(outcome, self.at)
            await interaction.response.edit_message(content=undo_text(outcome), view=view)
            return
        await interaction.response.edit_message(content=undo_text(outcome), view=None)
        await post_undone(interaction.client, service, outcome)


def undo_text(outcome: UndoOutcome) -> str:
    """Where the request stands; the command is a player's text, so escaped."""
    plan = outcome.plan
    session, lang = plan.session, plan.session.lang
    player = session.shown(plan.seat)
    command = md(plan.command)
    if outcome.after is not None:
        return i18n.t(lang, "undo.done", player=player, command=command)
    if outcome.refused_by is not None:
        return i18n.t(lang, "undo.refused", player=names(session, [outcome.refused_by]))
    pending = [u for u in outcome.asked if u not in outcome.agreed]
    reason = i18n.t(lang, plan.judgement.reason)
    return i18n.t(
        lang,
        "undo.ask",
        player=player,
        command=command,
        reason=reason,
        waiting=", ".join(f"<@{u}>" for u in pending),
    )


def undo_view(outcome: UndoOutcome, at: int) -> discord.ui.View:
    plan = outcome.plan
    session, lang = plan.session, plan.session.lang
    version = session.record.version
    view = discord.ui.View(timeout=None)
    view.add_item(
        UndoVoteButton(session.id, version, plan.seat, at, True, i18n.t(lang, "button.undo_yes"))
    )
    view.add_item(
        UndoVoteButton(session.id, version, plan.seat, at, False, i18n.t(lang, "button.undo_no"))
    )
    return view


async def post_undone(client: discord.Client, service: GameService, outcome: UndoOutcome) -> None:
    """The board after an undo, in the channel, with whoever acts now pinged."""
    after = outcome.after
    if after is None:
        return
    lines, boards = [undo_text(outcome)], boards_of(client)
    buttons = await post_buttons(client, after)
    message = await game_message(after, lines, after.lang, boards=boards, buttons=buttons)
    channel = client.get_partial_messageable(after.record.channel_id)
    posted = await post_to_channel(channel, message)
    await after_post(client, service, after, posted)


async def answer_undo(
    interaction: discord.Interaction, service: GameService, outcome: UndoOutcome
) -> None:
    """/game undo's reply: the new board when applied, else the vote, publicly."""
    if outcome.after is not None:
        after = outcome.after
        await interaction.response.defer(thinking=True)
        lines, boards = [undo_text(outcome)], boards_of(interaction.client)
        buttons = await post_buttons(interaction.client, after)
        message = await game_message(after, lines, after.lang, boards=boards, buttons=buttons)
        channel = interaction.client.get_partial_messageable(after.record.channel_id)
        posted = await post_answer(interaction, channel, message)
        await after_post(interaction.client, service, outcome.after, posted)
        return
    at = outcome.asked_at
    pings = [discord.Object(u) for u in outcome.asked]
    await interaction.response.send_message(
        undo_text(outcome),
        view=undo_view(outcome, at),
        allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=pings),
    )


VOTE_ITEMS = (TakeoverButton, UndoVoteButton)
