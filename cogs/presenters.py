"""How each game is shown on Discord: board image and the text around it.

A presenter only sees engine views (never raw state) and returns text in the
reader's language; the cogs stay game-agnostic.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from bot import i18n
from bot.service import Session, Turn
from games.core import Outcome
from games.desert.model import AreaGain, DesertView, Placement, coord_name
from render.desert import render_desert


class Presenter(Protocol):
    def render(self, view: Any, names: Sequence[str], lang: str) -> bytes: ...

    def describe_turn(self, session: Session, turn: Turn, locale: object) -> str: ...

    def prompt(self, view: Any, locale: object) -> str: ...

    def private_summary(self, view: Any, locale: object) -> str: ...


class DesertPresenter:
    def render(self, view: DesertView, names: Sequence[str], lang: str) -> bytes:
        return render_desert(view, names, lang)

    def describe_turn(self, session: Session, turn: Turn, locale: object) -> str:
        """Public log line of a turn: each placement and its immediate points."""
        view: DesertView = session.engine.view(turn.state, None)
        placements = view.last_turn[-len(turn.moves) :] if turn.moves else ()
        parts = [self._placement(p, locale) for p in placements]
        return " · ".join(parts) if parts else " ".join(turn.moves)

    def _placement(self, p: Placement, locale: object) -> str:
        colour = i18n.colour_name(locale, p.colour) if p.colour else ""
        space = coord_name(p.at) if p.at else ""
        if p.kind == "discard":
            return i18n.t(locale, "desert.log.discard", colour=p.colour)
        if p.kind == "pass":
            return i18n.t(locale, "desert.log.pass")
        key = "desert.log.leader" if p.kind == "leader" else "desert.log.camel"
        text = i18n.t(locale, key, colour=colour, space=space)
        extras = []
        if p.water_space is not None:
            extras.append(i18n.t(locale, "desert.log.water"))
        for oasis in p.oases:
            extras.append(i18n.t(locale, "desert.log.oasis", space=coord_name(oasis)))
        extras.extend(self._area(area, locale) for area in p.areas)
        return f"{text} ({', '.join(extras)})" if extras else text

    @staticmethod
    def _area(area: AreaGain, locale: object) -> str:
        text = i18n.t(locale, "desert.log.area", count=len(area.spaces))
        if area.water_spaces:
            text += " " + i18n.t(locale, "desert.log.area_water", count=len(area.water_spaces))
        for oasis in area.oases:
            text += " " + i18n.t(locale, "desert.log.oasis", space=coord_name(oasis))
        return text

    def prompt(self, view: DesertView, locale: object) -> str:
        if view.phase == "discard":
            return i18n.t(locale, "desert.prompt.discard")
        if view.phase == "riders":
            rounds = 4 if view.players == 5 else 5
            return i18n.t(locale, "desert.prompt.rider", round=view.rider_round, rounds=rounds)
        if view.phase == "camels":
            key = "desert.prompt.camel_one" if view.allowance_left == 1 else "desert.prompt.camels"
            return i18n.t(locale, key, count=view.allowance_left)
        return ""

    def private_summary(self, view: DesertView, locale: object) -> str:
        if view.viewer is None:
            return i18n.t(locale, "game.not_a_player")
        me = view.info[view.viewer]
        lines = [
            i18n.t(
                locale,
                "desert.hand.water",
                count=me.water_count,
                points=me.water_points if me.water_points is not None else "?",
            ),
            i18n.t(locale, "desert.hand.oases", points=me.oasis_points),
            i18n.t(locale, "desert.hand.areas", points=me.area_points),
        ]
        if me.total is not None:
            lines.append(i18n.t(locale, "desert.hand.total", points=me.total))
        if me.leaders_left:
            names = ", ".join(i18n.colour_name(locale, c) for c in me.leaders_left)
            lines.append(i18n.t(locale, "desert.hand.leaders_left", colours=names))
        return "\n".join(lines)


PRESENTERS: dict[str, Presenter] = {"desert": DesertPresenter()}


def final_summary(outcome: Outcome, names: Sequence[str], locale: object) -> str:
    """Scores, winners and the breakdown per player, best first."""
    order = sorted(range(len(outcome.scores)), key=lambda s: (outcome.ranks[s], s))
    lines = []
    for seat in order:
        medal = "🏆" if seat in outcome.winners else f"{outcome.ranks[seat]}."
        parts = ""
        if outcome.breakdown:
            parts = " — " + ", ".join(
                f"{i18n.t(locale, f'score.{name}', default=name)} {points}"
                for name, points in outcome.breakdown[seat]
            )
        lines.append(f"{medal} **{names[seat]}**: {outcome.scores[seat]}{parts}")
    return "\n".join(lines)
