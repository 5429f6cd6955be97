"""Acting as users: slash commands, autocomplete, component clicks and modal submits."""

from __future__ import annotations

import asyncio
from typing import Any

from . import payloads
from .driver import DriverError, InteractionBuilder
from .gateway import Gateway
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
    ) -> FakeInteraction:
        """Invoke a registered slash command, e.g. ``slash(u, ch, "game new", {"bots": 2})``."""
        built = self.builder.slash(user, channel, command, options, locale)
        return await self._send(built, user, channel)

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
    ) -> list[JSON]:
        """Type in an autocomplete option; returns the bot's choices (type-8 callback)."""
        built = self.builder.slash(user, channel, command, options, locale, focused=focused)
        handle = await self._send(built, user, channel)
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
    ) -> FakeInteraction:
        """Press a button / pick select values on a message."""
        built = self.builder.click(user, message, custom_id, values, locale)
        channel = self.world.channels[message.channel_id]
        return await self._send(built, user, channel, source=message)

    async def submit_modal(
        self, interaction: FakeInteraction, values: dict[str, Any], *, locale: str | None = None
    ) -> FakeInteraction:
        """Fill in and submit the modal the bot answered ``interaction`` with."""
        record = interaction.record
        modal = interaction.modal
        if modal is None:
            raise DriverError("that interaction was not answered with a modal")
        built = self.builder.modal_submit(
            record.user, record.channel, modal, values, locale, record.source
        )
        return await self._send(built, record.user, record.channel, source=record.source)

    async def _send(
        self, built: Any, user: User, channel: Channel, source: Message | None = None
    ) -> FakeInteraction:
        session = self.gateway.live_session()
        if session is None:
            raise DriverError("no bot is connected to the fake gateway")
        await self.flush()
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
        )
        for upload in built.uploads:
            self.uploads[upload.id] = upload
        self.interactions[record.id] = record
        self.by_token[record.token] = record
        record.dispatched_at = loop.time()
        await self.gateway.dispatch("INTERACTION_CREATE", built.body, session=session)
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
