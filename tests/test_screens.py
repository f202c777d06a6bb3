"""The scoreboard at the terminal sizes people have (issue 31, 3): a whole game of `schocken play --emulate
4 --bots 3` (emulated cups on the MicroPython unix port, the bots at --time-scale) played by a person through
the keys of a real terminal (tmux) at 80x24, and at 120x40 until three of his throws and three reveals.

After every throw of his and after every reveal the captured screen is checked: the key help, his own cup with
the dice the host looked at for him, the last round's result with his revealed throw, at least three lines of
history, the players' names whole and no line that is a lone "·". The game log says what happened (it is
the record); the screen is waited for, bounded, until it shows it. At 80x24, 100x30 and 160x50 his first throw
with --web: the same checks, the page's address and PIN on screen, c shows the QR code. ``layout_for`` is
checked against the sizes, and the scoreboard's pilot checks the web line, the QR code and a refusal's end.
"""

import json
import re
import shutil
import time
from pathlib import Path

import pytest

from schocken_host.views import keymap
from schocken_host.table.own_cup import OwnCup
from schocken_host.views.scoreboard import Scoreboard
from schocken_host.views.scoreboard.layout import QRCodeScreen, TooSmallScreen, layout_for

from conftest import micropython_path
from kits.scorekit import ROUND_2, THROW_OFF, FakeCup, Table, check_snapshot, run_async, until
from kits.termkit import Terminal

PERSON = 3                 # the bots take the first emulated cups: the person plays the fourth
NAMES = ["Bot 1", "Bot 2", "Bot 3", "Spieler 4"]
START_S = 120              # four emulated cups started and the first turn given, on a busy machine
STEP_S = 60                # one key carried out, the host's look under the cup, the screen redrawn (a bound)
GAME_S = 900               # a whole game, bounded
ANY_RESULT = "a round's result"
TIME_SCALE = 20
HIS_DICE = r"unter dem Becher gesehen( \d){1,3}"   # his panel after the host looked under his cup for him
REVEAL_S = 5.0             # a ranked round's reveal stays this long at least (scaled by --time-scale)
AGAIN_S = 8                # a key without its event in the log this long is pressed again

needs_mp = pytest.mark.skipif(micropython_path() is None, reason="needs the micropython unix port")
needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux for a real terminal")


@pytest.mark.parametrize("size, players, person, web, mode", [
    ((80, 24), 4, True, True, "small"), ((80, 24), 4, False, False, "small"),
    ((100, 30), 4, True, True, "medium"), ((120, 40), 4, True, True, "big"),
    ((160, 50), 4, True, True, "big"), ((160, 50), 8, True, False, "big"),
    ((100, 30), 8, True, False, "small"),
])
def test_the_layout_fits_the_terminal(size, players, person, web, mode):
    assert layout_for(size[0], size[1], players, person=person, web=web) == mode


class FakeWeb:
    """What the scoreboard reads of views/web/server.WebView."""
    url = "http://192.168.1.20:8015/"
    pin = "123456"

    def join_info(self):
        return {"url": self.url, "urls": [self.url, "http://127.0.0.1:8015/"], "pin": self.pin,
                "qr": "█▀▀▀▀▀█ QR"}


@run_async
async def test_the_web_line_stays_and_c_shows_the_qr_code_at_80x24():
    app = Scoreboard(lang="de", web=FakeWeb())
    async with app.run_test(size=(80, 24)) as pilot:
        table = Table(app=app)
        table.start()
        table.emit_all(table.throw_off(THROW_OFF))
        for n in range(40):                      # the history scrolls on; the web line stays
            app.note("Zeile %d" % n)
        await pilot.pause()
        assert app.text_of("#web") == "Seite: http://192.168.1.20:8015/ · PIN: 123456 · c: QR-Code"
        assert app.query_one("#web").region.height == 1 and app.query_one("#web").region.y < 24
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, QRCodeScreen)
        shown = app.screen.text.plain
        assert "█▀▀▀▀▀█ QR" in shown and "123456" in shown and "http://127.0.0.1:8015/" in shown
        await pilot.press("a")                   # any key takes it away (and goes to no cup)
        await pilot.pause()
        assert not isinstance(app.screen, QRCodeScreen)
        assert app.is_running


@run_async
async def test_below_80x24_the_scoreboard_says_it_is_too_small_and_plays_on_when_it_is_big_enough():
    app = Scoreboard(lang="de")
    async with app.run_test(size=(70, 20)) as pilot:
        Table(app=app).start()
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        said = app.screen.text
        assert "zu klein" in said and "70x20" in said and "80x24" in said, said
        await pilot.resize_terminal(80, 23)
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen) and "80x23" in app.screen.text
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not isinstance(app.screen, TooSmallScreen) and app.layout_mode in ("small", "medium")
        assert app.text_of("#phase").startswith("Auswürfeln")   # the table, drawn again


@run_async
async def test_without_web_there_is_no_web_line_and_no_qr_key():
    app = Scoreboard(lang="de")
    async with app.run_test(size=(80, 24)) as pilot:
        Table(app=app).start()
        await pilot.press("c")
        await pilot.pause()
        assert not app.query_one("#web").display and not isinstance(app.screen, QRCodeScreen)


@run_async
async def test_a_refusal_stays_until_the_next_key_and_an_unlit_status_says_nothing():
    """A refused key's reason stays until the person's next key, whatever the table does meanwhile (issue 41:
    it lasted 0.29 s, until the next turn)."""
    app = Scoreboard(lang="de")
    async with app.run_test(size=(80, 24)) as pilot:
        table = Table(app=app)
        table.start(opener=0)
        cup = FakeCup()
        app.show_person(OwnCup(cup, 0, table.st))
        cup.show((0, 0, 0), status=(0, 0, 0))                # the status pixel off
        await pilot.pause()
        assert "Status" not in app.own_text() and " - " not in app.own_text()
        events = table.round(ROUND_2)
        table.emit_all(events[:until(events, "turn", seat=1)])
        app.refused(0, "nicht dein Zug")
        await pilot.pause(0.5)
        assert "✗ nicht dein Zug" in app.own_text()
        table.emit({"ev": "progress", "round": 1, "seat": 1, "throws": 1, "public": []})  # another's throw
        await pilot.pause()
        assert "✗ nicht dein Zug" in app.own_text()
        await pilot.press("s")                                 # his next key
        await pilot.pause()
        assert "✗" not in app.own_text()
        app.refused(0, "nicht dein Zug")                       # the same reason for the next key: it says so
        await pilot.pause()
        assert "✗ nicht dein Zug (2×)" in app.own_text()
        rest = events[until(events, "turn", seat=1):]
        table.emit_all(rest[:until(rest, "turn", seat=2)])     # a change of turn
        await pilot.pause()
        assert "✗ nicht dein Zug" in app.own_text()
        await pilot.press("p")
        await pilot.pause()
        assert "✗" not in app.own_text()


@run_async
async def test_the_small_layout_after_a_ranked_round_at_80x24():
    app = Scoreboard(lang="de", web=FakeWeb())
    async with app.run_test(size=(80, 24)) as pilot:
        table = Table(names=("Anna", "Ben", "Cem", "Dora"), app=app)
        table.start(opener=0)
        cup = FakeCup()
        app.show_person(OwnCup(cup, 0, table.st))
        plays = ROUND_2 | {3: ((6, 6, 1), 1, [])}
        events = table.round(plays)
        table.emit_all(events[:until(events, "progress", seat=0)])
        cup.show((6, 3, 2))
        table.emit_all(events[until(events, "progress", seat=0):])
        await pilot.pause()
        assert app.layout_mode == "small"
        rows = app.text_of("#rows")
        assert app.text_of("#result") == ("Runde 1: Anna verliert und bekommt 4 Deckel aus der Mitte "
                                          "(Ben: Schock 4).")
        # One line per player, whatever is on turn: a line that wrapped took the history's room. What the dice
        # are is shortened by rule where there is no room, never cut mid-word (issue 41: "Schock 2 · 1 Wu…");
        # the history has it whole.
        assert len(rows.splitlines()) == 4, rows
        for name, line in zip(("Anna", "Ben", "Cem", "Dora"), rows.splitlines()):
            assert name in line
            assert "…" not in line and len(line) <= 78, rows
        assert "632 · 2 Würfe" in rows and "Schock 4 · 2 Würfe" in rows and "z…" not in rows
        assert "Ben deckt auf: 1-1-4 = Schock 4 (2 Würfe, zusammengewürfelt)" in app.text_of("#log")
        await check_snapshot(pilot, app, "small_80x24")


class GameLog:
    """The game log read as it grows (whole lines only)."""

    def __init__(self, log_dir):
        self.dir = Path(log_dir)
        self.path = None
        self.done = 0            # characters read
        self.events = []

    def new(self):
        if self.path is None:
            logs = sorted(self.dir.glob("*.jsonl"))
            if not logs:
                return []
            self.path = logs[0]
        text = self.path.read_text(encoding="utf-8")
        end = text.rfind("\n") + 1
        fresh = [json.loads(line) for line in text[self.done:end].splitlines() if line.strip()]
        self.done = end
        self.events += fresh
        return fresh


def history_lines(screen):
    """The lines of history under the log's title (up to the footer or the log's bottom border)."""
    lines = screen.splitlines()
    top = next(n for n, line in enumerate(lines) if "Verlauf" in line and "─" in line)
    shown = []
    for line in lines[top + 1:]:
        if line.startswith(("╰", " q ")) or not line.strip("│ ▁▂▃▄▅▆▇█"):
            continue
        shown.append(line)
    return shown


def check_screen(screen, what, result=None):
    """What every screen of the game must show (``result``: the last round's line, once there is one)."""
    def ok(cond, why):
        assert cond, "%s: %s\n%s" % (what, why, screen)
    flat = " ".join(screen.split())
    if "SPIEL AUS" in screen:   # the game's end: no key of his cup is left, the footer says how to quit
        ok("q beendet" in screen, "the banner's quit key")
    else:
        for keys, does in keymap.help_rows("de", reveal=False):
            ok("%s %s" % (keys, does) in flat, "the key help's entry %r" % ("%s %s" % (keys, does)))
        ok("r aufdecken" not in flat, "no reveal key where the host uncovers every cup (issue 41)")
        ok("Dein Becher · Spieler 4" in screen, "the person's own cup")
    for name in NAMES:
        ok(name in screen, "the player %r, whole" % name)
    if result is not None:   # that round's, or one ranked since (a throw can end a round before the capture)
        any_result = re.search(r"(Runde \d+: .+ (verliert|\+\d+ Deckel|alle Deckel)|Auswürfeln: )", flat)
        ok(result in flat or (result is ANY_RESULT and any_result), "the last round %r" % result)
    ok(len(history_lines(screen)) >= 3, "three lines of history")
    for line in screen.splitlines():
        ok(line.strip(" │┃") != "·", "a lone '·' on a line")
        ok(len(line) <= 400, "a line of the screen")


def result_text(ev, number):
    """The start of the result line of a ranked round (the ``number``-th, as people count them) or of the
    throw-off, as the scoreboard writes it."""
    if ev["ev"] == "throw_off":
        if ev.get("opener") is None:
            return "Auswürfeln: Gleichstand"
        return "Auswürfeln: %s hat den niedrigsten Wurf" % NAMES[ev["opener"]]
    return "Runde %d: %s" % (number, NAMES[ev["worst"]])


def until_or_past(term, log, check, round_no, what):
    """The first settled screen for which ``check`` holds; None if the log shows the next round's first
    throw, the person's own turn in it (he opens it: no throw comes until this test presses for him) or the
    game's end before a capture caught it (what it waits for is then gone by design: the reveal stays 3 s
    scaled by the time scale, a moment a capture on a loaded machine can miss)."""
    end = time.monotonic() + STEP_S
    before = None
    while True:
        # Two captures alike: a screen caught while the terminal was still drawing it (a part of one line
        # over the rest of another) is no screen a person sees.
        screen = term.screen()
        holds = check(screen)
        if holds and screen == before:
            return screen
        before = screen if holds else None
        log.new()
        if any((ev["ev"] in ("progress", "turn") and ev["round"] > round_no
                and (ev["ev"] == "progress" or ev["seat"] == PERSON)) or ev["ev"] == "game_over"
               for ev in log.events):
            return None
        if time.monotonic() > end:
            raise AssertionError("waited %.0f s in vain for %s:\n%s" % (STEP_S, what, screen))
        time.sleep(0.02 if holds else 0.1)


def play_a_whole_game(term, log, enough=None):
    """The person's part: at each turn of his one shake (and Enter if the cup has not stood by itself); the
    screen checked after each of his throws and each reveal, until the game's end or, with ``enough``, until
    that many of his throws and reveals are checked. Returns the number of his throws and of the reveals
    checked."""
    throws = reveals = 0
    seen = 0                 # events of the log handled
    result = None
    reveal_of = {}           # round -> the person's revealed throw's label
    ranked = 0               # rounds ranked so far: the number people know the last one by
    end = time.monotonic() + GAME_S
    on_turn = None           # the person's turn in play: (round, limit)
    waiting = None           # (key, when it was pressed) until the log shows its effect
    while True:
        if enough is not None and throws >= enough and reveals >= enough:
            return throws, reveals
        assert time.monotonic() < end, "the game did not end within %d s:\n%s" % (GAME_S, term.screen())
        log.new()
        fresh, seen = log.events[seen:], len(log.events)
        if not fresh:
            if waiting is not None and time.monotonic() - waiting[1] > AGAIN_S:
                # a key that came before his cup knew of its turn is refused: pressed again
                term.keys(waiting[0])
                waiting = (waiting[0], time.monotonic())
            time.sleep(0.1)
            continue
        for ev in fresh:
            kind = ev["ev"]
            if kind == "turn" and ev["seat"] == PERSON:
                on_turn = (ev["round"], ev.get("limit"))
                term.keys("s")
                waiting = ("s", time.monotonic())
            elif kind == "progress" and ev["seat"] == PERSON and on_turn and ev["throws"] >= 1:
                waiting = None
                screen = until_or_past(term, log, lambda s: re.search(HIS_DICE, s), ev["round"],
                                       "his dice on his panel after his throw %d" % (throws + 1))
                if screen is not None:
                    throws += 1
                    check_screen(screen, "after his throw %d" % throws, result and ANY_RESULT)
                if on_turn[1] != 1:     # with a limit of one the cup stands by itself
                    term.keys("Enter")
                    waiting = ("Enter", time.monotonic())
                on_turn = None
            elif kind == "done" and ev["seat"] == PERSON:
                waiting = None
            elif kind == "reveal" and ev["seat"] == PERSON:
                reveal_of[ev["round"]] = ev["label"]
            elif kind in ("round", "throw_off"):
                ranked += kind == "round"
                result = result_text(ev, ranked)
                mine = reveal_of.get(ev["round"])
                if PERSON not in ev.get("order", ev.get("seats", [])) or mine is None:
                    continue         # bots alone: their rounds may follow one another faster than a capture
                words = mine.split()
                screen = until_or_past(term, log, lambda s: result in " ".join(s.split())
                                       and all(w in s for w in words), ev["round"],
                                       "the reveal of round %d" % ev["round"])
                if screen is not None:
                    reveals += 1
                    check_screen(screen, "after the reveal of round %d" % ev["round"], result)
            elif kind == "game_over":
                screen = term.until(lambda s: "SPIEL AUS" in s, STEP_S, "the game's end")
                return throws, reveals


@needs_mp
@needs_tmux
@pytest.mark.parametrize("width, height, enough", [(80, 24, None), (120, 40, 3)])
def test_a_whole_game_through_the_keys_at(width, height, enough, tmp_path):
    """80x24, the smallest terminal, plays the whole game; 120x40 has room to spare and plays until three of
    the person's throws and three reveals are checked, then q ends it as it ends any game."""
    term = Terminal(tmp_path, width, height)
    logs = tmp_path / "logs"
    log = GameLog(logs)
    try:
        term.start(["play", "--emulate", 4, "--bots", 3, "--time-scale", TIME_SCALE, "--no-fair"], logs)
        term.until(lambda s: "Dein Becher" in s, START_S, "the scoreboard with the person's panel")
        throws, reveals = play_a_whole_game(term, log, enough)
        term.keys("q")
        rc = term.exit_status(60)
        screen = term.screen()
    finally:
        term.close()
    assert rc == 0, screen
    assert throws >= 3 and reveals >= 3, (throws, reveals)
    # Every reveal stayed: the next round's first turn came 3 s (scaled) after a ranked round at the earliest.
    ranked = None
    for ev in log.events:
        if ev["ev"] in ("round", "throw_off"):
            ranked = ev
        elif ev["ev"] == "turn" and ranked is not None:
            assert ev["ts"] - ranked["ts"] >= REVEAL_S / TIME_SCALE - 0.002, (ranked, ev)
            ranked = None


@needs_mp
@needs_tmux
@pytest.mark.parametrize("width, height", [(80, 24), (100, 30), (160, 50)])
def test_his_first_throw_with_the_web_line_at(width, height, tmp_path):
    term = Terminal(tmp_path, width, height)
    logs = tmp_path / "logs"
    try:
        term.start(["play", "--emulate", 4, "--bots", 3, "--time-scale", 10, "--no-fair",
                    "--opener", PERSON + 1, "--web", "127.0.0.1:0"], logs)
        term.until(lambda s: "Spieler 4 ist am Zug" in s and "Dein Becher" in s, START_S, "his first turn")
        screen = term.until(lambda s: "Seite: http://127.0.0.1:" in s and "PIN: " in s and "c: QR-Code" in s,
                            STEP_S, "the web line")
        term.keys("s")
        screen = term.until(lambda s: re.search(r"unter dem Becher gesehen( \d){3}", s), STEP_S,
                            "his dice on his panel after his first throw")
        check_screen(screen, "his first throw at %dx%d" % (width, height))
        assert "Seite: http://127.0.0.1:" in screen, screen
        term.keys("c")
        term.until(lambda s: "Eine Taste schließt." in s, STEP_S, "the QR code")
        term.keys("a")
        term.until(lambda s: "Eine Taste schließt." not in s and "Dein Becher" in s, STEP_S,
                   "the table again")
        term.keys("q")
        rc = term.exit_status(60)
    finally:
        term.close()
    assert rc == 0
