"""`schocken scan` over serial ports, as a user runs it (a subprocess, so its keystore is its own: the
cups.json of SCHOCKEN_DATA_DIR): a cup with a secret this host does not have is listed as paired with another
host, not hidden; one this host paired is listed with its state; a cup without a secret as before."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from schocken_host.emulation.emulator import EmulatedCup
from schocken_host.provision.build import find_tool

pytestmark = pytest.mark.skipif(find_tool("micropython") is None, reason="needs the MicroPython unix port")

ROOT = Path(__file__).resolve().parents[1]
SECRET = "00112233445566778899aabbccddeeff"


@pytest.fixture(scope="module")
def cups():
    # registered in this process only, not in the CLI's
    paired = EmulatedCup("scan-a", "Anna", secret=SECRET)
    plain = EmulatedCup("scan-b", "Bert")
    yield paired, plain
    paired.close()
    plain.close()


def scan(data_dir, *argv):
    env = dict(os.environ, SCHOCKEN_DATA_DIR=str(data_dir))
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "host_tools"), str(ROOT / "firmware" / "lib"),
                                         env.get("PYTHONPATH", "")])
    proc = subprocess.run([sys.executable, "-m", "schocken_host.cli"] + list(argv), capture_output=True,
                          text=True, env=env, timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    return proc.stdout


def test_a_cup_paired_with_another_host_is_listed_as_such(cups, tmp_path):
    paired, plain = cups
    ports = ["--port", paired.port, "--port", plain.port]
    rows = [json.loads(line) for line in scan(tmp_path, "scan", "--json", "--no-ble", *ports).splitlines()]
    by_cup = {r["cup"]: r for r in rows}
    assert by_cup["scan-a"]["paired"] == "elsewhere" and by_cup["scan-a"]["name"] == "Anna"
    assert by_cup["scan-a"]["address"] == paired.port and by_cup["scan-a"]["seat"] is None
    assert by_cup["scan-b"]["paired"] is None and by_cup["scan-b"]["state"] == "idle"
    table = scan(tmp_path, "--lang", "en", "scan", "--no-ble", *ports)
    assert any("scan-a" in line and line.endswith("paired with another host") for line in table.splitlines())
    table = scan(tmp_path, "scan", "--no-ble", *ports)
    assert any("scan-a" in line and line.endswith("gepaart mit einem anderen Host")
               for line in table.splitlines())


def test_a_cup_this_host_paired_is_listed_with_its_state_and_a_wrong_key_as_not_authentic(cups, tmp_path):
    paired, _ = cups
    cups_file = tmp_path / "cups.json"
    cups_file.write_text(json.dumps({"scan-a": {"secret": SECRET}}))
    row = json.loads(scan(tmp_path, "scan", "--json", "--no-ble", "--port", paired.port))
    assert row["paired"] == "here" and row["state"] == "idle"
    cups_file.write_text(json.dumps({"scan-a": {"secret": "ff" * 16}}))
    row = json.loads(scan(tmp_path, "scan", "--json", "--no-ble", "--port", paired.port))
    assert row["paired"] == "not authentic" and row["state"] is None


def test_a_cup_answering_unsigned_for_a_cup_this_host_paired_is_not_authentic(cups, tmp_path):
    _, plain = cups
    (tmp_path / "cups.json").write_text(json.dumps({"scan-b": {"secret": SECRET}}))
    row = json.loads(scan(tmp_path, "scan", "--json", "--no-ble", "--port", plain.port))
    assert row["cup"] == "scan-b" and row["paired"] == "not authentic"


def test_the_state_column_says_what_the_cup_saw(cups, tmp_path):
    """The status answer's motion (firmware/cup/shake.py): a cup laid on its side rests tilted; the table says
    it after the state, in the user's language."""
    import time
    _, plain = cups
    plain.control("accel 0 9807 0")
    time.sleep(1.0)  # the gravity estimate turns over (160 ms) and the cup rests 300 ms
    row = json.loads(scan(tmp_path, "scan", "--json", "--no-ble", "--port", plain.port))
    assert (row["state"], row["motion"]) == ("idle", "tilt")
    table = scan(tmp_path, "--lang", "en", "scan", "--no-ble", "--port", plain.port)
    assert any("scan-b" in line and line.endswith("idle, tilted") for line in table.splitlines())
    plain.control("accel 0 0 9807")
    time.sleep(1.0)
    assert json.loads(scan(tmp_path, "scan", "--json", "--no-ble", "--port", plain.port))["motion"] == "still"
