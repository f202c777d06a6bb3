"""Whether a seat's player is there, and when the table is asked about him (docs/gamelog.md ``absent``,
``wait``, ``forfeit``): a seat paused (its link lost, or silent) for longer than ``absent_timeout``, or on
turn for longer than ``turn_timeout``, is put to the table. ``wait N`` gives it the time again, ``forfeit N``
voids its part of the round; a table that says nothing within one more timeout has decided to forfeit."""


class Forfeit(Exception):
    """The table ruled that an absent (or endlessly slow) cup's player takes the round's Deckel."""


class Presence:
    """One seat's clocks, in loop time."""

    def __init__(self):
        self.since = 0.0              # the present task with the seat began (the turn timeout counts from it)
        self.away_since = None        # the seat was paused (link lost or silent)
        self.away_before = 0.0        # s the link was lost before in this task: a flapping cup's add up
        self.asked_at = None          # the table was asked about this seat
        self.asked_first = None       # ... first in the present task: its silence counts from there

    def new_task(self, now):
        self.since = now
        self.away_before = 0.0
        self.asked_at = self.asked_first = None


class PresencePolicy:
    """The seats' presence and the table's word on them. ``emit`` logs an event; ``decide(seat)`` is the
    table's answer ("wait", "forfeit" or None), taken once; ``round_now()`` the round the events belong to."""

    def __init__(self, emit, decide, round_now, absent_timeout=120.0, turn_timeout=600.0):
        self.emit = emit
        self.decide = decide
        self.round_now = round_now
        self.absent_timeout = absent_timeout  # seconds a cup may be gone or silent before the table is asked
        self.turn_timeout = turn_timeout      # seconds a present seat may take before the table is asked
        self.of = {}                          # seat -> Presence

    def __getitem__(self, seat_no):
        presence = self.of.get(seat_no)
        if presence is None:
            presence = self.of[seat_no] = Presence()
        return presence

    def check(self, seat_no, paused, now):
        """A waiting seat's time: a paused one against the absent timeout, a present one against the
        turn's."""
        presence = self[seat_no]
        if paused:
            self.ask_table(seat_no, presence.away_since or presence.since, self.absent_timeout, "absent", now)
        else:
            self.ask_table(seat_no, presence.since, self.turn_timeout, "slow", now)

    def ask_table(self, seat_no, start, timeout, why, now):
        """Past ``timeout`` since ``start``: the table is asked; its "wait" starts the time again, its
        "forfeit" (or no answer within the timeout again) raises Forfeit."""
        presence = self[seat_no]
        if timeout is None or now - start <= timeout:
            return
        if presence.asked_at is None:
            presence.asked_at = now
            if presence.asked_first is None:
                presence.asked_first = now
            self.emit({"ev": "absent", "seat": seat_no, "after": round(now - start), "reason": why})
        decision = self.decide(seat_no)
        if decision is None and now - presence.asked_first > timeout:
            # Nobody at the table answers: the wait ends all the same. Counted from the first question of the
            # task: a cup that comes back and drops out again is asked again, not given the time again.
            decision = "timeout"
        if decision == "wait":
            presence.asked_at = presence.asked_first = None
            self.emit({"ev": "wait", "seat": seat_no, "round": self.round_now()})
            presence.since = now
            presence.away_before = 0.0
            if presence.away_since is not None:
                presence.away_since = now
        elif decision in ("forfeit", "timeout"):
            presence.asked_at = presence.asked_first = None
            self.emit({"ev": "forfeit", "round": self.round_now(), "seat": seat_no,
                       "by": "table" if decision == "forfeit" else "timeout"})
            raise Forfeit(seat_no)
