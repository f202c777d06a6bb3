# Emulated board for the desktop: runs on the MicroPython unix port and on CPython, imports no machine.
#
# Inputs arrive as text lines on a control channel (format in docs/emulation.md), parsed by
# apply_control(); LED frames leave through frame_sink(bytes). Everything else (RNG, battery, link)
# can be injected so tests are deterministic.

import os

from boards import common
from cup import clock  # read at call time: emulate.py may have put a scaled clock in (timescale.py)

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

NAME = "emulated"
_N_BUTTONS = const(4)  # 0..2 = die buttons, 3 = main
_G_MMS2 = const(9807)  # 1 g in mm/s^2
_ACCEL_LIMIT = const(39227)  # +-4 g: a real sensor saturates here, so the emulation clips too
_SAMPLE_MS = const(10)  # 100 Hz: each read_accel()/read_switch() call consumes one sample
_SHAKE_MAX_MS = const(60000)
_HOLD_MAX_MS = const(60000)
HOLD_GAP_MS = const(60)  # a held button is pressed again only after it was up this long (a thumb; > debounce)
_REST = (0, 0, _G_MMS2)  # cup standing upright

# One period (20 samples = 200 ms, a 5 Hz hand shake) of sin() * 1000: ints, so no floats per sample.
_SIN = (0, 309, 588, 809, 951, 1000, 951, 809, 588, 309,
        0, -309, -588, -809, -951, -1000, -951, -809, -588, -309)
_SHAKE_AMP = (25000, 6000, 12000)  # x, y, z amplitude in mm/s^2 (peak ~3.2 g on x/z)
_SWITCH_HALF = const(5)  # vibration switch toggles every 5 samples (50 ms) while shaking

DEFAULT_SPEC = {
    "name": NAME,
    "chip": None,
    "ble": False,
    "leds": 22,
    "brightness": common.DEFAULT_BRIGHTNESS,
    "sensor": "lis3dh",
    "battery_divider": 1,
    "pins": {},
}


def _clip(v):
    return -_ACCEL_LIMIT if v < -_ACCEL_LIMIT else _ACCEL_LIMIT if v > _ACCEL_LIMIT else v


class EmulatedBoard:
    def __init__(self, spec=None, frame_sink=None, urandom=None, battery_mv=3900, link=None):
        self.spec = spec if spec is not None else DEFAULT_SPEC
        self.name = NAME
        self.frame_sink = frame_sink
        self._urandom = urandom if urandom is not None else os.urandom
        self._battery = battery_mv
        self._link = link
        self.radio = False
        self.frames = 0  # LED frames shown so far
        n = self.spec.get("leds", 22)
        brightness = self.spec.get("brightness", common.DEFAULT_BRIGHTNESS)
        self.pixels = common.make_pixels(n, self._write_leds, brightness)
        self.button_event = common.make_flag()
        self.sensor_kind = common.sensor_kind(self.spec)
        self._buttons = 0
        # "hold N MS": the board presses and releases the button itself, on its own clock, in read_buttons().
        self._holds = 0  # buttons down by a hold, released at _until[n]
        self._pending = 0  # holds waiting to be pressed: the button is down, or up for less than HOLD_GAP_MS
        self._hold_ms = [0] * _N_BUTTONS
        self._until = [0] * _N_BUTTONS
        self._up_since = [clock.ticks_add(clock.ticks_ms(), -HOLD_GAP_MS)] * _N_BUTTONS  # last release
        self._accel = list(_REST)
        self._switch = 0
        self._shake_left = 0  # samples of synthetic shake still to deliver
        self._phase = 0
        self.on_input = None  # optional callable(ms): a physical input that lasts ms (emulate.py: clock.busy)
        self._rng_stuck = False  # "rng stuck": the RNG gives one byte value forever (a dead ring oscillator)

    # --- board interface -------------------------------------------------------------------------
    def _write_leds(self, buf):
        self.frames += 1
        if self.frame_sink is not None:
            self.frame_sink(bytes(buf))  # a copy: the pixel object reuses its buffer

    def read_buttons(self):
        if self._holds | self._pending:
            self._run_holds()
        return self._buttons

    def _run_holds(self):
        # A hold is pressed at a read (once its button has been up for HOLD_GAP_MS: a press right after a
        # release would fall inside the app's debounce and never be seen) and released at the first read MS ms
        # of the board's clock later: the app's 10 ms polls see MS (to the next poll), whatever the host's
        # timing.
        now = clock.ticks_ms()
        for n in range(_N_BUTTONS):
            bit = 1 << n
            if self._holds & bit:
                if clock.ticks_diff(now, self._until[n]) >= 0:
                    self._holds &= ~bit
                    self._buttons &= ~bit
                    self._up_since[n] = now
                    self._irq()
            elif self._pending & bit and not self._buttons & bit:
                up = clock.ticks_diff(now, self._up_since[n])
                if up >= HOLD_GAP_MS or up < 0:  # < 0: up for more than half the ticks period
                    self._pending &= ~bit
                    self._holds |= bit
                    self._buttons |= bit
                    self._until[n] = clock.ticks_add(now, self._hold_ms[n])
                    self._input(self._hold_ms[n])  # a hold that waited: the clock runs fast from here
                    self._irq()

    def read_accel(self, buf):
        if self._shake_left > 0:
            k = self._phase % 20
            buf[0] = _clip(_SHAKE_AMP[0] * _SIN[k] // 1000)
            buf[1] = _clip(_SHAKE_AMP[1] * _SIN[(k + 5) % 20] // 1000)
            buf[2] = _clip(_G_MMS2 + _SHAKE_AMP[2] * _SIN[(2 * k) % 20] // 1000)
            self._step()
        else:
            a = self._accel
            buf[0], buf[1], buf[2] = a[0], a[1], a[2]

    def read_switch(self):
        if self._shake_left > 0:
            level = ((self._phase // _SWITCH_HALF) & 1) ^ 1  # closes on the first sample
            self._step()
            return level
        return self._switch

    def _step(self):
        self._phase += 1
        self._shake_left -= 1
        if self._shake_left == 0:
            # "then rest": upright and still, switch open.
            self._accel = list(_REST)
            self._switch = 0

    def urandom(self, n):
        if self._rng_stuck:
            return bytes(n)
        return self._urandom(n)

    def radio_on(self):
        self.radio = True

    def battery_mv(self):
        return self._battery

    def link(self):
        if self._link is not None:
            return self._link
        return common.stdio_link()

    # --- control channel -------------------------------------------------------------------------
    def apply_control(self, line):
        """Apply one control line. Returns None if applied (or blank/comment), else an error string.

        Never raises: a bad line from the host must not kill the firmware.
        """
        try:
            return self._apply(line)
        except Exception as e:  # noqa: BLE001 - the contract is "never raises"
            return "error: %s: %r" % (type(e).__name__, line)

    def _apply(self, line):
        if isinstance(line, (bytes, bytearray)):
            line = bytes(line).decode()
        if not isinstance(line, str):
            return "error: line must be str or bytes"
        words = line.split()
        if not words or words[0].startswith("#"):
            return None
        cmd, args = words[0], words[1:]
        if cmd in ("press", "release"):
            if len(args) != 1:
                return "error: usage: %s N (N = 0..3)" % cmd
            n = _int(args[0])
            if n is None or not 0 <= n < _N_BUTTONS:
                return "error: button must be 0..3, got %r" % args[0]
            if cmd == "press":
                self._buttons |= 1 << n
            else:
                self._buttons &= ~(1 << n)
                self._up_since[n] = clock.ticks_ms()
            self._holds &= ~(1 << n)  # an explicit edge ends a hold of that button, and one waiting
            self._pending &= ~(1 << n)
            self._input(0)
            self._irq()
        elif cmd == "hold":
            n = _int(args[0]) if len(args) == 2 else None
            ms = _int(args[1]) if len(args) == 2 else None
            if n is None or not 0 <= n < _N_BUTTONS or ms is None or not 0 < ms <= _HOLD_MAX_MS:
                return "error: usage: hold N MS (N = 0..3, MS = 1..%d)" % _HOLD_MAX_MS
            self._pending |= 1 << n  # pressed at the next read that may (a hold sent before it waits)
            self._hold_ms[n] = ms
            self._input(ms)
        elif cmd == "accel":
            vals = [_int(a) for a in args]
            if len(vals) != 3 or None in vals:
                return "error: usage: accel AX AY AZ (int mm/s^2)"
            self._accel = [_clip(v) for v in vals]
            self._shake_left = 0  # an explicit reading overrides a shake in progress
            self._input(0)
        elif cmd == "switch":
            v = _int(args[0]) if len(args) == 1 else None
            if v not in (0, 1):
                return "error: usage: switch 0|1"
            self._switch = v
            self._shake_left = 0
            self._input(0)
        elif cmd == "shake":
            ms = _int(args[0]) if len(args) == 1 else None
            if ms is None or not 0 < ms <= _SHAKE_MAX_MS:
                return "error: usage: shake MS (1..%d)" % _SHAKE_MAX_MS
            self._shake_left = max(1, ms // _SAMPLE_MS)
            self._phase = 0
            self._input(ms)
        elif cmd == "rng":
            if len(args) != 1 or args[0] not in ("stuck", "ok"):
                return "error: usage: rng stuck|ok"
            self._rng_stuck = args[0] == "stuck"
        elif cmd == "battery":
            if len(args) == 1 and args[0] == "none":
                self._battery = None
                return None
            mv = _int(args[0]) if len(args) == 1 else None
            if mv is None or not 0 <= mv <= 20000:
                return "error: usage: battery MV|none"
            self._battery = mv
        else:
            return "error: unknown command %r" % cmd
        return None

    def _input(self, ms):
        # A scaled clock (emulate.py --time-scale) runs fast while the physical world moves.
        if self.on_input is not None:
            self.on_input(ms)

    def _irq(self):
        # Same effect as a pin interrupt on hardware: wake whoever waits on button_event.
        if self.button_event is not None:
            self.button_event.set()


def _int(s):
    # int() that answers None instead of raising, so the parser stays exception-free on bad input.
    s = s.strip()
    body = s[1:] if s[:1] in ("-", "+") else s
    if not body or not body.isdigit():
        return None
    return int(s)


def make_board(spec=None, frame_sink=None, urandom=None, battery_mv=3900, link=None):
    return EmulatedBoard(spec, frame_sink, urandom, battery_mv, link)
