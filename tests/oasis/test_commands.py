"""End to end: Oasis over the loopback Discord, through the real bot process.

Alice, Bob (whose client is French), Carol and one bot seat play a whole
four-player game. Alice is the first Noble (the game's seed is written into
the lobby row before /game start so that she is): she grows her offer with
the "reveal" button under the turn post while Bob's click on it is refused,
then stops by command. The others stop with the button or the bot plays.
In the choices, /oasis take lists each offer with its offerer's name and
cards, Alice's own offer is refused (R7), she takes an offer by its
offerer's name, a placement on the camel track is refused with its rule,
and her whole acquisition is then one public post; a later choice is made
with a take button. Multiplier tiles reach
only their taker, privately; /game hand shows them in a private image. The
game is played to the end from the suggestions, then the leaderboard.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from games import catalogue
from games.oasis import GAME, OasisState
from games.oasis.model import LANDS, card
from games.oasis.state import current
from tests.e2e import (
    World,
    assert_people_named,
    board_png,
    game_row,
    locale_of,
    public,
    quick_buttons,
    refused,
    seat_users,
    suggestions,
    text_of,
)

PLAYERS = 4


def alice_is_noble() -> int:
    """A seed whose setup deals rank 1 (the first offer and the first choice)
    to seat 1, and a landscape card on top of every other stack, so Alice owes
    tiles in her first choice whichever offer she takes."""
    for seed in range(1, 10_000):
        state = GAME.new(PLAYERS, seed)
        tops = [card(state.stacks[seat][0]).effect for seat in range(1, PLAYERS)]
        if state.ranks[0] == 1 and all(effect in LANDS for effect in tops):
            return seed
    raise AssertionError("no seed makes seat 1 the Noble")


def stored(world: World) -> tuple[OasisState, list[int | None]]:
    """The game's state as the bot saved it, and its seats' user ids (None: a bot)."""
    row = game_row(world)
    return GAME.load(json.loads(row["state"])), seat_users(world, row["id"])


async def move(world: World, user: Any, notation: str) -> Any:
    """``/oasis move``; returns the interaction (public or private answer)."""
    it = await world.fake.slash(
        user, world.channel, "oasis move", {"notation": notation}, locale=locale_of(world, user)
    )
    await it.final(timeout=20)
    assert it.ack_latency < 3
    return it


async def private_news(it: Any) -> str:
    """What the move's author was told privately: the private answer of a step,
    or the private followup of a public turn."""
    texts = [text_of(it.answer)] if it.ephemeral else []
    if not it.ephemeral:
        with contextlib.suppress(AssertionError):
            texts += [text_of(m) for m in await it.wait_followups(1, timeout=3) if m.ephemeral]
    return "\n".join(texts)


async def test_oasis_is_played_end_to_end(world: World) -> None:
    fake, alice, bob, carol = world.fake, world.alice, world.bob, world.carol
    setting = await fake.slash(alice, world.channel, "game settings", {"threads": False})
    await setting.final(timeout=20)
    opened = await public(world, alice, "game new", {"game": "oasis", "bots": 1, "level": "easy"})
    assert "Oasis" in text_of(opened)
    await public(world, bob, "game join", locale="fr")
    await public(world, carol, "game join")
    with world.bot.database() as db:  # see the module's docstring
        db.execute("UPDATE games SET seed = ? WHERE status = 'lobby'", (alice_is_noble(),))
    firsts = await suggestions(world, alice, "game start", {"first": ""}, "first")
    started = await public(
        world,
        alice,
        "game start",
        {"first": next(c["value"] for c in firsts if "alice" in c["name"])},
    )
    board_png(started)
    state, seats = stored(world)
    assert seats[0] == alice.id and None in seats and state.ranks[0] == 1
    users = {u.id: u for u in (alice, bob, carol)}

    def user_of(seat: int) -> Any:
        uid = seats[seat]
        return None if uid is None else users[uid]

    # Alice's first card is turned up for her (R1); reveal or stop are buttons.
    post = fake.messages(world.channel)[-1]
    assert f"<@{alice.id}>" in text_of(post)
    quick = quick_buttons(post)
    assert [c.rsplit(":", 1)[1] for c in quick] == ["reveal", "stop"]
    assert [post.component(c)["label"] for c in quick] == ["reveal", "stop"]
    clicked = await fake.click(bob, post, quick[0], locale="fr")
    refusal = await clicked.final(timeout=20)
    assert clicked.ephemeral and "pas votre tour" in text_of(refusal)
    assert len(stored(world)[0].offers[0]) == 1  # nothing changed
    clicked = await fake.click(alice, post, quick[0])
    await clicked.final(timeout=20)
    assert clicked.ephemeral and clicked.ack_latency < 3  # her offer goes on: private
    assert len(stored(world)[0].offers[0]) == 2
    posted = len(fake.messages(world.channel))
    stopped = await move(world, alice, "stop")
    assert not stopped.ephemeral and len(fake.messages(world.channel)) == posted + 1
    assert "turns up" in text_of(stopped.answer)  # the whole offer in one post

    # The other offers: the humans stop with the button (the bot plays by itself).
    state, _ = stored(world)
    while state.phase == "offer":
        seat = current(state)
        assert seat is not None
        user = user_of(seat)
        assert user is not None, "a bot seat is played by the bot"
        post = fake.messages(world.channel)[-1]
        assert f"<@{user.id}>" in text_of(post)
        stop = next(c for c in quick_buttons(post) if c.endswith(":stop"))
        clicked = await fake.click(user, post, stop, locale=locale_of(world, user))
        await clicked.final(timeout=20)
        assert not clicked.ephemeral and clicked.ack_latency < 3
        state, _ = stored(world)

    # The choices: Alice, the Noble, first. Every offer has a button of its own.
    assert state.phase == "choose" and current(state) == 0
    post = fake.messages(world.channel)[-1]
    takes = [c.rsplit(":", 1)[1] for c in quick_buttons(post)]
    assert sorted(takes) == [f"take {seat + 1}" for seat in range(1, PLAYERS)]
    offers = await suggestions(world, alice, "oasis take", {"offer": ""}, "offer")
    assert len(offers) == PLAYERS - 1
    bob_seat = seats.index(bob.id)
    bob_offer = next(c for c in offers if c["name"].startswith("bob"))
    assert bob_offer["value"] == f"take {bob_seat + 1}"
    first_card = catalogue.text("en", f"oasis.card.{state.offers[bob_seat][0]}", {})
    assert first_card in bob_offer["name"]
    await refused(world, alice, "oasis move", {"notation": "take alice"}, "R7")
    taken = await move(world, alice, "take bob")
    state, _ = stored(world)
    assert state.taken[bob_seat] == 0 and state.received[bob_seat] == 1
    assert any(state.pending)
    assert taken.ephemeral  # her acquisition goes on: one post at its end
    owed = next(land for land, n in zip(LANDS, state.pending, strict=False) if n)
    await refused(world, alice, "oasis move", {"notation": f"{owed} G6"}, "R14")  # the track
    posted = len(fake.messages(world.channel))
    choices = await suggestions(world, alice, "oasis move", {"notation": ""}, "notation")
    rest = await move(world, alice, choices[0]["value"])
    if not any(stored(world)[0].pending):
        assert not rest.ephemeral and len(fake.messages(world.channel)) == posted + 1
        assert "takes the offer of" in text_of(rest.answer)

    hand = await fake.slash(alice, world.channel, "game hand")
    shown = await hand.final(timeout=20)
    assert hand.ephemeral and "face-down multiplier" in text_of(shown)
    assert "hand.png" in shown.files

    # A later choice is made with a take button of the turn post.
    state, _ = stored(world)
    for _ in range(50):
        if state.phase == "choose" and not any(state.pending):
            break
        user = user_of(current(state) or 0)
        assert user is not None
        choices = await suggestions(world, user, "oasis move", {"notation": ""}, "notation")
        await move(world, user, choices[0]["value"])
        state, _ = stored(world)
    seat = current(state)
    assert seat is not None and state.phase == "choose"
    user = user_of(seat)
    assert user is not None
    post = fake.messages(world.channel)[-1]
    take = next(c for c in quick_buttons(post) if ":take " in c)
    offerer = int(take.rsplit(" ", 1)[1]) - 1
    clicked = await fake.click(user, post, take, locale=locale_of(world, user))
    await clicked.final(timeout=20)
    assert clicked.ack_latency < 3
    assert stored(world)[0].taken[offerer] == seat

    # The rest of the game, from the suggestions (a whole turn ★ when there is one).
    commands = 0
    secrets = 0
    state, _ = stored(world)
    while state.phase != "over":
        assert commands < 600, "the game does not end"
        seat = current(state)
        assert seat is not None
        user = user_of(seat)
        assert user is not None, "a bot seat waits for nobody"
        choices = await suggestions(world, user, "oasis move", {"notation": ""}, "notation")
        assert choices and choices[0]["value"] != "-"
        before = sum(state.mults[seat])
        version = world.bot.game_version()
        it = await move(world, user, choices[0]["value"])
        if choices[0]["name"].startswith("★"):  # the bot's own suggestion is never refused
            assert world.bot.game_version() > version, text_of(it.answer)
        commands += 1
        state, _ = stored(world)
        if sum(state.mults[seat]) > before:  # face-down tiles: told privately, only to him
            news = await private_news(it)
            assert "you take" in news or "vous prenez" in news, news
            secrets += 1
    assert secrets, "no human took a multiplier tile"
    channel_text = "\n".join(text_of(m) for m in fake.messages(world.channel))
    assert "you take" not in channel_text and "vous prenez" not in channel_text
    final = fake.messages(world.channel)[-1]
    assert "🏆" in text_of(final)
    # The final post pings every human who played, once each (never a bot seat).
    assert {u.id for u in final.notified} == {u for u in stored(world)[1] if u is not None}
    board_png(final)
    ranking = await public(world, alice, "leaderboard", {"game": "oasis"})
    text = ranking.embeds[0]["description"]
    assert all(f"<@{u.id}>" in text for u in (alice, bob, carol))
    assert_people_named(world)
    assert await world.bot.stop() == 0
    assert fake.unhandled == []
