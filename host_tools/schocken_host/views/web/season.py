"""The web page's season view (docs/web.md, "The season"): `/season`, a page with the league's picture, and
`/season.svg`, the picture itself (league/plot.py: the standings, the Deckel over the evenings, the luck
against the odds), from the league's database in the data folder (docs/league.md).

Drawing it reads every recorded game's log again (the luck) and takes up to seconds, so a guest never makes
it happen more than once: it is drawn in a thread (never on the event loop, which referees the game), one
drawing per language at a time, and kept until the database changes (its file's and its WAL's size and
time). A guest whose picture is not there within ``DRAW_WAIT_S`` is told to come back (503 with
Retry-After); the drawing goes on for the next one. A picture that cannot be drawn (no matplotlib, a database
damaged) is that answer until the database changes: no guest makes the host try again and again."""

import asyncio
import html
import io
import os

from aiohttp import web

from schocken_host.errors import CommandError
from schocken_host.i18n import tr
from schocken_host.league import db
from schocken_host.league.plot import draw, figure_class, season_of
from schocken_host.views.web.guard import Refused

DRAW_WAIT_S = 10.0     # how long a request waits for a picture being drawn


class SeasonPicture:
    """The league's picture per language, drawn when first asked for and again after the database changed.
    ``path``: the database (None: the data folder's)."""

    def __init__(self, path=None):
        self.path = path
        self.drawn = {}        # lang -> (the database's stamp, SVG bytes)
        self.drawing = {}      # lang -> (stamp, the future of its drawing)

    def _file(self):
        return self.path if self.path is not None else db.default_path()

    def stamp(self):
        """What changes when a game is recorded: the size and time of the database and its WAL."""
        stamp = []
        for suffix in ("", "-wal"):
            try:
                st = os.stat(str(self._file()) + suffix)
                stamp.append((st.st_size, st.st_mtime_ns))
            except OSError:
                stamp.append(None)
        return tuple(stamp)

    def _draw(self, lang):
        """The SVG (bytes), or the CommandError that stopped it (no matplotlib, a database in use or
        damaged)."""
        try:
            figure_class()   # no matplotlib: said before the league is read
            league = db.open_league(self._file(), create=False)
            try:
                season = season_of(league)
            finally:
                if league is not None:
                    league.close()
            out = io.BytesIO()
            draw(season, (out, "svg"), lang)
            return out.getvalue()
        except CommandError as e:
            return e

    async def svg(self, lang):
        stamp = self.stamp()
        drawn = self.drawn.get(lang)
        if drawn is not None and drawn[0] == stamp:
            return drawn[1]
        drawing = self.drawing.get(lang)
        if drawing is None or (drawing[1].done() and drawing[0] != stamp):
            future = asyncio.get_running_loop().run_in_executor(None, self._draw, lang)
            drawing = self.drawing[lang] = (stamp, future)
        try:
            got = await asyncio.wait_for(asyncio.shield(drawing[1]), DRAW_WAIT_S)
        except asyncio.TimeoutError:
            raise Refused(503, "luck.web_busy", retry_after=5) from None
        if isinstance(got, CommandError):   # kept as the answer until the database changes
            raise Refused(503, "luck.web_failed", reason=" ".join(got.message.localized(lang).split()))
        self.drawn[lang] = (drawing[0], got)
        return got


def add_routes(app, picture):
    async def page(request):
        lang = "en" if request.query.get("lang") == "en" else "de"
        other = "de" if lang == "en" else "en"
        body = _PAGE.format(lang=lang, title=html.escape(tr(lang, "luck.web_title")),
                            back=html.escape(tr(lang, "luck.web_back")),
                            other=other, other_name="Deutsch" if other == "de" else "English",
                            alt=html.escape(tr(lang, "luck.web_alt")))
        return web.Response(text=body, content_type="text/html", charset="utf-8",
                            headers={"Cache-Control": "no-cache"})

    async def svg(request):
        lang = "en" if request.query.get("lang") == "en" else "de"
        return web.Response(body=await picture.svg(lang), content_type="image/svg+xml",
                            headers={"Cache-Control": "no-cache"})

    app.router.add_get("/season", page)
    app.router.add_get("/season.svg", svg)


_PAGE = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="stylesheet" href="/static/style.css">
</head>
<body class="season">
<header id="top"><h1>{title}</h1>
<nav><a id="back" href="/?lang={lang}">{back}</a> ·
<a id="other" href="/season?lang={other}">{other_name}</a></nav>
</header>
<main><img id="season-picture" src="/season.svg?lang={lang}" alt="{alt}"></main>
</body>
</html>
"""
