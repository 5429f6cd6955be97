"""The steps a Sahwari prompt accepts (§17.3), in their canonical form.

A move or guild move names its stop only when it is not the direction's
default (its mandatory stop, or its only one, §17.2): ``move E`` rather than
``move E E4``. The parser turns the long form into this one, so a legal move
prints and parses back to itself.
"""

from __future__ import annotations

from collections.abc import Iterator

from games.contract import Seat
from games.sahwari import board
from games.sahwari import clan as clans
from games.sahwari.board import Direction, Snapshot, Tile
from games.sahwari.content import LEADER_IDS
from games.sahwari.context import Ctx, camel_of, item_word, tile_items
from games.sahwari.effects import (
    attacks,
    bird_targets,
    bowl_targets,
    card_choices,
    cube_places,
    has_target,
    spy_targets,
    tornado_targets,
)
from games.sahwari.moves import (
    Bird,
    Bowl,
    Chest,
    ChooseLeader,
    GuildMove,
    Keep,
    Move,
    MoveCamel,
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
    Pending,
)

# The step that resolves each kind of pending effect (rule T4; CARD is ``recruit``).
EFFECT_OF: dict[type, str] = {
    Spy: "SPY",
    Chest: "CHEST",
    Refresh: "REFRESH",
    Bird: "BIRD",
    Bowl: "BOWL",
    Tornado: "TORNADO",
    Recruit: "CARD",
}


def default_stop(snapshot: Snapshot, stops: tuple[Tile, ...]) -> Tile | None:
    """§17.2: the mandatory stop of a direction (a face-up tile ends every scan),
    else its only stop; None when the player must name one."""
    if stops and stops[-1] in snapshot.face_up:
        return stops[-1]
    return stops[0] if len(stops) == 1 else None


def _stops(
    snapshot: Snapshot, camel: str, guild: bool, avoid: Direction | None = None
) -> Iterator[tuple[Direction, Tile | None, Tile]]:
    """(direction, stop as written, stop) for every legal move of a camel."""
    scan = board.guild_stops if guild else board.player_stops
    for direction in board.DIRECTIONS:
        if direction == avoid:
            continue
        stops = scan(snapshot, camel, direction)
        default = default_stop(snapshot, stops)
        for stop in stops:
            yield direction, (None if stop == default else stop), stop


def camel_moves(snapshot: Snapshot, camel: str, avoid: Direction | None = None) -> list[Move]:
    return [MoveCamel(d, written) for d, written, _ in _stops(snapshot, camel, False, avoid)]


def guild_moves(snapshot: Snapshot) -> list[Move]:
    return [
        GuildMove(camel, d, written)
        for camel in board.GUILD_CAMELS
        for d, written, _ in _stops(snapshot, camel, True)
    ]


def resolve_stop(snapshot: Snapshot, camel: str, direction: Direction, guild: bool) -> Tile | None:
    """The stop a move written without one goes to (None: there is no default)."""
    scan = board.guild_stops if guild else board.player_stops
    return default_stop(snapshot, scan(snapshot, camel, direction))


def prompt_moves(ctx: Ctx, p: Pending) -> list[Move]:
    """Every step the prompt ``p`` accepts now (windows are the flow's)."""
    s = ctx.s
    seat = p.seat
    snapshot = s.table.snapshot()
    if p.prompt == LEADER:
        return [ChooseLeader(x) for x in LEADER_IDS if x not in s.leaders]
    if p.prompt == MOVE:
        return camel_moves(snapshot, camel_of(seat))
    if p.prompt == RELOCATE:
        return [Relocate(t) for t in board.COMMON_TILES]
    if p.prompt == SECOND_MOVE:
        first: Direction = p.args[0]  # type: ignore[assignment]  # written by the engine
        return [*camel_moves(snapshot, camel_of(seat), board.opposite(first)), Stay()]
    if p.prompt == COLLECT:
        t = s.table
        return [Take(item_word(t, i)) for i in dict.fromkeys(tile_items(t, s.arrival))]
    if p.prompt == PLACE_CUBE:
        return [PlaceCube(target) for target in cube_places(ctx, seat)]
    if p.prompt == CONVOY:
        return [UseNow(), Keep()]
    if p.prompt == PICK_CARD:
        return [Recruit(position, side) for position, side in card_choices(ctx, seat)]
    if p.prompt == EFFECTS:
        return effect_moves(ctx, seat, p.args)
    if p.prompt == GUILD_MOVE:
        return guild_moves(snapshot)
    raise ValueError(f"no moves listed for prompt {p.prompt}")


def effect_moves(ctx: Ctx, seat: Seat, kinds: tuple[str, ...]) -> list[Move]:
    out: list[Move] = []
    for kind in dict.fromkeys(kinds):
        if not has_target(ctx, seat, kind):
            continue
        if kind == "CARD":
            out.extend(Recruit(pos, side) for pos, side in card_choices(ctx, seat))
        elif kind == "REFRESH":
            out.append(Refresh())
        elif kind == "SPY":
            out.extend(Spy(h) for h in spy_targets(ctx, seat))
        elif kind == "CHEST":
            out.append(Chest())
        elif kind == "BIRD":
            t = ctx.s.table
            out.extend(Bird(c, tile, item_word(t, i)) for c, tile, i in bird_targets(ctx))
        elif kind == "BOWL":
            out.extend(Bowl(h) for h in bowl_targets(ctx))
        elif kind == "TORNADO":
            out.extend(Tornado(c, tile) for c, tile in tornado_targets(ctx))
        else:
            out.extend(attacks(ctx, seat))
        out.append(Skip(kind))
    return out


def window_uses(ctx: Ctx, seat: Seat) -> list[Move]:
    """Rule T2: the abilities usable in a window of one's own turn."""
    s = ctx.s
    c = s.clans[seat]
    t = s.table
    out: list[Move] = [UseConvoy(t.handle(x)) for x in c.convoys if x not in c.used]
    if c.attack_tokens:
        out.extend(UseAttack(a) for a in attacks(ctx, seat))
    out.extend(UseStorage(space) for space, _ in clans.storage_abilities_unlocked(c))
    out.extend(UseTrack(a) for a in clans.track_abilities_affordable(c, s.track_used))
    if c.storage:
        out.extend(UseSlot(j) for j in clans.empty_slots(c.row))
    return out


def window_usable(ctx: Ctx, seat: Seat) -> bool:
    """§17.3: a window is skipped only when nothing in it is usable."""
    s = ctx.s
    c = s.clans[seat]
    return bool(
        any(x not in c.used for x in c.convoys)
        or clans.storage_abilities_unlocked(c)
        or clans.track_abilities_affordable(c, s.track_used)
        or (c.storage and clans.empty_slots(c.row))
        or (c.attack_tokens and attacks(ctx, seat))
    )
