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

import pytest

from bot import registry
from tests.e2e import World, board_png, locale_of, next_player, public, refused, suggestions

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
    opened = await public(
        world, alice, "game new", {"game": "nim", "bots": 1, "options": "pile:long"}
    )
    assert "Oasis Nim" in opened.content and "15 stones" in opened.content
    await public(world, bob, "game join", locale="fr")

    # The creator names who starts: Bob.
    firsts = await suggestions(world, alice, "game start", {"first": ""}, "first")
    bob_choice = next(c["value"] for c in firsts if "bob" in c["name"])
    started = await public(world, alice, "game start", {"first": bob_choice})
    board_png(started)
    assert f"<@{alice.id}>" in started.content and f"<@{bob.id}>" in started.content

    # Both humans owe a decision at once and send it at the same moment: both land.
    its = await asyncio.gather(
        fake.slash(alice, world.channel, "nim move", {"notation": "swap"}),
        fake.slash(bob, world.channel, "nim move", {"notation": "échanger"}, locale="fr"),
    )
    posts = [await it.final(timeout=20) for it in its]
    assert all(not it.ephemeral and it.ack_latency < 3 for it in its), [p.content for p in posts]
    assert all("swaps their card" in p.content or "échange sa carte" in p.content for p in posts)
    # Each swapper reads the card drawn privately; the public posts never show it.
    for it in its:
        note = (await it.wait_followups(1, timeout=20))[0]
        assert note.ephemeral and "🔒" in note.content
    assert not any("🔒" in m.content for m in fake.messages(world.channel))
    # Whoever swapped showed the discard to the next seat: a human there got a DM.
    for user in (alice, bob):
        expected = told_by_dm(world, user.id)
        if expected:
            await fake.wait_for_message(fake.dm_channel(user), lambda m: True, timeout=20)
        await asyncio.sleep(0.3)  # nothing more arrives
        dms = fake.messages(fake.dm_channel(user))
        assert len(dms) == expected, [m.content for m in dms]
        assert all("🔒" in m.content for m in dms)
    assert sum(told_by_dm(world, u.id) for u in (alice, bob)) >= 1  # the test can see a DM

    hand = await fake.slash(alice, world.channel, "game hand")
    text = (await hand.final(timeout=20)).content
    assert hand.ephemeral and "Your secret card" in text
    status = await fake.slash(carol, world.channel, "game status")
    assert "Pile: long (15 stones)" in (await status.final(timeout=20)).content

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
    assert "🏆" in message.content

    ranking = await public(world, carol, "leaderboard", {"game": "nim"})
    text = ranking.embeds[0]["description"]
    assert f"<@{alice.id}>" in text and f"<@{bob.id}>" in text

    # Rematch: the final post pings both humans once and offers a rematch.
    final = next(m for m in reversed(fake.messages(world.channel)) if "🏆" in m.content)
    assert {u.id for u in final.notified} == {alice.id, bob.id}
    rematch = next(c for c in final.custom_ids() if c.startswith("rematch:"))
    with world.bot.database() as db:
        (old_id, old_options, old_bots) = db.execute(
            "SELECT g.id, g.options, (SELECT COUNT(*) FROM seats s WHERE s.game_id = g.id"
            " AND s.user_id IS NULL) FROM games g ORDER BY g.id DESC LIMIT 1"
        ).fetchone()
    stranger = await fake.click(carol, final, rematch)
    said = (await stranger.final(timeout=20)).content
    assert stranger.ephemeral and "Only the players" in said
    # Bob's click opens the table again and calls Alice back (one ping, to her).
    first = await fake.click(bob, final, rematch, locale="fr")
    opened = await first.final(timeout=20)
    assert not first.ephemeral and first.ack_latency < 3
    # A public post speaks the game's language (English here), whoever clicked.
    assert "wants a rematch" in opened.content and f"<@{alice.id}>" in opened.content
    assert {u.id for u in opened.notified} == {alice.id}
    twice = await fake.click(bob, final, rematch, locale="fr")
    said = (await twice.final(timeout=20)).content
    assert twice.ephemeral and "déjà" in said
    # Alice's click seats the last player: the rematch starts, same options, same bot.
    last = await fake.click(alice, final, rematch)
    begun = await last.final(timeout=20)
    assert "rematch" in begun.content and last.ack_latency < 3
    board_png(begun)
    with world.bot.database() as db:
        new_id, status, options = db.execute(
            "SELECT id, status, options FROM games ORDER BY id DESC LIMIT 1"
        ).fetchone()
        seated = {
            row[0] for row in db.execute("SELECT user_id FROM seats WHERE game_id = ?", (new_id,))
        }
    assert new_id != old_id and status == "active" and options == old_options
    assert seated == {alice.id, bob.id, None} and old_bots == 1
    assert await world.bot.stop() == 0
    assert fake.unhandled == []
