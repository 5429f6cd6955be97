"""Every message the desert engine can refuse a move with.

Each key maps to an English template with ``{named}`` params. The bot keeps
a French template per key using the same params: ``player``/``other`` are
1-based seat numbers, ``space``/``at``/``oasis`` square names such as "G8",
``colour`` an English camel colour, ``rule`` a rule id of the spec.
"""

from __future__ import annotations

from collections.abc import Mapping

from games.core import IllegalMove, InvalidMove

MESSAGES: Mapping[str, str] = {
    # Syntax (InvalidMove).
    "desert.empty": "Type a move, for example 'orange F7', 'discard pink' or 'pass'.",
    "desert.syntax": (
        "Cannot read '{text}'. Expected '<colour> <space>' (e.g. 'orange F7'), "
        "'<colour> <space> <colour> <space>', 'discard <colour>' or 'pass'."
    ),
    "desert.unknown_colour": (
        "'{word}' is not a camel colour (white, yellow, orange, pink, green)."
    ),
    "desert.bad_space": "'{word}' is not a space of the board (columns A-S, rows 1-14).",
    "desert.too_many": "One command places at most two camels.",
    # Turn and phase (IllegalMove).
    "desert.game_over": "The game is over.",
    "desert.no_such_seat": "Player {player} is not in this game.",
    "desert.not_your_turn": "It is not your turn: player {other} is to play.",
    "desert.expect_discard": (
        "First each player puts one leader back in the box: 'discard <colour>'."
    ),
    "desert.expect_leader": "Now the leaders are placed, one per turn: '<colour> <space>'.",
    "desert.expect_camel": "Now camels are placed: '<colour> <space>'.",
    "desert.one_leader": "Place one leader per turn in the rider rounds.",
    "desert.discard_taken": (
        "Player {other} already put back the {colour} leader; choose another colour."
    ),
    # Rules of spec §6 (IllegalMove).
    "desert.off_board": "{rule}: {space} is not in play (mountain or unused section).",
    "desert.occupied": "{rule}: {space} already holds player {other}'s {colour} piece.",
    "desert.oasis_space": "{rule}: {space} is an oasis; nothing may stand on it.",
    "desert.r1_water": "R1: {space} holds a water hole; a leader must go on plain sand.",
    "desert.r2": "R2: {space} is next to the oasis at {oasis}.",
    "desert.r3": "R3: {space} is next to player {other}'s {colour} leader at {at}.",
    "desert.r4_discarded": "R4: you put your {colour} leader back in the box.",
    "desert.r4_placed": "R4: your {colour} leader is already on the board.",
    "desert.r5": (
        "R5: player {other} already placed {colour} in the first rider round; "
        "choose a colour nobody has placed yet this round."
    ),
    "desert.r7_no_caravan": "R7: you have no {colour} caravan.",
    "desert.r7_supply": "R7: the {colour} supply is empty.",
    "desert.r9": "R9: {space} is not next to your {colour} caravan.",
    "desert.r10": "R10: {space} is next to player {other}'s {colour} caravan at {at}.",
    "desert.r11": "R11: {space} lies in player {other}'s area.",
    "desert.r12": "R12: only one more camel may be placed this turn.",
    "desert.r13_pass": "R13: you may pass only when no camel can be placed (e.g. '{example}').",
    "desert.r13_end": "R13: no other camel can be placed after '{first}'; your turn ends there.",
    # A two-camel command is all or nothing; this wraps the failing part.
    # ``reason``/``reason_key`` are the inner message and key; its params are merged in.
    "desert.part_failed": (
        "Nothing was applied: camel {index} of your command ('{part}') is refused. {reason}"
    ),
}


def _text(key: str, params: Mapping[str, str | int]) -> str:
    return MESSAGES[key].format(**params)


def illegal(key: str, **params: str | int) -> IllegalMove:
    return IllegalMove(_text(key, params), key=key, **params)


def invalid(key: str, **params: str | int) -> InvalidMove:
    return InvalidMove(_text(key, params), key=key, **params)
