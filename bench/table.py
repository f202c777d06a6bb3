"""Table bench: the host referee with 4, 8 and 16 emulated cups (MicroPython), bots with the fast strategy.

    .venv/bin/python bench/table.py [--sizes 4,8,16] [--deckel 13] [--deckel16 5] [--seed 1]

For each table size one full game runs through `play_cmd.play` (the code of `schocken play`) and prints:
- event latency: from the moment the transport's reader thread has read and decoded a cup's line (progress,
  done, revealed) to the moment `TableState.apply` finished for the event made from it (the referee writes the
  event to the fsynced game log first, then applies it), median and p99 in ms, with the number of events;
- wall time of the whole game (cups started, throw-off, every round, game over), and the rounds played.

No host module is changed for this: the bench wraps `SerialTransport._put` (stamps `_rx` into the decoded
message dict, a key the referee never copies into an event), `SerialTransport.recv`, `Referee.expect`/`emit`
and `TableState.apply` in this process. The 16-cup game uses `--deckel16` Deckel in the middle (default 5)
to keep its length reasonable; the others use `--deckel` (default 13, the rules' default).
"""

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from schocken_host.commands import play as play_cmd
from schocken_host.links.serial import SerialLink
from schocken_host.table.referee import Referee
from schocken_host.table.state import TableState

REPO = Path(__file__).resolve().parents[1]

_put = SerialLink._put
_recv = SerialLink.recv


def put(self, item):
    if isinstance(item, dict):
        item["_rx"] = time.perf_counter()
    _put(self, item)


async def recv(self, timeout=None):
    msg = await _recv(self, timeout)
    self._last = msg
    return msg


class BenchState(TableState):
    applied_at = None

    def apply(self, ev):
        super().apply(ev)
        self.applied_at = time.perf_counter()


class BenchReferee(Referee):
    latencies = []

    def __init__(self, *a, state=None, **kw):
        super().__init__(*a, state=state or BenchState(), **kw)
        self._src = None

    async def expect(self, seat_no, kind, round_id):
        item = await super().expect(seat_no, kind, round_id)
        self._src = item
        return item

    def emit(self, ev):
        src = None
        if ev["ev"] == "progress":
            src = getattr(self.seats[ev["seat"]].transport, "_last", None)
        elif ev["ev"] in ("done", "reveal"):
            src = self._src
        super().emit(ev)
        if isinstance(src, dict) and "_rx" in src:
            BenchReferee.latencies.append((ev["ev"], self.state.applied_at - src.pop("_rx")))


class QuietUI:
    def note(self, text):
        pass

    def update(self, state, ev):
        pass


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def run(n, deckel, seed, log_dir):
    p = argparse.ArgumentParser()
    play_cmd.add_arguments(p)
    args = p.parse_args(["--emulate", str(n), "--strategy", "fast", "--seed", str(seed), "--set",
                         "deckel_total=%d" % deckel, "--log-dir", str(log_dir)])
    BenchReferee.latencies = []
    start = time.perf_counter()
    state = asyncio.run(play_cmd.play(args, QuietUI))
    wall = time.perf_counter() - start
    lat = [x * 1000 for _, x in BenchReferee.latencies]
    return {"cups": n, "deckel": deckel, "wall_s": wall, "rounds": state.game.rounds, "over": state.over,
            "events": len(lat), "median_ms": statistics.median(lat), "p99_ms": pct(lat, 99),
            "max_ms": max(lat)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="4,8,16")
    ap.add_argument("--deckel", type=int, default=13)
    ap.add_argument("--deckel16", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    SerialLink._put = put
    SerialLink.recv = recv
    play_cmd.Referee = BenchReferee
    print("cups  Deckel  rounds  events  latency median  p99      max      game wall time")
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(s) for s in a.sizes.split(",")):
            r = run(n, a.deckel16 if n >= 16 else a.deckel, a.seed, Path(tmp) / str(n))
            print("%4d  %6d  %6d  %6d  %8.2f ms  %6.2f ms  %6.2f ms  %7.1f s%s"
                  % (r["cups"], r["deckel"], r["rounds"], r["events"], r["median_ms"], r["p99_ms"],
                     r["max_ms"], r["wall_s"], "" if r["over"] else "  (not over!)"), flush=True)


if __name__ == "__main__":
    sys.exit(main())
