"""A minimal pixel buffer with the Adafruit ``neopixel.NeoPixel`` API, for MicroPython and CPython.

The cup app talks to ``board.pixels`` through the Adafruit API (see docs/board-interface.md). On
MicroPython there is no adafruit_pixelbuf, so boards wrap their wire writer in this class: the
board passes ``write(buf)`` (``machine.bitstream``/``neopixel`` on hardware, a frame printer on the
emulated board) and ``show()`` hands it the finished bytes.

Bytes on the wire equal adafruit_pixelbuf's for the same calls:

* Two buffers: the colors as set (``_raw``) and the scaled bytes sent (``buf``), both in wire
  order (GRB by default).
* A scaled byte is ``int(value * brightness)`` (truncation). It is read from a 256-entry table
  computed when the brightness changes, so setting pixels and ``show()`` use integers only and
  allocate nothing (floats are heap objects on MicroPython).
* The brightness setter clamps to 0.0..1.0 and ignores a change smaller than 0.001, like
  adafruit_pixelbuf (so the value reads back unchanged).
* An int color is 0xRRGGBB split as ``r = c >> 16`` (not masked: a value above 0xFFFFFF raises
  ValueError when stored, as in adafruit_pixelbuf).

Differences: only 3 bytes per pixel (no RGBW or DotStar); ``pixels[i]`` returns an ``(r, g, b)``
tuple (adafruit_pixelbuf returns a list). On boards with single-precision floats the table can
differ from CPython's by one step for some brightness values; on CPython it is exact.
"""

from micropython import const


_BPP = const(3)
# Texts of cup.texts (schocken.text), loaded only for the error: a number each.
_BPP_3 = const(23)
_ORDER = const(24)

RGB = "RGB"
GRB = "GRB"  # WS2812B wire order, the default as in neopixel.NeoPixel


class Pixels:
    # neopixel.NeoPixel's arguments after its pin, every one given (Adafruit's defaults: 3, 1.0, True, GRB): a
    # function with defaults is an object twice the size in the cup's heap (docs/benchmarks.md).
    def __init__(self, n, write, bpp, brightness, auto_write, pixel_order):
        if bpp != _BPP:
            from schocken import text
            raise ValueError(text(_BPP_3, module="cup.texts"))
        if len(pixel_order) != 3 or "R" not in pixel_order or "G" not in pixel_order \
                or "B" not in pixel_order:
            from schocken import text
            raise ValueError(text(_ORDER, module="cup.texts"))
        self._n = n
        self._write = write
        self._order = pixel_order
        self._ro = pixel_order.index("R")  # byte offsets of each channel inside a pixel
        self._go = pixel_order.index("G")
        self._bo = pixel_order.index("B")
        self._raw = bytearray(n * _BPP)  # colors as set, wire order, before brightness
        self.buf = bytearray(n * _BPP)  # bytes sent by show(), after brightness
        self._lut = bytearray(range(256))  # value -> int(value * brightness); identity at 1.0
        self.auto_write = False  # not while the brightness is first applied (as adafruit)
        self._brightness = 1.0
        self.brightness = brightness
        self.auto_write = auto_write

    @property
    def n(self):
        return self._n

    @property
    def bpp(self):
        return _BPP

    @property
    def byteorder(self):
        return self._order

    def __len__(self):
        return self._n

    @property
    def brightness(self):
        return self._brightness

    @brightness.setter
    def brightness(self, value):
        value = min(max(value, 0), 1.0)  # 0, not 0.0: a float constant is an object kept with the module
        change = value - self._brightness
        if abs(change) < 0.001:  # adafruit_pixelbuf ignores tiny changes; so must we
            return
        self._brightness = value
        lut = self._lut
        for v in range(256):  # the only float work: once per brightness change
            lut[v] = int(v * value)
        raw = self._raw
        buf = self.buf
        for i in range(len(buf)):
            buf[i] = lut[raw[i]]
        if self.auto_write:
            self.show()

    # _put and __setitem__ keep their frames (arguments, locals, stack) to 11 words: MicroPython takes a
    # larger one from the heap at every call, and the LED animation calls them (tests/test_cup_loop.py).
    def _put(self, index, value):
        # One pixel, no allocation: unpacking a tuple and indexing bytearrays make no objects.
        if index < 0:
            index += self._n
        if not 0 <= index < self._n:
            raise IndexError(index)  # the index only: iteration ends here, it must cost nothing
        if isinstance(value, int):
            r = value >> 16
            g = (value >> 8) & 0xFF
            b = value & 0xFF
        else:
            r, g, b = value
        index *= _BPP  # the pixel's first byte
        self._raw[index + self._ro] = r
        self._raw[index + self._go] = g
        self._raw[index + self._bo] = b
        self.buf[index + self._ro] = self._lut[r]
        self.buf[index + self._go] = self._lut[g]
        self.buf[index + self._bo] = self._lut[b]

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            self._put_slice(index, value)
        else:
            self._put(index, value)
        if self.auto_write:
            self.show()

    def _put_slice(self, index, value):
        start, stop, step = index.indices(self._n)
        single = isinstance(value, int) or (
            isinstance(value, tuple) and len(value) == 3 and isinstance(value[0], int)
        )
        j = 0
        for i in range(start, stop, step):
            self._put(i, value if single else value[j])
            j += 1

    def _get(self, index):
        o = index * _BPP
        raw = self._raw
        return (raw[o + self._ro], raw[o + self._go], raw[o + self._bo])

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self._get(i) for i in range(*index.indices(self._n))]
        if index < 0:
            index += self._n
        if not 0 <= index < self._n:
            raise IndexError(index)  # the index only: iteration ends here, it must cost nothing
        return self._get(index)

    def fill(self, color):
        for i in range(self._n):
            self._put(i, color)
        if self.auto_write:
            self.show()

    def show(self):
        """Hand the scaled wire-order bytes to the board's writer (the same buffer every time)."""
        self._write(self.buf)

    def write(self):
        # Deprecated alias in neopixel.NeoPixel; kept so code written for it runs unchanged.
        self.show()
