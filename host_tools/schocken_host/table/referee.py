"""The referee: drives a whole game through the cups, ranks with the rules package, moves the Deckel.

It is three parts and a sink. Everything that happens becomes an event and goes to the ``EventSink``
(table/sink.py): applied to the TableState (which computes the game with the rules package, so an event the
rules refuse is never written), written to the game log, shown, told to the listeners. The ``CupLinks``
(table/cuplinks.py) keep the links to the cups (the pumps, every bounded wait, reconnects, the table's word on
an absent cup, fair play's nonces); the ``Turns`` (table/turns.py) are a seat's turn and its reveal with their
checks; the referee plays the rounds with them. A round is played as a continuation: what the state already
knows (a cup that is done, a reveal that was checked) is not asked again, so a cup that reconnects, or a host
that resumes from its log, goes on where the game was without re-throwing anything.
"""

import asyncio
import uuid

from schocken import RuleError

from schocken_host.pace import Pace
from schocken_host.table.cuplinks import PING_AFTER, REPLY_TIMEOUT, CupLinks
from schocken_host.table.presence import Forfeit
from schocken_host.table.sink import EventSink
from schocken_host.table.turns import Turns, VoidThrow
from schocken_host.table.state import TableState, LogError, LOG_VERSION
from schocken_host.links.transport import TransportClosed

MAX_REPLAYS = 3          # a round voided this many times in a row is decided without the void seats
REVEAL_PAUSE_S = 5.0     # a ranked round (or throw-off) stays on the screens this long before the next turn:
                         # four players' dice and who takes the Deckel, read at a bar


class TableStopped(Exception):
    """Every seat of a round was void MAX_REPLAYS times in a row: no game can go on at this table."""


def _player_entry(seat_no, seat):
    """A seat as the start event lists it; a bot's with the strategy it plays (docs/gamelog.md)."""
    entry = {"seat": seat_no, "name": seat.name, "cup": seat.link.identity["cup"], "kind": seat.kind}
    if seat.kind == "bot" and getattr(seat, "strategy", None):
        entry["strategy"] = seat.strategy
    return entry


class Referee:
    def __init__(self, rules, seats, log, ui, reveal="all", cheat="replay", state=None, reply_timeout=None,
                 fair=False, absent_timeout=120.0, turn_timeout=600.0, reveal_pause=0.0, pace=Pace(),
                 table=None):
        self.rules = rules
        self.seats = seats
        self.sink = EventSink(state or TableState(), log, ui)
        self.emit = self.sink.emit
        self.reveal_mode = reveal     # "all": the host uncovers every cup; "button": each player presses
        self.cheat_policy = cheat     # "replay": play the round again; "deckel": the cheater takes the Deckel
        self.fair = fair              # dice from each cup's committed seed and the host's nonces per throw
        self.table = table            # the table's name (its table file's), written into the start event
        # Seconds between a round's (or a throw-off's) result and the next turn, so that the table sees every
        # revealed throw and who takes the Deckel: `play` gives REVEAL_PAUSE_S divided by its time scale.
        self.reveal_pause = reveal_pause
        self.requests = []            # ("penalty" | "einwuerfeln" | "wait" | "forfeit", seat) from the table
        self.links = CupLinks(seats, self.sink, rules, self._decision, fair=fair,
                              absent_timeout=absent_timeout, turn_timeout=turn_timeout,
                              reply_timeout=pace.answer_s(reply_timeout or REPLY_TIMEOUT))
        # A cup slower than a chip (an emulated one: docs/build.md, "The target lane") takes longer for each
        # answer; the host's waits on an answer grow with it, the table's timeouts are the table's own.
        self.links.ping_after, self.links.hello_s = pace.answer_s(PING_AFTER), pace.answer_s(2.0)
        self.turns = Turns(self.links, self.sink, rules, fair=fair, reveal_mode=reveal)

    # --- what the table's other parts read (views, bots, keys) -------------------------------------------
    @property
    def state(self):
        return self.sink.state

    @property
    def ui(self):
        return self.sink.ui

    @property
    def listeners(self):
        return self.sink.listeners

    @property
    def refusals(self):
        return self.links.refusals

    def note(self, text):
        self.sink.note(text)

    def close(self):
        self.links.close()

    # --- the game -----------------------------------------------------------------------------------
    async def run(self, opener=None):
        for n in range(len(self.seats)):
            try:
                await self.links.connect(n)
            except (TransportClosed, asyncio.TimeoutError, OSError) as e:
                if self.state.game is None and isinstance(e, asyncio.TimeoutError):
                    port = self.seats[n].link.transport.name   # this one
                    raise TransportClosed("link.cup_silent", name=port)
                if self.state.game is None:
                    raise  # a new game: nobody can be seated at a cup that is not there
                self.links.lost_at_start(n, e)  # a resumed game waits for it like for any cup that went away
        if self.state.game is None:
            start = {"ev": "start", "version": LOG_VERSION, "game_id": uuid.uuid4().hex[:12],
                     "rules": self.rules.to_dict(), "reveal": self.reveal_mode, "cheat": self.cheat_policy,
                     "fair": self.fair,
                     "players": [_player_entry(i, s) for i, s in enumerate(self.seats)]}
            if self.table is not None:   # a table without a name writes the start event of before
                start["table"] = self.table
            self.emit(start)
            if opener is not None:
                self.emit({"ev": "opener", "seat": opener})
        else:
            self.emit({"ev": "resumed"})
        self.links.charges_now()
        try:
            while not self.state.over:
                if self.state.phase() == "throw_off":
                    await self.throw_off()
                else:
                    self._table_requests()
                    if not self.state.over:
                        await self.play_round()
        except TableStopped as e:
            self.emit({"ev": "stop", "reason": str(e)})
            return
        half = self.state.game
        self.emit({"ev": "game_over", "loser": half.loser, "blattschuss": half.blattschuss})

    def request(self, what, seat):
        """The table reports a dropped die ("penalty"), a player throwing back in ("einwuerfeln"), or rules on
        a seat it was asked about ("wait", "forfeit")."""
        if not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            return self.sink.say("play.no_seat", n=seat + 1 if isinstance(seat, int) else seat)
        if what in ("wait", "forfeit") and seat not in self.state.asked:
            return self.sink.say("play.not_asked", n=seat + 1)  # a word kept for later would rule unasked
        self.requests.append((what, seat))

    def _decision(self, seat):
        """The table's word on an asked seat: "wait" or "forfeit" (see request), or None; taken once."""
        for i, (what, s) in enumerate(self.requests):
            if s == seat and what in ("wait", "forfeit"):
                del self.requests[i]
                return what
        return None

    def _table_requests(self):
        keep = [r for r in self.requests if r[0] in ("wait", "forfeit")]  # for an asked seat, not now
        self.requests = [r for r in self.requests if r[0] not in ("wait", "forfeit")]
        while self.requests and not self.state.over:
            what, seat = self.requests.pop(0)
            phase = self.state.game.phase
            try:
                self.emit({"ev": what, "seat": seat})   # the state computes its moves, or the rules refuse
            except LogError as e:
                rule = e.message.fields.get("error")
                self.note("%s %s: %s" % (what, seat + 1, rule) if isinstance(rule, RuleError)
                          else e.localized(self.sink.lang))
                continue
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
        decided = {"ev": "throw_off", "round": round_id, "seats": seats, "dice": dice}
        self.emit(decided)   # the state decides the opener (None: a Stechen) and writes it into the event
        if decided["opener"] is not None:
            # A throw-off that costs Deckel (throw_off_deckel) starts the first half with them: a Schock-Aus
            # in it ends that half at once, and the table is told who lost it like after a round.
            self._half_change("half1")
        await self._outcome(round_id, seats, None)
        await self._let_it_show()

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
        # Ranked once, by the state the sink applies it to (a void seat's entry stands in there).
        st = self.emit({"ev": "round", "round": round_id, "order": order, "entries": entries,
                        "forfeit": forfeit})
        self._half_change(phase)
        await self._outcome(round_id, order, st.last_round["worst"], st.last_round["best"])
        await self._let_it_show()

    async def _let_it_show(self):
        """The result stays on the screens ``reveal_pause`` seconds (a bounded wait) before the next turn; not
        after the last round: the game's end stays anyway."""
        if self.reveal_pause > 0 and not self.state.over:
            await asyncio.sleep(self.reveal_pause)

    async def _collect(self, round_id, order, kind, limit):
        """Turns in seating order, then the reveals and their checks. Returns {seat: reveal or None (void)},
        or None when the round has to be played again (or the throw-off was decided without it)."""
        st = self.state
        self.links.playing = round_id
        void = {}                     # seat -> "absent" | "cheat" | "lost"
        for pos, s in enumerate(order):
            if st.round == round_id and st.players[s].flagged is not None:
                void[s] = "cheat"  # caught in this round before a resume: the verdict stands, not asked again
                continue
            try:
                await self.turns.turn_of(round_id, order, kind, limit, pos, s)
            except Forfeit:
                void[s] = "absent"
            except VoidThrow as e:
                void[s] = e.why
        # Everyone is done: uncover every cup at once (with reveal "all" the cup needs no round_end first).
        due = [s for s in order if s not in void and st.players[s].revealed is None]
        uncover = {"t": "reveal" if self.reveal_mode == "all" else "round_end", "round": round_id}
        # One post per cup at once: a slow link (BLE) delays no other.
        await asyncio.gather(*(self.links.post(s, dict(uncover)) for s in due))
        void.update(await self.turns.reveals(round_id, order, kind, limit, due))
        out = {s: None if s in void else st.players[s].revealed for s in order}
        if not void:
            return out
        return await self._void(round_id, order, kind, void, out)

    async def _void(self, round_id, order, kind, void, out):
        """Seats whose throw is void: play the round again, or (the table's policy, or MAX_REPLAYS reached)
        decide it without them."""
        st = self.state
        bounded = st.replays >= MAX_REPLAYS - 1
        seats = [s for s in order if s in void]
        if len(seats) == len(order) and bounded:
            raise TableStopped("every seat of round %d was void %d times in a row" % (round_id, MAX_REPLAYS))
        if kind == "throw_off" and bounded:
            # The lowest throw opens; a seat without a valid throw counts as the lowest, the first of them
            # in seating order if there are several (another Stechen among them could go on for ever).
            self.emit({"ev": "opener", "seat": seats[0], "round": round_id, "reason": "throw_off_void"})
            await self._outcome(round_id, [s for s in order if void.get(s) != "absent"], None)
            return None
        replay = (kind == "throw_off" or len(seats) == len(order) or "lost" in void.values()
                  or ("cheat" in void.values() and self.cheat_policy == "replay"))
        if replay and not bounded:
            reasons = set(void.values())
            reason = "cheat" if "cheat" in reasons else ("lost" if "lost" in reasons else "absent")
            self.emit({"ev": "replay_round", "round": round_id, "reason": reason, "seats": seats})
            await self._outcome(round_id, [s for s in order if void.get(s) != "absent"], None)
            return None
        return out  # the void seats rank last (Game.play_round's forfeit)

    async def _outcome(self, round_id, order, loser, best=None):
        """Every cup of ``order`` hears how the round went for it: "lost" for the round's loser, "won" only
        for its best throw; a player who merely did not lose hears "none" (his status pixel stays dark, he
        is not told he won)."""
        st = self.state

        def outcome(s):
            result = "lost" if s == loser else ("won" if s == best and loser is not None else "none")
            if st.over:
                result = "game_lost" if s == st.loser else ("won" if s == best else "none")
            return {"t": "outcome", "round": round_id, "result": result, "deckel": st.deckel(s),
                    "middle": st.middle()}
        # An absent cup hears the outcome from the next status it is asked for.
        await asyncio.gather(*(self.links.post(s, outcome(s)) for s in order if s not in st.paused))

