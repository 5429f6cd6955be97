"""Backend-neutral storage interface: records, errors and the ``Storage`` protocol.

Cogs and services only see these types, so the database (SQLite or PostgreSQL)
changes without touching them.

Concurrency contract: every write names the ``version`` the caller last saw;
if the game moved on meanwhile the write changes nothing and raises
:class:`StaleVersion` ("the board changed under you"). Version is checked
first, then status, so a stale caller always learns it is stale.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Final, Literal, Protocol, Self, TypeGuard

GameStatus = Literal["lobby", "active", "finished", "cancelled"]
STATUSES: Final[tuple[GameStatus, ...]] = ("lobby", "active", "finished", "cancelled")
OPEN_STATUSES: Final[tuple[GameStatus, ...]] = ("lobby", "active")


def is_status(value: str) -> TypeGuard[GameStatus]:
    return value in STATUSES


# --------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class SeatRecord:
    seat: int  # 0-based; players see seat + 1
    user_id: int | None  # None for bot seats
    name: str
    is_bot: bool
    resigned: bool = False
    # The AI plays this human's seat: "away" (voted after the clock ran out;
    # acting takes it back) or "removed" (by a moderator, for good).
    replaced: str | None = None

    @property
    def ai_played(self) -> bool:
        """Bots, and humans whose seat the AI now plays (resigned or replaced)."""
        return self.is_bot or self.resigned or self.replaced is not None

    @property
    def out(self) -> bool:
        """A human no longer in the running: ranks last when the game ends."""
        return not self.is_bot and (self.resigned or self.replaced is not None)


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: int
    kind: str
    guild_id: int
    channel_id: int
    status: GameStatus
    creator_id: int
    options: dict[str, str]
    seed: int
    state: dict[str, Any] | None  # engine dump; None until the game starts
    version: int
    created_at: str  # ISO-8601 UTC
    updated_at: str
    seats: tuple[SeatRecord, ...]
    finished_at: str | None = None  # set when finished or cancelled
    lang: str = "en"  # the game's language: public posts and boards use it
    clock_hours: float = 0.0  # a turn's time; 0 = no clock
    turn_since: str | None = None  # when the current wait began
    clock_stage: int = 0  # 0 nothing sent, 1 half-time reminder sent, 2 time ran out
    clock_due: str | None = None  # when the clock must next be looked at
    board_message_id: int | None = None  # the latest public board post
    # Every turn is announced (migration 008): the version the latest public board
    # post showed, the version a turn post must show (the latest turn-ending move's,
    # or the start's) and when another process may post it if its handler has not.
    posted_version: int = 0
    announce_version: int = 0
    announce_due: str | None = None
    # The level of the game's bot seats (games/levels.py; migration 009): chosen
    # at /game new; games from before it keep the greedy bots they began with.
    bot_level: str = "easy"

    @property
    def unannounced(self) -> bool:
        """A turn ended (or the game started) and no public post has shown it yet."""
        return self.announce_version > self.posted_version

    def seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` holds in this game, or None."""
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None


@dataclass(frozen=True, slots=True)
class MoveRecord:
    ply: int  # 1, 2, … per game
    seat: int
    notation: str
    created_at: str
    version: int | None = None  # the game version this move produced (None before v2)
    events: tuple[dict[str, Any], ...] = ()  # the engine's events, as JSON
    ends_turn: bool = True  # False while the seat still acts after it (a turn's first camel)
    undoes: int | None = None  # an undo row: the ply of the first row it took back
    undone: bool = False  # this row was taken back by a later undo
    by_ai: bool = False  # the AI decided it (a bot, or a human's seat the AI plays)

    @property
    def counts(self) -> bool:
        """Part of the game as it stands: neither taken back nor an undo itself."""
        return not self.undone and self.undoes is None


@dataclass(frozen=True, slots=True)
class ReplyHook:
    """The interaction being answered, whose public "thinking…" placeholder a turn
    post fills: its application id and token (a webhook's, valid 15 minutes).

    The token lets anyone answer as the bot: it is kept out of the repr, and
    stored as :attr:`path`, the form the log scrubber hides."""

    application_id: int
    token: str = field(repr=False)

    @property
    def path(self) -> str:
        return f"/webhooks/{self.application_id}/{self.token}"

    @classmethod
    def from_path(cls, path: str | None) -> ReplyHook | None:
        """The hook :attr:`path` wrote, or None (no hook, or not one of ours)."""
        parts = (path or "").split("/")
        if len(parts) != 4 or parts[:2] != ["", "webhooks"] or not parts[2].isdigit():
            return None
        return cls(int(parts[2]), parts[3]) if parts[3] else None


@dataclass(frozen=True, slots=True)
class Unannounced:
    """A game whose latest turn has no public post though its time is up: what a
    late post needs (the game, and the placeholder it may replace)."""

    game: GameRecord
    hook: ReplyHook | None


@dataclass(frozen=True, slots=True)
class ResultRow:
    seat: int
    user_id: int | None
    name: str
    score: int
    rank: int  # 1 is best; ties share a rank
    won: bool


@dataclass(frozen=True, slots=True)
class LeaderRow:
    user_id: int
    name: str  # the name used in the player's latest finished game
    games: int
    wins: int
    win_rate: float  # wins / games
    points: int  # sum of final scores
    placement: float = 0.0  # average rank
    mu: float | None = None  # the rating of this game (None: all games, or never rated)
    sigma: float | None = None


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One finished game of a player, for /stats."""

    game_id: int
    kind: str
    channel_id: int
    finished_at: str
    rank: int
    score: int
    players: int
    won: bool


@dataclass(frozen=True, slots=True)
class UserSettings:
    lang: str | None = None  # None: the interaction's locale
    dm_turn: bool = False  # a DM when it is my turn
    dm_reminders: bool = False  # clock reminders by DM instead of in the game's thread


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's settings kept in ``guild_settings`` (migration 009); a server
    that changed nothing has no row and reads these defaults."""

    # The level the AI plays a human's seat at (resigned, voted away, removed).
    takeover_level: str = "normal"
    # The server's web pages (web/), when the bot serves them: /game settings web:off hides them.
    web: bool = True


@dataclass(frozen=True, slots=True)
class Vacation:
    guild_id: int
    user_id: int
    starts_at: str
    ends_at: str


@dataclass(frozen=True, slots=True)
class RatingRow:
    guild_id: int
    kind: str
    user_id: int
    mu: float
    sigma: float


@dataclass(frozen=True, slots=True)
class Shards:
    """The Discord shards one process runs: ``ids`` out of ``count``.

    A guild belongs to shard ``(guild_id >> 22) % count`` (Discord's formula);
    the background queries take ``shards=`` to see only the guilds it owns.
    """

    count: int
    ids: frozenset[int]

    def __post_init__(self) -> None:
        if isinstance(self.count, bool) or not isinstance(self.count, int) or self.count < 1:
            raise InvalidRequest(f"a shard count is a whole number >= 1, not {self.count!r}")
        ids = frozenset(self.ids)  # a set or list given by mistake is frozen, not shared
        if not ids:
            raise InvalidRequest("a process runs at least one shard")
        if not all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
            raise InvalidRequest(f"shard ids are whole numbers, not {sorted(map(repr, ids))}")
        if not all(0 <= i < self.count for i in ids):
            raise InvalidRequest(f"shard ids must be within 0..{self.count - 1}: {sorted(ids)}")
        object.__setattr__(self, "ids", ids)

    def owns(self, guild_id: int) -> bool:
        """Whether ``guild_id`` is on one of these shards."""
        return (guild_id >> 22) % self.count in self.ids


def results_for(
    seats: Sequence[SeatRecord],
    scores: Sequence[int],
    ranks: Sequence[int],
    winners: Collection[int],
) -> tuple[ResultRow, ...]:
    """Build result rows from an engine outcome (scores/ranks indexed by seat)."""
    if not len(seats) == len(scores) == len(ranks):
        raise InvalidRequest("seats, scores and ranks must have the same length")
    return tuple(
        ResultRow(s.seat, s.user_id, s.name, scores[s.seat], ranks[s.seat], s.seat in winners)
        for s in seats
    )


# --------------------------------------------------------------------------- errors


class StorageError(Exception):
    """Base class of everything the storage layer raises on purpose."""


class StorageUnavailable(StorageError):
    """The database could not answer now (unreachable, restarting, out of
    connections, locked): trying again a little later may work. (A write whose
    connection was lost may or may not have landed; versions and claims make
    retrying it safe.) Background jobs retry on it; anything else is a bug."""


class StorageBusy(StorageUnavailable):
    """The database stayed locked by another process past the busy timeout."""


class MigrationError(StorageError):
    """A migration failed, or the database is newer than this code."""


class DatabaseCorrupt(StorageError):
    """The database file fails SQLite's integrity check (or is not a database at all).

    The message is one line: the file, what is wrong, and how to restore a backup.
    """

    def __init__(self, path: str, detail: str) -> None:
        name = os.path.basename(path)
        super().__init__(
            f"The database {path} is damaged ({detail}). Stop the bot, replace {name} with"
            f" your latest backup (and delete {name}-wal and {name}-shm beside it if present),"
            ' then start the bot again; see README.md, "Backups".'
        )
        self.path = path
        self.detail = detail


class InvalidRequest(StorageError, ValueError):
    """The call itself is malformed (bad permutation, unknown seat, bad results…)."""


class NotFound(StorageError):
    def __init__(self, game_id: int, message: str | None = None) -> None:
        super().__init__(message or f"game {game_id} not found")
        self.game_id = game_id


class NotSeated(NotFound):
    def __init__(self, game_id: int, user_id: int) -> None:
        super().__init__(game_id, f"user {user_id} has no seat in game {game_id}")
        self.user_id = user_id


class StaleVersion(StorageError):
    """Someone else changed the game first; reload and tell the user."""

    def __init__(self, game_id: int, expected: int, actual: int | None = None) -> None:
        super().__init__(f"game {game_id} is at version {actual}, not {expected}")
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class ChannelBusy(StorageError):
    """The channel already holds a lobby or active game."""

    def __init__(self, existing_game_id: int) -> None:
        super().__init__(f"this channel already has an open game ({existing_game_id})")
        self.existing_game_id = existing_game_id


class SeatTaken(StorageError):
    """A seat cannot be taken."""


class AlreadySeated(SeatTaken):
    def __init__(self, game_id: int, user_id: int, seat: int) -> None:
        super().__init__(f"user {user_id} already holds seat {seat} in game {game_id}")
        self.game_id = game_id
        self.user_id = user_id
        self.seat = seat


class WrongStatus(StorageError):
    """The game's status does not allow this operation."""

    def __init__(self, game_id: int, status: str) -> None:
        super().__init__(f"game {game_id} is {status}")
        self.game_id = game_id
        self.status = status


class NotInLobby(WrongStatus):
    pass


class NotActive(WrongStatus):
    pass


# --------------------------------------------------------------------------- interface


class Storage(Protocol):
    """What the bot needs from a database. All methods are coroutine-safe."""

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def __aenter__(self) -> Self: ...

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...

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
        """Open a lobby; the creator takes seat 0. Raises ChannelBusy."""
        ...

    async def get_game(self, game_id: int) -> GameRecord | None: ...

    async def active_game(self, channel_id: int) -> GameRecord | None:
        """The channel's lobby or active game, if any."""
        ...

    async def latest_game(self, channel_id: int) -> GameRecord | None:
        """The channel's most recent game, whatever its status (finished ones stay
        visible until a new game starts there)."""
        ...

    async def list_games(
        self, guild_id: int, statuses: Collection[str] | None = None, limit: int = 25
    ) -> list[GameRecord]:
        """Most recently updated first."""
        ...

    async def server_games(
        self, guild_id: int, statuses: Collection[str], limit: int = 25, offset: int = 0
    ) -> list[GameRecord]:
        """A server's games in ``statuses``, newest first (by number, so that pages
        stay put while games are played), ``offset`` games skipped."""
        ...

    async def count_games(self, guild_id: int, statuses: Collection[str]) -> int:
        """How many of a server's games are in ``statuses``."""
        ...

    async def active_games_after(
        self,
        after_id: int,
        limit: int = 100,
        statuses: Collection[str] = ("active",),
        *,
        shards: Shards | None = None,
    ) -> list[GameRecord]:
        """Games of every guild (with ``shards``: of the guilds on those shards)
        with one of ``statuses`` and ``id > after_id``, in id order, at most
        ``limit``: page through them all by passing the last id seen
        (``after_id=0`` first) until a page comes back shorter than ``limit``."""
        ...

    async def open_games_of(self, guild_id: int, user_id: int) -> list[GameRecord]:
        """The guild's lobby and active games where ``user_id`` holds a seat (resigned
        seats included: check ``seats[…].resigned``), in id order."""
        ...

    async def idle_lobbies(self, before: str, *, shards: Shards | None = None) -> list[GameRecord]:
        """Lobbies of every guild (with ``shards``: of the guilds on those shards)
        last updated before ``before`` (ISO-8601 with a UTC offset, e.g.
        ``datetime.now(UTC).isoformat()``), oldest update first."""
        ...

    async def add_seat(
        self, game_id: int, version: int, user_id: int | None, name: str, is_bot: bool
    ) -> GameRecord:
        """Take the next free seat (lobby only). Raises AlreadySeated, NotInLobby."""
        ...

    async def remove_seat(self, game_id: int, version: int, user_id: int) -> GameRecord:
        """Leave the lobby; later seats move down so numbers stay 0..n-1. The
        creator may leave too; cancelling an empty lobby is the caller's call."""
        ...

    async def remove_bot_seat(self, game_id: int, version: int, seat: int) -> GameRecord:
        """Take a bot seat out of the lobby; later seats move down."""
        ...

    async def start_game(
        self,
        game_id: int,
        version: int,
        seat_order: Sequence[int],
        state: dict[str, Any],
        *,
        reply_hook: ReplyHook | None = None,
    ) -> GameRecord:
        """lobby -> active; new seat i is old seat ``seat_order[i]``. Like a
        turn-ending move, it owes a public post (see :meth:`record_move`)."""
        ...

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
        """One transaction: new state, version+1, next move-log row (with its
        events); with ``results`` the game also finishes (see :meth:`finish_game`).

        A move that ends a turn (or the game) also notes, in the same UPDATE, the
        public post it owes: ``announce_version`` = the new version, due from
        ``ANNOUNCE_GRACE`` on (when another process may post it, see
        :meth:`unannounced`), and ``reply_hook``, the interaction being answered
        (a later post may replace its placeholder), if any."""
        ...

    async def turn_moves(self, game_id: int) -> list[MoveRecord]:
        """The latest turn: the rows after the last one that ended a turn before
        the newest row, up to the newest (one turn made of several commands)."""
        ...

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
        """One transaction: the (human, not yet resigned) seat resigns, the state is
        saved, version+1; with ``results`` the game also finishes (see
        :meth:`finish_game`), with ``cancel`` it is cancelled instead (not both)."""
        ...

    async def set_seat_resigned(
        self, game_id: int, version: int, seat: int, state: dict[str, Any]
    ) -> GameRecord:
        """Older form of :meth:`resign_seat` without an ending."""
        ...

    async def cancel_game(self, game_id: int, version: int) -> GameRecord: ...

    async def finish_game(
        self, game_id: int, version: int, state: dict[str, Any], results: Sequence[ResultRow]
    ) -> GameRecord:
        """active -> finished with one result row per seat. Each row's user_id must
        match its seat; names are read back from the seats."""
        ...

    async def moves(self, game_id: int, *, since_version: int = 0) -> list[MoveRecord]:
        """The move log in order; with ``since_version``, only moves that produced a
        later version (who moved since a given board)."""
        ...

    async def results(self, game_id: int) -> list[ResultRow]: ...

    async def leaderboard(
        self, guild_id: int, kind: str | None = None, limit: int = 25
    ) -> list[LeaderRow]:
        """Humans in finished games. With ``kind``: by rating (ordinal), unrated
        players after; without: by wins, win rate, games played."""
        ...

    async def get_meta(self, key: str) -> str | None: ...

    async def set_meta(self, key: str, value: str) -> None: ...

    # ---------------------------------------------------------------- async play

    async def due_clocks(
        self, now: str, limit: int = 100, *, shards: Shards | None = None
    ) -> list[GameRecord]:
        """Active games (with ``shards``: of the guilds on those shards) whose clock
        is due at ``now`` (ISO-8601 UTC), soonest first, at most ``limit``."""
        ...

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
        """Compare-and-set the clock: only if the game is active, still at
        ``version`` and at clock ``stage``; sets ``new_stage`` and ``due`` (and
        ``turn_since`` when given). True for the one caller that wins. Does not
        change the version (buttons stay valid)."""
        ...

    async def set_board_message(self, game_id: int, message_id: int, version: int) -> None:
        """Remember the latest public board post, which showed the game at
        ``version`` (no version change): the turn post owed up to that version is
        no longer owed (see :meth:`mark_announced`)."""
        ...

    # ---------------------------------------------------------------- announcements

    async def mark_announced(self, game_id: int, version: int) -> None:
        """The game was shown publicly at ``version``: ``posted_version`` becomes
        at least that, and if that covers ``announce_version`` nothing is owed any
        more (the due time and the interaction's hook are cleared)."""
        ...

    async def unannounced(
        self, now: str, limit: int = 100, *, shards: Shards | None = None
    ) -> list[Unannounced]:
        """Active and finished games (with ``shards``: of the guilds on those shards)
        whose latest turn has no public post (``announce_version >
        posted_version``) though it was due at ``now`` (ISO-8601 with a UTC
        offset), most overdue first, at most ``limit``."""
        ...

    async def claim_announcement(self, game_id: int, version: int, due: str, until: str) -> bool:
        """Compare-and-set, so that one process posts a late turn: only if the game
        is active or finished, the post owed is still the one for ``version`` and
        still due at ``due`` (as :meth:`unannounced` gave it: nobody claimed it
        since); it becomes due at
        ``until``, when another process may try if this one has not posted by then.
        True for the one caller that wins. Does not change the version."""
        ...

    async def replace_seat(
        self, game_id: int, version: int, seat: int, replaced: str | None
    ) -> GameRecord:
        """A human seat is played by the AI ("away", "removed") or taken back (None)."""
        ...

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
        """One transaction: the rows from ``first_ply`` on that still count are taken
        back, an undo row is appended, the state is set, version+1, the clock restarts."""
        ...

    async def cast_vote(
        self, game_id: int, question: str, user_id: int, choice: str
    ) -> dict[int, str]:
        """Record (or change) a vote; returns every vote on that question."""
        ...

    async def user_settings(self, user_id: int) -> UserSettings: ...

    async def set_user_settings(self, user_id: int, settings: UserSettings) -> None: ...

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (the defaults if it changed none)."""
        ...

    async def set_guild_settings(self, guild_id: int, settings: GuildSettings) -> None: ...

    async def vacations(self, guild_id: int, user_ids: Collection[int]) -> list[Vacation]:
        """Vacations of these players in the server, in start order."""
        ...

    async def add_vacation(self, vacation: Vacation) -> None: ...

    async def end_vacation(self, guild_id: int, user_id: int, now: str) -> bool:
        """End a running vacation at ``now``; False if none was running."""
        ...

    async def ratings(self, guild_id: int, kind: str) -> dict[int, tuple[float, float]]:
        """(mu, sigma) per user of one game in one server."""
        ...

    async def all_ratings(self) -> list[RatingRow]: ...

    async def rebuild_ratings(self) -> int:
        """Recompute every rating from the stored results (oldest game first);
        returns how many games were rated."""
        ...

    async def player_games(self, guild_id: int, user_id: int, limit: int = 10) -> list[PlayedGame]:
        """A player's latest finished games in the server, newest first."""
        ...

    async def player_records(self, guild_id: int, user_id: int) -> list[tuple[str, LeaderRow]]:
        """Per game kind, the player's totals and rating in the server."""
        ...

    # ---------------------------------------------------------------- several processes

    async def take_lease(self, name: str, holder: str, now: str, until: str) -> bool:
        """Hold the lease ``name`` (one job that one process of several runs) until
        ``until``: taken if nobody holds it, or its holder's time ran out
        (``expires_at <= now``), or extended if ``holder`` holds it already. True
        if ``holder`` holds it afterwards. Atomic: of processes racing for a free
        lease exactly one gets True. Times are ISO-8601 with a UTC offset;
        ``until`` must be after ``now``."""
        ...

    async def release_lease(self, name: str, holder: str) -> None:
        """Give the lease up, if ``holder`` holds it (otherwise nothing happens)."""
        ...
