"""Scenario builder for Sahwari rule tests (spec sahwari.md): start a game through
the engine, then set a precise position with ``dataclasses.replace`` while keeping
the state consistent (supplies, blue handles, cards in one place only), and play
typed commands through ``GAME.parse`` / ``GAME.play``.

Tiles are written by name (``"C3"``); seats are 0-based (seat 0 = P1).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from games.contract import Event
from games.sahwari import GAME, flow
from games.sahwari import clan as clans
from games.sahwari.board import RESOURCE_TILES, name, parse_tile
from games.sahwari.clan import Clan, ClanRow
from games.sahwari.context import Ctx
from games.sahwari.state import COLLECT, GUILD_MOVE, MOVE, WINDOW, Pending, SahwariState
from games.sahwari.table import DESERT, FACE_UP, Table

T = parse_tile

# The turn's agenda (rule T1), first step first: (label, prompt, args).
AGENDA: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("W0", WINDOW, ("W0",)),
    ("MOVE", MOVE, ()),
    ("W1", WINDOW, ("W1",)),
    ("COLLECT", COLLECT, ()),
    ("W2", WINDOW, ("W2",)),
    ("GUILD1", GUILD_MOVE, ("1",)),
    ("GUILD2", GUILD_MOVE, ("2",)),
    ("W3", WINDOW, ("W3",)),
)


# --------------------------------------------------------------------------- starting


def started(players: int = 2, leaders: Sequence[str] | None = None, seed: int = 1) -> SahwariState:
    """A new game whose leaders were chosen through the engine (reverse seat order)."""
    leaders = leaders or ("merchant", "diplomat", "brigand", "spy")[:players]
    s = GAME.new(players, seed, {"leaders": "choose", "layout": "standard"})
    for seat in reversed(range(players)):
        s, _ = run(s, seat, f"leader {leaders[seat]}")
    return s


def run(s: SahwariState, seat: int, text: str) -> tuple[SahwariState, list[Event]]:
    """Parse a command (all or nothing) and play every step it yields."""
    events: list[Event] = []
    for move in GAME.parse(s, seat, text):
        step = GAME.play(s, seat, move)
        s = step.state
        events.extend(step.events)
    return s, events


def steps(s: SahwariState, seat: int, text: str) -> list[tuple[str, bool]]:
    """Each played step as (canonical text, ends_turn)."""
    out = []
    for move in GAME.parse(s, seat, text):
        step = GAME.play(s, seat, move)
        s = step.state
        out.append((GAME.format_move(move), step.ends_turn))
    return out


def legal(s: SahwariState, seat: int) -> list[str]:
    return [GAME.format_move(m) for m in GAME.legal_moves(s, seat)]


def keys(events: Iterable[Event]) -> list[str]:
    return [e.key.removeprefix("sahwari.log.") for e in events]


def public(events: Iterable[Event]) -> list[Event]:
    return [e for e in events if e.to is None]


def private(events: Iterable[Event], seat: int) -> list[Event]:
    return [e for e in events if e.to == seat]


def text_of(events: Iterable[Event]) -> str:
    """Every key and param of the events, flattened (to look for leaked ids)."""
    return repr([(e.key, dict(e.params)) for e in events])


# --------------------------------------------------------------------------- the stack


def at(s: SahwariState, seat: int, label: str, *, arrival: str | None = None) -> SahwariState:
    """``seat``'s turn from the agenda step ``label`` on (W0, MOVE, W1, COLLECT, W2,
    GUILD1, GUILD2, W3), settled as the engine settles (rule T6)."""
    labels = [a[0] for a in AGENDA]
    rest = AGENDA[labels.index(label) :]
    stack = tuple(Pending(prompt, seat, args) for _, prompt, args in reversed(rest))
    s = replace(
        s,
        stack=stack,
        active=seat,
        arrival=T(arrival) if arrival else -1,
        track_used=(),
    )
    return settle(s)


def on_top(s: SahwariState, prompt: str, seat: int, *args: str) -> SahwariState:
    """Push one prompt (a pending effect, a cube to place…) and settle."""
    return settle(replace(s, stack=(*s.stack, Pending(prompt, seat, tuple(args)))))


def settle(s: SahwariState) -> SahwariState:
    ctx = Ctx(s)
    flow.settle(ctx)
    return ctx.s


def top(s: SahwariState) -> tuple[str, int, tuple[str, ...]] | None:
    p = s.top
    return None if p is None else (p.prompt, p.seat, p.args)


def prompts(s: SahwariState) -> list[tuple[str, tuple[str, ...]]]:
    """The stack, top first."""
    return [(p.prompt, p.args) for p in reversed(s.stack)]


# --------------------------------------------------------------------------- the map


def items_at(s: SahwariState, tile: str) -> tuple[str, ...]:
    return s.table.items[T(tile)]


def where(s: SahwariState, camel: str) -> str:
    return name(s.table.camel_at(camel))


def where_token(s: SahwariState, token: str) -> str | None:
    for tile, items in enumerate(s.table.items):
        if token in items:
            return name(tile)
    return None


def handle(s: SahwariState, token: str) -> str:
    return s.table.handle(token)


def token_of(s: SahwariState, handle_: str) -> str:
    token = s.table.token(handle_)
    assert token is not None
    return token


def camels(s: SahwariState, **placed: str) -> SahwariState:
    """Put camels on tiles (a placement, nothing collected)."""
    t = s.table
    for camel, tile in placed.items():
        t = t.placed(camel, T(tile))
    t.snapshot()  # rule R5: never two camels on a non-common tile
    return replace(s, table=t)


def tile(s: SahwariState, coord: str, items: Sequence[str]) -> SahwariState:
    """Set a resource tile's items (face up if any, else desert). Cubes and pawns come
    from / go back to the supply; a token comes from where it lies (map or out of play)
    and a token no longer held is out of play (a blue one keeps its handle)."""
    at_ = T(coord)
    assert at_ in RESOURCE_TILES, coord
    t = s.table
    old = t.items[at_]
    items_ = list(t.items)
    handles = list(t.handles)
    for item in items:
        if len(item) == 3 and item not in old:
            for other, held in enumerate(items_):
                if item in held:
                    rest = list(held)
                    rest.remove(item)
                    items_[other] = tuple(rest)
                    if not rest and t.sides[other] == FACE_UP:
                        t = _side(t, other, DESERT)
            if item.startswith("B") and item not in handles:
                handles.append(item)
    items_[at_] = tuple(items)
    cubes = t.cubes - (list(items).count("A") - old.count("A"))
    pawns = t.pawns - (list(items).count("R") - old.count("R"))
    assert cubes >= 0 and pawns >= 0, "not enough cubes/pawns in the supply"
    t = replace(t, items=tuple(items_), handles=tuple(handles), cubes=cubes, pawns=pawns)
    t = _side(t, at_, FACE_UP if items else DESERT)
    return replace(s, table=t)


def deserts(s: SahwariState, *coords: str) -> SahwariState:
    for coord in coords:
        s = tile(s, coord, ())
    return s


def only_face_up(s: SahwariState, *coords: str) -> SahwariState:
    """Every resource tile not named becomes a desert (its items back to the supply)."""
    keep = {T(c) for c in coords}
    for at_ in RESOURCE_TILES:
        if at_ not in keep:
            s = tile(s, name(at_), ())
    return s


def _side(t: Table, at_: int, side: str) -> Table:
    return replace(t, sides=t.sides[:at_] + side + t.sides[at_ + 1 :])


def guild(s: SahwariState, pawns: int = 0, cubes: int = 0) -> SahwariState:
    """Items on the Guild tile's spaces (from the supply)."""
    t = s.table
    t = replace(
        t,
        guild_pawns=pawns,
        guild_cubes=cubes,
        pawns=t.pawns - (pawns - t.guild_pawns),
        cubes=t.cubes - (cubes - t.guild_cubes),
    )
    return replace(s, table=t)


def supply(s: SahwariState, **counts: int) -> SahwariState:
    """Set supplies directly: cubes, pawns, attack_tokens."""
    return replace(s, table=replace(s.table, **counts))


# --------------------------------------------------------------------------- tokens


def swap_tokens(s: SahwariState, a: str, b: str) -> SahwariState:
    """Exchange two token ids everywhere (map, handles, zones, knowledge): a token can be
    put where the setup happened to put another one, the state staying consistent."""

    def sw(x: str) -> str:
        return b if x == a else a if x == b else x

    t = s.table
    table = replace(
        t,
        items=tuple(tuple(sw(i) for i in items) for items in t.items),
        handles=tuple(sw(h) for h in t.handles),
    )
    zones = tuple(
        replace(c, convoys=tuple(sw(x) for x in c.convoys), used=tuple(sw(x) for x in c.used))
        for c in s.clans
    )
    known = tuple(sorted((sw(tok), seats) for tok, seats in s.known))
    return replace(s, table=table, clans=zones, known=known, removed=tuple(map(sw, s.removed)))


def behind(s: SahwariState, handle_: str, token: str) -> SahwariState:
    """Make blue handle ``Vn`` hide ``token`` (swapping it with the token there)."""
    return swap_tokens(s, token_of(s, handle_), token)


def give_convoys(
    s: SahwariState, seat: int, tokens: Sequence[str], used: Sequence[str] = ()
) -> SahwariState:
    """Put tokens in a clan zone (taken off the map if there; a blue token gets a
    handle and its owner knows it, rule H3)."""
    t = s.table
    items_ = [tuple(i for i in held if i not in tokens) for held in t.items]
    for at_, held in enumerate(items_):
        if not held and t.items[at_] and t.sides[at_] == FACE_UP:
            t = _side(t, at_, DESERT)
    handles = list(t.handles)
    known = dict(s.known)
    for token in tokens:
        if token.startswith("B"):
            if token not in handles:
                handles.append(token)
            known[token] = tuple(sorted({*known.get(token, ()), seat}))
    t = replace(t, items=tuple(items_), handles=tuple(handles))
    c = s.clans[seat]
    c = replace(c, convoys=(*c.convoys, *tokens), used=(*c.used, *used))
    s = replace(s, table=t, known=tuple(sorted(known.items())))
    return with_clan(s, seat, c)


# --------------------------------------------------------------------------- clan zones


def with_clan(s: SahwariState, seat: int, c: Clan) -> SahwariState:
    return replace(s, clans=s.clans[:seat] + (c,) + s.clans[seat + 1 :])


def clan(s: SahwariState, seat: int, **changes: object) -> SahwariState:
    """Change a clan zone; storage cubes, track pawns and attack tokens come from (or go
    back to) the supplies."""
    c = s.clans[seat]
    new = replace(c, **changes)  # type: ignore[arg-type]
    t = s.table
    t = replace(
        t,
        cubes=t.cubes - (new.storage - c.storage) - (_filled(new) - _filled(c)),
        pawns=t.pawns - (new.track - c.track),
        attack_tokens=t.attack_tokens - (new.attack_tokens - c.attack_tokens),
    )
    assert t.cubes >= 0 and t.pawns >= 0 and t.attack_tokens >= 0
    return with_clan(replace(s, table=t), seat, new)


def _filled(c: Clan) -> int:
    return len(clans.filled_slots(c.row))


def row(
    left: Sequence[str] = (),
    right: Sequence[str] = (),
    cubes: Iterable[str] = (),
    padlocks: Iterable[str] = (),
) -> ClanRow:
    """A clan row built card by card from the sheet outwards (L1 first, R1 first),
    then cubes and padlocks put on the named junctions."""
    r = ClanRow()
    for card in left:
        r = clans.place_card(r, card, "left")
    for card in right:
        r = clans.place_card(r, card, "right")
    for junction in cubes:
        r = clans.put_cube(r, junction)
    for junction in padlocks:
        r = clans.remove_cube_and_padlock(clans.put_cube(r, junction), junction)
    return r


def with_row(s: SahwariState, seat: int, r: ClanRow, **changes: object) -> SahwariState:
    """Give a clan row (its cards leave the deck, row and discard)."""
    s = _withdraw(s, r.cards)
    return clan(s, seat, row=r, **changes)


def _withdraw(s: SahwariState, cards: Iterable[str]) -> SahwariState:
    cards = set(cards)
    t = s.table
    deck = [c for c in t.deck if c not in cards]
    discard = tuple(c for c in t.discard if c not in cards)
    row_ = list(t.row)
    for i, card in enumerate(row_):
        if card in cards:
            row_[i] = deck.pop(0) if deck else ""
    return replace(s, table=replace(t, deck=tuple(deck), discard=discard, row=tuple(row_)))


def recruitment_row(s: SahwariState, cards: Sequence[str]) -> SahwariState:
    """Set the recruitment row (positions 1-4, "" for empty); the cards it held go
    back on top of the deck."""
    t = s.table
    deck = [c for c in t.deck if c not in cards]
    back = [c for c in t.row if c and c not in cards]
    discard = tuple(c for c in t.discard if c not in cards)
    t = replace(t, row=tuple(cards), deck=(*back, *deck), discard=discard)
    return replace(s, table=t)


def deck(s: SahwariState, top: Sequence[str]) -> SahwariState:
    """Put cards (taken from wherever in deck/discard) on top of the deck, in order."""
    t = s.table
    rest = [c for c in t.deck if c not in top]
    discard = tuple(c for c in t.discard if c not in top)
    return replace(s, table=replace(t, deck=(*top, *rest), discard=discard))


def finished(s: SahwariState) -> SahwariState:
    return replace(s, over=True, stack=())


def count_cubes(s: SahwariState) -> int:
    """Every artefact cube in the game (rule C3, §15.6: 40, none created or lost)."""
    t = s.table
    on_map = sum(items.count("A") for items in t.items)
    zones = sum(c.storage + len(clans.filled_slots(c.row)) for c in s.clans)
    return t.cubes + on_map + t.guild_cubes + zones


def faces(view_faces: Mapping[str, str] | Iterable[tuple[str, str]]) -> dict[str, str]:
    return dict(view_faces)
