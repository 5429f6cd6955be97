"""End to end: a French table of each game reads French, whoever reads it.

Bob's client is French: the games he opens are French. Through the real bot
process and the loopback Discord, he opens each game with bots, starts it
and plays his turns from the autocomplete, its ★ first, as a player would.
Every ★ the bot offered is accepted; every public post is the game's
language (its title, its footer, its buttons, the ➡️ line), and names the
players, never a seat number.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot import i18n, registry
from tests.e2e import World, assert_people_named, footer_of, message_texts, text_of

GAMES = {"desert": 1, "nomadi": 1, "oasis": 2, "sahwari": 1}  # kind -> bots
COMMANDS = 8  # of Bob's, enough to see several turn posts


def labels(message: Any) -> list[str]:
    found: list[str] = []
    pending = list(message.components)
    while pending:
        component = pending.pop()
        if component.get("type") == 2 and component.get("label"):
            found.append(str(component["label"]))
        pending += list(component.get("components") or [])
    return found


@pytest.mark.parametrize("kind", sorted(GAMES))
async def test_a_french_table_reads_french(world: World, kind: str) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    keep_here = await fake.slash(alice, world.channel, "game settings", {"threads": False})
    await keep_here.final(timeout=20)
    opened = await fake.slash(
        bob,
        world.channel,
        "game new",
        {"game": kind, "bots": GAMES[kind], "level": "easy"},
        locale="fr",
    )
    lobby = await opened.final(timeout=20)
    start = next(c for c in lobby.custom_ids() if c.startswith("lobby:start:"))
    begun = await fake.click(bob, lobby, start, locale="fr")
    await begun.final(timeout=20)
    assert not begun.ephemeral

    stars = 0
    for _ in range(COMMANDS):
        choices = await fake.autocomplete(
            bob, world.channel, f"{kind} move", {"notation": ""}, focused="notation", locale="fr"
        )
        if not choices or choices[0]["value"] == "-":
            break  # the game is over
        version = world.bot.game_version()
        it = await fake.slash(
            bob, world.channel, f"{kind} move", {"notation": choices[0]["value"]}, locale="fr"
        )
        answer = await it.final(timeout=20)
        assert it.ack_latency < 3
        if choices[0]["name"].startswith("★"):  # the bot's own idea is never refused
            assert world.bot.game_version() > version, text_of(answer)
            stars += 1
    assert stars, "no ★ was offered"

    registry.specs()  # loads the games' catalogues in this test process too
    title = i18n.t("fr", f"{kind}.title")
    footer = i18n.t("fr", f"{kind}.footer")
    english = {i18n.t("en", f"button.{b}") for b in ("move", "join", "leave", "start")}
    posts = [m for m in fake.messages(world.channel) if m.is_v2]  # the game's cards
    assert len(posts) >= 2
    for post in posts:
        heading = text_of(post).splitlines()[0]
        assert heading.startswith("### ") and title in heading, heading
        if footer_of(post):
            assert footer_of(post) == footer
        assert not english & set(labels(post)), labels(post)
        for line in text_of(post).splitlines():
            if line.startswith("➡️"):
                assert " : " in line, line  # French puts a space before the colon
    assert any(i18n.t("fr", "button.move") in labels(p) for p in posts)
    assert all(message_texts(p) for p in posts)
    assert_people_named(world)
    assert await world.bot.stop() == 0
    assert fake.unhandled == []
