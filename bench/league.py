"""League bench: the import of many finished games into the league's database and the standings over them.

    .venv/bin/python bench/league.py [--games 1000] [--people 24] [--seed 1]

The games are the whole recorded bot games of tests/data (one of 4 seats, one of 8, 385 and 534 log lines),
each written as a game of its own: its own game id, its seats named from a club of --people names (seeded),
so the standings group by people as a club's would. They are imported as `schocken liga import` does
(league/logs.py: every log replayed through the rules, in a pool of one process per core from
logs.POOL_FROM logs on, one transaction per game written in this process). Prints the import's wall time and
time per game and its CPU (this process's and the pool's, a figure the machine's load moves less); the same
import in one process (--no-serial: not measured) and the replay alone in one process, the part of an import
the pool shares out; the time of an import of the same folder again (every game already there), the
standings' time and CPU (best of 20), those of a season of half the evenings, and the database's size per
game.
"""

import argparse
import json
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

from schocken_host.league import db
from schocken_host.league.games import read_game
from schocken_host.league import logs as logs_module
from schocken_host.league.logs import game_logs, import_logs
from schocken_host.league.standings import standings

RECORDED = sorted((Path(__file__).resolve().parents[1] / "tests" / "data").glob("*.jsonl"))
# The games are a year of a club's evenings: one a week, from 2026-01-02 19:00 UTC on.
EVENINGS = 52
FIRST_EVENING = 1767380400


def make_logs(folder, games, people, seed):
    rng = random.Random(seed)
    club = ["Person %02d" % i for i in range(people)]
    templates = [p.read_text(encoding="utf-8").splitlines(keepends=True) for p in RECORDED]
    per_evening = -(-games // EVENINGS)
    for i in range(games):
        lines = list(templates[i % len(templates)])
        start = json.loads(lines[0])
        start["game_id"] = "%012x" % (0xb0000000 + i)
        start["ts"] = FIRST_EVENING + (i // per_evening) * 7 * 86400 + (i % per_evening) * 60
        for player, name in zip(start["players"], rng.sample(club, len(start["players"]))):
            player["name"] = name
        lines[0] = json.dumps(start, separators=(",", ":"), ensure_ascii=False) + "\n"
        (folder / ("20260101-%06d-1.jsonl" % i)).write_text("".join(lines), encoding="utf-8")


def _cpu():
    """CPU seconds of this process and of its children ended so far (the pool's, once it is shut)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _best(call, times=20):
    """(wall, CPU) seconds of the fastest of ``times`` calls, each the fastest of its kind."""
    wall = cpu = float("inf")
    for _ in range(times):
        t, c = time.perf_counter(), time.process_time()
        call()
        wall, cpu = min(wall, time.perf_counter() - t), min(cpu, time.process_time() - c)
    return wall, cpu


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--people", type=int, default=24)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--no-serial", dest="serial", action="store_false",
                   help="measure only the import as liga import does it (in a pool of processes)")
    args = p.parse_args(argv)
    if args.people < 8:
        p.error("--people: at least 8 (a recorded game has 8 seats)")
    with tempfile.TemporaryDirectory() as tmp:
        logs, path = Path(tmp) / "logs", Path(tmp) / "league.sqlite3"
        logs.mkdir()
        make_logs(logs, args.games, args.people, args.seed)
        paths = game_logs([logs])

        reading = serial = None
        if args.serial:
            t = time.perf_counter()
            for log in paths:
                read_game(log.read_bytes())
            reading = time.perf_counter() - t
            one = db.open_league(Path(tmp) / "serial.sqlite3")
            pool_from, logs_module.POOL_FROM = logs_module.POOL_FROM, args.games + 1
            t = time.perf_counter()
            tally = import_logs(one, paths)
            serial = time.perf_counter() - t
            logs_module.POOL_FROM = pool_from
            one.close()
            assert tally.imported == args.games and not tally.refused, tally

        league = db.open_league(path)
        t, cpu = time.perf_counter(), _cpu()
        tally = import_logs(league, paths)
        imported, cpu = time.perf_counter() - t, _cpu() - cpu
        assert tally.imported == args.games and not tally.refused, tally
        t = time.perf_counter()
        again = import_logs(league, paths)
        second = time.perf_counter() - t
        assert again.already == args.games, again

        whole = _best(lambda: standings(league))
        games, rows = standings(league)
        assert games == args.games and len(rows) == args.people
        days = [row[0] for row in league.read("SELECT DISTINCT day FROM games ORDER BY day")]
        half = days[len(days) // 2]
        season = _best(lambda: standings(league, days[0], half))
        league.close()
        size = path.stat().st_size

    n = args.games
    print("games                    %d (people %d)" % (n, args.people))
    print("import                   %.1f s, %.2f ms per game (the replay in %d processes)"
          % (imported, 1000 * imported / n, logs_module.cores() if n >= logs_module.POOL_FROM else 1))
    print("  its CPU                %.1f s, %.2f ms per game (the importing process and the pool's)"
          % (cpu, 1000 * cpu / n))
    if serial is not None:
        print("import in one process    %.1f s, %.2f ms per game" % (serial, 1000 * serial / n))
        print("  of it the replay       %.1f s, %.2f ms per game (the logs through the rules)"
              % (reading, 1000 * reading / n))
    print("import again (all there) %.2f s, %.3f ms per game" % (second, 1000 * second / n))
    print("standings                %.1f ms, CPU %.1f ms (best of 20)" % (1000 * whole[0], 1000 * whole[1]))
    print("standings of a season    %.1f ms, CPU %.1f ms (best of 20; %d of %d evenings' days)"
          % (1000 * season[0], 1000 * season[1], days.index(half) + 1, len(days)))
    print("database                 %d bytes, %.0f bytes per game" % (size, size / n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
