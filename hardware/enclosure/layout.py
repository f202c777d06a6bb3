"""Where everything sits in the cup, computed from the data alone (no CAD here, so the tests can read it too).

Inputs: a board file's ``mechanical`` section (outline, holes, USB connector: the board's datasheet) and
``parts.json``'s ``enclosure`` section (cup size, pip layout, buttons, charger, sensor, screws). Every
position the model cuts a window, a hole or a pocket for comes from here, and the tests check the built solids
against the same numbers: a change to the data moves the geometry, nothing is typed twice.

Frame: mm, z = 0 on the table with the cup in its playing position (the diffusing base up); angles in degrees
counter-clockwise from +x seen from the top; the buttons face the player at 270 (-y).
"""

import json
import math
from pathlib import Path

HW = Path(__file__).resolve().parents[1]


def load(data_dir=HW):
    """(boards, parts) from data_dir/boards/*.json and data_dir/parts.json (default: hardware/)."""
    data_dir = Path(data_dir)
    boards = {p.stem: json.loads(p.read_text()) for p in sorted((data_dir / "boards").glob("*.json"))}
    return boards, json.loads((data_dir / "parts.json").read_text())


def polar(r, angle_deg):
    a = math.radians(angle_deg)
    return (r * math.cos(a), r * math.sin(a))


def place_module(size, usb, angle, r_clear, z_bottom, above):
    """A rectangular module lying flat with its USB edge toward the wall at `angle`, centred on that radius.

    Local frame: x from the USB edge along the module, y across it (the board files' frame). The USB edge
    goes as far out as the curved wall allows with r_clear left at every corner (the PCB's and the
    connector's, which may overhang the edge), so the connector ends up as close to its opening as it can.
    """
    length, width, thick = size
    half = width / 2
    over = usb.get("overhang_mm", 0.0) if usb else 0.0
    edge = math.sqrt(r_clear ** 2 - half ** 2)
    if usb:
        off = abs(usb["y_mm"] - half) + usb["width_mm"] / 2
        edge = min(edge, math.sqrt(r_clear ** 2 - off ** 2) - over)
    u = polar(1.0, angle)
    t = (-u[1], u[0])

    def world(x, y):
        """Local (x, y) on the module -> world (x, y)."""
        return (u[0] * (edge - x) + t[0] * (y - half), u[1] * (edge - x) + t[1] * (y - half))
    m = {"size": size, "angle": angle, "edge_r": edge, "z": z_bottom, "top": z_bottom + thick,
         "above": above, "world": world, "centre": world(length / 2, half)}
    if usb:
        # The connector's centre: on the PCB's top, half its height up, at the (overhanging) edge.
        m["usb"] = dict(usb, centre=world(-over, usb["y_mm"]), z=z_bottom + thick + usb["height_mm"] / 2,
                        offset=usb["y_mm"] - half, r=edge + over)
    return m


def pip_positions(pips):
    """21 pips in chain order (die 1 pips 0-6, die 2, die 3) then the status pixel: [(x, y)]."""
    out = []
    for die in range(3):
        cx = (die - 1) * pips["die_pitch"]
        for col, row in pips["grid"]:
            out.append((cx + (col - 1) * pips["pitch"], pips["dice_y"] - (row - 1) * pips["pitch"]))
    out.append(tuple(pips["status"]))
    return out


def layout(spec, parts):
    """Everything the model and the checks need for one board, as plain numbers."""
    enc = parts["enclosure"]
    mech = spec["mechanical"]
    cup = enc["cup"]
    r_out = cup["outer_d"] / 2
    r_in = r_out - cup["wall"]
    h = cup["height"]
    clear = enc["clearance"]
    pips = dict(enc["pips"], **mech.get("pips", {}))
    # The stack under the top lip, from the top down: diffuser, light grid, LED carrier.
    z_diffuser = h - cup["lip"] - enc["diffuser"]
    z_grid = z_diffuser - enc["grid_h"]
    z_carrier = z_grid - enc["carrier"]
    deck = enc["deck"]
    deck_top = deck["z"] + deck["thickness"]
    standoff = mech["below_mm"] + 1.0          # header pins under the board clear the deck by 1 mm
    board = place_module(mech["pcb_mm"], mech["usb"], enc["board_angle"], r_in - clear, deck_top + standoff,
                         mech["above_mm"])
    board["holes"] = [board["world"](x, y) for x, y in mech["holes_mm"]]
    board["hole_d"] = mech["hole_d_mm"]
    board["standoff"] = standoff
    ch = enc["charger"]
    charger = place_module(ch["size"], ch["usb"], ch["angle"], r_in - clear, deck_top, ch["above"])
    se = enc["sensor"]
    # The sensor pocket sits as far out as its corners allow: away from the board's strip across the cup.
    sensor = place_module(se["size"], None, se["angle"], r_in - clear - 2.0, deck_top, 2.0)
    b = enc["buttons"]
    buttons = [{"role": "button_die%d" % (i + 1), "angle": a, "z": b["z"], "cap_d": b["die_cap_d"]}
               for i, a in enumerate(b["die_angles"])]
    buttons.append({"role": "button_main", "angle": b["main_angle"], "z": b["z"], "cap_d": b["main_cap_d"]})
    bosses = enc["bosses"]
    boss_r = r_in - bosses["d"] / 2 + 1.0      # sunk 1 mm into the wall: one solid with it
    return {
        "board_name": spec["name"], "r_out": r_out, "r_in": r_in, "height": h, "wall": cup["wall"],
        "lip": cup["lip"], "lip_r": r_in - cup["lip_width"], "lid": cup["lid"], "clearance": clear,
        "limits": cup["limits"], "z_diffuser": z_diffuser, "z_grid": z_grid, "z_carrier": z_carrier,
        "leds": pip_positions(pips), "window_d": pips["window_d"], "pixel": enc["pixel"],
        "board": board, "charger": charger, "sensor": sensor, "buttons": buttons, "button_spec": b,
        "bosses": [polar(boss_r, a) for a in bosses["angles"]], "boss": bosses,
        "deck": dict(deck, top=deck_top, posts=[polar(deck["post_r"], a) for a in deck["post_angles"]]),
        "switch": enc["switch"], "battery": enc["battery"], "grid_h": enc["grid_h"],
        "diffuser": enc["diffuser"], "carrier": enc["carrier"],
    }
