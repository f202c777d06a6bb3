"""The emulated board: its control channel, buttons, sensor, LED frames, and the same answers on the
MicroPython unix port as on CPython (the unix port runs as a subprocess)."""

import asyncio
import copy
import os
import subprocess
import sys
from array import array
from pathlib import Path
from types import SimpleNamespace

import pytest

REPO = Path(__file__).resolve().parents[1]
FIRMWARE = REPO / "firmware"
HW = REPO / "hardware" / "boards"

from boards import emulated, pins  # noqa: E402
from schocken_host.provision.build import find_tool  # noqa: E402

BIN = Path(sys.executable).parent
MICROPYTHON = find_tool("micropython")
MICROPYPATH = f"{FIRMWARE}:{FIRMWARE / 'lib'}:.frozen"
needs_mp = pytest.mark.skipif(MICROPYTHON is None, reason="micropython unix port not installed")


def spec_of(name):
    return pins.load(HW / f"{name}.json")


# --- emulated board -----------------------------------------------------------------------------------

def test_emulated_board_buttons_sensor_frames():
    frames = []
    b = emulated.make_board(spec_of("pico_w"), frame_sink=frames.append, urandom=lambda n: bytes(range(n)),
                            battery_mv=4100)
    assert b.name == "emulated" and b.sensor_kind == "accel" and b.pixels.n == 22
    assert b.apply_control("press 0") is None and b.apply_control(b"press 3\n") is None
    assert b.read_buttons() == 0b1001
    assert b.apply_control("release 0") is None and b.read_buttons() == 0b1000
    buf = array("i", (0, 0, 0))
    b.read_accel(buf)
    assert list(buf) == [0, 0, 9807]  # at rest, upright
    assert b.apply_control("accel 100 -200 9000") is None
    b.read_accel(buf)
    assert list(buf) == [100, -200, 9000]
    assert b.apply_control("accel 99999 0 0") is None  # clipped like a saturated +-4 g sensor
    b.read_accel(buf)
    assert buf[0] == 39227
    # shake 500: 50 samples of motion at 100 Hz, then rest.
    assert b.apply_control("shake 500") is None
    samples = []
    for _ in range(60):
        b.read_accel(buf)
        samples.append(tuple(buf))
    motion = samples[:50]
    assert max(abs(s[0]) for s in motion) > 20000 and len(set(motion)) > 10
    assert all(max(abs(v) for v in s) <= 39227 for s in motion)
    assert samples[50:] == [(0, 0, 9807)] * 10
    b.pixels.fill((255, 0, 0))
    b.pixels.show()
    assert frames == [bytes((0, 51, 0)) * 22] and b.frames == 1
    assert b.urandom(3) == b"\x00\x01\x02" and b.battery_mv() == 4100
    assert b.apply_control("battery 3500") is None and b.battery_mv() == 3500
    assert b.apply_control("battery none") is None and b.battery_mv() is None
    b.radio_on()
    assert b.radio


def test_emulated_switch_board_and_shake():
    spec = copy.deepcopy(spec_of("esp32_devkitc"))
    spec["sensor"] = "switch"
    b = emulated.make_board(spec)
    assert b.sensor_kind == "switch" and b.read_switch() == 0
    assert b.apply_control("switch 1") is None and b.read_switch() == 1
    assert b.apply_control("shake 200") is None
    levels = [b.read_switch() for _ in range(25)]
    assert levels[:20] == [1] * 5 + [0] * 5 + [1] * 5 + [0] * 5 and levels[20:] == [0] * 5


GARBAGE = ["", "   ", "# comment", "press", "press 4", "press -1", "press 1 2", "press x", "release 99",
           "accel", "accel 1 2", "accel 1 2 3 4", "accel 1.5 2 3", "accel a b c", "switch", "switch 2",
           "switch on", "shake", "shake 0", "shake -10", "shake 1e3", "shake 600001", "shake 10 20",
           "battery", "battery -1", "battery x", "PRESS 1", "frobnicate", "\x00\x01", "press\t1\t", None, 42,
           b"\xff\xfe\xfd", bytearray(b"press 2"), ["press", "1"], "9" * 500]
VALID = ["", "   ", "# comment", "press\t1\t", bytearray(b"press 2")]


def test_control_parser_rejects_garbage_without_raising():
    b = emulated.make_board()
    for line in GARBAGE:
        err = b.apply_control(line)
        if any(type(line) is type(v) and line == v for v in VALID):
            assert err is None, line
        else:
            assert isinstance(err, str) and err.startswith("error:"), (line, err)
    rnd = __import__("random").Random(7)
    for _ in range(2000):
        line = bytes(rnd.randrange(256) for _ in range(rnd.randrange(12)))
        assert b.apply_control(line) is None or isinstance(b.apply_control(line), str)
        words = ["press", "release", "accel", "switch", "shake", "battery", "-", "1", "3", "x", "none"]
        b.apply_control(" ".join(rnd.choice(words) for _ in range(rnd.randrange(5))))


def read_all(control, way):
    """The control channel reads its link to the end: in asyncio (CPython's emulated cup) or in the steps of
    the cup's loop (cup/app.py ``App.serve``, MicroPython's)."""
    if way == "asyncio":
        asyncio.run(control.task())
    else:
        while control.step():
            pass


@pytest.mark.parametrize("way", ["asyncio", "loop"])
def test_control_channel_reads_a_stream(way):
    import emulate
    reader = Chunks([b"press 1\nbo", b"gus\naccel 1 2 3", b"\n"])  # lines torn across reads
    errors = []
    b = emulated.make_board()
    read_all(emulate.Control(reader, errors.append, SimpleNamespace(board=b)), way)
    buf = array("i", (0, 0, 0))
    b.read_accel(buf)
    assert (b.read_buttons(), errors, list(buf)) == (2, [b"error: unknown command 'bogus'\n"], [1, 2, 3])


@pytest.mark.parametrize("way", ["asyncio", "loop"])
def test_control_channel_drops_a_line_too_long_up_to_its_newline(way):
    import emulate
    # 2,000 bytes without a newline, whose tail would read as a press, then a line of its own
    reader = Chunks([b"x" * 31] * 64 + [b" press 1\npress 2\n"])
    errors = []
    b = emulated.make_board()
    read_all(emulate.Control(reader, errors.append, SimpleNamespace(board=b)), way)
    assert (b.read_buttons(), errors) == (0b100, [b"error: control line longer than 1100 bytes: dropped\n"])


@pytest.mark.parametrize("way", ["asyncio", "loop"])
def test_control_line_that_fails_is_lost_alone(way):
    """A line whose handling raises (here: "dice" without a roller) is answered and lost by itself; the line
    after it in the same read is taken."""
    import emulate
    errors = []
    b = emulated.make_board()
    app = SimpleNamespace(board=b)  # no cup, so no roller
    read_all(emulate.Control(Chunks([b"dice 1 2 3\npress 1\n"]), errors.append, app), way)
    assert (b.read_buttons(), errors) == (0b10, [b"error: control line dropped: AttributeError\n"])


class Chunks:
    """The app's kinds of reader over a list of byte strings, one per read: ``await readinto(buf)`` (0 at
    the end) and ``take(buf)`` (boards/common.py ``Console``: -1 at the end)."""

    def __init__(self, chunks):
        self.chunks = list(chunks)

    async def readinto(self, buf):
        return max(self.take(buf), 0)

    def take(self, buf):
        if not self.chunks:
            return -1
        data = self.chunks.pop(0)
        buf[:len(data)] = data
        return len(data)


# The same scripts on both interpreters: identical output proves the shared code behaves the same.
# Two scripts, not one: compiling everything from source at once does not fit a 64 KB heap (the
# firmware itself runs from .mpy).
PINS_SCRIPT = r"""
from boards import pins
names = ("esp32_devkitc", "esp32_s3_devkitc", "pico_w", "pico2_w")
for n in names:
    print(n, pins.check_file("hardware/boards/%s.json" % n)[1])
bad = pins.load("hardware/boards/esp32_devkitc.json")
bad["pins"]["led_data"] = 34
bad["pins"]["battery_sense"] = 4
bad["pins"]["button_die1"] = 0
bad["pins"]["button_die2"] = 7
bad["pins"]["button_die3"] = 7
for p in pins.validate(bad):
    print(p)
print("pins ok")
"""

EMU_SCRIPT = r"""
from array import array
from boards import emulated, pins
frames = []
b = emulated.make_board(pins.load("BOARD_JSON"), frame_sink=frames.append)
print(b.apply_control("press 3"), b.read_buttons(), b.apply_control("shake 300"))
buf = array("i", (0, 0, 0))
for i in range(32):
    b.read_accel(buf)
    print(buf[0], buf[1], buf[2])
b.pixels[21] = (10, 200, 30)
b.pixels.show()
print(list(frames[-1][-3:]), len(frames))
seed = 12345
for i in range(300):
    line = bytearray()
    for j in range(seed % 9):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        line.append(seed >> 16 & 0xFF if seed & 1 else b"press acl shk 0123-"[seed % 19])
    seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
    err = b.apply_control(bytes(line))
    assert err is None or err.startswith("error:"), err
for line in ("press 9", "accel 1 2", "zap", "shake x", 7):
    print(b.apply_control(line) is None)
print("emulated ok")
"""


def _run_both(script):
    out = []
    for cmd, env in (([MICROPYTHON, "-X", "heapsize=64k"], dict(os.environ, MICROPYPATH=MICROPYPATH)),
                     ([sys.executable, "-"], dict(os.environ, PYTHONPATH=f"{FIRMWARE}:{FIRMWARE / 'lib'}"))):
        r = subprocess.run(cmd, input=script, env=env, capture_output=True, text=True, timeout=60, cwd=REPO)
        assert r.returncode == 0, f"{cmd[0]}:\n{r.stdout}{r.stderr}"
        out.append(r.stdout)
    assert out[0] == out[1]
    return out[0]


@needs_mp
def test_pin_validator_same_on_micropython_and_cpython():
    out = _run_both(PINS_SCRIPT)
    assert out.count(" []\n") == 4 and "input-only" in out and "ADC2" in out and "strapping" in out
    assert "flash/PSRAM" in out and "used twice" in out and out.endswith("pins ok\n")


@needs_mp
def test_emulated_board_same_on_micropython_and_cpython(tmp_path):
    # The board file as deploy writes it to /board.json (without what only the host reads), into a 64 KB heap.
    from schocken_host.provision.boards import board_json, board_spec
    path = tmp_path / "board.json"
    path.write_text(board_json(board_spec("pico2_w")))
    out = _run_both(EMU_SCRIPT.replace("BOARD_JSON", str(path)))
    assert out.endswith("emulated ok\n") and "None 8 None" in out


@pytest.mark.parametrize("sensor", ["lis3dh", "switch"])
def test_synthetic_shake_makes_a_throw_for_the_cup_detector(sensor):
    # Integration with firmware/cup/shake.py (another module): a `shake 800` line must read as a real
    # shake followed by rest, i.e. exactly one final throw shortly after the 80 synthetic samples.
    shake = pytest.importorskip("cup.shake")
    b = emulated.make_board({"leds": 22, "sensor": sensor})
    det = shake.ShakeDetector("switch" if sensor == "switch" else "accel", "normal")
    assert b.apply_control("shake 800") is None
    buf = array("i", (0, 0, 0))
    throws = []
    for i in range(200):
        if sensor == "switch":
            final = det.feed_switch(i * 10, b.read_switch())
        else:
            b.read_accel(buf)
            final = det.feed_accel(i * 10, buf[0], buf[1], buf[2])
        if final:
            throws.append(i)
    assert len(throws) == 1 and 80 <= throws[0] <= 100, throws


# --- the app's writing outlives a message it cannot send ------------------------------------------------

def _app_writing_to(writer):
    """A cup app on the emulated board whose link's writer is ``writer``, and its asyncio tasks
    (cup/tasks.py, as a BLE link runs it; not started)."""
    from cup.app import App
    from cup.tasks import Tasks
    app = App(emulated.make_board(urandom=lambda n: bytes(range(n)), link=(None, writer)), {"cup_id": "t1"},
              None, None)
    app.writer = writer
    return app, Tasks(app)


def test_flush_survives_a_message_it_cannot_encode():
    # A message the encoder chokes on (here one that is not JSON; on a full heap a MemoryError) once ended
    # the link's writing task, and the cup fell silent. Now it becomes an internal error and the next message
    # still goes out.
    from schocken import protocol

    class Writer:
        def __init__(self):
            self.lines = []
            self.splitter = protocol.LineSplitter(protocol.MAX_LINE)  # the cup writes a line in pieces

        def write(self, data):
            for line in self.splitter.feed(data):
                self.lines.append(protocol.decode(line, {"error": "code:s why:l re:s?", "ok": "re:s"}))

        async def drain(self):
            pass

    writer = Writer()
    app, tasks = _app_writing_to(writer)

    async def go():
        app.send({"t": "status", "state": object()})
        app.send({"t": "ok", "re": "turn"})
        await tasks.flush()
    asyncio.run(go())
    from schocken_host.i18n import firmware_text
    lost = writer.lines[0]
    assert lost["code"] == protocol.E_INTERNAL and lost["why"][0] == "cup.texts"   # by number: no texts
    assert firmware_text(lost["why"]) == "a message was lost: TypeError"          # as the host says it
    assert writer.lines[1] == {"t": "ok", "re": "turn"}


def test_two_tasks_flushing_write_each_message_once_and_in_order():
    # Both of the app's tasks flush when they have acted; a writer's drain may wait (BLE's sends
    # notifications, a few ms each). A task that comes while the other waits in drain must neither send a
    # message again nor put one between the pieces of another: it leaves the queue to the task already
    # flushing.
    from schocken import protocol

    class SlowWriter:  # as boards/ble.py's: write() queues, drain() sends the queue in chunks, waiting
        def __init__(self):
            self.pending = self.data = b""

        def write(self, data):
            self.pending += bytes(data)

        async def drain(self):
            while self.pending:
                chunk = self.pending[:20]
                await asyncio.sleep(0.001)
                self.data += chunk
                self.pending = self.pending[20:]

    writer = SlowWriter()
    app, tasks = _app_writing_to(writer)

    async def go():
        for round_id in range(3):
            app.send({"t": "ok", "re": "turn", "round": round_id})
        first = asyncio.ensure_future(tasks.flush())
        await asyncio.sleep(0.001)  # the first waits in its drain
        app.send({"t": "ok", "re": "reveal", "round": 3})
        await tasks.flush()  # returns at once: the first flusher takes the new message too
        await first
        await tasks.flush()  # nothing left
    asyncio.run(go())
    lines = protocol.LineSplitter(protocol.MAX_LINE).feed(writer.data)
    assert [protocol.decode(line, {"ok": "re:s round:i"})["round"] for line in lines] == [0, 1, 2, 3]
    assert not tasks.flushing and not app.out


def test_a_write_that_fails_loses_its_line_not_the_task_that_flushed():
    # The inputs' task flushes too: a write error (a host gone: the pty answers EIO) must not end it, or the
    # cup would stop seeing its buttons and shakes. The line is lost, the next one is written.
    from schocken import protocol

    class BrokenOnce:
        def __init__(self):
            self.data = b""
            self.fail = True

        def write(self, data):
            if self.fail:
                self.fail = False  # the first line breaks off; then the link works again
                raise OSError(5, "EIO")
            self.data += bytes(data)

        async def drain(self):
            pass

    writer = BrokenOnce()
    app, tasks = _app_writing_to(writer)

    async def go():
        app.send({"t": "ok", "re": "turn", "round": 1})
        task = asyncio.ensure_future(tasks.inputs())
        await asyncio.sleep(0.05)
        app.send({"t": "ok", "re": "reveal", "round": 2})
        await asyncio.sleep(0.05)
        alive = not task.done()
        task.cancel()
        return alive
    assert asyncio.run(go()) is True
    lines = protocol.LineSplitter(protocol.MAX_LINE).feed(writer.data)
    assert [protocol.decode(line, {"ok": "re:s round:i"})["round"] for line in lines] == [2]
