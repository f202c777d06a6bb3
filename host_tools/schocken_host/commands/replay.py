"""`schocken replay LOG [--json]` and `schocken stats`: recompute logged games with the rules package."""

import json
import sys


from schocken_host.table.state import TableState, LogError
from schocken_host.errors import CommandError
from schocken_host.table.gamelog import read_log


def replay(path):
    """A log -> TableState, every game-changing event recomputed; CommandError names the first bad line."""
    events = read_log(path)
    if not events or events[0][1].get("ev") != "start":
        raise CommandError("%s: a game log starts with a start event" % path)
    state = TableState()
    for n, ev in events:
        try:
            state.apply(ev)
        except LogError as e:
            raise CommandError("%s line %d: %s" % (path, n, e))
    return state


def add_arguments(p):
    p.add_argument("log", help="a game log (.jsonl)")
    p.add_argument("--json", action="store_true", help="the final state as JSON (docs/gamelog.md)")


def run(args):
    state = replay(args.log)
    standings = state.standings()
    if args.json:
        sys.stdout.write(json.dumps(standings, ensure_ascii=False) + "\n")
        return 0
    de = getattr(args, "lang", "de") != "en"
    out = sys.stdout
    out.write(("Spiel %s, Regeln %s, %s, %d Runden\n" if de else "Game %s, rules %s, %s, %d rounds\n")
              % (standings["game_id"], standings["rules"]["preset"], standings["phase"], standings["rounds"]))
    for p in standings["players"]:
        out.write("  %-16s %2d Deckel%s\n" % (p["name"], p["deckel"], "  (!) " + p["flagged"] if p["flagged"] else ""))
    out.write(("  Mitte: %d\n" if de else "  middle: %d\n") % standings["middle"])
    for i, s in enumerate(standings["half_losers"]):
        out.write(("  %d. Hälfte verloren: %s\n" if de else "  lost half %d: %s\n") % (i + 1, state.name(s)))
    if standings["loser"] is not None:
        out.write(("  Verloren: %s%s\n" if de else "  Lost: %s%s\n")
                  % (state.name(standings["loser"]), " (Blattschuss)" if standings["blattschuss"] else ""))
    return 0


