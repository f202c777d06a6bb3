"""`schocken liga luck` (German `glueck`): per person, the luck of his throws against the exact odds and the
Deckel his own decisions cost against the best play (league/luck/table.py; docs/odds.md, "Luck and
decisions"). Plain text or `--json`."""

import argparse
import json
import sys

from schocken_host.i18n import tr
from schocken_host.league import db
from schocken_host.league.evenings import season_range
from schocken_host.league.luck.table import league_luck, rarity
from schocken_host.odds.habits import PRIOR

# Against what every decision is judged (`--json`'s "opponent_model"; docs/odds.md, "Opponent model").
OPPONENT_MODEL = {"kind": "habits",
                  "learnt_from": "the others' turns revealed in the rounds before, same game",
                  "prior": "the whole table's habit, then keep_ones", "prior_decisions": PRIOR,
                  "holdings": "the Deckel in front of each where the middle is empty"}


RARE_CLASS = 10     # a class's count is marked when as rare as 1 in 10 or rarer


def arguments(job):
    """The job's own arguments (it is registered, as `luck` and `glueck`, in commands/liga.py's JOBS)."""
    job.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                     help="luck and decisions as JSON")
    job.add_argument("--season", default=argparse.SUPPRESS, metavar="NAME",
                     help="only this season's evenings (schocken liga season)")


def _number(lang, x, sign=False):
    text = ("%+.2f" if sign else "%.2f") % x
    return text.replace(".", ",") if lang != "en" else text


def _span(league, season):
    """(first, last) day of the season named (None, None: every game); CommandError for a season unknown."""
    return season_range(league, season) if season is not None else (None, None)


def run(lang, path, args):
    league = db.open_league(path, create=False)
    try:
        found = league_luck(league, *_span(league, getattr(args, "season", None)))
    finally:
        if league is not None:
            league.close()
    kinds = found.kinds()
    if getattr(args, "json", False):
        sys.stdout.write(json.dumps({"games": found.games, "opponent_model": OPPONENT_MODEL,
                                     "missing_logs": [log for _, log in found.missing],
                                     "players": [p.as_dict(kinds) for p in found.players]},
                                    ensure_ascii=False) + "\n")
        return 0
    write = sys.stdout.write
    write(tr(lang, "luck.games_1" if found.games == 1 else "luck.games", n=found.games, path=path) + "\n")
    if found.missing:
        write(tr(lang, "luck.missing", n=len(found.missing), log=found.missing[0][1]) + "\n")
    width = max([12] + [len(p.player) for p in found.players])
    col = [tr(lang, "luck.col_" + c) for c in ("player", "throws", "luck", "rare", "decisions", "mistakes",
                                                "cost")]
    write("%-*s %6s %7s  %-24s %8s %7s %8s\n" % (width, *col))
    for p in found.players:
        t = p.tally
        rare = (rarity(lang, t.luck >= 0, p.one_in) if t.throws
                else tr(lang, "luck.none"))
        write("%-*s %6d %7s  %-24s %8d %7d %8s\n" % (width, p.player, t.throws, _number(lang, t.luck, True),
                                                    rare, t.decisions, t.mistakes, _number(lang, t.cost)))
    if found.players:
        write(tr(lang, "luck.classes") + "\n")
        for p in found.players:
            parts = []
            for k in kinds:
                thrown, expected = p.tally.classes.get(k, [0, 0.0])
                more, _, one_in = p.class_rarity(k)
                rare = ", " + tr(lang, "luck.class_rare", n=one_in if one_in else ">10⁹") if (
                    one_in is None or one_in >= RARE_CLASS) else ""
                parts.append("%s %d (%s%s)" % (tr(lang, "odds.kind_" + k), thrown, _number(lang, expected),
                                               rare))
            write("%-*s %s\n" % (width, p.player, "  ".join(parts)))
        write(tr(lang, "luck.explain") + "\n")
        write(tr(lang, "luck.model", prior=PRIOR) + "\n")
    return 0


def add_plot_option(p):
    p.add_argument("--plot", default=None, metavar="FILE.svg|png",
                   help="the standings, the Deckel over the evenings and the luck as a picture (needs "
                        "matplotlib: the extra [plot])")


def plot(lang, path, target, season_name=None):
    """`schocken liga [--season S] --plot FILE`: the league's picture (league/plot.py)."""
    from schocken_host.league.plot import check_target, draw, figure_class, season_of
    target = check_target(target)
    figure_class()     # no matplotlib: said before the league is read
    league = db.open_league(path, create=False)
    try:
        season = season_of(league, *_span(league, season_name))
    finally:
        if league is not None:
            league.close()
    draw(season, target, lang)
    sys.stdout.write(tr(lang, "luck.plot_written", path=target) + "\n")
    return 0
