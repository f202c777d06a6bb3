"""Run the cup's trace replay (firmware/cup/replay.py) in its own process: under MicroPython's unix port, the
cup's own interpreter, else under this CPython. The host never imports the cup's code
(docs/architecture.md); `schocken shake-replay` and the doctor's calibration both replay through here."""

import json
import os
import subprocess
import sys

from schocken_host.i18n import Message
from schocken_host.provision.build import FIRMWARE

HEAP = "64k"  # the board's budget: replay streams the trace, so this suffices for any length
TIMEOUT_S = 120


def run_firmware(mp, trace, sensor, sensitivity=None):
    """Run cup.replay in its own process: under MicroPython (``mp``), else under this CPython. The host
    never imports the cup's code (docs/architecture.md). -> (throws, exit code, what went wrong: the
    firmware's own words or a Message)."""
    env = dict(os.environ)
    if mp:
        env["MICROPYPATH"] = "%s:%s:.frozen" % (FIRMWARE, FIRMWARE / "lib")
        cmd = [mp, "-X", "heapsize=" + HEAP, "-m", "cup.replay", str(trace)]
    else:
        env["PYTHONPATH"] = os.pathsep.join([str(FIRMWARE), str(FIRMWARE / "lib")])
        cmd = [sys.executable, "-m", "cup.replay", str(trace)]
    if sensor or sensitivity:
        cmd.append(sensor or "-")
    if sensitivity:
        cmd.append(sensitivity if isinstance(sensitivity, str) else json.dumps(sensitivity))
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, 1, Message("shake_replay.cannot_run", error=e)
    if proc.returncode == 2:  # cup.replay reports bad input as "error: <what>" on stderr
        lines = proc.stderr.strip().splitlines() or ["bad input"]
        msg = lines[-1]
        return None, 2, msg[len("error: "):] if msg.startswith("error: ") else msg
    if proc.returncode != 0:  # a crash: MicroPython prints tracebacks on stdout
        out = (proc.stdout + proc.stderr).strip().splitlines() or ["exit code %d" % proc.returncode]
        return None, 1, Message("shake_replay.firmware_failed", error=out[-1])
    throws = []
    for line in proc.stdout.splitlines():
        if line.strip():
            throws.append(int(json.loads(line)["t_ms"]))
    return throws, 0, None


