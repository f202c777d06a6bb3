"""Soak: whole games as a user gets them, seeded: the bots' default strategy, every preset with its
turn-changing options, one seat played by a scripted person through the keyboard; faults on request.

    .venv/bin/python bench/soak.py [--games 200] [--seed 1] [--jobs 2] [--time-scale 20] [--out DIR]
                                   [--faults none|all|KIND,...] [--no-person] [--strategy NAME]
                                   [--deckel N]

Every game is the real `schocken play --plain --emulate 4 --bots 3 --time-scale 20` as a subprocess; the bots
play play's default strategy (`optimal`) unless --strategy names another; --deckel N plays every game with N
Deckel in the middle (deckel_total: a whole game, halves and final, in fewer rounds). Game n plays preset n
mod 5 of `schocken rules` (standard, verein, wuerfel63, beton, ludomax) with combination n mod 36 of the
options that change a turn, each given with --set: sixes_turn (Sechsen drehen) on or off, sixes_back (only
with sixes_turn), ones_must_stay, aside_only_ones, max_throws 1, 2 or 3. The periods are coprime: 180 games
play every preset with every combination.

The fourth seat is a person at an emulated cup (README, "A person plays an emulated cup"): the soak types his
keys on the host's standard input, one per line, and reads the host's plain output as he reads the screen.
He waits for "Round N: <his name> is on turn" ("Throw-off: ..." in the throw-off), shakes (s), and after a
throw that may not be his last peeks (p) and reads his dice from the "Your cup: ..." line. Then, by a simple
rule: two ones or more, three of a kind or a Straße: he stands (Enter); two sixes or more under the cup with
Sechsen drehen on: he turns them (a long press, 4 5 6); else he sets his ones aside (1 2 3) and shakes
again. His last allowed throw stands the cup by itself. He acts on what he sees happen: after s he waits for
the table's line of his throw (the dice have landed; his panel's "shaking …" says only that they roll),
after a die key for the line that shows it aside. A key the table refuses makes him stand (or shake, when a
stand is refused); each of his waits ends after a few seconds (for rolling dice: --stall-s), and he thinks
0.02 to 0.1 s before each key (0.4 to 2 s scaled back by the time scale 20), far within the turn timeout.
What he did is in person.txt beside the game's log, the host's output in host0.out (host1.out, ... after a
resume).

With --faults, each game also gets one to three of the listed faults at random points (counted in log
events), on the bots' cups, typed as the emulation's words on the same standard input (docs/emulation.md,
table/person.py); the table answers its questions about absent cups at random (wait, forfeit, nothing):

    restart    a cup's process is killed and started again (a brown-out); it finds its state in its flash
    pull       a cup's link is pulled for 0.5 to 4 s, then the cup is plugged in again
    kill       the host is killed (SIGKILL), then `play --resume` continues the log
    torn       as kill, with a torn half line at the end of the log (the host died while writing it)
    garbage    one cup writes a line that is no message (unsigned, not JSON)
    malformed  one cup sends signed messages with malformed fields (public [5], throws 99, ...)
    garble     one cup's next reveal comes garbled on the line
    silent     one cup stops answering on an open link for 1 to 10 s (SIGSTOP), then answers again

A stall is --stall-s (10 s) without a new log event while the host runs, outside a documented wait, or a
host that still runs --stall-s after the log's game_over (it stops the game). The
documented waits, which the stall clock does not count:
- none in a game without faults. The person's thinking (0.1 s a key at most), the reveal pause (5 s scaled
  by the time scale: 0.25 s at 20) and the bots' shakes are far below 10 s: inside the limit, not exempt.
- a fault's own time: a pulled link until it is plugged in again, a silent cup until it answers again, each
  and then twice --absent-timeout (the table's question and its answer, or its own decision); a restarted
  cup, and a host killed and resumed: twice --absent-timeout from the fault.

It prints per preset (or per fault kind, with faults) and in total: games finished, stalls, false
accusations (no cup here cheats: any `cheat` event is one), lost or repeated throws (a throw with two nonces,
a seat's turn started again after it had thrown, a reveal whose rolls are not its turn's nonces), throws
that seed and nonce do not give, corrupt logs (`schocken replay` refuses the log, or its --json standings
differ from the final standings the host printed: each player's Deckel after the last round, the halves'
losers, the game's loser), and the person's turns, keys the table refused him and turns his script lost.
"""

import argparse
import json
import os
import queue
import random
import re
import shutil
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
from schocken.rules import PRESETS  # noqa: E402

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

PRESET_NAMES = ("standard", "verein", "wuerfel63", "beton", "ludomax")
assert set(PRESET_NAMES) == set(PRESETS), "a new preset: add it to the soak's cycle"
# The options that change a turn, every meaningful combination (sixes_back only matters with sixes_turn).
TURN_OPTIONS = [dict(sixes_turn=turn, sixes_back=back, ones_must_stay=stay, aside_only_ones=only,
                     max_throws=most)
                for turn, back in ((False, False), (True, False), (True, True))
                for stay in (False, True) for only in (False, True) for most in (1, 2, 3)]


def rules_of(number):
    """(preset, turn options) of game ``number``: both cycle, with coprime periods 5 and 36."""
    return PRESET_NAMES[number % len(PRESET_NAMES)], TURN_OPTIONS[number % len(TURN_OPTIONS)]


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


# --- the person at the keyboard ----------------------------------------------------------------------------
# What he reads of the plain output (lang en: texts/play.py "plain.*", texts/scoreboard.py "own.*").
TURN_LINE = re.compile(r"^(?:Round \d+|Throw-off): (.+) is on turn(?: \(at most (\d) throws?\))?\.$")
THROW_LINE = re.compile(r"^(.+): throw (\d)(?:, set aside: ([\d-]+))?$")
STANDS_LINE = re.compile(r"^(.+) stands after (\d) throws?\.$")
OWN_LINE = re.compile(r"^Your cup: (.*)$")
REFUSED_LINE = re.compile(r"^(.+): refused – (.*)$")
START_LINE = re.compile(r"^Game \w+: rules \w+, players: (.*)$")
ROUND_LINE = re.compile(r"^Round \d+: .* takes .* Deckel\. Middle: (\d+), (.*)$")
HALF_LINE = re.compile(r"^(.+) loses the (first|second) half\.$")
OVER_LINE = re.compile(r"^Game over: (.+) lost(?: \(Blattschuss\))?\.$")
ONE_STAYS = re.compile(r"one that fell .*\(die (\d)\)")  # the cup's refusal (schocken.texts)
HOST = object()  # in the line queue: a new host process began (a resume): what the person knew is gone


def own_dice(text):
    """"set aside 1 · seen under the cup 4 6" -> ([1], [4, 6]); "under the cup: covered" -> (aside, None)."""
    aside, seen = [], None
    for part in text.split(" · "):
        if part.startswith("set aside "):
            aside = [int(x) for x in part[len("set aside "):].split()]
        elif part.startswith("seen under the cup "):
            seen = [int(x) for x in part[len("seen under the cup "):].split()]
    return aside, seen


def should_stand(hand):
    """The person's rule on a full hand of three: two ones or more, three of a kind, a Straße."""
    ordered = sorted(hand)
    return (ordered.count(1) >= 2 or ordered[0] == ordered[2]
            or (ordered[1] == ordered[0] + 1 and ordered[2] == ordered[1] + 1))


class Person(threading.Thread):
    """The scripted person of one game: reads ``game.lines``, types on the host's standard input."""

    def __init__(self, game):
        super().__init__(daemon=True)
        self.game = game
        self.rng = random.Random("person:%d:%d" % (game.seed, game.number))
        self.name = None
        self.stop = False
        self.turns = 0
        self.refused = 0
        self.problems = []
        self.after_throw = None  # the latest "Your cup:" line since his latest throw: what he knows of it
        # What the table's lines have said of his turn so far: his latest throw, and how many dice lie aside.
        # A key's effect is a change of these (not the panel's word that the key is under way).
        self.thrown = 0
        self.laid = 0
        self.notes = open(game.dir / "person.txt", "w")

    def note(self, text):
        self.notes.write("%.2f %s\n" % (time.monotonic() - self.game.began, text))
        self.notes.flush()

    def line(self, timeout):
        """The next line of the host, None after ``timeout`` s; HOST when a new host process began."""
        try:
            item = self.game.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if item is HOST:
            return HOST
        m = START_LINE.match(item)
        if m:
            self.name = m.group(1).split(", ")[-1].split(" ", 1)[1]  # the last seat is the person's
        m = TURN_LINE.match(item)
        if m and m.group(1) == self.name:
            self.thrown = self.laid = 0
        m = THROW_LINE.match(item)
        if m and m.group(1) == self.name:
            self.after_throw = None
            self.thrown = max(self.thrown, int(m.group(2)))
            self.laid = len(m.group(3).split("-")) if m.group(3) else 0
        elif OWN_LINE.match(item):
            self.after_throw = item
        return item

    def run(self):
        while not self.stop:
            item = self.line(0.5)
            if item is None or item is HOST:
                continue
            m = TURN_LINE.match(item)
            if m and m.group(1) == self.name:
                self.turns += 1
                limit = int(m.group(2)) if m.group(2) else self.game.options["max_throws"]
                self.note("my turn, at most %d" % limit)
                try:
                    self.play_turn(limit)
                except Interrupted as e:
                    self.note("turn interrupted: %s" % e)

    def key(self, key):
        time.sleep(self.rng.uniform(0.02, 0.1))  # he looks, thinks, presses: 0.4 to 2 s at K = 1
        self.note("key %r" % key)
        self.game.say(key)

    def expect(self, wanted, timeout=5.0):
        """Lines until one that ``wanted`` (line -> a value or None) takes, or a refusal of one of his keys
        (("refused", reason)); None when nothing comes in ``timeout`` s. Raises Interrupted when his turn ends
        by the table's doing (another seat on turn, a new host, game over)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            item = self.line(max(0.01, end - time.monotonic()))
            if item is None:
                break
            if item is HOST:
                raise Interrupted("the host was restarted")
            got = wanted(item)
            if got is not None:
                return got
            m = REFUSED_LINE.match(item)
            if m and m.group(1) == self.name:
                self.refused += 1
                self.note("refused: %s" % m.group(2))
                return ("refused", m.group(2))
            m = TURN_LINE.match(item)
            over = OVER_LINE.match(item) or "takes this round's Deckel" in item
            if (m and m.group(1) != self.name) or over:
                raise Interrupted(item)
        return None

    def seen(self, item):
        """(dice aside, dice seen under the cup) from a "Your cup:" line that shows dice under the cup."""
        m = OWN_LINE.match(item)
        if m:
            aside, seen = own_dice(m.group(1))
            if seen is not None:
                return aside, seen
        return None

    def stood(self, item):
        m = STANDS_LINE.match(item)
        return ("stood", int(m.group(2))) if m and m.group(1) == self.name else None

    def play_turn(self, limit):
        aside = {}  # slot -> face, the dice he set aside for good or for now
        throws = 0
        while True:
            got = self.shake()
            if got is None or got[0] == "refused":
                self.problems.append("shake: %s" % (got,))
                return self.stand_or_shake()
            if got[0] == "stood":
                return
            throws = got[1]
            if throws >= limit:  # the last allowed throw: the cup stands by itself
                got = self.expect(self.stood)
                if got is None or got[0] != "stood":
                    self.problems.append("no stand after the last throw (%s)" % (got,))
                return
            # A tap laid a die out for now; a throw lays it out for good: the same to him.
            # The host may have looked under the cup for him already (issue 31): then his peek shows nothing
            # new, and prints nothing new.
            self.key("p")
            got = (self.after_throw and self.seen(self.after_throw)) or self.expect(self.seen)
            if got is None or got[0] == "refused":
                self.problems.append("peek after throw %d: %s" % (throws, got))
                return self.stand_or_shake()
            faces_aside, seen = got
            in_cup = [slot for slot in range(3) if slot not in aside]
            if sorted(faces_aside) != sorted(aside.values()) or len(seen) != len(in_cup):
                # He lost track (a resumed host, a die turned): he stands on what he has.
                self.note("lost track: aside %s seen %s, thought aside %s" % (faces_aside, seen, aside))
                return self.stand_or_shake()
            under = dict(zip(in_cup, seen))
            hand = list(aside.values()) + seen
            self.note("throw %d: aside %s, under the cup %s" % (throws, aside, under))
            if should_stand(hand):
                return self.stand_or_shake()
            sixes = [slot for slot, face in under.items() if face == 6]
            if self.game.options["sixes_turn"] and len(sixes) >= 2:
                got = self.lay_out(str(4 + sixes[0]))  # long press on a six: Sechsen drehen
                if got is None or got[0] == "refused":
                    return self.stand_or_shake()
                for slot in sixes[:-1]:
                    aside[slot] = 1
            for slot, face in under.items():
                if face == 1 and slot not in aside:
                    got = self.lay_out(str(1 + slot))
                    if got is None or got[0] == "refused":
                        return self.stand_or_shake()
                    aside[slot] = 1

    def stand_or_shake(self):
        """Enter; a refused stand (a die turned, no throw yet): a shake, then Enter again. Ends his turn."""
        for key in ("", "s", "", "s"):
            got = self.shake() if key == "s" else self.press_and_see(key, self.stood_or_threw(self.thrown))
            stays = got is not None and got[0] == "refused" and ONE_STAYS.search(got[1])
            if stays:  # ones must stay (a house rule): that one out first, then the shake again
                self.lay_out(stays.group(1))
                got = self.shake()
            if got is not None and got[0] == "throw":  # his last allowed throw stands the cup by itself
                got = self.expect(self.stood, 2.0)
            if got is not None and got[0] == "stood":
                return
        self.problems.append("could not end his turn")

    # He acts on what he sees happen, as a person at the table does: a key's effect is the table's line of
    # it. His panel says at once that a key is under way ("shaking …", "setting die 3 aside …"): the dice
    # still roll then, and a die is not out yet.
    def press_and_see(self, key, effect, timeout=5.0):
        self.key(key)
        return self.expect(effect, timeout)

    def shake(self):
        """s, then the dice landing: the table's line of his next throw (("throw", n)), or his stand (the last
        allowed throw stands the cup by itself). He waits for the dice as long as they roll, up to the
        soak's stall time."""
        return self.press_and_see("s", self.stood_or_threw(self.thrown), self.game.opts.stall_s)

    def stood_or_threw(self, before):
        return lambda item: self.stood(item) or (("throw", self.thrown) if self.thrown > before else None)

    def lay_out(self, key):
        """A die key, then the die laid out: the table's line of his throw with more dice aside (a tap, or
        a long press on a six that turns the sixes)."""
        before = self.laid
        return self.press_and_see(key, lambda item: ("laid out", item) if self.laid > before else None)


class Interrupted(Exception):
    pass


# --- one game ----------------------------------------------------------------------------------------------
class Game:
    def __init__(self, number, seed, opts, root):
        self.number = number
        self.seed = seed
        self.rng = random.Random("%d:%d" % (seed, number))
        self.opts = opts
        self.dir = Path(root) / ("game%03d" % number)
        # A folder left by an earlier run with the same --out would hand this game that run's log.
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir.mkdir(parents=True)
        self.preset, self.options = rules_of(number)
        bots = opts.cups - 1 if opts.person else opts.cups
        self.argv = ["--lang", "en", "play", "--plain", "--emulate", str(opts.cups), "--bots", str(bots),
                     "--rules", self.preset, "--absent-timeout", str(opts.absent_s)]
        for name, value in self.options.items():
            self.argv += ["--set", "%s=%s" % (name, str(value).lower())]
        if opts.strategy:
            self.argv += ["--strategy", opts.strategy]
        if opts.deckel:
            self.argv += ["--set", "deckel_total=%d" % opts.deckel]
        if opts.time_scale > 1:
            self.argv += ["--time-scale", str(opts.time_scale)]
        most = min(3, len(opts.faults))
        kinds = self.rng.sample(opts.faults, self.rng.randint(1, most) if most else 0)
        bot_seats = opts.cups - opts.person  # faults hit the bots' cups: the person's script is no fault test
        self.plan = sorted((self.rng.randint(5, opts.horizon), kind, self.rng.randrange(bot_seats))
                           for kind in kinds)
        self.result = {"faults": [k for _, k, _ in self.plan], "preset": self.preset, "stalls": 0, "hosts": 0,
                       "finished": False, "cheats": 0, "lost": 0, "repeated": 0, "unfair": 0,
                       "corrupt": False, "seconds": 0.0, "problems": [], "person turns": 0,
                       "person refused": 0, "person problems": 0}
        self.log = None
        self.later = []          # (monotonic time, word) to write to the host
        self.answered = 0        # absent events answered
        self.excused_until = 0.0  # a documented wait (a fault's own time) ends then
        self.lines = queue.Queue()
        self.printed = []         # the host's plain output, every host's
        self.said = threading.Lock()
        self.began = time.monotonic()

    # --- running -----------------------------------------------------------------------------------------
    def start_host(self, resume=None):
        env = dict(os.environ, SCHOCKEN_LOG_DIR=str(self.dir))
        argv = self.argv + (["--resume", str(resume)] if resume else [])
        out = open(self.dir / ("host%d.out" % self.result["hosts"]), "w")
        self.result["hosts"] += 1
        self.lines.put(HOST)
        self.proc = subprocess.Popen(SCHOCKEN + argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, env=env, cwd=ROOT, text=True, bufsize=1)
        threading.Thread(target=self.read_output, args=(self.proc, out), daemon=True).start()

    def read_output(self, proc, out):
        with out:
            for line in proc.stdout:
                out.write(line)
                out.flush()
                self.printed.append(line.rstrip("\n"))
                self.lines.put(line.rstrip("\n"))

    def say(self, word):
        with self.said:
            try:
                self.proc.stdin.write(word + "\n")
                self.proc.stdin.flush()
            except (BrokenPipeError, OSError, ValueError):
                pass

    def excuse(self, seconds):
        """A documented wait of ``seconds`` from now (the module docstring lists them)."""
        self.excused_until = max(self.excused_until, time.monotonic() + seconds)

    def run(self):
        self.began = time.monotonic()
        person = Person(self) if self.opts.person else None
        self.start_host()
        if person:
            person.start()
        last_growth, last_count, over_at = time.monotonic(), 0, None
        try:
            while True:
                if self.log is None:
                    logs = sorted(self.dir.glob("*.jsonl"))
                    self.log = logs[0] if logs else None
                evs = read_events(self.log) if self.log else []
                now = time.monotonic()
                if len(evs) != last_count:
                    last_count, last_growth = len(evs), now
                if evs and evs[-1]["ev"] == "game_over" and self.proc.poll() is None:
                    over_at = over_at or now
                    if now - over_at > self.opts.stall_s:  # the game is over: the host must end too
                        self.result["stalls"] += 1
                        self.result["problems"].append("stall: the host still runs %d s after game_over"
                                                       % self.opts.stall_s)
                        self.kill_host()
                        break
                if self.proc.poll() is not None:
                    if evs and evs[-1]["ev"] == "game_over":
                        break
                    self.result["problems"].append("host ended (%s) without game_over" % self.proc.returncode)
                    if self.result["hosts"] > 6 or self.log is None:
                        break
                    self.start_host(resume=self.log)  # the table tries again, as a person would
                    last_growth = time.monotonic()
                    continue
                if now - max(last_growth, self.excused_until) > self.opts.stall_s:
                    self.result["stalls"] += 1
                    last = evs[-1] if evs else {}
                    self.result["problems"].append("stall: no event for %d s after %d events (last %s)"
                                                   % (self.opts.stall_s, len(evs), json.dumps(last)[:200]))
                    if self.opts.kill_stalled:
                        self.kill_host()
                        break
                    last_growth = now  # counted once per quiet stretch; the game goes on if it can
                if now - self.began > self.opts.game_limit:
                    self.result["problems"].append("not over after %d s" % self.opts.game_limit)
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
            if person:
                person.stop = True
                person.join(5)
                self.result["person turns"] = person.turns
                self.result["person refused"] = person.refused
                self.result["person problems"] = len(person.problems)
                self.result["problems"] += ["person: " + p for p in person.problems]
        self.result["seconds"] = time.monotonic() - self.began
        self.check()
        return self.result

    def kill_host(self):
        self.proc.send_signal(signal.SIGKILL)  # its cups die with it (schocken_host.emulation.romfs)
        self.proc.wait(10)

    def inject(self, evs):
        absent = self.opts.absent_s
        while self.plan and self.plan[0][0] <= len(evs):
            _, kind, seat = self.plan.pop(0)
            n = seat + 1
            rnd = max([e.get("round", 0) for e in evs if isinstance(e.get("round"), int)] or [0])
            if kind == "restart":
                self.say("restart %d" % n)
                self.excuse(2 * absent)
            elif kind == "pull":
                away = self.rng.uniform(0.5, 4)
                self.say("unplug %d" % n)
                self.later.append((time.monotonic() + away, "restart %d" % n))
                self.excuse(away + 2 * absent)
            elif kind in ("kill", "torn"):
                self.kill_host()
                if kind == "torn":
                    with open(self.log, "ab") as f:
                        f.write(TORN)
                self.later = [x for x in self.later if not x[1].startswith("thaw")]
                self.start_host(resume=self.log)
                self.excuse(2 * absent)
            elif kind == "garbage":
                self.say("inject %d {this is no message" % n)
            elif kind == "malformed":
                for text in self.rng.sample(MALFORMED, 3):
                    self.say("inject %d %s" % (n, text % rnd))
            elif kind == "garble":
                self.say("cheat %d garbage" % n)
            elif kind == "silent":
                quiet = self.rng.uniform(1, 10)
                self.say("freeze %d" % n)
                self.later.append((time.monotonic() + quiet, "thaw %d" % n))
                self.excuse(quiet + 2 * absent)

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
        if r["finished"] and not r["corrupt"]:
            differ = self.standings_differ(json.loads(proc.stdout))
            if differ:
                r["corrupt"] = True
                r["problems"].append("replay --json differs from the host's standings: " + differ)
        r["cheats"] = sum(1 for e in evs if e["ev"] == "cheat")
        if r["cheats"]:
            cheats = [json.dumps(e)[:200] for e in evs if e["ev"] == "cheat"]
            r["problems"].append("cheat: " + "; ".join(cheats))
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

    def standings_differ(self, replayed):
        """What replay --json says against what the host printed at the end (each Deckel after the last round,
        the halves' losers, the game's loser), or None when they agree."""
        names = {p["seat"]: p["name"] for p in replayed["players"]}
        deckel, halves, loser = None, [], None
        for line in self.printed:
            if ROUND_LINE.match(line):
                standing = ROUND_LINE.match(line).group(2)
                deckel = {name: int(d) for name, d in (s.rsplit(" ", 1) for s in standing.split(", "))}
            elif HALF_LINE.match(line):
                halves.append(HALF_LINE.match(line).group(1))
            elif OVER_LINE.match(line):
                loser = OVER_LINE.match(line).group(1)
        wrong = []
        if deckel is not None and deckel != {p["name"]: p["deckel"] for p in replayed["players"]}:
            wrong.append("Deckel %s / %s" % (deckel, {p["name"]: p["deckel"] for p in replayed["players"]}))
        if loser is None or loser != names.get(replayed["loser"]):
            wrong.append("loser %s / %s" % (loser, names.get(replayed["loser"])))
        replayed_halves = [names[s] for s in replayed["half_losers"]]
        if replayed_halves and halves[-len(replayed_halves):] != replayed_halves:
            wrong.append("half losers %s / %s" % (halves, [names[s] for s in replayed["half_losers"]]))
        return "; ".join(wrong) or None


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--first", type=int, default=0, help="number of the first game (to play one again)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--cups", type=int, default=4)
    p.add_argument("--time-scale", type=int, default=20)
    p.add_argument("--strategy", default=None, help="the bots' strategy (default: play's own, optimal)")
    p.add_argument("--deckel", type=int, default=None,
                   help="Deckel in the middle of every game (default: the preset's, 13)")
    p.add_argument("--no-person", dest="person", action="store_false",
                   help="bots at every seat (default: the last seat is a scripted person at the keyboard)")
    p.add_argument("--faults", default="none", help="none (default), all, or a comma-separated list of %s"
                   % ", ".join(FAULTS))
    p.add_argument("--absent-s", type=float, default=3.0, help="--absent-timeout of the host")
    p.add_argument("--stall-s", type=float, default=10.0,
                   help="a stall: no log event for this long while the host runs, outside a documented wait")
    p.add_argument("--kill-stalled", action="store_true", help="end a game at its first stall")
    p.add_argument("--game-limit", type=float, default=300.0, help="a game still going after this is ended")
    p.add_argument("--horizon", type=int, default=400, help="faults come within this many log events")
    p.add_argument("--out", default=None, help="folder for the games' logs (default: a new one under /tmp)")
    opts = p.parse_args(argv)
    opts.person = int(opts.person)
    opts.faults = (list(FAULTS) if opts.faults == "all" else [] if opts.faults == "none"
                   else opts.faults.split(","))
    unknown = [k for k in opts.faults if k not in FAULTS]
    if unknown:
        p.error("unknown faults: %s (known: %s)" % (", ".join(unknown), ", ".join(FAULTS)))
    root = Path(opts.out or "/tmp/schocken-soak-%d" % os.getpid())
    root.mkdir(parents=True, exist_ok=True)
    (root / "results.jsonl").unlink(missing_ok=True)
    games = [Game(n, opts.seed, opts, root) for n in range(opts.first, opts.first + opts.games)]
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
                with open(root / "results.jsonl", "a") as f:  # a run stopped early can still be counted
                    f.write(json.dumps(dict(res, game=game.number)) + "\n")
                bad = res["problems"] or not res["finished"]
                label = ",".join(res["faults"]) or "%s %s" % (game.preset, "".join(
                    "%s=%s " % (k, int(v)) for k, v in game.options.items()).strip())
                print("game %3d %5.1f s %-30s %s" % (game.number, res["seconds"], label,
                                                      "; ".join(res["problems"])[:300] if bad else "ok"),
                      flush=True)
    threads = [threading.Thread(target=worker) for _ in range(opts.jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    total = Counter()
    per_kind = {}
    for res in results:
        row = {"games": 1, "finished": int(res["finished"]), "stalls": res["stalls"],
               "false accusations": res["cheats"], "lost throws": res["lost"],
               "repeated throws": res["repeated"], "unfair throws": res["unfair"],
               "corrupt logs": int(res["corrupt"]), "person turns": res["person turns"],
               "person refused": res["person refused"], "person problems": res["person problems"]}
        total.update(row)
        for kind in res["faults"] or [res["preset"]]:
            per_kind.setdefault(kind, Counter()).update(row)
    seconds = sorted(r["seconds"] for r in results)
    print("\n%d games in %.0f s (median %.1f s, max %.1f s per game, %d at a time), logs in %s"
          % (len(results), time.monotonic() - began, seconds[len(seconds) // 2], seconds[-1], opts.jobs,
             root))
    cols = ["games", "finished", "stalls", "false accusations", "lost throws", "repeated throws",
            "unfair throws", "corrupt logs", "person turns", "person refused", "person problems"]
    heads = [c.split()[-1] if c.startswith("person") else c.split()[0] for c in cols]
    print("%-10s " % "" + " ".join("%9s" % h[:9] for h in heads))
    for kind in list(FAULTS) + list(PRESET_NAMES):
        if kind in per_kind:
            print("%-10s " % kind + " ".join("%9d" % per_kind[kind][c] for c in cols))
    print("%-10s " % "total" + " ".join("%9d" % total[c] for c in cols))
    ok = (total["finished"] == total["games"] and not any(total[c] for c in cols[2:8])
          and not total["person problems"])
    print("target met" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
