"""Interaction bookkeeping (what Discord tracks per interaction) and the test-facing handle."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from .errors import ApiError
from .signals import Signal
from .world import MESSAGE_FLAG_EPHEMERAL, Channel, Message, User

JSON = dict[str, Any]

PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5

PONG = 1
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9
LAUNCH_ACTIVITY = 12


@dataclass
class Callback:
    """One accepted interaction callback (POST /interactions/{id}/{token}/callback)."""

    type: int
    data: JSON
    files: dict[str, bytes]
    at: float

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.data.get("flags") or 0) & MESSAGE_FLAG_EPHEMERAL)

    @property
    def content(self) -> str | None:
        return self.data.get("content")

    @property
    def choices(self) -> list[JSON]:
        return list(self.data.get("choices") or [])


@dataclass
class InteractionRecord:
    id: int
    token: str
    type: int
    user: User
    channel: Channel
    payload: JSON
    created_at: float
    name: str | None = None
    focused_type: int | None = None  # autocomplete: type of the focused option
    source: Message | None = None  # component interactions: the message clicked
    session_id: str | None = None  # the gateway session it was dispatched to
    dispatched_at: float | None = None
    response: Callback | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    rejected: list[ApiError] = field(default_factory=list)
    source_edits_at_ack: int = 0
    # A deferred placeholder the bot deleted: its newest post in the channel then,
    # the answer it made instead (an edit would have notified nobody).
    answered_by: Message | None = None
    changed: Signal = field(default_factory=Signal)

    @property
    def acknowledged(self) -> bool:
        return self.response is not None


class FakeInteraction:
    """What a test holds after ``slash``/``click``/``submit_modal``: waits on the bot's answer."""

    def __init__(self, record: InteractionRecord) -> None:
        self.record = record

    def __repr__(self) -> str:
        r = self.record
        return f"<FakeInteraction id={r.id} type={r.type} name={r.name!r} response={r.response}>"

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def token(self) -> str:
        return self.record.token

    @property
    def session_id(self) -> str | None:
        """The gateway session (``fake.gateway.sessions[...]``) it was dispatched to."""
        return self.record.session_id

    @property
    def payload(self) -> JSON:
        """The INTERACTION_CREATE body that was dispatched."""
        return self.record.payload

    @property
    def rejected(self) -> list[ApiError]:
        """Callbacks / webhook calls for this interaction that the fake refused."""
        return self.record.rejected

    async def response(self, timeout: float = 10.0) -> Callback:
        """The first (accepted) callback."""
        record = self.record

        def ready() -> Callback | None:
            if record.response is None and record.rejected:
                raise AssertionError(f"bot's callback was rejected: {record.rejected[-1]}")
            return record.response

        return await record.changed.wait_for(
            ready, timeout, f"a callback to interaction {record.id}"
        )

    @property
    def responded(self) -> bool:
        return self.record.response is not None

    @property
    def deferred(self) -> bool:
        r = self.record.response
        return r is not None and r.type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE)

    @property
    def ephemeral(self) -> bool:
        r = self.record.response
        if r is None:
            return False
        if self.record.original is not None and r.type in (
            CHANNEL_MESSAGE,
            DEFERRED_CHANNEL_MESSAGE,
        ):
            return self.record.original.ephemeral
        return r.ephemeral

    @property
    def ack_latency(self) -> float | None:
        r, sent = self.record.response, self.record.dispatched_at
        return None if r is None or sent is None else r.at - sent

    @property
    def message(self) -> Message | None:
        """The current @original message (None before a message response / after delete)."""
        m = self.record.original
        return None if m is None or m.deleted else m

    @property
    def answer(self) -> Message | None:
        """What the user sees as the answer: @original, or, when the bot deleted its
        deferred "thinking…" placeholder and posted in the channel instead, that post."""
        original, response = self.record.original, self.record.response
        deferred = response is not None and response.type == DEFERRED_CHANNEL_MESSAGE
        if original is not None and original.deleted and deferred:
            return self.record.answered_by
        return self.message

    @property
    def followups(self) -> list[Message]:
        return [m for m in self.record.followups if not m.deleted]

    @property
    def messages(self) -> list[Message]:
        """Everything the user sees from this interaction: @original then followups."""
        return ([self.message] if self.message else []) + self.followups

    @property
    def files(self) -> dict[str, bytes]:
        """Files of the @original message (the final result once ``final()`` returned)."""
        return self.message.files if self.message else {}

    @property
    def choices(self) -> list[JSON]:
        r = self.record.response
        return r.choices if r is not None and r.type == AUTOCOMPLETE_RESULT else []

    @property
    def modal(self) -> JSON | None:
        r = self.record.response
        return r.data if r is not None and r.type == MODAL else None

    async def final(self, timeout: float = 10.0) -> Message:
        """The visible end result: type 4 -> the message; 5 -> @original after the bot edited it,
        or, when the bot deleted that placeholder, what it had just posted in the channel (its
        newest message there at the deletion); 6 -> the clicked message after its edit;
        7 -> the updated message.
        Raises AssertionError as soon as the fake refuses one of the bot's edits/followups."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        callback = await self.response(timeout)
        remaining = max(0.0, timeout - (loop.time() - start))
        record = self.record
        refused = len(record.rejected)

        def done() -> Message | None:
            if len(record.rejected) > refused:
                raise AssertionError(f"the fake refused the bot's request: {record.rejected[-1]}")
            msg = record.original
            if callback.type in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
                return msg
            if callback.type == DEFERRED_CHANNEL_MESSAGE:
                if msg is not None and msg.deleted:
                    return record.answered_by
                return msg if msg is not None and not msg.loading else None
            if callback.type == DEFERRED_UPDATE_MESSAGE:
                src = record.source
                return src if src is not None and src.edits > record.source_edits_at_ack else None
            raise AssertionError(f"callback type {callback.type} has no message result")

        return await record.changed.wait_for(done, remaining, f"the final message of {record.id}")

    async def wait_followups(self, count: int = 1, timeout: float = 10.0) -> list[Message]:
        record = self.record
        return await record.changed.wait_for(
            lambda: self.followups if len(self.followups) >= count else None,
            timeout,
            f"{count} followup(s) of interaction {record.id}",
        )


Interaction = FakeInteraction
