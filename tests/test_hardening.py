"""Hardening: nothing a hostile or unlucky user does locks a channel, games the
leaderboard, squats a server or gets lost past the first page of games.

On the real service, a real SQLite file and the real engines (Through the
Desert and the test-only Oasis Nim).
"""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from bot.errors import UserError
from bot.service import GameService, Limits
from bot.session import Session
from bot.storage import Storage
from games.contract import bot_move
from tests.contract import all_specs

GUILD = 100
ALICE, BOB, CAROL = 1, 2, 3


@pytest.fixture
def service(storage: Storage) -> GameService:
    return GameService(storage, all_specs(), Limits(lobbies=2, games=400, lobby_hours=48))


async def started(
    service: GameService,
    channel: int,
    *joiners: int,
    bots: int = 0,
    game: str = "desert",
    first: int | None = None,
) -> Session:
    await service.create(
        kind=game,
        guild_id=GUILD,
        channel_id=channel,
        user_id=ALICE,
        name="Alice",
        bots=bots,
        level="easy",
    )
    for user in joiners:
        await service.join(channel, user, f"user{user}")
    return (await service.start(channel, ALICE, first)).after


def corrupt(storage: Storage, game_id: int) -> None:
    """What a damaged row or a state from another version looks like to the engine."""
    path = storage.path  # type: ignore[attr-defined]
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET state = '{\"version\": 999}' WHERE id = ?", (game_id,))


# --------------------------------------------------------------------------- 1. unloadable games


async def test_a_game_that_cannot_be_loaded_locks_nothing(
    service: GameService, storage: Storage
) -> None:
    bad = await started(service, 10, BOB)
    good = await started(service, 11, BOB)
    corrupt(storage, bad.id)
    service.forget_cached_states()

    broken = await service.require_session(10)
    assert broken.broken and broken.to_act == () and broken.decisions == ()
    with pytest.raises(UserError) as info:
        await service.play(10, ALICE, "white C5")
    assert info.value.key == "game.broken"
    # The background jobs go on serving the other games.
    later = datetime.now(UTC) + timedelta(days=2)
    due = [news.session.id for news in await service.absence.due(later)]
    assert due == [good.id]
    # Its creator cancels it from the record alone, then the channel is free again.
    with pytest.raises(UserError):
        await service.cancel(10, BOB, is_admin=False)
    assert (await service.cancel(10, ALICE, is_admin=False)).record.status == "cancelled"
    fresh = await service.create(
        kind="desert", guild_id=GUILD, channel_id=10, user_id=BOB, name="Bob"
    )
    assert fresh.record.status == "lobby"


async def test_a_game_of_a_kind_no_longer_hosted_is_broken_not_fatal(
    storage: Storage,
) -> None:
    everything = GameService(storage, all_specs())
    nim = await started(everything, 12, BOB, game="nim")
    desert_only = GameService(storage, {"desert": all_specs()["desert"]})
    session = await desert_only.require_session(12)
    assert session.id == nim.id and session.broken == "unknown_kind"
    assert (await desert_only.cancel(12, 0, is_admin=True)).record.status == "cancelled"


# --------------------------------------------------------------------------- 2. no silent limits


async def test_every_one_of_300_games_is_resumed_and_reminded(
    service: GameService, storage: Storage
) -> None:
    """Past any page size: each game whose bot must move moves, each due player is reminded."""
    count = 300
    for channel in range(1000, 1000 + count):
        # Seat 1 is a bot and plays first, so every game waits on a bot.
        await started(service, channel, bots=1, first=1)
    waiting = [r.id async for r in service.all_games()]
    assert len(waiting) == count == len(set(waiting))
    resumed = 0
    async for record in service.all_games():  # what the bot does after a restart
        session = await service.get(record.id)
        assert session is not None
        if any(session.ai_plays(s) for s in session.to_act):
            report = await service.advance(session)
            resumed += bool(report.turns)
    assert resumed == count
    later = datetime.now(UTC) + timedelta(days=2)
    reminded = [news.session.id for news in await service.absence.due(later)]
    assert sorted(reminded) == sorted(waiting)


# --------------------------------------------------------------------------- 3. fair leaderboards


async def test_resigning_before_half_the_game_makes_nobody_win(
    service: GameService, storage: Storage
) -> None:
    await started(service, 20, BOB)
    report = await service.resign(20, BOB)
    assert report.ended and report.void
    assert report.after.record.status == "cancelled"
    assert await storage.leaderboard(GUILD) == []


async def test_resigning_past_half_the_game_is_a_win(
    service: GameService, storage: Storage
) -> None:
    session = await started(service, 21, BOB)
    while session.progress < 0.5:  # the engine's measure of the game played
        seat = session.to_act[0]
        user = session.seat(seat).user_id
        assert user is not None
        spec = session.spec
        move = bot_move(spec.engine, spec.bot, session.state, seat, 0)
        session = (await service.play(21, user, spec.engine.format_move(move))).after
    report = await service.resign(21, BOB)
    assert report.ended and not report.void
    rows = {r.user_id: r for r in await storage.leaderboard(GUILD)}
    assert rows[ALICE].wins == 1 and rows[BOB].wins == 0


async def test_a_running_game_is_cancelled_only_by_every_player_or_a_moderator(
    service: GameService,
) -> None:
    game = await started(service, 22, BOB, CAROL)
    with pytest.raises(UserError) as info:
        await service.cancel(22, ALICE, is_admin=False)  # the creator alone
    assert info.value.key == "game.cancel_needs_vote"
    first = await service.vote_cancel(22, ALICE, game.id)
    assert not first.cancelled and set(first.waiting) == {"user2", "user3"}
    again = await service.vote_cancel(22, ALICE, game.id)  # voting twice changes nothing
    assert not again.cancelled
    with pytest.raises(UserError):
        await service.vote_cancel(22, 99, game.id)  # not a player
    await service.vote_cancel(22, BOB, game.id)
    last = await service.vote_cancel(22, CAROL, game.id)
    assert last.cancelled and last.session.record.status == "cancelled"
    other = await started(service, 23, BOB)
    assert (await service.cancel(23, CAROL, is_admin=True)).record.status == "cancelled"
    with pytest.raises(UserError):
        await service.cancel_by_id(GUILD, other.id, is_moderator=False)


async def test_the_last_two_agreeing_at_once_cancel_once(
    service: GameService, storage: Storage
) -> None:
    """Both last clicks see a full tally (say, on two processes): one cancels,
    the other finds it cancelled; neither fails."""
    game = await started(service, 24, BOB, CAROL)
    for user in (ALICE, BOB, CAROL):
        await storage.cast_vote(game.id, "cancel", user, "yes")
    both = await asyncio.gather(
        service.vote_cancel(24, BOB, game.id), service.vote_cancel(24, CAROL, game.id)
    )
    assert [vote.cancelled for vote in both] == [True, True]
    assert both[0].session.record.status == both[1].session.record.status == "cancelled"
    final = await storage.get_game(game.id)
    assert final is not None and final.status == "cancelled"
    assert final.version == game.record.version + 1  # cancelled once, not twice


async def test_a_last_click_just_after_the_vote_cancelled_finds_it_cancelled(
    service: GameService, storage: Storage
) -> None:
    """The race above, in its worst order: one click cancels the game before the
    other even looks it up (no longer the channel's open game). The late click
    still finds the game cancelled by the vote, without a second cancel; after a
    moderator's cancel, a vote button is simply too old."""
    game = await started(service, 25, BOB, CAROL)
    for user in (ALICE, BOB, CAROL):
        await storage.cast_vote(game.id, "cancel", user, "yes")
    first = await service.vote_cancel(25, BOB, game.id)
    late = await service.vote_cancel(25, CAROL, game.id)
    assert first.cancelled and late.cancelled
    final = await storage.get_game(game.id)
    assert final is not None and final.version == game.record.version + 1

    other = await started(service, 26, BOB, CAROL)
    await service.cancel(26, CAROL, is_admin=True)
    with pytest.raises(UserError) as info:
        await service.vote_cancel(26, BOB, other.id)
    assert info.value.key == "button.old_game"


# --------------------------------------------------------------------------- 4. no squatting


async def test_open_lobbies_are_capped_per_user(service: GameService) -> None:
    for channel in (30, 31):
        await service.create(
            kind="desert", guild_id=GUILD, channel_id=channel, user_id=ALICE, name="A"
        )
    with pytest.raises(UserError) as info:
        await service.create(kind="desert", guild_id=GUILD, channel_id=32, user_id=ALICE, name="A")
    assert info.value.key == "lobby.too_many_lobbies"
    # Someone else may still open one, and Alice may once she starts one.
    await service.create(kind="desert", guild_id=GUILD, channel_id=32, user_id=BOB, name="B")


async def test_games_per_user_are_capped(storage: Storage) -> None:
    service = GameService(storage, all_specs(), Limits(lobbies=5, games=2))
    await started(service, 40, BOB)
    await started(service, 41, BOB)
    with pytest.raises(UserError) as info:
        await service.create(kind="desert", guild_id=GUILD, channel_id=42, user_id=BOB, name="B")
    assert info.value.key == "lobby.too_many_games"
    await service.create(kind="desert", guild_id=GUILD, channel_id=42, user_id=CAROL, name="C")
    with pytest.raises(UserError) as info:
        await service.join(42, BOB, "B")
    assert info.value.key == "lobby.too_many_games"


async def test_idle_lobbies_expire(service: GameService) -> None:
    lobby = await service.create(
        kind="desert", guild_id=GUILD, channel_id=50, user_id=ALICE, name="A"
    )
    now = datetime.now(UTC)
    assert await service.expire_idle_lobbies(now + timedelta(hours=47)) == []
    closed = await service.expire_idle_lobbies(now + timedelta(hours=49))
    assert [s.id for s in closed] == [lobby.id]
    assert await service.session_in(50) is None


# --------------------------------------------------------------------------- 8. atomic resignation


async def test_a_move_racing_a_resignation_is_before_it_or_refused(
    service: GameService, storage: Storage
) -> None:
    session = await started(service, 60, BOB, CAROL)
    seat = session.to_act[0]
    mover = session.seat(seat).user_id
    assert mover is not None
    resigner = next(u for u in (ALICE, BOB, CAROL) if u != mover)
    spec = session.spec
    move = spec.engine.format_move(bot_move(spec.engine, spec.bot, session.state, seat, 0))
    results = await asyncio.gather(
        service.play(60, mover, move), service.resign(60, resigner), return_exceptions=True
    )
    assert not isinstance(results[1], BaseException)  # a resignation is re-done on a new board
    after = await service.require_session(60)
    moves = await storage.moves(after.id)
    assert [s.user_id for s in after.record.seats if s.resigned] == [resigner]
    landed = not isinstance(results[0], BaseException)
    assert len(moves) == (1 if landed else 0)  # applied whole, or refused: never half
    if not landed:
        assert isinstance(results[0], UserError)


# --------------------------------------------------------------------------- 5. safe names


async def test_hostile_display_names_are_posted_safely(service: GameService) -> None:
    """Markdown, a masked link, a bidi override and 200 characters: stored clean,
    escaped in messages, drawn as plain letters on the board."""
    from cogs.lobby_text import lobby_lines
    from render.text import display_name

    hostile = "**Boss** [free nitro](https://evil.example) \u202eevil @everyone " + "x" * 200
    await service.create(kind="desert", guild_id=GUILD, channel_id=70, user_id=ALICE, name="A")
    lobby = await service.join(70, BOB, hostile)
    stored = lobby.record.seats[1].name
    assert len(stored) <= 32 and "\u202e" not in stored
    text = "\n".join(lobby_lines(lobby, "en"))
    assert "](" not in text and "**Boss**" not in text and "@everyone" not in text
    drawn = display_name(stored, 1, "en")
    assert "\u202e" not in drawn and len(drawn) <= 32


async def test_a_repeated_board_comes_from_the_cache(service: GameService) -> None:
    from bot.boards import Boards
    from cogs.boards import board_file

    session = await started(service, 80, BOB)
    calls = []

    class Counting:
        def board(self, view: object, names: object, lang: str, tags: object = ()) -> bytes:
            calls.append(lang)
            return b"png"

        def hand(self, view: object, names: object, lang: str) -> bytes | None:
            return None

    boards = Boards({"desert": Counting()})
    for _ in range(3):
        await board_file(boards, session, None, "en")
    await board_file(boards, session, None, "fr")
    assert calls == ["en", "fr"]  # drawn once per language, then served from the cache


async def test_a_board_asked_twice_at_once_is_drawn_once(service: GameService) -> None:
    """A turn post and a /game board at the same moment share one drawing."""
    from bot.boards import Boards
    from cogs.boards import board_file
    from games.desert.picture import DesertPicture

    session = await started(service, 81, BOB)
    calls = []

    class Counting(DesertPicture):
        def board(self, view: object, names: object, lang: str, tags: object = ()) -> bytes:
            calls.append(lang)
            return b"png"

    boards = Boards({"desert": Counting()})
    files = await asyncio.gather(*(board_file(boards, session, 0, "en") for _ in range(3)))
    assert calls == ["en"] and all(f.fp.read() == b"png" for f in files)


async def test_each_bot_has_its_own_boards(service: GameService) -> None:
    """Two bots in one process share no board table: neither pictures nor cache."""
    from bot.boards import Boards
    from cogs.boards import board_file

    session = await started(service, 82, BOB)

    class Plain:
        def __init__(self, png: bytes) -> None:
            self.png = png

        def board(self, view: object, names: object, lang: str, tags: object = ()) -> bytes:
            return self.png

        def hand(self, view: object, names: object, lang: str) -> bytes | None:
            return None

    one, two = Boards({"desert": Plain(b"one")}), Boards({"desert": Plain(b"two")})
    assert (await board_file(one, session, None, "en")).fp.read() == b"one"
    assert (await board_file(two, session, None, "en")).fp.read() == b"two"


async def test_a_step_cut_short_by_stopping_is_not_logged_as_an_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A turn post's later steps fail when the bot stops under them (its HTTP
    session closes): that is said plainly; the same failure while running is an
    ERROR with its traceback."""
    import discord

    from cogs.news import report_failure

    caplog.set_level("INFO", logger="cogs.news")
    client = discord.Client(intents=discord.Intents.none())
    for stopping in (False, True):
        if stopping:
            await client.close()
        caplog.clear()
        try:
            raise ConnectionResetError("server disconnected")
        except ConnectionResetError:
            report_failure(client, "After posting game %s's board", 7)
        (record,) = [r for r in caplog.records if r.name == "cogs.news"]
        assert record.getMessage().startswith("After posting game 7's board")
        if stopping:
            assert record.levelname == "INFO" and record.exc_info is None
        else:
            assert record.levelname == "ERROR" and record.exc_info is not None
