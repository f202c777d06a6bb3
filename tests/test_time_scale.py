"""The emulated board's time scale (firmware/timescale.py, docs/emulation.md "Time scale"): cup time K times
faster than the wall clock, never jumping, and the board's `hold` line exact in cup time, so the unchanged
shake detector and button debouncer decide the same whatever the host's timing or the machine's load."""

import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import micropython_path, run_firmware_code
from boards import emulated

pytestmark = pytest.mark.skipif(micropython_path() is None, reason="needs the micropython unix port")

# A fake wall clock for the scaled clock (module globals of timescale.py, replaced under the unix port): the
# tests move real time by hand, stalls included, and see what cup time does.
FAKE_CLOCK = """
import timescale
T = [5000000]
timescale._real_us = lambda: T[0]
def advance(us):
    T[0] += us
"""


def test_scaled_clock_scale_carry_step_bound_and_wrap():
    out = run_firmware_code(FAKE_CLOCK + """
from timescale import ScaledClock, ticks_diff, ticks_add, STEP_MS
c = ScaledClock(20, start=2**30 - 100, idle=20)   # always fast
t = c.ticks_ms()
print("start", t == 2**30 - 100)
advance(500)                                   # 0.5 real ms = 10 cup ms at K = 20
print("scale", ticks_diff(c.ticks_ms(), t))
t = c.ticks_ms()
for i in range(3):                             # 3 x 17 us = 1020 cup us: the sub-ms rest is carried
    advance(17)
    print("carry", ticks_diff(c.ticks_ms(), t))
t = c.ticks_ms()
advance(100000)                                # a 100 ms stall: 2000 cup ms, but cup time moves one step
print("stall", ticks_diff(c.ticks_ms(), t), STEP_MS)
t = c.ticks_ms()
advance(250)
print("after", ticks_diff(c.ticks_ms(), t))    # and then runs at K again, without catching up
seen = []
for i in range(20):                            # across the wrap of 2**30: small ints, positive differences
    t = c.ticks_ms()
    advance(500)
    u = c.ticks_ms()
    seen.append((0 <= u < 2**30, ticks_diff(u, t), ticks_diff(ticks_add(t, 10), u)))
print("wrap", c.ticks_ms() < 1000, all(s == (True, 10, 0) for s in seen))
w = ScaledClock(20, idle=20, waits=True)       # the loop's clock: waits scaled, computing not
t = w.ticks_ms(); advance(3000); print("computed", ticks_diff(w.ticks_ms(), t))
t = w.ticks_ms(); advance(500); w.waited(10, 500); print("waited", ticks_diff(w.ticks_ms(), t))
t = w.ticks_ms(); advance(200); w.waited(10, 200); print("early", ticks_diff(w.ticks_ms(), t))
t = w.ticks_ms(); advance(90000); w.waited(10, 90000); print("late", ticks_diff(w.ticks_ms(), t))
t = w.ticks_ms(); advance(90000); print("stalled", ticks_diff(w.ticks_ms(), t))
a = ScaledClock(20)                            # fast only while the board is busy
t = a.ticks_ms(); advance(1000); print("idle", ticks_diff(a.ticks_ms(), t))
a.busy(100); t = a.ticks_ms(); advance(500); print("busy", ticks_diff(a.ticks_ms(), t))
for i in range(108):                           # 100 ms of input and TAIL_MS after it: the last step
    advance(500); a.ticks_ms()
t = a.ticks_ms(); advance(500); print("tail", ticks_diff(a.ticks_ms(), t))
advance(500); t = a.ticks_ms(); advance(1000); print("idle2", ticks_diff(a.ticks_ms(), t))
t = a.ticks_ms(); advance(90000); print("idle_stall", ticks_diff(a.ticks_ms(), t))  # the real clock's
t = a.ticks_ms(); advance(30000); a.waited(10, 30000); print("idle_late", ticks_diff(a.ticks_ms(), t))
one = ScaledClock(1, waits=True)               # K = 1: the real clock, bounded only while the board is busy
t = one.ticks_ms(); advance(90000); print("one_stall", ticks_diff(one.ticks_ms(), t))
one.busy(100); t = one.ticks_ms(); advance(90000); print("one_busy", ticks_diff(one.ticks_ms(), t))
t = one.ticks_ms(); advance(30000); one.waited(10, 30000); print("one_late", ticks_diff(one.ticks_ms(), t))
for i in range(60):                            # past the input and TAIL_MS after it: the real clock again
    advance(20000); one.ticks_ms()
t = one.ticks_ms(); advance(90000); print("one_idle", ticks_diff(one.ticks_ms(), t))
""")
    lines = dict(line.split(" ", 1) for line in out.split("\n") if line)
    assert lines["start"] == "True"
    assert lines["scale"] == "10"
    assert [x for x in out.split("\n") if x.startswith("carry")] == ["carry 0", "carry 0", "carry 1"]
    assert lines["stall"] == "20 20"
    assert lines["after"] == "5"
    assert lines["wrap"] == "True True"
    assert (lines["idle"], lines["busy"], lines["tail"], lines["idle2"]) == ("1", "10", "10", "1")
    assert (lines["computed"], lines["waited"], lines["early"]) == ("3", "10", "4")
    assert (lines["late"], lines["stalled"]) == ("10", "20")
    assert (lines["idle_stall"], lines["idle_late"]) == ("90", "30")
    one = (lines["one_stall"], lines["one_busy"], lines["one_late"], lines["one_idle"])
    assert one == ("90", "20", "10", "90")


# The board, the app's debouncer and its shake detector, polled as the app's loop does every 10 cup ms (each
# poll followed by the loop's wait for the next one, ScaledClock.waited), with a stall of the whole
# process of 100 real ms (2000 cup ms at K = 20 on a clock that scales all real time) in the middle of each
# input.
LOOP = FAKE_CLOCK + """
c = timescale.install(20)
from boards import emulated
from cup import clock
from cup.buttons import Buttons
from cup.shake import ShakeDetector
board = emulated.make_board(link=(None, None))
board.on_input = c.busy  # as emulate.py does: K while an input lasts
events = []
buttons = Buttons(lambda b, e, long: events.append((b, e, long, clock.ticks_ms())), 300)
detector = ShakeDetector("accel", "normal")
throws = []

def sleep10():  # the loop waits 10 cup ms for the next poll: 0.5 real ms at K = 20
    c.tick()
    advance(500)
    if c.waits:
        c.waited(10, 500)

def run(ms, stall_at=None):
    for i in range(ms // 10):
        if i == stall_at:
            advance(100000)
        buttons.poll(clock.ticks_ms(), board.read_buttons())
        if detector.feed_board(clock.ticks_ms(), board):
            throws.append(clock.ticks_ms())
        sleep10()
"""
# A clock that counts every real us K times, without a step bound (instead of timescale.install's).
NAIVE = """c = timescale.ScaledClock(20, idle=20, step_ms=10**6)
from cup import clock as shim
shim.ticks_ms, shim.ticks_diff, shim.ticks_add = c.ticks_ms, timescale.ticks_diff, timescale.ticks_add"""


def test_hold_is_exact_in_cup_time_through_a_stall():
    out = run_firmware_code(LOOP + """
run(100)
t0 = clock.ticks_ms()
board.apply_control("hold 3 150")              # a peek: shorter than the 300 ms long press
run(400, stall_at=7)
print("peek", [(b, e, l) for b, e, l, t in events])
print("span", clock.ticks_diff(events[1][3], events[0][3]))
del events[:]
board.apply_control("hold 0 450")              # a long press
run(800, stall_at=20)
print("long", [(b, e, l) for b, e, l, t in events])
print("err", board.apply_control("hold 4 100"), board.apply_control("hold 1 0"),
      board.apply_control("hold 1"))
del events[:]
board.apply_control("hold 3 450")              # a stand, and right after it a reveal press: the second hold
run(50)                                        # waits for the first one's release and a thumb's gap after it
board.apply_control("hold 3 60")
run(1000)
print("twice", [(b, e, l) for b, e, l, t in events])
print("gap", clock.ticks_diff(events[3][3], events[2][3]) >= emulated.HOLD_GAP_MS)
""")
    lines = dict(line.split(" ", 1) for line in out.split("\n") if line)
    assert lines["peek"] == "[(3, 1, False), (3, 2, False)]"           # press, release: never LONG (stand!)
    assert 150 <= int(lines["span"]) <= 150 + 20 + 10                  # one step of the stall, one poll
    assert lines["long"] == "[(0, 1, False), (0, 3, True), (0, 2, True)]"
    assert lines["err"].count("error: usage: hold N MS") == 3
    assert lines["twice"] == "[(3, 1, False), (3, 3, True), (3, 2, True), (3, 1, False), (3, 2, False)]"
    assert lines["gap"] == "True"


def test_shake_is_one_throw_through_a_stall_and_would_not_be_without_the_step_bound():
    code = LOOP + """
run(100)
board.apply_control("shake 400")
run(1500, stall_at=STALL)
print("throws", len(throws))
"""
    # The firmware is compiled from source here, and near 64 KB whether a module's compile finds room depends
    # on every source's size (the second run passes at 60 and 68 KB and fails at some of 64 to 66): the heap
    # leaves the compiler room, the clock is what is tested.
    assert "throws 1" in run_firmware_code(code.replace("STALL", "20"), heap="96k")
    # The same stall on a clock that scales all real time and jumps: 2000 ms between two samples of one shake.
    assert "throws 0" in run_firmware_code(code.replace("c = timescale.install(20)", NAIVE)
                                           .replace("STALL", "20"), heap="96k")


def test_hold_on_cpython_board_and_usage():
    b = emulated.make_board(link=(None, None))
    assert b.apply_control("hold 2 60") is None
    assert b.read_buttons() == 0b100
    assert b.apply_control("release 2") is None and b.read_buttons() == 0  # an explicit edge ends the hold
    for bad in ("hold", "hold 2", "hold 9 60", "hold 2 0", "hold 2 60001", "hold x 60", "hold 2 60 1"):
        assert b.apply_control(bad).startswith("error: usage: hold"), bad


def wait_frame(cup, since, check, timeout=10.0):
    """The cup's first LED frame after the first ``since`` whose dice pass ``check`` (else the test fails)."""
    from schocken_host.links import ledframe
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for frame in cup.frames_since(since):
            if check(ledframe.decode(frame)["dice"]):
                return frame
        time.sleep(0.005)
    raise AssertionError("no such frame: %s" % [ledframe.decode(f)["dice"] for f in cup.frames_since(since)])


def test_an_emulated_cup_stalled_mid_shake_throws_once():
    """An EmulatedCup at K = 1 runs on the scaled clock: the process stopped five times for 0.3 s in one
    shake (a loaded machine) is one throw. A vibration switch shows why: the emulated board hands out the
    shake's samples as they are read, so on the port's own clock (``port_clock=True``, as the heap benches
    run) a stall looks like 80 ms without chatter, the throw is final there, and the rest of the shake throws
    again. (On the port's clock this test fails on a quiet machine; a loaded one may also spread the samples
    until no shake is seen at all, so the port's clock has no test of its own here: the loop's clock above
    shows the same with a clock of the test's.)"""
    from kits.cupkit import CupDriver
    drv = CupDriver(sensor="switch")
    try:
        drv.start()
        drv.request(t="turn", round=1, limit=None)
        drv.cup.control("dice 1 4 2")
        drv.cup.shake(4000)
        for _ in range(5):
            time.sleep(0.5)
            drv.cup.freeze()
            time.sleep(0.3)
            drv.cup.thaw()
        assert drv.recv("progress")["throws"] == 1  # when the shake is over, however slow the machine
        assert drv.quiet(1.5) == []
    finally:
        drv.close()


def test_a_press_while_a_line_comes_in_is_seen():
    """The loop reads a line 31 bytes at a time; in cup time the buttons still get their polls meanwhile
    (App.serve and timescale._wait): a 60 ms press sent while 4000 bytes arrive on the link is seen and
    reveals."""
    from kits.cupkit import CupDriver
    drv = CupDriver(time_scale=50)
    try:
        drv.start()
        for r in (1, 2, 3):
            drv.request(t="turn", round=r, limit=None)
            drv.cup.shake(400)
            drv.recv("progress")
            drv.cup.hold(3, 450)
            drv.recv("done")
            drv.request(t="round_end", round=r)
            drv.send_raw(b"\n" * 4000)  # blank lines: the app reads and drops them, one byte at a time
            drv.cup.hold(3, 60)
            assert drv.recv("revealed", timeout=10)["round"] == r
            drv.request(t="outcome", round=r, result="won", deckel=0, middle=13)
    finally:
        drv.close()


@pytest.fixture
def burner():
    """Another process burning a core while the test runs (the load of a busy two-core machine)."""
    proc = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    yield proc
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)


def test_a_cup_under_load_counts_every_shake_and_press_in_cup_time(burner):
    """A hosted cup at K = 25, ten turns of shake, peek (a short hold of the main button: a long one would
    stand), set aside, shake, stand, with a process burning a core: every shake is one throw, no peek stands,
    every long press stands."""
    from kits.cupkit import CupDriver
    drv = CupDriver(time_scale=25)
    try:
        drv.start()
        for r in range(1, 11):
            drv.request(t="turn", round=r, limit=None)
            drv.cup.control("dice 1 4 2")
            drv.cup.shake(400)
            assert drv.recv("progress")["throws"] == 1
            n = drv.cup.frame_count
            drv.cup.hold(3, 150)
            wait_frame(drv.cup, n, lambda dice: dice == [1, 4, 2])      # the dice while peeking...
            wait_frame(drv.cup, n, lambda dice: dice == [0, 0, 0])      # ...and covered again
            drv.cup.hold(0, 60)
            p = drv.recv("progress")
            assert (p["throws"], p["public"]) == (1, [[0, 1]]), p
            drv.cup.control("dice 5 5")
            drv.cup.shake(400)
            assert drv.recv("progress")["throws"] == 2
            drv.cup.hold(3, 450)
            done = drv.recv("done")
            assert done["throws"] == 2
            drv.request(t="round_end", round=r)
            rev = drv.request("revealed", t="reveal", round=r)
            assert rev["dice"] == [1, 5, 5] and rev["throws"] == 2
            drv.request(t="outcome", round=r, result="won", deckel=0, middle=13)
        assert not [m for m in drv.quiet(0.1) if m["t"] == "error"]
        assert drv.cup.control_errors == []
    finally:
        drv.close()


def test_full_default_bot_game_in_scaled_time(tmp_path):
    """`schocken play --emulate 4 --strategy fast --time-scale K`: standard rules, all 13 Deckel, fair play,
    authenticated links. It ends, every throw is checked, the log replays to the live standings, and no bot
    ever waited in vain (each of its inputs had its effect)."""
    import json
    from kits import tablekit
    lab = tablekit.Lab(tmp_path)
    try:
        game = lab.game("full", strategy="fast").result(tablekit.GAME_TIMEOUT + 30)
    finally:
        lab.close()
    st = game.state
    assert game.ui.errors == [] and st.over and st.loser is not None
    log = tablekit.read_log(game.log)
    start = log[0]
    assert start["fair"] is True and start["rules"]["preset"] == "standard" and len(start["players"]) == 4
    assert "deckel_total" not in start["rules"].get("options", {})          # the full 13 Deckel
    assert log[-1]["ev"] == "game_over" and log[-1]["loser"] == st.loser
    assert not tablekit.events(log, "cheat") and not tablekit.events(log, "pause")
    turns = sum(len(e["order"]) for e in tablekit.events(log, "round"))
    throw_offs = len([s for e in tablekit.events(log, "throw_off") for s in e["seats"]])
    assert len(tablekit.events(log, "reveal")) == turns + throw_offs
    assert tablekit.replay_json(game.log) == json.loads(json.dumps(st.standings()))
    assert [game.cup(s).bot.errors for s in range(4)] == [[]] * 4


@pytest.mark.parametrize("argv", [["--port", "/dev/null", "--emulate", 2, "--time-scale", 5],
                                  ["--emulate", 2, "--time-scale", 0]])
def test_time_scale_only_for_emulated_cups(tmp_path, argv):
    """A real cup keeps its own clock: a time scale with one at the table is one clear line, no cup started.
    (A person at an emulated cup plays at any scale: tests/test_soak.py plays him at 20.)"""
    from kits import tablekit
    proc = tablekit.schocken("play", "--plain", *argv, env=dict(os.environ, SCHOCKEN_LOG_DIR=str(tmp_path)))
    err = proc.stderr.strip().splitlines()
    assert proc.returncode != 0 and len(err) == 1 and "--time-scale" in err[0], proc.stderr
    assert not list(tmp_path.glob("*.jsonl"))
