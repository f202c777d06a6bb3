"""The emulated cup board's process: an RP2040 in rp2040py running the user's MicroPython .uf2, with the
cup's parts wired where the board file puts them (parts.py), its USB CDC on a pty the host opens like a
board's serial port, and a control channel for the physical world.

    python -m testbed.rp2040 IMAGE.uf2 --control /dev/pts/N [--board pico_w] [--trace CSV]
        [--link PATH]

The control channel speaks the emulated cups' line protocol (docs/emulation.md) where it can. In:
``press N``, ``release N``, ``hold N MS`` (button N of the board's button_die1..3, button_main, held MS of
the guest's time), ``shake [MS]`` (the --trace recorded trace, from where the cup starts to move; a
recorded shake lasts what it lasts, so MS is not used), ``trace CSV [FROM_MS]``, ``clock``, ``reset``,
``unplug``, ``plug`` (the USB cable, below). Out: ``hello rp2040py``, ``port PTY`` (the --link path when
given), ``usb WALL_S GUEST_MS`` (the chip is on the USB bus), ``leds HEX GUEST_MS`` (each NeoPixel frame
and the chip's ms as it latched), ``clock GUEST_MS``, ``playing GUEST_MS FROM_MS`` (a trace's sample FROM_MS
is at the chip's GUEST_MS), ``reset GUEST_MS`` (the chip is back on USB after a ``reset``), ``unplugged
GUEST_MS``, ``plugged GUEST_MS``, ``done``, ``error: ...``.

``unplug`` is the cable of a cup on its own battery pulled at the laptop: the chip runs on; its pty closes
(a host holding it reads the end of the port, as a vanished /dev/ttyACM0 gives), the emulated USB host drops
DTR (nobody has the port open: MicroPython's CDC then writes without waiting) and takes nothing the chip
sends. ``plug`` opens a new pty, points --link at it (as /dev/serial/by-id names a board again) and raises
DTR. rp2040py 0.3.6 does not model the bus itself going away in device mode (no VBUS or disconnect to the
chip; its host side enumerates once), so the chip sees its port closed and opened, not a re-enumeration.
"""

import argparse
import asyncio
import json
import os
import sys
import termios
import time
import tty
from pathlib import Path

from testbed.rp2040 import parts

BOARDS = Path(__file__).resolve().parents[4] / "hardware" / "boards"
BUTTON_ROLES = ("button_die1", "button_die2", "button_die3", "button_main")   # firmware/boards/mcu.py


def load_board(name):
    """The board file (hardware/boards/NAME.json, or a path to one) as a dict."""
    path = Path(name) if name.endswith(".json") else BOARDS / (name + ".json")
    return json.loads(path.read_text())


class Harness:
    def __init__(self, image, board, control_fd, trace=None, link=None):
        from rp2040py.boards import BOARDS as CHIPS
        from rp2040py.boards import resolve_firmware
        from rp2040py.device.mp_device import MicroPythonDevice
        # A Pico W image talks to its radio chip at boot; rp2040py's pico_w board has one (CYW43439).
        chip = "pico_w" if "PICO_W" in Path(image).name.upper() else "pico"
        self.device = MicroPythonDevice(board=resolve_firmware(CHIPS[chip], "micropython", str(image)))
        self.mcu = self.device.mcu
        self.clock = self.mcu.clock
        pins = board["pins"]
        self.sensor = parts.Lis3dh(pins["i2c_sda"], pins["i2c_scl"], board.get("i2c_addr", 0x18),
                                   pins.get("accel_int"))
        self.buttons = parts.Buttons([pins[r] for r in BUTTON_ROLES], board.get("buttons_active_low", True))
        self.leds = parts.ledline(pins["led_data"], self._on_frame)
        for part in ((self.sensor,) if board.get("sensor") == "lis3dh" else ()) + (self.buttons, self.leds):
            part.attach(self.mcu)
        self.trace = parts.read_trace(trace) if trace else None
        self.control_fd = control_fd
        self.link = link              # the stable path of the USB port (a symlink to its pty), or None
        self.usb_port = None          # the USB CDC's pty bridge while the cable is in, else None
        self.parent = os.getppid()
        self._buf = b""

    def say(self, line):
        try:
            os.write(self.control_fd, line.encode() + b"\n")
        except OSError:
            pass

    def _on_frame(self, frame):
        self.say("leds %s %.3f" % (frame.hex(), self.guest_ms()))

    def guest_ms(self):
        """The chip's time in ms as its own TIMER counts it (what time.ticks_ms() reads, before the wrap):
        the emulator's clock less the moment the boot released the TIMER from reset."""
        return self.mcu.timer._micros() / 1000

    def on_control(self):
        try:
            data = os.read(self.control_fd, 4096)
        except OSError:
            return
        self._buf += data
        while b"\n" in self._buf:
            line, self._buf = self._buf.split(b"\n", 1)
            error = self.apply(line.decode(errors="replace").split())
            if error:
                self.say("error: " + error)

    def apply(self, words):
        """One control line's words; an error text, or None when applied."""
        if not words:
            return None
        cmd, args = words[0], words[1:]
        try:
            nums = [float(a) for a in args] if cmd != "trace" else []
        except ValueError:
            return "%s: numbers expected, got %s" % (cmd, " ".join(args))
        n = int(nums[0]) if nums else -1
        button = 0 <= n < len(self.buttons.pins)
        if cmd in ("press", "release") and len(nums) == 1 and button:
            (self.buttons.press if cmd == "press" else self.buttons.release)(n)
        elif cmd == "hold" and len(nums) == 2 and button and nums[1] > 0:
            self.buttons.hold(n, nums[1])
        elif cmd == "shake" and len(nums) <= 1:
            if self.trace is None:
                return "shake: no recorded trace (--trace CSV)"
            samples, period = self.trace
            start = parts.motion_start(samples, period)
            self.sensor.play(samples, period, start)
            self.say("playing %.3f %.0f" % (self.guest_ms(), start))
        elif cmd == "trace" and 1 <= len(args) <= 2:
            try:
                samples, period = parts.read_trace(args[0])
                start = float(args[1]) if len(args) > 1 else 0.0
                self.sensor.play(samples, period, start)
                self.say("playing %.3f %.0f" % (self.guest_ms(), start))
            except (OSError, ValueError) as e:
                return "trace: %s" % e
        elif cmd == "clock" and not args:
            self.say("clock %.3f" % self.guest_ms())
        elif cmd in ("unplug", "plug") and not args:
            if (self.usb_port is None) == (cmd == "unplug"):
                return "%s: the cable is %s" % (cmd, "out" if self.usb_port is None else "in")
            asyncio.ensure_future(self._unplug() if cmd == "unplug" else self._plug())
        elif cmd == "reset" and not args:
            # The RUN pin: the chip restarts from its flash and drops off USB, on the emulator's own thread.
            done = self.device.hard_reset_async(timeout=None)
            done.add_done_callback(lambda f: self.say("reset %.3f" % self.guest_ms() if not f.exception()
                                                      else "error: reset: %s" % f.exception()))
        else:
            return "unknown or malformed control line: %s" % " ".join(words)
        return None

    async def _open_port(self):
        """A new pty bridged to the chip's USB CDC; its path, or the --link path now pointing at it."""
        from rp2040py.cli.pty_repl import PtyInteractiveRepl
        sim = self.device.simulator
        usb_port = PtyInteractiveRepl(self.device.cdc, sim, on_quit=sim.shutdown_request.request)
        await usb_port.start()
        self.usb_port = usb_port
        if self.link is None:
            return usb_port.slave_path
        fresh = self.link + ".new"
        if os.path.lexists(fresh):
            os.unlink(fresh)
        os.symlink(usb_port.slave_path, fresh)
        os.replace(fresh, self.link)       # atomic: a host opening the link finds the old pty or the new one
        return self.link

    async def _unplug(self):
        usb_port, self.usb_port = self.usb_port, None
        if self.link is not None and os.path.lexists(self.link):
            os.unlink(self.link)
        self.device.set_control_lines(dtr=False, rts=False)
        await usb_port.stop()
        self.say("unplugged %.3f" % self.guest_ms())

    async def _plug(self):
        try:
            path = await self._open_port()
        except OSError as e:
            self.say("error: plug: %s" % e)
            return
        self.device.set_control_lines(dtr=True, rts=True)
        self.say("port %s" % path)
        self.say("plugged %.3f" % self.guest_ms())

    async def run(self, timeout):
        sim = self.device.simulator
        path = await self._open_port()
        loop = asyncio.get_running_loop()
        loop.add_reader(self.control_fd, self.on_control)
        self.say("hello rp2040py")
        self.say("port %s" % path)
        started = time.monotonic()
        try:
            await self.device.astart(timeout=timeout)
            self.say("usb %.3f %.3f" % (time.monotonic() - started, self.guest_ms()))
            # The board lives as long as the process that started it: an orphan would spin a core for nothing.
            while sim.executing and not sim.shutdown_request.event.is_set() and os.getppid() == self.parent:
                await asyncio.sleep(0.1)
            if sim.engine_room_error is not None:
                raise sim.engine_room_error
        finally:
            loop.remove_reader(self.control_fd)
            self.device.stop()
            if self.usb_port is not None:
                await self.usb_port.stop()
            if self.link is not None and os.path.lexists(self.link):
                os.unlink(self.link)
            self.say("done")


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m testbed.rp2040",
                                 description="An emulated RP2040 cup board (rp2040py), a MicroPython .uf2")
    ap.add_argument("image", help="the MicroPython image for the Pico (RPI_PICO-*.uf2 or RPI_PICO_W-*.uf2)")
    ap.add_argument("--control", required=True, help="the control channel's pty (or any file to write)")
    ap.add_argument("--board", default="pico_w", help="board file name or path (hardware/boards)")
    ap.add_argument("--trace", help="the recorded accelerometer trace `shake` plays (tests/data/*_accel.csv)")
    ap.add_argument("--link", help="keep this path a symlink to the USB port's pty, across unplug and plug")
    ap.add_argument("--timeout", type=float, default=120.0, help="wall seconds for the chip to reach USB")
    args = ap.parse_args(argv)
    if not os.path.isfile(args.image):   # rp2040py would take a missing path for a version tag to download
        print("rp2040 board: no image at %s" % args.image, file=sys.stderr)
        return 2
    try:
        board = load_board(args.board)
        fd = os.open(args.control, os.O_RDWR | os.O_NOCTTY)
        if os.isatty(fd):
            tty.setraw(fd, termios.TCSANOW)
        harness = Harness(args.image, board, fd, args.trace, args.link)
    except (OSError, ValueError, KeyError) as e:
        print("rp2040 board: %s" % e, file=sys.stderr)
        return 2
    try:
        asyncio.run(harness.run(args.timeout))
    except (TimeoutError, RuntimeError) as e:
        print("rp2040 board: %s" % e, file=sys.stderr)
        return 1
    return 0
