"""End to end: Through the Desert over the loopback Discord, through the real bot process.

A whole game — two people and a bot seat — is played through the
autocomplete-driven `/desert move`, `/desert place` and the "Your move"
buttons, with a restart of the bot in the middle, bad input from players,
non-players and the wrong player, and the leaderboard at the end.
"""

from __future__ import annotations

import re
from typing import Any

from bot import registry
from tests.e2e import (
    World,
    assert_people_named,
    board_png,
    footer_of,
    locale_of,
    next_player,
    public,
    refused,
    text_of,
    thread_opened,
)


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
        # place, one click away: the private step carries the turn post's buttons,
        # in one card like a turn post's.
        board_png(message)
        [card] = message.components
        assert card["type"] == 17 and any(c.startswith("move:") for c in message.custom_ids())
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
    opened = await public(
        world, bob, "game new", {"game": "desert", "bots": 1, "level": "easy"}, locale="fr"
    )
    thread = await thread_opened(world, opened)
    assert "Durch die Wüste" in thread.name
    world.channel = thread  # lobby and play happen in the thread
    lobby = await fake.wait_for_message(thread, lambda m: bool(m.custom_ids()), timeout=20)
    assert f"<#{thread.id}>" in text_of(fake.messages(parent)[-1])
    assert "Durch die Wüste" in text_of(lobby)
    join = next(c for c in lobby.custom_ids() if c.startswith("lobby:join:"))
    start = next(c for c in lobby.custom_ids() if c.startswith("lobby:start:"))
    joined = await fake.click(alice, lobby, join)
    assert "alice" in text_of(await joined.final(timeout=20))
    early = await fake.click(alice, lobby, start)
    refusal = await early.final(timeout=20)
    assert early.ephemeral and "Only the lobby's creator" in text_of(refusal)
    begun = await fake.click(bob, lobby, start, locale="fr")
    started = await begun.final(timeout=20)
    assert not begun.ephemeral and begun.ack_latency < 3
    board_png(started)
    assert "commence" in text_of(started)
    await fake.wait_for_message(parent, lambda m: "a commencé" in text_of(m), timeout=20)
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
        assert mover is None or mover in message.notified, text_of(message)
        if mover is not None and mover is alice:
            # Alice's English moves never switch the game's language.
            assert "➡️" in text_of(message) and (
                "placez" in text_of(message) or "passe" in text_of(message)
            )

    assert restarted and checked_bad_input
    assert "terminée" in text_of(message)
    assert "🏆" in text_of(message)
    assert re.search(r"eau \d+", text_of(message))  # the breakdown, in French
    assert not footer_of(message)  # no "move with" once over
    # The final post pings both humans, once each (never the bot seat).
    assert sorted(u.id for u in message.notified) == sorted((alice.id, bob.id))
    assert text_of(message).count(f"<@{alice.id}>") == 1
    # The parent channel got three lines: opened, started, the result.
    result = await fake.wait_for_message(parent, lambda m: "🏁" in text_of(m), timeout=20)
    assert f"<#{thread.id}>" in text_of(result)
    assert len([m for m in fake.messages(parent) if m.type != 18]) == 3

    # The finished game stays visible in its channel.
    status = await fake.slash(alice, world.channel, "game status")
    text = text_of(await status.final(timeout=20))
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
    assert_people_named(world)
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
    assert spaces[0]["value"] in text_of(message) and message.is_v2
    board_png(message)
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
    assert it.ephemeral and "not a player" in text_of(explained)
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
    text = text_of(await status.final(timeout=20))
    expected = "en cours" if mover is world.bob else "in progress"
    assert status.ephemeral and expected in text
    assert f"<@{mover.id}>" in text  # still the same player's turn
    post = last_turn_post(world)
    button = next(c for c in post.custom_ids() if c.startswith("move:"))
    it = await world.fake.click(mover, post, button, locale=locale_of(world, mover))
    picker = await it.final(timeout=20)
    assert it.ephemeral and any(c.startswith("pick:") for c in picker.custom_ids())
