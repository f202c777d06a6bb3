"""Hostile guests of the live web view (issue 32): what a guest on the same Wi-Fi can do to the page's server,
from raw sockets on the loopback, so that no client library hides or repairs anything.

Every guest binds its own source address of 127.0.0.0/8 before it connects (Linux routes all of it to lo), so
one process plays many phones: ``guest_addresses(n, net)`` gives n of them, ``net`` keeping one test's
guests apart from another's (the server remembers a PIN guesser's address).

- ``exchange``: one raw request on its own connection, and the server's answer (``Answer``: status, headers,
  body, or how the connection ended without one); ``http_request`` and ``action_request`` build requests;
- ``Idle``, ``Slowloris``, ``SseSink``: a connection that sends nothing, one that sends its head a byte now
  and then, one that asks for /events with a small receive buffer and never reads; each reconnects when the
  server lets it go, until its time is up. ``Crowd`` runs many of them, ``Tally`` counts how each connection
  ended;
- ``guess_pins``: POST /action with wrong PINs, many in parallel from one or many addresses (``Guesses``:
  the statuses, and how many guesses the server actually checked: a 403);
- ``malformed_requests``, ``cross_site_posts``, ``foreign_host_requests``: the bad requests a guest can send,
  each with the statuses the server may answer it with;
- ``page_load``: an honest page's load from 127.0.0.1, timed; ``EventReader``: an honest page's /events
  stream, each event with the time it arrived;
- ``PlayHost``: `schocken play --plain --web 127.0.0.1:0` as a subprocess to run them against.

Everything is bounded by a timeout, and every socket is closed when its guest ends, cancelled or not."""

import asyncio
import collections
import dataclasses
import json
import os
import re
import resource
import signal
import socket
import struct
import subprocess
import time

from kits.tablekit import ROOT, SCHOCKEN

SERVER = "127.0.0.1"
CONNECT_S = 10.0            # a connect may wait out a full listen queue (a SYN is retried after 1 s, 3 s)
ANSWER_S = 10.0             # how long an exchange waits for the server's answer
STREAM_LIMIT = 1 << 20      # a line of /events carries the page's whole model
TCP_ESTABLISHED = 1
TCP_CLOSED = 7              # after a reset (the peer's FIN taken is 8, CLOSE_WAIT)
TOTAL_RETRANS = 100         # the offset of tcpi_total_retrans in struct tcp_info (linux/tcp.h)
SINK_RCVBUF = 4096          # a non-reading page's receive buffer: the server's writes stall soon
START_S = 60.0              # a host's URL, PIN and first events (MicroPython cups, a loaded machine)
EVIL = "http://evil.example"


def guest_addresses(count, net=1):
    """``count`` distinct loopback addresses 127.net.X.Y, none of them 127.0.0.1 (the honest page's)."""
    if not 1 <= net <= 255 or count > 250 * 256:
        raise ValueError("net 1..255, at most 64000 addresses")
    return ["127.%d.%d.%d" % (net, i // 250, i % 250 + 1) for i in range(count)]


def raise_open_files(wanted=8192):
    """The open-file limit raised towards ``wanted``: every guest is a file of this process."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return max(soft, target)


async def connect(port, source, rcvbuf=None, timeout=CONNECT_S):
    """A non-blocking TCP socket from ``source`` to the server, connected; its receive buffer set first
    (the window the server sees is fixed when the connection is made)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setblocking(False)
        if rcvbuf:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        sock.bind((source, 0))
        await asyncio.wait_for(asyncio.get_running_loop().sock_connect(sock, (SERVER, port)), timeout)
    except BaseException:
        sock.close()
        raise
    return sock


def tcp_state(sock):
    """The kernel's TCP state of ``sock`` (1 established, 7 closed by a reset, 8 the peer's FIN taken)."""
    try:
        return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[0]
    except OSError:
        return 0


def syn_retransmits(sock):
    """Segments the kernel sent again on ``sock`` so far (TCP_INFO's tcpi_total_retrans): right after a
    connect, its SYN's retries (a connect the server's full listen queue dropped is retried after 1 s)."""
    try:
        info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, TOTAL_RETRANS + 4)
    except OSError:
        return 0
    return struct.unpack_from("I", info, TOTAL_RETRANS)[0] if len(info) >= TOTAL_RETRANS + 4 else 0


def status_of(data):
    """The status of a response that starts ``data``; None when it starts no response."""
    parts = data.split(b"\r\n", 1)[0].split(b" ", 2)
    if len(parts) >= 2 and parts[0].startswith(b"HTTP/") and parts[1].isdigit():
        return int(parts[1])
    return None


# --- requests and answers -----------------------------------------------------------------------------------
def http_request(method, path, port, headers=(), body=b"", host=None, close=True):
    """The bytes of a request. ``host`` None: the server's own ``127.0.0.1:PORT``; False: no Host header.
    A Content-Length is added for a body unless ``headers`` name one or a Transfer-Encoding."""
    lines = ["%s %s HTTP/1.1" % (method, path)]
    if host is not False:
        lines.append("Host: %s" % (host or "%s:%d" % (SERVER, port)))
    names = {name.lower() for name, _ in headers}
    lines += ["%s: %s" % (name, value) for name, value in headers]
    if body and not names & {"content-length", "transfer-encoding"}:
        lines.append("Content-Length: %d" % len(body))
    if close and "connection" not in names:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def action_request(port, body, content_type="application/json", headers=(), host=None):
    """POST /action with ``body`` (a dict is sent as JSON, bytes and str as they are)."""
    if isinstance(body, dict):
        body = json.dumps(body).encode()
    elif isinstance(body, str):
        body = body.encode()
    head = ([("Content-Type", content_type)] if content_type else []) + list(headers)
    return http_request("POST", "/action", port, head, body, host=host)


@dataclasses.dataclass
class Answer:
    """What came back: ``status`` None when no response came, and then ``end`` says how the connection ended
    (closed: the server's FIN; reset; timeout; connect: no connection at all)."""
    status: int | None = None
    headers: dict = dataclasses.field(default_factory=dict)
    body: bytes = b""
    end: str = "answered"
    seconds: float = 0.0


async def read_answer(reader, max_body=4 << 20):
    """The next response on ``reader``: its status line, headers and body (Content-Length, chunked, or up to
    the server's close). A body cut short keeps what came."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as e:
        return Answer(status_of(e.partial), end="closed" if not e.partial else "torn")
    except asyncio.LimitOverrunError:
        return Answer(end="head too long")
    except ConnectionError:
        return Answer(end="reset")
    lines = head.decode("latin-1").split("\r\n")
    answer = Answer(status_of(head))
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            answer.headers[name.strip().lower()] = value.strip()
    body = bytearray()
    try:
        if answer.status in (204, 304) or answer.status is not None and answer.status < 200:
            pass
        elif "chunked" in answer.headers.get("transfer-encoding", "").lower():
            while len(body) <= max_body:
                size = int((await reader.readline()).split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while (await reader.readline()).strip():
                        pass                        # the trailer's lines, if any
                    break
                body += await reader.readexactly(size)
                await reader.readexactly(2)
        elif "content-length" in answer.headers:
            body += await reader.readexactly(min(int(answer.headers["content-length"]), max_body))
        elif answer.headers.get("connection", "").lower() == "close":
            body += await reader.read(max_body)
    except (asyncio.IncompleteReadError, ConnectionError, ValueError):
        answer.end = "body cut short"
    answer.body = bytes(body)
    return answer


async def exchange(port, raw, source=SERVER, timeout=ANSWER_S):
    """Send ``raw`` on a new connection from ``source`` and read the answer; the connection is closed after.
    A send the server cut off still reads what it answered before."""
    start = time.monotonic()
    try:
        sock = await connect(port, source, timeout=timeout)
    except (OSError, asyncio.TimeoutError):
        return Answer(end="connect", seconds=time.monotonic() - start)
    writer = None
    try:
        reader, writer = await asyncio.open_connection(sock=sock, limit=STREAM_LIMIT)
        try:
            writer.write(raw)
            await asyncio.wait_for(writer.drain(), timeout)
        except (ConnectionError, asyncio.TimeoutError):
            pass
        try:
            left = max(0.1, timeout - (time.monotonic() - start))
            answer = await asyncio.wait_for(read_answer(reader), left)
        except asyncio.TimeoutError:
            answer = Answer(end="timeout")
    finally:
        if writer is not None:
            writer.transport.abort()
        sock.close()
    answer.seconds = time.monotonic() - start
    return answer


# --- the bad requests a guest can send ----------------------------------------------------------------------
@dataclasses.dataclass
class Bad:
    """A bad request: what it is, its bytes, the statuses the server may answer it with, and whether closing
    the connection without an answer is fine too (a head too big to read)."""
    name: str
    raw: bytes
    expect: frozenset
    may_close: bool = False

    def accepts(self, answer):
        return answer.status in self.expect or (self.may_close and answer.status is None
                                                 and answer.end in ("closed", "reset"))


def malformed_requests(port, pin="000000"):
    """Every malformed request of issue 32, each answered with a 4xx by a sound server. ``pin``: the table's
    real PIN makes a request that slips past a check get 200, not a 403 for a wrong PIN."""
    def action(name, body, expect, content_type="application/json", headers=()):
        return Bad(name, action_request(port, body, content_type, headers), frozenset(expect))

    def word(text):
        return {"pin": pin, "word": text}

    wide = "".join(chr(0xFF10 + int(d)) for d in pin)              # the PIN in full-width digits
    return [
        action("nested JSON of 60 KB", "[" * 60_000, {413}),
        action("nested JSON within the size limit", "[" * 500 + "]" * 500, {400}),
        action("charset=nope", word("wait 1"), {415}, "application/json; charset=nope"),
        action("text/plain from another site", word("wait 1"), {403, 415}, "text/plain",
               [("Origin", EVIL)]),
        action("Origin: null", word("wait 1"), {403}, headers=[("Origin", "null")]),
        action("no Content-Type", word("wait 1"), {415}, content_type=None),
        action("word 'wait ²'", word("wait ²"), {400}),
        action("word 'wait １' (full-width digit)", word("wait １"), {400}),
        action("word 'wait 01'", word("wait 01"), {400}),
        action("word 'wait 0'", word("wait 0"), {400}),
        action("word 'wait 99' (no such seat)", word("wait 99"), {400}),
        action("word 'wait\\t1'", word("wait\t1"), {400}),
        action("word 'WAIT 1'", word("WAIT 1"), {400}),
        action("word 'wait 1; forfeit 2'", word("wait 1; forfeit 2"), {400}),
        action("word 'wait ' + 5000 nines", word("wait " + "9" * 5000), {400, 413}),
        action("word not a string", {"pin": pin, "word": ["wait", 1]}, {400}),
        action("a body of 50 KB", {"pin": pin, "word": "wait 1", "pad": "x" * 50_000}, {413}),
        action("a chunked body of 50 KB", b"%x\r\n%s\r\n0\r\n\r\n" % (50_000, b"[" * 50_000), {413},
               headers=[("Transfer-Encoding", "chunked")]),
        action("a JSON list", json.dumps([word("wait 1")]), {400}),
        action("an unknown field", {"pin": pin, "word": "wait 1", "seat": 1}, {400}),
        action("not UTF-8", b'{"pin": "' + pin.encode() + b'", "word": "wait 1\xff"}', {400}),
        action("PIN as a number", {"pin": int(pin), "word": "wait 1"}, {400, 403}),
        action("PIN in full-width digits", {"pin": wide, "word": "wait 1"}, {400, 403}),
        action("PIN with a space", {"pin": " " + pin, "word": "wait 1"}, {400, 403}),
        action("PIN of seven digits", {"pin": pin + "0", "word": "wait 1"}, {400, 403}),
        action("Content-Length past any body", word("wait 1"), {400, 413},
               headers=[("Content-Length", "99999999999")]),
        Bad("two Content-Lengths", http_request("POST", "/action", port, [
            ("Content-Type", "application/json"), ("Content-Length", "2"), ("Content-Length", "30")], b"{}"),
            frozenset({400}), may_close=True),
        Bad("a body shorter than its Content-Length", action_request(port, b'{"pin": "1', headers=[
            ("Content-Length", "100")]), frozenset({400, 408})),
        Bad("a bad request line", b"GARBAGE\r\n\r\n", frozenset({400}), may_close=True),
        Bad("a header line of 20 KB", http_request("GET", "/", port, [("X-Long", "a" * 20_000)]),
            frozenset(range(400, 432)), may_close=True),
        Bad("Host: evil.example:PORT", http_request("GET", "/", port, host="evil.example:%d" % port),
            frozenset({421})),
        Bad("GET /action", http_request("GET", "/action", port), frozenset({405})),
    ]


def cross_site_posts(port, pin, word):
    """POST /action with the right PIN as another site's page could send it (a form, a no-cors fetch, a
    sandboxed frame), each refused with 403 or 415 by a sound server."""
    body = {"pin": pin, "word": word}
    form = "pin=%s&word=%s" % (pin, word.replace(" ", "+"))
    mine = "http://%s:%d" % (SERVER, port)

    def post(name, payload, content_type, headers, expect=(403, 415)):
        return Bad(name, action_request(port, payload, content_type, headers), frozenset(expect))

    return [
        post("text/plain, Origin another site", json.dumps(body), "text/plain", [("Origin", EVIL)]),
        post("text/plain, Origin null", json.dumps(body), "text/plain", [("Origin", "null")]),
        post("form-encoded, Origin another site", form, "application/x-www-form-urlencoded",
             [("Origin", EVIL)]),
        post("form-encoded, Origin null", form, "application/x-www-form-urlencoded", [("Origin", "null")]),
        post("form-encoded, cross-site fetch", form, "application/x-www-form-urlencoded",
             [("Sec-Fetch-Site", "cross-site")]),
        post("multipart form, Origin another site",
             "--b\r\nContent-Disposition: form-data; name=\"pin\"\r\n\r\n%s\r\n--b--\r\n" % pin,
             "multipart/form-data; boundary=b", [("Origin", EVIL)]),
        post("JSON, Origin another site", body, "application/json", [("Origin", EVIL)], (403,)),
        post("JSON, Origin null", body, "application/json", [("Origin", "null")], (403,)),
        post("JSON, Origin another port", body, "application/json", [("Origin", "http://%s:1" % SERVER)],
             (403,)),
        post("JSON, Origin https of this page", body, "application/json", [("Origin", "https" + mine[4:])],
             (403,)),
        post("JSON, Sec-Fetch-Site cross-site", body, "application/json",
             [("Sec-Fetch-Site", "cross-site"), ("Origin", mine)], (403,)),
        post("JSON, Sec-Fetch-Site same-site", body, "application/json",
             [("Sec-Fetch-Site", "same-site"), ("Origin", mine)], (403,)),
    ]


def foreign_host_requests(port, key):
    """Requests naming another host than the one the client reached (a DNS rebinding page), each answered
    421 by a sound server whatever its path or method."""
    body = json.dumps({"key": key, "word": "wait 1"}).encode()
    json_type = [("Content-Type", "application/json")]
    hosts = ["evil.example:%d" % port, "evil.example", "%s:%d" % (SERVER, port + 1 if port < 65535 else 1),
             "localhost.evil.example:%d" % port, "%s:%d.evil.example" % (SERVER, port)]
    requests = []
    for host in hosts:
        for method, path in (("GET", "/"), ("GET", "/state.json"), ("GET", "/events"), ("GET", "/log.jsonl"),
                             ("GET", "/static/app.js"), ("GET", "/no/such/path")):
            requests.append(Bad("%s %s, Host %s" % (method, path, host),
                                http_request(method, path, port, host=host), frozenset({421})))
        requests.append(Bad("POST /action with the key, Host %s" % host,
                            http_request("POST", "/action", port, json_type, body, host=host),
                            frozenset({421})))
    return requests


async def send_all(port, bads, sources):
    """Every request of ``bads`` at once, each from an address of ``sources`` (round robin): the answers."""
    return await asyncio.gather(*(exchange(port, bad.raw, sources[i % len(sources)])
                                  for i, bad in enumerate(bads)))


# --- slow and silent guests ---------------------------------------------------------------------------------
class Tally:
    """How the connections of one kind of guest went: made, open now (and the most at once), how each ended
    (closed: the server's FIN; reset; held: still open when its time was up, closed by the guest), the
    status the server answered with before it let one go, and each one's life in seconds."""

    def __init__(self, kind):
        self.kind = kind
        self.connects = 0
        self.failed = collections.Counter()        # connects that failed, by error
        self.open = 0
        self.peak = 0
        self.ends = collections.Counter()
        self.statuses = collections.Counter()
        self.lives = []                            # (end, seconds)

    def opened(self):
        self.connects += 1
        self.open += 1
        self.peak = max(self.peak, self.open)

    def closed(self, end, life, status):
        self.open -= 1
        self.ends[end] += 1
        if status is not None:
            self.statuses[status] += 1
        self.lives.append((end, life))

    def longest(self, ends=None):
        """The longest life of a connection that ended in one of ``ends`` (all: None)."""
        return max((life for end, life in self.lives if ends is None or end in ends), default=0.0)

    def summary(self):
        lives = sorted(life for end, life in self.lives if end != "held")
        return {"kind": self.kind, "connects": self.connects, "peak": self.peak, "ends": dict(self.ends),
                "statuses": {str(k): v for k, v in sorted(self.statuses.items())},
                "failed": dict(self.failed), "longest_s": round(self.longest(), 2),
                "median_ended_s": round(lives[len(lives) // 2], 2) if lives else None}


class Guest:
    """A connection from ``source`` that does what ``hold`` does until the server lets it go or the time is
    up; with ``again`` it then connects anew after ``pause`` seconds, until the time is up."""

    kind = "guest"
    rcvbuf = None

    def __init__(self, port, source, tally, again=True, pause=1.0):
        self.port = port
        self.source = source
        self.tally = tally
        self.again = again
        self.pause = pause

    async def run(self, until):
        while time.monotonic() < until:
            try:
                sock = await connect(self.port, self.source, self.rcvbuf,
                                     timeout=max(0.1, min(CONNECT_S, until - time.monotonic())))
            except (OSError, asyncio.TimeoutError) as e:
                self.tally.failed[type(e).__name__] += 1
                await asyncio.sleep(self.pause)
                continue
            self.tally.opened()
            start, end, status = time.monotonic(), "held", None
            try:
                end, status = await self.hold(sock, until)
            except ConnectionError:
                end = "reset"
            except OSError as e:
                end = "error %s" % type(e).__name__
            finally:
                sock.close()
                self.tally.closed(end, time.monotonic() - start, status)
            if not self.again:
                return
            await asyncio.sleep(min(self.pause, max(0.0, until - time.monotonic())))

    async def _listen(self, sock, seconds):
        """What the server sent within ``seconds``: bytes, b"" for its FIN, None for nothing."""
        try:
            return await asyncio.wait_for(asyncio.get_running_loop().sock_recv(sock, 4096), seconds)
        except asyncio.TimeoutError:
            return None

    async def hold(self, sock, until):
        raise NotImplementedError


class Idle(Guest):
    """Connects and sends nothing."""

    kind = "idle"

    async def hold(self, sock, until):
        status = None
        while True:
            left = until - time.monotonic()
            if left <= 0:
                return "held", status
            data = await self._listen(sock, left)
            if data is None:
                return "held", status
            if not data:
                return "closed", status
            status = status or status_of(data)


class Slowloris(Guest):
    """Sends the start of a request's head, then one byte of a header line every ``interval`` seconds, never
    the blank line that ends the head."""

    kind = "slowloris"
    interval = 1.0

    async def hold(self, sock, until):
        loop = asyncio.get_running_loop()
        await loop.sock_sendall(sock, b"GET / HTTP/1.1\r\nHost: %s:%d\r\n" % (SERVER.encode(), self.port))
        trickle = b"X-Slow: " + b"a" * 30 + b"\r\n"
        sent, status = 0, None
        while True:
            left = until - time.monotonic()
            if left <= 0:
                return "held", status
            data = await self._listen(sock, min(self.interval, left))
            if data == b"":
                return "closed", status
            if data:
                status = status or status_of(data)
                continue
            await loop.sock_sendall(sock, trickle[sent % len(trickle):][:1])
            sent += 1


class SseSink(Guest):
    """Asks for /events like a page, with a receive buffer of SINK_RCVBUF bytes, and never reads: the server
    sees a page whose window closes. Its end is seen in the kernel's TCP state: the server's FIN when it
    refused the stream in a few bytes (what it sent says why), or a reset. A server that lets a stalled page
    go closes a socket whose unsent data cannot leave, so no FIN ever comes through the closed window: every
    ``probe_s`` the sink sends an empty line (a server that still streams skips it before the next request's
    head), which the closed socket answers with a reset."""

    kind = "sse sink"
    rcvbuf = SINK_RCVBUF
    poll = 0.5
    probe_s = 2.0

    async def hold(self, sock, until):
        loop = asyncio.get_running_loop()
        await loop.sock_sendall(sock, http_request(
            "GET", "/events", self.port, [("Accept", "text/event-stream")], close=False))
        probe_at = time.monotonic() + self.probe_s
        while tcp_state(sock) == TCP_ESTABLISHED:
            now = time.monotonic()
            if now >= until:
                return "held", None
            if now >= probe_at:
                try:
                    sock.send(b"\r\n")
                except BlockingIOError:
                    pass
                probe_at = now + self.probe_s
            await asyncio.sleep(min(self.poll, until - now))
        reset = tcp_state(sock) == TCP_CLOSED
        try:
            status = status_of(sock.recv(256))
        except OSError:
            status = None
        return "reset" if reset else "closed", status


class Crowd:
    """Many guests at once: ``add`` them by kind, ``run`` them for so many seconds (started ``ramp`` a
    second, so that the server's listen queue is not what refuses them), ``tallies`` per kind."""

    def __init__(self, port):
        self.port = port
        self.guests = []
        self.tallies = {}

    def add(self, kind, sources, count, name=None, **options):
        """``count`` guests of ``kind`` from ``sources`` (round robin), counted under ``name`` (default: the
        kind's own): their Tally."""
        name = name or kind.kind
        tally = self.tallies.setdefault(name, Tally(name))
        self.guests += [kind(self.port, sources[i % len(sources)], tally, **options) for i in range(count)]
        return tally

    @property
    def open(self):
        return sum(t.open for t in self.tallies.values())

    async def run(self, seconds, ramp=400):
        until = time.monotonic() + seconds
        tasks = []
        try:
            for i, guest in enumerate(self.guests):
                tasks.append(asyncio.create_task(guest.run(until)))
                if i % 20 == 19:
                    await asyncio.sleep(20 / ramp)
            done, pending = await asyncio.wait(tasks, timeout=max(0.0, until - time.monotonic()) + CONNECT_S)
            for task in done:
                if not task.cancelled() and task.exception() is not None:
                    raise task.exception()
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def all_in(self, share=0.9, timeout=15.0):
        """Waits until ``share`` of the guests are connected at once (at most ``timeout`` s): whether they
        were."""
        end = time.monotonic() + timeout
        while self.open < share * len(self.guests):
            if time.monotonic() > end:
                return False
            await asyncio.sleep(0.05)
        return True

    async def all_tried(self, timeout=15.0):
        """Waits until every guest has connected once or failed to (at most ``timeout`` s): whether they had.
        A server at its cap lets some go as others come, so not all are open at once."""
        end = time.monotonic() + timeout
        while sum(t.connects + sum(t.failed.values()) for t in self.tallies.values()) < len(self.guests):
            if time.monotonic() > end:
                return False
            await asyncio.sleep(0.05)
        return True

    def summary(self):
        return {kind: tally.summary() for kind, tally in self.tallies.items()}


# --- PIN guessing -------------------------------------------------------------------------------------------
@dataclasses.dataclass
class Guesses:
    """What the server answered PIN guesses: every status, the 403s (a PIN checked and found wrong) with the
    time each came, the 429s' Retry-After values and how many 429s had none, and requests with no answer."""
    statuses: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    wrong_at: list = dataclasses.field(default_factory=list)
    retry_after: list = dataclasses.field(default_factory=list)
    no_retry_after: int = 0
    unanswered: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    seconds: float = 0.0

    @property
    def wrong(self):
        return self.statuses[403]

    @property
    def limited(self):
        return self.statuses[429]

    def add(self, answer, at):
        if answer.status is None:
            self.unanswered[answer.end] += 1
            return
        self.statuses[answer.status] += 1
        if answer.status == 403:
            self.wrong_at.append(at)
        if answer.status == 429:
            value = answer.headers.get("retry-after")
            if value is None or not value.isdigit():
                self.no_retry_after += 1
            else:
                self.retry_after.append(int(value))


def pin_guesses(skip=(), start=0):
    """Six-digit PINs from ``start`` on, none of ``skip`` (the real one: a guess must be wrong)."""
    n = start
    while True:
        pin = "%06d" % (n % 10 ** 6)
        n += 1
        if pin not in skip:
            yield pin


async def guess_pins(port, sources, parallel=1, tries=1, seconds=None, pause=0.0, pins=None, word="wait 1"):
    """PIN guesses: ``parallel`` at once from each of ``sources``, each slot ``tries`` guesses one after the
    other (or for ``seconds``), ``pause`` s between a slot's guesses. Nothing waits for a Retry-After: the
    server must not check a guess it has asked to wait for."""
    pins = pins if pins is not None else pin_guesses()
    guesses = Guesses()
    start = time.monotonic()
    until = start + seconds if seconds is not None else None

    async def slot(source):
        n = 0
        while (n < tries) if until is None else (time.monotonic() < until):
            n += 1
            raw = action_request(port, {"pin": next(pins), "word": word})
            answer = await exchange(port, raw, source)
            guesses.add(answer, time.monotonic() - start)
            if pause:
                await asyncio.sleep(pause)

    await asyncio.gather(*(slot(source) for source in sources for _ in range(parallel)))
    guesses.seconds = time.monotonic() - start
    return guesses


# --- honest pages -------------------------------------------------------------------------------------------
PAGE = ("/", "/static/app.js", "/static/style.css", "/texts.json", "/page.json", "/state.json")


@dataclasses.dataclass
class PageLoad:
    """An honest page's load: each step (path, status, bytes, seconds), the seconds until /events had sent
    the page's model (``event: view``), the whole time, what went wrong (None: nothing), and how many SYNs
    of its connects the kernel had to send again (``syn_retransmits``)."""
    steps: list = dataclasses.field(default_factory=list)
    view_s: float | None = None
    seconds: float | None = None
    error: str | None = None
    syn_retransmits: int = 0

    @property
    def ok(self):
        return self.error is None and self.view_s is not None and all(s[1] == 200 for s in self.steps)


async def page_load(port, source=SERVER, timeout=10.0):
    """GET the page and what it loads on one kept-alive connection, as a browser does, then /events until its
    first ``event: view``; timed from the first connect. Bounded by ``timeout``."""
    load = PageLoad()
    start = time.monotonic()
    writers = []

    async def connected():
        sock = await connect(port, source)
        load.syn_retransmits += syn_retransmits(sock)
        return sock
    try:
        async with asyncio.timeout(timeout):
            sock = await connected()
            reader, writer = await asyncio.open_connection(sock=sock, limit=STREAM_LIMIT)
            writers.append(writer)
            for path in PAGE:
                begun = time.monotonic()
                writer.write(http_request("GET", path, port, close=False))
                answer = await read_answer(reader)
                load.steps.append((path, answer.status, len(answer.body), time.monotonic() - begun))
                if answer.status != 200:
                    load.error = "%s: %s" % (path, answer.status or answer.end)
                    return load
                if answer.headers.get("connection", "").lower() == "close":
                    writer.transport.abort()
                    sock = await connected()
                    reader, writer = await asyncio.open_connection(sock=sock, limit=STREAM_LIMIT)
                    writers.append(writer)
            sock = await connected()
            reader, writer = await asyncio.open_connection(sock=sock, limit=STREAM_LIMIT)
            writers.append(writer)
            writer.write(http_request("GET", "/events", port, [("Accept", "text/event-stream")], close=False))
            head = await read_head(reader)
            load.steps.append(("/events", head.status, 0, time.monotonic() - start))
            if head.status != 200:
                load.error = "/events: %s" % (head.status or head.end)
                return load
            while True:
                line = await reader.readline()
                if not line:
                    load.error = "/events closed before the model"
                    return load
                if line.strip() == b"event: view":
                    await reader.readline()
                    load.view_s = time.monotonic() - start
                    break
    except TimeoutError:
        load.error = "timeout after %.1f s (%d steps done)" % (timeout, len(load.steps))
    except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as e:
        load.error = "%s: %s" % (type(e).__name__, e)
    finally:
        for writer in writers:
            writer.transport.abort()
        load.seconds = time.monotonic() - start
    return load


async def read_head(reader):
    """A response's status line and headers only (a stream's body goes on)."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as e:
        return Answer(status_of(e.partial), end="closed")
    answer = Answer(status_of(head))
    for line in head.decode("latin-1").split("\r\n")[1:]:
        name, sep, value = line.partition(":")
        if sep:
            answer.headers[name.strip().lower()] = value.strip()
    return answer


class EventReader:
    """An honest page's /events from ``source``, read as fast as it comes: each ``event: ev`` with its id, the
    event and ``time.time()`` at its arrival; ``live_at``: when the first model came (what came before is the
    game so far). A stream that ends is opened again with its Last-Event-ID, and counted in ``drops``."""

    def __init__(self, port, source=SERVER):
        self.port = port
        self.source = source
        self.events = []           # (id, event, arrived)
        self.views = 0
        self.live_at = None
        self.drops = []            # why each stream ended early
        self.last = 0

    def delays(self, since=None, until=None):
        """Seconds from each event's ``ts`` (the host's clock) to its arrival, for events made after the
        stream went live (and after ``since``, before ``until``, wall clock)."""
        since = max(since or 0.0, self.live_at or float("inf"))
        until = until or float("inf")
        return [arrived - ev["ts"] for _, ev, arrived in self.events
                if isinstance(ev.get("ts"), (int, float)) and since <= ev["ts"] < until]

    async def run(self, until):
        """Reads until ``until`` (time.monotonic())."""
        while time.monotonic() < until:
            writer = None
            try:
                async with asyncio.timeout(until - time.monotonic()):
                    sock = await connect(self.port, self.source)
                    reader, writer = await asyncio.open_connection(sock=sock, limit=STREAM_LIMIT)
                    headers = [("Accept", "text/event-stream")]
                    if self.last:
                        headers.append(("Last-Event-ID", str(self.last)))
                    writer.write(http_request("GET", "/events", self.port, headers, close=False))
                    head = await read_head(reader)
                    if head.status != 200:
                        self.drops.append("status %s" % (head.status or head.end))
                        await asyncio.sleep(1.0)
                        continue
                    await self._read(reader)
                    self.drops.append("closed")
            except TimeoutError:
                return
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as e:
                self.drops.append(type(e).__name__)
                await asyncio.sleep(0.5)
            finally:
                if writer is not None:
                    writer.transport.abort()

    async def _read(self, reader):
        kind, data, ident = None, [], None
        while True:
            line = await reader.readline()
            if not line:
                return
            line = line.rstrip(b"\r\n").decode("utf-8")
            if line:
                field, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if field == "event":
                    kind = value
                elif field == "data":
                    data.append(value)
                elif field == "id":
                    ident = value
                continue
            arrived = time.time()
            if kind == "ev" and data:
                self.events.append((int(ident or 0), json.loads("\n".join(data)), arrived))
                self.last = int(ident or self.last)
            elif kind == "view":
                self.views += 1
                if self.live_at is None:
                    self.live_at = arrived
            elif kind == "reset":
                self.last = 0
            kind, data, ident = None, [], None


# --- the host -----------------------------------------------------------------------------------------------
# The game the hostile tests attack: beton (a dropped die is a logged penalty, so a table word that reaches
# the referee shows in the log); time scale 4 (about twelve events a second); 99 Deckel a half and a
# Schock-Aus worth 13 of them: a game of many minutes, so that it outlasts a test file on a slow machine too
# (its end closes the page).
LONG_GAME = ("--emulate", "4", "--rules", "beton", "--time-scale", "4",
             "--set", "deckel_total=99", "--set", "schock_aus=middle")


class PlayHost:
    """`schocken --lang en play --plain ARGV --web 127.0.0.1:0` as a subprocess, its log and output in
    ``folder``: its ``port``, ``pin``, the page's ``key`` (SCHOCKEN_WEB_KEY_FILE; None for a host without
    one) and ``log``. In a session of its own, so that ``stop`` ends its cups with it."""

    def __init__(self, folder, argv, start_s=START_S):
        self.folder = folder
        self.out = folder / "host.out"
        self.err = folder / "host.err"
        key_file = folder / "key"
        env = dict(os.environ, SCHOCKEN_LOG_DIR=str(folder), SCHOCKEN_WEB_KEY_FILE=str(key_file))
        argv = ["--lang", "en", "play", "--plain"] + list(argv) + ["--web", "127.0.0.1:0"]
        with open(self.out, "w") as out, open(self.err, "w") as err:
            self.proc = subprocess.Popen(SCHOCKEN + argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                         cwd=ROOT, env=env, start_new_session=True)
        end = time.monotonic() + start_s
        found = None
        while time.monotonic() < end and self.proc.poll() is None:
            text = self.out.read_text(errors="replace")
            url = re.search(r"http://127\.0\.0\.1:(\d+)/", text)
            pin = re.search(r"PIN for table actions on the page: (\d{6})", text)
            logs = list(folder.glob("*.jsonl"))
            if url and pin and logs and self._count(logs[0]) >= 2:
                # the key file is written before the banner: a host without one has no key (None)
                key = key_file.read_text().strip() if key_file.exists() else None
                found = int(url.group(1)), pin.group(1), key, logs[0]
                break
            time.sleep(0.1)
        if found is None:
            self.stop()
            raise AssertionError("the host did not start: %s" % self.text()[-3000:])
        self.port, self.pin, self.key, self.log = found

    @staticmethod
    def _count(path):
        return path.read_bytes().count(b"\n")

    def events(self):
        lines = self.log.read_text(errors="replace").splitlines()
        return [json.loads(line) for line in lines if line.endswith("}")]

    def text(self):
        return self.out.read_text(errors="replace") + self.err.read_text(errors="replace")

    def playing(self, timeout=30.0):
        """Whether the game goes on: the log grows within ``timeout`` s and the host still runs."""
        before, end = self._count(self.log), time.monotonic() + timeout
        while time.monotonic() < end and self.proc.poll() is None:
            if self._count(self.log) > before:
                return True
            time.sleep(0.1)
        return False

    def next_round(self, timeout=30.0):
        """Waits until a round begins after the one in progress (the referee takes the table's words between
        rounds): whether one did within ``timeout`` s."""
        def latest():
            return max((e["round"] for e in self.events() if isinstance(e.get("round"), int)), default=0)
        now, end = latest(), time.monotonic() + timeout
        while time.monotonic() < end and self.proc.poll() is None:
            if latest() > now:
                return True
            time.sleep(0.1)
        return False

    def rss_kb(self):
        """The host process's resident memory (VmRSS of /proc/PID/status) in kB; None once it has ended."""
        try:
            status = open("/proc/%d/status" % self.proc.pid).read()
        except OSError:
            return None
        match = re.search(r"^VmRSS:\s+(\d+) kB", status, re.M)
        return int(match.group(1)) if match else None

    def open_files(self):
        """How many files the host process has open (every connection the server holds is one); None once it
        has ended."""
        try:
            return len(os.listdir("/proc/%d/fd" % self.proc.pid))
        except OSError:
            return None

    def stop(self):
        """Ctrl-C, as at the table; the whole session killed if it has not ended in 15 s."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.proc.wait(5)
