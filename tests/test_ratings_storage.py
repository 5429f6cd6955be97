"""Ratings in the database: written with the results, per server and game,
humans only, rebuilt from the results; the leaderboard, /stats' queries and
``python -m bot ratings rebuild``. Real databases, no mocks but one injected
failure: ``store`` is a SQLite file and a PostgreSQL database of the test's own
(``tests/pg.py``) in turn; what reaches into SQLite itself stays SQLite-only."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import closing
from pathlib import Path

import asyncpg
import pytest
from openskill.models import PlackettLuce

from bot.ratings import Rating
from bot.service import GameService
from bot.storage import (
    GameRecord,
    RatingRow,
    SqliteStorage,
    Storage,
    open_storage,
    postgres_settings,
    results_for,
)
from tests.contract import all_specs
from tests.pg import PgServer
from tests.service_games import play_as_ai, play_out

GUILD, OTHER_GUILD = 1000, 2000
BOT = None  # a bot seat in a line-up
MODEL = PlackettLuce()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture(params=["sqlite", "postgres"])
async def db_url(request: pytest.FixtureRequest, db_path: Path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{db_path}"
        return
    server: PgServer = request.getfixturevalue("pg_server")
    url = await server.create_database()
    yield url
    await server.drop_database(url)


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Storage]:
    s = await open_storage(db_url)
    yield s
    await s.close()


@pytest.fixture
async def sqlite_store(db_path: Path) -> AsyncIterator[SqliteStorage]:
    async with SqliteStorage(db_path) as s:
        yield s


async def raw_sql(url: str, *statements: str) -> None:
    """Statements straight on the database, behind the storage's back."""
    if url.startswith("postgresql://"):
        conn = await asyncpg.connect(postgres_settings(url)[0])
        try:
            for sql in statements:
                await conn.execute(sql)
        finally:
            await conn.close()
        return
    with closing(sqlite3.connect(url.removeprefix("sqlite:///"))) as raw, raw:
        for sql in statements:
            raw.execute(sql)


_channels = iter(range(1, 10_000))


async def started(
    s: Storage, players: Sequence[int | None], *, kind: str = "desert", guild: int = GUILD
) -> GameRecord:
    """A running game seated in the order given (``None``: a bot); user ``u`` is "P<u>"."""
    first = next(index for index, user in enumerate(players) if user is not None)
    joining = [first, *(index for index in range(len(players)) if index != first)]
    creator = players[first]
    assert creator is not None
    g = await s.create_game(kind, guild, next(_channels), creator, f"P{creator}", {}, 1)
    for index in joining[1:]:
        user = players[index]
        g = await s.add_seat(g.id, g.version, user, f"P{user}" if user else "Bot", user is None)
    g = await s.start_game(g.id, g.version, [joining.index(i) for i in range(len(players))], {})
    assert [seat.user_id for seat in g.seats] == list(players)
    return g


async def finish(s: Storage, g: GameRecord, ranks: Sequence[int]) -> GameRecord:
    """Finish with these ranks (per seat; 1 best); scores follow the ranks."""
    scores = [100 - rank for rank in ranks]
    winners = {seat for seat, rank in enumerate(ranks) if rank == 1}
    return await s.finish_game(g.id, g.version, {}, results_for(g.seats, scores, ranks, winners))


async def play(
    s: Storage,
    players: Sequence[int | None],
    ranks: Sequence[int],
    *,
    kind: str = "desert",
    guild: int = GUILD,
) -> GameRecord:
    return await finish(s, await started(s, players, kind=kind, guild=guild), ranks)


def reference(
    previous: dict[int, tuple[float, float]], placings: Sequence[tuple[int, int]]
) -> dict[int, tuple[float, float]]:
    """openskill itself on the same placings (seat order, ranks as stored)."""
    teams = [
        [MODEL.rating(*previous[user])] if user in previous else [MODEL.rating()]
        for user, _ in placings
    ]
    rated = MODEL.rate(teams, ranks=[float(rank) for _, rank in placings])
    return {
        user: (float(team[0].mu), float(team[0].sigma))
        for (user, _), team in zip(placings, rated, strict=True)
    }


def close_to(got: dict[int, tuple[float, float]], expected: dict[int, tuple[float, float]]) -> None:
    assert got.keys() == expected.keys()
    for user, (mu, sigma) in expected.items():
        assert got[user][0] == pytest.approx(mu, abs=1e-9), user
        assert got[user][1] == pytest.approx(sigma, abs=1e-9), user


# --------------------------------------------------------------------------- one transaction


async def test_ratings_are_written_with_the_results(store: Storage) -> None:
    g = await started(store, [1, 2])
    assert await store.ratings(GUILD, "desert") == {}
    await finish(store, g, [2, 1])
    close_to(await store.ratings(GUILD, "desert"), reference({}, [(1, 2), (2, 1)]))
    # Each way of ending a game with results rates it: a move, a resignation.
    g = await started(store, [1, 2])
    res = results_for(g.seats, [5, 9], [2, 1], {1})
    before = await store.ratings(GUILD, "desert")
    await store.record_move(g.id, g.version, 0, "last", {}, results=res)
    close_to(await store.ratings(GUILD, "desert"), reference(before, [(1, 2), (2, 1)]))
    g = await started(store, [1, 2])
    before = await store.ratings(GUILD, "desert")
    res = results_for(g.seats, [0, 0], [2, 1], {1})
    await store.resign_seat(g.id, g.version, 0, {}, res)
    close_to(await store.ratings(GUILD, "desert"), reference(before, [(1, 2), (2, 1)]))


async def test_a_failed_rating_leaves_no_results(
    store: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ratings are computed after the result rows are inserted: when that
    fails, the whole ending is rolled back (no results, the game still runs)."""
    g = await started(store, [1, 2])

    def broken(*args: object) -> None:
        raise RuntimeError("rating failed")

    monkeypatch.setattr("bot.storage.sql.rate_game", broken)
    with pytest.raises(RuntimeError, match="rating failed"):
        await finish(store, g, [1, 2])
    assert await store.get_game(g.id) == g
    assert await store.results(g.id) == [] and await store.all_ratings() == []
    monkeypatch.undo()
    await finish(store, g, [1, 2])
    assert len(await store.all_ratings()) == 2


async def test_a_failed_results_insert_leaves_the_ratings_alone(
    sqlite_store: SqliteStorage, db_path: Path
) -> None:
    """SQLite only: the failure is injected with a SQLite trigger."""
    store = sqlite_store
    await play(store, [1, 2], [1, 2])
    rated = await store.all_ratings()
    g = await started(store, [1, 2])
    with closing(sqlite3.connect(db_path)) as raw, raw:
        raw.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON results BEGIN SELECT RAISE(ABORT, 'no'); END"
        )
    with pytest.raises(sqlite3.IntegrityError):
        await finish(store, g, [2, 1])
    assert await store.all_ratings() == rated
    assert (await store.get_game(g.id)) == g
    with closing(sqlite3.connect(db_path)) as raw, raw:
        raw.execute("DROP TRIGGER refuse")
    await finish(store, g, [2, 1])
    assert await store.all_ratings() != rated


# --------------------------------------------------------------------------- against openskill

LINE_UPS = [
    pytest.param([1, 2], [1, 2], id="2 players"),
    pytest.param([1, 2], [1, 1], id="2 players, a draw"),
    pytest.param([1, 2, 3], [2, 1, 3], id="3 players"),
    pytest.param([1, 2, 3], [1, 1, 3], id="3 players, two share the win"),
    pytest.param([1, 2, 3, 4], [4, 1, 2, 2], id="4 players, a tie for 2nd"),
    pytest.param([1, 2, 3, 4], [2, 2, 2, 2], id="4 players, all tied"),
    pytest.param([1, 2, 3, 4, 5], [3, 1, 5, 1, 3], id="5 players, two ties"),
]


@pytest.mark.parametrize(("players", "ranks"), LINE_UPS)
async def test_ratings_match_openskill(
    store: Storage, players: list[int], ranks: list[int]
) -> None:
    placings = list(zip(players, ranks, strict=True))
    await play(store, players, ranks)
    expected = reference({}, placings)
    close_to(await store.ratings(GUILD, "desert"), expected)
    # A second game starts from the stored ratings: reversed order this time.
    flipped = [len(players) + 1 - rank for rank in ranks]
    await play(store, players, flipped)
    expected = reference(expected, list(zip(players, flipped, strict=True)))
    close_to(await store.ratings(GUILD, "desert"), expected)


# --------------------------------------------------------------------------- who counts


async def test_bot_seats_never_move_human_ratings(store: Storage) -> None:
    await play(store, [1, BOT, BOT], [3, 1, 2])  # a human alone against bots
    await play(store, [2, BOT], [1, 2])
    assert await store.all_ratings() == []
    # Two humans and a bot: the humans are rated by their order, whatever the bot did.
    await play(store, [1, BOT, 2], [3, 1, 2])
    expected = reference({}, [(2, 1), (1, 2)])
    close_to(await store.ratings(GUILD, "desert"), expected)
    await play(store, [BOT, 1, 2], [2, 1, 3])  # the bot between them changes nothing
    expected = reference(expected, [(1, 1), (2, 2)])
    close_to(await store.ratings(GUILD, "desert"), expected)
    assert {row.user_id for row in await store.all_ratings()} == {1, 2}


async def test_cancelled_games_never_count(store: Storage) -> None:
    g = await started(store, [1, 2])
    await store.cancel_game(g.id, g.version)
    g = await started(store, [1, 2, 3])
    await store.resign_seat(g.id, g.version, 0, {}, cancel=True)
    lobby = await store.create_game("desert", GUILD, next(_channels), 1, "P1", {}, 1)
    await store.cancel_game(lobby.id, lobby.version)
    assert await store.all_ratings() == []
    assert await store.leaderboard(GUILD, "desert") == []
    assert await store.rebuild_ratings() == 0 and await store.all_ratings() == []


async def test_ratings_are_per_server_and_per_game(store: Storage) -> None:
    await play(store, [1, 2], [1, 2])
    await play(store, [1, 2], [2, 1], kind="nomadi")
    await play(store, [1, 2], [2, 1], guild=OTHER_GUILD)
    won, lost = reference({}, [(1, 1), (2, 2)]), reference({}, [(1, 2), (2, 1)])
    close_to(await store.ratings(GUILD, "desert"), won)
    close_to(await store.ratings(GUILD, "nomadi"), lost)
    close_to(await store.ratings(OTHER_GUILD, "desert"), lost)
    assert await store.ratings(OTHER_GUILD, "nomadi") == {}
    await play(store, [1, 2], [1, 2])  # only this server's desert moves
    close_to(await store.ratings(GUILD, "desert"), reference(won, [(1, 1), (2, 2)]))
    close_to(await store.ratings(GUILD, "nomadi"), lost)
    close_to(await store.ratings(OTHER_GUILD, "desert"), lost)
    assert {(r.guild_id, r.kind) for r in await store.all_ratings()} == {
        (GUILD, "desert"),
        (GUILD, "nomadi"),
        (OTHER_GUILD, "desert"),
    }


async def test_a_player_who_resigns_is_rated_last(db_url: str) -> None:
    """Through the real service and the test game: Carol resigns, the AI plays
    her seat to the end, and she is rated as last whatever her seat scored."""
    alice, bob, carol, channel = 1, 2, 3, 77
    async with await open_storage(db_url) as storage:
        service = GameService(storage, all_specs())
        await service.create(
            kind="nim", guild_id=GUILD, channel_id=channel, user_id=alice, name="Alice"
        )
        await service.join(channel, bob, "Bob")
        await service.join(channel, carol, "Carol")
        session = (await service.start(channel, alice)).after
        for user in (alice, bob, carol):  # everyone keeps their card: a whole round
            session = (await service.play(channel, user, "keep")).after
        session = (await service.resign(channel, carol)).after
        session = await play_out(service, session, channel)
        assert session.record.status == "finished"
        results = await storage.results(session.id)
        by_user = {r.user_id: r.rank for r in results}
        assert by_user[carol] == 3 and sorted(by_user.values()) in ([1, 2, 3], [1, 1, 3])
        expected = reference({}, [(r.user_id, r.rank) for r in results if r.user_id])
        ratings = await storage.ratings(GUILD, "nim")
        close_to(ratings, expected)
        ordinals = {user: Rating(*ratings[user]).ordinal for user in ratings}
        assert min(ordinals, key=lambda user: ordinals[user]) == carol


async def test_a_player_the_ai_replaced_for_most_of_the_game_is_not_rated(db_url: str) -> None:
    """Through the real service and Through the Desert: Carol plays her first
    turn and resigns, the AI plays her seat to the end. She ranks last, but
    under a quarter of her seat's turns were hers: only Alice and Bob are
    rated, and a rebuild folds the stored games to the same ratings."""
    alice, bob, carol, channel = 1, 2, 3, 78
    async with await open_storage(db_url) as storage:
        service = GameService(storage, all_specs())
        await service.set_takeover_level(GUILD, "easy")  # Carol's seat played at once
        await service.create(
            kind="desert", guild_id=GUILD, channel_id=channel, user_id=alice, name="Alice"
        )
        await service.join(channel, bob, "Bob")
        await service.join(channel, carol, "Carol")
        session = (await service.start(channel, alice, first=2)).after  # Carol first
        session = (await play_as_ai(service, session, channel=channel)).after
        session = (await service.resign(channel, carol)).after
        session = await play_out(service, session, channel)
        assert session.record.status == "finished"
        ranks = {r.user_id: r.rank for r in await storage.results(session.id)}
        assert ranks[carol] == 3
        assert set(await storage.ratings(GUILD, "desert")) == {alice, bob}
        before = await storage.all_ratings()
        await storage.rebuild_ratings()
        assert await storage.all_ratings() == before


# --------------------------------------------------------------------------- rebuilding


async def mixed_history(s: Storage) -> int:
    """~15 finished games of every shape, some cancelled or unfinished; returns how
    many games rate somebody (two humans or more)."""
    await play(s, [1, 2], [1, 2])
    await play(s, [1, 2, 3], [2, 1, 3])
    await play(s, [1, BOT, 2, 3], [1, 2, 2, 4])
    await play(s, [4, BOT], [2, 1])  # against a bot only: nobody rated
    await play(s, [2, 3, 4, 5], [1, 1, 3, 4])
    await play(s, [1, 2], [2, 2])
    await play(s, [1, 2, 3, 4, 5], [5, 4, 3, 2, 1], kind="nomadi")
    await play(s, [3, 1], [1, 2], kind="nomadi")
    await play(s, [1, 2, 3], [1, 2, 3], guild=OTHER_GUILD)
    # Two games running at once, finished in the other order than they began.
    first = await started(s, [1, 2, 3], kind="oasis")
    second = await started(s, [3, 2, BOT], kind="oasis")
    await finish(s, second, [1, 3, 2])
    await finish(s, first, [3, 1, 2])
    await play(s, [5, 4, 3], [1, 3, 2], kind="oasis")
    g = await started(s, [1, 4, 5])  # 4 resigns; the game goes on and ends
    g = await s.resign_seat(g.id, g.version, 1, {})
    await finish(s, g, [1, 3, 2])
    g = await started(s, [2, 5])
    await s.cancel_game(g.id, g.version)  # cancelled: never counts
    await started(s, [1, 3])  # unfinished: never counts
    await play(s, [2, 1], [1, 2], guild=OTHER_GUILD, kind="sahwari")
    await play(s, [1, 2, 3, 4], [4, 3, 2, 1])
    return 14


async def test_rebuild_reproduces_the_stored_ratings_exactly(store: Storage, db_url: str) -> None:
    rated = await mixed_history(store)
    before = await store.all_ratings()
    assert len(before) == 20
    assert await store.rebuild_ratings() == rated
    assert await store.all_ratings() == before  # exactly: same floats
    # A damaged ratings table comes back the same way.
    await raw_sql(
        db_url,
        "DELETE FROM ratings WHERE user_id = 1",
        "UPDATE ratings SET mu = 99, sigma = 1 WHERE user_id = 2",
        "INSERT INTO ratings VALUES (3000, 'desert', 9, 1, 1)",
    )
    assert await store.all_ratings() != before
    assert await store.rebuild_ratings() == rated
    assert await store.all_ratings() == before


# --------------------------------------------------------------------------- reading them


async def test_the_leaderboard_is_ordered_by_rating(store: Storage) -> None:
    await play(store, [1, 2, 3], [1, 2, 3])
    await play(store, [1, 2, 3], [2, 1, 3])
    await play(store, [3, 4], [1, 2])
    await play(store, [2, 4, 1], [1, 3, 2])
    await play(store, [5, BOT], [1, 2])  # 5 only ever met a bot: unrated, listed last
    await play(store, [1, 2], [2, 1], kind="nomadi")  # another game: not in this board
    board = await store.leaderboard(GUILD, "desert")
    ratings = await store.ratings(GUILD, "desert")
    rated = sorted(ratings, key=lambda user: -Rating(*ratings[user]).ordinal)
    assert [row.user_id for row in board] == [*rated, 5]
    ordinals = [Rating(r.mu, r.sigma).ordinal for r in board if r.mu is not None and r.sigma]
    assert ordinals == sorted(ordinals, reverse=True)
    rows = {row.user_id: row for row in board}
    assert (rows[5].mu, rows[5].sigma, rows[5].games, rows[5].wins) == (None, None, 1, 1)
    assert rows[1].placement == pytest.approx((1 + 2 + 2) / 3)
    assert rows[2].placement == pytest.approx((2 + 1 + 1) / 3)
    assert rows[3].placement == pytest.approx((3 + 3 + 1) / 3)
    assert rows[4].placement == pytest.approx((2 + 3) / 2)
    assert (rows[2].games, rows[2].wins) == (3, 2)
    assert (rows[1].mu, rows[1].sigma) == ratings[1]
    assert [r.user_id for r in await store.leaderboard(GUILD, "desert", limit=2)] == rated[:2]


async def test_player_records_and_games(store: Storage) -> None:
    first = await play(store, [1, 2], [1, 2])
    await play(store, [1, BOT, 2, 3], [2, 1, 3, 4], kind="nomadi")
    g = await started(store, [1, 2])
    await store.cancel_game(g.id, g.version)  # not a finished game
    await play(store, [2, 1], [1, 1], guild=OTHER_GUILD)  # another server
    last = await play(store, [3, 1], [1, 2])
    await play(store, [1, BOT], [2, 1], kind="oasis")  # bots only: played, unrated

    records = dict(await store.player_records(GUILD, 1))
    assert set(records) == {"desert", "nomadi", "oasis"}
    desert = records["desert"]
    assert (desert.games, desert.wins, desert.placement, desert.points) == (2, 1, 1.5, 197)
    assert desert.win_rate == pytest.approx(0.5)
    assert (desert.mu, desert.sigma) == (await store.ratings(GUILD, "desert"))[1]
    assert (records["nomadi"].games, records["nomadi"].wins, records["nomadi"].placement) == (
        1,
        0,
        2.0,
    )
    assert records["oasis"].mu is None and records["oasis"].sigma is None
    assert await store.player_records(GUILD, 99) == []

    games = await store.player_games(GUILD, 1)
    assert [(p.kind, p.rank, p.players, p.won) for p in games] == [
        ("oasis", 2, 2, False),
        ("desert", 2, 2, False),
        ("nomadi", 2, 4, False),
        ("desert", 1, 2, True),
    ]
    assert games[1].game_id == last.id and games[1].channel_id == last.channel_id
    assert games[3].game_id == first.id and games[3].score == 99
    assert games[1].finished_at == last.finished_at
    assert [p.game_id for p in await store.player_games(GUILD, 1, limit=2)] == [
        p.game_id for p in games[:2]
    ]
    assert [p.won for p in await store.player_games(OTHER_GUILD, 1)] == [True]
    assert await store.player_games(GUILD, 99) == []


# --------------------------------------------------------------------------- the command


def run(args: list[str], database_url: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    keep = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCORD_", "DATABASE_URL", "LOG_LEVEL", "CARAVANSERAI_"))
    }
    env = {**keep, "CARAVANSERAI_ENV_FILE": os.devnull, "DATABASE_URL": database_url}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


async def test_the_rebuild_command(tmp_path: Path) -> None:
    live = tmp_path / "data" / "games.db"
    async with SqliteStorage(live) as s:
        rated = await mixed_history(s)
        before: list[RatingRow] = await s.all_ratings()
        players = len({row.user_id for row in before})
        with closing(sqlite3.connect(live)) as raw, raw:
            raw.execute("UPDATE ratings SET mu = 1")
        done = run(["ratings", "rebuild"], "sqlite:///data/games.db", tmp_path)  # bot running
        assert done.returncode == 0, done.stderr
        assert done.stdout == f"Rebuilt ratings from {rated} finished games ({players} players).\n"
        assert done.stderr == ""
        assert await s.all_ratings() == before


def test_the_rebuild_command_refuses_in_one_line(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/missing.db"
    cases = [
        (["ratings"], url, "ratings needs one word, rebuild; usage: python -m bot"),
        (["ratings", "wipe"], url, "ratings needs one word, rebuild"),
        (["ratings", "rebuild", "now"], url, "ratings needs one word, rebuild"),
        (["ratings", "rebuild"], "sqlite://", "keeps games in memory"),
        (["ratings", "rebuild"], "mysql://user:secret@host/db", "DATABASE_URL: unsupported"),
        (["ratings", "rebuild"], url, "there is no database at"),
    ]
    for args, database_url, expected in cases:
        result = run(args, database_url, tmp_path)
        assert result.returncode == 2, (args, result.stderr)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and expected in lines[0], result.stderr
        assert "secret" not in result.stderr and result.stdout == ""
    assert os.listdir(tmp_path) == []  # nothing created
    # A server that cannot be reached: one line, and 1 (worth a retry), as migrate says.
    unreachable = run(["ratings", "rebuild"], "postgresql://bot:secret@127.0.0.1:9/db", tmp_path)
    assert unreachable.returncode == 1, unreachable.stderr
    assert len(unreachable.stderr.strip().splitlines()) == 1, unreachable.stderr
    assert "secret" not in unreachable.stderr
    helped = run(["ratings", "--help"], url, tmp_path)
    assert helped.returncode == 0 and "ratings rebuild" in helped.stdout
    usage = run(["--help"], url, tmp_path)
    assert usage.returncode == 0 and "ratings rebuild" in usage.stdout
