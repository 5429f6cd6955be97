"""A server's web setting in the game service, on a real SQLite file: on by
default, per server, and kept apart from the server's other setting."""

from __future__ import annotations

from bot.service import GameService
from tests.service_games import GUILD

OTHER_GUILD = GUILD + 1


async def test_the_web_setting_is_on_by_default_and_per_server(service: GameService) -> None:
    assert await service.web_enabled(GUILD)
    await service.set_web(GUILD, False)
    assert not await service.web_enabled(GUILD)
    assert await service.web_enabled(OTHER_GUILD)
    await service.set_web(GUILD, True)
    assert await service.web_enabled(GUILD)


async def test_the_web_setting_and_the_takeover_level_keep_each_other(
    service: GameService,
) -> None:
    await service.set_takeover_level(GUILD, "easy")
    await service.set_web(GUILD, False)
    assert await service.takeover_level(GUILD) == "easy"
    await service.set_takeover_level(GUILD, "hard")
    assert not await service.web_enabled(GUILD)
    assert await service.takeover_level(GUILD) == "hard"
