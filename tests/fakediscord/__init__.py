"""A loopback fake of Discord's REST API and gateway for end-to-end tests of discord.py bots.

Start it, point discord.py at it, and drive the bot like users would::

    fake = await FakeDiscord().start()
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    ...
    it = await fake.slash(alice, channel, "game new", {"game": "desert"})
    message = await it.final()
"""

from . import permissions
from .driver import CommandNotFound, DriverError, InvalidOption
from .errors import ApiError
from .gateway import ALL_INTENTS, PRIVILEGED, Session, shard_of
from .interactions import Callback, FakeInteraction, Interaction, InteractionRecord
from .locales import VALID_LOCALES
from .server import FakeDiscord, RequestRecord
from .world import Attachment, Channel, Guild, Member, Message, Overwrite, Role, User, World

__all__ = [
    "ALL_INTENTS",
    "PRIVILEGED",
    "VALID_LOCALES",
    "ApiError",
    "Attachment",
    "Callback",
    "Channel",
    "CommandNotFound",
    "DriverError",
    "FakeDiscord",
    "FakeInteraction",
    "Guild",
    "Interaction",
    "InteractionRecord",
    "InvalidOption",
    "Member",
    "Message",
    "Overwrite",
    "RequestRecord",
    "Role",
    "Session",
    "User",
    "World",
    "permissions",
    "shard_of",
]
