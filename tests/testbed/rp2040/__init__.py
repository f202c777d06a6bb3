"""The emulated RP2040 cup board (issue 34's ``rp2040:IMAGE.uf2`` target): the user's MicroPython image in
rp2040py, the cup's parts wired where the board file puts them, USB CDC on a pty.

``Rp2040Board`` starts the board's process (harness.py) and is its host side: ``port`` is the chip's USB
serial port for deploy, doctor and the host link (one path for the board's life, as /dev/serial/by-id gives:
a symlink to the pty of the moment); ``press``/``hold``/``shake`` move the physical world, ``unplug``/``plug``
its USB cable;
``frames`` are the LED frames decoded off the NeoPixel data line (schocken_host.links.ledframe's format),
``frame_ms`` the chip's ms as each latched: a frame reaches the host later than the chip drew it, by what
the emulator, the pipe and the reader thread take, so what the cup knew when it drew a frame is told by this
clock.
The hold and shake times are the guest's: the emulator runs about 20x slower than a chip.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from schocken_host.emulation.emulator import open_pty
from testbed import module_env


class BoardError(RuntimeError):
    """The board's process did not start or said it failed; the text is one line."""


class Rp2040Board:
    """One emulated RP2040 board process. ``port`` is the USB CDC's pty, ``started`` the monotonic time the
    process started, ``usb`` its (wall s, guest ms) when the chip came up on USB."""

    def __init__(self, image, board="pico_w", trace=None):
        self.image, self.board, self.trace = str(image), board, trace
        self.proc = None
        self.port = None
        self.usb = None
        self.started = None
        self.frames = []            # LED frames (bytes), newest last, the last 200
        self.frame_ms = []          # the chip's ms as each of ``frames`` latched on its data line
        self.frame_count = 0
        self.listeners = []         # callables(frame), run in the reader thread after each frame
        # What a bot at a table reads of an emulated cup (table/bots.py): this board is never restarted under
        # it, and its saved state is in the chip's flash, not a file here.
        self.starts = 1
        self.state_path = None
        self.errors = []            # "error: ..." lines
        self.resets = []            # the chip's ms as it came back on USB after each reset
        self.cable = []             # ("unplugged" or "plugged", the chip's ms) for each move of the cable
        self.playing = []           # (chip's ms, trace's ms) as each trace started
        self._clock = []            # answers to "clock"
        self._lock = threading.Condition()
        self._ctl = self._ctl_slave = None
        self._reader = None
        self._folder = None         # where the port's stable path lives

    def start(self, timeout=120.0):
        """Start the board and wait until its chip is on the USB bus; BoardError if it is not in time."""
        self._ctl, self._ctl_slave = open_pty()
        self._folder = tempfile.mkdtemp(prefix="rp2040-usb-")
        cmd = [sys.executable, "-m", "testbed.rp2040", self.image, "--board", self.board,
               "--control", os.ttyname(self._ctl_slave), "--timeout", str(timeout),
               "--link", os.path.join(self._folder, "ttyACM0")]
        if self.trace:
            cmd += ["--trace", str(self.trace)]
        self.started = time.monotonic()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, process_group=0, env=module_env())
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        if not self._wait(lambda: self.usb is not None, timeout):
            why = self.last_words()
            self.close()
            raise BoardError("the emulated RP2040 did not come up on USB within %.0f s: %s" % (timeout, why))
        return self

    def _wait(self, cond, timeout):
        deadline = time.monotonic() + timeout
        with self._lock:
            while not cond():
                left = deadline - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    return cond()
                self._lock.wait(min(left, 0.2))
        return True

    def _read(self):
        buf = b""
        while True:
            try:
                data = os.read(self._ctl, 65536)
            except OSError:
                return
            if not data:
                return
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                self._line(line.decode(errors="replace").strip())

    def _line(self, line):
        word, _, rest = line.partition(" ")
        with self._lock:
            if word == "leds":
                hexed, _, at = rest.partition(" ")
                try:
                    frame, at = bytes.fromhex(hexed), float(at)
                except ValueError:
                    return
                self.frames.append(frame)
                self.frame_ms.append(at)
                del self.frames[:-200], self.frame_ms[:-200]
                self.frame_count += 1
                for listener in list(self.listeners):
                    listener(self.frames[-1])
            elif word == "port":
                self.port = rest
            elif word == "usb":
                wall, guest = rest.split()
                self.usb = (float(wall), float(guest))
            elif word == "clock":
                self._clock.append(float(rest))
            elif word == "playing":
                at, start = rest.split()
                self.playing.append((float(at), float(start)))
            elif word == "reset":
                self.resets.append(float(rest))
            elif word in ("unplugged", "plugged"):
                self.cable.append((word, float(rest)))
            elif word == "error:":
                self.errors.append(line)
            self._lock.notify_all()

    # --- the physical world ---------------------------------------------------------------------
    def control(self, line):
        if self._ctl is None:
            raise OSError("the emulated RP2040 board is closed")
        os.write(self._ctl, line.encode() + b"\n")

    def press(self, button):
        self.control("press %d" % button)

    def release(self, button):
        self.control("release %d" % button)

    def hold(self, button, ms):
        """Press button (0..2 the dice, 3 the main button) for ms of the chip's own time."""
        self.control("hold %d %d" % (button, ms))

    def shake(self, ms=0):
        """Play the board's recorded shake trace to its accelerometer (its own length; ms is not used)."""
        self.control("shake")

    def reset(self, timeout=120.0):
        """The RUN pin: the chip restarts (its flash kept, main.py runs as at power-up); returns once it is
        back on USB, BoardError when it is not in time."""
        n = len(self.resets)
        self.control("reset")
        if not self._wait(lambda: len(self.resets) > n, timeout):
            raise BoardError("the emulated RP2040 did not come back after a reset: " + self.last_words())

    def unplug(self, timeout=60.0):
        """Pull the USB cable (the chip runs on, as on its battery): returns once the port is gone."""
        self._cable("unplug", timeout)

    def plug(self, timeout=60.0):
        """Plug the USB cable in again: returns once ``port`` opens on the chip again."""
        self._cable("plug", timeout)

    def _cable(self, word, timeout):
        with self._lock:
            n, errors = len(self.cable), len(self.errors)
        self.control(word)
        if not self._wait(lambda: len(self.cable) > n or len(self.errors) > errors, timeout):
            raise BoardError("the emulated RP2040 did not say its cable moved: " + self.last_words())
        if len(self.errors) > errors:
            raise BoardError("the emulated RP2040 refused to %s: %s" % (word, self.errors[errors]))

    def play_trace(self, path, from_ms=0):
        self.control("trace %s %d" % (path, from_ms))

    def guest_ms(self, timeout=30.0):
        """The chip's clock in ms (the emulator's time, not the host's)."""
        with self._lock:
            n = len(self._clock)
        self.control("clock")
        if not self._wait(lambda: len(self._clock) > n, timeout):
            raise BoardError("the emulated RP2040 did not tell its clock: " + self.last_words())
        return self._clock[n]

    def frames_since(self, count):
        with self._lock:
            new = self.frame_count - count
            return self.frames[-new:] if new > 0 else []

    def wait_frame(self, cond, since=0, timeout=60.0):
        """The first LED frame after ``since`` frames that cond(frame) holds for, or None after timeout."""
        found = []

        def seen():
            found[:] = [f for f in self.frames_since(since) if cond(f)][:1]
            return bool(found)
        self._wait(seen, timeout)
        return found[0] if found else None

    @property
    def last_frame(self):
        return self.frames[-1] if self.frames else None

    def last_words(self):
        if self.proc is None or self.proc.poll() is None:
            return "the board's process runs" + ("; " + self.errors[-1] if self.errors else "")
        said = b"" if self.proc.stderr.closed else self.proc.stderr.read() or b""
        err = said.decode(errors="replace").strip()
        return "the board's process ended (exit %s): %s" % (self.proc.returncode, err[-300:] or "no output")

    def close(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for fd in (self._ctl, self._ctl_slave):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._ctl = self._ctl_slave = None
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None
        if self.proc is not None and self.proc.stderr:
            self.proc.stderr.close()

    def __enter__(self):
        return self.start() if self.proc is None else self

    def __exit__(self, *exc):
        self.close()
