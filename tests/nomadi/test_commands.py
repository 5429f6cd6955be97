"""End to end: Nomadi over the loopback Discord, through the real bot process.

Alice and Bob (whose client is French) play a two-player game with the short
course and bribes: each places his share of the five extra cards and all his
pawns in one command, one public post each (Bob in French words), a bribe
whose message is posted escaped, the card deal (the mover peeks privately,
names a price in public, the owner buys), /nomadi die with its autocompleted
squares, /game hand's private image, then the whole game played from the
suggestions to the final ranking.

The game's seed is chosen (written into the lobby row before /game start) so
that Alice's first roll holds a 1: the deal is then certain, not left to luck.
"""

from __future__ import annotations

import json
from typing import Any

from bot.names import md
from games.nomadi import GAME, Buy, DieMove, NomadiState, Offer, PlaceCard, PlacePawn
from games.nomadi.model import BOARD, name, parse_square
from tests.e2e import (
    World,
    assert_people_named,
    board_png,
    game_row,
    locale_of,
    public,
    refused,
    seat_users,
    suggestions,
    text_of,
)

ALICE_CARDS, BOB_CARDS = ("L17", "L18", "J14"), ("F10", "C12")
# Bob's pawns on M16 and M18, beside the cards on L17 and L18.
FIRST_PAWNS = ("N16", "M16", "N17", "M18")
DEALS = ((1, "M16", "L17"), (1, "M18", "L18"))  # Alice moves Bob's pawns onto them
OPTIONS = {"course": "short", "bribes": "on", "setup": "grouped"}  # as /game new stores them


def sq(word: str) -> int:
    found = parse_square(word)
    assert found is not None
    return found


def pawns_of(seat: int) -> list[str]:
    """Alice's pawns and Bob's, every other start square."""
    rest = [name(s) for s in sorted(BOARD.start) if name(s) not in FIRST_PAWNS]
    return [*FIRST_PAWNS, *rest][seat::2]


def after_setup(seed: int) -> NomadiState:
    """The engine's state once the test's placements are made, for ``seed``."""
    state = GAME.new(2, seed, OPTIONS)
    for seat, cards in enumerate((ALICE_CARDS, BOB_CARDS)):
        for card in cards:
            state = GAME.apply(state, seat, PlaceCard(sq(card)))
        for square in pawns_of(seat):
            state = GAME.apply(state, seat, PlacePawn(sq(square)))
    return state


def seed_with_the_deals() -> int:
    """A seed whose first roll lets Alice (seat 1) move Bob's pawns onto both
    cards, one after the other (two 1s; the first deal settled in between)."""
    first, second = (DieMove(die, sq(a), sq(b)) for die, a, b in DEALS)
    for seed in range(1, 10_000):
        state = after_setup(seed)
        if first not in GAME.legal_moves(state, 0):
            continue
        state = GAME.apply(GAME.apply(GAME.apply(state, 0, first), 0, Offer(0)), 1, Buy())
        if second in GAME.legal_moves(state, 0):
            return seed
    raise AssertionError("no seed gives both deals")


def stored(world: World) -> tuple[NomadiState, list[int | None]]:
    """The game's state as the bot saved it, and its seats' user ids."""
    row = game_row(world)
    return GAME.load(json.loads(row["state"])), seat_users(world, row["id"])


async def move(world: World, user: Any, notation: str) -> Any:
    """``/nomadi move``; returns the interaction (public or private answer)."""
    it = await world.fake.slash(
        user, world.channel, "nomadi move", {"notation": notation}, locale=locale_of(world, user)
    )
    await it.final(timeout=20)
    assert it.ack_latency < 3
    return it


async def test_nomadi_is_played_end_to_end(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    setting = await fake.slash(alice, world.channel, "game settings", {"threads": False})
    await setting.final(timeout=20)

    opened = await public(
        world, alice, "game new", {"game": "nomadi", "options": "course:short bribes:on"}
    )
    assert "Nomadi" in text_of(opened)
    await public(world, bob, "game join", locale="fr")
    with world.bot.database() as db:  # see the module's docstring
        db.execute("UPDATE games SET seed = ? WHERE status = 'lobby'", (seed_with_the_deals(),))
    firsts = await suggestions(world, alice, "game start", {"first": ""}, "first")
    started = await public(
        world,
        alice,
        "game start",
        {"first": next(c["value"] for c in firsts if "alice" in c["name"])},
    )
    board_png(started)

    # Setup: Alice's three cards and eight pawns in one command, then Bob's two
    # and eight, in French words; each is one public post.
    offered = await suggestions(world, bob, "nomadi move", {"notation": ""}, "notation")
    assert offered[0]["value"] == "-"  # not his turn: who is awaited
    alice_setup = f"card {' '.join(ALICE_CARDS)} place {' '.join(pawns_of(0))}"
    it = await move(world, alice, alice_setup)
    assert not it.ephemeral, "a setup placed is public"
    choices = await suggestions(world, bob, "nomadi move", {"notation": "carte"}, "notation")
    assert choices and all(c["name"].startswith("carte ") for c in choices)
    assert all(c["value"].startswith("card ") for c in choices)
    await refused(
        world, bob, "nomadi move", {"notation": "placer A1"}, "zone de départ", locale="fr"
    )
    it = await move(world, bob, f"carte {' '.join(BOB_CARDS)} placer {' '.join(pawns_of(1))}")
    assert not it.ephemeral
    state, seats = stored(world)
    assert seats == [alice.id, bob.id] and state.phase == "turn" and 1 in state.dice
    # Bob may offer a bribe, but nothing waits for him: only Alice is pinged.
    first_turn = text_of(fake.messages(world.channel)[-1])
    assert f"<@{alice.id}>" in first_turn and f"<@{bob.id}>" not in first_turn
    assert "bribe" in first_turn

    # Bob offers a bribe; his message is shown literally, pinging nobody.
    bribe = await fake.slash(
        bob,
        world.channel,
        "nomadi bribe",
        {"amount": 2, "message": "**vas-y** @everyone"},
        locale="fr",
    )
    post = await bribe.final(timeout=20)
    assert not bribe.ephemeral and "\\*\\*vas\\-y\\*\\*" in text_of(post)
    assert "@everyone" not in text_of(post) and "@\u200beveryone" in text_of(post)
    # /game history: escaped in its message, literal in its plain-text file.
    history = await fake.slash(bob, world.channel, "game history", locale="fr")
    listed = await history.final(timeout=20)
    rows = listed.embeds[0]["description"]  # the log, one row per command
    assert history.ephemeral and "\\*\\*vas\\-y\\*\\*" in rows and "@everyone" not in rows
    log_text = listed.files["history.txt"].decode("utf-8")
    assert "**vas-y** @everyone" in log_text and "\\" not in log_text
    accepted = await move(world, alice, "accept 2")
    assert accepted.ephemeral  # Alice's turn goes on: answered privately
    assert stored(world)[0].coins == (7, 3)

    # /nomadi die: the die, then the pawn's square, then where it lands, all suggested.
    pawns = await suggestions(world, alice, "nomadi die", {"die": 1, "pawn": "M", "to": ""}, "pawn")
    assert "M16" in [c["value"] for c in pawns]
    landings = await suggestions(
        world, alice, "nomadi die", {"die": 1, "pawn": "M16", "to": ""}, "to"
    )
    assert "L17" in [c["value"] for c in landings]
    assert {c["value"] for c in landings} <= {"L15", "M15", "N15", "L16", "L17"}  # around M16
    peek = await fake.slash(
        alice, world.channel, "nomadi die", {"die": 1, "pawn": "M16", "to": "L17"}
    )
    note = await peek.final(timeout=20)
    state, _ = stored(world)
    assert peek.ephemeral and state.deal is not None
    raw = f"{state.values[state.deal.card]:+d}"
    value = md(raw)  # the log escapes every text it echoes (a "-" included)
    assert f"you look at the card: {value}" in text_of(note)  # only Alice sees the card
    assert not any("look at the card" in text_of(m) for m in fake.messages(world.channel))

    # The price is public and pings Bob, who buys in French and sees his card privately.
    prices = await suggestions(world, alice, "nomadi move", {"notation": ""}, "notation")
    assert [c["value"] for c in prices][:3] == ["offer 0", "offer 1", "offer 2"]
    priced = await move(world, alice, "offer 1")
    assert not priced.ephemeral
    assert f"<@{bob.id}>" in text_of(fake.messages(world.channel)[-1])
    await refused(world, alice, "nomadi move", {"notation": "buy"}, "not your turn")
    bought = await move(world, bob, "acheter")
    assert not bought.ephemeral
    secret = (await bought.wait_followups(1, timeout=20))[0]
    assert secret.ephemeral and value in text_of(secret)
    state, _ = stored(world)
    assert state.deal is None and state.coins == (8 + 1, 2) and len(state.held[1]) == 1

    # The second deal: priced at 0, Bob answers with the button under the post.
    second = await fake.slash(alice, world.channel, "nomadi move", {"notation": "1 M18-L18"})
    await second.final(timeout=20)
    assert second.ephemeral
    await move(world, alice, "offer 0")
    post = fake.messages(world.channel)[-1]
    quick = [c for c in post.custom_ids() if c.startswith("quick:")]
    assert [c.rsplit(":", 1)[1] for c in quick] == ["buy", "refuse"]
    assert [post.component(c)["label"] for c in quick] == ["buy", "refuse"]  # Alice's game
    clicked = await fake.click(alice, post, quick[1])
    refusal = await clicked.final(timeout=20)
    assert clicked.ephemeral, text_of(refusal)
    assert "not your turn" in text_of(refusal)
    assert stored(world)[0].deal is not None  # nothing changed
    clicked = await fake.click(bob, post, quick[1], locale="fr")
    answer = await clicked.final(timeout=20)
    assert not clicked.ephemeral and clicked.ack_latency < 3
    assert "refuse" in text_of(answer)
    state, _ = stored(world)
    assert state.deal is None and len(state.held[0]) == 1 and len(state.held[1]) == 1

    hand = await fake.slash(bob, world.channel, "game hand", locale="fr")
    shown = await hand.final(timeout=20)
    assert hand.ephemeral and f": {raw} (total {raw})" in text_of(shown)
    assert "hand.png" in shown.files

    # The rest of the game, from the suggestions (a whole turn ★ when there is one).
    users = {alice.id: alice, bob.id: bob}
    commands = 0
    while state.phase != "over":
        assert commands < 400, "the game does not end"
        decisions = GAME.decisions(state)
        owing = next(
            (d for d in decisions if d.seat == state.active and d.key != "nomadi.decision.bribe"),
            decisions[0],
        )
        user = users[seats[owing.seat]]
        choices = await suggestions(world, user, "nomadi move", {"notation": ""}, "notation")
        assert choices and choices[0]["value"] != "-"
        await move(world, user, choices[0]["value"])
        commands += 1
        state, _ = stored(world)
    final = fake.messages(world.channel)[-1]
    assert "🏆" in text_of(final)
    # The final post pings every human who played, once each (never a bot seat).
    assert {u.id for u in final.notified} == {u for u in stored(world)[1] if u is not None}
    board_png(final)
    ranking = await public(world, alice, "leaderboard", {"game": "nomadi"})
    text = ranking.embeds[0]["description"]
    assert f"<@{alice.id}>" in text and f"<@{bob.id}>" in text
    assert_people_named(world)
    assert await world.bot.stop() == 0
    assert fake.unhandled == []
