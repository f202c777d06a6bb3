"""`schocken deploy` into a board's ROMFS partition, `schocken build` and `deploy --from` its artefacts, and
the aioble probe: end to end on the emulated board (FlashCup(romfs=SIZE): a ROMFS partition in a mapped file,
written by mpremote's own romfs code through the raw REPL), plus the pieces that need no interpreter."""

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from schocken_host.i18n import tr
from schocken_host.provision import release, romfs_deploy
from schocken_host.provision.build import find_tool

REPO = Path(__file__).resolve().parents[1]
SCHOCKEN = str(Path(sys.executable).parent / "schocken")
ROM = 256 * 1024

needs_mp = pytest.mark.skipif(find_tool("micropython") is None or find_tool("mpy-cross") is None,
                              reason="micropython unix port or mpy-cross not installed")


@pytest.fixture
def env(tmp_path):
    return dict(os.environ, SCHOCKEN_DATA_DIR=str(tmp_path / "data"))


@pytest.fixture
def rom_cup():
    from schocken_host.emulation import romfs
    from testbed.flash_cup import FlashCup
    if not romfs.available():
        pytest.skip("the in-process unix port (micropython_run) is not installed")
    c = FlashCup(romfs=ROM)
    yield c
    c.close()


def run(args, env, timeout=120):
    return subprocess.run([SCHOCKEN, "--lang", "en"] + args, capture_output=True, text=True, env=env,
                          timeout=timeout)


def deploy_args(cup):
    return ["deploy", "--port", cup.port, "--board", "emulated", "--no-mip", "--control", cup.control_path]


def start_a_round(cup):
    """An authenticated session with the deployed cup (its secret from /cup.json, as the host pairs it): the
    signed identity, configure, and the first round's turn, each answered by the app running from the board.
    (The throw is not played: a deployed emulated cup's app has no control task to feel a shake - only
    `schocken doctor` pumps that channel - so the doctor checks the sensor and the buttons below.)"""
    return signed_session(cup, [({"t": "configure", "rules": {"preset": "standard", "options": {}},
                                  "name": "Anna", "seat": 0, "fair": False}, "ok"),
                                ({"t": "turn", "round": 1, "limit": None}, "ok")])


def signed_session(cup, exchanges):
    """hello, then each (message, kind of the answer) of ``exchanges`` signed with the session key; the
    answers, the identity first."""
    import secrets
    import serial
    from schocken import fair, hostside, protocol
    from kits.cupkit import LineReader
    secret = json.loads((cup.flash / "cup.json").read_text())["secret"]
    with serial.Serial(cup.port, timeout=0.2) as link:
        lines = LineReader(link)

        def read(kind, key=None, timeout=10.0):
            end = time.time() + timeout
            while time.time() < end:
                raw = (lines.next(end - time.time()) or b"").rstrip()
                if not raw or hostside.is_noise(raw):
                    continue
                msg = json.loads(fair.verify(key, raw) if key else raw)
                if msg["t"] == kind:
                    return msg, raw
            raise AssertionError("no %s from the cup" % kind)

        nonce = secrets.token_hex(16)
        link.write(protocol.encode({"t": "hello", "v": protocol.VERSION, "nonce": nonce}))
        ident, raw = read("identity")
        key = fair.session_key(bytes.fromhex(secret), nonce, ident["nonce"])
        fair.verify(key, raw)
        answers = [ident]
        for c, (msg, kind) in enumerate(exchanges, 1):
            msg = dict(msg, c=c)
            link.write(fair.sign(key, json.dumps(msg).encode()) + b"\n")
            answers.append(read(kind, key)[0])
        return answers


def doctor_firmware(cup, env):
    """`schocken doctor`'s firmware test: every file firmware.json lists (under rom/ for a ROM deploy) is
    there with its SHA-256."""
    proc = subprocess.run([SCHOCKEN, "doctor", "--port", cup.port, "--json", "--timeout", "0.3"],
                          capture_output=True, text=True, env=env, timeout=90, stdin=subprocess.DEVNULL)
    report = json.loads(proc.stdout.splitlines()[-1])
    return [x for x in report["results"] if x["test"] == "firmware"][0]


# --- no interpreter needed ---------------------------------------------------------------------------

def test_the_image_is_what_mpremote_romfs_build_makes(tmp_path):
    import contextlib
    import io
    from mpremote.romfs import make_romfs
    files = {"main.py": b"import boot\n", "boot.mpy": b"M\x06x", "lib/schocken/rules.mpy": b"M\x06rules",
             "lib/schocken/__init__.mpy": b"M\x06", "cup/app.mpy": b"M\x06app", "a.mpy": b""}
    for path, data in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(data)
    with contextlib.redirect_stdout(io.StringIO()):
        assert romfs_deploy.image(files) == make_romfs(str(tmp_path), mpy_cross=False)
    assert romfs_deploy.empty_image().startswith(b"\xd2\xcd\x31") and len(romfs_deploy.empty_image()) == 4


def test_the_choice_says_what_and_why():
    def said(rom, want=None, size=1000):
        use, message = romfs_deploy.choose(rom, want, size)
        return use, message.localized("en")
    room = {"ioctl": True, "parts": 1, "size": 4096}
    assert said(room) == (True, tr("en", "deploy.romfs_chosen", size=1000, room=4096))
    assert said(room, want=False) == (False, ".mpy files on the filesystem (--files)")
    assert said({"ioctl": False}) == (False, tr("en", "deploy.no_romfs"))
    assert said({"ioctl": True, "parts": 0, "size": None}) == (False, tr("en", "deploy.no_romfs_partition"))
    assert said(room, size=5000)[1] == tr("en", "deploy.romfs_too_small", size=5000, room=4096)
    assert not romfs_deploy.holds_firmware({"top": ["lib", "mine.py"]})
    assert romfs_deploy.holds_firmware({"top": ["boot_select.mpy", "cup", "lib"]})


@pytest.mark.skipif(find_tool("mpy-cross") is None, reason="mpy-cross not installed")
def test_a_file_gone_from_the_firmware_leaves_the_build(tmp_path):
    """A firmware file removed or renamed must not live on in the compiled tree, which the emulated cups take
    whole, as a ROM image or a folder on their path (a removed package's empty __init__ once stayed)."""
    from schocken_host.provision.build import compile_firmware
    out = compile_firmware(tmp_path / "tree")
    for stray in ("gone.mpy", "cup/renamed.mpy"):
        (out / stray).write_bytes(b"M\x06")
    assert compile_firmware(out) == out
    assert not (out / "gone.mpy").exists() and not (out / "cup" / "renamed.mpy").exists()
    assert (out / "cup" / "app.mpy").exists() and (out / "lib" / "schocken" / "rules.mpy").exists()


def test_a_file_gone_from_the_tree_rebuilds_the_image(tmp_path):
    from schocken_host.emulation import romfs
    tree = tmp_path / "tree"
    for path in ("boot.mpy", "cup/app.mpy", "cup/renamed.mpy"):
        (tree / path).parent.mkdir(parents=True, exist_ok=True)
        (tree / path).write_bytes(b"M\x06" + path.encode())
    then = time.time()
    for path in [tree, *tree.rglob("*")]:  # compiled two minutes ago, the image built one minute ago
        os.utime(path, (then - 120, then - 120))
    image = romfs.build_image(tree)
    os.utime(image, (then - 60, then - 60))
    assert b"renamed.mpy" in romfs.build_image(tree).read_bytes()  # nothing changed: the same image
    (tree / "cup" / "renamed.mpy").unlink()  # only the folder's time tells
    assert b"renamed.mpy" not in romfs.build_image(tree).read_bytes()


@pytest.mark.skipif(find_tool("mpy-cross") is None, reason="mpy-cross not installed")
def test_build_writes_bundles_images_and_hashes(tmp_path, env):
    assert {"xtensawin", "armv6m", "armv7emsp", "bytecode"} <= set(release.archs())
    out = tmp_path / "rel"
    r = run(["build", "--out", str(out), "--arch", "armv6m", "--arch", "bytecode"], env)
    assert r.returncode == 0, r.stderr
    assert "armv6m: " in r.stdout and "bytecode: " in r.stdout and "release.json" in r.stdout
    manifest = json.loads((out / "release.json").read_text())
    assert set(manifest["archs"]) == {"armv6m", "bytecode"} and manifest["version"] == "0.1.0"
    for arch in ("armv6m", "bytecode"):
        files = {p: (out / arch / "files" / p).read_bytes() for p in manifest["archs"][arch]["files"]}
        assert files["main.py"].startswith(b"#") and "cup/app.mpy" in files
        assert ("boards/emulated.mpy" in files) == (arch == "bytecode")
        assert (out / arch / "firmware.romfs").read_bytes() == romfs_deploy.image(release.rom_files(files))
    import hashlib
    for path, (size, digest) in manifest["files"].items():
        data = (out / path).read_bytes()
        assert len(data) == size and hashlib.sha256(data).hexdigest() == digest, path
    assert "boards/pico_w.json" in manifest["files"]
    assert release.Release(out).spec("pico_w")["mpy_arch"] == "armv6m"


# --- end to end on the emulated board -----------------------------------------------------------------

@needs_mp
def test_romfs_is_chosen_the_cup_starts_from_rom_and_files_come_back(rom_cup, env):
    flash = rom_cup.flash
    r = run(deploy_args(rom_cup) + ["--files"], env)       # an earlier deploy of .mpy files
    assert r.returncode == 0, r.stderr + r.stdout
    assert ".mpy files on the filesystem (--files)" in r.stdout and (flash / "cup" / "app.mpy").exists()

    r = run(deploy_args(rom_cup), env)                      # ROMFS by default where the board has one
    assert r.returncode == 0, r.stderr + r.stdout
    assert "ROMFS: the firmware goes into the board's ROMFS partition" in r.stdout
    assert re.search(r"removed \d\d firmware files from the filesystem", r.stdout) and "verified:" in r.stdout
    # Only what must be on the filesystem stays there: nothing shadows /rom ('' comes first on sys.path).
    assert sorted(p.name for p in flash.iterdir()) == ["board.json", "cup.json", "firmware.json", "lib",
                                                       "main.py"]
    assert not any((flash / "lib").iterdir())
    manifest = json.loads((flash / "firmware.json").read_text())
    assert "rom/cup/app.mpy" in manifest["files"] and "main.py" in manifest["files"]
    assert "cup/app.mpy" not in manifest["files"] and manifest["romfs"][0] > 50000
    assert rom_cup.rom_partition.read_bytes().startswith(b"\xd2\xcd\x31")

    rom_cup.power_cycle()                                   # main.py from the flash, the rest from /rom
    assert [a["t"] for a in start_a_round(rom_cup)] == ["identity", "ok", "ok"]
    # The turn is in the board's flash (boot_select gives the app /state.json): after a reset the cup is
    # still in round 1's turn, as it was, not back to waiting for a host.
    assert json.loads((flash / "state.json").read_text())["round"]["round"] == 1
    rom_cup.power_cycle()
    status = signed_session(rom_cup, [({"t": "status"}, "status")])[-1]
    assert (status["state"], status["round"], status["throws"]) == ("turn", 1, 0), status
    firmware = doctor_firmware(rom_cup, env)
    assert firmware["status"] == "ok", firmware

    r = run(deploy_args(rom_cup), env)                      # the same image: not written again
    assert r.returncode == 0, r.stderr + r.stdout
    assert "the ROMFS partition holds this image already" in r.stdout and "] ROMFS (" not in r.stdout

    r = run(deploy_args(rom_cup) + ["--no-romfs"], env)     # back to files: the ROM is emptied
    assert r.returncode == 0, r.stderr + r.stdout
    assert "ROMFS partition emptied" in r.stdout and (flash / "cup" / "app.mpy").exists()
    assert rom_cup.rom_partition.read_bytes()[:4] == romfs_deploy.empty_image()
    rom_cup.power_cycle()                                   # from the files now, with the same turn kept
    status = signed_session(rom_cup, [({"t": "status"}, "status")])[-1]
    assert (status["state"], status["round"], status["throws"]) == ("turn", 1, 0), status


@needs_mp
def test_deploy_from_artefacts_without_sources_or_mpy_cross(rom_cup, env, tmp_path):
    out = tmp_path / "rel"
    r = run(["build", "--out", str(out), "--arch", "bytecode"], env)
    assert r.returncode == 0, r.stderr
    # A process where the firmware sources are an empty folder and mpy-cross cannot be found.
    empty = tmp_path / "no-checkout"
    empty.mkdir()
    script = ("import sys\nfrom pathlib import Path\n"
              "from schocken_host.provision import boards, build, release\n"
              "build.FIRMWARE = boards.FIRMWARE = release.FIRMWARE = build.ROOT = Path(%r)\n"
              "build.find_tool = lambda name: None\n"
              "from schocken_host import cli\n"
              "sys.exit(cli.main(sys.argv[1:]))\n") % str(empty)
    deploy = [sys.executable, "-c", script, "--lang", "en"] + deploy_args(rom_cup)

    bad = tmp_path / "bad"
    subprocess.run(["cp", "-r", str(out), str(bad)], check=True)
    (bad / "bytecode" / "files" / "cup" / "app.mpy").write_bytes(b"M\x06tampered")
    r = subprocess.run(deploy + ["--from", str(bad)], capture_output=True, text=True, env=env, cwd=empty,
                       timeout=60)
    assert r.returncode == 2 and r.stdout == "" and len(r.stderr.splitlines()) == 1, r.stderr
    assert "app.mpy does not match the manifest" in r.stderr and "nothing written" in r.stderr
    app = "bytecode/files/cup/app.mpy"
    (bad / app).write_bytes((out / app).read_bytes())
    (bad / "bytecode" / "firmware.romfs").unlink()
    r = subprocess.run(deploy + ["--from", str(bad)], capture_output=True, text=True, env=env, cwd=empty,
                       timeout=60)
    assert r.returncode == 2 and "is missing (named in the manifest)" in r.stderr
    assert not any(rom_cup.flash.iterdir()) and set(rom_cup.rom_partition.read_bytes()) == {0xFF}

    r = subprocess.run(deploy + ["--from", str(out)], capture_output=True, text=True, env=env, cwd=empty,
                       timeout=120)
    assert r.returncode == 0, r.stderr + r.stdout
    assert "release 0.1.0 from" in r.stdout and "compiling" not in r.stdout and "ROMFS: the" in r.stdout
    assert json.loads((rom_cup.flash / "firmware.json").read_text())["version"] == "0.1.0"
    rom_cup.power_cycle()
    assert [a["t"] for a in start_a_round(rom_cup)] == ["identity", "ok", "ok"]


@needs_mp
def test_aioble_on_the_board_is_not_installed_again(tmp_path):
    """A Bluetooth board whose firmware has aioble (frozen into the Pico W images, or installed before):
    deploy imports it on the board and skips `mip install`; where it does not import, mip runs."""
    import io
    from testbed.flash_cup import FlashCup
    from schocken_host.provision import deploy
    from schocken_host.provision.device import Device
    from schocken_host.i18n import Message
    installs = []
    spec = {"name": "pico_w", "ble": True}
    with FlashCup() as cup:
        original = deploy._mip_install
        deploy._mip_install = lambda port, rep: installs.append(port) or Message("deploy.aioble_installed")
        try:
            rep = deploy.Reporter(io.StringIO(), fancy=False, lang="en")
            dev, note = deploy._aioble(Device(cup.port), spec, True, cup.port, 5.0, rep)
            assert installs == [cup.port] and note.localized("en") == "aioble installed"
            dev, note = deploy._aioble(dev, spec, False, cup.port, 5.0, rep)
            assert "aioble not installed (--no-mip)" in note.localized("en")

            (cup.flash / "lib" / "aioble").mkdir(parents=True)
            (cup.flash / "lib" / "aioble" / "__init__.py").write_text("ADV_TYPE_FLAGS = 1\n")
            dev, note = deploy._aioble(dev, spec, True, cup.port, 5.0, rep)
            assert installs == [cup.port]                  # not again
            assert note.localized("en").startswith("aioble is on the board already (")
            assert "lib/aioble/__init__.py" in note.localized("en")
            dev.close()
        finally:
            deploy._mip_install = original
