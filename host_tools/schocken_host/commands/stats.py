"""`schocken stats`: the logged games summed up per player, recomputed with the rules package."""

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


def stats(paths):
    """Per player name: games, halves lost, finals lost, games lost, Schock-Aus thrown, Deckel taken. A
    default name counts as one player whatever the language of its game ("Player 4" of older English logs is
    "Spieler 4": table/seating.py, canonical_name). A log the rules refuse at a line counts for what it had
    before that line, and not as a game (table/replay.py)."""
    table = {}
    games = 0
    for path in paths:
        try:
            data = read_bytes(path)
        except CommandError:
            continue  # not a log (any more): the others still count
        state = TableState()

        def count(ev, state=state):
            phase = state.phase()
            state.apply(ev)
            # Halves lost from the rules, not from the half_lost events: a host that died right after a
            # round never wrote its half_lost (the resumed host goes on in the next half).
            lost = state.half_loser_since(phase)
            if lost is not None:
                table[_who(state, lost)]["finals_lost" if phase == "final" else "halves_lost"] += 1
            if ev["ev"] == "start":
                for p in ev["players"]:
                    table.setdefault(canonical_name(p["name"]), {
                        "games": 0, "halves_lost": 0, "finals_lost": 0, "games_lost": 0, "schock_aus": 0,
                        "deckel_taken": 0})["games"] += 1
            elif ev["ev"] == "reveal" and ev.get("kind") == "schock_aus":
                table[_who(state, ev["seat"])]["schock_aus"] += 1
            elif ev["ev"] == "round":
                taken = sum(m[1] for m in ev["moves"])
                table[_who(state, ev["worst"])]["deckel_taken"] += taken
            elif ev["ev"] == "game_over":
                table[_who(state, ev["loser"])]["games_lost"] += 1
        done = replay(data, state, count)
        if state.events and done.refused is None:  # a log a failed start left empty is no game
            games += 1
    return games, table


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
    games, table = stats(paths)
    if args.json:
        sys.stdout.write(json.dumps({"games": games, "players": table}, ensure_ascii=False) + "\n")
        return 0
    lang = getattr(args, "lang", "de")
    games_text = tr(lang, "stats.games_1" if games == 1 else "stats.games", n=games, folder=directory)
    sys.stdout.write(games_text + "\n")
    columns = ("player", "games_col", "halves", "finals", "lost")
    head = tuple(tr(lang, "stats." + column) for column in columns) + ("Schock-Aus", "Deckel")
    sys.stdout.write("%-16s %6s %8s %7s %9s %10s %7s\n" % head)
    for name in sorted(table):
        r = table[name]
        sys.stdout.write("%-16s %6d %8d %7d %9d %10d %7d\n"
                         % (name, r["games"], r["halves_lost"], r["finals_lost"], r["games_lost"],
                            r["schock_aus"], r["deckel_taken"]))
    return 0

