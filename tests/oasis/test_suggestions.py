"""What the autocomplete offers for Oasis commands (the notation of §11 typed
piece by piece): a move whose notation starts another's (``o D4`` and
``o D4 noclaim``) is read whole, and every suggestion parses."""

from __future__ import annotations

from collections.abc import Sequence

from games.oasis.engine import GAME, OasisGame
from games.oasis.model import NOCLAIM, Tile
from games.suggestions import complete
from tests.oasis.test_rules import at_placement, sq


def test_a_longer_move_typed_is_not_cut_at_a_shorter_one() -> None:
    # An unowned oasis domain on C4 (beside the spring C3): extending it on D4
    # may claim it (``o D4``) or not (``o D4 noclaim``).
    s, me = at_placement(pending=(2, 0, 0, 0), tiles={"o": "C4"})
    assert Tile("o", sq("D4"), NOCLAIM) in GAME.legal_moves(s, me)
    found = complete(GAME, s, me, "o D4 noclaim ")
    assert found
    for suggestion in found:
        assert suggestion.command.startswith("o D4 noclaim o ")
        moves = GAME.parse(s, me, suggestion.command)
        assert moves[0] == Tile("o", sq("D4"), NOCLAIM)
    claimed = complete(GAME, s, me, "o D4 ")
    assert claimed and all(c.command.startswith("o D4 o ") for c in claimed)


def test_offers_are_suggested_with_their_cards() -> None:
    s, me = at_placement()
    found = complete(GAME, s, me, "")
    assert found and all(c.command.startswith("take ") for c in found)
    assert all(c.hint is not None and c.hint.key == "oasis.hint.take" for c in found)


class SemicolonOasis(OasisGame):
    """Oasis joining a command's moves with "; " (its parser reads both)."""

    def join_moves(self, parts: Sequence[str]) -> str:
        return "; ".join(parts)


def test_a_game_joins_the_moves_autocomplete_offers_its_own_way() -> None:
    game = SemicolonOasis()
    s, me = at_placement(pending=(2, 0, 0, 0), tiles={"o": "C4"})
    found = complete(game, s, me, "o D4 noclaim; ")
    assert found and all(c.command.startswith("o D4 noclaim; o ") for c in found)
    assert all(len(game.parse(s, me, c.command)) == 2 for c in found)
