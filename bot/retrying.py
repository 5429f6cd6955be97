"""Background work that a passing database failure must not stop.

A database that restarts, drops a connection or stays locked for a moment
raises :class:`~bot.storage.StorageUnavailable`. A background job then waits a
little and tries again, the wait doubling up to a bound, and says so in one
line each time (no traceback: nothing is wrong with the code). Any other error
is a real one and goes up to the caller.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from bot.storage import StorageUnavailable

log = logging.getLogger(__name__)

T = TypeVar("T")

FIRST_WAIT = 1.0  # seconds before the first retry
LONGEST_WAIT = 60.0  # the wait doubles up to this


def is_transient(error: BaseException) -> bool:
    """A failure worth trying again later: the database could not answer now."""
    return isinstance(error, StorageUnavailable)


async def retrying(
    what: str,
    job: Callable[[], Awaitable[T]],
    *,
    first_wait: float = FIRST_WAIT,
    longest_wait: float = LONGEST_WAIT,
) -> T:
    """``job()``'s result, trying again after each transient failure (for as long
    as it takes: cancel the caller to give up). ``what`` names the job in the log."""
    wait = first_wait
    while True:
        try:
            return await job()
        except StorageUnavailable as error:
            log.warning("%s failed: database unavailable (%s); retrying in %g s", what, error, wait)
        await asyncio.sleep(wait)
        wait = min(wait * 2, longest_wait)
