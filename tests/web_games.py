"""A server full of games for the web pages' tests, made through the real service.

``await seeded_site_data(service)`` fills the service's database (a real
SQLite file in the tests) and returns a :class:`SiteGames` naming what it
made. Everything goes through :class:`bot.service.GameService`, the way
Discord commands do: lobbies, starts, moves, an undo, ratings from finished
games. The bots play easy (at once); humans play what the greedy bot would.

On server :data:`GUILD`, for every built game (:func:`built_specs`):

* a **finished** game: Alice, Bob and one bot, played to the end (so Alice and
  Bob are rated in that game, and the game has a final breakdown and chart);
* a **running** game: Alice, Bob and one bot, a few turns in, waiting for a
  human. The first game's running game has an **undo** in its log (a step
  taken back, then more moves); Sahwari's is played until a player has seen
  a hidden face that a spectator has not (``hidden_faces``).

Also on :data:`GUILD`: a **lobby** (Carol, whose name needs escaping, and a
bot) and a **cancelled** lobby. Elsewhere: a game of :data:`OTHER_GUILD` (a
*foreign* game for GUILD's addresses), a game of :data:`OPTED_OUT_GUILD`
(which turned its web pages off) and nothing at all on :data:`EMPTY_GUILD`.

Game ids are the database's, so tests read them from the result. Seeds are
random, as in the bot: tests check what holds for every game, not one board.
About three seconds on one core: build it once per test module.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot import registry
from bot.service import GameService
from bot.session import Session
from bot.storage import GuildSettings
from games.contract import GameSpec, bot_move

GUILD = 424242
OTHER_GUILD = 535353
OPTED_OUT_GUILD = 646464
EMPTY_GUILD = 757575

ALICE, BOB, CAROL, DAVE = 11, 12, 13, 14
NAMES = {ALICE: "Alice", BOB: 'Bob <i>&amp; "Co"', CAROL: "Carol <script>", DAVE: "Dave"}
FIRST_CHANNEL = 9000
RUNNING_ROWS = 8  # counted rows a running game is played to, at least
LONGEST = 3000  # plies: any game ends long before


@dataclass(frozen=True)
class SiteGames:
    """What :func:`seeded_site_data` made: server ids and game ids by kind and status."""

    guild_id: int
    finished: Mapping[str, int]  # game kind -> id of its finished game
    running: Mapping[str, int]  # game kind -> id of its running game
    undone: int  # the running game with an undo in its log
    lobby: int  # Carol's lobby (not started)
    cancelled: int  # a lobby cancelled before it started
    other_guild_id: int = OTHER_GUILD
    foreign: int = 0  # a game of OTHER_GUILD
    opted_out_guild_id: int = OPTED_OUT_GUILD
    opted_out: int = 0  # a game of OPTED_OUT_GUILD, which hides its pages
    empty_guild_id: int = EMPTY_GUILD  # a server with no games at all
    names: Mapping[int, str] = field(default_factory=lambda: dict(NAMES))

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self.finished)


class _Channels:
    def __init__(self) -> None:
        self.next = FIRST_CHANNEL

    def take(self) -> int:
        self.next += 1
        return self.next


async def open_table(
    service: GameService,
    kind: str,
    channel: int,
    *,
    guild: int = GUILD,
    creator: int = ALICE,
    joiners: tuple[int, ...] = (BOB,),
    bots: int = 1,
) -> Session:
    """A lobby of ``kind``: its creator, ``joiners`` and ``bots`` easy bots."""
    session = await service.create(
        kind=kind,
        guild_id=guild,
        channel_id=channel,
        user_id=creator,
        name=NAMES[creator],
        bots=bots,
        level="easy",
    )
    for user in joiners:
        session = await service.join(channel, user, NAMES[user])
    return session


async def start(service: GameService, channel: int) -> Session:
    return (await service.settle(await service.start(channel, ALICE))).after


async def human_turn(service: GameService, session: Session, channel: int) -> Session:
    """The first human the game waits for plays what the greedy bot would; the
    AI seats then answer (``settle``)."""
    seat = next(s for s in session.awaited if not session.ai_plays(s))
    spec = session.spec
    move = bot_move(spec.engine, spec.bot, session.state, seat, session.record.version)
    user = session.seat(seat).user_id
    assert user is not None
    saved = await service.play(channel, user, spec.engine.format_move(move))
    return (await service.settle(saved)).after


async def play_out(service: GameService, session: Session, channel: int) -> Session:
    for _ in range(LONGEST):
        if session.record.status != "active":
            return session
        session = await human_turn(service, session, channel)
    raise AssertionError(f"game {session.id} did not end")


async def counted_rows(service: GameService, session: Session) -> int:
    return sum(1 for m in await service.storage.moves(session.id) if m.counts)


def hidden_faces(session: Session) -> set[str]:
    """Faces a seat has seen that the spectator's view hides (games whose views
    list ``faces``, Sahwari's blue tokens); empty for the others."""
    if session.state is None or not hasattr(session.view(None), "faces"):
        return set()
    public = set(dict(session.view(None).faces).values())
    seen: set[str] = set()
    for seat in range(len(session.record.seats)):
        seen |= set(dict(session.view(seat).faces).values())
    return seen - public


def quiet_step(session: Session) -> tuple[int, str] | None:
    """A move of a human to act that does not end his turn and shows nothing
    (taken back at once by /game undo): its user and notation."""
    engine = session.engine
    for seat in session.awaited:
        user = session.seat(seat).user_id
        if session.ai_plays(seat) or user is None:
            continue
        for move in engine.legal_moves(session.state, seat):
            step = engine.play(session.state, seat, move)
            private = any(event.to is not None for event in step.events)
            if not step.ends_turn and not step.reveals and not private:
                return user, engine.format_move(move)
    return None


async def with_an_undo(service: GameService, session: Session, channel: int) -> Session:
    """Play until a quiet step is possible, play it, take it back, play on."""
    for _ in range(LONGEST):
        found = quiet_step(session)
        if found is not None:
            user, text = found
            await service.play(channel, user, text)
            outcome = await service.undo_requests.request(channel, user, datetime.now(UTC))
            assert outcome.after is not None, "a quiet step is taken back at once"
            session = outcome.after
            for _ in range(2):
                session = await human_turn(service, session, channel)
            return session
        session = await human_turn(service, session, channel)
    raise AssertionError(f"game {session.id} never offered a step to take back")


async def running_game(service: GameService, kind: str, channel: int, *, undo: bool) -> Session:
    await open_table(service, kind, channel)
    session = await start(service, channel)
    if undo:
        session = await with_an_undo(service, session, channel)
    wants_hidden = hasattr(session.view(None), "faces")
    for _ in range(LONGEST):
        enough = await counted_rows(service, session) >= RUNNING_ROWS
        if enough and (not wants_hidden or hidden_faces(session)):
            return session
        session = await human_turn(service, session, channel)
        assert session.record.status == "active", f"{kind}: the running game ended"
    raise AssertionError(f"{kind}: the running game never got where it should")


def built_specs() -> Mapping[str, GameSpec]:
    """The four games the bot ships (``bot.registry.GAMES``), whatever test game
    an earlier test of the session registered (``registry.configure``)."""
    return {k: s for k, s in registry.specs().items() if s.package in registry.GAMES}


async def seeded_site_data(service: GameService) -> SiteGames:
    """Fill ``service``'s database with the games listed in this module's
    docstring; returns their ids."""
    channels = _Channels()
    kinds = tuple(built_specs())
    finished: dict[str, int] = {}
    running: dict[str, int] = {}
    for kind in kinds:
        channel = channels.take()
        await open_table(service, kind, channel)
        session = await play_out(service, await start(service, channel), channel)
        assert session.record.status == "finished", kind
        finished[kind] = session.id
    for index, kind in enumerate(kinds):
        session = await running_game(service, kind, channels.take(), undo=index == 0)
        running[kind] = session.id
    lobby = await open_table(service, kinds[-1], channels.take(), creator=CAROL, joiners=(), bots=1)
    cancelled_channel = channels.take()
    cancelled = await open_table(service, kinds[0], cancelled_channel, joiners=(), bots=1)
    await service.cancel(cancelled_channel, ALICE, True)
    foreign = await open_table(
        service, kinds[0], channels.take(), guild=OTHER_GUILD, creator=DAVE, joiners=()
    )
    opted_out = await open_table(
        service, kinds[0], channels.take(), guild=OPTED_OUT_GUILD, creator=DAVE, joiners=()
    )
    await service.storage.set_guild_settings(OPTED_OUT_GUILD, GuildSettings(web=False))
    return SiteGames(
        guild_id=GUILD,
        finished=finished,
        running=running,
        undone=running[kinds[0]],
        lobby=lobby.id,
        cancelled=cancelled.id,
        foreign=foreign.id,
        opted_out=opted_out.id,
    )
