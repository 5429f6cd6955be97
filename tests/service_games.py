"""Through the Desert games started through the real service, for service-level tests."""

from __future__ import annotations

from bot.service import GameService
from bot.session import Session

GUILD, CHANNEL = 100, 200
ALICE, BOB, CAROL = 1, 2, 3


async def start_desert(service: GameService, *joiners: int, bots: int = 0) -> Session:
    """Alice's game in CHANNEL with ``joiners`` and ``bots``, started with Alice
    first, after any bot turns due."""
    await service.create(
        kind_key="desert",
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=ALICE,
        name="Alice",
        bots=bots,
    )
    for user in joiners:
        await service.join(CHANNEL, user, f"user{user}")
    report = await service.start(CHANNEL, ALICE, first=0)
    return (await service.advance(report.after)).after
