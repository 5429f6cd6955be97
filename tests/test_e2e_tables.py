"""End to end: a table's life around the game itself, on the real bot process
against a loopback Discord, with Through the Desert.

AI turns a crash interrupted are played once the bot is back; the creator
removes a bot seat from the lobby and resigning asks first; /game list shows
only the games the caller can see, and the board asked again and again is
served from a cache, then slowed down.
"""

from __future__ import annotations

from bot.service import GameService
from bot.storage import open_storage
from games.desert import GAME
from tests.e2e import World, board_png, next_player, public, refused, text_of, thread_opened


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
        world.channel, lambda m: "🤖" in text_of(m), timeout=20, after=last
    )
    assert message.interaction_id is None  # posted through the channel, not a token
    assert f"<@{alice.id}>" in text_of(message)  # her turn again, pinged
    board_png(message)


async def test_lobby_seats_and_a_confirmed_resignation(world: World) -> None:
    """The creator removes a bot seat; resigning asks first, and only its button resigns."""
    fake, alice, bob = world.fake, world.alice, world.bob
    opened = await public(world, alice, "game new", {"game": "desert", "bots": 2, "level": "easy"})
    world.channel = await thread_opened(world, opened)
    await fake.wait_for_message(world.channel, lambda m: bool(m.custom_ids()), timeout=20)
    await public(world, bob, "game join", locale="fr")
    await refused(world, bob, "game remove", {"seat": "2"}, "Seul le créateur", locale="fr")
    await refused(world, alice, "game remove", {"seat": "1"}, "not a bot")
    removed = await public(world, alice, "game remove", {"seat": "2"})
    assert "leaves the table" in text_of(removed) and "Zahra" in text_of(removed)
    await public(world, alice, "game start")

    asked = await fake.slash(bob, world.channel, "game resign", locale="fr")
    question = await asked.final(timeout=20)
    assert asked.ephemeral and "Abandonner" in text_of(question)
    button = next(c for c in question.custom_ids() if c.startswith("resign:"))
    # Only Bob sees the question (ephemeral); nothing happened until he confirms.
    with world.bot.database() as db:
        assert db.execute("SELECT COUNT(*) FROM seats WHERE resigned = 1").fetchone()[0] == 0
    confirmed = await fake.click(bob, question, button, locale="fr")
    post = await confirmed.final(timeout=20)
    assert not confirmed.ephemeral and "resigns" in text_of(post)  # the game is English
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
    opened = await public(world, alice, "game new", {"game": "desert", "bots": 1, "level": "easy"})
    world.channel = await thread_opened(world, opened)
    await fake.wait_for_message(world.channel, lambda m: bool(m.custom_ids()), timeout=20)
    await public(world, alice, "game start")

    mine = await fake.slash(alice, world.channel, "game list")
    assert f"<#{world.channel.id}>" in text_of(await mine.final(timeout=20))
    elsewhere = fake.add_channel(guild, "lounge")
    theirs = await fake.slash(bob, elsewhere, "game list", locale="fr")
    text = text_of(await theirs.final(timeout=20))
    assert theirs.ephemeral and f"<#{world.channel.id}>" not in text

    for _ in range(6):
        it = await fake.slash(alice, world.channel, "game board")
        await it.final(timeout=20)
        assert it.ephemeral and "board.png" in it.message.files
    slowed = await fake.slash(alice, world.channel, "game board")
    message = await slowed.final(timeout=20)
    assert slowed.ephemeral and "again in" in text_of(message)
