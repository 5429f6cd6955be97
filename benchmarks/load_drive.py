"""Players for the load benchmark: many Through the Desert games at once, through the
loopback Discord, each player sending a whole turn as ``/desert move`` as soon as (or
a while after) the board of the previous turn is posted.

Each table (two players, one server) plays its games one after the other, in a
channel each. Before each move the player types it into the command's
autocomplete, as players do: three queries (the empty field, which brings the
bot's ★ whole-turn idea, then the first character and the first three). The
driver keeps a local engine copy of every game, loaded from the database once,
to pick a random legal whole turn and to know whose turn it is (no AI seats, so
nothing happens that the driver does not play itself).

Latency is measured on one clock, the event loop's: from the interaction's
dispatch by the fake (``dispatched_at``) to the moment the fake received the
post carrying ``board.png`` (:class:`StampedFake` notes it). An interaction is
*late* when its first answer (the autocomplete's choices, the command's
acknowledgement) did not reach the fake within Discord's 3 s: a player would
have read "This interaction failed" or seen no suggestions.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from typing import Any

from benchmarks.common import percentile
from benchmarks.load_seed import Played, whole_turn
from games.desert import GAME
from tests.fakediscord import FakeDiscord
from tests.fakediscord.world import Channel, Guild, Message, User

SHARDS = 2  # guilds get ids on shard 0 or 1 of 2, for the runs with two processes
TYPED = (0, 1, 3)  # what a player has typed of his move at each autocomplete query
BUSY = "busy"  # the autocomplete's overload answer starts with this value (cogs/play.py)


class StampedFake(FakeDiscord):
    """The loopback Discord, noting when each post with a board reached it."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.board_at: dict[int, float] = {}  # message id -> loop time

    async def message_created(self, message: Message) -> None:
        self._stamp(message)
        await super().message_created(message)

    async def message_updated(self, message: Message) -> None:
        self._stamp(message)  # a deferred reply: its first followup edits "thinking…"
        await super().message_updated(message)

    def _stamp(self, message: Message) -> None:
        if message.id not in self.board_at and any(
            a.filename == "board.png" for a in message.attachments
        ):
            self.board_at[message.id] = asyncio.get_running_loop().time()


@dataclass
class Table:
    """Two players on one server, playing their games one after the other."""

    guild: Guild
    users: dict[int, User]
    channels: list[Channel]
    rng: random.Random
    games: list[Played] = field(default_factory=list)  # one per channel, once made

    def current(self) -> Played | None:
        return next((g for g in self.games if GAME.to_act(g.state)), None)

    def places(self) -> list[tuple[int, int, tuple[int, int], tuple[str, str]]]:
        """Where its games are made: (guild, channel, players, names)."""
        first, second = self.users.values()
        return [
            (self.guild.id, c.id, (first.id, second.id), (first.username, second.username))
            for c in self.channels
        ]


def build_world(fake: FakeDiscord, tables: int, games_each: int, guilds: int) -> list[Table]:
    """Servers alternating between the two shards, players and a channel per game."""
    owner = fake.add_user("owner")
    servers = [
        fake.add_guild(f"Oasis {g}", owner, shard=(g % SHARDS, SHARDS)) for g in range(guilds)
    ]
    made = []
    for index in range(tables):
        guild = servers[index % guilds]
        players = [fake.add_user(f"p{index}{side}") for side in "ab"]
        for user in players:
            fake.add_member(guild, user)
        channels = [fake.add_channel(guild, f"t{index}-{n}") for n in range(games_each)]
        made.append(Table(guild, {u.id: u for u in players}, channels, random.Random(index)))
    return made


@dataclass(frozen=True)
class Load:
    """How the players offer the load: for how long, and how long each one thinks."""

    label: str
    seconds: float  # measured, after the warm-up
    warmup: float = 2.0
    think: tuple[float, float] | None = None  # seconds between seeing the board and moving
    turns: int | None = None  # at most this many turns a table (a warm-up)


@dataclass
class Measured:
    load: Load
    moves: int  # completed inside the measured window
    seconds: float
    board_ms: list[float]  # moves dispatched inside the window
    ack_ms: list[float]
    errors: list[str]
    complete_ms: list[float] = field(default_factory=list)  # autocomplete answers, in the window
    late: int = 0  # interactions answered after Discord's 3 s (or never), the whole run
    busy: int = 0  # autocomplete queries answered "busy" (overload), the whole run
    answered: int = 0  # boards posted, the whole run (the CPU figures divide by it)
    cpu: dict[str, float] = field(default_factory=dict)  # share of one core, by part
    cpu_seconds: dict[str, float] = field(default_factory=dict)  # CPU seconds, by part

    @property
    def rate(self) -> float:
        return self.moves / self.seconds

    def board(self, q: float) -> float:
        return percentile(self.board_ms, q) if self.board_ms else float("nan")

    def ack(self, q: float) -> float:
        return percentile(self.ack_ms, q) if self.ack_ms else float("nan")

    def complete(self, q: float) -> float:
        return percentile(self.complete_ms, q) if self.complete_ms else float("nan")

    def per_move_ms(self, part: str) -> float:
        """CPU milliseconds of one part (see ``CpuMeter``) per board posted."""
        return self.cpu_seconds.get(part, 0.0) * 1000 / max(1, self.answered)


async def drive(fake: StampedFake, tables: list[Table], load: Load) -> Measured:
    """Every table plays until the window closes; in-flight moves are waited for."""
    loop = asyncio.get_running_loop()
    begin = loop.time() + load.warmup
    end = begin + load.seconds
    samples: list[tuple[float, float, float]] = []  # dispatched, acknowledged, board posted
    completions: list[tuple[float, float]] = []  # dispatched, answered
    errors: list[str] = []
    late = busy = 0

    async def type_in(user: User, channel: Channel, text: str) -> None:
        """The player's autocomplete queries while typing ``text``."""
        nonlocal late, busy
        for typed in TYPED:
            asked = loop.time()
            try:
                choices = await fake.autocomplete(
                    user,
                    channel,
                    "desert move",
                    {"notation": text[:typed]},
                    focused="notation",
                    timeout=fake.interaction_deadline + 0.5,
                )
            except (AssertionError, TimeoutError):  # refused as too late, or never answered
                late += 1
                continue
            answered = loop.time()
            late += answered - asked > fake.interaction_deadline
            completions.append((asked, answered))
            busy += bool(choices) and str(choices[0].get("value", "")).startswith(BUSY)

    async def play(table: Table) -> None:
        nonlocal late
        turns = 0
        while loop.time() < end and (game := table.current()) is not None:
            if load.turns is not None and turns >= load.turns:
                return
            turns += 1
            if load.think is not None:
                await asyncio.sleep(table.rng.uniform(*load.think))
                if loop.time() >= end:
                    return
            seat = GAME.to_act(game.state)[0]
            text, after = whole_turn(game.state, seat, table.rng)
            channel = next(c for c in table.channels if c.id == game.channel_id)
            user = table.users[game.users[seat]]
            await type_in(user, channel, text)
            it = await fake.slash(user, channel, "desert move", {"notation": text})
            try:
                message = await it.final(timeout=60)
            except (AssertionError, TimeoutError) as exc:
                late += it.record.response is None
                errors.append(f"game {game.game_id} {text!r}: {exc}")
                return  # the table stops: its local copy may be wrong now
            if message.ephemeral or message.id not in fake.board_at:
                errors.append(f"game {game.game_id} {text!r}: {message.content[:200]!r}")
                return
            game.state = after
            record = it.record
            assert record.dispatched_at is not None and record.response is not None
            late += record.response.at - record.dispatched_at > fake.interaction_deadline
            samples.append((record.dispatched_at, record.response.at, fake.board_at[message.id]))

    await asyncio.gather(*(play(t) for t in tables))
    window = [s for s in samples if begin <= s[0] < end]
    return Measured(
        load,
        moves=sum(1 for s in samples if begin <= s[2] < end),
        seconds=load.seconds,
        board_ms=[(posted - sent) * 1000 for sent, _, posted in window],
        ack_ms=[(acked - sent) * 1000 for sent, acked, _ in window],
        errors=errors,
        complete_ms=[(answered - sent) * 1000 for sent, answered in completions if sent >= begin],
        late=late,
        busy=busy,
        answered=len(samples),
    )
