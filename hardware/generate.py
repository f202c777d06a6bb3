"""Generate the build documents from data: BOM per board, wiring diagram per board (SVG), a breadboard view
per Pico board (SVG), the power budget and the Wokwi simulation of the Pico W cup.

    python hardware/generate.py          # write hardware/bom/*.csv, hardware/wiring/*.svg,
                                         #   hardware/power_budget.md, hardware/wokwi/*
    python hardware/generate.py --check  # exit 1 if a generated file differs from what the data gives

Inputs: hardware/boards/*.json (pins, module, power figures: the same files the firmware reads),
hardware/parts.json (the parts around the module and the enclosure's screws, LED and battery figures, use
scenarios) and the brightness cap, computed from firmware/cup/leds.py's constants exactly as the firmware
computes it. The output is deterministic (sorted, no dates), so tests/test_hardware.py can regenerate it
and compare.

The drawings and the Wokwi files are made by their own modules next to this one: wiring_svg.py,
breadboard_svg.py (on svg.py and pinout.py) and wokwi.py.
"""

import csv
import io
import json
import re
import sys
from pathlib import Path

HW = Path(__file__).resolve().parent
ROOT = HW.parent
LEDS_PY = ROOT / "firmware" / "cup" / "leds.py"
if str(HW) not in sys.path:
    sys.path.insert(0, str(HW))

from pinout import ROLE_TEXT, gpio_name, pin_label  # noqa: E402,F401  (re-exported for the tests)
from breadboard_svg import breadboard_svg  # noqa: E402
import wokwi  # noqa: E402
from wiring_svg import wiring_svg  # noqa: E402


def load():
    boards = {p.stem: json.loads(p.read_text()) for p in sorted((HW / "boards").glob("*.json"))}
    parts = json.loads((HW / "parts.json").read_text())
    return boards, parts


def led_constants():
    """The constants of firmware/cup/leds.py and BRIGHTNESS_CAP computed the same way."""
    src = LEDS_PY.read_text()

    def const(name):
        return int(re.search(r"^%s = const\((\d+)\)" % name, src, re.M).group(1))
    c = {"N_PIXELS": const("N_PIXELS"), "LED_BUDGET_MA": const("LED_BUDGET_MA"),
         "MA_PER_CHANNEL": const("_MA_PER_CHANNEL"), "MA_IDLE": const("_MA_IDLE")}
    c["BRIGHTNESS_CAP"] = ((c["LED_BUDGET_MA"] - c["N_PIXELS"] * c["MA_IDLE"])
                           / (c["N_PIXELS"] * 3 * c["MA_PER_CHANNEL"]))
    return c


# --- BOM --------------------------------------------------------------------------------------------------

def bom_rows(spec, parts):
    m = spec["module"]
    rows = [{"part": m["part"], "quantity": 1, "part_number": m["number"], "notes": m["notes"]}]
    rows += parts["bom"]
    rows += parts["bom_by_scheme"][spec["power"]["scheme"]]
    # The enclosure holds a board by its mounting holes where it has them, else with cable ties.
    rows += parts["bom_by_mount"]["holes" if spec["mechanical"]["holes_mm"] else "ties"]
    return rows


def bom_csv(spec, parts):
    out = io.StringIO()
    w = csv.DictWriter(out, ["part", "quantity", "part_number", "notes"], lineterminator="\n")
    w.writeheader()
    for row in bom_rows(spec, parts):
        w.writerow(row)
    return out.getvalue()


# --- power budget ----------------------------------------------------------------------------------------

def pixel_ma(color, brightness, leds):
    # As on the wire: each channel is int(v * brightness) (cup/pixels.py), current proportional to it.
    return leds["ma_idle"] + sum(leds["ma_per_channel"] * int(v * brightness) / 255 for v in color)


def led_ma(scenario, brightness, n_pixels, leds):
    lit = sum(g["count"] for g in scenario["pixels"])
    total = 0.0
    for g in scenario["pixels"]:
        on = pixel_ma(g["color"], brightness, leds)
        total += g["count"] * (g["duty"] * on + (1 - g["duty"]) * leds["ma_idle"])
    return total + (n_pixels - lit) * leds["ma_idle"]


def budget(spec, parts, consts):
    """Per scenario: LED, board, sensor current at the supply, battery current and hours."""
    leds, bat = parts["led"], parts["battery"]
    cap = consts["BRIGHTNESS_CAP"]
    p = spec["power"]
    sensor = (parts["sensor_ma"][spec["sensor"]]
              + (parts["breakout_led_ma"] if spec["sensor"] != "switch" else 0))
    divider = bat["nominal_v"] / sum(parts["divider_ohm"]) * 1000
    rows = {}
    for name, sc in sorted(parts["scenarios"].items()):
        led = led_ma(sc, cap, consts["N_PIXELS"], leds)
        board = p["board_ma"][sc["board"]]
        load = led + board + sensor
        if p["scheme"] == "boost":
            battery = load * p["supply_v"] / (bat["nominal_v"] * parts["boost_efficiency"]) + divider
        else:
            battery = load + divider
        rows[name] = {"led_ma": led, "board_ma": board, "sensor_ma": sensor, "load_ma": load,
                      "battery_ma": battery, "hours": bat["capacity_mah"] * bat["usable"] / battery}
    return rows


def power_md(boards, parts, consts):
    bat, leds = parts["battery"], parts["led"]
    cap = consts["BRIGHTNESS_CAP"]
    worst_px = pixel_ma((255, 255, 255), cap, leds)
    lines = [
        "# Power budget",
        "",
        "Generated by `hardware/generate.py` from `hardware/boards/*.json`, `hardware/parts.json` "
        "and the constants",
        "of `firmware/cup/leds.py`; do not edit by hand (tests/test_hardware.py regenerates and compares).",
        "",
        "## LEDs at the firmware's brightness cap",
        "",
        "- `BRIGHTNESS_CAP` = (LED_BUDGET_MA %d - N_PIXELS %d x %d mA idle) / (%d x 3 x %d mA) = **%.4f**"
        % (consts["LED_BUDGET_MA"], consts["N_PIXELS"], consts["MA_IDLE"], consts["N_PIXELS"],
           consts["MA_PER_CHANNEL"], cap),
        "  (`cup.leds.DiceLeds` sets the pixels to the cap; "
        "a board's `brightness` is only the starting value).",
        "- One pixel white at the cap: %d mA idle + 3 x %d mA x int(255 x %.4f) / 255 = %.1f mA; "
        "all %d: **%.0f mA**"
        % (leds["ma_idle"], leds["ma_per_channel"], cap, worst_px, consts["N_PIXELS"],
           worst_px * consts["N_PIXELS"]),
        "  (inside the %d mA the firmware allows the LEDs on USB)." % consts["LED_BUDGET_MA"],
        "- Battery: %s; %d mAh x %.0f %% usable." % (bat["note"], bat["capacity_mah"], bat["usable"] * 100),
        "",
        "Scenarios (`parts.json`):",
        "",
    ]
    for name, sc in sorted(parts["scenarios"].items()):
        lines.append("- **%s**: %s (board current: `%s`)" % (name, sc["about"], sc["board"]))
    lines += ["", "## Per board", "",
              "| board | scenario | LEDs mA | board mA | sensor mA | load mA | battery mA | battery life |",
              "|---|---|---:|---:|---:|---:|---:|---:|"]
    for bname, spec in sorted(boards.items()):
        rows = budget(spec, parts, consts)
        for name in ("play", "idle", "worst"):
            r = rows[name]
            lines.append("| %s | %s | %.1f | %d | %.3f | %.1f | %.1f | %.1f h |" % (
                bname, name, r["led_ma"], r["board_ma"], r["sensor_ma"], r["load_ma"], r["battery_ma"],
                r["hours"]))
    lines += ["", "How the battery current is computed:", ""]
    for bname, spec in sorted(boards.items()):
        p = spec["power"]
        how = ("LiPo -> charger -> switch -> boost to %.1f V (efficiency %.0f %%) -> "
               "%s pin and LED strip: battery mA = load mA x %.1f V / (%.1f V x %.2f)" % (
                   p["supply_v"], parts["boost_efficiency"] * 100, spec["power_pins"]["supply"],
                   p["supply_v"], bat["nominal_v"], parts["boost_efficiency"])
               if p["scheme"] == "boost" else
               "LiPo -> charger -> switch -> Schottky diode -> %s; LEDs on VSYS: battery mA = load mA"
               % spec["power_pins"]["supply"])
        lines.append("- **%s**: %s; plus the battery divider (%.3f mA). Board figures: %s" % (
            bname, how, bat["nominal_v"] / sum(parts["divider_ohm"]) * 1000, p["source"]))
    lines += ["",
              "The board never sleeps while the app runs (100 Hz sensor loop), "
              "so its current flows in idle too;",
              "the 22 dark pixels alone draw about 22 mA. "
              "Cutting the strip's supply between turns (a P-MOSFET) and",
              "light sleep between samples are the two ways to a longer battery life "
              "(not done by the firmware).",
              ""]
    return "\n".join(lines)


# --- all outputs -------------------------------------------------------------------------------------------

def outputs():
    """{path relative to hardware/: text} of every generated file."""
    boards, parts = load()
    consts = led_constants()
    out = {}
    for name, spec in sorted(boards.items()):
        out["bom/%s.csv" % name] = bom_csv(spec, parts)
        out["wiring/%s.svg" % name] = wiring_svg(spec, parts)
        if spec["chip"].startswith("rp2"):  # the Pico header: the breadboard view knows its 40 pins
            out["wiring/%s_breadboard.svg" % name] = breadboard_svg(spec, parts)
    out["power_budget.md"] = power_md(boards, parts, consts)
    out.update(wokwi.outputs(boards, parts))
    return out


def main(argv):
    check = "--check" in argv
    stale = []
    for rel, text in outputs().items():
        path = HW / rel
        if check:
            if not path.exists() or path.read_text() != text:
                stale.append(rel)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        print("wrote hardware/%s" % rel)
    if stale:
        print("out of date (run python hardware/generate.py): %s" % ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
