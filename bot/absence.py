"""Players who are not there: turn clocks, the takeover vote, coming back,
vacations and players' own settings. Discord-free, like the service.

Clocks are scheduled in the database (``games.clock_due``) and claimed with a
compare-and-set on (version, clock stage), so a reminder fires once even
with two bot processes on one database, and survives restarts.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

from bot import vacations
from bot.clocks import RAN_OUT, Pause, paused_until, waited, wake
from bot.errors import UserError
from bot.session import Session
from bot.sessions import Sessions
from bot.storage import (
    GameRecord,
    Shards,
    StaleVersion,
    StorageUnavailable,
    UserSettings,
    Vacation,
)
from games.contract import Seat

log = logging.getLogger(__name__)

DEFAULT_VACATION_DAYS = 14  # in any 30 days in a row, per server (/game settings)
MAX_VACATION_DAYS = 31
Choice = Literal["bot", "wait"]


def utc_now() -> datetime:
    return datetime.now(UTC)


def epoch(stamp: str | None) -> int:
    """A stored instant as whole seconds (names a clock round in vote keys)."""
    return 0 if stamp is None else int(datetime.fromisoformat(stamp).timestamp())


@dataclass(frozen=True)
class ClockNews:
    """A clock that fired: remind ``users`` at half time, or tell them time ran
    out; then ``voters`` (the other humans still in) may vote on ``absent``."""

    session: Session
    action: Literal["half", "expired"]
    users: tuple[int, ...]
    absent: tuple[Seat, ...] = ()
    voters: tuple[int, ...] = ()

    @property
    def round(self) -> int:
        """The clock round (its start, in seconds): votes are per round."""
        return epoch(self.session.record.turn_since)


@dataclass(frozen=True)
class TakeoverTally:
    session: Session
    seat: Seat
    decided: Choice | None
    votes: dict[int, str]
    voters: tuple[int, ...]


def voters_for(session: Session) -> tuple[int, ...]:
    """Who votes on an absent seat: the humans still in play whom the game is
    not waiting for (those it waits for are late themselves)."""
    waited = set(session.awaited)
    return tuple(
        s.user_id
        for s in session.record.seats
        if s.user_id is not None and not s.ai_played and s.seat not in waited
    )


def verdict(votes: dict[int, str], voters: Sequence[int]) -> Choice | None:
    """A strict majority of the voters decides; when all voted without a
    majority for the bot, the game waits (the absent player gets the benefit)."""
    counted = [votes[v] for v in voters if v in votes]
    if counted.count("bot") * 2 > len(voters):
        return "bot"
    if counted.count("wait") * 2 > len(voters) or len(counted) == len(voters):
        return "wait"
    return None


class Absence:
    def __init__(self, sessions: Sessions, now: Callable[[], datetime] = utc_now) -> None:
        self.sessions = sessions
        self.now = now

    # ------------------------------------------------------------------ clocks

    async def due(
        self, now: datetime | None = None, shards: Shards | None = None
    ) -> list[ClockNews]:
        """Look at every clock due by ``now`` (of the guilds on ``shards``, this
        process's); returns what must be said. Each game is claimed first, so
        only one process says it."""
        now = now or self.now()
        news: list[ClockNews] = []
        storage = self.sessions.storage
        while page := await storage.due_clocks(now.isoformat(), shards=shards):
            progressed = False
            for record in page:
                try:
                    found, said = await self._wake(record, now)
                except StorageUnavailable as error:
                    # A passing failure: the clock stays due and is looked at next round.
                    log.warning("Clock of game %s: database unavailable (%s)", record.id, error)
                    continue
                except Exception:
                    log.exception("Clock of game %s failed; skipped", record.id)
                    await self._park(record)
                    found, said = True, None
                progressed = progressed or found
                if said is not None:
                    news.append(said)
            if not progressed or len(page) < 100:
                break
        return news

    async def _park(self, record: GameRecord) -> None:
        """A game whose clock cannot be handled stops being due (never loops)."""
        await self.sessions.storage.claim_clock(
            record.id, record.version, record.clock_stage, new_stage=record.clock_stage, due=None
        )

    async def _wake(self, record: GameRecord, now: datetime) -> tuple[bool, ClockNews | None]:
        """(claimed, news) for one due game."""
        storage = self.sessions.storage
        session = self.sessions.of(record)
        waiting = [
            s for s in session.awaited if session.seat(s).user_id and not session.ai_plays(s)
        ]
        if session.broken or not waiting or record.turn_since is None:
            await self._park(record)  # nobody to remind: nothing until the next move
            return True, None
        since = datetime.fromisoformat(record.turn_since)
        users = {s: int(session.seat(s).user_id or 0) for s in waiting}
        pauses = await self.pauses(record.guild_id, list(users.values()))
        spent = {s: waited(since, now, pauses.get(users[s], ())) for s in waiting}
        paused = {s: paused_until(pauses.get(users[s], ()), now) for s in waiting}
        all_paused = all(paused[s] is not None for s in waiting)
        resume = min(p for p in paused.values() if p is not None) if all_paused else None
        longest = max(spent.values())
        step = wake(record.clock_stage, record.clock_hours, longest, now, resume)
        won = await storage.claim_clock(
            record.id,
            record.version,
            record.clock_stage,
            new_stage=step.stage,
            due=None if step.due is None else step.due.isoformat(),
        )
        if not won or step.action not in ("half", "expired"):
            return won, None
        remind = tuple(users[s] for s in waiting if paused[s] is None)
        if step.action == "half":
            return True, ClockNews(session, "half", remind)
        # One vote at a time: on the seat that has waited longest. Its outcome
        # restarts the clock, so another late seat gets its own round.
        absent = (max(waiting, key=lambda s: spent[s]),)
        return True, ClockNews(session, "expired", remind, absent, voters_for(session))

    # ------------------------------------------------------------------ takeover

    async def vote_takeover(
        self, game_id: int, user_id: int, seat: Seat, round_: int, choice: Choice
    ) -> TakeoverTally:
        """A player's vote on an absent seat; applies the result once decided."""
        session = await self.sessions.get(game_id)
        if session is None or session.record.status != "active":
            raise UserError("button.old_game")
        record = session.record
        if (
            record.clock_stage != RAN_OUT
            or epoch(record.turn_since) != round_
            or not 0 <= seat < len(record.seats)
            or session.ai_plays(seat)
            or seat not in session.awaited
        ):
            raise UserError("takeover.over")
        voters = voters_for(session)
        if user_id not in voters:
            raise UserError("takeover.not_a_voter")
        storage = self.sessions.storage
        question = f"takeover:{seat}:{round_}"
        votes = await storage.cast_vote(game_id, question, user_id, choice)
        decided = verdict(votes, voters)
        if decided == "bot":
            try:
                replaced = await storage.replace_seat(game_id, record.version, seat, "away")
            except StaleVersion as exc:  # another voter's click decided it first
                raise UserError("takeover.over") from exc
            session = self.sessions.of(replaced)
        elif decided == "wait":
            now = self.now()
            hours = record.clock_hours
            won = await storage.claim_clock(
                game_id,
                record.version,
                RAN_OUT,
                new_stage=0,
                due=(now + timedelta(hours=hours / 2)).isoformat(),
                turn_since=now.isoformat(),
            )
            if not won:
                raise UserError("takeover.over")
            session = await self.sessions.get(game_id) or session
        return TakeoverTally(session, seat, decided, votes, voters)

    async def take_back(self, session: Session, seat: Seat) -> Session:
        """An absent player acts: the seat is theirs again (the AI stops)."""
        record = await self.sessions.storage.replace_seat(
            session.id, session.record.version, seat, None
        )
        return self.sessions.of(record)

    async def remove_player(
        self, channel_id: int, user_id: int, is_moderator: bool
    ) -> tuple[Session, Seat]:
        """A moderator takes a player out of a running game: the AI plays the
        seat to the end and the player ranks last, for good."""
        if not is_moderator:
            raise UserError("game.remove_forbidden")
        session = await self.sessions.required(channel_id)
        if session.record.status != "active":
            raise UserError("game.not_started")
        seat = session.seat_of(user_id)
        if seat is None:
            raise UserError("game.not_in_this_game")
        if session.seat(seat).resigned or session.seat(seat).replaced == "removed":
            raise UserError("game.already_out")
        record = await self.sessions.unless_stale(
            self.sessions.storage.replace_seat(session.id, session.record.version, seat, "removed")
        )
        return self.sessions.of(record), seat

    # ------------------------------------------------------------------ vacations

    async def pauses(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, list[Pause]]:
        found: dict[int, list[Pause]] = {}
        for v in await self.sessions.storage.vacations(guild_id, user_ids):
            found.setdefault(v.user_id, []).append(
                Pause(datetime.fromisoformat(v.starts_at), datetime.fromisoformat(v.ends_at))
            )
        return found

    async def vacation_days(self, guild_id: int) -> int:
        stored = await self.sessions.storage.get_meta(f"vacation_days:{guild_id}")
        return DEFAULT_VACATION_DAYS if stored is None else int(stored)

    async def set_vacation_days(self, guild_id: int, days: int) -> None:
        if not 0 <= days <= MAX_VACATION_DAYS:
            raise UserError("settings.bad_vacation_days", max=MAX_VACATION_DAYS)
        await self.sessions.storage.set_meta(f"vacation_days:{guild_id}", str(days))

    async def days_used(self, guild_id: int, user_id: int, now: datetime) -> int:
        """Vacation days taken in the 30 days up to ``now`` (one ended early counts
        what it lasted), rounded up."""
        taken = (await self.pauses(guild_id, [user_id])).get(user_id, [])
        return vacations.whole_days(vacations.taken_within(taken, now - vacations.WINDOW, now))

    async def start_vacation(
        self, guild_id: int, user_id: int, days: int, now: datetime | None = None
    ) -> tuple[datetime, int]:
        """Pause the player's clocks in this server for ``days``; returns (end, days
        left in the 30 days up to that end). No 30 days in a row may hold more than
        the server's vacation days (``bot.vacations``)."""
        now = now or self.now()
        limit = await self.vacation_days(guild_id)
        if limit == 0:
            raise UserError("vacation.disabled")
        taken = (await self.pauses(guild_id, [user_id])).get(user_id, [])
        if paused_until(taken, now):
            raise UserError("vacation.already")
        longest = vacations.longest_allowed(taken, now, limit)
        if longest == 0:
            raise UserError("vacation.window_used", limit=limit)
        if not 1 <= days <= longest:
            raise UserError("vacation.window_full", count=longest, limit=limit)
        ends = now + timedelta(days=days)
        await self.sessions.storage.add_vacation(
            Vacation(guild_id, user_id, now.isoformat(), ends.isoformat())
        )
        return ends, vacations.days_left([*taken, Pause(now, ends)], ends, limit)

    async def end_vacation(self, guild_id: int, user_id: int, now: datetime | None = None) -> None:
        """Back early: the clocks of the player's games are looked at again now
        (one may have been put to sleep until the planned end)."""
        now = now or self.now()
        storage = self.sessions.storage
        if not await storage.end_vacation(guild_id, user_id, now.isoformat()):
            raise UserError("vacation.none")
        for record in await storage.open_games_of(guild_id, user_id):
            if record.status == "active" and record.clock_due is not None:
                await storage.claim_clock(
                    record.id,
                    record.version,
                    record.clock_stage,
                    new_stage=record.clock_stage,
                    due=now.isoformat(),
                )

    # ------------------------------------------------------------------ settings

    async def settings(self, user_id: int) -> UserSettings:
        return await self.sessions.storage.user_settings(user_id)

    async def change_settings(
        self,
        user_id: int,
        *,
        lang: str | None = None,
        dm_turn: bool | None = None,
        dm_reminders: bool | None = None,
    ) -> UserSettings:
        """Change the given settings; ``lang="auto"`` goes back to Discord's locale."""
        now = await self.settings(user_id)
        chosen = UserSettings(
            now.lang if lang is None else (None if lang == "auto" else lang),
            now.dm_turn if dm_turn is None else dm_turn,
            now.dm_reminders if dm_reminders is None else dm_reminders,
        )
        await self.sessions.storage.set_user_settings(user_id, chosen)
        self.sessions.settings.forget(user_id)
        return chosen
