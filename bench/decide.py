"""Decision-time bench: how long the `optimal` bots take per decision, in whole seeded games.

    .venv/bin/python bench/decide.py                       # 100 games of 4 per preset, every seat optimal
    .venv/bin/python bench/decide.py --games 20 --presets standard

Before the games the tables every context shares are made (``odds.best.warm``, as `schocken play` does at the
table's set-up: ``Table.warm``), then the collector's objects are frozen (as `play` does). Each game: a
throw-off, then rounds until the game is over (``schocken.game.Game``), every seat played by ``Optimal`` in
the context the table shows it (of each seat before it the open dice, its throws, whether it stood early; the
players after it, its limit, the Deckel in the middle: what ``table/coach.public_context`` builds from a
TableState). Game g draws its dice from ``random.Random(seed * 1,000,003 + g)``.

A decision is what a bot does after each throw: find its round's context (``odds.best.context_for``: made now
when new, else looked up) and decide on its turn (``Optimal``). Each is timed with ``time.perf_counter`` and
counted as "new" when its context was made for it, "known" otherwise. Printed: per preset and kind the number
of decisions, the median, the 99th percentile and the maximum in milliseconds, of the wall-clock time and of
the thread's CPU time (``time.thread_time``: the work itself, without the time another process had the core
on a shared machine).
"""

import argparse
import gc
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "host_tools"), os.path.join(ROOT, "firmware", "lib")]

from schocken.game import Game  # noqa: E402
from schocken.rules import PRESETS, Rules  # noqa: E402
from schocken.turn import Turn  # noqa: E402

from schocken_host.odds.best import _CACHE, Optimal, SeatView, context_for, warm  # noqa: E402

SEED = 20261201


def play_game(rules, players, rng, times):
    """One whole game; every decision's seconds appended to times["new"] or times["known"]."""
    game = Game(rules, ["P%d" % i for i in range(players)])
    while game.throw_off([[rng.randint(1, 6) for _ in range(3)] for _ in game.throw_off_seats]) is None:
        pass
    while game.phase != "over":
        order = game.order()
        views, entries, limit = [], [], None
        stake = game.half.middle or None if game.half else None
        for pos in range(len(order)):
            own = rules.max_throws if pos == 0 else limit
            turn = Turn(rules, None if pos == 0 else limit)
            while True:
                turn.roll([rng.randint(1, 6) for _ in turn.in_cup()])
                t0, c0 = time.perf_counter(), time.thread_time()
                before = len(_CACHE)
                context = context_for(rules, views, len(order) - pos - 1, turn.limit, pos == 0, stake)
                kind = "new" if len(_CACHE) != before else "known"
                stand = Optimal(context)(turn)
                times[kind].append((time.perf_counter() - t0, time.thread_time() - c0))
                if stand:
                    break
            turn.stand()
            if pos == 0:
                limit = turn.throws_used
            views.append((SeatView.after(turn, own), own))
            entries.append((turn.dice(), turn.throws_used, turn.hand()))
        game.play_round(entries)


def summary(pairs):
    out = []
    for what, values in (("wall", [w for w, _ in pairs]), ("cpu", [c for _, c in pairs])):
        values = sorted(values)
        n = len(values)
        out.append("%s median %.3f ms, p99 %.3f ms, max %.3f ms" % (
            what, 1000 * values[n // 2], 1000 * values[min(n - 1, n * 99 // 100)], 1000 * values[-1]))
    return "%d decisions; %s" % (len(pairs), "; ".join(out))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    print("%d games of %d per preset, seed %d, Python %s" % (args.games, args.players, args.seed,
                                                             sys.version.split()[0]))
    every = {"new": [], "known": []}
    for name in args.presets.split(","):
        rules = Rules(name)
        t0 = time.perf_counter()
        warm(rules)
        made = time.perf_counter() - t0
        gc.collect()
        gc.freeze()
        times = {"new": [], "known": []}
        for g in range(args.games):
            play_game(rules, args.players, random.Random(args.seed * 1000003 + g), times)
        gc.unfreeze()
        print("%s (tables made in %.0f ms)" % (name, 1000 * made))
        for kind in ("new", "known"):
            print("  %s context: %s" % (kind, summary(times[kind])), flush=True)
            every[kind] += times[kind]
    for kind in ("new", "known"):
        print("all presets, %s context: %s" % (kind, summary(every[kind])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
