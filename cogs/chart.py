"""The score-over-time chart posted beside a finished game's final breakdown."""

from __future__ import annotations

import io
import logging
from functools import partial

import discord

from bot import i18n
from bot.replay import Row
from bot.service import GameService
from bot.session import Session
from bot.timeline import MAX_POINTS, sample_evenly, score_series, turn_ends
from cogs.replies import EMBED_COLOUR
from render.chart import score_chart

log = logging.getLogger(__name__)

FILENAME = "scores.png"


async def final_chart(
    service: GameService, session: Session, lang: str
) -> tuple[discord.Embed, discord.File] | None:
    """The chart of a finished game (None if the game gives no scores over time).

    Only a game that ended with an outcome has one (not a game ended by
    resignations). The log is replayed and the chart drawn off the event
    loop; any failure is logged and gives None, never breaking the final post.
    """
    try:
        return await _chart(service, session, lang)
    except Exception:
        log.exception("The score chart of game %s failed; posted without it", session.id)
        return None


async def _chart(
    service: GameService, session: Session, lang: str
) -> tuple[discord.Embed, discord.File] | None:
    if session.broken or session.record.status != "finished" or session.outcome is None:
        return None
    record = session.record
    counting = [m for m in await service.storage.moves(session.id) if m.counts]
    rows = [Row(m.seat, m.notation) for m in counting]
    ends = [m.ends_turn for m in counting]
    series = await service.cpu.run(
        score_series, session.engine, len(record.seats), record.seed, record.options, rows, ends
    )
    if series is None:
        return None
    winners = tuple(s.seat for s in session.standings() if s.won)
    language = i18n.language(lang)
    # The x axis counts points in time: the start, then each turn's end.
    points = turn_ends(len(rows), ends)
    turns = len(points) - 1
    if len(points) > MAX_POINTS:
        x_label = i18n.t(language, "chart.x_label_sampled", count=turns)
    else:
        x_label = i18n.t(language, "chart.x_label")
    numbers = {index: turn for turn, index in enumerate(points)}  # 0: the start
    # Each seat's line in the colour it wears on the board (Nomadi's, Oasis's own).
    picture = session.spec.load_picture()
    colours = tuple(picture.seat_colour(seat) for seat in range(len(record.seats)))
    drawing = partial(
        score_chart,
        title=i18n.t(language, f"{session.kind}.title"),
        x_label=x_label,
        winners=winners,
        turns=[numbers[i] for i in sample_evenly(points, MAX_POINTS)],
        colours=colours,
    )
    png = await service.cpu.run(drawing, series, session.names, language)
    embed = discord.Embed(title=i18n.t(language, "chart.title"), colour=EMBED_COLOUR)
    embed.set_image(url=f"attachment://{FILENAME}")
    return embed, discord.File(io.BytesIO(png), filename=FILENAME)
