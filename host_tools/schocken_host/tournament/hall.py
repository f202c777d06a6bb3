"""The director on the hall's network: an aiohttp server (docs/turnier.md, "The hall"). Enrolled tables (their
key from the table card) send every finished game's log (``POST /api/spiel``), checked and recorded by
director.py in a thread of its own, one game at a time, and their live state (``POST /api/live``); guests
only look: the big screen (``/leinwand``, its model ``/screen.json``, a phone's ``?spieler=NAME``) and a
table's page (``/tisch/KEY``). Every request passes the table page's door (views/web/door.py: the Host
checked, connections capped per address, a failure answered in one line, docs/web.md's threat model); a
wrong key starts a backoff for its client address (the page's PIN limiter, without the budget the page's
guests share: a right key always passes)."""

import asyncio
import hmac
import html
import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from aiohttp import web

from schocken_host.errors import CommandError
from schocken_host.i18n import tr
from schocken_host.tournament import standings as stand
from schocken_host.tournament.cards import table_url
from schocken_host.tournament.director import MAX_LOG_BYTES, Director
from schocken_host.views.web.door import Door
from schocken_host.views.web.connections import serve
from schocken_host.views.web.guard import PinLimiter, Refused, client_of, security_headers
from schocken_host.views.web.listening import own_names

STATIC = Path(__file__).resolve().parent / "static"
LIVE_BYTES = 16 * 1024            # a table's live state
BODY_S = 30.0                     # a game's log (some 100 KB, at most MAX_LOG_BYTES) must come within this
REFRESH_S = 2.0                   # the model read anew from the database (a draw made by another process)
LIVE_FIELDS = ("phase", "on_turn", "players", "game", "over")   # what reporter.LiveReport sends


def _at(ordered, q):
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else None


class Hall:
    """The director's server on ``sock`` for the tournament in ``folder``; ``said(text)`` gets each line for
    the director's terminal."""

    def __init__(self, folder, sock, lang="de", said=print, given_name=""):
        self.folder = Path(folder)
        self.director = Director(folder)       # used in self.worker's thread only
        self.worker = ThreadPoolExecutor(1, thread_name_prefix="director")
        self.sock = sock
        self.port = sock.getsockname()[1]
        self.lang = lang
        self.said = said
        self.door = Door(self.port, own_names(given_name), lang, None, None)
        self.limiter = PinLimiter(time.monotonic, burst=1 << 30)   # wrong keys: a backoff per client only
        self.live = {}                         # table number -> (its live state, when it came)
        self.model = None                      # the screen's model but the live states: made after a change
        self.latencies = []                    # a game's arrival to the standings updated, seconds
        self.work_s = []                       # the director thread's CPU seconds for a game that counts
        self.verdicts = {}                     # status -> count
        self.keys = {}                         # table number -> its enrolment key
        self.runner = None
        self.server = None
        self.refresher = None
        self.started = time.time()

    # --- the director's work, in its thread -----------------------------------------------------------
    async def work(self, fn, *args):
        return await asyncio.get_running_loop().run_in_executor(self.worker, fn, *args)

    def _model(self):
        d = self.director
        store = d.store
        round_no, kind = store.current()
        lines = d.standings()
        fmt = d.format
        final = None
        if fmt.final is not None and any(k == "final" for _, k in store.rounds()):
            ranking, still = d.final()
            final = {"ranking": [{"name": n, "lost": lost, "out_in": out} for n, lost, out in ranking],
                     "still_in": still, "out_after": fmt.final.out_after}
        tables = store.tables_of(round_no) if round_no else {}
        return {"name": store.name, "format": fmt.name, "round": round_no, "kind": kind,
                "rounds": fmt.rounds, "games": fmt.games,
                "round_drawn_at": store.drawn_at(round_no),
                "tables": [{"table": t, "players": names, "counted": store.games_at(round_no, t),
                            "due": d.games_due(round_no)} for t, names in sorted(tables.items())],
                "standings": [line.as_dict() for line in lines],
                "teams": [{"team": t, "points": p, "games_lost": g, "players": n}
                          for t, p, g, n in stand.teams(lines)],
                "final": final,
                "prizes": [{"place": p, "amount": a} for p, a in stand.prizes(fmt, len(lines))],
                "held": len(store.held()), "missing": d.missing(round_no) if round_no else 0,
                "next": self._next(round_no, kind)}

    def _next(self, round_no, kind):
        """What comes after this round, for the screen: the next regular round, the final, or the end."""
        fmt = self.director.format
        if round_no < fmt.rounds:
            return {"round": round_no + 1, "kind": "round"}
        if fmt.final is not None:
            return {"round": round_no + 1, "kind": "final"}
        return None

    def _receive(self, key, round_no, text, arrived):
        cpu = time.thread_time()
        verdict = self.director.receive(key, round_no, text)
        if verdict.status in ("counted", "held") or self.model is None:
            self.model = self._model()
        if verdict.status == "counted":
            self.latencies.append(time.monotonic() - arrived)
            self.work_s.append(time.thread_time() - cpu)
        return verdict

    def _refresh(self):
        """The model and the keys read anew: `schocken turnier auslosen` or `entscheiden` may have changed
        the database from another process."""
        self.director._standings = None
        self.keys = self.director.store.keys()
        self.model = self._model()
        return self.model

    async def _refreshing(self):
        while True:
            await asyncio.sleep(REFRESH_S)
            try:
                await self.work(self._refresh)
            except Exception as e:  # noqa: BLE001 - a database busy for a moment: the next refresh
                self.said("%s: %s" % (type(e).__name__, e))

    # --- the server -----------------------------------------------------------------------------------
    def app(self):
        app = web.Application(client_max_size=MAX_LOG_BYTES + 64 * 1024, middlewares=[self.door.middleware()])
        app.on_response_prepare.append(security_headers)
        app.router.add_get("/", self.index)
        app.router.add_get("/leinwand", self.screen)
        app.router.add_get("/screen.json", self.screen_json)
        app.router.add_get("/tisch/{key}", self.table_page)
        app.router.add_get("/api/tisch/{key}", self.table_json)
        app.router.add_post("/api/spiel", self.game)
        app.router.add_post("/api/live", self.live_state)
        app.router.add_get("/api/stats", self.stats)
        app.router.add_static("/static/", STATIC)
        return app

    async def start(self):
        await self.work(self._refresh)
        self.runner, self.server = await serve(self.app(), self.door, self.sock)
        self.refresher = asyncio.get_running_loop().create_task(self._refreshing())

    async def stop(self):
        if self.refresher is not None:
            self.refresher.cancel()
        if self.server is not None:
            self.server.close()
        if self.runner is not None:
            try:
                await asyncio.wait_for(self.runner.cleanup(), 5.0)
            except (asyncio.TimeoutError, OSError):
                pass
        if self.door.connections is not None:
            self.door.connections.close_all()
        self.worker.shutdown(wait=True)
        self.director.close()

    # --- handlers -------------------------------------------------------------------------------------
    async def index(self, request):
        raise web.HTTPFound("/leinwand")

    async def screen(self, request):
        return web.FileResponse(STATIC / "screen.html", headers={"Cache-Control": "no-cache"})

    async def screen_json(self, request):
        model = dict(self.model or {})
        now = time.time()
        live = {str(t): dict(state, age=round(now - at, 1)) for t, (state, at) in self.live.items()}
        model.update(live=live, clock=now, started=self.started)
        return web.json_response(model, headers={"Cache-Control": "no-store"})

    async def stats(self, request):
        """Counts and timings, no names: a game's arrival to the standings made anew (wall seconds, as the
        machine's load makes them) and the director's CPU seconds for it (the work itself)."""
        lat, cpu = sorted(self.latencies), sorted(self.work_s)
        return web.json_response({"verdicts": self.verdicts, "arrivals": len(lat),
                                  "p50": _at(lat, 0.5), "p99": _at(lat, 0.99), "max": _at(lat, 1.0),
                                  "cpu_p50": _at(cpu, 0.5), "cpu_p99": _at(cpu, 0.99)})

    def _known(self, key):
        for table_no, known in self.keys.items():
            if isinstance(key, str) and hmac.compare_digest(key.encode(), known.encode()):
                return table_no
        return None

    async def _table_of(self, key, client):
        """The table number of ``key``, else Refused: 403, or 429 while the client's backoff after a wrong
        key lasts (guard's limiter, per client only: a key of 96 random bits is not guessed, and no guest may
        use up a budget the tables share). A right key is checked first and always passes; a key not known
        yet is looked up in the database once (a round drawn since the last refresh)."""
        table_no = self._known(key)
        if table_no is not None:
            return table_no
        wait = self.limiter.wait_s(client)
        if wait > 0:
            raise Refused(429, "web.too_many", retry_after=wait, seconds=int(wait + 0.999))
        self.keys = await self.work(self.director.store.keys)
        table_no = self._known(key)
        if table_no is not None:
            return table_no
        self.limiter.wrong(client)
        raise Refused(403, "turnier.not_enrolled")

    def _seating(self, table_no):
        """The table's seating in the round drawn last, read from the database (never a stale model: a
        round may have been drawn a moment ago by `schocken turnier auslosen`)."""
        d = self.director
        round_no, kind = d.store.current()
        players = d.store.tables_of(round_no).get(table_no, []) if round_no else []
        return {"name": d.store.name, "table": table_no, "round": round_no, "kind": kind, "players": players,
                "rules": d.format.rules, "counted": d.store.games_at(round_no, table_no) if round_no else 0,
                "due": d.games_due(round_no) if round_no else 0}

    async def table_json(self, request):
        table_no = await self._table_of(request.match_info["key"], client_of(request.remote))
        seating = await self.work(self._seating, table_no)
        return web.json_response(seating, headers={"Cache-Control": "no-store"})

    async def table_page(self, request):
        key = request.match_info["key"]
        table_no = await self._table_of(key, client_of(request.remote))
        base = "http://%s" % request.host
        page = (STATIC / "table.html").read_text(encoding="utf-8")
        page = page.replace("{{TABLE}}", str(table_no)).replace(
            "{{COMMAND}}", html.escape("schocken play --turnier %s" % table_url(base, key)))
        return web.Response(text=page, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def _body(self, request, limit):
        if request.content_type != "application/json":
            raise Refused(415, "turnier.bad_body")
        if request.content_length is not None and request.content_length > limit:
            raise Refused(413, "turnier.too_big")
        try:
            # the whole body (read() stops at the app's client_max_size with a 413), within BODY_S
            raw = await asyncio.wait_for(request.read(), BODY_S)
        except asyncio.TimeoutError:
            raise Refused(408, "turnier.bad_body")
        if len(raw) > limit:
            raise Refused(413, "turnier.too_big")
        try:
            body = json.loads(raw)
        except (ValueError, RecursionError):
            raise Refused(400, "turnier.bad_body")
        if not isinstance(body, dict):
            raise Refused(400, "turnier.bad_body")
        return body

    async def game(self, request):
        arrived = time.monotonic()
        body = await self._body(request, MAX_LOG_BYTES + 1024)
        await self._table_of(body.get("key"), client_of(request.remote))
        try:
            verdict = await self.work(self._receive, body.get("key"), body.get("round"), body.get("log"),
                                      arrived)
        except CommandError as e:
            lang = request.query.get("lang", self.lang)
            return web.json_response({"status": "refused", "reason": e.message.localized(lang)}, status=400)
        self.verdicts[verdict.status] = self.verdicts.get(verdict.status, 0) + 1
        if verdict.status == "counted":
            self.said(tr(self.lang, "turnier.heard_counted", table=verdict.table, round=verdict.round,
                         game=verdict.game_id))
        elif verdict.status == "held":
            self.said(tr(self.lang, "turnier.heard_held", table=verdict.table, round=verdict.round,
                         game=verdict.game_id, reason=verdict.reason, path=self.folder))
        return web.json_response(verdict.as_dict(), status=409 if verdict.status == "conflict" else 200)

    async def live_state(self, request):
        body = await self._body(request, LIVE_BYTES)
        table_no = await self._table_of(body.get("key"), client_of(request.remote))
        live = body.get("live")
        if not isinstance(live, dict):
            raise Refused(400, "turnier.bad_body")
        self.live[table_no] = ({k: live[k] for k in LIVE_FIELDS if k in live}, time.time())
        return web.Response(status=204)
