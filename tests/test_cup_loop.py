"""The serial cup's loop (cup/app.py ``App.serve``, ``App.tick``) on the unix port: it takes nothing from the
heap between events, frames included, and a sensor that fails at every read stops neither the buttons nor
the LEDs.

``micropython.heap_lock()`` (tests/test_shake.py, test_leds.py, test_roller.py) proves that the hot paths
make no object: a float, a tuple, a bound method would raise MemoryError. It cannot see a call's frame:
MicroPython takes the frame of a function whose state (locals, stack, three words per ``try``) is more than
11 words from the heap and gives it back at the return, and falls back to the C stack silently when the heap
has no room, as it has none under heap_lock. Given back at once, such a frame leaves no garbage, but on a heap
with no hole that large after a collection (at 64 KB the largest is 200 to 300 bytes: docs/firmware.md) every
such call first collects the whole heap, in a loop that runs 100 times a second.

Here the real ``App.serve`` runs on the emulated board under the unix port; a channel of its loop fills the
heap with garbage (the collector off, then on again) and counts passes: any allocation from then on, a frame
too, finds no free block and sets off a collection, which frees the garbage. So the free heap must stay as
the filling left it, pass after pass, while the cup rests, is shaken, flashes a LED and has a button held.

The loop runs on a clock of the test's own (``CLOCK``): each of the loop's waits moves it by what the wait
asks and returns at once, so passes are 10 ms apart in the cup's time whatever the machine's load. The
emulated board gives a shake one sample a pass: on the wall clock a loaded machine spreads them out until the
shake detector takes them for no shake at all, and the run proves nothing."""

import os

import types

import pytest

from conftest import run_firmware_code

# The cup's clock in the probe: cup time moves only by the loop's waits (put into cup.clock before the app is
# imported, as timescale.py puts its clock). Small ints only: it takes no heap either.
CLOCK = """
from cup import clock
_now = [0]

def _ticks_ms():
    return _now[0]

def _wait(poller, ms):
    if ms > 0:
        _now[0] += ms
    for _ in poller.ipoll(0):
        break

clock.ticks_ms = _ticks_ms
clock.wait = _wait
"""

# In MicroPython. ``FIFO``, ``SENSOR``, ``SHAKE_MS``, ``FLASH`` and ``HOLD`` come first (see _run).
CODE = CLOCK + """
import gc
from boards import emulated
from boards.common import Console
from cup.app import App

class Done(Exception):
    pass

class Probe:
    # A channel of the loop (App.serve: .link, .step()): counts passes, fills the heap at FILL_AT, then
    # checks the free heap at each pass.
    def __init__(self, link):
        self.link = link
        self.passes = 0
        self.free = -1
        self.worst = 0

    def step(self):
        self.passes += 1
        if self.passes == 40:
            gc.collect()
            gc.disable()
            try:
                while True:
                    bytearray(8)  # unreachable at once: garbage, one block of object and one of data
            except MemoryError:
                pass
            gc.enable()
            self.free = gc.mem_free()
        elif self.passes > 40:
            grown = gc.mem_free() - self.free
            if grown > self.worst:
                self.worst = grown
            if self.passes == 240:
                raise Done
        return True

fifo = open(FIFO, "r+b")  # nothing is ever written: the link and the channel stay quiet
sink = open("/dev/null", "wb")
spec = dict(emulated.DEFAULT_SPEC)
spec["sensor"] = SENSOR
link = Console(fifo, sink)
board = emulated.make_board(spec, frame_sink=None, link=(link, link))
app = App(board, {"cup_id": "probe", "name": "", "long_press_ms": 100}, None, None)
if SHAKE_MS:
    board.apply_control("shake %d" % SHAKE_MS)  # still shaking at the end: no throw, no event
if FLASH:
    app.view.refuse(app.cup)  # the status pixel blinks red for a second (from pass 40 on: 3 toggles, the end)
if HOLD:
    board.apply_control("press 1")  # held: its press (20 ms) and long (100 ms) events come before the filling
probe = Probe(Console(fifo, None))
try:
    app.main([probe])
except Done:
    pass
print("passes", probe.passes, "free", probe.free, "grown", probe.worst, "motion", app.detector.motion)
"""


def _run(tmp_path, sensor, shake_ms=0, flash=False, hold=False):
    fifo = tmp_path / "quiet.fifo"
    os.mkfifo(fifo)
    head = "FIFO = %r\nSENSOR = %r\nSHAKE_MS = %d\nFLASH = %r\nHOLD = %r\n" % (
        str(fifo), sensor, shake_ms, flash, hold)
    return run_firmware_code(head + CODE, "512k").split()


@pytest.mark.parametrize("sensor, shake_ms, flash, hold, motion", [
    ("lis3dh", 0, False, False, "still"),
    ("lis3dh", 60000, False, False, "shaking"),
    ("switch", 60000, False, False, "shaking"),
    ("lis3dh", 0, True, True, "still"),
])
def test_the_loop_takes_no_heap_between_events(micropython, tmp_path, sensor, shake_ms, flash, hold, motion):
    words = _run(tmp_path, sensor, shake_ms, flash, hold)
    assert words[:2] == ["passes", "240"], words
    assert int(words[3]) < 1024, "the filling left the heap with room: the probe proves nothing"
    assert words[5] == "0", "a pass took heap (a frame, an object): %s bytes freed by a collection" % words[5]
    assert words[7] == motion, words


# A board whose accelerometer fails at every read (a sensor off its bus: OSError EIO), die button 1 pressed
# and released: after 60 passes, what the cup did.
BROKEN_SENSOR = """
import sys
from boards import emulated
from boards.common import Console
from cup.app import App

class Done(Exception):
    pass

class Board(emulated.EmulatedBoard):
    def read_accel(self, buf):
        raise OSError(5)

class Probe:
    def __init__(self, link):
        self.link = link
        self.passes = 0

    def step(self):
        self.passes += 1
        if self.passes == 5:
            board.apply_control("press 1")
        elif self.passes == 15:
            board.apply_control("release 1")
        elif self.passes == 60:
            raise Done
        return True

fifo = open(FIFO, "r+b")
link = Console(fifo, open("/dev/null", "wb"))
board = Board(None, frame_sink=None, link=(link, link))
app = App(board, {"cup_id": "probe", "name": ""}, None, None)
sent = []
app.send = sent.append
frames = board.frames
try:
    app.main([Probe(Console(fifo, None))])
except Done:
    pass
print("errors", sum(1 for m in sent if m.get("code") == "internal"), "first", sent[0]["msg"].split(":")[0])
print("limit", app.cup.standalone_limit, "frames", board.frames - frames)
"""


def test_a_sensor_that_fails_every_read_stops_neither_buttons_nor_leds(micropython, tmp_path):
    """Each pass reports the failed read as an ``internal`` error; a die button's press and release still
    reach the cup (alone at the table, die 2 released sets the throw limit to two) and the LEDs show it."""
    fifo = tmp_path / "quiet.fifo"
    os.mkfifo(fifo)
    words = run_firmware_code("FIFO = %r\n" % str(fifo) + BROKEN_SENSOR, "512k").split()
    assert words[:4] == ["errors", words[1], "first", "OSError"] and int(words[1]) >= 50, words
    assert words[4:6] == ["limit", "2"] and int(words[7]) > 0, words


# Every pass takes WORK_MS of the cup's time (the clock moved inside the pass, as a slow chip's sensor read
# and detector do): the cup's time at the start of each of 12 passes.
PASS_TIMES = CLOCK + """
from boards import emulated
from boards.common import Console
from cup.app import App

class Done(Exception):
    pass

times = []

class Count:
    def __init__(self, link):
        self.link = link

    def step(self):
        if len(times) >= 12:
            raise Done
        return True

fifo = open(FIFO, "r+b")
link = Console(fifo, open("/dev/null", "wb"))
board = emulated.make_board(dict(emulated.DEFAULT_SPEC), frame_sink=None, link=(link, link))
app = App(board, {"cup_id": "probe", "name": ""}, None, None)
tick = app.tick

def timed():
    times.append(_now[0])
    _now[0] += WORK_MS
    tick()

app.tick = timed
try:
    app.main([Count(Console(fifo, None))])
except Done:
    pass
print(" ".join(str(t) for t in times))
"""


@pytest.mark.parametrize("work_ms, period", [(0, 10), (4, 10), (9, 10), (25, 35)])
def test_the_passes_keep_their_rate_whatever_a_pass_takes(micropython, tmp_path, work_ms, period):
    """The sensor is read every 10 ms of the cup's time, also when a pass itself takes some of them (the shake
    detector counts still samples: a loop that waited 10 ms after each pass of 4 ms made a throw final 20 ms
    late); a pass that takes more than a period is followed 10 ms after its end, not by a burst of passes."""
    fifo = tmp_path / "quiet.fifo"
    os.mkfifo(fifo)
    words = run_firmware_code("FIFO = %r\nWORK_MS = %d\n" % (str(fifo), work_ms) + PASS_TIMES, "512k").split()
    times = [int(w) for w in words]
    assert len(times) == 12 and {b - a for a, b in zip(times, times[1:])} == {period}, times


def test_the_asyncio_cups_passes_keep_their_rate_too(monkeypatch):
    """cup/tasks.py's inputs task (BLE, CPython), on a clock of the test's own: each pass takes 4 ms of it,
    and the passes start 10 ms apart."""
    import asyncio
    from cup import clock, tasks
    now = [0]
    times = []

    async def sleep_ms(ms):
        now[0] += max(ms, 0)

    class App:
        sample_ms = 10
        out = owed = None
        board = types.SimpleNamespace(power=clock.meter())
        cup = types.SimpleNamespace(hosted=False)

        def tick(self):
            clock.shelved(self.board.power, now[0], False)   # as App.tick: a cup in a game never rests
            times.append(now[0])
            now[0] += 4
            if len(times) == 12:
                raise asyncio.CancelledError

    for module in (clock, tasks):
        monkeypatch.setattr(module, "ticks_ms", lambda: now[0])
    monkeypatch.setattr(tasks, "sleep_ms", sleep_ms)
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(tasks.Tasks(App()).inputs())
    assert {b - a for a, b in zip(times, times[1:])} == {10}, times
    # The meter (cup/clock.py) counted each sleep as waiting: 6 ms of each 10 ms pass, 11 whole passes.
    assert clock.report(App.board.power)["waiting"] == 66
