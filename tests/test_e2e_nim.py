"""End to end: the test-only game, registered with one line, played over Discord.

Oasis Nim lives only in tests/nim/ (engine, bot, texts, picture, commands) and is
added with ``EXTRA_GAMES=tests.nim``; no shared file knows it. Through the
real bot process and the loopback Discord: its options at /game new, the
creator naming the first player, two players deciding at the same moment,
private news (an ephemeral note to the mover, a DM to the neighbour), the
generic /nim move with autocomplete, /game hand, and the final ranking.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from bot import registry
from tests.e2e import (
    MENTION,
    World,
    board_png,
    footer_of,
    game_row,
    locale_of,
    next_player,
    public,
    refused,
    seat_users,
    suggestions,
    text_of,
)
from tests.nim.picture import NimPicture

pytestmark = pytest.mark.bot_env({"EXTRA_GAMES": "tests.nim"})


def told_by_dm(world: World, user_id: int) -> int:
    """How many DMs ``user_id`` should get: swaps by the seat just before his, except
    the bot's, which happened during Alice's /game start: the starter reads that
    one in the private note under her own command, not by DM."""
    with world.bot.database() as db:
        seats = [row[0] for row in db.execute("SELECT user_id FROM seats ORDER BY seat")]
        swaps = [row[0] for row in db.execute("SELECT seat FROM moves WHERE notation = 'swap'")]
    mine = seats.index(user_id)
    told = [seat for seat in swaps if (seat + 1) % len(seats) == mine]
    if user_id == world.alice.id:
        told = [seat for seat in told if seats[seat] is not None]
    return len(told)


async def test_the_test_game_is_played_end_to_end(world: World) -> None:
    fake, alice, bob, carol = world.fake, world.alice, world.bob, world.carol
    names = {c["name"] for c in fake.commands.list(guild_id=world.channel.guild_id)}
    assert names == {"game", "leaderboard", "help", "settings", "stats", "rules", "nim"} | set(
        registry.load(registry.GAMES)
    )
    # This server keeps its games in the channel (Alice owns it; Bob may not decide).
    await refused(world, bob, "game settings", {"threads": False}, "Gérer le serveur", locale="fr")
    setting = await fake.slash(alice, world.channel, "game settings", {"threads": False})
    await setting.final(timeout=20)
    assert setting.ephemeral

    # Options are suggested in the reader's language, and checked by the engine.
    suggested = await suggestions(world, bob, "game new", {"game": "nim", "options": ""}, "options")
    assert {c["value"] for c in suggested} == {"pile:short", "pile:long"}
    assert any("Tas" in c["name"] for c in suggested)
    await refused(world, alice, "game new", {"game": "nim", "options": "pile:huge"}, "huge")
    # Nim has no search: its bots play easy whatever the level, which is kept all the same.
    opened = await public(
        world,
        alice,
        "game new",
        {"game": "nim", "bots": 1, "options": "pile:long", "level": "hard"},
    )
    assert "Oasis Nim" in text_of(opened) and "15 stones" in text_of(opened)
    assert "Bots: 1 · level hard" in text_of(opened)
    await public(world, bob, "game join", locale="fr")

    # The creator names who starts: Bob.
    firsts = await suggestions(world, alice, "game start", {"first": ""}, "first")
    bob_choice = next(c["value"] for c in firsts if "bob" in c["name"])
    started = await public(world, alice, "game start", {"first": bob_choice})
    board_png(started)
    assert f"<@{alice.id}>" in text_of(started) and f"<@{bob.id}>" in text_of(started)

    # Both humans owe a decision at once and send it at the same moment: both land.
    its = await asyncio.gather(
        fake.slash(alice, world.channel, "nim move", {"notation": "swap"}),
        fake.slash(bob, world.channel, "nim move", {"notation": "échanger"}, locale="fr"),
    )
    posts = [await it.final(timeout=20) for it in its]
    assert all(not it.ephemeral and it.ack_latency < 3 for it in its), [text_of(p) for p in posts]
    assert all("swaps their card" in text_of(p) or "échange sa carte" in text_of(p) for p in posts)
    # Each swapper reads the card drawn privately; the public posts never show it.
    for it in its:
        note = (await it.wait_followups(1, timeout=20))[0]
        assert note.ephemeral and "🔒" in text_of(note)
    assert not any("🔒" in text_of(m) for m in fake.messages(world.channel))
    # Whoever swapped showed the discard to the next seat: a human there got a DM.
    for user in (alice, bob):
        expected = told_by_dm(world, user.id)
        if expected:
            await fake.wait_for_message(fake.dm_channel(user), lambda m: True, timeout=20)
        await asyncio.sleep(0.3)  # nothing more arrives
        dms = fake.messages(fake.dm_channel(user))
        assert len(dms) == expected, [text_of(m) for m in dms]
        assert all("🔒" in text_of(m) for m in dms)
    assert sum(told_by_dm(world, u.id) for u in (alice, bob)) >= 1  # the test can see a DM

    hand = await fake.slash(alice, world.channel, "game hand")
    text = text_of(await hand.final(timeout=20))
    assert hand.ephemeral and "Your secret card" in text
    status = await fake.slash(carol, world.channel, "game status")
    assert "Pile: long (15 stones)" in text_of(await status.final(timeout=20))

    # Bob, named first, opens the taking (the two posts above may land in either order).
    mover = bob
    moves = 0
    while mover is not None:
        assert moves < 40, "the game does not end"
        if moves == 1:
            await refused(world, carol, "nim move", {"notation": "take 1"}, "not a player")
        choices = await suggestions(world, mover, "nim move", {"notation": ""}, "notation")
        assert choices and all(c["value"].startswith("take ") for c in choices)
        message = await public(
            world,
            mover,
            "nim move",
            {"notation": choices[-1]["value"]},
            locale=locale_of(world, mover),
        )
        board_png(message)
        moves += 1
        mover = next_player(world, message)
    assert "🏆" in text_of(message)

    ranking = await public(world, carol, "leaderboard", {"game": "nim"})
    text = ranking.embeds[0]["description"]
    assert f"<@{alice.id}>" in text and f"<@{bob.id}>" in text

    # Rematch: the final post pings both humans once and offers a rematch.
    final = next(m for m in reversed(fake.messages(world.channel)) if "🏆" in text_of(m))
    assert {u.id for u in final.notified} == {alice.id, bob.id}
    rematch = next(c for c in final.custom_ids() if c.startswith("rematch:"))
    with world.bot.database() as db:
        (old_id, old_options, old_bots) = db.execute(
            "SELECT g.id, g.options, (SELECT COUNT(*) FROM seats s WHERE s.game_id = g.id"
            " AND s.user_id IS NULL) FROM games g ORDER BY g.id DESC LIMIT 1"
        ).fetchone()
    stranger = await fake.click(carol, final, rematch)
    said = text_of(await stranger.final(timeout=20))
    assert stranger.ephemeral and "Only the players" in said
    # Bob's click opens the table again and calls Alice back (one ping, to her).
    first = await fake.click(bob, final, rematch, locale="fr")
    opened = await first.final(timeout=20)
    assert not first.ephemeral and first.ack_latency < 3
    # A public post speaks the game's language (English here), whoever clicked.
    assert "wants a rematch" in text_of(opened) and f"<@{alice.id}>" in text_of(opened)
    assert {u.id for u in opened.notified} == {alice.id}
    twice = await fake.click(bob, final, rematch, locale="fr")
    said = text_of(await twice.final(timeout=20))
    assert twice.ephemeral and "déjà" in said
    # Alice's click seats the last player: the rematch starts, same options, same bot
    # (at the same level).
    last = await fake.click(alice, final, rematch)
    begun = await last.final(timeout=20)
    assert "rematch" in text_of(begun) and last.ack_latency < 3
    board_png(begun)
    with world.bot.database() as db:
        new_id, status, options, level = db.execute(
            "SELECT id, status, options, bot_level FROM games ORDER BY id DESC LIMIT 1"
        ).fetchone()
        seated = {
            row[0] for row in db.execute("SELECT user_id FROM seats WHERE game_id = ?", (new_id,))
        }
    assert new_id != old_id and status == "active" and options == old_options
    assert level == "hard"  # the rematch keeps the bots' level
    assert seated == {alice.id, bob.id, None} and old_bots == 1
    assert await world.bot.stop() == 0
    assert fake.unhandled == []


def card_of(message: Any) -> dict[str, Any]:
    """A game post as Discord's Components V2 shows it: one container and nothing
    else (no content, no embed), its parts in order."""
    assert message.is_v2 and message.content == "" and message.embeds == []
    [card] = message.components
    assert card["type"] == 17  # a container
    return dict(card)


def colour_of(world: World, user: Any) -> int:
    """The board colour of ``user``'s seat in the latest game."""
    seat = seat_users(world, game_row(world)["id"]).index(user.id)
    return discord.Colour.from_rgb(*NimPicture().seat_colour(seat)).value


async def test_a_turn_post_is_one_card_in_the_colour_of_who_acts(world: World) -> None:
    """The summary, the board and the buttons read as one card, in the board colour
    of the seat it waits for; its pings notify exactly the humans it awaits."""
    fake, alice, bob = world.fake, world.alice, world.bob
    await (await fake.slash(alice, world.channel, "game settings", {"threads": False})).final(20)
    await public(world, alice, "game new", {"game": "nim", "bots": 1})
    await public(world, bob, "game join", locale="fr")
    started = await public(world, alice, "game start")
    game_id = game_row(world)["id"]

    card = card_of(started)
    parts = [c["type"] for c in card["components"]]
    # Title with what happened and who is next, the scores, the board, how to move, buttons.
    assert parts == [10, 10, 12, 10, 1], parts
    head, scores, _, footer, row = card["components"]
    assert head["content"].startswith("### Oasis Nim · game #") and "➡️" in head["content"]
    assert "▶" in scores["content"] and footer["content"].startswith("-# ")
    assert footer_of(started) and footer_of(started) in text_of(started)
    board_png(started)  # the gallery shows the uploaded board.png
    assert started.media == [started.attachments[0].url]
    # Every button is in the card's action row: Your move (and the quick moves).
    assert {b["custom_id"] for b in row["components"]} == set(started.custom_ids())
    assert f"move:{game_id}" in started.custom_ids()
    # Everyone decides at once at the start: both humans are pinged and notified
    # (never the bot's seat); the card wears the colour of the first of them.
    seats = seat_users(world, game_id)
    first, other = sorted((alice, bob), key=lambda user: seats.index(user.id))
    awaited = [int(u) for u in MENTION.findall(text_of(started).split("➡️", 1)[1])]
    assert awaited == [first.id, other.id]
    assert sorted(u.id for u in started.notified) == sorted(awaited)
    assert card["accent_color"] == colour_of(world, first)

    # The first decides: the next post waits for the other only, in his colour.
    word = "keep" if first is alice else "garder"
    kept = await public(
        world, first, "nim move", {"notation": word}, locale=locale_of(world, first)
    )
    assert card_of(kept)["accent_color"] == colour_of(world, other)
    assert [u.id for u in kept.notified] == [other.id]
    assert "keeps their card" in text_of(kept)  # the game's language, whoever played
    assert fake.unhandled == []
