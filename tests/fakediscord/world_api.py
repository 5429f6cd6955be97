"""World-building helpers for tests; changes made while a bot is connected become gateway events."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from . import payloads
from . import permissions as perms
from .gateway import GUILD_MEMBERS, GUILDS, Gateway
from .world import Channel, Guild, Member, Overwrite, Role, User, World

JSON = dict[str, Any]


class WorldApi:
    """Mixin of FakeDiscord: add users, guilds, roles, channels, members (threads: ThreadHub)."""

    world: World
    gateway: Gateway
    bot_user: User
    default_bot_permissions: int
    _tasks: set[asyncio.Task[None]]

    # -- world helpers (sync; gateway events are queued when a bot is connected) ------------------
    def add_user(self, name: str, locale: str = "en-US", *, global_name: str | None = None) -> User:
        return self.world.add_user(name, locale=locale, global_name=global_name)

    def add_guild(
        self,
        name: str,
        owner: User,
        *,
        locale: str = "en-US",
        bot_permissions: perms.PermissionsLike | None = None,
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """A guild ``owner`` created, the bot in it; ``shard=(shard_id, shard_count)`` picks an id
        whose events go to that shard (``(id >> 22) % shard_count == shard_id``)."""
        guild = self.world.add_guild(name, owner, locale=locale, shard=shard)
        bot_perms = (
            self.default_bot_permissions
            if bot_permissions is None
            else perms.as_int(bot_permissions)
        )
        role = self.world.add_role(
            guild, self.bot_user.username, bot_perms, managed=True, bot_id=self.bot_user.id
        )
        self.world.add_member(guild, self.bot_user, [role])
        self._spawn(self.gateway.guild_available(guild))
        return guild

    def add_role(
        self, guild: Guild, name: str, permissions: perms.PermissionsLike | None = None
    ) -> Role:
        role = self.world.add_role(guild, name, perms.as_int(permissions))
        self._emit(
            "GUILD_ROLE_CREATE",
            {"guild_id": str(guild.id), "role": payloads.role(role)},
            GUILDS,
            guild.id,
        )
        return role

    def add_channel(
        self,
        guild: Guild,
        name: str,
        *,
        topic: str | None = None,
        overwrites: list[Overwrite] | None = None,
        announcement: bool = False,
    ) -> Channel:
        channel = self.world.add_channel(
            guild, name, topic=topic, overwrites=overwrites, announcement=announcement
        )
        self._emit("CHANNEL_CREATE", payloads.channel(channel), GUILDS, guild.id)
        return channel

    def add_member(
        self,
        guild: Guild,
        user: User,
        *,
        permissions: perms.PermissionsLike | None = None,
        roles: list[Role] | None = None,
    ) -> Member:
        """Join ``user`` to ``guild``; ``permissions`` gives them a role granting exactly those."""
        roles = list(roles or [])
        if permissions is not None:
            roles.append(self.add_role(guild, f"{user.username}-perms", permissions))
        existed = user.id in guild.members
        member = self.world.add_member(guild, user, roles)
        if not existed:
            data = payloads.member(member)
            data["guild_id"] = str(guild.id)
            self._emit("GUILD_MEMBER_ADD", data, GUILD_MEMBERS, guild.id)
        return member

    def dm_channel(self, user: User) -> Channel:
        return self.world.dm_channel(user)

    def _emit(self, event: str, data: JSON, intent: int, guild_id: int) -> None:
        self._spawn(self.gateway.dispatch(event, data, guild_id=guild_id, intent=intent))

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None or not self.gateway.sessions:
            coro.close()  # nobody has identified yet: READY/GUILD_CREATE will carry the state
            return
        task = loop.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def flush(self) -> None:
        """Wait for gateway events scheduled by the sync world helpers."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
