"""``python -m bot``: read the configuration and run until SIGINT/SIGTERM."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

import discord

from bot.app import Caravanserai, point_at_api
from bot.config import ConfigError, load_config

log = logging.getLogger("bot")


async def run() -> int:
    try:
        config = load_config()
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    logging.basicConfig(
        level=config.log_level,
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
    )
    point_at_api(config)
    bot = Caravanserai(config)
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stopping.set)

    async def stop_on_signal() -> None:
        await stopping.wait()
        log.info("Shutting down")
        await bot.close()

    stopper = asyncio.create_task(stop_on_signal())
    try:
        async with bot:
            await bot.start(config.token)
    except discord.LoginFailure:
        print(
            "Discord refused DISCORD_TOKEN. Copy a fresh token from the Developer Portal "
            "(your application > Bot > Reset Token) into .env; see README.md.",
            file=sys.stderr,
        )
        return 2
    except Exception:
        log.exception("The bot stopped with an error")
        return 1
    finally:
        stopper.cancel()
    return 0


def main() -> None:
    sys.exit(asyncio.run(run()))


if __name__ == "__main__":
    main()
