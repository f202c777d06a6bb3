"""The game as the web view holds it: every event in log order as its JSON line (an event's id is its place in
the log, 1 for the start), the TableState the page's model reads, and what the page keeps beside it
(model.Tracker). Browsers subscribe and are woken after each event.

Where the state comes from depends on who plays the game. A game this host plays (`schocken play --web`) hands
each event with the referee's own state, already applied by table/sink.py (``live``): the page reads that
state, and no event is applied twice. A log the hub did not play (`schocken watch`, ``follow``; a resumed
game's earlier events, ``read_lines``) is replayed into a TableState of the hub's own (table/replay.py: the
first event refused stops it, and is named on the page)."""

import asyncio
import json
import os
import time

from schocken_host.table.coach import Coach
from schocken_host.table.replay import Replay
from schocken_host.views.web.model import Tracker, view

FOLLOW_S = 0.2          # how often a followed log is looked at
# The browsers' work shares the game's event loop: after they were woken, the next wake waits this many times
# as long as their work took (at most WAKE_WAIT_MAX_S), so that they take at most a fifth of the loop however
# many they are, and the events that came meanwhile go in one burst. A few pages take a millisecond: no wait
# to see; 256 pages under a flood take tens of milliseconds, and the referee keeps its pace.
WAKE_WAIT_FACTOR = 4
WAKE_WAIT_MAX_S = 1.0


class Hub:
    """``coach``: the model gets a "coach" field (table/coach.py), the answer for the seat on turn."""

    def __init__(self, coach=False, on_event=None):
        self.lines = []              # each event as its JSON text, made once for every browser
        self._messages = []          # each event as its Server-Sent Events message (bytes), made once
        self.tracker = Tracker()
        # The page's model must never stop a game: what it cannot take is a refusal too, named on the page.
        self.replay = Replay(apply=self._replayed, refusals=(KeyError, TypeError, ValueError, IndexError))
        self.state = self.replay.state   # the live game's own once ``live`` hands it
        self.subscribers = set()     # asyncio.Event of each open browser connection
        self._wake = None            # the browsers' next wake (a timer handle), while one is due
        self._woken_at = 0.0
        self.work_s = 0.0            # how long the browsers' work took after they were last woken
        self._view = None
        self._view_text = None
        self._view_message = None
        self.version = 0             # the model's version: a new event, or a coach's answer
        self.coach = Coach(on_ready=self._changed) if coach else None
        self.on_event = on_event     # (state, ev) after each event the state took: `watch` in a terminal

    def _changed(self):
        """The model changed without an event (a coach's answer came): every browser gets it again."""
        self._view = None
        self._view_text = None
        self._view_message = None
        self.version += 1
        self.wake()

    def wake(self):
        """Every browser woken to take what changed: at once when none was woken lately, else after
        WAKE_WAIT_FACTOR times their last work (what changes meanwhile comes with it)."""
        if self._wake is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:         # no loop runs: no browser waits either
            return
        self._wake = loop.call_later(min(WAKE_WAIT_MAX_S, WAKE_WAIT_FACTOR * self.work_s), self._wake_now)

    def _wake_now(self):
        self._wake = None
        if not self.subscribers:
            self.work_s = 0.0
            return
        for woken in list(self.subscribers):
            woken.set()
        # each woken browser's turn is queued now; this comes right after them all: their work's time
        self._woken_at = time.perf_counter()
        asyncio.get_running_loop().call_soon(self._woken_done)

    def _woken_done(self):
        self.work_s = time.perf_counter() - self._woken_at

    def close(self):
        """No more wakes (the server stops)."""
        if self._wake is not None:
            self._wake.cancel()
            self._wake = None

    @property
    def game_id(self):
        return self.state.game_id

    @property
    def error(self):
        """The first line refused (not an event, or the rules refuse its event): (line, text), else None."""
        if self.replay.refused is None:
            return None
        return self.replay.refused[0], str(self.replay.refused[1])

    @property
    def count(self):
        """The events the hub holds: the id of the last one."""
        return len(self.lines)

    def _replayed(self, ev):
        """An event of a log: the hub's own state applies it."""
        self.state.apply(ev)
        self.tracker.update(self.state, ev)

    def _tracked(self, ev):
        """An event the live game's state has applied already: only the tracker follows it."""
        self.tracker.update(self.state, ev)

    def feed(self, ev):
        """One event of a log the hub replays (a copy is applied); never raises: an event the state refuses is
        kept and named, and the events after it are kept, not applied."""
        line = _text(ev)
        self._take(json.loads(line), line)

    def live(self, state, ev):
        """One event of the game this host plays, already applied to ``state`` (the referee's, handed on by
        table/sink.py): from now on the page reads that state (a resumed game's replayed one gives way to it)
        and the hub applies nothing; never raises: what the tracker cannot take is named as a refused
        line."""
        if state is not self.state:
            self.state = state
            self.replay.apply = self._tracked
        self._take(ev, _text(ev))

    def _take(self, ev, line):
        self.lines.append(line)
        if self.replay.event(ev) and self.on_event is not None:
            self.on_event(self.state, ev)
        self._changed()

    def view(self):
        """The page's model as of the last event (made once per burst)."""
        if self._view is None:
            self._view = view(self.state, self.tracker, self.count)
            if self.error is not None:
                self._view["error"] = {"line": self.error[0], "text": self.error[1]}
            if self.coach is not None:
                self._view["coach"] = self.coach.advice(self.state)
        return self._view

    def view_text(self):
        """The page's model as JSON text (made once per burst for every browser)."""
        if self._view_text is None:
            self._view_text = _text(self.view())
        return self._view_text

    def messages(self, first, end):
        """The Server-Sent Events messages of events ``first`` to ``end`` (ids from 1), then the model as of
        now: bytes made once for every browser, however many there are."""
        for i in range(len(self._messages), end):
            self._messages.append(b"id: %d\nevent: ev\ndata: %s\n\n" % (i + 1, self.lines[i].encode("utf-8")))
        if self._view_message is None:
            self._view_message = b"event: view\ndata: %s\n\n" % self.view_text().encode("utf-8")
        return self._messages[first:end] + [self._view_message]

    def standings(self):
        return self.state.standings() if self.state.game is not None else None

    def log_text(self):
        return "".join(line + "\n" for line in self.lines)

    # --- a log file --------------------------------------------------------------------------------------
    def read_lines(self, path, offset):
        """Feed the complete lines of ``path`` past byte ``offset``; returns the new offset. A torn last line
        waits for its end; a file cut shorter (a resumed host repaired its torn tail) is read on from
        there."""
        try:
            size = os.path.getsize(path)
        except OSError:
            return offset
        if size < offset:
            offset = size
        if size == offset:
            return offset
        with open(path, "rb") as f:
            f.seek(offset)
            data = f.read(size - offset)
        end = data.rfind(b"\n")
        if end < 0:
            return offset
        refused = self.replay.refused
        at = offset
        for line in data[:end].split(b"\n"):
            ev = self.replay.event_of(line, offset=at)
            at += len(line) + 1
            if ev is not None:
                self.feed(ev)
        if self.replay.refused is not refused:  # a line that is no event: the page names it
            self._changed()
        return offset + end + 1

    async def follow(self, path, offset=0, until=None):
        """Read ``path`` as it grows, as long as the task runs or until ``until()`` is true after a read."""
        while True:
            offset = self.read_lines(path, offset)
            if until is not None and until():
                return
            await asyncio.sleep(FOLLOW_S)


def _text(data):
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
