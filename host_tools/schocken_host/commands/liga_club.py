"""The club's jobs of `schocken liga` (docs/league.md, "Evenings, seasons, stakes"): `evening` (`abend`: the
evenings, an evening's games, a game moved to another evening), `season` (`saison`: a season by its days),
`stake` (`einsatz`: the stake rule of the league or of an evening), `ledger` (`kasse`: who owes what, per
evening, an evening settled)."""

import argparse
import json
import sys
import time

from schocken_host.commands import Command
from schocken_host.errors import CommandError
from schocken_host.i18n import Message, tr
from schocken_host.league import db
from schocken_host.league.evenings import (a_day, check_season, define_season, evening_name, evening_names,
                                           evenings, games_of, move, season_range, seasons)
from schocken_host.league.stakes import (DEFAULT, league_rule, ledger, parse_rule, per_person, set_rule,
                                         settle)

def _evening_arguments(job):
    job.add_argument("--table", default=None, metavar="NAME",
                     help="only the evenings at this table (the name its table file gives it); "
                          "with --move, the table the game goes to")
    job.add_argument("day", nargs="?", metavar="DAY", help="an evening's day, YYYY-MM-DD")
    job.add_argument("--move", default=None, metavar="GAME_ID",
                     help="put this game (its id, or its first digits) into the evening of DAY")


def _season_arguments(job):
    job.add_argument("name", nargs="?", metavar="NAME", help="the season's name")
    job.add_argument("first", nargs="?", metavar="FROM", help="its first evening's day, YYYY-MM-DD")
    job.add_argument("last", nargs="?", metavar="TO", help="its last evening's day, YYYY-MM-DD")


def _stake_arguments(job):
    job.add_argument("--table", default=None, metavar="NAME",
                     help="the evening's table: the name its table file gives it (default: every table of "
                          "that day)")
    job.add_argument("rule", nargs="?", metavar="RULE",
                     help="none (the default), players (5 euros up to 5 players, 10 from 6), game:AMOUNT, "
                          "drinks")
    job.add_argument("--evening", default=None, metavar="DAY",
                     help="the rule of this evening only (default: of the league)")


def _ledger_arguments(job):
    job.add_argument("--table", default=None, metavar="NAME",
                     help="only the evenings at this table (the name its table file gives it)")
    job.add_argument("--season", default=None, metavar="NAME", help="the evenings of this season")
    settling = job.add_mutually_exclusive_group()
    settling.add_argument("--settle", default=None, metavar="DAY", help="the evening of DAY is settled")
    settling.add_argument("--reopen", default=None, metavar="DAY", help="the evening of DAY is open again")
    job.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="the ledger as JSON")


def money(lang, cents):
    """Cents as a person reads euros: 15,00 € in German, €15.00 in English."""
    if lang == "en":
        return "€%d.%02d" % divmod(cents, 100)
    return "%d,%02d €" % divmod(cents, 100)


def n_games(n):
    """"1 game", "3 games" in the reader's language."""
    return Message("league.n_games_1") if n == 1 else Message("league.n_games", n=n)


def rule_words(lang, rule):
    if rule.startswith("game:"):
        return tr(lang, "league.stake_game", amount=money(lang, int(rule[5:])))
    return tr(lang, "league.stake_" + rule)


# What the user gave is checked before the database is opened.
def _table(args):
    return args.table.strip() if getattr(args, "table", None) else None


def _evening_job(lang, path, args):
    table = _table(args)
    day = a_day(args.day) if args.day else None
    if args.move is not None and day is None:
        raise CommandError("league.move_needs_day")
    return _open(path, False, lambda league: _evening(lang, league, day, args.move, table))


def _season_job(lang, path, args):
    if args.name is not None and args.last is None:
        raise CommandError("league.season_needs_days")
    span = (a_day(args.first), a_day(args.last)) if args.name is not None else None
    if span is not None:
        check_season(args.name, *span)   # refused before a database is made for it
    return _open(path, span is not None, lambda league: _season(lang, league, args.name, span))


def _stake_job(lang, path, args):
    table = _table(args)
    rule = parse_rule(args.rule) if args.rule is not None else None
    day = a_day(args.evening) if args.evening else None
    if table is not None and day is None:
        raise CommandError("league.table_needs_evening")
    return _open(path, rule is not None and day is None,
                 lambda league: _stake(lang, league, rule, day, table))


def _ledger_job(lang, path, args):
    table = _table(args)
    settling = args.settle or args.reopen
    day = a_day(settling) if settling else None
    return _open(path, False, lambda league: _ledger(lang, league, args.season, day, table, bool(args.reopen),
                                                     getattr(args, "json", False)))


def _open(path, create, job):
    """Runs ``job(league)``. Only what stands without games (a season, the league's stake) makes a database:
    the other jobs get None where there is none yet (nothing to read, no evening or game to change)."""
    league = db.open_league(path, create=create)
    try:
        return job(league)
    finally:
        if league is not None:
            league.close()


def _evening(lang, league, day, game, table):
    if game is not None:
        game_id, day, place = move(league, game, day, table)
        evening = evening_names(league, day, day).get((day, place)) or evening_name(day, place)
        sys.stdout.write(tr(lang, "league.moved", game_id=game_id, evening=evening) + "\n")
        return 0
    if day is None:
        default = league_rule(league)
        rows = [row for row in evenings(league) if table is None or row.table == table]
        for row in rows:
            if (row.stake or default) == "none":   # no stake: nothing to settle
                line = tr(lang, "league.evening_line_free", evening=row.name, games=n_games(row.games))
            else:
                line = tr(lang, "league.evening_line", evening=row.name, games=n_games(row.games),
                          settled=tr(lang, "league.settled" if row.settled else "league.open"))
            sys.stdout.write(line + "\n")
        if not rows:
            sys.stdout.write(tr(lang, "league.no_evenings") + "\n")
        return 0
    rows = games_of(league, day, table)
    if not rows:
        raise CommandError("league.no_evening", day=day)
    for game_id, place, started, loser in rows:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(started)) if started is not None else "?"
        key = "league.game_line" if place else "league.game_line_no_table"
        sys.stdout.write(tr(lang, key, game_id=game_id, place=place, when=when, loser=loser) + "\n")
    return 0


def _season(lang, league, name, span):
    if span is not None:
        define_season(league, name, *span)
        sys.stdout.write(tr(lang, "league.season_set", name=name.strip(), first=span[0], last=span[1]) + "\n")
        return 0
    rows = seasons(league)
    for name, first, last, games in rows:
        sys.stdout.write(tr(lang, "league.season_line", name=name, first=first, last=last,
                            games=n_games(games))
                         + "\n")
    if not rows:
        sys.stdout.write(tr(lang, "league.no_seasons") + "\n")
    return 0


def _stake(lang, league, rule, day, table):
    if rule is not None:
        if league is None:
            raise CommandError("league.no_evening", day=day)
        done = set_rule(league, rule, day, table)
        key = "league.stake_set" if done is None else "league.stake_set_evening"
        sys.stdout.write(tr(lang, key, rule=rule_words(lang, rule), day=day, n=done) + "\n")
        return 0
    current = league_rule(league) if league is not None else DEFAULT
    sys.stdout.write(tr(lang, "league.stake_is", rule=rule_words(lang, current)) + "\n")
    for row in evenings(league):
        if row.stake is not None:
            sys.stdout.write(tr(lang, "league.stake_of_evening", evening=row.name,
                                rule=rule_words(lang, row.stake)) + "\n")
    return 0


def _ledger(lang, league, season, day, table, reopen, as_json):
    if day is not None:
        if league is None:
            raise CommandError("league.no_evening", day=day)
        n = settle(league, day, table, undo=reopen)
        sys.stdout.write(tr(lang, "league.reopened" if reopen else "league.settled_now", day=day, n=n) + "\n")
        return 0
    first, last = season_range(league, season) if season is not None else (None, None)
    found = [e for e in ledger(league, first, last) if table is None or e.place == table]
    if as_json:
        sys.stdout.write(json.dumps([
            {"day": e.day, "table": e.place, "evening": e.name, "rule": e.rule, "settled": e.settled,
             "games": e.games,
             "owes": [{"player": name, "lost": e.lost[name], "euros": cents / 100, "drinks": drinks}
                      for name, (cents, drinks) in sorted(e.owes.items())]} for e in found],
            ensure_ascii=False) + "\n")
        return 0
    if not found:
        sys.stdout.write(tr(lang, "league.no_evenings") + "\n")
    for e in found:
        fields = dict(evening=e.name, games=n_games(e.games), rule=rule_words(lang, e.rule))
        if e.charges():
            sys.stdout.write(tr(lang, "league.ledger_evening", **fields, settled=tr(
                lang, "league.settled" if e.settled else "league.open")) + "\n")
        else:   # no stake: the games and who lost them, nothing to settle
            sys.stdout.write(tr(lang, "league.ledger_evening_free", **fields) + "\n")
        for name, (cents, drinks) in sorted(e.owes.items()):
            lost = tr(lang, "league.lost_games", n=e.lost[name])
            if e.charges():
                sys.stdout.write("  %-20s %-12s %12s\n" % (name, lost, _what(lang, cents, drinks)))
            else:
                sys.stdout.write("  %-20s %s\n" % (name, lost))
    still = [(name, row[1], row[3]) for name, row in sorted(per_person(found).items()) if row[1] or row[3]]
    if still:   # what is open over every evening shown: what the scorekeeper collects
        sys.stdout.write(tr(lang, "league.still_open") + "\n")
        for name, cents, drinks in still:
            sys.stdout.write("  %-20s %12s\n" % (name, _what(lang, cents, drinks)))
    if found and not any(e.charges() for e in found):
        sys.stdout.write(tr(lang, "league.no_stake_set") + "\n")
    return 0


def _what(lang, cents, drinks):
    parts = ([money(lang, cents)] if cents or not drinks else []) + (
        [tr(lang, "league.drinks", n=drinks)] if drinks else [])
    return " + ".join(parts)


# The club's jobs, with their German names; commands/liga.py's JOBS lists them after its own.
JOBS = (
    Command("evening", "cli.league_evening", _evening_job, _evening_arguments, aliases=("abend",)),
    Command("season", "cli.league_season", _season_job, _season_arguments, aliases=("saison",)),
    Command("stake", "cli.league_stake", _stake_job, _stake_arguments, aliases=("einsatz",)),
    Command("ledger", "cli.league_ledger", _ledger_job, _ledger_arguments, aliases=("kasse",)),
)
