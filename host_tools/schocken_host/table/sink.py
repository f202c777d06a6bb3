"""The one way an event of a game travels: applied to the TableState, appended to the game log, shown to the
views, told to the listeners, in that order, and nowhere else.

The state comes first: what the rules refuse raises there (``LogError``) before anything is written, and what
the rules compute from the referee's event (a round's ranking and Deckel moves, a throw-off's opener, a
penalty's moves) is written into it there (``TableState.apply(ev, live=True)``), so it is computed once and
the log holds what the state applied. ``emit`` hands that state back: the referee reads a round's result from
it, and the views are given the same state with each event.
"""

import time

from schocken_host.i18n import refusal, tr


class EventSink:
    def __init__(self, state, log, ui):
        self.state = state            # the TableState every part of the game reads
        self.log = log                # the GameLog (append, on_disk)
        self.ui = ui                  # the views (table/view.View)
        self.lang = ui.lang
        self.listeners = []           # callables(ev) after each event is applied and shown: bots wait on them

    def emit(self, ev):
        """Apply, append, show, tell; returns the state the event was applied to."""
        self.state.apply(ev, live=True)   # first: what the rules refuse raises here, before it is written
        ev["ts"] = round(time.time(), 3)
        self.log.append(ev)
        self._show(ev)
        for listener in list(self.listeners):
            listener(ev)
        return self.state

    async def on_disk(self):
        """Everything emitted is on disk: what a cup hears of is in the record first. The views were shown
        each event before (``emit``): they never wait for the disk."""
        await self.log.on_disk()

    def _show(self, ev):
        try:
            self.ui.update(self.state, ev)
        except Exception as e:  # a view must never take the referee down with it
            self.note("%s: %s: %s" % (ev.get("ev"), type(e).__name__, e))

    def note(self, text):
        """A line for the people at the table (not an event: not logged)."""
        try:
            self.ui.note(text)
        except Exception:
            pass

    def say(self, key, **kw):
        """A note in the views' language (German unless the view says otherwise)."""
        self.note(tr(self.lang, key, **kw))

    def refused(self, seat_no, name, why):
        """A cup refused its person's button press: he sees why, in his language (``why``: the refusal's
        number, an error's ``why``, or a cup's English text: i18n.refusal)."""
        reason = refusal(self.lang, why)
        try:
            if not self.ui.refused(seat_no, reason):
                self.say("play.refused", name=name, reason=reason)
        except Exception as e:  # a view's bug is not the cup's fault, and must not end the pump
            self.note("refused: %s: %s" % (type(e).__name__, e))
