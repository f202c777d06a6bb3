"""The test bed: boards that the tests and benches play the firmware on, which no `schocken` command uses and
the wheel leaves out. `flash_cup`: the unix port as a board with a REPL and a flash folder (deploy, doctor);
`target`: the target lane's setting (SCHOCKEN_TARGET) and its QEMU board; `rp2040/`: an emulated RP2040 board
on rp2040py (docs/build.md, "The target lane")."""

import os
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]   # the folder this package is found in


def module_env(env=None):
    """The environment of a process that runs a test-bed module with ``python -m testbed....``."""
    env = dict(os.environ if env is None else env)
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS)] + [p for p in [env.get("PYTHONPATH")] if p])
    return env
