"""Interaction callbacks and the interaction webhook (@original, followups)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import payloads
from .bodies import Body
from .errors import (
    ALREADY_ACKNOWLEDGED,
    INVALID_FORM_BODY,
    INVALID_WEBHOOK_TOKEN,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    UNKNOWN_WEBHOOK,
    ApiError,
    FormErrors,
    unknown,
)
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    LAUNCH_ACTIVITY,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    PING,
    PONG,
    UPDATE_MESSAGE,
    Callback,
    InteractionRecord,
)
from .limits import check_autocomplete, check_file_sizes, check_message, check_modal
from .restutil import flag, no_content, ok, read, snowflake
from .world import MESSAGE_FLAG_EPHEMERAL, MESSAGE_FLAG_LOADING, Message

if TYPE_CHECKING:
    from .server import FakeDiscord

JSON = dict[str, Any]
ATTACHMENT_LIMIT = 10 * 1024 * 1024

# Which callback types Discord accepts for which interaction types.
ALLOWED_CALLBACKS: dict[int, set[int]] = {
    PING: {PONG},
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL, LAUNCH_ACTIVITY},
    MESSAGE_COMPONENT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
        MODAL,
        LAUNCH_ACTIVITY,
    },
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
    },
}


def register(app: web.Application, fake: FakeDiscord) -> None:
    h = _Handlers(fake)
    p = "/api/v{version:\\d+}"
    app.router.add_post(p + "/interactions/{interaction_id}/{token}/callback", h.callback)
    hook = p + "/webhooks/{application_id}/{token}"
    app.router.add_post(hook, h.followup)
    app.router.add_get(hook + "/messages/{message_id}", h.get_message)
    app.router.add_patch(hook + "/messages/{message_id}", h.edit_message)
    app.router.add_delete(hook + "/messages/{message_id}", h.delete_message)


class _Handlers:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake

    # -- POST /interactions/{id}/{token}/callback ----------------------------------------
    async def callback(self, request: web.Request) -> web.Response:
        record = self.fake.interactions.get(snowflake(request, "interaction_id"))
        if record is None or record.token != request.match_info["token"]:
            raise ApiError(404, UNKNOWN_INTERACTION, "Unknown interaction")
        body = await read(request)
        try:
            return await self._callback(request, record, body)
        except ApiError as exc:
            record.rejected.append(exc)
            record.changed.notify()
            raise

    async def _callback(
        self, request: web.Request, record: InteractionRecord, body: Body
    ) -> web.Response:
        now = asyncio.get_running_loop().time()
        sent = record.dispatched_at if record.dispatched_at is not None else record.created_at
        if now - sent > self.fake.interaction_deadline:
            raise ApiError(404, UNKNOWN_INTERACTION, "Unknown interaction")
        if record.response is not None:
            raise ApiError(400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged.")
        payload = body.obj()
        ctype = payload.get("type")
        data = payload.get("data") or {}
        if not isinstance(data, dict):
            raise ApiError(400, INVALID_FORM_BODY, "Invalid Form Body")
        if ctype not in ALLOWED_CALLBACKS.get(record.type, set()):
            raise ApiError(
                400,
                INVALID_FORM_BODY,
                "Invalid Form Body",
                {
                    "type": {
                        "_errors": [
                            {
                                "code": "INTERACTION_RESPONSE_TYPE_INVALID",
                                "message": f"Interaction response type {ctype} is not "
                                f"valid for interaction type {record.type}",
                            }
                        ]
                    }
                },
            )
        message: Message | None = None
        if ctype in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            errors = FormErrors()
            check_message(
                data,
                errors,
                ("data",),
                files=len(body.files),
                creating=ctype == CHANNEL_MESSAGE,
                current=record.source if ctype == UPDATE_MESSAGE else None,
            )
            errors.raise_if_any()
            check_file_sizes([len(f.data) for f in body.files], ATTACHMENT_LIMIT)
        elif ctype == AUTOCOMPLETE_RESULT:
            check_autocomplete(data, record.focused_type or 3)
        elif ctype == MODAL:
            check_modal(data)
        if ctype == UPDATE_MESSAGE and record.source is None:
            raise ApiError(400, INVALID_FORM_BODY, "Invalid Form Body")

        factory = self.fake.messages_factory
        if ctype == CHANNEL_MESSAGE:
            message = self._create(record, data, body, flags=0)
        elif ctype == DEFERRED_CHANNEL_MESSAGE:
            flags = MESSAGE_FLAG_LOADING | (int(data.get("flags") or 0) & MESSAGE_FLAG_EPHEMERAL)
            message = self._create(record, {"content": ""}, Body(), flags=flags)
        elif ctype in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
            message = record.source
            assert message is not None
            record.source_edits_at_ack = message.edits
            if ctype == UPDATE_MESSAGE:
                factory.edit(message, data, body.files)
        record.original = message
        record.response = Callback(int(ctype), data, {f.filename: f.data for f in body.files}, now)
        record.changed.notify()
        if message is not None:
            if ctype == UPDATE_MESSAGE:
                await self.fake.message_updated(message)
            elif ctype in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
                await self.fake.message_created(message)
        await self.fake.held(record)  # a test may hold the answer (hold_callback)
        if not flag(request, "with_response"):
            return no_content()
        return ok(self._callback_response(record, int(ctype), message))

    def _create(self, record: InteractionRecord, data: JSON, body: Body, *, flags: int) -> Message:
        message = self.fake.messages_factory.create(
            record.channel,
            self.fake.bot_user,
            data,
            body.files,
            flags=flags | (int(data.get("flags") or 0) & MESSAGE_FLAG_EPHEMERAL),
            msg_type=20 if record.type == APPLICATION_COMMAND else 19,
            webhook_id=self.fake.application_id,
            application_id=self.fake.application_id,
            interaction_metadata=self.fake.interaction_metadata(record),
            interaction_id=record.id,
        )
        if message.ephemeral:
            message.visible_to = record.user.id
        return message

    def _callback_response(
        self, record: InteractionRecord, ctype: int, message: Message | None
    ) -> JSON:
        info: JSON = {"id": str(record.id), "type": record.type}
        resource: JSON = {"type": ctype}
        if message is not None and ctype != DEFERRED_UPDATE_MESSAGE:
            info.update(
                response_message_id=str(message.id),
                response_message_loading=message.loading,
                response_message_ephemeral=message.ephemeral,
            )
            resource["message"] = payloads.message(message, self.fake.world)
        return {"interaction": info, "resource": resource}

    # -- webhooks ------------------------------------------------------------------------
    def _record(self, request: web.Request) -> InteractionRecord:
        app_id = request.match_info["application_id"]
        record = self.fake.by_token.get(request.match_info["token"])
        if record is None or app_id != str(self.fake.application_id):
            raise unknown(UNKNOWN_WEBHOOK, "Webhook")
        age = asyncio.get_running_loop().time() - record.created_at
        if age > self.fake.token_lifetime:
            raise ApiError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
        return record

    def _target(self, request: web.Request, record: InteractionRecord) -> Message:
        raw = request.match_info["message_id"]
        if raw == "@original":
            message = record.original
        else:
            wanted = int(raw) if raw.isdigit() else -1
            candidates = [record.original, *record.followups]
            message = next((m for m in candidates if m is not None and m.id == wanted), None)
        if message is None or message.deleted:
            raise unknown(UNKNOWN_MESSAGE, "Message")
        return message

    async def _guarded(self, record: InteractionRecord, coro: Any) -> web.Response:
        try:
            result: web.Response = await coro
            return result
        except ApiError as exc:
            record.rejected.append(exc)
            record.changed.notify()
            raise

    async def followup(self, request: web.Request) -> web.Response:
        record = self._record(request)
        return await self._guarded(record, self._followup(request, record))

    async def _followup(self, request: web.Request, record: InteractionRecord) -> web.Response:
        body = await read(request)
        payload = body.obj()
        response = record.response
        if response is None or response.type not in (
            CHANNEL_MESSAGE,
            DEFERRED_CHANNEL_MESSAGE,
            DEFERRED_UPDATE_MESSAGE,
            UPDATE_MESSAGE,
        ):
            raise unknown(UNKNOWN_WEBHOOK, "Webhook")
        errors = FormErrors()
        check_message(payload, errors, files=len(body.files))
        errors.raise_if_any()
        check_file_sizes([len(f.data) for f in body.files], ATTACHMENT_LIMIT)
        original = record.original
        deferred = response.type == DEFERRED_CHANNEL_MESSAGE
        if deferred and original is not None and original.loading and not original.deleted:
            # Discord: the first followup after a deferred response edits the "thinking"
            # message; once the bot deleted that placeholder, a followup is a new message.
            self.fake.messages_factory.edit(original, payload, body.files)
            message = original
            await self.fake.message_updated(message)
        else:
            message = self._create(record, payload, body, flags=0)
            message.type = 0
            if original is not None and message.interaction_metadata is not None:
                message.interaction_metadata["original_response_message_id"] = str(original.id)
            record.followups.append(message)
            await self.fake.message_created(message)
        record.changed.notify()
        if not flag(request, "wait"):
            return no_content()
        return ok(payloads.message(message, self.fake.world))

    async def get_message(self, request: web.Request) -> web.Response:
        record = self._record(request)
        return ok(payloads.message(self._target(request, record), self.fake.world))

    async def edit_message(self, request: web.Request) -> web.Response:
        record = self._record(request)
        return await self._guarded(record, self._edit(request, record))

    async def _edit(self, request: web.Request, record: InteractionRecord) -> web.Response:
        message = self._target(request, record)
        body = await read(request)
        payload = body.obj()
        errors = FormErrors()
        check_message(payload, errors, files=len(body.files), creating=False, current=message)
        errors.raise_if_any()
        check_file_sizes([len(f.data) for f in body.files], ATTACHMENT_LIMIT)
        self.fake.messages_factory.edit(message, payload, body.files)
        await self.fake.message_updated(message)
        record.changed.notify()
        return ok(payloads.message(message, self.fake.world))

    async def delete_message(self, request: web.Request) -> web.Response:
        record = self._record(request)
        message = self._target(request, record)
        if message is record.original and message.loading:
            # A placeholder taken down: the bot's answer is what it just posted there.
            posts = self.fake.world.channel_messages(record.channel.id)
            mine = [m for m in posts if m.author.id == self.fake.bot_user.id and m.id > record.id]
            record.answered_by = mine[-1] if mine else None
        await self.fake.message_deleted(message)
        record.changed.notify()
        return no_content()
