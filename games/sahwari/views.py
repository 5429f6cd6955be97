"""What one seat (or a spectator) may see of a Sahwari game (spec §13).

Public (H1): the map, tile sides, camels, every cube and pawn, yellow tokens,
each blue token's handle and where it is, clan rows, tracks, lock and attack
tokens, leaders, the recruitment row and discard, the deck's size. Hidden
(H2): the face of every blue token still face down, except to the seats that
saw it (H3: its taker, a spy), and the deck's order. At the end everything
is shown (E4.1, E6).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.contract import Seat
from games.sahwari import clan as clans
from games.sahwari.clan import Clan, ClanRow
from games.sahwari.last_move import LastMove
from games.sahwari.state import SahwariState


@dataclass(frozen=True)
class ClanView:
    leader: str  # "" until chosen
    row: ClanRow
    storage: int
    track: int
    convoys: tuple[str, ...]  # handles (``Y04``, ``V3``), in the order taken
    used: tuple[str, ...]  # handles of the tokens already used (face up)
    attack_tokens: int
    locked: tuple[int, ...]


@dataclass(frozen=True)
class SahwariView:
    players: int
    viewer: Seat | None
    round: int
    active: Seat
    prompt: str  # the top of the decision stack ("" when over)
    prompt_seat: Seat | None
    prompt_args: tuple[str, ...]
    sides: str  # per tile: R face up, d desert, g Guild, o oasis
    items: tuple[tuple[str, ...], ...]  # per tile: "A", "R" or a token's handle
    guild_pawns: int
    guild_cubes: int
    camels: tuple[tuple[str, int], ...]
    cubes: int  # supplies
    pawns: int
    attack_tokens: int
    deck: int
    discard: tuple[str, ...]
    row: tuple[str, ...]
    clans: tuple[ClanView, ...]
    faces: tuple[tuple[str, str], ...]  # handle -> token id, for every face this viewer may see
    removed: tuple[str, ...]  # handles of tokens taken off the game by attacks (face down)
    arrival: int
    track_used: tuple[str, ...]
    trigger: int  # the round the end was triggered in (0: not yet)
    over: bool
    scores: tuple[tuple[tuple[str, int], ...], ...] | None  # per seat, once over
    winners: tuple[Seat, ...]  # once over; empty also when nobody wins (D35)
    last: LastMove = LastMove()  # what the last turn changed (public), for the highlight


def faces_seen(s: SahwariState, viewer: Seat | None) -> dict[str, str]:
    """Handle -> token for every face ``viewer`` may see: yellow tokens, used
    tokens, the blue ones it saw (H3), and every one at the end."""
    table = s.table
    seen: dict[str, str] = {}
    known = dict(s.known)
    used = {token for c in s.clans for token in c.used}
    for token in table.handles:
        if s.over or token in used or (viewer is not None and viewer in known.get(token, ())):
            seen[table.handle(token)] = token
    for items in table.items:
        seen.update((i, i) for i in items if i.startswith("Y"))
    for c in s.clans:
        seen.update((t, t) for t in c.convoys if t.startswith("Y"))
    return seen


def build_view(s: SahwariState, viewer: Seat | None) -> SahwariView:
    table = s.table
    top = s.top

    def clan_view(seat: Seat) -> ClanView:
        if seat >= len(s.clans):
            return ClanView(s.leaders[seat], ClanRow(), 0, 0, (), (), 0, ())
        c: Clan = s.clans[seat]
        return ClanView(
            leader=c.leader,
            row=c.row,
            storage=c.storage,
            track=c.track,
            convoys=tuple(table.handle(t) for t in c.convoys),
            used=tuple(table.handle(t) for t in c.used),
            attack_tokens=c.attack_tokens,
            locked=c.locked,
        )

    scores = None
    winners: tuple[Seat, ...] = ()
    if s.over:
        scores = tuple(clans.score_lines(c) for c in s.clans)
        winners = clans.winners(dict(enumerate(s.clans)))
    return SahwariView(
        players=s.players,
        viewer=viewer,
        round=s.round,
        active=s.active,
        prompt="" if top is None else top.prompt,
        prompt_seat=None if top is None else top.seat,
        prompt_args=() if top is None else top.args,
        sides=table.sides,
        items=tuple(tuple(table.handle(i) for i in items) for items in table.items),
        guild_pawns=table.guild_pawns,
        guild_cubes=table.guild_cubes,
        camels=table.camels,
        cubes=table.cubes,
        pawns=table.pawns,
        attack_tokens=table.attack_tokens,
        deck=len(table.deck),
        discard=table.discard,
        row=table.row,
        clans=tuple(clan_view(seat) for seat in range(s.players)),
        faces=tuple(sorted(faces_seen(s, viewer).items())),
        removed=tuple(table.handle(t) for t in s.removed),
        arrival=s.arrival,
        track_used=s.track_used,
        trigger=s.trigger,
        over=s.over,
        scores=scores,
        winners=winners,
        last=s.last,
    )
