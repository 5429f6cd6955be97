"""End to end: the real bot process (`python -m bot`) against a loopback Discord.

A whole game of Through the Desert — two people and a bot seat — is played
through the autocomplete-driven `/desert move`, with a restart of the bot in
the middle, bad input from players, non-players and the wrong player, and the
leaderboard at the end.
"""

from __future__ import annotations

import asyncio
import io
import os
import re
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.service import GameService
from bot.storage import open_storage
from games.desert import GAME
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[1]
MENTION = re.compile(r"<@(\d+)>")


class BotProcess:
    """`python -m bot` as a user starts it, configured through the environment."""

    def __init__(self, fake: FakeDiscord, workdir: Path, guild_id: int) -> None:
        self.fake = fake
        self.workdir = workdir
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")},
            **fake.bot_env(),
            "DATABASE_URL": f"sqlite:///{workdir / 'games.db'}",
            "DISCORD_GUILD_IDS": str(guild_id),
            "LOG_LEVEL": "INFO",
        }
        self.process: asyncio.subprocess.Process | None = None
        self.log = workdir / "bot.log"

    async def start(self) -> None:
        seen = self.fake.ready_count
        with self.log.open("ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=ROOT, env=self.env, stdout=log, stderr=log
            )
        await self.fake.wait_ready(60, after=seen)
        # The bot syncs commands before connecting; give on_ready a moment.
        await asyncio.sleep(0.2)

    async def stop(self) -> int:
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(self.process.wait(), 30)
        self.process = None
        return code

    def kill(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.kill()

    def database(self) -> sqlite3.Connection:
        return sqlite3.connect(self.workdir / "games.db")

    def game_version(self) -> int:
        with self.database() as db:
            row = db.execute("SELECT version FROM games ORDER BY id DESC LIMIT 1").fetchone()
        return int(row[0])


@dataclass
class World:
    fake: FakeDiscord
    bot: BotProcess
    alice: Any
    bob: Any
    carol: Any
    channel: Any
    users: dict[int, Any]


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    fake = await FakeDiscord().start()
    alice = fake.add_user("alice")
    bob = fake.add_user("bob", locale="fr")
    carol = fake.add_user("carol")
    guild = fake.add_guild("Caravan", alice)
    for user in (bob, carol):
        fake.add_member(guild, user)
    channel = fake.add_channel(guild, "desert")
    bot = BotProcess(fake, tmp_path, guild.id)
    try:
        await bot.start()
        users = {u.id: u for u in (alice, bob, carol)}
        yield World(fake, bot, alice, bob, carol, channel, users)
    finally:
        bot.kill()
        await fake.stop()
        if sys.exc_info()[0] is not None:
            print(bot.log.read_text(errors="replace")[-5000:])


async def public(
    world: World,
    user: Any,
    command: str,
    options: dict[str, Any] | None = None,
    locale: str | None = None,
) -> Any:
    """Run a command that must succeed publicly within Discord's 3 s."""
    it = await world.fake.slash(user, world.channel, command, options or {}, locale=locale)
    message = await it.final(timeout=20)
    assert it.ack_latency < 3, f"{command} acknowledged after {it.ack_latency:.2f}s"
    assert not it.ephemeral, f"{command} answered privately: {message.content}"
    return message


async def refused(
    world: World,
    user: Any,
    command: str,
    options: dict[str, Any],
    expected: str,
    locale: str | None = None,
) -> None:
    """A bad command: a private, localized refusal that changes nothing."""
    version = world.bot.game_version()
    posted = len(world.fake.messages(world.channel))
    it = await world.fake.slash(user, world.channel, command, options, locale=locale)
    message = await it.final(timeout=20)
    assert it.ack_latency < 3
    assert it.ephemeral, f"refusal shown publicly: {message.content}"
    assert expected in message.content, message.content
    assert world.bot.game_version() == version
    assert len(world.fake.messages(world.channel)) == posted


def board_png(message: Any) -> Image.Image:
    image = Image.open(io.BytesIO(message.files["board.png"]))
    assert image.format == "PNG" and 1000 <= image.width <= 1400
    assert message.embeds and message.embeds[0]["image"]["url"].endswith("/board.png")
    return image


def next_player(world: World, message: Any) -> Any | None:
    """Whoever the bot pinged to act next (None when the game is over)."""
    pinged = [int(uid) for uid in MENTION.findall(message.content.split("➡️", 1)[-1])]
    return world.users[pinged[-1]] if pinged and "➡️" in message.content else None


async def play_one_move(world: World, player: Any) -> Any:
    """Pick the first legal move the autocomplete offers, as a player would."""
    locale = "fr" if player is world.bob else None
    choices = await world.fake.autocomplete(
        player, world.channel, "desert move", {"notation": ""}, focused="notation", locale=locale
    )
    assert choices, "the player to act got no suggestions"
    assert len(choices) <= 25
    command = choices[0]["value"]
    # Type a whole camel and a space: the suggestions continue with a second
    # camel, so a two-camel turn goes in one command.
    more = await world.fake.autocomplete(
        player,
        world.channel,
        "desert move",
        {"notation": command + " "},
        focused="notation",
        locale=locale,
    )
    longer = [c["value"] for c in more if c["value"].startswith(command + " ")]
    # Without a second camel to add, the command itself is still offered.
    assert longer or command in [c["value"] for c in more]
    if longer:
        command = longer[0]
    return await public(world, player, "desert move", {"notation": command}, locale=locale)


async def test_a_whole_game_over_discord(world: World) -> None:
    fake, alice, bob, carol = world.fake, world.alice, world.bob, world.carol
    first_sync = fake.commands.bulk_overwrites
    assert first_sync >= 1
    assert {c["name"] for c in fake.commands.list(guild_id=world.channel.guild_id)} == {
        "game",
        "desert",
        "leaderboard",
    }

    # Games not implemented yet are refused politely, privately.
    it = await fake.slash(alice, world.channel, "game new", {"game": "nomadi"})
    refusal = await it.final(timeout=20)
    assert it.ephemeral and "not available yet" in refusal.content

    opened = await public(world, alice, "game new", {"game": "desert", "bots": 1})
    assert "Through the Desert" in opened.content
    joined = await public(world, bob, "game join", locale="fr")
    assert "a rejoint" in joined.content
    await refused(world, bob, "game start", {}, "Seul le créateur", locale="fr")
    started = await public(world, alice, "game start")
    board_png(started)
    mover = next_player(world, started)
    assert mover in (alice, bob) or "🤖" in started.content

    moves = 0
    message = started
    restarted = checked_bad_input = False
    while mover is not None:
        assert moves < 400, "the game does not end"
        if not checked_bad_input and moves == 4:
            await check_bad_input(world, mover)
            checked_bad_input = True
        if not restarted and moves == 8:
            await restart_mid_game(world, mover)
            restarted = True
        if moves == 2:
            message = await place_one_piece(world, mover)
        else:
            message = await play_one_move(world, mover)
        board_png(message)
        moves += 1
        mover = next_player(world, message)

    assert restarted and checked_bad_input
    assert "over" in message.content or "terminée" in message.content
    assert "🏆" in message.content
    # The breakdown names every scoring category.
    assert re.search(r"(water|eau) \d+", message.content)

    ranking = await public(world, carol, "leaderboard")
    text = ranking.embeds[0]["description"]
    assert f"<@{alice.id}>" in text and f"<@{bob.id}>" in text  # losers included
    assert await world.bot.stop() == 0
    assert fake.unhandled == []


async def place_one_piece(world: World, player: Any) -> Any:
    """The friendlier /desert place: pick a colour, the spaces are suggested."""
    locale = "fr" if player is world.bob else None
    first = await world.fake.autocomplete(
        player, world.channel, "desert move", {"notation": ""}, focused="notation", locale=locale
    )
    colour = first[0]["value"].split()[0]
    spaces = await world.fake.autocomplete(
        player,
        world.channel,
        "desert place",
        {"colour": colour, "space": ""},
        focused="space",
        locale=locale,
    )
    assert spaces and all(re.fullmatch(r"[A-S]\d{1,2}", c["value"]) for c in spaces)
    message = await public(
        world,
        player,
        "desert place",
        {"colour": colour, "space": spaces[0]["value"]},
        locale=locale,
    )
    assert f"{spaces[0]['value']}" in message.content
    return message


async def check_bad_input(world: World, mover: Any) -> None:
    other = world.bob if mover is world.alice else world.alice
    garbage = ["banana", "   ", "x" * 2000, "🐪🐪🐪", "orange Z99", "pass"]
    for text in garbage:
        await refused(world, mover, "desert move", {"notation": text}, "", locale="en-US")
    await refused(world, world.carol, "desert move", {"notation": "white C5"}, "not a player")
    other_locale = "fr" if other is world.bob else "en-US"
    expected = "pas votre tour" if other is world.bob else "not your turn"
    await refused(
        world, other, "desert move", {"notation": "white C5"}, expected, locale=other_locale
    )
    # Someone with nothing to do gets no suggestions.
    assert (
        await world.fake.autocomplete(
            other, world.channel, "desert move", {"notation": ""}, focused="notation"
        )
        == []
    )
    assert (
        await world.fake.autocomplete(
            world.carol, world.channel, "desert move", {"notation": ""}, focused="notation"
        )
        == []
    )


async def restart_mid_game(world: World, mover: Any) -> None:
    """SIGTERM, start again: the game is still there and commands are not re-synced."""
    syncs = world.fake.commands.bulk_overwrites
    assert await world.bot.stop() == 0
    await world.bot.start()
    assert world.fake.commands.bulk_overwrites == syncs
    status = await world.fake.slash(mover, world.channel, "game status")
    text = (await status.final(timeout=20)).content
    expected = "en cours" if mover is world.bob else "in progress"
    assert status.ephemeral and expected in text
    assert f"<@{mover.id}>" in text  # still the same player's turn


async def test_a_rejected_token_exits_with_advice(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")},
            **fake.bot_env(),
            "DISCORD_TOKEN": "not-the-right-token",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'games.db'}",
        }
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=ROOT,
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        _, stderr = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 2
    assert b"Discord refused DISCORD_TOKEN" in stderr


async def test_ai_turns_interrupted_by_a_crash_are_played_after_restart(
    world: World,
) -> None:
    """The move was saved but the bot died before the AI seat answered."""
    fake, alice = world.fake, world.alice
    await public(world, alice, "game new", {"game": "desert", "bots": 1})
    started = await public(world, alice, "game start")
    assert next_player(world, started) is alice
    world.bot.kill()
    await world.bot.process.wait()  # type: ignore[union-attr]

    # What the dead bot had saved: Alice's move, with the AI seat now due.
    storage = await open_storage(world.bot.env["DATABASE_URL"])
    try:
        service = GameService(storage)
        session = await service.require_session(world.channel.id)
        seat = session.seat_of(alice.id)
        assert seat is not None
        move = GAME.format_move(GAME.legal_moves(session.state, seat)[0])
        report = await service.play(world.channel.id, alice.id, move)
        assert any(report.after.ai_plays(s) for s in report.after.to_act)
    finally:
        await storage.close()

    last = fake.messages(world.channel)[-1]
    await world.bot.start()
    message = await fake.wait_for_message(
        world.channel, lambda m: "🤖" in m.content, timeout=20, after=last
    )
    assert message.interaction_id is None  # posted through the channel, not a token
    assert f"<@{alice.id}>" in message.content  # her turn again, pinged
    board_png(message)
