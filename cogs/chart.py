"""The score-over-time chart posted beside a finished game's final breakdown.

The chart itself (replay, labels, colours, drawing in the CPU pool) is
:mod:`bot.charts`, shared with the web pages; this is its Discord wrapper.
"""

from __future__ import annotations

import io
import logging

import discord

from bot import i18n
from bot.charts import score_chart_png
from bot.service import GameService
from bot.session import Session
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
        png = await score_chart_png(service, session, lang, score_chart)
    except Exception:
        log.exception("The score chart of game %s failed; posted without it", session.id)
        return None
    if png is None:
        return None
    language = i18n.language(lang)
    embed = discord.Embed(title=i18n.t(language, "chart.title"), colour=EMBED_COLOUR)
    embed.set_image(url=f"attachment://{FILENAME}")
    return embed, discord.File(io.BytesIO(png), filename=FILENAME)
