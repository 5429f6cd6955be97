"""What a play changed on the board, read from two public views: the
:class:`~games.sahwari.last_move.LastMove` the engine keeps for the picture.

Apart from the record itself so that the state, which holds the record, does
not depend on the views this reads.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from games.contract import Seat
from games.sahwari import board
from games.sahwari.clan import CUBE, PADLOCK, junctions
from games.sahwari.last_move import LastMove, Path, Tile
from games.sahwari.views import SahwariView


def straight_path(start: Tile, stop: Tile) -> Path:
    """The tiles from ``start`` to ``stop`` when they share a row or a column
    (a move, rule R1); just the two ends otherwise (a placement, rule R14)."""
    (sr, sc), (er, ec) = divmod(start, board.WIDTH), divmod(stop, board.WIDTH)
    if start == stop or (sc != ec and sr != er):
        return (start, stop)
    step = (ec > sc) - (ec < sc) + board.WIDTH * ((er > sr) - (er < sr))
    return tuple(range(start, stop + step, step))


def _items(view: SahwariView, tile: Tile) -> Counter[str]:
    items = Counter(view.items[tile])
    if tile == board.GUILD:
        items.update({"A": view.guild_cubes, "R": view.guild_pawns})
    return items


def last_move(before: SahwariView, after: SahwariView) -> LastMove:
    """What changed from ``before`` to ``after`` (public views, viewer None)."""
    seat = before.prompt_seat if before.prompt_seat is not None else before.active
    was = dict(before.camels)
    camels = tuple(
        (camel, straight_path(was[camel], tile))
        for camel, tile in after.camels
        if camel in was and was[camel] != tile
    )
    newly_removed = set(after.removed) - set(before.removed)
    taken: list[tuple[Tile, str]] = []
    removed: list[tuple[Tile, str]] = []
    guild = (before.guild_cubes, before.guild_pawns) != (after.guild_cubes, after.guild_pawns)
    for tile, (was_there, is_there) in enumerate(zip(before.items, after.items, strict=True)):
        if was_there == is_there and not (guild and tile == board.GUILD):
            continue  # most steps change a tile or two: the others are skipped
        for item, count in (_items(before, tile) - _items(after, tile)).items():
            bucket = removed if item in newly_removed else taken
            bucket.extend((tile, item) for _ in range(count))
    cards: list[tuple[Seat, str]] = []
    slots: list[tuple[Seat, str]] = []
    padlocks: list[tuple[Seat, str]] = []
    convoys: list[tuple[Seat, str]] = []
    used: list[tuple[Seat, str]] = []
    robbed: list[Seat] = []
    for who, (old_clan, new_clan) in enumerate(zip(before.clans, after.clans, strict=True)):
        if old_clan == new_clan:
            continue
        had = set(old_clan.row.cards)
        cards.extend((who, card) for card in new_clan.row.cards if card not in had)
        states = dict(junctions(old_clan.row))
        for name, state in junctions(new_clan.row):
            if state != states.get(name):
                if state == CUBE:
                    slots.append((who, name))
                elif state == PADLOCK:
                    padlocks.append((who, name))
        convoys.extend((who, h) for h in new_clan.convoys if h not in old_clan.convoys)
        used.extend((who, h) for h in new_clan.used if h not in old_clan.used)
        lost_storage = new_clan.storage < old_clan.storage and who != seat
        if lost_storage or any(w == who for w, _ in padlocks):
            robbed.append(who)
    row = tuple(
        pos
        for pos in range(max(len(before.row), len(after.row)))
        if _at(after.row, pos) != _at(before.row, pos)
    )
    return LastMove(
        seat=seat,
        camels=camels,
        taken=tuple(taken),
        removed=tuple(removed),
        cards=tuple(cards),
        slots=tuple(slots),
        padlocks=tuple(padlocks),
        convoys=tuple(convoys),
        used=tuple(used),
        robbed=tuple(robbed),
        row=row,
    )


def _at(row: Sequence[str], pos: int) -> str:
    return row[pos] if pos < len(row) else ""
