"""Test helpers for whole tables: games of emulated cups (MicroPython) refereed by the host, run side by side.

Two ways to run a game, both through the code of `schocken play`:
- ``Lab.game(...)``: a ``GameSession`` (table/session.py) of a ``GameConfig`` as one asyncio task among
  several in a background event loop of the test process; a ``RecordingUI`` sees every event as the referee
  emits it and may act on the table (restart a cup, arm a cheat) from a hook; the result is the live
  ``TableState``.
- ``Lab.cli(...)``: ``schocken play --plain ...`` as a subprocess (``SCHOCKEN_LOG_DIR`` points into the test's
  tmp folder); ``Lab.cli_killed(...)`` kills it with SIGKILL once the log shows enough events.

Everything is started first and waited for later, so the games of a test module run at the same time.
"""

import argparse
import asyncio
import concurrent.futures
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from schocken.rules import Rules

from schocken_host.commands import play as play_cmd
from schocken_host.pace import Pace
from schocken_host.table import gamelog, seating
from schocken_host.table.session import GameConfig, GameSession
from schocken_host.table.view import View

ROOT = Path(__file__).resolve().parents[2]
SCHOCKEN = [sys.executable, "-m", "schocken_host.cli"]
GAME_TIMEOUT = 200
# Tables of bots run in scaled time (`schocken play --time-scale K`, docs/emulation.md "Time scale"): the
# cups' clocks and the bots K times faster. SCHOCKEN_TIME_SCALE=1 plays the same tests at human speed.
TIME_SCALE = int(os.environ.get("SCHOCKEN_TIME_SCALE", "20"))
SCALED = ["--time-scale", str(TIME_SCALE)]


def schocken(*argv, env=None, timeout=60):
    """Run the command line to the end: CompletedProcess with text output."""
    return subprocess.run(SCHOCKEN + [str(a) for a in argv], capture_output=True, text=True, timeout=timeout,
                          env=env, stdin=subprocess.DEVNULL, cwd=ROOT)


def plain_game(argv, log_dir, after, word, on_line=None, start_s=60, game_s=180):
    """`schocken --lang en play --plain ARGV` (scaled) in a process of its own, its log in ``log_dir``: once a
    line of its output holds ``after``, ``word`` goes to its standard input (the table's word, or the
    emulation's: bounded by ``start_s``); ``on_line(line, stdin)`` sees each line as it comes. Waits for the
    game's end (at most ``game_s``); returns its exit status and its lines."""
    env = dict(os.environ, SCHOCKEN_LOG_DIR=str(log_dir))
    proc = subprocess.Popen([sys.executable, "-m", "schocken_host.cli", "--lang", "en", "play", "--plain"]
                            + [str(a) for a in argv] + SCALED, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    lines = []

    def read():
        for line in proc.stdout:
            lines.append(line)
            if on_line is not None:
                on_line(line, proc.stdin)
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        deadline = time.time() + start_s
        while not any(after in line for line in lines) and time.time() < deadline:
            time.sleep(0.05)
        proc.stdin.write(word + "\n")
        proc.stdin.flush()
        proc.wait(game_s)
    finally:
        if proc.poll() is None:
            proc.kill()
    reader.join(5)
    return proc.returncode, lines


def read_log(path):
    """The events of a log, its lines taken as the host takes them (table/gamelog.read): a torn last line (a
    host still writing it, or killed while it did) is no part of them; a line that is no event raises."""
    return [ev for _, ev in gamelog.read(path)]


def events(log, kind):
    return [e for e in log if e["ev"] == kind]


def the_log(directory):
    logs = sorted(Path(directory).glob("*.jsonl"))
    assert len(logs) == 1, logs
    return logs[0]


def replay_json(path, env=None):
    proc = schocken("replay", path, "--json", env=env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def play_args(argv):
    """`schocken play`'s options parsed, for the tests of the command line itself."""
    p = argparse.ArgumentParser()
    play_cmd.add_arguments(p)
    return p.parse_args([str(a) for a in argv])


def game_config(names, log_dir, preset="standard", settings=None, **options):
    """The GameConfig of an emulated table of bots in scaled time, as `schocken play --emulate N` makes it:
    ``names`` seated in order, the ``preset`` rules with ``settings``, fair play unless the dice are scripted
    (``seed``), at ``time_scale`` (TIME_SCALE unless given); ``options``: any other GameConfig field."""
    options.setdefault("emulate", len(names))
    options.setdefault("fair", options.get("seed") is None)
    options.setdefault("pace", Pace(time_scale=options.pop("time_scale", TIME_SCALE)))
    return GameConfig(names=list(names), log_dir=Path(log_dir), rules=Rules(preset, **(settings or {})),
                      **options)


# --- in-process games ------------------------------------------------------------------------------
class RecordingCup(seating.EmulatedCup):
    """The seats' EmulatedCup (table/seating.py), registered by player name so a hook can reach the cup
    behind a seat."""

    registry = {}

    def __init__(self, cup_id="emu1", name="", **kw):
        super().__init__(cup_id, name, **kw)
        RecordingCup.registry[name] = self
        self.bot = None


class RecordingBot(seating.Bot):
    """The seats' Bot (table/seating.py), reachable from its cup (``game.cup(seat).bot``): a test can see
    what it waited for in vain."""

    def __init__(self, seat, cup, *a, **kw):
        super().__init__(seat, cup, *a, **kw)
        cup.bot = self


class RecordingUI(View):
    """Keeps every event; ``hook(ui, state, ev)`` runs inside the referee's emit, in the event loop."""

    def __init__(self, hook=None):
        self.events = []
        self.notes = []
        self.hook = hook
        self.data = {}
        self.errors = []

    def note(self, text):
        self.notes.append(text)

    def update(self, state, ev):
        self.events.append(dict(ev))
        if self.hook:
            try:
                self.hook(self, state, ev)
            except Exception as e:  # reported by the test, never into the referee
                self.errors.append(repr(e))


class Game:
    def __init__(self, name, log_dir, names):
        self.name = name
        self.log_dir = log_dir
        self.names = names
        self.ui = None
        self.state = None
        self.seconds = None

    @property
    def log(self):
        return the_log(self.log_dir)

    def cup(self, seat):
        return RecordingCup.registry[self.names[seat]]


class Lab:
    def __init__(self, root):
        self.root = Path(root)
        self.loop = None
        self.pending = []
        self.futures = {}
        self.procs = []
        self.threads = []
        seating.EmulatedCup = RecordingCup
        seating.Bot = RecordingBot

    def _ensure_loop(self):
        if self.loop is None:
            self.loop = asyncio.new_event_loop()
            t = threading.Thread(target=self.loop.run_forever, name="table-lab", daemon=True)
            t.start()
            self.threads.append(t)

    def game(self, name, hook=None, names=None, cups=4, ui_class=None, **config):
        """Start an in-process game; returns a concurrent Future of the Game. ``ui_class`` (default
        RecordingUI) is called with the hook; ``config``: game_config's arguments (preset, settings, any
        GameConfig field)."""
        self._ensure_loop()
        names = names or ["%s-%d" % (name, i) for i in range(cups)]
        log_dir = self.root / name
        game = Game(name, log_dir, names)
        session = GameSession(game_config(names, log_dir, **config))

        async def run():
            start = time.monotonic()
            game.ui = (ui_class or RecordingUI)(hook)
            game.ui.game = game
            game.state = await asyncio.wait_for(session.run(lambda: game.ui), GAME_TIMEOUT)
            game.seconds = time.monotonic() - start
            return game
        fut = asyncio.run_coroutine_threadsafe(run(), self.loop)
        self.futures[name] = fut
        return fut

    # --- subprocess games --------------------------------------------------------------------------
    def env(self, log_dir):
        env = dict(os.environ)
        env["SCHOCKEN_LOG_DIR"] = str(log_dir)
        return env

    def cli(self, name, argv, log_dir=None):
        """Start `schocken play --plain ...` in the background; returns (Popen, log_dir)."""
        log_dir = Path(log_dir) if log_dir else self.root / name
        log_dir.mkdir(parents=True, exist_ok=True)
        out = open(self.root / (name + ".out"), "w")
        argv = [str(a) for a in SCALED + list(argv)]
        proc = subprocess.Popen(SCHOCKEN + ["--lang", "en", "play", "--plain"] + argv,
                                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                env=self.env(log_dir), cwd=ROOT)
        self.procs.append(proc)
        return proc, log_dir

    def in_background(self, name, fn):
        fut = concurrent.futures.Future()

        def run():
            try:
                fut.set_result(fn())
            except BaseException as e:
                fut.set_exception(e)
        t = threading.Thread(target=run, name=name, daemon=True)
        t.start()
        self.threads.append(t)
        self.futures[name] = fut
        return fut

    def close(self):
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
        if self.loop is not None:
            for fut in self.futures.values():
                fut.cancel()
            self.loop.call_soon_threadsafe(self.loop.stop)
        seating.EmulatedCup = RecordingCup.__mro__[1]
        seating.Bot = RecordingBot.__mro__[1]


def children(pid):
    """Process ids whose parent is ``pid`` (from /proc)."""
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            out.append(int(d.name))
    return out


class EndedTooSoon(AssertionError):
    """The moment a kill waited for came and went between two looks at the log (a bot table in scaled time on
    a loaded machine): the game has to be played again, not the test failed."""


def killed_game(start, ready, tries=3, freeze=None):
    """Start a game with ``start(attempt)`` -> (Popen, log_dir) and kill it at ``ready`` (kill_when, with
    ``freeze``); a game that ended before its moment was seen is played again, ``tries`` times in all. Returns
    kill_when's result."""
    for attempt in range(tries - 1):
        try:
            return kill_when(*start(attempt), ready, freeze=freeze)
        except EndedTooSoon:
            pass
    return kill_when(*start(tries - 1), ready, freeze=freeze)


def cup_pids(pid):
    """{cup id: process id} of the emulated cups host ``pid`` started (their command lines say --cup ID)."""
    out = {}
    for child in children(pid):
        try:
            argv = Path("/proc/%d/cmdline" % child).read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--cup" in argv[:-1]:
            out[argv[argv.index(b"--cup") + 1].decode()] = child
    return out


def segment(evs):
    """The events of the round (or throw-off, or replayed round) under way, and the seats it seats."""
    starts = [i for i, e in enumerate(evs) if e["ev"] in ("round", "throw_off", "replay_round")]
    after = evs[starts[-1] + 1:] if starts else evs
    orders = [e["order"] for e in after if e["ev"] == "turn" and e.get("order")]
    return after, (orders[0] if orders else None)


def all_stood(evs):
    """Every seat of the round under way has stood (its ``done`` is logged)."""
    after, order = segment(evs)
    return bool(order) and {e["seat"] for e in after if e["ev"] == "done"} >= set(order)


def freeze_the_stood(evs):
    """Once all but one seat of the round under way have stood: their cups, to be frozen (SIGSTOP) so that
    when the last one stands the round cannot end, since their reveals never come: the moment "every cup of
    the round stood, not every reveal logged" then lasts until the host's timeouts, seconds, not the
    milliseconds between the last stand and the reveals, which a look at the log every 20 ms mostly missed."""
    after, order = segment(evs)
    if not order or len(order) < 2:
        return None
    stood = {e["seat"] for e in after if e["ev"] == "done"}
    if len(stood & set(order)) != len(order) - 1:
        return None
    cups = {p["seat"]: p["cup"] for p in evs[0].get("players", ())} if evs and evs[0]["ev"] == "start" else {}
    return {cups[s] for s in stood if s in cups}


def kill_when(proc, log_dir, ready, timeout=GAME_TIMEOUT, freeze=None):
    """SIGKILL ``proc`` (and the cup processes it started) as soon as ``ready(events)`` is true for its log.
    ``freeze(events)``, looked at until it names cup ids, picks cups to SIGSTOP on the way (killed with the
    host). Returns the log path and the events the log had when the host was killed."""
    held = []  # frozen cups: killed however this ends, never left stopped
    try:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            logs = list(Path(log_dir).glob("*.jsonl"))
            if logs:
                try:
                    evs = read_log(logs[0])
                except ValueError:  # a line being written
                    evs = None
                if evs is not None and freeze is not None:
                    frozen = freeze(evs)
                    if frozen:
                        pids = cup_pids(proc.pid)
                        for cup in frozen:
                            if cup in pids:
                                os.kill(pids[cup], signal.SIGSTOP)
                                held.append(pids[cup])
                        freeze = None
                if evs is not None and ready(evs):
                    # Stopped at once, killed after: finding its cups in /proc takes long enough for a bot
                    # table in scaled time to finish the round the kill was meant to fall into.
                    proc.send_signal(signal.SIGSTOP)
                    cups = children(proc.pid)
                    proc.send_signal(signal.SIGKILL)
                    proc.wait(10)
                    for pid in cups:  # the cups run in their own sessions: they would outlive their host
                        try:
                            os.kill(pid, signal.SIGKILL)
                        except ProcessLookupError:
                            pass
                    return logs[0], read_log(logs[0])
            if proc.poll() is not None:
                raise EndedTooSoon("the game ended before it could be killed")
            time.sleep(0.02)
        raise AssertionError("the log never got there")
    finally:
        for pid in held:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def wait_proc(proc, timeout=GAME_TIMEOUT):
    try:
        return proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)
        raise AssertionError("schocken play did not finish within %d s" % timeout)


# --- what the tests of a lab share ---------------------------------------------------------------------
WAIT = GAME_TIMEOUT + 30    # s a test waits for its game's result


def once(key, check):
    """A hook that notes in ``ui.data[key]`` the first event for which ``check(ui, st, ev)`` holds."""
    def hook(ui, st, ev):
        if key not in ui.data and check(ui, st, ev):
            ui.data[key] = {"round": st.round, "ev": dict(ev)}
            return True
        return False
    return hook


def arm_at_first_round(seat, line):
    """A hook: at the first turn of a real round (not a throw-off), ``line`` to the seat's control channel
    (a cheat to arm); ``ui.data["armed"]`` is that round."""
    first = once("armed", lambda ui, st, ev: ev["ev"] == "turn" and ev.get("kind") == "round")

    def hook(ui, st, ev):
        if first(ui, st, ev):
            ui.data["armed"] = ev["round"]
            ui.game.cup(seat).control(line)
    return hook


def finished(lab, name):
    """The lab's game ``name`` played to its end, cleanly, its log reading back to the live standings:
    (game, the log's events)."""
    game = lab.futures[name].result(WAIT)
    st = game.state
    assert game.ui.errors == [], game.ui.errors
    assert st.over and st.loser is not None, name
    log = read_log(game.log)
    assert log[0]["ev"] == "start" and log[-1]["ev"] == "game_over"
    assert replay_json(game.log) == json.loads(json.dumps(st.standings()))  # the log reads back
    return game, log


def one_line(proc):
    """The refusal printed by cli.main: one line on standard error, no traceback."""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    return lines[0]
