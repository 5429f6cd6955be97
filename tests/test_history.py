"""/game history lines and paging, the pager's buttons, and /game replay's frames
(cogs/history.py, cogs/pager.py), without Discord."""

from __future__ import annotations

import io
import re
import time
from pathlib import Path
from typing import Any, cast

import discord
import pytest
from PIL import Image

from bot.service import GameService
from bot.session import Session
from bot.storage import GameRecord, MoveRecord, SeatRecord
from cogs.help import RulesPages, rules_page
from cogs.history import (
    FRAME_LIMIT,
    ROWS_PER_PAGE,
    HistoryPages,
    frame_indices,
    history_lines,
    history_page,
    replay_gif,
    replay_rows,
    unix_time,
)
from cogs.pager import (
    CUSTOM_ID_LIMIT,
    PageButton,
    clamp,
    custom_id,
    newest_first,
    page_count,
    pager_view,
)
from games.desert.picture import DesertPicture
from render.replay import MAX_BYTES, sample_indices
from tests.contract import all_specs
from tests.service_games import lobby, play_out, play_turn_as_ai

GUILD, CHANNEL, ALICE = 100, 200, 1
T0 = 1_700_000_000  # 2023-11-14T22:13:20Z

SEATS = (
    SeatRecord(0, ALICE, "Alice", False),
    SeatRecord(1, None, "🤖 Zahra", True),
    SeatRecord(2, None, "Idris", True),  # a bot whose name lacks the mark
    SeatRecord(3, 4, "*Bob*_<@1>", False),  # Markdown and a ping in a name stay text
)


def at(seconds: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(T0 + seconds))


def move(
    ply: int,
    seat: int,
    notation: str,
    *,
    ends: bool = True,
    undoes: int | None = None,
    undone: bool = False,
) -> MoveRecord:
    return MoveRecord(
        ply, seat, notation, at(ply), ply, (), ends_turn=ends, undoes=undoes, undone=undone
    )


LOG = (
    move(1, 0, "orange F7 white G8"),
    move(2, 1, "pink A1"),
    move(3, 2, "green B2"),
    move(4, 3, "white C3", ends=False, undone=True),
    move(5, 3, "white C4", undone=True),
    move(6, 3, "undo", undoes=4),
    move(7, 3, "white D4"),
    move(8, 0, "yellow E5", undone=True),
    move(9, 0, "undo", undoes=8),
)


# --------------------------------------------------------------------------- history lines


def test_unix_time_reads_stored_times() -> None:
    assert unix_time("2023-11-14T22:13:20+00:00") == T0
    assert unix_time("2023-11-14T22:13:20") == T0  # no zone: UTC
    assert unix_time("2023-11-14T23:13:20+01:00") == T0


def test_history_lines_in_english() -> None:
    lines = history_lines(SEATS, LOG, "en-US")
    assert lines == [
        f"1. **Alice** — orange F7 white G8 — <t:{T0 + 1}:R>",
        f"2. **🤖 Zahra** — pink A1 — <t:{T0 + 2}:R>",
        f"3. **🤖 Idris** — green B2 — <t:{T0 + 3}:R>",
        f"4. ~~**\\*Bob\\*\\_\\<@\u200b1\\>** — white C3~~ — <t:{T0 + 4}:R>",
        f"5. ~~**\\*Bob\\*\\_\\<@\u200b1\\>** — white C4~~ — <t:{T0 + 5}:R>",
        f"6. ↩ **\\*Bob\\*\\_\\<@\u200b1\\>** took back moves 4–5 — <t:{T0 + 6}:R>",
        f"7. **\\*Bob\\*\\_\\<@\u200b1\\>** — white D4 — <t:{T0 + 7}:R>",
        f"8. ~~**Alice** — yellow E5~~ — <t:{T0 + 8}:R>",
        f"9. ↩ **Alice** took back move 8 — <t:{T0 + 9}:R>",
    ]


def test_history_lines_in_french() -> None:
    lines = history_lines(SEATS, LOG, "fr")
    assert lines[0] == f"1. **Alice** — orange F7 white G8 — <t:{T0 + 1}:R>"
    assert lines[5].startswith("6. ↩ **\\*Bob") and "a repris les coups 4 à 5" in lines[5]
    assert lines[8] == f"9. ↩ **Alice** a repris le coup 8 — <t:{T0 + 9}:R>"


def test_moves_the_ai_made_in_a_humans_seat_are_marked() -> None:
    """After Alice resigned (or was replaced), the AI decides for her seat."""
    ai_row = MoveRecord(10, 0, "white H8", at(10), 10, (), by_ai=True)
    (line,) = history_lines(SEATS, (ai_row,), "en-US")
    assert line == f"10. **🤖 Alice** — white H8 — <t:{T0 + 10}:R>"


async def test_the_log_records_which_rows_the_ai_decided(service: GameService) -> None:
    await service.create(
        kind="desert", guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, name="Alice"
    )
    for user in (2, 3):
        await service.join(CHANNEL, user, f"user{user}")
    session = (await service.start(CHANNEL, ALICE, first=0)).after

    session = await play_turn_as_ai(service, session)  # Alice decides her first move herself
    report = await service.resign(CHANNEL, ALICE)  # then the AI plays her seat
    session = report.after
    for _ in range(12):  # the others play until her seat's turn comes round
        session = await play_turn_as_ai(service, session)
    rows = await service.storage.moves(session.id)
    alices = [r for r in rows if r.seat == 0]
    assert not alices[0].by_ai and all(r.by_ai for r in alices[1:]) and len(alices) > 1
    assert not any(r.by_ai for r in rows if r.seat != 0)


def test_a_players_notation_cannot_format_or_ping() -> None:
    rows = [move(1, 0, "offer 3 **gold** @everyone " + "x" * 200)]
    [line] = history_lines(SEATS, rows, "en")
    assert "\\*\\*gold\\*\\*" in line and "@\u200beveryone" in line
    assert "…" in line and len(line) < 200


def history_session(moves: int, status: str = "active") -> Session:
    record = GameRecord(
        id=7,
        kind="desert",
        guild_id=GUILD,
        channel_id=CHANNEL,
        status=status,  # type: ignore[arg-type]
        creator_id=ALICE,
        options={},
        seed=1,
        state=None,
        version=moves,
        created_at=at(0),
        updated_at=at(moves),
        seats=SEATS[:2],
    )
    return Session(record, all_specs()["desert"])


# --------------------------------------------------------------------------- paging


def test_paging_arithmetic() -> None:
    assert [page_count(n, 15) for n in (0, 1, 15, 16, 30, 31)] == [1, 1, 1, 2, 2, 3]
    assert [clamp(p, 3) for p in (-1, 0, 1, 3, 4, 99)] == [1, 1, 1, 3, 3, 3]
    assert clamp(5, 0) == 1
    # Page 1 holds the newest rows; the last page the oldest, maybe fewer.
    assert newest_first(31, 1, 15) == (16, 31)
    assert newest_first(31, 2, 15) == (1, 16)
    assert newest_first(31, 3, 15) == (0, 1)
    assert newest_first(31, 9, 15) == (0, 1)  # clamped
    assert newest_first(31, 0, 15) == (16, 31)
    assert newest_first(10, 1, 15) == (0, 10)
    assert newest_first(0, 1, 15) == (0, 0)


def plies_shown(description: str) -> list[int]:
    return [int(n) for n in re.findall(r"^(\d+)\. ", description, re.MULTILINE)]


def test_history_pages_newest_first_and_clamped() -> None:
    session = history_session(40)
    log = [move(n, (n - 1) % 2, f"white A{n}") for n in range(1, 41)]
    first = history_page(session, log, "en", 1)
    assert (first.page, first.pages) == (1, 3)
    assert first.text == "**Through the Desert** #7 — moves:"
    assert first.embed is not None and first.embed.description is not None
    assert plies_shown(first.embed.description) == list(range(26, 41))
    assert not first.embed.fields  # the game is not over
    second = history_page(session, log, "fr", 2)
    assert second.text is not None and "n°7" in second.text
    assert second.embed is not None and second.embed.description is not None
    assert plies_shown(second.embed.description) == list(range(11, 26))
    for asked in (3, 4, 1000):
        last = history_page(session, log, "en", asked)
        assert (last.page, last.pages) == (3, 3)
        assert last.embed is not None and last.embed.description is not None
        assert plies_shown(last.embed.description) == list(range(1, 11))
    assert ROWS_PER_PAGE == 15


def test_a_finished_game_shows_its_result_on_the_first_page() -> None:
    session = history_session(20, "finished")
    log = [move(n, (n - 1) % 2, f"white A{n}") for n in range(1, 21)]
    first = history_page(session, log, "en", 1)
    assert first.embed is not None
    assert [f.name for f in first.embed.fields] == ["Result"]
    assert "Alice" in str(first.embed.fields[0].value)
    older = history_page(session, log, "fr", 2)
    assert older.embed is not None and not older.embed.fields


def buttons_of(view: discord.ui.View) -> list[discord.ui.Button[Any]]:
    return [cast(PageButton, item).item for item in view.children]


def test_the_page_buttons_name_the_pager_and_the_page() -> None:
    assert custom_id("history", ("12",), 2, "n") == "page:history:12:2:n"
    assert custom_id("rules", ("desert", "fr"), 5, "p") == "page:rules:desert:fr:5:p"
    with pytest.raises(ValueError):
        custom_id("rules", ("a:b",), 1, "n")
    with pytest.raises(ValueError):
        custom_id("rules", ("x" * CUSTOM_ID_LIMIT,), 1, "n")
    template = PageButton.__discord_ui_compiled_template__
    for kind, args in (("history", ("12",)), ("rules", ("desert", "fr")), ("none", ())):
        match = template.fullmatch(custom_id(kind, args, 3, "n"))
        assert match is not None
        assert match["kind"] == kind and match["page"] == "3"
        assert tuple(match["args"].split(":")[1:]) == args
    assert template.fullmatch("lobby:join:3") is None
    # Each kind's buttons are routed to its own class, by its kind.
    for pages, other in ((HistoryPages, "rules"), (RulesPages, "history")):
        own = pages.__discord_ui_compiled_template__
        assert own.fullmatch(custom_id(pages.kind, ("12",), 2, "p")) is not None
        assert own.fullmatch(custom_id(other, ("12",), 2, "p")) is None

    assert pager_view(RulesPages, ("desert", "en"), 1, 1) is None
    view = pager_view(RulesPages, ("desert", "en"), 9, 5)  # clamped to the last page
    assert view is not None
    buttons = buttons_of(view)
    assert [b.custom_id for b in buttons] == [
        "page:rules:desert:en:4:p",
        "page:rules:desert:en:5:i",
        "page:rules:desert:en:5:n",
    ]
    assert [b.label for b in buttons] == ["◀", "5/5", "▶"]
    assert [b.disabled for b in buttons] == [False, True, True]
    two = pager_view(HistoryPages, ("1",), 1, 2)
    assert two is not None
    first = buttons_of(two)
    assert [b.disabled for b in first] == [True, True, False]


async def test_rules_pages_in_the_readers_language() -> None:
    interaction: Any = None  # the rules builder needs only its arguments
    english = await rules_page(interaction, ("desert", "en"), 1)
    french = await rules_page(interaction, ("desert", "fr"), 99)
    assert english.text is not None and english.text.startswith("## Through the Desert")
    assert french.pages == english.pages > 1 and french.page == french.pages
    assert french.text is not None and "## " in french.text and "joueur" in french.text


# --------------------------------------------------------------------------- replay frames


def test_frames_are_the_start_and_each_turns_end() -> None:
    rows = [
        move(1, 0, "a", ends=False),
        move(2, 0, "b"),
        move(3, 1, "c"),
        move(4, 0, "d", ends=False),
        move(5, 0, "e"),
    ]
    assert frame_indices(rows) == [0, 2, 3, 5]
    assert frame_indices(rows[:4]) == [0, 2, 3, 4]  # the final state, even mid-turn
    assert frame_indices([]) == [0]
    # Undo rows and the rows they took back are not replayed.
    log = [
        move(1, 0, "a"),
        move(2, 1, "b", ends=False, undone=True),
        move(3, 1, "undo", undoes=2),
        move(4, 1, "c"),
    ]
    counted = replay_rows(log)
    assert [r.notation for r in counted] == ["a", "c"]
    assert frame_indices(counted) == [0, 1, 2]


async def finished_desert_game(service: GameService) -> Session:
    """Alice and a bot, Alice playing what the AI would, to the end."""
    await lobby(service, 1)
    session = (await service.advance((await service.start(CHANNEL, ALICE)).after)).after
    return await play_out(service, session)


async def test_a_finished_game_replays_as_a_gif(service: GameService, tmp_path: Path) -> None:
    session = await finished_desert_game(service)
    assert session.record.status == "finished"
    rows = replay_rows(await service.storage.moves(session.id))
    turns = len(frame_indices(rows))
    assert turns > 20
    gif = replay_gif(DesertPicture(), session, rows, "fr")
    assert len(gif) < MAX_BYTES < 8 * 1024 * 1024
    with Image.open(io.BytesIO(gif)) as image:
        frames = getattr(image, "n_frames", 1)
        assert image.format == "GIF" and getattr(image, "is_animated", False)
        assert frames == len(sample_indices(turns, FRAME_LIMIT)) == min(turns, 60)
        assert image.width <= 800
