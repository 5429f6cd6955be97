"""Never "This interaction failed": work that may outlast Discord's 3 seconds
is raced against a budget, and what has not finished by then is acknowledged
first.

Discord drops an interaction not acknowledged within 3 s of its creation. A
move is normally validated and saved before anything is said (so a refusal
stays private and nothing is posted for it), which takes milliseconds; but
under load the event loop's queue or the database's may hold it for seconds.
Then the player is answered "thinking…" privately before the work finishes:
a refusal then fills it in (still private), a turn post is made in the
channel as always and the placeholder goes.

Autocomplete cannot be deferred: past its budget it answers one entry saying
the bot is busy (see :func:`busy_choice`), and the player types on.

The budget counts from the interaction's creation as its id says (Discord's
clock): under a burst, an interaction may wait in the gateway's queue before
its handler even starts. That age is clamped to 0 (a host clock behind
Discord's) and :data:`MAX_QUEUED` (one far ahead would otherwise make every
move "thinking…" first).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, TypeVar, cast

import discord

from bot import i18n

if TYPE_CHECKING:
    from bot.app import Caravanserai

T = TypeVar("T")

# Seconds after the interaction's creation. What is said then still needs its
# trip to Discord through a loop that may be busy: a second and more is left.
SAVE_SECONDS = 1.5  # a move not validated and saved by then hears "thinking…" privately
COMPLETE_SECONDS = 1.8  # autocomplete answers "busy" past this
MAX_QUEUED = 2.0  # the interaction's age, as its id says, counts up to this
BUSY_VALUE = "busy"  # the busy entry's value: sent as a move, it is refused as one


def budget_left(interaction: discord.Interaction, budget: float) -> float:
    """Seconds left of ``budget`` for ``interaction``, counted from its creation."""
    return seconds_left(interaction.created_at, budget, datetime.now(UTC))


def answer_budget(interaction: discord.Interaction) -> float:
    """Seconds left to make a turn post the answer to ``interaction`` before saying
    "thinking…": the bot's ANSWER_WITHIN_SECONDS (1.5 by default, bot/config.py; 0:
    always "thinking…" first), counted from the interaction's creation."""
    config = cast("Caravanserai", interaction.client).config
    return budget_left(interaction, config.answer_within_seconds)


def seconds_left(created_at: datetime, budget: float, now: datetime) -> float:
    """``budget`` less the time since ``created_at``, that time counted from 0 (a
    clock behind Discord's) to :data:`MAX_QUEUED` (one far ahead of it)."""
    queued = (now - created_at).total_seconds()
    return budget - min(max(queued, 0.0), MAX_QUEUED)


async def within(work: Awaitable[T], seconds: float) -> tuple[bool, asyncio.Future[T]]:
    """Start ``work`` and wait for it ``seconds`` at most: (finished, its future).
    Whoever cancels the caller cancels the work too."""
    future = asyncio.ensure_future(work)
    try:
        done, _ = await asyncio.wait({future}, timeout=max(seconds, 0.0))
    except asyncio.CancelledError:
        future.cancel()
        raise
    return bool(done), future


async def saved_in_time(interaction: discord.Interaction, work: Awaitable[T]) -> T:
    """``work``'s result; if it is not done within the acknowledgement budget, the
    interaction is acknowledged privately ("thinking…") first. A refusal it raises
    then fills that placeholder in, privately."""
    finished, future = await within(work, budget_left(interaction, SAVE_SECONDS))
    if not finished and not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    return await future


def busy_choice(locale: object) -> discord.app_commands.Choice[str]:
    """The one autocomplete entry of a bot too busy to list moves in time."""
    return discord.app_commands.Choice(name=i18n.t(locale, "move.busy")[:100], value=BUSY_VALUE)
