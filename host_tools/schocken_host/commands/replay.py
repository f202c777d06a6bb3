"""`schocken replay LOG [--json]`: recompute a logged game with the rules package and print its standings."""

import json
import sys
from pathlib import Path

from schocken_host.errors import CommandError
from schocken_host.i18n import os_reason, tr
from schocken_host.table.gamelog import check_readable
from schocken_host.table.replay import Replay
from schocken_host.table.state import TableState

PHASES = ("setup", "throw_off", "half1", "half2", "final", "over")


def read_bytes(path):
    """A log's bytes; every way it cannot be read is a CommandError naming the file, in the words every verb
    that reads a log uses."""
    check_readable(path)
    try:
        return Path(path).read_bytes()
    except OSError as e:
        raise CommandError("input.unreadable", path=path, error=os_reason(e))


def replay(path):
    """A log -> TableState, every game-changing event recomputed (table/replay.py); CommandError names the
    first line refused. ``torn``: the number of a torn last line, else None."""
    state = TableState()

    def apply(ev):
        if not state.events and ev["ev"] != "start":
            raise CommandError("replay.no_start", path=path)
        state.apply(ev)
    done = Replay(state, apply).log(read_bytes(path))
    if done.refused is not None:
        raise CommandError("gamelog.bad_line", path=path, line=done.refused[0], error=done.refused[1])
    if not state.events:
        raise CommandError("replay.no_start", path=path)
    state.torn = done.torn
    return state


def add_arguments(p):
    p.add_argument("log", help="a game log (.jsonl)")
    p.add_argument("--json", action="store_true", help="the final state as JSON (docs/gamelog.md)")


def run(args):
    state = replay(args.log)
    standings = state.standings()
    lang = getattr(args, "lang", "de")
    if state.torn is not None:  # on standard error: --json stays JSON
        sys.stderr.write("schocken: %s\n" % tr(lang, "replay.incomplete", path=args.log, line=state.torn))
    if args.json:
        sys.stdout.write(json.dumps(standings, ensure_ascii=False) + "\n")
        return 0
    for line in standings_lines(state, lang):
        sys.stdout.write(line + "\n")
    return 0


def standings_lines(state, lang):
    """The standings of a game (a TableState) as `replay` prints them, and `play` at its end: the game, each
    player's Deckel, the middle, who lost which half and the game."""
    standings = state.standings()
    phase = tr(lang, "board." + standings["phase"]) if standings["phase"] in PHASES else standings["phase"]
    rounds = standings["rounds"]
    lines = [tr(lang, "replay.game", game_id=standings["game_id"], rules=standings["rules"]["preset"],
                phase=phase,
                rounds=tr(lang, "replay.rounds_1" if rounds == 1 else "replay.rounds", n=rounds))]
    width = max([16] + [len(p["name"]) for p in standings["players"]])
    for p in standings["players"]:
        lines.append("  %-*s %s%s" % (width, p["name"], tr(lang, "replay.deckel", n="%2d" % p["deckel"]),
                                     "  (!) " + p["flagged"] if p["flagged"] else ""))
    lines.append("  %s" % tr(lang, "replay.middle", n=standings["middle"]))
    for i, s in enumerate(standings["half_losers"]):
        lines.append("  %s" % tr(lang, "replay.half_lost", n=i + 1, name=state.name(s)))
    if standings["loser"] is not None:
        blatt = tr(lang, "plain.blatt") if standings["blattschuss"] else ""
        lines.append("  %s" % tr(lang, "replay.lost", name=state.name(standings["loser"]), blatt=blatt))
    return lines
