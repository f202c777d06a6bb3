"""Board descriptions, the pin validator and the hardware board modules (with fake machine, neopixel and
bluetooth modules). The emulated board: tests/test_emulated_board.py."""

import copy
import json
import sys
import types
from array import array
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
HW = REPO / "hardware" / "boards"

from kits import fake_i2c  # noqa: E402
from boards import pins  # noqa: E402

BOARD_FILES = sorted(HW.glob("*.json"))
EXPECTED = {
    "esp32_devkitc": ("esp32", "xtensawin"),
    "esp32_s3_devkitc": ("esp32s3", "xtensawin"),
    "pico_w": ("rp2040", "armv6m"),
    "pico2_w": ("rp2350", "armv7emsp"),
}


def spec_of(name):
    return pins.load(HW / f"{name}.json")


# --- board descriptions ------------------------------------------------------------------------------

def test_every_board_has_a_file():
    assert sorted(p.stem for p in BOARD_FILES) == sorted(EXPECTED)


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.stem)
def test_board_json_validates_clean(path):
    spec, problems = pins.check_file(str(path))
    assert problems == []
    assert spec["name"] == path.stem
    assert (spec["chip"], spec["mpy_arch"]) == EXPECTED[path.stem]
    assert spec["ble"] is True and spec["leds"] == 22 and spec["sensor"] == "lis3dh"
    assert spec["buttons_active_low"] is True and spec["buttons_pull"] == "up"
    assert spec["firmware"]["image"] and spec["firmware"]["url"].startswith("https://micropython.org/")
    # Every pin choice is explained.
    assert set(spec["pins"]) <= set(spec["notes"]), set(spec["pins"]) - set(spec["notes"])


def _bad(name, **pin_changes):
    spec = copy.deepcopy(spec_of(name))
    spec["pins"].update(pin_changes)
    return pins.validate(spec)


def _has(problems, *words):
    return any(all(w in p for w in words) for p in problems)


def test_validator_catches_duplicate_pin():
    spec = spec_of("pico_w")
    probs = _bad("pico_w", button_die2=spec["pins"]["button_die1"])
    assert _has(probs, "button_die2", "used twice"), probs


def test_validator_catches_input_only_led_line():
    assert _has(_bad("esp32_devkitc", led_data=35), "led_data", "input-only")


def test_validator_catches_button_without_pullup():
    assert _has(_bad("esp32_devkitc", button_main=36), "button_main", "no internal pull-up")


@pytest.mark.parametrize("name,pin", [("esp32_devkitc", 0), ("esp32_devkitc", 12), ("esp32_s3_devkitc", 46)])
def test_validator_catches_strapping_pin(name, pin):
    assert _has(_bad(name, button_die3=pin), "button_die3", "strapping")


@pytest.mark.parametrize("name,pin", [("esp32_devkitc", 4), ("esp32_devkitc", 25), ("esp32_s3_devkitc", 12)])
def test_validator_catches_adc2_battery_pin(name, pin):
    assert _has(_bad(name, battery_sense=pin), "battery_sense", "ADC2")


@pytest.mark.parametrize("name,pin", [("esp32_devkitc", 6), ("esp32_devkitc", 11), ("esp32_s3_devkitc", 30),
                                      ("esp32_s3_devkitc", 35)])
def test_validator_catches_flash_pin(name, pin):
    assert _has(_bad(name, i2c_scl=pin), "i2c_scl", "flash")


@pytest.mark.parametrize("name,pin,why", [("pico_w", 25, "CYW43"), ("pico2_w", 29, "VSYS"),
                                          ("esp32_s3_devkitc", 19, "USB"), ("esp32_devkitc", 1, "UART0")])
def test_validator_catches_reserved_pin(name, pin, why):
    assert _has(_bad(name, led_data=pin), "led_data", "reserved", why)


def test_validator_catches_non_adc_and_missing_and_bad_values():
    assert _has(_bad("pico_w", battery_sense=15), "battery_sense", "no usable ADC")
    assert _has(_bad("esp32_devkitc", led_data=24), "does not exist")
    spec = copy.deepcopy(spec_of("pico_w"))
    del spec["pins"]["i2c_sda"]
    spec["pins"]["button_main"] = True
    spec["pins"]["extra"] = 3
    probs = pins.validate(spec)
    assert _has(probs, "i2c_sda", "missing") and _has(probs, "button_main", "not a GPIO")
    assert _has(probs, "extra", "unknown role")
    assert pins.validate({"chip": "z80"}) == ["chip 'z80' unknown (known: esp32, esp32s3, rp2040, rp2350)"]
    assert pins.validate([]) == ["spec is not a JSON object"]


def test_validator_checks_rp2_i2c_block_and_sensor_fields():
    assert _has(_bad("pico_w", i2c_scl=7), "i2c_scl", "not an SCL pin of I2C0")
    spec = copy.deepcopy(spec_of("pico2_w"))
    spec.update(mpy_arch="armv6m", leds=21, sensor="mpu6050", ble="yes", battery_divider=0.5, i2c_id=2)
    probs = pins.validate(spec)
    for words in (("mpy_arch",), ("leds",), ("i2c_addr", "mpu6050"), ("ble",), ("battery_divider",),
                  ("i2c_id",)):
        assert _has(probs, *words), (words, probs)
    spec = copy.deepcopy(spec_of("pico_w"))
    spec["sensor"] = "switch"
    spec["pins"]["shake_switch"] = None
    assert _has(pins.validate(spec), "shake_switch", "required")
    spec["sensor"] = "lis3dh"
    spec["pins"]["battery_sense"] = None
    assert pins.validate(spec) == []  # both optional parts may be absent with an accelerometer


# --- hardware board modules with fake machine/neopixel/bluetooth ------------------------------------

class FakePin:
    IN, OUT, PULL_UP, IRQ_FALLING, IRQ_RISING = 1, 2, 4, 8, 16
    levels = {}  # pin number -> level, shared by all Pin objects of one test
    made = {}

    def __init__(self, num, mode=None, pull=None):
        self.num, self.mode, self.pull, self.handler, self.trigger = num, mode, pull, None, None
        FakePin.made[num] = self

    def value(self, v=None):
        if v is None:
            return FakePin.levels.get(self.num, 1)  # pull-up: released reads 1
        FakePin.levels[self.num] = v

    def irq(self, handler=None, trigger=None):
        self.handler, self.trigger = handler, trigger


@pytest.fixture
def hw(monkeypatch):
    """Fake machine/neopixel/bluetooth modules; returns a namespace to steer and inspect them."""
    FakePin.levels, FakePin.made = {}, {}
    ns = types.SimpleNamespace(devices={0x18: fake_i2c.lis3dh_bus(), 0x68: fake_i2c.mpu6050_bus()},
                               written=[], ble=[], uv=2_000_000, u16=0, i2c=None)

    class I2C:
        def __init__(self, bus_id, scl=None, sda=None, freq=None):
            ns.i2c = (bus_id, scl.num, sda.num, freq)

        def readfrom_mem_into(self, addr, reg, buf):
            if addr not in ns.devices:
                raise OSError(19)
            ns.devices[addr].readfrom_mem_into(addr, reg, buf)

        def writeto_mem(self, addr, reg, buf):
            if addr not in ns.devices:
                raise OSError(19)
            ns.devices[addr].writeto_mem(addr, reg, buf)

    class ADC:
        ATTN_11DB = 3

        def __init__(self, pin, atten=None):
            ns.adc = (pin.num, atten)

        def read_uv(self):
            return ns.uv

        def read_u16(self):
            return ns.u16

    class NeoPixel:
        def __init__(self, pin, n):
            self.pin, self.buf = pin, bytearray(3 * n)
            ns.np = self

        def write(self):
            ns.written.append(bytes(self.buf))

    class BLE:
        def active(self, on=None):
            ns.ble.append(on)

    machine = types.ModuleType("machine")
    machine.Pin, machine.I2C, machine.ADC = FakePin, I2C, ADC
    machine.freq = lambda hz=None: ns.__dict__.setdefault("freq", []).append(hz)
    neopixel = types.ModuleType("neopixel")
    neopixel.NeoPixel = NeoPixel
    bluetooth = types.ModuleType("bluetooth")
    bluetooth.BLE = BLE
    for name, mod in (("machine", machine), ("neopixel", neopixel), ("bluetooth", bluetooth)):
        monkeypatch.setitem(sys.modules, name, mod)
    import time
    monkeypatch.setattr(time, "sleep_us", lambda us: None, raising=False)  # MicroPython's, for the LED supply
    for name in ("boards.mcu", "boards.esp32", "boards.rp2"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    yield ns
    for name in ("boards.mcu", "boards.esp32", "boards.rp2"):
        sys.modules.pop(name, None)


def _module_for(spec):
    import importlib

    return importlib.import_module("boards.esp32" if spec["chip"].startswith("esp32") else "boards.rp2")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hardware_board_with_fake_machine(hw, name):
    spec = spec_of(name)
    p = spec["pins"]
    board = _module_for(spec).make_board(spec)
    assert board.name == name and board.spec is spec and board.sensor_kind == "accel"
    assert FakePin.made[p["led_data"]].mode == FakePin.OUT
    order = ("button_die1", "button_die2", "button_die3", "button_main")
    for role in order:
        pin = FakePin.made[p[role]]
        assert (pin.mode, pin.pull) == (FakePin.IN, FakePin.PULL_UP)
        assert pin.handler is None  # polled by the app every 10 ms: no interrupt that nothing waits on
    assert board.read_buttons() == 0
    for bit, role in enumerate(order):
        FakePin.levels[p[role]] = 0  # active-low: pressed pulls to GND
        assert board.read_buttons() == 1 << bit
        FakePin.levels[p[role]] = 1
    # I2C on the JSON's pins; the LIS3DH got its init writes and reads in mm/s^2.
    assert hw.i2c == (spec["i2c_id"], p["i2c_scl"], p["i2c_sda"], spec["i2c_freq"])
    dev = hw.devices[0x18]
    assert dev.regs[0x20] == 0x57 and dev.regs[0x23] == 0x98
    dev.regs[0x2C], dev.regs[0x2D] = 0x40, 0x1F  # z = 500 digits = 1 g
    buf = array("i", (9, 9, 9))
    board.read_accel(buf)
    assert list(buf) == [0, 0, 9807]
    # Pixels: show() hands GRB bytes to the NeoPixel object.
    board.pixels[0] = (200, 100, 50)
    board.pixels.show()
    assert hw.written[-1][:3] == bytes((20, 40, 10)) and len(hw.written[-1]) == 66  # brightness 0.2
    # The LED supply switch: on while a pixel is lit, off once all are dark (the frame still written).
    supply = FakePin.made[p["led_power"]]
    assert supply.mode == FakePin.OUT and FakePin.levels[p["led_power"]] == 1
    board.pixels[0] = 0
    board.pixels.show()
    assert FakePin.levels[p["led_power"]] == 0 and hw.written[-1] == bytes(66)
    # Battery through the divider: pin at 2.0 V -> 4.0 V battery.
    assert hw.adc[0] == p["battery_sense"]
    hw.u16 = 65535 * 2000 // 3300
    mv = board.battery_mv()
    assert 3990 <= mv <= 4000
    board.radio_on()
    assert hw.ble == ([True] if spec["chip"].startswith("esp32") else [])
    assert getattr(hw, "freq", [None]) == [spec["cpu_mhz"] * 1000000]   # the clock the board file names
    assert len(board.urandom(8)) == 8


def test_hardware_board_switch_and_mpu6050_variants(hw):
    spec = copy.deepcopy(spec_of("esp32_devkitc"))
    spec["sensor"] = "switch"
    board = _module_for(spec).make_board(spec)
    assert board.sensor_kind == "switch" and hw.i2c is None
    assert board.read_switch() == 0
    FakePin.levels[spec["pins"]["shake_switch"]] = 0
    assert board.read_switch() == 1
    with pytest.raises(OSError):
        board.read_accel(array("i", (0, 0, 0)))
    spec.update(sensor="mpu6050", i2c_addr=0x68)
    spec["pins"]["battery_sense"] = None
    board = _module_for(spec).make_board(spec)
    assert hw.devices[0x68].regs[0x1C] == 0x08 and board.battery_mv() is None


def test_hardware_board_fails_loudly_without_sensor(hw):
    hw.devices.clear()
    spec = spec_of("pico_w")
    with pytest.raises(OSError):
        _module_for(spec).make_board(spec)


def test_board_json_leaves_out_what_only_the_host_reads():
    """The enclosure's dimensions stay on the host: the cup parses /board.json into its heap at each start."""
    from schocken_host.provision.boards import HOST_ONLY, board_json, board_names, board_spec
    for name in board_names():
        spec = board_spec(name)
        written = json.loads(board_json(spec))
        assert not set(HOST_ONLY) & set(written), name
        assert written == {k: v for k, v in spec.items() if k not in HOST_ONLY}, name
    assert "mechanical" in board_spec("pico_w")   # the board file itself keeps it (hardware/enclosure/)
