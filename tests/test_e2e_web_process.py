"""End to end: the web pages in the real bot process (``python -m bot``).

With WEB_PORT set, the process serves a game's page and board as soon as the
game is under way, and stops listening when it stops; without WEB_PORT nothing
listens; a taken port stops the bot at start-up with one line and exit code 2.
"""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import aiohttp

from tests.e2e import BotProcess, World, game_row, open_world, public, thread_opened, until
from tests.fakediscord import FakeDiscord


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


async def started_game(world: World) -> int:
    """A Through the Desert game of Alice against a bot, under way."""
    opened = await public(world, world.alice, "game new", {"game": "desert", "bots": 1})
    world.channel = await thread_opened(world, opened)
    await public(world, world.alice, "game start", {"first": "1"})
    return int(game_row(world)["id"])


async def test_the_bot_serves_a_games_page_while_it_runs(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {"WEB_PORT": str(port), "WEB_HOST": "127.0.0.1", "WEB_BASE_URL": base}
    async with open_world(tmp_path, env) as world, aiohttp.ClientSession() as http:
        guild = world.channel.guild_id
        async with http.get(f"{base}/s/{guild}") as answer:
            assert answer.status == 404  # a server with no game yet: nothing to show
        game = await started_game(world)
        async with http.get(f"{base}/s/{guild}/g/{game}") as answer:
            page = await answer.text()
            assert answer.status == 200, page
        assert "alice" in page and f"{base}/s/{guild}/g/{game}/board/" in page  # og:image
        async with http.get(f"{base}/s/{guild}/g/{game}/board.png") as answer:
            assert answer.status == 200 and answer.content_type == "image/png"
            assert (await answer.read()).startswith(b"\x89PNG")
        assert await world.bot.stop() == 0
        assert not listening(port)


async def test_without_web_port_nothing_listens(world: World) -> None:
    """The default: the bot opens no port of its own (the fake Discord's are the only ones)."""
    assert world.bot.process is not None
    pid = world.bot.process.pid
    await until(lambda: "Connected as" in world.bot.log_text(), "the bot to connect")
    listening_inodes = {
        line.split()[9]
        for table in ("/proc/net/tcp", "/proc/net/tcp6")
        for line in Path(table).read_text().splitlines()[1:]
        if line.split()[3] == "0A"  # LISTEN
    }
    fds = Path(f"/proc/{pid}/fd")
    sockets = {
        target.removeprefix("socket:[").removesuffix("]")
        for fd in fds.iterdir()
        if (target := _readlink(fd)).startswith("socket:[")
    }
    assert not sockets & listening_inodes


def _readlink(path: Path) -> str:
    try:
        return str(path.readlink())
    except OSError:  # closed meanwhile
        return ""


async def test_a_taken_port_stops_the_bot_with_one_line(tmp_path: Path) -> None:
    """The port is found taken once the bot has logged in (its set-up opens the
    pages): it stops, saying which setting to change, without a traceback."""
    fake = await FakeDiscord().start()
    guild = fake.add_guild("Caravan", fake.add_user("alice"))
    try:
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen(1)
            port = taken.getsockname()[1]
            env = {"WEB_PORT": str(port), "WEB_HOST": "127.0.0.1"}
            bot = BotProcess(fake, tmp_path, guild.id, env)
            await bot.launch()
            assert bot.process is not None
            code = await asyncio.wait_for(bot.process.wait(), 60)
    finally:
        await fake.stop()
    log = bot.log_text()
    assert code == 2, log
    assert f"WEB_PORT={port}: cannot listen on 127.0.0.1:{port}" in log
    assert "Traceback" not in log
