"""Application command routes (global and guild scoped)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from .errors import UNKNOWN_GUILD, ApiError, missing_access, unknown
from .restutil import no_content, ok, read, snowflake

if TYPE_CHECKING:
    from .server import FakeDiscord


def register(app: web.Application, fake: FakeDiscord) -> None:
    h = _Handlers(fake)
    base = "/api/v{version:\\d+}/applications/{application_id}"
    for scope in (base + "/commands", base + "/guilds/{guild_id}/commands"):
        app.router.add_get(scope, h.list)
        app.router.add_put(scope, h.bulk_overwrite)
        app.router.add_post(scope, h.create)
        app.router.add_get(scope + "/{command_id}", h.get)
        app.router.add_patch(scope + "/{command_id}", h.edit)
        app.router.add_delete(scope + "/{command_id}", h.delete)


class _Handlers:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake

    def _scope(self, request: web.Request) -> int | None:
        if snowflake(request, "application_id") != self.fake.application_id:
            raise missing_access()
        if "guild_id" not in request.match_info:
            return None
        guild_id = snowflake(request, "guild_id")
        guild = self.fake.world.guilds.get(guild_id)
        if guild is None:
            raise unknown(UNKNOWN_GUILD, "Guild")
        if self.fake.bot_user.id not in guild.members:
            raise missing_access()
        return guild_id

    async def list(self, request: web.Request) -> web.Response:
        return ok(self.fake.commands.list(self._scope(request)))

    async def bulk_overwrite(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        body = await read(request)
        return ok(self.fake.commands.bulk_overwrite(scope, body.payload))

    async def create(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        body = await read(request)
        command, created = self.fake.commands.upsert(scope, body.payload)
        return ok(command, status=201 if created else 200)

    async def get(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        return ok(self.fake.commands.get(scope, snowflake(request, "command_id")))

    async def edit(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        body = await read(request)
        if not isinstance(body.payload, dict):
            raise ApiError(400, 50035, "Invalid Form Body")
        return ok(self.fake.commands.edit(scope, snowflake(request, "command_id"), body.payload))

    async def delete(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        self.fake.commands.delete(scope, snowflake(request, "command_id"))
        return no_content()
