"""The storage, once: every method of :class:`~bot.storage.base.Storage` in SQL.

:class:`SqlStorage` runs on a :class:`~bot.storage.dialect.Dialect` (SQLite's
in :mod:`.sqlite`, PostgreSQL's in :mod:`.postgres`), which brings the
connections, transactions and the few snippets spelt differently. Everything
else is here, so both backends give the same records, errors, orderings and
stored strings; the checks and record builders that need no SQL are in
:mod:`.common`, the longer statements in :mod:`.queries`.

Optimistic versions: every write that changes a game names the ``version`` its
caller last saw. Inside the write transaction :meth:`SqlStorage._guard` loads
the game (locking its row where the database has several writers) and checks
the version, then the status; :meth:`SqlStorage._bump` ends the write with an
UPDATE guarded by the version again. Two movers with the same version can never
both land: the second finds the version moved and gets
:class:`~bot.storage.base.StaleVersion`.

Claims (``claim_clock``, ``claim_announcement``) are one conditional UPDATE and
leases one ``INSERT … ON CONFLICT DO UPDATE … WHERE``: a racer re-checks the
WHERE on the row the winner left and matches nothing, so exactly one wins
without a lock held between statements.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from types import TracebackType
from typing import Any, Self

from bot.ratings import Rating, rate_game

from .base import (
    OPEN_STATUSES,
    ChannelBusy,
    GameRecord,
    GuildSettings,
    InvalidRequest,
    LeaderRow,
    MoveRecord,
    NotActive,
    NotFound,
    NotInLobby,
    PlayedGame,
    RatingRow,
    ReplyHook,
    ResultRow,
    SeatRecord,
    Shards,
    StaleVersion,
    Unannounced,
    UserSettings,
    Vacation,
    WrongStatus,
)
from .common import (
    announce_columns,
    bumped_record,
    check_human_seat,
    check_lease,
    check_limit,
    check_new_seat,
    check_results,
    check_seat,
    checked_game,
    checked_statuses,
    dump_json,
    dump_json_list,
    game_records,
    guild_settings_record,
    human_placings,
    leader_row,
    lease_times,
    move_columns,
    move_record,
    new_game_options,
    played_game,
    rated_count,
    rated_games,
    rating_row,
    resign_columns,
    restarted_clock,
    result_row,
    seat_turns,
    seats_in_order,
    seats_without_bot,
    seats_without_user,
    unannounced_records,
    user_settings_record,
    utc_iso,
    utc_now,
    vacation_record,
    vacation_times,
)
from .dialect import Connection, Dialect, Params, Row
from .queries import (
    LEADERBOARD_SQL,
    MOVE_COLUMNS,
    PLAYER_RECORDS_SQL,
    RATED_RESULTS_SQL,
    SEAT_TURNS_SQL,
    TURN_MOVES_SQL,
    announced_sql,
)

_OPEN = "status IN ('lobby', 'active')"


class SqlStorage:
    """The :class:`~bot.storage.base.Storage` protocol on the database ``dialect`` reaches."""

    def __init__(self, dialect: Dialect) -> None:
        self._db = dialect
        self._announced = announced_sql(dialect.larger)

    # ------------------------------------------------------------------ lifecycle

    async def open(self) -> None:
        await self._db.open()

    async def close(self) -> None:
        await self._db.close()

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # ------------------------------------------------------------------ query helpers

    def _write(self) -> AbstractAsyncContextManager[Connection]:
        return self._db.write()

    def _read(self) -> AbstractAsyncContextManager[Connection]:
        return self._db.read()

    async def _records(self, conn: Connection, rows: Sequence[Row]) -> list[GameRecord]:
        if not rows:
            return []
        of_games, ids = self._db.any_of("game_id", [int(r["id"]) for r in rows], "bigint")
        seats = await conn.fetch_all(
            "SELECT game_id, seat, user_id, display_name, is_bot, resigned, replaced FROM seats"
            f" WHERE {of_games} ORDER BY game_id, seat",
            ids,
        )
        return game_records(rows, seats)

    async def _one_game(self, sql: str, params: Params) -> GameRecord | None:
        async with self._read() as conn:
            row = await conn.fetch_one(sql, params)
            return (await self._records(conn, [row]))[0] if row is not None else None

    async def _games(self, sql: str, params: Params) -> list[GameRecord]:
        async with self._read() as conn:
            return await self._records(conn, await conn.fetch_all(sql, params))

    async def _load(self, conn: Connection, game_id: int, *, lock: bool = False) -> GameRecord:
        sql = "SELECT * FROM games WHERE id = ?" + (self._db.for_update if lock else "")
        row = await conn.fetch_one(sql, (game_id,))
        if row is None:
            raise NotFound(game_id)
        return (await self._records(conn, [row]))[0]

    async def _guard(
        self,
        conn: Connection,
        game_id: int,
        version: int,
        allowed: Collection[str],
        error: type[WrongStatus],
    ) -> GameRecord:
        """Load (and lock) the game inside the write transaction; check version, then status."""
        return checked_game(await self._load(conn, game_id, lock=True), version, allowed, error)

    @staticmethod
    async def _bump(
        conn: Connection, game_id: int, version: int, *, ended: bool = False, **columns: Any
    ) -> str:
        """The guarded UPDATE every write ends with; returns the new updated_at.

        ``ended`` stamps finished_at with the same instant as updated_at.
        """
        now = utc_now()
        columns["updated_at"] = now
        if ended:
            columns["finished_at"] = now
        sets = ", ".join(f"{name} = ?" for name in columns)  # names come from this module
        changed = await conn.execute(
            f"UPDATE games SET version = version + 1, {sets} WHERE id = ? AND version = ?",
            (*columns.values(), game_id, version),
        )
        if changed != 1:
            raise StaleVersion(game_id, version)
        return now

    @staticmethod
    async def _replace_seats(conn: Connection, game_id: int, seats: Iterable[SeatRecord]) -> None:
        """Rewrite the lobby's seats numbered 0..n-1 in the given order.

        Delete-and-insert avoids transient primary-key clashes that an
        in-place ``seat = seat - 1`` could hit, since SQLite checks per row.
        """
        await conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await conn.execute_many(
            "INSERT INTO seats (game_id, seat, user_id, display_name, is_bot, resigned, replaced)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (game_id, i, s.user_id, s.name, s.is_bot, s.resigned, s.replaced)
                for i, s in enumerate(seats)
            ],
        )

    async def _insert_results(
        self, conn: Connection, game: GameRecord, results: Sequence[ResultRow]
    ) -> None:
        """The result rows and, in the same transaction, the players' new ratings."""
        await conn.execute_many(
            "INSERT INTO results (game_id, seat, score, rank, won) VALUES (?, ?, ?, ?, ?)",
            [(game.id, r.seat, r.score, r.rank, bool(r.won)) for r in results],
        )
        turns = seat_turns(await conn.fetch_all(SEAT_TURNS_SQL, (game.id,)))
        await self._rate(conn, game.guild_id, game.kind, human_placings(game, results, turns))

    async def _rate(
        self, conn: Connection, guild_id: int, kind: str, placings: Sequence[tuple[int, int]]
    ) -> None:
        """Bot seats never count: only the humans' places move their ratings."""
        if len(placings) < 2:
            return
        of_players, users = self._db.any_of("user_id", [u for u, _ in placings], "bigint")
        # In user order: writers locking the same rows lock them in the same order.
        rows = await conn.fetch_all(
            f"SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND kind = ?"
            f" AND {of_players} ORDER BY user_id{self._db.for_update}",
            (guild_id, kind, *users),
        )
        previous = {int(r["user_id"]): Rating(float(r["mu"]), float(r["sigma"])) for r in rows}
        rated = rate_game(previous, placings)
        await conn.execute_many(
            "INSERT INTO ratings (guild_id, kind, user_id, mu, sigma) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, kind, user_id)"
            " DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma",
            [(guild_id, kind, user, r.mu, r.sigma) for user, r in rated.items()],
        )

    def _on_shards(self, shards: Shards | None) -> tuple[str, list[Any]]:
        """The extra condition (and its values) that keeps the guilds of ``shards``."""
        if shards is None:
            return "", []
        on_shard, ids = self._db.any_of("((guild_id >> 22) % ?)", sorted(shards.ids), "bigint")
        return f" AND {on_shard}", [shards.count, *ids]

    # ------------------------------------------------------------------ games

    async def create_game(
        self,
        kind: str,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        creator_name: str,
        options: Mapping[str, str],
        seed: int,
        lang: str = "en",
        clock_hours: float = 0.0,
        bot_level: str = "easy",
    ) -> GameRecord:
        opts = new_game_options(options, seed, clock_hours)
        async with self._write() as conn:
            now = utc_now()
            # The partial unique index decides between two creators racing for a
            # channel: the second waits for the first's COMMIT, then inserts nothing.
            created = await conn.execute(
                "INSERT INTO games (kind, guild_id, channel_id, status, creator_id, options,"
                " seed, state, version, created_at, updated_at, lang, clock_hours, bot_level)"
                " VALUES (?, ?, ?, 'lobby', ?, ?, ?, NULL, 1, ?, ?, ?, ?, ?)"
                f" ON CONFLICT (channel_id) WHERE {_OPEN} DO NOTHING",
                (
                    kind,
                    guild_id,
                    channel_id,
                    creator_id,
                    opts,
                    seed,
                    now,
                    now,
                    lang,
                    float(clock_hours),
                    bot_level,
                ),
            )
            # The channel's one open game: ours, or the one in the way.
            row = await conn.fetch_one(
                f"SELECT id FROM games WHERE channel_id = ? AND {_OPEN}", (channel_id,)
            )
            game_id = 0 if row is None else int(row["id"])
            if not created:
                raise ChannelBusy(game_id)
            await conn.execute(
                "INSERT INTO seats (game_id, seat, user_id, display_name, is_bot)"
                " VALUES (?, 0, ?, ?, FALSE)",
                (game_id, creator_id, creator_name),
            )
            return await self._load(conn, game_id)

    async def get_game(self, game_id: int) -> GameRecord | None:
        return await self._one_game("SELECT * FROM games WHERE id = ?", (game_id,))

    async def active_game(self, channel_id: int) -> GameRecord | None:
        return await self._one_game(
            f"SELECT * FROM games WHERE channel_id = ? AND {_OPEN}", (channel_id,)
        )

    async def latest_game(self, channel_id: int) -> GameRecord | None:
        return await self._one_game(
            "SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        )

    async def list_games(
        self, guild_id: int, statuses: Collection[str] | None = None, limit: int = 25
    ) -> list[GameRecord]:
        check_limit(limit)
        sql = "SELECT * FROM games WHERE guild_id = ?"
        params: list[Any] = [guild_id]
        if statuses is not None:
            wanted = checked_statuses(statuses)
            if not wanted:
                return []
            of_statuses, values = self._db.any_of("status", wanted, "text")
            sql += f" AND {of_statuses}"
            params += values
        sql += " ORDER BY updated_at DESC, id DESC LIMIT ?"
        return await self._games(sql, [*params, limit])

    async def server_games(
        self, guild_id: int, statuses: Collection[str], limit: int = 25, offset: int = 0
    ) -> list[GameRecord]:
        check_limit(limit)
        if offset < 0:
            raise InvalidRequest(f"an offset is 0 or more, not {offset!r}")
        wanted = checked_statuses(statuses)
        if not wanted:
            return []
        of_statuses, values = self._db.any_of("status", wanted, "text")
        sql = (
            f"SELECT * FROM games WHERE guild_id = ? AND {of_statuses}"
            " ORDER BY id DESC LIMIT ? OFFSET ?"
        )
        return await self._games(sql, [guild_id, *values, limit, offset])

    async def count_games(self, guild_id: int, statuses: Collection[str]) -> int:
        wanted = checked_statuses(statuses)
        if not wanted:
            return 0
        of_statuses, values = self._db.any_of("status", wanted, "text")
        async with self._read() as conn:
            row = await conn.fetch_one(
                f"SELECT COUNT(*) AS n FROM games WHERE guild_id = ? AND {of_statuses}",
                (guild_id, *values),
            )
        return 0 if row is None else int(row["n"])

    async def active_games_after(
        self,
        after_id: int,
        limit: int = 100,
        statuses: Collection[str] = ("active",),
        *,
        shards: Shards | None = None,
    ) -> list[GameRecord]:
        check_limit(limit)
        wanted = checked_statuses(statuses)
        if not wanted:
            return []
        of_statuses, values = self._db.any_of("status", wanted, "text")
        on_shards, shard_params = self._on_shards(shards)
        return await self._games(
            f"SELECT * FROM games WHERE {of_statuses} AND id > ?{on_shards} ORDER BY id LIMIT ?",
            [*values, after_id, *shard_params, limit],
        )

    async def open_games_of(self, guild_id: int, user_id: int) -> list[GameRecord]:
        return await self._games(
            "SELECT g.* FROM seats s JOIN games g ON g.id = s.game_id"
            " WHERE s.user_id = ? AND g.guild_id = ? AND g.status IN ('lobby', 'active')"
            " ORDER BY g.id",
            (user_id, guild_id),
        )

    async def idle_lobbies(self, before: str, *, shards: Shards | None = None) -> list[GameRecord]:
        cutoff = utc_iso(before)
        on_shards, shard_params = self._on_shards(shards)
        return await self._games(
            f"SELECT * FROM games WHERE status = 'lobby' AND updated_at < ?{on_shards}"
            " ORDER BY updated_at, id",
            (cutoff, *shard_params),
        )

    # ------------------------------------------------------------------ lobby

    async def add_seat(
        self, game_id: int, version: int, user_id: int | None, name: str, is_bot: bool
    ) -> GameRecord:
        if user_id is None and not is_bot:
            raise InvalidRequest("a human seat needs a user id")
        async with self._write() as conn:
            game = await self._guard(conn, game_id, version, ("lobby",), NotInLobby)
            check_new_seat(game, user_id)
            await conn.execute(
                "INSERT INTO seats (game_id, seat, user_id, display_name, is_bot)"
                " VALUES (?, ?, ?, ?, ?)",
                (game_id, len(game.seats), user_id, name, bool(is_bot)),
            )
            await self._bump(conn, game_id, version)
            return await self._load(conn, game_id)

    async def remove_seat(self, game_id: int, version: int, user_id: int) -> GameRecord:
        return await self._leave_lobby(game_id, version, lambda g: seats_without_user(g, user_id))

    async def remove_bot_seat(self, game_id: int, version: int, seat: int) -> GameRecord:
        return await self._leave_lobby(game_id, version, lambda g: seats_without_bot(g, seat))

    async def _leave_lobby(
        self, game_id: int, version: int, remaining: Callable[[GameRecord], list[SeatRecord]]
    ) -> GameRecord:
        """Someone leaves the lobby: ``remaining(game)`` are renumbered 0..n-1."""
        async with self._write() as conn:
            game = await self._guard(conn, game_id, version, ("lobby",), NotInLobby)
            await self._replace_seats(conn, game_id, remaining(game))
            await self._bump(conn, game_id, version)
            return await self._load(conn, game_id)

    async def start_game(
        self,
        game_id: int,
        version: int,
        seat_order: Sequence[int],
        state: dict[str, Any],
        *,
        reply_hook: ReplyHook | None = None,
    ) -> GameRecord:
        async with self._write() as conn:
            game = await self._guard(conn, game_id, version, ("lobby",), NotInLobby)
            await self._replace_seats(conn, game_id, seats_in_order(game, seat_order))
            clock = restarted_clock(game.clock_hours)
            owed = announce_columns(version + 1, reply_hook)  # the start's post
            await self._bump(
                conn, game_id, version, status="active", state=dump_json(state), **clock, **owed
            )
            return await self._load(conn, game_id)

    async def cancel_game(self, game_id: int, version: int) -> GameRecord:
        async with self._write() as conn:
            await self._guard(conn, game_id, version, OPEN_STATUSES, WrongStatus)
            await self._bump(conn, game_id, version, status="cancelled", ended=True)
            return await self._load(conn, game_id)

    # ------------------------------------------------------------------ play

    async def record_move(
        self,
        game_id: int,
        version: int,
        seat: int,
        notation: str,
        state: dict[str, Any],
        *,
        events: Sequence[Mapping[str, Any]] = (),
        ends_turn: bool = True,
        results: Sequence[ResultRow] | None = None,
        by_ai: bool = False,
        reply_hook: ReplyHook | None = None,
    ) -> GameRecord:
        log = dump_json_list(events)
        async with self._write() as conn:
            game = await self._guard(conn, game_id, version, ("active",), NotActive)
            columns = move_columns(game, seat, state, results)
            if ends_turn or results is not None:
                columns.update(announce_columns(version + 1, reply_hook))
            if results is not None:
                await self._db.lock_game_ratings(conn, game.guild_id, game.kind)
            now = await self._bump(conn, game_id, version, ended=results is not None, **columns)
            await conn.execute(
                "INSERT INTO moves"
                " (game_id, ply, seat, notation, created_at, version, events, ends_turn, by_ai)"
                " SELECT ?, COALESCE(MAX(ply), 0) + 1, ?, ?, ?, ?, ?, ?, ? FROM moves"
                " WHERE game_id = ?",
                (
                    game_id,
                    seat,
                    notation,
                    now,
                    version + 1,
                    log,
                    bool(ends_turn),
                    bool(by_ai),
                    game_id,
                ),
            )
            if results is not None:
                await self._insert_results(conn, game, results)
            # What reading it back would give: two statements fewer on every move.
            return bumped_record(game, columns, now, ended=results is not None)

    async def resign_seat(
        self,
        game_id: int,
        version: int,
        seat: int,
        state: dict[str, Any],
        results: Sequence[ResultRow] | None = None,
        *,
        cancel: bool = False,
    ) -> GameRecord:
        if results is not None and cancel:
            raise InvalidRequest("a resignation either finishes the game or cancels it")
        async with self._write() as conn:
            game = await self._guard(conn, game_id, version, ("active",), NotActive)
            columns = resign_columns(game, seat, state, results, cancel)
            if results is not None:
                await self._db.lock_game_ratings(conn, game.guild_id, game.kind)
            await conn.execute(
                "UPDATE seats SET resigned = TRUE WHERE game_id = ? AND seat = ?", (game_id, seat)
            )
            ended = results is not None or cancel
            await self._bump(conn, game_id, version, ended=ended, **columns)
            if results is not None:
                await self._insert_results(conn, game, results)
            return await self._load(conn, game_id)

    async def set_seat_resigned(
        self, game_id: int, version: int, seat: int, state: dict[str, Any]
    ) -> GameRecord:
        async with self._write() as conn:
            game = await self._guard(conn, game_id, version, ("active",), NotActive)
            check_seat(game, seat)
            await conn.execute(
                "UPDATE seats SET resigned = TRUE WHERE game_id = ? AND seat = ?", (game_id, seat)
            )
            await self._bump(conn, game_id, version, state=dump_json(state))
            return await self._load(conn, game_id)

    async def finish_game(
        self, game_id: int, version: int, state: dict[str, Any], results: Sequence[ResultRow]
    ) -> GameRecord:
        async with self._write() as conn:
            game = await self._guard(conn, game_id, version, ("active",), NotActive)
            check_results(game, results)
            await self._db.lock_game_ratings(conn, game.guild_id, game.kind)
            await self._bump(
                conn,
                game_id,
                version,
                state=dump_json(state),
                status="finished",
                ended=True,
                clock_due=None,
            )
            await self._insert_results(conn, game, results)
            return await self._load(conn, game_id)

    async def moves(self, game_id: int, *, since_version: int = 0) -> list[MoveRecord]:
        async with self._read() as conn:
            rows = await conn.fetch_all(
                f"SELECT {MOVE_COLUMNS} FROM moves m"
                " WHERE game_id = ? AND COALESCE(version, 0) >= ? ORDER BY ply",
                (game_id, since_version + 1 if since_version else 0),
            )
        return [move_record(r) for r in rows]

    async def turn_moves(self, game_id: int) -> list[MoveRecord]:
        async with self._read() as conn:
            rows = await conn.fetch_all(TURN_MOVES_SQL, (game_id, game_id, game_id))
        return [move_record(r) for r in rows]

    async def results(self, game_id: int) -> list[ResultRow]:
        async with self._read() as conn:
            rows = await conn.fetch_all(
                "SELECT r.seat, s.user_id, s.display_name, r.score, r.rank, r.won"
                " FROM results r JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat"
                " WHERE r.game_id = ? ORDER BY r.rank, r.seat",
                (game_id,),
            )
        return [result_row(r) for r in rows]

    async def leaderboard(
        self, guild_id: int, kind: str | None = None, limit: int = 25
    ) -> list[LeaderRow]:
        check_limit(limit)
        async with self._read() as conn:
            rows = await conn.fetch_all(
                LEADERBOARD_SQL, (guild_id, kind, kind, guild_id, kind, limit)
            )
        return [leader_row(r) for r in rows]

    # ------------------------------------------------------------------ meta

    async def get_meta(self, key: str) -> str | None:
        async with self._read() as conn:
            row = await conn.fetch_one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row["value"])

    async def set_meta(self, key: str, value: str) -> None:
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    # ------------------------------------------------------------------ clocks

    async def due_clocks(
        self, now: str, limit: int = 100, *, shards: Shards | None = None
    ) -> list[GameRecord]:
        check_limit(limit)
        on_shards, shard_params = self._on_shards(shards)
        return await self._games(
            "SELECT * FROM games WHERE status = 'active' AND clock_due IS NOT NULL"
            f" AND clock_due <= ?{on_shards} ORDER BY clock_due, id LIMIT ?",
            (utc_iso(now), *shard_params, limit),
        )

    async def claim_clock(
        self,
        game_id: int,
        version: int,
        stage: int,
        *,
        new_stage: int,
        due: str | None,
        turn_since: str | None = None,
    ) -> bool:
        due_at = None if due is None else utc_iso(due)
        since = None if turn_since is None else utc_iso(turn_since)
        # One statement: a racing claim waits for the winner's row (or SQLite's
        # write lock), re-checks the WHERE on it and matches nothing.
        async with self._write() as conn:
            claimed = await conn.execute(
                "UPDATE games SET clock_stage = ?, clock_due = ?,"
                " turn_since = COALESCE(?, turn_since)"
                " WHERE id = ? AND version = ? AND clock_stage = ? AND status = 'active'",
                (new_stage, due_at, since, game_id, version, stage),
            )
        return claimed == 1

    async def set_board_message(self, game_id: int, message_id: int, version: int) -> None:
        async with self._write() as conn:
            await conn.execute(
                f"UPDATE games SET board_message_id = ?, {self._announced} WHERE id = ?",
                (message_id, version, version, version, game_id),
            )

    # ------------------------------------------------------------------ announcements

    async def mark_announced(self, game_id: int, version: int) -> None:
        async with self._write() as conn:
            await conn.execute(
                f"UPDATE games SET {self._announced} WHERE id = ?",
                (version, version, version, game_id),
            )

    async def unannounced(
        self, now: str, limit: int = 100, *, shards: Shards | None = None
    ) -> list[Unannounced]:
        check_limit(limit)
        on_shards, shard_params = self._on_shards(shards)
        async with self._read() as conn:
            rows = await conn.fetch_all(
                "SELECT * FROM games WHERE announce_due IS NOT NULL AND announce_due <= ?"
                " AND announce_version > posted_version AND status IN ('active', 'finished')"
                f"{on_shards} ORDER BY announce_due, id LIMIT ?",
                (utc_iso(now), *shard_params, limit),
            )
            return unannounced_records(rows, await self._records(conn, rows))

    async def claim_announcement(self, game_id: int, version: int, due: str, until: str) -> bool:
        # One statement: a racing claim waits for the winner's row, re-checks the
        # WHERE on it (the due time has moved) and matches nothing.
        async with self._write() as conn:
            claimed = await conn.execute(
                "UPDATE games SET announce_due = ? WHERE id = ? AND announce_version = ?"
                " AND announce_due = ? AND announce_version > posted_version"
                " AND status IN ('active', 'finished')",
                (utc_iso(until), game_id, version, utc_iso(due)),
            )
        return claimed == 1

    # ------------------------------------------------------------------ leases

    async def take_lease(self, name: str, holder: str, now: str, until: str) -> bool:
        moment, expires = lease_times(name, holder, now, until)
        # One statement: a racer inserting the same name waits for the first
        # insert's COMMIT, then re-checks the WHERE on the row it left (and fails).
        async with self._write() as conn:
            taken = await conn.execute(
                "INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)"
                " ON CONFLICT (name) DO UPDATE"
                " SET holder = excluded.holder, expires_at = excluded.expires_at"
                " WHERE leases.expires_at <= ? OR leases.holder = excluded.holder",
                (name, holder, expires, moment),
            )
        return taken == 1

    async def release_lease(self, name: str, holder: str) -> None:
        check_lease(name, holder)
        async with self._write() as conn:
            await conn.execute("DELETE FROM leases WHERE name = ? AND holder = ?", (name, holder))

    # ------------------------------------------------------------------ seats and undo

    async def replace_seat(
        self, game_id: int, version: int, seat: int, replaced: str | None
    ) -> GameRecord:
        if replaced not in (None, "away", "removed"):
            raise InvalidRequest(f"unknown replacement {replaced!r}")
        async with self._write() as conn:
            game = await self._guard(conn, game_id, version, ("active",), NotActive)
            check_human_seat(game, seat)
            await conn.execute(
                "UPDATE seats SET replaced = ? WHERE game_id = ? AND seat = ?",
                (replaced, game_id, seat),
            )
            await self._bump(conn, game_id, version, **restarted_clock(game.clock_hours))
            return await self._load(conn, game_id)

    async def record_undo(
        self,
        game_id: int,
        version: int,
        seat: int,
        first_ply: int,
        state: dict[str, Any],
        *,
        events: Sequence[Mapping[str, Any]] = (),
    ) -> GameRecord:
        async with self._write() as conn:
            game = await self._guard(conn, game_id, version, ("active",), NotActive)
            check_seat(game, seat)
            taken_back = await conn.execute(
                "INSERT INTO undone (game_id, ply) SELECT game_id, ply FROM moves"
                " WHERE game_id = ? AND ply >= ? AND undoes IS NULL"
                " AND ply NOT IN (SELECT ply FROM undone WHERE game_id = ?)",
                (game_id, first_ply, game_id),
            )
            if taken_back < 1:
                raise InvalidRequest(f"game {game_id} has nothing to undo from ply {first_ply}")
            clock = restarted_clock(game.clock_hours)
            now = await self._bump(conn, game_id, version, state=dump_json(state), **clock)
            await conn.execute(
                "INSERT INTO moves"
                " (game_id, ply, seat, notation, created_at, version, events, ends_turn, undoes)"
                " SELECT ?, MAX(ply) + 1, ?, 'undo', ?, ?, ?, FALSE, ? FROM moves"
                " WHERE game_id = ?",
                (game_id, seat, now, version + 1, dump_json_list(events), first_ply, game_id),
            )
            return await self._load(conn, game_id)

    # ------------------------------------------------------------------ votes

    async def cast_vote(
        self, game_id: int, question: str, user_id: int, choice: str
    ) -> dict[int, str]:
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO votes (game_id, question, user_id, choice, created_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, question, user_id)"
                " DO UPDATE SET choice = excluded.choice, created_at = excluded.created_at",
                (game_id, question, user_id, choice, utc_now()),
            )
            rows = await conn.fetch_all(
                "SELECT user_id, choice FROM votes WHERE game_id = ? AND question = ?",
                (game_id, question),
            )
        return {int(r["user_id"]): str(r["choice"]) for r in rows}

    # ------------------------------------------------------------------ players

    async def user_settings(self, user_id: int) -> UserSettings:
        async with self._read() as conn:
            row = await conn.fetch_one(
                "SELECT lang, dm_turn, dm_reminders FROM user_settings WHERE user_id = ?",
                (user_id,),
            )
        return user_settings_record(row)

    async def set_user_settings(self, user_id: int, settings: UserSettings) -> None:
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO user_settings (user_id, lang, dm_turn, dm_reminders)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET lang = excluded.lang,"
                " dm_turn = excluded.dm_turn, dm_reminders = excluded.dm_reminders",
                (user_id, settings.lang, bool(settings.dm_turn), bool(settings.dm_reminders)),
            )

    # ------------------------------------------------------------------ servers

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        async with self._read() as conn:
            row = await conn.fetch_one(
                "SELECT takeover_level, web FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
        return guild_settings_record(row)

    async def set_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, takeover_level, web) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE"
                " SET takeover_level = excluded.takeover_level, web = excluded.web",
                (guild_id, settings.takeover_level, bool(settings.web)),
            )

    async def vacations(self, guild_id: int, user_ids: Collection[int]) -> list[Vacation]:
        users = sorted(set(user_ids))
        if not users:
            return []
        of_players, values = self._db.any_of("user_id", users, "bigint")
        async with self._read() as conn:
            rows = await conn.fetch_all(
                "SELECT guild_id, user_id, starts_at, ends_at FROM vacations"
                f" WHERE guild_id = ? AND {of_players} ORDER BY starts_at, user_id",
                (guild_id, *values),
            )
        return [vacation_record(r) for r in rows]

    async def add_vacation(self, vacation: Vacation) -> None:
        starts, ends = vacation_times(vacation)
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO vacations (guild_id, user_id, starts_at, ends_at) VALUES (?, ?, ?, ?)",
                (vacation.guild_id, vacation.user_id, starts, ends),
            )

    async def end_vacation(self, guild_id: int, user_id: int, now: str) -> bool:
        moment = utc_iso(now)
        async with self._write() as conn:
            ended = await conn.execute(
                "UPDATE vacations SET ends_at = ? WHERE guild_id = ? AND user_id = ?"
                " AND starts_at <= ? AND ends_at > ?",
                (moment, guild_id, user_id, moment, moment),
            )
        return ended > 0

    # ------------------------------------------------------------------ ratings

    async def ratings(self, guild_id: int, kind: str) -> dict[int, tuple[float, float]]:
        async with self._read() as conn:
            rows = await conn.fetch_all(
                "SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND kind = ?",
                (guild_id, kind),
            )
        return {int(r["user_id"]): (float(r["mu"]), float(r["sigma"])) for r in rows}

    async def all_ratings(self) -> list[RatingRow]:
        async with self._read() as conn:
            rows = await conn.fetch_all(
                "SELECT guild_id, kind, user_id, mu, sigma FROM ratings"
                " ORDER BY guild_id, kind, user_id"
            )
        return [rating_row(r) for r in rows]

    async def rebuild_ratings(self) -> int:
        async with self._write() as conn:
            await self._db.lock_all_ratings(conn)
            await conn.execute("DELETE FROM ratings")
            games = rated_games(await conn.fetch_all(RATED_RESULTS_SQL))  # oldest game first
            for guild_id, kind, placings in games:
                await self._rate(conn, guild_id, kind, placings)
        return rated_count(games)

    async def player_games(self, guild_id: int, user_id: int, limit: int = 10) -> list[PlayedGame]:
        check_limit(limit)
        async with self._read() as conn:
            rows = await conn.fetch_all(
                "SELECT g.id, g.kind, g.channel_id, g.finished_at, r.rank, r.score, r.won,"
                " (SELECT COUNT(*) FROM seats a WHERE a.game_id = g.id) AS players"
                " FROM games g JOIN seats s ON s.game_id = g.id"
                " JOIN results r ON r.game_id = s.game_id AND r.seat = s.seat"
                " WHERE g.guild_id = ? AND g.status = 'finished' AND s.user_id = ?"
                " AND NOT s.is_bot ORDER BY g.finished_at DESC, g.id DESC LIMIT ?",
                (guild_id, user_id, limit),
            )
        return [played_game(r) for r in rows]

    async def player_records(self, guild_id: int, user_id: int) -> list[tuple[str, LeaderRow]]:
        async with self._read() as conn:
            rows = await conn.fetch_all(PLAYER_RECORDS_SQL, (guild_id, user_id, guild_id))
        return [(r["kind"], leader_row(r)) for r in rows]
