"""Threads: starting them, membership and archive state, and the gateway events these cause.

Events follow Discord's documentation (topics/threads, events/gateway-events):

* start: THREAD_CREATE (``newly_created``), THREAD_MEMBERS_UPDATE adding the creator, then for a
  thread started from a message MESSAGE_UPDATE of that message (``thread`` field, HAS_THREAD
  flag) and MESSAGE_CREATE of the type-21 THREAD_STARTER_MESSAGE inside the thread; for a public
  thread started without a message MESSAGE_CREATE of a type-18 THREAD_CREATED message in the
  parent channel (content: the thread name).
* THREAD_MEMBERS_UPDATE reaches sessions with GUILD_MEMBERS, or with GUILDS when the bot itself
  was added or removed; THREAD_CREATE/UPDATE reach GUILDS sessions that can see the thread.
* unarchiving (PATCH or a message posted in an archived thread): THREAD_UPDATE, then
  THREAD_MEMBER_UPDATE for the bot if it is a member.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from . import payloads
from .gateway import GUILD_MEMBERS, GUILDS, Gateway, Session
from .messages import MessageFactory
from .world import (
    MESSAGE_FLAG_HAS_THREAD,
    MESSAGE_THREAD_CREATED,
    MESSAGE_THREAD_STARTER,
    PUBLIC_THREAD,
    Channel,
    Message,
    User,
    World,
)

JSON = dict[str, Any]
RECIPIENT_ADD, RECIPIENT_REMOVE = 1, 2
JOINING_TYPES = (0, 19)  # a user's own message in a thread makes them a member


class ThreadHub:
    """Mixin of FakeDiscord: thread lookups and helpers for tests, thread events for REST."""

    world: World
    gateway: Gateway
    bot_user: User
    messages_factory: MessageFactory

    _spawn: Callable[[Coroutine[Any, Any, None]], None]  # WorldApi
    message_created: Callable[[Message], Awaitable[None]]  # MessageHub
    message_updated: Callable[[Message], Awaitable[None]]  # MessageHub

    # -- lookups for tests ----------------------------------------------------------------------
    def threads(self, parent: Channel | int, *, archived: bool = True) -> list[Channel]:
        """Threads under a channel in creation order (``archived=False``: active ones only)."""
        channel = self.world.channels[parent] if isinstance(parent, int) else parent
        return [t for t in self.world.threads_of(channel) if archived or not t.archived]

    def thread_of(self, message: Message | int) -> Channel | None:
        """The thread started from ``message`` (it has the message's id), if any."""
        mid = message if isinstance(message, int) else message.id
        found = self.world.messages.get(mid)
        if found is None or found.thread_id is None:
            return None
        return self.world.channels.get(found.thread_id)

    def thread_members(self, thread: Channel) -> list[User]:
        """Members of a thread in joining order."""
        order = sorted(thread.thread_members.items(), key=lambda kv: kv[1])
        return [self.world.users[uid] for uid, _ in order if uid in self.world.users]

    # -- world helpers (sync; events are queued like the other world helpers) ---------------------
    def add_thread(
        self,
        parent: Channel,
        name: str,
        owner: User,
        *,
        private: bool = False,
        message: Message | None = None,
    ) -> Channel:
        """``owner`` (a user, or the bot) starts a thread, from ``message`` if given."""
        if message is not None:
            assert message.channel_id == parent.id, "the message must be in the parent channel"
            assert message.thread_id is None, "a message can have only one thread"
        thread, extra = self._new_thread(parent, name, owner, private=private, source=message)
        self._spawn(self._announce_thread(thread, owner, message, extra))
        return thread

    def add_thread_member(self, thread: Channel, user: User) -> None:
        """``user`` joins ``thread`` (THREAD_MEMBERS_UPDATE)."""
        if self.world.add_thread_member(thread, user):
            self._spawn(self.thread_members_changed(thread, added=[user]))

    def archive_thread(self, thread: Channel, *, locked: bool | None = None) -> None:
        """Archive ``thread`` as Discord's inactivity timer (or a moderator) would."""
        thread.archived = True
        if locked is not None:
            thread.locked = locked
        thread.archive_timestamp = _now()
        self._spawn(self.thread_updated(thread))

    # -- state changes with their gateway events (awaited by the REST handlers) ------------------
    async def start_thread(
        self,
        parent: Channel,
        name: str,
        creator: User,
        *,
        private: bool = False,
        source: Message | None = None,
        auto_archive_duration: int = 1440,
        rate_limit_per_user: int = 0,
        invitable: bool = True,
    ) -> Channel:
        thread, extra = self._new_thread(
            parent,
            name,
            creator,
            private=private,
            source=source,
            auto_archive_duration=auto_archive_duration,
            rate_limit_per_user=rate_limit_per_user,
            invitable=invitable,
        )
        await self._announce_thread(thread, creator, source, extra)
        return thread

    async def thread_members_changed(
        self,
        thread: Channel,
        *,
        added: list[User] | None = None,
        removed: list[int] | None = None,
        create_for_bot: bool = False,
    ) -> None:
        """THREAD_MEMBERS_UPDATE (``create_for_bot``: the bot joined by itself, which Discord
        also announces with a THREAD_CREATE carrying its thread member)."""
        added = list(added or [])
        removed = list(removed or [])
        bot_id = self.bot_user.id
        if create_for_bot and bot_id in thread.thread_members:
            data = payloads.channel(thread, me=bot_id)
            await self._dispatch_thread("THREAD_CREATE", thread, data)
        guild = self.world.guild_of(thread)
        added_members: list[JSON] = []
        for user in added:
            member = guild.members.get(user.id) if guild else None
            entry = payloads.thread_member(
                thread, user.id, guild_member=payloads.member(member) if member else None
            )
            entry["presence"] = None
            added_members.append(entry)
        body: JSON = {
            "id": str(thread.id),
            "guild_id": str(thread.guild_id),
            "member_count": min(len(thread.thread_members), 50),
        }
        if added_members:
            body["added_members"] = added_members
        if removed:
            body["removed_member_ids"] = [str(u) for u in removed]
        about_bot = bot_id in removed or any(u.id == bot_id for u in added)

        def wanted(session: Session) -> bool:
            return bool(session.intents & GUILD_MEMBERS) or (
                about_bot and bool(session.intents & GUILDS)
            )

        await self._dispatch_thread(
            "THREAD_MEMBERS_UPDATE", thread, body, intent=0, also=wanted, even_hidden=about_bot
        )

    async def thread_updated(self, thread: Channel, *, unarchived: bool = False) -> None:
        """THREAD_UPDATE; after unarchiving also THREAD_MEMBER_UPDATE for the bot (Discord sends
        it to every member of the unarchived thread)."""
        await self._dispatch_thread("THREAD_UPDATE", thread, payloads.channel(thread))
        bot_id = self.bot_user.id
        if unarchived and bot_id in thread.thread_members:
            body = {**payloads.thread_member(thread, bot_id), "guild_id": str(thread.guild_id)}
            await self._dispatch_thread("THREAD_MEMBER_UPDATE", thread, body)

    async def thread_message(self, message: Message) -> None:
        """Bookkeeping when a message lands in a thread, before its MESSAGE_CREATE: counters,
        unarchiving (Discord unarchives a thread when a message is sent in it), and the author
        joining the thread."""
        thread = self.world.channels.get(message.channel_id)
        if thread is None or not thread.is_thread or message.ephemeral:
            return
        if message.type == MESSAGE_THREAD_STARTER:
            return
        thread.message_count += 1
        thread.total_message_sent += 1
        if thread.archived:
            thread.archived = False
            thread.archive_timestamp = _now()
            await self.thread_updated(thread, unarchived=True)
        if (
            message.type in JOINING_TYPES
            and message.webhook_id is None
            and self.world.add_thread_member(thread, message.author)
        ):
            await self.thread_members_changed(thread, added=[message.author])

    def thread_message_deleted(self, message: Message) -> None:
        thread = self.world.channels.get(message.channel_id)
        if thread is None or not thread.is_thread or message.ephemeral:
            return
        if message.type != MESSAGE_THREAD_STARTER:
            thread.message_count = max(0, thread.message_count - 1)

    async def recipient_message(
        self, thread: Channel, actor: User, target: User, kind: int
    ) -> None:
        """The RECIPIENT_ADD / RECIPIENT_REMOVE system message Discord posts in a thread when
        someone else adds or removes a member."""
        message = self.messages_factory.create(thread, actor, {}, [], msg_type=kind)
        message.mentions = [target]
        await self.message_created(message)

    # -- internals --------------------------------------------------------------------------------
    def _new_thread(
        self,
        parent: Channel,
        name: str,
        creator: User,
        *,
        private: bool,
        source: Message | None,
        **options: Any,
    ) -> tuple[Channel, Message | None]:
        """World changes of a thread start; returns the thread and its system message (type 21
        inside the thread, or type 18 in the parent), both to be announced."""
        thread = self.world.add_thread(
            parent,
            name,
            creator,
            private=private,
            thread_id=source.id if source is not None else None,
            **options,
        )
        extra: Message | None = None
        if source is not None:
            source.thread_id = thread.id
            source.flags |= MESSAGE_FLAG_HAS_THREAD
            reference = {
                "message_id": str(source.id),
                "channel_id": str(parent.id),
                "guild_id": str(parent.guild_id),
            }
            extra = self.messages_factory.create(
                thread,
                source.author,
                {},
                [],
                msg_type=MESSAGE_THREAD_STARTER,
                message_reference=reference,
            )
        elif thread.type == PUBLIC_THREAD:
            reference = {"channel_id": str(thread.id), "guild_id": str(thread.guild_id)}
            extra = self.messages_factory.create(
                parent,
                creator,
                {"content": name},
                [],
                msg_type=MESSAGE_THREAD_CREATED,
                message_reference=reference,
            )
        return thread, extra

    async def _announce_thread(
        self, thread: Channel, creator: User, source: Message | None, extra: Message | None
    ) -> None:
        data = payloads.channel(thread)
        data["newly_created"] = True
        await self._dispatch_thread("THREAD_CREATE", thread, data)
        await self.thread_members_changed(thread, added=[creator])
        if source is not None:
            await self.message_updated(source)
        if extra is not None:
            await self.message_created(extra)

    async def _dispatch_thread(
        self,
        event: str,
        thread: Channel,
        data: JSON,
        *,
        intent: int = GUILDS,
        also: Callable[[Session], bool] | None = None,
        even_hidden: bool = False,
    ) -> None:
        """Dispatch to sessions that see the guild and (unless ``even_hidden``) the thread."""
        bot_id = self.bot_user.id

        def body(session: Session) -> JSON | None:
            if also is not None and not also(session):
                return None
            if not even_hidden and not self.world.permissions_in(thread, bot_id):
                return None
            return data

        await self.gateway.dispatch(event, body, guild_id=thread.guild_id, intent=intent)


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)
