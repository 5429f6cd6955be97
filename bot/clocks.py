"""Turn clocks: the presets, time spent waiting (vacations excluded) and what a
clock must do when it is looked at. Pure: the service brings the times.

A game's clock gives the player(s) it waits for ``hours`` to act. They are
reminded at half time and when it runs out; then the other players may vote
to let the AI play the seat. The clock restarts with every move.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final, Literal

# /game new clock: — the name players pick, and the hours it gives.
CLOCKS: Final[dict[str, float]] = {"fast": 1.0, "normal": 24.0, "slow": 72.0, "none": 0.0}
DEFAULT_CLOCK: Final = "normal"

NOTHING_SENT, HALF_SENT, RAN_OUT = 0, 1, 2

Action = Literal["half", "expired", "later", "idle"]


def clock_name(hours: float) -> str:
    """The preset of these hours, or "custom"."""
    for name, preset in CLOCKS.items():
        if preset == hours:
            return name
    return "custom"


@dataclass(frozen=True)
class Pause:
    """A stretch of time that does not count on a player's clock (a vacation)."""

    start: datetime
    end: datetime


def paused_between(pauses: Iterable[Pause], since: datetime, now: datetime) -> timedelta:
    """How much of [since, now] the pauses cover (overlapping pauses count once)."""
    spans = sorted((max(p.start, since), min(p.end, now)) for p in pauses)
    total = timedelta()
    reach = since
    for start, end in spans:
        start = max(start, reach)
        if end > start:
            total += end - start
            reach = end
    return total


def waited(since: datetime, now: datetime, pauses: Iterable[Pause] = ()) -> timedelta:
    """Time on the clock: from ``since`` to ``now``, pauses left out."""
    if now <= since:
        return timedelta()
    return now - since - paused_between(pauses, since, now)


def paused_until(pauses: Iterable[Pause], now: datetime) -> datetime | None:
    """When the pause running at ``now`` ends (chained pauses followed), or None."""
    ends: datetime | None = None
    moment = now
    for pause in sorted(pauses, key=lambda p: p.start):
        if pause.start <= moment < pause.end:
            ends = moment = pause.end
    return ends


@dataclass(frozen=True)
class Wake:
    """What a clock looked at ``now`` does: remind at half time, say time ran out,
    or sleep until ``due`` (None: nothing more until the next move)."""

    action: Action
    stage: int
    due: datetime | None


def wake(
    stage: int,
    hours: float,
    spent: timedelta,
    now: datetime,
    resume: datetime | None = None,
) -> Wake:
    """The clock at ``stage`` with ``spent`` on it. ``resume``: the waited-for
    players are all paused until then, so the next instant is counted from it.

    After downtime, several thresholds may have passed: only the furthest one
    is acted on, once (one catch-up reminder, not one per missed period).
    """
    if hours <= 0 or stage >= RAN_OUT:
        return Wake("idle", stage, None)
    full = timedelta(hours=hours)
    half = full / 2
    base = max(now, resume) if resume is not None else now
    if spent >= full:
        return Wake("expired", RAN_OUT, None)
    if stage < HALF_SENT and spent >= half:
        return Wake("half", HALF_SENT, base + (full - spent))
    target = half if stage < HALF_SENT else full
    return Wake("later", stage, base + (target - spent))
