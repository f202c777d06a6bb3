"""The web page's season view (views/web/season.py, docs/web.md "The season"): `/season` and `/season.svg`
from the league in the data folder, drawn once per change of the database and never on the event loop; a
picture that cannot be drawn (no matplotlib, a damaged database) or is not ready in time is one line with
4xx/5xx and no traceback, with the security headers; and the page in a real Chromium, reached from the game's
page (tests/snapshots/web_season.png, rewritten with SCHOCKEN_SNAPSHOTS=update)."""

import asyncio
import json
import shutil
import time
import urllib.request
from pathlib import Path

import pytest

from kits.webkit import with_client
from schocken_host import cli
from schocken_host.views.web import season
from schocken_host.views.web.guard import SECURITY_HEADERS
from schocken_host.views.web.server import WebView

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "tests" / "data" / "luck" / "worked_example.jsonl"
GAME = ROOT / "tests" / "data" / "web_game.jsonl"


@pytest.fixture
def data(tmp_path, monkeypatch):
    """A league in the data folder with the worked example of docs/odds.md in it."""
    monkeypatch.setenv("SCHOCKEN_DATA_DIR", str(tmp_path / "data"))
    assert cli.main(["--lang", "en", "liga", "import", str(EXAMPLE)]) == 0
    return tmp_path / "data"


def view():
    return WebView(("127.0.0.1", 0), actions=False)


def secured(resp):
    return all(resp.headers.get(k) == v for k, v in SECURITY_HEADERS.items())


def count_draws(monkeypatch, pause=0.0):
    """The languages the season's picture is drawn in, in order (each drawing ``pause`` s longer)."""
    drawn = []
    plain = season.SeasonPicture._draw

    def counting(self, lang):
        drawn.append(lang)
        time.sleep(pause)
        return plain(self, lang)
    monkeypatch.setattr(season.SeasonPicture, "_draw", counting)
    return drawn


def test_the_season_page_and_its_picture_drawn_once_per_change(data, monkeypatch):
    drawn = count_draws(monkeypatch)

    async def test(client):
        page = await client.get("/season?lang=en")
        text = await page.text()
        assert page.status == 200 and secured(page)
        assert '<a id="picture" href="/season.svg?lang=en"' in text and "The season" in text
        content = await client.get("/season.html?lang=en")
        tables = await content.text()
        assert content.status == 200 and secured(content)
        assert '<th scope="row">Dora</th>' in tables and "as lucky as 1 in 108" in tables
        svg = await client.get("/season.svg?lang=en")
        body = await svg.text()
        assert svg.status == 200 and svg.content_type == "image/svg+xml" and secured(svg)
        for words in ("Standings: games lost per game", "Luck against the odds", "Dora",
                      "as lucky as 1 in 108"):
            assert words in body, words
        assert (await (await client.get("/season.svg?lang=en")).text()) == body
        assert drawn == ["en"]                        # the second guest got the kept picture
        de = await (await client.get("/season.svg")).text()
        assert "Glück wie 1 von 108" in de and drawn == ["en", "de"]
        # A game recorded: the database changed, the picture is drawn again.
        assert cli.main(["liga", "import", str(GAME)]) == 0
        again = await (await client.get("/season.svg?lang=en")).text()
        assert drawn == ["en", "de", "en"] and "Bot 1" in again
    with_client(view(), test)


def test_no_league_yet_is_an_empty_picture(tmp_path, monkeypatch):
    monkeypatch.setenv("SCHOCKEN_DATA_DIR", str(tmp_path / "none"))

    async def test(client):
        svg = await client.get("/season.svg?lang=en")
        assert svg.status == 200 and "no games yet" in await svg.text()
    with_client(view(), test)
    assert not (tmp_path / "none").exists()          # reading made no database


def test_what_cannot_be_drawn_is_one_line(data, monkeypatch):
    async def refused(client, words):
        resp = await client.get("/season.svg?lang=en")
        body = await resp.text()
        assert resp.status == 503 and secured(resp), (resp.status, body)
        assert "Traceback" not in body and words in json.loads(body)["error"]

    monkeypatch.setitem(__import__("sys").modules, "matplotlib", None)   # not installed
    tries = count_draws(monkeypatch)

    async def three_guests(client):
        for _ in range(3):
            await refused(client, "pip install 'schocken-cup[plot]'")
    with_client(view(), three_guests)
    assert tries == ["en"]     # the refusal is kept: no guest makes the host try again and again
    monkeypatch.undo()

    monkeypatch.setenv("SCHOCKEN_DATA_DIR", str(data))
    (data / "league.sqlite3").write_bytes(b"this is no database" * 100)
    (data / "league.sqlite3-wal").unlink(missing_ok=True)
    with_client(view(), lambda client: refused(client, "the league database is damaged"))


def test_a_slow_picture_says_come_back_and_is_drawn_once(data, monkeypatch):
    """A guest waits at most DRAW_WAIT_S; every guest meanwhile shares the one drawing."""
    monkeypatch.setattr(season, "DRAW_WAIT_S", 0.2)
    calls = count_draws(monkeypatch, pause=1.0)

    async def test(client):
        first = await asyncio.gather(*(client.get("/season.svg") for _ in range(5)))
        assert {r.status for r in first} == {503} and all(r.headers["Retry-After"] == "5" for r in first)
        assert calls == ["de"]
        for _ in range(100):   # bounded: the drawing takes about a second
            resp = await client.get("/season.svg")
            if resp.status == 200:
                break
            await asyncio.sleep(0.1)
        assert resp.status == 200 and calls == ["de"]
    with_client(view(), test)


# --- in a real browser -------------------------------------------------------------------------------------
def test_the_season_in_chromium_from_the_game_page(data, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("no system Chromium (apt-get install chromium)")
    from test_web_browser import SNAPSHOTS, snapshot, stop, watch
    server, url = watch(GAME, tmp_path / "watch.out")
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
            try:
                pg = browser.new_page(viewport={"width": 1920, "height": 1080})
                pg.set_default_timeout(60_000)
                pg.goto(url + "?lang=en")
                link = pg.wait_for_selector("#season-link:has-text('The season')")
                link.click()
                pg.wait_for_url("**/season?lang=en")
                pg.wait_for_selector("#chart svg")
                assert pg.title() == "The season"
                box = pg.locator("#chart").bounding_box()
                assert box["width"] <= 1920 and 300 < box["height"] <= 1080 - box["y"]   # the TV: all of it
                SNAPSHOTS.mkdir(exist_ok=True)
                pg.screenshot(path=str(snapshot(tmp_path, "web_season.png")), full_page=True)
                pg.set_viewport_size({"width": 390, "height": 844})     # a phone: as wide as the screen
                assert pg.locator("#standings").bounding_box()["width"] <= 390
            finally:
                browser.close()
        with urllib.request.urlopen(url + "season.svg?lang=en", timeout=30) as r:
            assert "as lucky as 1 in 108" in r.read().decode()
    finally:
        stop(server)


def test_an_evening_is_named_by_its_date_and_table():
    """One function names an evening, in the language's way: not by its log's folder ("2026-12-07 games")."""
    from schocken_host.league.evenings import evening_name
    assert evening_name("2026-12-07", "Stammtisch", lang="de") == "07.12.2026 · Stammtisch"
    assert evening_name("2026-12-07", "Stammtisch", lang="en") == "2026-12-07 · Stammtisch"
    assert evening_name("2026-12-07", "Stammtisch", lang="de", lines=2) == "07.12.2026\nStammtisch"
    assert evening_name("2026-12-07", "", lang="de") == "07.12.2026"
    assert evening_name("2026-12-07", "", ["Cleo", "Anna", "Bert", "Dora"], lang="de") == (
        "07.12.2026 · Anna, Bert, Cleo +1")
