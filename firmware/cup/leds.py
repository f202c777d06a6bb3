"""LED views of the cup: three dice of seven pips and one status pixel on one WS2812B chain.

Physical order of the chain, from the data input, 22 pixels:

    0..6    die 1       7..13   die 2       14..20  die 3       21  status pixel

Inside each die the pips are wired row by row, left to right, seen from the top of the cup:

    0 . 1       0 top-left     1 top-right
    2 3 4       2 middle-left  3 center      4 middle-right
    5 . 6       5 bottom-left  6 bottom-right

``PIPS[face]`` (schocken.turn) is a 7-bit mask, bit i = pip i lit; ``PIPS[0]`` is a blank die.

Power: USB gives 500 mA. The board with its radio on (ESP32 BLE ~130 mA, Pico W less), the
sensor (< 1 mA) and margin take 200 mA, leaving LED_BUDGET_MA = 300 mA for the LEDs. A WS2812B
draws ~20 mA per channel at full and ~1 mA idle: 22 pixels white at full are 22 * 60 mA = 1.32 A.
So BRIGHTNESS_CAP = (300 - 22 * 1) / (22 * 60) = 0.2106: all 22 pixels white at the cap draw
22 + 1320 * int(255 * 0.2106) / 255 = 296 mA. ``DiceLeds`` never sets a brightness above it, and
puts the brightness back if something else raised it.

A view change (``show_die``, ``status``, ``refresh``, ``flash``, ``update``) allocates nothing: colors are
0xRRGGBB small ints, the pixel object's buffers are made once, arithmetic is on small ints.
"""

from micropython import const

from schocken.turn import PIPS  # face -> pips (bit i = pip i), the host's table too


N_PIXELS = const(22)
N_DICE = const(3)
PIPS_PER_DIE = const(7)
STATUS_INDEX = const(21)

LED_BUDGET_MA = const(300)
_MA_PER_CHANNEL = const(20)
_MA_IDLE = const(1)
BRIGHTNESS_CAP = (LED_BUDGET_MA - N_PIXELS * _MA_IDLE) / (N_PIXELS * 3 * _MA_PER_CHANNEL)

# Colors are 0xRRGGBB ints, as neopixel takes them: small ints are no objects, so passing them allocates
# nothing and the cup keeps no tuple per color. The palette is these and the view's own (cup/view.py); each
# color is told from every other by players with normal, deuteranopic and protanopic vision (CIEDE2000 of at
# least 10 under Machado et al.'s simulation: tests/test_led_palette.py, docs/firmware.md "LEDs"), which is
# why green leans to blue, cyan to blue, the waiting blue is darker and magenta bluer than the full primaries.
OFF = const(0x000000)
DIE = const(0xFFFFFF)  # a rolled die
DIE_KEPT = const(0xFF8000)  # a die set aside ("rausgelegt")
ON_TURN = const(0x00D840)  # green: this cup's turn
WAITING = const(0x0000A8)  # blue: another player's turn
_THROW_1 = const(0x00D0F0)  # cyan: one throw used
_THROW_2 = const(0xFFFF00)  # yellow: two throws used
_THROW_3 = const(0xFF6000)  # orange: all three throws used
# Index = throws used. The three colors are names only here (private constants): a module's names beyond 23
# would take its table of names to the next size, 96 bytes more of the cup's heap.
THROWS = (ON_TURN, _THROW_1, _THROW_2, _THROW_3)
REFUSED = const(0xFF0000)  # red, flashed (``flash``): shake not accepted
LOST = const(0xFF0000)  # red, steady: lost the round
WON = const(0xFFFFFF)  # white: won the round
ERROR = const(0xE020FF)  # magenta: RNG health test failed or other fault; the cup does not roll


# Texts of cup.texts (schocken.text), loaded only for the error: a number each.
_FEW_PIXELS = const(21)
_SLOT_FACE = const(22)

_TICKS_MAX = const(0x3FFFFFFF)  # MicroPython's ticks_ms wraps at 2**30
_TICKS_HALF = const(0x20000000)


class DiceLeds:
    """Views on an Adafruit-``neopixel``-compatible ``pixels`` object of at least 22 pixels.

    ``show_die``, ``status`` and ``clear`` set pixels; ``refresh`` writes them (``pixels.show()``), so a view
    change of several pixels is one write. ``flash`` and ``update`` write themselves. ``max_brightness`` is
    clamped to BRIGHTNESS_CAP. No argument has a default: a function with defaults is an object twice the
    size in the cup's heap (docs/benchmarks.md, issue 16).
    """

    def __init__(self, pixels, max_brightness):
        if len(pixels) < N_PIXELS:
            from schocken import text
            raise ValueError(text(_FEW_PIXELS, N_PIXELS, module="cup.texts"))
        self._px = pixels
        pixels.auto_write = False  # one write per view change, not one per pixel
        self._cap = min(max(max_brightness, 0), BRIGHTNESS_CAP)  # 0, not 0.0: a float constant is an object
        self.max_brightness = self._cap  # an attribute, not a property: no method object in the heap
        self._flashing = False
        self._flash = OFF  # the flashing status color
        self._flash_period = 0
        self._flash_next = 0
        self._flash_lit = False
        self.brightness = self._cap
        self.clear()
        self.refresh()

    @property
    def brightness(self):
        return self._px.brightness

    @brightness.setter
    def brightness(self, value):
        # Clamp to the power cap: a higher request is not an error, it just cannot happen.
        self._px.brightness = min(max(value, 0), self._cap)

    def refresh(self):
        """Write what was set to the LEDs."""
        px = self._px
        if px.brightness > self._cap:  # someone raised it behind our back: enforce the cap
            self.brightness = self._cap
        px.show()

    def show_die(self, slot, face, color):
        """Set ``face`` (1..6; 0 = blank) on die ``slot`` (0..2) in ``color``."""
        if not 0 <= slot < N_DICE or not 0 <= face <= 6:
            from schocken import text
            raise ValueError(text(_SLOT_FACE, module="cup.texts"))
        mask = PIPS[face]
        base = slot * PIPS_PER_DIE
        for p in range(PIPS_PER_DIE):
            self._px[base + p] = color if (mask >> p) & 1 else OFF

    def status(self, color):
        """Set a steady status color (stops a flash)."""
        self._flashing = False
        self._px[STATUS_INDEX] = color

    def flash(self, color, now_ms, period_ms):
        """Flash the status pixel in ``color`` (e.g. REFUSED), lit now and every other ``period_ms``; call
        ``update`` from the loop."""
        self._flashing = True
        self._flash = color
        self._flash_period = period_ms
        self._flash_next = (now_ms + period_ms) & _TICKS_MAX
        self._flash_lit = True
        self._px[STATUS_INDEX] = color
        self.refresh()

    def update(self, now_ms):
        """Advance a flash; ``now_ms`` from ``time.ticks_ms()``. Returns True if it wrote."""
        if not self._flashing:
            return False
        # ticks_diff(now, next) >= 0, wrap-safe, in ints
        if ((now_ms - self._flash_next + _TICKS_HALF) & _TICKS_MAX) - _TICKS_HALF < 0:
            return False
        self._flash_next = (self._flash_next + self._flash_period) & _TICKS_MAX
        self._flash_lit = not self._flash_lit
        self._px[STATUS_INDEX] = self._flash if self._flash_lit else OFF
        self.refresh()
        return True

    def clear(self):
        """Set every pixel off (stops a flash)."""
        self._flashing = False
        for i in range(N_PIXELS):
            self._px[i] = OFF
