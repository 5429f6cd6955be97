"""Turn clocks, pure: presets, time spent waiting (pauses left out) and what a
clock looked at some moment must do (bot/clocks.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from bot.clocks import (
    CLOCKS,
    DEFAULT_CLOCK,
    HALF_SENT,
    NOTHING_SENT,
    RAN_OUT,
    Pause,
    Wake,
    clock_name,
    paused_between,
    paused_until,
    waited,
    wake,
)

T0 = datetime(2031, 5, 4, 12, 0, tzinfo=UTC)


def at(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


def pause(start: float, end: float) -> Pause:
    return Pause(at(start), at(end))


def h(hours: float) -> timedelta:
    return timedelta(hours=hours)


# --------------------------------------------------------------------------- presets


def test_presets_and_their_names() -> None:
    assert CLOCKS == {"fast": 1.0, "normal": 24.0, "slow": 72.0, "none": 0.0}
    assert DEFAULT_CLOCK == "normal"
    for name, hours in CLOCKS.items():
        assert clock_name(hours) == name
    assert clock_name(5.0) == "custom"
    assert (NOTHING_SENT, HALF_SENT, RAN_OUT) == (0, 1, 2)


# --------------------------------------------------------------------------- waited


def test_waited_without_pauses_is_the_time_since() -> None:
    assert waited(at(0), at(5)) == h(5)
    assert waited(at(0), at(5), []) == h(5)


def test_nothing_is_waited_before_the_wait_begins() -> None:
    assert waited(at(5), at(5)) == timedelta()
    assert waited(at(5), at(1)) == timedelta()
    assert waited(at(5), at(1), [pause(0, 10)]) == timedelta()


def test_a_pause_inside_the_wait_is_left_out() -> None:
    assert waited(at(0), at(10), [pause(2, 5)]) == h(7)
    assert paused_between([pause(2, 5)], at(0), at(10)) == h(3)


def test_overlapping_pauses_count_once() -> None:
    pauses = [pause(2, 6), pause(4, 8), pause(5, 7)]  # together: 2..8
    assert paused_between(pauses, at(0), at(10)) == h(6)
    assert waited(at(0), at(10), pauses) == h(4)
    # The same pause twice, and in any order.
    assert waited(at(0), at(10), [pause(4, 8), pause(2, 6), pause(2, 6)]) == h(4)


def test_pauses_outside_the_wait_are_ignored_and_edges_are_cut() -> None:
    assert waited(at(10), at(20), [pause(0, 5)]) == h(10)  # before since
    assert waited(at(10), at(20), [pause(25, 30)]) == h(10)  # after now
    assert waited(at(10), at(20), [pause(0, 10), pause(20, 30)]) == h(10)  # touching
    assert waited(at(10), at(20), [pause(5, 12)]) == h(8)  # started before since
    assert waited(at(10), at(20), [pause(18, 40)]) == h(8)  # still running now
    assert waited(at(10), at(20), [pause(0, 40)]) == timedelta()  # all of it


# --------------------------------------------------------------------------- paused_until


def test_paused_until_the_running_pause_ends() -> None:
    assert paused_until([], at(0)) is None
    assert paused_until([pause(0, 5)], at(6)) is None  # over
    assert paused_until([pause(7, 9)], at(6)) is None  # not begun
    assert paused_until([pause(0, 5)], at(5)) is None  # ends exactly now
    assert paused_until([pause(0, 5)], at(0)) == at(5)  # begins exactly now
    assert paused_until([pause(0, 5)], at(3)) == at(5)


def test_paused_until_follows_chained_pauses() -> None:
    chained = [pause(20, 30), pause(0, 10), pause(10, 20)]  # back to back, unsorted
    assert paused_until(chained, at(3)) == at(30)
    overlapping = [pause(0, 10), pause(8, 15), pause(14, 16), pause(40, 50)]
    assert paused_until(overlapping, at(1)) == at(16)  # the gap before 40 ends it
    inside = [pause(0, 30), pause(1, 10), pause(29, 35)]  # one within another
    assert paused_until(inside, at(5)) == at(35)
    assert paused_until(overlapping, at(12)) == at(16)


# --------------------------------------------------------------------------- wake


def test_before_half_time_sleep_until_half_time() -> None:
    assert wake(NOTHING_SENT, 24, h(5), at(5)) == Wake("later", NOTHING_SENT, at(12))
    assert wake(NOTHING_SENT, 24, timedelta(), at(0)) == Wake("later", NOTHING_SENT, at(12))


def test_at_half_time_remind_then_sleep_until_the_full_time() -> None:
    assert wake(NOTHING_SENT, 24, h(12), at(12)) == Wake("half", HALF_SENT, at(24))
    assert wake(NOTHING_SENT, 24, h(13), at(13)) == Wake("half", HALF_SENT, at(24))
    # Already reminded: sleep until the full time, no second reminder.
    assert wake(HALF_SENT, 24, h(13), at(13)) == Wake("later", HALF_SENT, at(24))


def test_downtime_across_several_periods_gives_a_single_expiry() -> None:
    assert wake(NOTHING_SENT, 24, h(100), at(100)) == Wake("expired", RAN_OUT, None)
    assert wake(NOTHING_SENT, 1, h(24 * 7), at(24 * 7)) == Wake("expired", RAN_OUT, None)


def test_after_the_reminder_time_runs_out_once() -> None:
    assert wake(HALF_SENT, 24, h(24), at(24)) == Wake("expired", RAN_OUT, None)
    assert wake(HALF_SENT, 24, h(30), at(30)) == Wake("expired", RAN_OUT, None)


def test_a_clock_that_ran_out_or_none_at_all_is_idle() -> None:
    assert wake(RAN_OUT, 24, h(50), at(50)) == Wake("idle", RAN_OUT, None)
    assert wake(NOTHING_SENT, 0, h(50), at(50)) == Wake("idle", NOTHING_SENT, None)
    assert wake(HALF_SENT, 0, h(50), at(50)) == Wake("idle", HALF_SENT, None)


def test_paused_players_resume_the_clock_later() -> None:
    # Everyone awaited is on vacation until +40h; 5 h spent: half time 7 h after it.
    assert wake(NOTHING_SENT, 24, h(5), at(20), at(40)) == Wake("later", NOTHING_SENT, at(47))
    assert wake(HALF_SENT, 24, h(15), at(20), at(40)) == Wake("later", HALF_SENT, at(49))
    # A resume already past counts from now.
    assert wake(NOTHING_SENT, 24, h(5), at(20), at(10)) == Wake("later", NOTHING_SENT, at(27))
    # Time already up is up, vacation or not.
    assert wake(HALF_SENT, 24, h(24), at(30), at(40)) == Wake("expired", RAN_OUT, None)


@given(
    stage=st.integers(min_value=0, max_value=2),
    hours=st.sampled_from([0.0, 0.5, 1.0, 24.0, 72.0, 720.0]),
    spent=st.integers(min_value=0, max_value=10**12).map(lambda us: timedelta(microseconds=us)),
    offset=st.integers(min_value=0, max_value=10**12).map(lambda us: timedelta(microseconds=us)),
    resume=st.none() | st.integers(min_value=-(10**12), max_value=10**12),
)
def test_due_is_never_before_now_and_the_stage_never_goes_back(
    stage: int, hours: float, spent: timedelta, offset: timedelta, resume: int | None
) -> None:
    now = T0 + offset
    back = None if resume is None else now + timedelta(microseconds=resume)
    step = wake(stage, hours, spent, now, back)
    assert step.stage >= stage
    assert step.action in ("half", "expired", "later", "idle")
    if step.due is not None:
        assert step.due > now
        if back is not None:
            assert step.due > back
    if step.action in ("expired", "idle"):
        assert step.due is None
    if step.action == "half":
        assert step.stage == HALF_SENT
    if step.action == "expired":
        assert step.stage == RAN_OUT
        assert spent >= timedelta(hours=hours)
