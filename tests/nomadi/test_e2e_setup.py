"""End to end: a Nomadi setup takes one public post per player, through the real bot.

Alice, Bob (French client) and Carol open a three-player game. Before, its
setup was some twenty public posts, each pinging the next player: one per
card and per pawn. Now each player, pinged in turn, sends the ★ his
autocomplete offers (his whole setup: his share of the extra cards and his
five pawns, one command within Discord's 100 characters); the channel
holds the start post and one post per player, the last one with the first
roll, which pings Alice.
"""

from __future__ import annotations

import asyncio
import json

from games.nomadi import GAME
from games.nomadi.model import PAWNS_EACH
from tests.e2e import World, game_row, locale_of, next_player, public, suggestions, text_of

PLAYERS = 3


async def test_each_player_sets_up_in_one_public_post(world: World) -> None:
    fake, alice, bob, carol = world.fake, world.alice, world.bob, world.carol
    setting = await fake.slash(alice, world.channel, "game settings", {"threads": False})
    await setting.final(timeout=20)
    await public(world, alice, "game new", {"game": "nomadi"})
    await public(world, bob, "game join", locale="fr")
    await public(world, carol, "game join")
    firsts = await suggestions(world, alice, "game start", {"first": ""}, "first")
    first = next(c["value"] for c in firsts if "alice" in c["name"])
    started = await public(world, alice, "game start", {"first": first})
    posted = len(fake.messages(world.channel))
    assert fake.messages(world.channel)[-1].id == started.id

    user = next_player(world, started)
    setups: list[str] = []
    while GAME.load(json.loads(game_row(world)["state"])).phase == "setup":
        assert user is not None and len(setups) < PLAYERS, "the setup takes too many posts"
        choices = await suggestions(world, user, "nomadi move", {"notation": ""}, "notation")
        star = [c for c in choices if c["name"].startswith("★")]
        assert star, [c["name"] for c in choices]
        command = star[0]["value"]
        assert len(command) <= 100 and command.startswith("card ") and " place " in command
        post = await public(
            world, user, "nomadi move", {"notation": command}, locale=locale_of(world, user)
        )
        setups.append(command)
        user = next_player(world, post)

    await asyncio.sleep(0.5)  # anything the bot would post late
    after = fake.messages(world.channel)[posted:]
    assert len(after) == len(setups) == PLAYERS, [text_of(m)[:80] for m in after]
    state = GAME.load(json.loads(game_row(world)["state"]))
    assert state.phase == "turn" and len(state.dice) == 6
    assert all(p.square >= 0 for p in state.pawns) and not state.pile
    assert sum(command.count(" ") - 1 for command in setups) == 5 + PAWNS_EACH[PLAYERS] * PLAYERS
    # The last setup post shows the first roll and pings the first player.
    assert "rolls" in text_of(after[-1])
    assert user is alice
    assert await world.bot.stop() == 0
    assert fake.unhandled == []
