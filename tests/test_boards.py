"""Board descriptions, the pin validator, the board modules and the emulated board.

Runs on CPython; the MicroPython unix port and mpy-cross run as subprocesses.
"""

import asyncio
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import types
from array import array
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FIRMWARE = REPO / "firmware"
TESTS = REPO / "tests"
HW = REPO / "hardware" / "boards"
for p in (str(FIRMWARE), str(FIRMWARE / "lib"), str(TESTS)):
    if p not in sys.path:
        sys.path.insert(0, p)

import fake_i2c  # noqa: E402
from boards import emulated, pins  # noqa: E402

BIN = Path(sys.executable).parent
MICROPYTHON = shutil.which("micropython", path=str(BIN)) or shutil.which("micropython")
MPY_CROSS = shutil.which("mpy-cross", path=str(BIN)) or shutil.which("mpy-cross")
MICROPYPATH = f"{FIRMWARE}:{FIRMWARE / 'lib'}:.frozen"
BOARD_FILES = sorted(HW.glob("*.json"))
EXPECTED = {
    "esp32_devkitc": ("esp32", "xtensawin"),
    "esp32_s3_devkitc": ("esp32s3", "xtensawin"),
    "pico_w": ("rp2040", "armv6m"),
    "pico2_w": ("rp2350", "armv7emsp"),
}
needs_mp = pytest.mark.skipif(MICROPYTHON is None, reason="micropython unix port not installed")


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
    for words in (("mpy_arch",), ("leds",), ("i2c_addr", "mpu6050"), ("ble",), ("battery_divider",), ("i2c_id",)):
        assert _has(probs, *words), (words, probs)
    spec = copy.deepcopy(spec_of("pico_w"))
    spec["sensor"] = "switch"
    spec["pins"]["shake_switch"] = None
    assert _has(pins.validate(spec), "shake_switch", "required")
    spec["sensor"] = "lis3dh"
    spec["pins"]["battery_sense"] = None
    assert pins.validate(spec) == []  # both optional parts may be absent with an accelerometer


# --- source rules -------------------------------------------------------------------------------------

SOURCES = sorted((FIRMWARE / "boards").glob("*.py")) + sorted((FIRMWARE / "drivers").glob("*.py"))
HARDWARE_MODULES = {"mcu.py", "esp32.py", "rp2.py", "ble.py"}  # = tests/test_main.py HARDWARE_BOARD_MODULES


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_only_hardware_board_modules_import_hardware(path):
    text = path.read_text()
    hits = re.findall(r"^\s*(?:import|from)\s+(machine|neopixel|bluetooth)\b", text, re.M)
    if path.name not in HARDWARE_MODULES:
        assert hits == []
    assert not re.search(r"^\s*(?:import|from)\s+(dataclasses|enum|typing|functools)\b", text, re.M)
    assert len(text.splitlines()) <= 300


@pytest.mark.skipif(MPY_CROSS is None, reason="mpy-cross not installed")
@pytest.mark.parametrize("arch", ["xtensawin", "armv6m", "armv7emsp"])
def test_firmware_compiles_with_mpy_cross(arch, tmp_path):
    for src in SOURCES:
        out = tmp_path / f"{src.parent.name}_{src.stem}.mpy"
        r = subprocess.run([MPY_CROSS, f"-march={arch}", "-o", str(out), str(src)],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0 and out.stat().st_size > 0, f"{src}: {r.stderr}"


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
    neopixel = types.ModuleType("neopixel")
    neopixel.NeoPixel = NeoPixel
    bluetooth = types.ModuleType("bluetooth")
    bluetooth.BLE = BLE
    for name, mod in (("machine", machine), ("neopixel", neopixel), ("bluetooth", bluetooth)):
        monkeypatch.setitem(sys.modules, name, mod)
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
        assert pin.trigger == FakePin.IRQ_FALLING | FakePin.IRQ_RISING
    assert board.read_buttons() == 0
    for bit, role in enumerate(order):
        FakePin.levels[p[role]] = 0  # active-low: pressed pulls to GND
        assert board.read_buttons() == 1 << bit
        FakePin.levels[p[role]] = 1
    assert not board.button_event.is_set()
    FakePin.made[p["button_main"]].handler(FakePin.made[p["button_main"]])
    assert board.button_event.is_set()
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
    # Battery through the divider: pin at 2.0 V -> 4.0 V battery.
    assert hw.adc[0] == p["battery_sense"]
    hw.u16 = 65535 * 2000 // 3300
    mv = board.battery_mv()
    assert 3990 <= mv <= 4000
    board.radio_on()
    assert hw.ble == ([True] if spec["chip"].startswith("esp32") else [])
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


# --- emulated board -----------------------------------------------------------------------------------

def test_emulated_board_buttons_sensor_frames():
    frames = []
    b = emulated.make_board(spec_of("pico_w"), frame_sink=frames.append, urandom=lambda n: bytes(range(n)),
                            battery_mv=4100)
    assert b.name == "emulated" and b.sensor_kind == "accel" and b.pixels.n == 22
    assert b.apply_control("press 0") is None and b.apply_control(b"press 3\n") is None
    assert b.read_buttons() == 0b1001 and b.button_event.is_set()
    assert b.apply_control("release 0") is None and b.read_buttons() == 0b1000
    buf = array("i", (0, 0, 0))
    b.read_accel(buf)
    assert list(buf) == [0, 0, 9807]  # at rest, upright
    assert b.apply_control("accel 100 -200 9000") is None
    b.read_accel(buf)
    assert list(buf) == [100, -200, 9000]
    assert b.apply_control("accel 99999 0 0") is None  # clipped like a saturated +-4 g sensor
    b.read_accel(buf)
    assert buf[0] == 39227
    # shake 500: 50 samples of motion at 100 Hz, then rest.
    assert b.apply_control("shake 500") is None
    samples = []
    for _ in range(60):
        b.read_accel(buf)
        samples.append(tuple(buf))
    motion = samples[:50]
    assert max(abs(s[0]) for s in motion) > 20000 and len(set(motion)) > 10
    assert all(max(abs(v) for v in s) <= 39227 for s in motion)
    assert samples[50:] == [(0, 0, 9807)] * 10
    b.pixels.fill((255, 0, 0))
    b.pixels.show()
    assert frames == [bytes((0, 51, 0)) * 22] and b.last_frame == frames[0] and b.frames == 1
    assert b.urandom(3) == b"\x00\x01\x02" and b.battery_mv() == 4100
    assert b.apply_control("battery 3500") is None and b.battery_mv() == 3500
    assert b.apply_control("battery none") is None and b.battery_mv() is None
    b.radio_on()
    assert b.radio


def test_emulated_switch_board_and_shake():
    spec = copy.deepcopy(spec_of("esp32_devkitc"))
    spec["sensor"] = "switch"
    b = emulated.make_board(spec)
    assert b.sensor_kind == "switch" and b.read_switch() == 0
    assert b.apply_control("switch 1") is None and b.read_switch() == 1
    assert b.apply_control("shake 200") is None
    levels = [b.read_switch() for _ in range(25)]
    assert levels[:20] == [1] * 5 + [0] * 5 + [1] * 5 + [0] * 5 and levels[20:] == [0] * 5


GARBAGE = ["", "   ", "# comment", "press", "press 4", "press -1", "press 1 2", "press x", "release 99",
           "accel", "accel 1 2", "accel 1 2 3 4", "accel 1.5 2 3", "accel a b c", "switch", "switch 2",
           "switch on", "shake", "shake 0", "shake -10", "shake 1e3", "shake 600001", "shake 10 20",
           "battery", "battery -1", "battery x", "PRESS 1", "frobnicate", "\x00\x01", "press\t1\t", None, 42,
           b"\xff\xfe\xfd", bytearray(b"press 2"), ["press", "1"], "9" * 500]
VALID = ["", "   ", "# comment", "press\t1\t", bytearray(b"press 2")]


def test_control_parser_rejects_garbage_without_raising():
    b = emulated.make_board()
    for line in GARBAGE:
        err = b.apply_control(line)
        if any(type(line) is type(v) and line == v for v in VALID):
            assert err is None, line
        else:
            assert isinstance(err, str) and err.startswith("error:"), (line, err)
    rnd = __import__("random").Random(7)
    for _ in range(2000):
        line = bytes(rnd.randrange(256) for _ in range(rnd.randrange(12)))
        assert b.apply_control(line) is None or isinstance(b.apply_control(line), str)
        words = ["press", "release", "accel", "switch", "shake", "battery", "-", "1", "3", "x", "none"]
        b.apply_control(" ".join(rnd.choice(words) for _ in range(rnd.randrange(5))))


def test_run_control_reads_a_stream():
    async def main():
        reader = asyncio.StreamReader()
        reader.feed_data(b"press 1\nbogus\naccel 1 2 3\n")
        reader.feed_eof()
        errors = []
        b = emulated.make_board(control=reader)
        await b.run_control(reply=errors.append)
        buf = array("i", (0, 0, 0))
        b.read_accel(buf)
        return b.read_buttons(), errors, list(buf)

    assert asyncio.run(main()) == (2, ["error: unknown command 'bogus'"], [1, 2, 3])


def test_emulated_button_event_wakes_a_waiter():
    async def main():
        b = emulated.make_board()
        waiter = asyncio.create_task(b.button_event.wait())
        await asyncio.sleep(0)
        b.apply_control("press 2")
        await asyncio.wait_for(waiter, 1)
        return b.button_event.is_set()

    assert asyncio.run(main()) is False  # wait() clears the flag, like ThreadSafeFlag


# The same scripts on both interpreters: identical output proves the shared code behaves the same.
# Two scripts, not one: compiling everything from source at once does not fit a 64 KB heap (the
# firmware itself runs from .mpy).
PINS_SCRIPT = r"""
from boards import pins
names = ("esp32_devkitc", "esp32_s3_devkitc", "pico_w", "pico2_w")
for n in names:
    print(n, pins.check_file("hardware/boards/%s.json" % n)[1])
bad = pins.load("hardware/boards/esp32_devkitc.json")
bad["pins"]["led_data"] = 34
bad["pins"]["battery_sense"] = 4
bad["pins"]["button_die1"] = 0
bad["pins"]["button_die2"] = 7
bad["pins"]["button_die3"] = 7
for p in pins.validate(bad):
    print(p)
print("pins ok")
"""

EMU_SCRIPT = r"""
from array import array
from boards import emulated, pins
frames = []
b = emulated.make_board(pins.load("hardware/boards/pico2_w.json"), frame_sink=frames.append)
print(b.apply_control("press 3"), b.read_buttons(), b.apply_control("shake 300"))
buf = array("i", (0, 0, 0))
for i in range(32):
    b.read_accel(buf)
    print(buf[0], buf[1], buf[2])
b.pixels[21] = (10, 200, 30)
b.pixels.show()
print(list(frames[-1][-3:]), len(frames))
seed = 12345
for i in range(300):
    line = bytearray()
    for j in range(seed % 9):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        line.append(seed >> 16 & 0xFF if seed & 1 else b"press acl shk 0123-"[seed % 19])
    seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
    err = b.apply_control(bytes(line))
    assert err is None or err.startswith("error:"), err
for line in ("press 9", "accel 1 2", "zap", "shake x", 7):
    print(b.apply_control(line) is None)
print("emulated ok")
"""


def _run_both(script):
    out = []
    for cmd, env in (([MICROPYTHON, "-X", "heapsize=64k"], dict(os.environ, MICROPYPATH=MICROPYPATH)),
                     ([sys.executable, "-"], dict(os.environ, PYTHONPATH=f"{FIRMWARE}:{FIRMWARE / 'lib'}"))):
        r = subprocess.run(cmd, input=script, env=env, capture_output=True, text=True, timeout=60, cwd=REPO)
        assert r.returncode == 0, f"{cmd[0]}:\n{r.stdout}{r.stderr}"
        out.append(r.stdout)
    assert out[0] == out[1]
    return out[0]


@needs_mp
def test_pin_validator_same_on_micropython_and_cpython():
    out = _run_both(PINS_SCRIPT)
    assert out.count(" []\n") == 4 and "input-only" in out and "ADC2" in out and "strapping" in out
    assert "flash/PSRAM" in out and "used twice" in out and out.endswith("pins ok\n")


@needs_mp
def test_emulated_board_same_on_micropython_and_cpython():
    out = _run_both(EMU_SCRIPT)
    assert out.endswith("emulated ok\n") and "None 8 None" in out


@pytest.mark.parametrize("sensor", ["lis3dh", "switch"])
def test_synthetic_shake_makes_a_throw_for_the_cup_detector(sensor):
    # Integration with firmware/cup/shake.py (another module): a `shake 800` line must read as a real
    # shake followed by rest, i.e. exactly one final throw shortly after the 80 synthetic samples.
    shake = pytest.importorskip("cup.shake")
    b = emulated.make_board({"leds": 22, "sensor": sensor})
    det = shake.ShakeDetector(sensor="switch" if sensor == "switch" else "accel")
    assert b.apply_control("shake 800") is None
    buf = array("i", (0, 0, 0))
    throws = []
    for i in range(200):
        if sensor == "switch":
            final = det.feed_switch(i * 10, b.read_switch())
        else:
            b.read_accel(buf)
            final = det.feed_accel(i * 10, buf[0], buf[1], buf[2])
        if final:
            throws.append(i)
    assert len(throws) == 1 and 80 <= throws[0] <= 100, throws
