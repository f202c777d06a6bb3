"""Breadboard view of a Raspberry Pi Pico build (hardware/wiring/<board>_breadboard.svg): the Pico seen from
above on a full-size breadboard, its 40 header pins in their physical order (parts.json "rp2_header"), every
part plugged in and wired with colored jumper wires: red supply, black GND.

The Pico straddles the centre channel with its pins in rows c and h (0.7 inch apart, two free holes beside
each pin for wires), USB to the left: pin 1 (GP0) bottom left, pins 1-20 along the bottom, 21-40 along the
top from right to left. A hole's column joins its five holes on one side of the channel, so a wire plugged in
the same column and half as a pin is on that pin. Elements carry data for tests/test_wiring.py: each header
pin ``class="pico-pin" data-pin data-name``, each wire ``class="wire" data-net data-role data-a data-b`` (the
holes as "column:row", rows a-j or the rails T+, T-, B+, B-).
"""

from pinout import ROLE_TEXT, rp2_header
from svg import Svg, text_w

P = 18                      # hole pitch in the drawing (0.1 inch)
COLS = 62
BX, BY = 20, 200            # breadboard's top-left corner
PICO_COL = 3                # column of pins 1 and 40
RED, BLACK = "#d32f2f", "#212121"
SIGNAL = {"led_data": "#1565c0", "i2c_sda": "#8e24aa", "i2c_scl": "#f9a825", "battery_sense": "#ef6c00",
          "shake_switch": "#6d4c41", "led_power": "#00897b", "accel_int": "#ad1457",
          "button_die1": "#2e7d32", "button_die2": "#2e7d32",
          "button_die3": "#2e7d32", "button_main": "#2e7d32"}
SENSOR_PINS = {"lis3dh": ("LIS3DH", ["VIN", "GND", "SCL", "SDA", "SDO"]),
               "mpu6050": ("MPU-6050", ["VCC", "GND", "SCL", "SDA", "AD0"])}


def col_x(c):
    return BX + 30 + (c - 1) * P


def _row_y():
    y = {"T-": BY + 20, "T+": BY + 20 + P}
    for i, r in enumerate("abcde"):
        y[r] = y["T+"] + 2 * P + i * P
    for i, r in enumerate("fghij"):
        y[r] = y["e"] + 3 * P + i * P
    y["B+"] = y["j"] + 2 * P
    y["B-"] = y["B+"] + P
    return y


ROW_Y = _row_y()
CHANNEL_Y = (ROW_Y["e"] + ROW_Y["f"]) / 2


def hole(col, row):
    return col_x(col), ROW_Y[row]


def pico_hole(phys):
    """(column, row) of physical pin 1..40: 1-20 in row h left to right, 21-40 in row c right to left."""
    if phys <= 20:
        return PICO_COL + phys - 1, "h"
    return PICO_COL + 40 - phys, "c"


class Board:
    def __init__(self, s):
        self.s = s

    def wire(self, a, b, color, net, role=None, dash=False):
        (ca, ra), (cb, rb) = a, b
        (x1, y1), (x2, y2) = hole(ca, ra), hole(cb, rb)
        attrs = {"class": "wire", "data-net": net, "data-a": "%d:%s" % a, "data-b": "%d:%s" % b}
        if role:
            attrs["data-role"] = role
        if abs(x1 - x2) < P:
            d = "M %d %d L %d %d" % (x1, y1, x2, y2)
        else:
            # Jumpers arch away from the board's middle, so crossing wires stay apart.
            both_top, both_bottom = max(y1, y2) < CHANNEL_Y, min(y1, y2) > CHANNEL_Y
            bulge = min(70, 0.12 * abs(x2 - x1)) + 12
            my = (y1 + y2) / 2 + (-bulge if both_top else bulge if both_bottom else 0)
            mx = (x1 + x2) / 2 + (0 if both_top or both_bottom else 30)
            d = "M %d %d Q %d %d %d %d" % (x1, y1, mx, my, x2, y2)
        self.s.path(d, color, 3.2, dash, attrs)
        for x, y in ((x1, y1), (x2, y2)):
            self.s.circle(x, y, 2.6, fill=color)

    def leg(self, col, row):
        x, y = hole(col, row)
        self.s.circle(x, y, 3, fill="#9e9e9e", stroke="#424242")
        return x, y

    def resistor(self, a, b, label, color="#f5deb3"):
        (x1, y1), (x2, y2) = self.leg(*a), self.leg(*b)
        self.s.line(x1, y1, x2, y2, "#757575", width=2)
        mx, my = (x1 + x2) // 2, (y1 + y2) // 2
        w = max(26, int(text_w(label, 7)) + 8) if y1 == y2 else 12
        h = 12 if y1 == y2 else 30
        self.s.rect(mx - w // 2, my - h // 2, w, h, fill=color, stroke="#8d6e63", rx=3)
        self.s.text(mx, my + 3, label, 7, "middle")

    def button(self, col, label):
        """A 6 mm push button: legs at (g, col) and (g, col + 2); pressed, it joins the two columns."""
        self.leg(col, "g")
        self.leg(col + 2, "g")
        x, y = col_x(col) - 6, ROW_Y["g"] - P + 2
        w = 2 * P + 12
        self.s.rect(x, y, w, 2 * P - 4, fill="#eceff1", stroke="#455a64", rx=3)
        self.s.circle(x + w // 2, y + P - 2, 8, fill="#37474f")
        self.s.text(x + w // 2, ROW_Y["f"] - 8, label, 8, "middle")

    def terminal(self, x, y, net):
        self.s.circle(x, y, 3.5, fill="#fff", stroke="#000", attrs={"class": "terminal", "data-net": net})

    def offboard(self, x, y, text, fill="#fdecea"):
        """A part off the breadboard (power chain, LED strip): a labelled box; returns (x, right edge)."""
        right = self.s.box(x, y, text, fill=fill, size=10)
        return x, right


def _draw_board(s):
    top, bottom = ROW_Y["T-"] - 20, ROW_Y["B-"] + 20
    s.rect(BX, top, col_x(COLS) + 20 - BX, bottom - top, fill="#f5f5f0", stroke="#bdbdbd", rx=6)
    s.rect(BX + 20, int(CHANNEL_Y) - 4, col_x(COLS) - BX - 10, 8, fill="#e0e0e0", stroke="none")
    for rail, color in (("T-", "#1e88e5"), ("T+", RED), ("B+", RED), ("B-", "#1e88e5")):
        y = ROW_Y[rail]
        off = -8 if rail in ("T-", "B+") else 8
        s.line(col_x(1) - 6, y + off, col_x(COLS) + 6, y + off, color, width=1.2)
        s.text(BX + 8, y + 4, rail[1], 11, weight="bold", color=color)
    for r in "abcdefghij":
        s.text(BX + 8, ROW_Y[r] + 3, r, 8, color="#757575")
    for c in range(1, COLS + 1):
        if c == 1 or c % 5 == 0:
            s.text(col_x(c), ROW_Y["a"] - P + 4, str(c), 7, "middle", color="#757575")
            s.text(col_x(c), ROW_Y["j"] + P - 2, str(c), 7, "middle", color="#757575")
        for r in ROW_Y:
            x, y = hole(c, r)
            s.circle(x, y, 2.2, fill="#616161")


def _draw_pico(s, spec, parts):
    names = rp2_header(parts)
    x0, x1 = col_x(PICO_COL) - P // 2 - 3, col_x(PICO_COL + 19) + P // 2 + 3
    y0, y1 = ROW_Y["c"] - 12, ROW_Y["h"] + 12
    s.rect(x0 - 16, (y0 + y1) // 2 - 10, 18, 20, fill="#b0bec5", stroke="#607d8b", rx=2)  # USB
    s.rect(x0, y0, x1 - x0, y1 - y0, fill="#1b5e20", stroke="#0d3311", rx=4)
    for phys in range(1, 41):
        col, row = pico_hole(phys)
        x, y = hole(col, row)
        s.circle(x, y, 3.6, fill="#ffca28", stroke="#8d6e00",
                 attrs={"class": "pico-pin", "data-pin": phys, "data-name": names[phys]})
        label = "%d %s" % (phys, names[phys])
        if row == "c":
            s.text(x + 3, y + 9, label, 7, "end", color="#fff", rotate=True)
        else:
            s.text(x + 3, y - 9, label, 7, "start", color="#fff", rotate=True)


def breadboard_svg(spec, parts):
    pins = spec["pins"]
    hdr = parts["rp2_header"]["pins"]
    ls = parts["level_shifter"]["pins"]
    chip, spins = SENSOR_PINS.get(spec["sensor"], SENSOR_PINS["lis3dh"])
    accel = spec["sensor"] in SENSOR_PINS
    names = rp2_header(parts)
    phys_of = {name: p for p, name in names.items() if name not in ("GND",)}
    width = col_x(COLS) + 60
    s = Svg(width, 900)
    b = Board(s)
    s.text(20, 30, "Schocken cup on a breadboard: %s" % spec["name"], 18, weight="bold")
    s.text(20, 50, "%s seen from above, USB to the left: pin 1 (GP0) bottom left, pin 40 (VBUS) top left."
           % spec["module"]["part"], 12)
    s.text(20, 68, "Generated by hardware/generate.py from hardware/boards/%s.json and hardware/parts.json - "
           "do not edit." % spec["name"], 11, color="#555")
    _draw_board(s)
    _draw_pico(s, spec, parts)

    def at(phys, row):
        """The hole beside header pin phys in the given row (same column, same half)."""
        return pico_hole(phys)[0], row

    def gpio(role):
        return hdr[str(pins[role])]

    # Power: the chain from the cell comes in on the top rails; the rails are bridged to the bottom ones.
    b.offboard(col_x(1) - 10, 110, "from the power chain: LiPo -> TP4056 -> switch -> 1N5817 (stripe here)")
    b.terminal(col_x(1), 130, "supply")
    b.terminal(col_x(2), 130, "gnd")
    s.path("M %d 130 L %d %d" % (col_x(1), col_x(1), ROW_Y["T+"]), RED, 3.2,
           attrs={"class": "wire", "data-net": "supply", "data-a": "in:+", "data-b": "1:T+"})
    s.path("M %d 130 L %d %d" % (col_x(2), col_x(2), ROW_Y["T-"]), BLACK, 3.2,
           attrs={"class": "wire", "data-net": "gnd", "data-a": "in:-", "data-b": "2:T-"})
    supply_phys = phys_of["VSYS"]
    gnd_phys = max(p for p, n in names.items() if n == "GND")
    b.wire(at(supply_phys, "b"), (pico_hole(supply_phys)[0], "T+"), RED, "supply", "supply")
    b.wire(at(gnd_phys, "b"), (pico_hole(gnd_phys)[0], "T-"), BLACK, "gnd", "gnd")
    b.wire((COLS, "T+"), (COLS, "B+"), RED, "supply")
    b.wire((COLS - 1, "T-"), (COLS - 1, "B-"), BLACK, "gnd")

    # Battery divider (top half, columns 26-34): BAT+ -> R1 -> midpoint (column 30) -> R2 -> GND; C1 to GND.
    b.offboard(col_x(24), 160, "BAT+ (after the switch)")
    b.terminal(col_x(26), 175, "bat_plus")
    s.path("M %d 175 L %d %d" % (col_x(26), col_x(26), ROW_Y["a"]), RED, 3.2,
           attrs={"class": "wire", "data-net": "bat_plus", "data-a": "in:BAT+", "data-b": "26:a"})
    b.resistor((26, "d"), (30, "d"), "R1 100k")
    b.resistor((30, "c"), (34, "c"), "R2 100k")
    b.resistor((30, "b"), (31, "b"), "C1", color="#ffe082")
    b.wire((34, "a"), (34, "T-"), BLACK, "gnd")
    b.wire((31, "a"), (31, "T-"), BLACK, "gnd")
    if pins.get("battery_sense") is not None:
        b.wire(at(gpio("battery_sense"), "b"), (30, "e"), SIGNAL["battery_sense"], "bat_sense",
               "battery_sense")

    # Sensor breakout (top half, pins in row e, columns 37-41).
    sx0 = col_x(37) - P // 2
    s.rect(sx0, ROW_Y["c"] - 8, 5 * P, ROW_Y["e"] - ROW_Y["c"] + 16, fill="#283593" if accel else "#9fa8da",
           stroke="#1a237e", rx=3, dash=not accel)
    s.text(sx0 + 5 * P // 2, ROW_Y["c"] + 2, chip, 8, "middle", color="#fff")
    for i, name in enumerate(spins):
        b.leg(37 + i, "e")
        s.text(col_x(37 + i), ROW_Y["e"] - 7, name, 6, "middle", color="#fff")
    b.wire(at(phys_of["3V3(OUT)"], "a"), (37, "a"), RED, "3v3", "3v3", dash=not accel)
    b.wire((38, "b"), (38, "T-"), BLACK, "gnd", dash=not accel)
    b.wire((41, "a"), (41, "T-"), BLACK, "gnd", dash=not accel)
    b.wire(at(gpio("i2c_scl"), "i"), (39, "a"), SIGNAL["i2c_scl"], "i2c_scl", "i2c_scl", dash=not accel)
    b.wire(at(gpio("i2c_sda"), "j"), (40, "b"), SIGNAL["i2c_sda"], "i2c_sda", "i2c_sda", dash=not accel)
    if pins.get("accel_int") is not None:  # INT1 on a leg of its own beside the breakout's five
        b.leg(42, "e")
        s.text(col_x(42), ROW_Y["e"] - 7, "INT1", 6, "middle", color="#000")
        b.wire(at(gpio("accel_int"), "a"), (42, "a"), SIGNAL["accel_int"], "accel_int", "accel_int",
               dash=not accel)

    # Vibration switch (only with sensor "switch") and the four buttons (bottom half).
    if pins.get("shake_switch") is not None:
        b.leg(24, "g")
        b.leg(26, "g")
        s.rect(col_x(24) - 4, ROW_Y["g"] - 5, 2 * P + 8, 10, fill="#bcaaa4", stroke="#5d4037", rx=5,
               dash=accel)
        b.wire(at(gpio("shake_switch"), "j"), (24, "j"), SIGNAL["shake_switch"], "shake_switch",
               "shake_switch", dash=accel)
        b.wire((26, "i"), (26, "B-"), BLACK, "gnd", dash=accel)
    for i, role in enumerate(("button_die1", "button_die2", "button_die3", "button_main")):
        col = 28 + 4 * i
        b.button(col, ("B%d" % (i + 1)) if i < 3 else "main")
        b.wire(at(gpio(role), "j" if i % 2 == 0 else "i"), (col, "j"), SIGNAL[role], role, role)
        b.wire((col + 2, "i"), (col + 2, "B-"), BLACK, "gnd")

    # 74AHCT125 across the channel (pins 1-7 in row f, 14-8 in row e, columns 45-51), R3, the LED strip.
    u0 = 45
    s.rect(col_x(u0) - P // 2, ROW_Y["e"] - 6, 7 * P, ROW_Y["f"] - ROW_Y["e"] + 12, fill="#263238",
           stroke="#000", rx=2)
    s.circle(col_x(u0) - P // 2 + 2, int(CHANNEL_Y), 4, fill="#546e7a")
    s.text(col_x(u0 + 3), int(CHANNEL_Y) + 3, "74AHCT125", 8, "middle", color="#fff")

    def u1(name):
        n = ls[name]
        return (u0 + n - 1, "f") if n <= 7 else (u0 + 14 - n, "e")
    for name in ls:
        b.leg(*u1(name))
    near = {"f": "j", "e": "a"}
    far = {"f": "i", "e": "b"}
    b.wire(at(gpio("led_data"), "a"), (u1("1A")[0], "i"), SIGNAL["led_data"], "led_data", "led_data")
    for name, net in parts["level_shifter"]["nets"].items():
        if net not in ("gnd", "led_supply"):
            continue
        col, row = u1(name)
        rail = ("B" if row == "f" else "T") + ("-" if net == "gnd" else "+")
        hole_row = near[row] if net == "led_supply" or name in ("1OE", "GND") else far[row]
        b.wire((col, hole_row), (col, rail), BLACK if net == "gnd" else RED, net)
    r3 = u1("1Y")[0]
    b.resistor((r3, "i"), (r3 + 8, "i"), "R3 330")
    b.resistor((57, "B+"), (58, "B-"), "C2", color="#90caf9")
    strip_y = ROW_Y["B-"] + 70
    b.offboard(col_x(50), strip_y, "LED strip: DIN, VDD, GND of pixel 0 (die 1)", fill="#e8f5e9")
    for i, (net, color, src) in enumerate((("din", SIGNAL["led_data"], (r3 + 8, "j")),
                                           ("supply", RED, (59, "B+")), ("gnd", BLACK, (60, "B-")))):
        tx, ty = col_x(53 + 3 * i), strip_y - 11
        b.terminal(tx, ty, net)
        x1, y1 = hole(*src)
        s.path("M %d %d Q %d %d %d %d" % (x1, y1, (x1 + tx) // 2, ty, tx, ty), color, 3.2,
               attrs={"class": "wire", "data-net": net, "data-a": "%d:%s" % src, "data-b": "strip:%s" % net})

    # The LED supply switch's gate driver: off the breadboard, at the strip (hardware/wiring/<board>.svg).
    if pins.get("led_power") is not None:
        gx, gy = col_x(4), strip_y
        b.offboard(gx - 10, gy + 20, "LED supply switch at the strip: Q2 BSS138 gate (100k to GND) -> "
                   "Q1 AO3401A (source on +, drain to the strip's VDD)", fill="#e0f2f1")
        b.terminal(gx, gy, "led_power")
        x1, y1 = hole(*at(gpio("led_power"), "j"))
        s.path("M %d %d L %d %d" % (x1, y1, gx, gy), SIGNAL["led_power"], 3.2,
               attrs={"class": "wire", "data-net": "led_power", "data-role": "led_power",
                      "data-a": "%d:j" % pico_hole(gpio("led_power"))[0], "data-b": "Q2:G"})

    # Legend.
    y = strip_y + 40
    legend = [
        "Wires: red = supply (VSYS on the rails, 3V3 to the sensor, BAT+), black = GND, colors = signals; "
        "dashed = not fitted with sensor \"%s\"." % spec["sensor"],
        "Rails: top and bottom + carry the LED supply (%s, from the Schottky diode), - is GND; "
        "bridged at the right end." % spec["power_pins"]["supply"],
        "U1 74AHCT125: 1A from %s, 1Y -> R3 330 ohm -> DIN; VCC, 2OE, 3OE, 4OE to +; "
        "GND, 1OE, 2A, 3A, 4A to -; 2Y, 3Y, 4Y open." % ROLE_TEXT["led_data"],
        "Battery divider: BAT+ -> R1 100k -> column 30 (to %s) -> R2 100k -> GND, C1 100 nF from column 30 "
        "to GND." % ("GP%d" % pins["battery_sense"]),
        "Buttons B1-B3 (dice 1-3) and main: one leg on the pin's column, the other to GND "
        "(internal pull-ups). C2 1000 uF across the rails at the strip.",
    ]
    if pins.get("led_power") is not None:
        legend.append("The strip's VDD comes from the rail through Q1 (the LED supply switch), which the "
                      "firmware opens while no pixel is lit; INT1 of the %s wakes the cup on motion." % chip)
    for line in legend:
        s.text(20, y, line, 11, color="#333")
        y += 18
    s.h = y + 10
    return s.render()
