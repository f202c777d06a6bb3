"""Bot game bench: wall time of full default bot games at human speed and in scaled time (--time-scale).

    .venv/bin/python bench/botgame.py [--scales 1,50] [--games 1,10] [--cups 4] [--deckel 13]

For each time scale K (with the number of games given at the same position of --games) full games run one
after the other through a GameSession (the code of `schocken play --emulate 4 --strategy fast
--time-scale K`: standard rules, 13 Deckel, fair play, authenticated links, a game log): 4 emulated cups on
the MicroPython unix port, all played by bots. Prints each game (seconds, rounds, seconds per round) and per K
the median and max seconds per game. Wall time from starting the cups to the last one closed. A bot that
waited in vain (an input without its effect: it waits 10 s, then looks again) is printed under its game.
"""

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from schocken.rules import Rules

from schocken_host.pace import Pace
from schocken_host.table import seating
from schocken_host.table.session import GameConfig, GameSession
from schocken_host.table.view import View


class CountedBot(seating.Bot):
    """The seats' Bot (table/seating.py), kept in a list: a game's waits in vain (bot.errors) are printed
    with it."""
    made = []

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        CountedBot.made.append(self)


class QuietUI(View):
    def note(self, text):
        pass

    def update(self, state, ev):
        pass


def one_game(scale, cups, deckel, log_dir):
    config = GameConfig(emulate=cups, strategy="fast", rules=Rules("standard", deckel_total=deckel),
                        pace=Pace(time_scale=scale), log_dir=Path(log_dir))
    CountedBot.made = []
    start = time.perf_counter()
    state = asyncio.run(GameSession(config).run(QuietUI))
    return time.perf_counter() - start, state, [e for b in CountedBot.made for e in b.errors]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scales", default="1,50")
    ap.add_argument("--games", default="1,10", help="games per time scale, in the order of --scales")
    ap.add_argument("--cups", type=int, default=4)
    ap.add_argument("--deckel", type=int, default=13)
    a = ap.parse_args(argv)
    seating.Bot = CountedBot
    scales = [int(s) for s in a.scales.split(",")]
    games = [int(g) for g in a.games.split(",")]
    games += [games[-1]] * (len(scales) - len(games))
    print("  K  game  seconds  rounds  s/round")
    summary = []
    with tempfile.TemporaryDirectory() as tmp:
        for scale, n in zip(scales, games):
            times = []
            for g in range(n):
                secs, st, errors = one_game(scale, a.cups, a.deckel, Path(tmp) / ("%d-%d" % (scale, g)))
                rounds = st.game.rounds if st.over else 0
                times.append(secs)
                print("%3d  %4d  %7.2f  %6d  %7.3f%s%s" % (scale, g + 1, secs, rounds, secs / max(rounds, 1),
                                                           "" if st.over else "  (not over!)",
                                                           "".join("\n     %s" % e for e in errors)),
                      flush=True)
            summary.append((scale, n, statistics.median(times), max(times)))
    print()
    print("  K  games  median s/game  max s/game")
    for scale, n, med, top in summary:
        print("%3d  %5d  %13.2f  %10.2f" % (scale, n, med, top))


if __name__ == "__main__":
    sys.exit(main())
