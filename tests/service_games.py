"""Games started and played through the real service, for service-level tests:
Through the Desert by default, any game by key."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.service import GameService
from bot.session import Saved, Session
from games.contract import Seat, Step, bot_move
from games.desert import GAME

GUILD, CHANNEL = 100, 200
ALICE, BOB, CAROL = 1, 2, 3


async def lobby(
    service: GameService,
    bots: int = 0,
    *joiners: int,
    game: str = "desert",
    channel: int = CHANNEL,
    **options: Any,
) -> Session:
    """Alice's lobby of ``game`` in ``channel`` with ``bots`` and ``joiners``
    (``options``: more of service.create's, e.g. clock_hours). Its bots play
    ``easy`` (instantly) unless ``level`` says otherwise: a search takes a quarter
    of a second a decision or more."""
    session = await service.create(
        kind=game,
        guild_id=GUILD,
        channel_id=channel,
        user_id=ALICE,
        name="Alice",
        bots=bots,
        **{"level": "easy", **options},
    )
    for user in joiners:
        session = await service.join(channel, user, f"user{user}")
    return session


async def start_desert(
    service: GameService, *joiners: int, bots: int = 0, first: int = 0
) -> Session:
    """Alice's game in CHANNEL with ``joiners`` and ``bots``, started with lobby
    seat ``first`` first (Alice by default), after any bot turns due."""
    await lobby(service, bots, *joiners)
    return (await service.settle(await service.start(CHANNEL, ALICE, first=first))).after


async def play_as_ai(
    service: GameService, session: Session, seat: Seat | None = None, channel: int = CHANNEL
) -> Saved:
    """The human at ``seat`` (else the first to act) plays what the AI would,
    as a real command through play() (the AI's answer: service.settle)."""
    seat = session.to_act[0] if seat is None else seat
    spec = session.spec
    move = bot_move(spec.engine, spec.bot, session.state, seat, session.record.version)
    return await service.play(channel, user_of(session, seat), spec.engine.format_move(move))


async def play_turn_as_ai(
    service: GameService, session: Session, channel: int = CHANNEL
) -> Session:
    """The human to act plays what the AI would; then any AI seats play."""
    return (await service.settle(await play_as_ai(service, session, channel=channel))).after


async def play_out(service: GameService, session: Session, channel: int = CHANNEL) -> Session:
    """The humans still in play what the AI would, AI seats through advance(),
    to the end."""
    for _ in range(2000):
        session = (await service.advance(session)).after
        if session.record.status != "active":
            return session
        seat = next(s for s in session.to_act if not session.ai_plays(s))
        session = (await play_as_ai(service, session, seat, channel)).after
    raise AssertionError("the game did not end")


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
        saved = await service.play(CHANNEL, user_of(session, seat), text)
        after = (await service.settle(saved)).after
        if hit is not None:
            return session, text, after
        session = after
    raise AssertionError("no such move found")


def first_camel(session: Session, step: Step[Any]) -> bool:
    return not step.ends_turn and not any(e.to is not None for e in step.events)


def whole_turn(session: Session, step: Step[Any]) -> bool:
    """A camel that ends a turn of the camel phase and reveals nothing."""
    return (
        step.ends_turn
        and not any(e.to is not None for e in step.events)
        and session.state.phase != "leaders"
    )
