"""The live web view's server (aiohttp, in the game's own event loop): the page and its assets, the game as
Server-Sent Events (every event in log order with its line number as id, then the page's model; a browser that
comes back with Last-Event-ID gets what it missed), the log, the Python sources the in-browser check runs, a
QR code of the page, and the table's actions behind a PIN (docs/web.md).

``WebView`` is the view the referee talks to (``note``, ``update``) and owns the server; ``Both`` puts it
beside the terminal's view, so that nothing the web view does can reach the referee. The server lives as long
as the host: at the end of a game (``finish``) it goes on serving the final page, so a phone that opens it
then still gets the standings, and closes when the event loop ends (the host exits) or on ``stop``."""

import asyncio
import hmac
import io
import json
import mimetypes
import secrets
import socket
from pathlib import Path

import segno
from aiohttp import web

from schocken_host.errors import CommandError
from schocken_host.i18n import LANGS, TEXTS, os_reason, tr
from schocken_host.views.web import check
from schocken_host.views.web.hub import Hub

# MicroPython's WebAssembly port: a browser runs a module only with a JavaScript type, wasm only as wasm.
mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("application/wasm", ".wasm")

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
KEEPALIVE_S = 15.0                     # a comment line this often keeps proxies and phones from hanging up
WRITE_S = 10.0                         # a browser that takes longer to take a write is let go
WRONG_PIN_S = 0.5                      # each wrong PIN costs this long: no guessing a PIN in a minute
FLUSH_S = 2.0                          # at the end of a game, how long the browsers get to catch up
WORDS = {"drop": "penalty", "ein": "einwuerfeln", "wait": "wait", "forfeit": "forfeit"}
PHASES = ("setup", "throw_off", "half1", "half2", "final", "over")
def lan_address():
    """The address other machines on the network reach this one at (no packet is sent)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 1))
        return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


def bind(address):
    """A listening socket on ``address`` (host, port) from --web; CommandError when it cannot be had."""
    host, port = address
    text = "%s:%d" % (host, port) if host else str(port)
    try:
        if host:
            family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
            return socket.create_server((host, port), family=family)
        return socket.create_server(("0.0.0.0", port))
    except (OSError, UnicodeError) as e:
        raise CommandError("web.bind", address=text, error=os_reason(e) if isinstance(e, OSError) else e)


class WebView:
    """The web view of one game: its server, its Hub, its PIN (None: watch only)."""

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
        self.hub = Hub(coach)
        self.referee = None            # who takes the table's actions (Referee.request)
        self.runner = None
        self.closing = False
        self.sent = {}                 # subscriber -> id of the last event sent to it
        self.serving = None            # after finish: the task that closes the server when the loop ends

    # --- the view the referee talks to -----------------------------------------------------------------
    def note(self, text):
        pass                           # the terminal's lines stay in the terminal

    def update(self, state, ev):
        self.hub.feed(ev)

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

    def qr_text(self, border=2):
        """The page's QR code as text for a terminal: two rows of modules per line in half blocks (it reads
        right on a dark or light background: segno draws both colours)."""
        qr = io.StringIO()
        segno.make(self.url, error="m").terminal(out=qr, compact=True, border=border)
        return qr.getvalue().rstrip("\n")

    def join_info(self):
        """What the terminal shows for the whole game to let people join (plain data, no server object):
        ``url`` the address to type, ``urls`` every address it answers at that a person may need (the
        network's first, this machine's own when it listens on every address), ``pin`` the table actions'
        PIN (None: watch only), ``qr`` the QR code of ``url`` as text (``qr_text``), ``qr_url`` the same code
        as an SVG on the page."""
        urls = [self.url]
        host = self.sock.getsockname()[0] if self.sock is not None else ""
        if host in ("0.0.0.0", "::"):
            urls.append("http://127.0.0.1:%d/" % self.port)
        return {"url": self.url, "urls": urls, "pin": self.pin, "qr": self.qr_text(),
                "qr_url": self.url + "qr.svg"}

    # --- the server ------------------------------------------------------------------------------------
    def app(self):
        app = web.Application(client_max_size=64 * 1024)
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
        vendor = check.vendor_dir()  # MicroPython's WebAssembly port; without it check.js says why
        if vendor is not None:
            app.router.add_static("/check/vendor/", vendor)
        app.router.add_static("/check/", check.CHECK_DIR)
        return app

    async def start(self):
        self.runner = web.AppRunner(self.app(), handle_signals=False, access_log=None, shutdown_timeout=1.0)
        await self.runner.setup()
        await web.SockSite(self.runner, self.sock).start()

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
        while loop.time() < end and any(n < len(self.hub.events) for n in self.sent.values()):
            await asyncio.sleep(0.05)

    async def stop(self, flush=FLUSH_S):
        """Let every browser take the last events (at most ``flush`` seconds), then close; bounded."""
        await self._flush(flush)
        self.closing = True
        for woken in list(self.hub.subscribers):
            woken.set()
        if self.runner is not None:
            try:
                await asyncio.wait_for(self.runner.cleanup(), 5.0)
            except (asyncio.TimeoutError, OSError):
                pass
            self.runner = None

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
        return web.json_response({"view": self.hub.view(), "events": len(self.hub.events)})

    async def log(self, request):
        return web.Response(text=self.hub.log_text(), content_type="application/x-ndjson",
                            headers={"Cache-Control": "no-cache"})

    async def qr(self, request):
        url = self.url + ("?lang=en" if request.query.get("lang") == "en" else "")
        out = io.BytesIO()
        segno.make(url, error="m").save(out, kind="svg", scale=8, border=2, xmldecl=False)
        return web.Response(body=out.getvalue(), content_type="image/svg+xml")

    async def py_index(self, request):
        return web.json_response(sorted(check.py_files()))

    async def py_file(self, request):
        path = check.py_files().get(request.match_info["path"])
        if path is None:
            raise web.HTTPNotFound()
        return web.Response(text=path.read_text(encoding="utf-8"), content_type="text/x-python",
                            charset="utf-8")

    async def action(self, request):
        lang = request.query.get("lang", "de")
        try:
            body = await request.json()
            if not isinstance(body, dict):
                raise ValueError("not an object")
        except ValueError:
            body = {}
        if self.pin is None:
            return _refuse(403, tr(lang, "web.watch_only"))
        if not hmac.compare_digest(str(body.get("pin", "")).encode(), self.pin.encode()):
            await asyncio.sleep(WRONG_PIN_S)
            return _refuse(403, tr(lang, "web.no_pin"))
        word = " ".join(str(body.get("word", "")).split())
        words = word.split()
        if len(words) != 2 or words[0] not in WORDS or not words[1].isdigit() or int(words[1]) < 1:
            return _refuse(400, tr(lang, "web.bad_word", word=repr(word[:40])))
        try:
            taken = self.request(WORDS[words[0]], int(words[1]) - 1)
        except Exception as e:  # noqa: BLE001 - the table's word must not take the server down
            return _refuse(500, "%s: %s" % (type(e).__name__, e))
        if not taken:
            return _refuse(409, tr(lang, "web.watch_only"))
        return web.json_response({"ok": True, "word": word})

    async def events(self, request):
        """Server-Sent Events: after a Last-Event-ID (header, or ?last=N) the events past it, else all of
        them; then the model; then each new burst the same way. ?game=ID: a browser that saw another game (or
        more events than there are: another log) is told to reset and gets everything."""
        hub = self.hub
        try:
            last = int(request.headers.get("Last-Event-ID") or request.query.get("last") or 0)
        except ValueError:
            last = 0
        game = request.query.get("game")
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache",
                                           "X-Accel-Buffering": "no"})
        await resp.prepare(request)
        woken = asyncio.Event()
        hub.subscribers.add(woken)
        self.sent[woken] = last
        try:
            head = "retry: 1000\n\n"
            if last < 0 or last > len(hub.events) or (game and hub.game_id and game != hub.game_id):
                head += "event: reset\ndata: {}\n\n"
                last = 0
            await _write(resp, head)
            first, version = True, None
            while not self.closing:
                woken.clear()
                n, now = len(hub.events), hub.version   # before the write: what changes during it comes next
                if n > last or first or version != now:
                    chunk = [_message("ev", hub.events[i], i + 1) for i in range(last, n)]
                    chunk.append(_message("view", hub.view()))
                    await _write(resp, "".join(chunk))
                    last, first, version = n, False, now
                    self.sent[woken] = n
                try:
                    await asyncio.wait_for(woken.wait(), KEEPALIVE_S)
                except asyncio.TimeoutError:
                    await _write(resp, ": ping\n\n")
        except (ConnectionError, asyncio.TimeoutError, RuntimeError):
            pass                       # the browser went away; it comes back with its Last-Event-ID
        finally:
            hub.subscribers.discard(woken)
            self.sent.pop(woken, None)
        return resp


def _message(kind, data, ident=None):
    head = "id: %d\n" % ident if ident is not None else ""
    return "%sevent: %s\ndata: %s\n\n" % (head, kind, json.dumps(data, ensure_ascii=False,
                                                                   separators=(",", ":")))


async def _write(resp, text):
    await asyncio.wait_for(resp.write(text.encode("utf-8")), WRITE_S)


def _refuse(status, why):
    return web.json_response({"ok": False, "error": why}, status=status)


class Both:
    """The terminal's view and the web view side by side: the terminal's answers every question the table
    asks of a view (its language, its keys, a person's panel); the web view only takes the events, and
    whatever goes wrong in it stays there."""

    def __init__(self, primary, web_view):
        self.primary = primary
        self.web = web_view

    def __getattr__(self, name):
        return getattr(self.primary, name)

    def note(self, text):
        self.primary.note(text)

    def update(self, state, ev):
        try:
            self.web.update(state, ev)
        except Exception:  # noqa: BLE001 - a view must never take the referee down with it
            pass
        self.primary.update(state, ev)
