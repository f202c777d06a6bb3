"""The server's connections under the guard's caps (guard.py holds the numbers; docs/web.md, "Threat model"):
``Connections`` counts them by client and makes room at the cap, each connection's ``Gate`` keeps its buffer
small and tells a stream when the client has taken what was written, ``Pages`` caps the open pages,
``Pieces`` writes a response in pieces. A connection whose writes stay stuck is let go by one sweep a second
for all of them, so that no write of the many pages under a flood needs a timer of its own."""

import asyncio
import collections

from aiohttp import web, web_protocol

from schocken_host.views.web import guard
from schocken_host.views.web.guard import SECURITY_HEADERS, Refused, client_of
from schocken_host.views.web.kernel import bound_in_kernel, bound_orphan, hang_up, kernel_unsent
from schocken_host.views.web.listening import raise_open_files

SWEEP_S = 1.0                   # how often stuck connections are looked for: let go by WRITE_S + SWEEP_S
ACCEPT_BATCH = 64               # connects taken from the listen queue at one turn of the loop
REMEMBERED_CLIENTS = 4096       # addresses whose connect rate is kept (the oldest forgotten first)
ACTIVE_S = 10.0                 # an address that connected this recently shares guard.ALL_CONNECTS_PER_S

_REFUSAL = ("HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\n"
            "Retry-After: 5\r\n" + "".join("%s: %s\r\n" % item for item in SECURITY_HEADERS.items())
            + "Connection: close\r\n\r\n%s")


class Listener:
    """The listening socket, its connects taken by hand (asyncio's server would make a transport and a task of
    each before the guard could look at it): a connect from an address past its rate (guard.CONNECTS_BURST,
    CONNECTS_PER_S) is answered 429 and closed at once, the rest are handed to ``connections`` (at most
    ACCEPT_BATCH at a turn of the loop, so that the referee's turn comes between). ``backlog``: the listen
    queue's length."""

    def __init__(self, sock, connections, backlog):
        self.sock = sock
        self.connections = connections
        self.loop = asyncio.get_running_loop()
        self.budgets = collections.OrderedDict()    # client -> (connects it may make now, when counted)
        self.limited = 0                            # connects answered 429 for their rate
        self._rate = guard.CONNECTS_PER_S           # each address's connects a second, as of _counted_at
        self._counted_at = 0.0
        sock.setblocking(False)         # accept() below takes what is queued and never waits for more
        sock.listen(backlog)
        self.loop.add_reader(sock.fileno(), self._accept)

    def _accept(self):
        for _ in range(ACCEPT_BATCH):
            try:
                conn, peer = self.sock.accept()
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return
            except OSError:             # out of files or memory: the queue waits a second
                self.loop.remove_reader(self.sock.fileno())
                self.loop.call_later(1.0, self._resume)
                return
            if not self._may_connect(client_of(peer)):
                self.limited += 1
                _refuse(conn, 429, "Too Many Requests")
                continue
            conn.setblocking(False)
            self.loop.create_task(self._hand_on(conn))

    async def _hand_on(self, conn):
        try:
            await self.loop.connect_accepted_socket(self.connections, conn)
        except Exception:  # noqa: BLE001 - gone before it was taken, or the loop closing: no traceback
            conn.close()

    def _resume(self):
        if self.sock.fileno() >= 0:
            self.loop.add_reader(self.sock.fileno(), self._accept)

    def _may_connect(self, client):
        now = self.loop.time()
        if now - self._counted_at >= 1.0:   # the addresses that connected in the last ACTIVE_S, once a second
            self._counted_at = now
            active = sum(1 for _, then in reversed(self.budgets.values()) if now - then < ACTIVE_S)
            self._rate = min(guard.CONNECTS_PER_S, guard.ALL_CONNECTS_PER_S / max(1, active))
        tokens, then = self.budgets.pop(client, (float(guard.CONNECTS_BURST), now))
        tokens = min(float(guard.CONNECTS_BURST), tokens + (now - then) * self._rate)
        allowed = tokens >= 1.0
        self.budgets[client] = (tokens - 1.0 if allowed else tokens, now)
        while len(self.budgets) > REMEMBERED_CLIENTS:
            self.budgets.popitem(last=False)
        return allowed

    def close(self):
        if self.sock.fileno() >= 0:
            self.loop.remove_reader(self.sock.fileno())
            self.sock.close()


def _refuse(conn, status, reason):
    """A connect answered with ``status`` in one line and closed, before any transport is made of it; what
    the guest leaves unread the kernel gives up after WRITE_S."""
    try:
        conn.setblocking(False)
        conn.send((_REFUSAL % (status, reason, len(reason), reason)).encode("ascii"))
        bound_orphan(conn, int(guard.WRITE_S * 1000))
    except OSError:
        pass
    conn.close()


async def serve(app, door, sock):
    """``app`` served on the listening ``sock`` behind ``door``, under the guard's caps: (the runner, the
    ``Listener``). The table's page and the tournament's hall both start this way."""
    total = min(guard.MAX_CONNECTIONS, raise_open_files() // 2)
    runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=1.0,
                           keepalive_timeout=guard.HEADER_S, max_line_size=4096, max_field_size=4096)
    await runner.setup()
    door.connections = Connections(runner.server, total=total)
    # The listen queue holds as many connects as the server holds connections (the kernel caps it at
    # net.core.somaxconn): asyncio's default of 100 drops a burst's connects, which a phone retries only
    # after a second.
    return runner, Listener(sock, door.connections, backlog=total)


class Connections:
    """Every open connection of the server by client: the caps, which connection a request came on, and
    those whose client takes nothing of what was written (``stuck``: since when). ``factory`` makes
    aiohttp's protocol for a connection that is let in."""

    def __init__(self, factory, total):
        self.factory = factory
        self.total = total
        self.per_address = guard.PER_ADDRESS_CONNECTIONS
        self.gates = {}                         # Gate -> None, oldest first
        self.by_client = collections.Counter()
        self.of_client = {}                     # client -> its Gates (-> None), oldest first
        self.by_transport = {}
        self.refused = 0
        self.stuck = {}                         # Gate -> the loop's time its transport paused
        self.pages = {}                         # Gate of an open page -> [bytes it held, when it took some]
        self._sweep = None

    def __call__(self):
        return Gate(self)

    def of(self, request):
        return self.by_transport.get(request.transport)

    def admit(self, gate):
        """None to let ``gate`` in, else (status, reason) to answer it with and close it. At the cap a
        connection with no request in progress (idle, or still sending its head) makes room: the oldest of
        the client with the most connections (a flood's, not a phone's between two requests of its page),
        else the oldest of all."""
        if self.by_client[gate.client] >= self.per_address:
            return 429, "Too Many Requests"
        if len(self.gates) >= self.total:
            most = max(self.by_client, key=self.by_client.__getitem__)
            idle = next((old for old in self.of_client[most] if old.busy == 0), None)
            if idle is None:
                idle = next((old for old in self.gates if old.busy == 0), None)
            if idle is None:
                return 503, "Service Unavailable"
            idle.close()
            self.forget(idle)     # now: the next connection of the same burst must not pick it again
        self.gates[gate] = None
        self.by_client[gate.client] += 1
        self.of_client.setdefault(gate.client, {})[gate] = None
        self.by_transport[gate.transport] = gate
        return None

    def forget(self, gate):
        self.stuck.pop(gate, None)
        self.pages.pop(gate, None)
        if self.gates.pop(gate, False) is None:
            self.by_client[gate.client] -= 1
            self.of_client[gate.client].pop(gate, None)
            if self.by_client[gate.client] <= 0:
                del self.by_client[gate.client]
                del self.of_client[gate.client]
            self.by_transport.pop(gate.transport, None)

    def paused(self, gate):
        self.stuck[gate] = asyncio.get_running_loop().time()
        self._sweep_soon()

    def resumed(self, gate):
        self.stuck.pop(gate, None)

    def watch(self, gate):
        """``gate`` carries an open page: the sweep also looks at what the kernel holds of it, as the page's
        writes are small and fill the process's buffer only after minutes."""
        if gate in self.gates:
            self.pages[gate] = [gate.held(), asyncio.get_running_loop().time()]
            self._sweep_soon()

    def _sweep_soon(self):
        if self._sweep is None:
            self._sweep = asyncio.get_running_loop().call_later(SWEEP_S, self._let_go_stuck)

    def _let_go_stuck(self):
        """A client that has taken nothing of what was written for WRITE_S is let go (reset: kernel.hang_up):
        one whose transport stayed paused, or a page whose bytes held (in the process and in the kernel) did
        not go down."""
        self._sweep = None
        now = asyncio.get_running_loop().time()
        gone = [gate for gate, since in self.stuck.items() if now - since >= guard.WRITE_S]
        for gate, seen in self.pages.items():
            held = gate.held()
            if held == 0 or held < seen[0]:
                seen[1] = now
            seen[0] = held
            if now - seen[1] >= guard.WRITE_S:
                gone.append(gate)
        for gate in gone:
            self.forget(gate)
            gate.close()
        if self.stuck or self.pages:
            self._sweep_soon()

    def close_all(self):
        if self._sweep is not None:
            self._sweep.cancel()
            self._sweep = None
        for gate in list(self.gates):
            gate.close()


class Gate(asyncio.Protocol):
    """One connection: let in (aiohttp's protocol behind it) or answered at once and closed. It keeps the
    transport's buffer small and tells the SSE stream when the client has taken what was written
    (``writable``), or is gone (``lost``)."""

    def __init__(self, connections):
        self.connections = connections
        self.inner = None
        self.transport = None
        self.client = "?"
        self.busy = 0                           # requests in progress (an open page counts for its life)
        self.writable = asyncio.Event()
        self.writable.set()
        self.lost = False

    def connection_made(self, transport):
        self.transport = transport
        self.client = client_of(transport.get_extra_info("peername"))
        refusal = self.connections.admit(self)
        if refusal is not None:
            self.connections.refused += 1
            status, reason = refusal
            transport.write((_REFUSAL % (status, reason, len(reason), reason)).encode("ascii"))
            transport.close()
            return
        transport.set_write_buffer_limits(high=guard.PIECE)
        sock = transport.get_extra_info("socket")
        if sock is not None:
            bound_in_kernel(sock, guard.SEND_BUFFER, guard.UNACKED_MS)
        self.inner = self.connections.factory()
        self.inner.__class__ = _OneLineErrors  # aiohttp's protocol as made (it has __slots__): a method more
        self.inner.connection_made(transport)

    def data_received(self, data):
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self):
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self):
        self.writable.clear()
        self.connections.paused(self)
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self):
        self.writable.set()
        self.connections.resumed(self)
        if self.inner is not None:
            self.inner.resume_writing()

    def held(self):
        """The bytes written that the client has not taken: in the transport's buffer and in the kernel."""
        sock = self.transport.get_extra_info("socket")
        in_kernel = kernel_unsent(sock) if sock is not None else None
        return self.transport.get_write_buffer_size() + (in_kernel or 0)

    def connection_lost(self, exc):
        self.lost = True
        sock = self.transport.get_extra_info("socket")
        if sock is not None:     # still open: what a closed connection leaves unsent goes after WRITE_S
            bound_orphan(sock, int(guard.WRITE_S * 1000))
        self.connections.forget(self)
        self.writable.set()
        if self.inner is not None:
            self.inner.connection_lost(exc)

    def close(self):
        hang_up(self.transport)


class _OneLineErrors(web_protocol.RequestHandler):
    """aiohttp's own answer to a request it cannot parse (a bad request line, a header too long) reaches no
    handler and so none of the app's response hooks: here it is the status's one line with the security
    headers, and nothing of what the guest sent (aiohttp quotes it back). The connection closes after it."""

    __slots__ = ()

    def handle_error(self, request, status=500, exc=None, message=None):
        response = web.Response(status=status, headers=SECURITY_HEADERS)
        response.text = "%d %s" % (status, response.reason or "Error")  # aiohttp's phrase for the status
        response.force_close()
        return response


class Pages:
    """The open pages (Server-Sent Events streams) by client: SUBSCRIBERS_PER_ADDRESS per client; at the
    overall cap, a client with fewer pages takes the place of the oldest page of the client with the most
    (a guest holding many streams loses one to a TV that has none), else 503."""

    def __init__(self):
        self.open = {}            # the stream's asyncio.Event -> (client, transport), oldest first
        self.counts = collections.Counter()     # client -> its open pages

    def __contains__(self, woken):
        return woken in self.open

    def __len__(self):
        return len(self.open)

    def admit(self, woken, client, transport):
        counts = self.counts
        if counts[client] >= guard.SUBSCRIBERS_PER_ADDRESS:
            raise Refused(429, "web.busy", retry_after=5)
        if len(self.open) >= guard.MAX_SUBSCRIBERS:
            most, n = counts.most_common(1)[0]
            if n <= counts[client] + 1:
                raise Refused(503, "web.busy", retry_after=5)
            self.let_go(next(w for w, (c, _) in self.open.items() if c == most))
        self.open[woken] = (client, transport)
        counts[client] += 1

    def let_go(self, woken):
        """End a page's stream: its loop sees it gone when woken, its connection hung up now."""
        transport = self.drop(woken)
        woken.set()
        hang_up(transport)

    def drop(self, woken):
        """Forget a page: its connection's transport (None for a page not open)."""
        client, transport = self.open.pop(woken, (None, None))
        if client is not None:
            self.counts[client] -= 1
            if self.counts[client] <= 0:
                del self.counts[client]
        return transport


class Pieces:
    """Writes a response (bytes ``parts``) in pieces of about PIECE bytes; each waits until the last has left
    the process, so a client that does not read holds at most a piece here. One that takes nothing for
    WRITE_S is let go: by the sweep of Connections (a write has no timer of its own), or where connections
    are not counted (aiohttp's test server: ``gate`` None) by a timeout of each write."""

    def __init__(self, resp, gate):
        self.resp = resp
        self.gate = gate

    async def send(self, parts):
        piece, size = [], 0
        for part in parts:
            piece.append(part)
            size += len(part)
            if size >= guard.PIECE:
                await self._write(b"".join(piece))
                piece, size = [], 0
        if piece:
            await self._write(b"".join(piece))

    async def _write(self, data):
        gate = self.gate
        if gate is None:
            async with asyncio.timeout(guard.WRITE_S):
                await self.resp.write(data)
            return
        await self.resp.write(data)
        if not gate.writable.is_set():
            await gate.writable.wait()
        if gate.lost:
            raise ConnectionResetError("the guest's connection is gone")
