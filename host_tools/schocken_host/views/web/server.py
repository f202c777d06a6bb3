"""The live web view's server (aiohttp, in the game's own event loop): the page and its assets, the game as
Server-Sent Events (every event in log order with its line number as id, then the page's model; a browser that
comes back with Last-Event-ID gets what it missed), the log, the Python sources the in-browser check runs, a
QR code of the page, and the table's actions behind a PIN or the key in the terminal's QR code. Every request
passes door.py first, and guard.py holds every request and connection of a guest within bounds (docs/web.md,
"Threat model").

``WebView`` is the view the referee talks to (``note``, ``update``: table/view.py) and owns the server; the
table's ``Views`` puts it beside the terminal's view, so that nothing the web view does can reach the referee.
The server lives as long as the host: at the end of a game (``finish``) it goes on serving the final page, so
a phone that opens it then still gets the standings, and closes when the event loop ends (the host exits) or
on ``stop``."""

import asyncio
import io
import logging
import mimetypes
import os
import secrets
from pathlib import Path

import segno
from aiohttp import web

from schocken_host.i18n import LANGS, TEXTS, tr
from schocken_host.views.web import check, season
from schocken_host.views.web.door import Door
from schocken_host.views.web.connections import serve
from schocken_host.table.view import View
from schocken_host.views.web.guard import Refused, security_headers
from schocken_host.views.web.hub import Hub
from schocken_host.views.web.kernel import hang_up
from schocken_host.views.web.listening import bind, lan_address, own_names

# MicroPython's WebAssembly port: a browser runs a module only with a JavaScript type, wasm only as wasm.
mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("application/wasm", ".wasm")

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
KEEPALIVE_S = 15.0                     # a comment line this often keeps proxies and phones from hanging up
PING = b": ping\n\n"
FLUSH_S = 2.0                          # at the end of a game, how long the browsers get to catch up
PHASES = ("setup", "throw_off", "half1", "half2", "final", "over")
KEY_FILE = "SCHOCKEN_WEB_KEY_FILE"     # tests and benches read the page's key from this file

# aiohttp logs a request it could not handle with its traceback; a guest's bad request must not reach the
# terminal (every handler's failure is answered in one line by the guard's middleware).
for _name in ("aiohttp.server", "aiohttp.web", "aiohttp.access"):
    logging.getLogger(_name).addHandler(logging.NullHandler())
    logging.getLogger(_name).propagate = False


class WebView(View):
    """The web view of one game: its server, its Hub, its PIN and key (None: watch only)."""

    def __init__(self, address, lang="de", actions=True, coach=False):
        self.lang = lang if lang in LANGS else "de"
        self.sock = bind(address)
        self.sock.setblocking(False)
        host, port = self.sock.getsockname()[:2]
        if address[0] and host not in ("0.0.0.0", "::"):
            shown = "[%s]" % host if ":" in host else host
        else:
            shown = lan_address()
        self.url = "http://%s:%d/" % (shown, port)
        self.port = port
        self.pin = "%06d" % secrets.randbelow(10 ** 6) if actions else None
        # The key goes in the terminal's QR code only: a phone that scans it acts without typing the PIN,
        # and 120 bits need no limiter (the page's own QR code is public and carries none). 15 bytes keep the
        # code at version 3 (17 lines) for the longest LAN address.
        self.key = secrets.token_urlsafe(15) if actions else None
        if self.key and os.environ.get(KEY_FILE):
            Path(os.environ[KEY_FILE]).write_text(self.key, encoding="utf-8")
        self.door = Door(port, own_names(address[0]), self.lang, self.pin, self.key)
        self.hub = Hub(coach)
        self.referee = None            # who takes the table's actions (Referee.request)
        self.runner = None
        self.server = None
        self.closing = False
        self.sent = {}                 # subscriber -> id of the last event sent to it
        self.serving = None            # after finish: the task that closes the server when the loop ends
        self._beat = None              # the keep-alive's next beat (a timer handle) while pages are open
        self._qr_svg = {}
        self.season = season.SeasonPicture()   # the league's picture at /season (the data folder's database)

    # --- the view the referee talks to -----------------------------------------------------------------
    def note(self, text):
        pass                           # the terminal's lines stay in the terminal

    def update(self, state, ev):
        self.hub.live(state, ev)      # the referee's state, applied once by the sink: the page reads it

    def attach_log(self, path):
        """The events already in the log (a resumed game): ids stay the log's line numbers."""
        return self.hub.read_lines(path, 0)

    def request(self, what, seat):
        if self.referee is None:
            return False
        self.referee.request(what, seat)
        return True

    def banner(self, lang=None):
        """The terminal's lines: the URL, its QR code, the PIN (or that the page only watches)."""
        lang = lang or self.lang
        lines = [tr(lang, "web.url", url=self.url), self.qr_text()]
        lines.append(tr(lang, "web.pin", pin=self.pin) if self.pin else tr(lang, "web.read_only"))
        return "\n".join(lines)

    def join_url(self):
        """The address in the terminal's QR code: the page, with the key for table actions after the #
        (a fragment never leaves the phone: the server, its log and a proxy never see it)."""
        return self.url + ("#k=" + self.key if self.key else "")

    def qr_text(self, border=2):
        """The terminal's QR code (``join_url``) as text: two rows of modules per line in half blocks (it
        reads right on a dark or light background: segno draws both colours). Error level L keeps the code
        with the key as small as the page's plain address at M: 17 lines, within 80x24 with its labels."""
        qr = io.StringIO()
        segno.make(self.join_url(), error="l").terminal(out=qr, compact=True, border=border)
        return qr.getvalue().rstrip("\n")

    def join_info(self):
        """What the terminal shows for the whole game to let people join (plain data, no server object):
        ``url`` the address to type, ``urls`` every address it answers at that a person may need (the
        network's first, this machine's own when it listens on every address), ``pin`` the table actions'
        PIN (None: watch only), ``qr`` the terminal's QR code as text (``qr_text``: with the key),
        ``qr_url`` the page's public QR code (no key) as an SVG."""
        urls = [self.url]
        host = self.sock.getsockname()[0] if self.sock is not None else ""
        if host in ("0.0.0.0", "::"):
            urls.append("http://127.0.0.1:%d/" % self.port)
        return {"url": self.url, "urls": urls, "pin": self.pin, "qr": self.qr_text(),
                "qr_url": self.url + "qr.svg"}

    # --- the server ------------------------------------------------------------------------------------
    def app(self):
        app = web.Application(client_max_size=64 * 1024, middlewares=[self.door.middleware()])
        app.on_response_prepare.append(security_headers)
        app.router.add_get("/", self.index)
        app.router.add_get("/texts.json", self.texts)
        app.router.add_get("/page.json", self.page)
        app.router.add_get("/events", self.events)
        app.router.add_get("/state.json", self.state_json)
        app.router.add_get("/log.jsonl", self.log)
        app.router.add_get("/qr.svg", self.qr)
        app.router.add_post("/action", self.action)
        app.router.add_get("/py/index.json", self.py_index)
        app.router.add_get("/py/{path:.+}", self.py_file)
        app.router.add_static("/static/", STATIC)
        season.add_routes(app, self.season)
        vendor = check.vendor_dir()  # MicroPython's WebAssembly port; without it check.js says why
        if vendor is not None:
            app.router.add_static("/check/vendor/", vendor)
        app.router.add_static("/check/", check.CHECK_DIR)
        return app

    async def start(self):
        self.runner, self.server = await serve(self.app(), self.door, self.sock)

    async def finish(self, flush=FLUSH_S):
        """The game has ended (or stopped): every open browser gets the last events (at most ``flush``
        seconds), and the server goes on serving the final page for as long as the host runs: it closes
        when its event loop ends (``asyncio.run`` cancels the task that holds it) or on ``stop``. The
        scoreboard shows the end until q, and a phone that opens the page meanwhile gets the standings."""
        await self._flush(flush)
        if self.runner is not None and self.serving is None:
            self.serving = asyncio.get_running_loop().create_task(self._serve_until_the_loop_ends())

    async def _serve_until_the_loop_ends(self):
        try:
            await asyncio.get_running_loop().create_future()
        finally:
            await self.stop(0)

    async def _flush(self, flush):
        loop = asyncio.get_running_loop()
        end = loop.time() + flush
        while loop.time() < end and any(n < self.hub.count for n in self.sent.values()):
            await asyncio.sleep(0.05)

    async def stop(self, flush=FLUSH_S):
        """Let every browser take the last events (at most ``flush`` seconds), then close; bounded."""
        await self._flush(flush)
        self.closing = True
        self.hub.close()
        if self._beat is not None:
            self._beat.cancel()
            self._beat = None
        for woken in list(self.hub.subscribers):
            woken.set()
        if self.server is not None:
            self.server.close()
            self.server = None
        if self.runner is not None:
            try:
                await asyncio.wait_for(self.runner.cleanup(), 5.0)
            except (asyncio.TimeoutError, OSError):
                pass
            self.runner = None
        if self.door.connections is not None:
            self.door.connections.close_all()

    # --- handlers --------------------------------------------------------------------------------------
    async def index(self, request):
        return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def texts(self, request):
        lang = request.query.get("lang", "de")
        texts = {key[len("web.page_"):]: tr(lang, key) for key in TEXTS if key.startswith("web.page_")}
        texts.update({"phase_" + phase: tr(lang, "board." + phase) for phase in PHASES})
        texts.update({"coach_" + key[len("coach."):]: tr(lang, key)
                      for key in TEXTS if key.startswith("coach.")})
        texts["lang"] = lang if lang in LANGS else "de"
        return web.json_response(texts)

    async def page(self, request):
        """What the page needs to know of its server: whether it takes table actions (``play``: with the PIN)
        or only watches (``watch``: the page shows no action form)."""
        return web.json_response({"actions": self.pin is not None}, headers={"Cache-Control": "no-cache"})

    async def state_json(self, request):
        n, view = self.hub.count, self.hub.view_text()
        return await self._stream(request, "application/json",
                                  [b'{"view":', view.encode("utf-8"), b',"events":%d}' % n])

    async def log(self, request):
        lines = self.hub.lines[:]
        return await self._stream(request, "application/x-ndjson",
                                  ((line + "\n").encode("utf-8") for line in lines))

    async def _stream(self, request, content_type, parts):
        """A response written in pieces (connections.Pieces): a client that does not read holds little
        here."""
        resp = web.StreamResponse(headers={"Content-Type": content_type, "Cache-Control": "no-cache"})
        await resp.prepare(request)
        await self.door.pieces(resp, request).send(parts)
        await resp.write_eof()
        return resp

    async def qr(self, request):
        lang = "en" if request.query.get("lang") == "en" else "de"
        if lang not in self._qr_svg:
            out = io.BytesIO()
            segno.make(self.url + ("?lang=en" if lang == "en" else ""), error="m").save(
                out, kind="svg", scale=8, border=2, xmldecl=False)
            self._qr_svg[lang] = out.getvalue()
        return web.Response(body=self._qr_svg[lang], content_type="image/svg+xml")

    async def py_index(self, request):
        return web.json_response(sorted(check.py_files()))

    async def py_file(self, request):
        path = check.py_files().get(request.match_info["path"])
        if path is None:
            raise web.HTTPNotFound()
        return web.Response(text=path.read_text(encoding="utf-8"), content_type="text/x-python",
                            charset="utf-8")

    async def action(self, request):
        """A table word from the page, once the door let it through (door.Door.action)."""
        what, seat, word = await self.door.action(request, lambda: len(self.hub.state.players) or 99)
        if not self.request(what, seat):
            raise Refused(409, "web.watch_only")
        return web.json_response({"ok": True, "word": word})

    async def events(self, request):
        """Server-Sent Events: after a Last-Event-ID (header, or ?last=N) the events past it, else all of
        them; then the model; then each new burst the same way. ?game=ID: a browser that saw another game (or
        more events than there are: another log) is told to reset and gets everything. Open pages are
        capped per client and overall; a page that does not take a write in time is let go."""
        hub = self.hub
        woken = asyncio.Event()
        self.door.admit_page(woken, request)
        try:
            last = int(request.headers.get("Last-Event-ID") or request.query.get("last") or 0)
        except ValueError:
            last = 0
        game = request.query.get("game")
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache",
                                           "X-Accel-Buffering": "no"})
        try:
            await resp.prepare(request)
        except BaseException:
            self.door.pages.drop(woken)
            raise
        pieces = self.door.pieces(resp, request)
        hub.subscribers.add(woken)
        self.sent[woken] = last
        self._keep_alive()
        try:
            head = b"retry: 1000\n\n"
            if last < 0 or last > hub.count or (game and hub.game_id and game != hub.game_id):
                head += b"event: reset\ndata: {}\n\n"
                last = 0
            await pieces.send([head])
            first, version = True, None
            while not self.closing and woken in self.door.pages:
                woken.clear()
                n, now = hub.count, hub.version   # before the write: what changes during it comes next
                if n > last or first or version != now:
                    await pieces.send(hub.messages(last, n))
                    last, first, version = n, False, now
                    self.sent[woken] = n
                else:
                    await pieces.send([PING])   # woken by the keep-alive's beat with nothing new
                await woken.wait()              # a new event, the beat, or the page let go: each ends it
        except (ConnectionError, RuntimeError):
            pass                       # the browser went away; it comes back with its Last-Event-ID
        except TimeoutError:
            hang_up(request.transport)       # it took no write in time: its buffers go with it
        finally:
            hub.subscribers.discard(woken)
            self.sent.pop(woken, None)
            self.door.pages.drop(woken)
        return resp

    def _keep_alive(self):
        """The keep-alive's beat, once for every open page: each wakes, and one with nothing new sends a
        comment line. One timer for all pages (none each)."""
        if self._beat is None and not self.closing:
            self._beat = asyncio.get_running_loop().call_later(KEEPALIVE_S, self._beat_now)

    def _beat_now(self):
        self._beat = None
        for woken in list(self.hub.subscribers):
            woken.set()
        if self.hub.subscribers:
            self._keep_alive()
