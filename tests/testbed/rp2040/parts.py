"""The parts of a cup around an emulated RP2040 (rp2040py): the LIS3DH on the I2C bus, the buttons on their
GPIO pins, the NeoPixel chain on its data line. Each is wired to the chip the way the board file
(hardware/boards/<name>.json) wires the real part, and each keeps time by the guest's clock, never the
host's: the emulator runs about 20x slower than a chip, and a shake or a press lasts what it lasts for the
firmware.

Everything here runs on the emulator's own thread (its I2C, GPIO and clock callbacks), so nothing locks.
"""

import csv
import math

# RP2040 GPIO function select (datasheet 2.19.2): 3 is I2C on every pin.
FUNC_I2C = 3

G = 9.80665                      # m/s^2 per g: the traces are in m/s^2

# LIS3DH (ST DocID17530): registers and what the cup's driver (firmware/drivers/lis3dh.py) uses.
WHO_AM_I = 0x0F
LIS3DH_ID = 0x33
CTRL_REG1 = 0x20
CTRL_REG2 = 0x21
CTRL_REG3 = 0x22
CTRL_REG4 = 0x23
CTRL_REG5 = 0x24
REFERENCE = 0x26
STATUS_REG = 0x27
OUT_X_L = 0x28
INT1_CFG = 0x30
INT1_SRC = 0x31
INT1_THS = 0x32
AUTO_INC = 0x80                  # sub-address MSB: the address increments after each byte (sec. 6.1.1)
_LPEN = 0x08                     # CTRL_REG1: low-power mode (8-bit output)
_HR = 0x08                       # CTRL_REG4: high-resolution mode (12-bit output)
# mg per digit for FS = +-2/4/8/16 g (table 4), in high-resolution, normal and low-power modes, and how far
# each mode's value is shifted left in the 16-bit output register (left-justified).
_MG_PER_DIGIT = {"hr": (1, 2, 4, 12), "normal": (4, 8, 16, 48), "lp": (16, 32, 64, 192)}
_SHIFT = {"hr": 4, "normal": 6, "lp": 8}
_REST = (0.0, 0.0, G)            # the cup upright on a table
# Interrupt 1 (sec. 8.19-8.22): INT1_THS's LSb per FS = +-2/4/8/16 g in mg; the ODR (CTRL_REG1's top
# nibble) in Hz.
_THS_MG = (16, 32, 62, 186)
_ODR_HZ = {1: 1, 2: 10, 3: 25, 4: 50, 5: 100, 6: 200, 7: 400, 8: 1600, 9: 1344}


def read_trace(path):
    """A recorded accelerometer trace (tests/data/*_accel.csv: t_ms, ax, ay, az in m/s^2, 100 Hz) as a
    list of (ax, ay, az) and its sample period in ms."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if len(rows) < 2 or not {"t_ms", "ax", "ay", "az"} <= set(rows[0]):
        raise ValueError("%s: not an accelerometer trace (t_ms,ax,ay,az)" % path)
    period = float(rows[1]["t_ms"]) - float(rows[0]["t_ms"])
    return [(float(r["ax"]), float(r["ay"]), float(r["az"])) for r in rows], period


def motion_start(samples, period_ms, lead_ms=200.0, threshold=2.0):
    """Ms into a trace where the cup starts to move (|a| off g by more than threshold), less lead_ms: a
    replay starts there rather than through seconds of the cup at rest, which cost minutes at 20x."""
    for i, (x, y, z) in enumerate(samples):
        if abs(math.sqrt(x * x + y * y + z * z) - G) > threshold:
            return max(0.0, i * period_ms - lead_ms)
    return 0.0


class Lis3dh:
    """An ST LIS3DH at ``addr`` on the RP2040's I2C block whose SDA/SCL pins the board file names. Its
    output registers give the sample of the playing trace at the guest's time; the cup at rest otherwise."""

    def __init__(self, sda, scl, addr=0x18, int1=None):
        self.sda, self.scl, self.addr = sda, scl, addr
        self.int1 = int1                 # the GPIO its INT1 drives (the board file's accel_int), or None
        self._reference = _REST          # the high-pass filter's rest: set by a read of REFERENCE
        self._latched = 0                # interrupt 1's latched event (INT1_SRC's bits) until it is read
        self._int1_alarm = None
        self.block = (sda // 2) % 2      # GP0/1 -> I2C0, GP2/3 -> I2C1, GP4/5 -> I2C0, ...
        self.regs = bytearray(0x40)
        self.regs[WHO_AM_I] = LIS3DH_ID
        self.regs[CTRL_REG1] = 0x07      # power-on: power-down, XYZ enabled
        self._ptr = 0
        self._inc = False
        self._addressed = False          # the first written byte of a transfer is the sub-address
        self._trace = None               # (samples, period_ns, start_ns)
        self.reads = 0                   # OUT_X..Z read transfers: a test sees the firmware polling
        self._mcu = self._clock = self._i2c = None

    def attach(self, mcu):
        self._mcu, self._clock = mcu, mcu.clock
        if self.int1 is not None:        # interrupt 1 looks at each sample the sensor's own clock takes
            self._int1_alarm = mcu.clock.create_alarm(self._sample_int1)
            self._int1_alarm.schedule(100e6)
        i2c = self._i2c = mcu.i2c[self.block]
        i2c.on_connect = self._on_connect
        i2c.on_write_byte = self._on_write
        i2c.on_read_byte = self._on_read

    def play(self, samples, period_ms, from_ms=0.0):
        """Replay a trace from from_ms on, from now on the guest's clock; its last sample holds after."""
        skip = int(from_ms // period_ms)
        self._trace = (samples[skip:] or samples[-1:], period_ms * 1e6, self._clock.nanos)

    def playing_ms(self):
        """Guest ms of the trace still to play (0 when none plays)."""
        if self._trace is None:
            return 0.0
        samples, period, start = self._trace
        return max(0.0, (start + len(samples) * period - self._clock.nanos) / 1e6)

    def sample(self):
        """(ax, ay, az) in m/s^2 at the guest's time."""
        if self._trace is None:
            return _REST
        samples, period, start = self._trace
        i = int((self._clock.nanos - start) // period)
        return samples[i if i < len(samples) else -1]

    def _wired(self):
        gpio = self._mcu.gpio
        return gpio[self.sda].function_select == FUNC_I2C and gpio[self.scl].function_select == FUNC_I2C

    def _on_connect(self, address, mode):
        ack = address == self.addr and self._wired()
        if ack and mode == 0:
            self._addressed = False
        self._i2c.complete_connect(ack)

    def _on_write(self, value):
        if not self._addressed:
            self._addressed = True
            self._ptr, self._inc = value & 0x7F, bool(value & AUTO_INC)
            if self._ptr == OUT_X_L:
                self._latch()
        else:
            if self._ptr not in (WHO_AM_I, STATUS_REG) and not OUT_X_L <= self._ptr < OUT_X_L + 6:
                self.regs[self._ptr] = value
            self._step()
        self._i2c.complete_write(True)

    def _on_read(self, ack):
        value = self.regs[self._ptr]
        if self._ptr == REFERENCE:       # normal mode (HPM 00): reading REFERENCE resets the filter to now
            self._reference = self.sample()
        elif self._ptr == INT1_SRC:      # reading INT1_SRC clears a latched event (LIR_INT1)
            value, self._latched = self._latched, 0
            self._drive_int1(0)
        self._step()
        self._i2c.complete_read(value)

    def _step(self):
        if self._inc:
            self._ptr = (self._ptr + 1) & 0x3F

    def _sample_int1(self):
        """One sample at the ODR: interrupt 1's OR of high events (INT1_CFG's XHIE, YHIE, ZHIE) against
        INT1_THS, through the high-pass filter when CTRL_REG2's HP_IA1 says (the cup at rest, whatever way up,
        is no event; the filter modelled as the sample less its reference), latched with CTRL_REG5's LIR_INT1;
        INT1 high (push-pull, CTRL_REG6 0) while CTRL_REG3's I1_IA1 routes the event to it."""
        regs = self.regs
        hz = _ODR_HZ.get(regs[CTRL_REG1] >> 4)
        self._int1_alarm.schedule((1e9 / hz) if hz else 100e6)
        if not hz:
            return
        a = self.sample()
        if regs[CTRL_REG2] & 0x01:
            a = [v - r for v, r in zip(a, self._reference)]
        limit = (regs[INT1_THS] & 0x7F) * _THS_MG[(regs[CTRL_REG4] >> 4) & 3] / 1000 * G
        event = 0
        for axis, v in enumerate(a):
            high = 0x02 << (2 * axis)                       # XH, YH, ZH in INT1_CFG and INT1_SRC
            if regs[INT1_CFG] & high and abs(v) > limit:
                event |= high
        if event:
            event |= 0x40                                   # IA: an interrupt is active
            if regs[CTRL_REG5] & 0x08:
                self._latched |= event
        self._drive_int1(bool((event or self._latched) and regs[CTRL_REG3] & 0x40))

    def _drive_int1(self, level):
        if self.int1 is not None:
            self._mcu.gpio[self.int1].set_input_value(bool(level))

    def _latch(self):
        """Fill OUT_X_L..OUT_Z_H from the sample now: once per read of the six, as block data update does."""
        self.reads += 1
        regs = self.regs
        regs[STATUS_REG] = 0x0F                      # ZYXDA: a new sample on every axis
        if not regs[CTRL_REG1] >> 4:                 # ODR 0000: power-down, the outputs read 0
            regs[OUT_X_L:OUT_X_L + 6] = bytes(6)
            return
        mode = "lp" if regs[CTRL_REG1] & _LPEN else "hr" if regs[CTRL_REG4] & _HR else "normal"
        mg = _MG_PER_DIGIT[mode][(regs[CTRL_REG4] >> 4) & 3]
        shift = _SHIFT[mode]
        top = (1 << (15 - shift)) - 1
        for i, a in enumerate(self.sample()):
            digits = max(-top - 1, min(top, round(a / G * 1000 / mg)))
            raw = (digits << shift) & 0xFFFF
            regs[OUT_X_L + 2 * i] = raw & 0xFF
            regs[OUT_X_L + 2 * i + 1] = raw >> 8


class Buttons:
    """The cup's four buttons, each between its GPIO pin and GND (active low, the chip's pull-up) or 3V3.
    A hold lasts its ms on the guest's clock."""

    def __init__(self, pins, active_low=True):
        self.pins = list(pins)
        self.active_low = active_low
        self._mcu = None
        self._alarms = []

    def attach(self, mcu):
        self._mcu = mcu
        self._alarms = [mcu.clock.create_alarm(lambda n=n: self.release(n)) for n in range(len(self.pins))]
        for n in range(len(self.pins)):
            self.release(n)

    def press(self, n):
        self._alarms[n].cancel()
        self._mcu.gpio[self.pins[n]].set_input_value(not self.active_low)

    def release(self, n):
        # An open button drives nothing: the pin reads what its pull resistor says (rp2040py's GPIO model).
        self._mcu.gpio[self.pins[n]].release_input()

    def hold(self, n, ms):
        self.press(n)
        self._alarms[n].schedule(ms * 1e6)

    def pressed(self, n):
        return self._mcu.gpio[self.pins[n]].input_value == (not self.active_low)


def ledline(gpio, on_frame):
    """The NeoPixel chain on ``gpio``: rp2040py's WS2812 decoder (edges timed on the guest's clock, bits by
    their duty cycle), its pixels handed on as the cup's LED frame, GRB bytes as the chain takes them
    (schocken_host.links.ledframe)."""
    from rp2040py.external.ws2812 import Ws2812

    def frame(pixels):
        on_frame(bytes(c for r, g, b in pixels for c in (g, r, b)))
    return Ws2812(gpio, color_order="GRB", on_pixels=frame)
