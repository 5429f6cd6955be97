"""End to end: /leaderboard and /stats over the fake Discord, the real bot process.

Before any game: friendly empty answers. Then Alice and Bob (French client)
play a short game of the test game to the end in its thread; the bot records
it and rates them. ``/leaderboard game:nim`` lists both by rating, winner
first; ``/leaderboard`` has a field for the one game played; Bob's ``/stats``
is French, private, and links to the game's thread; Carol never played.
The embeds alone are checked against Discord's limits with crowds of players.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from bot.storage import LeaderRow
from cogs import leaderboard
from tests.e2e import World, locale_of, next_player, public, text_of, thread_opened

pytestmark = pytest.mark.bot_env({"EXTRA_GAMES": "tests.nim"})


async def private(world: World, user: Any, command: str, options: dict[str, Any]) -> Any:
    """A command answered privately within Discord's 3 s."""
    it = await world.fake.slash(
        user, world.channel, command, options, locale=locale_of(world, user)
    )
    message = await it.final(timeout=20)
    assert it.ack_latency is not None and it.ack_latency < 3, command
    assert it.ephemeral, text_of(message)
    return message


async def move(world: World, user: Any) -> Any:
    """The player's first suggestion for a choice, the largest take for stones."""
    locale = locale_of(world, user)
    choices = await world.fake.autocomplete(
        user, world.channel, "nim move", {"notation": ""}, focused="notation", locale=locale
    )
    assert choices
    pick = choices[-1] if choices[0]["value"].startswith("take") else choices[0]
    return await public(world, user, "nim move", {"notation": pick["value"]}, locale=locale)


def ranked(world: World) -> tuple[int, int]:
    """(winner, loser) as the bot stored them."""
    with world.bot.database() as db:
        rows = db.execute(
            "SELECT s.user_id FROM results r JOIN seats s USING (game_id, seat) ORDER BY r.rank"
        ).fetchall()
    assert len(rows) == 2
    return rows[0][0], rows[1][0]


async def test_leaderboard_and_stats(world: World) -> None:
    fake, alice, bob, carol = world.fake, world.alice, world.bob, world.carol
    guild = world.channel.guild_id

    # Nothing finished yet.
    empty = await public(world, carol, "leaderboard")
    assert "No finished games on this server yet" in empty.embeds[0]["description"]
    assert not empty.embeds[0].get("fields")
    none = await public(world, carol, "leaderboard", {"game": "nim"})
    assert "Oasis Nim" in none.embeds[0]["description"]
    mine = await private(world, alice, "stats", {})
    assert "You haven't finished a game on this server yet" in text_of(mine)

    # A short game between two people, in its own thread, to the end.
    opened = await public(world, alice, "game new", {"game": "nim", "options": "pile:short"})
    thread = await thread_opened(world, opened)
    world.channel = thread
    await public(world, bob, "game join", locale="fr")
    await public(world, alice, "game start")
    await move(world, alice)  # keep or swap: both decide
    message = await move(world, bob)
    mover = next_player(world, message)
    moves = 0
    while mover is not None:
        assert moves < 20, "the game does not end"
        message = await move(world, mover)
        mover = next_player(world, message)
        moves += 1
    assert "🏆" in text_of(message)
    winner, loser = ranked(world)

    # Every player of the game, winner first, with a rating and the columns.
    board = await public(world, carol, "leaderboard", {"game": "nim"})
    embed = board.embeds[0]
    lines = embed["description"].splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"1. <@{winner}> — **") and lines[1].startswith(f"2. <@{loser}>")
    first = re.fullmatch(
        r"1\. <@\d+> — \*\*(\d+)\*\* · 1 game · 1 win · avg\. place 1\.0", lines[0]
    )
    second = re.fullmatch(
        r"2\. <@\d+> — \*\*(\d+)\*\* · 1 game · 0 wins · avg\. place 2\.0", lines[1]
    )
    assert first and second, lines
    # Shown on a scale that starts at 1000: after one game, never a negative "-1.8".
    assert int(first[1]) > 1000 > int(second[1]) > 800
    assert "1000" in embed["footer"]["text"]
    assert "openskill" in embed["footer"]["text"] and "Oasis Nim" in embed["title"]

    # All games: one field per game played, in the reader's language.
    everything = await public(world, bob, "leaderboard", locale="fr")
    fields = everything.embeds[0]["fields"]
    assert [f["name"] for f in fields] == ["Nim de l'oasis"]
    assert fields[0]["value"].index(f"<@{winner}>") < fields[0]["value"].index(f"<@{loser}>")
    assert "place moy." in fields[0]["value"]

    # Bob's record, in French, privately, with a link to the game's thread.
    stats = await private(world, bob, "stats", {})
    embed = stats.embeds[0]
    assert embed["title"] == "Bilan de bob"
    assert [f["name"] for f in embed["fields"]] == ["Nim de l'oasis"]
    record = embed["fields"][0]["value"]
    assert "Cote **" in record and "sur 2 au classement" in record and "1 partie" in record
    assert f"https://discord.com/channels/{guild}/{thread.id}" in embed["description"]
    place = "1er sur 2" if winner == bob.id else "2e sur 2"
    assert place in embed["description"] and "<t:" in embed["description"]
    assert re.search(r"\[Nim de l'oasis n°\d+\]", embed["description"])

    # Alice looks up Carol, who never played; Carol looks herself up.
    other = await private(world, alice, "stats", {"user": carol})
    assert f"<@{carol.id}> hasn't finished a game on this server yet" in text_of(other)
    assert not other.embeds
    again = await private(world, carol, "stats", {})
    assert "You haven't finished a game" in text_of(again)

    assert await world.bot.stop() == 0
    assert fake.unhandled == []
    log = world.bot.log.read_text(errors="replace")
    assert "Traceback" not in log and " ERROR " not in log, log[-3000:]


def linked_channels(message: Any) -> set[int]:
    """The channels (game threads) a /stats reply links to."""
    description = message.embeds[0]["description"]
    return {int(c) for c in re.findall(r"/channels/\d+/(\d+)\)", description)}


def status_of(world: World, game_id: int) -> str:
    with world.bot.database() as db:
        return str(db.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()[0])


async def game_won_against_a_bot(world: World, channel: Any) -> Any:
    """Alice plays a short game against a bot in a thread of ``channel`` (or in
    ``channel`` itself if it is a thread), to its end; returns the thread."""
    world.channel = channel
    opened = await public(
        world, world.alice, "game new", {"game": "nim", "bots": 1, "options": "pile:short"}
    )
    thread = channel if channel.is_thread else await thread_opened(world, opened)
    world.channel = thread
    await world.fake.wait_for_message(thread, lambda m: bool(m.custom_ids()), timeout=20)
    await public(world, world.alice, "game start")
    with world.bot.database() as db:
        game_id = int(db.execute("SELECT MAX(id) FROM games").fetchone()[0])
    message = await move(world, world.alice)
    for _ in range(20):
        if next_player(world, message) is None:
            break
        message = await move(world, world.alice)
    for _ in range(100):  # the last AI move may still be on its way
        if status_of(world, game_id) == "finished":
            return thread
        await asyncio.sleep(0.1)
    raise AssertionError(f"game {game_id} did not end")


async def test_stats_show_only_games_in_channels_the_caller_can_see(world: World) -> None:
    """Alice finishes a game in the open channel, one in a channel only she and
    Bob can see and one in a private thread of hers that Bob was added to.
    Carol's /stats of Alice leaves the hidden ones out, Bob's and a moderator's
    show them all, also once the threads are archived (discord.py then forgets
    them, so they are looked up)."""
    from tests.fakediscord import Overwrite, permissions

    fake, alice, bob, carol = world.fake, world.alice, world.bob, world.carol
    lobby = world.channel
    guild = fake.world.guilds[lobby.guild_id]
    secret = fake.add_channel(
        guild,
        "secret",
        overwrites=[
            Overwrite(guild.id, 0, deny=permissions.VIEW_CHANNEL),  # @everyone
            Overwrite(alice.id, 1, allow=permissions.VIEW_CHANNEL),
            Overwrite(bob.id, 1, allow=permissions.VIEW_CHANNEL),
            Overwrite(fake.bot_user.id, 1, allow=permissions.VIEW_CHANNEL),
        ],
    )
    moderator = fake.add_user("root")
    fake.add_member(guild, moderator, permissions=permissions.MANAGE_GUILD)
    open_thread = await game_won_against_a_bot(world, lobby)
    hidden_thread = await game_won_against_a_bot(world, secret)
    private_thread = fake.add_thread(lobby, "side table", alice, private=True)
    for member in (fake.bot_user, bob):
        fake.add_thread_member(private_thread, member)
    await game_won_against_a_bot(world, private_thread)
    world.channel = lobby
    everything = {open_thread.id, hidden_thread.id, private_thread.id}

    async def linked_for(user: Any) -> set[int]:
        return linked_channels(await private(world, user, "stats", {"user": alice}))

    for archived in (False, True):
        if archived:
            for thread in (open_thread, hidden_thread, private_thread):
                fake.archive_thread(thread)
        assert await linked_for(carol) == {open_thread.id}, archived
        assert await linked_for(bob) == everything, archived
        assert await linked_for(moderator) == everything, archived
        assert await linked_for(alice) == everything, archived

    assert await world.bot.stop() == 0
    assert fake.unhandled == []
    log = world.bot.log.read_text(errors="replace")
    assert "Traceback" not in log and " ERROR " not in log, log[-3000:]


# --------------------------------------------------------------------------- the embeds alone


def crowd(count: int) -> list[LeaderRow]:
    """``count`` rated players, best first, with big ids (long mentions)."""
    return [
        LeaderRow(10**18 + i, f"p{i}", 12, 5, 5 / 12, 50, 1.75, 30.0 - i / 10, 2.0)
        for i in range(count)
    ]


def test_a_crowded_board_stays_inside_discords_limits() -> None:
    for locale in ("en-US", "fr"):
        embed = leaderboard.game_board(locale, "desert", crowd(500))
        assert embed.description is not None and len(embed.description) <= 4096
        assert len(embed) <= 6000
        lines = embed.description.splitlines()
        shown = len(lines) - 1
        assert 20 < shown < 500 and lines[0].startswith(f"1. <@{10**18}> — **")
        assert lines[-1] in (f"…and {500 - shown} more", f"…et {500 - shown} autres")

        boards = [(f"game{i}", crowd(40)) for i in range(30)]  # more than fit in one embed
        embed = leaderboard.all_boards(locale, boards)
        assert 1 <= len(embed.fields) <= 25 and len(embed) <= 6000
        assert all(f.value is not None and len(f.value) <= 1024 for f in embed.fields)
        # Top 5 and "…and 35 more" per game; the last one may be cut shorter, never empty.
        assert all(f.value and f.value.count("\n") == 5 for f in embed.fields[:-1])
        assert all(f.value and f.value.startswith("1. <@") for f in embed.fields)
        assert embed.fields[0].value and embed.fields[0].value.endswith(("35 more", "35 autres"))


def test_unrated_players_and_words() -> None:
    unrated = LeaderRow(7, "p", 1, 1, 1.0, 5, 1.0)
    assert leaderboard.board_row("en", 3, unrated) == (
        "3. <@7> — **—** · 1 game · 1 win · avg. place 1.0"
    )
    assert leaderboard.decimal("fr", -0.04) == "0,0" and leaderboard.decimal("en", 12.345) == "12.3"
    english = [leaderboard.nth("en", n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 111)]
    assert english == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
        "23rd",
        "111th",
    ]
    french = [leaderboard.nth("fr", n) for n in (1, 2, 3, 21)]
    assert french == ["1er", "2e", "3e", "21e"]
    assert (
        leaderboard.place("fr", 2, 4) == "2e sur 4" and leaderboard.place("en", 2, 4) == "2nd of 4"
    )
    assert leaderboard.rating_place(2, {1: (30.0, 2.0), 2: (25.0, 2.0), 3: (25.0, 2.0)}) == (2, 3)
