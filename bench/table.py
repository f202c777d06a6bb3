"""Table bench: the host referee with 4 to 32 emulated cups (MicroPython), bots with the fast strategy.

    .venv/bin/python bench/table.py                          # 4, 8 and 16 cups, one game each, seed 1
    .venv/bin/python bench/table.py --sizes 16 --runs 10     # ten games at 16 cups (seeds 1..10)
    .venv/bin/python bench/table.py --sizes 24,32            # the large tables

For each game (one full game through a GameSession, the code of `schocken play`) it prints:
- event latency: from the moment the link's reader thread has read and decoded a cup's line (progress, done,
  revealed) to the moment the referee has finished with the event made from it: applied to the TableState,
  written to the fsynced game log and shown by the view of `--plain` (writing into memory); median, p99 and
  max in ms over all events, and the p99 of the reveals alone;
- the wall time of the whole game (cups started, throw-off, every round, game over) and the rounds played.
With ``--runs N`` every size plays N games (seeds ``--seed`` to ``--seed``+N-1) and a summary line says in
how many the p99 met ``--aim`` (10 ms).

No host module is changed for this: the bench wraps `SerialLink._put` (stamps `_rx` into the decoded message
dict, a key the referee never copies into an event), `CupLinks.wait_for` and `CupLinks._progress` (to know
which message an event came from) and `EventSink.emit`, in this process. Tables of 16 cups and more play with
``--deckel-large`` Deckel in the middle (default 5) to keep a game short; the others with ``--deckel`` (13,
the rules' default).
"""

import argparse
import asyncio
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

from schocken.rules import Rules

from schocken_host.links.serial import SerialLink
from schocken_host.table.cuplinks import CupLinks
from schocken_host.table.session import GameConfig, GameSession
from schocken_host.table.sink import EventSink
from schocken_host.views.plain import PlainUI

_put = SerialLink._put


def put(self, item):
    if isinstance(item, dict):
        item["_rx"] = time.perf_counter()
    _put(self, item)


_emit = EventSink.emit
_wait_for = CupLinks.wait_for
_progress = CupLinks._progress
latencies = []      # (event kind, s from the line read to the event applied, logged and shown)
accepted = {}       # seat -> the message its last wait took (done, revealed)


async def wait_for(self, seat_no, accept, fresh=True):
    def taking(item):
        got = accept(item)
        if got is not None:
            accepted[seat_no] = item
        return got
    return await _wait_for(self, seat_no, taking, fresh)


def progress(self, seat_no, msg):
    accepted[seat_no] = msg   # the pump emits progress from the message it just took
    _progress(self, seat_no, msg)


def emit(self, ev):
    kind, source = ev["ev"], None
    if kind in ("progress", "done", "reveal"):
        source = accepted.get(ev["seat"])
    state = _emit(self, ev)
    if isinstance(source, dict) and "_rx" in source:
        latencies.append((kind, time.perf_counter() - source.pop("_rx")))
    return state


def plain_view():
    """The view of `schocken play --plain` (a line per event), writing into memory."""
    return PlainUI("de", out=io.StringIO())


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def print_summary(cups, aim, p99s):
    """One line per table size: in how many games the p99 met the aim (bench/web.py prints the same)."""
    print("%4d cups: p99 <= %g ms in %d of %d games; p99 %.2f .. %.2f ms"
          % (cups, aim, sum(p <= aim for p in p99s), len(p99s), min(p99s), max(p99s)), flush=True)


def run(cups, deckel, seed, log_dir):
    config = GameConfig(emulate=cups, strategy="fast", seed=seed, fair=False,
                        rules=Rules("standard", deckel_total=deckel), log_dir=Path(log_dir))
    latencies.clear()
    start = time.perf_counter()
    state = asyncio.run(GameSession(config).run(plain_view))
    wall = time.perf_counter() - start
    every = [x * 1000 for _, x in latencies]
    reveals = [x * 1000 for kind, x in latencies if kind == "reveal"]
    return {"cups": cups, "seed": seed, "deckel": deckel, "wall_s": wall, "rounds": state.game.rounds,
            "over": state.over, "events": len(every), "median_ms": statistics.median(every),
            "p99_ms": pct(every, 99), "max_ms": max(every),
            "reveal_p99_ms": pct(reveals, 99) if reveals else 0}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="4,8,16", help="table sizes, comma separated (at most 32 cups)")
    ap.add_argument("--runs", type=int, default=1, help="games per size, seeds --seed, --seed+1, ...")
    ap.add_argument("--deckel", type=int, default=13, help="Deckel in the middle below 16 cups")
    ap.add_argument("--deckel-large", type=int, default=5, help="Deckel in the middle from 16 cups on")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--aim", type=float, default=10.0, help="p99 aim in ms for the summary")
    a = ap.parse_args(argv)
    SerialLink._put = put
    EventSink.emit = emit
    CupLinks.wait_for = wait_for
    CupLinks._progress = progress
    print("cups  seed  Deckel  rounds  events  median     p99        max        reveal p99  game wall time")
    with tempfile.TemporaryDirectory() as tmp:
        for cups in (int(s) for s in a.sizes.split(",")):
            p99s = []
            for seed in range(a.seed, a.seed + a.runs):
                deckel = a.deckel_large if cups >= 16 else a.deckel
                r = run(cups, deckel, seed, Path(tmp) / ("%d-%d" % (cups, seed)))
                p99s.append(r["p99_ms"])
                print("%4d  %4d  %6d  %6d  %6d  %6.2f ms  %7.2f ms  %7.2f ms  %7.2f ms  %7.1f s%s"
                      % (r["cups"], r["seed"], r["deckel"], r["rounds"], r["events"], r["median_ms"],
                         r["p99_ms"], r["max_ms"], r["reveal_p99_ms"], r["wall_s"],
                         "" if r["over"] else "  (not over!)"),
                      flush=True)
            if a.runs > 1:
                print_summary(cups, a.aim, p99s)


if __name__ == "__main__":
    sys.exit(main())
