"""Through the Desert games started through the real service, for service-level tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.service import GameService
from bot.session import Session
from games.core import Step
from games.desert import GAME

GUILD, CHANNEL = 100, 200
ALICE, BOB, CAROL = 1, 2, 3


async def start_desert(
    service: GameService, *joiners: int, bots: int = 0, first: int = 0
) -> Session:
    """Alice's game in CHANNEL with ``joiners`` and ``bots``, started with lobby
    seat ``first`` first (Alice by default), after any bot turns due."""
    await service.create(
        kind_key="desert",
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=ALICE,
        name="Alice",
        bots=bots,
    )
    for user in joiners:
        await service.join(CHANNEL, user, f"user{user}")
    report = await service.start(CHANNEL, ALICE, first=first)
    return (await service.advance(report.after)).after


def user_of(session: Session, seat: int) -> int:
    user = session.seat(seat).user_id
    assert user is not None
    return user


async def play_until(
    service: GameService, session: Session, wanted: Callable[[Session, Step[Any]], bool]
) -> tuple[Session, str, Session]:
    """Play legal moves (the first whose step ``wanted`` accepts, else the first
    that reveals nothing) until one is wanted; returns (before, command, after)."""
    for _ in range(200):
        seat = session.awaited[0]
        moves = GAME.legal_moves(session.state, seat)
        steps = [(m, GAME.play(session.state, seat, m)) for m in moves]
        hit = next(((m, s) for m, s in steps if wanted(session, s)), None)
        if hit is None:
            quiet = [(m, s) for m, s in steps if not any(e.to is not None for e in s.events)]
            move = (quiet or steps)[0][0]
        else:
            move = hit[0]
        text = GAME.format_move(move)
        report = await service.play(CHANNEL, user_of(session, seat), text)
        after = (await service.advance(report.after)).after
        if hit is not None:
            return session, text, after
        session = after
    raise AssertionError("no such move found")


def first_camel(session: Session, step: Step[Any]) -> bool:
    return not step.ends_turn and not any(e.to is not None for e in step.events)
