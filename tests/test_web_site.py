"""The web pages (web/) over HTTP: a real server on 127.0.0.1, a real SQLite
database filled through the game service (``tests/web_games.py``), real
boards drawn with Pillow (inline), read with aiohttp's client.

The games are made once for the module (a few seconds); each test reads them.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import io
import json
import re
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from html import escape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote

import aiohttp
import pytest
import pytest_asyncio
from PIL import Image

from bot import i18n
from bot.boards import Boards, seat_tags
from bot.charts import score_chart_png
from bot.ratings import Rating
from bot.replay import Row, replay
from bot.service import GameService
from bot.session import Session
from bot.storage import STATUSES, Storage, open_storage
from games import catalogue
from render.chart import score_chart
from tests.web_games import GUILD, SiteGames, built_specs, hidden_faces, seeded_site_data
from web.guard import Busy, DrawGate, WebLimits
from web.site import WebSite

pytestmark = pytest.mark.asyncio(loop_scope="module")

ROOT = Path(__file__).resolve().parents[1]
BASE = "https://games.example.org"
SPECS = built_specs()
IMMUTABLE = "public, max-age=31536000, immutable"


@dataclass
class Served:
    """The module's database, service, site and a client on it."""

    storage: Storage
    service: GameService
    boards: Boards
    games: SiteGames
    site: WebSite
    url: str  # http://127.0.0.1:<port>
    client: aiohttp.ClientSession
    db: Path

    async def get(
        self, path: str, headers: Mapping[str, str] | None = None
    ) -> tuple[aiohttp.ClientResponse, bytes]:
        async with self.client.get(self.url + path, headers=headers) as response:
            return response, await response.read()

    async def page(self, path: str, headers: Mapping[str, str] | None = None) -> str:
        response, body = await self.get(path, headers)
        assert response.status == 200, (path, response.status, body[:300])
        assert response.content_type == "text/html"
        return body.decode("utf-8")

    async def session(self, game_id: int) -> Session:
        session = await self.service.get(game_id)
        assert session is not None
        return session


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def served(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Served]:
    db = tmp_path_factory.mktemp("web") / "games.db"
    storage = await open_storage(f"sqlite:///{db}")
    service = GameService(storage)
    games = await seeded_site_data(service)
    boards = Boards.of_games(SPECS)
    # The tests ask for many pages at once: the default per-client bucket would refuse them.
    site = WebSite(service, boards, BASE, limits=WebLimits(burst=100_000))
    port = await site.start("127.0.0.1", 0)
    async with aiohttp.ClientSession() as client:
        yield Served(storage, service, boards, games, site, f"http://127.0.0.1:{port}", client, db)
    await site.stop()
    await storage.close()


def game_path(game_id: int, guild: int = GUILD) -> str:
    return f"/s/{guild}/g/{game_id}"


def esc(text: str) -> str:
    """How the pages write a value."""
    return escape(text, quote=True)


class Meta(HTMLParser):
    """The head's <meta> and <link> tags, and every <img> src."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.meta: dict[str, str] = {}
        self.links: list[dict[str, str]] = []
        self.images: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v or "" for k, v in attrs}
        if tag == "meta" and ("property" in found or "name" in found):
            self.meta[found.get("property") or found["name"]] = found.get("content", "")
        elif tag == "link":
            self.links.append(found)
        elif tag == "img":
            self.images.append(found["src"])


def decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    image.load()
    return image


def spectator_board(served: Served, session: Session, view: object) -> bytes:
    picture = served.boards.picture(session.kind)
    return picture.board(view, session.names, session.lang, seat_tags(session))


async def counted(served: Served, session: Session) -> list[Row]:
    return [Row(m.seat, m.notation) for m in await served.storage.moves(session.id) if m.counts]


# --------------------------------------------------------------------------- a server's page


async def test_the_server_page_shows_each_games_standings_and_every_game(served: Served) -> None:
    html = await served.page(f"/s/{GUILD}")
    for kind in served.games.kinds:
        title = i18n.t("en", f"{kind}.title")
        assert f"<h3>{esc(title)}</h3>" in html
        ratings = await served.storage.ratings(GUILD, kind)
        table = html.split(f"<h3>{esc(title)}</h3>")[1].split("</table>")[0]
        leaders = await served.storage.leaderboard(GUILD, kind, 100)
        assert len(leaders) == 2  # Alice and Bob; bots are never ranked
        # The same players in the same order as /leaderboard, each with its rating.
        at = [table.index(f"<td>{esc(row.name)}</td>") for row in leaders]
        assert at == sorted(at)
        for row in leaders:
            mu, sigma = ratings[row.user_id]
            assert f'<td class="number">{Rating(mu, sigma).shown}</td>' in table
    # Every game of the server, newest first, each linking to its page; no other server's.
    games = await served.storage.server_games(GUILD, STATUSES, 100)
    links = [html.index(f'href="{game_path(g.id)}"') for g in games]
    assert links == sorted(links) and len(games) == 10
    assert f"/g/{served.games.foreign}" not in html
    assert "In progress" in html and "Finished" in html and "Waiting to start" in html


async def test_a_server_with_many_games_pages_them_newest_first(served: Served) -> None:
    guild = 868686
    ids = [
        (await served.storage.create_game("desert", guild, 70_000 + n, 1, "P", {}, n)).id
        for n in range(45)
    ]
    newest = ids[::-1]

    async def shown(query: str) -> list[int]:
        html = await served.page(f"/s/{guild}{query}")
        return [i for i in newest if f'href="{game_path(i, guild)}"' in html]

    assert await shown("") == newest[:20]
    assert await shown("?page=2") == newest[20:40]
    assert await shown("?page=3") == newest[40:]
    assert await shown("?page=99") == newest[40:]  # past the end: the last page
    for bad in ("?page=-1", "?page=abc", "?page=0", "?page=1e3", "?page=" + "9" * 40):
        assert await shown(bad) == newest[:20], bad
    middle = await served.page(f"/s/{guild}?page=2")
    assert f'rel="prev" href="/s/{guild}"' in middle
    assert f'rel="next" href="/s/{guild}?page=3"' in middle
    assert "Page 2 of 3" in middle


# --------------------------------------------------------------------------- a game's page


@pytest.mark.parametrize("status", ["finished", "running"])
async def test_a_games_page_shows_players_ratings_moves_and_status(
    served: Served, status: str
) -> None:
    for kind in served.games.kinds:
        game_id = getattr(served.games, status)[kind]
        session = await served.session(game_id)
        html = await served.page(game_path(game_id))
        title = i18n.t("en", f"{kind}.title")
        assert f"<h1>{esc(title)} #{game_id}</h1>" in html
        ratings = await served.storage.ratings(GUILD, kind)
        picture = SPECS[kind].load_picture()
        for seat in session.record.seats:
            assert f'<span class="name">{esc(seat.name)}</span>' in html
            colour = "#{:02x}{:02x}{:02x}".format(*picture.seat_colour(seat.seat))
            assert f'fill="{colour}"' in html
            if not seat.is_bot:
                assert seat.user_id is not None
                mu, sigma = ratings[seat.user_id]
                assert f"rating {Rating(mu, sigma).shown}" in html
        for move in await served.storage.moves(game_id):
            if move.undoes is None:
                assert f"<code>{esc(move.notation)}</code>" in html
        if status == "running":
            acting = [session.record.seats[s].name for s in session.awaited]
            assert f"In progress — {esc(', '.join(acting))} to play" in html
            assert f'src="{game_path(game_id)}/board.png"' in html
            assert "/chart.png" not in html
        else:
            outcome = session.outcome
            assert outcome is not None
            winners = ", ".join(s.name for s in session.record.seats if s.seat in outcome.winners)
            assert f"Finished — {esc(winners)} won" in html
            for index, parts in enumerate(outcome.breakdown):
                for category, points in parts:
                    name = i18n.t("en", f"{kind}.score.{category}", default=category)
                    assert f"{esc(name)} {points}" in html, (kind, index, category)
            assert f'src="{game_path(game_id)}/chart.png"' in html


async def test_a_lobby_and_a_cancelled_game_show_their_status_and_no_board(served: Served) -> None:
    lobby = await served.page(game_path(served.games.lobby))
    carol = served.games.names[13]
    assert "Waiting to start" in lobby
    assert f'<span class="name">{esc(carol)}</span>' in lobby and carol not in lobby
    assert "board.png" not in lobby and 'id="position"' not in lobby
    cancelled = await served.page(game_path(served.games.cancelled))
    assert "Cancelled" in cancelled and "board.png" not in cancelled


async def test_taken_back_moves_are_marked_and_left_out_of_the_replay(served: Served) -> None:
    game_id = served.games.undone
    moves = await served.storage.moves(game_id)
    html = await served.page(game_path(game_id))
    undone = [m for m in moves if m.undone]
    undo = next(m for m in moves if m.undoes is not None)
    assert undone
    for move in undone:
        assert f"<code>{esc(move.notation)}</code></del> (taken back)" in html
    assert f'<span class="ply">{undo.ply}.</span> ↩' in html and "took back move" in html
    positions = sum(1 for m in moves if m.counts)
    assert f'max="{positions}"' in html
    tags = " ".join(["0", *(str(m.ply) for m in moves if m.counts)])
    assert f'data-tags="{tags}"' in html


async def test_a_position_in_the_address_shows_that_board_without_script(served: Served) -> None:
    game_id = served.games.running[served.games.kinds[1]]
    rows = await counted(served, await served.session(game_id))
    tags = [0, *(m.ply for m in await served.storage.moves(game_id) if m.counts)]
    html = await served.page(f"{game_path(game_id)}?position=2")
    assert f'id="board" src="{game_path(game_id)}/board/2.png?v={tags[2]}"' in html
    assert 'value="2"' in html
    assert f'href="{game_path(game_id)}?position=1"' in html  # previous
    assert f'href="{game_path(game_id)}?position=3"' in html  # next
    last = await served.page(f"{game_path(game_id)}?position=99999")  # past the end: the last
    assert f"/board/{len(rows)}.png?v={tags[-1]}" in last
    for bad in ("abc", "-1", "1.5", ""):
        html = await served.page(f"{game_path(game_id)}?position={bad}")
        assert f'id="board" src="{game_path(game_id)}/board.png"' in html, bad


# --------------------------------------------------------------------------- images


async def test_the_current_board_is_the_spectators_with_an_etag(served: Served) -> None:
    for kind in served.games.kinds:
        game_id = served.games.running[kind]
        session = await served.session(game_id)
        response, png = await served.get(f"{game_path(game_id)}/board.png")
        assert response.status == 200 and response.content_type == "image/png"
        assert response.headers["Cache-Control"] == "no-cache"
        assert png == spectator_board(served, session, session.view(None))
        # It is the current position's image too: the link preview now knows its size.
        meta = Meta(await served.page(game_path(game_id))).meta
        width, height = decoded(png).size
        assert (meta["og:image:width"], meta["og:image:height"]) == (str(width), str(height))
        tag = response.headers["ETag"]
        again, body = await served.get(f"{game_path(game_id)}/board.png", {"If-None-Match": tag})
        assert again.status == 304 and body == b"" and again.headers["ETag"] == tag


async def test_a_replay_position_is_the_board_of_the_replayed_state(served: Served) -> None:
    for index, kind in enumerate(served.games.kinds):
        session = await served.session(served.games.finished[kind])
        rows = await counted(served, session)
        record = session.record
        states = replay(session.engine, len(record.seats), record.seed, record.options, rows)
        for number in (index, len(rows)):  # the start (once), an early position, the end
            path = f"{game_path(session.id)}/board/{number}.png"
            response, png = await served.get(path)
            assert response.status == 200, path
            assert response.headers["Cache-Control"] == IMMUTABLE
            assert png == spectator_board(
                served, session, session.engine.view(states[number], None)
            )
            tag = response.headers["ETag"]
            again, body = await served.get(path, {"If-None-Match": f'W/"x", {tag}'})
            assert again.status == 304 and body == b""
            # Drawn once: asked again, the same bytes come from the cache.
            assert (await served.get(path))[1] == png
        beyond, _ = await served.get(f"{game_path(session.id)}/board/{len(rows) + 1}.png")
        assert beyond.status == 404
    # Once drawn, the current position's size is in the page's link preview.
    session = await served.session(served.games.finished[served.games.kinds[0]])
    meta = Meta(await served.page(game_path(session.id))).meta
    width, height = decoded((await served.get(meta["og:image"].removeprefix(BASE)))[1]).size
    assert (meta["og:image:width"], meta["og:image:height"]) == (str(width), str(height))


async def test_after_an_undo_positions_follow_the_moves_that_count(served: Served) -> None:
    session = await served.session(served.games.undone)
    rows = await counted(served, session)
    record = session.record
    states = replay(session.engine, len(record.seats), record.seed, record.options, rows)
    number = len(rows)
    response, png = await served.get(f"{game_path(session.id)}/board/{number}.png")
    assert response.status == 200
    assert png == spectator_board(served, session, session.engine.view(states[number], None))
    # The last position is the game as it stands.
    assert png == (await served.get(f"{game_path(session.id)}/board.png"))[1]


async def test_a_finished_game_has_its_score_chart(served: Served) -> None:
    kind = served.games.kinds[2]
    session = await served.session(served.games.finished[kind])
    path = f"{game_path(session.id)}/chart.png"
    response, png = await served.get(path)
    assert response.status == 200 and response.headers["Cache-Control"] == IMMUTABLE
    assert decoded(png).size[0] > 100
    assert png == await score_chart_png(served.service, session, session.lang, score_chart)
    again, _ = await served.get(path, {"If-None-Match": response.headers["ETag"]})
    assert again.status == 304
    running, _ = await served.get(f"{game_path(served.games.running[kind])}/chart.png")
    assert running.status == 404


# --------------------------------------------------------------------------- public only


async def test_hidden_information_never_reaches_a_page(served: Served) -> None:
    hidden_somewhere = False
    for kind in served.games.kinds:
        session = await served.session(served.games.running[kind])
        html = await served.page(game_path(session.id))
        hidden = hidden_faces(session)
        hidden_somewhere |= bool(hidden)
        for face in hidden:  # seen by a player, not by a spectator
            assert face not in html, (kind, face)
        assert str(session.record.seed) not in html
    assert hidden_somewhere, "a running game has a face a spectator cannot see"


# --------------------------------------------------------------------------- not found


async def test_everything_not_shown_is_the_same_plain_404(served: Served) -> None:
    games = served.games
    running = games.running[games.kinds[0]]
    paths = [
        "/",
        "/s",
        "/s/",
        "/s/abc",
        f"/s/{GUILD}/",
        "/s/0",
        "/s/-1",
        f"/s/0{GUILD}",
        f"/s/{GUILD}x",
        "/s/" + "1" * 30,
        "/s/99999999999999999999",
        f"/s/{games.empty_guild_id}",
        f"/s/{games.opted_out_guild_id}",
        game_path(games.opted_out, games.opted_out_guild_id),
        f"{game_path(games.opted_out, games.opted_out_guild_id)}/board.png",
        game_path(games.foreign),  # another server's game under this server
        game_path(running, games.other_guild_id),  # this server's game under another
        game_path(999_999),
        f"/s/{GUILD}/g/-1",
        f"/s/{GUILD}/g/01x",
        f"/s/{GUILD}/g/0{running}",
        f"/s/{GUILD}/g/{running}/other",
        f"/s/{GUILD}/g/{running}/board/abc.png",
        f"/s/{GUILD}/g/{running}/board/01.png",
        f"/s/{GUILD}/g/{running}/board/1.gif",
        f"/s/{GUILD}/g/{running}/board/99999.png",
        f"/s/{GUILD}/g/{games.lobby}/board.png",
        f"/s/{GUILD}/g/{games.lobby}/board/0.png",
        f"/s/{GUILD}/g/{running}/chart.png",
        f"/s/{GUILD}/%2E%2E/%2E%2E/etc/passwd",
        "/static/site.css",
        "/static/../web/site.py",
        "/oembed",
        "/oembed?url=https://elsewhere.example/s/1",
        f"/oembed?url={quote(BASE + game_path(games.foreign))}",
        f"/oembed?url={quote(BASE + game_path(games.opted_out, games.opted_out_guild_id))}",
    ]
    answers = []
    for path in paths:
        response, body = await served.get(path, {"Accept-Language": "fr"})
        headers = {k: v for k, v in response.headers.items() if k not in ("Date",)}
        answers.append((path, response.status, body, headers))
    first = answers[0][1:]
    assert first[0] == 404 and first[1] == b"404 Not Found\n"
    for path, *answer in answers:
        assert tuple(answer) == first, path


async def test_bad_query_values_never_fail(served: Served) -> None:
    game_id = served.games.finished[served.games.kinds[0]]
    for query in ("?lang=xx", "?lang=", "?position=%00", "?page=%FF", "?lang=fr&lang=en"):
        response, _ = await served.get(game_path(game_id) + query)
        assert response.status == 200, query


# --------------------------------------------------------------------------- link previews


async def test_a_games_page_has_its_link_preview(served: Served) -> None:
    kind = served.games.kinds[2]
    session = await served.session(served.games.finished[kind])
    rows = await counted(served, session)
    html = await served.page(game_path(session.id))
    meta = Meta(html)
    title = i18n.t("en", f"{kind}.title")
    names = ", ".join(s.name for s in session.record.seats)
    assert meta.meta["og:title"] == f"{title} #{session.id} — {names}"
    assert meta.meta["og:site_name"] == "Caravanserai"
    assert meta.meta["og:type"] == "website"
    assert meta.meta["og:url"] == f"{BASE}{game_path(session.id)}"
    last_ply = max(m.ply for m in await served.storage.moves(session.id) if m.counts)
    assert (
        meta.meta["og:image"] == f"{BASE}{game_path(session.id)}/board/{len(rows)}.png?v={last_ply}"
    )
    outcome = session.outcome
    assert outcome is not None
    winner = session.record.seats[outcome.winners[0]].name
    assert meta.meta["og:description"].startswith(f"Finished — {winner}")
    assert f"{winner} {outcome.scores[outcome.winners[0]]}" in meta.meta["og:description"]
    assert meta.meta["twitter:card"] == "summary_large_image"
    assert meta.meta["theme-color"].startswith("#")
    oembed = next(link for link in meta.links if link.get("type") == "application/json+oembed")
    assert oembed["href"].startswith(f"{BASE}/oembed?url=")

    response, body = await served.get(oembed["href"].removeprefix(BASE))
    assert response.status == 200 and response.content_type == "application/json"
    answer = json.loads(body)
    assert answer["type"] in ("rich", "link") and answer["version"] == "1.0"
    assert answer["title"] == meta.meta["og:title"]
    assert answer["provider_name"] == "Caravanserai"
    assert answer["provider_url"].startswith(BASE)
    assert answer["thumbnail_url"] == meta.meta["og:image"]
    french = f"/oembed?url={quote(BASE + game_path(session.id) + '?lang=fr')}"
    assert f"n°{session.id}" in json.loads((await served.get(french))[1])["title"]
    server = json.loads((await served.get(f"/oembed?url={quote(BASE)}/s/{GUILD}"))[1])
    assert server["title"].startswith("Caravanserai")
    xml, _ = await served.get(f"/oembed?url={quote(BASE)}/s/{GUILD}&format=xml")
    assert xml.status == 501


async def test_a_lobby_preview_says_it_waits_and_has_no_image(served: Served) -> None:
    meta = Meta(await served.page(game_path(served.games.lobby))).meta
    assert meta["og:description"] == "Waiting to start"
    assert "og:image" not in meta and meta["twitter:card"] == "summary"


# --------------------------------------------------------------------------- languages


async def test_pages_speak_french_when_asked(served: Served) -> None:
    kind = served.games.kinds[0]
    game_id = served.games.running[kind]
    title = i18n.t("fr", f"{kind}.title")
    by_query = await served.page(f"{game_path(game_id)}?lang=fr")
    assert '<html lang="fr">' in by_query and "En cours" in by_query
    assert f"{esc(title)} n°{game_id}" in by_query
    assert f'href="/s/{GUILD}?lang=fr"' in by_query  # the choice follows the links
    by_header = await served.page(
        game_path(game_id), {"Accept-Language": "fr-CH, fr;q=0.9, en;q=0.5"}
    )
    assert '<html lang="fr">' in by_header
    preferring_english = {"Accept-Language": "fr;q=0.4, en-GB;q=0.8, de"}
    assert '<html lang="en">' in await served.page(game_path(game_id), preferring_english)
    assert '<html lang="en">' in await served.page(game_path(game_id), {"Accept-Language": "de"})
    unknown = await served.page(f"{game_path(game_id)}?lang=xx", {"Accept-Language": "fr"})
    assert '<html lang="fr">' in unknown  # an unknown choice is ignored
    server = await served.page(f"/s/{GUILD}?lang=fr")
    assert "Classements" in server and "Place moyenne" in server
    # The boards are drawn in the game's language, whatever the page's.
    english, _ = await served.get(f"{game_path(game_id)}/board.png?lang=fr")
    assert english.status == 200


# --------------------------------------------------------------------------- texts and style


async def test_every_web_text_exists_in_both_languages() -> None:
    used = set()
    for path in (ROOT / "web").glob("*.py"):
        used |= set(re.findall(r'"(web\.[a-z_.]+[a-z_])"', path.read_text(encoding="utf-8")))
    used |= {f"web.status.{status}" for status in STATUSES}
    used |= {f"web.tag.{tag}" for tag in ("bot", "resigned", "away", "removed", "to_play")}
    used |= {f"web.{page}.{part}" for page in ("error", "busy") for part in ("title", "text")}
    assert len(used) > 40
    for lang in i18n.LANGUAGES:
        assert not sorted(key for key in used if not catalogue.has(key, lang)), lang


async def test_the_style_sheet_is_cached_for_good_and_the_script_allowed(served: Served) -> None:
    html = await served.page(f"/s/{GUILD}")
    href = next(link["href"] for link in Meta(html).links if link.get("rel") == "stylesheet")
    response, body = await served.get(href)
    assert response.status == 200 and response.content_type == "text/css"
    assert response.headers["Cache-Control"] == IMMUTABLE and b"@media" in body
    assert 'name="viewport"' in html
    # The replay's inline script is the one script the page's policy lets run.
    page, body = await served.get(game_path(served.games.running[served.games.kinds[0]]))
    script = body.decode().split("<script>")[1].split("</script>")[0]
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    policy = page.headers["Content-Security-Policy"]
    assert f"script-src 'sha256-{digest}'" in policy and "default-src 'none'" in policy


# --------------------------------------------------------------------------- under load


async def test_a_storm_gets_429_and_a_request_after_it_succeeds(served: Served) -> None:
    limits = WebLimits(burst=3, per_second=2.0)
    site = WebSite(served.service, served.boards, BASE, limits=limits)
    now = [1000.0]
    site.buckets.clock = lambda: now[0]  # the storm takes no time, whatever the machine
    port = await site.start("127.0.0.1", 0)
    try:
        url = f"http://127.0.0.1:{port}/s/{GUILD}"

        async def status(**headers: str) -> tuple[int, str | None]:
            async with served.client.get(url, headers=headers) as response:
                await response.read()
                return response.status, response.headers.get("Retry-After")

        answers = await asyncio.gather(*(status() for _ in range(12)))
        assert [s for s, _ in answers].count(200) == 3
        refused = [after for s, after in answers if s == 429]
        assert len(refused) == 9 and all(after is not None and int(after) >= 1 for after in refused)
        # Claiming to be someone else does not help when no proxy is trusted.
        assert (await status(**{"X-Forwarded-For": "203.0.113.9"}))[0] == 429
        now[0] += 0.6  # the bucket refills 2 a second
        assert (await status())[0] == 200
    finally:
        await site.stop()


async def test_behind_a_proxy_each_client_has_its_own_allowance(served: Served) -> None:
    """With WEB_BEHIND_PROXY, the address the proxy appended to X-Forwarded-For
    names the client; what the client put before it does not."""
    site = WebSite(
        served.service,
        served.boards,
        BASE,
        limits=WebLimits(burst=2, per_second=0.0),
        behind_proxy=True,
    )
    port = await site.start("127.0.0.1", 0)
    try:
        url = f"http://127.0.0.1:{port}/s/{GUILD}"

        async def status(forwarded: str) -> int:
            async with served.client.get(url, headers={"X-Forwarded-For": forwarded}) as answer:
                await answer.read()
                return answer.status

        assert [await status("198.51.100.1") for _ in range(3)] == [200, 200, 429]
        assert await status("198.51.100.2") == 200  # another reader through the same proxy
        assert await status("10.9.9.9, 198.51.100.1") == 429  # a forged first hop changes nothing
    finally:
        await site.stop()


async def test_draws_beyond_the_bound_are_refused_at_once(served: Served) -> None:
    limits = WebLimits(draws=1, waiting=0, busy_retry_after=3)
    site = WebSite(served.service, served.boards, BASE, limits=limits)
    port = await site.start("127.0.0.1", 0)
    try:
        game_id = served.games.finished[served.games.kinds[-1]]
        base = f"http://127.0.0.1:{port}{game_path(game_id)}/board"

        async def status(number: int) -> tuple[int, str | None]:
            async with served.client.get(f"{base}/{number}.png") as response:
                await response.read()
                return response.status, response.headers.get("Retry-After")

        async with site.images.gate.slot():  # another reader's draw, under way
            assert await status(5) == (429, "3")
            async with served.client.get(f"http://127.0.0.1:{port}/s/{GUILD}") as page:
                assert page.status == 200  # a page draws nothing: it never waits for the gate
        assert (await status(5))[0] == 200  # the gate is free again
    finally:
        await site.stop()


async def test_draws_wait_in_a_short_line_of_the_webs_own() -> None:
    """One draw at a time and one more waiting: the second waits for the first,
    a third at that moment is refused at once rather than queued."""
    gate = DrawGate(running=1, waiting=1)
    first_in, release = asyncio.Event(), asyncio.Event()
    order: list[str] = []

    async def draw(name: str, hold: bool) -> None:
        async with gate.slot():
            order.append(name)
            if hold:
                first_in.set()
                await release.wait()

    first = asyncio.create_task(draw("first", hold=True))
    await first_in.wait()
    second = asyncio.create_task(draw("second", hold=False))
    await asyncio.sleep(0)  # the second is in line now
    with pytest.raises(Busy):
        async with gate.slot():
            pass
    release.set()
    await asyncio.gather(first, second)
    assert order == ["first", "second"] and gate.busy == 0


async def test_a_pages_board_and_chart_asked_together_both_come(served: Served) -> None:
    site = WebSite(served.service, served.boards, BASE, limits=WebLimits(draws=1, waiting=1))
    port = await site.start("127.0.0.1", 0)
    try:
        base = f"http://127.0.0.1:{port}{game_path(served.games.finished[served.games.kinds[0]])}"

        async def status(path: str) -> int:
            async with served.client.get(base + path) as response:
                await response.read()
                return response.status

        assert await asyncio.gather(status("/board/6.png"), status("/chart.png")) == [200, 200]
    finally:
        await site.stop()


# --------------------------------------------------------------------------- failures


async def test_a_game_that_cannot_be_loaded_shows_a_note(served: Served) -> None:
    kind = served.games.kinds[1]
    hosted = {key: spec for key, spec in SPECS.items() if key != kind}
    service = GameService(served.storage, hosted)  # this bot no longer hosts that game
    site = WebSite(service, served.boards, BASE)
    port = await site.start("127.0.0.1", 0)
    try:
        url = f"http://127.0.0.1:{port}{game_path(served.games.running[kind])}"
        async with served.client.get(url) as response:
            html = await response.text()
        assert response.status == 200 and "cannot be shown" in html
        assert "board.png" not in html
        async with served.client.get(url + "/board.png") as board:
            assert board.status == 404
    finally:
        await site.stop()


async def test_a_storage_failure_is_a_plain_500_page(
    served: Served, caplog: pytest.LogCaptureFixture
) -> None:
    storage = await open_storage(f"sqlite:///{served.db}")
    site = WebSite(GameService(storage), served.boards, BASE)
    port = await site.start("127.0.0.1", 0)
    await storage.close()  # every query now fails
    try:
        async with served.client.get(f"http://127.0.0.1:{port}/s/{GUILD}") as response:
            body = await response.text()
        assert response.status == 500 and "Something went wrong" in body
        assert "Traceback" not in body and "sqlite" not in body.lower()
        assert "Web request GET" in caplog.text
    finally:
        await site.stop()


async def test_stop_is_safe_before_start_and_twice(served: Served) -> None:
    site = WebSite(served.service, served.boards, BASE)
    await site.stop()
    port = await site.start("127.0.0.1", 0)
    assert port > 0
    await site.stop()
    await site.stop()
    with pytest.raises(aiohttp.ClientConnectionError):
        async with served.client.get(f"http://127.0.0.1:{port}/s/{GUILD}"):
            pass
