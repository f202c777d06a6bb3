"""The web page's season view (docs/web.md, "The season"): `/season`, the league for the TV on the wall and
the phones (the standings and each person's luck as tables, the Deckel over the evenings as a chart, all large
enough to be read from across the room), `/season.html`, that view's content, and `/season.svg`, the league's
picture for the notice board (league/plot.py: the one `schocken liga --plot` draws), from the league's
database in the data folder (docs/league.md).

Making either reads every recorded game's log again (the luck) and takes up to seconds, so a guest never makes
it happen more than once: it is made in a thread (never on the event loop, which referees the game), one
making per kind and language at a time, and kept until the database changes (its file's and its WAL's size
and time). A guest whose answer is not there within ``DRAW_WAIT_S`` is told to come back (503 with
Retry-After; the page asks again by itself); the making goes on for the next one. What cannot be made (no
matplotlib, a database damaged) is that answer until the database changes: no guest makes the host try again
and again."""

import asyncio
import html
import io
import os

from aiohttp import web

from schocken_host.errors import CommandError
from schocken_host.i18n import tr
from schocken_host.league import db
from schocken_host.league.luck.table import rarity
from schocken_host.league.plot import draw, draw_evenings, figure_class, season_of
from schocken_host.views.web.guard import Refused

DRAW_WAIT_S = 10.0     # how long a request waits for a picture being drawn


class SeasonPicture:
    """The league's picture (``svg``) and the season view's content (``view``) per language, made when first
    asked for and again after the database changed. ``path``: the database (None: the data folder's)."""

    def __init__(self, path=None):
        self.path = path
        self.drawn = {}        # (kind, lang) -> (the database's stamp, bytes)
        self.drawing = {}      # (kind, lang) -> (stamp, the future of its making)

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

    def _season(self):
        figure_class()   # no matplotlib: said before the league is read
        league = db.open_league(self._file(), create=False)
        try:
            return season_of(league)
        finally:
            if league is not None:
                league.close()

    def _draw(self, lang):
        """The notice board's SVG (bytes), or the CommandError that stopped it (no matplotlib, a database in
        use or damaged)."""
        try:
            out = io.BytesIO()
            draw(self._season(), (out, "svg"), lang)
            return out.getvalue()
        except CommandError as e:
            return e

    def _view(self, lang):
        """The season view's content (HTML, bytes), or the CommandError that stopped it."""
        try:
            return season_view(self._season(), lang).encode()
        except CommandError as e:
            return e

    async def svg(self, lang):
        return await self._made("svg", lang)

    async def view(self, lang):
        return await self._made("view", lang)

    async def _made(self, kind, lang):
        stamp = self.stamp()
        drawn = self.drawn.get((kind, lang))
        if drawn is not None and drawn[0] == stamp:
            return drawn[1]
        drawing = self.drawing.get((kind, lang))
        if drawing is None or (drawing[1].done() and drawing[0] != stamp):
            make = self._draw if kind == "svg" else self._view
            future = asyncio.get_running_loop().run_in_executor(None, make, lang)
            drawing = self.drawing[(kind, lang)] = (stamp, future)
        try:
            got = await asyncio.wait_for(asyncio.shield(drawing[1]), DRAW_WAIT_S)
        except asyncio.TimeoutError:
            raise Refused(503, "luck.web_busy", retry_after=5) from None
        if isinstance(got, CommandError):   # kept as the answer until the database changes
            raise Refused(503, "luck.web_failed", reason=" ".join(got.message.localized(lang).split()))
        self.drawn[(kind, lang)] = (drawing[0], got)
        return got


def _number(lang, x, fmt):
    text = fmt % x
    return text.replace(".", ",").replace("-", "\u2212") if lang == "de" else text.replace("-", "\u2212")


def season_view(season, lang):
    """The season view's content as HTML: the standings and the luck as tables, the Deckel over the evenings
    as a chart (league/plot.py, SVG with its words as text, named for a screen reader)."""
    e = html.escape
    if not season.rows:
        return '<p class="season-empty">%s</p>' % e(tr(lang, "luck.plot_empty"))
    columns = ("luck.web_col_place", "luck.web_col_player", "luck.web_col_games", "luck.web_col_lost",
               "luck.web_col_per_game", "luck.web_col_deckel")
    rows = "".join(
        "<tr><td>%d</td><th scope=\"row\">%s</th><td>%d</td><td>%d</td><td>%s</td><td>%s</td></tr>" % (
            n + 1, e(r.player), r.games, r.games_lost, _number(lang, r.lost_per_game, "%.2f"),
            _number(lang, r.deckel_per_round, "%.2f"))
        for n, r in enumerate(season.rows))
    standings = ('<section id="standings" aria-labelledby="standings-title"><h2 id="standings-title">%s</h2>'
                 '<table><thead><tr>%s</tr></thead><tbody>%s</tbody></table></section>' % (
                     e(tr(lang, "luck.web_standings")),
                     "".join('<th scope="col"%s>%s</th>' % (' class="who"' if c.endswith("player") else "",
                                                             e(tr(lang, c))) for c in columns), rows))
    lucky = "".join(
        '<tr class="%s"><th scope="row">%s</th><td class="saved">%s</td><td class="rare">%s</td></tr>' % (
            "lucky" if x >= 0 else "unlucky", e(name), _number(lang, x, "%+.1f"), e(rarity(lang, *rare)))
        for name, x, _, rare in season.luck)
    luck = "" if not season.luck else (
            '<section id="luck" aria-labelledby="luck-title"><h2 id="luck-title">%s</h2>'
            '<table><thead><tr><th scope="col" class="who">%s</th><th scope="col">%s</th>'
            '<th scope="col" class="rare">%s</th></tr></thead>'
            '<tbody>%s</tbody></table></section>' % (
                e(tr(lang, "luck.web_luck")), e(tr(lang, "luck.web_col_player")),
                e(tr(lang, "luck.web_col_luck")), e(tr(lang, "luck.web_col_rare")), lucky))
    out = io.BytesIO()
    draw_evenings(season, out, lang)
    svg = out.getvalue().decode()
    svg = svg[svg.index("<svg"):]
    svg = svg.replace("<svg ", '<svg role="img" aria-labelledby="chart-title" ', 1)
    chart = ('<section id="chart" aria-labelledby="chart-title" tabindex="0"><h2 id="chart-title" '
             'class="sr-only">%s</h2>%s</section>' % (
                 e(tr(lang, "luck.plot_deckel" if season.by_evening else "luck.plot_deckel_games")), svg))
    return '<div id="tables">%s%s</div>%s' % (standings, luck, chart)


def add_routes(app, picture):
    def lang_of(request):
        return "en" if request.query.get("lang") == "en" else "de"

    async def page(request):
        lang = lang_of(request)
        other = "de" if lang == "en" else "en"
        body = _PAGE.format(lang=lang, title=html.escape(tr(lang, "luck.web_title")),
                            back=html.escape(tr(lang, "luck.web_back")),
                            other=other, other_name="Deutsch" if other == "de" else "English",
                            picture=html.escape(tr(lang, "luck.web_picture")),
                            wait=html.escape(tr(lang, "luck.web_wait")))
        return web.Response(text=body, content_type="text/html", charset="utf-8",
                            headers={"Cache-Control": "no-cache"})

    async def view(request):
        return web.Response(body=await picture.view(lang_of(request)), content_type="text/html",
                            charset="utf-8", headers={"Cache-Control": "no-cache"})

    async def svg(request):
        return web.Response(body=await picture.svg(lang_of(request)), content_type="image/svg+xml",
                            headers={"Cache-Control": "no-cache"})

    app.router.add_get("/season", page)
    app.router.add_get("/season.html", view)
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
<nav><a id="back" href="/?lang={lang}">{back}</a>
<a id="other" href="/season?lang={other}" lang="{other}" hreflang="{other}">{other_name}</a>
<a id="picture" href="/season.svg?lang={lang}">{picture}</a></nav>
</header>
<main id="season" aria-busy="true"><p id="season-wait" role="status">{wait}</p></main>
<script type="module" src="/static/season.js"></script>
</body>
</html>
"""
