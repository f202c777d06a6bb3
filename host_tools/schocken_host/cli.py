"""`schocken`: the host's command line. One verb per job; every verb reports bad input in one line on
standard error and exits non-zero, printing nothing on standard output."""

import argparse
import sys

from schocken import RuleError
from schocken.rules import PRESETS

from schocken_host.i18n import LANGS, tr


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
    parser = argparse.ArgumentParser(prog="schocken", description="Schocken: rules, cups and referee.")
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


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    module, func = args.run.split(":")
    try:
        run = getattr(__import__(module, fromlist=[func]), func)
        return run(args) or 0
    except RuleError as e:
        sys.stderr.write("schocken: %s: %s\n" % (tr(args.lang, "error"), e))
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into head & co.
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
