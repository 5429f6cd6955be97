"""End to end: the bots' level, on the real bot process against a loopback Discord.

``/game new … level:`` is shown in the lobby and in /game status and stored with
the game; the level the AI takes a player's seat over at is the server's
setting (``/game settings takeover_level:``), for moderators only. The bot logs
each AI decision's level at DEBUG, which is how these tests see it used.
"""

from __future__ import annotations

from contextlib import closing
from typing import Any

import pytest

from tests.e2e import (
    World,
    game_row,
    next_player,
    public,
    refused,
    text_of,
    thread_opened,
    until,
)

pytestmark = pytest.mark.bot_env({"LOG_LEVEL": "DEBUG"})


def query(world: World, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    with closing(world.bot.database()) as db:
        return list(db.execute(sql, params))


async def ephemeral(world: World, user: Any, command: str, options: dict[str, Any]) -> str:
    locale = "fr" if user is world.bob else "en-US"
    it = await world.fake.slash(user, world.channel, command, options, locale=locale)
    text = text_of(await it.final(timeout=20))
    assert it.ephemeral, text
    return text


def played_at(world: World, game_id: int, seat: int, level: str) -> bool:
    return f"Game {game_id}: the AI plays seat {seat} at level {level}" in world.bot.log_text()


async def test_a_table_of_hard_bots_shows_its_level_and_plays_at_it(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    opened = await public(world, alice, "game new", {"game": "desert", "bots": 1, "level": "hard"})
    world.channel = await thread_opened(world, opened)
    lobby = await fake.wait_for_message(world.channel, lambda m: bool(m.custom_ids()), timeout=20)
    assert "Bots: 1 · level hard" in text_of(lobby), text_of(lobby)
    game = game_row(world)
    assert game["bot_level"] == "hard"
    assert "Bots : 1 · niveau difficile" in await ephemeral(world, bob, "game status", {})

    started = await public(world, alice, "game start", {"first": "2"})  # the bot begins
    assert next_player(world, started) is alice
    [(bot,)] = query(world, "SELECT seat FROM seats WHERE game_id = ? AND is_bot", game["id"])
    assert query(world, "SELECT seat, by_ai FROM moves WHERE game_id = ?", game["id"]) == [(bot, 1)]
    assert played_at(world, game["id"], bot, "hard")
    assert "Bots: 1 · level hard" in await ephemeral(world, alice, "game status", {})


async def test_the_takeover_level_is_a_moderators_setting(world: World) -> None:
    """Bob (no Manage Server) is refused privately and nothing changes; Alice (the
    owner) sees the default, sets it, and a player she removes is then played at it."""
    fake, alice, bob = world.fake, world.alice, world.bob
    guild = world.channel.guild_id
    settings = "SELECT guild_id, takeover_level FROM guild_settings"
    await refused(
        world, bob, "game settings", {"takeover_level": "easy"}, "Gérer le serveur", locale="fr"
    )
    assert query(world, settings) == []
    assert "it plays at level normal." in await ephemeral(world, alice, "game settings", {})
    told = await ephemeral(world, alice, "game settings", {"takeover_level": "easy"})
    assert "it plays at level easy." in told, told
    assert query(world, settings) == [(guild, "easy")]
    assert "it plays at level easy." in await ephemeral(world, alice, "game settings", {})

    opened = await public(world, alice, "game new", {"game": "desert"})
    world.channel = await thread_opened(world, opened)
    await fake.wait_for_message(world.channel, lambda m: bool(m.custom_ids()), timeout=20)
    await public(world, bob, "game join", locale="fr")
    started = await public(world, alice, "game start", {"first": "2"})  # Bob begins
    assert next_player(world, started) is bob
    game = game_row(world)["id"]
    [(seat,)] = query(
        world, "SELECT seat FROM seats WHERE game_id = ? AND user_id = ?", game, bob.id
    )
    await public(world, alice, "game kick", {"player": bob})
    await until(
        lambda: query(
            world, "SELECT 1 FROM moves WHERE game_id = ? AND seat = ? AND by_ai", game, seat
        ),
        what="the AI's move for Bob",
    )
    assert played_at(world, game, seat, "easy")
