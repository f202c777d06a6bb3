"""`schocken`: the host's command line. One verb per job; every verb reports bad input in one line on
standard error and exits with status 2, printing nothing on standard output (README, "Command line").

Exit status: 0 done, 1 the job failed (a game not finished, a failed self-test, a board that does not answer),
2 bad input (arguments, files, standard input), 70 an internal error (a bug: one line, the traceback with
SCHOCKEN_DEBUG=1), 130 interrupted."""

import argparse
import os
import sys
import traceback

from schocken_host.i18n import LANGS, LocalizedError, tr
from schocken_host.errors import BAD_INPUT, CommandError

INTERNAL_ERROR = 70     # EX_SOFTWARE of sysexits.h
DISTRIBUTION = "schocken-cup"   # pyproject.toml's name; the rules package says it is ours (schocken.__init__)


def foreign_rules_package():
    """None when ``import schocken`` gives this project's rules package; else (where it was found, the
    installed distribution it belongs to or None). The name ``schocken`` is also taken on PyPI by an unrelated
    package (README, "Installing"): installed beside this project, or first on sys.path, it would be imported
    instead, and fail somewhere deep with an unexplained ImportError."""
    try:
        import schocken
    except ImportError:
        return "?", None
    where = getattr(schocken, "__file__", None) or "?"
    if getattr(schocken, "__distribution__", None) == DISTRIBUTION:
        return None
    if where.replace("\\", "/").endswith("/firmware/lib/schocken/__init__.py"):
        return None  # a checkout of this project from before the marker (a venv's editable install)
    return where, _distribution_of(where)


def _distribution_of(path):
    # Only on the way to an error: the RECORDs of the distributions that say they provide "schocken".
    from importlib import metadata
    from pathlib import Path
    try:
        target = Path(path).resolve()
        names = metadata.packages_distributions().get("schocken", [])
        for name in dict.fromkeys(names):
            dist = metadata.distribution(name)
            if any(Path(dist.locate_file(f)).resolve() == target for f in dist.files or ()):
                return "%s %s" % (dist.metadata["Name"], dist.version)
    except (OSError, ValueError, metadata.PackageNotFoundError):
        pass
    return None


def language_of(argv):
    """The language ``--lang`` asks for, read before argparse (whose own messages are to be in it, and which
    may be the one to refuse the rest): the last --lang given, German when none or an unknown one."""
    lang = "de"
    for i, arg in enumerate(argv):
        if arg.startswith("--lang="):
            lang = arg[7:]
        elif arg == "--lang" and i + 1 < len(argv):
            lang = argv[i + 1]
    return lang if lang in ("de", "en") else "de"


def check_rules_package(argv):
    """Exit with one line (status 1) when ``schocken`` is not our rules package. Runs before anything
    imports it."""
    found = foreign_rules_package()
    if found is None:
        return
    lang = language_of(argv)
    where, owner = found
    text = tr(lang, "cli.foreign_rules", where=where, dist=DISTRIBUTION) if owner is None else tr(
        lang, "cli.foreign_rules_dist", where=where, owner=owner, name=owner.split()[0], dist=DISTRIBUTION)
    sys.stderr.write("schocken: %s: %s\n" % (tr(lang, "cli.error"), text))
    raise SystemExit(1)


check_rules_package(sys.argv[1:])  # before the imports below: they import schocken

from schocken import RuleError  # noqa: E402

from schocken_host.commands import VERBS  # noqa: E402
from schocken_host.i18n import RuleText, localized, os_error  # noqa: E402
from schocken_host.input_checks import OneLineParser  # noqa: E402


def _common(p, verb):
    # --lang is accepted before or after the verb.
    p.add_argument("--lang", choices=LANGS, default=argparse.SUPPRESS, help=tr(p.lang, "cli.lang_help"))


def argparse_in(lang):
    """argparse speaks ``lang`` from now on: its refusals (OneLineParser.error) and the argparse types' own
    (input_checks.argument_error)."""
    OneLineParser.lang = lang


def help_formatter(lang):
    """argparse's help formatter, speaking ``lang``: the usage line's prefix and the sections' titles through
    the formatter's own hooks (add_usage, start_section); each option's description is the parser's
    (input_checks.OneLineParser)."""
    titles = {"positional arguments": tr(lang, "argparse.positionals"),
              "options": tr(lang, "argparse.options")}

    class HelpInLanguage(argparse.HelpFormatter):
        def add_usage(self, usage, actions, groups, prefix=None):
            prefix = tr(lang, "argparse.usage") if prefix is None else prefix   # None: argparse's "usage: "
            super().add_usage(usage, actions, groups, prefix)

        def start_section(self, heading):
            super().start_section(titles.get(heading, heading))
    return HelpInLanguage


def build_parser(lang="de"):
    """The parser, speaking ``lang`` (its messages and --help; the options' own descriptions are English but
    for those a verb gives in both languages)."""
    argparse_in(lang)
    formatter = help_formatter(lang)
    parser = OneLineParser(prog="schocken", description=tr(lang, "cli.description"),
                           formatter_class=formatter)
    parser.add_argument("--lang", choices=LANGS, default="de", help=tr(lang, "cli.lang_help"))
    # The verbs, from the one registry (commands/__init__.py); each runs by args.run.
    parser.verb_parsers = VERBS.add_parsers(parser, lang, common=_common)
    for name, verb_parser in parser.verb_parsers.items():
        verb_parser.set_defaults(run=VERBS[name].run)
    return parser


def verb_names(parser=None):
    """Every verb of the command line, as the parser knows them (tests walk them all)."""
    return list((parser or build_parser()).verb_parsers)


def bad_input(e, lang="de"):
    """The one line that describes bad input in ``lang``, or None when ``e`` is not the user's doing. The
    verbs raise CommandError for what they find wrong (the rules package RuleError, put into words by its
    number);
    the rest is what Python raises on a bad file or bad data that reached a reader without its own check: a
    file that is missing or a folder, text that is not UTF-8, JSON or TOML that is broken (ValueError) or
    nested past the recursion limit."""
    if isinstance(e, CommandError):
        return e.localized(lang)
    if isinstance(e, RuleError):
        return RuleText(e).localized(lang)
    if isinstance(e, RecursionError):
        return tr(lang, "cli.nested")
    if isinstance(e, UnicodeError):
        return tr(lang, "cli.not_utf8", error=e)
    if isinstance(e, LocalizedError) and isinstance(e, (OSError, ValueError)):   # a lost link, a broken log
        return e.localized(lang)
    if isinstance(e, OSError):
        return localized(os_error(e), lang)
    if isinstance(e, ValueError):
        return str(e) or type(e).__name__
    return None


def debugging():
    return os.environ.get("SCHOCKEN_DEBUG", "") not in ("", "0")


def parse(parser, argv, lang):
    """argv -> the parsed arguments, or argparse's one-line refusal naming the verb it concerns ("schocken
    play: Fehler: unbekannte Argumente: --x"); no verb at all: the usage line and the verbs, exit status 2."""
    args, extra = parser.parse_known_args(argv)
    verb = parser.verb_parsers.get(getattr(args, "verb", None))
    if verb is None:
        parser.print_usage(sys.stderr)
        parser.error("%s. %s" % (tr(lang, "cli.verbs", verbs=", ".join(parser.verb_parsers)),
                                 tr(lang, "cli.verbs_more")))
    if extra:
        verb.error(tr(lang, "argparse.unrecognized") % " ".join(extra))
    return args


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    lang = language_of(argv)
    parser = build_parser(lang)
    for arg in argv:  # the shell passes bytes; those that are no UTF-8 arrive as lone surrogates
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            parser.error(tr(lang, "argparse.not_utf8") % arg)
    args = parse(parser, argv, lang)
    try:
        return args.run(args) or 0
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into head & co.
        sys.stderr.close()
        return 0
    except Exception as e:  # noqa: BLE001 - the one place every error becomes one line
        if debugging():
            traceback.print_exc()
        text = bad_input(e, args.lang)
        if text is not None:
            sys.stderr.write("schocken: %s: %s\n" % (tr(args.lang, "cli.error"), " ".join(text.split())))
            return getattr(e, "status", BAD_INPUT)
        sys.stderr.write("schocken: %s\n" % tr(args.lang, "cli.internal_error", kind=type(e).__name__,
                                                 error=" ".join(str(e).split())))
        return INTERNAL_ERROR


if __name__ == "__main__":
    sys.exit(main())
