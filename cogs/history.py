"""/game history (paged) and /game replay (an animated image of a finished game).

``/game history`` lists the move log, one line per stored row numbered by
ply: who sent it, its notation and when; an undo row says what it took back
and the rows taken back are struck through. Fifteen rows a page, the newest
page first, with the pager's buttons (:class:`HistoryPages`); the whole log is
attached once as plain text, told turn by turn from the public events.

``/game replay`` rebuilds a finished game from the rows that count
(:mod:`bot.replay`), draws the spectator's board after each turn with the
game's picture and animates them (:mod:`render.replay`), off the event loop.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import discord

from bot import i18n
from bot.boards import seat_tags
from bot.errors import UserError
from bot.names import md
from bot.replay import ReplayError, Row, replay
from bot.service import GameService, turns_of
from bot.session import Session
from bot.storage import MoveRecord, SeatRecord
from bot.timeline import turn_ends
from bot.undo_requests import taken_back
from cogs.boards import boards_of
from cogs.interactions import game_of_this_channel, service_of
from cogs.pager import PageButton, PageContent, clamp, newest_first, page_count, send_pages
from cogs.replies import EMBED_COLOUR, final_summary, title, turn_lines
from cogs.visibility import can_see
from games.contract import Picture
from render.replay import animate, sample_indices

log = logging.getLogger(__name__)

ROWS_PER_PAGE = 15
NOTATION_SHOWN = 80  # characters of a row's notation on a page (the file has it all)
DESCRIPTION_LIMIT = 4096  # an embed description
FIELD_LIMIT = 1024  # an embed field's value
FRAME_LIMIT = 60  # images in a replay, at most
BOT_MARK = "🤖"
REPLAYS_AT_ONCE = 2  # replays drawn at the same time; others wait (boards keep the pool's workers)
_drawing = asyncio.Semaphore(REPLAYS_AT_ONCE)

# --------------------------------------------------------------------------- /game history


def unix_time(created_at: str) -> int:
    """A stored ISO-8601 time (UTC when it names no zone) as Unix seconds."""
    moment = datetime.fromisoformat(created_at)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp())


def seat_name(seats: Sequence[SeatRecord], seat: int) -> str:
    """A seat's name escaped for Discord, 🤖 before a bot's."""
    if not 0 <= seat < len(seats):
        return f"#{seat + 1}"
    record = seats[seat]
    name = md(record.name)
    if record.is_bot and BOT_MARK not in record.name:
        name = f"{BOT_MARK} {name}"
    return name


def shortened(notation: str, limit: int = NOTATION_SHOWN) -> str:
    return notation if len(notation) <= limit else notation[: limit - 1].rstrip() + "…"


def history_lines(
    seats: Sequence[SeatRecord], moves: Sequence[MoveRecord], locale: object
) -> list[str]:
    """One line per stored row, oldest first:
    ``12. **Alice** — orange F7 white G8 — <t:1700000000:R>``; an undo row says
    what it took back, a row taken back is struck through."""
    undos = taken_back(moves)
    lines = []
    for row in moves:
        name = seat_name(seats, row.seat)
        if row.by_ai and BOT_MARK not in name:  # the AI played a human's seat
            name = f"{BOT_MARK} {name}"
        if row.undoes is not None:
            plies = undos.get(row.ply) or [row.undoes]
            body = i18n.t(
                locale,
                "history.undo",
                name=name,
                count=len(plies),
                first=min(plies),
                last=max(plies),
            )
        else:
            body = f"**{name}** — {md(shortened(row.notation))}"
            if row.undone:
                body = f"~~{body}~~"
        lines.append(f"{row.ply}. {body} — <t:{unix_time(row.created_at)}:R>")
    return lines


def history_page(
    session: Session, moves: Sequence[MoveRecord], locale: object, page: int
) -> PageContent:
    """Page ``page`` (1 = the newest rows) of a game's history: the heading as
    text, the rows in an embed, and the final ranking on the first page of a
    finished game."""
    head = i18n.t(locale, "game.history_head", game=title(session, locale), id=session.id)
    lines = history_lines(session.record.seats, moves, locale)
    pages = page_count(len(lines), ROWS_PER_PAGE)
    page = clamp(page, pages)
    start, end = newest_first(len(lines), page, ROWS_PER_PAGE)
    shown = lines[start:end] or [i18n.t(locale, "game.history_empty")]
    embed = discord.Embed(colour=EMBED_COLOUR, description=fit(shown, DESCRIPTION_LIMIT))
    if page == 1 and session.record.status == "finished":
        embed.add_field(
            name=i18n.t(locale, "history.result"),
            value=final_summary(session, locale)[:FIELD_LIMIT] or "—",
            inline=False,
        )
    return PageContent(text=head, embed=embed, page=page, pages=pages)


def fit(lines: Sequence[str], limit: int) -> str:
    """The lines joined, within ``limit`` characters (the oldest dropped first)."""
    kept = list(lines)
    while len(kept) > 1 and len("\n".join(kept)) > limit:
        kept.pop(0)
    return "\n".join(kept)[:limit]


def history_file(session: Session, turns: Sequence[Any], locale: object) -> discord.File:
    """The whole game as plain text, turn by turn (no Markdown: nothing to escape)."""
    head = i18n.t(locale, "game.history_head", game=title(session, locale), id=session.id)
    lines = turn_lines(session, turns, locale, plain=True)
    plain = [f"{n}. {line}" for n, line in enumerate(lines, 1)]
    if session.record.status == "finished":
        plain.append(final_summary(session, locale, plain=True))
    text = "\n".join([head, *plain])
    return discord.File(io.BytesIO(text.encode("utf-8")), filename="history.txt")


async def history_reply(
    interaction: discord.Interaction, service: GameService, session: Session
) -> None:
    """The newest page, its buttons and the whole log as ``history.txt`` (only to the user)."""
    locale = interaction.locale
    moves = await service.storage.moves(session.id)
    if not moves:
        head = i18n.t(locale, "game.history_head", game=title(session, locale), id=session.id)
        await interaction.response.send_message(
            f"{head}\n{i18n.t(locale, 'game.history_empty')}", ephemeral=True
        )
        return
    turns = turns_of(moves)  # the rows just read, as turns
    await send_pages(
        interaction,
        HistoryPages,
        (str(session.id),),
        content=history_page(session, moves, locale, 1),
        file=history_file(session, turns, locale),
    )


class HistoryPages(PageButton, kind="history"):
    """The buttons of /game history (``args``: the game's id)."""

    @classmethod
    async def build(
        cls, interaction: discord.Interaction, args: tuple[str, ...], page: int
    ) -> PageContent:
        """A page asked for with the buttons: rebuilt from the database, for a game
        of the channel the buttons are in."""
        if not args or not args[0].isdigit():
            raise UserError("pager.gone")
        session = await game_of_this_channel(interaction, int(args[0]))
        moves = await service_of(interaction).storage.moves(session.id)
        return history_page(session, moves, interaction.locale, page)


# --------------------------------------------------------------------------- /game replay


def replay_rows(moves: Sequence[MoveRecord]) -> list[MoveRecord]:
    """The rows a replay plays: neither undo rows nor rows taken back."""
    return [row for row in moves if row.counts]


def frame_indices(rows: Sequence[MoveRecord]) -> list[int]:
    """Which states of a replay of ``rows`` (the rows that count; state 0 is the
    start, state i the one after ``rows[i - 1]``) to draw: the start, the state
    after each row that ends a turn, and the final state."""
    return turn_ends(len(rows), [row.ends_turn for row in rows])


def replay_frames(
    draw: Picture,
    session: Session,
    rows: Sequence[MoveRecord],
    lang: str,
    limit: int = FRAME_LIMIT,
) -> list[bytes]:
    """The spectator's boards (PNG) of the game's turns, drawn by ``draw``, at most
    ``limit`` of them spread evenly (the start and the end always). CPU work: run
    it in the worker pool (the game's picture is passed along).

    Raises :class:`ReplayError` if the log no longer replays.
    """
    engine = session.engine
    record = session.record
    states = replay(
        engine,
        len(record.seats),
        record.seed,
        record.options,
        [Row(row.seat, row.notation) for row in rows],
    )
    indices = frame_indices(rows)
    picked = [indices[k] for k in sample_indices(len(indices), limit)]
    names, tags = session.names, seat_tags(session)
    return [draw.board(engine.view(states[i], None), names, lang, tags) for i in picked]


def replay_gif(draw: Picture, session: Session, rows: Sequence[MoveRecord], lang: str) -> bytes:
    """The replay as an animated GIF under Discord's attachment limit."""
    return animate(replay_frames(draw, session, rows, lang), limit=FRAME_LIMIT)


async def replay_target(
    interaction: discord.Interaction, service: GameService, game_id: int | None
) -> Session:
    """The channel's latest game, or game ``game_id`` of this server in a channel
    the user can see (any other is answered as if it did not exist)."""
    assert interaction.channel_id is not None
    if game_id is None:
        return await service.latest_in(interaction.channel_id)
    session = await service.get(game_id)
    if session is None or session.record.guild_id != interaction.guild_id:
        raise UserError("replay.no_such_game", id=game_id)
    channel = session.record.channel_id
    if channel != interaction.channel_id and not await can_see(interaction, channel):
        raise UserError("replay.no_such_game", id=game_id)
    return session


async def replay_reply(
    interaction: discord.Interaction, service: GameService, game_id: int | None
) -> None:
    """Checks first (refusals stay private), then defers publicly and draws the
    replay off the event loop: it is posted in the channel, to share."""
    locale = interaction.locale
    session = await replay_target(interaction, service, game_id)
    if session.record.status != "finished":
        raise UserError("replay.not_finished", id=session.id)
    if session.broken or session.hosted_spec is None:
        raise UserError("game.broken", id=session.id)
    rows = replay_rows(await service.storage.moves(session.id))
    await interaction.response.defer(thinking=True)
    try:
        async with _drawing:
            draw, lang = boards_of(interaction.client).picture(session.kind), i18n.language(locale)
            gif = await service.cpu.run(replay_gif, draw, session, rows, lang)
    except (ReplayError, ValueError):
        log.exception("Game %s cannot be replayed", session.id)
        await interaction.followup.send(i18n.t(locale, "replay.broken", id=session.id))
        return
    embed = discord.Embed(
        title=i18n.t(locale, "replay.title", game=title(session, locale), id=session.id),
        description=final_summary(session, locale)[:DESCRIPTION_LIMIT],
        colour=EMBED_COLOUR,
    )
    embed.set_image(url="attachment://replay.gif")
    await interaction.followup.send(
        embed=embed,
        file=discord.File(io.BytesIO(gif), filename="replay.gif"),
        allowed_mentions=discord.AllowedMentions.none(),
    )
