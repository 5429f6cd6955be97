"""End to end: Sahwari over the loopback Discord, through the real bot process.

Alice (English client), Bob (French client) and one bot seat play a whole
three-player game. The game's seed is written into the lobby row before
/game start so that the seats are Alice, Bob, then the bot: the leaders are
chosen in reverse seat order, the bot's at once, Bob's in French, and Alice's
first try at Bob's leader is refused.

The humans' steps are planned with the pure engine from the state the bot
saved, each turn sent as one chained command (cut only when it would be too
long), Bob's in French words. Along the way:

* Alice's first turn is one command, hence one public post; in it she spends
  her pawn on the track's SPY: the blue face reaches her alone, privately,
  and /game hand then shows it to her in a private image;
* Bob's first turn: a stop his camel cannot reach and a chain with an illegal
  step in its middle are refused privately in French and change nothing; then
  ``aller …; prendre recrue`` is a private step and the rest one public post;
* the first turn post that asks a human to close a window has a ``next``
  button: the other human's click is refused, the right one's works;
* Alice gains an attack token from her track (``use track ATTACK``) and
  attacks Bob's camel, naming him by a Discord mention; the post says so;
* then the game is played to its end: the final post (🏆), the results
  stored, the leaderboard.

Another test checks the cog's buttons on every prompt, with the pure engine:
in the game above only the window's ``next`` reaches a turn post, since the
other prompts with buttons come up in the middle of a turn, answered
privately (a reminder post would show them).
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from bot import i18n
from bot.service import MAX_NOTATION
from bot.session import seating
from cogs.turn_post import MAX_QUICK
from games.contract import Seat
from games.sahwari import GAME, SPEC, SahwariState
from games.sahwari import board as sahwari_board
from games.sahwari import clan as clans
from games.sahwari.commands import quick_moves
from games.sahwari.context import camel_of
from games.sahwari.moves import (
    ChooseLeader,
    End,
    Keep,
    Move,
    MoveCamel,
    Next,
    PlaceCube,
    Skip,
    Spy,
    Stay,
    Take,
    UseAttack,
    UseNow,
    UseTrack,
)
from games.sahwari.notation import french
from tests.e2e import (
    World,
    assert_people_named,
    board_png,
    game_row,
    locale_of,
    public,
    quick_buttons,
    refused,
    seat_users,
    text_of,
)

PLAYERS = 3
ALICE, BOB, BOT = 0, 1, 2  # the seats the seed gives (see seed_for_seats)
FRENCH_DIRECTIONS = {"N": "nord", "E": "est", "S": "sud", "W": "ouest"}


# --------------------------------------------------------------------------- the humans' plans


@dataclass(frozen=True)
class Wants:
    """What a human's turn aims at; with nothing wanted it hurries the end
    (the emptiest tiles, no ability, every effect declined)."""

    recruit: bool = False  # go where a pawn is and take it
    spy: bool = False  # the track's SPY, on the first blue token listed
    token: bool = False  # the track's ATTACK: an attack token
    victim: str | None = None  # spend the token on this camel (guild moves steered there)


def attack_on(legal: list[Move], victim: str) -> Move | None:
    return next(
        (
            m
            for m in legal
            if isinstance(m, UseAttack) and m.attack.option == "camel" and m.attack.target == victim
        ),
        None,
    )


def reaches_attack(state: SahwariState, seat: Seat, victim: str, depth: int = 2) -> bool:
    """Whether the seat's guild moves left (``depth``) can make ``victim`` a target in W3."""
    top = state.top
    if top is None or top.seat != seat:
        return False
    legal = GAME.legal_moves(state, seat)
    if top.prompt == "window":
        return attack_on(legal, victim) is not None
    if top.prompt != "guild" or depth == 0:
        return False
    return any(reaches_attack(GAME.apply(state, seat, m), seat, victim, depth - 1) for m in legal)


def choose(state: SahwariState, seat: Seat, legal: list[Move], wants: Wants) -> Move:
    """A human's step at the prompt on top, from the legal ones."""
    top = state.top
    assert top is not None
    prompt = top.prompt
    if prompt == "window":
        if wants.victim and (attack := attack_on(legal, wants.victim)) is not None:
            return attack
        if wants.spy and UseTrack("SPY") in legal:
            return UseTrack("SPY")
        if wants.token and UseTrack("ATTACK") in legal and not state.clans[seat].attack_tokens:
            return UseTrack("ATTACK")
        return Next() if Next() in legal else End()
    if prompt == "effects":
        spies = [m for m in legal if isinstance(m, Spy)]
        if wants.spy and spies:
            return spies[0]
        return next(m for m in legal if isinstance(m, Skip))
    if prompt == "move":

        def score(m: Move) -> tuple[int, int]:
            after = GAME.apply(state, seat, m)
            items = after.table.items[after.table.camel_at(camel_of(seat))]
            return (0 if "R" in items or not wants.recruit else 1, len(items) or 99)

        return min(legal, key=score)
    if prompt == "second":
        return Stay() if Stay() in legal else legal[0]
    if prompt == "collect":
        for item in ("recruit", "artefact") if wants.recruit else ("artefact", "recruit"):
            if Take(item) in legal:
                return Take(item)
    if prompt == "cube" and PlaceCube("storage") in legal:
        return PlaceCube("storage")
    if prompt == "convoy":
        return Keep()
    if prompt == "guild" and wants.victim and state.clans[seat].attack_tokens:
        for m in legal:
            if reaches_attack(GAME.apply(state, seat, m), seat, wants.victim):
                return m
    return legal[0]


def plan_turn(state: SahwariState, seat: Seat, wants: Wants) -> list[Move]:
    """The seat's steps from now to the end of its turn."""
    moves: list[Move] = []
    while True:
        move = choose(state, seat, GAME.legal_moves(state, seat), wants)
        step = GAME.play(state, seat, move)
        moves.append(move)
        state = step.state
        if step.ends_turn or seat not in GAME.to_act(state):
            return moves


def command(moves: list[Move], words: Callable[[Move], str]) -> str:
    return "; ".join(words(m) for m in moves)


def fits(moves: list[Move], words: Callable[[Move], str]) -> list[Move]:
    """The longest start of ``moves`` that one command can carry."""
    count = len(moves)
    while len(command(moves[:count], words)) > MAX_NOTATION:
        count -= 1
    assert count, "a single step longer than a command"
    return moves[:count]


def seed_for_seats(lobby: list[int | None], alice: int, bob: int) -> int:
    """A seed whose seating (Alice first) is Alice, Bob, the bot."""
    for seed in range(1, 10_000):
        order = [lobby[i] for i in seating(seed, PLAYERS, lobby.index(alice))]
        if order == [alice, bob, None]:
            return seed
    raise AssertionError("no seed seats Alice, Bob, then the bot")


# --------------------------------------------------------------------------- the world


def stored(world: World) -> tuple[SahwariState, list[int | None], dict[str, Any]]:
    """The state as the bot saved it (and its JSON), and the seats' user ids."""
    row = game_row(world)
    data = json.loads(row["state"])
    return GAME.load(data), seat_users(world, row["id"]), data


async def move(world: World, user: Any, notation: str) -> Any:
    """``/sahwari move``: a public post when it ends the turn, else a private step
    answer (and nothing in the channel)."""
    posted = len(world.fake.messages(world.channel))
    version = world.bot.game_version()
    it = await world.fake.slash(
        user, world.channel, "sahwari move", {"notation": notation}, locale=locale_of(world, user)
    )
    shown = await it.final(timeout=20)
    assert it.ack_latency is not None and it.ack_latency < 3
    assert world.bot.game_version() > version, text_of(shown)  # accepted
    added = len(world.fake.messages(world.channel)) - posted
    assert added == (0 if it.ephemeral else 1), text_of(shown)
    return it


async def private_news(it: Any) -> str:
    """What the author was told privately after a public post (his blue faces)."""
    with contextlib.suppress(AssertionError):
        await it.wait_followups(1, timeout=5)
    return "\n".join(text_of(m) for m in it.followups if m.ephemeral)


def public_text(world: World) -> str:
    return "\n".join(text_of(m) for m in world.fake.messages(world.channel))


# --------------------------------------------------------------------------- the game


async def test_sahwari_is_played_end_to_end(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    setting = await fake.slash(alice, world.channel, "game settings", {"threads": False})
    await setting.final(timeout=20)
    opened = await public(world, alice, "game new", {"game": "sahwari", "bots": 1, "level": "easy"})
    assert "Sahwari" in text_of(opened)
    await public(world, bob, "game join", locale="fr")
    with world.bot.database() as db:  # see the module's docstring
        lobby = [r[0] for r in db.execute("SELECT user_id FROM seats ORDER BY seat")]
        seed = seed_for_seats(lobby, alice.id, bob.id)
        db.execute("UPDATE games SET seed = ? WHERE status = 'lobby'", (seed,))
    firsts = await fake.autocomplete(
        alice, world.channel, "game start", {"first": ""}, focused="first"
    )
    started = await public(
        world,
        alice,
        "game start",
        {"first": next(c["value"] for c in firsts if "alice" in c["name"])},
    )
    board_png(started)
    state, seats, _ = stored(world)
    assert seats == [alice.id, bob.id, None]
    users = {alice.id: alice, bob.id: bob}

    # Leaders, last seat first: the bot has chosen; Bob chooses in French.
    assert state.leaders[BOT] and not state.leaders[BOB]
    assert f"<@{bob.id}>" in text_of(fake.messages(world.channel)[-1])
    leaders = GAME.legal_moves(state, BOB)
    bobs = next(m for m in leaders if isinstance(m, ChooseLeader) and m.leader != "explorer")
    await move(world, bob, french(bobs))  # `chef marchand`: a post of its own
    state, _, _ = stored(world)
    assert state.leaders[BOB] == bobs.leader
    await refused(
        world, alice, "sahwari move", {"notation": f"leader {bobs.leader}"}, "not possible now"
    )
    alices = next(
        m
        for m in GAME.legal_moves(state, ALICE)
        if isinstance(m, ChooseLeader) and m.leader != "explorer"
    )
    await move(world, alice, GAME.format_move(alices))
    state, _, _ = stored(world)
    assert state.clans and state.top is not None and state.top.prompt == "move"
    post = fake.messages(world.channel)[-1]
    assert f"<@{alice.id}>" in text_of(post)
    assert quick_buttons(post) == []  # a camel's move has no button

    # Alice's first turn in one command: one post; her spied face, hers alone.
    plan = plan_turn(state, ALICE, Wants(recruit=True, spy=True))
    text = command(plan, GAME.format_move)
    assert len(text) <= MAX_NOTATION and UseTrack("SPY") in plan, text
    spied = next(m.handle for m in plan if isinstance(m, Spy))
    face = state.table.token(spied)
    assert face is not None and face.startswith("B")
    it = await move(world, alice, text)
    assert not it.ephemeral, text_of(it.answer)
    assert f"spies on {spied}" in text_of(it.answer)
    news = await private_news(it)
    assert f"{spied} is {face}" in news, news
    assert face not in public_text(world)
    assert all(face not in text_of(m) for m in fake.messages(fake.dm_channel(bob)))
    hand = await fake.slash(alice, world.channel, "game hand")
    shown = await hand.final(timeout=20)
    assert hand.ephemeral and f"{spied} (spied) is {face}" in text_of(shown)
    assert "hand.png" in shown.files

    # Bob's first turn, in French: two refusals that change nothing, then two steps.
    state, _, before = stored(world)
    suggested = await fake.autocomplete(
        bob, world.channel, "sahwari move", {"notation": ""}, focused="notation", locale="fr"
    )
    assert suggested and all(c["name"].startswith(("aller ", "★ aller ")) for c in suggested)
    assert all(c["value"].startswith("move ") for c in suggested)
    snapshot, camel = state.table.snapshot(), camel_of(BOB)
    bad = next(  # a tile on the way that is no stop
        f"aller {FRENCH_DIRECTIONS[d]} {sahwari_board.name(tile)}"
        for d in sahwari_board.DIRECTIONS
        for tile in sahwari_board.path(state.table.camel_at(camel), d)
        if tile not in sahwari_board.player_stops(snapshot, camel, d)
    )
    await refused(world, bob, "sahwari move", {"notation": bad}, "n'a pas cet arrêt", locale="fr")
    plan = plan_turn(state, BOB, Wants(recruit=True))
    taken = next(i for i, m in enumerate(plan) if isinstance(m, Take)) + 1
    assert plan[taken - 1] == Take("recruit")
    chain = f"{french(plan[0])}; rester; {french(plan[taken - 1])}"
    await refused(
        world, bob, "sahwari move", {"notation": chain}, "pas possible maintenant", locale="fr"
    )
    assert stored(world)[2] == before
    it = await move(world, bob, command(plan[:taken], french))  # `aller …; prendre recrue`
    assert it.ephemeral  # his turn goes on
    it = await move(world, bob, command(plan[taken:], french))
    assert not it.ephemeral  # the rest of his turn (and the bot's): one post

    # The rest of the game, with the button, the attack and the mention on the way.
    button_tried = attacked = attack_to_show = False
    turn_start = True  # the last post is the acting player's turn post
    commands = 0
    while True:
        state, _, _ = stored(world)
        if state.over:
            break
        assert commands < 300, "the game does not end"
        (seat,) = GAME.to_act(state)
        uid = seats[seat]
        assert uid is not None, "the bot seat waits for nobody"
        user = users[uid]
        top = state.top
        assert top is not None
        if not button_tried and turn_start and top.prompt == "window":
            post = fake.messages(world.channel)[-1]
            assert f"<@{uid}>" in text_of(post)
            await click_next(world, post, user, bob if user is alice else alice)
            button_tried, turn_start = True, False
            continue
        wants = Wants()
        if seat == ALICE and not attacked:
            wants = Wants(recruit=True, token=True, victim=camel_of(BOB))
        words = french if seat == BOB else GAME.format_move
        plan = fits(plan_turn(state, seat, wants), words)
        text = command(plan, words)
        attack = any(isinstance(m, UseAttack) for m in plan)
        if attack:  # Bob named by a mention, not by his seat
            text = text.replace(f"camel {camel_of(BOB)} ", f"camel <@{bob.id}> ")
            assert f"<@{bob.id}>" in text, text
        cubes = clans.counts(state.clans[BOB]).cubes
        it = await move(world, user, text)
        commands += 1
        turn_start = not it.ephemeral
        if attack:
            attacked = attack_to_show = True
            assert clans.counts(stored(world)[0].clans[BOB]).cubes == cubes - 1
        if attack_to_show and not it.ephemeral:  # the end of Alice's turn: its post
            content = text_of(it.answer)
            assert "spends an attack token" in content, content
            # The victim is named as a person, with the colour mark of the board.
            assert f"attacks {SPEC.mark(BOB)} bob's camel" in content, content
            attack_to_show = False
    assert button_tried, "no turn post asked a human to close a window"
    assert attacked, "Alice never could attack Bob"

    final = fake.messages(world.channel)[-1]
    assert "🏆" in text_of(final)
    # The final post pings every human who played, once each (never a bot seat).
    assert {u.id for u in final.notified} == {u for u in stored(world)[1] if u is not None}
    board_png(final)
    outcome = GAME.outcome(state)
    assert outcome is not None
    with world.bot.database() as db:
        results = db.execute("SELECT score, rank, won FROM results ORDER BY seat").fetchall()
    assert [(score, rank) for score, rank, _ in results] == list(
        zip(outcome.scores, outcome.ranks, strict=True)
    )
    assert [seat for seat, (_, _, won) in enumerate(results) if won] == list(outcome.winners)
    ranking = await public(world, alice, "leaderboard", {"game": "sahwari"})
    text = ranking.embeds[0]["description"]
    assert f"<@{alice.id}>" in text and f"<@{bob.id}>" in text
    assert_people_named(world)
    assert await world.bot.stop() == 0
    assert fake.unhandled == []


async def click_next(world: World, post: Any, user: Any, other: Any) -> None:
    """The turn post's ``next``: refused to the other human, played for the right one."""
    quick = quick_buttons(post)
    assert [c.rsplit(":", 1)[1] for c in quick] == ["next"]
    assert post.component(quick[0])["label"] == "next"  # the game's language
    version = world.bot.game_version()
    clicked = await world.fake.click(other, post, quick[0], locale=locale_of(world, other))
    refusal = await clicked.final(timeout=20)
    assert clicked.ephemeral
    assert ("not your turn" if other is world.alice else "pas votre tour") in text_of(refusal)
    assert world.bot.game_version() == version
    clicked = await world.fake.click(user, post, quick[0], locale=locale_of(world, user))
    await clicked.final(timeout=20)
    assert clicked.ack_latency is not None and clicked.ack_latency < 3
    assert world.bot.game_version() == version + 1


# --------------------------------------------------------------------------- the buttons


def test_quick_steps_of_each_prompt() -> None:
    """Every prompt with buttons, met in random games: which steps get one, and
    that each fits a button (its label in both languages, its custom id)."""
    expected: dict[str, tuple[type, ...]] = {
        "convoy": (UseNow, Keep),
        "collect": (Take,),
        "cube": (PlaceCube,),
        "second": (MoveCamel, Stay),
    }
    wanted_prompts = {"convoy", "collect", "cube", "second", "window Next()", "window End()"}
    seen: set[str] = set()
    for seed in range(1, 40):
        rng = random.Random(seed)
        state = GAME.new(PLAYERS, seed, {"leaders": "random"})
        while not state.over and seen < wanted_prompts:
            (seat,) = GAME.to_act(state)
            top = state.top
            assert top is not None
            legal = GAME.legal_moves(state, seat)
            session = SimpleNamespace(  # what quick_moves reads of a session
                decisions=GAME.decisions(state), engine=GAME, state=state, ai_plays=lambda s: False
            )
            quick = list(quick_moves(session))  # type: ignore[arg-type]
            if top.prompt == "window":
                closing = End() if top.args == ("W3",) else Next()
                assert quick == [closing]
                seen.add(f"window {closing}")
            elif top.prompt in expected:
                wanted = [m for m in legal if isinstance(m, expected[top.prompt])]
                assert quick == (wanted if len(wanted) <= MAX_QUICK else [])
                seen.add(top.prompt)
            else:
                assert quick == [], top.prompt
            for step in quick:
                notation = GAME.format_move(step)
                assert len(notation) <= 60 and ":" not in notation
                words = GAME.move_words(step)
                assert words is not None
                assert all(0 < len(i18n.term(lang, words)) <= 80 for lang in ("en", "fr"))
            session.ai_plays = lambda s: True  # a bot's prompt: no button
            assert not quick_moves(session)  # type: ignore[arg-type]
            state = GAME.apply(state, seat, rng.choice(legal))
        if seen >= wanted_prompts:
            return
    raise AssertionError(f"prompts never met: {wanted_prompts - seen}")
