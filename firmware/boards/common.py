# Parts shared by every board module: pixel factory, the console link, sensor kind.
#
# Imports nothing hardware-specific, so the emulated board can use it on CPython and the unix port.

from micropython import const

# Bytes taken from a console per take at most (fewer if the buffer is smaller): a longer burst takes a few
# passes of the cup's loop, the inputs between them; on a console each byte costs a read and a poll anyway.
_READ_SIZE = const(31)
_CTRL_C = const(3)          # interrupt character of the REPL: mpremote's Ctrl-A follows it at once
_NO_STDIO = const(26)       # text of cup.texts (schocken.text), loaded only for the error

# Below cup.leds.BRIGHTNESS_CAP (0.21, the USB current budget for 22 pixels).
DEFAULT_BRIGHTNESS = 0.2


def make_pixels(n, write, brightness):
    """The app's Adafruit-compatible pixel buffer (firmware/cup/pixels.py) around the board's writer.

    write(buf) receives the brightness-scaled GRB bytes on show(), the same bytearray every time.
    """
    from cup.pixels import Pixels

    return Pixels(n, write, 3, brightness, False, "GRB")  # bpp, brightness, auto_write, pixel_order


class Console:
    """A MicroPython stream as the serial cup's link, both ends: ``take(buf)`` gives what has come without
    waiting, ``write(data)`` writes it all.

    A console stream's readinto(buf) waits until buf is full (on a board the driver takes one byte at a time;
    on the unix port the stream reads until it has them all), and nothing says how many have come: ``take``
    reads byte after byte while a ``select.poll`` that does not wait says another is there. Nothing is made
    per byte (ipoll hands back the same tuple every time). The waiting is the loop's (cup/app.py
    ``App.serve``), for all its streams at once: no asyncio, whose modules and tasks would cost a cup about
    5 KB of heap for as long as it runs (issue 16)."""

    def __init__(self, stream, out):  # out: None for a stream only read
        import select
        self.s = stream
        self.out = out
        self.poll = select.poll()
        self.poll.register(stream, select.POLLIN)
        for _ in self.poll.ipoll(0):  # ipoll makes its result tuple once: now, not amid a game's heap
            pass
        self.one = bytearray(1)

    def take(self, buf):
        """What has come, into ``buf``: how many bytes (1 to 31, fewer if buf is smaller), 0 when none has
        come, -1 at the end of input (the host closed the link)."""
        # At most 11 words of frame, or MicroPython takes it from the heap at every call (the cup's loop
        # calls this every pass: tests/test_cup_loop.py): no for loop (its iterator takes four words
        # of the stack), ``next`` on ipoll's iterator instead, which hands back its tuple or None. Methods are
        # called where they are looked up: ``f = self.poll.ipoll`` would make a bound method object per call.
        if next(self.poll.ipoll(0), None) is None:
            return 0
        one = self.one
        n = 0
        while self.s.readinto(one):
            buf[n] = one[0]
            n += 1
            if n == _READ_SIZE or n == len(buf) or one[0] == _CTRL_C:
                break  # after a Ctrl-C the REPL reads on: mpremote's Ctrl-A follows it at once
            if next(self.poll.ipoll(0), None) is None:
                break  # nothing more has come
        return n or -1

    def write(self, data):
        self.out.write(data)  # a blocking stream takes all of it


def stdio_link():
    """(reader, writer) over the USB serial console (standard input and output): one ``Console``."""
    import sys  # here, not with the module: its table stays at 8 names
    if sys.implementation.name == "micropython":
        link = Console(sys.stdin.buffer, sys.stdout.buffer)
        return link, link
    from schocken import text
    raise OSError(text(_NO_STDIO, module="cup.texts"))


def sensor_kind(spec):
    return "switch" if spec.get("sensor") == "switch" else "accel"
