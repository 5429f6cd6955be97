"""End to end: /game history paged with its buttons, /game replay, /rules — over the
loopback Discord, with the real bot process and the test-only game (tests/nim)."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from PIL import Image

from tests.e2e import World, next_player, public, refused, text_of

pytestmark = pytest.mark.bot_env({"EXTRA_GAMES": "tests.nim"})


def rows_of(world: World, game_id: int) -> int:
    with world.bot.database() as db:
        return int(
            db.execute("SELECT COUNT(*) FROM moves WHERE game_id = ?", (game_id,)).fetchone()[0]
        )


def latest_game(world: World) -> int:
    with world.bot.database() as db:
        return int(db.execute("SELECT MAX(id) FROM games").fetchone()[0])


async def play_as_suggested(world: World, game: str, until: Any) -> Any:
    """Alice (against bots) plays the first suggested command until ``until()`` holds
    or the game ends (a step inside a turn is answered privately); the last answer."""
    message = None
    for _ in range(60):
        choices = await world.fake.autocomplete(
            world.alice, world.channel, f"{game} move", {"notation": ""}, focused="notation"
        )
        assert choices, "nothing suggested"
        it = await world.fake.slash(
            world.alice, world.channel, f"{game} move", {"notation": choices[0]["value"]}
        )
        message = await it.final(timeout=20)
        assert quick(it)
        if until() or (not it.ephemeral and next_player(world, message) is None):
            return message
    raise AssertionError("the game goes on and on")


def quick(it: Any) -> bool:
    """Acknowledged within Discord's 3 s."""
    return it.ack_latency is not None and bool(it.ack_latency < 3)


def part(message: Any, custom_id: str) -> dict[str, Any]:
    found: dict[str, Any] | None = message.component(custom_id)
    assert found is not None, f"no {custom_id} in {message.custom_ids()}"
    return found


def plies(embed: dict[str, Any]) -> list[int]:
    return [int(n) for n in re.findall(r"^(\d+)\. ", embed["description"], re.MULTILINE)]


async def test_history_pages_and_replays(world: World) -> None:
    fake, alice = world.fake, world.alice
    await (await fake.slash(alice, world.channel, "game settings", {"threads": False})).final(20)

    # A game of Nim against a bot, to its end; a running game cannot be replayed.
    await public(world, alice, "game new", {"game": "nim", "bots": 1})
    await public(world, alice, "game start")
    nim = latest_game(world)
    await refused(world, alice, "game replay", {}, f"game #{nim} is not over")
    await refused(world, world.bob, "game replay", {}, "n'est pas finie", locale="fr")
    await play_as_suggested(world, "nim", lambda: False)

    replayed = await public(world, world.carol, "game replay")
    assert replayed.embeds[0]["image"]["url"].endswith("/replay.gif")
    assert f"#{nim}" in replayed.embeds[0]["title"] and "🏆" in replayed.embeds[0]["description"]
    with Image.open(io.BytesIO(replayed.files["replay.gif"])) as gif:
        assert gif.format == "GIF" and getattr(gif, "n_frames", 1) >= 3

    # Its history: a short game fits on one page, with the result and the whole log.
    it = await fake.slash(alice, world.channel, "game history")
    shown = await it.final(timeout=20)
    assert it.ephemeral and quick(it)
    assert f"#{nim}" in text_of(shown) and not shown.custom_ids()
    assert plies(shown.embeds[0]) == list(range(1, rows_of(world, nim) + 1))
    assert shown.embeds[0]["fields"][0]["name"] == "Result"
    assert "<t:" in shown.embeds[0]["description"] and "**alice**" in shown.embeds[0]["description"]
    assert "🏆" in shown.files["history.txt"].decode()

    # A longer game of Through the Desert: its history has pages.
    await public(world, alice, "game new", {"game": "desert", "bots": 1, "level": "easy"})
    await public(world, alice, "game start")
    desert = latest_game(world)
    await play_as_suggested(world, "desert", lambda: rows_of(world, desert) > 16)
    total = rows_of(world, desert)
    it = await fake.slash(alice, world.channel, "game history")
    first = await it.final(timeout=20)
    assert it.ephemeral and "history.txt" in first.files
    newest = plies(first.embeds[0])  # the message is edited in place: keep what it showed
    assert newest == list(range(total - 14, total + 1))
    assert "🤖" in first.embeds[0]["description"] and not first.embeds[0].get("fields")
    pages = -(-total // 15)
    assert f"page:history:{desert}:1:i" in first.custom_ids()
    assert part(first, f"page:history:{desert}:1:p")["disabled"]

    older = await fake.click(alice, first, f"page:history:{desert}:2:n")
    second = await older.final(timeout=20)
    assert quick(older) and second.ephemeral and second.id == first.id
    assert plies(second.embeds[0]) == list(range(max(total - 29, 1), total - 14))
    assert part(second, f"page:history:{desert}:2:i")["label"] == f"2/{pages}"
    assert "history.txt" in second.files  # the whole log stays attached
    back = await fake.click(alice, second, f"page:history:{desert}:1:p")
    assert plies((await back.final(timeout=20)).embeds[0]) == newest

    # Replays: the running game refused, the finished one by its number, unknown ones refused.
    await refused(world, alice, "game replay", {}, "is not over")
    await refused(world, world.carol, "game replay", {"game": 999}, "no game #999")
    by_number = await public(world, world.bob, "game replay", {"game": nim}, locale="fr")
    assert "en images" in by_number.embeds[0]["title"]
    assert "replay.gif" in by_number.files
    assert await world.bot.stop() == 0
    assert fake.unhandled == []


async def test_rules_in_french_with_pages(world: World) -> None:
    fake, bob = world.fake, world.bob
    it = await fake.slash(bob, world.channel, "rules", {"game": "desert"}, locale="fr")
    first = await it.final(timeout=20)
    assert it.ephemeral and quick(it)
    assert text_of(first).startswith("## Durch die Wüste") and "joueurs" in text_of(first)
    indicator = first.component("page:rules:desert:fr:1:i")
    assert indicator is not None and indicator["disabled"]
    pages = int(indicator["label"].split("/")[1])
    assert pages > 1
    opening = text_of(first)  # the message is edited in place: keep what it showed

    turned = await fake.click(bob, first, "page:rules:desert:fr:2:n", locale="fr")
    second = await turned.final(timeout=20)
    assert quick(turned)
    assert text_of(second).startswith("## ") and text_of(second) != opening
    assert part(second, "page:rules:desert:fr:2:i")["label"] == f"2/{pages}"
    assert "Le " in text_of(second) or "les " in text_of(second)  # still French

    english = await fake.slash(world.alice, world.channel, "rules", {"game": "desert"})
    assert text_of(await english.final(timeout=20)).startswith("## Through the Desert")
    helped = await fake.slash(bob, world.channel, "help", locale="fr")
    text = str((await helped.final(timeout=20)).embeds[0])
    assert "/règles" in text and "/partie revoir" in text
    assert await world.bot.stop() == 0
    assert fake.unhandled == []
