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

    p = verbs.add_parser("cup", help="run an emulated cup and play it from the keyboard")
    _common(p)
    from schocken_host.cup_cmd import add_arguments
    add_arguments(p)
    p.set_defaults(run="schocken_host.cup_cmd:cmd_cup")

    p = verbs.add_parser("shake-replay", help="run a recorded sensor trace through the cup's shake detector")
    _common(p)
    from schocken_host import shake_replay
    shake_replay.build_parser(p)
    p.set_defaults(run="schocken_host.cli:cmd_shake_replay")

    p = verbs.add_parser("play", help="referee a game: cups over serial ports and/or emulated cups")
    _common(p)
    from schocken_host.play_cmd import add_arguments as play_arguments
    play_arguments(p)
    p.set_defaults(run="schocken_host.play_cmd:cmd_play")

    p = verbs.add_parser("deploy", help="put the cup firmware on a board (compile, copy, configure, verify)")
    _common(p)
    from schocken_host.deploy_cmd import add_arguments as deploy_arguments
    deploy_arguments(p)
    p.set_defaults(run="schocken_host.deploy_cmd:cmd_deploy")

    p = verbs.add_parser("doctor", help="self-test of a cup: LEDs, buttons, shake sensor, RNG, battery, firmware")
    _common(p)
    from schocken_host.doctor_cmd import add_arguments as doctor_arguments
    doctor_arguments(p)
    p.set_defaults(run="schocken_host.doctor_cmd:cmd_doctor")

    p = verbs.add_parser("scan", help="list the cups in reach: serial ports and Bluetooth LE")
    _common(p)
    from schocken_host.scan_cmd import add_scan_arguments
    add_scan_arguments(p)
    p.set_defaults(run="schocken_host.scan_cmd:cmd_scan")

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


def cmd_shake_replay(args):
    from schocken_host import shake_replay
    return shake_replay.run(args.trace, args.sensor)


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
