"""A greedy Sahwari bot: it decides from its seat's view and the legal moves only.

Each step is scored by what it adds to the bot's clan zone: the zone's score if the game
ended now (E4; a blue face the seat never saw is worth the mean of the faces it could be),
plus what the zone may still become (empty slots, unlocked storage abilities, kept convoys,
attack tokens), weighed by how much of the game is left. An effect is worth its best target
now; a camel move the best item of the tile it stops on; a guild move what it takes from the
next players. No search and no engine call: one greedy evaluation per legal step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import NamedTuple

from games.rng import Rng, best_of
from games.sahwari import board
from games.sahwari import clan as clans
from games.sahwari.clan import ClanRow, Side
from games.sahwari.content import CONTENT, TOKEN_IDS, TRACK_SPACES
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
from games.sahwari.state import LEADER, SECOND_MOVE, WINDOW, SahwariState
from games.sahwari.views import ClanView, SahwariView
from games.search import win_shares

# Leaders in self-play with random leaders (3000 seats): Diplomat well ahead, then Explorer
# (this bot plans the double move, R12), Brigand and Merchant; Trafficker and Spy behind, as
# in spec Appendix B. Near-equal scores leave the choice to the random stream.
LEADER_SCORE = {
    "diplomat": 3.0,
    "explorer": 2.5,
    "brigand": 2.5,
    "merchant": 2.4,
    "trafficker": 1.5,
    "spy": 1.0,
}

# What an effect is worth when its target is not looked at (a nested effect: the CHEST of a
# slot filled by a BIRD), in points. SPY, REFRESH, TORNADO and the attack token only pay
# later, so they fade with the time left.
GENERIC = {
    "CARD": 2.2,
    "REFRESH": 0.15,
    "SPY": 0.3,
    "CHEST": 2.5,
    "BIRD": 2.5,
    "BOWL": 2.5,
    "TORNADO": 0.4,
    "ATTACK": 0.6,
}
LATER = frozenset({"REFRESH", "SPY", "TORNADO", "ATTACK"})

TIME_FLOOR, TIME_SPAN = 0.25, 6  # the share of the game left, from the face-up tiles left
SLOT_HOPE = 1.4  # an empty slot pays when a cube comes; the 2nd, 3rd… less likely
SLOT_COST = 1.0  # that cube would have scored in storage instead
STORAGE_HOPE = 0.5  # an unlocked storage ability waits for a lock token and a good target
KEPT_HOPE = 0.7  # a kept convoy's effects, used in a later window
ATTACK_TOKEN = 0.5  # an attack token in hand
LOCK_COST = 1.0  # a lock token spent now is not there for a better ability later
POSITION = 0.2  # the best stop reachable next turn from where the camel stops
GUILD_MINE = 0.3  # guild moves: the bot's own next move counts this much…
GUILD_NEXT = (0.8, 0.4, 0.25)  # …against the next players' best moves, the nearest first
USE_MARGIN = 0.1  # a window ability must clearly pay to be used now

UNKNOWN = "?"  # a blue face this seat has not seen
CARDS = {c.id: c for c in CONTENT.cards}
TOKENS = {t.id: t for t in CONTENT.tokens}
EFFECTS = {t.id: t.effects for t in CONTENT.tokens}  # resolvable icons (V5)
INFLUENCE = {t.id: t.influence for t in CONTENT.tokens}
ICONS = {t.id: (t.icons.count("SPY"), t.icons.count("ATTACK")) for t in CONTENT.tokens}
BLUE = TOKEN_IDS["blue"]
STORAGE_VALUES = CONTENT.storage.values
TRACK_VALUES = CONTENT.recruitment.values
STORAGE_ABILITY = dict(CONTENT.storage.abilities)
TRACK_COST = dict(CONTENT.recruitment.abilities)
FORMULAS = dict(CONTENT.formulas)
CATEGORY = {leader.id: leader.category for leader in CONTENT.leaders}
EXPLORER = frozenset(leader.id for leader in CONTENT.leaders if leader.kind == "EXPLORER")
FULL = TRACK_SPACES
LOCKS = CONTENT.clan_sheet.lock_tokens
END_AT = {2: 8, 3: 6, 4: 6}  # face-up tiles that trigger the end (rule E1)
PATHS: dict[tuple[int, str], tuple[int, ...]] = {
    (t, d): board.path(t, d) for t in board.TILES for d in board.DIRECTIONS
}
ITEM = {"artefact": "A", "recruit": "R"}
FACE_UP, COMMON = "R", "go"  # ``view.sides``: a face-up resource tile; the Guild, an oasis

# What an opponent sees in an item, roughly (for blocking and attacks): a yellow token's
# influence and effects, an unknown blue token the mean of them all.
_BLUE_MEAN = sum(INFLUENCE[b] + sum(GENERIC[e] for e in EFFECTS[b]) for b in BLUE) / len(BLUE)


def _generic_item(item: str) -> float:
    if item == "A":
        return 2.0
    if item == "R":
        return 2.5
    if item.startswith("Y"):
        return INFLUENCE[item] + sum(GENERIC[e] for e in EFFECTS[item])
    return _BLUE_MEAN


def choose_move(view: SahwariView, legal: Sequence[Move], rng: Rng) -> Move:
    moves = list(legal)
    if len(moves) == 1:
        return moves[0]
    if view.prompt == LEADER:
        return best_of(moves, rng, lambda m: LEADER_SCORE.get(_leader(m), 0.0))
    bot = _Bot(view)
    if view.prompt == WINDOW:
        return bot.window(moves, rng)
    return best_of(moves, rng, bot.value)


def _ends(move: Move) -> bool:
    return isinstance(move, End)


def _leader(move: Move) -> str:
    return move.leader if isinstance(move, ChooseLeader) else ""


# --------------------------------------------------------------------------- clan zones


class Zone(NamedTuple):
    """A clan zone as the bot sees it: what scores (E4) and what may still pay."""

    leader: str
    row: ClanRow
    storage: int
    track: int
    tokens: tuple[str, ...]  # token ids, UNKNOWN for a face not seen
    kept: tuple[str, ...]  # owned tokens not used yet: their effects are still to come
    locked: tuple[int, ...]
    attacks: int


class RowInfo(NamedTuple):
    cards: int
    printed: int  # printed influence of the cards
    filled: int  # slots holding a cube
    slot_influence: int
    spy: int  # active SPY / ATTACK icons (rule K12)
    attack: int
    clans: tuple[str, ...]  # categories of the clan cards activated on both sides (K13)
    empty: tuple[tuple[str, int, tuple[str, str]], ...]  # (junction, influence, its two icons)


@lru_cache(maxsize=4096)
def row_info(row: ClanRow) -> RowInfo:
    icons = clans.active_icons(row)
    empty = tuple(
        (j, clans.slot_influence(row, j), clans.slot_abilities(row, j))
        for j in clans.empty_slots(row)
    )
    filled = clans.filled_slots(row)
    return RowInfo(
        cards=len(row.cards),
        printed=sum(CARDS[c].influence for c in row.cards),
        filled=len(filled),
        slot_influence=sum(clans.slot_influence(row, j) for j in filled),
        spy=icons.count("SPY"),
        attack=icons.count("ATTACK"),
        clans=tuple(category for _, category in clans.clan_abilities(row)),
        empty=empty,
    )


@lru_cache(maxsize=4096)
def with_cube(row: ClanRow, junction: str) -> ClanRow:
    return clans.put_cube(row, junction)


@lru_cache(maxsize=4096)
def with_card(row: ClanRow, card: str, side: Side) -> ClanRow:
    return clans.place_card(row, card, side)


@lru_cache(maxsize=4096)
def placement_sides(row: ClanRow, card: str) -> tuple[Side, ...]:
    return clans.placement_sides(row, card)


@lru_cache(maxsize=1024)
def padlocked(row: ClanRow, junction: str) -> ClanRow:
    return clans.remove_cube_and_padlock(row, junction)


def zone_of(c: ClanView, faces: dict[str, str]) -> Zone:
    kept = tuple(faces.get(h, UNKNOWN) for h in c.convoys if h not in c.used)
    return Zone(
        leader=c.leader,
        row=c.row,
        storage=c.storage,
        track=c.track,
        tokens=tuple(faces.get(h, UNKNOWN) for h in c.convoys),
        kept=tuple(t for t in kept if t != UNKNOWN),
        locked=c.locked,
        attacks=c.attack_tokens,
    )


def _formula(category: str, values: dict[str, int], exact: bool) -> float:
    """A PAIRS formula; halves count fractionally until the last turn, so a first cube of
    a pair is worth something."""
    formula = FORMULAS[category]
    args = [values[a] for a in formula.args]
    if formula.op == "half":
        return args[0] // 2 if exact else args[0] / 2
    return min(args)


def points(z: Zone, unknown: float, exact: bool = False) -> float:
    """E4 now; an unseen blue face scores ``unknown``."""
    info = row_info(z.row)
    influence = 0.0
    spy, attack = info.spy, info.attack
    for t in z.tokens:
        if t == UNKNOWN:
            influence += unknown
            continue
        influence += INFLUENCE[t]
        icons = ICONS[t]
        spy += icons[0]
        attack += icons[1]
    total = (
        influence
        + info.printed
        + STORAGE_VALUES[z.storage]
        + TRACK_VALUES[z.track]
        + info.slot_influence
    )
    values = {
        "cubes": z.storage + info.filled,
        "cards": info.cards,
        "convoys": len(z.tokens),
        "spy": spy,
        "attack": attack,
    }
    category = CATEGORY.get(z.leader)
    if category is not None:
        total += _formula(category, values, exact)
    for category in info.clans:
        total += _formula(category, values, exact)
    return total


def slot_hope(row: ClanRow, filled: str = "") -> float:
    """What the empty slots promise (but ``filled``, which a cube is filling now): the
    best one most, as cubes are few. Filling a slot cashes its promise in rather than losing
    it, so the promise only draws the bot toward making slots."""
    slots = sorted(
        (
            influence + GENERIC[a] + GENERIC[b] - SLOT_COST
            for junction, influence, (a, b) in row_info(row).empty
            if junction != filled
        ),
        reverse=True,
    )
    return sum(SLOT_HOPE * max(0.0, value) / (1 + i) for i, value in enumerate(slots))


def potential(z: Zone) -> float:
    """What the zone may still turn into points, before the time left is counted."""
    hope = slot_hope(z.row)
    locks = LOCKS - len(z.locked)
    if locks > 0:
        unlocked = sorted(
            (
                GENERIC[a]
                for s, a in STORAGE_ABILITY.items()
                if s <= z.storage and s not in z.locked
            ),
            reverse=True,
        )
        hope += STORAGE_HOPE * sum(unlocked[:locks])
    hope += KEPT_HOPE * sum(GENERIC[e] for t in z.kept for e in EFFECTS[t])
    return hope + ATTACK_TOKEN * z.attacks


# --------------------------------------------------------------------------- movement


def scan(
    start: int, direction: str, occupied: dict[int, tuple[str, ...]], sides: str, guild: bool
) -> list[int]:
    """Rules R2 and R10: the legal stops of a camel in one direction, nearest first."""
    stops: list[int] = []
    for tile in PATHS[start, direction]:
        if sides[tile] in COMMON:
            stops.append(tile)
            continue
        here = occupied.get(tile)
        if here:
            if guild and all(c in board.GUILD_CAMELS for c in here):
                continue
            break
        if sides[tile] == FACE_UP:
            stops.append(tile)
            break
        if guild:
            stops.append(tile)
    return stops


def default_stop(stops: list[int], sides: str) -> int | None:
    """§17.2: a move written without a stop goes to the mandatory one, else the only one."""
    if stops and sides[stops[-1]] == FACE_UP:
        return stops[-1]
    return stops[0] if len(stops) == 1 else None


def occupancy(camels: dict[str, int]) -> dict[int, tuple[str, ...]]:
    out: dict[int, tuple[str, ...]] = {}
    for camel, tile in camels.items():
        out[tile] = (*out.get(tile, ()), camel)
    return out


# --------------------------------------------------------------------------- the evaluation


class _Bot:
    """One decision's evaluation of the view (values are cached for the decision only)."""

    def __init__(self, view: SahwariView) -> None:
        assert view.viewer is not None
        self.v = view
        self.me = view.viewer
        self.camel = board.PLAYER_CAMELS[self.me]
        self.faces = dict(view.faces)
        seen = set(self.faces.values())
        self.pool = [b for b in BLUE if b not in seen]
        self.unknown = sum(INFLUENCE[b] for b in self.pool) / len(self.pool) if self.pool else 0.0
        self.exact = view.trigger > 0  # the end is triggered: this is the bot's last turn
        left = view.sides.count(FACE_UP) - END_AT[view.players]
        self.time = 0.0 if self.exact else min(1.0, TIME_FLOOR + max(left, 0) / TIME_SPAN)
        self.zone = zone_of(view.clans[self.me], self.faces)
        self.base = self.worth(self.zone)
        self.camels = dict(view.camels)
        self.occupied = occupancy(self.camels)
        self.moving = view.arrival < 0 and view.prompt != SECOND_MOVE  # phase 1 still ahead
        self._memo: dict[tuple[str, str], float] = {}
        self._weights: dict[int, float] | None = None
        self._places: dict[str, float] | None = None
        self._tiles: list[float | None] = [None] * len(board.TILES)
        self._theirs: list[float | None] = [None] * len(board.TILES)

    def memo(self, key: tuple[str, str], compute: Callable[[], float]) -> float:
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    def worth(self, z: Zone) -> float:
        return points(z, self.unknown, self.exact) + self.time * potential(z)

    def gain(self, z: Zone) -> float:
        return self.worth(z) - self.base

    def cashed(self, junction: str) -> float:
        """The promise of a slot a cube fills now (see :func:`slot_hope`)."""
        row = self.zone.row
        return self.time * (slot_hope(row) - slot_hope(row, junction))

    def generic(self, kind: str) -> float:
        return GENERIC[kind] * (self.time if kind in LATER else 1.0)

    # ------------------------------------------------------------------ items

    def item_value(self, item: str) -> float:
        """``A``, ``R`` or a handle, as it would come into the zone now."""
        if item == "A":
            return self.cube_value()
        if item == "R":
            return self.memo(("pawn", ""), self.pawn_value)
        return self.memo(("convoy", item), lambda: self.convoy_value(item))

    def cube_value(self) -> float:
        return self.memo(("cube", ""), lambda: max(self.cube_places(False).values(), default=0.0))

    def cube_places(self, specific: bool) -> dict[str, float]:
        """GAIN_CUBE (rule C3): each place, with the slot's two effects (rule K9)."""
        z = self.zone
        out: dict[str, float] = {}
        if z.storage < FULL:
            out["storage"] = self.gain(z._replace(storage=z.storage + 1))
        for junction, _, effects in row_info(z.row).empty:
            filled = z._replace(row=with_cube(z.row, junction))
            value = self.gain(filled) + self.cashed(junction)
            out[junction] = value + sum(self.effect(e, specific) for e in effects)
        return out

    def pawn_value(self) -> float:
        """GAIN_PAWN (rule C4): a pawn on the track and the best card of the row."""
        z = self.zone
        if z.track < FULL:
            z = z._replace(track=z.track + 1)
        cards = [self.card_gain(z, card, side) for card, side in self.card_choices()]
        return max(cards) if cards else self.gain(z) + self.generic("CARD")

    def card_choices(self) -> list[tuple[str, Side]]:
        row = self.zone.row
        return [(card, side) for card in self.v.row if card for side in placement_sides(row, card)]

    def card_gain(self, z: Zone, card: str, side: Side) -> float:
        return self.gain(z._replace(row=with_card(z.row, card, side)))

    def convoy_value(self, handle: str) -> float:
        token = self.faces.get(handle)
        if token is not None:
            return self.token_gain(token)
        return self.memo(("unknown", ""), self.unknown_value)

    def unknown_value(self) -> float:
        """An unseen blue face: any of those the bot has not seen, equally likely."""
        if not self.pool:
            return 0.0
        return sum(self.token_gain(t) for t in self.pool) / len(self.pool)

    def token_gain(self, token: str) -> float:
        """A token into the zone, used at once (its effects valued without targets)."""
        z = self.zone._replace(tokens=(*self.zone.tokens, token))
        return self.gain(z) + sum(self.generic(e) for e in EFFECTS[token])

    def tile_items(self, tile: int) -> tuple[str, ...]:
        v = self.v
        if tile == board.GUILD:
            return ("A",) * min(v.guild_cubes, 1) + ("R",) * min(v.guild_pawns, 1)
        return v.items[tile] if v.sides[tile] == FACE_UP else ()

    def tile_value(self, tile: int) -> float:
        """Rule C1: the best item there (the bot must take one); nothing on an oasis."""
        value = self._tiles[tile]
        if value is None:
            items = dict.fromkeys(self.tile_items(tile))
            value = self._tiles[tile] = max(map(self.item_value, items), default=0.0)
        return value

    def best_move(self, camel: str, start: int, occupied: dict[int, tuple[str, ...]]) -> float:
        """The best stop a player camel could reach from ``start`` (-1: it cannot move)."""
        mine = camel == self.camel
        best = -1.0
        for d in board.DIRECTIONS:
            for stop in scan(start, d, occupied, self.v.sides, False):
                value = self.tile_value(stop) if mine else self.opponent_tile(stop)
                best = max(best, value)
        return best

    def opponent_tile(self, tile: int) -> float:
        value = self._theirs[tile]
        if value is None:
            value = self._theirs[tile] = max(map(_generic_item, self.tile_items(tile)), default=0.0)
        return value

    # ------------------------------------------------------------------ effects

    def effect(self, kind: str, specific: bool) -> float:
        """A pending effect: at its best target now (``specific``) or a generic value."""
        if not specific:
            return self.generic(kind)
        return self.memo(("effect", kind), lambda: self._effect_now(kind))

    def _effect_now(self, kind: str) -> float:
        v = self.v
        if kind == "CHEST":
            return self.cube_value() if v.cubes else 0.0
        if kind == "CARD":
            if not any(v.row):
                return self.generic(kind)
            return max((self.card_gain(self.zone, c, s) for c, s in self.card_choices()), default=0)
        if kind == "BIRD":
            return max((self.item_value(i) for _, _, i in self.bird_targets()), default=0.0)
        if kind == "BOWL":
            tokens = [i for items in v.items for i in items if len(i) > 1]
            return max((self.item_value(i) for i in tokens), default=0.0)
        if kind == "SPY":
            return max((self.spy_value(h) for h in self.spy_targets()), default=0.0)
        if kind == "REFRESH":
            return self.refresh_value()
        return self.generic(kind)

    def bird_targets(self) -> list[tuple[str, int, str]]:
        return [
            (camel, tile, item)
            for camel in board.GUILD_CAMELS
            for tile in board.adjacent(self.camels[camel])
            for item in dict.fromkeys(self.tile_items(tile))
        ]

    def spy_targets(self) -> list[str]:
        on_map = [i for items in self.v.items for i in items if i.startswith("V")]
        kept = [
            h
            for seat, c in enumerate(self.v.clans)
            if seat != self.me
            for h in c.convoys
            if h not in c.used
        ]
        return [h for h in (*on_map, *kept) if h.startswith("V")]

    def spy_value(self, handle: str) -> float:
        """Looking at a face pays when the bot may take it soon: the nearer, the better."""
        if handle in self.faces:
            return -0.01
        mine = self.camels[self.camel]
        for tile, items in enumerate(self.v.items):
            if handle in items:
                far = abs(tile % 5 - mine % 5) + abs(tile // 5 - mine // 5)
                return self.generic("SPY") * max(0.2, 1.4 - 0.2 * far)
        return 0.1 * self.generic("SPY")

    def refresh_value(self) -> float:
        """A new row only helps when the one shown offers the bot little."""
        best = max((self.card_gain(self.zone, c, s) for c, s in self.card_choices()), default=0)
        return self.generic("REFRESH") + 0.3 * (GENERIC["CARD"] - best)

    # ------------------------------------------------------------------ the value of a step

    def value(self, move: Move) -> float:
        if isinstance(move, MoveCamel):
            return self.move_value(move)
        if isinstance(move, Stay):
            return self.tile_value(self.camels[self.camel])
        if isinstance(move, Relocate):
            return 0.3 * self.best_move(self.camel, move.tile, self.occupied)
        if isinstance(move, Take):
            return self.item_value(ITEM.get(move.item, move.item))
        if isinstance(move, PlaceCube):
            if self._places is None:
                self._places = self.cube_places(True)
            return self._places.get(move.target, 0.0)
        if isinstance(move, UseNow):
            return self.use_convoy(self.v.prompt_args[0])
        if isinstance(move, Keep):
            return 0.0
        if isinstance(move, Recruit):
            card = self.v.row[move.position - 1]
            side: Side = "left" if move.side == "left" else "right"
            if not card or side not in placement_sides(self.zone.row, card):
                return 0.0  # the engine refilled the row after this view (rule K3)
            return self.card_gain(self.zone, card, side)
        if isinstance(move, GuildMove):
            return self.guild_value(move)
        return self.effect_step(move)

    def effect_step(self, move: Move) -> float:
        if isinstance(move, Spy):
            return self.spy_value(move.handle)
        if isinstance(move, Chest):
            return self.effect("CHEST", True)
        if isinstance(move, Refresh):
            return self.refresh_value()
        if isinstance(move, Bird):
            return self.item_value(ITEM.get(move.item, move.item))
        if isinstance(move, Bowl):
            return self.item_value(move.handle)
        if isinstance(move, Tornado):
            return self.placement_value(move.camel, move.tile)
        if isinstance(move, Attack):
            return self.attack_value(move)
        return self.use_value(move)

    def stop_of(self, move: MoveCamel | GuildMove, camel: str, guild: bool) -> int:
        """Where a move written without a stop goes. A window lists the next phase's steps
        after the steps the engine takes alone (a forced collection flipping a tile, a
        forced first guild move), so the view can disagree: then the next tile on the way,
        or the camel's own, stands in."""
        if move.stop is not None:
            return move.stop
        start = self.camels[camel]
        stops = scan(start, move.direction, self.occupied, self.v.sides, guild)
        stop = default_stop(stops, self.v.sides)
        if stop is not None:
            return stop
        return stops[0] if stops else next(iter(PATHS[start, move.direction]), start)

    def move_value(self, move: MoveCamel) -> float:
        """Phase 1: the best item where the camel stops; the Explorer may go on (rule R12)."""
        stop = self.stop_of(move, self.camel, False)
        value = self.tile_value(stop)
        occupied = occupancy({**self.camels, self.camel: stop})
        if self.zone.leader in EXPLORER and self.v.prompt != SECOND_MOVE:
            back = board.opposite(move.direction)
            for d in board.DIRECTIONS:
                if d != back:
                    for second in scan(stop, d, occupied, self.v.sides, False):
                        value = max(value, self.tile_value(second))
        if POSITION:  # where the camel will start its next turn from
            value += POSITION * self.time * self.best_move(self.camel, stop, occupied)
        return value

    # ------------------------------------------------------------------ guild camels and placements

    def weights(self) -> dict[int, float]:
        """How much hurting each opponent is worth: all of it with two players, else a
        share, more for the one who looks ahead."""
        if self._weights is None:
            others = [s for s in range(self.v.players) if s != self.me]
            if len(others) == 1:
                self._weights = {others[0]: 1.0}
            else:
                estimate = {
                    s: points(zone_of(self.v.clans[s], self.faces), self.unknown) for s in others
                }
                top = max(estimate.values())
                self._weights = {
                    s: 1 / len(others) + (0.3 if estimate[s] == top else 0.0) for s in others
                }
        return self._weights

    def guild_score(self, camels: dict[str, int]) -> float:
        """Guild camels are placed well when the next players reach little (rule R5 blocks
        them) while the bot keeps a good move."""
        occupied = occupancy(camels)
        n = self.v.players
        score = GUILD_MINE * self.best_move(self.camel, camels[self.camel], occupied)
        for k, weight in enumerate(GUILD_NEXT[: n - 1]):
            seat = (self.me + 1 + k) % n
            camel = board.PLAYER_CAMELS[seat]
            score -= weight * self.best_move(camel, camels[camel], occupied)
        return score

    def guild_value(self, move: GuildMove) -> float:
        stop = self.stop_of(move, move.camel, True)
        return self.guild_score({**self.camels, move.camel: stop})

    def placement_value(self, camel: str, tile: int) -> float:
        """A camel placed elsewhere (TORNADO, an attack's retreat or displacement, rule R14)."""
        moved = {**self.camels, camel: tile}
        if camel == self.camel:
            before = self.best_move(camel, self.camels[camel], self.occupied)
            after = self.best_move(camel, tile, occupancy(moved))
            return (after - before) * (1.0 if self.moving else 0.2 * self.time)
        if camel in board.GUILD_CAMELS:
            return 0.5 * (self.guild_score(moved) - self.guild_score(self.camels))
        seat = board.PLAYER_CAMELS.index(camel)
        before = self.best_move(camel, self.camels[camel], self.occupied)
        after = self.best_move(camel, tile, occupancy(moved))
        return 0.5 * self.weights()[seat] * (before - after)

    def attack_value(self, a: Attack) -> float:
        """RESOLVE_ATTACK (§10): an opponent's loss, weighed; a token removed; a camel moved."""
        origin = self.camel if a.origin == "me" else a.origin
        if a.option == "camel":
            seat = board.PLAYER_CAMELS.index(a.target)
            z = zone_of(self.v.clans[seat], self.faces)
            if z.storage:
                hit = z._replace(storage=z.storage - 1)
            elif a.slot is not None:
                hit = z._replace(row=padlocked(z.row, a.slot))
            else:
                hit = z
            damage = points(z, self.unknown) - points(hit, self.unknown)
            assert a.tile is not None
            return self.weights()[seat] * damage + self.placement_value(origin, a.tile)
        if a.option == "guild":
            assert a.tile is not None
            return self.placement_value(a.target, a.tile)
        # A convoy removed: denied to the others, and to the bot.
        token = self.faces.get(a.target)
        theirs = _generic_item(a.target) if token is None else _generic_item(token)
        return 0.15 * theirs - 0.3 * max(0.0, self.item_value(a.target))

    # ------------------------------------------------------------------ windows

    def window(self, moves: list[Move], rng: Rng) -> Move:
        """Rule T2: use what pays now, then take the next phase's step (which closes the
        window), or close it."""
        uses = [
            m
            for m in moves
            if isinstance(m, UseConvoy | UseAttack | UseStorage | UseTrack | UseSlot)
        ]
        if uses:
            best = best_of(uses, rng, self.use_value)
            if self.use_value(best) > 0:
                return best
        steps = [m for m in moves if m not in uses and not isinstance(m, Next | End)]
        if steps:
            return best_of(steps, rng, self.value)
        # ``next`` rather than ``end``: a later window may still offer something.
        closing = sorted((m for m in moves if isinstance(m, Next | End)), key=_ends)
        return closing[0] if closing else best_of(moves, rng, self.use_value)

    def use_value(self, move: Move) -> float:
        if isinstance(move, UseConvoy):
            return self.use_convoy(move.handle) - USE_MARGIN
        if isinstance(move, UseAttack):
            return self.attack_value(move.attack) - ATTACK_TOKEN * self.time - USE_MARGIN
        if isinstance(move, UseStorage):
            return self.use_storage(move.space) - USE_MARGIN
        if isinstance(move, UseTrack):
            return self.use_track(move.ability) - USE_MARGIN
        if isinstance(move, UseSlot):
            return self.use_slot(move.junction) - USE_MARGIN
        return 0.0  # Skip, Next, End

    def use_convoy(self, handle: str) -> float:
        """Rule V5: the token's effects now, against keeping them for later."""
        token = self.faces.get(handle)
        if token is None:
            return -1.0
        effects = EFFECTS[token]
        if not effects:
            return -0.01  # nothing to resolve; keep the face hidden
        now = sum(self.effect(e, True) if e != "ATTACK" else self.generic(e) for e in effects)
        later = self.time * KEPT_HOPE * sum(GENERIC[e] for e in effects)
        return now - later

    def use_storage(self, space: int) -> float:
        z = self.zone
        locked = z._replace(locked=(*z.locked, space))
        ability = STORAGE_ABILITY[space]
        return self.effect(ability, True) + self.gain(locked) - LOCK_COST * self.time

    def use_track(self, ability: str) -> float:
        z = self.zone
        paid = z._replace(track=z.track - TRACK_COST[ability])
        if ability == "ATTACK":
            return self.gain(paid._replace(attacks=z.attacks + 1))
        return self.effect(ability, True) + self.gain(paid)

    def use_slot(self, junction: str) -> float:
        """Rule K10: the rightmost storage cube into the slot, triggering it."""
        z = self.zone
        if self.v.prompt_args[:1] in (("W0",), ("W1",)):
            return -1.0  # after the collection: the cube taken may fill the slot instead
        moved = z._replace(storage=z.storage - 1, row=with_cube(z.row, junction))
        effects = next(icons for j, _, icons in row_info(z.row).empty if j == junction)
        gain = self.gain(moved) + self.cashed(junction)
        return gain + sum(self.effect(e, True) for e in effects)


# --------------------------------------------------------------------------- for the search


def evaluate(state: SahwariState) -> tuple[float, ...]:
    """Each seat's expected share of the result, for the search (games/search.py,
    on sampled worlds, whose faces it reads as they are there): what this bot
    weighs, :func:`points` plus the time left times :func:`potential`, for every
    clan zone, softened by what is left to play."""
    if not state.clans:
        return (1 / state.players,) * state.players
    exact = state.trigger > 0
    left = state.table.sides.count(FACE_UP) - END_AT[state.players]
    time = 0.0 if exact else min(1.0, TIME_FLOOR + max(left, 0) / TIME_SPAN)
    values = []
    for c in state.clans:
        kept = tuple(t for t in c.convoys if t not in c.used)
        z = Zone(c.leader, c.row, c.storage, c.track, c.convoys, kept, c.locked, c.attack_tokens)
        values.append(points(z, 0.0, exact) + time * potential(z))
    return win_shares(values, 2 + 5 * time)
