"""The linter (ruff, configured in pyproject.toml: line length 110, pycodestyle and pyflakes) over the whole
tree: host, firmware, tests, bench and the hardware scripts."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

AREAS = ["host_tools", "firmware", "tests", "bench", "hardware"]


def ruff():
    beside = Path(sys.executable).parent / "ruff"
    return str(beside) if beside.exists() else shutil.which("ruff")


@pytest.mark.skipif(ruff() is None, reason="ruff is not installed (pip install -e '.[dev]')")
def test_ruff_passes():
    proc = subprocess.run([ruff(), "check", "--no-cache", *AREAS], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]


@pytest.mark.skipif(ruff() is None, reason="ruff is not installed (pip install -e '.[dev]')")
def test_ruff_sees_a_long_line(tmp_path):
    # The check can fail: the project's configuration refuses a line of 111 characters.
    bad = tmp_path / "long.py"
    bad.write_text("x = '%s'\n" % ("y" * 105))
    proc = subprocess.run([ruff(), "check", "--no-cache", "--config", str(ROOT / "pyproject.toml"), str(bad)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "E501" in proc.stdout, proc.stdout
