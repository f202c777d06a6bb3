# Parts shared by every board module: pixel factory, interrupt flag, stdio link, sensor factory.
#
# Imports nothing hardware-specific, so the emulated board can use it on CPython and the unix port.

import sys

try:
    import asyncio
except ImportError:  # very small ports without asyncio: link()/flags are then unavailable
    asyncio = None

# Below cup.leds.BRIGHTNESS_CAP (0.21, the USB current budget for 22 pixels).
DEFAULT_BRIGHTNESS = 0.2


def make_pixels(n, write, brightness=DEFAULT_BRIGHTNESS):
    """The app's Adafruit-compatible pixel buffer (firmware/cup/pixels.py) around the board's writer.

    write(buf) receives the brightness-scaled GRB bytes on show(), the same bytearray every time.
    """
    from cup.pixels import Pixels

    return Pixels(n, write, brightness=brightness, auto_write=False)


def make_flag():
    """asyncio.ThreadSafeFlag where it exists (MicroPython), an Event-based stand-in elsewhere."""
    if asyncio is None:
        return None
    tsf = getattr(asyncio, "ThreadSafeFlag", None)
    if tsf is not None:
        return tsf()
    from boards.cpython import EventFlag
    return EventFlag()


def stdio_link():
    """(reader, writer) asyncio streams over the USB serial console (stdin/stdout)."""
    if sys.implementation.name == "micropython":
        return asyncio.StreamReader(sys.stdin.buffer), asyncio.StreamWriter(sys.stdout.buffer, {})
    raise OSError("stdio_link() on CPython: pass link=(reader, writer) to the emulated board")


def sensor_kind(spec):
    return "switch" if spec.get("sensor") == "switch" else "accel"


def make_accel(spec, i2c):
    """Driver object for spec['sensor'] on an I2C bus, initialised; None for a switch board."""
    name = spec.get("sensor")
    if name == "lis3dh":
        from drivers.lis3dh import LIS3DH as cls
    elif name == "mpu6050":
        from drivers.mpu6050 import MPU6050 as cls
    else:
        return None
    addr = spec.get("i2c_addr")
    dev = cls(i2c) if addr is None else cls(i2c, addr)
    dev.init()
    return dev


def battery_mv_from(pin_mv, spec):
    """Battery voltage from the ADC pin voltage and the divider ratio, as int mV."""
    # Ratio kept in thousandths so the result is an int; battery reads are rare, floats are fine here.
    return pin_mv * int(spec.get("battery_divider", 1) * 1000) // 1000
