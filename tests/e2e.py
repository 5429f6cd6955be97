"""Shared pieces of the end-to-end tests: the real bot process against a loopback Discord."""

from __future__ import annotations

import asyncio
import io
import os
import re
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, closing
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from PIL import Image

from games.desert import GAME as DESERT
from tests.cli import ROOT, clean_environ
from tests.fakediscord import FakeDiscord, Session
from tests.pg import die_with_parent

MENTION = re.compile(r"<@(\d+)>")


class BotProcess:
    """`python -m bot` as a user starts it, configured through the environment."""

    def __init__(
        self,
        fake: FakeDiscord,
        workdir: Path,
        guild_id: int | str,
        extra_env: dict[str, str] | None = None,
        *,
        database_url: str | None = None,
        sessions: int = 1,
    ) -> None:
        """``guild_id``: the guild(s) to sync commands in (``"1,2"`` for several);
        ``database_url``: another database than ``workdir``'s SQLite file (e.g. one
        PostgreSQL database for several processes); ``sessions``: how many gateway
        sessions (shards) the process opens."""
        self.fake = fake
        self.workdir = workdir
        self.sessions = sessions
        self.env = {
            **clean_environ(),
            **fake.bot_env(),
            "DATABASE_URL": database_url or f"sqlite:///{workdir / 'games.db'}",
            "DISCORD_GUILD_IDS": str(guild_id),
            "LOG_LEVEL": "INFO",
            "CARAVANSERAI_ENV_FILE": os.devnull,  # a developer's own .env stays out
            # Cold workers: the warm-up costs seconds of CPU per start, and what a
            # test checks does not depend on it (tests/test_cpu.py tests it).
            "WARM_WORKERS": "0",
            **(extra_env or {}),
        }
        self.process: asyncio.subprocess.Process | None = None
        self.log = workdir / "bot.log"

    async def start(self) -> list[Session]:
        """Start the process; returns its gateway sessions once they are ready."""
        return await start_together(self)

    async def launch(self) -> None:
        """Start the process without waiting for it (see :func:`start_together`)."""
        self.workdir.mkdir(parents=True, exist_ok=True)
        with self.log.open("ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                *("-m", "bot"),
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=log,
                preexec_fn=die_with_parent,  # a killed test run leaves no bot behind
            )

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    async def stop(self) -> int:
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(self.process.wait(), 30)
        self.process = None
        return code

    def kill(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.kill()

    def database(self) -> sqlite3.Connection:
        return sqlite3.connect(self.workdir / "games.db")

    def game_version(self) -> int:
        with self.database() as db:
            row = db.execute("SELECT version FROM games ORDER BY id DESC LIMIT 1").fetchone()
        return 0 if row is None else int(row[0])


async def start_together(*bots: BotProcess, timeout: float = 60) -> list[Session]:
    """Start several bot processes at once (on one fake Discord) and wait until all
    their sessions are ready; returns those sessions, newest first. A process
    that exits meanwhile fails at once, with its log."""
    fake = bots[0].fake
    seen = fake.ready_count
    for bot in bots:
        await bot.launch()
    ready = asyncio.ensure_future(
        fake.wait_ready(timeout, after=seen, count=sum(b.sessions for b in bots))
    )
    exits = {asyncio.ensure_future(b.process.wait()): b for b in bots if b.process is not None}
    try:
        await asyncio.wait({ready, *exits}, return_when=asyncio.FIRST_COMPLETED)
        for waited, bot in exits.items():
            if waited.done() and not ready.done():
                raise AssertionError(
                    f"the bot exited with {waited.result()} before it was ready:\n"
                    + bot.log_text()[-3000:]
                )
        sessions = await ready
    finally:
        for pending in (ready, *exits):
            pending.cancel()
    # The bot syncs commands before connecting; give on_ready a moment.
    await asyncio.sleep(0.2)
    return sessions


@dataclass
class World:
    fake: FakeDiscord
    bot: BotProcess
    alice: Any
    bob: Any
    carol: Any
    channel: Any
    users: dict[int, Any]


@asynccontextmanager
async def open_world(
    tmp_path: Path, extra_env: dict[str, str] | None = None
) -> AsyncIterator[World]:
    """A loopback Discord with three users (Bob's client is in French) and the bot running."""
    fake = await FakeDiscord().start()
    alice = fake.add_user("alice")
    bob = fake.add_user("bob", locale="fr")
    carol = fake.add_user("carol")
    guild = fake.add_guild("Caravan", alice)
    for user in (bob, carol):
        fake.add_member(guild, user)
    channel = fake.add_channel(guild, "desert")
    bot = BotProcess(fake, tmp_path, guild.id, extra_env)
    try:
        await bot.start()
        users = {u.id: u for u in (alice, bob, carol)}
        yield World(fake, bot, alice, bob, carol, channel, users)
    finally:
        bot.kill()
        await fake.stop()
        if sys.exc_info()[0] is not None:
            print(bot.log.read_text(errors="replace")[-5000:])


async def public(
    world: World,
    user: Any,
    command: str,
    options: dict[str, Any] | None = None,
    locale: str | None = None,
) -> Any:
    """Run a command that must succeed publicly within Discord's 3 s."""
    it = await world.fake.slash(user, world.channel, command, options or {}, locale=locale)
    message = await it.final(timeout=20)
    assert it.ack_latency < 3, f"{command} acknowledged after {it.ack_latency:.2f}s"
    assert not it.ephemeral, f"{command} answered privately: {message.content}"
    return message


async def refused(
    world: World,
    user: Any,
    command: str,
    options: dict[str, Any],
    expected: str,
    locale: str | None = None,
) -> None:
    """A bad command: a private, localized refusal that changes nothing."""
    version = world.bot.game_version()
    posted = len(world.fake.messages(world.channel))
    it = await world.fake.slash(user, world.channel, command, options, locale=locale)
    message = await it.final(timeout=20)
    assert it.ack_latency < 3
    assert it.ephemeral, f"refusal shown publicly: {message.content}"
    assert expected in message.content, message.content
    assert world.bot.game_version() == version
    assert len(world.fake.messages(world.channel)) == posted


def text_of(message: Any) -> str:
    """What a message says, whatever its layout: a Components V2 card's
    TextDisplays (a game post), else its content."""
    return str(message.text)


def footer_of(message: Any) -> str:
    """A game card's footer (its ``-# `` small print: how to move), "" if none."""
    lines = text_of(message).splitlines()
    return "\n".join(line.removeprefix("-# ") for line in lines if line.startswith("-# "))


def board_png(message: Any) -> Image.Image:
    """The board a post shows: its ``board.png``, a board-sized PNG, shown where
    the post refers to it: the media gallery of a V2 card (a game post), else
    the embed's image."""
    image = Image.open(io.BytesIO(message.files["board.png"]))
    assert image.format == "PNG" and 1000 <= image.width <= 1400
    [board] = [a for a in message.attachments if a.filename == "board.png"]
    if message.is_v2:
        [gallery] = message.of_type(12)
        [item] = gallery["items"]
        assert item["media"]["url"] == board.url and item["media"]["attachment_id"] == str(board.id)
    else:
        assert message.embeds and message.embeds[0]["image"]["url"] == board.url
    return image


def next_player(world: World, message: Any) -> Any | None:
    """Whoever the bot pinged to act next (None when the game is over)."""
    text = text_of(message)
    pinged = [int(uid) for uid in MENTION.findall(text.split("➡️", 1)[-1])]
    return world.users[pinged[-1]] if pinged and "➡️" in text else None


def locale_of(world: World, user: Any) -> str:
    """The locale ``user``'s client sends: French for Bob, English for the others."""
    return "fr" if user is world.bob else "en-US"


async def suggestions(
    world: World, user: Any, command: str, options: dict[str, Any], focused: str
) -> list[dict[str, Any]]:
    """What the autocomplete of ``command``'s ``focused`` option offers ``user``,
    in his client's language."""
    found: list[dict[str, Any]] = await world.fake.autocomplete(
        user, world.channel, command, options, focused=focused, locale=locale_of(world, user)
    )
    return found


def message_texts(message: Any) -> list[str]:
    """Every text a message shows: its content, its embeds' title, description,
    fields and footer, its components' texts (a V2 card's TextDisplays) and
    labels (at any depth)."""
    texts = [message.content]
    for embed in message.embeds:
        texts += [embed.get("title") or "", embed.get("description") or ""]
        texts += [(embed.get("footer") or {}).get("text") or ""]
        for field in embed.get("fields") or []:
            texts += [field.get("name") or "", field.get("value") or ""]
    pending = list(message.components)
    while pending:
        component = pending.pop()
        texts += [str(component.get(key) or "") for key in ("content", "label", "placeholder")]
        texts += [str(option.get("label") or "") for option in component.get("options") or []]
        pending += list(component.get("components") or [])
        pending += [component[k] for k in ("accessory", "component") if k in component]
    return [text for text in texts if text]


# How the engines used to name people: a seat number, a camel id, a stand-in name.
SEAT_TALK = re.compile(r"\b(?:seat|si[eè]ge|Player|Joueur)\s+\d\b|\bP[1-5]\b", re.IGNORECASE)


def assert_people_named(world: World) -> None:
    """No public message of the game channel speaks of "seat 3", "P2" or
    "Player 1": every player is named by their name."""
    for message in world.fake.messages(world.channel):
        for text in message_texts(message):
            found = SEAT_TALK.search(text)
            assert found is None, f"{found.group(0)!r} in a public post: {text}"


def quick_buttons(message: Any) -> list[str]:
    """The custom ids of a post's quick-move buttons."""
    return [c for c in message.custom_ids() if c.startswith("quick:")]


async def until(condition: Callable[[], Any], what: str = "", timeout: float = 20) -> None:
    """Poll ``condition()`` (a function, or one returning an awaitable) until true."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        value = condition()
        if asyncio.iscoroutine(value):
            value = await value
        if value:
            return
        assert asyncio.get_running_loop().time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


def stamp(moment: datetime) -> str:
    """A time as the bot stores it (ISO-8601 UTC with microseconds): how the
    tests make time pass, by moving stored times into the past."""
    return moment.isoformat(timespec="microseconds")


def game_row(world: World, game_id: int | None = None) -> dict[str, Any]:
    """A game's row in the bot's SQLite database, by column; the latest game by default."""
    with closing(world.bot.database()) as db:
        db.row_factory = lambda cur, row: {
            d[0]: v for d, v in zip(cur.description, row, strict=True)
        }
        if game_id is None:
            query = db.execute("SELECT * FROM games ORDER BY id DESC LIMIT 1")
        else:
            query = db.execute("SELECT * FROM games WHERE id = ?", (game_id,))
        row: dict[str, Any] = query.fetchone()
    return row


def seat_users(world: World, game_id: int) -> list[int | None]:
    """The game's seats' user ids, in seat order (None: a bot's seat)."""
    with closing(world.bot.database()) as db:
        rows = db.execute("SELECT user_id FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        return [None if r[0] is None else int(r[0]) for r in rows]


async def thread_opened(world: World, starter: Any, timeout: float = 20) -> Any:
    """The game thread the bot opens from its line in the channel (it comes just after)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while (thread := world.fake.thread_of(starter)) is None:
        assert asyncio.get_running_loop().time() < deadline, "no thread was opened"
        await asyncio.sleep(0.05)
    return thread


def first_moves_command(state: Any, seat: int) -> str:
    """A whole Through the Desert turn for ``seat`` as one command: its first
    legal move, again and again, until the turn (or the game) ends."""
    placed = []
    while True:
        move = DESERT.legal_moves(state, seat)[0]
        step = DESERT.play(state, seat, move)
        placed.append(DESERT.format_move(move))
        state = step.state
        if step.ends_turn or DESERT.outcome(state) is not None:
            return DESERT.join_moves(placed)
