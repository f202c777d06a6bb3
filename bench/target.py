"""Target lane benchmark (issue 34): the cup's firmware on MicroPython's QEMU port (MPS2-AN385, Cortex-M3) or
on an emulated RP2040 (rp2040py, the board of testbed.rp2040).

    SCHOCKEN_TARGET=qemu:IMAGE.elf .venv/bin/python bench/target.py     # the image is yours: docs/build.md
    SCHOCKEN_TARGET=rp2040:IMAGE.uf2 .venv/bin/python bench/target.py

Measures, through the project's own code (testbed.target, `schocken deploy`):

    boot -> REPL ready     wall time from starting the emulator until the REPL answers on the pty (rp2040:
                           also the chip's own clock when it came up on USB and when the REPL answered)
    deploy                 rp2040: wall time of `schocken deploy` to the emulated flash (deploy's own choice:
                           files on the stock image, the configuration alone on one with the cup frozen in)
    boot -> cup ready      rp2040: the chip's clock from a reset (RUN pin) until the cup app, started by the
                           deployed main.py, answers the host's hello on USB
    shake stopped -> final rp2040: the chip's clock from the end of the recorded shake (tests/data) to the
                           firmware's shake detector calling the throw, the sensor read at 100 Hz
    a pass of the loop     rp2040: the chip's clock for each pass of the cup app's loop (App.tick: buttons,
                           LEDs, the sensor read and the detector; the throw's roll, flash and LEDs in its
                           pass) in a turn while the recorded shake plays, a pass due every 10 ms
    line round trip        a 1,000-byte line written to the UART and echoed back by a loop in the guest
    rules evaluate/s       bench/rules.py's evaluate_rate, run in the guest (its clock: time.ticks_us)
    rules games/s          bench/rules.py's game_rate, three players, the standard rules
    heap after the rules   gc.mem_alloc()/mem_free() after importing schocken.rules and schocken.throws

These are QEMU figures (a Cortex-M3 emulated on this PC; without -icount the guest clock follows the host's),
not a Pico's; the RP2040's guest-clock figures are the emulated chip's at 125 MHz, its wall figures this PC's.
"""

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "host_tools"))
sys.path.insert(0, str(REPO / "tests"))   # the test bed (tests/testbed)

from testbed import target as target_lane  # noqa: E402
from schocken_host.provision.device import Device  # noqa: E402

BOOTS = 5
LINES = 30
RP_BOOTS, RP_LINES = 3, 5          # the emulated RP2040 runs ~20x slower than a chip
SHAKE_TRACE = REPO / "tests" / "data" / "shake_accel.csv"

# The firmware's detector on the chip's sensor at 100 Hz, as the cup's loop feeds it (a pass every 10 ms,
# cup/clock.py next_due); prints the chip's ticks_ms when it calls the throw.
SHAKE = """\
import time, json, selftest
from cup.clock import next_due
from cup.shake import ShakeDetector
b = selftest.board()
det = ShakeDetector(b.sensor_kind, "normal")
print('go')
t0 = due = time.ticks_ms()
while time.ticks_diff(time.ticks_ms(), t0) < 20000:
    if det.feed_board(time.ticks_ms(), b):
        break
    due = next_due(due, 10, None)
    time.sleep_ms(max(0, time.ticks_diff(due, time.ticks_ms())))
print(json.dumps([time.ticks_ms()]))
"""

# The deployed cup app (as main.py makes it: boot_select.boot) in a turn of a table without fair play, its
# loop's passes (App.tick) every 10 ms timed on the chip's clock (ticks_us) while the recorded shake plays: at
# rest, the shake, the pass whose detector calls the throw (a collection, the roll, /state.json written, the
# LEDs), and after. Prints the passes' µs and the index of the throw's pass.
PASSES = """\
import gc, json, time, boot_select
from array import array
from cup import app as _app_module
from cup.clock import next_due
from schocken.rules import Rules
_us = array('i', range(%d))
_res = []
def _start(board, config, splitter):
    app = _app_module.App(board, config, None, splitter)
    cup = app.cup
    cup.on_message({"t": "configure", "rules": Rules("standard").to_dict(), "name": "Bench", "seat": 0})
    cup.on_message({"t": "turn", "round": 1, "limit": None})
    tick, thrown, n = app.tick, -1, 0
    gc.collect()
    print('go')
    due = time.ticks_ms()
    while n < len(_us):
        t = time.ticks_us()
        tick()
        _us[n] = time.ticks_diff(time.ticks_us(), t)
        if thrown < 0 and cup.turn.throws_used:
            thrown = n
        n += 1
        due = next_due(due, 10)
        time.sleep_ms(max(0, time.ticks_diff(due, time.ticks_ms())))
    _res.append(thrown)
boot_select.boot("/", start=_start)
print(json.dumps([list(_us), _res[0]]))
"""
PASSES_N = 500                     # 5 s of the chip's clock: rest, the shake (~2.3 s), the throw, rest
LINE = b"x" * 999 + b"\n"

ECHO = """\
import sys
while True:
    _l = sys.stdin.readline()
    if _l == 'end\\n':
        break
    sys.stdout.write(_l)
"""

HEAP = """\
import gc, json
gc.collect()
_a0 = gc.mem_alloc()
from schocken import rules, throws
gc.collect()
print(json.dumps([_a0, gc.mem_alloc(), gc.mem_free()]))
"""


def boot_times(image):
    times = []
    for _ in range(BOOTS):
        with target_lane.QemuBoard(image) as qb:
            times.append(qb.wait_repl())
    return times


def line_round_trips(dev):
    dev.t.exec_raw_no_follow(ECHO)
    ser = dev.t.serial
    times = []
    for _ in range(LINES):
        got = b""
        t0 = time.perf_counter()
        ser.write(LINE)
        while not got.endswith(b"\n") or len(got.replace(b"\r", b"")) < len(LINE):
            got += ser.read(max(1, ser.in_waiting))
        times.append(time.perf_counter() - t0)
        assert got.replace(b"\r", b"") == LINE, got[:40]
    ser.write(b"end\n")
    dev.t.follow(10)
    return times


def rules_rates(dev, timeout=120):
    src = (HERE / "rules.py").read_text()
    src = src[:src.index('if __name__ == "__main__":')]   # the measuring part, not the CPython driver
    out = dev.run("import json\n" + src + "\nprint(json.dumps([evaluate_rate(1.0), "
                  "game_rate(Rules('standard'), ['a', 'b', 'c'], 1.0)]))\n", timeout=timeout)
    return json.loads(out.strip().splitlines()[-1])


def shake_to_final(dev, chip):
    """Chip ms from the end of the recorded shake to the detector's throw."""
    manifest = json.loads((SHAKE_TRACE.parent / "traces.json").read_text())[SHAKE_TRACE.name]
    dev.t.serial.timeout = 1.0
    dev.t.exec_raw_no_follow(SHAKE)
    assert dev.t.read_until(1, b"go\r\n", timeout=120, timeout_overall=120).endswith(b"go\r\n")
    chip.shake()
    out, err = dev.t.follow(600)
    assert not err, err
    thrown = json.loads(out.decode().strip().splitlines()[-1])[0]
    at, start = chip.playing[-1]
    return thrown - (at + manifest["shake_end_ms"][0] - start)


def pass_times(dev, chip):
    """The µs of each pass of the cup app's loop in a turn while the recorded shake plays, and the index of
    the pass that threw."""
    dev.t.serial.timeout = 60   # the raw paste's flow control from a chip slowed down further by other jobs
    dev.t.exec_raw_no_follow(PASSES % PASSES_N)
    assert dev.t.read_until(1, b"go\r\n", timeout=300, timeout_overall=300).endswith(b"go\r\n")
    chip.shake()
    out, err = dev.t.follow(900)
    assert not err, err
    return json.loads(out.decode().strip().splitlines()[-1])


def print_passes(us, thrown):
    assert thrown >= 0, "the recorded shake threw no dice"
    rest = [u for i, u in enumerate(us) if i != thrown]
    print("a pass of the cup's loop (chip's clock, %d passes every 10 ms, a turn, the recorded shake): "
          "median %d us, 99th percentile %d us, longest %d us but the throw's; the throw's pass %d us; "
          "%d passes over 10 ms" % (len(us), statistics.median(rest), sorted(rest)[len(rest) * 99 // 100],
                                    max(rest), us[thrown], sum(u > 10000 for u in us)))


def measure(dev, timeout=120):
    print("# MicroPython:", dev.run("import sys\nprint(sys.implementation)").strip())
    a0, a1, free = json.loads(dev.run(HEAP).strip().splitlines()[-1])
    print("heap after importing the rules: %d B allocated (%d B before), %d B free of %d B"
          % (a1, a0, free, a1 + free))
    trips = line_round_trips(dev)
    print("1,000-byte line round trip (wall, %d lines): median %.1f ms, min %.1f ms, max %.1f ms"
          % (len(trips), statistics.median(trips) * 1000, min(trips) * 1000, max(trips) * 1000))
    evals, games = rules_rates(dev, timeout)
    print("rules (guest clock): %.0f evaluate/s, %.1f random games/s (3 players, standard rules)"
          % (evals, games))


def data_dir(env_name):
    """The host's data folder of a bench run: deploy writes the cup's secret there, the hello reads it."""
    return str(Path(os.environ.get("TMPDIR", "/tmp")) / env_name)


def deploy(port, env_name, where=("--files",)):
    env = dict(os.environ, SCHOCKEN_DATA_DIR=data_dir(env_name))
    t0 = time.monotonic()
    schocken = str(Path(sys.executable).parent / "schocken")
    r = subprocess.run([schocken, "--lang", "en", "deploy", "--port", port, "--board", "pico_w", *where,
                        "--no-mip", "--no-start"], check=True, env=env, capture_output=True, text=True)
    return time.monotonic() - t0, r.stdout


def cup_ready_after_reset(chip, env_name):
    """The chip's ms from a reset until the cup app answers a hello: its TIMER starts again at the reset, the
    boot runs main.py, and hellos sent meanwhile wait in the chip's USB buffer until the app reads them."""
    import asyncio
    from schocken_host.links.serial import SerialLink
    from schocken_host.links.transport import TransportClosed, hello

    async def greet():
        """The chip's ms at the app's first identity; the app's answer to an earlier hello (its nonce is
        that hello's, so it does not verify for the one sent last) counts, and one more hello verifies."""
        link = SerialLink(chip.port)
        await link.open()
        try:
            for _ in range(600):              # 1 s of wall time each (~40 ms of the chip's): 10 minutes
                try:
                    await hello(link, 1.0)
                except asyncio.TimeoutError:
                    continue
                except TransportClosed as e:
                    if e.message.key != "link.not_authentic":
                        raise
                ready = chip.guest_ms()
                await hello(link, 60)         # the app, with the key deploy made
                return ready
        finally:
            link.close()
        raise TimeoutError("the cup app did not answer a hello within 10 minutes")
    os.environ["SCHOCKEN_DATA_DIR"] = data_dir(env_name)
    chip.reset()
    return asyncio.run(greet())


def main_rp2040(image):
    boots = []
    for _ in range(RP_BOOTS):
        chip = target_lane.start_rp2040(image)
        try:
            boots.append((chip.repl_s, chip.usb[1], chip.guest_ms()))
        finally:
            chip.close()
    walls = [b[0] for b in boots]
    print("boot -> REPL ready (wall, %d boots): median %.0f ms, min %.0f ms, max %.0f ms"
          % (RP_BOOTS, statistics.median(walls) * 1000, min(walls) * 1000, max(walls) * 1000))
    print("boot on the chip's clock (median): on USB at %.1f ms, the REPL answered by %.1f ms"
          % (statistics.median(b[1] for b in boots), statistics.median(b[2] for b in boots)))
    chip = target_lane.start_rp2040(image, trace=SHAKE_TRACE)
    try:
        # deploy's waits at the lane's slowness (tests/test_target.py): the chip's answers under other jobs
        took, said = deploy(chip.port, "bench-target-rp2040", where=("--cup-slowness", "40"))
        how = "the configuration alone (frozen image)" if "frozen" in said else "files"
        print("deploy to the emulated flash (wall): %.1f s, %s" % (took, how))
        ready = [cup_ready_after_reset(chip, "bench-target-rp2040") for _ in range(RP_BOOTS)]
        print("boot -> cup ready for the host (chip's clock, %d resets): median %.0f ms, min %.0f, max %.0f"
              % (len(ready), statistics.median(ready), min(ready), max(ready)))
        dev = Device(chip.port, timeout=60)   # stops the cup app main.py started
        try:
            print("shake stopped -> throw final (chip's clock): %.0f ms" % shake_to_final(dev, chip))
            print_passes(*pass_times(dev, chip))
            global LINES
            LINES = RP_LINES
            measure(dev, timeout=900)   # the guest's seconds of rules take minutes of wall time
        finally:
            dev.close()
    finally:
        chip.close()
    return 0


def main():
    tgt = target_lane.from_env()
    if tgt is not None and tgt.kind == "rp2040":
        return main_rp2040(tgt.where)
    if tgt is None or tgt.kind != "qemu":
        print("set SCHOCKEN_TARGET=qemu:IMAGE.elf or rp2040:IMAGE.uf2 (docs/build.md, \"The target lane\")")
        return 2
    boots = boot_times(tgt.where)
    print("boot -> REPL ready (wall, %d boots): median %.0f ms, min %.0f ms, max %.0f ms"
          % (BOOTS, statistics.median(boots) * 1000, min(boots) * 1000, max(boots) * 1000))
    with target_lane.QemuBoard(tgt.where) as qb:
        qb.wait_repl()
        qb.format_flash()
        deploy(qb.port, "bench-target")   # files: the QEMU port's ROMFS is a region of its image
        dev = Device(qb.port)
        try:
            measure(dev)
        finally:
            dev.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
