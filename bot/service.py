"""Game sessions: the lobby and move flow, between storage and the engines.

Discord-free so it can be tested with a real database and no network. The
cogs translate interactions into these calls and the results into replies.
Everything game-specific comes from the registered :class:`GameSpec`\\ s;
the values it hands out (sessions, reports, standings) are in
:mod:`bot.session`.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import AsyncIterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.absence import Absence
from bot.clocks import CLOCKS, DEFAULT_CLOCK
from bot.cpu import INLINE, CpuPool
from bot.errors import UserError
from bot.names import clean_name, md
from bot.session import (
    CancelVote,
    MoveReport,
    Saved,
    Session,
    Turn,
    result_rows,
    seating,
)
from bot.sessions import Sessions
from bot.storage import ChannelBusy as StorageChannelBusy
from bot.storage import GameRecord, MoveRecord, ReplyHook, Shards, StaleVersion, Storage
from bot.undo_requests import UndoRequests, vote_hours
from games.contract import (
    Event,
    GameSpec,
    MoveError,
    Outcome,
    Seat,
    Step,
    play_all,
    resolve_options,
)
from games.levels import LEVELS, play_level
from games.rng import derive_seed

log = logging.getLogger(__name__)

BOT_NAMES = ("Zahra", "Idris", "Layla", "Tariq", "Amina", "Yusuf")
MAX_NOTATION = 200  # longer text is never a move; refuse before parsing
RECHECKS = 5  # a move re-checked after other seats moved first, at most this often
PAGE = 100  # games read at a time by background jobs
HALF_COURSE = 0.5  # a game cut short by resignations counts from this progress on
DEFAULT_LEVEL = "normal"  # the bots of a new table (/game new level:), games/levels.py

# The interaction the current task answers, set by the Discord layer before it
# handles one (bot.app.prepare_interaction): a turn-ending write notes it with
# the post it owes, so a late post can replace its "thinking…" (cogs/announce.py).
# AI moves played in the same task belong to the same answer.
REPLY_HOOK: ContextVar[ReplyHook | None] = ContextVar("reply_hook", default=None)


class _ReadAgain(Exception):
    """A move tried on a cached session must be tried again from the database."""


@dataclass(frozen=True)
class Limits:
    """Per user and server (no squatting); set from the configuration."""

    lobbies: int = 2  # open lobbies one has created
    games: int = 10  # lobbies and running games one sits in
    lobby_hours: float = 48.0  # a lobby untouched this long closes (0 = never)


def cancel_asked_key(game_id: int) -> str:
    """The ``meta`` key holding when the players were last asked to cancel a game."""
    return f"cancel_asked:{game_id}"


def check_level(level: str) -> str:
    """``level`` if it is a bot level (games/levels.py), else the player's refusal."""
    if level not in LEVELS:
        raise UserError("lobby.bad_level", level=level[:20])
    return level


def counts_when_cut_short(session: Session) -> bool:
    """Whether a game that resignations or removals end (not its own rules)
    has run far enough to count: half its course, by the engine's measure.
    Before that it is cancelled: one move each and a resignation is no win."""
    return session.progress >= HALF_COURSE


def turns_of(rows: Sequence[MoveRecord]) -> list[Turn]:
    """Move-log rows as turns (public events only), in order."""
    turns: list[Turn] = []
    open_turn = False  # the previous row did not end its seat's turn
    for row in rows:
        events = tuple(Event.from_json(e) for e in row.events if e.get("to") is None)
        if turns and open_turn and turns[-1].seat == row.seat:
            last = turns[-1]
            turns[-1] = Turn(row.seat, (*last.moves, row.notation), False, last.events + events)
        else:
            turns.append(Turn(row.seat, (row.notation,), False, events))
        open_turn = not row.ends_turn
    return turns


class GameService:
    """The game actions (lobby, start, play, resign, cancel, AI seats), with
    turn clocks and absences (:attr:`absence`) and undo (:attr:`undo_requests`)
    beside it on the same :class:`~bot.sessions.Sessions`."""

    def __init__(
        self,
        storage: Storage,
        games: Mapping[str, GameSpec] | None = None,
        limits: Limits | None = None,
        cpu: CpuPool = INLINE,
    ) -> None:
        self.sessions = Sessions(storage, games, cpu)
        self.storage = storage
        self.cpu = cpu  # where AI seats think (the bot's worker processes)
        self.games = self.sessions.games
        self.limits = limits or Limits()
        self.absence = Absence(self.sessions)
        self.undo_requests = UndoRequests(self.sessions)

    # ------------------------------------------------------------------ loading

    def forget_cached_states(self) -> None:
        """Drop loaded states (benchmarks measure the cold path with it)."""
        self.sessions.forget_cached_states()

    def spec(self, key: str) -> GameSpec:
        return self.sessions.spec(key)

    def session_of(self, record: GameRecord) -> Session:
        return self.sessions.of(record)

    async def session_in(self, channel_id: int) -> Session | None:
        return await self.sessions.in_channel(channel_id)

    async def require_session(self, channel_id: int) -> Session:
        return await self.sessions.required(channel_id)

    async def latest_in(self, channel_id: int) -> Session:
        """The channel's game: the open one, else the last finished or cancelled one
        (it stays visible until a new game starts there)."""
        return await self.sessions.latest_in(channel_id)

    async def get(self, game_id: int) -> Session | None:
        return await self.sessions.get(game_id)

    async def history(self, session: Session) -> list[Turn]:
        """The move log as turns (public events only), in order."""
        return turns_of(await self.storage.moves(session.id))

    async def remove_bot(self, channel_id: int, user_id: int, seat: Seat) -> Session:
        """The lobby's creator takes a bot seat away."""
        session = await self.require_session(channel_id)
        record = session.record
        if record.status != "lobby":
            raise UserError("lobby.already_started")
        if user_id != record.creator_id:
            raise UserError("lobby.only_creator_removes")
        if not 0 <= seat < len(record.seats) or not record.seats[seat].is_bot:
            raise UserError("lobby.not_a_bot", seat=seat + 1)
        record = await self.sessions.unless_stale(
            self.storage.remove_bot_seat(record.id, record.version, seat)
        )
        return self.sessions.of(record)

    # ------------------------------------------------------------------ lobby

    async def create(
        self,
        *,
        kind: str,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        bots: int = 0,
        options: Mapping[str, str] | None = None,
        lang: str = "en",
        clock: str = DEFAULT_CLOCK,
        level: str = DEFAULT_LEVEL,
    ) -> Session:
        """Open a lobby: its creator seated, ``bots`` bot seats that will play at
        ``level`` (one of games/levels.py's LEVELS)."""
        spec = self.spec(kind)
        # Again, though /game new checked before posting: another lobby of
        # this player's may have been created meanwhile.
        chosen = await self.check_create(kind, guild_id, user_id, bots, options, clock, level)
        try:
            record = await self.storage.create_game(
                spec.kind,
                guild_id,
                channel_id,
                user_id,
                clean_name(name),
                chosen,
                secrets.randbits(62),
                lang,
                CLOCKS[clock],
                level,
            )
        except StorageChannelBusy as exc:
            raise UserError("lobby.channel_busy") from exc
        for index in range(bots):
            record = await self.storage.add_seat(
                record.id, record.version, None, f"🤖 {BOT_NAMES[index]}", True
            )
        return self.sessions.of(record)

    async def check_create(
        self,
        kind: str,
        guild_id: int,
        user_id: int,
        bots: int = 0,
        options: Mapping[str, str] | None = None,
        clock: str = DEFAULT_CLOCK,
        level: str = DEFAULT_LEVEL,
    ) -> dict[str, str]:
        """Everything /game new can get wrong, the player's caps included, checked
        before anything is posted or created; returns the options with their
        defaults."""
        if clock not in CLOCKS:
            raise UserError("lobby.bad_clock", clock=clock[:20])
        check_level(level)
        chosen = self.check_new(kind, bots, options)
        await self._check_caps(guild_id, user_id, creating=True)
        return chosen

    def check_new(self, kind: str, bots: int, options: Mapping[str, str] | None) -> dict[str, str]:
        """What /game new can get wrong about the game itself (no database);
        returns the options with their defaults."""
        engine = self.spec(kind).engine
        if not 0 <= bots <= engine.max_players - 1:
            raise UserError("lobby.bad_bot_count", max=engine.max_players - 1)
        return resolve_options(engine.options, options)  # InvalidOption: nothing stored

    async def _check_caps(self, guild_id: int, user_id: int, *, creating: bool) -> None:
        """No squatting: a few open lobbies of one's own, a bounded number of games."""
        mine = [
            g
            for g in await self.storage.open_games_of(guild_id, user_id)
            if not any(s.user_id == user_id and s.resigned for s in g.seats)
        ]
        created = [g for g in mine if g.status == "lobby" and g.creator_id == user_id]
        if creating and len(created) >= self.limits.lobbies:
            raise UserError("lobby.too_many_lobbies", max=self.limits.lobbies)
        if len(mine) >= self.limits.games:
            raise UserError("lobby.too_many_games", max=self.limits.games)

    async def threads_enabled(self, guild_id: int) -> bool:
        """Whether this server plays each game in its own thread (the default)."""
        return await self.storage.get_meta(f"threads:{guild_id}") != "off"

    async def set_threads(self, guild_id: int, enabled: bool) -> None:
        await self.storage.set_meta(f"threads:{guild_id}", "on" if enabled else "off")

    async def takeover_level(self, guild_id: int) -> str:
        """The level the AI plays a human's seat at in this server (resigned,
        voted away, removed): the server's setting, ``normal`` by default."""
        return (await self.storage.guild_settings(guild_id)).takeover_level

    async def set_takeover_level(self, guild_id: int, level: str) -> None:
        settings = await self.storage.guild_settings(guild_id)
        await self.storage.set_guild_settings(
            guild_id, replace(settings, takeover_level=check_level(level))
        )

    async def web_enabled(self, guild_id: int) -> bool:
        """Whether this server's games and standings are on the web pages (the
        default), when the bot serves them: the server's setting."""
        return (await self.storage.guild_settings(guild_id)).web

    async def set_web(self, guild_id: int, enabled: bool) -> None:
        settings = await self.storage.guild_settings(guild_id)
        await self.storage.set_guild_settings(guild_id, replace(settings, web=enabled))

    async def join(self, channel_id: int, user_id: int, name: str) -> Session:
        session = await self.require_session(channel_id)
        record = session.record
        if record.status != "lobby":
            raise UserError("lobby.already_started")
        if session.seat_of(user_id) is not None:
            raise UserError("lobby.already_joined")
        if len(record.seats) >= session.engine.max_players:
            raise UserError("lobby.full", max=session.engine.max_players)
        await self._check_caps(record.guild_id, user_id, creating=False)
        record = await self.sessions.unless_stale(
            self.storage.add_seat(record.id, record.version, user_id, clean_name(name), False)
        )
        return self.sessions.of(record)

    async def leave(self, channel_id: int, user_id: int) -> tuple[Session, bool]:
        """Leave a lobby. Returns (session, cancelled): the creator leaving closes it."""
        session = await self.require_session(channel_id)
        record = session.record
        if record.status != "lobby":
            raise UserError("lobby.leave_started")
        if session.seat_of(user_id) is None:
            raise UserError("game.not_a_player")
        if user_id == record.creator_id:
            record = await self.sessions.unless_stale(
                self.storage.cancel_game(record.id, record.version)
            )
            return self.sessions.of(record), True
        record = await self.sessions.unless_stale(
            self.storage.remove_seat(record.id, record.version, user_id)
        )
        return self.sessions.of(record), False

    async def start(self, channel_id: int, user_id: int, first: Seat | None = None) -> Saved:
        """Start the lobby; ``first`` (a lobby seat) plays first, else drawn from the seed.
        AI seats to act first play in :meth:`settle`."""
        session = await self.require_session(channel_id)
        record = session.record
        if record.status != "lobby":
            raise UserError("lobby.already_started")
        if user_id != record.creator_id:
            raise UserError("lobby.only_creator_starts")
        count = len(record.seats)
        if count < session.engine.min_players:
            raise UserError("lobby.too_few", min=session.engine.min_players, count=count)
        if first is not None and not 0 <= first < count:
            raise UserError("lobby.no_such_seat", seat=first + 1, count=count)
        order = seating(record.seed, count, first)
        state = session.engine.new(count, record.seed, record.options)
        record = await self.sessions.unless_stale(
            self.storage.start_game(
                record.id,
                record.version,
                order,
                session.engine.dump(state),
                reply_hook=REPLY_HOOK.get(),
            )
        )
        return Saved(session, self.sessions.of(record))

    async def cancel(self, channel_id: int, user_id: int, is_admin: bool) -> Session:
        """Cancel from the record alone (a broken game too). A lobby: its creator
        or Manage Server; a running game: Manage Server (the players agree by
        vote instead, see :meth:`vote_cancel`)."""
        session = await self.require_session(channel_id)
        creator = user_id == session.record.creator_id
        if is_admin or (creator and (session.record.status == "lobby" or session.broken)):
            pass
        elif session.record.status == "active" and session.seat_of(user_id) is not None:
            raise UserError("game.cancel_needs_vote")
        else:
            raise UserError("game.cancel_forbidden")
        record = await self.sessions.unless_stale(
            self.storage.cancel_game(session.id, session.record.version)
        )
        return self.sessions.of(record)

    async def cancel_by_id(self, guild_id: int, game_id: int, is_moderator: bool) -> Session:
        """A server moderator cancels any open game of the server, from anywhere."""
        if not is_moderator:
            raise UserError("game.cancel_forbidden")
        record = await self.storage.get_game(game_id)
        if (
            record is None
            or record.guild_id != guild_id
            or record.status not in ("lobby", "active")
        ):
            raise UserError("game.no_such_game", id=game_id)
        record = await self.sessions.unless_stale(
            self.storage.cancel_game(record.id, record.version)
        )
        return self.sessions.of(record)

    async def vote_cancel(self, channel_id: int, user_id: int, game_id: int) -> CancelVote:
        """A player agrees to cancel the running game; when every human still in
        agrees, it is cancelled (the creator alone cannot, nor can anyone else).
        The tally is the ``votes`` table, so clicks on two processes count once."""
        # By id, not as the channel's open game: when the last two agree at once,
        # the other click may have cancelled it a moment ago, and this one must
        # find it cancelled rather than "no game here".
        found = await self.sessions.get(game_id)
        if (
            found is None
            or found.record.channel_id != channel_id
            or found.record.status not in ("active", "cancelled")
        ):
            raise UserError("button.old_game")
        session = found
        seat = session.seat_of(user_id)
        if seat is None or session.seat(seat).out:
            raise UserError("game.not_a_player")
        votes = await self.storage.cast_vote(game_id, "cancel", user_id, "yes")
        needed = [s for s in session.record.seats if s.user_id is not None and not s.ai_played]
        waiting = tuple(md(s.name) for s in needed if s.user_id not in votes)
        if session.record.status == "cancelled":
            if waiting:  # cancelled otherwise (a moderator): this vote is too late
                raise UserError("button.old_game")
            return CancelVote(session, cancelled=True, waiting=())
        if waiting:
            return CancelVote(session, cancelled=False, waiting=waiting)
        try:
            record = await self.storage.cancel_game(game_id, session.record.version)
        except StaleVersion:
            now = await self.storage.get_game(game_id)  # the last two agreed at once?
            if now is None or now.status != "cancelled":
                raise UserError("game.stale") from None
            record = now
        return CancelVote(self.sessions.of(record), cancelled=True, waiting=())

    async def propose_cancel(self, channel_id: int, user_id: int, now: datetime) -> CancelVote:
        """/game cancel from a player of the running game: his agreement, and the
        public question to the others. Asked once: while an earlier question is
        still open (within the game's vote time), a repeat is refused privately
        instead of posting and pinging everyone again (they agree with its button)."""
        session = await self.require_session(channel_id)
        if await self._cancel_asked_lately(session, now):
            raise UserError("game.cancel_vote_open")
        vote = await self.vote_cancel(channel_id, user_id, session.id)
        if not vote.cancelled:
            await self.storage.set_meta(cancel_asked_key(session.id), str(int(now.timestamp())))
        return vote

    async def _cancel_asked_lately(self, session: Session, now: datetime) -> bool:
        """The players were asked to cancel this game less than a vote's time ago."""
        asked = await self.storage.get_meta(cancel_asked_key(session.id))
        if asked is None:
            return False
        since = now - datetime.fromtimestamp(int(asked), UTC)
        return since < timedelta(hours=vote_hours(session))

    # ------------------------------------------------------------------ play

    def _playing_seat(self, session: Session, user_id: int) -> Seat:
        if session.broken:
            raise UserError("game.broken", id=session.id)
        if session.record.status == "lobby":
            raise UserError("game.not_started")
        seat = session.seat_of(user_id)
        if seat is None:
            raise UserError("game.not_a_player")
        if session.seat(seat).resigned:
            raise UserError("game.you_resigned")
        if session.seat(seat).replaced == "removed":
            raise UserError("game.you_were_removed")
        return seat

    async def play(
        self,
        channel_id: int,
        user_id: int,
        text: str,
        *,
        expected_version: int | None = None,
        kind: str | None = None,
    ) -> Saved:
        """Parse and apply a player's command and save it (AI seats move in :meth:`settle`).

        ``kind``: the game the command is for (``/desert move``); another game in
        the channel refuses it, naming its own command.

        ``expected_version`` is the board the player acted on (a button). If
        other seats moved since, the command is re-checked on the new board
        and applied when still legal; if this seat moved since (a double
        click, a second device), it is refused as stale: one command never
        acts twice.

        The game is first taken as this process last wrote or read it (at most
        ``RECENT_SECONDS`` ago: one read fewer per move); the write checks its
        version anyway, and a refusal is only ever said from a fresh read.
        """
        text = text.strip()
        recent = await self.sessions.recent_in_channel(channel_id)
        if recent is not None:
            try:
                return await self._play(recent, user_id, text, expected_version, kind, cached=True)
            except _ReadAgain:
                pass  # nothing was written: say it, or play it, from a fresh read
        session = await self.require_session(channel_id)
        return await self._play(session, user_id, text, expected_version, kind)

    async def _play(
        self,
        session: Session,
        user_id: int,
        text: str,
        expected_version: int | None,
        kind: str | None,
        *,
        cached: bool = False,
    ) -> Saved:
        """:meth:`play` on ``session``. ``cached``: a session perhaps behind the
        database, on which nothing is written but the move itself (its version
        guarded as always): a refusal, or a seat to take back, raises
        :class:`_ReadAgain` instead, for :meth:`play` to start from a read."""
        if kind is not None and session.kind != kind:
            if cached:
                raise _ReadAgain
            raise UserError("game.wrong_command", command=f"/{session.kind}")
        seen = session.record.version if expected_version is None else expected_version
        for _ in range(RECHECKS):
            try:
                seat = self._playing_seat(session, user_id)
                if session.seat(seat).replaced == "away":
                    if cached:
                        raise _ReadAgain
                    # Acting takes the seat back from the AI; the board is the same.
                    try:
                        session = await self.absence.take_back(session, seat)
                    except StaleVersion:
                        session = await self.require_session(session.record.channel_id)
                        continue
                    seen = session.record.version
                    if seat not in session.to_act:
                        waiting = ", ".join(session.shown(s) for s in session.awaited)
                        raise UserError("game.back_not_your_turn", players=waiting)
                if seen != session.record.version:
                    await self._refuse_if_moved_since(session, seat, seen)
                if seat not in session.to_act:
                    waiting = ", ".join(session.shown(s) for s in session.awaited)
                    raise UserError("game.not_your_turn", players=waiting)
                if not text:
                    raise UserError("move.empty")
                if len(text) > MAX_NOTATION:
                    raise UserError("move.too_long", max=MAX_NOTATION)
                engine = session.engine
                try:
                    moves = engine.parse(session.state, seat, text)
                    step = play_all(engine, session.state, seat, moves)
                except MoveError as refused:
                    refused.names = session.people()  # the refusal names people, not seats
                    raise
                # As the game writes a command, so the stored line parses back (replays).
                notation = engine.format_command(moves)
            except (UserError, MoveError):
                if cached:  # perhaps only as the cache is behind: say it from the database
                    raise _ReadAgain from None
                raise
            try:
                after = await self._record(session, seat, notation, step)
            except StaleVersion:
                # Someone else wrote first: look again at the new board (a cached
                # session was the board this command was checked on, as a read is).
                fresh = await self.get(session.id)
                if fresh is None or fresh.record.status != "active":
                    raise UserError("game.stale") from None
                seen, session, cached = session.record.version, fresh, False
                continue
            ended = after.record.status == "finished"
            if ended or step.ends_turn:
                turn = await self._whole_turn(after, seat, step.events)
                return Saved(session, after, ended=ended, _turns=(turn,))
            turn = Turn(seat, tuple(engine.format_move(m) for m in moves), False, step.events)
            return Saved(session, after, turn_over=False, _turns=(turn,))
        raise UserError("game.stale")

    async def _whole_turn(self, after: Session, seat: Seat, last: tuple[Event, ...]) -> Turn:
        """The turn that just ended: every command of it, the earlier ones' public
        events (their private ones were delivered then) and the last one's events."""
        rows = await self.storage.turn_moves(after.id)
        earlier = [
            Event.from_json(e)
            for row in rows[:-1]
            if row.seat == seat
            for e in row.events
            if e.get("to") is None
        ]
        moves = tuple(row.notation for row in rows if row.seat == seat)
        return Turn(seat, moves, False, (*earlier, *last))

    async def _refuse_if_moved_since(self, session: Session, seat: Seat, version: int) -> None:
        moved = await self.storage.moves(session.id, since_version=version)
        if any(m.seat == seat for m in moved):
            raise UserError("game.stale")

    async def resign(self, channel_id: int, user_id: int) -> Saved:
        """The AI takes over the seat (it plays in :meth:`settle`); the game ends
        when no real contest is left.

        A game that ends so before half its course (the engine's ``progress``)
        does not count: it is cancelled, not won, so a second account that
        resigns at once gives nobody a rated win. Resigning and ending are one
        transaction: a move racing it lands before or is refused.
        """
        for _ in range(RECHECKS):
            session = await self.require_session(channel_id)
            try:
                return await self._resign(session, self._playing_seat(session, user_id))
            except StaleVersion:
                continue  # someone moved meanwhile: resign on the new board
        raise UserError("game.stale")

    async def _resign(self, session: Session, seat: Seat) -> Saved:
        seats = [replace(s, resigned=True) if s.seat == seat else s for s in session.record.seats]
        still_in = [s for s in seats if not s.out]
        ends = len(still_in) <= 1 or all(s.is_bot for s in still_in)
        state = session.engine.dump(session.state)
        storage, game, version = self.storage, session.id, session.record.version
        if not ends:
            record = await storage.resign_seat(game, version, seat, state)
            return Saved(session, self.sessions.of(record))
        if counts_when_cut_short(session):
            results = result_rows(seats, None)
            record = await storage.resign_seat(game, version, seat, state, results)
            return Saved(session, self.sessions.of(record), ended=True)
        record = await storage.resign_seat(game, version, seat, state, cancel=True)
        return Saved(session, self.sessions.of(record), ended=True, void=True)

    # ------------------------------------------------------------------ AI seats

    async def settle(self, saved: Saved) -> MoveReport:
        """The whole answer to a saved action: the player's turn, then, once his
        turn is over, the turns of the AI seats (bots, resigned, away or removed
        players) that follow it, played now until a human must act. A step
        inside a turn (a first camel) leads to nothing yet.

        The only way to a saved action's turns (see :class:`~bot.session.Saved`):
        a front end cannot post a move and forget the AI's answer. Call it once
        the interaction is acknowledged; the AI may think for a while. A lost
        race means another handler is already playing the AI, so it just stops.
        """
        if not saved.turn_over:
            step = saved._turns
            return MoveReport(saved.before, saved.after, step, turn_over=False, void=saved.void)
        after, turns = await self._run_ai(saved.after)
        ended = saved.ended or after.record.status == "finished"
        return MoveReport(saved.before, after, (*saved._turns, *turns), ended, void=saved.void)

    async def advance(self, session: Session) -> MoveReport:
        """The AI turns due in a game that no player's action is waiting on:
        at start-up for the games a restart interrupted, and when a seat was
        just handed to the AI (a takeover vote, a moderator's removal). A
        player's action is answered with :meth:`settle` instead."""
        return await self.settle(Saved(session, session))

    # ------------------------------------------------------------------ background jobs

    async def all_games(
        self, statuses: tuple[str, ...] = ("active",), shards: Shards | None = None
    ) -> AsyncIterator[GameRecord]:
        """Every game with those statuses, of every server (or of the servers on
        ``shards``), page by page: a background job sees them all, however many."""
        after = 0
        while page := await self.storage.active_games_after(after, PAGE, statuses, shards=shards):
            for record in page:
                yield record
            after = page[-1].id

    async def expire_idle_lobbies(
        self, now: datetime, shards: Shards | None = None
    ) -> list[Session]:
        """Close lobbies nobody touched for ``limits.lobby_hours`` (of the servers
        on ``shards``); a lobby closes once, whichever process sees it first."""
        if self.limits.lobby_hours <= 0:
            return []
        before = (now - timedelta(hours=self.limits.lobby_hours)).isoformat()
        closed = []
        for record in await self.storage.idle_lobbies(before, shards=shards):
            try:
                record = await self.storage.cancel_game(record.id, record.version)
                closed.append(self.sessions.of(record))
            except StaleVersion:
                continue  # someone joined just now: it is not idle
            except Exception:
                log.exception("Closing idle lobby %s failed; skipped", record.id)
        return closed

    # ------------------------------------------------------------------ internals

    async def _run_ai(self, session: Session) -> tuple[Session, list[Turn]]:
        turns: list[Turn] = []
        takeover: str | None = None  # the server's level, read once per chain
        while session.record.status == "active":
            ai_seats = [s for s in session.to_act if session.ai_plays(s)]
            if not ai_seats:
                break
            seat = ai_seats[0]
            engine = session.engine
            # A bot seat plays at its table's level; a human's seat the AI plays
            # (resigned, away, removed) at the server's takeover level.
            if session.seat(seat).is_bot:
                level = session.record.bot_level
            else:
                if takeover is None:
                    takeover = await self.takeover_level(session.record.guild_id)
                level = takeover
            if level not in LEVELS:  # not one of ours (a newer version's): the greedy bot
                log.warning("Game %s: unknown bot level %r, playing easy", session.id, level)
                level = "easy"
            log.debug("Game %s: the AI plays seat %s at level %s", session.id, seat, level)
            # The bot's own random stream: public facts only, never the game's seed.
            seed = derive_seed(session.id, session.record.version, seat)
            # A search holds its worker for its whole budget: see CpuPool.think.
            run = self.cpu.run if level == "easy" else self.cpu.think
            move = await run(play_level, session.spec, level, session.state, seat, seed)
            step = engine.play(session.state, seat, move)
            notation = engine.format_move(move)
            try:
                session = await self._record(session, seat, notation, step, by_ai=True)
            except StaleVersion:
                break  # another handler is running the AI of this game
            if turns and turns[-1].seat == seat:
                last = turns[-1]
                turns[-1] = Turn(seat, (*last.moves, notation), True, last.events + step.events)
            else:
                turns.append(Turn(seat, (notation,), True, step.events))
        return session, turns

    async def _record(
        self, session: Session, seat: Seat, notation: str, step: Step[Any], *, by_ai: bool = False
    ) -> Session:
        """Save one command (raises StaleVersion if the game moved on)."""
        engine = session.engine
        outcome: Outcome | None = engine.outcome(step.state)
        results = result_rows(session.record.seats, outcome) if outcome is not None else None
        ends_turn = outcome is not None or step.ends_turn
        record = await self.storage.record_move(
            session.id,
            session.record.version,
            seat,
            notation,
            engine.dump(step.state),
            events=[e.to_json() for e in step.events],
            ends_turn=ends_turn,
            results=results,
            by_ai=by_ai,
            reply_hook=REPLY_HOOK.get(),
        )
        return self.sessions.written(record, session.spec, step.state)
