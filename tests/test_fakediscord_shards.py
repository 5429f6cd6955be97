"""Sharding in the loopback Discord fake: several real discord.py clients, one fake.

Discord sends a guild's events (and its interactions) only to sessions holding the guild's shard,
``(guild_id >> 22) % shard_count``, and DMs to shard 0; two processes identifying with the same
shard (a rolling deploy) both get them, interactions going to one of them.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import discord
import pytest
import yarl

from tests.fakediscord import DriverError, FakeDiscord, Session, shard_of
from tests.fakediscord.snowflake import snowflake_time

WHERE = {"name": "where", "description": "Which process answers", "type": 1}


class Again(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.add_item(discord.ui.Button(label="Again", custom_id="where:again"))


class ShardClient(discord.Client):
    """A bare client that answers every interaction with its label (and a button) and records
    what it got."""

    def __init__(self, label: str, **options: Any) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05, **options)
        self.label = label
        self.interactions: list[int] = []
        self.messages: list[int] = []

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No 5 s identify rate-limit sleeps between shards."""

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.interactions.append(interaction.id)
        await interaction.response.send_message(f"answered by {self.label}", view=Again())

    async def on_message(self, message: discord.Message) -> None:
        self.messages.append(message.id)


class AutoShardClient(discord.AutoShardedClient):
    def __init__(self, **options: Any) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05, **options)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No 5 s identify rate-limit sleeps between shards."""

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        shard = interaction.guild.shard_id if interaction.guild else "dm"
        await interaction.response.send_message(f"answered for shard {shard}")


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    saved = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    server = await FakeDiscord(shards=2).start()
    discord.http.Route.BASE = server.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(server.gateway_url)
    server.commands.bulk_overwrite(None, [WHERE])
    try:
        yield server
    finally:
        await server.stop()
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved
    await eventually(
        lambda: asyncio.all_tasks() == {asyncio.current_task()}, "the clients' tasks to end"
    )


@asynccontextmanager
async def running(
    fake: FakeDiscord, client: discord.Client, shards: int = 1
) -> AsyncIterator[list[Session]]:
    """Start ``client``; yields its sessions (it identifies ``shards`` times)."""
    before = fake.ready_count
    task = asyncio.create_task(client.start(fake.token))
    try:
        sessions = await fake.wait_ready(5, after=before, count=shards)
        await asyncio.wait_for(client.wait_until_ready(), 5)
        yield sessions
    finally:
        await client.close()
        await asyncio.wait_for(task, 5)


def session_of(fake: FakeDiscord, client: discord.Client) -> Session:
    assert client.ws is not None and client.ws.session_id is not None
    return fake.gateway.sessions[client.ws.session_id]


def events(session: Session, name: str | None = None) -> list[tuple[str, Any]]:
    """(event, body) dispatched to ``session`` (only ``name`` events if given), in order."""
    packets = [json.loads(text) for _, text in session.buffer]
    return [(p["t"], p["d"]) for p in packets if name is None or p["t"] == name]


async def eventually(predicate: Callable[[], Any], what: str, timeout: float = 3.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


class Guilds:
    def __init__(self, fake: FakeDiscord) -> None:
        self.alice = fake.add_user("alice")
        self.bob = fake.add_user("bob")
        self.zero = fake.add_guild("Zero", self.alice, shard=(0, 2))
        self.one = fake.add_guild("One", self.alice, shard=(1, 2))
        self.ch0 = fake.add_channel(self.zero, "zero-desert")
        self.ch1 = fake.add_channel(self.one, "one-desert")
        for guild in (self.zero, self.one):
            fake.add_member(guild, self.bob)


# -- world building, REST -----------------------------------------------------------------------


def test_add_guild_on_a_shard_picks_fresh_increasing_ids_on_that_shard() -> None:
    fake = FakeDiscord()
    owner = fake.add_user("owner")
    seen: list[int] = [owner.id]
    for count in (1, 2, 3, 5, 16):
        for shard_id in (*range(count), 0, count - 1):
            guild = fake.add_guild(f"g{count}-{shard_id}", owner, shard=(shard_id, count))
            assert shard_of(guild.id, count) == shard_id
            assert guild.id > seen[-1]
            seen.append(guild.id)
            assert snowflake_time(guild.id).timestamp() - snowflake_time(owner.id).timestamp() < 5
        seen.append(fake.add_user(f"u{count}").id)  # later plain ids still increase
        assert seen[-1] > seen[-2]
    assert len(set(seen)) == len(seen)
    assert shard_of(None, 4) == 0
    for bad in ((2, 2), (-1, 2), (0, 0)):
        with pytest.raises(ValueError, match="no shard"):
            fake.add_guild("bad", owner, shard=bad)


async def test_gateway_bot_reports_the_configured_shard_count(fake: FakeDiscord) -> None:
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        async with http.get(fake.api_base + "/gateway/bot") as resp:
            assert resp.status == 200 and (await resp.json())["shards"] == 2
        fake.shards = 3
        async with http.get(fake.api_base + "/gateway/bot") as resp:
            assert (await resp.json())["shards"] == 3
    async with FakeDiscord() as default, aiohttp.ClientSession() as http:
        auth = {"Authorization": f"Bot {default.token}"}
        async with http.get(default.api_base + "/gateway/bot", headers=auth) as resp:
            assert (await resp.json())["shards"] == 1


# -- real discord.py clients --------------------------------------------------------------------


async def test_auto_sharded_client_follows_gateway_bot_and_gets_each_guild_on_its_shard(
    fake: FakeDiscord,
) -> None:
    world = Guilds(fake)
    client = AutoShardClient()
    async with running(fake, client, shards=2) as sessions:
        assert sorted(s.shard for s in sessions if s.shard) == [(0, 2), (1, 2)]
        assert client.shard_count == 2 and fake.connected
        by_shard = {s.shard: s for s in sessions}
        for shard_id, guild in ((0, world.zero), (1, world.one)):
            session = by_shard[(shard_id, 2)]
            [ready] = [body for _, body in events(session, "READY")]
            assert ready["shard"] == [shard_id, 2]
            assert [g["id"] for g in ready["guilds"]] == [str(guild.id)]
            assert [b["id"] for _, b in events(session, "GUILD_CREATE")] == [str(guild.id)]
            found = client.get_guild(guild.id)
            assert found is not None and found.shard_id == shard_id
            it = await fake.slash(world.alice, world.ch1 if shard_id else world.ch0, "where")
            assert it.session_id == session.id
            assert (await it.final(5)).content == f"answered for shard {shard_id}"
        dm = await fake.slash(world.bob, fake.dm_channel(world.bob), "where")
        assert dm.session_id == by_shard[(0, 2)].id
        assert (await dm.final(5)).content == "answered for shard dm"


async def test_two_processes_on_shards_0_and_1_each_get_only_their_guild(
    fake: FakeDiscord,
) -> None:
    world = Guilds(fake)
    c0 = ShardClient("p0", shard_id=0, shard_count=2)
    c1 = ShardClient("p1", shard_id=1, shard_count=2)
    async with running(fake, c0) as [s0], running(fake, c1) as [s1]:
        assert (s0.shard, s1.shard) == ((0, 2), (1, 2))
        assert [g.id for g in c0.guilds] == [world.zero.id]
        assert [g.id for g in c1.guilds] == [world.one.id]
        assert fake.gateway.sessions_for(world.zero.id) == [s0]
        assert fake.gateway.sessions_for(world.one.id) == [s1]
        assert fake.gateway.sessions_for(None) == [s0]  # DMs: shard 0
        assert fake.gateway.connected_sessions() == [s1, s0]  # newest first

        # interactions follow the channel's guild, whichever process identified last
        for channel, client, other in ((world.ch0, c0, c1), (world.ch1, c1, c0)):
            it = await fake.slash(world.alice, channel, "where")
            assert (await it.final(5)).content == f"answered by {client.label}"
            assert it.id in client.interactions and it.id not in other.interactions
        thread = fake.add_thread(world.ch1, "side game", world.alice)
        in_thread = await fake.slash(world.alice, thread, "where")
        assert (await in_thread.final(5)).content == "answered by p1"
        button = await fake.slash(world.alice, world.ch0, "where")
        message = await button.final(5)
        click = await fake.click(world.alice, message, "where:again")
        assert click.session_id == s0.id
        assert (await click.response(5)).content == "answered by p0"
        dm = await fake.slash(world.bob, fake.dm_channel(world.bob), "where")
        assert dm.session_id == s0.id and (await dm.final(5)).content == "answered by p0"

        # messages and guild events reach only the guild's shard; DMs only shard 0
        m0 = await fake.user_message(world.bob, world.ch0, "hello zero")
        m1 = await fake.user_message(world.bob, world.ch1, "hello one")
        dm_message = await fake.user_message(world.bob, fake.dm_channel(world.bob), "psst")
        await eventually(lambda: m0.id in c0.messages and m1.id in c1.messages, "messages")
        await eventually(lambda: dm_message.id in c0.messages, "the DM")
        assert m1.id not in c0.messages and {m0.id, dm_message.id}.isdisjoint(c1.messages)
        role = fake.add_role(world.one, "caravaneers")
        channel = fake.add_channel(world.zero, "oasis")
        await fake.message_deleted(m1)
        await fake.message_deleted(dm_message)
        await fake.flush()
        for session, mine, theirs in ((s0, world.zero, world.one), (s1, world.one, world.zero)):
            for name, body in events(session):
                if name in ("READY", "INTERACTION_CREATE"):
                    continue
                assert body.get("guild_id", str(mine.id)) == str(mine.id), (name, body)
                assert str(theirs.id) not in json.dumps(body), (name, body)
        assert [b["id"] for _, b in events(s1, "MESSAGE_DELETE")] == [str(m1.id)]
        assert [b["id"] for _, b in events(s0, "MESSAGE_DELETE")] == [str(dm_message.id)]
        assert [b["role"]["id"] for _, b in events(s1, "GUILD_ROLE_CREATE")] == [str(role.id)]
        assert [b["id"] for _, b in events(s0, "CHANNEL_CREATE")] == [str(channel.id)]
        assert events(s0, "THREAD_CREATE") == [] and len(events(s1, "THREAD_CREATE")) == 1
        await eventually(lambda: c0.get_channel(channel.id) is not None, "CHANNEL_CREATE")
        assert c1.get_channel(channel.id) is None

        # forcing a session that does not hold the guild is refused
        with pytest.raises(DriverError, match="does not hold guild"):
            await fake.slash(world.alice, world.ch1, "where", session=s0)
        with pytest.raises(DriverError, match="does not hold DMs"):
            await fake.slash(world.bob, fake.dm_channel(world.bob), "where", session=s1)

        # shard 1's process goes away: nobody holds guild One any more
        await c1.close()
        await fake.gateway.changed.wait_for(lambda: not s1.connected, 5, "p1 to disconnect")
        with pytest.raises(DriverError, match=r"no connected session holds the shard of guild"):
            await fake.slash(world.alice, world.ch1, "where")
        with pytest.raises(DriverError, match="is not connected"):
            await fake.slash(world.alice, world.ch1, "where", session=s1)
        assert fake.connected  # p0 still is
        it = await fake.slash(world.alice, world.ch0, "where")
        assert (await it.final(5)).content == "answered by p0"


async def test_rolling_deploy_same_shard_in_two_processes_and_forced_sessions(
    fake: FakeDiscord,
) -> None:
    world = Guilds(fake)
    old = ShardClient("old", shard_id=0, shard_count=2)
    new = ShardClient("new", shard_id=0, shard_count=2)
    other = ShardClient("other", shard_id=1, shard_count=2)
    async with running(fake, old) as [s_old], running(fake, other), running(fake, new) as [s_new]:
        assert fake.gateway.sessions_for(world.zero.id) == [s_new, s_old]
        assert session_of(fake, old) is s_old and session_of(fake, new) is s_new
        # both processes get the guild's events
        m = await fake.user_message(world.bob, world.ch0, "to both")
        await eventually(lambda: m.id in old.messages and m.id in new.messages, "the message")
        assert m.id not in other.messages

        # unforced: the newest session that holds the guild
        it = await fake.slash(world.alice, world.ch0, "where")
        assert it.session_id == s_new.id and (await it.final(5)).content == "answered by new"
        # forced: the chosen one; two at once race the processes
        first, second = await asyncio.gather(
            fake.slash(world.alice, world.ch0, "where", session=s_old),
            fake.slash(world.bob, world.ch0, "where", session=s_new),
        )
        assert (await first.final(5)).content == "answered by old"
        assert (await second.final(5)).content == "answered by new"
        assert first.id in old.interactions and first.id not in new.interactions
        assert second.id in new.interactions and second.id not in old.interactions
        message = await first.final(5)
        click = await fake.click(world.bob, message, "where:again", session=s_old)
        assert (await click.response(5)).content == "answered by old"
        assert click.session_id == s_old.id and click.id in old.interactions

        # the old process stops: the new one takes everything, nobody waits on the old
        await old.close()
        await fake.gateway.changed.wait_for(lambda: not s_old.connected, 5, "old to go")
        assert fake.gateway.sessions_for(world.zero.id) == [s_new]
        it = await fake.slash(world.alice, world.ch0, "where")
        assert (await it.final(5)).content == "answered by new"


async def test_wait_ready_counts_new_sessions_and_connected_means_any(fake: FakeDiscord) -> None:
    Guilds(fake)
    waiter = asyncio.create_task(fake.wait_ready(5, count=2))
    c0 = ShardClient("p0", shard_id=0, shard_count=2)
    c1 = ShardClient("p1", shard_id=1, shard_count=2)
    async with running(fake, c0):
        await asyncio.sleep(0.05)
        assert not waiter.done()  # one READY is not two
        async with running(fake, c1):
            sessions = await asyncio.wait_for(waiter, 5)
            assert [s.shard for s in sessions] == [(1, 2), (0, 2)]
            before = fake.ready_count
            with pytest.raises(TimeoutError, match="1 bot session"):
                await fake.wait_ready(0.1, after=before)
        assert fake.connected and len(fake.gateway.connected_sessions()) == 1
    await fake.wait_disconnected(2)


async def test_raw_shard_sessions_and_member_chunks_stay_on_their_shard(
    fake: FakeDiscord,
) -> None:
    world = Guilds(fake)
    intents = (1 << 0) | (1 << 1)  # GUILDS | GUILD_MEMBERS
    async with (
        aiohttp.ClientSession() as http,
        http.ws_connect(fake.gateway_url + "?v=10&encoding=json") as ws,
    ):
        assert (await ws.receive_json())["op"] == 10
        identify = {"token": fake.token, "intents": intents, "properties": {}, "shard": [1, 2]}
        await ws.send_json({"op": 2, "d": identify})
        ready = await ws.receive_json()
        assert ready["t"] == "READY" and ready["d"]["shard"] == [1, 2]
        assert [g["id"] for g in ready["d"]["guilds"]] == [str(world.one.id)]
        create = await ws.receive_json()
        assert (create["t"], create["d"]["id"]) == ("GUILD_CREATE", str(world.one.id))
        for guild in (world.zero, world.one):  # a guild of another shard gets no chunk
            request = {"guild_id": str(guild.id), "query": "", "limit": 0, "nonce": "n"}
            await ws.send_json({"op": 8, "d": request})
        chunk = await ws.receive_json()
        assert chunk["t"] == "GUILD_MEMBERS_CHUNK" and chunk["d"]["guild_id"] == str(world.one.id)
        assert {m["user"]["username"] for m in chunk["d"]["members"]} >= {"alice", "bob"}
        await ws.send_json({"op": 1, "d": None})
        assert (await ws.receive_json())["op"] == 11  # nothing else came
        await ws.close(code=4000)
