"""Rematch: a finished game's players sit down again with one click each.

The first click under the final post opens a lobby in the same channel with
the same game, options, language, clock and bot seats (at the same level),
its clicker seated; each other player's click seats them; the click that
seats the last of the old game's humans starts the game (its first post
pings whoever acts). The new lobby stays an ordinary lobby: its creator may
start it without someone who does not come back, and /game cancel closes it.

Which lobby answers a game's Rematch is kept in the meta table
(``rematch:<old game id>``), so the button works after a restart too.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.clocks import CLOCKS, DEFAULT_CLOCK, clock_name
from bot.errors import UserError
from bot.service import GameService
from bot.session import Saved, Session
from games.levels import LEVELS


@dataclass(frozen=True)
class Rematch:
    lobby: Session  # the new table, after this click
    opened: bool  # this click opened it
    started: Saved | None  # this click seated the last player and started it
    waiting: frozenset[int]  # the old game's players who have not clicked yet


def meta_key(game_id: int) -> str:
    return f"rematch:{game_id}"


def humans_of(session: Session) -> frozenset[int]:
    return frozenset(s.user_id for s in session.record.seats if s.user_id and not s.is_bot)


async def rematch(
    service: GameService, channel_id: int, game_id: int, user_id: int, name: str
) -> Rematch:
    """One player's click on the Rematch of game ``game_id`` (see the module)."""
    old = await service.get(game_id)
    if old is None or old.record.channel_id != channel_id:
        raise UserError("button.not_here")
    if old.record.status != "finished":
        raise UserError("rematch.not_finished")
    if user_id not in humans_of(old):
        raise UserError("rematch.not_a_player")
    lobby = await _lobby_of(service, game_id)
    opened = lobby is None
    if lobby is None:
        lobby = await _open(service, old, user_id, name)
    elif lobby.record.status != "lobby":
        raise UserError("rematch.already_started", id=lobby.id)
    elif lobby.seat_of(user_id) is not None:
        raise UserError("lobby.already_joined")
    else:
        lobby = await service.join(channel_id, user_id, name)
    missing = humans_of(old) - humans_of(lobby)
    started = None
    if not missing:
        started = await service.start(channel_id, lobby.record.creator_id)
        lobby = started.after
    return Rematch(lobby, opened, started, missing)


async def _lobby_of(service: GameService, game_id: int) -> Session | None:
    """The lobby (or game) a rematch of ``game_id`` opened, unless it was cancelled."""
    found = await service.storage.get_meta(meta_key(game_id))
    lobby = await service.get(int(found)) if found else None
    if lobby is None or lobby.record.status == "cancelled":
        return None
    return lobby


async def _open(service: GameService, old: Session, user_id: int, name: str) -> Session:
    record = old.record
    clock = clock_name(record.clock_hours)
    lobby = await service.create(
        kind=old.kind,
        guild_id=record.guild_id,
        channel_id=record.channel_id,
        user_id=user_id,
        name=name,
        bots=sum(1 for s in record.seats if s.is_bot),
        options=record.options,
        lang=record.lang,
        clock=clock if clock in CLOCKS else DEFAULT_CLOCK,
        level=record.bot_level if record.bot_level in LEVELS else "easy",
    )
    await service.storage.set_meta(meta_key(old.id), str(lobby.id))
    return lobby
