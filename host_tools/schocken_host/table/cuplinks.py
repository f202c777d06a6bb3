"""The seats' links, a part of the referee: one pump per cup that no message can kill, and waits that all end.
Every message from a cup passes its seat's pump, which serves fair play at once (the seed commitment, a nonce
for each shake) and hands everything else to the seat's inbox. A message the pump cannot take (malformed, of
another round, a bug in a handler or a view) is a ``fault`` of that cup, logged and shown; the pump goes on.

The referee waits on a cup only through ``wait_for``. A cup quiet for PING_AFTER s meanwhile is asked its
``status`` (the answer carries the request's id: an old one is never taken for a new one); one that does not
answer in REPLY_TIMEOUT is *silent*: a ``pause`` event, as for a pulled cable.
A seat paused for longer than ``absent_timeout``, or on turn for longer than ``turn_timeout``, is put to the
table (``absent`` event): ``wait N`` gives it another timeout, ``forfeit N`` voids its part of the round; a
table that says nothing within one more timeout has decided to forfeit (the ``forfeit`` event says so).
"""

import asyncio
import secrets
from typing import TYPE_CHECKING

from schocken import protocol

from schocken_host.links import battery
from schocken_host.links.transport import TransportClosed, cup_name, hello

if TYPE_CHECKING:   # what a cup sends, as types for mypy (links/message_types.py); nothing of it at run time
    from schocken_host.links.message_types import (CupMessage, GarbageItem, IdentityMessage, ProgressMessage,
                                                   StatusMessage)

PING_AFTER = 2.0          # s of silence, while the referee waits on a cup, before it is asked its status
REPLY_TIMEOUT = 5.0       # s a cup may take to answer a status before it counts as silent
TICK = 0.25               # s between looks at a waiting seat's clock
FAULTS_LOGGED = 10        # fault events per seat and round; more are only counted
HELLO_TRIES = 3           # hellos (hello_s each) before a cup counts as not there


class Forfeit(Exception):
    """The table ruled that an absent (or endlessly slow) cup's player takes the round's Deckel."""


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
        self.decide = decide
        self.fair = fair
        self.absent_timeout = absent_timeout  # seconds a cup may be gone or silent before the table is asked
        self.turn_timeout = turn_timeout      # seconds a present seat may take before the table is asked
        self.reply_timeout = reply_timeout
        self.playing = 0     # the round in play: a seat ruled out before its turn event belongs to it
        self.closing = False
        self.refusals = {}   # seat -> the cup's words for the last input it refused (a bot reads them)
        self.charges = battery.Charges()  # the cups' charge as the table sees it

    # --- connecting -------------------------------------------------------------------------------------
    async def connect(self, seat_no):
        seat = self.seats[seat_no]
        if seat.pump:
            seat.pump.cancel()  # the pump of a dead link must not put its error into the new inbox
            seat.pump = None
        await seat.transport.open()
        try:  # a port without this seat's cup is let go at once: its path may be another cup's by now
            seat.identity = await self._greet(seat_no)
        except BaseException:
            seat.transport.close()
            raise
        seat.link += 1
        seat.inbox = asyncio.Queue()
        seat.heard = asyncio.get_running_loop().time()
        seat.ping_at = None
        if (await self._status_now(seat_no, self.hello_s)).get("state") in ("idle", "revealed"):
            # mid-round a cup keeps its configuration (it would refuse, and flash a refusal nobody caused)
            await self.configure(seat_no)
        seat.pump = asyncio.create_task(self._pump(seat_no, seat.link))

    async def _greet(self, seat_no) -> "IdentityMessage":
        seat = self.seats[seat_no]
        for attempt in range(HELLO_TRIES):  # a cup busy starting (loaded machine, booting board) may miss one
            try:
                ident = await hello(seat.transport, self.hello_s)
                break
            except asyncio.TimeoutError:
                if attempt == HELLO_TRIES - 1:
                    raise
        if seat.identity is not None and ident["cup"] != seat.identity["cup"]:
            raise TransportClosed("link.other_cup", cup=ident["cup"], seat=seat_no)
        if seat.identity is None and seat.cup_names:   # its first hello: before the configure that names it
            seat.name = cup_name(ident) or seat.name
        if self.rules.name not in ident.get("presets", []):
            raise TransportClosed("link.unknown_rules", cup=ident["cup"], rules=self.rules.name)
        return ident

    async def _status_now(self, seat_no, timeout=2.0):
        """The cup's status straight from the link, before its pump runs (what else comes meanwhile is asked
        again later: a ``done`` comes with every status)."""
        seat = self.seats[seat_no]
        loop = asyncio.get_running_loop()
        seat.ping_id = ask = seat.ping_id + 1
        await seat.transport.send({"t": "status", "id": ask})
        end = loop.time() + timeout
        while True:
            msg = await seat.transport.recv(max(0.01, end - loop.time()))  # TimeoutError: the cup is absent
            if msg["t"] == "status" and msg.get("id") == ask:
                return msg

    def lost_at_start(self, seat_no, error):
        """A cup that cannot be reached when a resumed game starts: the first wait on it reconnects
        (``_rejoin``), as for a cup that went away during the game."""
        seat = self.seats[seat_no]
        seat.link += 1
        seat.inbox = asyncio.Queue()
        lost = TransportClosed("link.failed", kind=type(error).__name__, error=error)
        seat.inbox.put_nowait((seat.link, lost))

    async def configure(self, seat_no):
        name = self.seats[seat_no].name[:protocol.MAX_NAME]  # a longer one: refused, then every turn
        await self._raw_send(seat_no, {"t": "configure", "rules": self.rules.to_dict(),
                                       "name": name, "seat": seat_no, "fair": self.fair})

    async def _raw_send(self, seat_no, msg):
        await self.sink.on_disk()  # what a cup hears of is on disk first (its turn, a nonce, an outcome)
        seat = self.seats[seat_no]
        if msg["t"] != "status":
            seat.fresh_from = seat.ping_id + 1  # what the cup said before this command is old news
        await seat.transport.send(msg)

    # --- the pump ---------------------------------------------------------------------------------------
    async def _pump(self, seat_no, link):
        seat = self.seats[seat_no]
        while True:
            try:
                msg = await seat.transport.recv()
            except TransportClosed as e:
                await seat.inbox.put((link, e))
                return
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the transport itself broke: the link is gone, never silently
                await seat.inbox.put((link, TransportClosed("link.failed", kind=type(e).__name__, error=e)))
                return
            try:
                self._heard(seat_no)
                if not await self._serve(seat_no, msg):
                    await seat.inbox.put((link, msg))
            except TransportClosed as e:
                await seat.inbox.put((link, e))
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
            self._battery(seat_no, (seat.identity or {}).get("battery"))

    def _heard(self, seat_no):
        seat = self.seats[seat_no]
        seat.heard = asyncio.get_running_loop().time()
        seat.ping_at = None
        if self.sink.state.paused.get(seat_no, "").startswith("silent"):
            seat.away_since = seat.asked_at = None
            self.emit({"ev": "resume", "seat": seat_no})

    async def _serve(self, seat_no: int, msg: "CupMessage | GarbageItem") -> bool:
        """What the pump answers itself; True when the message needs nothing else."""
        st = self.sink.state
        mine = st.on_turn == seat_no and msg.get("round") == st.round  # the seat's turn in this round
        if msg["t"] == "seed":
            if mine:
                self._seed(seat_no, msg["hash"])
            return True
        if msg["t"] == "shake":
            if mine and self.fair:
                await self._nonce(seat_no, msg["throw"])
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
                self._seed(seat_no, seed)
            awaiting = msg.get("awaiting")
            if self.fair and awaiting and self.fresh(seat_no, msg):  # not a status our nonce crossed
                await self._nonce(seat_no, awaiting)  # its shake, or our nonce, got lost
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

    def _seed(self, seat_no: int, seed_hash: str) -> None:
        p = self.sink.state.players[seat_no]
        if p.seed_hash is None:
            self.emit({"ev": "seed", "round": self.sink.state.round, "seat": seat_no, "hash": seed_hash})
        elif p.seed_hash != seed_hash:
            self.fault(seat_no, "a second seed commitment in one turn (the first one stands)")

    async def _nonce(self, seat_no, throw):
        """The host's nonce for a throw. Logged once per throw, sent again as often as asked (the same one):
        a cup restarted between its shake and the nonce gets the nonce it was waiting for, never a second
        chance. Never before the seed commitment is known: without it the throw could not be checked."""
        st = self.sink.state
        p = st.players[seat_no]
        if p.seed_hash is None:
            await self.ask_status(seat_no, wait=False)  # its status carries the commitment
            return
        nonce = p.nonces.get(throw)
        if nonce is None:
            if throw != len(p.nonces) + 1:
                self.fault(seat_no, "shake for throw %d, the host knows %d" % (throw, len(p.nonces)))
                return
            nonce = secrets.token_hex(16)
            self.emit({"ev": "nonce", "round": st.round, "seat": seat_no, "throw": throw, "nonce": nonce})
        await self._raw_send(seat_no, {"t": "nonce", "round": st.round, "throw": throw, "nonce": nonce})

    # --- reporting --------------------------------------------------------------------------------------
    def fault(self, seat_no, reason):
        """A cup sent what it must not: logged (up to FAULTS_LOGGED per round) and shown; nothing else. True
        when it was logged."""
        seat = self.seats[seat_no]
        rnd = self.playing or self.sink.state.round
        n = seat.faults[rnd] = seat.faults.get(rnd, 0) + 1
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
        seat = self.seats[seat_no]
        try:
            await self._raw_send(seat_no, msg)
        except TransportClosed as e:
            if seat.inbox is not None:
                seat.inbox.put_nowait((seat.link, e))

    async def ask_status(self, seat_no, wait=True):
        """Ask the cup's status; with ``wait``, the answer to this very request (or a later one)."""
        seat = self.seats[seat_no]
        seat.ping_id += 1
        ask = seat.ping_id
        seat.ping_at = asyncio.get_running_loop().time()
        if not wait:
            return await self.post(seat_no, {"t": "status", "id": ask})
        await self.send(seat_no, {"t": "status", "id": ask})
        return await self.wait_for(seat_no,
                                   lambda m: m if m["t"] == "status" and m.get("id", ask) >= ask else None)

    def fresh(self, seat_no, status):
        """True when a status answers a request made after the referee's last command to the cup."""
        return status.get("id") is not None and status["id"] >= self.seats[seat_no].fresh_from

    async def wait_for(self, seat_no, accept, fresh=True):
        """The first message of the seat for which ``accept(msg)`` is not None; returns that value. Raises
        Forfeit when the table rules the seat out. Messages it does not take are dropped (the pump reported
        what was wrong with them). ``fresh``: a new task of the seat, whose time the turn timeout counts;
        False goes on counting (a turn asked for again and again is still one turn)."""
        seat = self.seats[seat_no]
        loop = asyncio.get_running_loop()
        if fresh:
            seat.since = loop.time()
            seat.away_before = 0.0
            seat.asked_at = seat.asked_first = None
        while True:
            try:
                async with asyncio.timeout(TICK):   # not wait_for: it can drop the game's cancellation (3.11)
                    link, item = await seat.inbox.get()
            except TimeoutError:
                await self._tick(seat_no)
                continue
            if link != seat.link:
                continue  # from a connection that is gone
            if isinstance(item, Exception):
                seat.since += await self._rejoin(seat_no, str(item))  # stopped while away, not started again
                continue
            got = accept(item)
            if got is not None:
                return got

    async def _tick(self, seat_no):
        """A waiting seat's clock: ping a quiet cup, pause a silent one, put an absent or endless one to the
        table."""
        seat = self.seats[seat_no]
        now = asyncio.get_running_loop().time()
        if seat.ping_at is None and now - seat.heard > self.ping_after:
            await self.ask_status(seat_no, wait=False)
        elif seat.ping_at is not None and now - seat.ping_at > self.reply_timeout:
            if seat_no not in self.sink.state.paused:
                seat.away_since = now
                self.emit({"ev": "pause", "seat": seat_no,
                           "reason": "silent: no answer for %d s" % round(now - seat.heard)})
            await self.ask_status(seat_no, wait=False)
        if seat_no in self.sink.state.paused:
            self._ask_table(seat_no, seat.away_since or seat.since, self.absent_timeout, "absent")
        else:
            self._ask_table(seat_no, seat.since, self.turn_timeout, "slow")

    def _ask_table(self, seat_no, start, timeout, why):
        """Past ``timeout`` since ``start``: the table is asked; its "wait" starts the time again, its
        "forfeit" (or no answer within the timeout again) raises Forfeit."""
        seat = self.seats[seat_no]
        now = asyncio.get_running_loop().time()
        if timeout is None or now - start <= timeout:
            return
        if seat.asked_at is None:
            seat.asked_at = now
            if seat.asked_first is None:
                seat.asked_first = now
            self.emit({"ev": "absent", "seat": seat_no, "after": round(now - start), "reason": why})
        decision = self.decide(seat_no)
        if decision is None and now - seat.asked_first > timeout:
            # Nobody at the table answers: the wait ends all the same. Counted from the first question of the
            # task: a cup that comes back and drops out again is asked again, not given the time again.
            decision = "timeout"
        if decision == "wait":
            seat.asked_at = seat.asked_first = None
            self.emit({"ev": "wait", "seat": seat_no, "round": self.playing or self.sink.state.round})
            seat.since = now
            seat.away_before = 0.0
            if seat.away_since is not None:
                seat.away_since = now
        elif decision in ("forfeit", "timeout"):
            seat.asked_at = seat.asked_first = None
            self.emit({"ev": "forfeit", "round": self.playing or self.sink.state.round, "seat": seat_no,
                       "by": "table" if decision == "forfeit" else "timeout"})
            raise Forfeit(seat_no)

    async def _rejoin(self, seat_no, reason):
        """The link broke: pause, reconnect until the cup is back or the table rules it out; the s away."""
        seat = self.seats[seat_no]
        loop = asyncio.get_running_loop()
        left = loop.time()
        if seat_no not in self.sink.state.paused:
            self.emit({"ev": "pause", "seat": seat_no, "reason": reason})
            seat.away_since = left - seat.away_before
        elif seat.away_since is None:
            seat.away_since = left - seat.away_before
        delay = 0.2
        while not self.closing:
            self._ask_table(seat_no, seat.away_since, self.absent_timeout, "absent")
            await asyncio.sleep(delay)
            delay = min(delay * 2, 2.0)
            try:
                if seat.reconnect:
                    seat.transport.close()  # also stops the reader thread of the dead link
                    seat.transport = await seat.reconnect()
                await self.connect(seat_no)
            except (TransportClosed, asyncio.TimeoutError, OSError):
                continue
            break
        back = loop.time()
        seat.away_before = back - seat.away_since
        seat.away_since = seat.asked_at = None
        self.emit({"ev": "resume", "seat": seat_no})
        await self.ask_status(seat_no, wait=False)  # a cup that is done sends its commitment again
        return back - left

    def close(self):
        self.closing = True
        for seat in self.seats:
            if seat.pump:
                seat.pump.cancel()
            seat.transport.close()

