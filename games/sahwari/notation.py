"""Sahwari notation (spec §17): the steps of ``/sahwari move notation:<steps>``, syntax only.

Steps are separated by ``;`` (or ``,``) and read one by one; case, extra spaces and accents do
not matter. The English steps of §17.2, with the tokens and aliases of §17.1::

    leader LEADER                      stay                     keep        chest
    move DIR [COORD]                   relocate COMMON          use now     refresh
    take artefact|recruit|convoy HANDLE                         next        end
    place storage|JUNCTION             recruit POS SIDE         skip [KIND]
    use convoy HANDLE | use attack SPEC | use storage SPACE | use track TRACKAB | use slot JUNCTION
    spy HANDLE    bowl HANDLE    bird GCAMEL COORD ITEM    tornado CAMEL COORD
    attack SPEC   guild GCAMEL DIR [COORD]
    SPEC = ORIGIN guild GCAMEL COMMON | ORIGIN camel SEAT [JUNCTION] COMMON | ORIGIN convoy HANDLE

``DIR`` ``N E S W`` (``north``…), ``COMMON`` ``C3 B2 D2 B4 D4`` (``guild`` = C3), ``JUNCTION``
``L1``/``R1``…, ``HANDLE`` ``Y01``…``Y20`` and ``V1``…``V14`` (``y7`` reads ``Y07``, ``v03``
``V3``), ``GCAMEL`` ``G1 G2``, ``SEAT`` ``P1``…``P4`` (or a Discord mention, given ``seats``),
``ORIGIN`` ``me`` or a guild camel, ``ITEM`` ``artefact`` (``cube``), ``recruit`` (``pawn``) or
a handle, ``POS`` 1-4, ``SIDE`` ``left right`` (``l r``), ``SPACE`` 2-8, ``TRACKAB`` and ``KIND``
the effect kinds of §14 (written in capitals), ``LEADER`` ``merchant diplomat brigand spy
trafficker explorer``.

Readings of §17 made here: ``guild`` names tile C3 wherever a tile is expected (not only for
``COMMON``); ``take`` reads a bare handle or alias too (``take V3``, ``take cube``); ``recruit
POS`` without a side is refused (a :class:`Recruit` names its side, although §17.2 lets a lone
legal side be omitted); a Discord mention names a seat only through the ``seats`` map of
:func:`parse_text`. Unlike Oasis and Nomadi, spaces never chain steps (``skip chest`` is one
step, with a KIND), so each step is cut at its separator and one pattern must match it whole.

French words are read too, mixed freely with English ones: a step's first word from the first
list, any later word from the second. :func:`french` writes the first French word of each entry.
Accents are optional (``déplacer`` = ``deplacer``).

Step words (first word of a step)::

    chef leader            aller, déplacer move   rester, reste stay      replacer relocate
    prendre, prends take   poser, pose place      utiliser, utilise use   garder, garde keep
    recruter, recrute recruit                     espionner, espionne spy coffre chest
    renouveler refresh     oiseau bird            bol bowl                tornade tornado
    attaquer, attaque attack                      passer, passe skip      guilde guild
    suivant next           fin, terminer end

Argument words (any later word)::

    nord N   est E   sud S   ouest, o W         gauche, g left        droite, d right
    maintenant now           convoi convoy      chameau camel         moi me
    attaque attack           stockage storage   piste track           emplacement slot
    guilde guild             recrue recruit     pion pawn             carte CARD
    espion SPY               coffre CHEST       oiseau BIRD           bol BOWL
    tornade TORNADO          renouvellement, renouveler REFRESH
    marchand merchant        diplomate diplomat espion spy            trafiquant trafficker
    explorateur explorer     (brigand, artefact and cube are the same in both languages)

No French word is an English word of the notation (:data:`ENGLISH_WORDS`), so no word changes
meaning with the language: ``est`` is not English and ``o`` (ouest) is no English token, while
``E``, ``N`` and ``S`` are the same letters in both. Ids (tiles, seats, camels, handles,
junctions) are the same in both languages; a kind is written in capitals in both
(``passer TORNADE``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence

from games.sahwari.board import GUILD, Direction, Tile, name, parse_tile
from games.sahwari.messages import invalid
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
    Skip,
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
from games.text import Term

LEADERS = ("merchant", "diplomat", "brigand", "spy", "trafficker", "explorer")
KINDS = ("CARD", "REFRESH", "SPY", "CHEST", "BIRD", "BOWL", "TORNADO", "ATTACK")  # §14.1
TRACK_ABILITIES = ("SPY", "REFRESH", "CHEST", "TORNADO", "ATTACK", "BIRD")  # §11.2
SIDES = ("left", "right")
COMMONS = ("C3", "B2", "D2", "B4", "D4")
YELLOW_HANDLES = 20
BLUE_HANDLES = 14
MAX_JUNCTION = 36  # a clan row never holds more cards than the deck

# French first word of a step -> the English keyword.
STEP_WORDS = {
    "chef": "leader", "aller": "move", "deplacer": "move", "rester": "stay", "reste": "stay",
    "replacer": "relocate", "prendre": "take", "prends": "take", "poser": "place",
    "pose": "place", "utiliser": "use", "utilise": "use", "garder": "keep", "garde": "keep",
    "recruter": "recruit", "recrute": "recruit", "espionner": "spy", "espionne": "spy",
    "coffre": "chest", "renouveler": "refresh", "oiseau": "bird", "bol": "bowl",
    "tornade": "tornado", "attaquer": "attack", "attaque": "attack", "passer": "skip",
    "passe": "skip", "guilde": "guild", "suivant": "next", "fin": "end", "terminer": "end",
}  # fmt: skip
# French word after the first -> the English word.
ARG_WORDS = {
    "nord": "n", "est": "e", "sud": "s", "ouest": "w", "o": "w",
    "gauche": "left", "g": "left", "droite": "right", "d": "right",
    "maintenant": "now", "convoi": "convoy", "chameau": "camel", "moi": "me",
    "attaque": "attack", "stockage": "storage", "piste": "track", "emplacement": "slot",
    "guilde": "guild", "recrue": "recruit", "pion": "pawn", "carte": "card", "espion": "spy",
    "coffre": "chest", "renouvellement": "refresh", "renouveler": "refresh",
    "oiseau": "bird", "bol": "bowl", "tornade": "tornado", "marchand": "merchant",
    "diplomate": "diplomat", "trafiquant": "trafficker", "explorateur": "explorer",
}  # fmt: skip
# What french() writes: the English word -> its French word (first word, later words).
_FRENCH_STEP = {
    "leader": "chef", "move": "aller", "stay": "rester", "relocate": "replacer",
    "take": "prendre", "place": "poser", "use": "utiliser", "keep": "garder",
    "recruit": "recruter", "spy": "espionner", "chest": "coffre", "refresh": "renouveler",
    "bird": "oiseau", "bowl": "bol", "tornado": "tornade", "attack": "attaquer",
    "skip": "passer", "guild": "guilde", "next": "suivant", "end": "fin",
}  # fmt: skip
_FRENCH_ARG = {
    "w": "o", "left": "gauche", "right": "droite", "now": "maintenant", "convoy": "convoi",
    "camel": "chameau", "me": "moi", "attack": "attaque", "storage": "stockage",
    "track": "piste", "slot": "emplacement", "guild": "guilde", "recruit": "recrue",
    "card": "carte", "spy": "espion", "chest": "coffre", "refresh": "renouvellement",
    "bird": "oiseau", "bowl": "bol", "tornado": "tornade", "merchant": "marchand",
    "diplomat": "diplomate", "trafficker": "trafiquant", "explorer": "explorateur",
}  # fmt: skip
_DIRECTIONS: dict[str, Direction] = {
    "n": "N", "north": "N", "e": "E", "east": "E", "s": "S", "south": "S", "w": "W", "west": "W",
}  # fmt: skip
_SIDES = {"left": "left", "l": "left", "right": "right", "r": "right"}
_ITEMS = {"artefact": "artefact", "cube": "artefact", "recruit": "recruit", "pawn": "recruit"}
KEYWORDS = tuple(_FRENCH_STEP)
# Every English word of the notation (ids aside): no French word may be one of them.
ENGLISH_WORDS = frozenset(
    {*KEYWORDS, *_FRENCH_ARG, *_DIRECTIONS, *_SIDES, *_ITEMS, *LEADERS}
    | {kind.lower() for kind in KINDS}
)

_SEPARATORS = re.compile(r"[;,]")
_W = r"(\S+)"
# One pattern per step kind, over the step's English words joined by single spaces.
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern))
    for kind, pattern in (
        ("leader", rf"leader {_W}"),
        ("move", rf"move {_W}(?: {_W})?"),
        ("stay", r"stay"),
        ("relocate", rf"relocate {_W}"),
        ("take_convoy", rf"take convoy {_W}"),
        ("take", r"take (?!convoy$)(\S+)"),
        ("place", rf"place {_W}"),
        ("use_now", r"use now"),
        ("use_convoy", rf"use convoy {_W}"),
        ("use_attack", r"use attack (.+)"),
        ("use_storage", rf"use storage {_W}"),
        ("use_track", rf"use track {_W}"),
        ("use_slot", rf"use slot {_W}"),
        ("keep", r"keep"),
        ("recruit", rf"recruit {_W}(?: {_W})?"),
        ("spy", rf"spy {_W}"),
        ("chest", r"chest"),
        ("refresh", r"refresh"),
        ("bird", rf"bird {_W} {_W} {_W}"),
        ("bowl", rf"bowl {_W}"),
        ("tornado", rf"tornado {_W} {_W}"),
        ("attack", r"attack (.+)"),
        ("skip", rf"skip(?: {_W})?"),
        ("guild", rf"guild {_W} {_W}(?: {_W})?"),
        ("next", r"next"),
        ("end", r"end"),
    )
)
_ATTACK_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("guild", re.compile(rf"{_W} guild {_W} {_W}")),
    ("camel", re.compile(rf"{_W} camel {_W}(?: {_W})? {_W}")),
    ("convoy", re.compile(rf"{_W} convoy {_W}")),
)
_HANDLE = re.compile(r"([yv])(\d{1,2})")
_JUNCTION = re.compile(r"([lr])(\d{1,2})")
_MENTION = re.compile(r"<@!?(\d{1,20})>")
_ID_LIKE = re.compile(r"[a-z]\d+")

_Arg = tuple[str, str]  # a word (or words) in English lower case, and as the player typed it
_ABSENT: _Arg = ("", "")  # an optional word the step left out


def _plain(text: str) -> str:
    """Without accents (``Déplacer`` -> ``Deplacer``)."""
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _clip(text: str, size: int = 30) -> str:
    return text if len(text) <= size else text[: size - 1] + "…"


def _groups(found: re.Match[str], typed: Sequence[str]) -> list[_Arg]:
    """Each group of ``found`` with the words the player typed for it."""
    line = found.string
    out: list[_Arg] = []
    for group in range(1, found.re.groups + 1):
        english = found.group(group)
        if english is None:
            out.append(_ABSENT)
            continue
        first = line[: found.start(group)].count(" ")
        out.append((english, " ".join(typed[first : first + english.count(" ") + 1])))
    return out


def _direction(arg: _Arg) -> Direction:
    direction = _DIRECTIONS.get(arg[0])
    if direction is None:
        raise invalid("sahwari.err.direction", text=_clip(arg[1]))
    return direction


def _tile(arg: _Arg) -> Tile:
    if arg[0] == "guild":
        return GUILD
    try:
        return parse_tile(arg[0])
    except ValueError:
        raise invalid("sahwari.err.tile", text=_clip(arg[1])) from None


def _common(arg: _Arg) -> Tile:
    if arg[0] == "guild" or arg[0].upper() in COMMONS:
        return _tile(arg)
    raise invalid("sahwari.err.common", text=_clip(arg[1]))


def _junction(arg: _Arg) -> str:
    found = _JUNCTION.fullmatch(arg[0])
    if found is None or not 1 <= int(found[2]) <= MAX_JUNCTION:
        raise invalid("sahwari.err.junction", text=_clip(arg[1]))
    return f"{found[1].upper()}{int(found[2])}"


def _handle(arg: _Arg) -> str:
    found = _HANDLE.fullmatch(arg[0])
    if found is not None:
        number = int(found[2])
        if found[1] == "y" and 1 <= number <= YELLOW_HANDLES:
            return f"Y{number:02}"
        if found[1] == "v" and 1 <= number <= BLUE_HANDLES:
            return f"V{number}"
    raise invalid("sahwari.err.handle", text=_clip(arg[1]))


def _item(arg: _Arg) -> str:
    if arg[0] in _ITEMS:
        return _ITEMS[arg[0]]
    if _ID_LIKE.fullmatch(arg[0]):
        return _handle(arg)
    raise invalid("sahwari.err.item", text=_clip(arg[1]))


def _guild_camel(arg: _Arg) -> str:
    if arg[0] in ("g1", "g2"):
        return arg[0].upper()
    raise invalid("sahwari.err.guild_camel", text=_clip(arg[1]))


def _seat(arg: _Arg, seats: Mapping[int, str]) -> str:
    mention = _MENTION.fullmatch(arg[0])
    if mention is not None:
        seat = seats.get(int(mention[1]))
        if seat is None:
            raise invalid("sahwari.err.mention", text=_clip(arg[1]))
        return seat
    if arg[0] in ("p1", "p2", "p3", "p4"):
        return arg[0].upper()
    raise invalid("sahwari.err.seat", text=_clip(arg[1]))


def _camel(arg: _Arg, seats: Mapping[int, str]) -> str:
    if arg[0] in ("g1", "g2"):
        return arg[0].upper()
    if _MENTION.fullmatch(arg[0]) or arg[0] in ("p1", "p2", "p3", "p4"):
        return _seat(arg, seats)
    raise invalid("sahwari.err.camel", text=_clip(arg[1]))


def _origin(arg: _Arg) -> str:
    if arg[0] == "me":
        return "me"
    if arg[0] in ("g1", "g2"):
        return arg[0].upper()
    raise invalid("sahwari.err.origin", text=_clip(arg[1]))


def _number(arg: _Arg, low: int, high: int, key: str) -> int:
    if arg[0].isascii() and arg[0].isdigit() and low <= int(arg[0]) <= high:
        return int(arg[0])
    raise invalid(key, text=_clip(arg[1]))


def _side(arg: _Arg, position: int) -> str:
    if arg == _ABSENT:  # §17.2 lets a lone legal side be omitted; a Recruit names one
        raise invalid("sahwari.err.no_side", position=position)
    side = _SIDES.get(arg[0])
    if side is None:
        raise invalid("sahwari.err.side", text=_clip(arg[1]))
    return side


def _word(arg: _Arg, choices: Sequence[str], key: str) -> str:
    for choice in choices:
        if arg[0] == choice.lower():
            return choice
    raise invalid(key, text=_clip(arg[1]))


def _attack(arg: _Arg, seats: Mapping[int, str]) -> Attack:
    typed = arg[1].split(" ")
    for option, pattern in _ATTACK_PATTERNS:
        found = pattern.fullmatch(arg[0])
        if found is None:
            continue
        a = _groups(found, typed)
        origin = _origin(a[0])
        if option == "guild":
            return Attack(origin, option, _guild_camel(a[1]), None, _common(a[2]))
        if option == "camel":
            slot = None if a[2] == _ABSENT else _junction(a[2])
            return Attack(origin, option, _seat(a[1], seats), slot, _common(a[3]))
        return Attack(origin, option, _handle(a[1]))
    raise _Unreadable("attack")


class _Unreadable(Exception):
    """A step does not fit the form of its keyword (the exception's argument)."""


def _usage(keyword: str, typed: str) -> Exception:
    return invalid(
        "sahwari.err.usage", text=_clip(typed, 60), usage=Term(f"sahwari.usage.{keyword}")
    )


def _build(kind: str, a: list[_Arg], seats: Mapping[int, str]) -> Move:
    if kind == "leader":
        return ChooseLeader(_word(a[0], LEADERS, "sahwari.err.leader"))
    if kind == "move":
        return MoveCamel(_direction(a[0]), None if a[1] == _ABSENT else _tile(a[1]))
    if kind == "relocate":
        return Relocate(_common(a[0]))
    if kind == "take_convoy":
        return Take(_handle(a[0]))
    if kind == "take":
        return Take(_item(a[0]))
    if kind == "place":
        return PlaceCube("storage" if a[0][0] == "storage" else _junction(a[0]))
    if kind == "use_convoy":
        return UseConvoy(_handle(a[0]))
    if kind == "use_attack":
        return UseAttack(_attack(a[0], seats))
    if kind == "use_storage":
        return UseStorage(_number(a[0], 2, 8, "sahwari.err.space"))
    if kind == "use_track":
        return UseTrack(_word(a[0], TRACK_ABILITIES, "sahwari.err.track"))
    if kind == "use_slot":
        return UseSlot(_junction(a[0]))
    if kind == "recruit":
        position = _number(a[0], 1, 4, "sahwari.err.position")
        return Recruit(position, _side(a[1], position))
    if kind == "spy":
        return Spy(_handle(a[0]))
    if kind == "bird":
        return Bird(_guild_camel(a[0]), _tile(a[1]), _item(a[2]))
    if kind == "bowl":
        return Bowl(_handle(a[0]))
    if kind == "tornado":
        return Tornado(_camel(a[0], seats), _tile(a[1]))
    if kind == "attack":
        return _attack(a[0], seats)
    if kind == "skip":
        return Skip(None if a[0] == _ABSENT else _word(a[0], KINDS, "sahwari.err.kind"))
    if kind == "guild":
        stop = None if a[2] == _ABSENT else _tile(a[2])
        return GuildMove(_guild_camel(a[0]), _direction(a[1]), stop)
    return _BARE[kind]


_BARE: dict[str, Move] = {
    "stay": Stay(),
    "use_now": UseNow(),
    "keep": Keep(),
    "chest": Chest(),
    "refresh": Refresh(),
    "next": Next(),
    "end": End(),
}


def _step(part: str, seats: Mapping[int, str]) -> Move:
    typed = [word for word in part.split() if _plain(word)]
    words = [_plain(word).lower() for word in typed]
    words = [STEP_WORDS.get(words[0], words[0]), *(ARG_WORDS.get(w, w) for w in words[1:])]
    keyword = words[0]
    if keyword not in KEYWORDS:
        raise invalid("sahwari.err.syntax", text=_clip(typed[0]))
    line = " ".join(words)
    try:
        for kind, pattern in _PATTERNS:
            found = pattern.fullmatch(line)
            if found is not None:
                return _build(kind, _groups(found, typed), seats)
    except _Unreadable as unreadable:
        keyword = str(unreadable)
    if words[:2] == ["use", "attack"]:
        keyword = "attack"
    raise _usage(keyword, " ".join(typed))


def parse_text(text: str, *, seats: Mapping[int, str] | None = None) -> tuple[Move, ...]:
    """The steps a command names, in order (syntax only: legality is the engine's).

    ``seats`` maps a Discord user id to the seat (``"P2"``) a mention of that user names;
    without it a mention is refused and the player is asked for the seat.
    """
    moves = [_step(part, seats or {}) for part in _SEPARATORS.split(text) if part.strip()]
    if not moves:
        raise invalid("sahwari.err.empty")
    return tuple(moves)


def _attack_spec(attack: Attack) -> str:
    words = [attack.origin, attack.option, attack.target]
    if attack.slot is not None:
        words.append(attack.slot)
    if attack.tile is not None:
        words.append(name(attack.tile))
    return " ".join(words)


def _stop(stop: Tile | None) -> str:
    return "" if stop is None else f" {name(stop)}"


def format_move(move: Move) -> str:
    """The canonical English notation of one step (§17.2); :func:`parse_text` reads it back."""
    if isinstance(move, ChooseLeader):
        return f"leader {move.leader}"
    if isinstance(move, MoveCamel):
        return f"move {move.direction}{_stop(move.stop)}"
    if isinstance(move, Relocate):
        return f"relocate {name(move.tile)}"
    if isinstance(move, Take):
        return (
            f"take {move.item}"
            if move.item in ("artefact", "recruit")
            else f"take convoy {move.item}"
        )
    if isinstance(move, PlaceCube):
        return f"place {move.target}"
    if isinstance(move, Recruit):
        return f"recruit {move.position} {move.side}"
    if isinstance(move, Attack):
        return f"attack {_attack_spec(move)}"
    if isinstance(move, UseConvoy):
        return f"use convoy {move.handle}"
    if isinstance(move, UseAttack):
        return f"use attack {_attack_spec(move.attack)}"
    if isinstance(move, UseStorage):
        return f"use storage {move.space}"
    if isinstance(move, UseTrack):
        return f"use track {move.ability}"
    if isinstance(move, UseSlot):
        return f"use slot {move.junction}"
    if isinstance(move, Spy):
        return f"spy {move.handle}"
    if isinstance(move, Bird):
        return f"bird {move.camel} {name(move.tile)} {move.item}"
    if isinstance(move, Bowl):
        return f"bowl {move.handle}"
    if isinstance(move, Tornado):
        return f"tornado {move.camel} {name(move.tile)}"
    if isinstance(move, Skip):
        return "skip" if move.kind is None else f"skip {move.kind}"
    if isinstance(move, GuildMove):
        return f"guild {move.camel} {move.direction}{_stop(move.stop)}"
    for kind, bare in _BARE.items():
        if bare == move:
            return kind.replace("_", " ")
    raise ValueError(f"not a Sahwari move: {move!r}")


def french(move: Move) -> str:
    """The same step in French words (ids unchanged); :func:`parse_text` reads it back."""
    first, *rest = format_move(move).split(" ")
    words = [_FRENCH_STEP[first]]
    for word in rest:
        translated = _FRENCH_ARG.get(word.lower(), word)
        words.append(translated.upper() if word.isupper() else translated)
    return " ".join(words)
