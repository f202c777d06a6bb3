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
    """(reader, writer) asyncio streams over the USB serial console (stdin/stdout). The reader carries a
    ``select.poll`` of its stream, ``reader.poll``: a console stream's read(n) and readinto(buf) wait until
    they have n bytes (on a board the driver takes one byte at a time; on the unix port the stream reads until
    it has them all) and nothing says how many have come, so the app awaits the first byte and takes the
    others one by one while the poll says, without waiting, that another is there (cup/app.py ``_take``)."""
    if sys.implementation.name == "micropython":
        import select
        stdin = sys.stdin.buffer
        reader = asyncio.StreamReader(stdin)
        reader.poll = select.poll()
        reader.poll.register(stdin, select.POLLIN)
        for _ in reader.poll.ipoll(0):  # ipoll makes its result tuple once: now, not amid a game's heap
            pass
        return reader, asyncio.StreamWriter(sys.stdout.buffer)
    raise OSError("stdio_link() on CPython: pass link=(reader, writer) to the emulated board")


def sensor_kind(spec):
    return "switch" if spec.get("sensor") == "switch" else "accel"
