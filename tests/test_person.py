"""A person at an emulated table, through the real path: `schocken play` with emulated cups (the firmware on
the MicroPython unix port), played from the keyboard of the real Textual scoreboard (its test pilot), of a
real terminal (tmux) and of `--plain` (lines on standard input).

Checked: a peek shows the person his own dice and never stands; the dice he saw stay on his panel until he
throws again; a refused key shows its reason at once; the key help is on screen; `q` (or Ctrl-C, or the end of
`--plain`'s input) midway exits 0 with the resume hint, and `--resume` continues that log. Every wait has a
timeout and says what it waited for.
"""

import codecs
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from schocken_host.views import keymap
from schocken_host.commands import play as play_cmd
from schocken_host.links import ledframe
from schocken_host.table import gamelog, seating
from schocken_host.table.session import GameSession
from schocken_host.views.scoreboard import Scoreboard

from conftest import micropython_path
from kits.scorekit import run_async
from kits.tablekit import RecordingCup, game_config, play_args, read_log
from kits.termkit import Terminal

ROOT = Path(__file__).resolve().parents[1]
SCHOCKEN = [sys.executable, "-m", "schocken_host.cli"]
START_S = 120      # two emulated cups started and the first turn given, on a busy machine
STEP_S = 10        # one key carried out and its effect seen

needs_mp = pytest.mark.skipif(micropython_path() is None, reason="needs the micropython unix port")
needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux for a real terminal")


def env(log_dir=None):
    """This checkout's host tools and rules package first (another checkout may be installed in the venv)."""
    e = dict(os.environ, PYTHONUNBUFFERED="1")
    e["PYTHONPATH"] = os.pathsep.join([str(ROOT / "host_tools"), str(ROOT / "firmware" / "lib")]
                                      + ([e["PYTHONPATH"]] if e.get("PYTHONPATH") else []))
    if log_dir is not None:
        e["SCHOCKEN_LOG_DIR"] = str(log_dir)
    return e


async def wait(pilot, check, timeout, what, show=lambda: ""):
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise AssertionError("waited %.0f s in vain for %s\n%s" % (timeout, what, show()))
        await pilot.pause(0.05)


# --- the scoreboard's test pilot ------------------------------------------------------------------------
@needs_mp
@run_async
async def test_a_persons_turn_on_the_scoreboard(tmp_path, monkeypatch):
    # Seat 1 is the person (the bots take the first emulated cups); he opens, so he has three throws.
    monkeypatch.setattr(seating, "EmulatedCup", RecordingCup)
    session = GameSession(game_config(["Bot", "Anna"], tmp_path, bots=1, opener=1, fair=False, time_scale=1),
                          inputs=play_cmd.person_inputs(plain=False))
    app = Scoreboard(lang="de", game=session.run)
    async with app.run_test(size=(120, 50)) as pilot:
        def show():
            return "panel:\n%s\nlog:\n%s" % (app.own_text() if app.own else "-", app.text_of("#log")[-1500:])

        await wait(pilot, lambda: app.own is not None and app.state is not None and app.state.on_turn == 1,
                   START_S, "the person's turn", show)
        me, own = app.state.players[1], app.own
        assert own.seat == 1 and own.cup.long_ms == keymap.PERSON_LONG_MS

        # The key help of the one key map is on screen (r only with --reveal button: issue 41); a peek before
        # the first throw is refused, with why.
        assert keymap.help_text("de", reveal=False) in " ".join(app.own_text().splitlines())
        assert "r aufdecken" not in app.own_text()
        await pilot.press("p")
        await wait(pilot, lambda: "✗ erst würfeln" in app.own_text(), STEP_S, "the refusal's reason", show)
        assert "Anna: abgelehnt – erst würfeln" in app.text_of("#log")
        assert me.throws == 0 and not me.done

        # Shake: the host looks under the cup for him (issue 31), the panel shows the dice under the cup
        # without a key; then his own peek, which does not stand either.
        own.cup.control("dice 1 4 2")
        await pilot.press("s")
        await wait(pilot, lambda: me.throws == 1, STEP_S, "the first throw", show)
        await wait(pilot, lambda: "unter dem Becher gesehen 1 4 2" in app.own_text(), STEP_S,
                   "the dice under the cup on the panel, looked at by the host", show)
        await pilot.press("p")
        await wait(pilot, lambda: ledframe.decode(own.cup.last_frame)["dice"] == [0, 0, 0], STEP_S,
                   "the main button released (the dice covered again)", show)
        # past the cup's long press, counted from the peek's start
        await pilot.pause(keymap.PERSON_LONG_MS / 1000)
        assert me.throws == 1 and not me.done and app.state.on_turn == 1, show()
        assert "am Zug · Wurf 1/3" in app.card_text(1)
        assert "unter dem Becher gesehen 1 4 2" in app.own_text()   # he remembers what he saw

        # Set the one aside, throw the other two: what he saw is gone, the one lies out; then stand.
        await pilot.press("1")
        await wait(pilot, lambda: me.public == [[0, 1]], STEP_S, "die 1 set aside", show)
        own.cup.control("dice 5 5")
        await pilot.press("s")
        await wait(pilot, lambda: me.throws == 2, STEP_S, "the second throw", show)
        await wait(pilot, lambda: "beiseite 1 · unter dem Becher gesehen 5 5" in app.own_text(), STEP_S,
                   "the panel after the second throw", show)
        # The bot plays after him: its cup does not answer (SIGSTOP) until his peek after standing is
        # checked, so the round's reveal cannot come first.
        bot = RecordingCup.registry["Bot"]
        bot.freeze()
        try:
            await pilot.press("enter")
            await wait(pilot, lambda: me.done, STEP_S, "the person standing", show)
            assert me.throws == 2
            # Stood: his dice stay on his panel, and a peek still shows them (never "du stehst schon").
            await pilot.press("p")
            await pilot.pause(keymap.PERSON_LONG_MS / 1000)
            assert "beiseite 1 · unter dem Becher gesehen 5 5" in app.own_text(), show()
            assert "stehst schon" not in app.own_text()
            assert own.cup.cup_id == "emu2"   # the panel reads the person's cup, never the bot's (emu1)
        finally:
            bot.thaw()
        await pilot.press("q")
        await pilot.pause()
    assert not app.finished and app.final_state is None
    assert play_cmd.resume_hint(play_args([]), session.log_path, "de") == (
        "Spiel unterbrochen. Weiter mit: schocken play --resume %s" % session.log_path)


@needs_mp
@run_async
async def test_a_shake_on_the_screens_word_waits_until_his_cup_hears_of_his_turn(tmp_path, monkeypatch):
    """A slow disk: the screen shows his turn before the log has it on disk, and his cup hears of it only
    after (cuplinks). His s pressed at once is carried out when the turn is on disk: a throw, no refusal."""
    fsync = gamelog.GameLog._fsync_fd

    def slow_disk(log):
        time.sleep(0.5)
        fsync(log)
    monkeypatch.setattr(gamelog.GameLog, "_fsync_fd", slow_disk)
    session = GameSession(game_config(["Bot", "Anna"], tmp_path, bots=1, opener=1, fair=False, time_scale=20),
                          inputs=play_cmd.person_inputs(plain=False))
    app = Scoreboard(lang="de", game=session.run)
    async with app.run_test(size=(120, 50)) as pilot:
        def show():
            return "log:\n%s" % app.text_of("#log")[-1500:]

        await wait(pilot, lambda: app.own is not None and app.state is not None and app.state.on_turn == 1,
                   START_S, "the person's turn", show)
        me = app.state.players[1]
        await pilot.press("s")
        await wait(pilot, lambda: me.throws == 1 or "abgelehnt" in app.text_of("#log"), STEP_S, "his throw",
                   show)
        assert me.throws == 1 and "abgelehnt" not in app.text_of("#log"), show()
        await pilot.press("q")
        await pilot.pause()


@needs_mp
@run_async
async def test_sechsen_drehen_on_a_general_says_first_that_it_gives_the_general_up(tmp_path):
    """On 6-6-6 a long press of a die turns the sixes into ones and gives the General up: the first press only
    says so (issue 41), the next one turns them."""
    session = GameSession(game_config(["Bot", "Anna"], tmp_path, bots=1, opener=1, fair=False, time_scale=1),
                          inputs=play_cmd.person_inputs(plain=False))
    app = Scoreboard(lang="de", game=session.run)
    async with app.run_test(size=(120, 50)) as pilot:
        def show():
            return "panel:\n%s" % (app.own_text() if app.own else "-")

        await wait(pilot, lambda: app.own is not None and app.state is not None and app.state.on_turn == 1,
                   START_S, "the person's turn", show)
        me, own = app.state.players[1], app.own
        own.cup.control("dice 6 6 6")
        await pilot.press("s")
        await wait(pilot, lambda: "unter dem Becher gesehen 6 6 6" in app.own_text(), STEP_S,
                   "the General under the cup", show)
        await pilot.press("4")
        await wait(pilot, lambda: "✗ Sechsen drehen gibt den General auf" in app.own_text(), STEP_S,
                   "the warning", show)
        await pilot.pause(keymap.PERSON_LONG_MS / 1000 + 0.5)
        assert me.public == [] and me.throws == 1, show()        # nothing turned
        await pilot.press("4")
        await wait(pilot, lambda: [v for _, v in me.public] == [1, 1], STEP_S, "the sixes turned", show)
        await pilot.press("q")
        await pilot.pause()


# --- --plain: lines on standard input ---------------------------------------------------------------------
class Lines:
    """A `schocken play --plain` subprocess: its output read with a deadline, its input written line by
    line."""

    def __init__(self, argv, log_dir):
        self.proc = subprocess.Popen(SCHOCKEN + [str(a) for a in argv], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env(log_dir),
                                     cwd=ROOT, text=True, bufsize=1)
        self.out = []
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def text(self):
        return "".join(self.out)

    def until(self, check, timeout, what):
        end = time.monotonic() + timeout
        while not check(self.text()):
            left = end - time.monotonic()
            if (left <= 0 or self.proc.poll() is not None
                    and not select.select([self.proc.stdout], [], [], 0)[0]):
                raise AssertionError("waited in vain for %s (exit %s):\n%s" % (what, self.proc.poll(),
                                                                              self.text()[-3000:]))
            if select.select([self.proc.stdout], [], [], min(left, 0.2))[0]:
                # What the pipe holds, read past the text layer: a readline would leave the lines it read
                # ahead in its buffer, where select does not see them, until the program writes again.
                data = os.read(self.proc.stdout.fileno(), 65536)
                if data:
                    self.out.append(self.decoder.decode(data))

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def finish(self, timeout=30):
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise AssertionError("schocken play did not end within %d s:\n%s"
                                 % (timeout, self.text()[-3000:]))
        self.out.append(self.proc.stdout.read())
        return rc

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


def hinted(text, words, log):
    """The resume hint is in ``text``: ``words``, then the command as it was started (``.venv/bin/schocken``
    here, started as ``python -m``), then ``play --resume LOG``."""
    return any(line.startswith(words) and line.partition(words)[2].split(" play --resume ")[0].endswith(
        "schocken") and " play --resume %s" % log in line for line in text.splitlines())


def the_log(log_dir):
    logs = sorted(Path(log_dir).glob("*.jsonl"))
    assert len(logs) == 1, logs
    return logs[0]


@needs_mp
def test_plain_a_person_peeks_sees_his_dice_and_q_stops_with_the_resume_hint(tmp_path):
    game = Lines(["--lang", "en", "play", "--plain", "--emulate", 2, "--bots", 1, "--opener", 2,
                  "--names", "Bot,Anna"], tmp_path)
    try:
        game.until(lambda t: "Round 1: Anna is on turn." in t, START_S, "the person's turn")
        assert game.text().count("Keys: s shake · 1 2 3 die aside/back") == 1   # the key help, once, first
        assert game.text().index("Keys:") < game.text().index("Round 1:")
        game.send("p")
        game.until(lambda t: "Anna: refused – throw first" in t, STEP_S, "the refusal's reason")
        game.send("drop x")    # a typo gets its line, and the game goes on
        game.until(lambda t: "Unknown input 'drop x': wait N, forfeit N, drop N, ein N, q (quit)" in t,
                   STEP_S, "the unknown line named")
        game.proc.stdin.write("dro")  # a line that comes in two reads is one line all the same
        game.proc.stdin.flush()
        time.sleep(0.3)
        game.send("p y")
        game.until(lambda t: "Unknown input 'drop y'" in t, STEP_S, "the line that came in two pieces")
        assert "'dro'" not in game.text() and "'p y'" not in game.text()
        assert "r reveal" not in game.text()     # only with --reveal button (issue 41)
        game.send("s")
        game.send("p")
        # Both keys answered at once: the shake, and the peek after it (issue 41).
        game.until(lambda t: "Your cup: shaking … · then: looking under the cup …" in t, STEP_S,
                   "the shake and the peek said as they are pressed")
        game.until(lambda t: "Your cup: seen under the cup " in t, STEP_S + 5, "the dice seen while peeking")
        time.sleep(keymap.PERSON_LONG_MS / 1000)
        game.until(lambda t: "Anna: throw 1" in t, STEP_S, "the throw")
        assert "Anna stands" not in game.text()
        game.send("q")
        rc = game.finish()
    finally:
        game.kill()
    log = the_log(tmp_path)
    assert rc == 0, game.text()[-3000:]
    assert hinted(game.text(), "Game interrupted. Continue with: ", log)
    assert "Anna stands" not in game.text()
    assert not [e for e in read_log(log) if e["ev"] == "game_over"]


HANGING_STOP = """
import signal, sys, time, types
from schocken_host.commands import play
play.STOP_S = 0.5
log = sys.argv[1]
open(log, "w").write("{}\\n")
args = types.SimpleNamespace(port=[], ble=[], table=None)
session = types.SimpleNamespace(log_path=log)
signal.signal(signal.SIGINT, play._stop_in_time(args, session, "en"))
ready = False
while True:  # a stop that never ends: every KeyboardInterrupt swallowed
    try:
        if not ready:  # said inside the try: a Ctrl-C right after "ready" is swallowed too
            ready = True
            print("ready", flush=True)
        time.sleep(60)
    except KeyboardInterrupt:
        pass
"""


def test_a_ctrl_c_whose_stop_hangs_still_ends_with_the_resume_hint(tmp_path):
    log = tmp_path / "game.jsonl"
    proc = subprocess.Popen([sys.executable, "-c", HANGING_STOP, str(log)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == 0
    assert "schocken play --resume %s" % log in out


@needs_mp
def test_plain_ctrl_c_midway_exits_0_with_the_resume_hint(tmp_path):
    game = Lines(["play", "--plain", "--emulate", 2, "--bots", 1, "--opener", 1], tmp_path)
    try:
        game.until(lambda t: "Runde 1: Bot 1 ist am Zug." in t, START_S, "the first turn")
        game.proc.send_signal(signal.SIGINT)
        rc = game.finish()
    finally:
        game.kill()
    assert rc == 0, game.text()[-3000:]
    assert hinted(game.text(), "Spiel unterbrochen. Weiter mit: ", the_log(tmp_path))
    assert "Traceback" not in game.text()


# --- a real terminal: the scoreboard under tmux (tests/kits/termkit.py) ---------------------------------
@needs_mp
@needs_tmux
def test_q_midway_in_a_real_terminal_exits_0_and_resume_continues_the_log(tmp_path):
    # Wide enough for the resume hint with the log's path in one line: pytest-xdist's tmp_path is longer.
    term = Terminal(tmp_path, width=240)
    logs = tmp_path / "logs"
    try:
        term.start(["play", "--emulate", 2, "--bots", 1, "--opener", 2, "--names", "Bot,Anna"], logs)
        # One capture holds all four: a second capture may catch the terminal mid-redraw (a frame half drawn).
        term.until(lambda s: ("Anna ist am Zug" in s and "Dein Becher" in s
                              and keymap.help_text("de", reveal=False) in s    # the key help, on screen
                              and "q Beenden" in s),                           # and the footer's quit key
                   START_S, "the person's turn with the key help and the footer")
        term.keys("s")
        term.until(lambda s: "Anna: Wurf 1" in s, STEP_S, "the throw")
        term.keys("q")
        rc = term.exit_status(30)
        screen = term.screen()
    finally:
        term.close()
    log = the_log(logs)
    assert rc == 0, screen
    assert hinted(screen, "Spiel unterbrochen. Weiter mit: ", log), screen
    assert "Error" not in screen and "Traceback" not in screen
    events = read_log(log)
    assert events[0]["ev"] == "start" and not [e for e in events if e["ev"] == "game_over"]

    # The hint's command continues that game: it resumes with Anna's cup still holding her throw (its flash
    # is kept beside the log), and stops again with q.
    game = Lines(["--lang", "en", "play", "--resume", log, "--plain"], logs)
    try:
        # The resumed screen says whose turn it is: hers, which her cup kept (no new turn event comes).
        game.until(lambda t: "Game resumed." in t and "Keys:" in t and "Anna is on turn" in t.split(
            "Game resumed.")[1], START_S, "the resumed game with whose turn it is")
        game.send("p")
        game.until(lambda t: "under the cup" in t or "Your cup" in t, STEP_S, "the person's cup after a peek")
        game.send("q")
        rc = game.finish()
    finally:
        game.kill()
    assert rc == 0, game.text()[-3000:]
    assert hinted(game.text(), "Game interrupted. Continue with: ", log)
    after = read_log(log)[len(events):]
    assert after and after[0]["ev"] == "resumed"
    # her throw was kept: no second turn
    assert not [e for e in after if e["ev"] == "turn" and e["seat"] == 1]
