"""Thread routes: start a thread (from a message or not), modify a channel/thread, thread members,
and the guild's active threads. Rules and error codes follow Discord's documentation
(resources/channel, topics/threads, topics/opcodes-and-status-codes)."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import payloads
from . import permissions as perms
from .errors import (
    THREAD_ALREADY_CREATED,
    UNKNOWN_GUILD,
    UNKNOWN_MEMBER,
    UNKNOWN_USER,
    ApiError,
    FormErrors,
    dm_channel_refused,
    missing_access,
    missing_permissions,
    thread_archived,
    unknown,
    wrong_channel_type,
)
from .gateway import GUILD_MEMBERS, GUILDS
from .rest import bot_channel, channel_message
from .restutil import flag, no_content, ok, query_int, read, snowflake
from .threads import RECIPIENT_ADD, RECIPIENT_REMOVE
from .world import (
    ANNOUNCEMENT_CHANNEL,
    ANNOUNCEMENT_THREAD,
    ARCHIVE_DURATIONS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    THREAD_PARENT_TYPES,
    Channel,
    User,
)

if TYPE_CHECKING:
    from .server import FakeDiscord

JSON = dict[str, Any]
MAX_SLOWMODE = 21600


def register(app: web.Application, fake: FakeDiscord) -> None:
    h = _Handlers(fake)
    p = "/api/v{version:\\d+}"
    app.router.add_post(p + "/channels/{channel_id}/messages/{message_id}/threads", h.from_message)
    app.router.add_post(p + "/channels/{channel_id}/threads", h.without_message)
    app.router.add_patch(p + "/channels/{channel_id}", h.modify)
    members = p + "/channels/{channel_id}/thread-members"
    app.router.add_get(members, h.list_members)
    app.router.add_get(members + "/{user_id}", h.get_member)
    app.router.add_put(members + "/{user_id}", h.add_member)
    app.router.add_delete(members + "/{user_id}", h.remove_member)
    app.router.add_get(p + "/guilds/{guild_id}/threads/active", h.active_threads)


# -- body validation ---------------------------------------------------------------------------
def _check_fields(body: JSON, errors: FormErrors, *, name_required: bool) -> None:
    name = body.get("name")
    if name is None:
        if name_required:
            errors.add(("name",), "BASE_TYPE_REQUIRED", "This field is required")
    elif not isinstance(name, str):
        errors.add(("name",), "STRING_TYPE_CONVERT", "Could not interpret value as string.")
    elif not 1 <= len(name) <= 100:
        errors.add(("name",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    duration = body.get("auto_archive_duration")
    if duration is not None and (isinstance(duration, bool) or duration not in ARCHIVE_DURATIONS):
        choices = ", ".join(str(d) for d in ARCHIVE_DURATIONS)
        errors.add(
            ("auto_archive_duration",), "BASE_TYPE_CHOICES", f"Value must be one of {{{choices}}}."
        )
    slowmode = body.get("rate_limit_per_user")
    if slowmode is not None:
        if isinstance(slowmode, bool) or not isinstance(slowmode, int):
            errors.add(("rate_limit_per_user",), "NUMBER_TYPE_COERCE", "Value is not int.")
        elif slowmode < 0:
            errors.add(
                ("rate_limit_per_user",),
                "NUMBER_TYPE_MIN",
                "int value should be greater than or equal to 0.",
            )
        elif slowmode > MAX_SLOWMODE:
            errors.add(
                ("rate_limit_per_user",),
                "NUMBER_TYPE_MAX",
                f"int value should be less than or equal to {MAX_SLOWMODE}.",
            )
    for key in ("archived", "locked", "invitable"):
        if key in body and not isinstance(body[key], bool):
            errors.add((key,), "BOOLEAN_TYPE_CONVERT", "Must be either true or false.")


def _parent(channel: Channel) -> None:
    """Threads start in guild text/announcement channels only."""
    if channel.guild_id is None:
        raise dm_channel_refused()
    if channel.type not in THREAD_PARENT_TYPES:
        raise wrong_channel_type()


class _Handlers:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.world = fake.world

    @property
    def bot(self) -> User:
        return self.fake.bot_user

    def _thread_payload(self, thread: Channel) -> JSON:
        return payloads.channel(thread, me=self.bot.id)

    # -- POST /channels/{id}/messages/{id}/threads -------------------------------------------------
    async def from_message(self, request: web.Request) -> web.Response:
        channel, allowed = bot_channel(self.fake, request)
        body = (await read(request)).obj()
        errors = FormErrors()
        _check_fields(body, errors, name_required=True)
        errors.raise_if_any()
        _parent(channel)
        if not perms.has(allowed, perms.CREATE_PUBLIC_THREADS | perms.READ_MESSAGE_HISTORY):
            raise missing_permissions()
        message = channel_message(self.fake, request, channel)
        if message.thread_id is not None or message.id in self.world.channels:
            raise ApiError(
                400, THREAD_ALREADY_CREATED, "A thread has already been created for this message"
            )
        thread = await self.fake.start_thread(
            channel,
            str(body["name"]),
            self.bot,
            source=message,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
            rate_limit_per_user=int(body.get("rate_limit_per_user") or 0),
        )
        return ok(self._thread_payload(thread), 201)

    # -- POST /channels/{id}/threads ------------------------------------------------------------
    async def without_message(self, request: web.Request) -> web.Response:
        channel, allowed = bot_channel(self.fake, request)
        body = (await read(request)).obj()
        errors = FormErrors()
        _check_fields(body, errors, name_required=True)
        kind = body.get("type")
        if kind is None:
            kind = PRIVATE_THREAD  # Discord's documented default (kept for compatibility)
        elif kind not in (ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD):
            errors.add(("type",), "BASE_TYPE_CHOICES", "Value must be one of {10, 11, 12}.")
        errors.raise_if_any()
        _parent(channel)
        private = kind == PRIVATE_THREAD
        if channel.type == ANNOUNCEMENT_CHANNEL:
            if private:
                raise wrong_channel_type()  # private threads: text channels only
        elif kind == ANNOUNCEMENT_THREAD:
            raise wrong_channel_type()
        need = perms.CREATE_PRIVATE_THREADS if private else perms.CREATE_PUBLIC_THREADS
        if not perms.has(allowed, need):
            raise missing_permissions()
        invitable = body.get("invitable")
        thread = await self.fake.start_thread(
            channel,
            str(body["name"]),
            self.bot,
            private=private,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
            rate_limit_per_user=int(body.get("rate_limit_per_user") or 0),
            invitable=True if invitable is None else bool(invitable),
        )
        return ok(self._thread_payload(thread), 201)

    # -- PATCH /channels/{id} ---------------------------------------------------------------------
    async def modify(self, request: web.Request) -> web.Response:
        channel, allowed = bot_channel(self.fake, request)
        body = (await read(request)).obj()
        if not channel.is_thread:
            return await self._modify_channel(channel, allowed, body)
        errors = FormErrors()
        _check_fields(body, errors, name_required=False)
        errors.raise_if_any()
        manage = perms.has(allowed, perms.MANAGE_THREADS)
        owner = channel.owner_id == self.bot.id
        if channel.archived and body.get("archived") is not False:
            raise thread_archived()  # an archived thread must be unarchived by this request
        if channel.locked and not manage:
            raise missing_permissions()  # only moderators change (or unarchive) locked threads
        if ("locked" in body or "rate_limit_per_user" in body) and not manage:
            raise missing_permissions()
        if any(k in body for k in ("name", "auto_archive_duration", "invitable")) and not (
            manage or owner
        ):
            raise missing_permissions()
        if body.get("archived") is True and not (manage or owner):
            raise missing_permissions()
        if body.get("archived") is False and not (
            manage or owner or perms.has(allowed, perms.SEND_MESSAGES_IN_THREADS)
        ):
            raise missing_permissions()
        was_archived = channel.archived
        now = dt.datetime.now(dt.UTC)
        if body.get("name") is not None:
            channel.name = str(body["name"])
        if body.get("auto_archive_duration") is not None:
            channel.auto_archive_duration = int(body["auto_archive_duration"])
            channel.archive_timestamp = now
        if "rate_limit_per_user" in body:
            channel.rate_limit_per_user = int(body["rate_limit_per_user"] or 0)
        if "locked" in body:
            channel.locked = bool(body["locked"])
        if "invitable" in body and channel.is_private_thread:
            channel.invitable = bool(body["invitable"])
        if "archived" in body and bool(body["archived"]) != channel.archived:
            channel.archived = bool(body["archived"])
            channel.archive_timestamp = now
        await self.fake.thread_updated(channel, unarchived=was_archived and not channel.archived)
        return ok(self._thread_payload(channel))

    async def _modify_channel(self, channel: Channel, allowed: int, body: JSON) -> web.Response:
        """Guild channels: name and topic, with MANAGE_CHANNELS (CHANNEL_UPDATE)."""
        if channel.guild_id is None:
            raise dm_channel_refused()
        if not perms.has(allowed, perms.MANAGE_CHANNELS):
            raise missing_permissions()
        errors = FormErrors()
        _check_fields({"name": body.get("name")}, errors, name_required=False)
        topic = body.get("topic")
        if topic is not None and (not isinstance(topic, str) or len(topic) > 1024):
            errors.add(("topic",), "BASE_TYPE_MAX_LENGTH", "Must be 1024 or fewer in length.")
        errors.raise_if_any()
        if body.get("name") is not None:
            channel.name = str(body["name"])
        if "topic" in body:
            channel.topic = topic
        data = payloads.channel(channel)
        await self.fake.gateway.dispatch(
            "CHANNEL_UPDATE", data, guild_id=channel.guild_id, intent=GUILDS
        )
        return ok(data)

    # -- thread members ---------------------------------------------------------------------------
    def _thread(self, request: web.Request) -> tuple[Channel, int]:
        channel, allowed = bot_channel(self.fake, request)
        if not channel.is_thread:
            raise wrong_channel_type()
        return channel, allowed

    def _user(self, request: web.Request, thread: Channel) -> User:
        raw = request.match_info["user_id"]
        if raw == "@me":
            return self.bot
        user = self.world.users.get(snowflake(request, "user_id"))
        if user is None:
            raise unknown(UNKNOWN_USER, "User")
        guild = self.world.guild_of(thread)
        if guild is None or user.id not in guild.members:
            raise unknown(UNKNOWN_MEMBER, "Member")
        return user

    def _member_payload(self, thread: Channel, user_id: int, with_member: bool) -> JSON:
        guild = self.world.guild_of(thread)
        member = guild.members.get(user_id) if guild else None
        guild_member = payloads.member(member) if with_member and member else None
        return payloads.thread_member(thread, user_id, guild_member=guild_member)

    async def add_member(self, request: web.Request) -> web.Response:
        thread, allowed = self._thread(request)
        user = self._user(request, thread)
        if thread.archived:
            raise thread_archived()
        myself = user.id == self.bot.id
        if not myself:
            if not perms.has(allowed, perms.SEND_MESSAGES_IN_THREADS):
                raise missing_permissions()
            manage = perms.has(allowed, perms.MANAGE_THREADS)
            if thread.is_private_thread and not thread.invitable and not manage:
                raise missing_permissions()
        if self.world.add_thread_member(thread, user):
            await self.fake.thread_members_changed(thread, added=[user], create_for_bot=myself)
            if not myself:
                await self.fake.recipient_message(thread, self.bot, user, RECIPIENT_ADD)
        return no_content()

    async def remove_member(self, request: web.Request) -> web.Response:
        thread, allowed = self._thread(request)
        user = self._user(request, thread)
        if thread.archived:
            raise thread_archived()
        myself = user.id == self.bot.id
        manage = perms.has(allowed, perms.MANAGE_THREADS)
        owner = thread.owner_id == self.bot.id
        if not myself and not (manage or (thread.is_private_thread and owner)):
            raise missing_permissions()
        if thread.thread_members.pop(user.id, None) is not None:
            await self.fake.thread_members_changed(thread, removed=[user.id])
            if not myself:
                await self.fake.recipient_message(thread, self.bot, user, RECIPIENT_REMOVE)
        return no_content()

    async def get_member(self, request: web.Request) -> web.Response:
        thread, _ = self._thread(request)
        user = self._user(request, thread)
        if user.id not in thread.thread_members:
            raise unknown(UNKNOWN_MEMBER, "Member")
        return ok(self._member_payload(thread, user.id, flag(request, "with_member")))

    async def list_members(self, request: web.Request) -> web.Response:
        thread, _ = self._thread(request)
        if not self.fake.gateway.allowed_intents & GUILD_MEMBERS:
            raise missing_access()  # needs the GUILD_MEMBERS privileged intent enabled
        with_member = flag(request, "with_member")
        after = query_int(request, "after", 0, 0, 2**63)
        limit = query_int(request, "limit", 100, 1, 100)
        ids = sorted(u for u in thread.thread_members if u > after)[:limit]
        return ok([self._member_payload(thread, u, with_member) for u in ids])

    # -- GET /guilds/{id}/threads/active ---------------------------------------------------------
    async def active_threads(self, request: web.Request) -> web.Response:
        guild = self.world.guilds.get(snowflake(request, "guild_id"))
        if guild is None or self.bot.id not in guild.members:
            raise unknown(UNKNOWN_GUILD, "Guild")
        threads = [
            t
            for t in self.world.guild_threads(guild)
            if not t.archived and self.world.permissions_in(t, self.bot.id)
        ]
        return ok(
            {
                "threads": [payloads.channel(t) for t in threads],
                "members": [
                    payloads.thread_member(t, self.bot.id)
                    for t in threads
                    if self.bot.id in t.thread_members
                ],
            }
        )
