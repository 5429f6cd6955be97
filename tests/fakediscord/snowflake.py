"""Snowflake ids and Discord-style timestamps."""

from __future__ import annotations

import datetime as dt
import threading
import time

DISCORD_EPOCH_MS = 1_420_070_400_000


class SnowflakeGenerator:
    """Generates increasing snowflakes: ms since the Discord epoch << 22 | worker | counter."""

    def __init__(self, worker: int = 1, process: int = 0) -> None:
        self._worker = worker & 0x1F
        self._process = process & 0x1F
        self._increment = 0
        self._last = 0
        self._lock = threading.Lock()

    def next(self, *, shard: tuple[int, int] | None = None) -> int:
        """A fresh id, greater than every earlier one; ``shard=(shard_id, shard_count)``: one
        whose ``(id >> 22) % shard_count == shard_id`` (its timestamp moves up to
        ``shard_count - 1`` ms ahead), as Discord routes a guild id to a shard."""
        if shard is not None:
            shard_id, count = shard
            if not 0 <= shard_id < count:
                raise ValueError(f"no shard {shard_id} among {count} shards")
        with self._lock:
            ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
            value = self._compose(ms)
            # keep ids strictly increasing even within one millisecond / counter wrap
            if value <= self._last:
                value = self._last + 1
            if shard is not None:
                ms = value >> 22
                ahead = (shard_id - ms) % count
                if ahead:  # a later millisecond: greater than _last, whose ms is <= this one's
                    value = self._compose(ms + ahead)
            self._increment += 1
            self._last = value
            return value

    def _compose(self, ms: int) -> int:
        return (ms << 22) | (self._worker << 17) | (self._process << 12) | (self._increment & 0xFFF)


def snowflake_time(snowflake: int) -> dt.datetime:
    ms = (snowflake >> 22) + DISCORD_EPOCH_MS
    return dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC)


def iso(moment: dt.datetime | None = None) -> str:
    """ISO-8601 timestamp the way Discord formats them (microseconds, +00:00)."""
    moment = moment or dt.datetime.now(dt.UTC)
    return moment.astimezone(dt.UTC).isoformat(timespec="microseconds")
