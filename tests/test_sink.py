"""The one way an event travels (table/sink.py): the state first, then the log, the views and the listeners; a
round ranked once, by the state, and logged with the result the state applied."""

import pytest

from schocken_host.table.sink import EventSink
from schocken_host.table.state import LogError
from schocken_host.table.view import View

from kits.scorekit import Table

PLAYS = {0: ([6, 6, 6], 1, []), 1: ([4, 2, 1], 1, []), 2: ([3, 2, 2], 1, [])}


class Recording(View):
    lang = "en"

    def __init__(self, steps):
        self.steps = steps

    def append(self, ev):
        self.steps.append(("log", dict(ev)))

    async def on_disk(self):
        pass

    def note(self, text):
        self.steps.append(("note", text))

    def update(self, state, ev):
        self.steps.append(("view", state, ev["ev"]))


def a_round_under_way():
    """A TableState with a round played up to its reveals, and the round's id and order."""
    table = Table()
    table.start(opener=0)
    order = table.st.game.order()
    round_id = table.next_round()
    table.emit_all(table.turn_events(round_id, order, PLAYS) + table.reveal_events(round_id, order, PLAYS))
    return table.st, round_id, order


def test_a_round_is_ranked_by_the_state_and_logged_with_what_it_applied():
    st, round_id, order = a_round_under_way()
    steps = []
    sink = EventSink(st, Recording(steps), Recording(steps))
    sink.listeners.append(lambda ev: steps.append(("listener", ev["ev"])))
    entries = [[PLAYS[s][0], 1, True] for s in order]
    applied = sink.emit({"ev": "round", "round": round_id, "order": order, "entries": entries, "forfeit": []})
    assert applied is st and st.last_round["worst"] == 2 and st.last_round["best"] == 0   # Schock out, 322
    logged = steps[0][1]
    assert [s[0] for s in steps] == ["log", "view", "listener"] and steps[1][1] is st
    assert list(logged)[-6:] == ["ranking", "best", "worst", "deckel", "moves", "ts"]   # as before
    # The logged line replays: a reader checks the result against the rules instead of computing it.
    again, _, _ = a_round_under_way()
    again.apply({k: v for k, v in logged.items()})
    assert again.standings() == st.standings()


def test_what_the_rules_refuse_is_neither_applied_nor_logged_nor_shown():
    st, round_id, order = a_round_under_way()
    steps = []
    sink = EventSink(st, Recording(steps), Recording(steps))
    with pytest.raises(LogError):
        sink.emit({"ev": "einwuerfeln", "seat": 0})   # standard rules have no Einwürfeln
    with pytest.raises(LogError):
        sink.emit({"ev": "round", "round": round_id, "order": order[::-1], "entries": [], "forfeit": []})
    assert steps == [] and st.last_round is None


def test_a_logged_round_without_its_result_is_refused():
    """Only the referee's own (live) events are ranked by the state; a log line must carry its result."""
    st, round_id, order = a_round_under_way()
    entries = [[PLAYS[s][0], 1, True] for s in order]
    with pytest.raises(LogError, match="ranking is missing"):
        st.apply({"ev": "round", "round": round_id, "order": order, "entries": entries, "forfeit": []})
    assert st.last_round is None and st.closed == 0
