"""The vacation allowance: no 30 days in a row may hold more than a server's
vacation days (``/game settings vacation_days:``, 14 by default). Pure: the
absence service brings the vacations and the time.

A rolling window rather than a calendar month, so vacations cannot be
chained across a month's end (14 days ending on the 31st and 14 more from
the 1st were 28 days in a row under a 14-day limit). The longest run of
vacation days is then the limit itself, and after a full allowance the next
one starts 30 days after the first began. A vacation ended early counts
what it lasted; overlapping vacations count once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime, timedelta

from bot.clocks import Pause, paused_between

WINDOW = timedelta(days=30)
DAY = timedelta(days=1)


def whole_days(span: timedelta) -> int:
    """``span`` in days, a started day counting whole (20 hours: one day)."""
    return math.ceil(span / DAY - 1e-9)


def taken_within(vacations: Sequence[Pause], start: datetime, end: datetime) -> timedelta:
    """Vacation time inside ``[start, end]``."""
    return paused_between(vacations, start, end)


def busiest_window(vacations: Sequence[Pause]) -> timedelta:
    """The most vacation time any ``WINDOW`` in a row holds. The time a window
    holds changes direction only where one of its ends meets a vacation's
    start or end, so those windows are the only ones worth measuring."""
    edges = {moment for v in vacations for moment in (v.start, v.end)}
    starts = edges | {moment - WINDOW for moment in edges}
    return max(
        (taken_within(vacations, s, s + WINDOW) for s in starts),
        default=timedelta(),
    )


def fits(vacations: Sequence[Pause], limit_days: int) -> bool:
    """Whether no window holds more than ``limit_days`` days of vacation."""
    return busiest_window(vacations) <= limit_days * DAY


def longest_allowed(past: Sequence[Pause], now: datetime, limit_days: int) -> int:
    """The most whole days a vacation starting ``now`` may last (0: none today)."""
    for days in range(limit_days, 0, -1):
        if fits([*past, Pause(now, now + days * DAY)], limit_days):
            return days
    return 0


def days_left(vacations: Sequence[Pause], until: datetime, limit_days: int) -> int:
    """The days of the allowance still free in the ``WINDOW`` ending at ``until``."""
    used = whole_days(taken_within(vacations, until - WINDOW, until))
    return max(limit_days - used, 0)
