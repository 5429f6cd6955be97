"""Sahwari clan zone (spec §8 rules K1-K13, §11 rules S1-S6, §12 rules E4-E5).

Pure functions over small immutable values; no engine state, no effect resolution.

* A :class:`ClanRow` is the clan sheet with recruit cards on both sides (rule K1). Cards are
  card ids (``"C01"``); positions are named from the clan sheet outwards: ``left[0]`` is card L1,
  ``right[0]`` is card R1.
* Junctions are named after the card that created them (rule K7): junction ``L1`` joins card L1
  to the clan sheet, ``L2`` joins L2 to L1, ``R1`` joins the clan sheet to R1, and so on. Each is
  ``"dead"`` (placed mismatched) or a slot that is ``"empty"``, holds a ``"cube"`` or is
  ``"padlock"``-ed (rule K11). Lists of junctions are in reading order, left to right
  (``L2 L1 R1 R2``).
* A :class:`Clan` is a player's whole zone as far as scoring needs it (E4): leader, clan row,
  storage cubes, track pawns, owned convoy tokens, attack tokens, lock tokens.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Final, Literal, TypeVar

from games.sahwari.content import CONTENT, TRACK_SPACES, Card, Edge, Opening

K = TypeVar("K")  # how a caller names seats (0-based ints, "P1"…)
Side = Literal["left", "right"]
JunctionState = Literal["dead", "empty", "cube", "padlock"]

SIDES: tuple[Side, ...] = ("left", "right")
DEAD: Final = "dead"  # placed mismatched: never a slot (rule K7)
EMPTY: Final = "empty"  # a slot without a cube
CUBE: Final = "cube"  # a slot holding a cube (rule K9)
PADLOCK: Final = "padlock"  # a slot padlocked by an attack, forever (rule K11, rule A5)
STATES: tuple[JunctionState, ...] = (DEAD, EMPTY, CUBE, PADLOCK)

# The fixed E4 score lines, in the order of its steps 2-6.
SCORE_LINES: tuple[str, ...] = (
    "convoys",  # E4.2: INF icons of every owned convoy token, used or not (V8, D15)
    "cards",  # E4.2: printed influence of the recruit cards
    "storage",  # E4.3: STORAGE_VALUE[cubes in storage] (S2)
    "track",  # E4.3: TRACK_VALUE[pawns on the track] (S5)
    "slots",  # E4.4: influence of the slots holding a cube (padlocked: nothing)
    "leader",  # E4.5: the leader's formula (the Explorer has none)
    "clan_cards",  # E4.6: every clan card activated on both sides (K13), stacking (D31)
)

_SHEET = CONTENT.clan_sheet
_PREFIX: dict[Side, str] = {"left": "L", "right": "R"}
_JUNCTION = re.compile(r"([LR])([1-9][0-9]*)")


def _card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else CONTENT.card(card)


def _opening(side: Side) -> Opening:
    return _SHEET.left if side == "left" else _SHEET.right


def _outer_edge(card: Card, side: Side) -> Edge:
    """The edge facing away from the clan sheet (cards are never rotated, rule K4)."""
    return card.left if side == "left" else card.right


def _inner_edge(card: Card, side: Side) -> Edge:
    """The edge facing the clan sheet."""
    return card.right if side == "left" else card.left


# --------------------------------------------------------------------------- the clan row


@dataclass(frozen=True)
class ClanRow:
    """The clan row (rule K1): card ids and junction states per side, from the sheet outwards.

    ``left_junctions[k - 1]`` is the state of junction ``Lk`` (between card Lk and the element
    inside it); likewise on the right. Whether a junction is a slot or dead is fixed by the
    colours (rule K7) and checked on construction.
    """

    left: tuple[str, ...] = ()
    right: tuple[str, ...] = ()
    left_junctions: tuple[JunctionState, ...] = ()
    right_junctions: tuple[JunctionState, ...] = ()

    def __post_init__(self) -> None:
        problems = list(_row_problems(self))
        if problems:
            raise ValueError("bad clan row: " + "; ".join(problems))

    def cards_on(self, side: Side) -> tuple[str, ...]:
        """The card ids on one side, from the clan sheet outwards (L1 / R1 first)."""
        return self.left if side == "left" else self.right

    def states_on(self, side: Side) -> tuple[JunctionState, ...]:
        return self.left_junctions if side == "left" else self.right_junctions

    @property
    def cards(self) -> tuple[str, ...]:
        """Every card id in reading order, left to right (the clan sheet sits between)."""
        return (*reversed(self.left), *self.right)


def _row_problems(row: ClanRow) -> list[str]:
    problems: list[str] = []
    ids = row.left + row.right
    if len(set(ids)) != len(ids):
        problems.append(f"a card appears twice in {ids}")
    for side in SIDES:
        cards, states = row.cards_on(side), row.states_on(side)
        if len(states) != len(cards):
            problems.append(f"{len(cards)} {side} cards but {len(states)} {side} junctions")
            continue
        accepted = _opening(side).colours
        for k, (card_id, state) in enumerate(zip(cards, states, strict=True), start=1):
            name = junction_name(side, k)
            try:
                card = CONTENT.card(card_id)
            except KeyError:
                problems.append(f"no card {card_id!r}")
                break
            if state not in STATES:
                problems.append(f"junction {name}: unknown state {state!r}")
            elif (state == DEAD) == (_inner_edge(card, side).colour in accepted):
                problems.append(f"junction {name}: {state} contradicts the colours (rule K7)")
            accepted = (_outer_edge(card, side).colour,)
    return problems


def junction_name(side: Side, k: int) -> str:
    """``("left", 2) -> "L2"`` (rule K7)."""
    if k < 1:
        raise ValueError(f"junctions are numbered from 1, not {k}")
    return f"{_PREFIX[side]}{k}"


def parse_junction(text: str) -> tuple[Side, int]:
    """``"L2" -> ("left", 2)``; case-insensitive, surrounding spaces ignored."""
    match = _JUNCTION.fullmatch(text.strip().upper())
    if match is None:
        raise ValueError(f"not a junction: {text!r}")
    side: Side = "left" if match[1] == "L" else "right"
    return side, int(match[2])


def _locate(row: ClanRow, junction: str) -> tuple[Side, int]:
    side, k = parse_junction(junction)
    if k > len(row.cards_on(side)):
        raise ValueError(f"no junction {junction} in this clan row")
    return side, k


def junctions(row: ClanRow) -> tuple[tuple[str, JunctionState], ...]:
    """Every junction and its state, in reading order (``L2 L1 R1 R2``)."""
    left = tuple((junction_name("left", k), s) for k, s in enumerate(row.left_junctions, 1))
    right = tuple((junction_name("right", k), s) for k, s in enumerate(row.right_junctions, 1))
    return (*reversed(left), *right)


def junction_state(row: ClanRow, junction: str) -> JunctionState:
    side, k = _locate(row, junction)
    return row.states_on(side)[k - 1]


# --------------------------------------------------------------------------- placement


def exposed_colours(row: ClanRow, side: Side) -> tuple[str, ...]:
    """Rule K5: the colours a new card must show to match at that end.

    The outer band of the outermost card, or the clan sheet's opening (R/G left, P/O right)
    only while that side has no card (D42).
    """
    cards = row.cards_on(side)
    if cards:
        return (_outer_edge(CONTENT.card(cards[-1]), side).colour,)
    return _opening(side).colours


def matches(row: ClanRow, card: Card | str, side: Side) -> bool:
    """Rule K5: the new card's inner band (right band at the left end) matches that end."""
    return _inner_edge(_card(card), side).colour in exposed_colours(row, side)


def placement_sides(row: ClanRow, card: Card | str) -> tuple[Side, ...]:
    """Rules K4, K6 and D10: the matching ends if there is one, else both ends."""
    matching = tuple(side for side in SIDES if matches(row, card, side))
    return matching or SIDES


def place_card(row: ClanRow, card: Card | str, side: Side) -> ClanRow:
    """Rules K4 and K7: add the card at the far end of ``side``, creating junction L(k+1) or
    R(k+1): an empty slot if the placement matched, else a dead junction. A side that rule K6
    forbids, or a card already in the row, raises ``ValueError``.
    """
    c = _card(card)
    if c.id in row.cards:
        raise ValueError(f"card {c.id} is already in the clan row")
    if side not in SIDES:
        raise ValueError(f"a card goes to the 'left' or the 'right' end, not {side!r}")
    if side not in placement_sides(row, c):
        raise ValueError(f"card {c.id} matches an end, so it must go there (rule K6)")
    state: JunctionState = EMPTY if matches(row, c, side) else DEAD
    if side == "left":
        return replace(row, left=(*row.left, c.id), left_junctions=(*row.left_junctions, state))
    return replace(row, right=(*row.right, c.id), right_junctions=(*row.right_junctions, state))


# --------------------------------------------------------------------------- slots


def _half_slots(row: ClanRow, junction: str) -> tuple[tuple[str, int], tuple[str, int]]:
    """The two half-slots meeting at a slot: the inner element's outer edge, then the inner
    edge of the card that made the junction (rule K7). A dead junction raises ``ValueError``.
    """
    side, k = _locate(row, junction)
    if row.states_on(side)[k - 1] == DEAD:
        raise ValueError(f"junction {junction} is dead, not a slot (rule K7)")
    cards = row.cards_on(side)
    if k == 1:
        opening = _opening(side)
        inner = (opening.ability, opening.value)
    else:
        edge = _outer_edge(CONTENT.card(cards[k - 2]), side)
        inner = (edge.ability, edge.value)
    edge = _inner_edge(CONTENT.card(cards[k - 1]), side)
    return inner, (edge.ability, edge.value)


def slot_abilities(row: ClanRow, junction: str) -> tuple[str, str]:
    """Rule K7: (inner icon, outer icon), the two abilities a cube on the slot triggers (K9).

    The inner icon belongs to the element nearer the clan sheet (the sheet itself for ``L1`` and
    ``R1``), the outer one to the card that made the junction.
    """
    inner, outer = _half_slots(row, junction)
    return inner[0], outer[0]


def slot_influence(row: ClanRow, junction: str) -> int:
    """Rule K7: the sum of the two half-slot values (the printed value, whatever the state)."""
    inner, outer = _half_slots(row, junction)
    return inner[1] + outer[1]


def _slots_in(row: ClanRow, state: JunctionState) -> tuple[str, ...]:
    return tuple(name for name, s in junctions(row) if s == state)


def empty_slots(row: ClanRow) -> tuple[str, ...]:
    """Slots that may receive a cube: empty and not padlocked (rules K9, K10, K11)."""
    return _slots_in(row, EMPTY)


def filled_slots(row: ClanRow) -> tuple[str, ...]:
    """Slots holding a cube (rule K12; scored by E4.4)."""
    return _slots_in(row, CUBE)


def padlocked_slots(row: ClanRow) -> tuple[str, ...]:
    """Slots padlocked by an attack (rule K11)."""
    return _slots_in(row, PADLOCK)


def _set_state(row: ClanRow, side: Side, k: int, state: JunctionState) -> ClanRow:
    states = list(row.states_on(side))
    states[k - 1] = state
    if side == "left":
        return replace(row, left_junctions=tuple(states))
    return replace(row, right_junctions=tuple(states))


def put_cube(row: ClanRow, junction: str) -> ClanRow:
    """Rule K9: a cube goes only on an empty, unpadlocked slot; the caller triggers
    :func:`slot_abilities`. Anything else raises ``ValueError``.
    """
    side, k = _locate(row, junction)
    state = row.states_on(side)[k - 1]
    if state != EMPTY:
        why = {
            DEAD: "dead, not a slot (rule K7)",
            CUBE: "already holds a cube (rule K9)",
            PADLOCK: "padlocked forever (rule K11)",
        }
        raise ValueError(f"junction {junction} is {why[state]}")
    return _set_state(row, side, k, CUBE)


def remove_cube_and_padlock(row: ClanRow, junction: str) -> ClanRow:
    """Rule A5.2: an attack takes the slot's cube and padlocks the slot for good (rule K11)."""
    side, k = _locate(row, junction)
    if row.states_on(side)[k - 1] != CUBE:
        raise ValueError(f"junction {junction} holds no cube (rule A5)")
    return _set_state(row, side, k, PADLOCK)


def active_icons(row: ClanRow) -> tuple[str, ...]:
    """Rule K12: the edge icons (cards and clan sheet) adjacent to a slot holding a cube,
    two per filled slot, in reading order of the slots.
    """
    return tuple(icon for name in filled_slots(row) for icon in slot_abilities(row, name))


def activated_cards(row: ClanRow) -> tuple[str, ...]:
    """Rules K8 and K13: cards whose inner and outer junctions both hold a cube, in reading
    order. The outermost card of a side has no outer junction yet, so it never counts.
    """
    out: dict[Side, list[str]] = {"left": [], "right": []}
    for side in SIDES:
        states = row.states_on(side)
        for k, card_id in enumerate(row.cards_on(side), start=1):
            if k < len(states) and states[k - 1] == CUBE and states[k] == CUBE:
                out[side].append(card_id)
    return (*reversed(out["left"]), *out["right"])


def clan_abilities(row: ClanRow) -> tuple[tuple[str, str], ...]:
    """Rule K13: (card id, PAIRS category) of every clan card activated on both sides."""
    return tuple(
        (card_id, clan)
        for card_id in activated_cards(row)
        if (clan := CONTENT.card(card_id).clan) is not None
    )


# --------------------------------------------------------------------------- the clan zone


@dataclass(frozen=True)
class Clan:
    """A player's clan zone as far as scoring needs it (§12, Appendix A).

    ``storage``: cubes on storage spaces 1..k (rule S1); ``track``: pawns on track spaces 1..k
    (rule S4); ``convoys``: every owned convoy token id, used or not (all score, V8 and D15);
    ``used``: those of them already used (revealed); ``locked``: storage spaces holding one of
    the player's lock tokens (rule S3).
    """

    leader: str
    row: ClanRow = field(default_factory=ClanRow)
    storage: int = 0
    track: int = 0
    convoys: tuple[str, ...] = ()
    used: tuple[str, ...] = ()
    attack_tokens: int = 0
    locked: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        problems = list(_clan_problems(self))
        if problems:
            raise ValueError("bad clan zone: " + "; ".join(problems))


def _clan_problems(clan: Clan) -> list[str]:
    problems: list[str] = []
    try:
        CONTENT.leader(clan.leader)
    except KeyError:
        problems.append(f"no leader {clan.leader!r}")
    for name, value in (("storage", clan.storage), ("track", clan.track)):
        if not 0 <= value <= TRACK_SPACES:
            problems.append(f"{name} holds 0-{TRACK_SPACES}, not {value}")
    if clan.attack_tokens < 0:
        problems.append(f"attack tokens {clan.attack_tokens} < 0")
    for token_id in clan.convoys:
        try:
            CONTENT.token(token_id)
        except KeyError:
            problems.append(f"no convoy token {token_id!r}")
    if len(set(clan.convoys)) != len(clan.convoys) or len(set(clan.used)) != len(clan.used):
        problems.append("a convoy token appears twice")
    if not set(clan.used) <= set(clan.convoys):
        problems.append(f"used tokens {sorted(set(clan.used) - set(clan.convoys))} not owned")
    spaces = {space for space, _ in CONTENT.storage.abilities}
    if len(set(clan.locked)) != len(clan.locked) or not set(clan.locked) <= spaces:
        problems.append(f"locked spaces {clan.locked}: distinct storage ability spaces")
    if len(clan.locked) > _SHEET.lock_tokens:
        problems.append(f"{len(clan.locked)} lock tokens, a player has {_SHEET.lock_tokens}")
    return problems


def new_clan(leader: str) -> Clan:
    """A clan zone at setup (§15.2): empty row, 1 cube on storage space 1, no pawns."""
    return Clan(leader=leader, storage=_SHEET.start_storage)


# --------------------------------------------------------------------------- tracks


def storage_value(k: int) -> int:
    """Rule S2: STORAGE_VALUE[k], the leftmost visible value with k cubes in storage."""
    if not 0 <= k <= TRACK_SPACES:
        raise ValueError(f"storage holds 0-{TRACK_SPACES} cubes, not {k}")
    return CONTENT.storage.values[k]


def track_value(k: int) -> int:
    """Rule S5: TRACK_VALUE[k], the leftmost visible value with k pawns on the track."""
    if not 0 <= k <= TRACK_SPACES:
        raise ValueError(f"the track holds 0-{TRACK_SPACES} pawns, not {k}")
    return CONTENT.recruitment.values[k]


def store_cube(clan: Clan) -> Clan:
    """Rule S1: a cube goes on the leftmost empty storage space. A full storage raises
    ``ValueError`` (D34: the caller sends the cube to the supply instead).
    """
    if clan.storage >= TRACK_SPACES:
        raise ValueError("the storage is full (D34: the cube goes to the supply)")
    return replace(clan, storage=clan.storage + 1)


def take_storage_cube(clan: Clan) -> Clan:
    """Rules S1, K10, A5.1 and D23: a cube leaves storage from the rightmost filled space."""
    if clan.storage == 0:
        raise ValueError("the storage holds no cube")
    return replace(clan, storage=clan.storage - 1)


def activate_slot_from_storage(clan: Clan, junction: str) -> Clan:
    """Rule K10: the rightmost storage cube goes on an empty, unpadlocked slot (then the caller
    triggers :func:`slot_abilities`, rule K9).
    """
    row = put_cube(clan.row, junction)
    return replace(take_storage_cube(clan), row=row)


def add_pawn(clan: Clan) -> Clan:
    """Rule S4: a pawn goes on the leftmost empty track space. A full track raises
    ``ValueError`` (D34: the pawn goes to the supply, the card is still taken).
    """
    if clan.track >= TRACK_SPACES:
        raise ValueError("the recruitment track is full (D34: the pawn goes to the supply)")
    return replace(clan, track=clan.track + 1)


def storage_abilities_unlocked(clan: Clan) -> tuple[tuple[int, str], ...]:
    """Rule S3: (space, ability) a player may use now: a cube on the space, no lock token on
    it, and a lock token left (2 per game, never returned).
    """
    if len(clan.locked) >= _SHEET.lock_tokens:
        return ()
    return tuple(
        (space, ability)
        for space, ability in sorted(CONTENT.storage.abilities)
        if space <= clan.storage and space not in clan.locked
    )


def lock_storage_ability(clan: Clan, space: int) -> Clan:
    """Rule S3: place a lock token on an unlocked storage space (the caller resolves the
    ability once). A space that is not available raises ``ValueError``.
    """
    if space not in dict(storage_abilities_unlocked(clan)):
        raise ValueError(f"storage space {space} has no usable ability (rule S3)")
    return replace(clan, locked=(*clan.locked, space))


def track_abilities_affordable(clan: Clan, used_this_turn: Iterable[str] = ()) -> tuple[str, ...]:
    """Rule S6 and D33: the track abilities whose full cost the track can pay now and that
    were not used yet this turn, in the table's order.
    """
    used = set(used_this_turn)
    table = CONTENT.recruitment.abilities
    unknown = used - {ability for ability, _ in table}
    if unknown:
        raise ValueError(f"no track abilities {sorted(unknown)}")
    return tuple(a for a, cost in table if cost <= clan.track and a not in used)


def use_track_ability(clan: Clan, ability: str, used_this_turn: Iterable[str] = ()) -> Clan:
    """Rule S6: discard the ability's cost in pawns from the right of the track (the caller
    sends them to the Guild, rule S7, and resolves the ability).
    """
    if ability not in track_abilities_affordable(clan, used_this_turn):
        raise ValueError(f"track ability {ability} is not affordable now (rule S6)")
    return replace(clan, track=clan.track - CONTENT.recruitment.cost(ability))


# --------------------------------------------------------------------------- scoring


@dataclass(frozen=True)
class Counts:
    """The E4 counting symbols of a clan zone."""

    cubes: int  # storage cubes + cubes on slots
    cards: int  # recruit cards in the clan row, matched or not
    convoys: int  # owned convoy tokens, used and unused
    spy: int  # active SPY edge icons (rule K12, clan sheet included) + SPY on owned tokens
    attack: int  # active ATTACK edge icons (rule K12) + ATTACK on owned tokens

    def value(self, symbol: str) -> int:
        table = {
            "cubes": self.cubes,
            "cards": self.cards,
            "convoys": self.convoys,
            "spy": self.spy,
            "attack": self.attack,
        }
        return table[symbol]


def counts(clan: Clan) -> Counts:
    """The E4 symbols. Storage and track abilities never count for ``spy``/``attack`` (D30)."""
    icons = active_icons(clan.row)
    token_icons = [icon for t in clan.convoys for icon in CONTENT.token(t).icons]
    return Counts(
        cubes=clan.storage + len(filled_slots(clan.row)),
        cards=len(clan.row.cards),
        convoys=len(clan.convoys),
        spy=icons.count("SPY") + token_icons.count("SPY"),
        attack=icons.count("ATTACK") + token_icons.count("ATTACK"),
    )


def formula_points(category: str, c: Counts) -> int:
    """A PAIRS formula (§15.5): ``half x`` = floor(x / 2), ``min x y``."""
    formula = CONTENT.formula(category)
    values = [c.value(symbol) for symbol in formula.args]
    if formula.op == "half":
        return values[0] // 2
    if formula.op == "min":
        return min(values)
    raise ValueError(f"unknown formula {formula}")


def leader_points(clan: Clan) -> int:
    """E4.5: the leader's formula; the Explorer has no end bonus."""
    category = CONTENT.leader(clan.leader).category
    return 0 if category is None else formula_points(category, counts(clan))


def clan_card_points(clan: Clan) -> tuple[tuple[str, int], ...]:
    """E4.6, rule K13 and D31: (card id, points) per clan card activated on both sides."""
    c = counts(clan)
    return tuple((card, formula_points(cat, c)) for card, cat in clan_abilities(clan.row))


def score_lines(clan: Clan) -> tuple[tuple[str, int], ...]:
    """E4 steps 2-6, one line each in :data:`SCORE_LINES` order (step 1, the reveal, is the
    engine's). Every owned token scores, used or not (V8, D15).
    """
    row = clan.row
    return (
        ("convoys", sum(CONTENT.token(t).influence for t in clan.convoys)),
        ("cards", sum(CONTENT.card(card).influence for card in row.cards)),
        ("storage", storage_value(clan.storage)),
        ("track", track_value(clan.track)),
        ("slots", sum(slot_influence(row, name) for name in filled_slots(row))),
        ("leader", leader_points(clan)),
        ("clan_cards", sum(points for _, points in clan_card_points(clan))),
    )


def score(clan: Clan) -> int:
    """E4: the sum of the score lines (may be negative)."""
    return sum(points for _, points in score_lines(clan))


def tiebreak(clan: Clan) -> int:
    """E5 and D27: recruit cards + artefact cubes."""
    c = counts(clan)
    return c.cards + c.cubes


def decide_winners(results: Mapping[K, tuple[int, int]]) -> tuple[K, ...]:
    """E5 and D35 over ``seat -> (score, tie-break)``: the highest score wins; tied players
    compare tie-breaks; a tie that remains means nobody wins (empty tuple).
    """
    if not results:
        return ()
    best = max(score for score, _ in results.values())
    tied = {seat: tb for seat, (score, tb) in results.items() if score == best}
    top = max(tied.values())
    leaders = tuple(seat for seat, tb in tied.items() if tb == top)
    return leaders if len(leaders) == 1 else ()


def winners(clans: Mapping[K, Clan]) -> tuple[K, ...]:
    """E5 over ``seat -> clan zone``: the winner's seat, or ``()`` when nobody wins (D35)."""
    return decide_winners({seat: (score(c), tiebreak(c)) for seat, c in clans.items()})
