"""The target lane (issue 34): the cup's firmware on a chip, named by SCHOCKEN_TARGET (serial:PORT,
rp2040:IMAGE.uf2, qemu:IMAGE.elf; schocken_host.emulation.target). Without one every target test skips with
the reason (the parsing of the variable is tests/test_target_spec.py's, pure).

On ``qemu:IMAGE.elf`` the lane starts MicroPython's QEMU port itself (QemuBoard: qemu-system-arm, the UART on
a pty), gives it a RAM flash, and then works through the project's own commands, as a maker does with a
board: `schocken deploy` (files), `schocken doctor`, then every firmware module is imported on the target, the
rules package plays whole games there, and the unchanged cup app runs there on the emulated board (no pins)
and answers the host's hello over the chip's UART. The image is the user's: docs/build.md, "The target
lane"."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from schocken_host.emulation import target as T

BIN = Path(sys.executable).parent
SCHOCKEN = str(BIN / "schocken")

# --- on the target --------------------------------------------------------------------------------------


def _target():
    try:
        return T.from_env()
    except T.TargetError as e:
        pytest.fail(str(e))


@pytest.fixture(scope="module")
def board():
    """The serial port of the target with an empty flash mounted, or a skip that says what is missing."""
    tgt = _target()
    if tgt is None:
        pytest.skip("no target: set SCHOCKEN_TARGET=serial:PORT or qemu:IMAGE.elf (docs/build.md, "
                    "\"The target lane\")")
    if tgt.kind == "rp2040":
        pytest.skip("rp2040 targets are not implemented yet: no RP2040 emulator harness (rp2040js or "
                    "rp2040py) in this project (docs/build.md, \"The target lane\")")
    if tgt.kind == "serial":
        yield tgt.where
        return
    qb = T.QemuBoard(tgt.where)
    if qb.qemu is None:
        pytest.skip("%s is not installed (apt-get install qemu-system-arm)" % T.QEMU)
    with qb:
        qb.wait_repl()
        qb.format_flash()
        yield qb.port


@pytest.fixture(scope="module")
def deployed(board, tmp_path_factory):
    data = tmp_path_factory.mktemp("data")
    env = dict(os.environ, SCHOCKEN_DATA_DIR=str(data))
    # A board says what it is (deploy finds the board file); the QEMU chip is deployed as a Pico W, whose
    # armv6m code a Cortex-M3 runs.
    which = [] if T.from_env().kind == "serial" else ["--board", "pico_w"]
    r = subprocess.run([SCHOCKEN, "deploy", "--port", board, *which, "--files", "--no-mip", "--no-start",
                        "--name", "Target"], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def _exec(port, code, timeout=60):
    from schocken_host.provision.device import Device
    dev = Device(port)
    try:
        return dev.run(code, timeout)
    finally:
        dev.close()


def test_deploy_writes_the_firmware_as_files_and_reads_every_hash_back(board, deployed):
    listed = json.loads(_exec(board, "print(open('/firmware.json').read())").strip())
    assert "lib/schocken/rules.mpy" in listed["files"], listed


def test_doctor_runs_on_the_target_and_names_what_the_chip_lacks_in_one_line(board, deployed):
    r = subprocess.run([SCHOCKEN, "--lang", "en", "doctor", "--port", board, "--no-input", "--yes",
                        "--no-start", "--json"], capture_output=True, text=True, timeout=300)
    if T.from_env().kind == "serial":   # a real board has its pins: every test gets a verdict
        results = json.loads(r.stdout.strip().splitlines()[-1])["results"]
        assert [x["status"] for x in results if x["test"] == "firmware"] == ["ok"], r.stdout + r.stderr
        return
    # The QEMU board has no machine.Pin/ADC: the cup side of doctor stops at the board, said in one line.
    assert r.returncode == 1 and "Connecting to %s" % board in r.stdout, r.stdout + r.stderr
    error = r.stderr.strip().splitlines()
    assert len(error) == 1 and "on the cup: ImportError: can't import name" in error[0], r.stderr


def test_every_firmware_module_imports_on_the_target(board, deployed):
    listed = json.loads(_exec(board, "print(open('/firmware.json').read())").strip())
    modules = sorted(p[:-4].replace("/", ".") for p in listed["files"] if p.endswith(".mpy"))
    names = [m[4:] if m.startswith("lib.") else m for m in modules]
    # From a clean slate: what doctor imported before stays in the heap otherwise.
    out = _exec(board, "import sys, json, gc\nfor _k in list(sys.modules):\n    del sys.modules[_k]\n"
                "gc.collect()\nbad = {}\nfor n in %r:\n    try:\n        __import__(n)\n"
                "    except Exception as e:\n        bad[n] = repr(e)\nprint(json.dumps(bad))\n" % names)
    bad = json.loads(out.strip().splitlines()[-1])
    if T.from_env().kind == "serial":
        assert not bad, bad
        return
    # The QEMU port's machine module has no I2C or ADC: only the hardware boards' modules stop there; the
    # rules, the cup app, the drivers and the boards' shared code import.
    assert set(bad) <= {"boards.mcu", "boards.rp2", "boards.esp32"}, bad
    assert all("can't import name" in why for why in bad.values()), bad


def test_the_rules_play_whole_games_on_the_target(board, deployed):
    out = _exec(board, "import random, json\nfrom schocken.rules import Rules, PRESETS\n"
                "from schocken.sim import random_game\nrandom.seed(34)\nover = {}\n"
                "for name in sorted(PRESETS):\n"
                "    over[name] = random_game(Rules(name), ['a', 'b', 'c'], random).phase\n"
                "print(json.dumps(over))\n", timeout=120)
    over = json.loads(out.strip().splitlines()[-1])
    assert over and set(over.values()) == {"over"}, over


def test_the_cup_app_without_pins_runs_on_the_target_and_answers_the_host(board, deployed):
    # Last: the cup app keeps the port (no Ctrl-C here; the lane's board is stopped after this file).
    if T.from_env().kind == "serial":
        pytest.skip("a board with pins runs its own cup (schocken deploy without --no-start)")
    from kits.cupkit import hello
    T.start_pinless_cup(board, argv=["--cup", "chip1", "--name", "Chip"])
    identity = hello(board, timeout=30)
    assert identity["t"] == "identity" and identity["cup"] == "chip1" and identity["name"] == "Chip", identity
    assert "standard" in identity["presets"]
