"""The slash-command tree: built from the registry, every name and description in French."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot import registry
from bot.app import Caravanserai
from bot.config import Config

NAME = re.compile(r"^[-_\w]{1,32}$")


async def command_payloads(extra: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    bot = Caravanserai(Config(token="unused", extra_games=extra))
    await bot.load_commands()
    translator = bot.tree.translator
    assert translator is not None
    result = [
        await command.get_translated_payload(bot.tree, translator)
        for command in bot.tree.get_commands()
    ]
    await bot.close()
    return result


@pytest.fixture
async def payloads() -> list[dict[str, Any]]:
    return await command_payloads(("tests.nim",))


def walk(payload: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield payload
    for option in payload.get("options", []):
        yield from walk(option)


async def test_the_registry_decides_the_games_offered() -> None:
    """Only registered games: their command groups and their /game new choices."""
    games = list(registry.load(registry.GAMES))  # the built games, in registry order
    assert games[0] == "desert"
    built = await command_payloads()
    assert {p["name"] for p in built} == {
        "game",
        "leaderboard",
        "help",
        "settings",
        "stats",
        "rules",
        *games,
    }
    assert game_choices(built) == games
    with_test_game = await command_payloads(("tests.nim",))
    assert {p["name"] for p in with_test_game} == {
        "game",
        "leaderboard",
        "help",
        "settings",
        "stats",
        "rules",
        "nim",
        *games,
    }
    assert game_choices(with_test_game) == [*games, "nim"]
    nim = next(p for p in with_test_game if p["name"] == "nim")
    assert [o["name"] for o in nim["options"]] == ["move"]  # the shared move cog, nothing else


def game_choices(payloads: list[dict[str, Any]]) -> list[str]:
    game = next(p for p in payloads if p["name"] == "game")
    new = next(o for o in game["options"] if o["name"] == "new")
    return [c["value"] for c in next(o for o in new["options"] if o["name"] == "game")["choices"]]


async def test_the_expected_commands_exist(payloads: list[dict[str, Any]]) -> None:
    """/game's subcommands, in the order its cogs load and define them (lobby,
    showing, seats, game_list): a new order would be a new sync."""
    game = next(p for p in payloads if p["name"] == "game")
    subcommands = [o["name"] for o in game["options"]]
    assert subcommands == [
        "new",
        "join",
        "leave",
        "remove",
        "start",
        "cancel",
        "settings",
        "status",
        "board",
        "hand",
        "history",
        "replay",
        "resign",
        "undo",
        "vacation",
        "kick",
        "list",
    ]
    assert all(o["type"] == 1 for o in game["options"])  # subcommands, not commands of their own


async def test_every_name_and_description_is_translated(payloads: list[dict[str, Any]]) -> None:
    for payload in payloads:
        for item in walk(payload):
            assert NAME.match(item["name"]) and item["name"] == item["name"].lower()
            assert 1 <= len(item["description"]) <= 100
            french_name = item.get("name_localizations", {}).get("fr")
            assert french_name and NAME.match(french_name), item["name"]
            assert french_name == french_name.lower()
            french_description = item.get("description_localizations", {}).get("fr")
            assert french_description and len(french_description) <= 100, item["name"]
            for choice in item.get("choices", []):
                assert choice.get("name_localizations", {}).get("fr"), choice["name"]


async def test_the_game_option_is_jeu_not_partie(payloads: list[dict[str, Any]]) -> None:
    game = next(p for p in payloads if p["name"] == "game")
    assert game["name_localizations"]["fr"] == "partie"
    new = next(o for o in game["options"] if o["name"] == "new")
    option = next(o for o in new["options"] if o["name"] == "game")
    assert option["name_localizations"]["fr"] == "jeu"
