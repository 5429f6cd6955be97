"""What the storage computes without SQL: checks, stored forms, records.

The checks a write makes before (or, on the game it loaded, inside) its
transaction, the stored forms of values (timestamps, JSON), and the records
built from result rows. :mod:`.sql` calls these around its SQL; keeping them
apart leaves that module to the statements. Private to :mod:`bot.storage`.

Rows are ``sqlite3.Row`` or ``asyncpg.Record``: both read a column by name.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import fields, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.ratings import Seated, rated_placings

from .base import (
    AlreadySeated,
    GameRecord,
    GameStatus,
    GuildSettings,
    InvalidRequest,
    LeaderRow,
    MoveRecord,
    NotSeated,
    PlayedGame,
    RatingRow,
    ReplyHook,
    ResultRow,
    SeatRecord,
    StaleVersion,
    StorageError,
    Unannounced,
    UserSettings,
    Vacation,
    WrongStatus,
    is_status,
)
from .dialect import Row

_INT64 = range(-(2**63), 2**63)  # SQLite INTEGER, PostgreSQL BIGINT
MAX_CLOCK_HOURS = 24 * 30
# How long the handler that saved a turn has to post it before another process
# may (it died, or its post failed). Each AI move of a chain restarts it, so it
# covers one drawing and one upload, with room to spare under load.
ANNOUNCE_GRACE = timedelta(seconds=60)


# --------------------------------------------------------------------------- stored forms


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def restarted_clock(clock_hours: float) -> dict[str, Any]:
    """A new wait begins now: nothing sent yet, first due at half time."""
    now = datetime.now(UTC)
    due = now + timedelta(hours=clock_hours / 2) if clock_hours > 0 else None
    return {
        "turn_since": now.isoformat(timespec="microseconds"),
        "clock_stage": 0,
        "clock_due": None if due is None else due.isoformat(timespec="microseconds"),
    }


def announce_columns(version: int, hook: ReplyHook | None) -> dict[str, Any]:
    """What a write that ends a turn (or starts the game) notes: the post it owes
    (the game at ``version``), when another process may make it, and the
    interaction whose placeholder that post fills, if one is being answered (left
    as it is otherwise: an earlier placeholder may still wait)."""
    due = datetime.now(UTC) + ANNOUNCE_GRACE
    columns: dict[str, Any] = {
        "announce_version": version,
        "announce_due": due.isoformat(timespec="microseconds"),
    }
    if hook is not None:
        columns["announce_hook"] = hook.path
    return columns


def dump_json(value: Mapping[str, Any]) -> str:
    # allow_nan=False: NaN is not JSON and PostgreSQL's jsonb would reject it later.
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise InvalidRequest(f"not JSON-serialisable: {exc}") from exc


def dump_json_list(values: Sequence[Mapping[str, Any]]) -> str:
    try:
        return json.dumps(list(values), ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise InvalidRequest(f"not JSON-serialisable: {exc}") from exc


def utc_iso(moment: str) -> str:
    """``moment`` in the exact form of the stored timestamps, so text comparison works."""
    try:
        parsed = datetime.fromisoformat(moment)
    except (TypeError, ValueError) as exc:
        raise InvalidRequest(f"not an ISO-8601 date and time: {moment!r}") from exc
    if parsed.utcoffset() is None:
        raise InvalidRequest(f"{moment!r} has no UTC offset")
    return parsed.astimezone(UTC).isoformat(timespec="microseconds")


# --------------------------------------------------------------------------- checks


def check_limit(limit: int) -> None:
    if limit < 1:
        raise InvalidRequest("limit must be positive")


def checked_statuses(statuses: Collection[str]) -> list[str]:
    if isinstance(statuses, str):  # "active" would otherwise read as its letters
        statuses = (statuses,)
    wanted = sorted(set(statuses))
    if not all(is_status(s) for s in wanted):
        raise InvalidRequest(f"unknown status in {wanted}")
    return wanted


def new_game_options(options: Mapping[str, str], seed: int, clock_hours: float) -> str:
    """A new game's options as stored (sorted JSON), once the request is checked."""
    if not 0 <= clock_hours <= MAX_CLOCK_HOURS:
        raise InvalidRequest(f"clock_hours must be within 0..{MAX_CLOCK_HOURS}")
    if seed not in _INT64:
        raise InvalidRequest("seed must fit in a signed 64-bit integer")
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in options.items()):
        raise InvalidRequest("options must map strings to strings")
    return dump_json(dict(sorted(options.items())))


def checked_game(
    game: GameRecord, version: int, allowed: Collection[str], error: type[WrongStatus]
) -> GameRecord:
    """The game as loaded inside a write transaction: version first, then status."""
    if game.version != version:
        raise StaleVersion(game.id, version, game.version)
    if game.status not in allowed:
        raise error(game.id, game.status)
    return game


def check_seat(game: GameRecord, seat: int) -> None:
    if not 0 <= seat < len(game.seats):
        raise InvalidRequest(f"game {game.id} has no seat {seat}")


def check_human_seat(game: GameRecord, seat: int) -> None:
    check_seat(game, seat)
    if game.seats[seat].is_bot:
        raise InvalidRequest(f"seat {seat} of game {game.id} is a bot")


def check_results(game: GameRecord, results: Sequence[ResultRow]) -> None:
    by_seat = {s.seat: s for s in game.seats}
    if sorted(r.seat for r in results) != sorted(by_seat):
        raise InvalidRequest("results need exactly one row per seat")
    for r in results:
        if r.user_id != by_seat[r.seat].user_id:
            raise InvalidRequest(f"result for seat {r.seat} names the wrong user")
        if r.rank < 1:
            raise InvalidRequest("ranks start at 1")


def check_lease(name: str, holder: str) -> None:
    if not isinstance(name, str) or not name.strip():
        raise InvalidRequest("a lease needs a name")
    if not isinstance(holder, str) or not holder.strip():
        raise InvalidRequest("a lease needs a holder")


def lease_times(name: str, holder: str, now: str, until: str) -> tuple[str, str]:
    """``now`` and ``until`` as stored timestamps, once the request is checked."""
    check_lease(name, holder)
    moment, expires = utc_iso(now), utc_iso(until)
    if expires <= moment:
        raise InvalidRequest("a lease must last: until comes after now")
    return moment, expires


def vacation_times(vacation: Vacation) -> tuple[str, str]:
    """A new vacation's start and end as stored, once the request is checked."""
    starts, ends = utc_iso(vacation.starts_at), utc_iso(vacation.ends_at)
    if ends <= starts:
        raise InvalidRequest("a vacation ends after it starts")
    return starts, ends


# --------------------------------------------------------------------------- seats


def check_new_seat(game: GameRecord, user_id: int | None) -> None:
    if user_id is not None and (seat := game.seat_of(user_id)) is not None:
        raise AlreadySeated(game.id, user_id, seat)


def seats_without_user(game: GameRecord, user_id: int) -> list[SeatRecord]:
    """The lobby's seats once ``user_id`` left it (raises NotSeated)."""
    if game.seat_of(user_id) is None:
        raise NotSeated(game.id, user_id)
    return [s for s in game.seats if s.user_id != user_id]


def seats_without_bot(game: GameRecord, seat: int) -> list[SeatRecord]:
    """The lobby's seats once the bot in ``seat`` left it."""
    check_seat(game, seat)
    if not game.seats[seat].is_bot:
        raise InvalidRequest(f"seat {seat} of game {game.id} is not a bot")
    return [s for s in game.seats if s.seat != seat]


def seats_in_order(game: GameRecord, seat_order: Sequence[int]) -> list[SeatRecord]:
    """The lobby's seats as the game starts: new seat i is old seat ``seat_order[i]``."""
    if not game.seats or sorted(seat_order) != list(range(len(game.seats))):
        raise InvalidRequest(f"seat_order must be a permutation of 0..{len(game.seats) - 1}")
    return [game.seats[i] for i in seat_order]


# --------------------------------------------------------------------------- what a write sets


def move_columns(
    game: GameRecord, seat: int, state: dict[str, Any], results: Sequence[ResultRow] | None
) -> dict[str, Any]:
    """The game's columns after a move (which finishes it when ``results`` are given)."""
    check_seat(game, seat)
    columns: dict[str, Any] = {"state": dump_json(state), **restarted_clock(game.clock_hours)}
    if results is not None:
        check_results(game, results)
        columns["status"] = "finished"
        columns["clock_due"] = None
    return columns


def resign_columns(
    game: GameRecord,
    seat: int,
    state: dict[str, Any],
    results: Sequence[ResultRow] | None,
    cancel: bool,
) -> dict[str, Any]:
    """The game's columns after ``seat`` resigned (finished with ``results``,
    cancelled with ``cancel``, else still active)."""
    check_human_seat(game, seat)
    if game.seats[seat].resigned:
        raise InvalidRequest(f"seat {seat} of game {game.id} has already resigned")
    columns: dict[str, Any] = {"state": dump_json(state)}
    if results is not None:
        check_results(game, results)
        columns["status"] = "finished"
    elif cancel:
        columns["status"] = "cancelled"
    if results is not None or cancel:
        columns["clock_due"] = None
    return columns


def human_placings(
    game: GameRecord, results: Sequence[ResultRow], turns: Mapping[int, tuple[int, int]]
) -> list[tuple[int, int]]:
    """(user, rank) of the humans the game rates (:func:`bot.ratings.rated_placings`):
    bot seats never move ratings, nor humans who played under a quarter of their
    seat's turns. ``turns``: per seat, (turns ended by the player, all its turns)."""
    humans = {s.seat: s.user_id for s in game.seats if not s.is_bot and s.user_id is not None}
    return rated_placings(
        Seated(humans[r.seat], r.rank, *turns.get(r.seat, (0, 0)))
        for r in results
        if r.seat in humans
    )


def seat_turns(rows: Iterable[Row]) -> dict[int, tuple[int, int]]:
    """Per seat, (own_turns, turns) from rows of the seat-turns query."""
    return {int(r["seat"]): (int(r["own_turns"]), int(r["turns"])) for r in rows}


def rated_games(rows: Iterable[Row]) -> list[tuple[int, str, list[tuple[int, int]]]]:
    """(guild, kind, placings) per game, from rows of the games' human placings and
    turns in the order the games finished (what a ratings rebuild folds over)."""
    games: dict[int, tuple[int, str, list[Seated]]] = {}
    for r in rows:
        game = games.setdefault(int(r["game_id"]), (r["guild_id"], r["kind"], []))
        game[2].append(
            Seated(int(r["user_id"]), int(r["rank"]), int(r["own_turns"]), int(r["turns"]))
        )
    return [(guild, kind, rated_placings(humans)) for guild, kind, humans in games.values()]


def rated_count(games: Iterable[tuple[int, str, list[tuple[int, int]]]]) -> int:
    """How many of these games move ratings: those with two humans or more."""
    return sum(1 for _, _, placings in games if len(placings) >= 2)


# --------------------------------------------------------------------------- records


def game_record(row: Row, seats: tuple[SeatRecord, ...]) -> GameRecord:
    status: str = row["status"]
    if not is_status(status):
        raise StorageError(f"game {row['id']} has unknown status {status!r}")
    st: GameStatus = status
    return GameRecord(
        id=int(row["id"]),
        kind=row["kind"],
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        status=st,
        creator_id=int(row["creator_id"]),
        options=json.loads(row["options"]),
        seed=int(row["seed"]),
        state=None if row["state"] is None else json.loads(row["state"]),
        version=int(row["version"]),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        seats=seats,
        finished_at=row["finished_at"],
        lang=row["lang"],
        clock_hours=float(row["clock_hours"]),
        turn_since=row["turn_since"],
        clock_stage=int(row["clock_stage"]),
        clock_due=row["clock_due"],
        board_message_id=row["board_message_id"],
        posted_version=int(row["posted_version"]),
        announce_version=int(row["announce_version"]),
        announce_due=row["announce_due"],
        bot_level=row["bot_level"],
    )


# The games columns a GameRecord holds as they are (announce_hook, say, it does not).
_RECORD_COLUMNS = frozenset(f.name for f in fields(GameRecord)) - {"seats"}


def bumped_record(
    game: GameRecord, columns: Mapping[str, Any], updated_at: str, *, ended: bool
) -> GameRecord:
    """``game`` as reading it back would give it once a write set ``columns``
    (the stored values: JSON as text), bumped its version and stamped
    ``updated_at`` (and ``finished_at`` when ``ended``), its seats unchanged.
    The write itself has passed the table's checks (a known status, say)."""
    changed = {name: value for name, value in columns.items() if name in _RECORD_COLUMNS}
    if "state" in changed:
        changed["state"] = None if changed["state"] is None else json.loads(changed["state"])
    if ended:
        changed["finished_at"] = updated_at
    return replace(game, **changed, version=game.version + 1, updated_at=updated_at)


def game_records(rows: Sequence[Row], seat_rows: Iterable[Row]) -> list[GameRecord]:
    """Game records from their rows and all their seats' rows (by game, then seat)."""
    seats: dict[int, list[SeatRecord]] = {int(r["id"]): [] for r in rows}
    for s in seat_rows:
        seats[int(s["game_id"])].append(
            SeatRecord(
                seat=int(s["seat"]),
                user_id=s["user_id"],
                name=s["display_name"],
                is_bot=bool(s["is_bot"]),
                resigned=bool(s["resigned"]),
                replaced=s["replaced"],
            )
        )
    return [game_record(r, tuple(seats[int(r["id"])])) for r in rows]


def unannounced_records(rows: Sequence[Row], games: Sequence[GameRecord]) -> list[Unannounced]:
    """Late posts to make: each game (in the rows' order) with its hook, if any."""
    return [
        Unannounced(game, ReplyHook.from_path(row["announce_hook"]))
        for row, game in zip(rows, games, strict=True)
    ]


def move_record(r: Row) -> MoveRecord:
    return MoveRecord(
        int(r["ply"]),
        int(r["seat"]),
        r["notation"],
        r["created_at"],
        None if r["version"] is None else int(r["version"]),
        tuple(json.loads(r["events"])),
        bool(r["ends_turn"]),
        None if r["undoes"] is None else int(r["undoes"]),
        bool(r["undone"]),
        bool(r["by_ai"]),
    )


def result_row(r: Row) -> ResultRow:
    return ResultRow(
        int(r["seat"]),
        r["user_id"],
        r["display_name"],
        int(r["score"]),
        int(r["rank"]),
        bool(r["won"]),
    )


def leader_row(r: Row) -> LeaderRow:
    return LeaderRow(
        int(r["user_id"]),
        r["name"],
        int(r["games"]),
        int(r["wins"]),
        float(r["win_rate"]),
        int(r["points"]),
        float(r["placement"]),
        None if r["mu"] is None else float(r["mu"]),
        None if r["sigma"] is None else float(r["sigma"]),
    )


def played_game(r: Row) -> PlayedGame:
    return PlayedGame(
        int(r["id"]),
        r["kind"],
        int(r["channel_id"]),
        r["finished_at"],
        int(r["rank"]),
        int(r["score"]),
        int(r["players"]),
        bool(r["won"]),
    )


def user_settings_record(row: Row | None) -> UserSettings:
    if row is None:
        return UserSettings()
    return UserSettings(row["lang"], bool(row["dm_turn"]), bool(row["dm_reminders"]))


def guild_settings_record(row: Row | None) -> GuildSettings:
    if row is None:
        return GuildSettings()
    return GuildSettings(row["takeover_level"], bool(row["web"]))


def vacation_record(r: Row) -> Vacation:
    return Vacation(int(r["guild_id"]), int(r["user_id"]), r["starts_at"], r["ends_at"])


def rating_row(r: Row) -> RatingRow:
    return RatingRow(int(r["guild_id"]), r["kind"], int(r["user_id"]), r["mu"], r["sigma"])
