# Emulated board for the desktop: runs on the MicroPython unix port and on CPython, imports no machine.
#
# Inputs arrive as text lines on a control channel (format in docs/emulation.md), parsed by
# apply_control(); LED frames leave through frame_sink(bytes). Everything else (RNG, battery, link)
# can be injected so tests are deterministic.

from boards import common
from cup import clock  # read at call time: emulate.py may have put a scaled clock in (timescale.py)
from schocken import text

from micropython import const

_N_BUTTONS = const(4)  # 0..2 = die buttons, 3 = main
# _times, per button: the hold's length at 0.., its end at _UNTIL.., the last release at _UP_SINCE..
_UNTIL = const(4)
_UP_SINCE = const(8)
# One period (20 samples = 200 ms, a 5 Hz hand shake) of 128 + 125 * sin(k * 18 degrees): ints, so no floats
# per sample, and a bytes constant, whose data stays in the firmware image (a tuple would take 200 bytes of
# heap in the emulated cup's figure). A name of the module, not a local of read_accel: one more word would
# take its frame over 11 words, onto the heap at every sample (tests/test_cup_loop.py).
_SIN = b"\x80\xa7\xc9\xe5\xf7\xfd\xf7\xe5\xc9\xa7\x80\x59\x37\x1b\x09\x03\x09\x1b\x37\x59"
_G_MMS2 = const(9807)  # 1 g in mm/s^2
_ACCEL_LIMIT = const(39227)  # +-4 g: a real sensor saturates here, so the emulation clips too
_SAMPLE_MS = const(10)  # 100 Hz: each read_accel()/read_switch() call consumes one sample
_SHAKE_MAX_MS = const(60000)
_HOLD_MAX_MS = const(60000)
HOLD_GAP_MS = const(60)  # a held button is pressed again only after it was up this long (a thumb; > debounce)

_AMP_X = const(25000)  # amplitude in mm/s^2 (peak ~3.2 g on x/z)
_AMP_Y = const(6000)
_AMP_Z = const(12000)
_SWITCH_HALF = const(5)  # vibration switch toggles every 5 samples (50 ms) while shaking

# Texts of boards/emulated_texts.py (schocken.text), the control lines' answers: a number each.
_TEXTS = "boards.emulated_texts"
_NOT_TEXT = const(0)
_USAGE_BUTTON = const(1)
_BAD_BUTTON = const(2)
_USAGE_HOLD = const(3)
_USAGE_ACCEL = const(4)
_USAGE_SWITCH = const(5)
_USAGE_SHAKE = const(6)
_USAGE_RNG = const(7)
_USAGE_BATTERY = const(8)
_UNKNOWN = const(9)
_FAILED = const(10)

DEFAULT_SPEC = {
    "name": "emulated",  # the board's name too (self.name): no name of the module for it
    "chip": None,
    "ble": False,
    "leds": 22,
    "brightness": common.DEFAULT_BRIGHTNESS,
    "sensor": "lis3dh",
    "pins": {},  # no battery_divider: the emulated battery is set in millivolts (control line "battery")
}


class EmulatedBoard:
    def __init__(self, spec=None, frame_sink=None, urandom=None, battery_mv=3900, link=None):
        self.spec = spec if spec is not None else DEFAULT_SPEC
        self.name = DEFAULT_SPEC["name"]
        self.frame_sink = frame_sink
        if urandom is None:
            from os import urandom
        self._urandom = urandom
        self._battery = battery_mv
        # The link (reader, writer) as link() gives it: the board's standard input and output where none is
        # given. An attribute, not a method: the class's table stays at 12 names (13 take 17 slots).
        self.link = common.stdio_link if link is None else lambda: link
        self.asleep = False  # in deep sleep (deep_sleep): until a physical input or a host line
        self.radio = False
        self.frames = 0  # LED frames shown so far
        self.power = None  # the app's power meter (cup/clock.py): told what each frame lights
        n = self.spec.get("leds", 22)
        brightness = self.spec.get("brightness", common.DEFAULT_BRIGHTNESS)
        self.pixels = common.make_pixels(n, self._write_leds, brightness)
        self.sensor_kind = common.sensor_kind(self.spec)
        self._buttons = 0
        # "hold N MS": the board presses and releases the button itself, on its own clock, in read_buttons().
        self._holds = 0  # buttons down by a hold, released at _times[_UNTIL + n]
        self._pending = 0  # holds waiting to be pressed: the button is down, or up for less than HOLD_GAP_MS
        # Per button, in one array: how long its hold lasts, when the hold ends, when it was last released.
        from array import array
        self._times = array("i", bytes(4 * 3 * _N_BUTTONS))
        up = clock.ticks_add(clock.ticks_ms(), -HOLD_GAP_MS)
        for n in range(_N_BUTTONS):
            self._times[_UP_SINCE + n] = up
        self._accel = [0, 0, _G_MMS2]
        self._switch = 0
        self._shake_left = 0  # samples of synthetic shake still to deliver
        self._phase = 0
        self.on_input = None  # optional callable(ms): a physical input that lasts ms (emulate.py: clock.busy)
        self._rng_stuck = False  # "rng stuck": the RNG gives one byte value forever (a dead ring oscillator)

    # --- board interface -------------------------------------------------------------------------
    def _write_leds(self, buf):
        self.frames += 1
        # The LED supply switch (pins "led_power" on a board: a MOSFET) follows the frame, as on a board: on
        # while a pixel is lit, off when all are dark (the meter notes which).
        clock.frame(self.power, buf, True)
        if self.frame_sink is not None:
            self.frame_sink(bytes(buf))  # a copy: the pixel object reuses its buffer

    # Few methods, each with branches: every method is an object in the cup's heap (docs/benchmarks.md), and
    # the emulation's count in the emulated cup's figure.
    def read_buttons(self):
        if not self._holds | self._pending:
            return self._buttons
        # A hold is pressed at a read (once its button has been up for HOLD_GAP_MS: a press right after a
        # release would fall inside the app's debounce and never be seen) and released at the first read MS ms
        # of the board's clock later: the app's 10 ms polls see MS (to the next poll), whatever the host's
        # timing.
        now = clock.ticks_ms()
        n = 0
        while n < _N_BUTTONS:  # a for loop keeps its end on the stack: a word over the 11 (test_cup_loop)
            bit = 1 << n
            if self._holds & bit:
                if clock.ticks_diff(now, self._times[_UNTIL + n]) >= 0:
                    self._holds &= ~bit
                    self._buttons &= ~bit
                    self._times[_UP_SINCE + n] = now
            elif self._pending & bit and not self._buttons & bit:
                up = clock.ticks_diff(now, self._times[_UP_SINCE + n])
                if up >= HOLD_GAP_MS or up < 0:  # < 0: up for more than half the ticks period
                    self._pending &= ~bit
                    self._holds |= bit
                    self._buttons |= bit
                    self._times[_UNTIL + n] = clock.ticks_add(now, self._times[n])
                    if self.on_input is not None:  # a hold that waited: the clock runs fast from here
                        self.on_input(self._times[n])
            n += 1
        return self._buttons

    def read_accel(self, buf):
        if self._shake_left > 0:
            k = self._phase % 20
            buf[0] = _AMP_X * (_SIN[k] - 128) // 125
            buf[1] = _AMP_Y * (_SIN[(k + 5) % 20] - 128) // 125
            buf[2] = _G_MMS2 + _AMP_Z * (_SIN[(2 * k) % 20] - 128) // 125
            for i in range(3):  # clipped as a real sensor saturates
                v = buf[i]
                buf[i] = -_ACCEL_LIMIT if v < -_ACCEL_LIMIT else _ACCEL_LIMIT if v > _ACCEL_LIMIT else v
            self.read_switch()  # a sample of the shake consumed
        else:
            a = self._accel
            buf[0], buf[1], buf[2] = a[0], a[1], a[2]

    def read_switch(self):
        if self._shake_left <= 0:
            return self._switch
        level = ((self._phase // _SWITCH_HALF) & 1) ^ 1  # closes on the first sample
        self._phase += 1
        self._shake_left -= 1
        if self._shake_left == 0:
            # "then rest": standing upright and still, switch open.
            self._accel = [0, 0, _G_MMS2]
            self._switch = 0
        return level

    def urandom(self, n):
        if self._rng_stuck:
            return bytes(n)
        return self._urandom(n)

    def radio_on(self):
        self.radio = True

    def battery_mv(self):
        return self._battery

    def deep_sleep(self):
        """Off the table (cup/app.py): a board's chip powers down and boots again when woken; this process
        cannot, so the cup's loop makes no passes until a physical input or a host line wakes it
        (``asleep``), and counts the time as deep sleep."""
        self.asleep = True
        if self.frame_sink is not None:
            self.frame_sink(None)  # no frame: the chip is off (emulate.py says "asleep" on the channel)

    # --- control channel -------------------------------------------------------------------------
    def apply_control(self, line):
        """Apply one control line. Returns None if applied (or blank/comment), else an error string.

        Never raises: a bad line from the host must not kill the firmware.
        """
        try:
            if isinstance(line, (bytes, bytearray)):
                line = bytes(line).decode()
            if not isinstance(line, str):
                return text(_NOT_TEXT, module=_TEXTS)
            words = line.split()
            if not words or words[0].startswith("#"):
                return None
            cmd, args = words[0], words[1:]
            # The arguments as ints, None where one is not: the parser raises nothing on bad input. Compared
            # one by one, not "in" a tuple: a tuple constant is an object kept with the module, a short string
            # none (the emulation's heap counts in the emulated cup's figure).
            nums = []
            for a in args:
                nums.append(int(a) if (a[1:] if a[:1] == "-" or a[:1] == "+" else a).isdigit() else None)
            one = nums[0] if len(nums) == 1 else None
            ms = 0  # how long the physical input lasts: a scaled clock (emulate.py --time-scale) runs fast
            if cmd == "press" or cmd == "release":
                if len(args) != 1:
                    return text(_USAGE_BUTTON, cmd, module=_TEXTS)
                if one is None or not 0 <= one < _N_BUTTONS:
                    return text(_BAD_BUTTON, args[0], module=_TEXTS)
                if cmd == "press":
                    self._buttons |= 1 << one
                else:
                    self._buttons &= ~(1 << one)
                    self._times[_UP_SINCE + one] = clock.ticks_ms()
                self._holds &= ~(1 << one)  # an explicit edge ends a hold of that button, and one waiting
                self._pending &= ~(1 << one)
            elif cmd == "hold":
                n, ms = nums if len(nums) == 2 else [None, None]
                if n is None or not 0 <= n < _N_BUTTONS or ms is None or not 0 < ms <= _HOLD_MAX_MS:
                    return text(_USAGE_HOLD, _HOLD_MAX_MS, module=_TEXTS)
                self._pending |= 1 << n  # pressed at the next read that may (a hold sent before it waits)
                self._times[n] = ms
            elif cmd == "accel":
                if len(nums) != 3 or None in nums:
                    return text(_USAGE_ACCEL, module=_TEXTS)
                self._accel = [-_ACCEL_LIMIT if v < -_ACCEL_LIMIT else _ACCEL_LIMIT if v > _ACCEL_LIMIT else v
                               for v in nums]
                self._shake_left = 0  # an explicit reading overrides a shake in progress
            elif cmd == "switch":
                if one != 0 and one != 1:
                    return text(_USAGE_SWITCH, module=_TEXTS)
                self._switch = one
                self._shake_left = 0
            elif cmd == "shake":
                if one is None or not 0 < one <= _SHAKE_MAX_MS:
                    return text(_USAGE_SHAKE, _SHAKE_MAX_MS, module=_TEXTS)
                self._shake_left = max(1, one // _SAMPLE_MS)
                self._phase = 0
                ms = one
            elif cmd == "rng":
                if len(args) != 1 or args[0] != "stuck" and args[0] != "ok":
                    return text(_USAGE_RNG, module=_TEXTS)
                self._rng_stuck = args[0] == "stuck"
                return None
            elif cmd == "battery":
                if args == ["none"]:
                    self._battery = None
                    return None
                if one is None or not 0 <= one <= 20000:
                    return text(_USAGE_BATTERY, module=_TEXTS)
                self._battery = one
                return None
            else:
                return text(_UNKNOWN, cmd, module=_TEXTS)
            if self.asleep:  # a physical input wakes the cup: a button, or motion on the LIS3DH's INT1
                self.asleep = False
            if self.power is not None:  # and ends its rest: its passes are 10 ms apart again (clock.next_due)
                clock.shelved(self.power, clock.ticks_ms(), False)
            if self.on_input is not None:
                self.on_input(ms)
            return None
        except Exception as e:  # noqa: BLE001 - the contract is "never raises"
            return text(_FAILED, type(e).__name__, line, module=_TEXTS)


# The board's factory, as the hardware boards' make_board: the class itself (a function would be one more
# object in the heap).
make_board = EmulatedBoard
