"""The printed parts of the cup as build123d solids, placed where they sit in the closed cup (layout.py's
frame: z = 0 on the table, playing position). build.py turns them over for printing and writes the files.

Every hole, window and pocket is cut at a position layout.py computed from the board file and parts.json.
"""

import math

from build123d import Align, Box, Cylinder, Pos, Rot

MIN = (Align.CENTER, Align.CENTER, Align.MIN)   # a solid standing on z = its position's z
FIT = 0.3                                       # printed hole or pocket around a part: this much wider


def disc(r, h, z=0.0, x=0.0, y=0.0):
    return Pos(x, y, z) * Cylinder(r, h, align=MIN)


def radial_cyl(d, r1, r2, angle, z, offset=0.0):
    """A cylinder along the radius at `angle` from r1 to r2 (a hole through the wall), `offset` sideways."""
    return Rot(0, 0, angle) * Pos((r1 + r2) / 2, offset, z) * Rot(0, 90, 0) * Cylinder(d / 2, r2 - r1)


def radial_box(r1, r2, width, height, angle, z, offset=0.0):
    """A box from radius r1 to r2 at `angle`, `width` across the radius, centred on height z."""
    return Rot(0, 0, angle) * Pos((r1 + r2) / 2, offset, z) * Box(r2 - r1, width, height)


def module_box(m, length, width, z0, height, grow=0.0):
    """The module's outline (plus grow all round) as a box from z0 up, in the world."""
    cx, cy = m["centre"]
    return Pos(cx, cy, z0) * Rot(0, 0, m["angle"]) * Box(length + 2 * grow, width + 2 * grow, height,
                                                         align=MIN)


def body(L):
    """The cup's shell: a tube with a lip at the top (holds the diffuser), four screw bosses, the button
    pockets and the USB, charge and switch openings. It starts above the lid."""
    h, r_out, r_in, z0 = L["height"], L["r_out"], L["r_in"], L["lid"]
    shell = disc(r_out, h - z0, z0) - disc(r_in, h - L["lip"] - z0, z0)
    shell -= disc(L["lip_r"], L["lip"] + 1, h - L["lip"])
    bo = L["boss"]
    for x, y in L["bosses"]:
        shell += disc(bo["d"] / 2, L["z_carrier"] - z0, z0, x, y)
        # Heat-set inserts at both ends: the lid screws in from below, the LED carrier from above.
        shell -= disc(bo["insert_hole_d"] / 2, bo["insert_depth"], z0, x, y)
        shell -= disc(bo["insert_hole_d"] / 2, bo["insert_depth"], L["z_carrier"] - bo["insert_depth"], x, y)
    bs = L["button_spec"]
    sw, _, sh = bs["switch"]
    block = sh + 1.0                            # the switch's depth behind the cap's flange
    for b in L["buttons"]:
        a, z = b["angle"], b["z"]
        shell += radial_box(r_in - block, r_in + 0.5, sw + 2 * 2.0, sw + 2 * 2.0, a, z)
        # Cap hole through the wall, then the switch's square pocket from the inside up to 1 mm inside it.
        shell -= radial_cyl(b["cap_d"] + bs["hole_play"], r_in - 1.5, r_out + 1, a, z)
        shell -= radial_box(r_in - block - 1, r_in - 1.0, sw + FIT, sw + FIT, a, z)
    for m in (L["board"], L["charger"]):
        u = m["usb"]
        # The opening is the connector's face plus 1 mm all round (plug shells are bigger than receptacles).
        shell -= radial_box(r_in - 3, r_out + 1, u["width_mm"] + 2.0, u["height_mm"] + 2.0, m["angle"],
                            u["z"], u["offset"])
    s = L["switch"]
    shell -= radial_box(r_in - 3, r_out + 1, s["slot"][0], s["slot"][1], s["angle"], s["z"])
    return shell


def lid(L):
    """The bottom: closes the cup, carries the battery holder and the three posts the deck stands on."""
    t, bo = L["lid"], L["boss"]
    part = disc(L["r_out"], t)
    for x, y in L["bosses"]:
        part -= disc(bo["screw_d"] / 2, t + 1, -0.5, x, y)
        part -= disc(bo["head_d"] / 2, bo["head_h"], -0.01, x, y)   # counterbore: heads stay off the table
    bl, bw, bh = L["battery"]["size"]
    wall = L["battery"]["wall"]
    frame = Pos(0, 0, t) * Box(bl + 2 * FIT + 2 * wall, bw + 2 * FIT + 2 * wall, bh + 1, align=MIN)
    frame -= Pos(0, 0, t) * Box(bl + 2 * FIT, bw + 2 * FIT, bh + 2, align=MIN)
    frame -= Pos(bl / 2, 0, t) * Box(4 * wall, 12, bh + 2, align=MIN)   # the cell's leads leave here
    part += frame
    d = L["deck"]
    for x, y in d["posts"]:
        part += disc(d["post_d"] / 2, d["z"] - t + 0.01, t - 0.01, x, y)
        part -= disc(d["pilot_d"] / 2, 8.0, d["z"] - 8.0 + 0.01, x, y)
    return part


def deck(L):
    """The electronics deck: the board on standoffs (or posts and cable ties), pockets for the charger and
    the sensor, notches for the bosses, holes for the wires and the lid's posts."""
    d, bo = L["deck"], L["boss"]
    z, t = d["z"], d["thickness"]
    part = disc(L["r_in"] - L["clearance"], t, z)
    for x, y in L["bosses"]:
        part -= disc(bo["d"] / 2 + 0.6, t + 2, z - 1, x, y)
    for x, y in d["posts"]:
        part -= disc(d["pilot_d"] / 2 + 0.5, t + 2, z - 1, x, y)
    b = L["board"]
    length, width, _ = b["size"]
    top, rise = d["top"], b["standoff"]
    if b["holes"]:
        for x, y in b["holes"]:
            part += disc(d["standoff_d"] / 2, rise + 0.01, top - 0.01, x, y)
            part -= disc(d["standoff_pilot_d"] / 2, rise, top + 0.5, x, y)
    else:
        # No holes: two posts on the centre line carry it, a cable tie around board and deck at each.
        for fx in (0.2, 0.8):
            x, y = b["world"](length * fx, width / 2)
            part += disc(3.0, rise + 0.01, top - 0.01, x, y)
            for side in (-1, 1):
                sx, sy = b["world"](length * fx, width / 2 + side * (width / 2 + 2.5))
                part -= Pos(sx, sy, z - 1) * Rot(0, 0, b["angle"]) * Box(3.0, 1.8, t + 2, align=MIN)
    for m in (L["charger"], L["sensor"]):
        ml, mw, mt = m["size"]
        rim = module_box(m, ml, mw, top - 0.01, mt + 1.0, FIT + 1.2)
        rim -= module_box(m, ml, mw, top, mt + 2.0, FIT)
        if "usb" in m:                          # the USB end stays open: the connector reaches its opening
            ex, ey = m["world"](0, mw / 2)
            rim -= Pos(ex, ey, top) * Rot(0, 0, m["angle"]) * Box(6, mw + 4, mt + 3, align=MIN)
        part += rim
    for a in (200.0, 340.0):                    # wire passages to the battery and the charger below/beside
        x, y = 30.0 * math.cos(math.radians(a)), 30.0 * math.sin(math.radians(a))
        part -= disc(4.0, t + 2, z - 1, x, y)
    return part


def led_carrier(L):
    """Holds the 22 pixels facing up, one shallow pocket each; screwed onto the four bosses."""
    z, t = L["z_carrier"], L["carrier"]
    part = disc(L["r_in"] - L["clearance"], t, z)
    px = L["pixel"]["body"] + FIT
    for x, y in L["leds"]:
        part -= Pos(x, y, z + t - 0.8) * Box(px, px, 1.0, align=MIN)
        part -= disc(0.8, t + 2, z - 1, x + px / 2 + 1.2, y)     # a wire through, beside each pixel
    for x, y in L["bosses"]:
        part -= disc(L["boss"]["screw_d"] / 2, t + 2, z - 1, x, y)
    return part


def light_grid(L):
    """One well per pip above each pixel, so a pip's light stays in its own window (print it black)."""
    z, h = L["z_grid"], L["grid_h"]
    part = disc(L["r_in"] - L["clearance"], h, z)
    for x, y in L["leds"]:
        part -= disc(L["window_d"] / 2, h + 2, z - 1, x, y)
    for x, y in L["bosses"]:
        part -= disc(L["boss"]["head_d"] / 2 + 0.5, h + 2, z - 1, x, y)   # room for the carrier's screw heads
    return part


def diffuser(L):
    """The white disc the players look at; held against the lip by the light grid."""
    return disc(L["r_in"] - L["clearance"], L["diffuser"], L["z_diffuser"])


def cap_for_print(L, button):
    """A button cap standing on its flange: the stem goes through the wall and stands `proud` outside it, the
    flange stays inside, keeps the cap in and presses the switch."""
    bs = L["button_spec"]
    d = button["cap_d"]
    stem = L["r_out"] + bs["proud"] - (L["r_in"] - 1.5) + 1.2
    flange = min(d + 2.0, bs["switch"][0] - 0.4)   # inside the switch's pocket
    return Cylinder(d / 2, stem, align=MIN) + Cylinder(flange / 2, 1.2, align=MIN)


def cap(L, button):
    """The cap in the cup: laid along its button's radius, the flange's outer face 1.5 mm inside the wall's
    inner face (where the cap hole starts)."""
    r0 = L["r_in"] - 1.5
    return (Rot(0, 0, button["angle"]) * Pos(r0, 0, button["z"]) * Rot(0, 90, 0) * Pos(0, 0, -1.2)
            * cap_for_print(L, button))


def parts(L):
    """{name: solid} in assembled position. One cap per button: the die caps are alike, the main one wider."""
    out = {"body": body(L), "lid": lid(L), "deck": deck(L), "led_carrier": led_carrier(L),
           "light_grid": light_grid(L), "diffuser": diffuser(L)}
    for b in L["buttons"]:
        out["cap_" + b["role"].replace("button_", "")] = cap(L, b)
    return out
