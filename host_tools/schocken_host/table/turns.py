"""A seat's part of a round, for the referee (table/referee.py): its turn, told to its cup and waited for up
to its ``done``, and its reveal, asked for and checked (commitment, rules, the throws it stood after, fair
play's dice). A cup that kept its state goes on with it; one that lost its turn is given it again, unless the
host had sent a nonce of it (it may have seen those dice); a throw that cannot count is void (``VoidThrow``)
and the round's policy decides (the referee's ``_void``)."""

import asyncio

from schocken import RuleError, fair, hostside

from schocken_host.table.presence import Forfeit

REVEAL_TRIES = 3         # requests for a reveal that came garbled or for another round before it is void


class VoidThrow(Exception):
    """A seat's throw of the round is void before its reveal: ``why`` "cheat" (it stood after a number of
    throws it cannot have taken) or "lost" (it lost its turn after the host's nonce for one of its throws)."""

    def __init__(self, why):
        super().__init__(why)
        self.why = why


class Turns:
    """The seats' turns and reveals of a round, a part of the referee: they talk to the cups through the
    ``links`` (table/cuplinks.py), every event goes to the ``sink`` (table/sink.py) and what they know of the
    round they read from its state."""

    def __init__(self, links, sink, rules, fair=False, reveal_mode="all"):
        self.links = links
        self.sink = sink
        self.emit = sink.emit
        self.rules = rules
        self.fair = fair
        self.reveal_mode = reveal_mode

    async def turn_of(self, round_id, order, kind, limit, pos, s):
        """One seat's turn of the round; a cup that kept its state goes on with it."""
        st = self.sink.state
        p = st.players[s]
        if st.round == round_id and p.revealed is not None:
            return  # its throw is public and checked already
        lim = self._limit_of(round_id, kind, limit, pos)
        # Ask first: a cup that kept its state (the host restarted, the link dropped) goes on with it.
        status = await self.links.ask_status(s)
        if _holds(status, round_id):
            if st.round == round_id and p.done:
                return
            if not (st.round == round_id and st.on_turn == s):
                self.emit({"ev": "turn", "round": round_id, "seat": s, "limit": lim, "kind": kind,
                           "order": order, "continued": True})
        else:
            self._lost_after_nonce(round_id, s)
            await self._start_turn(round_id, order, kind, lim, s, status)

        def done_or_lost(msg):
            if msg["t"] == "done" and msg["round"] == round_id:
                return msg
            if msg["t"] == "status" and self.links.fresh(s, msg) and not _holds(msg, round_id):
                return msg  # the cup does not know its turn (the line got lost, or the cup lost its flash)
            return None
        fresh = True
        while True:
            got = await self.links.wait_for(s, done_or_lost, fresh)
            fresh = False
            if got["t"] == "done":
                break
            self._lost_after_nonce(round_id, s)
            await self._start_turn(round_id, order, kind, lim, s, got)
        most = lim or self.rules.max_throws
        if not 1 <= got["throws"] <= most:  # its count would be the limit of the seats after it
            self.emit({"ev": "cheat", "round": round_id, "seat": s,
                       "reason": "stood after %d throws, %d at most allowed" % (got["throws"], most)})
            raise VoidThrow("cheat")
        self.emit({"ev": "done", "round": round_id, "seat": s, "throws": got["throws"],
                   "commit": got["commit"]})

    def _limit_of(self, round_id, kind, limit, pos):
        """The throws the seat at ``pos`` of the order may use: a throw-off's ``limit``; in a round None for
        the opener, and for the first seat to play when those before it were ruled out before their turn (the
        round has no turn event yet), else the round's (the first done's throws: TableState.limit)."""
        st = self.sink.state
        if kind == "throw_off":
            return limit
        return None if pos == 0 or st.round != round_id else st.limit

    def _lost_after_nonce(self, round_id, s):
        """A cup that no longer holds its turn after the host's nonce for one of its throws may have seen
        those dice: it is not given the turn again (a second chance at them), its throw is void."""
        p = self.sink.state.players[s]
        if self.sink.state.round == round_id and p.nonces:
            why = "lost its turn of round %d after the nonce of throw %d" % (round_id, max(p.nonces))
            self.links.fault(s, why)
            raise VoidThrow("lost")

    async def _start_turn(self, round_id, order, kind, lim, s, status):
        # Logged before the cup hears of it: the seed the cup sends at once belongs to this turn.
        self.emit({"ev": "turn", "round": round_id, "seat": s, "limit": lim, "kind": kind, "order": order})
        if status.get("seat") is None:
            await self.links.configure(s)  # a cup that lost its configuration refuses every turn
        msg = {"t": "turn", "round": round_id, "limit": lim}
        if status.get("state") not in ("idle", "revealed") and status.get("round") not in (None, round_id):
            msg["void"] = status["round"]  # back from a round the table ruled it out of: that turn is void
        await self.links.send(s, msg)

    async def _reveal_of(self, s, round_id, lim):
        """Wait for the seat's reveal and check it. None: a reveal event was logged; else why it is void."""
        st = self.sink.state
        p = st.players[s]
        problems = []
        # A wrong answer counts once per request: after asking again, what was already on its way (noise, a
        # burst of garbage) is passed over until the cup has answered a status asked just before the request.
        barrier = {"id": None}

        def answer(msg):
            kind = msg["t"]
            if kind == "revealed" and msg["round"] == round_id:
                return ("reveal", msg)
            if kind in ("revealed", "garbage"):
                detail = ("a reveal for round %s, not %d" % (msg["round"], round_id) if kind == "revealed"
                          else "a garbled line instead of the reveal: %s" % msg["msg"])
                return ("again" if barrier["id"] is None else "noise", detail)
            if kind == "status" and barrier["id"] is not None and msg.get("id", -1) >= barrier["id"]:
                barrier["id"] = None  # everything sent before the last request has arrived
            if kind == "status" and self.links.fresh(s, msg):
                # The request or the answer got lost on the way (a garbled line, a restarted cup).
                if not _holds(msg, round_id):
                    return ("lost", "the cup no longer holds its throw of round %d" % round_id)
                if msg["state"] == "revealed" or self.reveal_mode == "all":
                    return ("resend", "reveal")
                if msg["state"] == "done":
                    return ("resend", "round_end")
            if kind == "error" and msg.get("re") == "reveal":
                return ("ask", None)
            return None
        fresh = True
        while True:
            what, detail = await self.links.wait_for(s, answer, fresh)
            fresh = False
            if what == "reveal":
                break
            if what == "lost":
                self.links.fault(s, detail)
                return "lost"
            if what == "noise":
                self.links.fault(s, detail)
                continue
            if what == "ask":
                await self.links.ask_status(s, wait=False)
                continue
            if what == "again":
                self.links.fault(s, detail)
                problems.append(detail)
                if len(problems) >= REVEAL_TRIES:
                    self.emit({"ev": "cheat", "round": round_id, "seat": s,
                               "reason": "no valid reveal after %d requests: %s" % (REVEAL_TRIES, detail)})
                    return "cheat"
                await self.links.ask_status(s, wait=False)
                barrier["id"] = self.links.seats[s].link.ping_id
            if detail == "round_end":  # reveal "button": the player uncovers when the cup is armed
                await self.links.post(s, {"t": "round_end", "round": round_id})
                continue
            await self.links.post(s, {"t": "reveal", "round": round_id})
        rev = detail
        try:
            throw = hostside.check_reveal(self.rules, lim, p.commit, rev, stood=p.throws if p.done else None)
            if self.fair:
                fair.check_dice(rev.get("seed") or "", p.seed_hash or "", p.nonces, round_id,
                                rev["transcript"])
        except Exception as e:  # RuleError is the verdict; any other error: the reveal was malformed
            self.emit({"ev": "cheat", "round": round_id, "seat": s, "reason": check_error(e)})
            return "cheat"
        self.emit({"ev": "reveal", "round": round_id, "seat": s, "dice": rev["dice"], "throws": rev["throws"],
                   "hand": rev["hand"], "nonce": rev["nonce"], "transcript": rev["transcript"],
                   "seed": rev.get("seed"), "label": throw.label, "kind": throw.kind})
        return None

    async def reveals(self, round_id, order, kind, limit, seats):
        """The seats' reveals, each checked and logged as it arrives: an early one never waits behind a slower
        seat. Returns {seat: why void} for the seats whose throw is void."""
        async def reveal_of(s):
            lim = self._limit_of(round_id, kind, limit, order.index(s))
            try:
                return s, await self._reveal_of(s, round_id, lim)
            except Forfeit:
                return s, "absent"
        waits = [asyncio.ensure_future(reveal_of(s)) for s in seats]
        try:
            verdicts = await asyncio.gather(*waits)
        finally:
            for wait in waits:  # one that raised (not a verdict) ends the others' waits too
                wait.cancel()
        return {s: verdict for s, verdict in verdicts if verdict is not None}


def _holds(status, round_id):
    """The cup's status says it has (had) a turn in this round."""
    return status.get("round") == round_id and status.get("state") != "idle"


def check_error(e):
    """A reveal check's exception -> the reason to log. RuleError is a verdict; anything else raised while
    checking a cup's message means the message was malformed, which is as invalid as a forged one."""
    return str(e) if isinstance(e, RuleError) else "malformed reveal (%s: %s)" % (type(e).__name__, e)
