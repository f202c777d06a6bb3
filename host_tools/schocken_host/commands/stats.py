"""`schocken stats`: the logged games summed up per player, recomputed with the rules package; a game is what
the league takes for one (docs/league.md): a game the rules have decided."""

import json
import sys
from pathlib import Path

from schocken_host.commands.replay import read_bytes
from schocken_host.errors import CommandError
from schocken_host.i18n import tr
from schocken_host.table import gamelog
from schocken_host.table.replay import replay
from schocken_host.table.seating import canonical_name
from schocken_host.table.state import TableState


def _who(state, seat):
    return canonical_name(state.name(seat))


ROW = ("games", "halves_lost", "finals_lost", "games_lost", "schock_aus", "deckel_taken")


def _count(data):
    """One log's figures per player name, or (None, why) when it is no finished game: "unfinished" (no
    result: the game was quit, its host died, an empty log) or "refused" (the rules refuse a line of it)."""
    state = TableState()
    table = {}

    def count(ev):
        phase = state.phase()
        state.apply(ev)
        # Halves lost from the rules, not from the half_lost events: a host that died right after a round
        # never wrote its half_lost (the resumed host goes on in the next half).
        lost = state.half_loser_since(phase)
        if lost is not None:
            table[_who(state, lost)]["finals_lost" if phase == "final" else "halves_lost"] += 1
        if ev["ev"] == "start":
            for p in ev["players"]:
                table.setdefault(canonical_name(p["name"]), dict.fromkeys(ROW, 0))["games"] += 1
        elif ev["ev"] == "reveal" and ev.get("kind") == "schock_aus":
            table[_who(state, ev["seat"])]["schock_aus"] += 1
        elif ev["ev"] == "round":
            table[_who(state, ev["worst"])]["deckel_taken"] += sum(m[1] for m in ev["moves"])
    done = replay(data, state, count)
    if done.refused is not None:
        return None, "refused"
    if not state.over:
        return None, "unfinished"
    # The loser as the rules decided it: a host that died after the last round, before writing game_over,
    # left a decided game (as the league reads it).
    table[_who(state, state.loser)]["games_lost"] += 1
    return table, None


def stats(paths):
    """(games, {player name: games, halves lost, finals lost, games lost, Schock-Aus thrown, Deckel taken},
    {"unfinished": n, "refused": n}). A game counts when the rules have decided it, as in the league
    (docs/league.md): a game that was quit or whose host died before its end (no result), and a log the
    rules refuse at a line, count nothing and are counted apart. A default name counts as one player
    whatever the language of its game ("Player 4" of older English logs is "Spieler 4": table/seating.py,
    canonical_name)."""
    table = {}
    games = 0
    left_out = {"unfinished": 0, "refused": 0}
    for path in paths:
        try:
            data = read_bytes(path)
        except CommandError:
            continue  # not a log (any more): the others still count
        figures, why = _count(data)
        if figures is None:
            left_out[why] += 1
            continue
        games += 1
        for name, row in figures.items():
            total = table.setdefault(name, dict.fromkeys(ROW, 0))
            for key, n in row.items():
                total[key] += n
    return games, table, left_out


def add_arguments(p):
    p.add_argument("--log-dir", default=None, help="folder of game logs (default: the user data directory)")
    p.add_argument("--json", action="store_true")


def run(args):
    directory = Path(args.log_dir) if args.log_dir else gamelog.log_dir()
    # A typo would read as "0 games"; only the default folder may not exist yet (no game played so far).
    if directory.exists() and not directory.is_dir():
        raise CommandError("stats.not_a_folder", folder=directory)
    if args.log_dir and not directory.exists():
        raise CommandError("stats.no_such_folder", folder=args.log_dir)
    paths = sorted(directory.glob("*.jsonl"))
    games, table, left_out = stats(paths)
    if args.json:
        out = {"games": games, **left_out, "players": table}
        sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
        return 0
    lang = getattr(args, "lang", "de")
    games_text = tr(lang, "stats.games_1" if games == 1 else "stats.games", n=games, folder=directory)
    sys.stdout.write(games_text + "\n")
    if any(left_out.values()):
        sys.stdout.write(tr(lang, "stats.left_out", **left_out) + "\n")
    columns = ("player", "games_col", "halves", "finals", "lost")
    head = tuple(tr(lang, "stats." + column) for column in columns) + ("Schock-Aus", "Deckel")
    sys.stdout.write("%-16s %6s %8s %7s %9s %10s %7s\n" % head)
    for name in sorted(table):
        r = table[name]
        sys.stdout.write("%-16s %6d %8d %7d %9d %10d %7d\n"
                         % (name, r["games"], r["halves_lost"], r["finals_lost"], r["games_lost"],
                            r["schock_aus"], r["deckel_taken"]))
    return 0

