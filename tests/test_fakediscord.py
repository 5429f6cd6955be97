"""Self-tests of the loopback Discord fake, driven by a real in-process discord.py bot."""

from __future__ import annotations

import asyncio
import io
import json
import os
import sys
import zlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
import yarl
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.fakediscord import (
    CommandNotFound,
    DriverError,
    FakeDiscord,
    InvalidOption,
    Overwrite,
    permissions,
)
from tests.fakediscord.errors import flatten

MOVES = ["a1-b2", "a1-c3", "b2-c3", "or-1", "or-2"]


def _png() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (12, 8), (200, 160, 90)).save(buf, format="PNG")
    return buf.getvalue()


PNG = _png()


class LobbyView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="lobby:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.edit_message(content=f"Lobby: {interaction.user.name} joined")


class RenameModal(discord.ui.Modal, title="Rename the caravan"):
    new_name: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="New name", custom_id="rename:name", max_length=32
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Renamed to {self.new_name.value}")


class GameCog(commands.Cog):
    game = app_commands.Group(name="game", description="Play desert board games")

    def __init__(self, bot: TinyBot) -> None:
        self.bot = bot

    @game.command(name="new", description="Start a new game")
    @app_commands.describe(kind="Which game", bots="How many bot seats")
    @app_commands.rename(kind="game")
    @app_commands.choices(
        kind=[
            app_commands.Choice(name="Through the Desert", value="desert"),
            app_commands.Choice(name="Oasis", value="oasis"),
        ]
    )
    async def new(
        self,
        interaction: discord.Interaction,
        kind: app_commands.Choice[str],
        bots: app_commands.Range[int, 0, 4] = 0,
    ) -> None:
        await interaction.response.send_message(
            f"New {kind.value} game, {bots} bots ({interaction.locale.value})"
        )

    @game.command(name="move", description="Play a move")
    async def move(self, interaction: discord.Interaction, notation: str) -> None:
        if notation not in MOVES:
            await interaction.response.send_message(f"Illegal move {notation}", ephemeral=True)
            return
        await interaction.response.send_message(f"Played {notation}")
        await interaction.followup.send("Your turn is over", ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel | discord.Thread)
        await interaction.channel.send(f"{interaction.user.mention} played {notation}")
        await interaction.user.send("Reminder: it is not your turn any more")

    @move.autocomplete("notation")
    async def move_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        self.bot.autocomplete_locales.append(interaction.locale.value)
        return [app_commands.Choice(name=m, value=m) for m in MOVES if m.startswith(current)]

    @game.command(name="board", description="Show the board")
    async def board(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        embed = discord.Embed(title="Board").set_image(url="attachment://board.png")
        await interaction.edit_original_response(
            embed=embed, attachments=[discord.File(io.BytesIO(PNG), "board.png")]
        )

    @game.command(name="hint", description="A private hint")
    async def hint(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("Try the oasis", ephemeral=True)

    @game.command(name="rename", description="Rename the caravan")
    async def rename(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(RenameModal())

    @game.command(name="slow", description="Answers too late")
    async def slow(self, interaction: discord.Interaction) -> None:
        await asyncio.sleep(self.bot.slow_delay)
        try:
            await interaction.response.send_message("finally")
        except discord.HTTPException as exc:
            self.bot.errors.append(exc)

    @game.command(name="lobby", description="Open a lobby")
    async def lobby(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Lobby: empty", view=LobbyView())

    @game.command(name="thread", description="Open a game in its own thread")
    async def thread(
        self, interaction: discord.Interaction, name: str = "Desert #1", standalone: bool = False
    ) -> None:
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        if standalone:
            await interaction.response.defer()
            thread = await channel.create_thread(name=name, type=discord.ChannelType.public_thread)
            await interaction.followup.send(f"Game on in {thread.mention}")
        else:
            await interaction.response.send_message(f"Lobby for {name}")
            lobby = await interaction.original_response()
            thread = await lobby.create_thread(name=name, auto_archive_duration=60)
        await thread.send("Lobby: empty", view=LobbyView())
        self.bot.threads.append(thread)

    @game.command(name="over", description="End the game and archive its thread")
    async def over(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Game over")
        if isinstance(interaction.channel, discord.Thread):
            await interaction.channel.edit(archived=True)

    @app_commands.command(name="reset", description="Reset the server's games")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def reset(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Reset done", ephemeral=True)


class TinyBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(
            command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05
        )
        self.errors: list[discord.HTTPException] = []
        self.autocomplete_locales: list[str] = []
        self.slow_delay = 0.0
        self.synced: list[app_commands.AppCommand] = []
        self.threads: list[discord.Thread] = []
        self.interaction_channels: list[Any] = []

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.interaction_channels.append(interaction.channel)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py sleeps 5 s before every re-IDENTIFY (Discord's identify rate limit)."""

    async def setup_hook(self) -> None:
        await self.add_cog(GameCog(self))
        self.add_view(LobbyView())
        self.synced = await self.tree.sync()


def point_discord_at(fake: FakeDiscord) -> None:
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)


@asynccontextmanager
async def running_bot(fake: FakeDiscord) -> AsyncIterator[TinyBot]:
    point_discord_at(fake)
    bot = TinyBot()
    task = asyncio.create_task(bot.start(fake.token))
    try:
        await fake.wait_ready(5)
        await asyncio.wait_for(bot.wait_until_ready(), 5)
        yield bot
    finally:
        await bot.close()
        await asyncio.wait_for(task, 5)


class World:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.alice = fake.add_user("alice", locale="fr")
        self.bob = fake.add_user("bob")
        self.guild = fake.add_guild("Caravan", self.alice)
        self.channel = fake.add_channel(self.guild, "desert")
        fake.add_member(self.guild, self.bob)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    saved = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    server = await FakeDiscord().start()
    try:
        yield server
    finally:
        await server.stop()
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved
    assert not await _pending_tasks(grace=1.0)


async def _pending_tasks(grace: float) -> list[asyncio.Task[Any]]:
    """Tasks still alive after ``grace`` seconds (discord.py's ready timer may need a moment)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + grace
    while True:
        pending = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        if not pending or loop.time() > deadline:
            return pending
        await asyncio.sleep(0.02)


@pytest.fixture
def world(fake: FakeDiscord) -> World:
    return World(fake)


@pytest.fixture
async def bot(fake: FakeDiscord, world: World) -> AsyncIterator[TinyBot]:
    async with running_bot(fake) as running:
        yield running


async def api(
    fake: FakeDiscord, method: str, path: str, *, token: str | None = "", body: Any = None
) -> tuple[int, Any]:
    headers = {}
    if token is not None:
        headers["Authorization"] = f"Bot {token or fake.token}"
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, fake.api_base + path, json=body, headers=headers) as resp,
    ):
        text = await resp.text()
        return resp.status, json.loads(text) if text else None


# -- connecting & slash commands --------------------------------------------------------------


async def test_bot_connects_syncs_and_answers_a_slash_command(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    assert fake.connected and fake.gateway.compress_modes == ["zlib-stream"]
    names = {c["name"] for c in fake.commands.list()}
    assert names == {"game", "reset"} and {c.name for c in bot.synced} == names
    assert bot.get_guild(world.guild.id) is not None

    it = await fake.slash(world.alice, world.channel, "game new", {"game": "desert", "bots": 2})
    message = await it.final(5)
    assert message.content == "New desert game, 2 bots (fr)"
    assert not it.ephemeral and not it.deferred
    assert it.ack_latency is not None and it.ack_latency < 3
    assert message.author.id == fake.bot_user.id and message.type == 20
    assert fake.messages(world.channel) == [message]
    body = it.payload
    assert body["data"]["options"][0]["options"] == [
        {"type": 3, "name": "game", "value": "desert"},
        {"type": 4, "name": "bots", "value": 2},
    ]
    assert body["member"]["user"]["id"] == str(world.alice.id) and body["guild_locale"] == "en-US"
    assert fake.unhandled == []


async def test_deferred_response_with_png_in_embed(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    it = await fake.slash(world.bob, world.channel, "game board", locale="de")
    assert (await it.response()).type == 5
    message = await it.final(5)
    assert it.deferred and not message.loading
    assert message.files == {"board.png": PNG}
    image = message.embeds[0]["image"]
    assert image["url"] == message.attachments[0].url and (image["width"], image["height"]) == (
        12,
        8,
    )
    async with aiohttp.ClientSession() as session, session.get(image["url"]) as resp:
        assert await resp.read() == PNG


async def test_autocomplete_ephemeral_error_followup_and_channel_message(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    choices = await fake.autocomplete(
        world.alice, world.channel, "game move", {"notation": "or"}, focused="notation"
    )
    assert [c["value"] for c in choices] == ["or-1", "or-2"]
    assert bot.autocomplete_locales == ["fr"]

    bad = await fake.slash(world.bob, world.channel, "game move", {"notation": "zz"})
    error = await bad.final(5)
    assert bad.ephemeral and error.content == "Illegal move zz"
    assert error not in fake.messages(world.channel)

    good = await fake.slash(world.bob, world.channel, "game move", {"notation": "a1-b2"})
    assert (await good.final(5)).content == "Played a1-b2"
    [followup] = await good.wait_followups(1, 5)
    assert followup.ephemeral and followup.content == "Your turn is over"
    posted = await fake.wait_for_message(world.channel, lambda m: "played" in m.content, 5)
    assert posted.content == f"<@{world.bob.id}> played a1-b2" and posted.mentions == [world.bob]
    dm = await fake.wait_for_message(fake.dm_channel(world.bob), timeout=5)
    assert dm.content.startswith("Reminder")


async def test_followup_after_defer_edits_the_thinking_message_and_dms_work(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    it = await fake.slash(world.alice, world.channel, "game hint")
    message = await it.final(5)
    assert it.deferred and it.ephemeral and message.content == "Try the oasis"
    assert it.followups == [] and fake.messages(world.channel) == []

    dm = fake.dm_channel(world.alice)
    it = await fake.slash(world.alice, dm, "game new", {"game": "oasis"})
    assert (await it.final(5)).content.startswith("New oasis")
    assert it.payload["context"] == 1 and "member" not in it.payload
    with pytest.raises(CommandNotFound, match="DMs"):
        await fake.slash(world.alice, dm, "reset")


async def test_buttons_and_admin_only_commands(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    lobby = await fake.slash(world.alice, world.channel, "game lobby")
    message = await lobby.final(5)
    assert message.custom_ids() == ["lobby:join"]
    click = await fake.click(world.bob, message, "lobby:join")
    updated = await click.final(5)
    assert updated is message and message.content == "Lobby: bob joined"
    with pytest.raises(DriverError):
        await fake.click(world.bob, message, "lobby:leave")

    with pytest.raises(DriverError, match="permissions"):
        await fake.slash(world.bob, world.channel, "reset")
    admin = fake.add_user("carol")
    fake.add_member(world.guild, admin, permissions=permissions.MANAGE_GUILD)
    await fake.flush()
    reset = await fake.slash(admin, world.channel, "reset")
    assert (await reset.final(5)).content == "Reset done" and reset.ephemeral


async def test_modal_round_trip_and_world_changes_reach_the_bot(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    it = await fake.slash(world.alice, world.channel, "game rename")
    assert (await it.response()).type == 9 and it.modal is not None
    submitted = await fake.submit_modal(it, {"rename:name": "Sahara"})
    assert (await submitted.final(5)).content == "Renamed to Sahara"
    with pytest.raises(DriverError, match="required"):
        await fake.submit_modal(it, {})

    second = fake.add_guild("Second caravan", world.bob)
    general = fake.add_channel(second, "general")
    await fake.flush()
    for _ in range(50):
        if bot.get_channel(general.id) is not None:
            break
        await asyncio.sleep(0.02)
    assert bot.get_guild(second.id) is not None and bot.get_channel(general.id) is not None
    it = await fake.slash(world.bob, general, "game new", {"game": "desert"})
    assert (await it.final(5)).content.startswith("New desert")

    thread = fake.add_thread(world.channel, "match-1", world.alice)
    await fake.flush()
    it = await fake.slash(world.alice, thread, "game move", {"notation": "or-1"})
    assert (await it.final(5)).channel_id == thread.id
    posted = await fake.wait_for_message(thread, lambda m: "played" in m.content, 5)
    assert posted.guild_id == world.guild.id


async def test_driver_refuses_what_discord_would_refuse(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    with pytest.raises(CommandNotFound):
        await fake.slash(world.alice, world.channel, "chess new")
    with pytest.raises(CommandNotFound):
        await fake.slash(world.alice, world.channel, "game")
    with pytest.raises(InvalidOption, match="not one of"):
        await fake.slash(world.alice, world.channel, "game new", {"game": "chess"})
    with pytest.raises(InvalidOption, match="outside"):
        await fake.slash(world.alice, world.channel, "game new", {"game": "oasis", "bots": 9})
    with pytest.raises(InvalidOption, match="required"):
        await fake.slash(world.alice, world.channel, "game move")
    with pytest.raises(DriverError, match="locale"):
        await fake.slash(world.alice, world.channel, "game board", locale="fr-FR")


# -- gateway robustness ------------------------------------------------------------------------


async def test_resume_after_server_closes_socket_replays_missed_events(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    ready, resumed = fake.ready_count, fake.gateway.resume_count
    await fake.disconnect(4000)
    extra = fake.add_channel(world.guild, "oasis")  # dispatched while the bot is away
    await fake.wait_resumed(5, after=resumed)
    assert fake.ready_count == ready
    await fake.flush()
    for _ in range(50):
        if bot.get_channel(extra.id) is not None:
            break
        await asyncio.sleep(0.02)
    assert bot.get_channel(extra.id) is not None
    it = await fake.slash(world.alice, extra, "game new", {"game": "oasis"})
    assert (await it.final(5)).content.startswith("New oasis game")


async def test_invalid_session_makes_the_bot_identify_again(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    before = fake.ready_count
    await fake.invalidate_session()
    await fake.wait_ready(5, after=before)
    it = await fake.slash(world.alice, world.channel, "game new", {"game": "desert"})
    assert (await it.final(5)).content.startswith("New desert")


async def test_late_callback_is_unknown_interaction(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    fake.interaction_deadline = 0.2
    bot.slow_delay = 0.35
    it = await fake.slash(world.alice, world.channel, "game slow")
    for _ in range(100):
        if bot.errors:
            break
        await asyncio.sleep(0.02)
    [error] = bot.errors
    assert isinstance(error, discord.NotFound) and error.code == 10062
    assert [e.code for e in it.rejected] == [10062] and not it.responded


async def test_raw_callbacks_ack_once_and_webhook_rules(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    # A second bot connection is not needed: answer by hand before the bot does.
    bot.slow_delay = 0.3
    it = await fake.slash(world.alice, world.channel, "game slow")
    path = f"/interactions/{it.id}/{it.token}/callback"
    status, _ = await api(fake, "POST", path, token=None, body={"type": 4, "data": {"content": ""}})
    assert status == 400  # empty message
    status, body = await api(
        fake, "POST", path, token=None, body={"type": 4, "data": {"content": "x" * 2001}}
    )
    assert status == 400 and flatten(body["errors"]) == {"data.content": "BASE_TYPE_MAX_LENGTH"}
    status, _ = await api(fake, "POST", path, token=None, body={"type": 5})
    assert status == 204
    status, body = await api(fake, "POST", path, token=None, body={"type": 5})
    assert (status, body["code"]) == (400, 40060)
    hook = f"/webhooks/{fake.application_id}/{it.token}"
    status, msg = await api(fake, "PATCH", hook + "/messages/@original", body={"content": "hi"})
    assert status == 200 and msg["content"] == "hi" and (await it.final(1)).content == "hi"
    fake.token_lifetime = 0
    status, body = await api(fake, "POST", hook + "?wait=true", body={"content": "late"})
    assert (status, body["code"]) == (401, 50027)
    for _ in range(50):  # the bot's own (late) answer is refused too
        if bot.errors:
            break
        await asyncio.sleep(0.02)
    assert [e.code for e in bot.errors] == [40060]


async def test_wrong_token_is_rejected(fake: FakeDiscord, world: World) -> None:
    status, body = await api(fake, "GET", "/users/@me", token="nope")
    assert (status, body) == (401, {"message": "401: Unauthorized", "code": 0})
    status, _ = await api(fake, "GET", "/users/@me", token=None)
    assert status == 401
    point_discord_at(fake)
    client = discord.Client(intents=discord.Intents.none())
    with pytest.raises(discord.LoginFailure):
        await client.login("not-the-token")
    await client.close()


async def test_unknown_routes_are_404_and_recorded(fake: FakeDiscord) -> None:
    status, body = await api(fake, "GET", "/voice/regions")
    assert (status, body) == (404, {"message": "404: Not Found", "code": 0})
    assert [str(r) for r in fake.unhandled] == ["GET /voice/regions -> 404"]


# -- raw protocol -----------------------------------------------------------------------------


async def test_raw_gateway_uncompressed_and_zlib(fake: FakeDiscord, world: World) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(fake.gateway_url + "?v=10&encoding=json") as ws:
            hello = await ws.receive_json()
            assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
            await ws.send_json({"op": 1, "d": None})
            assert (await ws.receive_json())["op"] == 11
            await ws.send_json(
                {"op": 2, "d": {"token": fake.token, "intents": 1 << 0, "properties": {}}}
            )
            ready = await ws.receive_json()
            assert ready["t"] == "READY" and ready["s"] == 1
            session_id = ready["d"]["session_id"]
            guild_create = await ws.receive_json()
            assert guild_create["t"] == "GUILD_CREATE" and guild_create["s"] == 2
            assert {c["name"] for c in guild_create["d"]["channels"]} == {"desert"}
            assert [m["user"]["id"] for m in guild_create["d"]["members"]] == [
                str(fake.bot_user.id)
            ]
            await ws.close(code=4000)  # a 1000/1001 close would end the session
        await fake.wait_disconnected(2)
        fake.add_channel(world.guild, "missed")
        await fake.flush()
        url = fake.gateway_url + "?v=10&encoding=json&compress=zlib-stream"
        async with session.ws_connect(url) as ws:
            inflate = zlib.decompressobj()

            async def receive() -> dict[str, Any]:
                data = await ws.receive_bytes()
                assert data.endswith(b"\x00\x00\xff\xff")
                return json.loads(inflate.decompress(data))

            assert (await receive())["op"] == 10
            await ws.send_json(
                {"op": 6, "d": {"token": fake.token, "session_id": session_id, "seq": 2}}
            )
            replay = await receive()
            assert (replay["t"], replay["s"], replay["d"]["name"]) == (
                "CHANNEL_CREATE",
                3,
                "missed",
            )
            assert (await receive())["t"] == "RESUMED"
        async with session.ws_connect(fake.gateway_url + "?v=10&encoding=json") as ws:
            await ws.receive_json()
            await ws.send_json(
                {"op": 6, "d": {"token": fake.token, "session_id": "nope", "seq": 0}}
            )
            assert await ws.receive_json() == {"op": 9, "d": False, "s": None, "t": None}
            await ws.send_json({"op": 2, "d": {"token": "bad", "intents": 0}})
            closing = await ws.receive()
            assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == 4004


async def test_command_schema_validation(fake: FakeDiscord, world: World) -> None:
    base = f"/applications/{fake.application_id}/commands"
    good = {"name": "game", "description": "Games", "type": 1}
    bad = [
        {"name": "Game", "description": "upper case"},
        {"name": "has space", "description": "x"},
        {"name": "nodesc", "description": ""},
        {"name": "longdesc", "description": "d" * 101},
        {"name": "toomany", "description": "x", "options": [
            {"type": 3, "name": f"o{i}", "description": "x"} for i in range(26)]},
        {"name": "order", "description": "x", "options": [
            {"type": 3, "name": "a", "description": "x"},
            {"type": 3, "name": "b", "description": "x", "required": True}]},
        {"name": "choices", "description": "x", "options": [
            {"type": 3, "name": "a", "description": "x",
             "choices": [{"name": f"c{i}", "value": f"v{i}"} for i in range(26)]}]},
        {"name": "locales", "description": "x", "name_localizations": {"fr": "jeu", "fr-FR": "jeu"},
         "description_localizations": {"de": ""}},
        {"name": "locvalue", "description": "x", "name_localizations": {"fr": "Jeu Nouveau"}},
    ]  # fmt: skip
    status, body = await api(fake, "PUT", base, body=[good, *bad])
    assert status == 400 and body["code"] == 50035 and body["message"] == "Invalid Form Body"
    assert flatten(body["errors"]) == {
        "1.name": "APPLICATION_COMMAND_INVALID_NAME",
        "2.name": "APPLICATION_COMMAND_INVALID_NAME",
        "3.description": "BASE_TYPE_BAD_LENGTH",
        "4.description": "BASE_TYPE_BAD_LENGTH",
        "5.options": "BASE_TYPE_MAX_LENGTH",
        "6.options.1.required": "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
        "7.options.0.choices": "BASE_TYPE_MAX_LENGTH",
        "8.name_localizations.fr-FR": "BASE_TYPE_CHOICES",
        "8.description_localizations.de": "BASE_TYPE_BAD_LENGTH",
        "9.name_localizations.fr": "APPLICATION_COMMAND_INVALID_NAME",
    }
    assert fake.commands.list() == []

    guild_base = f"/applications/{fake.application_id}/guilds/{world.guild.id}/commands"
    status, [stored] = await api(fake, "PUT", guild_base, body=[good])
    assert status == 200 and stored["guild_id"] == str(world.guild.id) and stored["version"]
    status, [again] = await api(fake, "PUT", guild_base, body=[good])
    assert (again["id"], again["version"]) == (stored["id"], stored["version"])
    status, created = await api(fake, "POST", base, body={"name": "hello", "description": "hi"})
    assert status == 201 and fake.commands.list()[0]["id"] == created["id"]


async def test_discord_py_sees_sync_failures(fake: FakeDiscord, world: World) -> None:
    point_discord_at(fake)
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)

    @tree.command(name="dup", description="x" * 100)
    async def dup(interaction: discord.Interaction) -> None:  # pragma: no cover - never run
        pass

    dup.description = "x" * 101  # slip past discord.py's own check, like a translator bug would
    await client.login(fake.token)
    try:
        with pytest.raises(app_commands.CommandSyncFailure, match="description"):
            await tree.sync()
    finally:
        await client.close()


# -- a bot in its own process, killed and restarted ----------------------------------------------

BOT_PROCESS = """
import os, discord, yarl
from discord import app_commands

discord.http.Route.BASE = os.environ["DISCORD_API_BASE"]
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["DISCORD_GATEWAY_URL"])


class Bot(discord.Client):
    def __init__(self):
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)

    async def setup_hook(self):
        @self.tree.command(name="ping", description="Which process answers?")
        async def ping(interaction):
            await interaction.response.send_message(f"pong {os.getpid()}")

        await self.tree.sync()


Bot().run(os.environ["DISCORD_TOKEN"], log_handler=None)
"""


async def test_bot_process_can_be_killed_and_restarted(
    fake: FakeDiscord, world: World, tmp_path: Path
) -> None:
    script = tmp_path / "bot.py"
    script.write_text(BOT_PROCESS)
    env = {**os.environ, **fake.bot_env()}
    procs: list[asyncio.subprocess.Process] = []

    async def launch() -> asyncio.subprocess.Process:
        with open(tmp_path / f"bot{len(procs)}.log", "wb") as log:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, str(script), env=env, stdout=log, stderr=log
            )
        procs.append(proc)
        return proc

    try:
        first = await launch()
        await fake.wait_ready(20)
        it = await fake.slash(world.alice, world.channel, "ping")
        assert (await it.final(5)).content == f"pong {first.pid}"
        count = fake.ready_count
        first.kill()
        await first.wait()
        await fake.wait_disconnected(5)
        second = await launch()
        await fake.wait_ready(20, after=count)
        it = await fake.slash(world.alice, world.channel, "ping")
        assert (await it.final(5)).content == f"pong {second.pid}"
        assert fake.commands.bulk_overwrites == 2
    finally:
        for proc in procs:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()


async def test_raw_channel_routes_multipart_and_permissions(
    fake: FakeDiscord, world: World
) -> None:
    base = f"/channels/{world.channel.id}/messages"
    form = aiohttp.FormData(quote_fields=False)
    payload = {"content": "board", "attachments": [{"id": 0, "filename": "b.png"}],
               "embeds": [{"title": "t", "image": {"url": "attachment://b.png"}}]}  # fmt: skip
    form.add_field("payload_json", json.dumps(payload))
    form.add_field("files[0]", PNG, filename="upload.png", content_type="image/png")
    headers = {"Authorization": f"Bot {fake.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.post(fake.api_base + base, data=form, headers=headers) as resp,
    ):
        assert resp.status == 200 and resp.headers["Content-Type"] == "application/json"
        assert resp.headers["X-RateLimit-Remaining"] != "0"
        posted = await resp.json()
    assert posted["attachments"][0]["filename"] == "b.png"
    assert posted["embeds"][0]["image"]["url"] == posted["attachments"][0]["url"]
    assert fake.messages(world.channel)[0].files == {"b.png": PNG}

    for text in ("two", "three"):
        assert (await api(fake, "POST", base, body={"content": text}))[0] == 200
    status, listed = await api(
        fake, "GET", base + f"?limit=2&before={fake.messages(world.channel)[-1].id}"
    )
    assert status == 200 and [m["content"] for m in listed] == ["two", "board"]
    status, edited = await api(fake, "PATCH", f"{base}/{posted['id']}", body={"content": "b2"})
    assert status == 200 and edited["edited_timestamp"] and edited["attachments"]
    assert (await api(fake, "DELETE", f"{base}/{posted['id']}"))[0] == 204
    assert (await api(fake, "GET", f"{base}/{posted['id']}"))[1]["code"] == 10008
    assert (await api(fake, "POST", base, body={"content": ""}))[1]["code"] == 50006
    assert (await api(fake, "GET", f"/channels/{world.channel.id}"))[1]["name"] == "desert"
    assert (await api(fake, "GET", f"/guilds/{world.guild.id}"))[1]["name"] == "Caravan"
    member = (await api(fake, "GET", f"/guilds/{world.guild.id}/members/{world.bob.id}"))[1]
    assert member["user"]["username"] == "bob"
    assert (await api(fake, "GET", f"/users/{world.alice.id}"))[1]["username"] == "alice"

    locked = fake.add_channel(
        world.guild,
        "staff",
        overwrites=[Overwrite(world.guild.id, 0, deny=permissions.SEND_MESSAGES)],
    )
    status, body = await api(fake, "POST", f"/channels/{locked.id}/messages", body={"content": "x"})
    assert (status, body["code"]) == (403, 50013)
    assert fake.unhandled == []


# -- Components V2 ----------------------------------------------------------------------------

V2 = 1 << 15  # IS_COMPONENTS_V2
LEGACY = "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"


def _text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def _card(*children: dict[str, Any]) -> list[dict[str, Any]]:
    """A V2 message's components: one container holding ``children``."""
    return [{"type": 17, "accent_color": 0xD6A04C, "components": list(children)}]


async def test_components_v2_messages_follow_discords_rules(
    fake: FakeDiscord, world: World
) -> None:
    base = f"/channels/{world.channel.id}/messages"
    # Each layout type, nested as Discord nests them: a container of a text, a
    # section (texts and a thumbnail), a separator, a gallery and a row of buttons.
    every = _card(
        _text("### Title"),
        {
            "type": 9,
            "components": [_text("beside")],
            "accessory": {"type": 11, "media": {"url": "https://example.com/a.png"}},
        },
        {"type": 14, "divider": True, "spacing": 1},
        {"type": 12, "items": [{"media": {"url": "https://example.com/b.png"}}]},
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]},
    )
    status, posted = await api(fake, "POST", base, body={"flags": V2, "components": every})
    assert status == 200 and posted["flags"] & V2 and posted["content"] == ""
    card = fake.messages(world.channel)[-1]
    assert card.is_v2 and card.text == "### Title\nbeside" and card.custom_ids() == ["go"]
    assert card.media == ["https://example.com/a.png", "https://example.com/b.png"]

    refusals: list[tuple[dict[str, Any], dict[str, str]]] = [
        # No content, embeds, stickers nor poll beside the components.
        ({"flags": V2, "content": "hi", "components": _card(_text("x"))}, {"content": LEGACY}),
        ({"flags": V2, "embeds": [{"title": "t"}], "components": _card(_text("x"))},
         {"embeds": LEGACY}),
        # 4000 characters of text at most, all TextDisplays together.
        ({"flags": V2, "components": _card(_text("x" * 2000), _text("y" * 2001))},
         {"components": "MAX_TEXT_DISPLAY_LENGTH_EXCEEDED"}),
        # 40 components at most, nested ones counted (here 41 with the container).
        ({"flags": V2, "components": _card(*[_text("x")] * 40)},
         {"components": "BASE_TYPE_MAX_LENGTH"}),
        # Unknown types, and known ones out of place, are refused.
        ({"flags": V2, "components": _card({"type": 99})},
         {"components.0.components.0.type": "UNION_TYPE_CHOICES"}),
        ({"flags": V2, "components": [{"type": 11, "media": {"url": "https://e.com/a.png"}}]},
         {"components.0.type": "UNION_TYPE_CHOICES"}),
        ({"flags": V2, "components": _card({"type": 1, "components": [_text("x")]})},
         {"components.0.components.0.components.0.type": "UNION_TYPE_CHOICES"}),
        ({"flags": V2, "components": _card(_text(""))},
         {"components.0.components.0.content": "BASE_TYPE_REQUIRED"}),
        ({"flags": V2, "components": _card({"type": 13, "file": {"url": "https://e.com/f"}})},
         {"components.0.components.0.file.url": "URL_TYPE_INVALID_PROTOCOL"}),
        # Without the flag a message holds action rows only.
        ({"components": _card(_text("x"))}, {"components.0.type": "UNION_TYPE_CHOICES"}),
    ]  # fmt: skip
    for body, errors in refusals:
        status, answer = await api(fake, "POST", base, body=body)
        assert (status, answer["code"]) == (400, 50035), body
        assert flatten(answer["errors"]) == errors, body
    assert (await api(fake, "POST", base, body={"flags": V2}))[1]["code"] == 50006

    # A V2 message stays V2: an edit cannot give it content, nor drop the flag.
    url = f"{base}/{posted['id']}"
    status, answer = await api(fake, "PATCH", url, body={"content": "now text"})
    assert status == 400 and flatten(answer["errors"]) == {"content": LEGACY}
    body = {"flags": 0, "components": _card(_text("new"))}
    status, edited = await api(fake, "PATCH", url, body=body)
    assert status == 200 and edited["flags"] & V2 and card.text == "new"
    # A plain message becomes V2 by an edit that sets the flag and clears its content.
    status, plain = await api(fake, "POST", base, body={"content": "plain"})
    url = f"{base}/{plain['id']}"
    body = {"flags": V2, "components": _card(_text("card"))}
    status, answer = await api(fake, "PATCH", url, body=body)
    assert status == 400 and flatten(answer["errors"]) == {"content": LEGACY}
    status, upgraded = await api(fake, "PATCH", url, body={**body, "content": None})
    assert status == 200 and upgraded["flags"] & V2 and upgraded["content"] == ""

    # Mentions in TextDisplays notify as in content, within allowed_mentions.
    ping = _card(_text(f"➡️ <@{world.bob.id}>, <@{world.alice.id}>"))
    allowed = {"parse": [], "users": [str(world.bob.id)]}
    body = {"flags": V2, "components": ping, "allowed_mentions": allowed}
    assert (await api(fake, "POST", base, body=body))[0] == 200
    pinged = fake.messages(world.channel)[-1]
    assert pinged.notified == pinged.mentions == [world.bob]
    assert fake.unhandled == []


async def test_a_v2_card_shows_its_attachments_where_it_refers_to_them(
    fake: FakeDiscord, world: World
) -> None:
    gallery = {"type": 12, "items": [{"media": {"url": "attachment://board.png"}}]}
    payload = {
        "flags": V2,
        "attachments": [{"id": 0, "filename": "board.png"}],
        "components": _card(
            _text("the board"), gallery, {"type": 13, "file": {"url": "attachment://board.png"}}
        ),
    }
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps(payload))
    form.add_field("files[0]", PNG, filename="board.png", content_type="image/png")
    headers = {"Authorization": f"Bot {fake.token}"}
    path = f"/channels/{world.channel.id}/messages"
    async with (
        aiohttp.ClientSession() as session,
        session.post(fake.api_base + path, data=form, headers=headers) as resp,
    ):
        assert resp.status == 200
        posted = await resp.json()
    [attachment] = posted["attachments"]
    media = posted["components"][0]["components"][1]["items"][0]["media"]
    assert media["url"] == attachment["url"] and media["attachment_id"] == attachment["id"]
    assert (media["width"], media["height"], media["content_type"]) == (12, 8, "image/png")
    message = fake.messages(world.channel)[-1]
    assert message.media == [attachment["url"]] * 2 and message.files == {"board.png": PNG}


async def test_a_deferred_answer_becomes_v2_with_its_followup(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    bot.slow_delay = 0.3  # the bot answers late: the test answers first, by hand
    it = await fake.slash(world.alice, world.channel, "game slow")
    path = f"/interactions/{it.id}/{it.token}/callback"
    # The flag is ignored on a deferred response (only EPHEMERAL counts there)...
    body = {"type": 5, "data": {"flags": V2}}
    assert (await api(fake, "POST", path, token=None, body=body))[0] == 204
    assert it.message is not None and not it.message.is_v2
    # ... and set by the edit that fills the "thinking…" placeholder in.
    hook = f"/webhooks/{fake.application_id}/{it.token}/messages/@original"
    body = {"flags": V2, "components": _card(_text(f"<@{world.bob.id}> plays"))}
    status, answer = await api(fake, "PATCH", hook, body=body)
    assert status == 200 and answer["flags"] & V2
    message = await it.final(1)
    assert message.is_v2 and message.text == f"<@{world.bob.id}> plays"
    assert message.notified == []  # an edit notifies nobody, V2 or not
    status, answer = await api(fake, "PATCH", hook, body={"content": "text again"})
    assert status == 400 and flatten(answer["errors"]) == {"content": LEGACY}
    for _ in range(50):  # the bot's own (late) answer is refused
        if bot.errors:
            break
        await asyncio.sleep(0.02)
    assert [e.code for e in bot.errors] == [40060]


# -- threads ----------------------------------------------------------------------------------


async def _until(predicate: Any, timeout: float = 5.0, what: str = "a condition") -> Any:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


def _events(fake: FakeDiscord) -> list[tuple[str, Any]]:
    """(event name, body) of everything dispatched to the bot's live session, in order."""
    session = fake.gateway.live_session()
    assert session is not None
    packets = [json.loads(text) for _, text in session.buffer]
    return [(p["t"], p["d"]) for p in packets]


async def test_bot_starts_a_thread_from_its_message_and_users_play_in_it(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    it = await fake.slash(world.alice, world.channel, "game thread")
    origin = await it.final(5)
    assert origin.content == "Lobby for Desert #1"
    lobby = await _until(
        lambda: (
            fake.threads(world.channel)
            and next(iter(fake.messages(fake.threads(world.channel)[0])[1:]), None)
        ),
        what="the lobby in the thread",
    )
    [thread] = fake.threads(world.channel)
    assert thread.id == origin.id and fake.thread_of(origin) is thread
    assert (thread.type, thread.parent_id, thread.owner_id, thread.name) == (
        11,
        world.channel.id,
        fake.bot_user.id,
        "Desert #1",
    )
    assert thread.auto_archive_duration == 60 and not thread.archived and not thread.locked
    assert origin.flags & (1 << 5) and fake.thread_members(thread) == [fake.bot_user]
    starter, posted_lobby = fake.messages(thread)
    assert posted_lobby is lobby and lobby.custom_ids() == ["lobby:join"]
    assert starter.type == 21 and starter.content == ""
    assert starter.message_reference == {
        "message_id": str(origin.id),
        "channel_id": str(world.channel.id),
        "guild_id": str(world.guild.id),
    }

    # discord.py: the REST answer is a Thread, the gateway put it (and its membership) in the cache
    assert [t.id for t in bot.threads] == [thread.id] and bot.threads[0].parent == bot.get_channel(
        world.channel.id
    )
    cached = await _until(lambda: bot.get_channel(thread.id), what="the thread in the cache")
    assert isinstance(cached, discord.Thread) and cached.owner_id == fake.bot_user.id
    await _until(lambda: cached.me is not None, what="the bot's thread membership")
    names = [name for name, _ in _events(fake)]
    start = names.index("THREAD_CREATE")
    assert names[start : start + 4] == [
        "THREAD_CREATE",
        "THREAD_MEMBERS_UPDATE",
        "MESSAGE_UPDATE",  # the origin message now has its thread
        "MESSAGE_CREATE",  # the THREAD_STARTER_MESSAGE
    ]
    created = dict(_events(fake))["THREAD_CREATE"]
    assert created["newly_created"] is True and created["thread_metadata"]["archived"] is False
    status, data = await api(fake, "GET", f"/channels/{world.channel.id}/messages/{origin.id}")
    assert status == 200 and data["flags"] & (1 << 5) and data["thread"]["id"] == str(thread.id)
    assert data["thread"]["member"]["user_id"] == str(fake.bot_user.id)

    # a message has one thread, and discord.py sees Discord's refusal
    text_channel = bot.get_channel(world.channel.id)
    assert isinstance(text_channel, discord.TextChannel)
    again = await text_channel.fetch_message(origin.id)
    assert again.thread is not None and again.thread.id == thread.id
    with pytest.raises(discord.HTTPException) as refused:
        await again.create_thread(name="Twice")
    assert (refused.value.status, refused.value.code) == (400, 160004)

    # users play inside the thread: autocomplete, slash commands, buttons
    choices = await fake.autocomplete(
        world.bob, thread, "game move", {"notation": "a1"}, focused="notation"
    )
    assert [c["value"] for c in choices] == ["a1-b2", "a1-c3"]
    move = await fake.slash(world.bob, thread, "game move", {"notation": "a1-b2"})
    assert (await move.final(5)).channel_id == thread.id
    assert move.payload["channel_id"] == str(thread.id)
    channel_data = move.payload["channel"]
    assert (channel_data["type"], channel_data["parent_id"]) == (11, str(world.channel.id))
    assert channel_data["thread_metadata"]["archived"] is False
    seen = bot.interaction_channels[-1]
    assert isinstance(seen, discord.Thread) and seen.id == thread.id
    played = await fake.wait_for_message(thread, lambda m: "played" in m.content, 5)
    assert played.author == fake.bot_user
    click = await fake.click(world.alice, lobby, "lobby:join")
    assert (await click.final(5)).content == "Lobby: alice joined"
    said = await fake.user_message(world.alice, thread, "gg")
    assert fake.messages(thread)[-1] is said
    assert fake.thread_members(thread) == [fake.bot_user, world.alice]
    assert thread.message_count == len(fake.messages(thread)) - 1  # not the starter message
    assert fake.unhandled == []


async def test_standalone_thread_archive_unarchive_and_lock(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    first = await fake.slash(world.alice, world.channel, "game thread", {"name": "Oasis"})
    await first.final(5)
    second = await fake.slash(
        world.alice, world.channel, "game thread", {"name": "Desert #2", "standalone": True}
    )
    announce = await second.final(5)
    await _until(lambda: len(bot.threads) == 2, what="both threads")
    oasis, desert = fake.threads(world.channel)  # creation order
    assert (oasis.name, desert.name, desert.type) == ("Oasis", "Desert #2", 11)
    assert announce.content == f"Game on in <#{desert.id}>" and fake.thread_of(announce) is None
    [created] = [m for m in fake.messages(world.channel) if m.type == 18]
    assert created.content == "Desert #2" and created.author == fake.bot_user
    assert created.message_reference == {
        "channel_id": str(desert.id),
        "guild_id": str(world.guild.id),
    }
    lobby = await fake.wait_for_message(desert, lambda m: bool(m.custom_ids()), 5)
    await _until(lambda: bot.get_channel(desert.id), what="the standalone thread in the cache")

    # game over: the bot archives its thread (PATCH), discord.py drops it from its cache
    over = await fake.slash(world.bob, desert, "game over")
    assert (await over.final(5)).content == "Game over"
    await _until(lambda: desert.archived, what="the archive")
    await _until(lambda: bot.get_channel(desert.id) is None, what="discord.py to forget it")
    assert fake.threads(world.channel, archived=False) == [oasis]
    with pytest.raises(DriverError, match="archived"):
        await fake.slash(world.bob, desert, "game new", {"game": "oasis"})
    with pytest.raises(DriverError, match="archived"):
        await fake.click(world.bob, lobby, "lobby:join")
    path = f"/channels/{desert.id}"
    status, body = await api(fake, "PATCH", f"{path}/messages/{lobby.id}", body={"content": "x"})
    assert (status, body["code"]) == (400, 50083)
    status, body = await api(fake, "PATCH", path, body={"name": "Renamed"})
    assert (status, body["code"]) == (400, 50083)

    # a user posting in it unarchives it: THREAD_UPDATE, then THREAD_MEMBER_UPDATE for the bot
    await fake.user_message(world.bob, desert, "rematch?")
    assert not desert.archived
    cached = await _until(lambda: bot.get_channel(desert.id), what="the unarchived thread")
    assert isinstance(cached, discord.Thread) and not cached.archived
    names = [name for name, _ in _events(fake)]
    assert names[-3:] == ["THREAD_UPDATE", "THREAD_MEMBER_UPDATE", "MESSAGE_CREATE"]

    # so does the bot posting (it may: SEND_MESSAGES_IN_THREADS, and the thread is not locked)
    fake.archive_thread(desert)
    await fake.flush()
    status, _ = await api(fake, "POST", f"{path}/messages", body={"content": "Back"})
    assert status == 200 and not desert.archived

    # locked + archived: users cannot post; the bot needs MANAGE_THREADS (it has it by default)
    status, data = await api(fake, "PATCH", path, body={"archived": True, "locked": True})
    assert status == 200 and data["thread_metadata"]["locked"] is True and desert.archived
    with pytest.raises(DriverError, match="locked"):
        await fake.user_message(world.bob, desert, "let me in")
    status, data = await api(fake, "PATCH", path, body={"archived": False, "name": "Desert #3"})
    assert status == 200 and data["name"] == "Desert #3" and desert.locked
    with pytest.raises(DriverError, match="locked"):
        await fake.slash(world.bob, desert, "game new", {"game": "oasis"})

    # commands in a thread need SEND_MESSAGES_IN_THREADS (SEND_MESSAGES does not count); buttons
    # do not
    deny = Overwrite(world.bob.id, 1, deny=permissions.SEND_MESSAGES_IN_THREADS)
    world.channel.overwrites.append(deny)
    with pytest.raises(DriverError, match="cannot send messages in thread"):
        await fake.slash(world.bob, oasis, "game new", {"game": "oasis"})
    oasis_lobby = await fake.wait_for_message(oasis, lambda m: bool(m.custom_ids()), 5)
    click = await fake.click(world.bob, oasis_lobby, "lobby:join")
    assert (await click.final(5)).content == "Lobby: bob joined"
    assert fake.unhandled == []


async def test_thread_refusals_use_discords_codes(fake: FakeDiscord, world: World) -> None:
    base = f"/channels/{world.channel.id}"
    status, posted = await api(fake, "POST", base + "/messages", body={"content": "lobby"})
    start = f"{base}/messages/{posted['id']}/threads"
    bad_bodies = [
        ({"name": ""}, {"name": "BASE_TYPE_BAD_LENGTH"}),
        ({"name": "n" * 101}, {"name": "BASE_TYPE_BAD_LENGTH"}),
        ({}, {"name": "BASE_TYPE_REQUIRED"}),
        (
            {"name": "ok", "auto_archive_duration": 30},
            {"auto_archive_duration": "BASE_TYPE_CHOICES"},
        ),
        ({"name": "ok", "rate_limit_per_user": 21601}, {"rate_limit_per_user": "NUMBER_TYPE_MAX"}),
    ]
    for bad, expected in bad_bodies:
        status, body = await api(fake, "POST", start, body=bad)
        assert (status, body["code"], flatten(body["errors"])) == (400, 50035, expected)
    status, thread = await api(
        fake, "POST", start, body={"name": "Match", "auto_archive_duration": 4320}
    )
    assert status == 201 and thread["id"] == posted["id"]
    assert (thread["type"], thread["parent_id"], thread["owner_id"]) == (
        11,
        str(world.channel.id),
        str(fake.bot_user.id),
    )
    meta = thread["thread_metadata"]
    assert (meta["archived"], meta["locked"], meta["auto_archive_duration"]) == (False, False, 4320)
    assert meta["archive_timestamp"] and (thread["member_count"], thread["message_count"]) == (1, 0)
    status, body = await api(fake, "POST", start, body={"name": "Again"})
    assert (status, body) == (
        400,
        {"message": "A thread has already been created for this message", "code": 160004},
    )
    status, body = await api(fake, "POST", f"{base}/messages/1234/threads", body={"name": "x"})
    assert (status, body["code"]) == (404, 10008)
    status, body = await api(fake, "POST", "/channels/1234/threads", body={"name": "x"})
    assert (status, body["code"]) == (404, 10003)

    inside = f"/channels/{thread['id']}"
    status, body = await api(fake, "POST", f"{inside}/threads", body={"name": "x", "type": 11})
    assert (status, body["code"]) == (400, 50024)  # no thread in a thread
    dm = fake.dm_channel(world.alice)
    status, body = await api(fake, "POST", f"/channels/{dm.id}/threads", body={"name": "x"})
    assert (status, body["code"]) == (400, 50003)

    # without a message: the type defaults to a private thread (Discord's documented default)
    status, secret = await api(fake, "POST", f"{base}/threads", body={"name": "Secret"})
    assert status == 201 and secret["type"] == 12 and secret["thread_metadata"]["invitable"]
    status, body = await api(fake, "POST", f"{base}/threads", body={"name": "x", "type": 0})
    assert status == 400 and flatten(body["errors"]) == {"type": "BASE_TYPE_CHOICES"}
    status, public = await api(fake, "POST", f"{base}/threads", body={"name": "Open", "type": 11})
    assert status == 201 and public["type"] == 11
    assert [t.name for t in fake.threads(world.channel)] == ["Match", "Secret", "Open"]

    denied = {
        permissions.CREATE_PUBLIC_THREADS: (403, 403, 201),
        permissions.CREATE_PRIVATE_THREADS: (201, 201, 403),
        permissions.READ_MESSAGE_HISTORY: (403, 201, 201),
    }
    for bit, expected in denied.items():
        closed = fake.add_channel(
            world.guild, "closed", overwrites=[Overwrite(fake.bot_user.id, 1, deny=bit)]
        )
        route = f"/channels/{closed.id}"
        _, msg = await api(fake, "POST", f"{route}/messages", body={"content": "x"})
        got = (
            await api(fake, "POST", f"{route}/messages/{msg['id']}/threads", body={"name": "x"}),
            await api(fake, "POST", f"{route}/threads", body={"name": "x", "type": 11}),
            await api(fake, "POST", f"{route}/threads", body={"name": "x", "type": 12}),
        )
        assert tuple(status for status, _ in got) == expected, bit
        assert all(body["code"] == 50013 for status, body in got if status == 403)

    news = fake.add_channel(world.guild, "news", announcement=True)
    _, msg = await api(fake, "POST", f"/channels/{news.id}/messages", body={"content": "x"})
    status, body = await api(
        fake, "POST", f"/channels/{news.id}/messages/{msg['id']}/threads", body={"name": "x"}
    )
    assert (status, body["type"]) == (201, 10)  # announcement channels get announcement threads
    status, body = await api(fake, "POST", f"/channels/{news.id}/threads", body={"name": "x"})
    assert (status, body["code"]) == (400, 50024)  # private threads: text channels only
    status, body = await api(fake, "PATCH", base, body={"name": "renamed"})
    assert (status, body["code"]) == (403, 50013)  # a plain channel needs MANAGE_CHANNELS
    assert fake.unhandled == []


async def test_thread_members_and_private_threads(
    fake: FakeDiscord, world: World, bot: TinyBot
) -> None:
    guild = fake.add_guild("Hidden caravan", world.alice)
    fake.add_member(guild, world.bob)
    camp = fake.add_channel(guild, "camp")
    await fake.flush()
    channel = await _until(lambda: bot.get_channel(camp.id), what="the new guild's channel")
    assert isinstance(channel, discord.TextChannel)
    made = await channel.create_thread(name="Secret", invitable=False)  # discord.py: private
    [secret] = fake.threads(camp)
    assert (made.id, secret.type, secret.invitable) == (secret.id, 12, False)
    assert [m.type for m in fake.messages(camp)] == []  # no THREAD_CREATED for private threads
    with pytest.raises(DriverError, match="cannot see"):
        await fake.slash(world.bob, secret, "game new", {"game": "oasis"})

    await made.add_user(discord.Object(world.bob.id))  # the bot may: it has MANAGE_THREADS
    assert fake.thread_members(secret) == [fake.bot_user, world.bob]
    [added] = fake.messages(secret)
    assert (added.type, added.author, added.mentions) == (1, fake.bot_user, [world.bob])
    it = await fake.slash(world.bob, secret, "game new", {"game": "oasis"})
    assert (await it.final(5)).channel_id == secret.id
    assert {m.id for m in await made.fetch_members()} == {fake.bot_user.id, world.bob.id}
    path = f"/channels/{secret.id}/thread-members"
    status, one = await api(fake, "GET", f"{path}/{world.bob.id}?with_member=true")
    assert status == 200 and one["user_id"] == str(world.bob.id)
    assert one["member"]["user"]["username"] == "bob"
    status, body = await api(fake, "GET", f"{path}/{world.alice.id}")
    assert (status, body["code"]) == (404, 10007)
    status, body = await api(fake, "PUT", f"{path}/1234")
    assert (status, body["code"]) == (404, 10013)
    assert (await api(fake, "PUT", f"{path}/@me"))[0] == 204  # already a member: no-op

    await made.remove_user(discord.Object(world.bob.id))
    assert fake.thread_members(secret) == [fake.bot_user]
    assert fake.messages(secret)[-1].type == 2  # RECIPIENT_REMOVE
    with pytest.raises(DriverError, match="cannot see"):
        await fake.slash(world.bob, secret, "game new", {"game": "oasis"})

    # a new session gets the active threads (with the bot's membership) in GUILD_CREATE
    old, before = bot.get_channel(secret.id), fake.ready_count
    await fake.invalidate_session()
    await fake.wait_ready(5, after=before)
    fresh = await _until(
        lambda: (found := bot.get_channel(secret.id)) is not old and found, what="the resync"
    )
    assert isinstance(fresh, discord.Thread) and fresh.me is not None and fresh.type.value == 12
    fake.gateway.allowed_intents &= ~(1 << 1)  # GUILD_MEMBERS not enabled for the app
    status, body = await api(fake, "GET", path)
    assert (status, body["code"]) == (403, 50001)
    assert fake.unhandled == []
