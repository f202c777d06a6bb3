"""Soak: whole bot games of emulated cups (fair play on) with faults injected at random moments, seeded.

    .venv/bin/python bench/soak.py [--games 200] [--seed 1] [--jobs 2] [--time-scale 20] [--out DIR]

Every game is the real `schocken play --plain --emulate 4` as a subprocess. Its standard input is the table:
the soak writes the emulation's fault words there (docs/emulation.md, views/play_keys.py) at random points of
the game (counted in log events), and answers the table's questions about absent cups at random (wait,
forfeit, or nothing). The faults, a few per game:

    restart    a cup's process is killed and started again (a brown-out); it finds its state in its flash
    pull       a cup's link is pulled for 0.5 to 4 s, then the cup is plugged in again
    kill       the host is killed (SIGKILL), then `play --resume` continues the log
    torn       as kill, with a torn half line at the end of the log (the host died while writing it)
    garbage    one cup writes a line that is no message (unsigned, not JSON)
    malformed  one cup sends signed messages with malformed fields (public [5], throws 99, ...)
    garble     one cup's next reveal comes garbled on the line
    silent     one cup stops answering on an open link for 1 to 10 s (SIGSTOP), then answers again

It prints, per fault kind and in total: games finished, freezes (no log event for longer than --freeze-s
while the host runs), false cheat flags (no cup here cheats: any `cheat` event is one), lost or repeated
throws (from the log: a throw with two nonces, a seat's turn started again after it had thrown, a reveal whose
rolls are not the turn's nonces, a roll that seed and nonce do not give) and logs that `schocken replay`
refuses.
"""

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "firmware" / "lib"), str(ROOT / "host_tools")]

from schocken import RuleError  # noqa: E402
from schocken import fair  # noqa: E402

SCHOCKEN = [sys.executable, "-m", "schocken_host.cli"]
FAULTS = ("restart", "pull", "kill", "torn", "garbage", "malformed", "garble", "silent")
MALFORMED = [
    '{"t": "progress", "round": %d, "throws": 1, "public": [5], "event": "aside"}',
    '{"t": "progress", "round": %d, "throws": 99, "public": [], "event": "throw"}',
    '{"t": "progress", "round": %d, "throws": 1, "public": [[0, {}]], "event": "aside"}',
    '{"t": "revealed", "round": %d, "dice": [1, 9], "nonce": "ab", "throws": 1, "hand": true, '
    '"transcript": [7]}',
    '{"t": "shake", "round": %d, "throw": 3, "public": [[9, 9]]}',
    '{"t": "status", "state": "turn", "round": %d, "throws": 0, "public": [], "seat": 0, "name": "x", '
    '"awaiting": 7}',
]
TORN = b'{"ev":"progress","round":'


def read_events(path):
    """The events of a log being written: whole lines only."""
    try:
        data = Path(path).read_bytes()
    except OSError:
        return []
    out = []
    for line in data.split(b"\n")[:-1]:
        try:
            out.append(json.loads(line))
        except ValueError:
            out.append({"ev": "?"})
    return out


class Game:
    def __init__(self, number, seed, opts, root):
        self.number = number
        self.rng = random.Random("%d:%d" % (seed, number))
        self.opts = opts
        self.dir = Path(root) / ("game%03d" % number)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.argv = ["--lang", "en", "play", "--plain", "--emulate", str(opts.cups), "--strategy",
                     self.rng.choice(["fast", "schock", "general"]), "--absent-timeout", str(opts.absent_s),
                     "--turn-timeout", "60"]
        if opts.time_scale > 1:
            self.argv += ["--time-scale", str(opts.time_scale)]
        kinds = self.rng.sample(FAULTS, self.rng.randint(1, 3))
        self.plan = sorted((self.rng.randint(5, opts.horizon), kind, self.rng.randrange(opts.cups))
                           for kind in kinds)
        self.result = {"faults": [k for _, k, _ in self.plan], "freezes": 0, "hosts": 0, "finished": False,
                       "cheats": 0, "lost": 0, "repeated": 0, "unfair": 0, "corrupt": False, "seconds": 0.0,
                       "problems": []}
        self.log = None
        self.later = []          # (monotonic time, word) to write to the host
        self.answered = 0        # absent events answered

    # --- running -----------------------------------------------------------------------------------------
    def start_host(self, resume=None):
        env = dict(os.environ, SCHOCKEN_LOG_DIR=str(self.dir))
        argv = self.argv + (["--resume", str(resume)] if resume else [])
        out = open(self.dir / ("host%d.out" % self.result["hosts"]), "w")
        self.result["hosts"] += 1
        self.proc = subprocess.Popen(SCHOCKEN + argv, stdin=subprocess.PIPE, stdout=out,
                                     stderr=subprocess.STDOUT, env=env, cwd=ROOT, text=True, bufsize=1)

    def say(self, word):
        try:
            self.proc.stdin.write(word + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            pass

    def run(self):
        began = time.monotonic()
        self.start_host()
        last_growth, last_count = time.monotonic(), 0
        try:
            while True:
                if self.log is None:
                    logs = sorted(self.dir.glob("*.jsonl"))
                    self.log = logs[0] if logs else None
                evs = read_events(self.log) if self.log else []
                if len(evs) != last_count:
                    last_count, last_growth = len(evs), time.monotonic()
                if self.proc.poll() is not None:
                    if evs and evs[-1]["ev"] == "game_over":
                        break
                    self.result["problems"].append("host ended (%s) without game_over" % self.proc.returncode)
                    if self.result["hosts"] > 6 or self.log is None:
                        break
                    self.start_host(resume=self.log)  # the table tries again, as a person would
                    last_growth = time.monotonic()
                    continue
                if time.monotonic() - last_growth > self.opts.freeze_s:
                    self.result["freezes"] += 1
                    self.result["problems"].append("no event for %d s after %d events"
                                                   % (self.opts.freeze_s, len(evs)))
                    self.kill_host()
                    break
                self.inject(evs)
                self.answer(evs)
                for item in [x for x in self.later if x[0] <= time.monotonic()]:
                    self.later.remove(item)
                    self.say(item[1])
                time.sleep(0.05)
        finally:
            if self.proc.poll() is None:
                self.kill_host()
        self.result["seconds"] = time.monotonic() - began
        self.check()
        return self.result

    def kill_host(self):
        self.proc.send_signal(signal.SIGKILL)  # its cups die with it (schocken_host.emulation.romfs)
        self.proc.wait(10)

    def inject(self, evs):
        while self.plan and self.plan[0][0] <= len(evs):
            _, kind, seat = self.plan.pop(0)
            n = seat + 1
            rnd = max([e.get("round", 0) for e in evs if isinstance(e.get("round"), int)] or [0])
            if kind == "restart":
                self.say("restart %d" % n)
            elif kind == "pull":
                self.say("unplug %d" % n)
                self.later.append((time.monotonic() + self.rng.uniform(0.5, 4), "restart %d" % n))
            elif kind in ("kill", "torn"):
                self.kill_host()
                if kind == "torn":
                    with open(self.log, "ab") as f:
                        f.write(TORN)
                self.later = [x for x in self.later if not x[1].startswith("thaw")]
                self.start_host(resume=self.log)
            elif kind == "garbage":
                self.say("inject %d {this is no message" % n)
            elif kind == "malformed":
                for text in self.rng.sample(MALFORMED, 3):
                    self.say("inject %d %s" % (n, text % rnd))
            elif kind == "garble":
                self.say("cheat %d garbage" % n)
            elif kind == "silent":
                self.say("freeze %d" % n)
                self.later.append((time.monotonic() + self.rng.uniform(1, 10), "thaw %d" % n))

    def answer(self, evs):
        asked = [e for e in evs if e["ev"] == "absent"]
        for e in asked[self.answered:]:
            choice = self.rng.choice(["wait", "forfeit", None])
            if choice:
                self.later.append((time.monotonic() + self.rng.uniform(0, 1),
                                   "%s %d" % (choice, e["seat"] + 1)))
        self.answered = len(asked)

    # --- the record --------------------------------------------------------------------------------------
    def check(self):
        r = self.result
        if self.log is None:
            r["problems"].append("no log")
            return
        proc = subprocess.run(SCHOCKEN + ["replay", str(self.log), "--json"], capture_output=True, text=True,
                              cwd=ROOT, timeout=120)
        r["corrupt"] = proc.returncode != 0
        if r["corrupt"]:
            r["problems"].append("replay: " + proc.stderr.strip())
        evs = read_events(self.log)
        r["finished"] = bool(evs) and evs[-1]["ev"] == "game_over"
        r["cheats"] = sum(1 for e in evs if e["ev"] == "cheat")
        # (round, seat) -> the seat's current turn: {"fresh": n, "nonces": {throw: [nonces]}, "seed"}
        turns = {}
        for e in evs:
            key = (e.get("round"), e.get("seat"))
            if e["ev"] == "turn":
                t = turns.setdefault(key, {"fresh": 0, "nonces": {}, "seed": None})
                if not e.get("continued"):
                    if t["nonces"]:  # a turn started again after a throw of it: a second chance at the dice
                        t["fresh"] += 1
                    t["nonces"], t["seed"] = {}, None
            elif e["ev"] == "seed" and key in turns:
                turns[key]["seed"] = e["hash"]
            elif e["ev"] == "nonce" and key in turns:
                turns[key]["nonces"].setdefault(e["throw"], []).append(e["nonce"])
            elif e["ev"] == "reveal" and key in turns:
                t = turns[key]
                rolls = [s for s in e["transcript"] if s and s[0] == "roll"]
                if len(rolls) != len(t["nonces"]):
                    r["lost"] += 1
                    r["problems"].append("round %s seat %s: %d rolls, %d nonces" % (key + (len(rolls),
                                                                                      len(t["nonces"]))))
                try:
                    fair.check_dice(e["seed"] or "", t["seed"] or "",
                                    {k: v[0] for k, v in t["nonces"].items()}, e["round"], e["transcript"])
                except RuleError as err:
                    r["unfair"] += 1
                    r["problems"].append("round %s seat %s: %s" % (key + (err,)))
        for key, t in turns.items():
            if t["fresh"]:
                r["repeated"] += 1
                r["problems"].append("round %s seat %s: started again after %d throws"
                                     % (key + (t["fresh"],)))
            for throw, nonces in t["nonces"].items():
                if len(nonces) > 1:
                    r["repeated"] += 1
                    r["problems"].append("round %s seat %s throw %s: %d nonces"
                                         % (key + (throw, len(nonces))))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--cups", type=int, default=4)
    p.add_argument("--time-scale", type=int, default=20)
    p.add_argument("--absent-s", type=float, default=3.0, help="--absent-timeout of the host")
    p.add_argument("--freeze-s", type=float, default=60.0, help="no event for this long while the host runs")
    p.add_argument("--horizon", type=int, default=400, help="faults come within this many log events")
    p.add_argument("--out", default=None, help="folder for the games' logs (default: a new one under /tmp)")
    opts = p.parse_args(argv)
    root = Path(opts.out or "/tmp/schocken-soak-%d" % os.getpid())
    games = [Game(n, opts.seed, opts, root) for n in range(opts.games)]
    results, lock, began = [], threading.Lock(), time.monotonic()

    def worker():
        while True:
            with lock:
                if not games:
                    return
                game = games.pop(0)
            res = game.run()
            with lock:
                results.append(res)
                bad = res["problems"] or not res["finished"]
                print("game %3d %5.1f s %-30s %s" % (game.number, res["seconds"], ",".join(res["faults"]),
                                                      "; ".join(res["problems"])[:160] if bad else "ok"),
                      flush=True)
    threads = [threading.Thread(target=worker) for _ in range(opts.jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    total = Counter()
    per_fault = {}
    for res in results:
        row = {"games": 1, "finished": int(res["finished"]), "freezes": res["freezes"],
               "false cheat flags": res["cheats"], "lost throws": res["lost"],
               "repeated throws": res["repeated"], "unfair throws": res["unfair"],
               "corrupt logs": int(res["corrupt"])}
        total.update(row)
        for kind in res["faults"]:
            per_fault.setdefault(kind, Counter()).update(row)
    seconds = sorted(r["seconds"] for r in results)
    print("\n%d games in %.0f s (median %.1f s, max %.1f s per game, %d at a time), logs in %s"
          % (len(results), time.monotonic() - began, seconds[len(seconds) // 2], seconds[-1], opts.jobs,
             root))
    cols = ["games", "finished", "freezes", "false cheat flags", "lost throws", "repeated throws",
            "unfair throws", "corrupt logs"]
    print("%-10s " % "fault" + " ".join("%8s" % c.split()[0] for c in cols))
    for kind in FAULTS:
        if kind in per_fault:
            print("%-10s " % kind + " ".join("%8d" % per_fault[kind][c] for c in cols))
    print("%-10s " % "total" + " ".join("%8d" % total[c] for c in cols))
    ok = (total["finished"] == total["games"] and not any(total[c] for c in cols[2:]))
    print("target met" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
