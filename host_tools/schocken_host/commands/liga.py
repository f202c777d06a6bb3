"""`schocken liga`: the league's standings (`--season`, `--sort`, `--json`, `--csv`), and its jobs: `import
DIR...` (finished games from their logs, once each), `merge NAME INTO` (two names of one person, or a
rename), `rebuild [DIR...]` (the database made anew from the logs); the club's jobs (evenings, seasons,
stakes, the ledger) in commands/liga_club.py. docs/league.md."""

import argparse
import csv
import json
import sys
from pathlib import Path

from schocken_host.errors import FAILED, CommandError
from schocken_host.i18n import tr
from schocken_host.commands import Command, Commands, liga_club, liga_luck
from schocken_host.league import db
from schocken_host.league.logs import game_logs, import_logs, rebuild
from schocken_host.league.evenings import season_range
from schocken_host.league.standings import COLUMNS, merge, sort_column, standings
from schocken_host.table import gamelog


def _db_option(p, default):
    p.add_argument("--db", default=default, metavar="FILE",
                   help="the league database (default: league.sqlite3 in the user data directory)")


def add_arguments(p):
    _db_option(p, None)
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="the standings as JSON")
    out.add_argument("--csv", action="store_true", help="the standings as CSV")
    liga_luck.add_plot_option(p)
    p.add_argument("--season", default=None, metavar="NAME",
                   help="the standings of this season's evenings (schocken liga season)")
    p.add_argument("--sort", default=None, metavar="COLUMN",
                   help="highest first in this column (a column of --csv, or the German table's word)")
    JOBS.add_parsers(p, p.lang, common=_job_options)


def _job_options(job, command):
    # --lang and --db are taken after the job as well (a default here would hide one given before it).
    job.add_argument("--lang", choices=("de", "en"), default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    _db_option(job, argparse.SUPPRESS)


def _import_arguments(job):
    job.add_argument("folders", nargs="+", metavar="DIR",
                     help="a folder of game logs (*.jsonl, in its subfolders too) or one log")


def _merge_arguments(job):
    job.add_argument("name", metavar="NAME", help="the name whose games count for INTO from now on")
    job.add_argument("into", metavar="INTO", help="a player's name, or a new name (a rename)")


def _rebuild_arguments(job):
    job.add_argument("folders", nargs="*", metavar="DIR",
                     help="folders of game logs (default: the log directory of schocken play)")


def _folders(names):
    """The folders (or logs) named, each checked before the database is touched."""
    for name in names:
        if not Path(name).exists():
            raise CommandError("league.no_such_folder", path=name)
    return [Path(name) for name in names]


def run(args):
    lang = getattr(args, "lang", "de")
    path = Path(args.db) if args.db else db.default_path()
    if args.plot is not None:
        # A picture, or a job, or the table as text: never one of them silently dropped.
        other = args.job or ("--json" if args.json else "--csv" if args.csv else None)
        if other:
            raise CommandError("luck.plot_alone", other=other)
        return liga_luck.plot(lang, path, args.plot, args.season)
    if args.job is not None:
        return JOBS[args.job].run(lang, path, args)
    return _standings(lang, path, args)


def _refused(lang):
    def say(message):
        sys.stderr.write("schocken: %s\n" % " ".join(message.localized(lang).split()))
    return say


def _summary(lang, tally):
    torn = tr(lang, "league.torn_count", n=tally.torn) if tally.torn else ""
    sys.stdout.write(tr(lang, "league.imported", imported=tally.imported, already=tally.already,
                        skipped=tally.skipped, torn=torn, refused=len(tally.refused)) + "\n")
    return FAILED if tally.refused else 0   # a log that is no game: the others are in, the exit says so


def _import(lang, path, args):
    paths = game_logs(_folders(args.folders))
    league = db.open_league(path)
    try:
        db.check_whole(league)   # a damaged database is refused before anything is read into it
        tally = import_logs(league, paths, _refused(lang), _refused(lang))
    finally:
        league.close()
    return _summary(lang, tally)


def _rebuild(lang, path, args):
    folders = _folders(args.folders) if args.folders else [gamelog.log_dir()]
    old = path.exists()
    say = _refused(lang)
    tally, carried = rebuild(path, game_logs(f for f in folders if f.exists()), say, say)
    sys.stdout.write(tr(lang, "league.rebuilt", path=path, folders=", ".join(map(str, folders))) + "\n")
    if old:
        sys.stdout.write(tr(lang, "league.kept_old", path=path) + "\n")
    if not carried:
        sys.stdout.write(tr(lang, "league.rebuilt_lost") + "\n")
    return _summary(lang, tally)


def _merge(lang, path, args):
    league = db.open_league(path, create=False)
    try:
        done = merge(league, args.name, args.into)
    finally:
        if league is not None:
            league.close()
    sys.stdout.write(tr(lang, "league." + done, name=args.name, into=args.into.strip()) + "\n")
    return 0


def _standings(lang, path, args):
    sort = sort_column(args.sort) if args.sort is not None else None
    league = db.open_league(path, create=False)
    try:
        first, last = season_range(league, args.season) if args.season is not None else (None, None)
        games, rows = standings(league, first, last, sort)
    finally:
        if league is not None:
            league.close()
    if args.json:
        sys.stdout.write(json.dumps({"games": games, "players": [r.as_dict() for r in rows]},
                                    ensure_ascii=False) + "\n")
        return 0
    if args.csv:
        out = csv.writer(sys.stdout, lineterminator="\n")
        out.writerow(COLUMNS)
        for r in rows:
            out.writerow([r.as_dict()[c] for c in COLUMNS])
        return 0
    sys.stdout.write(tr(lang, "league.games_1" if games == 1 else "league.games", n=games, path=path) + "\n")
    if args.season is not None:
        sys.stdout.write(tr(lang, "league.season_line", name=args.season, first=first, last=last,
                            games=liga_club.n_games(games))
                         + "\n")
    width = max([16] + [len(r.player) for r in rows])
    head = [tr(lang, "league.col_" + c) for c in ("games", "lost", "rate", "halves", "finals", "deckel")]
    # No stake is charged unless the table chose one: without one, no columns of money (JSON and CSV keep
    # theirs, zero).
    charged = any(r.stakes or r.drinks for r in rows)
    money = [tr(lang, "league.col_" + c) for c in ("stakes", "owed", "drinks")] if charged else []
    sys.stdout.write(("%-*s %6s %8s %8s %7s %6s %12s %10s" + " %10s %10s %8s" * charged + "\n")
                     % (width, tr(lang, "league.col_player"), *head, "Schock-Aus", *money))

    def number(x):   # a decimal comma in German
        return ("%.2f" % x).replace(".", "," if lang != "en" else ".")
    for r in rows:
        owes = (liga_club.money(lang, r.stakes), liga_club.money(lang, r.owed), r.drinks) if charged else ()
        sys.stdout.write(("%-*s %6d %8d %8s %7d %6d %12s %10d" + " %10s %10s %8d" * charged + "\n")
                         % (width, r.player, r.games, r.games_lost, number(r.lost_per_game), r.halves_lost,
                            r.finals_lost, number(r.deckel_per_round), r.schock_aus, *owes))
    return 0


# The league's jobs, in the order --help lists them; each handler is called as run(lang, path, args).
JOBS = Commands(
    "job", "league.job_metavar",
    Command("import", "cli.league_import", _import, _import_arguments),
    Command("merge", "cli.league_merge", _merge, _merge_arguments),
    Command("rebuild", "cli.league_rebuild", _rebuild, _rebuild_arguments),
    Command("luck", "luck.job", liga_luck.run, liga_luck.arguments, aliases=("glueck",)),
    *liga_club.JOBS)
