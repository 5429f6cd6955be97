"""End to end: a component's ``custom_id`` is whatever the client sends.

A modified client can put another game's number in a button it clicks. The
history pager and the vote buttons (undo, takeover, cancel) must then refuse
privately, from another channel of the server as from another server, and
change nothing; the real buttons (an undo's, a cancel's) keep working where
the game is played.

The forged clicks are made the only way a client can: on a button of the
bot's own (a ``/rules`` page button) whose ``custom_id`` it rewrote.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import BotProcess, World, locale_of, next_player, public, text_of
from tests.fakediscord import FakeDiscord

NOT_HERE = {
    "en-US": "does not belong to a game of this channel",
    "fr": "n'appartient à aucune partie de ce salon",
}


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    """Alice's server (channels ``desert`` and ``lounge``; Bob, in French, is a
    member) and Bob's own server with its ``bazaar``: commands in both."""
    fake = await FakeDiscord().start()
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob", locale="fr"), None
    home = fake.add_guild("Caravan", alice)
    fake.add_member(home, bob)
    table = fake.add_channel(home, "desert")
    fake.add_channel(home, "lounge")
    elsewhere = fake.add_guild("Bazaar", bob)
    fake.add_channel(elsewhere, "bazaar")
    bot = BotProcess(fake, tmp_path, f"{home.id},{elsewhere.id}", {"EXTRA_GAMES": "tests.nim"})
    try:
        await bot.start()
        yield World(fake, bot, alice, bob, carol, table, {alice.id: alice, bob.id: bob})
    finally:
        bot.kill()
        await fake.stop()
        if sys.exc_info()[0] is not None:
            print(bot.log_text()[-5000:])


def channel_named(world: World, name: str) -> Any:
    return next(c for c in world.fake.world.channels.values() if c.name == name)


async def forged_click(world: World, user: Any, channel: Any, custom_id: str) -> Any:
    """``user`` asks for the rules in ``channel``, rewrites the page's ▶ button to
    carry ``custom_id`` and clicks it; returns the private answer."""
    locale = locale_of(world, user)
    asked = await world.fake.slash(user, channel, "rules", {"game": "desert"}, locale=locale)
    page = await asked.final(timeout=20)
    button = page.component(next(c for c in page.custom_ids() if c.endswith(":n")))
    assert button is not None
    button["custom_id"] = custom_id
    click = await world.fake.click(user, page, custom_id, locale=locale)
    answer = await click.final(timeout=20)
    assert click.ephemeral and click.ack_latency is not None and click.ack_latency < 3
    return answer


def game_and_votes(world: World) -> tuple[int, int, list[Any]]:
    """The only game's number and version, and every vote cast."""
    with world.bot.database() as db:
        game_id, version = db.execute("SELECT id, version FROM games").fetchone()
        votes = db.execute("SELECT * FROM votes ORDER BY 1, 2, 3").fetchall()
    return int(game_id), int(version), votes


async def test_buttons_naming_a_game_of_another_place_are_refused(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    lounge, bazaar = channel_named(world, "lounge"), channel_named(world, "bazaar")
    await (await fake.slash(alice, world.channel, "game settings", {"threads": False})).final(20)

    # Alice and Bob play the test game in #desert; the mover asks to take back a
    # whole turn, so the other must agree with a button.
    await public(world, alice, "game new", {"game": "nim"})
    await public(world, bob, "game join", locale="fr")
    await public(world, alice, "game start")
    await public(world, alice, "nim move", {"notation": "keep"})
    post = await public(world, bob, "nim move", {"notation": "keep"}, locale="fr")
    mover = next_player(world, post)
    assert mover is not None
    other = bob if mover is alice else alice
    await public(world, mover, "nim move", {"notation": "take 1"}, locale=locale_of(world, mover))
    asked = await public(world, mover, "game undo", locale=locale_of(world, mover))
    agree = next(c for c in asked.custom_ids() if c.endswith(":yes"))
    before = game_and_votes(world)
    game_id, version, _ = before

    # The other player's agreement, sent from another channel: refused, nothing undone.
    answer = await forged_click(world, other, lounge, agree)
    assert NOT_HERE[locale_of(world, other)] in text_of(answer), text_of(answer)
    assert game_and_votes(world) == before

    # From Bob's own server: the game's history, a takeover vote and a cancel vote.
    for forged in (
        f"page:history:{game_id}:1:n",
        f"takeover:{game_id}:0:0:bot",
        f"cancelvote:{game_id}",
    ):
        answer = await forged_click(world, bob, bazaar, forged)
        assert NOT_HERE["fr"] in text_of(answer), (forged, text_of(answer))
        assert f"#{game_id}" not in text_of(answer) and not answer.embeds, forged
        assert game_and_votes(world) == before, forged

    # Where the game is played, the real button still works.
    agreed = await fake.click(other, asked, agree, locale=locale_of(world, other))
    assert "took back" in text_of(await agreed.final(timeout=20))
    await fake.wait_for_message(  # the board after the undo, posted once the click is answered
        world.channel, lambda m: "took back" in text_of(m) and bool(m.custom_ids()), after=asked
    )
    assert game_and_votes(world)[1] == version + 1
    proposed = await public(world, bob, "game cancel", locale="fr")  # Alice owns the server
    agree = next(c for c in proposed.custom_ids() if c.startswith("cancelvote:"))
    cancelled = await fake.click(alice, proposed, agree)
    assert f"game #{game_id} is cancelled" in text_of(await cancelled.final(timeout=20))

    assert await world.bot.stop() == 0
    assert fake.unhandled == []
    assert "Traceback" not in world.bot.log_text()
