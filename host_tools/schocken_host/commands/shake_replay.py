"""`schocken shake-replay TRACE.csv [--sensor accel|switch]`: run a recorded sensor trace through the
cup's shake detector and print one JSON line {"t_ms": N} per throw.

The detector runs UNDER MICROPYTHON (the unix port), i.e. the very code and interpreter semantics of
the cup: `micropython -m cup.replay` with MICROPYPATH=<repo>/firmware:<repo>/firmware/lib:.frozen.
Without a `micropython` command it runs the same firmware module under CPython and says so on stderr.
Bad input: one line on stderr, exit code 2, nothing on stdout.
"""

import json
import os
import subprocess
import sys
from pathlib import Path


from schocken_host.input_checks import OneLineParser, read_text
from schocken_host.errors import CommandError
from schocken_host.i18n import LANGS, Message, tr
from schocken_host.provision.build import FIRMWARE, find_tool

PROG = "schocken shake-replay"
HEAP = "64k"  # the board's budget: replay streams the trace, so this suffices for any length
TIMEOUT_S = 120


def _say(text):
    sys.stderr.write("%s: %s\n" % (PROG, text))


def _refuse(lang, text):
    """An error line, as every verb's: the verb, "Fehler" / "error", what is wrong."""
    _say("%s: %s" % (tr(lang, "cli.error"), text))


def _run_firmware(mp, trace, sensor):
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
    if sensor:
        cmd.append(sensor)
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


def replay_trace(trace_path, sensor=None, lang="de"):
    """Replay one trace; print a JSON line per throw; return the exit code (0, 2 bad input, 1 failure)."""
    trace = Path(trace_path)
    if sensor not in (None, "accel", "switch"):
        _refuse(lang, tr(lang, "shake_replay.sensor", sensor=sensor))
        return 2
    try:
        # Read here first: the firmware's own messages for a folder or bytes that are not text say less.
        read_text(trace)
    except CommandError as e:
        _refuse(lang, e.localized(lang))
        return 2
    mp = find_tool("micropython")
    throws, code, msg = _run_firmware(mp, trace.resolve(), sensor)
    if code:
        _refuse(lang, msg.localized(lang) if isinstance(msg, Message) else msg)
        return code
    if mp is None:  # after the run: an error stays the one line on stderr
        _say(tr(lang, "shake_replay.on_cpython"))
    for t in throws:
        sys.stdout.write(json.dumps({"t_ms": t}) + "\n")
    sys.stdout.flush()
    return 0


def add_arguments(p):
    p.add_argument("trace", metavar="TRACE.csv", help="CSV: 't_ms,ax,ay,az' (m/s^2) or 't_ms,level'")
    p.add_argument("--sensor", choices=("accel", "switch"), default=None,
                   help="sensor kind (default: from the CSV header)")
    return p


def run(args):
    return replay_trace(args.trace, args.sensor, getattr(args, "lang", "de"))


def main(argv=None):
    parser = OneLineParser(prog=PROG, description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    parser.add_argument("--lang", choices=LANGS, default="de", help="language of the messages (default: de)")
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
