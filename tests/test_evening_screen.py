"""The evening as the people at the table see it (issue 41), through the real path: `schocken play` with
emulated cups (the firmware on the MicroPython unix port) in a real terminal (tmux) at 80x24, and the cups'
own LEDs.

Checked: every key a person presses is answered on the first screen that changes after it: an accepted key
by what it does ("schüttelt …", "legt Würfel 1 beiseite …", "stehen …"), a refused one by its reason, which
stays until his next key whatever the table does meanwhile; the key-to-screen time is measured at time scale
1 (docs/benchmarks.md has the bench). A half's end shows as standings: the round that ends it leaves the
half's Deckel as they ended (the loser holds them all) beside the result, until the next round's first throw;
the throw-off is no "Runde 1", every round number on the screen is the one `replay` counts, and a bot's name
says "Bot" once. A cup hears "won" only for the round's best throw: a player who merely did not lose is not
told he won (his status pixel stays dark).
"""

import asyncio
import re
import shutil
import time

import pytest

from schocken_host.links import ledframe
from schocken_host.table import seating
from schocken_host.table.session import GameSession

from conftest import micropython_path
from kits.scorekit import run_async
from kits.tablekit import RecordingCup, RecordingUI, game_config, read_log, replay_json
from kits.termkit import Terminal
from test_screens import GameLog

needs_mp = pytest.mark.skipif(micropython_path() is None, reason="needs the micropython unix port")
needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux for a real terminal")

START_S = 120          # four emulated cups started and the first turn given, on a busy machine
STEP_S = 30            # a key carried out and its effect on the screen, on a busy machine
ANSWER_S = 1.0         # a key's answer on the screen: a bound far above the 100 ms it takes (the bench)


def panel(screen):
    """The person's panel ("Dein Becher" down to his key help): where his keys are answered. The table
    around it goes on (the bots' turns) whatever he presses."""
    lines = screen.splitlines()
    top = next((n for n, line in enumerate(lines) if "Dein Becher" in line), 0)
    end = next((n for n, line in enumerate(lines) if "Tasten:" in line and n > top), len(lines))
    return "\n".join(lines[top:end])


def answer_line(screen):
    """The panel's line where a key is answered: its reason, or what it is doing (the third of his cup's)."""
    lines = panel(screen).splitlines()
    return lines[3] if len(lines) > 3 else ""


def first_change(term, key, timeout=STEP_S):
    """Presses ``key`` and returns (seconds, screen) of the first capture whose answer line differs from the
    one before the key: what the person sees first of what his key does (his cup's status pixel, drawn on the
    line above, changes with the table's doing)."""
    before = answer_line(term.screen())
    start = time.monotonic()
    term.keys(key)
    while True:
        screen = term.screen()
        if answer_line(screen) != before:
            return time.monotonic() - start, screen
        assert time.monotonic() - start < timeout, "nothing changed %d s after %r:\n%s" % (
            timeout, key, screen)
        time.sleep(0.005)


@needs_mp
@needs_tmux
def test_every_key_is_answered_on_the_first_screen_after_it_and_a_refusal_stays_until_the_next_key(tmp_path):
    term = Terminal(tmp_path, 80, 24)
    logs = tmp_path / "logs"
    log = GameLog(logs)
    answers = {}
    try:
        term.start(["play", "--emulate", 4, "--bots", 3, "--opener", 4, "--no-fair"], logs)
        term.until(lambda s: "Spieler 4 ist am Zug" in s and "Dein Becher" in s, START_S, "his first turn")
        # Refused: a look before the first throw; its reason is the first thing that changes.
        answers["p (refused)"], screen = first_change(term, "p")
        assert "✗ erst würfeln" in screen, screen
        # Accepted: the shake is said at once; the throw lands most of a second later.
        answers["s"], screen = first_change(term, "s")
        assert "schüttelt …" in screen and "Wurf 1/3" not in screen, screen
        # From the throw until the host's look has shown him his dice: never "verdeckt" (issue 41: a flash of
        # it after every throw), every capture on the way kept.
        seen = [screen]
        end = time.monotonic() + STEP_S
        while "unter dem Becher gesehen" not in seen[-1]:
            assert time.monotonic() < end, "his dice never shown:\n%s" % seen[-1]
            seen.append(term.screen())
        assert not [s for s in seen if "verdeckt" in "\n".join(panel(s).splitlines()[1:2])], seen
        answers["1"], screen = first_change(term, "1")
        assert "legt Würfel 1 beiseite …" in screen, screen
        term.until(lambda s: "beiseite …" not in s, STEP_S, "the tap carried out")
        answers["Enter"], screen = first_change(term, "Enter")
        assert "stehen …" in screen and "steht" not in screen.splitlines()[4], screen
        term.until(lambda s: "Spieler 4 steht nach" in s and "stehen …" not in s, STEP_S, "his stand")
        # A refused key's reason stays while the table plays on: the bots' turns and throws.
        answers["s (refused)"], screen = first_change(term, "s")
        assert "✗ du stehst schon" in screen, screen
        throws_before = len([e for e in log.new() + log.events if e["ev"] == "progress" and e["seat"] != 3])
        end = time.monotonic() + STEP_S
        while len([e for e in log.events if e["ev"] == "progress" and e["seat"] != 3]) <= throws_before:
            assert time.monotonic() < end, "no bot threw after his stand"
            log.new()
            time.sleep(0.1)
        time.sleep(0.3)
        assert "✗ du stehst schon" in term.screen(), term.screen()
        term.keys("p")                       # his next key takes it away
        term.until(lambda s: "✗" not in s, STEP_S, "the reason gone at his next key")
        term.keys("q")
        assert term.exit_status(60) == 0
    finally:
        term.close()
    slow = {key: round(t, 3) for key, t in answers.items() if t > ANSWER_S}
    assert not slow, "keys answered after more than %.1f s: %s (all: %s)" % (ANSWER_S, slow, answers)


def rows_of(screen):
    """{name: the player's line} of the small layout (the lines that hold "N Deckel")."""
    out = {}
    for line in screen.splitlines():
        found = re.match(r"\s*▶?\s*\d (.+?)\s{2,}(\d+) Deckel", line)
        if found:
            out[found.group(1).strip()] = line
    return out


def thrown_after_the_half(screen):
    """Whether the screen shows a throw of the next half: its history (below "Verlauf") a throw after its line
    of the half's loss, or its header the second half's turn with a throw used (the rows and the header are
    drawn before the history's line of that throw)."""
    history = screen.split("Verlauf", 1)[-1].splitlines()
    lost = [n for n, line in enumerate(history) if "verliert die 1. Hälfte" in line]
    head = screen.splitlines()[0]
    return bool(lost) and (any(re.search(r": Wurf \d", line) for line in history[lost[-1] + 1:])
                           or "2. Hälfte" in head and re.search(r"Wurf [1-9]", head) is not None)


@needs_mp
@needs_tmux
def test_a_halfs_end_stays_as_standings_and_the_rounds_are_counted_as_replay_counts_them(tmp_path):
    """Halves of 3 Deckel played by four bots: every distinct screen is kept (captured every few ms), the
    game log says when a half ended and who lost it."""
    term = Terminal(tmp_path, 80, 24)
    logs = tmp_path / "logs"
    log = GameLog(logs)
    screens = []
    try:
        term.start(["play", "--emulate", 4, "--bots", 4, "--time-scale", 4, "--no-fair",
                    "--set", "deckel_total=3"], logs)
        end = time.monotonic() + 150
        while not any(e["ev"] == "half_lost" for e in log.events) or len(screens) < 2:
            assert time.monotonic() < end, "no half ended in time"
            screen = term.screen()
            if not screens or screen != screens[-1]:
                screens.append(screen)
            log.new()
            time.sleep(0.01)
        half = next(e for e in log.events if e["ev"] == "half_lost")
        # Until the next round's first throw the screens are kept too.
        while not any(e["ev"] == "progress" and e["ts"] > half["ts"] for e in log.events):
            assert time.monotonic() < end, "no throw after the half's end"
            screen = term.screen()
            if screen != screens[-1]:
                screens.append(screen)
            log.new()
            time.sleep(0.01)
        term.keys("q")
        term.exit_status(60)
    finally:
        term.close()
    events = read_log(log.path)
    names = {p["seat"]: p["name"] for p in events[0]["players"]}
    loser = names[half["seat"]]
    # The screens that tell the half's end before the next round's first throw: the last capture may come
    # after that throw was drawn (the loop above ends when it reads the throw in the log), and from the throw
    # on the rows are the next half's.
    ended = [s for s in screens
             if "verliert die 1. Hälfte" in " ".join(s.split()) and not thrown_after_the_half(s)]
    assert ended, "the half's end never on the screen"
    # The half as it ended: the loser holds all 3 Deckel on every screen that tells his loss (issue 41: the
    # rows showed the next half, his Deckel never appeared).
    for screen in ended:
        rows = rows_of(screen)
        assert "3 Deckel" in rows[loser], screen
        assert all(" 0 Deckel" in line for name, line in rows.items() if name != loser), screen
    # One round count: the throw-off is no round, and the numbers on the screen are the rounds ranked,
    # as replay counts them; a bot's name says Bot once.
    for screen in screens:
        head = screen.splitlines()[0]
        assert not ("Auswürfeln" in head and "Runde" in head), screen
        assert "(Bot)" not in screen, screen
    ranked = [e for e in events if e["ev"] == "round" and e["ts"] <= half["ts"]]
    for screen in ended:   # the header and the result line name the round that ended the half by its number
        head = screen.splitlines()[0]
        assert "Runde %d " % len(ranked) in head + " ", screen
        assert "Runde %d: " % len(ranked) in " ".join(screen.split()), screen
    assert replay_json(log.path)["rounds"] == len([e for e in events if e["ev"] == "round"])


@needs_mp
@run_async
async def test_only_the_rounds_best_throw_is_told_it_won(tmp_path, monkeypatch):
    """Three bots that stand on their first throw, their dice queued on their cups: Anna a Schock 6 (the
    best), Ben 642, Cem 322 (the worst). After the round Anna's status pixel says won (white), Cem's lost
    (red), and Ben's, who merely did not lose, is dark (issue 41: "weiß – gewonnen" for a 421 that lost
    nothing)."""
    monkeypatch.setattr(seating, "EmulatedCup", RecordingCup)
    names = ["Anna", "Ben", "Cem"]
    dice = {"Anna": "1 1 6", "Ben": "6 4 2", "Cem": "3 2 2"}
    ranked = asyncio.Event()

    def hook(ui, st, ev):
        if ev["ev"] == "start":
            for name in names:
                RecordingCup.registry[name].control("dice " + dice[name])
        elif ev["ev"] == "round":
            ranked.set()
    session = GameSession(game_config(names, tmp_path, bots=3, opener=0, fair=False, strategy="fast",
                                      time_scale=10))
    game = asyncio.ensure_future(session.run(lambda: RecordingUI(hook)))
    try:
        await asyncio.wait_for(ranked.wait(), START_S)
        statuses = {}
        end = time.monotonic() + STEP_S
        while statuses != {"Anna": "white", "Ben": "off", "Cem": "red"} and time.monotonic() < end:
            await asyncio.sleep(0.1)
            statuses = {name: ledframe.status_name(ledframe.decode(RecordingCup.registry[name].last_frame)
                                                   ["status"]) for name in names}
    finally:
        game.cancel()
        await asyncio.gather(game, return_exceptions=True)
    first = next(e for e in read_log(session.log_path) if e["ev"] == "round")
    assert (first["best"], first["worst"]) == (0, 2), first
    assert statuses == {"Anna": "white", "Ben": "off", "Cem": "red"}
