"""Backups and restores: ``python -m bot backup``, and a damaged database at start-up.

Real files, real subprocesses: the copy is taken while storages are open and
writing, reopened with SqliteStorage and compared game by game.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from bot.backup import BackupError, backup_database, human_size
from bot.storage import (
    STATUSES,
    DatabaseCorrupt,
    GameRecord,
    SqliteStorage,
    StaleVersion,
    StorageBusy,
    check_integrity,
    results_for,
)
from tests.cli import ROOT, bot_environ, run_bot, run_bot_in_thread
from tests.sockets import closed_port, contacted

GUILD = 1000
NOISE = ("Traceback", "Event loop is closed", "Task was destroyed", "was never awaited")


async def populate(s: SqliteStorage, games: int = 24) -> None:
    """Games in every state: lobbies, games with moves, resignations, finished, cancelled."""
    for n in range(games):
        g = await s.create_game(
            "desert", GUILD + n % 2, n, 10, "Alice", {"variant": f"v{n}"}, n, "fr"
        )
        g = await s.add_seat(g.id, g.version, 20 + n, f"Bob {n}", False)
        if n % 6 == 0:
            continue  # stays a lobby
        g = await s.add_seat(g.id, g.version, None, "Bot", True)
        g = await s.start_game(g.id, g.version, [2, 0, 1], {"turn": 0, "n": n})
        for ply in range(n % 5 + 1):
            event = {"key": "x.moved", "params": {"ply": ply}, "to": None}
            g = await s.record_move(
                g.id, g.version, ply % 3, f"m{ply}", {"turn": ply + 1}, events=[event]
            )
        if n % 6 == 1:
            g = await s.resign_seat(g.id, g.version, 1, {"resigned": 1})
        elif n % 6 == 2:
            res = results_for(g.seats, [n, 1, 2], [1, 3, 2], {0})
            await s.record_move(g.id, g.version, 0, "last", {"over": True}, results=res)
        elif n % 6 == 3:
            await s.cancel_game(g.id, g.version)
        elif n % 6 == 4:
            await s.resign_seat(g.id, g.version, 2, {"void": True}, cancel=True)
    await s.set_meta("command_tree_hash", "abc123")


async def everything(s: SqliteStorage) -> dict[int, tuple[Any, ...]]:
    """Every game with its seats, moves and results, paged through as a job would."""
    out: dict[int, tuple[Any, ...]] = {}
    after = 0
    while page := await s.active_games_after(after, limit=7, statuses=STATUSES):
        for g in page:
            out[g.id] = (g, await s.moves(g.id), await s.results(g.id))
        after = page[-1].id
    return out


def test_human_size() -> None:
    assert human_size(0) == "0 bytes"
    assert human_size(1023) == "1023 bytes"
    assert human_size(1536) == "1.5 KiB (1536 bytes)"
    assert human_size(5 * 1024**3) == "5.0 GiB (5368709120 bytes)"


async def test_backup_while_open_has_every_game(tmp_path: Path) -> None:
    live = tmp_path / "games.db"
    copy = tmp_path / "backups" / "copy.db"
    copy.parent.mkdir()
    async with SqliteStorage(live) as s:
        await populate(s)
        before = await everything(s)
        statuses = {rec[0].status for rec in before.values()}
        assert len(before) == 24 and statuses == {"lobby", "active", "finished", "cancelled"}
        assert (tmp_path / "games.db-wal").exists()  # the bot's connections are open
        made = await asyncio.to_thread(backup_database, live, copy)
        assert (made.source, made.target, made.size) == (live, copy, copy.stat().st_size)
        assert await s.get_game(1) == before[1][0]  # the live storage carries on
    assert sorted(os.listdir(copy.parent)) == ["copy.db"]  # no scratch or -wal left
    with closing(sqlite3.connect(copy)) as raw:  # one self-contained file
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    async with SqliteStorage(copy) as restored:
        after = await everything(restored)
        assert after == before  # every game, seats, moves (with events), results
        assert await restored.leaderboard(GUILD) != []
        assert await restored.leaderboard(GUILD) == await _leaderboard(live)
        assert await restored.get_meta("command_tree_hash") == "abc123"


async def _leaderboard(path: Path) -> Any:
    async with SqliteStorage(path) as s:
        return await s.leaderboard(GUILD)


async def test_backups_during_writes_are_consistent_snapshots(tmp_path: Path) -> None:
    """Movers keep writing through two storages while backups run: each copy is one
    committed moment (each game's version matches its move log)."""
    live = tmp_path / "games.db"
    async with SqliteStorage(live) as a, SqliteStorage(live) as b:
        games = []
        for n in range(6):
            g = await a.create_game("desert", GUILD, n, 10, "A", {}, n)
            g = await a.add_seat(g.id, g.version, None, "Bot", True)
            games.append(await a.start_game(g.id, g.version, [0, 1], {"moves": 0}))
        start = {g.id: g.version for g in games}
        stop = asyncio.Event()

        async def mover(s: SqliteStorage, g: GameRecord) -> None:
            while not stop.is_set():
                cur = await s.get_game(g.id)
                assert cur is not None
                n = cur.version - start[g.id]
                with contextlib.suppress(StaleVersion, StorageBusy):  # lost a race: again
                    await s.record_move(g.id, cur.version, n % 2, f"m{n}", {"moves": n + 1})
                await asyncio.sleep(0)

        movers = [asyncio.create_task(mover(a if i % 2 else b, g)) for i, g in enumerate(games)]
        copies = []
        try:
            for k in range(5):
                await asyncio.sleep(0.05)
                copies.append(await asyncio.to_thread(backup_database, live, tmp_path / f"{k}.db"))
        finally:
            stop.set()
            await asyncio.gather(*movers)
    sizes = []
    for made in copies:
        check_integrity(made.target)
        async with SqliteStorage(made.target) as s:
            total = 0
            for g in games:
                got = await s.get_game(g.id)
                log = await s.moves(g.id)
                assert got is not None and got.state is not None
                assert got.version - start[g.id] == len(log) == got.state["moves"]
                assert [m.ply for m in log] == list(range(1, len(log) + 1))
                total += len(log)
            sizes.append(total)
    assert sizes == sorted(sizes) and sizes[-1] > sizes[0] > 0  # taken as the games went on


async def test_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    live = tmp_path / "games.db"
    async with SqliteStorage(live) as s:
        await populate(s, games=3)
        target = tmp_path / "backup.db"
        target.write_bytes(b"an older backup")
        with pytest.raises(BackupError, match=f"^{target} already exists; add --force"):
            backup_database(live, target)
        assert target.read_bytes() == b"an older backup"
        made = backup_database(live, target, force=True)
        assert made.size == target.stat().st_size > 1000
    assert sorted(os.listdir(tmp_path)) == ["backup.db", "games.db"]
    async with SqliteStorage(target) as copy:
        assert len(await everything(copy)) == 3


def test_impossible_backups_say_why(tmp_path: Path) -> None:
    live = tmp_path / "games.db"
    with closing(sqlite3.connect(live)) as raw:
        raw.execute("CREATE TABLE t (x)")
    (tmp_path / "folder").mkdir()
    cases: list[tuple[str | Path, Path, str]] = [
        (":memory:", tmp_path / "x.db", "keeps games in memory"),
        (tmp_path / "missing.db", tmp_path / "x.db", "there is no database at"),
        (live, tmp_path / "nowhere" / "x.db", f"the folder {tmp_path / 'nowhere'} does not"),
        (live, tmp_path / "folder", "is a folder; name the backup file"),
        (live, live, "is the database itself"),
    ]
    for source, target, message in cases:
        with pytest.raises(BackupError, match=message) as info:
            backup_database(source, target, force=True)
        assert "\n" not in str(info.value)
    not_a_database = tmp_path / "notes.db"
    not_a_database.write_text("plain text " * 100)
    with pytest.raises(BackupError, match="cannot back up .*notes.db: file is not a database"):
        backup_database(not_a_database, tmp_path / "x.db")
    assert sorted(os.listdir(tmp_path)) == ["folder", "games.db", "notes.db"]


# --------------------------------------------------------------------------- the command


def assert_one_line(text: str, expected: str) -> None:
    lines = text.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0], text
    for noise in NOISE:
        assert noise not in text


async def test_backup_command_while_the_storage_is_open(tmp_path: Path) -> None:
    live = tmp_path / "data" / "games.db"
    async with SqliteStorage(live) as s:
        await populate(s, games=6)
        before = await everything(s)
        env = bot_environ(DATABASE_URL="sqlite:///data/games.db")  # relative to the current folder

        done = await run_bot_in_thread("backup", "saved.db", env=env, cwd=tmp_path)
        saved = tmp_path / "saved.db"
        assert done.returncode == 0, done.stderr
        size = saved.stat().st_size
        assert done.stdout == f"Backed up {live} to {saved}: {human_size(size)}\n"
        assert done.stderr == ""

        again = await run_bot_in_thread("backup", str(saved), env=env, cwd=tmp_path)
        assert again.returncode == 2 and again.stdout == ""
        assert_one_line(again.stderr, f"{saved} already exists; add --force to overwrite it")

        second = before[2][0]
        assert second.status == "active"
        await s.record_move(second.id, second.version, 0, "later", {})  # game 2 moves on
        forced = await run_bot_in_thread("backup", "--force", str(saved), env=env, cwd=tmp_path)
        assert forced.returncode == 0, forced.stderr
        assert_one_line(forced.stdout, f"Backed up {live} to {saved}: ")
    async with SqliteStorage(saved) as copy:
        after = await everything(copy)
    assert [m.notation for m in after[2][1]][-1] == "later"  # the forced copy is the newer one
    assert {k: v for k, v in after.items() if k != 2} == {k: v for k, v in before.items() if k != 2}


def test_backup_command_errors_are_one_line(tmp_path: Path) -> None:
    live = tmp_path / "games.db"
    with closing(sqlite3.connect(live)) as raw:
        raw.execute("CREATE TABLE t (x)")
    url = f"sqlite:///{live}"
    cases = [
        (["backup"], url, "backup needs one PATH"),
        (["backup", "a.db", "b.db"], url, "backup needs one PATH"),
        (["backup", "--verbose"], url, "backup needs one PATH"),
        (["restore", "x.db"], url, "unknown command 'restore'; usage: python -m bot"),
        (["backup", "x.db"], "sqlite://", "keeps games in memory"),
        (["backup", "x.db"], "mysql://user:secret@host/db", "DATABASE_URL: unsupported scheme"),
        (["backup", "x.db"], f"sqlite:///{tmp_path}/missing.db", "there is no database at"),
        (["backup", "no/such/x.db"], url, "does not exist"),
    ]
    for args, database_url, expected in cases:
        env = bot_environ(DATABASE_URL=database_url)  # no DISCORD_TOKEN
        result = run_bot(*args, env=env, cwd=tmp_path)
        assert result.returncode == 2, (args, result.stderr)
        assert_one_line(result.stderr, expected)
        assert "secret" not in result.stderr
    assert os.listdir(tmp_path) == ["games.db"]
    helped = run_bot("backup", "--help", env=bot_environ(), cwd=tmp_path)
    assert helped.returncode == 0 and "usage: python -m bot" in helped.stdout


# --------------------------------------------------------------------------- damaged database


def damage(path: Path) -> None:
    """Garbage over the middle of the file's pages (header and first pages intact)."""
    size = path.stat().st_size
    page = 4096
    assert size >= 8 * page, size
    with path.open("r+b") as f:
        f.seek(size // 2 // page * page + 100)
        f.write(bytes((i * 7919 + 13) % 256 for i in range(2 * page)))


async def test_damaged_database_stops_start_up_and_a_backup_restores(
    tmp_path: Path, sentinel: socket.socket
) -> None:
    data = tmp_path / "data"
    live = data / "games.db"
    async with SqliteStorage(live) as s:
        await populate(s, games=60)
        before = await everything(s)
    backup_database(live, tmp_path / "backup.db")
    damage(live)

    with pytest.raises(DatabaseCorrupt):
        check_integrity(live)
    with pytest.raises(DatabaseCorrupt, match="damaged"):
        await SqliteStorage(live).open()

    port = sentinel.getsockname()[1]
    env = bot_environ(
        DISCORD_TOKEN="x",
        DISCORD_API_BASE=f"http://127.0.0.1:{port}/api/v10",
        DATABASE_URL=f"sqlite:///{live}",
    )
    refused = await run_bot_in_thread(env=env, cwd=tmp_path)
    assert refused.returncode == 2, refused.stderr
    assert_one_line(refused.stderr, f"The database {live} is damaged (")
    line = refused.stderr.strip()
    assert "replace games.db with your latest backup" in line
    assert "delete games.db-wal and games.db-shm" in line and '"Backups"' in line
    assert not contacted(sentinel)  # before anything reached Discord

    # The damaged file cannot be backed up (the copy fails its check) and is left alone.
    failed = await run_bot_in_thread("backup", "again.db", env=env, cwd=tmp_path)
    assert failed.returncode == 2
    assert_one_line(failed.stderr, f"cannot back up {live}: it is damaged (")
    assert not (tmp_path / "again.db").exists()

    # README's restore: with the bot stopped, put the backup in place, start again.
    for leftover in data.glob("games.db-*"):
        leftover.unlink()
    (tmp_path / "backup.db").replace(live)
    env["DISCORD_API_BASE"] = f"http://127.0.0.1:{closed_port()}/api/v10"
    started = await run_bot_in_thread(env=env, cwd=tmp_path)
    assert started.returncode == 1, started.stderr  # past the check: on to (no) Discord
    assert "Cannot reach Discord" in started.stderr and "is damaged" not in started.stderr
    async with SqliteStorage(live) as s:
        assert await everything(s) == before


def test_a_new_database_passes_the_check_without_being_created(tmp_path: Path) -> None:
    check_integrity(tmp_path / "new.db")
    (tmp_path / "empty.db").write_bytes(b"")
    check_integrity(tmp_path / "empty.db")
    check_integrity(":memory:")
    assert sorted(os.listdir(tmp_path)) == ["empty.db"]


def test_readme_tells_how_to_back_up_and_restore() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Backups", 1)[1].split("\n## ", 1)[0]
    for needed in ("python -m bot backup", "--force", "-wal", "Restore", "stop the bot"):
        assert needed.lower() in section.lower(), needed
