"""Tests for firmware/cup/pixels.py and firmware/cup/leds.py, and the host's LED frame codec against them."""

import itertools
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boards import common  # noqa: E402
from cup import view  # noqa: E402
from cup.leds import (BRIGHTNESS_CAP, DIE, DIE_KEPT, ERROR, LED_BUDGET_MA, LOST, N_DICE,  # noqa: E402
                      N_PIXELS, OFF, ON_TURN, PIPS, PIPS_PER_DIE, REFUSED, STATUS_INDEX, THROWS, WAITING,
                      WON, DiceLeds)
from cup.pixels import GRB, Pixels  # noqa: E402

from conftest import rgb, run_firmware_code  # noqa: E402
from schocken_host.links import ledframe  # noqa: E402
from schocken_host.provision.build import find_tool  # noqa: E402

MICROPYTHON = find_tool("micropython")

# Blinka refuses to import on a PC unless told it is OS-agnostic; then writes are a no-op mock.
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")


@pytest.fixture
def adafruit(monkeypatch):
    """Factory for real adafruit-circuitpython-neopixel objects whose writes are captured."""
    import board
    import neopixel

    writes = []
    monkeypatch.setattr(neopixel, "neopixel_write", lambda pin, buf: writes.append(bytes(buf)))

    def make(n, **kw):
        return neopixel.NeoPixel(board.NEOPIXEL, n, **kw)

    make.writes = writes
    return make


class Capture:
    def __init__(self):
        self.writes = []

    def __call__(self, buf):
        self.writes.append(bytes(buf))


# --- Pixels == adafruit_pixelbuf -----------------------------------------------------------------

N = 7
channel = st.integers(0, 255)
color = st.one_of(st.tuples(channel, channel, channel), st.integers(0, 0xFFFFFF))
brightness = st.one_of(
    st.floats(0.0, 1.0),
    st.floats(-1.0, 2.0),
    st.sampled_from([0.0, 1.0, 0.9995, 0.0005, 0.2106, 0.5, 1 / 3]),
    st.integers(0, 1),
)
op = st.one_of(
    st.tuples(st.just("set"), st.integers(-N, N - 1), color),
    st.tuples(st.just("fill"), color),
    st.tuples(st.just("bright"), brightness),
    st.tuples(st.just("slice"), st.integers(0, N), st.integers(0, N), color),
    st.tuples(st.just("show")),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    start=brightness.filter(lambda b: 0 <= b <= 1),
    auto_write=st.booleans(),
    order=st.sampled_from(["GRB", "RGB", "BRG"]),
    ops=st.lists(op, max_size=25),
)
def test_pixels_bytes_match_adafruit_neopixel(adafruit, start, auto_write, order, ops):
    adafruit.writes.clear()
    ref = adafruit(N, brightness=start, auto_write=auto_write, pixel_order=order)
    mine_writes = Capture()
    mine = Pixels(N, mine_writes, 3, start, auto_write, order)
    for o in ops:
        for px in (ref, mine):
            if o[0] == "set":
                px[o[1]] = o[2]
            elif o[0] == "fill":
                px.fill(o[1])
            elif o[0] == "bright":
                px.brightness = o[1]
            elif o[0] == "slice":
                px[o[1] : o[2]] = o[3]
            else:
                px.show()
        assert mine.brightness == ref.brightness
        assert [tuple(ref[i]) for i in range(N)] == [mine[i] for i in range(N)]
    ref.show()
    mine.show()
    assert mine_writes.writes == adafruit.writes
    assert mine_writes.writes[-1] == bytes(mine.buf)


def test_pixels_basics():
    cap = Capture()
    px = Pixels(3, cap, 3, 0.5, False, GRB)
    assert (px.n, len(px), px.bpp, px.byteorder, px.auto_write) == (3, 3, 3, "GRB", False)
    px[0] = (255, 10, 3)
    px[-1] = 0x102030
    px.show()
    assert cap.writes == [bytes([5, 127, 1, 0, 0, 0, 16, 8, 24])]  # GRB, int(v * 0.5)
    assert px[0] == (255, 10, 3) and px[2] == (0x10, 0x20, 0x30)
    assert px[0:2] == [(255, 10, 3), (0, 0, 0)]
    px[0:3] = [(1, 2, 3), (4, 5, 6), 0x070809]
    assert px[:] == [(1, 2, 3), (4, 5, 6), (7, 8, 9)]
    with pytest.raises(IndexError):
        px[3] = (0, 0, 0)
    with pytest.raises(IndexError):
        px[-4]
    with pytest.raises(ValueError):
        Pixels(3, cap, 4, 1.0, True, GRB)
    px.auto_write = True
    px[1] = (0, 0, 0)
    assert len(cap.writes) == 2


THROW_1, THROW_2, THROW_3 = THROWS[1:]  # the colors of one, two and three throws used

# --- DiceLeds ------------------------------------------------------------------------------------

NAMES = ["TL", "TR", "ML", "C", "MR", "BL", "BR"]
FACES = {  # written out by hand, independent of PIPS
    0: set(),
    1: {"C"},
    2: {"TL", "BR"},
    3: {"TL", "C", "BR"},
    4: {"TL", "TR", "BL", "BR"},
    5: {"TL", "TR", "C", "BL", "BR"},
    6: {"TL", "TR", "ML", "MR", "BL", "BR"},
}


def make_leds(max_brightness=1.0):
    cap = Capture()
    px = Pixels(22, cap, 3, 1.0, True, GRB)
    return DiceLeds(px, max_brightness), px, cap


def test_pips_table_is_standard_die():
    for face, names in FACES.items():
        assert {NAMES[i] for i in range(7) if PIPS[face] >> i & 1} == names
        assert bin(PIPS[face]).count("1") == face


@pytest.mark.parametrize("slot", range(3))
@pytest.mark.parametrize("face", range(7))
def test_die_faces_light_exactly_the_right_pips(slot, face):
    leds, px, _ = make_leds()
    leds.status(WAITING)
    for other in range(3):
        leds.show_die(other, 6, DIE_KEPT)
    leds.show_die(slot, face, DIE)
    leds.refresh()
    for i in range(21):
        s, pip = divmod(i, 7)
        if s == slot:
            assert px[i] == (rgb(DIE) if NAMES[pip] in FACES[face] else rgb(OFF)), (i, face)
        else:
            assert px[i] == (rgb(DIE_KEPT) if NAMES[pip] in FACES[6] else rgb(OFF))
    assert px[21] == rgb(WAITING)
    leds.show_die(slot, 0, DIE)  # face 0: a blank die
    assert all(px[slot * 7 + p] == rgb(OFF) for p in range(7))
    with pytest.raises(ValueError):
        leds.show_die(3, 1, DIE)
    with pytest.raises(ValueError):
        leds.show_die(0, 7, DIE)


def test_brightness_cap_value_and_power_budget():
    assert BRIGHTNESS_CAP == pytest.approx((300 - 22) / 1320)
    leds, px, cap = make_leds(1.0)
    leds.clear()
    for i in range(3):
        leds.show_die(i, 6, DIE)
    px.fill((255, 255, 255))  # worst case, behind the view's back
    px.show()
    ma = 22 * 1 + sum(cap.writes[-1]) / 255 * 20
    assert ma <= LED_BUDGET_MA


def test_brightness_cap_is_enforced():
    leds, px, cap = make_leds(1.0)
    assert leds.max_brightness == BRIGHTNESS_CAP == px.brightness == leds.brightness
    leds.brightness = 0.9
    assert px.brightness == BRIGHTNESS_CAP
    leds.brightness = 0.1
    assert px.brightness == 0.1
    leds2, px2, _ = make_leds(0.05)  # a lower configured maximum is kept
    assert px2.brightness == 0.05
    leds2.brightness = 0.5
    assert px2.brightness == 0.05
    # Someone raises the brightness directly: the next refresh puts it back before writing.
    px.brightness = 1.0
    leds.status(WON)
    leds.refresh()
    assert px.brightness == BRIGHTNESS_CAP
    assert max(cap.writes[-1]) == int(255 * BRIGHTNESS_CAP)


def test_status_colors_are_distinct_where_they_must_be():
    steady = [ON_TURN, WAITING, THROW_1, THROW_2, THROW_3, LOST, WON, ERROR]
    assert len(set(steady)) == len(steady)
    assert THROWS[0] == ON_TURN and len(THROWS) == 4  # index: throws used


def test_flash_toggles_with_wrapping_ticks():
    leds, px, cap = make_leds()
    t0 = 0x3FFFFFFF - 100  # ticks_ms wraps at 2**30
    leds.flash(REFUSED, t0, 250)
    assert px[21] == rgb(REFUSED)
    assert not leds.update(t0 + 249)
    assert leds.update((t0 + 250) & 0x3FFFFFFF) and px[21] == rgb(OFF)
    assert leds.update((t0 + 500) & 0x3FFFFFFF) and px[21] == rgb(REFUSED)
    leds.status(ON_TURN)
    assert not leds.update(t0 + 10_000) and px[21] == rgb(ON_TURN)


def frame(pixels):
    """The 22 * 3 GRB bytes on the wire, computed from the pixels' colors and brightness as neopixel scales
    them (``int(value * brightness)``)."""
    b = pixels.brightness
    out = bytearray()
    for i in range(N_PIXELS):
        r, g, bl = pixels[i]
        out += bytes([int(g * b), int(r * b), int(bl * b)])
    return bytes(out)


def test_frame_matches_wire_bytes_with_adafruit_and_pixels(adafruit):
    for bright in (1.0, 0.2, 0.13):
        ref = adafruit(22, auto_write=True)
        a = DiceLeds(ref, bright)
        cap = Capture()
        mine = Pixels(22, cap, 3, 1.0, True, GRB)
        b = DiceLeds(mine, bright)
        for leds in (a, b):
            leds.show_die(0, 3, DIE)
            leds.show_die(1, 5, (12, 200, 77))
            leds.show_die(2, 6, DIE_KEPT)
            leds.status(THROW_2)
            leds.refresh()
        assert adafruit.writes[-1] == cap.writes[-1] == frame(ref) == frame(mine)
        assert len(cap.writes[-1]) == 66
        assert ref.auto_write is False  # DiceLeds batches: one write per view change


def test_refused_when_too_few_pixels():
    with pytest.raises(ValueError):
        DiceLeds(Pixels(21, Capture(), 3, 1.0, True, GRB), 1.0)


# --- the host's codec (host_tools/schocken_host/links/ledframe.py) against these LEDs -------------------

# Every status color the cup shows (cup/leds.py, cup/view.py) and the name the host gives it.
STATUS_NAMES = [(ON_TURN, "green"), (THROW_1, "cyan"), (THROW_2, "yellow"), (THROW_3, "orange"),
                (WAITING, "blue"), (REFUSED, "red"), (LOST, "red"), (WON, "white"),
                (ERROR, "magenta"), (view._DONE, "violet"), (view._READY, "pink"), (view._ALONE, "dim"),
                (OFF, "off")]
DIE_KINDS = {"cup": DIE, "aside": DIE_KEPT}


def test_ledframe_knows_the_layout_and_colors_of_the_leds():
    assert (ledframe.N_PIXELS, ledframe.N_DICE, ledframe.PIPS_PER_DIE, ledframe.STATUS_INDEX) == (
        N_PIXELS, N_DICE, PIPS_PER_DIE, STATUS_INDEX)
    assert ledframe.PIPS is PIPS  # one table: schocken.turn.PIPS
    assert ledframe.DEFAULT_BRIGHTNESS == common.DEFAULT_BRIGHTNESS
    assert {kind: rgb(color) for kind, color in DIE_KINDS.items()} == ledframe.DIE_COLORS
    for color, name in STATUS_NAMES:
        assert ledframe.STATUS_COLORS[name] == rgb(color), name
    assert {name for _, name in STATUS_NAMES} == set(ledframe.STATUS_COLORS)


def test_ledframe_reads_and_builds_the_frames_the_leds_write():
    """Every face on every die, every mix of dice in the cup and set aside, every status color: the frame the
    firmware puts on the wire (its LEDs over the board's pixel buffer, as the app makes them) is the frame
    ledframe.frame_from builds, and ledframe.decode reads back the faces, kinds and status name."""
    cap = Capture()
    pixels = common.make_pixels(N_PIXELS, cap, common.DEFAULT_BRIGHTNESS)
    dice_leds = DiceLeds(pixels, 1.0)
    brightness = pixels.brightness
    kind_mixes = list(itertools.product(DIE_KINDS, repeat=N_DICE))
    for i, faces in enumerate(itertools.product(range(7), repeat=N_DICE)):
        kinds = kind_mixes[i % len(kind_mixes)]
        color, name = STATUS_NAMES[i % len(STATUS_NAMES)]
        for slot in range(N_DICE):
            dice_leds.show_die(slot, faces[slot], DIE_KINDS[kinds[slot]])
        dice_leds.status(color)
        dice_leds.refresh()
        frame = cap.writes[-1]
        assert frame == ledframe.frame_from(faces, kinds, rgb(color), brightness), (faces, kinds, name)
        shown = ledframe.decode(frame)
        assert shown["dice"] == list(faces)
        assert [ledframe.die_kind(c) for c in shown["colors"]] == [kinds[d] if faces[d] else None
                                                                  for d in range(N_DICE)]
        assert ledframe.status_name(shown["status"], brightness) == name


# --- MicroPython: no allocation in the refresh path ---------------------------------------------


@pytest.mark.skipif(MICROPYTHON is None, reason="MicroPython unix port not installed")
def test_refresh_allocates_nothing_under_micropython():
    code = """
        import micropython, gc
        from cup.pixels import Pixels
        from cup.leds import DiceLeds, DIE, DIE_KEPT, OFF, ON_TURN, THROWS, REFUSED
        sent = [0]
        def write(buf):  # the board's writer gets the same bytearray every time
            sent[0] += len(buf)
        px = Pixels(22, write, 3, 1.0, True, "GRB")
        leds = DiceLeds(px, 1.0)

        def refresh():  # in a function: new module globals would grow the globals dict
            for face in range(7):
                for slot in range(3):
                    leds.show_die(slot, face, DIE)
                    leds.refresh()
                    leds.show_die(slot, face, DIE_KEPT)
            leds.show_die(1, 0, OFF)
            leds.status(THROWS[2])
            leds.refresh()
            leds.flash(REFUSED, 1000, 250)
            leds.update(1100)
            leds.update(1300)
            px[3] = (1, 2, 3)
            px[4] = 0x102030
            px[-1] = OFF
            px.fill(ON_TURN)
            px.show()
            leds.show_die(0, 6, DIE)
            leds.refresh()

        gc.collect()
        micropython.heap_lock()
        refresh()
        micropython.heap_unlock()
        f = px.buf  # the bytes the last show() wrote
        print("ok", sent[0], len(f), f[1])
    """
    words = run_firmware_code(code, "64k").split()
    assert words[0] == "ok" and words[2] == "66"
    assert int(words[3]) == int(255 * BRIGHTNESS_CAP)  # pixel 0 red byte: face 6 lights TL
