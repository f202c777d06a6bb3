"""Target lane benchmark (issue 34): the cup's firmware on MicroPython's QEMU port (MPS2-AN385, Cortex-M3).

    SCHOCKEN_TARGET=qemu:IMAGE.elf .venv/bin/python bench/target.py     # the image is yours: docs/build.md

Measures, through the project's own code (schocken_host.emulation.target.QemuBoard, `schocken deploy`):

    boot -> REPL ready     wall time from starting qemu-system-arm until the REPL answers on the pty
    line round trip        a 1,000-byte line written to the UART and echoed back by a loop in the guest
    rules evaluate/s       bench/rules.py's evaluate_rate, run in the guest (its clock: time.ticks_us)
    rules games/s          bench/rules.py's game_rate, three players, the standard rules
    heap after the rules   gc.mem_alloc()/mem_free() after importing schocken.rules and schocken.throws

These are QEMU figures (a Cortex-M3 emulated on this PC; without -icount the guest clock follows the host's),
not a Pico's.
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

from schocken_host.emulation import target as T  # noqa: E402
from schocken_host.provision.device import Device  # noqa: E402

BOOTS = 5
LINES = 30
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
        with T.QemuBoard(image) as qb:
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


def rules_rates(dev):
    src = (HERE / "rules.py").read_text()
    src = src[:src.index('if __name__ == "__main__":')]   # the measuring part, not the CPython driver
    out = dev.run("import json\n" + src + "\nprint(json.dumps([evaluate_rate(1.0), "
                  "game_rate(Rules('standard'), ['a', 'b', 'c'], 1.0)]))\n", timeout=120)
    return json.loads(out.strip().splitlines()[-1])


def main():
    tgt = T.from_env()
    if tgt is None or tgt.kind != "qemu":
        print("set SCHOCKEN_TARGET=qemu:IMAGE.elf (docs/build.md, \"The target lane\")")
        return 2
    boots = boot_times(tgt.where)
    print("boot -> REPL ready (wall, %d boots): median %.0f ms, min %.0f ms, max %.0f ms"
          % (BOOTS, statistics.median(boots) * 1000, min(boots) * 1000, max(boots) * 1000))
    with T.QemuBoard(tgt.where) as qb:
        qb.wait_repl()
        qb.format_flash()
        env = dict(os.environ, SCHOCKEN_DATA_DIR=str(Path(os.environ.get("TMPDIR", "/tmp")) / "bench-target"))
        subprocess.run([str(Path(sys.executable).parent / "schocken"), "deploy", "--port", qb.port, "--board",
                        "pico_w", "--files", "--no-mip", "--no-start"], check=True, env=env,
                       stdout=subprocess.DEVNULL)
        dev = Device(qb.port)
        try:
            print("# MicroPython:", dev.run("import sys\nprint(sys.implementation)").strip())
            a0, a1, free = json.loads(dev.run(HEAP).strip().splitlines()[-1])
            print("heap after importing the rules: %d B allocated (%d B before), %d B free of %d B"
                  % (a1, a0, free, a1 + free))
            trips = line_round_trips(dev)
            print("1,000-byte line round trip (wall, %d lines): median %.1f ms, min %.1f ms, max %.1f ms"
                  % (LINES, statistics.median(trips) * 1000, min(trips) * 1000, max(trips) * 1000))
            evals, games = rules_rates(dev)
            print("rules (guest clock): %.0f evaluate/s, %.1f random games/s (3 players, standard rules)"
                  % (evals, games))
        finally:
            dev.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
