"""A dependable table: faults a real table sees, through the real path (emulated cups on the MicroPython unix
port, the host's referee, the real game log). Each fault must end in a reported, logged decision within a
bounded time, never in a freeze, a crash or an accusation of an honest cup.

All games of this module start together (tests/kits/tablekit.py) and run side by side; each test waits for its
own.
"""

import io
import json
import os
import threading
import time

import pytest
import serial

from conftest import micropython_path
from schocken_host.links.serial import SerialLink
from schocken_host.views.plain import PlainUI
from kits import tablekit
from kits.tablekit import arm_at_first_round, finished

pytestmark = pytest.mark.skipif(micropython_path() is None, reason="needs the micropython unix port")

SHORT = {"settings": {"deckel_total": 2}, "strategy": "fast"}
MALFORMED = [  # signed by the cup, valid JSON, wrong inside: each a fault, none a crash
    {"t": "progress", "round": 1, "throws": 1, "public": [5], "event": "aside"},
    {"t": "progress", "round": 1, "throws": 1, "public": [[0, {}]], "event": "aside"},
    {"t": "progress", "round": 1, "throws": 1, "public": [[9, 1], [9, 1]], "event": "aside"},
    {"t": "progress", "round": 1, "throws": 99, "public": [], "event": "aside"},
    {"t": "done", "round": 1, "throws": -1, "commit": "ab"},
    {"t": "shake", "round": 1, "throw": 7, "public": []},
    {"t": "status", "state": "turn", "round": 1, "throws": 0, "public": [[0]], "seat": 1, "name": "x"},
]


class PlainRecording(tablekit.RecordingUI):
    """The plain view the CLI uses, fed every event the referee emits (the view that died on a bad
    message)."""

    def __init__(self, hook=None):
        super().__init__(hook)
        self.plain = PlainUI("en", out=io.StringIO())

    def update(self, state, ev):
        self.plain.update(state, ev)
        super().update(state, ev)


class RaisingUI(tablekit.RecordingUI):
    """A view with a bug: every progress event raises. The referee must play on."""

    def update(self, state, ev):
        super().update(state, ev)
        if ev["ev"] == "progress":
            raise RuntimeError("a view bug")


def inject_malformed(ui, st, ev):
    if ev["ev"] == "turn" and ev.get("kind") == "round" and "injected" not in ui.data and ev["seat"] == 1:
        ui.data["injected"] = ev["round"]
        for msg in MALFORMED:
            ui.game.cup(1).control("inject " + json.dumps(dict(msg, round=ev["round"])))


def arm_before_throw_off(ui, st, ev):
    if ev["ev"] == "start":
        ui.game.cup(2).control("cheat dice always")


def restart_before_nonce(ui, st, ev):
    """The host has logged the nonce of seat 1's second throw and is about to send it: the cup restarts first,
    so it comes back waiting for a nonce it never got."""
    if (ev["ev"] == "nonce" and ev["seat"] == 1 and "restarted" not in ui.data and st.round_kind == "round"):
        ui.data["restarted"] = dict(ev)
        ui.game.cup(1).restart()


def freeze_after_done(ui, st, ev):
    """Seat 2's cup stops answering right after it stood (a board whose app crashed to the REPL), and comes
    back once the table has ruled."""
    if ev["ev"] == "done" and ev["seat"] == 2 and "frozen" not in ui.data and st.round_kind == "round":
        ui.data["frozen"] = ev["round"]
        ui.game.cup(2).freeze()
    elif ev["ev"] == "forfeit" and "frozen" in ui.data and "thawed" not in ui.data:
        ui.data["thawed"] = ev["round"]
        ui.game.cup(2).thaw()


def steal_lines(ui, st, ev):
    """Another program opens seat 0's port during the game: a second host (pyserial, asking for the port
    exclusively) is refused; a program that asks for no lock (as root, so TIOCEXCL lets it in too) reads
    from the port for a while, taking whatever lines it gets."""
    if ev["ev"] == "turn" and st.round >= 2 and ev["seat"] == 0 and "thief" not in ui.data:
        port = ui.game.cup(0).port
        try:
            serial.Serial(port, exclusive=True).close()
            ui.data["thief"] = "opened"
        except (serial.SerialException, OSError) as e:
            ui.data["thief"] = "refused: %s" % e

        def read():
            try:
                fd = os.open(port, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
            except OSError as e:
                ui.data["raw"] = "refused: %s" % e
                return
            stolen, end = 0, time.monotonic() + 3
            while time.monotonic() < end:
                try:
                    stolen += len(os.read(fd, 4096))
                except BlockingIOError:
                    time.sleep(0.005)
                except OSError:
                    break
            os.close(fd)
            ui.data["raw"] = "stole %d bytes" % stolen
        threading.Thread(target=read, daemon=True).start()


def garbage_burst_before_reveal(ui, st, ev):
    """Everyone has stood: seat 1's line carries a burst of garbage just as the reveals are asked for."""
    if (ev["ev"] == "done" and st.order and ev["seat"] == st.order[-1] and "burst" not in ui.data
            and st.round_kind == "round"):
        ui.data["burst"] = ev["round"]
        for k in range(5):
            ui.game.cup(1).control("inject {noise %d" % k)  # a "{" line: not REPL noise the host skips


def slow_first_reveal(ui, st, ev):
    """Everyone has stood: the cup of the round's first seat stops answering until every other reveal of the
    round is logged. Taken in seating order, the referee would wait on it and the others' reveals with it."""
    if (ev["ev"] == "done" and st.round_kind == "round" and st.order and ev["seat"] == st.order[-1]
            and "frozen" not in ui.data):
        ui.data["frozen"] = {"round": ev["round"], "seat": st.order[0]}
        ui.game.cup(st.order[0]).freeze()
    frozen = ui.data.get("frozen")
    if frozen and "thawed" not in ui.data and ev["ev"] == "reveal" and ev["round"] == frozen["round"]:
        others = {e["seat"] for e in ui.events if e["ev"] == "reveal" and e.get("round") == frozen["round"]}
        if len(others - {frozen["seat"]}) == len(st.order) - 1:
            ui.data["thawed"] = True
            ui.game.cup(frozen["seat"]).thaw()


GAMES = {
    "malformed": ({"opener": 0}, inject_malformed, PlainRecording),
    "view-bug": ({"opener": 0}, None, RaisingUI),
    "reveal-round": ({"opener": 0}, arm_at_first_round(1, "cheat round"), None),
    "reveal-round-always": ({"opener": 0, "cheat": "replay"},
                            arm_at_first_round(1, "cheat round always"), None),
    "garbage-once": ({"opener": 0}, arm_at_first_round(1, "cheat garbage"), None),
    "garbage-burst": ({"opener": 0}, garbage_burst_before_reveal, None),
    "malformed-transcript": ({"opener": 0, "cheat": "deckel"}, arm_at_first_round(1, "cheat malformed"),
                             None),
    "throw-off-always": ({"cheat": "deckel"}, arm_before_throw_off, None),
    "nonce-restart": ({"opener": 0}, restart_before_nonce, None),
    "silent": ({"opener": 0, "absent_timeout": 2.0}, freeze_after_done, None),
    "thief": ({"opener": 0}, steal_lines, None),
    "slow-reveal": ({"opener": 0}, slow_first_reveal, None),
}


SENT = {}  # port -> the types of the messages the host sent there


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    send = SerialLink.send

    async def recording(self, msg):
        SENT.setdefault(self.port, []).append(msg["t"])
        return await send(self, msg)
    SerialLink.send = recording
    lab = tablekit.Lab(tmp_path_factory.mktemp("faults"))
    for name, (config, hook, ui_class) in GAMES.items():
        lab.game(name, hook=hook, cups=3, ui_class=ui_class, **config, **SHORT)
    yield lab
    lab.close()
    SerialLink.send = send


def test_malformed_messages_are_faults_of_their_cup(lab):
    game, log = finished(lab, "malformed")
    faults = [e for e in tablekit.events(log, "fault") if e["seat"] == 1]
    assert len(faults) >= len(MALFORMED), faults
    assert not tablekit.events(log, "cheat")
    assert not [n for n in game.ui.notes if "Error" in n or "error" in n.lower()], game.ui.notes
    assert game.ui.plain.out.getvalue().count("faulty message") >= len(MALFORMED)


def test_a_view_that_raises_does_not_stop_the_game(lab):
    game, log = finished(lab, "view-bug")
    assert tablekit.events(log, "progress")
    assert any("a view bug" in n for n in game.ui.notes)


def test_a_reveal_naming_another_round_is_asked_again(lab):
    game, log = finished(lab, "reveal-round")
    armed = game.ui.data["armed"]
    assert not tablekit.events(log, "cheat")
    assert [e for e in tablekit.events(log, "fault") if e["round"] == armed and "for round" in e["reason"]]
    assert [e for e in tablekit.events(log, "reveal") if e["round"] == armed and e["seat"] == 1]


def test_a_garbled_reveal_is_asked_again_not_flagged(lab):
    """A line garbled on the way is no proof of cheating: the host asks again and the honest reveal counts."""
    game, log = finished(lab, "garbage-once")
    armed = game.ui.data["armed"]
    assert not tablekit.events(log, "cheat")
    assert [e for e in tablekit.events(log, "fault") if e["round"] == armed and "garbled" in e["reason"]]
    assert any(e["ev"] == "round" and e["round"] == armed for e in log)


def _longest_run_of_replays(log):
    run = best = 0
    for e in log:
        if e["ev"] == "replay_round":
            run += 1
            best = max(best, run)
        elif e["ev"] in ("round", "throw_off", "opener"):
            run = 0
    return best


def test_a_cup_that_always_fails_its_reveal_is_bounded(lab):
    from schocken_host.table.referee import MAX_REPLAYS
    game, log = finished(lab, "reveal-round-always")
    cheats = tablekit.events(log, "cheat")
    assert cheats and all(e["seat"] == 1 and "no valid reveal" in e["reason"] for e in cheats)
    assert 0 < _longest_run_of_replays(log) <= MAX_REPLAYS - 1
    decided = [e for e in tablekit.events(log, "round") if 1 in e["forfeit"]]
    assert decided and all(e["worst"] == 1 for e in decided)


def test_a_malformed_transcript_is_an_invalid_reveal(lab):
    game, log = finished(lab, "malformed-transcript")
    cheat, = tablekit.events(log, "cheat")
    assert cheat["seat"] == 1 and "step" in cheat["reason"], cheat


def test_a_throw_off_with_a_cup_that_always_cheats_ends(lab):
    from schocken_host.table.referee import MAX_REPLAYS
    game, log = finished(lab, "throw-off-always")
    opener = tablekit.events(log, "opener")
    assert opener and opener[0]["seat"] == 2 and opener[0]["reason"] == "throw_off_void", opener
    assert len(tablekit.events(log, "replay_round")) >= MAX_REPLAYS - 1
    assert _longest_run_of_replays(log) <= MAX_REPLAYS - 1


def test_a_cup_restarted_before_its_nonce_gets_the_same_nonce(lab):
    game, log = finished(lab, "nonce-restart")
    ev = game.ui.data["restarted"]
    assert not tablekit.events(log, "cheat")
    nonces = [e for e in tablekit.events(log, "nonce")
              if (e["round"], e["seat"], e["throw"]) == (ev["round"], ev["seat"], ev["throw"])]
    assert [n["nonce"] for n in nonces] == [ev["nonce"]]       # logged once: no second chance at the dice
    reveal, = [e for e in tablekit.events(log, "reveal") if e["round"] == ev["round"] and e["seat"] == 1]
    assert reveal["throws"] >= ev["throw"]
    assert [e for e in tablekit.events(log, "pause") if e["seat"] == 1]


def test_a_silent_cup_is_paused_and_ruled_on(lab):
    game, log = finished(lab, "silent")
    pauses = [e for e in tablekit.events(log, "pause") if e["seat"] == 2]
    assert pauses and pauses[0]["reason"].startswith("silent"), pauses
    absent, = [e for e in tablekit.events(log, "absent") if e["seat"] == 2][:1]
    forfeit = [e for e in tablekit.events(log, "forfeit") if e["seat"] == 2]
    assert forfeit and forfeit[0]["by"] == "timeout"  # nobody at this table answers: bounded all the same
    assert [e for e in tablekit.events(log, "resume") if e["seat"] == 2]  # it came back after the thaw
    assert not tablekit.events(log, "cheat")
    rnd = [e for e in tablekit.events(log, "round") if e["round"] == forfeit[0]["round"]]
    assert rnd and 2 in rnd[0]["forfeit"] and rnd[0]["worst"] == 2


def test_a_program_on_a_cup_port_changes_nothing(lab):
    game, log = finished(lab, "thief")
    assert game.ui.data["thief"].startswith("refused"), game.ui.data  # the port is held exclusively
    assert "raw" in game.ui.data
    assert not tablekit.events(log, "cheat")


def test_a_burst_of_garbage_at_the_reveal_accuses_nobody(lab):
    """Garbage already on its way when the host asks again is no second wrong answer: an honest cup on a noisy
    line keeps its throw."""
    game, log = finished(lab, "garbage-burst")
    burst = game.ui.data["burst"]
    assert not tablekit.events(log, "cheat")
    assert len([e for e in tablekit.events(log, "fault") if e["round"] == burst and e["seat"] == 1]) >= 3
    assert [e for e in tablekit.events(log, "reveal") if e["round"] == burst and e["seat"] == 1]


def test_each_reveal_is_taken_as_it_arrives(lab):
    """The referee uncovers every cup at once and checks and logs each reveal on arrival: a first seat slow to
    answer holds up nobody, and is neither paused nor accused for it. With reveal "all" the cups get no
    round_end (the cup uncovers from "done"; docs/protocol.md)."""
    game, log = finished(lab, "slow-reveal")
    frozen = game.ui.data["frozen"]
    assert game.ui.data.get("thawed"), "the other reveals never came while the first seat was silent"
    reveals = [e["seat"] for e in tablekit.events(log, "reveal") if e["round"] == frozen["round"]]
    assert reveals[-1] == frozen["seat"] and len(reveals) == 3, reveals
    assert not tablekit.events(log, "cheat")
    assert not [e for e in log if e["ev"] in ("pause", "absent", "forfeit")]
    for seat in range(3):
        sent = SENT[game.cup(seat).port]
        assert "reveal" in sent and "round_end" not in sent, sent
