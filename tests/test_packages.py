"""The cup the MicroPython way (docs/build.md, "With mip" and "Firmware with the cup frozen in"): the mip
packages and the frozen-firmware manifests list exactly what `schocken deploy` puts on a board, real
`mpremote mip install` puts them on an emulated board (from the local path, and over HTTP with a dependency),
and the cup installed that way plays."""

import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from schocken_host.provision import packages
from schocken_host.provision.boards import DESKTOP_ONLY, EMULATED, EMULATED_SPEC, board_names, board_spec
from schocken_host.provision.build import FIRMWARE, find_tool
from kits.cupkit import hello

needs_mp = pytest.mark.skipif(find_tool("micropython") is None or find_tool("mpy-cross") is None,
                              reason="micropython unix port or mpy-cross not installed")
HARDWARE = [n for n in board_names() if n != EMULATED]


def _urls(path):
    return json.loads(Path(path).read_text())["urls"]


# --- the generated files --------------------------------------------------------------------------------

def test_generated_files_are_up_to_date():
    stale = [p.name for p, text in packages.outputs().items() if not p.exists() or p.read_text() != text]
    assert not stale, "run: python -m schocken_host.provision.packages"


@pytest.mark.skipif(find_tool("mpy-cross") is None, reason="mpy-cross not installed")
@pytest.mark.parametrize("board", board_names())
def test_cup_package_lists_exactly_what_deploy_puts_on_the_board(board):
    from schocken_host.provision.deploy import firmware_files
    deployed = {p if p == "main.py" else p[:-4] + ".py" for p in firmware_files(board_spec(board))}
    package = packages.EMULATED_PACKAGE if board == EMULATED else packages.CUP_PACKAGE
    urls = _urls(package)
    assert {dest for dest, _ in urls} == deployed
    for dest, src in urls:
        assert dest == src and (FIRMWARE / src).is_file(), src   # relative to the package: no ".."
        assert src not in DESKTOP_ONLY
    deps = json.loads(package.read_text())["deps"]
    assert deps == ([["aioble", "latest"]] if board_spec(board).get("ble") else [])


def test_rules_package_is_the_whole_rules_package_and_nothing_else():
    lib = FIRMWARE / "lib" / "schocken"
    urls = _urls(packages.RULES_PACKAGE)
    assert sorted(src for _, src in urls) == sorted(p.name for p in lib.glob("*.py"))
    assert all(dest == "schocken/" + src for dest, src in urls)  # mip's target (/lib) + schocken/...
    assert json.loads(packages.RULES_PACKAGE.read_text())["deps"] == []


# --- mip through real mpremote into an emulated board ---------------------------------------------------

def _mip(port, *args):
    r = subprocess.run([sys.executable, "-m", "mpremote", "connect", port, "resume", "mip", "install"]
                       + list(args), capture_output=True, text=True, timeout=180)
    assert r.returncode == 0 and "Done" in r.stdout, r.stdout[-1500:] + r.stderr[-1500:]
    return r.stdout


def _files(root):
    return {p.relative_to(root).as_posix() for p in Path(root).rglob("*") if p.is_file()}


@pytest.fixture
def flash_cup():
    from testbed.flash_cup import FlashCup
    c = FlashCup()
    yield c
    c.close()


@needs_mp
def test_mip_from_the_local_path_gives_a_cup_that_boots_and_plays(flash_cup, tmp_path):
    from kits.cupkit import CupDriver
    from schocken_host.emulation.emulator import EmulatedCup

    cup = flash_cup
    _mip(cup.port, "--target", "/", str(packages.EMULATED_PACKAGE))
    _mip(cup.port, str(packages.RULES_PACKAGE))       # again, alone: mip's default target /lib
    flash = cup.flash
    assert _files(flash) == {dest for dest, _ in _urls(packages.EMULATED_PACKAGE)}
    for dest, src in _urls(packages.EMULATED_PACKAGE):
        assert (flash / dest).read_bytes() == (FIRMWARE / src).read_bytes(), dest

    # The two files no package carries (docs/build.md): written as deploy would, then a power cycle runs the
    # installed main.py -> boot_select -> the cup app, which answers on its link.
    (flash / "board.json").write_text(json.dumps(EMULATED_SPEC))
    (flash / "cup.json").write_text(json.dumps({"board": EMULATED, "cup_id": "mip-1", "name": "Mia"}))
    cup.power_cycle()
    ident = hello(cup.port, timeout=20)
    assert (ident["cup"], ident["name"], ident["board"]) == ("mip-1", "Mia", EMULATED)
    cup.power_off()

    # A round needs hands on the cup: the emulated board's control channel, which emulate.py (desktop-only,
    # not in the package) opens. It runs alone in a folder of its own; every module it imports comes from the
    # installed flash, as source (mip installs .py: the heap compiles it, hence the larger heap).
    harness = tmp_path / "harness"
    harness.mkdir()
    for name in ("emulate.py", "cheat.py", "timescale.py"):
        shutil.copy(FIRMWARE / name, harness / name)
    emu = EmulatedCup(cup_id="mip-1", name="Mia", long_ms=300, heap="256k", interpreter="micropython",
                      path=[harness, flash, flash / "lib"])
    driver = CupDriver(cup=emu)
    try:
        reveals = driver.three_rounds()
    finally:
        driver.close()
    assert len(reveals) == 3
    assert not list(flash.rglob("*.mpy"))      # nothing compiled by this checkout was used



class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@needs_mp
def test_mip_over_http_installs_the_hardware_package_with_aioble(flash_cup, tmp_path):
    """What `mpremote mip install --target / github:OWNER/REPO/firmware` does, without the network: the
    package over HTTP (relative URLs joined to its folder), its aioble dependency from a package index (here a
    stand-in: tests/kits/aioble_shim.py), every file where deploy puts it."""
    site = tmp_path / "site"
    (site / "package" / "6" / "aioble").mkdir(parents=True)
    os.symlink(FIRMWARE, site / "firmware")
    index = site / "package" / "6" / "aioble"      # {index}/package/{mpy version}/{name}/{version}.json
    shutil.copy(Path(__file__).parent / "kits" / "aioble_shim.py", index / "shim.py")
    (index / "latest.json").write_text(json.dumps(
        {"urls": [["aioble/__init__.py", "shim.py"]], "version": "0"}))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(_QuietHandler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = "http://127.0.0.1:%d" % server.server_address[1]
        out = _mip(flash_cup.port, "--target", "/", "--index", base, base + "/firmware/package.json")
    finally:
        server.shutdown()
        server.server_close()
    files = _files(flash_cup.flash)
    assert files - {"aioble/__init__.py"} == {dest for dest, _ in _urls(packages.CUP_PACKAGE)}
    assert "aioble/__init__.py" in files and "aioble" in out
    assert not any(f.startswith("boards/emulated") for f in files)


# --- frozen firmware: the manifests ---------------------------------------------------------------------

def read_manifest(path, board_dir):
    """Run a MicroPython manifest with stand-ins for its functions: what it freezes (module names as paths,
    "cup/app.py"), what it requires and which outside manifests it includes ($(...) kept as written).
    Relative paths are relative to the manifest's own folder, as in MicroPython's tools/manifestfile.py."""
    seen = {"frozen": set(), "require": [], "external": [], "files": []}

    def run(p):
        p = Path(p).resolve()
        seen["files"].append(p)
        here = p.parent

        def include(target, **kw):
            if target.startswith("$("):
                seen["external"].append(target.replace("$(BOARD_DIR)", board_dir))
            else:
                q = here / target
                run(q / "manifest.py" if q.is_dir() else q)

        def module(name, base_path=".", opt=None):
            assert (here / base_path / name).is_file(), name
            seen["frozen"].add(name)

        def package(name, files=None, base_path=".", opt=None):
            root = here / base_path / name
            names = files if files is not None else [
                q.relative_to(root).as_posix() for q in root.rglob("*.py")]
            for f in names:
                assert (root / f).is_file(), (name, f)
                seen["frozen"].add(name + "/" + f)

        def require(name, **kw):
            seen["require"].append(name)

        def freeze(path, script=None, opt=None):
            raise AssertionError("the cup's manifests use module()/package(), not freeze()")

        exec(compile(p.read_text(), str(p), "exec"), {"include": include, "module": module,
                                                     "package": package, "require": require,
                                                     "freeze": freeze, "metadata": lambda **kw: None})

    run(path)
    return seen


# What MicroPython's own board manifests bring (checked in micropython's sources at v1.27.0, v1.28.0 and
# master, 2026-08; the comments in firmware/manifests/ say the same): the Pico W boards' manifests require
# aioble, the ESP32 port's manifest does not.
UPSTREAM_AIOBLE = {"$(PORT_DIR)/boards/RPI_PICO_W/manifest.py", "$(PORT_DIR)/boards/RPI_PICO2_W/manifest.py"}


@pytest.mark.parametrize("board", HARDWARE)
def test_frozen_manifest_freezes_what_deploy_puts_on_the_board(board):
    spec = board_spec(board)
    image = spec["firmware"]["image"]
    port = "rp2" if spec["chip"].startswith("rp2") else "esp32"
    seen = read_manifest(FIRMWARE / "manifests" / (image + ".py"), "$(PORT_DIR)/boards/" + image)
    frozen = {("schocken/" + f[len("lib/schocken/"):]) if f.startswith("lib/") else f
              for f in packages.board_sources(board) if f not in packages.NOT_FROZEN}
    assert seen["frozen"] == frozen
    assert not seen["frozen"] & set(DESKTOP_ONLY) and "main.py" not in seen["frozen"]
    assert not any("emulated" in f for f in seen["frozen"])
    # The port's own modules stay in: the board's default manifest is included first.
    default = "$(PORT_DIR)/boards/%smanifest.py" % (image + "/" if port == "rp2" else "")
    assert seen["external"][0] == default
    if spec.get("ble"):
        has = "aioble" in seen["require"] or any(e in UPSTREAM_AIOBLE for e in seen["external"])
        assert has, "aioble is neither required nor in the included board manifest"
        assert seen["require"].count("aioble") <= 1 and not (
            "aioble" in seen["require"] and any(e in UPSTREAM_AIOBLE for e in seen["external"]))


def test_every_frozen_manifest_is_named_desktop_only():
    """deploy puts every firmware .py it does not know as desktop-only on the board: the manifests must be
    on that list (boards.py FROZEN_MANIFESTS)."""
    on_disk = {p.relative_to(FIRMWARE).as_posix() for p in (FIRMWARE / "manifests").glob("*.py")}
    assert on_disk | {"manifest.py"} <= set(DESKTOP_ONLY)
    assert {board_spec(n)["firmware"]["image"] + ".py" for n in HARDWARE} == {
        Path(p).name for p in on_disk}


@pytest.mark.skipif(find_tool("mpy-cross") is None, reason="mpy-cross not installed")
@pytest.mark.parametrize("board", HARDWARE)
def test_frozen_code_compiles_for_the_board(board, tmp_path):
    """What the build's mpy-cross does with each frozen file, for the board's architecture."""
    arch = board_spec(board)["mpy_arch"]
    for rel in packages.frozen_sources():
        r = subprocess.run([find_tool("mpy-cross"), "-march=" + arch, "-o", str(tmp_path / "x.mpy"),
                            str(FIRMWARE / rel)], capture_output=True, text=True)
        assert r.returncode == 0, rel + ": " + r.stderr


@needs_mp
def test_deploy_after_mip_replaces_the_sources_with_bytecode(flash_cup, tmp_path):
    """docs/build.md: `schocken deploy` over a mip install leaves no source to shadow its .mpy files."""
    _mip(flash_cup.port, "--target", "/", str(packages.EMULATED_PACKAGE))
    env = dict(os.environ, SCHOCKEN_DATA_DIR=str(tmp_path / "data"))
    r = subprocess.run([str(Path(sys.executable).parent / "schocken"), "--lang", "en", "deploy", "--port",
                        flash_cup.port, "--board", EMULATED, "--no-mip", "--no-start"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr + r.stdout
    left = {f for f in _files(flash_cup.flash) if f.endswith(".py")}
    assert left == {"main.py"}
