"""The game service on a real SQLite file with the real Desert engine."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bot import i18n
from bot.cpu import CpuPool
from bot.errors import UserError
from bot.replay import Row, replay
from bot.service import GameService
from bot.session import Turn, seating, standings
from bot.storage import SeatRecord, Storage, open_storage
from cogs.replies import turn_lines
from games.contract import Event, InvalidMove, InvalidOption, MoveError, Outcome, bot_move
from games.desert import GAME
from games.levels import play_level
from tests.contract import all_specs
from tests.service_games import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    lobby,
    play_turn_as_ai,
    start_desert,
)

T = TypeVar("T")


async def test_lobby_lifecycle(service: GameService) -> None:
    session = await lobby(service, 1, BOB)
    assert [s.name for s in session.record.seats] == ["Alice", "🤖 Zahra", "user2"]
    with pytest.raises(UserError) as info:
        await service.join(CHANNEL, BOB, "Bob")
    assert info.value.key == "lobby.already_joined"
    with pytest.raises(UserError) as info:
        await service.start(CHANNEL, BOB)
    assert info.value.key == "lobby.only_creator_starts"
    report = await service.start(CHANNEL, ALICE)
    assert report.after.record.status == "active"
    assert report.after.state is not None
    assert sorted(s.name for s in report.after.record.seats) == ["Alice", "user2", "🤖 Zahra"]
    with pytest.raises(UserError) as info:
        await service.join(CHANNEL, CAROL, "Carol")
    assert info.value.key == "lobby.already_started"


async def test_one_game_per_channel_and_limits(service: GameService) -> None:
    await lobby(service)
    with pytest.raises(UserError) as info:
        await lobby(service)
    assert info.value.key == "lobby.channel_busy"
    with pytest.raises(UserError) as info:
        await service.start(CHANNEL, ALICE)
    assert info.value.key == "lobby.too_few"
    for user in (BOB, CAROL, 4, 5):
        await service.join(CHANNEL, user, str(user))
    with pytest.raises(UserError) as info:
        await service.join(CHANNEL, 6, "six")
    assert info.value.key == "lobby.full"


async def test_only_registered_games_can_be_opened(service: GameService) -> None:
    with pytest.raises(UserError) as info:
        await service.create(
            kind="chess", guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, name="A"
        )
    assert info.value.key == "game.unknown_kind"
    assert await service.session_in(CHANNEL) is None


async def test_options_are_checked_by_the_engine_and_stored(service: GameService) -> None:
    def create(options: dict[str, str]) -> Any:
        return service.create(
            kind="nim",
            guild_id=GUILD,
            channel_id=CHANNEL,
            user_id=ALICE,
            name="A",
            options=options,
        )

    with pytest.raises(InvalidOption) as info:
        await create({"pile": "huge"})
    assert info.value.key == "core.option_value"
    assert await service.session_in(CHANNEL) is None  # nothing was created
    session = await create({"pile": "long"})
    assert session.record.options == {"pile": "long"}
    await service.join(CHANNEL, BOB, "Bob")
    started = (await service.start(CHANNEL, ALICE)).after
    assert started.view(None).pile == 15  # the engine set the game up with it
    await service.cancel(CHANNEL, ALICE, is_admin=True)
    defaulted = await create({})
    assert defaulted.record.options == {"pile": "short"}  # every option recorded


async def test_the_creator_may_name_the_first_player(service: GameService) -> None:
    await lobby(service, 1, BOB, CAROL)  # seats: Alice, bot, Bob, Carol
    with pytest.raises(UserError) as info:
        await service.start(CHANNEL, ALICE, first=9)
    assert info.value.key == "lobby.no_such_seat"
    started = (await service.start(CHANNEL, ALICE, first=2)).after
    assert started.seat(0).user_id == BOB
    assert started.to_act == (0,)


def test_seating_is_drawn_from_the_seed_and_turned_to_the_first_player() -> None:
    assert seating(7, 4) == seating(7, 4)
    assert sorted(seating(7, 4)) == [0, 1, 2, 3]
    assert len({tuple(seating(seed, 4)) for seed in range(20)}) > 5
    drawn = seating(7, 4)
    for first in range(4):
        turned = seating(7, 4, first)
        assert turned[0] == first
        at = drawn.index(first)
        assert turned == drawn[at:] + drawn[:at]  # the others keep their drawn order


async def test_creator_leaving_closes_the_lobby(service: GameService) -> None:
    await lobby(service, 0, BOB)
    session, cancelled = await service.leave(CHANNEL, BOB)
    assert not cancelled and len(session.record.seats) == 1
    _, cancelled = await service.leave(CHANNEL, ALICE)
    assert cancelled
    assert await service.session_in(CHANNEL) is None


async def test_refusals_change_nothing(service: GameService, storage: Storage) -> None:
    await lobby(service, 0, BOB)
    started = (await service.start(CHANNEL, ALICE)).after
    mover = started.seat(started.to_act[0]).user_id
    other = BOB if mover == ALICE else ALICE
    attempts: list[tuple[int, str, type[Exception]]] = [
        (CAROL, "white C5", UserError),  # not a player
        (other, "white C5", UserError),  # not his turn
        (mover, "", UserError),
        (mover, "x" * 2000, UserError),
        (mover, "🐪🐪", MoveError),
        (mover, "banana split", MoveError),
        (mover, "orange Z99", InvalidMove),
    ]
    for user, text, error in attempts:
        with pytest.raises(error):
            await service.play(CHANNEL, user, text)
    after = await service.require_session(CHANNEL)
    assert after.record.version == started.record.version
    assert after.record.state == started.record.state
    assert await storage.moves(started.id) == []


async def test_a_command_from_a_board_this_seat_already_moved_on_is_stale(
    service: GameService,
) -> None:
    """A double click or a second device: one command never acts twice."""
    await lobby(service, 0, BOB, game="nim")
    started = (await service.start(CHANNEL, ALICE)).after
    await service.play(CHANNEL, ALICE, "keep")
    with pytest.raises(UserError) as info:
        await service.play(CHANNEL, ALICE, "swap", expected_version=started.record.version)
    assert info.value.key == "game.stale"


async def test_simultaneous_seats_both_land_when_still_legal(
    service: GameService, storage: Storage
) -> None:
    """Two seats owe a decision at once: the later one is re-checked, not refused."""
    await lobby(service, 0, BOB, CAROL, game="nim")
    started = (await service.start(CHANNEL, ALICE)).after
    assert set(started.to_act) == {0, 1, 2}
    results = await asyncio.gather(
        service.play(CHANNEL, ALICE, "keep"),
        service.play(CHANNEL, BOB, "swap"),
        return_exceptions=True,
    )
    assert not [r for r in results if isinstance(r, BaseException)], results
    # Carol acted on the board of the start, before the two others' moves landed.
    report = await service.play(CHANNEL, CAROL, "keep", expected_version=started.record.version)
    assert report.after.record.version == started.record.version + 3
    assert sorted(m.seat for m in await storage.moves(started.id)) == [0, 1, 2]
    assert report.after.view(None).phase == "take"


async def test_two_concurrent_moves_exactly_one_lands(
    service: GameService, storage: Storage
) -> None:
    await lobby(service, 0, BOB)
    started = (await service.start(CHANNEL, ALICE)).after
    seat = started.to_act[0]
    mover = started.seat(seat).user_id
    assert mover is not None
    first, second = GAME.legal_moves(started.state, seat)[:2]
    # The same seat twice at once (a double click): exactly one lands.
    results = await asyncio.gather(
        service.play(CHANNEL, mover, GAME.format_move(first)),
        service.play(CHANNEL, mover, GAME.format_move(second)),
        return_exceptions=True,
    )
    landed = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(landed) == 1 and len(refused) == 1
    assert isinstance(refused[0], UserError) and refused[0].key in {
        "game.stale",
        "game.not_your_turn",
    }
    assert len(await storage.moves(started.id)) == 1


async def test_whole_game_with_bots_feeds_the_leaderboard(
    service: GameService, storage: Storage
) -> None:
    await lobby(service, 2, BOB)
    session = (await service.start(CHANNEL, ALICE)).after
    started_at = session.record.version
    session = (await service.advance(session)).after
    for _ in range(400):
        if session.record.status != "active":
            break
        assert not any(session.ai_plays(s) for s in session.to_act)
        session = await play_turn_as_ai(service, session)
    assert session.record.status == "finished"
    outcome = session.outcome
    assert outcome is not None
    results = await storage.results(session.id)
    assert sorted(r.score for r in results) == sorted(outcome.scores)
    board = await storage.leaderboard(GUILD)
    assert {row.user_id for row in board} == {ALICE, BOB}  # bots are not ranked
    assert all(row.games == 1 for row in board)
    # The move log replays to the same final state from the seed.
    replay = GAME.new(4, session.record.seed, {})
    moves = await storage.moves(session.id)
    # Each log row names the version it produced: one per command, in order.
    assert [m.version for m in moves] == list(range(started_at + 1, started_at + 1 + len(moves)))
    assert all(m.events for m in moves)
    for record in moves:
        for move in GAME.parse(replay, record.seat, record.notation):
            replay = GAME.apply(replay, record.seat, move)
    assert GAME.dump(replay) == session.record.state


async def test_resignation_in_two_player_game_ends_it(
    service: GameService, storage: Storage
) -> None:
    await lobby(service, 0, BOB)
    session = (await service.start(CHANNEL, ALICE)).after
    while session.progress < 0.5:  # half the game, so it counts (resigning earlier voids it)
        session = await play_turn_as_ai(service, session)
    report = await service.resign(CHANNEL, BOB)
    assert report.ended and not report.void
    rows = {row.user_id: row for row in await storage.results(report.after.id)}
    assert rows[ALICE].won and not rows[BOB].won
    assert await service.session_in(CHANNEL) is None


async def test_resigned_seat_is_played_by_the_ai(service: GameService) -> None:
    await lobby(service, 0, BOB, CAROL)
    session = (await service.start(CHANNEL, ALICE)).after
    saved = await service.resign(CHANNEL, CAROL)
    assert not saved.ended
    session = (await service.settle(saved)).after
    carol_seat = next(s.seat for s in session.record.seats if s.user_id == CAROL)
    assert session.ai_plays(carol_seat)
    assert carol_seat not in session.to_act
    with pytest.raises(UserError) as info:
        await service.play(CHANNEL, CAROL, "pass")
    assert info.value.key == "game.you_resigned"


async def test_the_ai_answers_an_action_when_it_is_settled(
    service: GameService, storage: Storage
) -> None:
    """An action is saved at once, before any AI seat moves (the front end then
    acknowledges its interaction); settle plays the AI turns it leads to and
    reports them after the player's own turn, in one report: the one post."""
    await lobby(service, 1, game="nim")
    saved = await service.start(CHANNEL, ALICE, first=1)  # the bot sits first
    alice = saved.after.seat_of(ALICE)
    bot = next(s.seat for s in saved.after.record.seats if s.is_bot)
    assert set(saved.after.to_act) == {alice, bot}  # both choose to keep or swap
    assert not hasattr(saved, "turns") and await storage.moves(saved.after.id) == []
    report = await service.settle(saved)
    assert [(t.seat, t.by_ai) for t in report.turns] == [(bot, True)]
    assert report.before == saved.before and report.after.to_act == (alice,)
    saved = await service.play(CHANNEL, ALICE, "keep")
    assert saved.after.to_act == (bot,)  # the bot takes first: not played yet
    report = await service.settle(saved)
    assert [(t.seat, t.by_ai) for t in report.turns] == [(alice, False), (bot, True)]
    assert report.turns[0].moves == ("keep",)
    assert report.after.to_act == (alice,) and not report.ended
    assert [m.seat for m in await storage.moves(saved.after.id)] == [bot, alice, bot]


async def test_games_survive_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'restart.db'}"
    first = await open_storage(url)
    service = GameService(first)
    await lobby(service, 0, BOB)
    session = (await service.start(CHANNEL, ALICE)).after
    session = await play_turn_as_ai(service, session)
    await first.close()

    second = await open_storage(url)
    try:
        reloaded = await GameService(second).require_session(CHANNEL)
        assert reloaded.record.version == session.record.version
        assert GAME.dump(reloaded.state) == GAME.dump(session.state)
    finally:
        await second.close()


async def test_the_clock_reminds_at_half_time_then_once_when_time_runs_out(
    service: GameService,
) -> None:
    await lobby(service, 0, BOB)
    session = (await service.start(CHANNEL, ALICE)).after
    assert session.record.clock_hours == 24  # the default clock: normal
    now = datetime.now(UTC)

    async def due(at: datetime) -> list[tuple[int, str]]:
        return [(n.session.id, n.action) for n in await service.absence.due(at)]

    assert await due(now) == []
    assert await due(now + timedelta(hours=13)) == [(session.id, "half")]
    assert await due(now + timedelta(hours=14)) == []  # said once
    assert await due(now + timedelta(hours=25)) == [(session.id, "expired")]
    assert await due(now + timedelta(hours=99)) == []  # then the players vote
    # A move restarts the clock.
    session = await play_turn_as_ai(service, session)
    assert await due(now + timedelta(hours=1)) == []


async def test_no_reminder_while_only_ai_seats_are_due(service: GameService) -> None:
    await lobby(service, 1)
    session = (await service.start(CHANNEL, ALICE)).after
    session = (await service.advance(session)).after
    await service.resign(CHANNEL, ALICE)
    later = datetime.now(UTC) + timedelta(days=3)
    assert await service.absence.due(later) == []


async def test_cancel_needs_the_players_agreement_or_an_admin(service: GameService) -> None:
    await lobby(service, 0, BOB)
    await service.start(CHANNEL, ALICE)
    with pytest.raises(UserError) as info:
        await service.cancel(CHANNEL, BOB, is_admin=False)
    assert info.value.key == "game.cancel_needs_vote"  # a player: only by everyone's vote
    with pytest.raises(UserError) as info:
        await service.cancel(CHANNEL, CAROL, is_admin=False)
    assert info.value.key == "game.cancel_forbidden"  # not a player
    cancelled = await service.cancel(CHANNEL, CAROL, is_admin=True)
    assert cancelled.record.status == "cancelled"
    assert await service.session_in(CHANNEL) is None


async def test_a_resigned_player_ranks_last_at_the_end(
    service: GameService, storage: Storage
) -> None:
    await service.set_takeover_level(GUILD, "easy")  # the AI plays Carol's seat to the end
    await lobby(service, 0, BOB, CAROL)
    await service.start(CHANNEL, ALICE)
    session = (await service.settle(await service.resign(CHANNEL, CAROL))).after
    for _ in range(400):
        if session.record.status != "active":
            break
        session = await play_turn_as_ai(service, session)
    assert session.record.status == "finished"
    rows = {row.user_id: row for row in await storage.results(session.id)}
    assert rows[CAROL].rank == 3 and not rows[CAROL].won
    assert {rows[ALICE].rank, rows[BOB].rank} <= {1, 2}
    assert rows[ALICE].won or rows[BOB].won


def seats(*resigned: bool) -> list[SeatRecord]:
    return [SeatRecord(i, 100 + i, f"p{i}", False, r) for i, r in enumerate(resigned)]


def test_standings_keep_the_engines_tie_breaks() -> None:
    """Equal scores split by the game's tie-break rank as the engine says, not by score."""
    outcome = Outcome.from_scores([7, 7, 3], tiebreak=[[0], [1], [0]])
    table = standings(seats(False, False, False), outcome)
    assert [(s.rank, s.won) for s in table] == [(2, False), (1, True), (3, False)]


def test_a_resigned_seat_ranks_last_even_if_its_bot_scored_best() -> None:
    outcome = Outcome.from_scores([20, 7, 7])
    table = standings(seats(True, False, False), outcome)
    assert [(s.rank, s.won) for s in table] == [(3, False), (1, True), (1, True)]
    assert table[0].score == 20  # the score stays what the engine counted


async def test_the_final_post_and_the_results_agree(service: GameService, storage: Storage) -> None:
    """A resigned seat played well by the bot is not a winner anywhere."""
    await lobby(service, 0, BOB, CAROL, game="nim")
    await service.start(CHANNEL, ALICE)
    session = (await service.settle(await service.resign(CHANNEL, CAROL))).after
    for _ in range(60):
        if session.record.status != "active":
            break
        seat = session.to_act[0]
        user = session.seat(seat).user_id
        assert user is not None
        spec = session.spec
        move = bot_move(spec.engine, spec.bot, session.state, seat, 0)
        saved = await service.play(CHANNEL, user, spec.engine.format_move(move))
        session = (await service.settle(saved)).after
    assert session.record.status == "finished"
    stored = {(r.seat, r.rank, r.won) for r in await storage.results(session.id)}
    assert stored == {(s.seat, s.rank, s.won) for s in session.standings()}
    carol = next(s for s in session.standings() if session.seat(s.seat).user_id == CAROL)
    assert carol.rank == 3 and not carol.won


async def test_private_events_are_reported_to_their_seat_only(service: GameService) -> None:
    await lobby(service, 0, BOB, game="nim")
    await service.start(CHANNEL, ALICE)
    report = await service.settle(await service.play(CHANNEL, BOB, "swap"))
    bob, alice = report.after.seat_of(BOB), report.after.seat_of(ALICE)
    private = report.private_events()
    assert sorted(private) == sorted([bob, alice])  # the swapper, and his neighbour
    assert [e.key for e in private[bob]] == ["nim.log.drew"]
    assert [e.key for e in private[alice]] == ["nim.log.told"]
    assert [e.key for e in report.turns[0].public_events()] == ["nim.log.swap"]
    assert all("card" not in e.params for e in report.turns[0].public_events())


async def test_a_turn_of_several_commands_is_reported_once_whole(
    service: GameService, storage: Storage
) -> None:
    """R12: two camels in two commands — the first is a private step, the second
    ends the turn and the report tells the whole turn (one public post)."""
    await lobby(service, 0, BOB)
    session = (await service.start(CHANNEL, ALICE)).after
    while session.view(None).phase != "camels" or session.view(None).allowance_left != 2:
        session = await play_turn_as_ai(service, session)
    seat = session.to_act[0]
    user = session.seat(seat).user_id
    assert user is not None
    first = GAME.legal_moves(session.state, seat)[0]
    step = await service.play(CHANNEL, user, GAME.format_move(first))
    assert not step.turn_over and step.after.to_act == (seat,)
    second = GAME.legal_moves(step.after.state, seat)[0]
    report = await service.settle(await service.play(CHANNEL, user, GAME.format_move(second)))
    assert report.turn_over
    (turn,) = report.turns
    assert turn.moves == (GAME.format_move(first), GAME.format_move(second))
    camels = [e for e in turn.public_events() if e.key == "desert.log.camel"]
    assert len(camels) == 2
    rows = await storage.turn_moves(session.id)
    assert [r.notation for r in rows] == list(turn.moves)
    assert [r.ends_turn for r in rows] == [False, True]


async def test_a_chained_command_is_stored_in_notation_that_parses_back(
    service: GameService, storage: Storage
) -> None:
    """The moves table is the replay record: a command of several steps is stored
    joined as the game writes a command (Sahwari's steps take optional words, so
    spaces would not split them back)."""
    await lobby(service, 0, BOB, game="sahwari")
    session = (await service.start(CHANNEL, ALICE)).after
    engine = session.engine
    while session.record.status == "active":
        seat = session.to_act[0]
        legal = engine.legal_moves(session.state, seat)
        first = engine.format_move(legal[0])
        after = engine.play(session.state, seat, legal[0]).state
        chain = [first]
        if seat in engine.to_act(after):
            chain.append(engine.format_move(engine.legal_moves(after, seat)[0]))
        before = session.state
        user = session.seat(seat).user_id
        assert user is not None
        report = await service.play(CHANNEL, user, "; ".join(chain))
        if len(chain) == 2:
            row = (await storage.turn_moves(session.id))[-1]
            assert row.notation == "; ".join(chain)
            assert engine.parse(before, seat, row.notation) == engine.parse(
                before, seat, "; ".join(chain)
            )
            return
        session = report.after
    raise AssertionError("no command of two steps was played")


def test_a_turn_line_names_each_seat_its_events_belong_to() -> None:
    """The final post: the last mover's events under its name, each other seat's
    (its score) under that seat's own name, the game's events on their own."""

    class Names:
        names = ["Alice", "Bob"]

        def shown(self, seat: int) -> str:
            return self.names[seat]

        def people(self, *, plain: bool = False) -> list[str]:
            return self.names

    events = (
        Event("nim.log.swap", {}, 1),
        Event("nim.log.swap", {}, 0),
        Event("core.option_unknown", {"name": "x", "known": "-"}),
    )
    turn = Turn(1, ("end",), False, events)
    lines = turn_lines(Names(), [turn], "en", plain=True)  # type: ignore[arg-type]
    assert [line.split(":")[0] for line in lines[:2]] == ["Bob", "Alice"]
    assert len(lines) == 3 and not lines[2].startswith(("Alice", "Bob"))


# --------------------------------------------------------------------------- bot levels


class NotedLevels(CpuPool):
    """The inline pool (no workers), noting each AI decision: (how it ran, seat, level)."""

    def __init__(self) -> None:
        super().__init__(0)
        self.decisions: list[tuple[str, int, str]] = []

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        if function is play_level:
            self.decisions.append(("run", args[3], args[1]))
        return await super().run(function, *args)

    async def think(self, function: Callable[..., T], *args: Any) -> T:
        assert function is play_level
        self.decisions.append(("think", args[3], args[1]))
        return await super().think(function, *args)


async def test_an_unknown_level_is_refused_and_nothing_is_stored(service: GameService) -> None:
    for create in (
        lambda: lobby(service, 1, level="insane"),
        lambda: service.check_create("desert", GUILD, ALICE, 1, level="Hard"),
    ):
        with pytest.raises(UserError) as info:
            await create()
        assert info.value.key == "lobby.bad_level"
        assert "facile, normal ou difficile" in i18n.t("fr", info.value.key, **info.value.params)
    assert await service.session_in(CHANNEL) is None
    with pytest.raises(UserError) as info:
        await service.set_takeover_level(GUILD, "")
    assert info.value.key == "lobby.bad_level"
    assert await service.takeover_level(GUILD) == "normal"  # the default, unchanged
    assert (await lobby(service, 1)).record.bot_level == "easy"  # the tests' helper
    await service.cancel(CHANNEL, ALICE, False)
    made = await service.create(
        kind="desert", guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, name="A", bots=1
    )
    assert made.record.bot_level == "normal"  # a new table's default


async def test_bots_play_their_tables_level_and_taken_over_seats_the_servers(
    storage: Storage,
) -> None:
    """A bot seat plays at its game's level (a search: through the pool's limited
    thinking); a resigned player's seat at the server's takeover level, read when
    the AI plays it: a change applies from the next decision on. Every move the
    AI made is legal: the log replays from the seed to the stored state."""
    pool = NotedLevels()
    service = GameService(storage, all_specs(), cpu=pool)
    await service.set_takeover_level(GUILD, "easy")
    await lobby(service, 1, BOB, level="normal")
    session = (await service.settle(await service.start(CHANNEL, ALICE, first=1))).after
    bot = next(s.seat for s in session.record.seats if s.is_bot)
    bob = session.seat_of(BOB)
    assert bob is not None and pool.decisions == [("think", bot, "normal")]

    session = (await service.settle(await service.resign(CHANNEL, BOB))).after
    while ("run", bob, "easy") not in pool.decisions:
        session = await play_turn_as_ai(service, session)
    await service.set_takeover_level(GUILD, "normal")  # not cached: read when needed
    while ("think", bob, "normal") not in pool.decisions:
        session = await play_turn_as_ai(service, session)

    assert {d for d in pool.decisions if d[1] == bot} == {("think", bot, "normal")}
    bobs = [d for d in pool.decisions if d[1] == bob]
    assert set(bobs[:-1]) == {("run", bob, "easy")} and bobs[-1] == ("think", bob, "normal")
    rows = [Row(m.seat, m.notation) for m in await storage.moves(session.id) if m.counts]
    record = session.record
    states = replay(GAME, len(record.seats), record.seed, record.options, rows)
    assert GAME.dump(states[-1]) == record.state


async def test_a_command_for_another_game_is_refused_naming_this_ones(
    service: GameService,
) -> None:
    session = await start_desert(service, BOB)
    seat = session.awaited[0]
    move = bot_move(GAME, session.spec.bot, session.state, seat, 1)
    user = ALICE if seat == 0 else BOB
    with pytest.raises(UserError) as info:
        await service.play(CHANNEL, user, GAME.format_command([move]), kind="oasis")
    assert (info.value.key, info.value.params) == ("game.wrong_command", {"command": "/desert"})
    again = await service.get(session.id)
    assert again is not None and again.record.version == session.record.version
    saved = await service.play(CHANNEL, user, GAME.format_command([move]), kind="desert")
    assert saved.after.record.version == session.record.version + 1
