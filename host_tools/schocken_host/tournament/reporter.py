"""The table's side of a tournament: `schocken play --turnier URL` (URL from the table card's QR code:
``http://HOST:PORT/tisch/KEY``). Before the game the table's players are read from the director; every
finished game's log goes into the outbox (a folder beside the logs) and from there to the director, which
checks it before it counts; a table without the network plays on and its games wait in the outbox until a
later game's end (or `schocken turnier senden`) gets them out, each once (the director records by game id).
While the game runs, its live state (who is on turn, Deckel, halves lost) is sent at most once a second for
the hall's big screen. Standard library HTTP (urllib): every request ends within ``TIMEOUT_S``."""

import hashlib
import http.client
import json
import os
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from schocken_host.errors import CommandError
from schocken_host.i18n import tr
from schocken_host.table import gamelog
from schocken_host.table.view import View

TIMEOUT_S = 5.0
OUTBOX = "turnier-ausgang"
REFUSED = "abgewiesen"
SEATING = "tisch-%s.json"       # the latest seating the director gave a table, for a game without the network
LIVE_EVERY_S = 1.0


def parse_url(url):
    """(the director's base URL, the table's key) of a table card's URL; CommandError otherwise."""
    parts = urllib.parse.urlsplit(url.strip())
    path = parts.path.rstrip("/").split("/")
    if parts.scheme not in ("http", "https") or not parts.netloc or len(path) < 2 or path[-2] != "tisch" \
            or not path[-1]:
        raise CommandError("turnier.bad_url", url=url)
    base = urllib.parse.urlunsplit((parts.scheme, parts.netloc, "/".join(path[:-2]), "", ""))
    return base.rstrip("/"), path[-1]


def _why(e):
    if isinstance(e, urllib.error.HTTPError):
        try:
            body = json.loads(e.read().decode("utf-8", "replace"))
            return body.get("reason") or "HTTP %d" % e.code
        except (ValueError, OSError, AttributeError):
            return "HTTP %d %s" % (e.code, e.reason)
    if isinstance(e, urllib.error.URLError):
        return str(e.reason)
    return "%s: %s" % (type(e).__name__, e) if str(e) else type(e).__name__


def _request(url, body=None, timeout=TIMEOUT_S):
    data = None if body is None else json.dumps(body).encode("utf-8")
    req = urllib.request.Request(url, data=data, method="GET" if body is None else "POST",
                                 headers={"Content-Type": "application/json"} if body is not None else {})
    with urllib.request.urlopen(req, timeout=timeout) as resp:
        raw = resp.read()
        return json.loads(raw) if raw else None


def seating(url, log_dir=None):
    """The table's round and players as the director drew them: {table, round, kind, players, counted, due,
    offline}. The answer is kept beside the outbox: a table that cannot reach the director plays its next
    game with the seating it had (``offline`` True). CommandError (one line) when the director refuses the
    key, or cannot be reached and nothing is kept for this URL."""
    base, key = parse_url(url)
    # one file per table's URL: several tables on one laptop may share a log folder
    kept = Path(log_dir or gamelog.log_dir()) / OUTBOX / (
        SEATING % hashlib.sha256(url.encode("utf-8")).hexdigest()[:16])
    try:
        table = _request("%s/api/tisch/%s" % (base, urllib.parse.quote(key)))
    except urllib.error.HTTPError as e:
        raise CommandError("turnier.refused", url=base, why=_why(e))
    except (OSError, ValueError) as e:
        try:
            table = json.loads(kept.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            table = None
        if not isinstance(table, dict) or table.get("url") != url:
            raise CommandError("turnier.unreachable", url=base, why=_why(e))
        table["offline"] = _why(e)
        return table
    if not isinstance(table, dict) or type(table.get("round")) is not int:
        raise CommandError("turnier.refused", url=base, why="no table's seating")
    table["url"] = url
    table["offline"] = None
    kept.parent.mkdir(parents=True, exist_ok=True)
    tmp = kept.with_suffix(".part")
    tmp.write_text(json.dumps(table), encoding="utf-8")
    os.replace(tmp, kept)
    return table


def _age(path):
    try:
        return path.stat().st_mtime_ns, path.name
    except OSError:
        return 0, path.name


class Outbox:
    """The games that wait for the director, a file each in ``<log dir>/turnier-ausgang/spiel-GAME.json``
    ({url, round, log}); written before the first try, removed once the director has the game."""

    lock = threading.Lock()          # one flush at a time in this process

    def __init__(self, log_dir=None):
        self.folder = Path(log_dir or gamelog.log_dir()) / OUTBOX

    def put(self, url, round_no, log_path, game_id):
        self.folder.mkdir(parents=True, exist_ok=True)
        entry = self.folder / ("spiel-%s.json" % game_id)
        tmp = entry.with_suffix(".part")
        tmp.write_text(json.dumps({"url": url, "round": round_no, "log": str(Path(log_path).resolve())}),
                       encoding="utf-8")
        os.replace(tmp, entry)

    def waiting(self):
        return sorted(self.folder.glob("spiel-*.json"), key=_age) if self.folder.is_dir() else []

    def flush(self):
        """Every waiting game sent, oldest first, until the network fails: (sent, still waiting, why it
        stopped or None). A game the director refuses goes to the outbox's `abgewiesen/` with the reason."""
        sent = 0
        with self.lock:
            for entry in self.waiting():
                try:
                    item = json.loads(entry.read_text(encoding="utf-8"))
                    base, key = parse_url(item["url"])
                    log = Path(item["log"]).read_text(encoding="utf-8")
                except (OSError, ValueError, KeyError, CommandError) as e:
                    self._refuse(entry, _why(e))
                    continue
                try:
                    _request(base + "/api/spiel", {"key": key, "round": item["round"], "log": log})
                except urllib.error.HTTPError as e:
                    if e.code in (400, 403, 409, 413, 415):
                        self._refuse(entry, _why(e))
                        continue
                    return sent, len(self.waiting()), _why(e)
                except (OSError, ValueError) as e:
                    return sent, len(self.waiting()), _why(e)
                entry.unlink()
                sent += 1
        return sent, len(self.waiting()), None

    def _refuse(self, entry, why):
        gone = self.folder / REFUSED
        gone.mkdir(exist_ok=True)
        (gone / (entry.stem + ".reason.txt")).write_text(why + "\n", encoding="utf-8")
        os.replace(entry, gone / entry.name)


class Reporter:
    """GameSession's ``finished`` hook for a tournament table, beside the league's Recorder (``then``): the
    game's log into the outbox, the outbox flushed in a thread. ``line(lang)`` as the Recorder's."""

    def __init__(self, url, round_no, log_dir=None, then=None):
        self.url = url
        self.round = round_no
        self.outbox = Outbox(log_dir)
        self.then = then
        self.thread = None
        self.result = None

    def __call__(self, log_path):
        if self.then is not None:
            self.then(log_path)
        start = gamelog.start_of(log_path)
        game_id = start.get("game_id") if isinstance(start, dict) else None
        if isinstance(game_id, str):
            self.outbox.put(self.url, self.round, log_path, game_id)
        self.thread = threading.Thread(target=self._flush, name="turnier", daemon=True)
        self.thread.start()

    def _flush(self):
        self.result = self.outbox.flush()

    def line(self, lang, timeout=TIMEOUT_S * 3):
        said = self.then.line(lang) if self.then is not None else None
        if self.thread is None:
            return said
        self.thread.join(timeout)
        if self.result is None:
            mine, error = tr(lang, "turnier.report_waiting", why="timeout",
                             waiting=len(self.outbox.waiting()),
                             path=self.outbox.folder), True
        else:
            sent, waiting, why = self.result
            if why is None:
                mine, error = tr(lang, "turnier.report_sent", sent=sent, waiting=waiting), False
            else:
                mine, error = tr(lang, "turnier.report_waiting", why=why, waiting=waiting,
                                 path=self.outbox.folder), True
        if said is None:
            return mine, error
        if said[1] != error:     # one of them an error: that one goes to standard error, the other is said
            return (said if said[1] else (mine, error))
        return said[0] + "\n" + mine, error


class KeptConnection:
    """One HTTP/1.1 connection to the director, kept open from one send to the next. The hall counts each
    address's new connections (docs/web.md: 4 a second after the first 32), and several tables on one laptop
    send their live state every second: a new connection per send would soon be refused with 429."""

    def __init__(self, base, timeout):
        parts = urllib.parse.urlsplit(base)
        self.kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        self.host, self.port, self.timeout = parts.hostname, parts.port, timeout
        self.conn = None

    def post(self, path, body):
        """POST ``body`` as JSON; raises OSError (an answer of 400 or more as well). A kept connection the
        director closed meanwhile is tried once more on a new one."""
        data = json.dumps(body).encode("utf-8")
        for last in (False, True):
            if self.conn is None:
                self.conn = self.kind(self.host, self.port, timeout=self.timeout)
            try:
                self.conn.request("POST", path, data, {"Content-Type": "application/json"})
                resp = self.conn.getresponse()
                resp.read()
            except (OSError, http.client.HTTPException) as e:
                self.close()
                if last:
                    raise OSError(str(e)) from e
                continue
            if resp.will_close:
                self.close()
            if resp.status >= 400:
                raise OSError("HTTP %d" % resp.status)
            return

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None


class LiveReport(View):
    """A view (note, update) that sends the table's live state to the director, at most once a second, from
    a thread of its own (the referee never waits on the network); a failed send is dropped: the next one
    carries the newer state. The game's last state goes at once; ``finish(timeout)`` waits for it, bounded."""

    def __init__(self, url, round_no):
        self.base, self.key = parse_url(url)
        self.round = round_no
        self.latest = None
        self.wake = threading.Event()
        self.sent = threading.Event()       # the latest state has been sent (or tried)
        self.director = KeptConnection(self.base, timeout=2.0)
        self.thread = threading.Thread(target=self._run, name="turnier-live", daemon=True)
        self.thread.start()

    def note(self, text):
        pass

    def update(self, state, ev):
        players = [{"name": p.name, "deckel": state.deckel(p.seat),
                    "halves": sum(1 for s in state.half_losers if s == p.seat)} for p in state.players]
        on_turn = state.on_turn
        self.latest = {"phase": state.phase(), "players": players, "game": state.game_id,
                       "on_turn": state.players[on_turn].name if on_turn is not None else None,
                       "over": bool(state.over)}
        self.sent.clear()
        self.wake.set()

    def finish(self, timeout=2.0):
        if self.latest is not None:
            self.sent.wait(timeout)

    def _run(self):
        while True:
            self.wake.wait()
            self.wake.clear()
            live = self.latest
            try:
                self.director.post(urllib.parse.urlsplit(self.base).path + "/api/live",
                                   {"key": self.key, "round": self.round, "live": live})
            except (OSError, ValueError):
                pass
            if live is self.latest:
                self.sent.set()
            if not live.get("over"):
                time.sleep(LIVE_EVERY_S)
