"""Bench scripts run from ``bench/``, and that folder comes first on the module search path (CPython puts a
script's folder there, and so does MicroPython's unix port): a bench file named like a module or package hides
it from every bench. ``bench/cup.py`` once hid the firmware's ``cup`` package, and bench/roller.py's
MicroPython half failed with "ImportError: no module named 'subprocess'"."""

import subprocess
import sys
from pathlib import Path

from conftest import micropython_path

REPO = Path(__file__).resolve().parents[1]

# MicroPython's own modules, on the unix port and on the boards the cup runs on (the unix port's are also read
# from it below, where it is installed).
MICROPYTHON = {"asyncio", "uasyncio", "_asyncio", "machine", "micropython", "neopixel", "bluetooth", "aioble",
               "network", "esp", "esp32", "rp2", "framebuf", "uctypes", "vfs", "cryptolib", "deflate", "tls",
               "mip", "requests", "websocket", "termios", "onewire", "dht", "ubinascii", "ujson", "uos",
               "utime", "urandom", "uselect", "ustruct", "usys", "uhashlib", "uio", "ure", "ucollections"}


def _packages(folder):
    """The names ``folder`` offers on the search path: its modules and its packages."""
    names = set()
    for p in folder.iterdir():
        if p.suffix == ".py":
            names.add(p.stem)
        elif p.is_dir() and any(p.glob("*.py")):
            names.add(p.name)
    return names


def _micropython_modules():
    exe = micropython_path()
    if exe is None:
        return set()
    out = subprocess.run([exe, "-c", "help('modules')"], capture_output=True, text=True, timeout=30).stdout
    words = out.split("Plus any modules")[0].split()
    return {w.split("/")[0] for w in words}


def shadowed():
    """Every name a bench file must not take: the firmware's top-level modules and packages (its root and
    lib/, as a board lays them out), the host's and the test kits' packages, the standard library and
    MicroPython's modules."""
    names = set(sys.stdlib_module_names) | MICROPYTHON | _micropython_modules()
    for folder in (REPO / "firmware", REPO / "firmware" / "lib", REPO / "host_tools", REPO / "tests"):
        names |= _packages(folder)
    return names - {"lib"}


def test_no_bench_file_shadows_a_module_or_package():
    names = shadowed()
    clashes = sorted(p.name for p in (REPO / "bench").glob("*.py") if p.stem in names)
    assert not clashes, "bench files named like a module or package (rename them): %s" % clashes


def test_the_names_a_bench_must_not_take():
    names = shadowed()
    for name in ("cup", "boards", "schocken", "schocken_host", "emulate", "kits", "subprocess", "select",
                 "machine", "asyncio"):
        assert name in names
    assert "cup_firmware" not in names and "roller" not in names
