"""What the last play changed on a Sahwari board, for the picture to highlight.

Desert and Oasis keep their last move in the state and hand it to the picture
through the view (``DesertView.last_turn``, ``OasisView.last``). Sahwari's
:class:`LastMove` is that record: camels that went somewhere (their path's
ends), items taken off the map, convoys removed by an attack, cards placed,
slots filled or padlocked, convoys taken or used, seats robbed of a cube and
recruitment-row positions that changed.

:func:`games.sahwari.highlight.last_move` builds it from the public views
before and after a play (``build_view(state, None)``), so it holds public
information only and is the same for every seat (rule H1);
:meth:`LastMove.then` chains the steps of one turn. :func:`dump_last` /
:func:`load_last` give its JSON form for a state.
The picture reads ``view.last`` when the view carries one (see
:func:`games.sahwari.picture.view_last`).

No Pillow and no views here: the state holds the record.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.contract import Seat

Tile = int
Path = tuple[Tile, ...]  # where the camel was, ..., where it is


@dataclass(frozen=True)
class LastMove:
    seat: Seat | None = None  # who played
    camels: tuple[tuple[str, Path], ...] = ()  # camel id, tiles it went through
    taken: tuple[tuple[Tile, str], ...] = ()  # (tile, "A" / "R" / handle) taken off the map
    removed: tuple[tuple[Tile, str], ...] = ()  # (tile, handle) removed by an attack (A6)
    cards: tuple[tuple[Seat, str], ...] = ()  # card placed in a clan row
    slots: tuple[tuple[Seat, str], ...] = ()  # junction that received a cube
    padlocks: tuple[tuple[Seat, str], ...] = ()  # junction padlocked by an attack (A5)
    convoys: tuple[tuple[Seat, str], ...] = ()  # handle taken into a clan zone
    used: tuple[tuple[Seat, str], ...] = ()  # handle used (revealed)
    robbed: tuple[Seat, ...] = ()  # seats an attack took a cube from (A5)
    row: tuple[int, ...] = ()  # recruitment-row positions (0-3) whose card changed

    def __bool__(self) -> bool:
        return any(
            (
                self.camels,
                self.taken,
                self.removed,
                self.cards,
                self.slots,
                self.padlocks,
                self.convoys,
                self.used,
                self.robbed,
                self.row,
            )
        )

    @property
    def tiles(self) -> frozenset[Tile]:
        """Every map tile the play changed: camels' stops, items taken or removed."""
        stops = {path[-1] for _, path in self.camels}
        return frozenset(stops | {t for t, _ in self.taken} | {t for t, _ in self.removed})

    def then(self, later: LastMove) -> LastMove:
        """This play followed by ``later`` (two steps of one turn) as one record."""
        paths = dict(self.camels)
        for camel, path in later.camels:
            before = paths.get(camel)
            paths[camel] = path if before is None else before + path[1:]
        return LastMove(
            seat=later.seat if later.seat is not None else self.seat,
            camels=tuple((c, p) for c, p in paths.items() if p[0] != p[-1] or len(p) > 2),
            taken=self.taken + later.taken,
            removed=self.removed + later.removed,
            cards=self.cards + later.cards,
            slots=_unique(self.slots + later.slots),
            padlocks=_unique(self.padlocks + later.padlocks),
            convoys=self.convoys + later.convoys,
            used=self.used + later.used,
            robbed=tuple(sorted(set(self.robbed + later.robbed))),
            row=tuple(sorted(set(self.row + later.row))),
        )


def _unique(pairs: tuple[tuple[Seat, str], ...]) -> tuple[tuple[Seat, str], ...]:
    return tuple(dict.fromkeys(pairs))


# --------------------------------------------------------------------------- JSON

_PAIRS = ("taken", "removed", "cards", "slots", "padlocks", "convoys", "used")


def dump_last(last: LastMove) -> dict[str, Any]:
    """The record as JSON-ready lists (for a state's dump)."""
    data: dict[str, Any] = {"seat": last.seat}
    data["camels"] = [[camel, list(path)] for camel, path in last.camels]
    for name in _PAIRS:
        data[name] = [list(pair) for pair in getattr(last, name)]
    data["robbed"] = list(last.robbed)
    data["row"] = list(last.row)
    return data


def load_last(data: Mapping[str, Any]) -> LastMove:
    seat = data.get("seat")

    def pairs(name: str) -> tuple[tuple[int, str], ...]:
        return tuple((int(a), str(b)) for a, b in data.get(name, ()))

    return LastMove(
        seat=None if seat is None else int(seat),
        camels=tuple((str(c), tuple(int(t) for t in path)) for c, path in data.get("camels", ())),
        taken=pairs("taken"),
        removed=pairs("removed"),
        cards=pairs("cards"),
        slots=pairs("slots"),
        padlocks=pairs("padlocks"),
        convoys=pairs("convoys"),
        used=pairs("used"),
        robbed=tuple(int(s) for s in data.get("robbed", ())),
        row=tuple(int(p) for p in data.get("row", ())),
    )
