"""The generated wiring drawings (hardware/wiring/*.svg) as drawings: no text cut by its box or the page, and
the drawn connections are the circuit (the battery divider is a divider, the 74AHCT125 has every pin wired as
parts.json says, the breadboard view puts each board-file pin at its physical header pin).

The drawings mark what they connect: ``<circle class="pin" data-ref data-pin data-net>`` for a part's pin,
``<line data-net>`` for a wire segment, ``<circle class="netlabel" data-net>`` for a GND or supply symbol."""

import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
HW = REPO / "hardware"
if str(HW) not in sys.path:
    sys.path.insert(0, str(HW))

import generate  # noqa: E402  (hardware/generate.py)

BOARDS, PARTS = generate.load()
NS = "{http://www.w3.org/2000/svg}"
# Independent of hardware/svg.py on purpose: a generous average glyph width for Helvetica/Arial.
EM = {"normal": 0.58, "bold": 0.63}


def drawings():
    return sorted(p for p in (HW / "wiring").glob("*.svg"))


def _rects(root):
    out = []
    for r in root.iter(NS + "rect"):
        x, y, w, h = (float(r.get(k)) for k in ("x", "y", "width", "height"))
        out.append((x, y, w, h))
    return out


def _text_extent(t):
    """(x0, y0, x1, y1) a text covers, from its character count and font size."""
    s = "".join(t.itertext())
    size = float(t.get("font-size"))
    width = len(s) * size * EM["bold" if t.get("font-weight") == "bold" else "normal"]
    x, y = float(t.get("x")), float(t.get("y"))
    anchor = t.get("text-anchor", "start")
    lo = {"start": 0, "middle": -width / 2, "end": -width}[anchor]
    if t.get("transform", "").startswith("rotate(-90"):
        # Rotated a quarter turn to the left: the text runs upwards from (x, y).
        return (x - size * 0.8, y - lo - width, x + size * 0.2, y - lo)
    return (x + lo, y - size * 0.8, x + lo + width, y + size * 0.2)


@pytest.mark.parametrize("path", drawings(), ids=lambda p: p.stem)
def test_no_text_is_cut(path):
    """Every text lies inside the smallest box around its anchor (the page when none): nothing is clipped, as
    the board name was ("Pico W (pre-soldered head")."""
    root = ET.fromstring(path.read_text())
    rects = _rects(root)
    for t in root.iter(NS + "text"):
        x0, y0, x1, y1 = _text_extent(t)
        ax, ay = float(t.get("x")), float(t.get("y")) - 3
        around = [r for r in rects if r[0] <= ax <= r[0] + r[2] and r[1] <= ay <= r[1] + r[3]]
        assert around, "".join(t.itertext())
        bx, by, bw, bh = min(around, key=lambda r: r[2] * r[3])
        assert bx <= x0 and x1 <= bx + bw, ("cut left/right", "".join(t.itertext()), (x0, x1), (bx, bx + bw))
        assert by <= y0 and y1 <= by + bh, ("cut top/bottom", "".join(t.itertext()), (y0, y1), (by, by + bh))


@pytest.mark.parametrize("path", drawings(), ids=lambda p: p.stem)
def test_texts_in_one_box_do_not_overlap(path):
    """Two texts on the same line of the same box (a role and its pin name) never run into each other."""
    root = ET.fromstring(path.read_text())
    rects = _rects(root)
    placed = {}
    for t in root.iter(NS + "text"):
        if t.get("transform"):
            continue
        x0, y0, x1, y1 = _text_extent(t)
        ax, ay = float(t.get("x")), float(t.get("y")) - 3
        around = [r for r in rects if r[0] <= ax <= r[0] + r[2] and r[1] <= ay <= r[1] + r[3]]
        box = min(around, key=lambda r: r[2] * r[3])
        placed.setdefault((box, t.get("y")), []).append((x0, x1, "".join(t.itertext())))
    for texts in placed.values():
        texts.sort()
        for (a0, a1, a), (b0, b1, b) in zip(texts, texts[1:]):
            assert a1 <= b0, (a, b)


# --- connections -------------------------------------------------------------------------------------------

def _on_segment(p, seg):
    (x, y), (x1, y1, x2, y2) = p, seg
    if (x2 - x1) * (y - y1) != (y2 - y1) * (x - x1):
        return False
    return min(x1, x2) <= x <= max(x1, x2) and min(y1, y2) <= y <= max(y1, y2)


def netlist(path):
    """{net: [set of (ref, pin) per connected piece of wire, with "label" for a GND/supply symbol]}.

    Segments of one net are joined where an end of one lies on the other; a pin or label belongs to a piece
    when it lies on one of its segments."""
    root = ET.fromstring(path.read_text())
    segs = {}
    for ln in root.iter(NS + "line"):
        if ln.get("data-net"):
            seg = tuple(float(ln.get(k)) for k in ("x1", "y1", "x2", "y2"))
            segs.setdefault(ln.get("data-net"), []).append(seg)
    points = {}
    for c in root.iter(NS + "circle"):
        if c.get("class") in ("pin", "netlabel"):
            if c.get("class") == "pin":
                name = (c.get("data-ref"), c.get("data-pin"))
            else:
                name = ("label", c.get("data-net"))
            points.setdefault(c.get("data-net"), []).append((name, (float(c.get("cx")), float(c.get("cy")))))
    nets = {}
    for net, ss in segs.items():
        parent = list(range(len(ss)))

        def find(i):
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i
        for i, a in enumerate(ss):
            for j, b in enumerate(ss):
                if i < j and any(_on_segment(p, b) for p in ((a[0], a[1]), (a[2], a[3]))) or \
                        i < j and any(_on_segment(p, a) for p in ((b[0], b[1]), (b[2], b[3]))):
                    parent[find(i)] = find(j)
        pieces = {}
        for i in range(len(ss)):
            pieces.setdefault(find(i), set())
        for name, p in points.get(net, []):
            for i, seg in enumerate(ss):
                if _on_segment(p, seg):
                    pieces[find(i)].add(name)
        nets[net] = list(pieces.values())
    # Pins and labels on no wire of their net: a piece of their own (the tests find them unconnected).
    for net, pts in points.items():
        for name, p in pts:
            if not any(name in piece for piece in nets.get(net, [])):
                nets.setdefault(net, []).append({name, "UNCONNECTED"})
    return nets


def _piece_with(nets, net, member):
    found = [p for p in nets.get(net, []) if member in p]
    assert found, (net, member)
    return found[0]


SCHEMATICS = sorted(BOARDS)


@pytest.mark.parametrize("name", SCHEMATICS)
def test_every_pin_and_label_is_wired(name):
    nets = netlist(HW / "wiring" / ("%s.svg" % name))
    for net, pieces in nets.items():
        for piece in pieces:
            assert "UNCONNECTED" not in piece, (net, piece)
            # A piece of wire joins two things; pieces of one net meet through a shared label (GND symbol).
            assert len(piece) >= 2, (net, piece)
            if len(pieces) > 1:
                assert ("label", net) in piece, (net, piece)


@pytest.mark.parametrize("name", SCHEMATICS)
def test_battery_divider_is_a_divider(name):
    """BAT+ -> R1 -> midpoint -> R2 -> GND, the midpoint wired to the sense pin and C1 from it to GND (it was
    drawn as three boxes in series)."""
    spec = BOARDS[name]
    nets = netlist(HW / "wiring" / ("%s.svg" % name))
    sense = generate.pin_label(spec, spec["pins"]["battery_sense"], PARTS)
    mid = _piece_with(nets, "bat_sense", ("board", sense))
    assert {("R1", "2"), ("R2", "1"), ("C1", "1")} <= mid
    assert ("R1", "1") in _piece_with(nets, "bat_plus", ("label", "bat_plus"))
    for ref, pin in (("R2", "2"), ("C1", "2")):
        assert ("label", "gnd") in _piece_with(nets, "gnd", (ref, pin))


@pytest.mark.parametrize("name", SCHEMATICS)
def test_level_shifter_has_every_pin_wired_as_the_parts_say(name):
    """VCC to the LED supply, GND, 1OE to GND, unused gates tied (parts.json "level_shifter"), data through
    1A -> 1Y -> 330 ohm -> DIN, from the board's led_data pin."""
    spec = BOARDS[name]
    ls = PARTS["level_shifter"]
    nets = netlist(HW / "wiring" / ("%s.svg" % name))
    assert set(ls["nets"]) | set(ls["open"]) == set(ls["pins"])
    for pin, net in ls["nets"].items():
        piece = _piece_with(nets, net, ("U1", pin))
        if net in ("gnd", "led_supply"):
            assert ("label", net) in piece, pin
    data = generate.pin_label(spec, spec["pins"]["led_data"], PARTS)
    assert ("board", data) in _piece_with(nets, "led_data", ("U1", "1A"))
    assert ("R3", "1") in _piece_with(nets, "led_data_5v", ("U1", "1Y"))
    assert ("strip", "DIN") in _piece_with(nets, "din", ("R3", "2"))
    root = ET.fromstring((HW / "wiring" / ("%s.svg" % name)).read_text())
    for pin in ls["open"]:
        assert not [c for c in root.iter(NS + "circle")
                    if c.get("data-ref") == "U1" and c.get("data-pin") == pin]


def test_build_guide_ties_the_level_shifter_as_the_drawing():
    """docs/build.md step 4 says what the drawing shows for every pin of the 74AHCT125."""
    text = " ".join((REPO / "docs" / "build.md").read_text().split())
    step4 = text[text.index("4. **LED data.**"):text.index("5. **Buttons.**")]
    ls = PARTS["level_shifter"]
    to_gnd = sorted(p for p, n in ls["nets"].items() if n == "gnd" and p not in ("GND", "1OE"))
    to_vcc = sorted(p for p, n in ls["nets"].items() if n == "led_supply" and p != "VCC")
    assert "`1OE` (pin 1) to GND" in step4 and "`VCC` (pin 14) from the LED supply" in step4
    assert "`GND` (pin 7) to GND" in step4 and "`1A` (pin 2)" in step4 and "`1Y` (pin 3)" in step4
    assert "%s to VCC" % ", ".join("`%s`" % p for p in to_vcc) in step4
    assert "%s to GND" % ", ".join("`%s`" % p for p in to_gnd) in step4
    assert "%s open" % ", ".join("`%s`" % p for p in ls["open"]) in step4


@pytest.mark.parametrize("name", SCHEMATICS)
def test_board_pins_are_drawn_on_their_nets(name):
    spec = BOARDS[name]
    nets = netlist(HW / "wiring" / ("%s.svg" % name))
    role_net = {"battery_sense": "bat_sense"}
    for role, pin in spec["pins"].items():
        if pin is None:
            continue
        label = generate.pin_label(spec, pin, PARTS)
        piece = _piece_with(nets, role_net.get(role, role), ("board", label))
        assert len(piece) >= 2, role


@pytest.mark.parametrize("name", SCHEMATICS)
def test_board_box_names_the_whole_module(name):
    """The board box carries the module's full name (wrapped, never shortened)."""
    spec = BOARDS[name]
    root = ET.fromstring((HW / "wiring" / ("%s.svg" % name)).read_text())
    pin = next(c for c in root.iter(NS + "circle") if c.get("data-ref") == "board")
    px, py = float(pin.get("cx")), float(pin.get("cy"))
    box = min((r for r in _rects(root) if r[0] <= px <= r[0] + r[2] and r[1] <= py <= r[1] + r[3]),
              key=lambda r: r[2] * r[3])
    inside = [t for t in root.iter(NS + "text") if box[0] <= float(t.get("x")) <= box[0] + box[2]
              and box[1] <= float(t.get("y")) <= box[1] + 60 and t.get("font-weight") == "bold"]
    assert " ".join("".join(t.itertext()) for t in inside) == spec["module"]["part"]


# --- breadboard view ---------------------------------------------------------------------------------------

BREADBOARDS = sorted(n for n, spec in BOARDS.items() if spec["chip"].startswith("rp2"))


def _pico_pins(root):
    return {int(c.get("data-pin")): (c.get("data-name"), float(c.get("cx")), float(c.get("cy")))
            for c in root.iter(NS + "circle") if c.get("class") == "pico-pin"}


def test_breadboard_views_exist_for_the_pico_boards():
    assert "pico_w" in BREADBOARDS
    assert sorted(p.stem for p in (HW / "wiring").glob("*_breadboard.svg")) == \
        ["%s_breadboard" % n for n in BREADBOARDS]


@pytest.mark.parametrize("name", BREADBOARDS)
def test_breadboard_pico_has_its_40_pins_in_physical_order(name):
    """Pins 1-20 along one edge, 21-40 back along the other (pin 1 opposite 40), 0.7 inch = 7 holes apart,
    with the silkscreen names of parts.json's rp2_header."""
    root = ET.fromstring((HW / "wiring" / ("%s_breadboard.svg" % name)).read_text())
    pins = _pico_pins(root)
    assert sorted(pins) == list(range(1, 41))
    h = PARTS["rp2_header"]
    names = {int(p): "GP%s" % g for g, p in h["pins"].items()}
    names.update({int(p): n for p, n in h["other"].items()})
    assert {p: v[0] for p, v in pins.items()} == names
    pitch = pins[2][1] - pins[1][1]
    assert pitch > 0
    for p in range(1, 20):
        assert pins[p + 1][1] - pins[p][1] == pitch and pins[p + 1][2] == pins[1][2]
    for p in range(1, 21):
        assert pins[41 - p][1] == pins[p][1], p           # pin 40 opposite pin 1, 21 opposite 20
        assert pins[41 - p][2] == pins[1][2] - 7 * pitch  # the other row, 0.7 inch away


def _wires(root):
    out = []
    for w in root.iter(NS + "path"):
        if w.get("class") == "wire":
            m = re.match(r"M (-?\d+) (-?\d+) [LQ](?: -?\d+ -?\d+)? (-?\d+) (-?\d+)$", w.get("d"))
            assert m, w.get("d")
            x1, y1, x2, y2 = (float(v) for v in m.groups())
            out.append((w.get("data-role"), w.get("data-net"), w.get("stroke"), (x1, y1), (x2, y2)))
    return out


@pytest.mark.parametrize("name", BREADBOARDS)
def test_breadboard_wires_each_board_pin_at_its_physical_pin(name):
    """Every pin the board file uses has its wire in the header pin's column on the header pin's side of the
    channel (those holes are one contact strip), and that header pin is the GPIO's physical pin."""
    spec = BOARDS[name]
    root = ET.fromstring((HW / "wiring" / ("%s_breadboard.svg" % name)).read_text())
    pins = _pico_pins(root)
    wires = _wires(root)
    pitch = pins[2][1] - pins[1][1]
    channel = (pins[1][2] + pins[40][2]) / 2

    def wired(role, phys):
        _, px, py = pins[phys]
        for r, net, color, *ends in wires:
            if r == role and any(x == px and (y - channel) * (py - channel) > 0 and abs(y - py) <= 3 * pitch
                                 for x, y in ends):
                return True
        return False
    for role, gpio in spec["pins"].items():
        if gpio is None:
            continue
        phys = PARTS["rp2_header"]["pins"][str(gpio)]
        assert pins[phys][0] == "GP%d" % gpio
        assert wired(role, phys), role
    supply = int(re.search(r"pin (\d+)", spec["power_pins"]["supply"]).group(1))
    gnd = int(re.search(r"pin (\d+)", spec["power_pins"]["gnd"]).group(1))
    v33 = int(re.search(r"pin (\d+)", spec["power_pins"]["3v3"]).group(1))
    assert (pins[supply][0], pins[gnd][0], pins[v33][0]) == ("VSYS", "GND", "3V3(OUT)")
    assert wired("supply", supply) and wired("gnd", gnd) and wired("3v3", v33)


@pytest.mark.parametrize("name", BREADBOARDS)
def test_breadboard_wire_colors(name):
    """Red for the supply nets, black for GND, never red or black for a signal."""
    root = ET.fromstring((HW / "wiring" / ("%s_breadboard.svg" % name)).read_text())
    for role, net, color, *_ in _wires(root):
        if net in ("supply", "3v3", "bat_plus", "led_supply"):
            assert color == "#d32f2f", net
        elif net == "gnd":
            assert color == "#212121", net
        else:
            assert color not in ("#d32f2f", "#212121"), net
