"""Type checks of the host's transports (the bleak backend has no Bluetooth adapter to run against here, so a
fake client at its interface and mypy against bleak's own type hints are what cover it)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

MODULES = ["host_tools/schocken_host/links/ble.py", "host_tools/schocken_host/links/transport.py",
           "host_tools/schocken_host/links/serial.py",
           "host_tools/schocken_host/commands/scan.py"]


def test_mypy_on_the_transports():
    exe = Path(sys.executable).parent / "mypy"
    mypy = str(exe) if exe.exists() else shutil.which("mypy")
    if mypy is None:
        pytest.skip("mypy is not installed (pip install -e '.[dev]')")
    proc = subprocess.run([mypy, "--ignore-missing-imports", "--follow-imports=silent", "--no-error-summary"]
                          + MODULES, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
