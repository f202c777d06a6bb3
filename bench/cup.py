"""Cup firmware bench: heap needed, shake-stop-to-final latency, compiled size.

    .venv/bin/python bench/cup.py [--quick]

- heap: the smallest `micropython -X heapsize=...` (in KB, steps of 4) with which an emulated cup plays three
  full rounds through its serial link (hello, configure, turn, shake, stand, reveal, outcome), and the live heap
  (gc.mem_alloc after a collection) the cup reports on its control channel after the rounds; once with the
  firmware in an emulated flash ROM (ROMFS, as frozen or ROMFS code on a board: schocken_host.romfs), once
  loaded as .mpy files into the heap (a board without ROMFS).
- latency: from the shake traces (bench/shake.py's measurement under MicroPython).
- size: the compiled firmware (.mpy of every file under firmware/) for xtensawin, armv6m, armv7emsp.
"""

import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "bench"))

from schocken_host.emulator import mpy_cross_exe  # noqa: E402


def three_rounds(heap, rom, fair=False):
    """Live heap (bytes) after three rounds in a cup started with ``heap`` KB, or None if it could not play
    them. ``fair``: provably fair rolls (the host's nonce for every throw), as `schocken play` does by default."""
    from cupkit import CupDriver
    try:
        cup = CupDriver(heap="%dk" % heap, rom=rom)
    except RuntimeError:
        return None
    try:
        cup.request("identity", t="hello", v=1)
        cup.request(t="configure", rules={"preset": "standard", "options": {}}, name="Anna", seat=0, fair=fair)
        for r in (1, 2, 3):
            cup.request(t="turn", round=r, limit=None if r == 1 else 1)
            if fair:
                cup.recv("seed")
                cup.cup.shake(800)
                ask = cup.recv("shake")
                cup.send(t="nonce", round=r, throw=ask["throw"], nonce="%032x" % (r * 7919))
                cup.recv("progress")
            else:
                cup.throw()
            if r == 1:
                cup.stand()
            else:
                cup.recv("done")
            cup.request("revealed", t="reveal", round=r)
            cup.request(t="outcome", round=r, result="won", deckel=0, middle=13)
        cup.cup.control("mem")
        time.sleep(0.3)
        live = [line for line in cup.cup.control_lines if line.startswith("mem ")]
        return int(live[-1].split()[1]) if live else -1
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
            subprocess.run([mpy_cross_exe(), "-march=" + arch, "-o", str(out), str(src)], check=True)
            total += out.stat().st_size
        count = i + 1
    return count, total


def main():
    from schocken_host import romfs
    for rom, fair in (((True, False), (True, True), (False, False)) if romfs.available() else ((False, False),)):
        where = ("firmware in ROM" if rom else "firmware as .mpy files") + (", fair play" if fair else "")
        heap, live = min_heap(rom, fair)
        print("cup heap (%s): smallest -X heapsize for three rounds: %s KB" % (where, heap))
        print("cup heap (%s): live heap after three rounds (gc.mem_alloc): %s bytes" % (where, live))
    try:
        import shake
        manifest = shake.json.loads((shake.DATA / "traces.json").read_text())
        for name, end, final, ms in shake.latencies(manifest):
            print("shake latency %s: shaking stopped %s ms, throw final %s ms: %s ms" % (name, end, final, ms))
    except Exception as e:  # the latency part is bench/shake.py's; report, do not hide
        print("shake latency: not measured (%s)" % e)
    for arch in ("xtensawin", "armv6m", "armv7emsp"):
        count, size = compiled_size(arch)
        print("firmware size %s: %d files, %d bytes of .mpy" % (arch, count, size))


if __name__ == "__main__":
    main()
