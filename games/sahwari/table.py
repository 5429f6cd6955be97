"""Sahwari's shared table: the map's tiles and items, the Guild's spaces, the
camels, the supplies, the blue tokens' handles and the recruitment cards; and
its setup (spec §4, steps 2-6 and 9).

Items on a tile are kept in placement order as ``"A"`` (artefact cube), ``"R"``
(recruit pawn) or a convoy token's id (``"Y03"``, ``"B11"``). A blue token's
id is secret (rule H2): everything shown outside the engine names it by its
handle (``V1``, ``V2``… in the order setup placed them).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from games.rng import Rng
from games.sahwari import board
from games.sahwari.content import CONTENT, TOKEN_IDS

GUILD_SPACES = 3  # recruit spaces and artefact spaces of the Guild tile (§15.1)
ROW = 4  # recruitment row positions (rule K14)
FACE_UP, DESERT, GUILD, OASIS = "R", "d", "g", "o"  # a tile's side in ``Table.sides``
END_THRESHOLD = {2: 8, 3: 6, 4: 6}  # face-up resource tiles that trigger the end (rule E1)


@dataclass(frozen=True)
class Table:
    sides: str  # per tile (reading order): FACE_UP, DESERT, GUILD or OASIS
    items: tuple[tuple[str, ...], ...]  # per tile, in placement order
    guild_pawns: int  # spent pawns on the Guild's recruit spaces (rule S7)
    guild_cubes: int  # attacked cubes on the Guild's artefact spaces (rule A5)
    camels: tuple[tuple[str, int], ...]  # (camel id, tile), P1… then G1, G2
    handles: tuple[str, ...]  # the blue token id behind V1, V2, …
    cubes: int  # the supply
    pawns: int
    attack_tokens: int
    deck: tuple[str, ...]  # recruit cards, top first (secret order)
    discard: tuple[str, ...]  # face up
    row: tuple[str, ...]  # positions 1-4; "" when empty until phase 4

    # ------------------------------------------------------------------ reading it

    def snapshot(self) -> board.Snapshot:
        """What movement needs: face-up tiles and where the camels are."""
        face_up = frozenset(t for t in board.TILES if self.sides[t] == FACE_UP)
        return board.Snapshot(face_up, self.camels)

    def camel_at(self, camel: str) -> int:
        return dict(self.camels)[camel]

    def face_up(self) -> int:
        """Face-up resource tiles (the Guild never counts, rule E1)."""
        return self.sides.count(FACE_UP)

    def handle(self, token: str) -> str:
        """The public name of a token: a yellow one's id, a blue one's ``Vn``."""
        if token in self.handles:
            return f"V{self.handles.index(token) + 1}"
        return token

    def token(self, handle: str) -> str | None:
        """The token behind a public name, if it was ever placed on the map."""
        if handle.startswith("V") and handle[1:].isdigit():
            number = int(handle[1:])
            return self.handles[number - 1] if 1 <= number <= len(self.handles) else None
        return handle if handle in TOKEN_IDS["yellow"] else None

    # ------------------------------------------------------------------ changing it

    def take(self, tile: int, item: str) -> Table:
        """One item off a tile (or the Guild); an emptied resource tile flips (rule C6)."""
        if tile == board.GUILD:
            if item == "A":
                return replace(self, guild_cubes=self.guild_cubes - 1)
            return replace(self, guild_pawns=self.guild_pawns - 1)
        held = list(self.items[tile])
        held.remove(item)
        items = self.items[:tile] + (tuple(held),) + self.items[tile + 1 :]
        sides = self.sides
        if not held and sides[tile] == FACE_UP:
            sides = sides[:tile] + DESERT + sides[tile + 1 :]
        return replace(self, items=items, sides=sides)

    def placed(self, camel: str, tile: int) -> Table:
        return replace(self, camels=tuple((c, tile if c == camel else t) for c, t in self.camels))


# --------------------------------------------------------------------------- setup


def setup_table(players: int, rng: Rng, random_layout: bool = False) -> tuple[Table, Rng]:
    """Setup steps 2-6 and 9 (§4): the map and its contents, the guild and player
    camels, the recruitment row. Each player's starting cube leaves the supply
    too (step 7: it sits on their storage)."""
    contents = [CONTENT.tile(board.name(t)).items(players) for t in board.RESOURCE_TILES]
    if random_layout:  # the resource tiles change places, each with its own content
        shuffled, rng = rng.shuffled(contents)
        contents = list(shuffled)
    yellow, rng = rng.shuffled(TOKEN_IDS["yellow"])
    blue, rng = rng.shuffled(TOKEN_IDS["blue"])
    bags = {"Y": list(yellow), "B": list(blue)}
    items: list[tuple[str, ...]] = [()] * len(board.TILES)
    handles: list[str] = []
    placed = {"A": 0, "R": 0}
    for tile, letters in zip(board.RESOURCE_TILES, contents, strict=True):  # reading order
        held = []
        for letter in letters:
            if letter in bags:
                token = bags[letter].pop(0)
                held.append(token)
                if letter == "B":
                    handles.append(token)
            else:
                held.append(letter)
                placed[letter] += 1
        items[tile] = tuple(held)
    deck, rng = rng.shuffled(c.id for c in CONTENT.cards)
    sides = "".join(
        GUILD if t == board.GUILD else OASIS if t in board.OASES else FACE_UP for t in board.TILES
    )
    starts = dict(CONTENT.camels)
    camels = tuple(
        (camel, board.parse_tile(starts[camel]))
        for camel in (*board.PLAYER_CAMELS[:players], *board.GUILD_CAMELS)
    )
    supplies = CONTENT.supplies
    table = Table(
        sides=sides,
        items=tuple(items),
        guild_pawns=0,
        guild_cubes=0,
        camels=camels,
        handles=tuple(handles),
        cubes=supplies.cubes - placed["A"] - players * CONTENT.clan_sheet.start_storage,
        pawns=supplies.pawns - placed["R"],
        attack_tokens=supplies.attack_tokens,
        deck=deck[ROW:],
        discard=(),
        row=deck[:ROW],
    )
    return table, rng
