"""End to end: the real bot process (`python -m bot`) against a loopback Discord.

A whole game of Through the Desert — two people and a bot seat — is played
through the autocomplete-driven `/desert move`, with a restart of the bot in
the middle, bad input from players, non-players and the wrong player, and the
leaderboard at the end.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot import registry
from bot.service import GameService
from bot.storage import open_storage
from games.desert import GAME
from tests.e2e import (
    ROOT,
    World,
    board_png,
    next_player,
    open_world,
    public,
    refused,
    thread_opened,
)
from tests.fakediscord import FakeDiscord


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with open_world(tmp_path) as opened:
        yield opened


def locale_of(world: World, player: Any) -> str:
    return "fr" if player is world.bob else "en-US"


async def play_one_move(world: World, player: Any) -> Any:
    """A whole turn typed as one command, picked from the autocomplete as a player would."""
    locale = locale_of(world, player)
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


def last_turn_post(world: World) -> Any:
    """The newest public post with a "Your move" button."""
    for message in reversed(world.fake.messages(world.channel)):
        if any(c.startswith("move:") for c in message.custom_ids()):
            return message
    raise AssertionError("no post with a 'Your move' button")


async def play_with_buttons(world: World, player: Any) -> Any:
    """ "Your move", then a suggested move, until the turn is posted publicly."""
    fake, locale = world.fake, locale_of(world, player)
    for _ in range(3):
        post = last_turn_post(world)
        button = next(c for c in post.custom_ids() if c.startswith("move:"))
        opened = await fake.click(player, post, button, locale=locale)
        picker = await opened.final(timeout=20)
        assert opened.ephemeral and opened.ack_latency < 3
        select = next(c for c in picker.custom_ids() if c.startswith("pick:"))
        options = picker.component(select)["options"]
        assert 1 <= len(options) <= 25
        picked = await fake.click(player, picker, select, [options[0]["value"]], locale=locale)
        message = await picked.final(timeout=20)
        assert picked.ack_latency < 3
        if not picked.ephemeral:
            return message
        # A first camel: answered privately with the player's board; one more to
        # place, one click away: the private step carries the turn post's buttons.
        assert "board.png" in message.files
        assert any(c.startswith("move:") for c in message.custom_ids())
    raise AssertionError("the turn never ended")


async def test_a_whole_game_over_discord(world: World) -> None:
    """A French game, played mostly with buttons, one public post per turn."""
    fake, alice, bob, carol = world.fake, world.alice, world.bob, world.carol
    first_sync = fake.commands.bulk_overwrites
    assert first_sync >= 1
    games = list(registry.load(registry.GAMES))
    assert {c["name"] for c in fake.commands.list(guild_id=world.channel.guild_id)} == {
        "game",
        "leaderboard",
        "help",
        "settings",
        "stats",
        "rules",
        *games,
    }
    # Only registered, playable games are offered.
    game = next(
        c for c in fake.commands.list(guild_id=world.channel.guild_id) if c["name"] == "game"
    )
    new = next(o for o in game["options"] if o["name"] == "new")
    offered = next(o for o in new["options"] if o["name"] == "game")["choices"]
    assert [c["value"] for c in offered] == games

    # Bob's client is French: the game is French, whoever moves. It gets a thread.
    parent = world.channel
    opened = await public(world, bob, "game new", {"game": "desert", "bots": 1}, locale="fr")
    thread = await thread_opened(world, opened)
    assert "Durch die Wüste" in thread.name
    world.channel = thread  # lobby and play happen in the thread
    lobby = await fake.wait_for_message(thread, lambda m: bool(m.custom_ids()), timeout=20)
    assert f"<#{thread.id}>" in fake.messages(parent)[-1].content
    assert "Durch die Wüste" in lobby.content
    join = next(c for c in lobby.custom_ids() if c.startswith("lobby:join:"))
    start = next(c for c in lobby.custom_ids() if c.startswith("lobby:start:"))
    joined = await fake.click(alice, lobby, join)
    assert "alice" in (await joined.final(timeout=20)).content
    early = await fake.click(alice, lobby, start)
    refusal = await early.final(timeout=20)
    assert early.ephemeral and "Only the lobby's creator" in refusal.content
    begun = await fake.click(bob, lobby, start, locale="fr")
    started = await begun.final(timeout=20)
    assert not begun.ephemeral and begun.ack_latency < 3
    board_png(started)
    assert "commence" in started.content
    await fake.wait_for_message(parent, lambda m: "a commencé" in m.content, timeout=20)
    assert len([m for m in fake.messages(parent) if m.type != 18]) == 2

    mover = next_player(world, started)
    assert mover in started.notified
    turns = 0
    message = started
    restarted = checked_bad_input = False
    while mover is not None:
        assert turns < 200, "the game does not end"
        if not checked_bad_input and turns == 4:
            await check_bad_input(world, mover)
            checked_bad_input = True
        if not restarted and turns == 8:
            await restart_mid_game(world, mover)
            restarted = True
        posts_before = len(fake.messages(world.channel))
        if turns == 2:
            message = await place_one_piece(world, mover)
        elif turns % 3 == 0:
            message = await play_one_move(world, mover)
        else:
            message = await play_with_buttons(world, mover)
        # One public post per turn, AI turns included in it.
        assert len(fake.messages(world.channel)) == posts_before + 1
        board_png(message)
        turns += 1
        mover = next_player(world, message)
        # Discord notifies whom a message names only when it is created: the
        # turn is a new post, not the "thinking…" placeholder edited.
        assert mover is None or mover in message.notified, message.content
        if mover is not None and mover is alice:
            # Alice's English moves never switch the game's language.
            assert "➡️" in message.content and (
                "placez" in message.content or "passe" in message.content
            )

    assert restarted and checked_bad_input
    assert "terminée" in message.content
    assert "🏆" in message.content
    assert re.search(r"eau \d+", message.content)  # the breakdown, in French
    assert not message.embeds[0].get("footer")  # no "move with" once over
    # The parent channel got three lines: opened, started, the result.
    result = await fake.wait_for_message(parent, lambda m: "🏁" in m.content, timeout=20)
    assert f"<#{thread.id}>" in result.content
    assert len([m for m in fake.messages(parent) if m.type != 18]) == 3

    # The finished game stays visible in its channel.
    status = await fake.slash(alice, world.channel, "game status")
    text = (await status.final(timeout=20)).content
    assert status.ephemeral and "finished" in text and "🏆" in text
    board = await fake.slash(carol, world.channel, "game board")
    await board.final(timeout=20)
    assert board.ephemeral and "board.png" in board.message.files
    history = await fake.slash(carol, world.channel, "game history")
    assert "history.txt" in (await history.final(timeout=20)).files

    ranking = await public(world, carol, "leaderboard")  # a field per game played
    [field] = ranking.embeds[0]["fields"]
    text = field["value"]
    assert f"<@{alice.id}>" in text and f"<@{bob.id}>" in text  # losers included
    assert await world.bot.stop() == 0
    assert fake.unhandled == []
    log = world.bot.log.read_text(errors="replace")
    assert "Traceback" not in log and " ERROR " not in log, log[-3000:]


async def place_one_piece(world: World, player: Any) -> Any:
    """The friendlier /desert place: pick a colour, the spaces are suggested.

    A first camel of two is a private step; the turn's post comes with the second.
    """
    locale = locale_of(world, player)
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
    it = await world.fake.slash(
        player,
        world.channel,
        "desert place",
        {"colour": colour, "space": spaces[0]["value"]},
        locale=locale,
    )
    message = await it.final(timeout=20)
    assert it.ack_latency < 3
    if not it.ephemeral:
        return message  # a single-camel turn (a rider, or the first turn of seat 1)
    assert spaces[0]["value"] in message.content and "board.png" in message.files
    return await play_one_move(world, player)


async def check_bad_input(world: World, mover: Any) -> None:
    other = world.bob if mover is world.alice else world.alice
    garbage = ["banana", "   ", "x" * 2000, "🐪🐪🐪", "orange Z99", "pass"]
    for text in garbage:
        await refused(world, mover, "desert move", {"notation": text}, "", locale="en-US")
    await refused(world, world.carol, "desert move", {"notation": "white C5"}, "not a player")
    other_locale = locale_of(world, other)
    expected = "pas votre tour" if other is world.bob else "not your turn"
    await refused(
        world, other, "desert move", {"notation": "white C5"}, expected, locale=other_locale
    )
    # The wrong user on the "Your move" button gets a private explanation.
    post = last_turn_post(world)
    button = next(c for c in post.custom_ids() if c.startswith("move:"))
    it = await world.fake.click(world.carol, post, button)
    explained = await it.final(timeout=20)
    assert it.ephemeral and "not a player" in explained.content
    # Someone with nothing to do gets one entry: who is awaited.
    for idle in (other, world.carol):
        (entry,) = await world.fake.autocomplete(
            idle, world.channel, "desert move", {"notation": ""}, focused="notation"
        )
        assert "Waiting for" in entry["name"] or "On attend" in entry["name"]
    # A French reader gets French words, spread over the colours, and may type them.
    mixed = await world.fake.autocomplete(
        mover, world.channel, "desert move", {"notation": ""}, focused="notation", locale="fr"
    )
    assert len({c["value"].split()[0] for c in mixed}) > 1
    word = next(c["name"].split()[0] for c in mixed if not c["name"].startswith("★"))
    assert word in {"blanc", "jaune", "orange", "rose", "vert"}
    typed = await world.fake.autocomplete(
        mover, world.channel, "desert move", {"notation": word[:3]}, focused="notation", locale="fr"
    )
    assert typed and all(c["name"].startswith(word) for c in typed)


async def restart_mid_game(world: World, mover: Any) -> None:
    """SIGTERM, start again: the game is still there, commands are not re-synced,
    and the buttons of posts from before the restart still work."""
    syncs = world.fake.commands.bulk_overwrites
    assert await world.bot.stop() == 0
    await world.bot.start()
    assert world.fake.commands.bulk_overwrites == syncs
    status = await world.fake.slash(mover, world.channel, "game status")
    text = (await status.final(timeout=20)).content
    expected = "en cours" if mover is world.bob else "in progress"
    assert status.ephemeral and expected in text
    assert f"<@{mover.id}>" in text  # still the same player's turn
    post = last_turn_post(world)
    button = next(c for c in post.custom_ids() if c.startswith("move:"))
    it = await world.fake.click(mover, post, button, locale=locale_of(world, mover))
    picker = await it.final(timeout=20)
    assert it.ephemeral and any(c.startswith("pick:") for c in picker.custom_ids())


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
    opened = await public(world, alice, "game new", {"game": "desert", "bots": 1})
    world.channel = await thread_opened(world, opened)
    await fake.wait_for_message(world.channel, lambda m: bool(m.custom_ids()), timeout=20)
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


async def test_lobby_seats_and_a_confirmed_resignation(world: World) -> None:
    """The creator removes a bot seat; resigning asks first, and only its button resigns."""
    fake, alice, bob = world.fake, world.alice, world.bob
    opened = await public(world, alice, "game new", {"game": "desert", "bots": 2})
    world.channel = await thread_opened(world, opened)
    await fake.wait_for_message(world.channel, lambda m: bool(m.custom_ids()), timeout=20)
    await public(world, bob, "game join", locale="fr")
    await refused(world, bob, "game remove", {"seat": "2"}, "Seul le créateur", locale="fr")
    await refused(world, alice, "game remove", {"seat": "1"}, "not a bot")
    removed = await public(world, alice, "game remove", {"seat": "2"})
    assert "leaves the table" in removed.content and "Zahra" in removed.content
    await public(world, alice, "game start")

    asked = await fake.slash(bob, world.channel, "game resign", locale="fr")
    question = await asked.final(timeout=20)
    assert asked.ephemeral and "Abandonner" in question.content
    button = next(c for c in question.custom_ids() if c.startswith("resign:"))
    # Only Bob sees the question (ephemeral); nothing happened until he confirms.
    with world.bot.database() as db:
        assert db.execute("SELECT COUNT(*) FROM seats WHERE resigned = 1").fetchone()[0] == 0
    confirmed = await fake.click(bob, question, button, locale="fr")
    post = await confirmed.final(timeout=20)
    assert not confirmed.ephemeral and "resigns" in post.content  # the game is English
    with world.bot.database() as db:
        assert db.execute("SELECT COUNT(*) FROM seats WHERE resigned = 1").fetchone()[0] == 1
    assert "Traceback" not in world.bot.log.read_text(errors="replace")


async def test_game_list_shows_only_what_the_caller_can_see_and_boards_are_bounded(
    world: World,
) -> None:
    """A game in a channel Bob cannot see stays out of his /game list; asking for
    the board again and again is served from a cache, then slowed down."""
    from tests.fakediscord import Overwrite, permissions

    fake, alice, bob = world.fake, world.alice, world.bob
    guild = fake.world.guilds[world.channel.guild_id]
    hidden = fake.add_channel(
        guild,
        "secret",
        overwrites=[
            Overwrite(guild.id, 0, deny=permissions.VIEW_CHANNEL),  # @everyone
            Overwrite(alice.id, 1, allow=permissions.VIEW_CHANNEL),
            Overwrite(fake.bot_user.id, 1, allow=permissions.VIEW_CHANNEL),
        ],
    )
    world.channel = hidden
    opened = await public(world, alice, "game new", {"game": "desert", "bots": 1})
    world.channel = await thread_opened(world, opened)
    await fake.wait_for_message(world.channel, lambda m: bool(m.custom_ids()), timeout=20)
    await public(world, alice, "game start")

    mine = await fake.slash(alice, world.channel, "game list")
    assert f"<#{world.channel.id}>" in (await mine.final(timeout=20)).content
    elsewhere = fake.add_channel(guild, "lounge")
    theirs = await fake.slash(bob, elsewhere, "game list", locale="fr")
    text = (await theirs.final(timeout=20)).content
    assert theirs.ephemeral and f"<#{world.channel.id}>" not in text

    for _ in range(6):
        it = await fake.slash(alice, world.channel, "game board")
        await it.final(timeout=20)
        assert it.ephemeral and "board.png" in it.message.files
    slowed = await fake.slash(alice, world.channel, "game board")
    message = await slowed.final(timeout=20)
    assert slowed.ephemeral and "again in" in message.content
