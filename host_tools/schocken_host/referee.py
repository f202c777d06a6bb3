"""The referee: drives a whole game through the cups, ranks with the rules package, moves the Deckel.

Everything that happens becomes an event: written to the game log first, then applied to the TableState
(which recomputes the game with the rules package), then shown. A round is played as a continuation: what the
state already knows (a cup that is done, a reveal that was checked) is not asked again, so a cup that
reconnects, or a host that resumes from its log, goes on where the game was without re-throwing anything.
"""

import asyncio
import secrets
import time
import uuid

from schocken import RuleError
from schocken import protocol as P
from schocken import hostside as H
from schocken import fair as F

from schocken_host.i18n import tr
from schocken_host.state import TableState, LogError, LOG_VERSION
from schocken_host.transport import TransportClosed, hello


class Forfeit(Exception):
    """The table ruled that an absent cup's player takes the round's Deckel."""


class Seat:
    def __init__(self, name, transport, kind="cup", reconnect=None):
        self.name = name
        self.transport = transport
        self.kind = kind              # "bot", "human" (an emulated cup on the keyboard) or "cup"
        self.reconnect = reconnect    # async () -> Transport, for a cup that went away
        self.identity = None
        self.inbox = None
        self.pump = None


class Referee:
    def __init__(self, rules, seats, log, ui, reveal="all", cheat="replay", state=None, reply_timeout=None,
                 fair=False, absent_timeout=120.0):
        self.rules = rules
        self.seats = seats
        self.log = log
        self.ui = ui
        self.reveal_mode = reveal     # "all": the host uncovers every cup; "button": each player presses
        self.cheat_policy = cheat     # "replay": play the round again; "deckel": the cheater takes the Deckel
        self.state = state or TableState()
        self.reply_timeout = reply_timeout
        self.closing = False
        self.fair = fair              # dice from each cup's committed seed and the host's nonces per throw
        self.absent_timeout = absent_timeout  # seconds a cup may be gone before the table is asked
        self.requests = []            # ("penalty" | "einwuerfeln", seat) from the table, done between rounds

    # --- events -------------------------------------------------------------------------------------
    def emit(self, ev):
        ev["ts"] = round(time.time(), 3)
        self.log.append(ev)
        self.state.apply(ev)
        self.ui.update(self.state, ev)

    # --- cups ---------------------------------------------------------------------------------------
    async def connect(self, seat_no):
        seat = self.seats[seat_no]
        if seat.pump:
            seat.pump.cancel()  # the pump of a dead link must not put its error into the new inbox
            seat.pump = None
        await seat.transport.open()
        ident = await hello(seat.transport)
        if seat.identity is not None and ident["cup"] != seat.identity["cup"]:
            raise TransportClosed("a different cup (%s) answers for seat %d" % (ident["cup"], seat_no))
        if self.rules.name not in ident.get("presets", []):
            raise TransportClosed("cup %s does not know the rule set %s" % (ident["cup"], self.rules.name))
        seat.identity = ident
        seat.inbox = asyncio.Queue()
        # A cup refuses a name longer than MAX_NAME, and an unconfigured cup refuses every turn.
        await seat.transport.send({"t": "configure", "rules": self.rules.to_dict(), "name": seat.name[:P.MAX_NAME],
                                   "seat": seat_no, "fair": self.fair})
        seat.pump = asyncio.create_task(self._pump(seat_no))

    async def _pump(self, seat_no):
        seat = self.seats[seat_no]
        while True:
            try:
                msg = await seat.transport.recv()
            except TransportClosed as e:
                await seat.inbox.put(e)
                return
            if msg["t"] == "seed" and msg["round"] == self.state.round:
                self.emit({"ev": "seed", "round": msg["round"], "seat": seat_no, "hash": msg["hash"]})
            elif msg["t"] == "shake" and msg["round"] == self.state.round and self.fair:
                # The cup reported its set-aside decisions with the shake: only now does the host's part exist.
                nonce = secrets.token_hex(16)
                self.emit({"ev": "nonce", "round": msg["round"], "seat": seat_no, "throw": msg["throw"],
                           "nonce": nonce})
                try:
                    await seat.transport.send({"t": "nonce", "round": msg["round"], "throw": msg["throw"],
                                               "nonce": nonce})
                except TransportClosed as e:
                    await seat.inbox.put(e)
                    return
            elif msg["t"] == "progress" and msg["round"] == self.state.round:
                self.emit({"ev": "progress", "round": msg["round"], "seat": seat_no, "throws": msg["throws"],
                           "public": msg["public"]})
            elif msg["t"] in ("ok", "identity") or (msg["t"] == "error" and msg.get("re") == "input"):
                continue  # acknowledgements, and a player's refused button press (the cup shows it)
            else:
                await seat.inbox.put(msg)

    async def expect(self, seat_no, kind, round_id):
        """The next ``kind`` message of this round from a seat; waits through a disconnect."""
        while True:
            seat = self.seats[seat_no]
            item = await seat.inbox.get()
            if isinstance(item, Exception):
                await self._rejoin(seat_no, str(item))
                continue
            if item["t"] == kind and (round_id is None or item.get("round") == round_id):
                return item
            if item["t"] == "garbage" and kind == "revealed":
                return item  # a garbled line where the reveal is due: the caller flags the cup
            if item["t"] == "garbage":
                self._note("cup_garbage", n=seat_no + 1, msg=item["msg"])
            elif item["t"] == "error" and item.get("code") == P.E_RNG:
                self._note("cup_rng", n=seat_no + 1, msg=item.get("msg", ""))  # never a silent wait

    async def _rejoin(self, seat_no, reason):
        seat = self.seats[seat_no]
        self.emit({"ev": "pause", "seat": seat_no, "reason": reason})
        delay = 0.2
        loop = asyncio.get_running_loop()
        since, asked = loop.time(), False
        while not self.closing:
            if self.absent_timeout and loop.time() - since > self.absent_timeout:
                # Never a silent default: past the timeout the table decides, wait longer or forfeit.
                if not asked:
                    asked = True
                    self.emit({"ev": "absent", "seat": seat_no, "after": round(loop.time() - since)})
                decision = self._decision(seat_no)
                if decision == "wait":
                    since, asked = loop.time(), False
                elif decision == "forfeit":
                    self.emit({"ev": "forfeit", "round": self.state.round, "seat": seat_no})
                    raise Forfeit(seat_no)
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
        self.emit({"ev": "resume", "seat": seat_no})
        await seat.transport.send({"t": "status"})  # a cup that is done sends its commitment again

    async def send(self, seat_no, msg):
        while True:
            try:
                return await self.seats[seat_no].transport.send(msg)
            except TransportClosed as e:
                await self._rejoin(seat_no, str(e))

    # --- the game -----------------------------------------------------------------------------------
    async def run(self, opener=None):
        for n in range(len(self.seats)):
            await self.connect(n)
        if self.state.game is None:
            self.emit({"ev": "start", "version": LOG_VERSION, "game_id": uuid.uuid4().hex[:12],
                       "rules": self.rules.to_dict(), "reveal": self.reveal_mode, "cheat": self.cheat_policy,
                       "fair": self.fair,
                       "players": [{"seat": i, "name": s.name, "cup": s.identity["cup"], "kind": s.kind}
                                   for i, s in enumerate(self.seats)]})
            if opener is not None:
                self.emit({"ev": "opener", "seat": opener})
        else:
            self.emit({"ev": "resumed"})
        while not self.state.over:
            if self.state.phase() == "throw_off":
                await self.throw_off()
            else:
                self._table_requests()
                if not self.state.over:
                    await self.play_round()
        half = self.state.game
        self.emit({"ev": "game_over", "loser": half.loser, "blattschuss": half.blattschuss})

    def request(self, what, seat):
        """The table reports a dropped die ("penalty") or a player throwing back in ("einwuerfeln")."""
        self.requests.append((what, seat))

    def _decision(self, seat):
        """The table's word on an absent cup: "wait" or "forfeit" (see request), or None."""
        for i, (what, s) in enumerate(self.requests):
            if s == seat and what in ("wait", "forfeit"):
                del self.requests[i]
                return what
        return None

    def _note(self, key, **kw):
        """A line for the table in the UI's language (German unless the UI says otherwise)."""
        self.ui.note(tr(getattr(self.ui, "lang", "de"), key, **kw))

    def _table_requests(self):
        keep = [r for r in self.requests if r[0] in ("wait", "forfeit")]  # for an absent cup, not now
        self.requests = [r for r in self.requests if r[0] not in ("wait", "forfeit")]
        while self.requests and not self.state.over:
            what, seat = self.requests.pop(0)
            try:
                moves = _peek(self.state.game, what, seat)
            except RuleError as e:
                self.ui.note("%s %s: %s" % (what, seat + 1, e))
                continue
            phase = self.state.game.phase
            try:
                self.emit({"ev": what, "seat": seat, "moves": [[m[0], m[1]] for m in moves]})
            except LogError as e:
                self.ui.note(str(e))
            self._half_change(phase)
        self.requests = keep + self.requests

    def _half_change(self, phase):
        lost = self.state.half_loser_since(phase)
        if lost is not None:
            self.emit({"ev": "half_lost", "phase": phase, "seat": lost})

    def _round_id(self):
        """The round in progress (a resumed host or a rejoined cup continues it), else a new one."""
        st = self.state
        return st.round if st.round > st.closed else st.closed + 1

    async def throw_off(self):
        st = self.state
        seats = list(st.game.throw_off_seats)
        round_id = self._round_id()
        throws = await self._collect(round_id, seats, kind="throw_off", limit=1)
        if throws is None:
            return
        dice = [throws[s]["dice"] for s in seats]
        opener = _peek_throw_off(st.game, dice)
        self.emit({"ev": "throw_off", "round": round_id, "seats": seats, "dice": dice, "opener": opener})
        await self._outcome(round_id, seats, None)

    async def play_round(self):
        st = self.state
        order = st.game.order()
        round_id = self._round_id()
        throws = await self._collect(round_id, order, kind="round", limit=None)
        if throws is None:
            return
        entries, forfeit = [], []
        for s in order:
            t = throws[s]
            if t is None:
                forfeit.append(s)
                entries.append(None)
            else:
                entries.append([t["dice"], t["throws"], t["hand"]])
        phase = st.game.phase
        result, moves = _peek_round(st.game, entries, [order.index(s) for s in forfeit])
        self.emit({"ev": "round", "round": round_id, "order": order, "entries": entries, "forfeit": forfeit,
                   "ranking": [order[i] for i in result.ranking], "best": order[result.best],
                   "worst": order[result.worst], "deckel": result.deckel, "moves": [[m[0], m[1]] for m in moves]})
        self._half_change(phase)
        await self._outcome(round_id, order, order[result.worst])

    async def _collect(self, round_id, order, kind, limit):
        """Turns in seating order, then the reveal and its check. Returns {seat: reveal or None (void)},
        or None when the round has to be played again."""
        st = self.state
        forfeits = []
        for pos, s in enumerate(order):
            try:
                await self._turn_of(round_id, order, kind, limit, pos, s)
            except Forfeit:
                forfeits.append(s)
        for s in order:
            try:
                if s not in forfeits:
                    await self.send(s, {"t": "round_end", "round": round_id})
                    if self.reveal_mode == "all" and st.players[s].revealed is None:
                        await self.send(s, {"t": "reveal", "round": round_id})
            except Forfeit:
                forfeits.append(s)
        out, cheaters = {}, []
        for pos, s in enumerate(order):
            p = st.players[s]
            if s in forfeits:
                out[s] = None
                continue
            if p.revealed is not None:  # a reveal event is only logged for a reveal that passed the check
                out[s] = p.revealed
                continue
            try:
                rev = await self.expect(s, "revealed", round_id)
            except Forfeit:
                forfeits.append(s)
                out[s] = None
                continue
            lim = limit if kind == "throw_off" else (None if pos == 0 else st.limit)
            try:
                if rev["t"] == "garbage":
                    raise RuleError("garbled line instead of the reveal: %s" % rev["msg"])
                throw = H.check_reveal(self.rules, lim, p.commit, rev)
                if self.fair:
                    F.check_dice(rev.get("seed") or "", p.seed_hash or "", p.nonces, round_id, rev["transcript"])
            except RuleError as e:
                self.emit({"ev": "cheat", "round": round_id, "seat": s, "reason": str(e)})
                cheaters.append(s)
                out[s] = None
                continue
            self.emit({"ev": "reveal", "round": round_id, "seat": s, "dice": rev["dice"], "throws": rev["throws"],
                       "hand": rev["hand"], "nonce": rev["nonce"], "transcript": rev["transcript"],
                       "seed": rev.get("seed"),
                       "label": throw.label, "kind": throw.kind})
            out[s] = st.players[s].revealed
        void = cheaters + forfeits
        if (cheaters and self.cheat_policy == "replay") or (void and kind == "throw_off") or len(void) == len(order):
            self.emit({"ev": "replay_round", "round": round_id, "reason": "cheat" if cheaters else "absent",
                       "seats": void})
            await self._outcome(round_id, [s for s in order if s not in forfeits], None)
            return None
        return out

    async def _turn_of(self, round_id, order, kind, limit, pos, s):
        """One seat's turn of the round; a cup that kept its state goes on with it."""
        st = self.state
        p = st.players[s]
        if st.round == round_id and p.revealed is not None:
            return  # its throw is public and checked already
        lim = limit if kind == "throw_off" else (None if pos == 0 else st.limit)
        # Ask first: a cup that kept its state (the host restarted, the link dropped) goes on with it.
        await self.send(s, {"t": "status"})
        status = await self.expect(s, "status", None)
        holds = status.get("round") == round_id and status["state"] != "idle"
        if st.round == round_id and p.done and holds:
            return
        if not holds:  # also a cup that lost a turn it had finished (a new cup after a host crash)
            await self.send(s, {"t": "turn", "round": round_id, "limit": lim})
        self.emit({"ev": "turn", "round": round_id, "seat": s, "limit": lim, "kind": kind, "order": order})
        done = await self.expect(s, "done", round_id)
        self.emit({"ev": "done", "round": round_id, "seat": s, "throws": done["throws"],
                   "commit": done["commit"]})

    async def _outcome(self, round_id, order, loser):
        st = self.state
        for s in order:
            if s in st.paused:
                continue  # an absent cup hears the outcome from the next status it is asked for
            result = "none" if loser is None else ("lost" if s == loser else "won")
            if st.over:
                result = "game_lost" if s == st.loser else "won"
            await self.send(s, {"t": "outcome", "round": round_id, "result": result, "deckel": st.deckel(s),
                                "middle": st.middle()})

    def close(self):
        self.closing = True
        for seat in self.seats:
            if seat.pump:
                seat.pump.cancel()
            seat.transport.close()


def _peek_throw_off(game, dice):
    """What the throw-off will give, computed on a copy so the event can be logged before it is applied."""
    import copy
    return copy.deepcopy(game).throw_off(dice)


def _peek(game, what, seat):
    import copy
    g = copy.deepcopy(game)
    return g.penalty(seat) if what == "penalty" else g.einwuerfeln(seat)


def _peek_round(game, entries, forfeit):
    import copy
    filled = [e if e is not None else ([1, 1, 1], 1, True) for e in entries]
    return copy.deepcopy(game).play_round(filled, set(forfeit))
