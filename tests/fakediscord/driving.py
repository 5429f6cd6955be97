"""Acting as users: slash commands, autocomplete, component clicks and modal submits."""

from __future__ import annotations

import asyncio
from typing import Any

from . import payloads
from .driver import DriverError, InteractionBuilder
from .gateway import Gateway, Session
from .interactions import AUTOCOMPLETE_RESULT, FakeInteraction, InteractionRecord
from .world import Attachment, Channel, Message, User, World

JSON = dict[str, Any]


class Driving:
    """Mixin of FakeDiscord: build an interaction, dispatch it, hand back a FakeInteraction."""

    world: World
    gateway: Gateway
    builder: InteractionBuilder
    interactions: dict[int, InteractionRecord]
    by_token: dict[str, InteractionRecord]
    uploads: dict[int, Attachment]

    async def flush(self) -> None:  # provided by WorldApi
        raise NotImplementedError

    # -- driving interactions ----------------------------------------------------------------
    async def slash(
        self,
        user: User,
        channel: Channel,
        command: str,
        options: JSON | None = None,
        *,
        locale: str | None = None,
        session: Session | None = None,
    ) -> FakeInteraction:
        """Invoke a registered slash command, e.g. ``slash(u, ch, "game new", {"bots": 2})``.
        It goes to the newest connected session holding the channel's guild (DMs: shard 0), or
        to ``session`` (e.g. one of two processes on the same shard, to race them)."""
        built = self.builder.slash(user, channel, command, options, locale)
        return await self._send(built, user, channel, session=session)

    async def autocomplete(
        self,
        user: User,
        channel: Channel,
        command: str,
        options: JSON | None = None,
        *,
        focused: str,
        locale: str | None = None,
        timeout: float = 5.0,
        session: Session | None = None,
    ) -> list[JSON]:
        """Type in an autocomplete option; returns the bot's choices (type-8 callback)."""
        built = self.builder.slash(user, channel, command, options, locale, focused=focused)
        handle = await self._send(built, user, channel, session=session)
        callback = await handle.response(timeout)
        if callback.type != AUTOCOMPLETE_RESULT:
            raise AssertionError(f"autocomplete answered with callback type {callback.type}")
        return callback.choices

    async def click(
        self,
        user: User,
        message: Message,
        custom_id: str,
        values: list[Any] | None = None,
        *,
        locale: str | None = None,
        session: Session | None = None,
    ) -> FakeInteraction:
        """Press a button / pick select values on a message (``session``: as for ``slash``)."""
        built = self.builder.click(user, message, custom_id, values, locale)
        channel = self.world.channels[message.channel_id]
        return await self._send(built, user, channel, source=message, session=session)

    async def submit_modal(
        self,
        interaction: FakeInteraction,
        values: dict[str, Any],
        *,
        locale: str | None = None,
        session: Session | None = None,
    ) -> FakeInteraction:
        """Fill in and submit the modal the bot answered ``interaction`` with (routed afresh, like
        any interaction: not necessarily to the session that opened the modal)."""
        record = interaction.record
        modal = interaction.modal
        if modal is None:
            raise DriverError("that interaction was not answered with a modal")
        built = self.builder.modal_submit(
            record.user, record.channel, modal, values, locale, record.source
        )
        return await self._send(
            built, record.user, record.channel, source=record.source, session=session
        )

    def interaction_session(self, channel: Channel, session: Session | None = None) -> Session:
        """The session an interaction in ``channel`` goes to: one that holds the channel's guild
        (a thread's: its parent's; DMs: shard 0), the newest if several do; ``session`` if given
        (it must be connected and hold that guild)."""
        guild_id = self._guild_id_of(channel)
        where = "DMs (shard 0)" if guild_id is None else f"guild {guild_id}"
        if session is not None:
            if not session.connected:
                raise DriverError(f"{session.describe()} is not connected to the fake gateway")
            if not session.sees(guild_id):
                raise DriverError(f"{session.describe()} does not hold {where}")
            return session
        connected = self.gateway.connected_sessions()
        if not connected:
            raise DriverError("no bot is connected to the fake gateway")
        found = [s for s in connected if s.sees(guild_id)]
        if not found:
            shards = ", ".join(s.describe() for s in connected)
            raise DriverError(f"no connected session holds the shard of {where}; have {shards}")
        return found[0]

    def _guild_id_of(self, channel: Channel) -> int | None:
        if channel.guild_id is None and channel.parent_id is not None:
            parent = self.world.channels.get(channel.parent_id)
            return parent.guild_id if parent is not None else None
        return channel.guild_id

    async def _send(
        self,
        built: Any,
        user: User,
        channel: Channel,
        source: Message | None = None,
        *,
        session: Session | None = None,
    ) -> FakeInteraction:
        await self.flush()
        session = self.interaction_session(channel, session)
        loop = asyncio.get_running_loop()
        record = InteractionRecord(
            id=built.id,
            token=built.token,
            type=built.body["type"],
            user=user,
            channel=channel,
            payload=built.body,
            created_at=loop.time(),
            name=built.name,
            focused_type=built.focused_type,
            source=source,
            session_id=session.id,
        )
        for upload in built.uploads:
            self.uploads[upload.id] = upload
        self.interactions[record.id] = record
        self.by_token[record.token] = record
        record.dispatched_at = loop.time()
        await self.gateway.dispatch(
            "INTERACTION_CREATE", built.body, guild_id=self._guild_id_of(channel), session=session
        )
        return FakeInteraction(record)

    def interaction_metadata(self, record: InteractionRecord) -> JSON:
        data: JSON = {
            "id": str(record.id),
            "type": record.type,
            "user": payloads.user(record.user),
            "authorizing_integration_owners": record.payload.get(
                "authorizing_integration_owners", {}
            ),
        }
        if record.type == 2:
            data["name"] = record.name
            data["command_type"] = 1
        if record.source is not None:
            data["interacted_message_id"] = str(record.source.id)
        return data
