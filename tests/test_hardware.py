"""hardware/: the generated BOM, wiring diagrams and power budget come from the data and never drift from it;
the figures agree with the firmware (brightness cap, LED count, pins). Pin validation itself is in
test_boards.py."""

import csv
import io
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
HW = REPO / "hardware"
for p in (str(REPO / "firmware"), str(REPO / "firmware" / "lib"), str(HW)):
    if p not in sys.path:
        sys.path.insert(0, p)

import energy  # noqa: E402  (hardware/energy.py)
import generate  # noqa: E402  (hardware/generate.py)
from boards import pins  # noqa: E402
from cup import leds  # noqa: E402

BOARDS, PARTS = generate.load()


def test_generated_files_are_up_to_date():
    """Regenerating gives exactly the checked-in files (run `python hardware/generate.py` after a data
    change)."""
    out = generate.outputs()
    assert sorted(out) == sorted(["power_budget.md"] + ["bom/%s.csv" % b for b in BOARDS]
                                 + ["wiring/%s.svg" % b for b in BOARDS]
                                 + ["wiring/%s_breadboard.svg" % b for b in BOARDS
                                    if BOARDS[b]["chip"].startswith("rp2")]
                                 + ["wokwi/%s" % f for f in ("diagram.json", "wokwi.toml", "board.json",
                                                             "cup.json")])
    stale = [rel for rel, text in out.items() if not (HW / rel).exists() or (HW / rel).read_text() != text]
    assert stale == [], "run python hardware/generate.py"
    assert generate.main(["--check"]) == 0


def test_generation_is_deterministic():
    assert generate.outputs() == generate.outputs()


def test_brightness_cap_and_led_figures_are_the_firmwares():
    c = generate.led_constants()
    assert c["BRIGHTNESS_CAP"] == leds.BRIGHTNESS_CAP
    assert c["N_PIXELS"] == leds.N_PIXELS == pins.LED_COUNT
    assert (PARTS["led"]["ma_per_channel"], PARTS["led"]["ma_idle"]) == (leds._MA_PER_CHANNEL, leds._MA_IDLE)
    # The worst case (all white at the cap) stays inside the firmware's USB budget for the LEDs.
    assert generate.pixel_ma((255, 255, 255), c["BRIGHTNESS_CAP"], PARTS["led"]) * c["N_PIXELS"] \
        <= leds.LED_BUDGET_MA
    for spec in BOARDS.values():
        assert spec["brightness"] <= leds.BRIGHTNESS_CAP


def test_every_board_meets_the_goals_by_the_model():
    """Issue 43: at least 10 h of play and 14 days on the shelf per 1,000 mAh, by the cup's own counters over
    the scripted evening (hardware/evening.json) and each board's currents; the budget says so."""
    n = generate.led_constants()["N_PIXELS"]
    ev = generate.evening()
    md = (HW / "power_budget.md").read_text()
    for name, spec in BOARDS.items():
        f = energy.figures(spec, PARTS, ev, n)
        assert f["hours"] >= energy.GOAL_PLAY_H and f["days"] >= energy.GOAL_SHELF_DAYS, (name, f)
        assert "| %s | %.1f | **%.1f h** |" % (name, f["play_ma"], f["hours"]) in md
        # What draws it adds up, and the LEDs cost only what they show: the supply was off for part of it.
        assert f["play_ma"] == pytest.approx(sum(f["play"].values()))
    assert ev["evening"]["leds_on"] < ev["evening"]["ms"] and ev["shelf"]["deep_sleep"] > 0


def test_the_readme_states_the_models_figures():
    """The README's hardware table: a row per board with the hours of play and the days on the shelf the model
    gives; a change to the firmware's behaviour (the evening's counters) or to a board's currents that moves
    them fails here until the README says it."""
    n = generate.led_constants()["N_PIXELS"]
    ev = generate.evening()
    readme = (HW.parent / "README.md").read_text()
    for name, spec in BOARDS.items():
        row = energy.readme_row(name, energy.figures(spec, PARTS, ev, n))
        assert row in readme, row


def test_every_current_names_its_source():
    for name, spec in BOARDS.items():
        p = spec["power"]
        assert set(p["ma"]) == {"working", "waiting", "light_sleep", "deep_sleep", "advertising", "connected",
                                "board"}, name
        for key, (ma, source) in p["ma"].items():
            assert ma >= 0 and len(source) > 20, (name, key)
        assert p["pass_us"] > 0 and p["pass_source"]


def test_bom_per_board():
    for name, spec in BOARDS.items():
        rows = list(csv.DictReader(io.StringIO((HW / "bom" / ("%s.csv" % name)).read_text())))
        assert list(rows[0]) == ["part", "quantity", "part_number", "notes"]
        assert all(r["part"] and r["quantity"] and r["part_number"] and r["notes"] for r in rows)
        qty = {r["part"].split(",")[0].split(" (")[0]: float(r["quantity"]) for r in rows}
        assert rows[0]["part"] == spec["module"]["part"]
        assert qty["WS2812B LEDs"] == spec["leds"]
        assert any("push button" in r["part"].lower() and r["quantity"] == "4" for r in rows)
        assert any("330 ohm" in r["part"] for r in rows) and any("1000 uF" in r["part"] for r in rows)
        assert any("74AHCT125" in r["part"] for r in rows)


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_wiring_diagram_shows_every_connection(name):
    spec = BOARDS[name]
    text = (HW / "wiring" / ("%s.svg" % name)).read_text()
    root = ET.fromstring(text)
    words = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    for role, pin in spec["pins"].items():
        if pin is not None:
            assert generate.pin_label(spec, pin, PARTS) in words, role
            assert (generate.ROLE_TEXT[role].split(" (")[0].lower() in words.lower()
                    or role.startswith("i2c")), role
    for must in ("330 \u03a9", "1000 \u00b5F", "74AHCT125", "DIN", "GND", spec["power_pins"]["supply"],
                 spec["power_pins"]["3v3"], "100 k\u03a9", "100 nF", "0.7 x VDD"):
        assert must in words, must


def test_board_files_carry_what_the_documents_need():
    for spec in BOARDS.values():
        assert pins.validate(spec) == []
        assert spec["power"]["scheme"] in PARTS["bom_by_scheme"]
        assert spec["module"]["part"] and spec["module"]["number"]
        assert set(spec["power_pins"]) == {"supply", "3v3", "gnd"}
        if spec["chip"].startswith("rp2"):
            used = [p for p in spec["pins"].values() if p is not None]
            assert all(str(p) in PARTS["rp2_header"]["pins"] for p in used)


def test_firmware_board_layer_reads_pins_only_from_the_spec():
    """No GPIO number of any board file is written into a hardware board module."""
    import re
    for mod in ("mcu", "esp32", "rp2", "common"):
        src = (REPO / "firmware" / "boards" / ("%s.py" % mod)).read_text()
        assert not re.search(r"Pin\(\s*\d", src), mod
    spec = json.loads((HW / "boards" / "pico_w.json").read_text())
    assert spec["pins"]["led_data"] == 22
