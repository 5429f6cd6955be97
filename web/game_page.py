"""A game's page: players and their colours, state, the board with its replay
slider, the result and score chart, the move history.

No script is needed to read it; the slider's small script (``style.py``)
only swaps the board image as it moves.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot import i18n
from games.text import Term
from web.data import GameView, MoveLine, Position
from web.frame import Preview, around, document, e, listed, numbered, status_text, when
from web.language import LANGUAGES, t
from web.links import Links
from web.style import SCRIPT

BOT_MARK = "🤖"
SWATCH = 16  # px
HISTORY_OPEN = 40  # move rows shown unfolded, at most


def swatch(colour: str | None) -> str:
    """A square in the seat's colour (SVG attributes, not a style: the policy
    allows no inline style)."""
    if colour is None:
        return ""
    return (
        f'<svg class="swatch" width="{SWATCH}" height="{SWATCH}" aria-hidden="true">'
        f'<rect width="{SWATCH}" height="{SWATCH}" fill="{e(colour)}"/></svg>'
    )


def term_text(lang: str, term: Term | None, people: Sequence[str]) -> str:
    return "" if term is None else i18n.term(lang, term, people)


def state_line(view: GameView, lang: str) -> str:
    """Status and whose turn, or who won: "In progress — Bob to play"."""
    status = status_text(lang, view.status)
    if view.status == "active" and view.acting:
        names = listed([seat.name for seat in view.acting])
        return t(lang, "web.status_with", status=status, more=t(lang, "web.to_play", names=names))
    if view.status == "finished" and view.winners:
        winners = [line.name for line in view.winners]
        won = t(lang, "web.won", names=listed(winners), count=len(winners))
        return t(lang, "web.status_with", status=status, more=won)
    return status


def game_preview(view: GameView, lang: str, links: Links, size: tuple[int, int] | None) -> Preview:
    players = listed([seat.name for seat in view.seats])
    title = t(
        lang, "web.game_preview_title", game=numbered(lang, view.kind, view.id), players=players
    )
    description = state_line(view, lang)
    if view.status == "finished" and view.scored and view.final:
        scores = listed([f"{line.name} {line.score}" for line in view.final])
        description = t(lang, "web.status_with", status=description, more=scores)
    if view.broken:
        description = t(lang, "web.status_with", status=description, more=t(lang, "web.broken"))
    current = view.current
    image = None
    if current is not None and not view.broken:
        image = links.board(view.guild_id, current, absolute=True)
    return Preview(
        title=title,
        description=description,
        url=links.game(view.guild_id, view.id, absolute=True),
        image=image,
        size=size if image is not None else None,
    )


def game_page(
    view: GameView,
    lang: str,
    links: Links,
    position: int | None,
    *,
    size: tuple[int, int] | None = None,
    replay_failed: bool = False,
) -> str:
    """One game: players, state, board and replay, history, result and chart.
    ``position`` (already within the game's positions, or None for now) is the
    board shown; ``size`` the current position's image size when known."""
    heading = numbered(lang, view.kind, view.id)
    switch = {
        code: links.with_lang(code).game_at(view.guild_id, view.id, position) for code in LANGUAGES
    }
    body = [
        f'<p><a href="{e(links.server(view.guild_id))}">{e(t(lang, "web.back"))}</a></p>',
        f"<h1>{e(heading)}</h1>",
        f'<p class="status">{e(state_line(view, lang))}</p>',
    ]
    if view.broken:
        body.append(f'<p class="note">{e(t(lang, "web.broken"))}</p>')
    body.append(seats_section(view, lang))
    if view.started and not view.broken:
        body.append(board_section(view, lang, links, position, replay_failed))
    if view.final:
        body.append(result_section(view, lang, links))
    if view.moves:
        body.append(history_section(view, lang, links))
    preview = game_preview(view, lang, links, size)
    return document(lang, heading, preview, "\n".join(body), links, switch)


def seats_section(view: GameView, lang: str) -> str:
    items = []
    for seat in view.seats:
        parts = [swatch(seat.colour), f'<span class="name">{e(seat.name)}</span>']
        if seat.bot:
            parts.append(f'<span class="tag">{e(t(lang, "web.tag.bot"))}</span>')
        if seat.tag is not None:
            parts.append(f'<span class="tag">{e(t(lang, f"web.tag.{seat.tag}"))}</span>')
        if seat.acting:
            parts.append(f'<span class="tag">{e(t(lang, "web.tag.to_play"))}</span>')
        if not seat.bot:
            rating = (
                t(lang, "web.unrated")
                if seat.rating is None
                else t(lang, "web.rating", rating=seat.rating)
            )
            parts.append(f'<span class="rating">{e(rating)}</span>')
        summary = term_text(lang, seat.summary, view.people)
        if summary:
            parts.append(f'<span class="summary">{e(summary)}</span>')
        acting = ' class="acting"' if seat.acting else ""
        items.append(f"<li{acting}>{''.join(parts)}</li>")
    return "\n".join(
        [
            '<section class="players">',
            f"<h2>{e(t(lang, 'web.players'))}</h2>",
            '<ul class="seats">',
            *items,
            "</ul>",
            "</section>",
        ]
    )


def move_at(view: GameView, position: int) -> MoveLine | None:
    """The counted row that led to ``position``."""
    return next((m for m in view.moves if m.position == position), None)


def board_section(
    view: GameView, lang: str, links: Links, position: int | None, replay_failed: bool
) -> str:
    current = view.current
    assert current is not None
    last = current.number
    game = numbered(lang, view.kind, view.id)
    if position is None:
        src = links.current_board(view.guild_id, view.id)
        alt = t(lang, "web.board_now_alt", game=game)
        shown = last
    else:
        at = Position(view.id, position, view.tags[position])
        src = links.board(view.guild_id, at)
        alt = t(lang, "web.board_alt", game=game, position=position)
        shown = position
    parts = [
        '<section class="board">',
        f"<h2>{e(t(lang, 'web.board'))}</h2>",
        # The image links to itself: on a phone, a tap opens it at full size to zoom.
        f'<figure><a href="{e(src)}"><img id="board" src="{e(src)}" alt="{e(alt)}"></a></figure>',
    ]
    if replay_failed:
        parts.append(f'<p class="note">{e(t(lang, "web.replay_broken"))}</p>')
    else:
        parts.append(replay_controls(view, lang, links, shown, last, position is not None))
    parts.append("</section>")
    return "\n".join(parts)


def replay_controls(
    view: GameView, lang: str, links: Links, shown: int, last: int, chosen: bool
) -> str:
    """The slider (a form: it works without the script), the step links and
    what led to the position shown."""
    game_path = links.game(view.guild_id, view.id, absolute=False, query=False)
    language = (
        "" if links.lang is None else f'<input type="hidden" name="lang" value="{e(links.lang)}">'
    )
    extra = "" if links.lang is None else f"&lang={links.lang}"
    before, after = around(lang, "web.position", "position", last=last)
    move = move_at(view, shown)
    if shown == 0:
        said = t(lang, "web.at_start")
    elif move is not None:
        said = t(lang, "web.after_move", ply=move.ply, name=move.name, move=move.notation)
    else:
        said = ""

    def step(n: int | None, key: str, attributes: str = "") -> str:
        href = e(links.game_at(view.guild_id, view.id, n))
        return f'<a{attributes} href="{href}">{e(t(lang, key))}</a>'

    steps = [
        step(max(0, shown - 1), "web.prev", ' id="prev" rel="nofollow"'),
        step(None, "web.now", "" if chosen else ' aria-current="page"'),
        step(min(last, shown + 1), "web.next", ' id="next" rel="nofollow"'),
    ]
    return "\n".join(
        [
            f'<form class="replay" method="get" action="{e(game_path)}">',
            f'<label for="position">{e(t(lang, "web.replay"))}</label>',
            f'<input type="range" id="position" name="position" min="0" max="{last}"'
            f' value="{shown}" data-board="{e(links.positions_base(view.guild_id, view.id))}"'
            f' data-tags="{e(" ".join(map(str, view.tags)))}" data-query="{e(extra)}">',
            f'<span>{e(before)}<output id="position-label" for="position">{shown}</output>'
            f"{e(after)}</span>",
            language,
            f'<button type="submit">{e(t(lang, "web.show"))}</button>',
            "</form>",
            f'<nav class="steps">{"".join(steps)}</nav>',
            f'<p class="status" id="position-move">{e(said)}</p>' if said else "",
            f"<script>{SCRIPT}</script>",
        ]
    )


def result_section(view: GameView, lang: str, links: Links) -> str:
    head = "".join(
        f'<th scope="col"{cls}>{e(t(lang, key))}</th>'
        for key, cls in (
            ("web.col.place", ' class="number"'),
            ("web.col.player", ""),
            ("web.col.score", ' class="number"'),
            ("web.col.details", ""),
        )
    )
    rows = []
    for line in view.final:
        name = e(line.name)
        if line.tag is not None:
            name += f' <span class="tag">{e(t(lang, f"web.tag.{line.tag}"))}</span>'
        if line.won:
            name = f'<span class="won">{name}</span>'
        details = ", ".join(
            f"{t(lang, f'{view.kind}.score.{category}', default=category)} {points}"
            for category, points in line.breakdown
        )
        score = line.score if view.scored else ""
        rows.append(
            f'<tr><td class="number">{line.rank}</td><td>{name}</td>'
            f'<td class="number">{e(score)}</td><td>{e(details)}</td></tr>'
        )
    parts = [
        '<section class="result">',
        f"<h2>{e(t(lang, 'web.result'))}</h2>",
        '<div class="table-wrap"><table>',
        f"<thead><tr>{head}</tr></thead>",
        "<tbody>",
        *rows,
        "</tbody></table></div>",
        "</section>",
    ]
    if view.chart:
        chart = t(lang, "web.chart")
        parts += [
            '<section class="chart">',
            f"<h2>{e(chart)}</h2>",
            f'<figure><img src="{e(links.chart(view.guild_id, view.id))}" alt="{e(chart)}"'
            ' loading="lazy"></figure>',
            "</section>",
        ]
    return "\n".join(parts)


def history_section(view: GameView, lang: str, links: Links) -> str:
    items = [move_item(view, lang, links, move) for move in view.moves]
    # A long log is folded (a click opens it, no script needed).
    opened = " open" if len(items) <= HISTORY_OPEN else ""
    summary = t(lang, "web.history_count", count=len(items))
    return "\n".join(
        [
            '<section class="history">',
            f"<h2>{e(t(lang, 'web.history'))}</h2>",
            f"<details{opened}><summary>{e(summary)}</summary>",
            '<ol class="moves">',
            *items,
            "</ol>",
            "</details>",
            "</section>",
        ]
    )


def move_item(view: GameView, lang: str, links: Links, move: MoveLine) -> str:
    name = e(move.name)
    if move.by_ai and BOT_MARK not in move.name:  # the AI played a human's seat
        name += f' <span title="{e(t(lang, "web.by_ai"))}">{BOT_MARK}</span>'
    ply = f'<span class="ply">{move.ply}.</span> '
    moment = when(move.created_at)
    if move.takes_back:
        before, after = around(
            lang,
            "web.undo",
            "name",
            count=len(move.takes_back),
            first=min(move.takes_back),
            last=max(move.takes_back),
        )
        return f'<li class="undo">{ply}↩ {e(before)}<strong>{name}</strong>{e(after)} {moment}</li>'
    body = f"<strong>{name}</strong> — <code>{e(move.notation)}</code>"
    if move.undone:
        return (
            f'<li class="undone">{ply}<del>{body}</del>'
            f" ({e(t(lang, 'web.taken_back'))}) {moment}</li>"
        )
    if move.position is not None and not view.broken:
        href = links.game_at(view.guild_id, view.id, move.position)
        body = f'<a href="{e(href)}" rel="nofollow">{body}</a>'
    return f"<li>{ply}{body} {moment}</li>"
