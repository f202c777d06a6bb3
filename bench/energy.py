"""Energy: a scripted evening on the emulated cup, its own power counters, and what they cost on each board.

    .venv/bin/python bench/energy.py [--hours 5] [--shelf-hours 1] [--players 6] [--scale 100] [--seed 1]
                                     [--write]

The unchanged firmware on the emulated board (MicroPython's unix port, the firmware in its emulated ROM), its
clock K times faster while nothing moves too (``--idle-scale``), plays one seat of a table of ``--players`` at
the pace bench/soak.py measured (docs/benchmarks.md, "Soak"): 200 games of 4 seats took 18.7 s each (median)
at K = 20 with 27.1 rounds a game, so a round of 4 lasted 13.8 s of the cups' time; less the reveal's 5 s
pause
that is 2.2 s a turn. A round of 6 here: the others' turns 2.2 s each, the cup's own turn as the soak's person
plays it (a key every 0.4 to 2 s: shake, peek, a die set aside now and then, stand; the opener throws up to
three times, the others up to his limit), the reveal, the outcome, 5 s of pause. The host speaks the protocol
on the cup's serial link, as the referee does; every wait is on the cup's own clock (its counters' ``ms``,
read on the control channel, which wakes no sleeping cup).

After ``--hours`` of play the host leaves (the link closes) and the cup stays on the shelf for
``--shelf-hours``: dark 10 s after its last change, in deep sleep 10 minutes later. The counters of both
phases (its ``power`` message, cup/clock.py) go with ``--write`` to hardware/evening.json;
hardware/generate.py makes hardware/power_budget.md from them and the board files' currents
(hardware/energy.py), and the README's hardware table states the result (tests/test_hardware.py).
"""

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "hardware"), str(ROOT / "host_tools")]

from kits.cupkit import CupDriver  # noqa: E402
from schocken import protocol  # noqa: E402
from schocken_host.emulation.emulator import EmulatedCup  # noqa: E402

# The soak's pace (docs/benchmarks.md, "Soak", the run after every fix: seed 3, 200 games, main at cbca732).
SOAK_GAMES, SOAK_MEDIAN_S, SOAK_K, SOAK_PERSON_TURNS, SOAK_SEATS = 200, 18.7, 20, 5411, 4
REVEAL_PAUSE_S = 5.0
ROUND_S = SOAK_MEDIAN_S * SOAK_K / (SOAK_PERSON_TURNS / SOAK_GAMES)
TURN_S = (ROUND_S - REVEAL_PAUSE_S) / SOAK_SEATS
KEY_GAP_S = (0.4, 2.0)  # the soak's person: 0.02 to 0.1 s before each key at K = 20
LONG_MS = 1200           # the firmware's long press (cup/buttons.py LONG_MS): a stand
EVENING = "hardware/evening.json"


class Evening:
    def __init__(self, scale, seed):
        self.rng = random.Random(seed)
        self.emu = EmulatedCup(cup_id="energy", time_scale=scale, idle_scale=scale, rom=True)
        self.cup = CupDriver(cup=self.emu)
        self.scale = scale

    # --- the cup's clock ---------------------------------------------------------------------------------
    def counters(self):
        """The cup's power counters, read on the control channel (no link line, no wake from deep sleep)."""
        seen = len(self.emu.control_lines)
        self.emu.control("power")
        end = time.time() + 20
        while time.time() < end:
            for line in self.emu.control_lines[seen:]:
                if line.startswith("power "):
                    return {k: int(v) for k, v in (w.split("=") for w in line.split()[1:])}
            time.sleep(0.005)
        raise RuntimeError("the cup did not answer 'power'")

    def wait(self, seconds):
        """``seconds`` of the cup's own clock: slept in steps, each checked on its counters."""
        target = self.counters()["ms"] + seconds * 1000
        while True:
            left = target - self.counters()["ms"]
            if left <= 0:
                return
            time.sleep(min(left / 1000 / self.scale, 0.2))

    def key(self):
        self.wait(self.rng.uniform(*KEY_GAP_S))

    # --- the table -----------------------------------------------------------------------------------------
    def my_turn(self, round_no, limit):
        """The cup's own turn as the soak's person plays it: its throws (the number it threw)."""
        cup = self.cup
        cup.request(t="turn", round=round_no, limit=limit)
        most = limit or 3
        want = self.rng.randint(1, most)
        throws = 0
        done = None
        while throws < want:
            self.key()
            self.emu.shake(800)
            cup.recv("progress")
            throws += 1
            if throws == most:
                done = cup.recv("done")   # the last allowed throw stands the cup by itself
                break
            self.key()
            self.emu.press(3, 400)         # a peek: a short press of the main button
            if self.rng.random() < 0.3:
                self.key()
                self.emu.press(self.rng.randrange(3), 80)   # a die set aside (or refused: a red flash)
        if done is None:
            self.key()
            self.emu.press(3, LONG_MS + 200)
            cup.recv("done")
        cup.inbox = [m for m in cup.inbox if m["t"] != "progress"]
        return throws

    def round(self, round_no, players):
        opener = (round_no - 1) % players
        me = players - 1 - opener if opener else 0   # the cup's place in this round's order
        limit = None if me == 0 else self.rng.randint(1, 3)
        self.wait(me * TURN_S)
        throws = self.my_turn(round_no, limit)
        self.wait((players - 1 - me) * TURN_S)
        self.cup.request("revealed", t="reveal", round=round_no)
        result = self.rng.choices(["none", "won", "lost"], [players - 2, 1, 1])[0]
        self.cup.request(t="outcome", round=round_no, result=result, deckel=1 if result == "lost" else 0,
                         middle=13)
        self.wait(REVEAL_PAUSE_S)
        return throws

    def run(self, hours, shelf_hours, players):
        cup = self.cup
        cup.request("identity", t="hello", v=protocol.VERSION)
        cup.request(t="configure", rules={"preset": "standard", "options": {}}, name="Anna", seat=0)
        start = self.counters()
        t0 = time.time()
        rounds = 0
        while self.counters()["ms"] - start["ms"] < hours * 3_600_000:
            rounds += 1
            self.round(rounds, players)
            if rounds % 50 == 0:
                print("round %d, %.2f h of the cup's clock, %.0f s wall" % (
                    rounds, (self.counters()["ms"] - start["ms"]) / 3_600_000, time.time() - t0), flush=True)
        played = self.counters()
        cup.link.close()                     # the host leaves: the cup is alone
        self.emu.hang_up()
        # Asleep, the cup's clock moves only while it waits: its counters' ms still tell the shelf's time.
        target = played["ms"] + shelf_hours * 3_600_000
        while self.counters()["ms"] < target:
            time.sleep(0.2)
        shelved = self.counters()
        self.emu.close()
        return rounds, start, played, shelved, time.time() - t0


def minus(a, b):
    return {k: a[k] - b[k] for k in a}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hours", type=float, default=5.0)
    ap.add_argument("--shelf-hours", type=float, default=1.0)
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--scale", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--write", action="store_true", help="write %s (then run hardware/generate.py)" % EVENING)
    args = ap.parse_args(argv)
    ev = Evening(args.scale, args.seed)
    try:
        rounds, start, played, shelved, wall = ev.run(args.hours, args.shelf_hours, args.players)
    finally:
        ev.emu.close()
    record = {
        "about": "The emulated cup's power counters (cup/clock.py) over a scripted evening and its shelf: "
                 "written by bench/energy.py --write, read by hardware/energy.py",
        "script": {"hours": args.hours, "shelf_hours": args.shelf_hours, "players": args.players,
                   "rounds": rounds, "turn_s": round(TURN_S, 2), "reveal_pause_s": REVEAL_PAUSE_S,
                   "scale": args.scale, "seed": args.seed,
                   "command": "bench/energy.py --hours %g --shelf-hours %g --players %d --scale %d --seed %d "
                              "--write" % (args.hours, args.shelf_hours, args.players, args.scale,
                                           args.seed)},
        "measured": {"wall_s": round(wall, 1), "load": os.getloadavg()[0]},
        "evening": minus(played, start),
        "shelf": minus(shelved, played),
    }
    print(json.dumps(record, indent=1))
    if args.write:
        (ROOT / EVENING).write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
        print("wrote %s; now: python hardware/generate.py" % EVENING)
    return 0


if __name__ == "__main__":
    sys.exit(main())
