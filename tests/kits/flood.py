"""A reconnecting flood of a host's page (issue 47), and the kernel's view of what it costs.

What a process frees is not all a dropped guest costs: a socket closed with data its guest never took stays in
the kernel (state FIN_WAIT1, its send queue held) for as long as the guest keeps its window shut. So the
measures here are the kernel's, not the process's:

- ``server_sockets(port)``: the TCP sockets on the server's side of ``port`` as /proc/net/tcp and tcp6 list
  them (those the process closed too, which no file of it names any more): each its state and the bytes in
  its send and receive queues; ``KernelView`` sums them up (``held``: the bytes of sockets no longer
  established);
- ``listen_backlog(port)``: the most connections the kernel queues for the server's accept (``ss``'s Send-Q of
  the listening socket); ``listen_overflows()``: the kernel's count of connects dropped at a full queue
  (/proc/net/netstat, for the whole network namespace);
- ``syn_retransmits(sock)`` (hostile.py): how many times the kernel sent a connect's SYN again (TCP_INFO): a
  connect the server's listen queue dropped is retried after 1 s, then 3 s; hostile.page_load counts them;
- ``Hoarder``: pages that ask for /events with a small receive buffer, never read and are never closed while
  the flood lasts, ``pages`` more every ``every`` seconds from many addresses (the issue's guest reconnecting
  256 pages every 11 s);
- ``Connector``: ``in_flight`` connects outstanding at once, each closed as soon as it is made (or held
  open and silent: a burst) and made again; every connect's SYN retransmits counted;
- ``reading_pages``: pages that read every burst, from many addresses;
- ``Pace``: the referee's events per second, read from the game's log, and its longest pause.

Every wait ends: each loop runs until a time, each connect has a timeout, every socket is closed at the
end."""

import asyncio
import collections
import dataclasses
import json
import shutil
import socket
import subprocess
import time
from pathlib import Path

from kits import hostile
from kits.hostile import connect, http_request, syn_retransmits

STATES = {1: "ESTABLISHED", 2: "SYN_SENT", 3: "SYN_RECV", 4: "FIN_WAIT1", 5: "FIN_WAIT2", 6: "TIME_WAIT",
          7: "CLOSE", 8: "CLOSE_WAIT", 9: "LAST_ACK", 10: "LISTEN", 11: "CLOSING", 12: "NEW_SYN_RECV"}


@dataclasses.dataclass
class KernelSocket:
    state: str
    tx_queue: int           # bytes sent and not acknowledged, or not yet sent
    rx_queue: int           # bytes received and not read; for the listening socket: connects not accepted
    remote: str


def server_sockets(port):
    """The server side's sockets of ``port`` (local port ``port``), from /proc/net/tcp and /proc/net/tcp6."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if int(fields[1].rsplit(":", 1)[1], 16) != port:
                continue
            tx, rx = (int(x, 16) for x in fields[4].split(":"))
            state = int(fields[3], 16)
            found.append(KernelSocket(STATES.get(state, str(state)), tx, rx, fields[2]))
    return found


@dataclasses.dataclass
class KernelView:
    """The kernel's sockets of a server port at one moment: how many in each state, the bytes queued to send
    in each state, ``held`` the bytes queued on sockets no longer established (closed by the process, or
    on their way out), ``backlog_now`` the connects waiting for the server's accept."""
    states: dict
    tx_bytes: dict
    held: int
    backlog_now: int

    @property
    def fin_wait1(self):
        return self.states.get("FIN_WAIT1", 0)

    def said(self):
        return "sockets by state %s, bytes queued by state %s" % (self.states, self.tx_bytes)


def kernel_view(port):
    sockets = server_sockets(port)
    states, tx = collections.Counter(), collections.Counter()
    for s in sockets:
        states[s.state] += 1
        tx[s.state] += s.tx_queue
    held = sum(s.tx_queue for s in sockets if s.state not in ("ESTABLISHED", "LISTEN"))
    backlog_now = sum(s.rx_queue for s in sockets if s.state == "LISTEN")
    return KernelView(dict(states), dict(tx), held, backlog_now)


def listen_backlog(port):
    """The listening socket's backlog as the kernel holds it (``ss -ltn``: Send-Q of a listening socket);
    None without ``ss`` (iproute2)."""
    ss = shutil.which("ss")
    if ss is None:
        return None
    out = subprocess.run([ss, "-Hltn", "sport = :%d" % port], capture_output=True, text=True,
                         timeout=10).stdout
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 3 and fields[0] == "LISTEN":
            return int(fields[2])
    return None


def somaxconn():
    """The kernel's cap on any listen backlog (net.core.somaxconn)."""
    try:
        return int(Path("/proc/sys/net/core/somaxconn").read_text())
    except (OSError, ValueError):
        return socket.SOMAXCONN


def listen_overflows():
    """Connects the kernel dropped because a listen queue was full (TcpExt ListenOverflows), for the whole
    network namespace: other servers' count too."""
    lines = Path("/proc/net/netstat").read_text().splitlines()
    for names, values in zip(lines[::2], lines[1::2]):
        if names.startswith("TcpExt:"):
            table = dict(zip(names.split()[1:], values.split()[1:]))
            return int(table.get("ListenOverflows", 0))
    return 0


class Hoarder:
    """Pages that never read: every ``every`` seconds ``pages`` more ask for /events from ``sources`` (round
    robin), each with a receive buffer of hostile.SINK_RCVBUF bytes, and are held, unread, until ``close``.
    ``socks`` are all of them; ``states()`` counts their kernel states (CLOSE: the server reset it)."""

    def __init__(self, port, sources, pages, every):
        self.port = port
        self.sources = sources
        self.pages = pages
        self.every = every
        self.socks = []
        self.failed = collections.Counter()
        self.waves = 0

    async def _one(self, source):
        try:
            sock = await connect(self.port, source, hostile.SINK_RCVBUF)
        except (OSError, asyncio.TimeoutError) as e:
            self.failed[type(e).__name__] += 1
            return
        self.socks.append(sock)
        try:
            sock.send(http_request("GET", "/events", self.port, [("Accept", "text/event-stream")],
                                   close=False))
        except OSError as e:
            self.failed[type(e).__name__] += 1

    async def run(self, waves):
        """``waves`` waves, ``every`` seconds apart from the start of one to the next."""
        for wave in range(waves):
            start = time.monotonic()
            await asyncio.gather(*(self._one(self.sources[(wave * self.pages + i) % len(self.sources)])
                                   for i in range(self.pages)))
            self.waves += 1
            if wave < waves - 1:
                await asyncio.sleep(max(0.0, self.every - (time.monotonic() - start)))

    def states(self):
        return collections.Counter(STATES.get(hostile.tcp_state(s), "?") for s in self.socks)

    def close(self):
        for sock in self.socks:
            sock.close()


@dataclasses.dataclass
class Connects:
    """What a Connector's connects met: made, failed (by error), and the SYN retransmits among those made."""
    made: int = 0
    failed: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    retried: int = 0            # connects whose SYN was sent more than once
    syn_retransmits: int = 0

    def said(self):
        return "%d connects, %d with a SYN sent again (%d SYNs again), failed %s" % (
            self.made, self.retried, self.syn_retransmits, dict(self.failed))


class Connector:
    """``in_flight`` connects outstanding at once from ``sources`` (round robin), another made as soon as one
    is: each closed at once, or with ``hold`` kept open and silent until ``close`` (a burst of idle
    connections). ``run`` until its time is up or ``count`` connects were tried."""

    def __init__(self, port, sources, in_flight, hold=False):
        self.port = port
        self.sources = sources
        self.in_flight = in_flight
        self.hold = hold
        self.held = []
        self.connects = Connects()
        self._tried = 0

    async def _worker(self, until, count):
        while time.monotonic() < until and (count is None or self._tried < count):
            source = self.sources[self._tried % len(self.sources)]
            self._tried += 1
            try:
                sock = await connect(self.port, source, timeout=max(0.1, until - time.monotonic()))
            except (OSError, asyncio.TimeoutError) as e:
                self.connects.failed[type(e).__name__] += 1
                await asyncio.sleep(0.05)
                continue
            again = syn_retransmits(sock)
            if self.hold:
                self.held.append(sock)
            else:
                sock.close()
            self.connects.made += 1
            self.connects.retried += again > 0
            self.connects.syn_retransmits += again

    async def run(self, seconds, count=None):
        until = time.monotonic() + seconds
        await asyncio.gather(*(self._worker(until, count) for _ in range(self.in_flight)))
        return self.connects

    def close(self):
        for sock in self.held:
            sock.close()
        self.held = []


async def reading_pages(port, sources, pages, seconds):
    """``pages`` pages from ``sources`` (round robin) that read /events as fast as it comes, for ``seconds``:
    the bytes each read (a crowd of pages that costs the server a write per page and burst)."""
    until = time.monotonic() + seconds

    async def page(source):
        try:
            sock = await connect(port, source)
        except (OSError, asyncio.TimeoutError):
            return 0
        loop, got = asyncio.get_running_loop(), 0
        try:
            sock.send(http_request("GET", "/events", port, [("Accept", "text/event-stream")], close=False))
            while time.monotonic() < until:
                try:
                    data = await asyncio.wait_for(loop.sock_recv(sock, 1 << 16), until - time.monotonic())
                except asyncio.TimeoutError:
                    break
                if not data:
                    break
                got += len(data)
        except OSError:
            pass
        finally:
            sock.close()
        return got
    return await asyncio.gather(*(page(sources[i % len(sources)]) for i in range(pages)))


class Pace:
    """The referee's pace: the events its log holds at each ``mark``; ``rate(a, b)`` events per second between
    two marks, ``longest_pause(a, b)`` the longest time between two events in between (their ``ts``)."""

    def __init__(self, log):
        self.log = log
        self.marks = {}

    def lines(self):
        return self.log.read_bytes().split(b"\n")[:-1]

    def mark(self, name):
        self.marks[name] = (time.monotonic(), len(self.lines()))

    def rate(self, first, last):
        (t0, n0), (t1, n1) = self.marks[first], self.marks[last]
        return (n1 - n0) / (t1 - t0) if t1 > t0 else 0.0

    def longest_pause(self, first, last):
        n0, n1 = self.marks[first][1], self.marks[last][1]
        stamps = [json.loads(line).get("ts") for line in self.lines()[max(0, n0 - 1):n1]]
        stamps = [t for t in stamps if isinstance(t, (int, float))]
        return max((b - a for a, b in zip(stamps, stamps[1:])), default=0.0)

