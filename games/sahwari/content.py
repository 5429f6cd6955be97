"""Sahwari: the game's content, read from ``content.toml`` and checked at import.

The data file holds every content table of the rules spec (§2-§4, §11, §14, §15): tiles,
clan sheet, tracks, the 36 recruit cards, the 34 convoy tokens, the leaders and supplies.
:func:`validate` runs the content checks of the spec's Appendix B; :data:`CONTENT` refuses to
load (``ValueError`` listing every problem) if one fails. Ids are the notation's strings
(§17.1): tiles ``"A1"``, cards ``"C01"``, tokens ``"Y01"``/``"B01"``, leaders ``"merchant"``.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields
from importlib import resources
from typing import Any, TypeVar

COORDS = tuple(f"{col}{row}" for row in range(1, 6) for col in "ABCDE")  # reading order
GUILD = "C3"
OASES = ("B2", "D2", "B4", "D4")
PLAYER_COUNTS = (2, 3, 4)
ITEMS = "ARYB"  # artefact cube, recruit pawn, yellow token, blue token (§3.2)
COLOURS = ("R", "G", "P", "O")  # recruit card colours (§2)
RESOLVABLE = ("CARD", "REFRESH", "SPY", "CHEST", "BIRD", "BOWL", "TORNADO", "ATTACK")  # F1-F8
CATEGORIES = ("MERCHANT", "DIPLOMAT", "BRIGAND", "SPY", "TRAFFICKER")  # PAIRS(category), F11
LEADER_IDS = ("merchant", "diplomat", "brigand", "spy", "trafficker", "explorer")  # §17.1
SYMBOLS = ("cubes", "cards", "convoys", "spy", "attack")  # the E4 counting symbols
CARD_IDS = tuple(f"C{i:02}" for i in range(1, 37))
TOKEN_IDS = {
    "yellow": tuple(f"Y{i:02}" for i in range(1, 21)),
    "blue": tuple(f"B{i:02}" for i in range(1, 15)),
}
TRACK_SPACES = 8  # storage and recruitment tracks (§11)
MIN_CUBES_LEFT = 8  # Appendix B: the cube supply keeps at least 8 at every player count
T = TypeVar("T")
_INF = re.compile(r"INF([+-])([1-9][0-9]*)")  # influence icon: blue circle (+) / red circle (-)


def influence(icon: str) -> int | None:
    """The influence of an ``INF+n`` / ``INF-n`` icon; None for any other icon."""
    match = _INF.fullmatch(icon)
    return None if match is None else int(match[2]) * (1 if match[1] == "+" else -1)


# --------------------------------------------------------------------------- the content


@dataclass(frozen=True)
class MapTile:
    """One map square (§15.1): kind ``guild``/``oasis``/``resource`` and its item letters."""

    coord: str
    kind: str
    base: str  # every player count
    plus3: str  # added with 3-4 players
    plus4: str  # added with 4 players
    totals: tuple[int, int, int]  # the table's printed totals for 2 / 3 / 4 players

    def items(self, players: int) -> str:
        """Starting items with that many players, in placement order (setup step 4)."""
        if players not in PLAYER_COUNTS:
            raise ValueError(f"Sahwari is for 2-4 players, not {players}")
        return (
            self.base + (self.plus3 if players >= 3 else "") + (self.plus4 if players == 4 else "")
        )


@dataclass(frozen=True)
class Edge:
    """A card edge (K2): its colour band and its half-slot's ability icon and value."""

    colour: str
    ability: str
    value: int


@dataclass(frozen=True)
class Card:
    id: str
    left: Edge
    right: Edge
    clan: str | None  # PAIRS category, scored when activated on both sides (K13)
    influence: int  # printed influence


@dataclass(frozen=True)
class Token:
    id: str
    colour: str  # "yellow" (face up) or "blue" (face down)
    icons: tuple[str, ...]  # resolvable kinds and INF+n / INF-n, as printed
    influence: int  # the table's "influence at end" (checked: the sum of the INF icons)

    @property
    def effects(self) -> tuple[str, ...]:
        """The icons resolved when the token is used (V5); influence waits for the end."""
        return tuple(icon for icon in self.icons if icon in RESOLVABLE)


@dataclass(frozen=True)
class Opening:
    """A clan sheet edge (§15.2): the colours it accepts and its half-slot."""

    colours: tuple[str, ...]
    ability: str
    value: int


@dataclass(frozen=True)
class ClanSheet:
    left: Opening
    right: Opening
    lock_tokens: int  # per player (S3)
    start_storage: int  # cubes on the storage track at setup


@dataclass(frozen=True)
class StorageTrack:
    values: tuple[int, ...]  # STORAGE_VALUE[k], k = 0..8 cubes (S2)
    abilities: tuple[tuple[int, str], ...]  # (space, ability under it) (S3)

    def ability(self, space: int) -> str | None:
        return dict(self.abilities).get(space)


@dataclass(frozen=True)
class RecruitmentTrack:
    values: tuple[int, ...]  # TRACK_VALUE[k], k = 0..8 pawns (S5)
    abilities: tuple[tuple[str, int], ...]  # (track ability, cost in pawns) (S6)

    def cost(self, ability: str) -> int:
        return dict(self.abilities)[ability]


@dataclass(frozen=True)
class Leader:
    id: str
    kind: str  # "PAIRS" or "EXPLORER" (§14.2)
    category: str | None  # the PAIRS category; None for the Explorer


@dataclass(frozen=True)
class Formula:
    """A PAIRS formula (§15.5): ``half x`` = floor(x / 2), ``min x y`` = min(x, y)."""

    op: str
    args: tuple[str, ...]  # E4 counting symbols


@dataclass(frozen=True)
class Supplies:
    """How many of each component the box holds (§2, §15.6)."""

    cubes: int
    pawns: int
    yellow_tokens: int
    blue_tokens: int
    attack_tokens: int
    lock_tokens: int
    recruit_cards: int
    recruitment_row: int


@dataclass(frozen=True)
class SetupFigures:
    """Per player count figures (§4, §15.6); also what :func:`setup_figures` recomputes."""

    players: int
    map_items: tuple[int, int, int, int]  # A / R / Y / B on the map
    map_total: int
    cubes_left: int  # in the supply after setup
    pawns_left: int
    unused_tokens: tuple[int, int]  # yellow, blue: out of play


@dataclass(frozen=True)
class CardStats:
    """The card statistics §15.3 states (checked against the rows)."""

    same_colour_pair: int
    two_colour_pair: int
    edges_per_colour: int
    edge_abilities: tuple[tuple[str, int], ...]
    clan_cards: tuple[tuple[str, tuple[str, ...]], ...]
    printed_influence: tuple[tuple[int, int], ...]  # (printed value, number of cards)


@dataclass(frozen=True)
class TokenStats:
    """The token totals §15.4 states and the INF ranges of §14.2."""

    yellow_influence: int
    blue_influence: int
    blue_negative: int
    inf_plus: tuple[int, int]
    inf_minus: tuple[int, int]


@dataclass(frozen=True)
class Content:
    supplies: Supplies
    setups: tuple[SetupFigures, ...]  # as stated by the spec
    tiles: tuple[MapTile, ...]  # reading order
    camels: tuple[tuple[str, str], ...]  # (camel, starting tile)
    drawing: str  # the §3.2 map drawing, a cross-check of the tiles
    clan_sheet: ClanSheet
    storage: StorageTrack
    recruitment: RecruitmentTrack
    cards: tuple[Card, ...]
    card_stats: CardStats
    tokens: tuple[Token, ...]
    token_stats: TokenStats
    leaders: tuple[Leader, ...]
    formulas: tuple[tuple[str, Formula], ...]  # (PAIRS category, formula)
    sources: tuple[tuple[str, tuple[str, ...]], ...]  # §14.4: (component, kinds it carries)

    def tile(self, coord: str) -> MapTile:
        return _find(self.tiles, coord, lambda t: t.coord)

    def card(self, card_id: str) -> Card:
        return _find(self.cards, card_id, lambda c: c.id)

    def token(self, token_id: str) -> Token:
        return _find(self.tokens, token_id, lambda t: t.id)

    def leader(self, leader_id: str) -> Leader:
        return _find(self.leaders, leader_id, lambda leader: leader.id)

    def formula(self, category: str) -> Formula:
        return dict(self.formulas)[category]

    def starting_items(self, coord: str, players: int) -> str:
        """Item letters on a tile after setup with that many players, e.g. ``"AABYR"``."""
        return self.tile(coord).items(players)


def _find(items: tuple[T, ...], key: str, key_of: Callable[[T], str]) -> T:
    for item in items:
        if key_of(item) == key:
            return item
    raise KeyError(key)


def setup_figures(content: Content, players: int) -> SetupFigures:
    """Recompute the §4 figures for a player count from the tiles and supplies."""
    counts = Counter("".join(tile.items(players) for tile in content.tiles))
    a, r, y, b = (counts[letter] for letter in ITEMS)
    supplies = content.supplies
    return SetupFigures(
        players=players,
        map_items=(a, r, y, b),
        map_total=a + r + y + b,
        cubes_left=supplies.cubes - a - content.clan_sheet.start_storage * players,
        pawns_left=supplies.pawns - r,
        unused_tokens=(supplies.yellow_tokens - y, supplies.blue_tokens - b),
    )


# --------------------------------------------------------------------------- loading


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"sahwari content.toml: {where}: expected a number, got {value!r}")
    return value


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"sahwari content.toml: {where}: expected text, got {value!r}")
    return value


def _list(value: Any, where: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list) or length not in (None, len(value)):
        wanted = "a list" if length is None else f"a list of {length}"
        raise ValueError(f"sahwari content.toml: {where}: expected {wanted}, got {value!r}")
    return value


def _ints(value: Any, where: str, length: int | None = None) -> tuple[int, ...]:
    return tuple(_int(v, where) for v in _list(value, where, length))


def _none(text: str) -> str:
    """The tables write "-" for "nothing"."""
    return "" if text == "-" else text


def _tile(row: list[Any]) -> MapTile:
    where = f"map tile {row[0]!r}"
    coord, kind, base, plus3, plus4 = (_str(v, where) for v in row[:5])
    t2, t3, t4 = (_int(v, where) for v in row[5:])
    return MapTile(coord, kind, _none(base), _none(plus3), _none(plus4), (t2, t3, t4))


def _card(row: list[Any]) -> Card:
    where = f"card {row[0]!r}"
    card_id, lc, la, lv, rc, ra, rv, clan, printed = row
    left = Edge(_str(lc, where), _str(la, where), _int(lv, where))
    right = Edge(_str(rc, where), _str(ra, where), _int(rv, where))
    clan = _none(_str(clan, where)) or None
    return Card(_str(card_id, where), left, right, clan, _int(printed, where))


def _token(row: list[Any]) -> Token:
    where = f"token {row[0]!r}"
    token_id, colour, *icons = (_str(v, where) for v in row[:4])
    return Token(token_id, colour, tuple(i for i in icons if i != "-"), _int(row[4], where))


def _opening(data: dict[str, Any], where: str) -> Opening:
    colours = tuple(_str(c, where) for c in _list(data["colours"], where))
    return Opening(colours, _str(data["ability"], where), _int(data["value"], where))


def _setup(data: dict[str, Any]) -> SetupFigures:
    where = "setup"
    a, r, y, b = _ints(data["map_items"], where, 4)
    yellow, blue = _ints(data["unused_tokens"], where, 2)
    return SetupFigures(
        _int(data["players"], where),
        (a, r, y, b),
        _int(data["map_total"], where),
        _int(data["cubes_left"], where),
        _int(data["pawns_left"], where),
        (yellow, blue),
    )


def _card_stats(stated: dict[str, Any]) -> CardStats:
    return CardStats(
        _int(stated["same_colour_pair"], "same_colour_pair"),
        _int(stated["two_colour_pair"], "two_colour_pair"),
        _int(stated["edges_per_colour"], "edges_per_colour"),
        tuple((k, _int(n, k)) for k, n in stated["edge_abilities"].items()),
        tuple(
            (k, tuple(_str(i, k) for i in _list(ids, k))) for k, ids in stated["clan_cards"].items()
        ),
        tuple((int(v), _int(n, v)) for v, n in stated["printed_influence"].items()),
    )


def _leader(row: list[Any]) -> Leader:
    leader_id, kind, category = (_str(v, f"leader {row[0]!r}") for v in row)
    return Leader(leader_id, kind, _none(category) or None)


def _formula(category: str, text: Any) -> tuple[str, Formula]:
    op, *args = _str(text, f"formula {category}").split()
    return category, Formula(op, tuple(args))


def parse(text: str) -> Content:
    """Build the content from the TOML text (shape errors raise; rules are :func:`validate`'s)."""
    try:
        data = tomllib.loads(text)
        supplies = Supplies(
            **{f.name: _int(data["supplies"][f.name], f.name) for f in fields(Supplies)}
        )
        board, sheet = data["map"], data["clan_sheet"]
        storage, recruitment = data["storage"], data["recruitment"]
        cards, tokens = data["cards"], data["tokens"]
        leaders, kinds = data["leaders"], data["kinds"]
        totals = tokens["stated"]
        inf_plus = _ints(kinds["inf_plus"], "inf_plus", 2)
        inf_minus = _ints(kinds["inf_minus"], "inf_minus", 2)
        return Content(
            supplies=supplies,
            setups=tuple(_setup(s) for s in _list(data["setup"], "setup")),
            tiles=tuple(_tile(_list(r, "map tiles", 8)) for r in _list(board["tiles"], "map")),
            camels=tuple((name, _str(at, name)) for name, at in board["camels"].items()),
            drawing=_str(board["drawing"], "map drawing"),
            clan_sheet=ClanSheet(
                _opening(sheet["left"], "clan sheet left"),
                _opening(sheet["right"], "clan sheet right"),
                _int(sheet["lock_tokens"], "lock_tokens"),
                _int(sheet["start_storage"], "start_storage"),
            ),
            storage=StorageTrack(
                _ints(storage["values"], "storage values"),
                tuple((int(s), _str(k, "storage")) for s, k in storage["abilities"].items()),
            ),
            recruitment=RecruitmentTrack(
                _ints(recruitment["values"], "recruitment values"),
                tuple((k, _int(c, k)) for k, c in recruitment["abilities"].items()),
            ),
            cards=tuple(_card(_list(r, "cards", 9)) for r in _list(cards["rows"], "cards")),
            card_stats=_card_stats(cards["stated"]),
            tokens=tuple(_token(_list(r, "tokens", 5)) for r in _list(tokens["rows"], "tokens")),
            token_stats=TokenStats(
                _int(totals["yellow_influence"], "yellow_influence"),
                _int(totals["blue_influence"], "blue_influence"),
                _int(totals["blue_negative"], "blue_negative"),
                (inf_plus[0], inf_plus[1]),
                (inf_minus[0], inf_minus[1]),
            ),
            leaders=tuple(
                _leader(_list(r, "leaders", 3)) for r in _list(leaders["rows"], "leaders")
            ),
            formulas=tuple(_formula(k, v) for k, v in leaders["formulas"].items()),
            sources=tuple(
                (k, tuple(_str(i, k) for i in _list(v, k))) for k, v in kinds["sources"].items()
            ),
        )
    except (tomllib.TOMLDecodeError, KeyError, AttributeError, TypeError, IndexError) as error:
        raise ValueError(f"sahwari content.toml: cannot read it ({error!r})") from error


def load(text: str | None = None) -> Content:
    """Read and check the packaged content (or ``text``); ``ValueError`` lists every problem."""
    if text is None:
        text = resources.files(__package__).joinpath("content.toml").read_text("utf-8")
    content = parse(text)
    problems = validate(content)
    if problems:
        raise ValueError("sahwari content.toml fails its checks:\n" + "\n".join(problems))
    return content


# --------------------------------------------------------------------------- checks (Appendix B)


def validate(content: Content) -> list[str]:
    """Every Appendix B content check; one readable line per problem, [] when all pass."""
    return [
        *_check_tiles(content),
        *_check_drawing(content),
        *_check_setups(content),
        *_check_cards(content),
        *_check_tokens(content),
        *_check_kinds(content),
        *_check_leaders(content),
        *_check_sheet_and_tracks(content),
    ]


def _is_kind(icon: str) -> bool:
    """One of the §14 icon kinds: a resolvable kind or INF+n / INF-n."""
    return icon in RESOLVABLE or influence(icon) is not None


def _check_ids(what: str, got: tuple[str, ...], want: tuple[str, ...]) -> Iterator[str]:
    if got != want:
        missing, extra = sorted(set(want) - set(got)), sorted(set(got) - set(want))
        yield f"{what}: expected {want[0]}..{want[-1]} in order, missing {missing}, extra {extra}"


def _check_tiles(c: Content) -> Iterator[str]:
    yield from _check_ids("tiles", tuple(t.coord for t in c.tiles), COORDS)
    for t in c.tiles:
        kind = "guild" if t.coord == GUILD else "oasis" if t.coord in OASES else "resource"
        letters = t.base + t.plus3 + t.plus4
        if t.kind != kind:
            yield f"tile {t.coord}: kind {t.kind!r}, §3.1 makes it {kind!r}"
        if set(letters) - set(ITEMS):
            yield f"tile {t.coord}: unknown item letters in {letters!r} (A R Y B only)"
        if kind != "resource" and letters:
            yield f"tile {t.coord}: {kind} tiles hold no resources, got {letters!r}"
        if kind == "resource" and not t.base:
            yield f"tile {t.coord}: a resource tile has a base content"
        held = tuple(len(t.items(n)) for n in PLAYER_COUNTS)
        if held != t.totals:
            yield f"tile {t.coord}: printed totals 2p/3p/4p {t.totals}, its contents hold {held}"
    camels = dict(c.camels)
    if sorted(camels) != ["G1", "G2", "P1", "P2", "P3", "P4"]:
        yield f"camels: expected G1 G2 P1-P4, got {' '.join(camels)}"
    if any(camels.get(g) != GUILD for g in ("G1", "G2")):
        yield "camels: the guild camels start on the Guild (C3)"
    players = [camels.get(p) for p in ("P1", "P2", "P3", "P4")]
    if sorted(map(str, players)) != sorted(OASES):
        yield f"camels: the player camels start one per oasis, got {players}"


_BOX_CAMELS = re.compile(r"\(([^)]*)\)")


def read_drawing(text: str) -> tuple[dict[str, tuple[str, str, str, str]], dict[str, str]]:
    """The §3.2 drawing read back: coord -> (kind, base, +3p, +4p), and camel -> coord."""
    lines = [line for line in text.splitlines() if "|" in line]
    if len(lines) != 15:
        raise ValueError(f"expected 5 rows of 3 boxed lines, got {len(lines)} boxed lines")
    tiles: dict[str, tuple[str, str, str, str]] = {}
    camels: dict[str, str] = {}
    for row in range(5):
        group = lines[3 * row : 3 * row + 3]
        label = group[0].split("|")[0].strip()
        boxes = [line.split("|")[1:-1] for line in group]
        if label != str(row + 1) or any(len(b) != 5 for b in boxes):
            raise ValueError(f"row {row + 1}: expected the label {row + 1} and 5 boxes")
        for col in range(5):
            coord = f"{'ABCDE'[col]}{row + 1}"
            box = " ".join(b[col] for b in boxes)
            for names in _BOX_CAMELS.findall(box):
                camels.update((name, coord) for name in names.split())
            kind, base, extra = "resource", "", {"+3p": "", "+4p": ""}
            for word in _BOX_CAMELS.sub(" ", box).split():
                if word in ("GUILD", "OASIS"):
                    kind = word.lower()
                elif word[:4] in ("+3p:", "+4p:"):
                    extra[word[:3]] = _none(word[4:])
                else:
                    base += word
            tiles[coord] = (kind, base, extra["+3p"], extra["+4p"])
    return tiles, camels


def _check_drawing(c: Content) -> Iterator[str]:
    try:
        drawn, camels = read_drawing(c.drawing)
    except ValueError as error:
        yield f"map drawing: cannot read it: {error}"
        return
    for t in c.tiles:
        table = (t.kind, t.base, t.plus3, t.plus4)
        if drawn.get(t.coord) != table:
            yield f"map drawing: tile {t.coord} shows {drawn.get(t.coord)}, the table {table}"
    if camels != dict(c.camels):
        yield f"map drawing: camels {camels}, the table {dict(c.camels)}"


def _check_setups(c: Content) -> Iterator[str]:
    stated = {s.players: s for s in c.setups}
    if sorted(stated) != list(PLAYER_COUNTS):
        yield f"setup: expected figures for 2, 3 and 4 players, got {sorted(stated)}"
    for players in PLAYER_COUNTS:
        got = setup_figures(c, players)
        if got.cubes_left < MIN_CUBES_LEFT:
            yield f"setup {players}p: only {got.cubes_left} cubes left in the supply (need 8)"
        if got.pawns_left < 0:
            yield f"setup {players}p: the map needs {-got.pawns_left} more pawns than exist"
        for colour, unused in zip(("yellow", "blue"), got.unused_tokens, strict=True):
            if unused < 0:
                yield f"setup {players}p: the map needs {-unused} more {colour} tokens than exist"
        if players in stated:
            for f in fields(SetupFigures):
                said, real = getattr(stated[players], f.name), getattr(got, f.name)
                if said != real:
                    yield f"setup {players}p: {f.name} stated {said}, the content gives {real}"


def _check_cards(c: Content) -> Iterator[str]:
    stats = c.card_stats
    yield from _check_ids("cards", tuple(card.id for card in c.cards), CARD_IDS)
    if len(c.cards) != c.supplies.recruit_cards:
        yield f"cards: {len(c.cards)} rows, {c.supplies.recruit_cards} in the box (§2)"
    for card in c.cards:
        for side, edge in (("left", card.left), ("right", card.right)):
            if (
                edge.colour not in COLOURS
                or edge.ability not in RESOLVABLE
                or edge.value not in (0, 1, 2)
            ):
                yield f"card {card.id}: bad {side} edge {edge} (colour R/G/P/O, §14.1 kind, 0-2)"
        if card.clan not in (None, *CATEGORIES) or card.influence not in (0, 1, 2):
            yield f"card {card.id}: bad clan ability {card.clan} or influence {card.influence}"
        if card.clan and card.influence != 0:
            yield f"card {card.id}: a clan card has printed influence 0 (§15.3)"
    pairs = Counter((card.left.colour, card.right.colour) for card in c.cards)
    for a in COLOURS:
        for b in COLOURS:
            want = stats.same_colour_pair if a == b else stats.two_colour_pair
            if pairs[a, b] != want:
                yield f"cards: colour pair {a}-{b} on {pairs[a, b]} cards, §15.3 states {want}"
        for side in ("left", "right"):
            n = sum(getattr(card, side).colour == a for card in c.cards)
            if n != stats.edges_per_colour:
                yield f"cards: {a} on {n} {side} edges, §15.3 states {stats.edges_per_colour}"
    abilities = Counter(e.ability for card in c.cards for e in (card.left, card.right))
    stated = dict(stats.edge_abilities)
    for kind in sorted(set(abilities) | set(stated)):
        if abilities[kind] != stated.get(kind, 0):
            yield f"cards: {kind} on {abilities[kind]} edges, §15.3 states {stated.get(kind, 0)}"
    clan = dict(stats.clan_cards)
    for category in CATEGORIES:
        have = tuple(card.id for card in c.cards if card.clan == category)
        if have != clan.get(category) or len(have) != 2:
            yield f"cards: {category} clan cards {have}, §15.3 states {clan.get(category)} (2 each)"
    printed = dict(Counter(card.influence for card in c.cards))
    if sorted(printed.items()) != sorted(stats.printed_influence):
        yield f"cards: printed influence {printed}, §15.3 states {dict(stats.printed_influence)}"


def _check_tokens(c: Content) -> Iterator[str]:
    stats = c.token_stats
    for colour, want in TOKEN_IDS.items():
        ids = tuple(t.id for t in c.tokens if t.colour == colour)
        yield from _check_ids(f"{colour} tokens", ids, want)
        boxed = getattr(c.supplies, f"{colour}_tokens")
        if len(ids) != boxed:
            yield f"{colour} tokens: {len(ids)} rows, {boxed} in the box (§2)"
    if any(t.colour not in TOKEN_IDS for t in c.tokens):
        yield "tokens: colour is yellow or blue"
    for t in c.tokens:
        values = [v for v in map(influence, t.icons) if v is not None]
        if not 1 <= len(t.icons) <= 2 or not all(map(_is_kind, t.icons)):
            yield f"token {t.id}: 1-2 icons of the §14 kinds, got {t.icons}"
        if sum(values) != t.influence:
            yield f"token {t.id}: influence at end {t.influence:+}, its INF icons {sum(values):+}"
        if t.colour == "yellow" and any(v < 0 for v in values):
            yield f"token {t.id}: a yellow token is never negative (V2)"
    yellow = [t.influence for t in c.tokens if t.colour == "yellow"]
    blue = [t.influence for t in c.tokens if t.colour == "blue"]
    if not (any(v > 0 for v in blue) and any(v < 0 for v in blue)):
        yield "tokens: blue tokens are both positive and negative (§15.4)"
    for name, got, said in (
        ("yellow influence", sum(yellow), stats.yellow_influence),
        ("blue influence", sum(blue), stats.blue_influence),
        ("negative blue tokens", sum(v < 0 for v in blue), stats.blue_negative),
    ):
        if got != said:
            yield f"tokens: {name} {got}, §15.4 states {said}"


def _source_kinds(c: Content) -> dict[str, set[str]]:
    """The kinds each §14.4 source really carries (INF icons as INF+n / INF-n)."""

    def token_kinds(colour: str) -> set[str]:
        icons = [i for t in c.tokens if t.colour == colour for i in t.icons]
        return {i if influence(i) is None else f"INF{i[3]}n" for i in icons}

    return {
        "card_edges": {e.ability for card in c.cards for e in (card.left, card.right)},
        "clan_sheet": {c.clan_sheet.left.ability, c.clan_sheet.right.ability},
        "storage": {kind for _, kind in c.storage.abilities},
        "track": {kind for kind, _ in c.recruitment.abilities},
        "yellow_tokens": token_kinds("yellow"),
        "blue_tokens": token_kinds("blue"),
        "leaders": {leader.kind for leader in c.leaders} | {"PAIRS" for x in c.cards if x.clan},
    }


def _check_kinds(c: Content) -> Iterator[str]:
    real = _source_kinds(c)
    stated = {k: set(v) for k, v in c.sources}
    if set(stated) != set(real):
        yield f"kinds: §14.4 sources are {sorted(real)}, got {sorted(stated)}"
    for source, kinds in stated.items():
        if "INF±n" in kinds:
            kinds = kinds - {"INF±n"} | {"INF+n", "INF-n"}
        if source in real and kinds != real[source]:
            yield f"kinds: {source} carries {sorted(real[source])}, §14.4 states {sorted(kinds)}"
    used = set().union(*(real[s] for s in real if s != "leaders"))
    for kind in RESOLVABLE:
        if kind not in used:
            yield f"kinds: the resolvable kind {kind} is used nowhere"
    values = [v for t in c.tokens for v in map(influence, t.icons) if v is not None]
    for name, got, said in (
        ("INF+n", [v for v in values if v > 0], c.token_stats.inf_plus),
        ("INF-n", [-v for v in values if v < 0], c.token_stats.inf_minus),
    ):
        if got and (min(got), max(got)) != said:
            yield f"kinds: {name} on tokens for n = {min(got)}..{max(got)}, §14.2 states {said}"


def _check_leaders(c: Content) -> Iterator[str]:
    yield from _check_ids("leaders", tuple(leader.id for leader in c.leaders), LEADER_IDS)
    for leader in c.leaders:
        pairs = leader.kind == "PAIRS" and leader.category in CATEGORIES
        if not pairs and (leader.kind, leader.category) != ("EXPLORER", None):
            yield f"leader {leader.id}: PAIRS(category) or EXPLORER, got {leader}"
    categories = [leader.category for leader in c.leaders if leader.category]
    if sorted(categories) != sorted(CATEGORIES):
        yield f"leaders: one leader per PAIRS category, got {categories}"
    formulas = dict(c.formulas)
    if sorted(formulas) != sorted(CATEGORIES):
        yield f"formulas: one per PAIRS category, got {sorted(formulas)}"
    for category, f in formulas.items():
        if {"half": 1, "min": 2}.get(f.op) != len(f.args) or set(f.args) - set(SYMBOLS):
            yield f"formula {category}: 'half x' or 'min x y' over {' '.join(SYMBOLS)}, got {f}"


def _check_sheet_and_tracks(c: Content) -> Iterator[str]:
    sheet = c.clan_sheet
    for side, opening in (("left", sheet.left), ("right", sheet.right)):
        if not opening.colours or set(opening.colours) - set(COLOURS):
            yield f"clan sheet: the {side} opening accepts some of R G P O, got {opening.colours}"
        if opening.ability not in RESOLVABLE or opening.value not in (0, 1, 2):
            yield f"clan sheet: bad {side} half-slot {opening.ability} {opening.value}"
    if set(sheet.left.colours) | set(sheet.right.colours) != set(COLOURS):
        yield "clan sheet: every card colour connects to one opening (D13)"
    if sheet.lock_tokens * max(PLAYER_COUNTS) != c.supplies.lock_tokens:
        yield f"clan sheet: {sheet.lock_tokens} locks each, {c.supplies.lock_tokens} in the box"
    for name, values in (("storage", c.storage.values), ("recruitment", c.recruitment.values)):
        if len(values) != TRACK_SPACES + 1 or list(values) != sorted(values):
            yield f"{name} track: 9 values that never decrease, got {values}"
    spaces = [space for space, _ in c.storage.abilities]
    if len(set(spaces)) != len(spaces) or not set(spaces) <= set(range(2, TRACK_SPACES + 1)):
        yield f"storage track: abilities sit on spaces 2-8, one each, got spaces {spaces}"
    if not all(kind in RESOLVABLE for _, kind in c.storage.abilities):
        yield f"storage track: abilities are §14.1 kinds, got {c.storage.abilities}"
    names = [kind for kind, _ in c.recruitment.abilities]
    if len(set(names)) != len(names) or not set(names) <= set(RESOLVABLE):
        yield f"recruitment track: abilities are distinct §14.1 kinds, got {names}"
    for kind, cost in c.recruitment.abilities:
        if not 1 <= cost <= TRACK_SPACES:
            yield f"recruitment track: {kind} costs {cost} pawns, costs are 1-8"


CONTENT = load()
