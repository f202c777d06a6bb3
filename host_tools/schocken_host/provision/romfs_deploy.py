"""The firmware in a board's ROMFS partition (MicroPython 1.25+, ``vfs.rom_ioctl``): `schocken deploy` puts
the compiled modules there when the board has one, else ``.mpy`` files on its filesystem (provision/deploy.py
decides; docs/build.md, "Flashing").

Why: bytecode in a ROMFS runs in place from flash, as frozen modules do; loaded from ``.mpy`` files it is
copied into the heap. The image is mpremote's ROMFS format (``mpremote.romfs.VfsRomWriter``, what
``mpremote romfs build`` writes) and is written by mpremote's own ``romfs deploy`` code over the raw-REPL
session deploy already has (one connection, no soft reset).

Where the stock images stand (MicroPython source, 2025): rp2 reserves no ROMFS unless built with
``MICROPY_HW_ROMFS_BYTES`` (then no ``vfs.rom_ioctl`` at all); esp32 has ``vfs.rom_ioctl`` but a partition
only with a partition table that has a "romfs" entry (partitions-4MiB-romfs.csv). So on the stock Pico W and
ESP32 images deploy falls back to files and says why.

sys.path on a board with a mounted ROMFS is ``['', '.frozen', '/rom', '/rom/lib', '/lib']`` (py/runtime.c
``mp_init``, extmod/vfs.c ``mp_vfs_mount_romfs_protected``, then the port's main.c adds /lib): '' (the
filesystem's root) comes first, so an old ``/cup/app.mpy`` - or an empty ``/cup`` folder, which MicroPython
imports as a namespace package - would shadow ``/rom/cup``. Deploy removes the folders it owns
(boards.MANAGED) and the root modules from the filesystem when it writes the ROM, and empties a ROM that holds
the firmware when it deploys files (``/rom/lib`` comes before ``/lib``).
"""

import contextlib
import hashlib
import io
import os
import re
import tempfile
import types

from schocken_host.i18n import Message
from schocken_host.provision import DeployError

ROM_DIR = "rom"                    # where a board mounts the partition ("/rom"); firmware.json paths start so
PARTITION = 0

# What the board has: {"ioctl": bool, "parts": int, "size": bytes of partition 0 (or None), "top": the names
# in /rom when one is mounted (or None)}.
PROBE = """\
import json, os
try:
    import vfs
except ImportError:
    vfs = None
_r = {'ioctl': hasattr(vfs, 'rom_ioctl'), 'parts': 0, 'size': None, 'top': None}
if _r['ioctl']:
    _r['parts'] = vfs.rom_ioctl(1)
    if _r['parts'] > 0:
        _d = vfs.rom_ioctl(2, 0)
        if not isinstance(_d, int):
            _r['size'] = _d.ioctl(4, 0) * _d.ioctl(5, 0) if hasattr(_d, 'ioctl') else len(_d)
        del _d
try:
    _r['top'] = sorted(os.listdir('/rom'))
except OSError:
    pass
print(json.dumps(_r))
del _r
"""

# SHA-256 of the partition's first n bytes: is the image there already?
HASH = """\
import vfs, hashlib, binascii
_m = memoryview(vfs.rom_ioctl(2, 0))
_h = hashlib.sha256()
for _i in range(0, %d, 4096):
    _h.update(_m[_i:min(_i + 4096, %d)])
print(binascii.hexlify(_h.digest()).decode())
del _m, _h
"""

# Mount the partition at /rom and put it on sys.path where a board has it after a reset (the emulated board
# starts main.py in the same process; a board resets anyway).
MOUNT = """\
import vfs, sys
try:
    vfs.umount('/rom')
except OSError:
    pass
vfs.mount(vfs.VfsRom(vfs.rom_ioctl(2, 0)), '/rom')
_i = sys.path.index('.frozen') + 1 if '.frozen' in sys.path else 1
for _p in ('/rom/lib', '/rom'):
    if _p not in sys.path:
        sys.path.insert(_i, _p)
del _i
"""

UNMOUNT = """\
import vfs, sys
try:
    vfs.umount('/rom')
except OSError:
    pass
sys.path[:] = [p for p in sys.path if p not in ('/rom', '/rom/lib')]
"""

# Modules imported from the old ROM point into it: forget them before it is overwritten.
FORGET = "import sys\nfor _k in list(sys.modules):\n    if _k != 'vfs':\n        del sys.modules[_k]\n"

# Names a ROM holding this firmware has at its top: only such a ROM is emptied by a files deploy.
OURS = ("boot_select.mpy", "selftest.mpy")


def status(dev):
    return dev.json(PROBE)


def choose(rom, want, image_size):
    """(use the ROM?, the one line that says what was chosen and why)."""
    if want is False:
        return False, Message("deploy.files_chosen")
    if not rom.get("ioctl"):
        return False, Message("deploy.no_romfs")
    if not rom.get("parts") or not rom.get("size"):
        return False, Message("deploy.no_romfs_partition")
    if image_size > rom["size"]:
        return False, Message("deploy.romfs_too_small", size=image_size, room=rom["size"])
    return True, Message("deploy.romfs_chosen", size=image_size, room=rom["size"])


def holds_firmware(rom):
    return any(n in (rom.get("top") or ()) for n in OURS)


def image(files):
    """The ROMFS image of {path: bytes}: what ``mpremote romfs build`` makes of that tree (entries sorted by
    name, as it lists a folder), byte for byte."""
    from mpremote.romfs import VfsRomWriter
    tree = {}
    for path, data in files.items():
        node = tree
        *dirs, name = path.split("/")
        for d in dirs:
            node = node.setdefault(d, {})
        node[name] = data
    writer = VfsRomWriter()

    def put(node):
        for name in sorted(node):
            if isinstance(node[name], dict):
                writer.opendir(name)
                put(node[name])
                writer.closedir()
            else:
                writer.mkfile(name, node[name])
    put(tree)
    return writer.finalise()


def empty_image():
    return image({})


def has_image(dev, img):
    digest = hashlib.sha256(img).hexdigest()
    return dev.run(HASH % (len(img), len(img)), timeout=30).strip().splitlines()[-1:] == [digest]


def write(dev, img, progress=None):
    """Write the image to partition 0 with mpremote's ``romfs deploy``; progress(done, total)."""
    try:
        from mpremote.commands import CommandError, _do_romfs_deploy
        from mpremote.transport import TransportError
    except ImportError:   # an mpremote older than 1.25
        raise DeployError("deploy.romfs_mpremote")
    dev.run(FORGET)
    state = types.SimpleNamespace(transport=dev.t, ensure_raw_repl=lambda: None, did_action=lambda: None)
    with tempfile.TemporaryDirectory(prefix="schocken-rom-") as tmp:
        path = os.path.join(tmp, "firmware.romfs")   # mpremote reads an image from a *.romfs file
        with open(path, "wb") as f:
            f.write(img)
        args = types.SimpleNamespace(path=path, partition=PARTITION, mpy=False)
        said = _Said(len(img), progress)
        try:
            with contextlib.redirect_stdout(said):
                _do_romfs_deploy(state, args)
        except (CommandError, SystemExit, TransportError) as e:
            why = str(e) if not isinstance(e, SystemExit) else said.last_line()
            raise DeployError("deploy.romfs_write_failed", error=why or type(e).__name__)
    if progress:
        progress(len(img), len(img))


def mount(dev):
    dev.run(MOUNT)


def unmount(dev):
    dev.run(UNMOUNT)


class _Said(io.StringIO):
    """mpremote's romfs deploy prints where it writes: that is the progress; the last line says a failure."""

    OFFSET = re.compile(r"Writing at offset (\d+)")

    def __init__(self, total, progress):
        super().__init__()
        self.total = total
        self.progress = progress

    def write(self, text):
        m = self.OFFSET.search(text)
        if m and self.progress:
            self.progress(min(int(m.group(1)), self.total), self.total)
        return super().write(text)

    def last_line(self):
        lines = [ln.strip() for ln in self.getvalue().replace("\r", "\n").splitlines() if ln.strip()]
        return lines[-1] if lines else ""
