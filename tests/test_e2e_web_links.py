"""End to end: links from Discord to the web pages, on the real bot process
against a loopback Discord.

With WEB_PORT and WEB_BASE_URL set, every public turn post (the final one,
and one posted late after a crash, too), /game status and /leaderboard carry
a link button to the game's or the server's page, at the public address; a
moderator's ``/game settings web:off`` takes them away (a player without
Manage Server is refused); without WEB_PORT (the default) no post carries
one. The links depend on the configuration and the setting alone: no test
here asks the pages for anything.
"""

from __future__ import annotations

import asyncio
import socket
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.weblinks import game_url, server_url
from tests.e2e import (
    World,
    game_row,
    locale_of,
    next_player,
    open_world,
    public,
    refused,
    stamp,
    suggestions,
    text_of,
    thread_opened,
)

BASE = "https://caravan.example.org"
NIM = {"EXTRA_GAMES": "tests.nim"}  # the tiny test game: a whole game in a few moves
LINK_STYLE = 5
BUTTON = 2


def web_env() -> dict[str, str]:
    """The web pages on, at a public address of their own, on a free local port
    (the bot may listen there; these tests never ask it for a page)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return {**NIM, "WEB_PORT": str(port), "WEB_HOST": "127.0.0.1", "WEB_BASE_URL": BASE}


def game_env() -> dict[str, str]:
    """:func:`web_env`, with late posts looked for often and no worker processes
    (the bot is killed mid-move), as in tests/test_e2e_announce.py."""
    return {**web_env(), "CLOCK_CHECK_SECONDS": "0.5", "CPU_WORKERS": "0"}


def links(message: Any) -> dict[str, str]:
    """A message's link buttons, at any depth: label -> URL."""
    buttons = message.of_type(BUTTON)
    return {b.get("label", ""): b["url"] for b in buttons if b.get("style") == LINK_STYLE}


def turn_posts(world: World) -> list[Any]:
    """The game's public posts with a board: its turn posts, the start's and the final one."""
    return [m for m in world.fake.messages(world.channel) if "board.png" in m.files]


def query(world: World, sql: str) -> list[tuple[Any, ...]]:
    with closing(world.bot.database()) as db:
        return list(db.execute(sql))


def let_grace_pass(world: World, game_id: int) -> None:
    """As if the time the saving handler had to post its turn had gone by
    (as tests/test_e2e_announce.py does)."""
    past = stamp(datetime.now(UTC) - timedelta(seconds=1))
    with closing(world.bot.database()) as db, db:
        db.execute("UPDATE games SET announce_due = ? WHERE id = ?", (past, game_id))


async def private(
    world: World, user: Any, command: str, options: dict[str, Any], locale: str | None = None
) -> Any:
    """A command answered privately, in ``locale`` (default: ``user``'s client's)."""
    it = await world.fake.slash(
        user, world.channel, command, options, locale=locale or locale_of(world, user)
    )
    message = await it.final(timeout=20)
    assert it.ephemeral, text_of(message)
    return message


async def started_game(world: World) -> tuple[int, Any]:
    """Alice's game of Oasis Nim against a bot, in its own thread, started; its
    id and the start's post."""
    options = {"game": "nim", "bots": 1, "options": "pile:short"}
    opened = await public(world, world.alice, "game new", options)
    world.channel = await thread_opened(world, opened)
    await world.fake.wait_for_message(world.channel, lambda m: bool(m.custom_ids()), timeout=20)
    started = await public(world, world.alice, "game start", {"first": "1"})
    return int(game_row(world)["id"]), started


async def played_to_the_end(world: World, post: Any) -> Any:
    """Alice plays her suggested moves (the bot answers in the same post) until
    the game ends; the final post."""
    for _ in range(40):
        if next_player(world, post) is None:
            return post
        choices = await suggestions(world, world.alice, "nim move", {"notation": ""}, "notation")
        post = await public(world, world.alice, "nim move", {"notation": choices[-1]["value"]})
    raise AssertionError("the game does not end")


async def test_posts_link_to_the_game_and_the_server_pages(tmp_path: Path) -> None:
    async with open_world(tmp_path, web_env()) as world:
        guild = world.channel.guild_id
        game, started = await started_game(world)
        page = game_url(BASE, guild, game)
        assert links(started) == {"Game page": page}
        status = await private(world, world.bob, "game status", {})
        assert links(status) == {"Page de la partie": page}

        final = await played_to_the_end(world, started)
        assert "🏆" in text_of(final)
        assert links(final) == {"Game page": page}
        assert any(c.startswith("rematch:") for c in final.custom_ids())  # beside the link
        posts = turn_posts(world)
        assert len(posts) >= 3 and all(links(p) == {"Game page": page} for p in posts)
        assert links(await private(world, world.alice, "game status", {})) == {"Game page": page}

        board = await public(world, world.carol, "leaderboard")
        assert links(board) == {"Standings and games on the web": server_url(BASE, guild)}
        board = await public(world, world.bob, "leaderboard", {"game": "nim"}, locale="fr")
        assert links(board) == {"Classement et parties sur le web": server_url(BASE, guild)}


async def test_a_turn_posted_late_links_to_the_game_page(tmp_path: Path) -> None:
    """Alice's move is saved and the bot killed before it answers; restarted,
    it posts her turn late, with the link."""
    async with open_world(tmp_path, game_env()) as world:
        fake, alice = world.fake, world.alice
        game, started = await started_game(world)
        await public(world, alice, "nim move", {"notation": "keep"})  # the bot decided at once
        hold = fake.hold_callback("nim move")
        await fake.slash(alice, world.channel, "nim move", {"notation": "take 1"})
        await hold.reached()
        world.bot.kill()
        assert world.bot.process is not None
        await asyncio.wait_for(world.bot.process.wait(), 10)
        world.bot.process = None
        hold.release()
        before = fake.messages(world.channel)[-1]

        let_grace_pass(world, game)
        await world.bot.start()
        late = await fake.wait_for_message(
            world.channel, lambda m: "Posted late" in text_of(m), 20, after=before
        )
        assert links(late) == {"Game page": game_url(BASE, world.channel.guild_id, game)}


async def test_a_server_that_turns_the_web_off_gets_no_links(tmp_path: Path) -> None:
    """Bob (no Manage Server) is refused privately and nothing changes; Alice (the
    owner) turns the web off, keeping the server's other setting, and no post
    links any more; on again, the links come back."""
    async with open_world(tmp_path, web_env()) as world:
        settings = "SELECT takeover_level, web FROM guild_settings"
        refusal = "Gérer le serveur"
        await refused(world, world.bob, "game settings", {"web": False}, refusal, locale="fr")
        assert query(world, settings) == []
        await private(world, world.alice, "game settings", {"takeover_level": "easy"})
        told = text_of(await private(world, world.alice, "game settings", {"web": False}))
        assert "Web pages: off." in told and "serves no web pages" not in told, told
        assert "it plays at level easy." in told, told
        assert query(world, settings) == [("easy", 0)]

        game, started = await started_game(world)
        final = await played_to_the_end(world, started)
        assert "🏆" in text_of(final)
        posts = turn_posts(world)
        assert len(posts) >= 3 and all(links(p) == {} for p in posts)
        assert links(await private(world, world.bob, "game status", {})) == {}
        assert links(await public(world, world.carol, "leaderboard")) == {}

        told = text_of(await private(world, world.alice, "game settings", {}, locale="fr"))
        assert "Pages web : désactivées." in told, told
        told = text_of(await private(world, world.alice, "game settings", {"web": True}))
        assert "Web pages: on." in told, told
        assert query(world, settings) == [("easy", 1)]
        status = await private(world, world.alice, "game status", {})
        assert links(status) == {"Game page": game_url(BASE, world.channel.guild_id, game)}


async def test_without_web_port_no_post_links(tmp_path: Path) -> None:
    """The default: the setting may be chosen in advance, and says the bot
    serves no pages now; no post carries a link."""
    async with open_world(tmp_path, NIM) as world:
        told = text_of(await private(world, world.alice, "game settings", {}))
        assert "Web pages: on." in told and "serves no web pages at the moment" in told, told
        told = text_of(await private(world, world.alice, "game settings", {}, locale="fr"))
        assert "Le bot ne sert aucune page web pour le moment" in told, told

        _, started = await started_game(world)
        final = await played_to_the_end(world, started)
        assert "🏆" in text_of(final)
        posts = turn_posts(world)
        assert len(posts) >= 3 and all(links(p) == {} for p in posts)
        assert links(await private(world, world.alice, "game status", {})) == {}
        assert links(await public(world, world.carol, "leaderboard")) == {}
