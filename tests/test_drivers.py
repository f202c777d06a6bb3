"""LIS3DH and MPU-6050 drivers against a fake I2C bus, on CPython and on the MicroPython unix port.

The assertions live in tests/kits/fake_i2c.py so both interpreters run the same checks; this file adds
pytest-level cases and the MicroPython subprocess run.
"""

import os
import subprocess
import sys
from array import array
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FIRMWARE = REPO / "firmware"
KITS = REPO / "tests" / "kits"

from kits import fake_i2c  # noqa: E402
from drivers.lis3dh import LIS3DH  # noqa: E402
from drivers.mpu6050 import MPU6050  # noqa: E402
from schocken_host.provision.build import find_tool  # noqa: E402

BIN = Path(sys.executable).parent
MICROPYTHON = find_tool("micropython")


def test_lis3dh_shared_checks():
    fake_i2c.check_lis3dh()


def test_mpu6050_shared_checks():
    fake_i2c.check_mpu6050()


def test_lis3dh_needs_autoincrement_bit():
    # The fake only auto-increments with the sub-address MSB set, as the chip does: distinct axis
    # values prove the driver sets it (otherwise all three axes would read OUT_X_L).
    bus = fake_i2c.lis3dh_bus()
    dev = LIS3DH(bus)
    dev.init()
    for i, digits in enumerate((100, 200, -300)):
        v = (digits << 4) & 0xFFFF
        bus.regs[0x28 + 2 * i], bus.regs[0x29 + 2 * i] = v & 0xFF, v >> 8
    buf = array("i", (0, 0, 0))
    dev.read_into(buf)
    assert list(buf) == [round(d * 2 * 9.80665) for d in (100, 200, -300)]


@pytest.mark.parametrize("cls,bus", [(LIS3DH, fake_i2c.lis3dh_bus), (MPU6050, fake_i2c.mpu6050_bus)])
def test_missing_device_raises_oserror(cls, bus):
    with pytest.raises(OSError):
        cls(bus(addr=0x50)).init()  # nothing answers at the driver's default address


def test_mpu6050_rest_reading():
    bus = fake_i2c.mpu6050_bus()
    dev = MPU6050(bus)
    dev.init()
    # Flat on the table: x = y = 0, z = +1 g (8192 LSB).
    bus.regs[0x3F], bus.regs[0x40] = 0x20, 0x00
    buf = array("i", (1, 1, 1))
    dev.read_into(buf)
    assert list(buf) == [0, 0, 9807]


@pytest.mark.skipif(MICROPYTHON is None, reason="micropython unix port not installed")
def test_drivers_on_micropython():
    env = dict(os.environ, MICROPYPATH=f"{FIRMWARE}:{FIRMWARE / 'lib'}:{KITS}:.frozen")
    r = subprocess.run([MICROPYTHON, "-X", "heapsize=64k", str(KITS / "fake_i2c.py")],
                       env=env, capture_output=True, text=True, timeout=60, cwd=REPO)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip() == "drivers ok"
