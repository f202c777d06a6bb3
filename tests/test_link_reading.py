"""How the cup reads its serial link on MicroPython (boards/common.py ``Console``, ``stdio_link``):
what has come at each take, with nothing made per byte or per take, and mpremote's Ctrl-C found wherever
it lies in what was read. On the unix port, with standard input a pipe written in one piece."""

import subprocess

from conftest import ROOT, mp_env

FIRMWARE = ROOT / "firmware"

BURSTS = """
import gc, sys
from boards import common
reader, _ = common.stdio_link()
buf = bytearray(128)
got = []
while True:
    gc.collect()
    before = gc.mem_alloc()
    n = reader.take(buf)
    if n < 0:
        break
    if n:
        got.append((n, gc.mem_alloc() - before, bytes(buf[:n])))
for n, made, data in got:
    print(n, made, data.decode())
print("asyncio", "asyncio" in sys.modules)
"""

CTRL_C = """
import sys
from boards import emulated
from cup import app
board = emulated.make_board(dict(emulated.DEFAULT_SPEC, link_is_repl=True))
try:
    app.start(board, {"cup_id": "t"}, None)
except KeyboardInterrupt:
    sys.stderr.write("interrupted, left for the REPL: %r\\n" % sys.stdin.buffer.read())
"""


def run(code, data, micropython):
    return subprocess.run([micropython, "-X", "heapsize=512k", "-c", code], input=data, capture_output=True,
                          timeout=60, env=mp_env(FIRMWARE, FIRMWARE / "lib"))


def test_a_burst_is_read_at_one_take_and_costs_the_same_at_any_length(micropython):
    data = bytes(48 + i % 75 for i in range(300))
    proc = run(BURSTS, data, micropython)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines.pop() == b"asyncio False"  # the serial link needs no asyncio (issue 16: its heap)
    rows = [line.split(b" ", 2) for line in lines]
    assert [int(n) for n, _, _ in rows] == [31] * 9 + [21]      # _READ_SIZE at most per take
    assert b"".join(d for _, _, d in rows) == data
    # Nothing at any take after the first (the first makes the poll's result tuple once), whatever its
    # length: no bound method either, each method is called where it is looked up.
    assert {int(m) for _, m, _ in rows[1:]} == {0}, rows


def test_ctrl_c_as_data_stops_the_cup_wherever_it_lies_in_a_read(micropython):
    """On the REPL's console (the emulated board after `schocken deploy`) mpremote's Ctrl-C arrives as data;
    read in one piece with a line before it and bytes after, it still raises KeyboardInterrupt, and what
    follows the Ctrl-C is left for the REPL (mpremote sends "\\r\\x03" and at once "\\r\\x01" for the raw
    REPL: eaten by the app, the Ctrl-A was lost and mpremote timed out)."""
    proc = run(CTRL_C, b'{"t": "status", "id": 7}\n' + b"x" * 40 + b"\r\x03\r\x01" + b"y" * 4, micropython)
    assert b"interrupted, left for the REPL: b'\\r\\x01yyyy'" in proc.stderr, proc.stdout + proc.stderr


# The cup app over standard input, ended after 50 passes over its inputs with "50 passes, " and report() on
# standard error: the loop went on that long.
FIFTY_PASSES = """
import sys
from boards import emulated
from cup import app
cup = app.App(emulated.make_board(), {"cup_id": "t"}, None, None)
tick = cup.tick
passes = [0]
def counted():
    tick()
    passes[0] += 1
    if passes[0] == 50:
        sys.stderr.write("50 passes, %s\\n" % report())
        raise SystemExit(0)
cup.tick = counted
"""

HOST_GONE = FIFTY_PASSES + """
report = lambda: "hosted %s" % cup.cup.hosted
cup.main(())
"""


def test_the_cup_plays_on_when_the_host_end_of_its_pty_is_gone(micropython):
    """Standard input a pseudo-terminal whose other end is closed: its read fails with EIO. That ends the
    reading of the link as the end of input does, not the cup: the loop goes on with its passes over the
    inputs (before, the OSError ended the app and the emulated cup's process)."""
    import os
    master, slave = os.openpty()
    os.close(slave)
    try:
        proc = subprocess.run([micropython, "-X", "heapsize=512k", "-c", HOST_GONE], stdin=master,
                              capture_output=True, timeout=60, env=mp_env(FIRMWARE, FIRMWARE / "lib"))
    finally:
        os.close(master)
    assert proc.returncode == 0 and b"50 passes, hosted False" in proc.stderr, proc.stdout + proc.stderr


CHANNEL_GONE = FIFTY_PASSES + """
class Gone:  # a channel of the loop whose stream's other end is gone: its read raises EIO
    def __init__(self):
        self.link = self
        self.s = open("/dev/null", "rb")
        self.steps = 0
    def step(self):
        self.steps += 1
        raise OSError(5)
gone = Gone()
report = lambda: "%d step" % gone.steps
cup.main([gone])
"""


def test_the_cup_plays_on_when_a_channel_of_its_loop_is_gone(micropython):
    """The emulation's control channel failing with EIO (the host's end of its pty closed) is read no more;
    the loop goes on (an OSError there must not end the cup)."""
    proc = subprocess.run([micropython, "-X", "heapsize=512k", "-c", CHANNEL_GONE], stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=60, env=mp_env(FIRMWARE, FIRMWARE / "lib"))
    assert proc.returncode == 0 and b"50 passes, 1 step" in proc.stderr, proc.stdout + proc.stderr


OVERDUE = """
import select, time
from cup import clock
nothing = select.poll()  # no stream: only the timeout ends a wait
t = time.ticks_ms()
clock.wait(nothing, -5)
clock.wait(nothing, 0)
clock.wait(nothing, 20)
print("waited", time.ticks_diff(time.ticks_ms(), t))
"""


def test_an_overdue_pass_is_not_waited_for(micropython):
    """The loop waits until its next pass is due; when that is already past, the wait is for nothing: to
    ``poll`` a negative timeout means for ever, which would stop the cup's inputs until a byte came."""
    proc = subprocess.run([micropython, "-c", OVERDUE], capture_output=True, timeout=20,
                          env=mp_env(FIRMWARE, FIRMWARE / "lib"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert 20 <= int(proc.stdout.split()[1]) < 1000, proc.stdout
