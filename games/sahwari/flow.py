"""How a Sahwari step changes the game: the turn (§5), its prompts and windows.

A turn starts by pushing its whole agenda on the decision stack (rule T4), top
last: ``W0, MOVE, W1, COLLECT, W2, GUILD 1, GUILD 2, W3``. Procedures push
their own prompts on top, so the stack always says what comes next. After
every step :func:`settle` looks at the top and answers what needs no answer
(rule T6: a forced choice, a window with nothing usable, an effect without
target, a collection that cannot happen); when the stack runs out, phase 4
ends the turn (rule T7).

A phase step typed in a window closes it (§17.3 "implicit closing"), and
the windows after it while nothing between them asks anything.
"""

from __future__ import annotations

from dataclasses import replace

from games.contract import Seat
from games.sahwari import clan as clans
from games.sahwari import effects as fx
from games.sahwari.content import CONTENT
from games.sahwari.context import (
    Ctx,
    camel_of,
    is_blue,
    item_of,
    item_term,
    kind_term,
    resolvable,
    tile_items,
    tile_name,
)
from games.sahwari.legal import (
    EFFECT_OF,
    camel_moves,
    prompt_moves,
    resolve_stop,
    window_usable,
    window_uses,
)
from games.sahwari.moves import (
    Attack,
    Bird,
    Bowl,
    Chest,
    ChooseLeader,
    End,
    GuildMove,
    Keep,
    Move,
    MoveCamel,
    Next,
    PlaceCube,
    Recruit,
    Refresh,
    Relocate,
    Skip,
    Spy,
    Stay,
    Take,
    Tornado,
    UseAttack,
    UseConvoy,
    UseNow,
    UseSlot,
    UseStorage,
    UseTrack,
)
from games.sahwari.state import (
    COLLECT,
    CONVOY,
    EFFECTS,
    GUILD_MOVE,
    LEADER,
    MOVE,
    PICK_CARD,
    PLACE_CUBE,
    RELOCATE,
    SECOND_MOVE,
    WINDOW,
    Pending,
    with_leaders,
)
from games.sahwari.table import GUILD_SPACES
from games.text import Term

MAX_ROUNDS = 30  # rule E3: the safety cap
LAST_WINDOW = "W3"
WINDOW_USES = (UseConvoy, UseAttack, UseStorage, UseTrack, UseSlot)
# The phase steps a window accepts by closing itself (§17.3).
PHASE_PROMPTS = (MOVE, RELOCATE, COLLECT, GUILD_MOVE)


# --------------------------------------------------------------------------- the turn


def start_turn(ctx: Ctx, seat: Seat) -> None:
    ctx.s = replace(ctx.s, active=seat, arrival=-1, track_used=())
    for prompt, arg in (
        (WINDOW, "W3"),
        (GUILD_MOVE, "2"),
        (GUILD_MOVE, "1"),
        (WINDOW, "W2"),
        (COLLECT, ""),
        (WINDOW, "W1"),
        (MOVE, ""),
        (WINDOW, "W0"),
    ):
        if arg:
            ctx.push(prompt, seat, arg)
        else:
            ctx.push(prompt, seat)


def end_turn(ctx: Ctx) -> None:
    """Phase 4 (rule T7): refill the row, then the end (E2, E3) or the next seat."""
    fx.refill_row(ctx)
    s = ctx.s
    last = s.active == s.players - 1
    if s.trigger and last:
        finish(ctx, "end_trigger")
    elif s.round >= MAX_ROUNDS and last:
        finish(ctx, "end_cap")
    else:
        if last:
            ctx.s = replace(ctx.s, round=s.round + 1)
        start_turn(ctx, (s.active + 1) % s.players)


def finish(ctx: Ctx, reason: str) -> None:
    """E4: every unused token revealed, then each clan scored (E4, E5)."""
    ctx.s = replace(ctx.s, over=True, stack=())
    ctx.say(reason, rounds=ctx.s.round)
    t = ctx.s.table
    for seat, c in enumerate(ctx.s.clans):
        hidden = [x for x in c.convoys if x not in c.used and is_blue(x)]
        if hidden:
            faces = tuple(
                Term("sahwari.handle_face", {"handle": t.handle(x), "face": fx.face_term(x)})
                for x in hidden
            )
            ctx.say("reveal", seat, faces=faces)
    for seat, c in enumerate(ctx.s.clans):
        lines = dict(clans.score_lines(c))
        ctx.say("final", seat, **lines, score=clans.score(c), tiebreak=clans.tiebreak(c))


# --------------------------------------------------------------------------- settling


def settle(ctx: Ctx) -> None:
    """Answer every prompt that asks nothing (rule T6) until one does."""
    while not ctx.s.over:
        top = ctx.top
        if top is None:
            end_turn(ctx)
            continue
        if top.prompt == LEADER:
            return
        if not _settled(ctx, top):
            return


def _auto(ctx: Ctx, seat: Seat, move: Move) -> None:
    ctx.autos.append((seat, move))
    apply(ctx, seat, move)


def _settled(ctx: Ctx, top: Pending) -> bool:
    """Answer ``top`` if it asks nothing; False when it waits for its seat."""
    seat = top.seat
    prompt = top.prompt
    if prompt == WINDOW:
        if window_usable(ctx, seat):
            return False
        ctx.pop()
        ctx.autos.append((seat, End() if top.args == (LAST_WINDOW,) else Next()))
        return True
    if prompt == MOVE and not camel_moves(ctx.s.table.snapshot(), camel_of(seat)):
        _cannot_move(ctx, seat)
        return False
    if prompt == COLLECT and not _can_collect(ctx, seat):
        ctx.pop()
        return True
    if prompt == CONVOY:
        token = ctx.s.table.token(top.args[0])
        assert token is not None
        if is_blue(token) or resolvable(token):
            return False  # rule H5: a blue token's choice is always asked
        _auto(ctx, seat, Keep())
        return True
    if prompt in (PICK_CARD, EFFECTS):
        if (prompt == PICK_CARD or "CARD" in top.args) and fx.row_empty(ctx):
            fx.refill_row(ctx)  # rule K3, D39: reveal first
        if prompt == EFFECTS:
            return _drop_targetless(ctx, seat, top)
    if prompt == RELOCATE:
        return False
    legal = prompt_moves(ctx, top)
    if not legal:
        ctx.pop()
        _nothing(ctx, seat, prompt)
        return True
    if len(legal) == 1:
        _auto(ctx, seat, legal[0])
        return True
    return False


def _nothing(ctx: Ctx, seat: Seat, prompt: str) -> None:
    """A prompt with no answer at all."""
    if prompt == PLACE_CUBE:
        fx.cube_to_supply(ctx, seat)
    elif prompt == PICK_CARD:
        ctx.say("no_card", seat)
    elif prompt == GUILD_MOVE:
        ctx.say("guild_none", seat)


def _cannot_move(ctx: Ctx, seat: Seat) -> None:
    """Rule R8: phases 1 and 2 are lost; the camel goes to a common tile (W2 next)."""
    ctx.pop()
    kept = tuple(
        p
        for p in ctx.s.stack
        if not (p.prompt == COLLECT or (p.prompt == WINDOW and p.args == ("W1",)))
    )
    ctx.s = replace(ctx.s, stack=kept)
    ctx.push(RELOCATE, seat)
    ctx.say("cannot_move", seat)


def _can_collect(ctx: Ctx, seat: Seat) -> bool:
    """Rule C1: still on the arrival tile, which holds something to take."""
    s = ctx.s
    if s.arrival < 0 or s.table.camel_at(camel_of(seat)) != s.arrival:
        return False
    return bool(tile_items(s.table, s.arrival))


def _drop_targetless(ctx: Ctx, seat: Seat, top: Pending) -> bool:
    """Rule T5: a pending effect with no legal target is skipped."""
    kinds = list(top.args)
    for kind in dict.fromkeys(top.args):
        if not fx.has_target(ctx, seat, kind):
            kinds = [k for k in kinds if k != kind]
            ctx.autos.append((seat, Skip(kind)))
            ctx.say("no_target", seat, kind=kind_term(kind))
    if kinds == list(top.args):
        return False
    if kinds:
        ctx.retop(*kinds)
    else:
        ctx.pop()
    return True


# --------------------------------------------------------------------------- windows


def through_windows(ctx: Ctx, move: Move) -> None:
    """Close the windows a phase step is typed in (§17.3): each closes in turn, the
    steps between them that ask nothing run, until a prompt that is no window (or
    the last window, which ``end`` closes)."""
    turn = (ctx.s.round, ctx.s.active)
    while (top := ctx.top) is not None and top.prompt == WINDOW:
        if isinstance(move, End) and top.args == (LAST_WINDOW,):
            return
        ctx.pop()
        settle(ctx)
        if ctx.s.over or (ctx.s.round, ctx.s.active) != turn:
            return


def window_moves(ctx: Ctx, top: Pending) -> list[Move]:
    """A window's steps: its uses, ``next`` (``end`` in W3), and the next phase's
    steps, which close it."""
    seat = top.seat
    uses = window_uses(ctx, seat)
    if top.args == (LAST_WINDOW,):
        return [*uses, End()]
    after = Ctx(ctx.s)
    turn = (after.s.round, after.s.active)
    through_windows(after, Next())
    if after.s.over or (after.s.round, after.s.active) != turn:
        return [*uses, Next(), End()]
    later = after.top  # no window: closing goes through them all, the last one too
    assert later is not None
    if later.prompt in PHASE_PROMPTS and later.seat == seat:
        return [*uses, Next(), *prompt_moves(after, later)]
    return [*uses, Next()]


def moves_now(ctx: Ctx, seat: Seat) -> list[Move]:
    top = ctx.top
    if ctx.s.over or top is None or top.seat != seat:
        return []
    if top.prompt == WINDOW:
        return window_moves(ctx, top)
    return prompt_moves(ctx, top)


# --------------------------------------------------------------------------- applying a legal step


def apply(ctx: Ctx, seat: Seat, move: Move) -> None:
    """Play one step known to be legal (the engine checked it)."""
    top = ctx.top
    assert top is not None
    if top.prompt == WINDOW:
        if isinstance(move, WINDOW_USES):
            _use(ctx, seat, move)
            return
        if isinstance(move, Next) or (isinstance(move, End) and top.args == (LAST_WINDOW,)):
            ctx.pop()
            return
        turn = (ctx.s.round, ctx.s.active)
        through_windows(ctx, move)
        if ctx.s.over or (ctx.s.round, ctx.s.active) != turn:
            return  # `end` typed before windows that closed themselves
        top = ctx.top
        assert top is not None
        if top.prompt == WINDOW:  # `end` closes the last window
            ctx.pop()
            return
    if isinstance(move, ChooseLeader):
        _choose_leader(ctx, seat, move.leader)
    elif isinstance(move, MoveCamel):
        _move(ctx, seat, top, move)
    elif isinstance(move, Stay):
        ctx.pop()
        ctx.s = replace(ctx.s, arrival=ctx.s.table.camel_at(camel_of(seat)))
        ctx.say("stay", seat)
    elif isinstance(move, Relocate):
        ctx.pop()
        ctx.set_table(ctx.s.table.placed(camel_of(seat), move.tile))
        ctx.say("relocate", seat, tile=tile_name(move.tile))
    elif isinstance(move, Take):
        ctx.pop()
        tile = ctx.s.arrival
        item = item_of(ctx.s.table, tile, move.item)
        assert item is not None
        ctx.say("take", seat, item=item_term(ctx.s.table, item), tile=tile_name(tile))
        fx.take_item(ctx, seat, tile, item)
    elif isinstance(move, PlaceCube):
        ctx.pop()
        fx.place_cube(ctx, seat, move.target)
    elif isinstance(move, UseNow | Keep):
        handle = ctx.pop().args[0]
        if isinstance(move, Keep):
            ctx.say("keep", seat, handle=handle)
        else:
            token = ctx.s.table.token(handle)
            assert token is not None
            fx.use_convoy(ctx, seat, token)
    elif isinstance(move, GuildMove):
        ctx.pop()
        stop = move.stop
        if stop is None:
            stop = resolve_stop(ctx.s.table.snapshot(), move.camel, move.direction, True)
        assert stop is not None
        ctx.set_table(ctx.s.table.placed(move.camel, stop))
        ctx.say("guild", seat, camel=move.camel, tile=tile_name(stop))
    elif isinstance(move, Recruit) and top.prompt == PICK_CARD:
        ctx.pop()
        fx.recruit(ctx, seat, move.position, move.side)
    else:
        _effect(ctx, seat, top, move)


def _choose_leader(ctx: Ctx, seat: Seat, leader: str) -> None:
    ctx.pop()
    leaders = ctx.s.leaders
    ctx.s = replace(ctx.s, leaders=leaders[:seat] + (leader,) + leaders[seat + 1 :])
    ctx.say("leader", seat, leader=Term(f"sahwari.render.leader.{leader}"))
    if not any(p.prompt == LEADER for p in ctx.s.stack):
        ctx.s = with_leaders(ctx.s, ctx.s.leaders)
        start_turn(ctx, 0)


def _move(ctx: Ctx, seat: Seat, top: Pending, move: MoveCamel) -> None:
    camel = camel_of(seat)
    stop = move.stop
    if stop is None:
        stop = resolve_stop(ctx.s.table.snapshot(), camel, move.direction, False)
    assert stop is not None
    ctx.pop()
    ctx.set_table(ctx.s.table.placed(camel, stop))
    ctx.say("move", seat, tile=tile_name(stop))
    explorer = CONTENT.leader(ctx.s.clans[seat].leader).kind == "EXPLORER"
    if top.prompt == MOVE and explorer:
        ctx.push(SECOND_MOVE, seat, move.direction)  # rule R12
    else:
        ctx.s = replace(ctx.s, arrival=stop)  # rule R13


def _use(ctx: Ctx, seat: Seat, move: Move) -> None:
    """A window's ability (rule T2); the window stays below what it pushes."""
    c = ctx.s.clans[seat]
    t = ctx.s.table
    if isinstance(move, UseConvoy):
        token = t.token(move.handle)
        assert token is not None
        fx.use_convoy(ctx, seat, token)
    elif isinstance(move, UseAttack):
        ctx.set_clan(seat, replace(c, attack_tokens=c.attack_tokens - 1))
        ctx.say("use_attack", seat)
        fx.attack(ctx, seat, move.attack, token=True)
    elif isinstance(move, UseStorage):
        ctx.set_clan(seat, clans.lock_storage_ability(c, move.space))
        ability = CONTENT.storage.ability(move.space)
        assert ability is not None
        ctx.say("use_storage", seat, space=move.space, kind=kind_term(ability))
        fx.effects(ctx, seat, (ability,), from_convoy=False)
    elif isinstance(move, UseTrack):
        cost = CONTENT.recruitment.cost(move.ability)
        ctx.set_clan(seat, clans.use_track_ability(c, move.ability, ctx.s.track_used))
        ctx.s = replace(ctx.s, track_used=(*ctx.s.track_used, move.ability))
        to_guild = min(cost, GUILD_SPACES - t.guild_pawns)  # rule S7: the rest leave the game
        ctx.set_table(replace(t, guild_pawns=t.guild_pawns + to_guild))
        ctx.say("use_track", seat, kind=kind_term(move.ability), count=cost, guild=to_guild)
        fx.effects(ctx, seat, (move.ability,), from_convoy=False)
    elif isinstance(move, UseSlot):
        ctx.set_clan(seat, clans.activate_slot_from_storage(c, move.junction))
        ctx.say("use_slot", seat, slot=move.junction)
        fx.trigger_slot(ctx, seat, move.junction)


def _effect(ctx: Ctx, seat: Seat, top: Pending, move: Move) -> None:
    """One pending sibling resolved (or declined) among the others (rule T4)."""
    kind = move.kind if isinstance(move, Skip) else EFFECT_OF.get(type(move), "ATTACK")
    assert kind is not None
    rest = list(top.args)
    rest.remove(kind)
    if rest:
        ctx.retop(*rest)
    else:
        ctx.pop()
    if isinstance(move, Skip):
        ctx.say("skip", seat, kind=kind_term(kind))
    elif isinstance(move, Recruit):
        fx.recruit(ctx, seat, move.position, move.side)
    elif isinstance(move, Refresh):
        fx.refresh(ctx, seat)
    elif isinstance(move, Spy):
        fx.spy(ctx, seat, move.handle)
    elif isinstance(move, Chest):
        fx.chest(ctx, seat)
    elif isinstance(move, Bird):
        item = item_of(ctx.s.table, move.tile, move.item)
        assert item is not None
        fx.bird(ctx, seat, move.camel, move.tile, item)
    elif isinstance(move, Bowl):
        fx.bowl(ctx, seat, move.handle)
    elif isinstance(move, Tornado):
        fx.tornado(ctx, seat, move.camel, move.tile)
    elif isinstance(move, Attack):
        fx.attack(ctx, seat, move, token=False)
