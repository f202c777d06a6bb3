"""hardware/wokwi/: the Wokwi simulation of the Pico W cup agrees with the board data (every pin of the
diagram is the board file's pin, the LED chain is the cup's), its board.json/cup.json boot, and wokwi.toml is
Wokwi's project file naming the firmware the README tells the maker to download. Wokwi itself cannot run
here."""

import json
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HW = REPO / "hardware"
WOKWI = HW / "wokwi"
for p in (str(REPO / "firmware"), str(REPO / "firmware" / "lib"), str(HW)):
    if p not in sys.path:
        sys.path.insert(0, p)

import boot_select  # noqa: E402
import generate  # noqa: E402
import wokwi  # noqa: E402  (hardware/wokwi.py)
from boards import pins  # noqa: E402
from cup import leds  # noqa: E402

BOARDS, PARTS = generate.load()
SPEC = BOARDS["pico_w"]
DIAGRAM = json.loads((WOKWI / "diagram.json").read_text())
# Pin names of Wokwi's board-pi-pico-w, in header order 1..40 (docs.wokwi.com diagrams list them so).
PICO_W_PINS = (["GP0", "GP1", "GND.1", "GP2", "GP3", "GP4", "GP5", "GND.2", "GP6", "GP7", "GP8", "GP9"]
               + ["GND.3", "GP10", "GP11", "GP12", "GP13", "GND.4", "GP14", "GP15", "GP16", "GP17", "GND.5"]
               + ["GP18", "GP19", "GP20", "GP21", "GND.6", "GP22", "RUN", "GP26", "GP27", "GND.7", "GP28"]
               + ["ADC_VREF", "3V3", "3V3_EN", "GND.8", "VSYS", "VBUS"])


def links():
    """{part pin: set of pins it is wired to}, both directions."""
    out = {}
    for a, b, *_ in DIAGRAM["connections"]:
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return out


def test_regenerating_gives_the_committed_files():
    out = generate.outputs()
    for rel in ("wokwi/diagram.json", "wokwi/wokwi.toml", "wokwi/board.json", "wokwi/cup.json"):
        assert (HW / rel).read_text() == out[rel], rel


def test_wokwi_pin_names_follow_the_header():
    assert [wokwi.wokwi_pin(PARTS, p) for p in range(1, 41)] == PICO_W_PINS
    used = {x.split(":", 1)[1] for c in DIAGRAM["connections"] for x in c[:2] if x.startswith("pico:")}
    assert used <= set(PICO_W_PINS)


def test_every_board_pin_in_the_diagram_is_the_board_files():
    """Each part pin sits on the GPIO the board file gives its role."""
    ln = links()
    expect = {"led_data": "px0:DIN", "button_die1": "btn1:1.r", "button_die2": "btn2:1.r",
              "button_die3": "btn3:1.r", "button_main": "btn_main:1.r", "i2c_sda": "imu:SDA",
              "i2c_scl": "imu:SCL", "battery_sense": "bat:SIG"}
    for role, part_pin in expect.items():
        assert ln[part_pin] == {"pico:GP%d" % SPEC["pins"][role]}, role
    # Nothing else is wired to a GPIO: the diagram has no pin the board file does not give.
    gpios = {b for a, b, *_ in DIAGRAM["connections"] if b.startswith("pico:GP")}
    assert gpios == {"pico:GP%d" % SPEC["pins"][r] for r in expect}


def test_buttons_switch_to_ground_and_power_is_the_board_files():
    ln = links()
    names = {p: n for p, n in zip(range(1, 41), PICO_W_PINS)}
    grounds = {"pico:" + names[p] for p in range(1, 41) if names[p].startswith("GND")}
    for pid in ("btn1", "btn2", "btn3", "btn_main"):
        assert ln["%s:2.r" % pid] <= grounds, pid
    phys = {k: int(v.split("(pin ")[1].rstrip(")")) for k, v in SPEC["power_pins"].items()}
    assert ln["imu:VCC"] == {"pico:" + names[phys["3v3"]]} == {"pico:3V3"}
    assert ln["imu:GND"] == {"pico:" + names[phys["gnd"]]}
    assert ln["px0:VDD"] >= {"pico:" + names[phys["supply"]]} and "pico:VSYS" in ln["px0:VDD"]


def test_led_chain_is_the_cups():
    """22 pixels in one chain from led_data, laid out as the cup's base: die 1 to 3 left to right, pips row by
    row (cup/leds.py), the status pixel last."""
    px = {p["id"]: p for p in DIAGRAM["parts"] if p["type"] == "wokwi-neopixel"}
    n = leds.N_PIXELS
    assert len(px) == n == SPEC["leds"]
    ln = links()
    for i in range(1, n):
        assert ln["px%d:DIN" % i] == {"px%d:DOUT" % (i - 1)}
    assert "px%d:DOUT" % (n - 1) not in ln
    pos = [(px["px%d" % i]["left"], px["px%d" % i]["top"]) for i in range(n)]
    for d in range(leds.N_DICE):
        die = pos[7 * d:7 * d + 7]
        rows = [die[0:2], die[2:5], die[5:7]]
        for row in rows:
            assert len({y for _, y in row}) == 1 and [x for x, _ in row] == sorted(x for x, _ in row)
        assert rows[0][0][1] < rows[1][0][1] < rows[2][0][1]
        assert die[3][0] == (die[2][0] + die[4][0]) / 2           # the centre pip
        if d:
            assert min(x for x, _ in die) > max(x for x, _ in pos[7 * d - 7:7 * d])
    assert pos[leds.STATUS_INDEX][0] > max(x for x, _ in pos[:21])


def test_simulated_board_json_is_the_board_file_with_wokwis_sensor():
    """... as deploy writes it: without the enclosure's dimensions, which only the host reads."""
    sim = json.loads((WOKWI / "board.json").read_text())
    assert sim["sensor"] == "mpu6050" and sim["i2c_addr"] == 104 and "mpu6050" in SPEC["sensor_options"]
    host_only = ("sensor", "i2c_addr", "mechanical")
    assert "mechanical" in SPEC and "mechanical" not in sim
    assert {k: v for k, v in sim.items() if k not in host_only} == \
        {k: v for k, v in SPEC.items() if k not in host_only}
    assert pins.validate(sim) == []
    cup = json.loads((WOKWI / "cup.json").read_text())
    assert boot_select.select(cup, sim) == "boards.rp2"


def test_wokwi_toml_is_wokwis_project_file():
    cfg = tomllib.loads((WOKWI / "wokwi.toml").read_text())
    w = cfg["wokwi"]
    assert w["version"] == 1
    assert w["firmware"] == w["elf"] == wokwi.FIRMWARE and w["firmware"].endswith(".uf2")
    assert w["rfc2217ServerPort"] == 4000
    assert (WOKWI / "diagram.json").exists()
    # The firmware file is the maker's download: the README says where from and under which name, git ignores
    # it (it is not in the repository, so it cannot be checked to exist here).
    readme = (WOKWI / "README.md").read_text()
    assert w["firmware"] in readme and SPEC["firmware"]["url"] in readme
    assert "*.uf2" in (WOKWI / ".gitignore").read_text().split()
    assert "rfc2217://localhost:%d" % w["rfc2217ServerPort"] in readme
    for name in ("diagram.json", "wokwi.toml", "board.json", "cup.json"):
        assert "`%s`" % name in readme and (WOKWI / name).exists()


def test_build_guide_links_the_wokwi_project():
    assert "hardware/wokwi/README.md" in (REPO / "docs" / "build.md").read_text()
