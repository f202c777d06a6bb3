"""The emulated RP2040 board's parts (testbed.rp2040.parts), on a stand-in chip: the LIS3DH
answers as ST's datasheet says and only on the board file's pins, a recorded trace plays on the chip's clock,
a hold lasts the chip's time, a NeoPixel frame comes out in the host's GRB order. Pure and fast: the
emulator itself runs in tests/test_target.py (SCHOCKEN_TARGET=rp2040:IMAGE.uf2)."""

from pathlib import Path

import pytest

from testbed.rp2040 import parts

SHAKE = Path(__file__).parent / "data" / "shake_accel.csv"
BOARD = {"i2c_sda": 4, "i2c_scl": 5}


class Alarm:
    def __init__(self, clock, callback):
        self.clock, self.callback, self.due = clock, callback, None

    def schedule(self, delta_nanos):
        self.due = self.clock.nanos + delta_nanos

    def cancel(self):
        self.due = None


class Clock:
    def __init__(self):
        self.nanos = 0.0
        self.alarms = []

    def create_alarm(self, callback):
        self.alarms.append(Alarm(self, callback))
        return self.alarms[-1]

    def advance(self, ms):
        self.nanos += ms * 1e6
        for a in self.alarms:
            if a.due is not None and a.due <= self.nanos:
                a.due = None
                a.callback()


class I2C:
    """The RP2040 I2C block's side of rp2040py's device hooks: what the device completed."""

    def __init__(self):
        self.acks, self.read = [], []

    def complete_connect(self, ack):
        self.acks.append(ack)

    def complete_write(self, ack):
        self.acks.append(ack)

    def complete_read(self, value):
        self.read.append(value)


class Pin:
    def __init__(self):
        self.function_select = parts.FUNC_I2C
        self.driven = None

    def set_input_value(self, value):
        self.driven = value

    def release_input(self):
        self.driven = None

    @property
    def input_value(self):
        return True if self.driven is None else self.driven   # the pull-up


class Chip:
    def __init__(self):
        self.clock = Clock()
        self.i2c = [I2C(), I2C()]
        self.gpio = [Pin() for _ in range(30)]


@pytest.fixture
def chip():
    return Chip()


@pytest.fixture
def sensor(chip):
    s = parts.Lis3dh(BOARD["i2c_sda"], BOARD["i2c_scl"], 0x18)
    s.attach(chip)
    return s


def read(chip, sensor, sub, n):
    """A readfrom_mem: the sub-address written, then n bytes read after a repeated start."""
    bus = chip.i2c[sensor.block]
    bus.on_connect(0x18, 0)
    bus.on_write_byte(sub)
    bus.on_connect(0x18, 1)
    bus.read.clear()
    for _ in range(n):
        bus.on_read_byte(True)
    return list(bus.read)


def write(chip, sensor, sub, data):
    bus = chip.i2c[sensor.block]
    bus.on_connect(0x18, 0)
    for b in (sub, *data):
        bus.on_write_byte(b)


def test_who_am_i_is_0x33_on_the_i2c_block_of_the_board_files_pins(chip, sensor):
    assert sensor.block == 0                                     # GP4/GP5: I2C0 in the RP2040's table
    assert read(chip, sensor, parts.WHO_AM_I, 1) == [0x33]
    assert chip.i2c[0].acks[0] is True


def test_the_sensor_is_silent_at_another_address_or_when_its_pins_are_not_i2c(chip, sensor):
    bus = chip.i2c[0]
    bus.on_connect(0x19, 0)
    chip.gpio[BOARD["i2c_sda"]].function_select = 5             # SIO: the pin is a plain GPIO now
    bus.on_connect(0x18, 0)
    assert bus.acks == [False, False]


def test_control_registers_are_written_and_read_back_with_auto_increment(chip, sensor):
    write(chip, sensor, parts.CTRL_REG1 | parts.AUTO_INC, [0x57, 0x00, 0x00, 0x98])
    assert read(chip, sensor, parts.CTRL_REG1 | parts.AUTO_INC, 4) == [0x57, 0, 0, 0x98]
    assert read(chip, sensor, parts.CTRL_REG1, 2) == [0x57, 0x57]   # no 0x80: the same register again


def axes(raw):
    return [int.from_bytes(bytes(raw[i:i + 2]), "little", signed=True) for i in (0, 2, 4)]


def test_at_rest_the_outputs_read_1_g_in_the_scale_and_resolution_the_firmware_set(chip, sensor):
    assert read(chip, sensor, parts.OUT_X_L | parts.AUTO_INC, 6) == [0] * 6      # power-down: ODR 0
    write(chip, sensor, parts.CTRL_REG4, [0x98])                 # +-4 g, high resolution (12 bit)
    write(chip, sensor, parts.CTRL_REG1, [0x57])                 # 100 Hz
    assert axes(read(chip, sensor, parts.OUT_X_L | parts.AUTO_INC, 6)) == [0, 0, 500 << 4]   # 2 mg a digit
    write(chip, sensor, parts.CTRL_REG4, [0x00])                 # +-2 g, normal mode (10 bit)
    assert axes(read(chip, sensor, parts.OUT_X_L | parts.AUTO_INC, 6)) == [0, 0, 250 << 6]   # 4 mg a digit


def test_a_recorded_trace_plays_on_the_chips_clock_and_holds_its_last_sample(chip, sensor):
    samples, period = parts.read_trace(SHAKE)
    assert period == 10 and len(samples) == 400
    start = parts.motion_start(samples, period)
    assert 800 <= start <= 1300, start                            # the cup rests ~1.3 s before the shake
    sensor.play(samples, period, start)
    chip.clock.advance(250)
    assert sensor.sample() == samples[int(start // period) + 25]
    chip.clock.advance(10_000)
    assert sensor.sample() == samples[-1] and sensor.playing_ms() == 0


def test_a_trace_that_is_no_accelerometer_trace_is_refused_in_one_line(tmp_path):
    bad = tmp_path / "x.csv"
    bad.write_text("t_ms,level\n0,1\n10,0\n")
    with pytest.raises(ValueError, match="not an accelerometer trace"):
        parts.read_trace(bad)


def test_a_hold_lasts_its_ms_on_the_chips_clock(chip):
    buttons = parts.Buttons([10, 11, 12, 13], active_low=True)
    buttons.attach(chip)
    buttons.hold(3, 200)
    assert chip.gpio[13].input_value is False and buttons.pressed(3)     # active low: pressed reads 0
    chip.clock.advance(199)
    assert buttons.pressed(3)
    chip.clock.advance(2)
    assert not buttons.pressed(3) and chip.gpio[13].driven is None       # let go: the pull-up decides


def test_a_neopixel_frame_comes_out_in_the_chains_grb_order():
    pytest.importorskip("rp2040py")
    frames = []
    line = parts.ledline(22, frames.append)
    line.on_pixels([(255, 0, 0), (0, 0, 255)])
    assert frames == [bytes([0, 255, 0, 0, 0, 255])]


def test_the_host_keeps_each_frame_with_the_chips_ms_it_latched_at():
    # What the cup knew when it drew a frame is told by the chip's clock, not by the frame's arrival at the
    # host (tests/test_target.py's table): the board's "leds HEX GUEST_MS" line keeps both, in step.
    from testbed.rp2040 import Rp2040Board
    board = Rp2040Board("unused.uf2")
    heard = []
    board.listeners.append(lambda frame: heard.append((frame, board.frame_ms[-1])))
    board._line("leds 00ff00 1234.567")
    board._line("leds 0000ff 1250.000")
    board._line("leds zz 1260.000")          # a torn line: neither kept nor counted
    assert board.frames == [bytes([0, 255, 0]), bytes([0, 0, 255])] and board.frame_ms == [1234.567, 1250.0]
    assert heard == [(bytes([0, 255, 0]), 1234.567), (bytes([0, 0, 255]), 1250.0)] and board.frame_count == 2


class DriverBus:
    """machine.I2C's two calls the cup's driver makes, on the stand-in chip's I2C block."""

    def __init__(self, chip, sensor):
        self.chip, self.sensor = chip, sensor

    def writeto_mem(self, addr, reg, buf):
        write(self.chip, self.sensor, reg, bytes(buf))

    def readfrom_mem_into(self, addr, reg, buf):
        buf[:] = bytes(read(self.chip, self.sensor, reg, len(buf)))


def test_the_drivers_wake_on_motion_raises_int1_on_the_board_files_pin_and_holds_it(chip):
    """Issue 43: the cup's LIS3DH driver (firmware/drivers/lis3dh.py wake_on_motion, registers per ST's
    datasheet and AN3308) sets low power at 10 Hz and interrupt 1 on motion; the sensor's INT1 stays low with
    the cup at rest whatever way up, goes high (latched) once a recorded shake moves it, and falls when the
    firmware reads INT1_SRC."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "firmware"))
    from drivers.lis3dh import LIS3DH
    pin = 16                                                      # pico_w.json's accel_int
    sensor = parts.Lis3dh(BOARD["i2c_sda"], BOARD["i2c_scl"], 0x18, int1=pin)
    sensor.attach(chip)
    tilted = (3.0, 0.0, 9.33)                                      # lying a little on its side, still
    sensor.play([tilted] * 10, 100.0)
    dev = LIS3DH(DriverBus(chip, sensor))
    dev.wake_on_motion(200)
    assert sensor.regs[parts.CTRL_REG1] == 0x2F and sensor.regs[parts.CTRL_REG3] == 0x40
    assert sensor.regs[parts.INT1_THS] == 6 and sensor.regs[parts.INT1_CFG] == 0x2A
    for _ in range(10):
        chip.clock.advance(100)
    assert chip.gpio[pin].driven is False                          # at rest, tilted or not: no motion
    samples, period = parts.read_trace(SHAKE)
    sensor.play(samples, period, parts.motion_start(samples, period))
    for _ in range(30):
        chip.clock.advance(100)
        if chip.gpio[pin].driven:
            break
    assert chip.gpio[pin].driven is True                           # the shake woke it
    sensor.play([tilted] * 10, 100.0)                              # still again: the event stays latched
    chip.clock.advance(500)
    assert chip.gpio[pin].driven is True
    assert read(chip, sensor, parts.INT1_SRC, 1)[0] & 0x40         # IA: what woke it, then cleared
    chip.clock.advance(300)
    assert chip.gpio[pin].driven is False
