"""The working context of one Sahwari step: the state being changed, the events
said so far and the decisions the engine took on its own (rule T6, kept for
D46). Procedures and effects take a :class:`Ctx` and replace ``ctx.s``; the
state itself stays an immutable value.

Also the small readers every procedure needs: whose camel, what a tile holds,
which blue token is hidden from whom.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from games.contract import Event, Seat
from games.sahwari import board
from games.sahwari.clan import Clan
from games.sahwari.content import CONTENT
from games.sahwari.moves import Move
from games.sahwari.state import Pending, SahwariState
from games.sahwari.table import FACE_UP, Table
from games.text import Param, Player, Term


@dataclass
class Ctx:
    s: SahwariState
    events: list[Event] = field(default_factory=list)
    # (seat, step) the engine decided on its own (T6), so a typed repeat is ignored (D46)
    autos: list[tuple[Seat, Move]] = field(default_factory=list)

    # ------------------------------------------------------------------ saying

    def say(self, key: str, seat: Seat | None = None, **params: Param) -> None:
        self.events.append(Event(f"sahwari.log.{key}", _worded(params), seat))

    def tell(self, seat: Seat, key: str, **params: Param) -> None:
        """A private event: only ``seat`` reads it (a blue face, rule H3)."""
        self.events.append(Event(f"sahwari.log.{key}", _worded(params), seat, to=seat))

    # ------------------------------------------------------------------ the stack

    @property
    def top(self) -> Pending | None:
        return self.s.top

    def push(self, prompt: str, seat: Seat, *args: str) -> None:
        self.s = replace(self.s, stack=(*self.s.stack, Pending(prompt, seat, tuple(args))))

    def pop(self) -> Pending:
        top = self.s.stack[-1]
        self.s = replace(self.s, stack=self.s.stack[:-1])
        return top

    def retop(self, *args: str) -> None:
        """The top prompt with new details (an effect resolved among its siblings)."""
        top = self.pop()
        self.push(top.prompt, top.seat, *args)

    # ------------------------------------------------------------------ changing

    def set_table(self, table: Table) -> None:
        self.s = replace(self.s, table=table)

    def set_clan(self, seat: Seat, clan: Clan) -> None:
        clans = self.s.clans
        self.s = replace(self.s, clans=clans[:seat] + (clan,) + clans[seat + 1 :])

    def know(self, token: str, seat: Seat) -> None:
        """Rule H3: ``seat`` has seen the face of blue token ``token`` (never forgotten)."""
        known = dict(self.s.known)
        seen = known.get(token, ())
        if seat not in seen:
            known[token] = tuple(sorted((*seen, seat)))
            self.s = replace(self.s, known=tuple(sorted(known.items())))


# --------------------------------------------------------------------------- readers


def camel_of(seat: Seat) -> str:
    """A seat's camel id, the notation's seat name (``P1`` for seat 0)."""
    return board.PLAYER_CAMELS[seat]


def seat_of(camel: str) -> Seat:
    return board.PLAYER_CAMELS.index(camel)


def is_blue(token: str) -> bool:
    return token.startswith("B")


def tile_items(t: Table, tile: int) -> tuple[str, ...]:
    """What may be taken from a tile: its items, or the Guild's pawns and cubes
    (as ``R`` and ``A``); a desert or an oasis holds nothing."""
    if tile == board.GUILD:
        return ("A",) * t.guild_cubes + ("R",) * t.guild_pawns
    return t.items[tile] if t.sides[tile] == FACE_UP else ()


def item_word(t: Table, item: str) -> str:
    """An item as the notation names it: ``artefact``, ``recruit`` or a handle."""
    return {"A": "artefact", "R": "recruit"}.get(item) or t.handle(item)


def item_of(t: Table, tile: int, word: str) -> str | None:
    """The item a notation word names on a tile, if the tile holds it."""
    held = tile_items(t, tile)
    wanted = {"artefact": "A", "recruit": "R"}.get(word) or t.token(word)
    return wanted if wanted is not None and wanted in held else None


def item_term(t: Table, item: str) -> Param:
    if item in ("A", "R"):
        return Term(f"sahwari.item.{item_word(t, item)}")
    return t.handle(item)


def tokens_on_map(t: Table) -> tuple[tuple[int, str], ...]:
    """(tile, token) for every convoy token lying on the map."""
    return tuple((tile, i) for tile, items in enumerate(t.items) for i in items if len(i) == 3)


def resolvable(token: str) -> tuple[str, ...]:
    """The icons of a token that resolve when it is used (V5); influence waits for E4."""
    return CONTENT.token(token).effects


# Event params that hold a camel id ("P2", "G1"): players read whose camel it is.
CAMEL_PARAMS = ("camel", "origin", "target")


def camel_words(camel: str) -> Param:
    """A camel as players read it: "🔵 Bob's camel" (the platform names the
    player), "guild camel G1"; the notation's ids are for typing."""
    if camel in board.PLAYER_CAMELS:
        return Term("sahwari.camel.player", {"player": Player(seat_of(camel))})
    if camel in board.GUILD_CAMELS:
        return Term("sahwari.camel.guild", {"camel": camel})
    return camel


def _worded(params: dict[str, Param]) -> dict[str, Param]:
    for name in CAMEL_PARAMS:
        value = params.get(name)
        if isinstance(value, str):
            params[name] = camel_words(value)
    return params


def kind_term(kind: str) -> Term:
    return Term(f"sahwari.render.kind.{kind}")


def tile_name(tile: int) -> str:
    return board.name(tile)
