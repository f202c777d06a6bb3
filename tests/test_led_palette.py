"""The cup's LED palette (firmware/cup/leds.py and view.py) is told apart by colour-blind players: every two
meanings the status pixel can show, and the dice's kinds, differ by at least ``THRESHOLD`` (CIEDE2000) for
normal vision and under a simulation of deuteranopia and of protanopia, the two red-green dichromacies
(together about 2 % of men; the milder anomalous trichromacies confuse less).

The simulation is Machado, Oliveira and Fernandes, "A Physiologically-based Model for Simulation of Color
Vision Deficiency", IEEE Transactions on Visualization and Computer Graphics 15(6), 1291-1298, 2009: a 3x3
matrix on linear RGB, here at severity 1.0 (their table's matrices for protanopia and deuteranopia). The
difference is CIEDE2000 (Sharma, Wu and Dalal, "The CIEDE2000 Color-Difference Formula: Implementation Notes,
Supplementary Test Data, and Mathematical Observations", Color Research and Application 30(1), 21-30, 2005),
checked here against pairs of their test data.

How an LED's colour is read: the frame's bytes set each LED's PWM duty, so they are linear light, taken in the
sRGB primaries and white point (D65; a WS2812B's primaries are near them); the cup's full white is the white
of CIELAB. The board's brightness scales every colour alike, so it changes none of the differences.

``THRESHOLD`` = 10: a difference seen plainly at a glance, over four times the just-noticeable one (about 2.3
in CIELAB); the status pixel shows one colour at a time, so a player compares it with the one it showed
before. Eleven colours in the two dimensions a dichromat sees leave little more: the palette was searched for
the largest smallest difference within the hues its names say (docs/firmware.md, "LEDs")."""

import itertools
import math
import re
from pathlib import Path

import pytest

from cup import leds, view  # noqa: E402
from schocken_host.links import ledframe  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
THRESHOLD = 10.0

PROTANOPIA = ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
              (-0.003882, -0.048116, 1.051998))
DEUTERANOPIA = ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                (-0.011820, 0.042940, 0.968881))
NORMAL = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
VISIONS = {"normal": NORMAL, "deuteranopia": DEUTERANOPIA, "protanopia": PROTANOPIA}
# Linear sRGB (D65) to CIE XYZ (IEC 61966-2-1).
SRGB_TO_XYZ = ((0.4124, 0.3576, 0.1805), (0.2126, 0.7152, 0.0722), (0.0193, 0.1192, 0.9505))

# What the status pixel says, by the firmware's colour for it (cup/view.py View._status_color).
STATUS = {
    "on turn, no throw yet": leds.ON_TURN,
    "one throw used (alone: limit 1)": leds.THROWS[1],
    "two throws used (alone: limit 2)": leds.THROWS[2],
    "three throws used": leds.THROWS[3],
    "another player's turn": leds.WAITING,
    "stood, the throw hidden": view._DONE,
    "round over: press to reveal": view._READY,
    "lost the round, a half or the game": leds.LOST,
    "won the round": leds.WON,
    "a fault: the RNG failed, a step not saved": leds.ERROR,
    "alone, limit 3": view._ALONE,
    "dark": leds.OFF,
}
# The dice's pips: what a die is, side by side on the cup.
DICE = {"under the cup": leds.DIE, "set aside": leds.DIE_KEPT, "the seat number on die 1": leds.WAITING}


def rgb(color):
    return (color >> 16) & 255, (color >> 8) & 255, color & 255


def _times(matrix, vector):
    return tuple(sum(m * v for m, v in zip(row, vector)) for row in matrix)


def lab(color, vision=NORMAL):
    """CIELAB of an LED colour (0xRRGGBB, linear light) as ``vision`` sees it."""
    seen = [min(1.0, max(0.0, c)) for c in _times(vision, [c / 255 for c in rgb(color)])]
    white = _times(SRGB_TO_XYZ, (1.0, 1.0, 1.0))

    def f(t):
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29
    fx, fy, fz = (f(c / w) for c, w in zip(_times(SRGB_TO_XYZ, seen), white))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(lab1, lab2):
    """The CIEDE2000 difference of two CIELAB colours (kL = kC = kH = 1), as Sharma et al. write it out."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1, a2 = a1 * (1 + g), a2 * (1 + g)
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if c1 else 0.0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if c2 else 0.0
    dh = 0.0
    if c1 * c2:
        dh = h2 - h1
        dh = dh - 360 if dh > 180 else dh + 360 if dh < -180 else dh
    d_l, d_c = l2 - l1, c2 - c1
    d_h = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    if not c1 * c2:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * c_mean
    s_h = 1 + 0.015 * c_mean * t
    r_t = (-2 * math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7))
           * math.sin(math.radians(60 * math.exp(-(((h_mean - 275) / 25) ** 2)))))
    return math.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (d_c / s_c) * (d_h / s_h))


def differences(colors):
    """[(difference, meaning, meaning, vision)] of every two of ``colors`` under each vision, smallest
    first."""
    return sorted((ciede2000(lab(colors[a], matrix), lab(colors[b], matrix)), a, b, vision)
                  for a, b in itertools.combinations(colors, 2) for vision, matrix in VISIONS.items())


# --- the tools, checked first ---------------------------------------------------------------------------
# Sharma, Wu and Dalal 2005, Table 1: pairs 1, 7, 17, 25 and 34 (L, a, b of each, and their CIEDE2000).
SHARMA = [((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
          ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
          ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
          ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
          ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373)]


@pytest.mark.parametrize("first,second,expected", SHARMA)
def test_ciede2000_gives_sharmas_test_data(first, second, expected):
    assert ciede2000(first, second) == pytest.approx(expected, abs=5e-5)
    assert ciede2000(second, first) == pytest.approx(expected, abs=5e-5)


def test_the_simulations_keep_white_and_grey():
    """Machado's matrices leave an achromatic light as it is (each row sums to 1): white stays white."""
    for matrix in (PROTANOPIA, DEUTERANOPIA):
        assert all(sum(row) == pytest.approx(1.0, abs=1e-5) for row in matrix)
    assert lab(0xFFFFFF) == pytest.approx((100.0, 0.0, 0.0), abs=1e-6)
    assert ciede2000(lab(0xFFFFFF, DEUTERANOPIA), lab(0xFFFFFF)) < 0.01


# --- the palette -----------------------------------------------------------------------------------------
def test_every_colour_of_the_firmware_is_checked_here():
    """Each colour constant of cup/leds.py and cup/view.py is a status or a die's colour above: a new one
    cannot come without its check. The one red is refused input (flashing) and a loss (steady)."""
    found = set()
    for name in ("leds.py", "view.py"):
        source = (ROOT / "firmware" / "cup" / name).read_text(encoding="utf-8")
        found |= {int(value, 16) for value in re.findall(r"^\w+ = const\(0x([0-9A-Fa-f]{6})\)", source, re.M)}
    assert found == set(STATUS.values()) | set(DICE.values())
    assert leds.REFUSED == leds.LOST and leds.THROWS[0] == leds.ON_TURN
    assert len(set(STATUS.values())) == len(STATUS) and len(set(DICE.values())) == len(DICE)


@pytest.mark.parametrize("what,colors", [("status", STATUS), ("dice", DICE)])
def test_colour_blind_players_tell_the_leds_apart(what, colors):
    close = [(round(d, 1), a, b, vision) for d, a, b, vision in differences(colors) if d < THRESHOLD]
    assert close == [], "%s colours too close (CIEDE2000 < %g): %s" % (what, THRESHOLD, close)


def test_the_host_reads_each_status_as_its_own():
    """links/ledframe.py, which follows the palette, names every meaning apart at the boards' brightness."""
    names = {}
    for meaning, color in STATUS.items():
        frame = ledframe.frame_from((0, 0, 0), status=rgb(color))
        names[meaning] = ledframe.status_name(ledframe.decode(frame)["status"])
    assert len(set(names.values())) == len(names), names
