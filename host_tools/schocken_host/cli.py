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
