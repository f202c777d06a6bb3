"""`schocken shake-replay TRACE.csv [--sensor accel|switch] [--shake low|normal|high]`: run a recorded
sensor trace through the cup's shake detector and print one JSON line {"t_ms": N} per throw.

The detector runs UNDER MICROPYTHON (the unix port), i.e. the very code and interpreter semantics of
the cup: `micropython -m cup.replay` with MICROPYPATH=<repo>/firmware:<repo>/firmware/lib:.frozen.
Without a `micropython` command it runs the same firmware module under CPython and says so on stderr.
Bad input: one line on stderr, exit code 2, nothing on stdout.
"""

import json
import sys
from pathlib import Path


from schocken_host.input_checks import OneLineParser, read_text
from schocken_host.errors import CommandError
from schocken_host.i18n import LANGS, Message, tr
from schocken_host.provision.build import find_tool
from schocken_host.provision.replay import run_firmware

PROG = "schocken shake-replay"


def _say(text):
    sys.stderr.write("%s: %s\n" % (PROG, text))


def _refuse(lang, text):
    """An error line, as every verb's: the verb, "Fehler" / "error", what is wrong."""
    _say("%s: %s" % (tr(lang, "cli.error"), text))


def replay_trace(trace_path, sensor=None, lang="de", shake=None):
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
    throws, code, msg = run_firmware(mp, trace.resolve(), sensor, shake)
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
    p.add_argument("--shake", choices=("low", "normal", "high"), default=None,
                   help="the cup's shake sensitivity (default normal; docs/rules.md, 'The shake')")
    return p


def run(args):
    return replay_trace(args.trace, args.sensor, getattr(args, "lang", "de"), args.shake)


def main(argv=None):
    parser = OneLineParser(prog=PROG, description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    parser.add_argument("--lang", choices=LANGS, default="de", help="language of the messages (default: de)")
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
