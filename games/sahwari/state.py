"""Sahwari's immutable state, its setup (spec §4) and its JSON form.

The state is the shared :class:`~games.sahwari.table.Table`, each seat's
:class:`~games.sahwari.clan.Clan`, who knows which blue token (rule H3), and
the **decision stack** (rule T4): its top is what the game waits for now, as
one of the prompts of §17.3 (see docs/sahwari-engine.md). Seats are 0-based
(seat 0 is the spec's P1).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from games.contract import Seat
from games.rng import Rng
from games.sahwari.clan import Clan, ClanRow, new_clan
from games.sahwari.content import LEADER_IDS
from games.sahwari.last_move import LastMove, dump_last, load_last
from games.sahwari.table import Table, setup_table
from games.text import strs_of

# The prompts of §17.3: what the top of the stack asks of its seat.
LEADER, WINDOW, MOVE, RELOCATE, SECOND_MOVE = "leader", "window", "move", "relocate", "second"
COLLECT, PLACE_CUBE, CONVOY, PICK_CARD, EFFECTS = "collect", "cube", "convoy", "card", "effects"
GUILD_MOVE = "guild"
PROMPTS = (
    LEADER, WINDOW, MOVE, RELOCATE, SECOND_MOVE, COLLECT,
    PLACE_CUBE, CONVOY, PICK_CARD, EFFECTS, GUILD_MOVE,
)  # fmt: skip


@dataclass(frozen=True)
class Pending:
    """One prompt on the decision stack: its kind, whose it is, and its details
    (the window ``W0``-``W3``, the Explorer's first direction, the token to use
    or keep, the pending sibling effects, the guild move's number…)."""

    prompt: str
    seat: Seat
    args: tuple[str, ...] = ()


@dataclass(frozen=True)
class SahwariState:
    players: int
    rng: Rng
    random_layout: bool
    random_leaders: bool
    table: Table
    leaders: tuple[str, ...]  # per seat; "" until chosen (setup step 8)
    clans: tuple[Clan, ...]  # empty until every leader is chosen
    known: tuple[tuple[str, tuple[Seat, ...]], ...] = ()  # blue token -> who saw its face
    removed: tuple[str, ...] = ()  # tokens taken off the game by attacks, face down (V10)
    stack: tuple[Pending, ...] = ()  # top last
    round: int = 1
    active: Seat = 0
    arrival: int = -1  # the turn's arrival tile (rule R13), -1 when none
    track_used: tuple[str, ...] = ()  # track abilities used this turn (rule S6)
    trigger: int = 0  # the round in which the end was triggered (rule E1), 0 before
    over: bool = False
    # (seat, step) the engine decided on its own in the last step played (T6): a
    # command typed next may repeat them, and they are ignored (D46)
    autos: tuple[tuple[Seat, str], ...] = ()
    # What the turn being played, or else the last one played, changed on the
    # board (public; the picture highlights it)
    last: LastMove = LastMove()

    @property
    def top(self) -> Pending | None:
        return self.stack[-1] if self.stack else None


def new_state(
    players: int, seed: int, random_layout: bool = False, random_leaders: bool = False
) -> SahwariState:
    """Setup (§4): the table, then the leaders, chosen in reverse seat order
    (one prompt each, the last seat's on top) or dealt at random."""
    if not 2 <= players <= 4:
        raise ValueError(f"Sahwari is for 2-4 players, not {players}")
    rng = Rng.from_seed(seed)
    table, rng = setup_table(players, rng, random_layout)
    state = SahwariState(
        players=players,
        rng=rng,
        random_layout=random_layout,
        random_leaders=random_leaders,
        table=table,
        leaders=("",) * players,
        clans=(),
        stack=tuple(Pending(LEADER, seat) for seat in range(players)),
    )
    if random_leaders:
        dealt, rng = rng.sample(LEADER_IDS, players)
        state = with_leaders(replace(state, rng=rng, stack=()), dealt)
    return state


def with_leaders(state: SahwariState, leaders: tuple[str, ...]) -> SahwariState:
    """Every leader chosen: each clan zone is set up (step 7: one cube on storage)."""
    return replace(state, leaders=leaders, clans=tuple(new_clan(leader) for leader in leaders))


# --------------------------------------------------------------------------- JSON


def dump_state(s: SahwariState) -> dict[str, Any]:
    t = s.table
    return {
        "players": s.players,
        "rng": s.rng.state,
        "random_layout": s.random_layout,
        "random_leaders": s.random_leaders,
        "table": {
            "sides": t.sides,
            "items": [list(items) for items in t.items],
            "guild": [t.guild_pawns, t.guild_cubes],
            "camels": [list(c) for c in t.camels],
            "handles": list(t.handles),
            "supply": [t.cubes, t.pawns, t.attack_tokens],
            "deck": list(t.deck),
            "discard": list(t.discard),
            "row": list(t.row),
        },
        "leaders": list(s.leaders),
        "clans": [_dump_clan(c) for c in s.clans],
        "known": [[token, list(seats)] for token, seats in s.known],
        "removed": list(s.removed),
        "stack": [[p.prompt, p.seat, list(p.args)] for p in s.stack],
        "round": s.round,
        "active": s.active,
        "arrival": s.arrival,
        "track_used": list(s.track_used),
        "trigger": s.trigger,
        "over": s.over,
        "autos": [[seat, step] for seat, step in s.autos],
        "last": dump_last(s.last),
    }


def _dump_clan(c: Clan) -> dict[str, Any]:
    row = c.row
    return {
        "leader": c.leader,
        "row": [
            list(row.left),
            list(row.right),
            list(row.left_junctions),
            list(row.right_junctions),
        ],
        "storage": c.storage,
        "track": c.track,
        "convoys": list(c.convoys),
        "used": list(c.used),
        "attack_tokens": c.attack_tokens,
        "locked": list(c.locked),
    }


def _load_clan(d: Mapping[str, Any]) -> Clan:
    left, right, left_junctions, right_junctions = d["row"]
    return Clan(
        leader=str(d["leader"]),
        row=ClanRow(
            strs_of(left),
            strs_of(right),
            strs_of(left_junctions),  # type: ignore[arg-type]  # checked by ClanRow
            strs_of(right_junctions),  # type: ignore[arg-type]
        ),
        storage=int(d["storage"]),
        track=int(d["track"]),
        convoys=strs_of(d["convoys"]),
        used=strs_of(d["used"]),
        attack_tokens=int(d["attack_tokens"]),
        locked=tuple(int(v) for v in d["locked"]),
    )


def load_state(d: Mapping[str, Any]) -> SahwariState:
    try:
        t = d["table"]
        table = Table(
            sides=str(t["sides"]),
            items=tuple(strs_of(items) for items in t["items"]),
            guild_pawns=int(t["guild"][0]),
            guild_cubes=int(t["guild"][1]),
            camels=tuple((str(c), int(tile)) for c, tile in t["camels"]),
            handles=strs_of(t["handles"]),
            cubes=int(t["supply"][0]),
            pawns=int(t["supply"][1]),
            attack_tokens=int(t["supply"][2]),
            deck=strs_of(t["deck"]),
            discard=strs_of(t["discard"]),
            row=strs_of(t["row"]),
        )
        return SahwariState(
            players=int(d["players"]),
            rng=Rng(int(d["rng"])),
            random_layout=bool(d["random_layout"]),
            random_leaders=bool(d["random_leaders"]),
            table=table,
            leaders=strs_of(d["leaders"]),
            clans=tuple(_load_clan(c) for c in d["clans"]),
            known=tuple((str(token), tuple(int(s) for s in seats)) for token, seats in d["known"]),
            removed=strs_of(d["removed"]),
            stack=tuple(Pending(str(p), int(seat), strs_of(args)) for p, seat, args in d["stack"]),
            round=int(d["round"]),
            active=int(d["active"]),
            arrival=int(d["arrival"]),
            track_used=strs_of(d["track_used"]),
            trigger=int(d["trigger"]),
            over=bool(d["over"]),
            autos=tuple((int(seat), str(step)) for seat, step in d.get("autos", ())),
            # Games saved before the highlight existed have none.
            last=load_last(d["last"]) if "last" in d else LastMove(),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"sahwari state: {error}") from error
