"""The wiring diagram per board (hardware/wiring/<board>.svg): the board's pins on the left, one row per
connection, the 74AHCT125 with all its pins, the battery divider as a divider, and the power chain.

Every pin drawn is a ``<circle class="pin" data-ref data-pin data-net>`` and every wire segment a ``<line
data-net>``; GND and supply symbols are ``<circle class="netlabel" data-net>`` (a schematic's net label: all
points with the same label are one net). tests/test_hardware.py follows these to check the drawing's
connections against the data, and checks that no text is cut.
"""

from pinout import ROLE_TEXT, pin_label
from svg import Svg, text_w, wrap

W = 1000
SENSOR_CHIP = {"lis3dh": "LIS3DH", "mpu6050": "MPU-6050"}
COLORS = {"led": "#1565c0", "button": "#2e7d32", "i2c": "#6a1b9a", "battery": "#c62828", "3v3": "#ef6c00",
          "gnd": "#000", "supply": "#c62828", "led_power": "#00897b", "accel_int": "#ad1457"}


def _netlabel(s, x, y, net, text, color="#000"):
    s.circle(x, y, 3, fill=color, attrs={"class": "netlabel", "data-net": net})
    s.text(x + 7, y + 4, text, 11, color=color)


def _gnd(s, x, y, dash=False):
    """Ground symbol whose connection point is (x, y)."""
    s.circle(x, y, 2, attrs={"class": "netlabel", "data-net": "gnd"})
    for i, half in enumerate((10, 6, 2)):
        s.line(x - half, y + 4 * i, x + half, y + 4 * i, width=1.5)


def _level_shifter(s, spec, parts, x0, y, supply_text):
    """Board pin at (x0, y) -> U1 1A; U1 1Y -> 330 ohm -> DIN. Returns the lowest y used."""
    ls = parts["level_shifter"]
    num = ls["pins"]
    ux, uw = x0 + 140, 170
    top, bottom = y - 30, y + 110
    color = COLORS["led"]
    s.wire([(x0, y), (ux, y)], color, net="led_data")
    s.rect(ux, top, uw, bottom - top, fill="#eef3fb")
    s.text(ux, top - 6, "U1 74AHCT125", 11, weight="bold")
    # Left side: 1A (the data in) and the pins tied to GND (1OE enables gate 1; unused inputs held low).
    left = [("1A", y)] + [(name, y + 20 * (i + 1)) for i, name in enumerate(("1OE", "2A", "3A", "4A"))]
    for name, py in left:
        s.pin(ux, py, "U1", name, ls["nets"][name])
        s.text(ux + 7, py + 4, "%s %d" % (name, num[name]), 10)
    bus = ux - 25
    for name, py in left[1:]:
        s.line(ux, py, bus, py, net="gnd")
    s.line(bus, left[1][1], bus, y + 95, net="gnd")
    _gnd(s, bus, y + 95)
    # Right side: 1Y (the data out) and the unused gates' OE tied to VCC (outputs off).
    right = [("1Y", y)] + [(name, y + 20 * (i + 2)) for i, name in enumerate(("2OE", "3OE", "4OE"))]
    for name, py in right:
        s.pin(ux + uw, py, "U1", name, ls["nets"][name])
        s.text(ux + uw - 7, py + 4, "%s %d" % (name, num[name]), 10, "end")
    s.text(ux + uw - 7, y + 24, "%s open" % " ".join(ls["open"]), 10, "end", color="#555")
    vbus = ux + uw + 25
    for name, py in right[1:]:
        s.line(ux + uw, py, vbus, py, color=COLORS["supply"], net="led_supply")
    s.line(vbus, right[1][1], vbus, y + 95, color=COLORS["supply"], net="led_supply")
    _netlabel(s, vbus, y + 95, "led_supply", "LED supply", COLORS["supply"])
    # VCC on top, GND at the bottom.
    px = ux + uw - 45
    s.pin(px, top, "U1", "VCC", "led_supply")
    s.text(px, top + 14, "VCC %d" % num["VCC"], 10, "middle")
    s.line(px, top, px, top - 18, color=COLORS["supply"], net="led_supply")
    _netlabel(s, px, top - 18, "led_supply", "LED supply (%s)" % supply_text, COLORS["supply"])
    s.pin(px, bottom, "U1", "GND", "gnd")
    s.text(px, bottom - 6, "GND %d" % num["GND"], 10, "middle")
    s.line(px, bottom, px, bottom + 15, net="gnd")
    _gnd(s, px, bottom + 15)
    # 1Y -> 330 ohm -> DIN of the first pixel.
    rx = vbus + 60
    s.line(ux + uw, y, rx, y, color, net="led_data_5v")
    s.pin(rx, y, "R3", "1", "led_data_5v")
    rend = s.box(rx, y, "R3 330 \u03a9")
    s.pin(rend, y, "R3", "2", "din")
    end = rend + 50
    s.line(rend, y, end, y, color, net="din")
    s.pin(end, y, "strip", "DIN", "din", color)
    s.text(end + 8, y + 4, "DIN of pixel 0 (die 1)", 12)
    return bottom + 30


def _divider(s, spec, parts, x0, y):
    """Board pin at (x0, y) to the divider's midpoint: BAT+ -> R1 -> midpoint -> R2 -> GND; C1 from the
    midpoint to GND."""
    r1, r2 = ("%d k\u03a9" % (ohm // 1000) for ohm in parts["divider_ohm"])
    mx = x0 + 170
    color = COLORS["battery"]
    s.line(x0, y, mx, y, color, net="bat_sense")
    s.circle(mx, y, 4, attrs={"class": "junction", "data-net": "bat_sense"})
    # R1 from BAT+ down to the midpoint.
    _netlabel(s, mx, y - 80, "bat_plus", "BAT+ (after the power switch)", COLORS["supply"])
    s.line(mx, y - 80, mx, y - 60, COLORS["supply"], net="bat_plus")
    s.pin(mx, y - 60, "R1", "1", "bat_plus")
    s.rect(mx - 8, y - 60, 16, 38, fill="#fffbe6")
    s.pin(mx, y - 22, "R1", "2", "bat_sense")
    s.line(mx, y - 22, mx, y, color, net="bat_sense")
    s.text(mx - 14, y - 37, "R1 %s" % r1, 11, "end")
    # R2 from the midpoint down to GND.
    s.line(mx, y, mx, y + 22, color, net="bat_sense")
    s.pin(mx, y + 22, "R2", "1", "bat_sense")
    s.rect(mx - 8, y + 22, 16, 38, fill="#fffbe6")
    s.pin(mx, y + 60, "R2", "2", "gnd")
    s.line(mx, y + 60, mx, y + 78, net="gnd")
    _gnd(s, mx, y + 78)
    s.text(mx - 14, y + 45, "R2 %s" % r2, 11, "end")
    # C1 from the midpoint to GND, next to the ADC pin.
    cx = mx + 70
    s.line(mx, y, cx, y, color, net="bat_sense")
    s.line(cx, y, cx, y + 30, color, net="bat_sense")
    s.pin(cx, y + 30, "C1", "1", "bat_sense")
    s.line(cx - 12, y + 30, cx + 12, y + 30, width=2.5)
    s.line(cx - 12, y + 37, cx + 12, y + 37, width=2.5)
    s.pin(cx, y + 37, "C1", "2", "gnd")
    s.line(cx, y + 37, cx, y + 78, net="gnd")
    _gnd(s, cx, y + 78)
    s.text(cx + 18, y + 38, "C1 100 nF", 11)
    s.text(cx + 18, y + 4, "Vbat = Vpin x %g (battery_divider)" % spec["battery_divider"], 11)
    return y + 100


def _rows(spec, parts):
    """(label, role text, net, kind, dashed) per board pin, in drawing order."""
    pins, pp = spec["pins"], spec["power_pins"]
    accel = spec["sensor"] in SENSOR_CHIP
    rows = [(pin_label(spec, pins["led_data"], parts), "LED data", "led_data", "led", False)]
    for role in ("button_die1", "button_die2", "button_die3", "button_main"):
        rows.append((pin_label(spec, pins[role], parts), ROLE_TEXT[role], role, "button", False))
    for role, sig in (("i2c_sda", "SDA"), ("i2c_scl", "SCL")):
        if pins.get(role) is not None:
            rows.append((pin_label(spec, pins[role], parts), "I2C%d %s" % (spec.get("i2c_id", 0), sig), role,
                         "i2c", not accel))
    if pins.get("shake_switch") is not None:
        rows.append((pin_label(spec, pins["shake_switch"], parts), "vibration switch", "shake_switch",
                     "switch", accel))
    if pins.get("battery_sense") is not None:
        rows.append((pin_label(spec, pins["battery_sense"], parts), "battery sense (ADC)", "bat_sense",
                     "battery", False))
    if pins.get("led_power") is not None:
        rows.append((pin_label(spec, pins["led_power"], parts), "LED supply switch", "led_power", "led_power",
                     False))
    if pins.get("accel_int") is not None:
        rows.append((pin_label(spec, pins["accel_int"], parts), "motion interrupt", "accel_int", "accel_int",
                     not accel))
    rows.append((pp["3v3"], "3.3 V out", "3v3", "3v3", not accel))
    rows.append((pp["gnd"], "ground", "gnd", "gnd", False))
    return rows


def wiring_svg(spec, parts):
    pp = spec["power_pins"]
    accel = spec["sensor"] in SENSOR_CHIP
    chip = SENSOR_CHIP.get(spec["sensor"], "LIS3DH")
    addr = spec.get("i2c_addr", 24)
    ldo = spec["power"]["scheme"] == "ldo"   # the board on its 3V3 pin from an LDO, the LEDs from the cell
    supply_text = "the cell after the switch" if ldo else pp["supply"]
    rows = _rows(spec, parts)
    # Row heights: the level shifter and the divider need room above and below their wire.
    above = {"led": 60, "battery": 95}
    below = {"led": 150, "battery": 105}
    ys, y = [], 150
    for label, role, net, kind, dashed in rows:
        y += above.get(kind, 0)
        ys.append(y)
        y += below.get(kind, 38)
    rows_end = y
    # The board box: as wide as its widest row (role text + pin label), its name wrapped.
    bx = 20
    bw = max(250, max(int(text_w(role, 11) + text_w(label, 12, True)) + 40 for label, role, *_ in rows))
    head = wrap(spec["module"]["part"], int((bw - 20) / text_w("x", 11, True)))
    s = Svg(W, rows_end + 500)  # height set at the end
    s.text(20, 30, "Schocken cup: wiring for %s" % spec["name"], 18, weight="bold")
    s.text(20, 50, spec["module"]["part"], 13)
    s.text(20, 70, "Generated by hardware/generate.py from hardware/boards/%s.json - do not edit."
           % spec["name"], 11, color="#555")
    btop = 95
    s.rect(bx, btop, bw, rows_end - btop - 10, fill="#e3f2fd")
    for i, line in enumerate(head):
        s.text(bx + 10, btop + 18 + 14 * i, line, 11, weight="bold")
    x0 = bx + bw
    for (label, role, net, kind, dashed), y in zip(rows, ys):
        color = COLORS.get(kind, "#6a1b9a")
        s.text(x0 - 10, y + 4, label, 12, "end", "bold")
        s.text(bx + 10, y + 4, role, 11)
        s.pin(x0, y, "board", label, net, color)
        if kind == "led":
            _level_shifter(s, spec, parts, x0, y, supply_text)
        elif kind == "battery":
            _divider(s, spec, parts, x0, y)
        elif kind == "led_power":
            # The gate of Q2 (BSS138, 100 kohm to GND: off while the pin floats at reset); Q2's drain pulls
            # the gate of Q1 (AO3401A, P-MOSFET, 10 kohm gate to source) low: the strip is powered.
            s.line(x0, y, x0 + 40, y, color, net=net)
            s.pin(x0 + 40, y, "Q2", "G", net)
            end = s.box(x0 + 40, y, "Q2 BSS138 gate (100 k\u03a9 to GND)")
            s.text(end + 10, y + 4, "Q2 drain -> Q1 AO3401A gate: LED supply on while high", 11)
        elif kind in ("button", "switch"):
            part = "push button" if kind == "button" else "SW-18010P"
            s.line(x0, y, x0 + 40, y, color, dashed, net=net)
            s.pin(x0 + 40, y, "S_" + net, "1", net)
            end = s.box(x0 + 40, y, part, dash=dashed)
            s.pin(end, y, "S_" + net, "2", "gnd")
            s.line(end, y, end + 40, y, dash=dashed, net="gnd")
            _gnd(s, end + 40, y, dashed)
            if kind == "switch":
                s.text(end + 60, y + 4, "only with sensor \"switch\"", 11)
        else:
            end_x = x0 + 300
            s.line(x0, y, end_x, y, color, dashed, net=net)
            if kind == "gnd":
                _gnd(s, end_x, y)
                s.text(end_x + 20, y + 4, "GND of all parts (one star point)", 12)
            else:
                sig = {"i2c_sda": "SDA", "i2c_scl": "SCL", "3v3": "VIN", "accel_int": "INT1"}[net]
                s.pin(end_x, y, "sensor", sig, net, color)
                s.text(end_x + 8, y + 4, "%s breakout %s%s" % (chip, sig, " (0x%02X)" % addr if net != "3v3"
                                                              else ""), 12)
    # Power chain and LED strip.
    y0 = rows_end + 30
    s.text(20, y0, "Power and LED strip", 14, weight="bold")
    y = y0 + 35
    x = 20
    chain = ["LiPo 1S %d mAh" % parts["battery"]["capacity_mah"], "TP4056 charger (USB-C)", "power switch"]
    chain += [] if ldo else ["1N5817 (stripe to %s)" % pp["supply"].split(" ")[0]]
    for part in chain:
        x = s.box(x, y, part, fill="#fdecea")
        if part != chain[-1]:
            s.line(x, y, x + 18, y, COLORS["supply"], width=2.5)
            x += 18
    # The supply node: what U1's VCC and the strip's VDD are labelled with.
    s.pin(x, y, "SW1" if ldo else "D1", "out", "led_supply", COLORS["supply"])
    s.line(x, y, x + 18, y, COLORS["supply"], width=2.5, net="led_supply")
    x += 18
    what = ("the cell after the switch: Q1's source, the RT9080's input" if ldo
            else "%s + LED strip VDD" % pp["supply"])
    _netlabel(s, x, y, "led_supply", "LED supply: %s" % what, COLORS["supply"])
    if ldo:
        y += 40
        s.box(20, y, "U2 RT9080-33 LDO: IN from the LED supply (the cell), OUT to the board's %s, GND; "
              "1 \u00b5F at IN and OUT. Remove the board's power LED." % pp["supply"].split(" ")[0],
              fill="#fdecea")
    if spec["pins"].get("led_power") is not None:
        y += 40
        s.box(20, y, "Q1 AO3401A P-MOSFET: source on the LED supply, drain to the strip's VDD and C2, gate "
              "10 k\u03a9 to source and to Q2's drain; Q2 BSS138: source to GND, gate from %s"
              % pin_label(spec, spec["pins"]["led_power"], parts), fill="#e0f2f1")
    y += 40
    s.box(20, y, "C2 1000 \u00b5F across VDD/GND at the strip input (stripe = minus)", fill="#fdecea")
    y += 35
    s.box(20, y, "WS2812B x %d: DIN at die 1, pips row by row, status pixel last" % spec["leds"],
          fill="#e8f5e9")
    y += 40
    notes = [
        "LED data: 3.3 V logic; WS2812B wants 0.7 x VDD (3.5 V at 5 V): "
        "the 74AHCT125 (VCC from the LED supply, 1OE to GND) shifts it.",
        "Unused gates of the 74AHCT125: 2OE, 3OE, 4OE to VCC (outputs off), 2A, 3A, 4A to GND, "
        "2Y, 3Y, 4Y open.",
        "Without it the strip must run from the cell (<= 4.2 V). "
        "The 330 \u03a9 resistor sits next to the first pixel's DIN (300-500 \u03a9).",
        "Buttons: to GND, internal pull-ups (active-low). "
        "Dashed: not fitted with the default sensor (%s)." % spec["sensor"],
        "BAT+ for the divider is taken after the power switch, "
        "so the divider draws nothing while the cup is off.",
    ]
    if not accel:
        notes.append("%s: only with an accelerometer." % chip)
    for n in notes:
        s.text(20, y, n, 11, color="#333")
        y += 18
    s.h = y + 10
    return s.render()
