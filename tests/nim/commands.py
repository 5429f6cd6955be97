"""/nim …: the test game's Discord commands — the shared move cog and nothing else."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.translator import cmd
from cogs.play import GameCog

if TYPE_CHECKING:
    from bot.app import Caravanserai


class NimCog(
    GameCog,
    group_name=cmd("nim", "nim.cmd.name"),
    group_description=cmd("Play Oasis Nim (test game)", "nim.cmd.description"),
):
    kind = "nim"


async def setup(bot: Caravanserai) -> None:
    await bot.add_cog(NimCog(bot))
