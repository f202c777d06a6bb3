"""`schocken`: the host's command line. One verb per job; every verb reports bad input in one line on
standard error and exits with status 2, printing nothing on standard output (README, "Command line").

Exit status: 0 done, 1 the job failed (a game not finished, a failed self-test, a board that does not answer),
2 bad input (arguments, files, standard input), 70 an internal error (a bug: one line, the traceback with
SCHOCKEN_DEBUG=1), 130 interrupted."""

import argparse
import os
import sys
import traceback

from schocken import RuleError
from schocken.rules import PRESETS

from schocken_host.i18n import LANGS, tr
from schocken_host.input_checks import BAD_INPUT, OneLineParser, os_error_text

INTERNAL_ERROR = 70     # EX_SOFTWARE of sysexits.h


def _common(p):
    # --lang is accepted before or after the verb.
    p.add_argument("--lang", choices=LANGS, default=argparse.SUPPRESS, help="language: de (default) or en")


def _rule_args(p):
    _common(p)
    p.add_argument("--rules", default="standard", metavar="PRESET",
                   help="rule set: %s (default: standard)" % ", ".join(sorted(PRESETS)))
    p.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                   help="change one option of the rule set (repeatable)")


# Verbs whose module adds its own arguments: (verb, help, module, its add-arguments function, its command).
VERBS = (
    ("cup", "run an emulated cup and play it from the keyboard",
     "schocken_host.cup_cmd", "add_arguments", "cmd_cup"),
    ("shake-replay", "run a recorded sensor trace through the cup's shake detector",
     "schocken_host.shake_replay", "build_parser", "cmd"),
    ("play", "referee a game: cups over serial ports and/or emulated cups",
     "schocken_host.play_cmd", "add_arguments", "cmd_play"),
    ("deploy", "put the cup firmware on a board (compile, copy, configure, verify)",
     "schocken_host.deploy_cmd", "add_arguments", "cmd_deploy"),
    ("doctor", "self-test of a cup: LEDs, buttons, shake sensor, RNG, battery, firmware",
     "schocken_host.doctor_cmd", "add_arguments", "cmd_doctor"),
    ("scan", "list the cups in reach: serial ports and Bluetooth LE",
     "schocken_host.scan_cmd", "add_scan_arguments", "cmd_scan"),
)


def build_parser():
    parser = OneLineParser(prog="schocken", description="Schocken: rules, cups and referee.")
    parser.add_argument("--lang", choices=LANGS, default="de", help="language of the output (default: de)")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB")
    verbs.required = True

    p = verbs.add_parser("rules", help="show the ranking table and options of a rule set")
    _rule_args(p)
    p.set_defaults(run="schocken_host.rules_cmd:cmd_rules")

    p = verbs.add_parser("rank", help="rank one round read as JSON from standard input")
    _rule_args(p)
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(run="schocken_host.rules_cmd:cmd_rank")

    for name, text, module, add, run in VERBS:
        p = verbs.add_parser(name, help=text)
        _common(p)
        getattr(__import__(module, fromlist=[add]), add)(p)
        p.set_defaults(run="%s:%s" % (module, run))

    p = verbs.add_parser("replay", help="recompute a logged game and print the standings")
    _common(p)
    p.add_argument("log", help="a game log (.jsonl)")
    p.add_argument("--json", action="store_true", help="the final state as JSON (docs/gamelog.md)")
    p.set_defaults(run="schocken_host.replay_cmd:cmd_replay")

    p = verbs.add_parser("stats", help="summarize the logged games per player")
    _common(p)
    p.add_argument("--log-dir", default=None, help="folder of game logs (default: the user data directory)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run="schocken_host.replay_cmd:cmd_stats")
    return parser


def verb_names(parser=None):
    """Every verb of the command line, as the parser knows them (tests walk them all)."""
    parser = parser or build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices)
    return []


def bad_input(e):
    """The one line that describes bad input, or None when ``e`` is not the user's doing. The verbs raise
    RuleError for what they find wrong; the rest is what Python raises on a bad file or bad data that reached
    a reader without its own check: a file that is missing or a folder, text that is not UTF-8, JSON or TOML
    that is broken (ValueError) or nested past the recursion limit."""
    if isinstance(e, RuleError):
        return str(e)
    if isinstance(e, RecursionError):
        return "input nested too deeply"
    if isinstance(e, UnicodeError):
        return "input is not UTF-8 text (%s)" % e
    if isinstance(e, OSError):
        return os_error_text(e)
    if isinstance(e, ValueError):
        return str(e) or type(e).__name__
    return None


def debugging():
    return os.environ.get("SCHOCKEN_DEBUG", "") not in ("", "0")


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    module, func = args.run.split(":")
    try:
        run = getattr(__import__(module, fromlist=[func]), func)
        return run(args) or 0
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into head & co.
        sys.stderr.close()
        return 0
    except Exception as e:  # noqa: BLE001 - the one place every error becomes one line
        if debugging():
            traceback.print_exc()
        text = bad_input(e)
        if text is not None:
            sys.stderr.write("schocken: %s: %s\n" % (tr(args.lang, "error"), " ".join(text.split())))
            return BAD_INPUT
        sys.stderr.write("schocken: %s: %s: %s (SCHOCKEN_DEBUG=1 %s)\n" % (
            tr(args.lang, "internal_error"), type(e).__name__, " ".join(str(e).split()), tr(args.lang, "traceback")))
        return INTERNAL_ERROR


if __name__ == "__main__":
    sys.exit(main())
