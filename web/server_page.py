"""A server's page: its standings per game, as /leaderboard gives them, and its
games, newest first, a page at a time."""

from __future__ import annotations

from web.data import GameLine, ServerView, Standings
from web.frame import (
    SITE_NAME,
    Preview,
    decimal,
    document,
    e,
    game_title,
    listed,
    numbered,
    status_text,
    when,
)
from web.language import LANGUAGES, t
from web.links import Links

UNRATED = "—"


def server_preview(view: ServerView, lang: str, links: Links) -> Preview:
    image = None
    if view.latest is not None:
        image = links.board(view.guild_id, view.latest, absolute=True)
    return Preview(
        title=f"{SITE_NAME} — {t(lang, 'web.server.title')}",
        description=t(lang, "web.server.description"),
        url=links.server(view.guild_id, absolute=True),
        image=image,
    )


def server_page(view: ServerView, lang: str, links: Links) -> str:
    """A server's standings per game and one page of its games, newest first."""
    preview = server_preview(view, lang, links)
    page = None if view.page == 1 else view.page
    switch = {code: links.with_lang(code).server(view.guild_id, page=page) for code in LANGUAGES}
    body = [
        f"<h1>{e(t(lang, 'web.server.title'))}</h1>",
        '<section class="standings">',
        f"<h2>{e(t(lang, 'web.server.standings'))}</h2>",
    ]
    if view.standings:
        body += [standings_table(lang, board) for board in view.standings]
        body.append(f'<p class="status">{e(t(lang, "web.rating_help"))}</p>')
    else:
        body.append(f"<p>{e(t(lang, 'web.server.no_standings'))}</p>")
    body += [
        "</section>",
        '<section class="games">',
        f"<h2>{e(t(lang, 'web.server.games'))}</h2>",
        '<ul class="game-list">',
        *(game_item(lang, links, view.guild_id, line) for line in view.games),
        "</ul>",
        pager(lang, links, view),
        "</section>",
    ]
    return document(lang, t(lang, "web.server.title"), preview, "\n".join(body), links, switch)


def standings_table(lang: str, board: Standings) -> str:
    head = "".join(
        f'<th scope="col"{cls}>{e(t(lang, key))}</th>'
        for key, cls in (
            ("web.col.rank", ' class="number"'),
            ("web.col.player", ""),
            ("web.col.rating", ' class="number"'),
            ("web.col.games", ' class="number"'),
            ("web.col.wins", ' class="number"'),
            ("web.col.placement", ' class="number"'),
        )
    )
    rows = [
        "<tr>"
        f'<td class="number">{leader.rank}</td>'
        f"<td>{e(leader.name)}</td>"
        f'<td class="number">{e(UNRATED if leader.rating is None else leader.rating)}</td>'
        f'<td class="number">{leader.games}</td>'
        f'<td class="number">{leader.wins}</td>'
        f'<td class="number">{e(decimal(lang, leader.placement))}</td>'
        "</tr>"
        for leader in board.leaders
    ]
    return "\n".join(
        [
            f"<h3>{e(game_title(lang, board.kind))}</h3>",
            '<div class="table-wrap"><table>',
            f"<thead><tr>{head}</tr></thead>",
            "<tbody>",
            *rows,
            "</tbody></table></div>",
        ]
    )


def game_item(lang: str, links: Links, guild_id: int, line: GameLine) -> str:
    moment = line.finished_at if line.status in ("finished", "cancelled") else line.created_at
    return (
        f'<li><a href="{e(links.game(guild_id, line.id))}">{e(numbered(lang, line.kind, line.id))}'
        f"</a> — {e(status_text(lang, line.status))}"
        f'<span class="meta">{e(listed(line.players))} · {when(moment)}</span></li>'
    )


def pager(lang: str, links: Links, view: ServerView) -> str:
    if view.pages <= 1:
        return ""
    parts = []
    if view.page > 1:
        newer = None if view.page == 2 else view.page - 1
        parts.append(
            f'<a rel="prev" href="{e(links.server(view.guild_id, page=newer))}">'
            f"{e(t(lang, 'web.pager.newer'))}</a>"
        )
    parts.append(f"<span>{e(t(lang, 'web.pager.page', page=view.page, pages=view.pages))}</span>")
    if view.page < view.pages:
        parts.append(
            f'<a rel="next" href="{e(links.server(view.guild_id, page=view.page + 1))}">'
            f"{e(t(lang, 'web.pager.older'))}</a>"
        )
    return f'<nav class="pager" aria-label="{e(t(lang, "web.pager.label"))}">{"".join(parts)}</nav>'
