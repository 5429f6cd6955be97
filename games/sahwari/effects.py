"""Sahwari's procedures (§14.3) and effect kinds (§14.1), on a :class:`Ctx`.

A procedure that asks the player something pushes its prompt (rule T4): the
engine's settle loop (``flow.py``) then waits for it or answers it when the
answer is forced (rule T6). Which targets an effect has is judged here, on
public information only (rule H5).
"""

from __future__ import annotations

from dataclasses import replace

from games.contract import Seat
from games.sahwari import board
from games.sahwari import clan as clans
from games.sahwari.content import CONTENT, TRACK_SPACES
from games.sahwari.context import (
    Ctx,
    camel_of,
    is_blue,
    item_term,
    kind_term,
    resolvable,
    seat_of,
    tile_items,
    tile_name,
    tokens_on_map,
)
from games.sahwari.moves import Attack
from games.sahwari.state import CONVOY, EFFECTS, PICK_CARD, PLACE_CUBE
from games.sahwari.table import END_THRESHOLD, GUILD_SPACES, ROW
from games.text import Term

PAWN = "pawn"  # PICK_CARD's detail when a pawn brought the card (no skip, rule C4)


# --------------------------------------------------------------------------- taking items


def take_item(ctx: Ctx, seat: Seat, tile: int, item: str) -> None:
    """An item leaves a tile (collection, BIRD, BOWL) and goes through its GAIN_*
    procedure; an emptied tile flips (rule C6) and the end is checked (E1)."""
    before = ctx.s.table.sides[tile]
    ctx.set_table(ctx.s.table.take(tile, item))
    flipped(ctx, tile, before)
    gain(ctx, seat, item)


def flipped(ctx: Ctx, tile: int, before: str) -> None:
    """Rule C6 and E1: say the flip, and trigger the end the first time the face-up
    resource tiles are few enough (the Guild never counts)."""
    s = ctx.s
    if s.table.sides[tile] == before:
        return
    ctx.say("flip", tile=tile_name(tile))
    if s.trigger == 0 and s.table.face_up() <= END_THRESHOLD[s.players]:
        ctx.s = replace(s, trigger=s.round)
        ctx.say("trigger", count=s.table.face_up())


def gain(ctx: Ctx, seat: Seat, item: str) -> None:
    if item == "A":
        gain_cube(ctx, seat)
    elif item == "R":
        gain_pawn(ctx, seat)
    else:
        gain_convoy(ctx, seat, item)


def gain_cube(ctx: Ctx, seat: Seat) -> None:
    """GAIN_CUBE (rule C3): the player places it (storage or an empty slot)."""
    ctx.push(PLACE_CUBE, seat)


def cube_places(ctx: Ctx, seat: Seat) -> tuple[str, ...]:
    """``storage`` (if not full) and every empty, unpadlocked slot (rules C3, K9)."""
    c = ctx.s.clans[seat]
    room = ("storage",) if c.storage < TRACK_SPACES else ()
    return (*room, *clans.empty_slots(c.row))


def place_cube(ctx: Ctx, seat: Seat, target: str) -> None:
    c = ctx.s.clans[seat]
    if target == "storage":
        ctx.set_clan(seat, clans.store_cube(c))
        ctx.say("cube_storage", seat)
        return
    ctx.set_clan(seat, replace(c, row=clans.put_cube(c.row, target)))
    ctx.say("cube_slot", seat, slot=target)
    trigger_slot(ctx, seat, target)


def cube_to_supply(ctx: Ctx, seat: Seat) -> None:
    """Rule C3, D34: no room for the cube."""
    ctx.set_table(replace(ctx.s.table, cubes=ctx.s.table.cubes + 1))
    ctx.say("cube_lost", seat)


def trigger_slot(ctx: Ctx, seat: Seat, junction: str) -> None:
    """TRIGGER_SLOT (rule K9): the slot's two abilities become pending siblings."""
    inner, outer = clans.slot_abilities(ctx.s.clans[seat].row, junction)
    effects(ctx, seat, (inner, outer), from_convoy=False)


def effects(ctx: Ctx, seat: Seat, kinds: tuple[str, ...], *, from_convoy: bool) -> None:
    """Push resolvable effects as siblings (rule T4). The ATTACK icon of any source
    but a convoy gives an attack token at once (rule A1, T5); a convoy's attacks now."""
    pending: list[str] = []
    for kind in kinds:
        if kind == "ATTACK" and not from_convoy:
            gain_attack_token(ctx, seat)
        else:
            pending.append(kind)
    if pending:
        ctx.push(EFFECTS, seat, *pending)


def gain_attack_token(ctx: Ctx, seat: Seat) -> None:
    t = ctx.s.table
    if t.attack_tokens == 0:
        ctx.say("attack_token_none", seat)
        return
    ctx.set_table(replace(t, attack_tokens=t.attack_tokens - 1))
    c = ctx.s.clans[seat]
    ctx.set_clan(seat, replace(c, attack_tokens=c.attack_tokens + 1))
    ctx.say("attack_token", seat, count=c.attack_tokens + 1)


def gain_pawn(ctx: Ctx, seat: Seat) -> None:
    """GAIN_PAWN (rule C4): the pawn on the track (or back to the supply, D34),
    then a card from the row."""
    c = ctx.s.clans[seat]
    if c.track < TRACK_SPACES:
        ctx.set_clan(seat, clans.add_pawn(c))
        ctx.say("pawn_track", seat, count=c.track + 1)
    else:
        ctx.set_table(replace(ctx.s.table, pawns=ctx.s.table.pawns + 1))
        ctx.say("pawn_lost", seat)
    ctx.push(PICK_CARD, seat, PAWN)


def gain_convoy(ctx: Ctx, seat: Seat, token: str) -> None:
    """GAIN_CONVOY (rule C5): into the clan zone; a blue face seen by the taker only."""
    t = ctx.s.table
    c = ctx.s.clans[seat]
    ctx.set_clan(seat, replace(c, convoys=(*c.convoys, token)))
    handle = t.handle(token)  # the caller said how it was taken (take, bird, bowl)
    if is_blue(token):
        ctx.know(token, seat)
        ctx.tell(seat, "face", handle=handle, face=face_term(token))
    ctx.push(CONVOY, seat, handle)


def face_term(token: str) -> Term:
    """A token's face in words: ``B07 [BIRD, SPY]`` or ``Y01 (+3)`` (§17.5)."""
    content = CONTENT.token(token)
    icons = tuple(
        kind_term(icon) if not icon.startswith("INF") else icon.replace("INF", "")
        for icon in content.icons
    )
    return Term("sahwari.face", {"token": token, "icons": icons})


def use_convoy(ctx: Ctx, seat: Seat, token: str) -> None:
    """Rules V5, V6: reveal the token (public now), mark it used, resolve its icons."""
    c = ctx.s.clans[seat]
    ctx.set_clan(seat, replace(c, used=(*c.used, token)))
    ctx.say("convoy_used", seat, handle=ctx.s.table.handle(token), face=face_term(token))
    effects(ctx, seat, resolvable(token), from_convoy=True)


# --------------------------------------------------------------------------- the recruitment row


def refill_row(ctx: Ctx) -> None:
    """Rule T7.1 and K14: empty positions, left to right, from the deck; the discard
    pile is reshuffled into a new deck when it runs out."""
    t = ctx.s.table
    row, deck, discard, rng = list(t.row), t.deck, t.discard, ctx.s.rng
    for position in range(ROW):
        if row[position]:
            continue
        if not deck and discard:
            deck, rng = rng.shuffled(discard)
            discard = ()
            ctx.say("reshuffle", count=len(deck))
        if not deck:
            break
        row[position], deck = deck[0], deck[1:]
    ctx.set_table(replace(t, row=tuple(row), deck=deck, discard=discard))
    ctx.s = replace(ctx.s, rng=rng)


def row_empty(ctx: Ctx) -> bool:
    return not any(ctx.s.table.row)


def card_choices(ctx: Ctx, seat: Seat) -> tuple[tuple[int, str], ...]:
    """PICK_CARD (rules K3-K6): every (row position, side) the player may choose."""
    row = ctx.s.clans[seat].row
    return tuple(
        (position, side)
        for position, card in enumerate(ctx.s.table.row, start=1)
        if card
        for side in clans.placement_sides(row, card)
    )


def recruit(ctx: Ctx, seat: Seat, position: int, side: str) -> None:
    t = ctx.s.table
    card = t.row[position - 1]
    row = list(t.row)
    row[position - 1] = ""
    ctx.set_table(replace(t, row=tuple(row)))
    c = ctx.s.clans[seat]
    where: clans.Side = "left" if side == "left" else "right"
    placed = clans.place_card(c.row, card, where)
    ctx.set_clan(seat, replace(c, row=placed))
    junction = clans.junction_name(where, len(placed.cards_on(where)))
    slot = clans.junction_state(placed, junction) != clans.DEAD
    key = "recruit_slot" if slot else "recruit_dead"
    ctx.say(key, seat, card=card, side=Term(f"sahwari.side.{side}"), slot=junction)


def refresh(ctx: Ctx, seat: Seat) -> None:
    """REFRESH (F2, rule K14): the row to the discard pile, four new cards."""
    t = ctx.s.table
    ctx.set_table(replace(t, discard=(*t.discard, *(c for c in t.row if c)), row=("",) * ROW))
    refill_row(ctx)
    ctx.say("refresh", seat, cards=tuple(c for c in ctx.s.table.row if c) or "-")


# --------------------------------------------------------------------------- effect targets


def spy_targets(ctx: Ctx, seat: Seat) -> tuple[str, ...]:
    """SPY (F3, rule V9): blue tokens face down on the map or unused in another
    player's zone, by handle. Public information only (H5)."""
    s = ctx.s
    t = s.table
    out = [t.handle(token) for _, token in tokens_on_map(t) if is_blue(token)]
    for other, c in enumerate(s.clans):
        if other != seat:
            out.extend(t.handle(x) for x in c.convoys if is_blue(x) and x not in c.used)
    return tuple(sorted(out, key=_handle_order))


def _handle_order(handle: str) -> tuple[str, int]:
    return handle[0], int(handle[1:])


def bird_targets(ctx: Ctx) -> tuple[tuple[str, int, str], ...]:
    """BIRD (F5): (guild camel, tile next to it, item) for every item there."""
    t = ctx.s.table
    out: list[tuple[str, int, str]] = []
    for camel in board.GUILD_CAMELS:
        for tile in board.adjacent(t.camel_at(camel)):
            for item in dict.fromkeys(tile_items(t, tile)):
                out.append((camel, tile, item))
    return tuple(out)


def bowl_targets(ctx: Ctx) -> tuple[str, ...]:
    """BOWL (F6): every convoy token on the map, by handle."""
    t = ctx.s.table
    return tuple(t.handle(token) for _, token in tokens_on_map(t))


def tornado_targets(ctx: Ctx) -> tuple[tuple[str, int], ...]:
    """TORNADO (F7, D32): any camel onto any tile holding no camel."""
    t = ctx.s.table
    free = [tile for tile in board.TILES if all(at != tile for _, at in t.camels)]
    return tuple((camel, tile) for camel, _ in t.camels for tile in free)


def has_target(ctx: Ctx, seat: Seat, kind: str) -> bool:
    """Whether a pending effect can be resolved at all (rule T5: else it is skipped)."""
    t = ctx.s.table
    if kind == "CARD":
        return any(t.row)
    if kind == "REFRESH":
        return any(t.row) or bool(t.deck) or bool(t.discard)
    if kind == "SPY":
        return bool(spy_targets(ctx, seat))
    if kind == "CHEST":
        return t.cubes > 0
    if kind == "BIRD":
        return bool(bird_targets(ctx))
    if kind == "BOWL":
        return bool(bowl_targets(ctx))
    if kind == "TORNADO":
        return bool(tornado_targets(ctx))
    return bool(attacks(ctx, seat))


# --------------------------------------------------------------------------- effects


def spy(ctx: Ctx, seat: Seat, handle: str) -> None:
    token = ctx.s.table.token(handle)
    assert token is not None
    ctx.know(token, seat)
    ctx.say("spy", seat, handle=handle)
    ctx.tell(seat, "face", handle=handle, face=face_term(token))


def chest(ctx: Ctx, seat: Seat) -> None:
    """CHEST (F4): a cube from the supply, then GAIN_CUBE (C7)."""
    t = ctx.s.table
    ctx.set_table(replace(t, cubes=t.cubes - 1))
    ctx.say("chest", seat)
    gain_cube(ctx, seat)


def bird(ctx: Ctx, seat: Seat, camel: str, tile: int, item: str) -> None:
    ctx.say("bird", seat, camel=camel, tile=tile_name(tile), item=item_term(ctx.s.table, item))
    take_item(ctx, seat, tile, item)


def bowl(ctx: Ctx, seat: Seat, handle: str) -> None:
    t = ctx.s.table
    token = t.token(handle)
    tile = next(at for at, x in tokens_on_map(t) if x == token)
    ctx.say("bowl", seat, handle=handle, tile=tile_name(tile))
    assert token is not None
    take_item(ctx, seat, tile, token)


def tornado(ctx: Ctx, seat: Seat, camel: str, tile: int) -> None:
    """TORNADO (F7): a placement, not a move (rule R14)."""
    ctx.set_table(ctx.s.table.placed(camel, tile))
    ctx.say("tornado", seat, camel=camel, tile=tile_name(tile))


# --------------------------------------------------------------------------- attacks (§10)


def _origin_camel(seat: Seat, origin: str) -> str:
    return camel_of(seat) if origin == "me" else origin


def has_cube(c: clans.Clan) -> bool:
    return c.storage > 0 or bool(clans.filled_slots(c.row))


def attacks(ctx: Ctx, seat: Seat) -> tuple[Attack, ...]:
    """Every legal attack (rules A2-A7): origin, option, target and its details."""
    s = ctx.s
    snap = s.table.snapshot()
    out: list[Attack] = []
    for origin in ("me", *board.GUILD_CAMELS):
        camel = _origin_camel(seat, origin)
        for target in board.guild_camel_targets(snap, camel):
            if target != camel:
                for tile in board.displacement_targets(snap, target):
                    out.append(Attack(origin, "guild", target, None, tile))
        for victim in board.player_camel_targets(snap, camel, camel_of(seat)):
            c = s.clans[seat_of(victim)]
            if not has_cube(c):
                continue  # D20: nothing to take
            slots: tuple[str | None, ...] = (None,) if c.storage else clans.filled_slots(c.row)
            for slot in slots:
                for tile in board.retreat_targets(snap, camel):
                    out.append(Attack(origin, "camel", victim, slot, tile))
        for tile in board.convoy_target_tiles(snap, camel):
            for item in s.table.items[tile]:
                if len(item) == 3:
                    out.append(Attack(origin, "convoy", s.table.handle(item)))
    return tuple(out)


def attack(ctx: Ctx, seat: Seat, a: Attack, *, token: bool) -> None:
    """RESOLVE_ATTACK. ``token``: paid with an attack token (it returns to the supply,
    unless it becomes a padlock, rule A5.2)."""
    camel = _origin_camel(seat, a.origin)
    padlock = False
    if a.option == "guild":
        assert a.tile is not None
        ctx.set_table(ctx.s.table.placed(a.target, a.tile))
        ctx.say("attack_guild", seat, origin=camel, target=a.target, tile=tile_name(a.tile))
    elif a.option == "camel":
        padlock = _attack_camel(ctx, seat, camel, a)
    else:
        t = ctx.s.table
        token_id = t.token(a.target)
        tile = next(at for at, x in tokens_on_map(t) if x == token_id)
        assert token_id is not None
        before = t.sides[tile]
        ctx.set_table(t.take(tile, token_id))
        ctx.s = replace(ctx.s, removed=(*ctx.s.removed, token_id))
        ctx.say("attack_convoy", seat, origin=camel, handle=a.target, tile=tile_name(tile))
        flipped(ctx, tile, before)
    t = ctx.s.table
    if token and not padlock:
        ctx.set_table(replace(t, attack_tokens=t.attack_tokens + 1))
    elif padlock and not token and t.attack_tokens:
        ctx.set_table(replace(t, attack_tokens=t.attack_tokens - 1))


def _attack_camel(ctx: Ctx, seat: Seat, camel: str, a: Attack) -> bool:
    """Rule A5: the victim loses a cube (storage first, else a slot padlocked);
    the cube goes to the Guild (or the supply); the origin camel retreats."""
    victim = seat_of(a.target)
    c = ctx.s.clans[victim]
    padlock = False
    if c.storage:
        ctx.set_clan(victim, clans.take_storage_cube(c))
        ctx.say("attack_storage", seat, origin=camel, target=a.target)
    else:
        assert a.slot is not None
        ctx.set_clan(victim, replace(c, row=clans.remove_cube_and_padlock(c.row, a.slot)))
        ctx.say("attack_slot", seat, origin=camel, target=a.target, slot=a.slot)
        padlock = True
    t = ctx.s.table
    if t.guild_cubes < GUILD_SPACES:
        ctx.set_table(replace(t, guild_cubes=t.guild_cubes + 1))
    else:
        ctx.set_table(replace(t, cubes=t.cubes + 1))
    assert a.tile is not None
    ctx.set_table(ctx.s.table.placed(camel, a.tile))
    ctx.say("retreat", seat, camel=camel, tile=tile_name(a.tile))
    return padlock
