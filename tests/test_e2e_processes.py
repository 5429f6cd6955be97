"""End to end: two bot processes on one PostgreSQL database, never a move, a
reminder or a bot turn lost or doubled.

The real bot (``python -m bot``, twice) runs against the loopback Discord and a
real PostgreSQL server (``tests/pg.py``), with its clock watcher looking every
half second. Two layouts:

* a rolling deploy: both processes serve the same shard (the old one and the
  new one side by side); the gateway gives each event to both and each
  interaction to one, and the test picks which (``session=``) to race them;
* two shards, two processes: each process runs one shard and must do the work
  of its own guilds, and only that.

Races are made, not hoped for. Two processes acting "at once" usually still
write a few milliseconds apart, so where it matters the test holds the game's
row (``SELECT … FOR UPDATE``, as a slow database would) until both processes
wait to write it, then lets go: both have read the same version, and only the
database's guard can keep the second from landing too. To show that a
process leaves another shard's work alone, the owner of that shard is frozen
(SIGSTOP) while the work falls due.

Time passes as in ``test_e2e_clocks_takeover_undo``: the test moves
``turn_since`` and ``clock_due`` into the past (SQL, in the bot's own format)
instead of waiting.
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
import signal
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg
import pytest
import pytest_asyncio

from bot.storage import open_storage
from games.desert import GAME
from tests.e2e import BotProcess, first_moves_command, stamp, start_together, text_of, until
from tests.fakediscord import FakeDiscord, Session
from tests.pg import PgServer

pytestmark = pytest.mark.asyncio(loop_scope="module")

CHECK_SECONDS = 0.5
ENV = {"CLOCK_CHECK_SECONDS": str(CHECK_SECONDS), "CPU_WORKERS": "1"}
QUIET = 4 * CHECK_SECONDS  # several looks of every clock watcher
STALE = "The board changed while you were typing"
NOT_YOUR_TURN = "It is not your turn"
HALF = "half your time has gone"
TIME_UP = "your time is up"
TURN_LINE = re.compile(r"^\*\*(.+?)\*\*: ", re.MULTILINE)


# --------------------------------------------------------------------------- the database


class Db:
    """The test's own look at the bots' PostgreSQL database."""

    def __init__(self, url: str, conn: Any) -> None:
        self.url = url
        self.conn = conn

    @classmethod
    async def connect(cls, url: str) -> Db:
        return cls(url, await asyncpg.connect(url))

    async def close(self) -> None:
        await self.conn.close()

    async def game(self, game_id: int) -> dict[str, Any]:
        return dict(await self.conn.fetchrow("SELECT * FROM games WHERE id = $1", game_id))

    async def game_in(self, channel: Any) -> int:
        return int(
            await self.conn.fetchval(
                "SELECT id FROM games WHERE channel_id = $1 ORDER BY id DESC LIMIT 1", channel.id
            )
        )

    async def seats(self, game_id: int) -> list[dict[str, Any]]:
        rows = await self.conn.fetch(
            "SELECT * FROM seats WHERE game_id = $1 ORDER BY seat", game_id
        )
        return [dict(r) for r in rows]

    async def seat_of(self, game_id: int, user: Any) -> int:
        return int(next(s["seat"] for s in await self.seats(game_id) if s["user_id"] == user.id))

    async def moves(self, game_id: int) -> list[dict[str, Any]]:
        rows = await self.conn.fetch(
            "SELECT ply, seat, notation, version, by_ai FROM moves WHERE game_id = $1 ORDER BY ply",
            game_id,
        )
        return [dict(r) for r in rows]

    async def state(self, game_id: int) -> Any:
        return GAME.load(json.loads((await self.game(game_id))["state"]))

    async def to_act(self, game_id: int) -> tuple[int, ...]:
        return tuple(GAME.to_act(await self.state(game_id)))

    async def pass_time(
        self, game_id: int, spent: timedelta, due_in: timedelta = timedelta(seconds=-1)
    ) -> None:
        """Simulate ``spent`` going by since the wait began; the watchers must look
        ``due_in`` from now (a moment ago by default)."""
        now = datetime.now(UTC)
        await self.conn.execute(
            "UPDATE games SET turn_since = $1, clock_due = $2 WHERE id = $3",
            stamp(now - spent),
            stamp(now + due_in),
            game_id,
        )


class HeldRow:
    """The test's transaction holding a game's row: writers of that row wait."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def waiting(self) -> int:
        """How many other connections to the database wait for a lock: for this
        one's row, directly or queued behind another waiter (the bots' writes)."""
        # Statistics views are read once per transaction unless the snapshot is dropped.
        await self.conn.execute("SELECT pg_stat_clear_snapshot()")
        return int(
            await self.conn.fetchval(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'"
            )
        )

    async def until_waiting(self, count: int, timeout: float = 10) -> None:
        deadline = asyncio.get_running_loop().time() + timeout
        while (now := await self.waiting()) < count:
            assert asyncio.get_running_loop().time() < deadline, (
                f"{now} of {count} writers came to wait for the game's row"
            )
            await asyncio.sleep(0.02)


@asynccontextmanager
async def row_held(url: str, game_id: int) -> AsyncIterator[HeldRow]:
    """Hold the game's row (as a slow transaction would) until the block ends."""
    conn = await asyncpg.connect(url)
    try:
        transaction = conn.transaction()
        await transaction.start()
        try:
            await conn.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game_id)
            yield HeldRow(conn)
        finally:
            await transaction.rollback()
    finally:
        await conn.close()


# --------------------------------------------------------------------------- helpers


async def board_post_is(db: Db, game_id: int, message_id: int) -> bool:
    """Whether the bot noted ``message_id`` as the game's board post (reminders link it)."""
    return bool((await db.game(game_id))["board_message_id"] == message_id)


def posts_after(fake: FakeDiscord, channel: Any, after: Any) -> list[Any]:
    """The public messages in ``channel`` newer than ``after``."""
    return [m for m in fake.messages(channel) if m.id > after.id and not m.ephemeral]


@contextmanager
def logs_on_failure(*bots: BotProcess) -> Iterator[None]:
    try:
        yield
    except BaseException:
        for bot in bots:
            lines = [line for line in bot.log_text().splitlines() if " DEBUG " not in line]
            tail = "\n".join(lines)[-6000:]
            print(f"---- {bot.workdir.name}: {bot.log} (DEBUG lines left out)\n{tail}")
        raise


async def connected(*bots: BotProcess, offsets: list[int] | None = None) -> None:
    """Until each process is ready (its on_ready ran: "Connected as" in its log,
    past ``offsets`` in it)."""
    since = offsets or [0] * len(bots)
    await until(
        lambda: all("Connected as" in b.log_text()[o:] for b, o in zip(bots, since, strict=True)),
        what="the processes' on_ready",
    )


@contextmanager
def frozen(bot: BotProcess) -> Iterator[None]:
    """The process stopped (SIGSTOP) for the block: it neither reads nor writes."""
    assert bot.process is not None
    bot.process.send_signal(signal.SIGSTOP)
    try:
        yield
    finally:
        if bot.process is not None and bot.process.returncode is None:
            bot.process.send_signal(signal.SIGCONT)


def assert_clean(*bots: BotProcess) -> None:
    """No traceback and no ERROR in the processes' logs."""
    for bot in bots:
        for line in bot.log_text().splitlines():
            assert "Traceback" not in line and " ERROR " not in line, (
                f"{bot.workdir.name}: {line}\n" + bot.log_text()[-3000:]
            )


async def posted_up_to_date(db: Db, game_id: int, timeout: float = 20) -> None:
    """Wait until every saved move of the game is posted (nothing left to announce)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        game = await db.game(game_id)
        if game["posted_version"] >= game["version"]:
            return
        assert asyncio.get_running_loop().time() < deadline, "a turn was never marked posted"
        await asyncio.sleep(0.05)


async def stop_all(*bots: BotProcess) -> None:
    """SIGTERM, a clean exit each."""
    codes = await asyncio.gather(*(b.stop() for b in bots))
    assert codes == [0] * len(bots), [b.log_text()[-2000:] for b in bots]


async def kill_all(*bots: BotProcess) -> None:
    """Whatever state they are in: no process left behind."""
    for bot in bots:
        bot.kill()
    for bot in bots:
        if bot.process is not None:
            await asyncio.wait_for(bot.process.wait(), 30)
            bot.process = None


async def public(fake: FakeDiscord, user: Any, channel: Any, command: str, **options: Any) -> Any:
    """A command that must succeed publicly within Discord's 3 s; the interaction."""
    it = await fake.slash(user, channel, command, options)
    message = await it.final(timeout=20)
    assert it.ack_latency is not None and it.ack_latency < 3, f"{command}: {it.ack_latency}"
    assert not it.ephemeral, f"{command} answered privately: {text_of(message)}"
    return it


async def open_game(
    fake: FakeDiscord,
    db: Db,
    channel: Any,
    players: list[Any],
    first: int = 1,
    **options: Any,
) -> tuple[Any, int, Any, list[Any]]:
    """``players[0]`` opens a Desert game (a thread), the others join, lobby seat
    ``first`` (1-based) starts. Returns the thread, the game id, the start post
    and the interactions it took."""
    creator = players[0]
    opened = await public(fake, creator, channel, "game new", game="desert", **options)
    thread = await thread_opened_in(fake, opened.message)
    await fake.wait_for_message(thread, lambda m: bool(m.custom_ids()), timeout=20)
    its = [opened]
    for player in players[1:]:
        its.append(await public(fake, player, thread, "game join"))
    started = await public(fake, creator, thread, "game start", first=str(first))
    its.append(started)
    return thread, await db.game_in(thread), started.answer, its


async def thread_opened_in(fake: FakeDiscord, starter: Any) -> Any:
    """The game thread the bot opens from its line in the channel."""
    await until(lambda: fake.thread_of(starter) is not None, what="the game's thread")
    return fake.thread_of(starter)


async def command_for(db: Db, game_id: int, user: Any) -> str:
    """A whole turn for ``user`` as one ``/desert move`` command: the leader of the
    rider phase, or as many camels as the turn allows (each legal in turn)."""
    state = await db.state(game_id)
    seat = await db.seat_of(game_id, user)
    assert GAME.to_act(state) == (seat,), f"not {user.username}'s turn"
    return first_moves_command(state, seat)


async def play_turn(fake: FakeDiscord, db: Db, thread: Any, game_id: int, user: Any) -> Any:
    """``user``'s whole turn, publicly; the interaction (its message: the turn post)."""
    command = await command_for(db, game_id, user)
    return await public(fake, user, thread, "desert move", notation=command)


# --------------------------------------------------------------------------- 1: a rolling deploy


@dataclass
class Rolling:
    """Two processes on the same shard and one PostgreSQL database."""

    fake: FakeDiscord
    db: Db
    a: BotProcess
    b: BotProcess
    alice: Any
    bob: Any
    guild: Any
    channel: Any

    @property
    def bots(self) -> tuple[BotProcess, BotProcess]:
        return self.a, self.b

    def sessions(self) -> list[Session]:
        """The two connected sessions holding the guild: one per process."""
        found = self.fake.gateway.sessions_for(self.guild.id)
        assert len(found) == 2, [s.describe() for s in found]
        return found


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def rolling(
    pg_server: PgServer, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Rolling]:
    url = await pg_server.create_database()
    folder = tmp_path_factory.mktemp("rolling")
    fake = await FakeDiscord().start()
    alice = fake.add_user("alice")
    bob = fake.add_user("bob")
    guild = fake.add_guild("Caravan", alice)
    fake.add_member(guild, bob)
    channel = fake.add_channel(guild, "desert")
    # Neither sets SHARD_COUNT: both follow /gateway/bot (1 shard) and run all of it.
    a = BotProcess(fake, folder / "a", guild.id, ENV, database_url=url)
    b = BotProcess(fake, folder / "b", guild.id, ENV, database_url=url)
    db = await Db.connect(url)
    try:
        with logs_on_failure(a, b):
            await start_together(a, b)
        yield Rolling(fake, db, a, b, alice, bob, guild, channel)
        if a.process is not None and b.process is not None:
            await stop_all(a, b)
    finally:
        await kill_all(a, b)
        await db.close()
        await fake.stop()
        await pg_server.drop_database(url)


async def race_a_turn(w: Rolling, thread: Any, game_id: int, user: Any, *, held: bool) -> None:
    """``user`` sends the same whole turn through both processes at once: it lands
    once, publicly; the other process refuses it privately. ``held``: both
    processes are made to write at the same moment."""
    fake, db = w.fake, w.db
    first, second = w.sessions()
    command = await command_for(db, game_id, user)
    seat = await db.seat_of(game_id, user)
    version = (await db.game(game_id))["version"]
    moves = await db.moves(game_id)
    last = fake.messages(thread)[-1]

    def send(session: Session) -> Any:
        return fake.slash(user, thread, "desert move", {"notation": command}, session=session)

    if held:
        async with row_held(db.url, game_id) as row:
            its = await asyncio.gather(send(first), send(second))
            await row.until_waiting(2)  # both read version `version` and wait to write
    else:
        its = await asyncio.gather(send(first), send(second))
    await asyncio.gather(*(it.final(timeout=20) for it in its))

    assert {it.session_id for it in its} == {first.id, second.id}  # one through each
    for it in its:
        assert it.ack_latency is not None and it.ack_latency < 3, it.ack_latency
    landed = [it for it in its if not it.ephemeral]
    refused = [it for it in its if it.ephemeral]
    assert len(landed) == 1 and len(refused) == 1, [text_of(it.answer) for it in its]
    text = text_of(refused[0].answer)
    assert (STALE in text) if held else (STALE in text or NOT_YOUR_TURN in text), text
    # Once in the database: one version, one row in the move log.
    assert (await db.game(game_id))["version"] == version + 1
    new = (await db.moves(game_id))[len(moves) :]
    assert [(m["seat"], m["notation"], m["version"]) for m in new] == [(seat, command, version + 1)]
    # Once in the thread: the winner's turn post, nothing else.
    assert [m.id for m in posts_after(fake, thread, last)] == [landed[0].answer.id]


async def test_a_move_sent_through_both_processes_lands_once(rolling: Rolling) -> None:
    """Alice's turn goes through both processes at once, then Bob's with both
    processes writing at the same moment: each lands once, one post each."""
    w = rolling
    with logs_on_failure(*w.bots):
        thread, game_id, started, _ = await open_game(
            w.fake, w.db, w.channel, [w.alice, w.bob], first=1
        )
        assert f"<@{w.alice.id}>" in text_of(started)
        await race_a_turn(w, thread, game_id, w.alice, held=False)
        await race_a_turn(w, thread, game_id, w.bob, held=True)
        # And the game goes on normally.
        played = await play_turn(w.fake, w.db, thread, game_id, w.alice)
        assert f"<@{w.bob.id}>" in text_of(played.answer)
        assert_clean(*w.bots)


async def test_a_due_clock_is_said_once(rolling: Rolling) -> None:
    """Both processes watch every clock. Half of Alice's hour goes by while both
    look, and both try to claim it at the same moment: one reminder. Then her
    time runs out: one takeover vote."""
    w = rolling
    fake, db = w.fake, w.db
    with logs_on_failure(*w.bots):
        thread, game_id, started, _ = await open_game(
            fake, db, w.channel, [w.alice, w.bob], first=1, clock="fast"
        )
        assert f"<@{w.alice.id}>" in text_of(started)
        await until(
            lambda: board_post_is(db, game_id, started.id), what="the start post's id to be noted"
        )
        assert (await db.game(game_id))["clock_stage"] == 0
        last = fake.messages(thread)[-1]

        # Half-time, due in a moment; the row is held from before it is due, so
        # both watchers find it due and wait to claim it together.
        await db.pass_time(game_id, timedelta(minutes=31), due_in=timedelta(seconds=1))
        async with row_held(db.url, game_id) as row:
            await row.until_waiting(2)
        said = await fake.wait_for_message(thread, lambda m: HALF in text_of(m), 10, after=last)
        assert f"<@{w.alice.id}>" in text_of(said)
        await asyncio.sleep(QUIET)
        assert [m.id for m in posts_after(fake, thread, last)] == [said.id]
        row_now = await db.game(game_id)
        assert row_now["clock_stage"] == 1, row_now
        due = datetime.fromisoformat(row_now["clock_due"])
        assert timedelta(minutes=25) < due - datetime.now(UTC) < timedelta(minutes=30)

        # Her hour is gone: the vote is asked once (no held row: as it comes).
        await db.pass_time(game_id, timedelta(minutes=61))
        vote = await fake.wait_for_message(thread, lambda m: TIME_UP in text_of(m), 10, after=said)
        assert any(c.startswith("takeover:") for c in vote.custom_ids())
        await asyncio.sleep(QUIET)
        assert [m.id for m in posts_after(fake, thread, said)] == [vote.id]
        assert (await db.game(game_id))["clock_stage"] == 2
        assert_clean(*w.bots)


async def test_bot_seats_due_at_start_up_move_once(rolling: Rolling) -> None:
    """Both processes stopped while a player was to move; his seat is handed to
    the AI (as a decided takeover vote does) and both start at the same moment,
    the game's row held until both have looked at it: one process plays the AI
    seats (his and the bot seats after it), each ply once, in one post, then the
    game waits for the other player."""
    w = rolling
    fake, db = w.fake, w.db
    with logs_on_failure(*w.bots):
        thread, game_id, _, _ = await open_game(
            fake, db, w.channel, [w.alice, w.bob], first=1, bots=3
        )
        seats = await db.seats(game_id)
        humans = {s["seat"]: u for s in seats for u in (w.alice, w.bob) if s["user_id"] == u.id}

        def bots_after(seat: int) -> int:
            count = 0
            while seats[(seat + count + 1) % len(seats)]["is_bot"]:
                count += 1
            return count

        # The player followed by more bot seats goes away: the longer chain of AI turns.
        away_seat = max(humans, key=bots_after)
        (waiting_seat,) = set(humans) - {away_seat}
        waiting = humans[waiting_seat]
        for _ in range(20):
            (seat,) = await db.to_act(game_id)
            if seat == away_seat:
                break
            await play_turn(fake, db, thread, game_id, humans[seat])
        else:
            raise AssertionError("the turn of the player to replace never came")
        # The last human turn is posted and marked so before the stop: what the
        # restart posts is then the AI's turns alone (a turn caught between its
        # post and its mark would be told again, by design, in the late post).
        await posted_up_to_date(db, game_id)
        await stop_all(*w.bots)

        # What a decided takeover vote writes: the seat is the AI's.
        storage = await open_storage(db.url)
        try:
            version = (await db.game(game_id))["version"]
            await storage.replace_seat(game_id, version, away_seat, "away")
        finally:
            await storage.close()
        moves = await db.moves(game_id)
        last = fake.messages(thread)[-1]
        offsets = [len(b.log_text()) for b in w.bots]

        # Both start with the game's row held: whoever plays the AI seats is stopped
        # at its first ply, so the other surely looks at the game meanwhile.
        async with row_held(db.url, game_id) as row:
            await start_together(*w.bots)
            await connected(*w.bots, offsets=offsets)
            await row.until_waiting(1)
            await asyncio.sleep(QUIET)  # the other one's look at the game (a few ms)
            assert await row.waiting() == 1, "both processes play the game's AI seats"
        post = await fake.wait_for_message(
            thread, lambda m: f"<@{waiting.id}>" in text_of(m), 20, after=last
        )
        await asyncio.sleep(QUIET)

        assert await db.to_act(game_id) == (waiting_seat,)
        new = (await db.moves(game_id))[len(moves) :]
        assert len(new) > bots_after(away_seat) and all(m["by_ai"] for m in new), new
        assert new[0]["seat"] == away_seat
        # Each ply once: consecutive plies, each one version on from the last.
        first_ply = (moves[-1]["ply"] if moves else 0) + 1
        assert [m["ply"] for m in new] == list(range(first_ply, first_ply + len(new)))
        versions = [m["version"] for m in new]
        assert versions == list(range(versions[0], versions[0] + len(new))), versions
        assert versions[-1] == (await db.game(game_id))["version"]
        # One post, one line per AI turn (a turn: a seat's consecutive plies), in order.
        assert [m.id for m in posts_after(fake, thread, last)] == [post.id]
        names = {s["seat"]: s["display_name"] for s in seats}
        turns = [m["seat"] for i, m in enumerate(new) if i == 0 or new[i - 1]["seat"] != m["seat"]]
        shown = TURN_LINE.findall(text_of(post))
        assert len(shown) == len(turns), (turns, text_of(post))
        for line, seat in zip(shown, turns, strict=True):
            assert names[seat] in line, (line, names[seat], text_of(post))
        assert await db.conn.fetchval("SELECT count(*) FROM leases WHERE name LIKE 'ai:%'") == 0
        assert_clean(*w.bots)


# --------------------------------------------------------------------------- 2: two shards


def posted_to(channel: Any) -> str:
    """A message posted through the channel (not an interaction's webhook), as
    discord.py logs the request at DEBUG: "POST <url> with <body> has returned 200"."""
    return rf"POST \S+/channels/{channel.id}/messages with [^\n]* has returned 200"


async def test_two_shards_each_process_serves_its_own_guild(
    pg_server: PgServer, tmp_path: Path
) -> None:
    """SHARD_COUNT=2: process A runs shard 0, B shard 1, one guild on each. Each
    guild's commands reach its own process, and its due clock is said once, by
    its own process (seen in each process's HTTP log)."""
    url = await pg_server.create_database()
    fake = await FakeDiscord(shards=2).start()
    alice = fake.add_user("alice")
    bob = fake.add_user("bob")
    guilds = [fake.add_guild(f"Caravan {n}", alice, shard=(n, 2)) for n in (0, 1)]
    channels = []
    for guild in guilds:
        fake.add_member(guild, bob)
        channels.append(fake.add_channel(guild, "desert"))
    ids = ",".join(str(g.id) for g in guilds)
    # discord.py's HTTP log (method, URL, status) tells which process posted what.
    env = {**ENV, "SHARD_COUNT": "2", "LOG_LEVEL": "DEBUG", "DISCORD_DEBUG_PAYLOADS": "1"}
    bots = [
        BotProcess(fake, tmp_path / name, ids, {**env, "SHARD_IDS": str(n)}, database_url=url)
        for n, name in enumerate(("a", "b"))
    ]
    db = await Db.connect(url)
    try:
        with logs_on_failure(*bots):
            sessions = await start_together(*bots)
            owner = {s.shard: s for s in sessions}
            assert set(owner) == {(0, 2), (1, 2)}, [s.describe() for s in sessions]
            await connected(*bots)
            for bot in bots:
                assert "in 1 server(s)" in bot.log_text()  # only its own shard's guild

            games = []
            for n, channel in enumerate(channels):
                thread, game_id, started, its = await open_game(
                    fake, db, channel, [alice, bob], first=1, clock="fast"
                )
                played = await play_turn(fake, db, thread, game_id, alice)  # Bob to move
                its.append(played)
                post = played.answer
                assert {it.session_id for it in its} == {owner[(n, 2)].id}
                noted = functools.partial(board_post_is, db, game_id, post.id)
                await until(noted, what="the turn post's id to be noted")
                games.append((thread, game_id, post))

            offsets = [len(b.log_text()) for b in bots]
            (thread0, game0, post0), (thread1, game1, post1) = games
            # A is frozen: B says guild 1's reminder and leaves guild 0's clock alone.
            with frozen(bots[0]):
                for _, game_id, _ in games:
                    await db.pass_time(game_id, timedelta(minutes=31))
                said1 = await fake.wait_for_message(
                    thread1, lambda m: HALF in text_of(m), 10, after=post1
                )
                await asyncio.sleep(QUIET)
                row0 = await db.game(game0)
                assert row0["clock_stage"] == 0, "process B claimed a clock of shard 0"
                assert posts_after(fake, thread0, post0) == []
            # A comes back and says its own.
            said0 = await fake.wait_for_message(
                thread0, lambda m: HALF in text_of(m), 10, after=post0
            )
            reminders = [said0, said1]
            await asyncio.sleep(QUIET)
            for (thread, game_id, post), said in zip(games, reminders, strict=True):
                assert f"<@{bob.id}>" in text_of(said)
                assert [m.id for m in posts_after(fake, thread, post)] == [said.id]
                assert (await db.game(game_id))["clock_stage"] == 1
            # Each reminder went out through its guild's process, and only that one.
            for n, bot in enumerate(bots):
                logged = bot.log_text()[offsets[n] :]
                for m, (thread, _, _) in enumerate(games):
                    posted = len(re.findall(posted_to(thread), logged))
                    assert posted == (1 if m == n else 0), (bot.workdir.name, m, posted)

            await stop_all(*bots)
            assert_clean(*bots)
    finally:
        await kill_all(*bots)
        await db.close()
        await fake.stop()
        await pg_server.drop_database(url)
