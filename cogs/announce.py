"""Every saved turn is announced, even when the process stopped before saying so.

A move is saved before its interaction is answered (``GameService.play``), so
a process that stops in between (a crash, SIGKILL, a failed post) would leave
the turn unposted, the "thinking…" placeholder forever, and nobody pinged.
Each write that ends a turn notes the post it owes, in the same UPDATE
(``Storage.record_move``, ``start_game``); the handler's own post settles it
(``news.after_post``). Once ``ANNOUNCE_GRACE`` has passed with the post still
owed, the background job (``cogs/background.py``, at start-up and then every
``CLOCK_CHECK_SECONDS``) claims the game by a compare-and-set, so one process
of several posts it, and posts through the channel everything since the last
public post: the turns from the move log, the board, a ping to whoever must
act (and a DM to those who asked, ``/settings dm_turn``), and for a finished
game its chart and the parent channel's result line.

The interaction's placeholder, while its token lives (15 minutes) and it is
still "thinking…", becomes one line linking to that post. The post itself is
a new message rather than the placeholder filled in: an edited message pings
nobody.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import cast

import discord

from bot import i18n
from bot.service import GameService, turns_of
from bot.session import Session
from bot.storage import MoveRecord, ReplyHook, Unannounced
from cogs.boards import boards_of
from cogs.lobby_text import start_lines
from cogs.news import after_post, send_final_chart, tell_parent_result, tell_parent_started
from cogs.replies import board_link, game_message, post_to_channel, turn_lines
from cogs.turn_post import post_buttons

log = logging.getLogger(__name__)

# A process that claimed a late post and died holding it: another tries after this.
CLAIM = timedelta(seconds=60)
# Where Discord's webhook routes take a message id, "@original" names an
# interaction's first response (discord.py types the parameter as an int).
ORIGINAL = cast(int, "@original")


async def announce_late(
    client: discord.Client, service: GameService, owed: Unannounced, now: datetime
) -> bool:
    """Post the turn ``owed`` is owed if this process wins its claim; True if it did."""
    game = owed.game
    assert game.announce_due is not None  # Storage.unannounced gives due games only
    until = (now + CLAIM).isoformat()
    claimed = await service.storage.claim_announcement(
        game.id, game.announce_version, game.announce_due, until
    )
    if not claimed:
        return False  # another process has it, or it was posted meanwhile
    session = await service.get(game.id)  # as it is now that we hold it
    if session is None:
        return False
    if session.broken:  # it cannot be drawn; /game status says why
        await service.storage.mark_announced(game.id, session.record.version)
        return True
    head = [i18n.t(session.lang, "announce.late")]
    posted = await post_since_last_post(client, service, session, head)
    if posted is not None and owed.hook is not None:
        await replace_placeholder(client, owed.hook, session, posted)
    return True


async def post_since_last_post(
    client: discord.Client, service: GameService, session: Session, head: Sequence[str] = ()
) -> discord.Message | None:
    """Through the channel, what happened since the game's last public post: its
    start if that was never shown, the whole turns since, the board and whoever
    must act; for a finished game its chart and the parent channel's result line.
    None if the channel is gone or closed to the bot (the post is then given up)."""
    record, lang = session.record, session.lang
    started = record.posted_version == 0  # no board post at all yet: the start was lost
    rows = await service.storage.moves(session.id, since_version=record.posted_version)
    lines = [*head, *(start_lines(session) if started else [])]
    lines += turn_lines(session, turns_of(whole_turns(rows)), lang)
    boards = boards_of(client)
    buttons = await post_buttons(client, session)
    message = await game_message(session, lines, lang, boards=boards, buttons=buttons)
    channel = client.get_partial_messageable(record.channel_id)
    try:
        posted = await post_to_channel(channel, message)
    except (discord.NotFound, discord.Forbidden) as error:
        log.warning("Game %s's turn cannot be posted (%s); given up", session.id, error.status)
        await service.storage.mark_announced(session.id, record.version)
        return None
    await after_post(client, service, session, posted)
    if record.status == "finished":
        await send_final_chart(channel.send, service, session, lang)
    if started:
        await tell_parent_started(client, session)
    if record.status == "finished":
        await tell_parent_result(client, session)
    return posted


def whole_turns(rows: Sequence[MoveRecord]) -> list[MoveRecord]:
    """The rows that count, up to the last one that ended a turn: a turn still
    being played is told when it ends, by its own post."""
    counting = [row for row in rows if row.counts]
    ends = [i for i, row in enumerate(counting) if row.ends_turn]
    return counting[: ends[-1] + 1] if ends else []


async def replace_placeholder(
    client: discord.Client, hook: ReplyHook, session: Session, posted: discord.Message
) -> None:
    """The interaction's "thinking…" placeholder becomes a line linking to ``posted``.

    Left alone when it is no placeholder any more (the handler answered, then
    stopped before noting its post; or the interaction was a click whose first
    response is the clicked post itself), and when it cannot be reached: the
    token expired, or the process stopped before acknowledging the interaction.
    """
    webhook = discord.Webhook.partial(hook.application_id, hook.token, client=client)
    try:
        original = await webhook.fetch_message(ORIGINAL)
        if not original.flags.loading:
            return
        text = i18n.t(session.lang, "announce.placeholder", link=board_link(session, posted.id))
        await original.edit(content=text, embeds=[], attachments=[], view=None)
    except discord.HTTPException as error:  # never the URL: it holds the token
        log.info("Game %s: its placeholder was not replaced (%s)", session.id, error.status)
