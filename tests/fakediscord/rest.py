"""Core REST routes: users, gateway info, application info, guilds, channels and messages."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from . import payloads
from . import permissions as perms
from .errors import (
    CANNOT_EDIT_OTHERS,
    UNKNOWN_CHANNEL,
    UNKNOWN_GUILD,
    UNKNOWN_MEMBER,
    UNKNOWN_MESSAGE,
    UNKNOWN_USER,
    ApiError,
    FormErrors,
    missing_access,
    missing_permissions,
    thread_archived,
    thread_locked,
    unknown,
)
from .limits import check_file_sizes, check_message
from .restutil import no_content, ok, query_int, read, snowflake
from .world import Channel, Guild, Message

if TYPE_CHECKING:
    from .server import FakeDiscord

ATTACHMENT_LIMIT = 10 * 1024 * 1024


def register(app: web.Application, fake: FakeDiscord) -> None:
    h = _Handlers(fake)
    p = "/api/v{version:\\d+}"
    app.router.add_get(p + "/users/@me", h.me)
    app.router.add_post(p + "/users/@me/channels", h.create_dm)
    app.router.add_get(p + "/users/{user_id}", h.user)
    app.router.add_get(p + "/gateway", h.gateway)
    app.router.add_get(p + "/gateway/bot", h.gateway_bot)
    app.router.add_get(p + "/oauth2/applications/@me", h.application)
    app.router.add_get(p + "/applications/@me", h.application)
    app.router.add_get(p + "/guilds/{guild_id}", h.guild)
    app.router.add_get(p + "/guilds/{guild_id}/channels", h.guild_channels)
    app.router.add_get(p + "/guilds/{guild_id}/roles", h.guild_roles)
    app.router.add_get(p + "/guilds/{guild_id}/members/{user_id}", h.member)
    app.router.add_get(p + "/channels/{channel_id}", h.channel)
    app.router.add_post(p + "/channels/{channel_id}/typing", h.typing)
    app.router.add_get(p + "/channels/{channel_id}/messages", h.list_messages)
    app.router.add_post(p + "/channels/{channel_id}/messages", h.create_message)
    app.router.add_get(p + "/channels/{channel_id}/messages/{message_id}", h.get_message)
    app.router.add_patch(p + "/channels/{channel_id}/messages/{message_id}", h.edit_message)
    app.router.add_delete(p + "/channels/{channel_id}/messages/{message_id}", h.delete_message)


def bot_channel(fake: FakeDiscord, request: web.Request) -> tuple[Channel, int]:
    """The ``{channel_id}`` of a route as the bot sees it, with the bot's permissions there:
    404 10003 if unknown (or in a guild the bot left), 403 50001 if it cannot view it."""
    channel = fake.world.channels.get(snowflake(request, "channel_id"))
    if channel is None:
        raise unknown(UNKNOWN_CHANNEL, "Channel")
    if channel.guild_id is None:
        return channel, fake.world.permissions_in(channel, fake.bot_user.id)
    guild = fake.world.guilds[channel.guild_id]
    if fake.bot_user.id not in guild.members:
        raise unknown(UNKNOWN_CHANNEL, "Channel")
    allowed = fake.world.permissions_in(channel, fake.bot_user.id)
    if not perms.has(allowed, perms.VIEW_CHANNEL):
        raise missing_access()
    return channel, allowed


def channel_message(fake: FakeDiscord, request: web.Request, channel: Channel) -> Message:
    message = fake.find_message(snowflake(request, "message_id"))
    if message is None or message.channel_id != channel.id or message.ephemeral:
        raise unknown(UNKNOWN_MESSAGE, "Message")
    return message


class _Handlers:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.world = fake.world

    # -- users / app / gateway -------------------------------------------------------------
    async def me(self, request: web.Request) -> web.Response:
        return ok(payloads.current_user(self.fake.bot_user))

    async def user(self, request: web.Request) -> web.Response:
        user = self.world.users.get(snowflake(request, "user_id"))
        if user is None:
            raise unknown(UNKNOWN_USER, "User")
        return ok(payloads.user(user))

    async def create_dm(self, request: web.Request) -> web.Response:
        body = (await read(request)).obj()
        user = self.world.users.get(int(str(body.get("recipient_id") or 0)))
        if user is None or user.bot:
            raise unknown(UNKNOWN_USER, "User")
        return ok(payloads.channel(self.world.dm_channel(user)))

    async def gateway(self, request: web.Request) -> web.Response:
        return ok({"url": self.fake.gateway_url})

    async def gateway_bot(self, request: web.Request) -> web.Response:
        return ok(
            {
                "url": self.fake.gateway_url,
                "shards": self.fake.shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 86_400_000,
                    "max_concurrency": 1,
                },
            }
        )

    async def application(self, request: web.Request) -> web.Response:
        f = self.fake
        return ok(
            payloads.application(f.application_id, f.bot_user, f.app_owner, f.application_flags)
        )

    # -- guilds ------------------------------------------------------------------------
    def _guild(self, request: web.Request) -> Guild:
        guild = self.world.guilds.get(snowflake(request, "guild_id"))
        if guild is None or self.fake.bot_user.id not in guild.members:
            raise unknown(UNKNOWN_GUILD, "Guild")
        return guild

    async def guild(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        data = payloads.guild(guild, self.world)
        if request.query.get("with_counts", "").lower() in ("1", "true"):
            data.update(approximate_member_count=len(guild.members), approximate_presence_count=0)
        return ok(data)

    async def guild_channels(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        return ok([payloads.channel(c) for c in self.world.guild_channels(guild)])

    async def guild_roles(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        return ok([payloads.role(r) for r in guild.roles.values()])

    async def member(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        member = guild.members.get(snowflake(request, "user_id"))
        if member is None:
            raise unknown(UNKNOWN_MEMBER, "Member")
        return ok(payloads.member(member))

    # -- channels ----------------------------------------------------------------------
    def _channel(self, request: web.Request) -> tuple[Channel, int]:
        return bot_channel(self.fake, request)

    def _message(self, request: web.Request, channel: Channel) -> Message:
        return channel_message(self.fake, request, channel)

    async def channel(self, request: web.Request) -> web.Response:
        channel, _ = self._channel(request)
        return ok(payloads.channel(channel, me=self.fake.bot_user.id))

    async def typing(self, request: web.Request) -> web.Response:
        self._channel(request)
        return no_content()

    async def list_messages(self, request: web.Request) -> web.Response:
        channel, allowed = self._channel(request)
        if not perms.has(allowed, perms.READ_MESSAGE_HISTORY):
            return ok([])
        limit = query_int(request, "limit", 50, 1, 100)
        found = self.fake.messages(channel)  # oldest first
        if "around" in request.query:
            pivot = int(request.query["around"])
            older = [m for m in found if m.id <= pivot][-((limit + 1) // 2) :]
            newer = [m for m in found if m.id > pivot][: limit - len(older)]
            found = older + newer
        elif "after" in request.query:
            found = [m for m in found if m.id > int(request.query["after"])][:limit]
        else:
            if "before" in request.query:
                found = [m for m in found if m.id < int(request.query["before"])]
            found = found[-limit:]
        return ok([payloads.message(m, self.world) for m in reversed(found)])

    async def get_message(self, request: web.Request) -> web.Response:
        channel, allowed = self._channel(request)
        if not perms.has(allowed, perms.READ_MESSAGE_HISTORY):
            raise missing_access()
        return ok(payloads.message(self._message(request, channel), self.world))

    async def create_message(self, request: web.Request) -> web.Response:
        channel, allowed = self._channel(request)
        body = await read(request)
        payload = body.obj()
        send = perms.SEND_MESSAGES_IN_THREADS if channel.is_thread else perms.SEND_MESSAGES
        if not perms.has(allowed, send):
            raise missing_permissions()
        if channel.locked and not perms.has(allowed, perms.MANAGE_THREADS):
            raise thread_locked()  # an archived, unlocked thread is unarchived by the post
        if body.files and not perms.has(allowed, perms.ATTACH_FILES):
            raise missing_permissions()
        errors = FormErrors()
        check_message(payload, errors, files=len(body.files))
        errors.raise_if_any()
        check_file_sizes([len(f.data) for f in body.files], ATTACHMENT_LIMIT)
        if not perms.has(allowed, perms.EMBED_LINKS):
            payload = {**payload, "embeds": []}  # Discord silently drops embeds
        reference = payload.get("message_reference")
        if isinstance(reference, dict) and reference.get("message_id"):
            target = self.fake.find_message(int(reference["message_id"]))
            if target is None and reference.get("fail_if_not_exists", True):
                raise ApiError(
                    400,
                    50035,
                    "Invalid Form Body",
                    {
                        "message_reference": {
                            "_errors": [
                                {
                                    "code": "MESSAGE_REFERENCE_UNKNOWN_MESSAGE",
                                    "message": "Unknown message",
                                }
                            ]
                        }
                    },
                )
        message = self.fake.messages_factory.create(
            channel, self.fake.bot_user, payload, body.files
        )
        await self.fake.message_created(message)
        return ok(payloads.message(message, self.world))

    async def edit_message(self, request: web.Request) -> web.Response:
        channel, allowed = self._channel(request)
        message = self._message(request, channel)
        body = await read(request)
        payload = body.obj()
        if message.author.id != self.fake.bot_user.id and set(payload) - {"flags"}:
            raise ApiError(
                403, CANNOT_EDIT_OTHERS, "Cannot edit a message authored by another user"
            )
        if channel.archived:
            raise thread_archived()
        if channel.locked and not perms.has(allowed, perms.MANAGE_THREADS):
            raise thread_locked()
        errors = FormErrors()
        check_message(payload, errors, files=len(body.files), creating=False, current=message)
        errors.raise_if_any()
        check_file_sizes([len(f.data) for f in body.files], ATTACHMENT_LIMIT)
        self.fake.messages_factory.edit(message, payload, body.files)
        await self.fake.message_updated(message)
        return ok(payloads.message(message, self.world))

    async def delete_message(self, request: web.Request) -> web.Response:
        channel, allowed = self._channel(request)
        message = self._message(request, channel)
        own = message.author.id == self.fake.bot_user.id
        if not own and not perms.has(allowed, perms.MANAGE_MESSAGES):
            raise missing_permissions()
        await self.fake.message_deleted(message)
        return no_content()
