"""Channel messages as tests see them, and the gateway events their changes cause."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from . import payloads
from . import permissions as perms
from .driver import DriverError
from .gateway import DIRECT_MESSAGES, GUILD_MESSAGES, MESSAGE_CONTENT, Gateway, Session
from .interactions import InteractionRecord
from .messages import MessageFactory
from .signals import Signal
from .world import Channel, Message, User, World

JSON = dict[str, Any]


class MessageHub:
    """Mixin of FakeDiscord: read/wait for messages; MESSAGE_CREATE/UPDATE/DELETE dispatches."""

    world: World
    gateway: Gateway
    bot_user: User
    interactions: dict[int, InteractionRecord]
    message_signal: Signal
    messages_factory: MessageFactory
    thread_message: Callable[[Message], Awaitable[None]]  # ThreadHub
    thread_message_deleted: Callable[[Message], None]  # ThreadHub

    # -- messages -------------------------------------------------------------------------
    def messages(self, channel: Channel | int, *, include_ephemeral: bool = False) -> list[Message]:
        """Visible messages of a channel, oldest first (ephemeral ones on request)."""
        cid = channel if isinstance(channel, int) else channel.id
        found = self.world.channel_messages(cid, include_hidden=include_ephemeral)
        return [m for m in found if not m.deleted]

    async def wait_for_message(
        self,
        channel: Channel | int,
        predicate: Callable[[Message], bool] | None = None,
        timeout: float = 10.0,
        *,
        after: Message | int | None = None,
    ) -> Message:
        """First visible message in ``channel`` (newer than ``after``) matching ``predicate``."""
        floor = after.id if isinstance(after, Message) else (after or 0)

        def find() -> Message | None:
            for m in self.messages(channel):
                if m.id > floor and (predicate is None or predicate(m)):
                    return m
            return None

        return await self.message_signal.wait_for(find, timeout, "a matching channel message")

    async def message_created(self, message: Message) -> None:
        self.message_signal.notify()
        if message.ephemeral:
            return
        await self.thread_message(message)
        await self.gateway.dispatch(
            "MESSAGE_CREATE",
            self._message_event(message),
            guild_id=message.guild_id,
            intent=self._message_intent(message),
        )

    async def message_updated(self, message: Message) -> None:
        self.message_signal.notify()
        record = self.interactions.get(message.interaction_id or 0)
        if record is not None:
            record.changed.notify()
        for rec in self.interactions.values():
            if rec.source is message:
                rec.changed.notify()
        if message.ephemeral:
            return
        await self.gateway.dispatch(
            "MESSAGE_UPDATE",
            self._message_event(message),
            guild_id=message.guild_id,
            intent=self._message_intent(message),
        )

    async def message_deleted(self, message: Message) -> None:
        if not message.deleted:
            self.thread_message_deleted(message)
        message.deleted = True
        self.message_signal.notify()
        if message.ephemeral:
            return
        data: JSON = {"id": str(message.id), "channel_id": str(message.channel_id)}
        if message.guild_id is not None:
            data["guild_id"] = str(message.guild_id)
        await self.gateway.dispatch(
            "MESSAGE_DELETE",
            data,
            guild_id=message.guild_id,
            intent=self._message_intent(message),
        )

    def _message_intent(self, message: Message) -> int:
        return GUILD_MESSAGES if message.guild_id is not None else DIRECT_MESSAGES

    def _message_event(self, message: Message) -> Callable[[Session], JSON]:
        full = payloads.message(message, self.world, gateway=True)

        def body(session: Session) -> JSON:
            privileged = (
                message.author.id != self.bot_user.id
                and message.guild_id is not None
                and self.bot_user not in message.mentions
            )
            if privileged and not session.intents & MESSAGE_CONTENT:
                return {**full, "content": "", "embeds": [], "attachments": [], "components": []}
            return full

        return body

    async def user_message(self, user: User, channel: Channel, content: str) -> Message:
        """A user posts a plain message (dispatched as MESSAGE_CREATE). In a thread the user
        becomes a member, and an archived thread is unarchived (as on Discord); a locked thread
        refuses users without MANAGE_THREADS."""
        if channel.is_thread and channel.locked:
            allowed = self.world.permissions_in(channel, user.id)
            if not perms.has(allowed, perms.MANAGE_THREADS):
                raise DriverError(f"thread {channel.name!r} is locked; {user.username} cannot post")
        msg = self.messages_factory.create(channel, user, {"content": content}, [])
        await self.message_created(msg)
        return msg

    def find_message(self, message_id: int) -> Message | None:
        message = self.world.messages.get(message_id)
        return None if message is None or message.deleted else message
