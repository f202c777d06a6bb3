"""The seats' links, a part of the referee: one pump per cup that no message can kill, and waits that all end.
Every message from a cup passes its seat's pump, which serves fair play at once (the seed commitment, a nonce
for each shake: table/fair_service.py) and hands everything else to the seat's inbox. A message the pump
cannot take (malformed, of another round, a bug in a handler or a view) is a ``fault`` of that cup, logged and
shown; the pump goes on.

The referee waits on a cup only through ``wait_for``. A cup quiet for PING_AFTER s meanwhile is asked its
``status`` (the answer carries the request's id: an old one is never taken for a new one); one that does not
answer in REPLY_TIMEOUT is *silent*: a ``pause`` event, as for a pulled cable. A seat paused or on turn for
too long is put to the table (table/presence.py). What the links keep of each seat's link is its
``SeatLink`` (table/seat_link.py).
"""

import asyncio
from typing import TYPE_CHECKING

from schocken import protocol

from schocken_host.links import battery
from schocken_host.links.transport import TransportClosed, cup_name, hello
from schocken_host.table.fair_service import FairPlay
from schocken_host.table.presence import Forfeit, PresencePolicy

if TYPE_CHECKING:   # what a cup sends, as types for mypy (links/message_types.py); nothing of it at run time
    from schocken_host.links.message_types import (CupMessage, GarbageItem, IdentityMessage, ProgressMessage,
                                                   StatusMessage)

PING_AFTER = 2.0          # s of silence, while the referee waits on a cup, before it is asked its status
REPLY_TIMEOUT = 5.0       # s a cup may take to answer a status before it counts as silent
TICK = 0.25               # s between looks at a waiting seat's clock
FAULTS_LOGGED = 10        # fault events per seat and round; more are only counted
HELLO_TRIES = 3           # hellos (hello_s each) before a cup counts as not there

__all__ = ["CupLinks", "Forfeit", "PING_AFTER", "REPLY_TIMEOUT"]


class CupLinks:
    """The seats' links, for the referee and a seat's turns: ``connect``, ``send``, ``post``, ``wait_for``,
    ``ask_status``, ``fault``. Every event goes to the ``sink`` (table/sink.py), and what the links know of
    the game they read from its state; ``decide(seat)`` is the table's word on a seat it was asked about
    ("wait", "forfeit" or None), taken once."""

    ping_after, hello_s = PING_AFTER, 2.0   # the referee makes both longer for a slow cup (referee.py)

    def __init__(self, seats, sink, rules, decide, fair=False, absent_timeout=120.0, turn_timeout=600.0,
                 reply_timeout=REPLY_TIMEOUT):
        self.seats = seats
        self.sink = sink
        self.emit = sink.emit
        self.rules = rules
        self.fair = fair
        self.presence = PresencePolicy(sink.emit, decide, lambda: self.playing or self.sink.state.round,
                                       absent_timeout, turn_timeout)
        self.fair_play = FairPlay(sink, self._raw_send, lambda seat_no: self.ask_status(seat_no, wait=False),
                                  self.fault)
        self.reply_timeout = reply_timeout
        self.playing = 0     # the round in play: a seat ruled out before its turn event belongs to it
        self.closing = False
        self.refusals = {}   # seat -> the cup's words for the last input it refused (a bot reads them)
        self.charges = battery.Charges()  # the cups' charge as the table sees it

    # --- connecting -------------------------------------------------------------------------------------
    async def connect(self, seat_no):
        link = self.seats[seat_no].link
        if link.pump:
            link.pump.cancel()  # the pump of a dead link must not put its error into the new inbox
            link.pump = None
        await link.transport.open()
        try:  # a port without this seat's cup is let go at once: its path may be another cup's by now
            link.identity = await self._greet(seat_no)
        except BaseException:
            link.transport.close()
            raise
        link.new_connection(asyncio.get_running_loop().time())
        if (await self._status_now(seat_no, self.hello_s)).get("state") in ("idle", "revealed"):
            # mid-round a cup keeps its configuration (it would refuse, and flash a refusal nobody caused)
            await self.configure(seat_no)
        link.pump = asyncio.create_task(self._pump(seat_no, link.connection))

    async def _greet(self, seat_no) -> "IdentityMessage":
        seat = self.seats[seat_no]
        link = seat.link
        for attempt in range(HELLO_TRIES):  # a cup busy starting (loaded machine, booting board) may miss one
            try:
                ident = await hello(link.transport, self.hello_s)
                break
            except asyncio.TimeoutError:
                if attempt == HELLO_TRIES - 1:
                    raise
        if link.identity is not None and ident["cup"] != link.identity["cup"]:
            raise TransportClosed("link.other_cup", cup=ident["cup"], seat=seat_no)
        if link.identity is None and seat.cup_names:   # its first hello: before the configure that names it
            seat.name = cup_name(ident) or seat.name
        if self.rules.name not in ident.get("presets", []):
            raise TransportClosed("link.unknown_rules", cup=ident["cup"], rules=self.rules.name)
        return ident

    async def _status_now(self, seat_no, timeout=2.0):
        """The cup's status straight from the link, before its pump runs (what else comes meanwhile is asked
        again later: a ``done`` comes with every status)."""
        link = self.seats[seat_no].link
        loop = asyncio.get_running_loop()
        ask = link.next_ping()
        await link.transport.send({"t": "status", "id": ask})
        end = loop.time() + timeout
        while True:
            msg = await link.transport.recv(max(0.01, end - loop.time()))  # TimeoutError: the cup is absent
            if msg["t"] == "status" and msg.get("id") == ask:
                return msg

    def lost_at_start(self, seat_no, error):
        """A cup that cannot be reached when a resumed game starts: the first wait on it reconnects
        (``_rejoin``), as for a cup that went away during the game."""
        link = self.seats[seat_no].link
        link.new_connection(asyncio.get_running_loop().time())
        lost = TransportClosed("link.failed", kind=type(error).__name__, error=error)
        link.inbox.put_nowait((link.connection, lost))

    async def configure(self, seat_no):
        name = self.seats[seat_no].name[:protocol.MAX_NAME]  # a longer one: refused, then every turn
        await self._raw_send(seat_no, {"t": "configure", "rules": self.rules.to_dict(),
                                       "name": name, "seat": seat_no, "fair": self.fair})

    async def _raw_send(self, seat_no, msg):
        await self.sink.on_disk()  # what a cup hears of is on disk first (its turn, a nonce, an outcome)
        link = self.seats[seat_no].link
        if msg["t"] != "status":
            link.commanded()
        await link.transport.send(msg)

    # --- the pump ---------------------------------------------------------------------------------------
    async def _pump(self, seat_no, connection):
        link = self.seats[seat_no].link
        while True:
            try:
                msg = await link.transport.recv()
            except TransportClosed as e:
                await link.inbox.put((connection, e))
                return
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the transport itself broke: the link is gone, never silently
                lost = TransportClosed("link.failed", kind=type(e).__name__, error=e)
                await link.inbox.put((connection, lost))
                return
            try:
                self._heard(seat_no)
                if not await self._serve(seat_no, msg):
                    await link.inbox.put((connection, msg))
            except TransportClosed as e:
                await link.inbox.put((connection, e))
                return
            except asyncio.CancelledError:
                raise
            except Exception as e:  # a bug or a malformed message: this cup's fault, and the pump goes on
                self.fault(seat_no, "%s: %s" % (type(e).__name__, e))

    def _battery(self, seat_no, mv):  # a cup's charge (links/battery.py): logged once the game is in the log
        now = asyncio.get_running_loop().time()
        fields = self.sink.state.players and self.charges.reading(seat_no, mv, now)
        if fields:
            self.emit(dict({"ev": "battery", "seat": seat_no}, **fields))

    def charges_now(self):
        """The game is in the log: every cup's charge as its hello told it."""
        for seat_no, seat in enumerate(self.seats):
            self._battery(seat_no, (seat.link.identity or {}).get("battery"))

    def _heard(self, seat_no):
        self.seats[seat_no].link.heard_now(asyncio.get_running_loop().time())
        if self.sink.state.paused.get(seat_no, "").startswith("silent"):
            presence = self.presence[seat_no]
            presence.away_since = presence.asked_at = None
            self.emit({"ev": "resume", "seat": seat_no})

    async def _serve(self, seat_no: int, msg: "CupMessage | GarbageItem") -> bool:
        """What the pump answers itself; True when the message needs nothing else."""
        st = self.sink.state
        mine = st.on_turn == seat_no and msg.get("round") == st.round  # the seat's turn in this round
        if msg["t"] == "seed":
            if mine:
                self.fair_play.seed(seat_no, msg["hash"])
            return True
        if msg["t"] == "shake":
            if mine and self.fair:
                await self.fair_play.nonce(seat_no, msg["throw"])
            return True
        if msg["t"] == "progress":
            if mine:
                self._progress(seat_no, msg)
            return True
        if msg["t"] == "status":
            self._battery(seat_no, msg.get("battery"))
        if msg["t"] == "status" and mine:
            p = self.sink.state.players[seat_no]
            if msg["state"] == "turn" and (msg["throws"], msg["public"]) != (p.throws, p.public):
                # A progress line got lost (or the host restarted after it): the table sees what lies open.
                self._progress(seat_no, msg)
            seed = msg.get("seed")
            if self.fair and seed:
                self.fair_play.seed(seat_no, seed)
            awaiting = msg.get("awaiting")
            if self.fair and awaiting and self.fresh(seat_no, msg):  # not a status our nonce crossed
                await self.fair_play.nonce(seat_no, awaiting)  # its shake, or our nonce, got lost
        if msg["t"] == "garbage":
            self.fault(seat_no, msg["msg"])
            return False   # a reveal wait counts it too
        if msg["t"] == "error":
            text = msg.get("msg") or ""   # the transport's words for a why: never empty on the host
            if msg.get("re") == "input":
                self.refusals[seat_no] = text   # the firmware's English (a bot reads it, a log keeps it)
                if self.seats[seat_no].kind == "human":
                    self.sink.refused(seat_no, self.seats[seat_no].name, msg.get("why") or text)
                return True
            # The cup's own trouble: a failed RNG (no silent wait: the table reads why it does not roll), or
            # beside what it answered a bug it survived, a flash that refused its state. Shown and logged as
            # often as faults are (10 a round); the game goes on.
            code = {protocol.E_RNG: "rng", protocol.E_INTERNAL: "internal"}.get(msg["code"])
            if code is None or (code == "internal" and msg.get("re") is not None):
                return False
            if self.fault(seat_no, "%s: %s" % (msg["code"], text)):
                self.sink.say("play.cup_" + code, n=seat_no + 1, msg=text[:120])
            return True
        return msg["t"] in ("ok", "identity")

    def _progress(self, seat_no: int, msg: "ProgressMessage | StatusMessage") -> None:
        self.emit({"ev": "progress", "round": msg.get("round"), "seat": seat_no, "throws": msg["throws"],
                   "public": msg["public"]})

    # --- reporting --------------------------------------------------------------------------------------
    def fault(self, seat_no, reason):
        """A cup sent what it must not: logged (up to FAULTS_LOGGED per round) and shown; nothing else. True
        when it was logged."""
        faults = self.seats[seat_no].link.faults
        rnd = self.playing or self.sink.state.round
        n = faults[rnd] = faults.get(rnd, 0) + 1
        if n <= FAULTS_LOGGED:
            self.emit({"ev": "fault", "round": rnd, "seat": seat_no, "reason": str(reason)[:200]})
        elif n == FAULTS_LOGGED + 1:
            self.sink.say("play.faults_muted", n=seat_no + 1)
        return n <= FAULTS_LOGGED

    # --- waiting ----------------------------------------------------------------------------------------
    async def send(self, seat_no, msg):
        while True:
            try:
                return await self._raw_send(seat_no, msg)
            except TransportClosed as e:
                await self._rejoin(seat_no, str(e))

    async def post(self, seat_no, msg):
        """Send without waiting for a broken link to come back: the next wait on the seat takes it up."""
        link = self.seats[seat_no].link
        try:
            await self._raw_send(seat_no, msg)
        except TransportClosed as e:
            if link.inbox is not None:
                link.inbox.put_nowait((link.connection, e))

    async def ask_status(self, seat_no, wait=True):
        """Ask the cup's status; with ``wait``, the answer to this very request (or a later one)."""
        link = self.seats[seat_no].link
        ask = link.next_ping()
        link.ping_at = asyncio.get_running_loop().time()
        if not wait:
            return await self.post(seat_no, {"t": "status", "id": ask})
        await self.send(seat_no, {"t": "status", "id": ask})
        return await self.wait_for(seat_no,
                                   lambda m: m if m["t"] == "status" and m.get("id", ask) >= ask else None)

    def fresh(self, seat_no, status):
        """True when a status answers a request made after the referee's last command to the cup."""
        return self.seats[seat_no].link.fresh(status)

    async def wait_for(self, seat_no, accept, fresh=True):
        """The first message of the seat for which ``accept(msg)`` is not None; returns that value. Raises
        Forfeit when the table rules the seat out. Messages it does not take are dropped (the pump reported
        what was wrong with them). ``fresh``: a new task of the seat, whose time the turn timeout counts;
        False goes on counting (a turn asked for again and again is still one turn)."""
        link = self.seats[seat_no].link
        presence = self.presence[seat_no]
        loop = asyncio.get_running_loop()
        if fresh:
            presence.new_task(loop.time())
        while True:
            try:
                async with asyncio.timeout(TICK):   # not wait_for: it can drop the game's cancellation (3.11)
                    connection, item = await link.inbox.get()
            except TimeoutError:
                await self._tick(seat_no)
                continue
            if connection != link.connection:
                continue  # from a connection that is gone
            if isinstance(item, Exception):
                presence.since += await self._rejoin(seat_no, str(item))  # stopped while away, not again
                continue
            got = accept(item)
            if got is not None:
                return got

    async def _tick(self, seat_no):
        """A waiting seat's clock: ping a quiet cup, pause a silent one, put an absent or endless one to the
        table."""
        link = self.seats[seat_no].link
        now = asyncio.get_running_loop().time()
        if link.ping_at is None and now - link.heard > self.ping_after:
            await self.ask_status(seat_no, wait=False)
        elif link.ping_at is not None and now - link.ping_at > self.reply_timeout:
            if seat_no not in self.sink.state.paused:
                self.presence[seat_no].away_since = now
                self.emit({"ev": "pause", "seat": seat_no,
                           "reason": "silent: no answer for %d s" % round(now - link.heard)})
            await self.ask_status(seat_no, wait=False)
        self.presence.check(seat_no, seat_no in self.sink.state.paused, asyncio.get_running_loop().time())

    async def _rejoin(self, seat_no, reason):
        """The link broke: pause, reconnect until the cup is back or the table rules it out; the s away."""
        link = self.seats[seat_no].link
        presence = self.presence[seat_no]
        loop = asyncio.get_running_loop()
        left = loop.time()
        if seat_no not in self.sink.state.paused:
            self.emit({"ev": "pause", "seat": seat_no, "reason": reason})
            presence.away_since = left - presence.away_before
        elif presence.away_since is None:
            presence.away_since = left - presence.away_before
        delay = 0.2
        while not self.closing:
            self.presence.ask_table(seat_no, presence.away_since, self.presence.absent_timeout, "absent",
                                    loop.time())
            await asyncio.sleep(delay)
            delay = min(delay * 2, 2.0)
            try:
                if link.reconnect:
                    link.transport.close()  # also stops the reader thread of the dead link
                    link.transport = await link.reconnect()
                await self.connect(seat_no)
            except (TransportClosed, asyncio.TimeoutError, OSError):
                continue
            break
        back = loop.time()
        presence.away_before = back - presence.away_since
        presence.away_since = presence.asked_at = None
        self.emit({"ev": "resume", "seat": seat_no})
        await self.ask_status(seat_no, wait=False)  # a cup that is done sends its commitment again
        return back - left

    def close(self):
        self.closing = True
        for seat in self.seats:
            if seat.link.pump:
                seat.link.pump.cancel()
            seat.link.transport.close()

