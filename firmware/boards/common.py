# Parts shared by every board module: pixel factory, interrupt flag, stdio link, sensor kind.
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
