"""Strategy bench: the Deckel the `optimal` strategy takes per round against the existing strategies.

    .venv/bin/python bench/strategy.py                  # 10,000 rounds per preset and strategy, 4 players
    .venv/bin/python bench/strategy.py --rounds 2000 --presets standard

For each preset and each existing strategy X (``schock``, ``general``, ``fast`` of table/bots.py) two
tables play the same seeded rounds (round r draws its dice from ``random.Random(seed * 1,000,003 + r)``): one
where every seat plays X, one where the seat under test plays ``optimal`` and the others X. The seat under
test moves round by round through the positions (round r: position r mod players; position 0 opens). Each
turn is ``schocken.sim.play_turn`` (the real ``Turn`` engine), each round ranked by
``schocken.ranking.rank_round``; the loser takes what the best throw is worth (a Schock-Aus:
``deckel_total``). The figure is the Deckel the seat under test takes per round, with a 95 % confidence
interval (mean ± 1.96 standard errors), and the difference optimal − X paired by round (same seed), also
with its 95 % interval.

The optimal seat sees what a bot sees at the table: of each seat before it the dice lying open, the throws
used and whether it stood before its limit (odds.best.SeatView).
"""

import argparse
import math
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "host_tools"), os.path.join(ROOT, "firmware", "lib")]

from schocken.ranking import rank_round  # noqa: E402
from schocken.rules import PRESETS, Rules  # noqa: E402
from schocken.sim import play_turn  # noqa: E402

from schocken_host.odds.best import Optimal, SeatView, context_for, warm  # noqa: E402
from schocken_host.odds.best import _CACHE as context_cache_dict  # noqa: E402
from schocken_host.odds.model import worth  # noqa: E402
from schocken_host.table.bots import STRATEGIES  # noqa: E402

SEED = 20261201
BASELINES = ("schock", "general", "fast")
TIMES = {"new": [], "seen": []}   # seconds per decision of the optimal seat: in a new context, in a known one


class Timed(Optimal):
    """Optimal, with the time of every decision recorded (the context's making counted in the first)."""

    def __init__(self, make):
        t0 = time.perf_counter()
        before = len(context_cache())
        Optimal.__init__(self, make())
        self.first = time.perf_counter() - t0
        self.kind = "new" if len(context_cache()) != before else "seen"

    def __call__(self, turn):
        t0 = time.perf_counter()
        stand = Optimal.__call__(self, turn)
        TIMES[self.kind].append(time.perf_counter() - t0 + self.first)
        self.first, self.kind = 0.0, "seen"
        return stand


def context_cache():
    return context_cache_dict


def play_round(rules, players, rng, baseline, tested, optimal):
    """One round; returns the Deckel the seat at position ``tested`` takes."""
    views, entries, limit = [], [], None
    for pos in range(players):
        own = rules.max_throws if pos == 0 else limit
        strategy = STRATEGIES[baseline]
        if optimal and pos == tested:
            strategy = Timed(lambda: context_for(rules, views, players - pos - 1, own, pos == 0))
        turn = play_turn(rules, limit, rng, strategy)
        if pos == 0:
            limit = turn.throws_used
        views.append((SeatView.after(turn, own), own))
        entries.append((turn.dice(), turn.throws_used, turn.hand()))
    result = rank_round(rules, entries)
    return worth(result.results[result.best], rules) if result.worst == tested else 0


def interval(values):
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def compare(rules, players, rounds, baseline, seed=SEED):
    plain, best = [], []
    for r in range(rounds):
        tested = r % players
        plain.append(play_round(rules, players, random.Random(seed * 1000003 + r), baseline, tested, False))
        best.append(play_round(rules, players, random.Random(seed * 1000003 + r), baseline, tested, True))
    return interval(best), interval(plain), interval([b - p for b, p in zip(best, plain)])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=10000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    print("%d rounds per row, %d players, seed %d" % (args.rounds, args.players, args.seed))
    print("| preset | against | optimal takes | the other takes | optimal − other | seconds |")
    print("|---|---|---:|---:|---:|---:|")
    failed = False
    for name in args.presets.split(","):
        rules = Rules(name)
        t0 = time.perf_counter()
        warm(rules)
        print("| %s | (tables made: %.0f ms) | | | | |" % (name, 1000 * (time.perf_counter() - t0)))
        for baseline in BASELINES:
            t0 = time.perf_counter()
            (b, bw), (p, pw), (d, dw) = compare(rules, args.players, args.rounds, baseline, args.seed)
            failed |= not b < p
            print("| %s | %s | %.4f ± %.4f | %.4f ± %.4f | %+.4f ± %.4f | %.0f |"
                  % (name, baseline, b, bw, p, pw, d, dw, time.perf_counter() - t0), flush=True)
    for kind, values in TIMES.items():
        if values:
            values.sort()
            n = len(values)
            print("decisions in a %s context: %d, median %.3f ms, 99th percentile %.3f ms, max %.3f ms"
                  % (kind, n, 1000 * values[n // 2], 1000 * values[n * 99 // 100], 1000 * values[-1]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
