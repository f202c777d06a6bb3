"""The page's defences on a shared Wi-Fi (docs/web.md, "Threat model"). Every guest's phone can reach the
server, so every connection is counted and timed by client address, each SSE stream writes in small pieces
that must leave the process in time, the table's actions come only from the page's own origin, and wrong PINs
are limited so that guessing one takes longer than a year at the best rate the server allows."""

import asyncio
import collections
import ipaddress
import json
import re

from aiohttp import web

HEADER_S = 5.0                  # a connection gets this long to send a request's head (and idles this long)
BODY_S = 5.0                    # an action's body must come within this
WRITE_S = 10.0                  # a client that takes no piece of a write for this long is let go
PIECE = 16 * 1024               # the most a connection holds in the process's buffer before a write waits
SEND_BUFFER = 64 * 1024         # the kernel's send buffer of a connection (no autotuning to megabytes)
# The kernel gives up a connection whose sent data stays unacknowledged (or whose window stays shut) this
# long, without a word to the client: a bound for what the process does not see (a file the kernel sends
# with sendfile), well past WRITE_S, by which the process lets a client go that takes nothing, with a reset
# that reaches it. Once closed, a connection's unsent data goes after WRITE_S (connections.Gate).
UNACKED_MS = int(6 * WRITE_S * 1000)
PER_ADDRESS_CONNECTIONS = 32    # a phone opens about six at once; a TV the same
# New connections per address: CONNECTS_BURST at once, then CONNECTS_PER_S a second (a page opens about six
# and then keeps them; its event stream comes back once a second at most), or less while many addresses
# connect: together they get ALL_CONNECTS_PER_S, so that a flood from many addresses costs the game's loop
# little and a phone new to the server still gets its burst. Past that a connect is answered 429 at once by
# the listener, before any of the work a connection costs.
CONNECTS_BURST = 32
CONNECTS_PER_S = 4.0
ALL_CONNECTS_PER_S = 100.0
MAX_CONNECTIONS = 512           # overall: a new one replaces the oldest idle one
SUBSCRIBERS_PER_ADDRESS = 8     # open pages (Server-Sent Events) per address
MAX_SUBSCRIBERS = 256
ACTION_BYTES = 1024             # a table action's whole body

# Wrong PINs: a guest waits 1, 2, 4 ... s after each of his (BACKOFF_MAX_S at most), and the whole table
# has a budget of WRONG_BURST wrong PINs that refills by one every WRONG_EVERY_S. The budget is what holds
# against a guest with many addresses: docs/web.md works out the year.
WRONG_BURST = 10
WRONG_EVERY_S = 90.0
BACKOFF_MAX_S = 300.0
REMEMBERED_CLIENTS = 4096       # addresses whose backoff is kept (the oldest forgotten first)

PIN_FORMAT = re.compile(r"[0-9]{6}", re.ASCII)
WORD = re.compile(r"(drop|ein|wait|forfeit) ([1-9][0-9]?)", re.ASCII)
WORDS = {"drop": "penalty", "ein": "einwuerfeln", "wait": "wait", "forfeit": "forfeit"}
ACTION_FIELDS = frozenset(("pin", "key", "word"))
# No other site may frame the page (a click on its action form under a decoy) or sniff a type into a script.
SECURITY_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
                    "Content-Security-Policy": "frame-ancestors 'none'", "X-Frame-Options": "DENY"}


class Refused(Exception):
    """A request answered with ``status`` and the text under ``key`` (texts/web.py) with ``fields``."""

    def __init__(self, status, key, retry_after=None, **fields):
        super().__init__(key)
        self.status = status
        self.key = key
        self.retry_after = retry_after
        self.fields = fields


def client_of(peer):
    """The client a peer address counts as: an IPv4 address, or an IPv6 address's /64 (one device can take
    any address of its network's /64)."""
    try:
        address = ipaddress.ip_address(peer[0] if isinstance(peer, tuple) else peer)
    except (TypeError, ValueError, IndexError):
        return "?"
    if address.version == 6 and address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    if address.version == 6:
        return str(ipaddress.ip_network("%s/64" % address, strict=False))
    return str(address)


def word_of(text, seats):
    """(referee's word, seat from 0) of a table word ``drop N``, ``ein N``, ``wait N``, ``forfeit N``, with N
    a seat of the game (1 to ``seats``); Refused(400) for anything else."""
    if not isinstance(text, str) or len(text) > 40:
        raise Refused(400, "web.bad_word", word="?")
    match = WORD.fullmatch(text.strip(" "))
    if match is None or int(match.group(2)) > seats:
        raise Refused(400, "web.bad_word", word=repr(text[:40]))
    return WORDS[match.group(1)], int(match.group(2)) - 1


# --- the Host and Origin of a request -----------------------------------------------------------------------
def split_host(header):
    """(host, port) of a Host header, the host lower case; None when it is no host[:port]."""
    if header.startswith("["):
        end = header.find("]")
        host, rest = header[1:end], header[end + 1:]
        if end < 0 or (rest and not rest.startswith(":")):
            return None
        port = rest[1:] if rest else None
    elif header.count(":") <= 1:
        host, _, port = header.partition(":")
        port = port if ":" in header else None
    else:
        return None
    if port is not None and not (port.isascii() and port.isdigit() and 0 < len(port) <= 5):
        return None
    return host.lower().rstrip("."), int(port) if port is not None else 80


def host_allowed(header, local, port, names):
    """Whether a request's Host header names this server: the address the client connected to (``local``,
    an IP literal), or one of ``names`` (localhost on the loopback, the name --web gave), with the server's
    ``port``. A browser always sends the name it resolved; a page of another site that a DNS trick sends
    here names that site and is refused."""
    if header is None:
        return True                 # a client of HTTP/1.0 without Host: no browser, so no other site
    parsed = split_host(header)
    if parsed is None or parsed[1] != port:
        return False
    host = parsed[0]
    if host in names:
        return True
    try:
        wanted = ipaddress.ip_address(host)
        mine = ipaddress.ip_address(local)
    except ValueError:
        return False
    if mine.version == 6 and mine.ipv4_mapped is not None:
        mine = mine.ipv4_mapped
    return wanted == mine or (wanted.is_loopback and mine.is_loopback)


def check_origin(request):
    """A table action comes from the page itself or from no browser at all: a cross-site form or fetch
    (another Origin, ``Origin: null``, Sec-Fetch-Site cross-site) is Refused(403)."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        raise Refused(403, "web.bad_origin")
    origin = request.headers.get("Origin")
    if origin is not None and origin.lower() != "http://%s" % request.headers.get("Host", "").lower():
        raise Refused(403, "web.bad_origin")


async def action_body(request):
    """The JSON object of a table action: only ``application/json`` in UTF-8, at most ACTION_BYTES, within
    BODY_S, with no field but pin, key and word; Refused(4xx) otherwise."""
    if request.content_type != "application/json":
        raise Refused(415, "web.bad_type")
    if (request.charset or "utf-8").lower() not in ("utf-8", "utf8"):
        raise Refused(415, "web.bad_type")
    if request.content_length is not None and request.content_length > ACTION_BYTES:
        raise Refused(413, "web.too_big")
    data = b""
    try:
        async with asyncio.timeout(BODY_S):
            while len(data) <= ACTION_BYTES:
                chunk = await request.content.read(ACTION_BYTES + 1 - len(data))
                if not chunk:
                    break
                data += chunk
    except TimeoutError:
        raise Refused(408, "web.slow") from None
    if len(data) > ACTION_BYTES:
        raise Refused(413, "web.too_big")
    try:
        body = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):
        raise Refused(400, "web.bad_body") from None
    if not isinstance(body, dict) or not set(body) <= ACTION_FIELDS:
        raise Refused(400, "web.bad_body")
    return body


# --- wrong PINs ---------------------------------------------------------------------------------------------
class PinLimiter:
    """When a PIN may be checked: per client a backoff after each wrong one, and one budget for the table.
    Checking and counting happen without an await between them, so parallel requests cannot overdraw it."""

    def __init__(self, clock, burst=WRONG_BURST, every_s=WRONG_EVERY_S):
        self.clock = clock
        self.burst = burst
        self.every_s = every_s
        self.budget = float(burst)
        self.filled_at = clock()
        self.clients = collections.OrderedDict()    # client -> (wrong PINs in a row, not before)

    def _refill(self):
        now = self.clock()
        self.budget = min(self.burst, self.budget + (now - self.filled_at) / self.every_s)
        self.filled_at = now
        return now

    def wait_s(self, client):
        """0 when a PIN from ``client`` may be checked now, else the seconds until it may."""
        now = self._refill()
        wait = max(0.0, self.clients.get(client, (0, 0.0))[1] - now)
        if self.budget < 1:
            wait = max(wait, (1 - self.budget) * self.every_s)
        return wait

    def wrong(self, client):
        now = self._refill()
        self.budget = max(0.0, self.budget - 1)
        count = self.clients.pop(client, (0, 0.0))[0] + 1
        self.clients[client] = (count, now + min(BACKOFF_MAX_S, 2.0 ** min(count - 1, 16)))
        while len(self.clients) > REMEMBERED_CLIENTS:
            self.clients.popitem(last=False)

    def right(self, client):
        self.clients.pop(client, None)


def refusal_response(refused, text):
    headers = {"Retry-After": str(max(1, int(refused.retry_after + 0.999)))} if refused.retry_after else None
    return web.json_response({"ok": False, "error": text}, status=refused.status, headers=headers)


async def security_headers(request, response):
    response.headers.update(SECURITY_HEADERS)
