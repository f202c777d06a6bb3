"""The cup's LED frame, the host's one codec: what the cup puts on its WS2812B chain (firmware/cup/leds.py).

22 pixels, 3 bytes each in GRB order, already scaled by the board's brightness. Die d (0..2) is pixels
7d..7d+6 with its pips wired TL, TR, ML, C, MR, BL, BR; pixel 21 is the status pixel. Colors and their meaning
follow firmware/cup/leds.py and firmware/cup/view.py; `tests/test_leds.py` holds this codec against the
firmware's.

``decode(frame)`` gives faces, pip colors and the status color; ``status_name`` names a status color;
``frame_from`` builds a frame as the firmware does. Text for a terminal is views/render.py.
"""

from schocken.turn import PIPS  # face -> pip mask (bit i = pip i): the cup's own table

N_PIXELS = 22


N_DICE = 3


PIPS_PER_DIE = 7


STATUS_INDEX = 21


DEFAULT_BRIGHTNESS = 0.2  # firmware/boards/common.py and every hardware/boards/*.json


# Position of each pip in a 3x3 grid (row, column).
PIP_CELLS = ((0, 0), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 2))


# Full-brightness reference colors (r, g, b), as set by the firmware before brightness scaling: the cup's
# palette (firmware/cup/leds.py and view.py, where each color is defined) as the host decodes it;
# tests/test_leds.py holds these equal to the firmware's, tests/test_led_palette.py checks that colour-blind
# players tell them apart.
DIE_COLORS = {
    "cup": (255, 255, 255),    # leds.DIE: a die under the cup (peek, after the reveal)
    "aside": (255, 128, 0),    # leds.DIE_KEPT: a die set aside
}


STATUS_COLORS = {
    "green": (0, 216, 64),      # leds.ON_TURN
    "cyan": (0, 208, 240),      # leds.THROWS[1]
    "yellow": (255, 255, 0),    # leds.THROWS[2]
    "pink": (255, 48, 128),     # view._READY
    "orange": (255, 96, 0),     # leds.THROWS[3]
    "blue": (0, 0, 168),        # leds.WAITING
    "red": (255, 0, 0),         # leds.REFUSED (flashing), LOST (also half and game lost)
    "white": (255, 255, 255),   # leds.WON
    "magenta": (224, 32, 255),  # leds.ERROR
    "violet": (120, 0, 255),    # view._DONE
    "dim": (40, 40, 40),        # view._ALONE (told from white by its brightness)
    "off": (0, 0, 0),
}


def pixel(frame, i):
    """(r, g, b) of pixel i of a GRB frame."""
    g, r, b = frame[3 * i], frame[3 * i + 1], frame[3 * i + 2]
    return (r, g, b)


def _check(frame):
    if len(frame) < N_PIXELS * 3:
        raise ValueError("an LED frame has %d bytes, got %d" % (N_PIXELS * 3, len(frame)))


def decode(frame):
    """{"dice": [face 1..6, 0 = dark, None = no die face], "colors": [(r, g, b) of the lit pips or None],
    "masks": [pip bit mask per die], "status": (r, g, b)} for one frame."""
    _check(frame)
    dice, colors, masks = [], [], []
    for d in range(N_DICE):
        mask = 0
        color = None
        for p in range(PIPS_PER_DIE):
            rgb = pixel(frame, d * PIPS_PER_DIE + p)
            if any(rgb):
                mask |= 1 << p
                if color is None:
                    color = rgb
        dice.append(PIPS.index(mask) if mask in PIPS else None)
        colors.append(color)
        masks.append(mask)
    return {"dice": dice, "colors": colors, "masks": masks, "status": pixel(frame, STATUS_INDEX)}


def _hue_distance(rgb, ref):
    # Compare colors normalized to their brightest channel, so the board's brightness does not matter.
    top = max(rgb)
    rtop = max(ref)
    return sum((a * 255 // top - b * 255 // rtop) ** 2 for a, b in zip(rgb, ref))


def _nearest(rgb, table, skip=()):
    best = None
    for key, ref in table.items():
        if key in skip or not any(ref):
            continue
        d = _hue_distance(rgb, ref)
        if best is None or d < best[0]:
            best = (d, key)
    return best[1]


def die_kind(rgb):
    """"aside" (orange, set aside), "cup" (white, under the cup) or None for a dark die."""
    if rgb is None or not any(rgb):
        return None
    return _nearest(rgb, DIE_COLORS)


def status_name(rgb, brightness=DEFAULT_BRIGHTNESS):
    """Key into STATUS_COLORS for a status pixel color as it is on the wire (scaled by ``brightness``)."""
    if not any(rgb):
        return "off"
    key = _nearest(rgb, STATUS_COLORS, skip=("dim",))
    if key == "white":
        # WON is full white, ALONE a dim grey: tell them apart by the level the board's brightness gives.
        mid = (STATUS_COLORS["white"][0] + STATUS_COLORS["dim"][0]) / 2 * brightness
        if max(rgb) < mid:
            return "dim"
    return key


def frame_from(faces, kinds=("cup", "cup", "cup"), status=(0, 0, 0), brightness=DEFAULT_BRIGHTNESS):
    """Build a frame the way the firmware does (for tests and previews): ``faces`` 0..6 per die,
    ``kinds`` "cup"/"aside" per die, ``status`` a full-brightness (r, g, b)."""
    out = bytearray(N_PIXELS * 3)

    def put(i, rgb):
        r, g, b = (int(v * brightness) for v in rgb)
        out[3 * i:3 * i + 3] = bytes((g, r, b))

    for d, face in enumerate(faces):
        color = DIE_COLORS[kinds[d]]
        for p in range(PIPS_PER_DIE):
            if PIPS[face] >> p & 1:
                put(d * PIPS_PER_DIE + p, color)
    put(STATUS_INDEX, status)
    return bytes(out)

