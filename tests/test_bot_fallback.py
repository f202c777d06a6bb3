"""No game stalls on a bot (issue 31), through the real path: emulated cups on the MicroPython unix port, the
host's referee, its bots and the real game log.

- The stall of shared/evidence/bot-freeze: a seat stood after one throw with two ones lying open, the next
  bot (``optimal``, limit 2, preset standard) threw 6-6-5 and never moved again (its context could not be
  built: ``RuleError: expected 3 dice for the cup, got [6]``). Played again with those dice, the game goes on.
- A bot whose strategy fails falls back to the simple strategy, and a bot whose input its cup refuses (it
  misread a die as a one; only ones may be set aside) falls back too, never pressing the refused move again:
  each case is a ``bot_fallback`` event in the log and a line of the plain output (which the scoreboard's
  history shows too), and the log reads back.

Both games start together and run side by side (tests/kits/tablekit.py).
"""

import io
import random

import pytest

from conftest import micropython_path
from kits import checkserver, tablekit
from kits.tablekit import events, finished
from schocken.turn import IN_CUP
from schocken_host.table.bots import STRATEGIES
from schocken_host.views.plain import PlainUI

pytestmark = pytest.mark.skipif(micropython_path() is None, reason="needs the micropython unix port")

# The evidence's round, by position from the opener: the opener stands after two throws (the others' limit
# is 2), the next seat lays two ones open after its first throw and stands, the optimal bot then throws 6-6-5.
EVIDENCE_DICE = {(0, 1): [2, 3, 5], (0, 2): [1, 1, 4], (1, 1): [1, 1, 3], (2, 1): [6, 6, 5]}
EVIDENCE_PLAY = {0: "schock", 1: "lay_open", 2: "optimal"}


def lay_ones_open_and_stand(turn):
    """A player who sets his ones aside before he stands (a person at the evidence's table did)."""
    for i in range(3):
        if turn.state[i] == IN_CUP and turn.values[i] == 1:
            turn.set_aside(i)
    return True


def broken(turn):
    raise RuntimeError("a strategy with a bug")


def scripted(ui, script, by_position):
    """A bot's dice hook: the script's dice, {(position from the opener or seat, throw): dice}, in the first
    round that is no throw-off; seeded random dice elsewhere."""
    def dice(round_id, seat, throw, n):
        st = ui.data["state"]
        if st.round_kind == "round" and ui.data.setdefault("first", round_id) == round_id:
            key = (st.order.index(seat) if by_position else seat, throw)
            if key in script:
                return script[key][:n]
        rng = random.Random(round_id * 1000 + seat * 10 + throw)
        return [rng.randint(1, 6) for _ in range(n)]
    return dice


def the_evidence(ui, st, ev):
    if ev["ev"] == "start":
        ui.data["state"] = st
        dice = scripted(ui, EVIDENCE_DICE, True)
        for seat in range(3):
            ui.game.cup(seat).bot.dice = dice
    elif ev["ev"] == "turn" and ev.get("kind") == "round" and "played" not in ui.data:
        ui.data["played"] = {}
        for position, seat in enumerate(ev["order"]):   # before the opener's first decision
            play = EVIDENCE_PLAY[position]
            ui.game.cup(seat).bot.strategy = (lay_ones_open_and_stand if play == "lay_open"
                                              else STRATEGIES[play])
            ui.data["played"][seat] = play


def misread_once(bot):
    """The bot's look under its cup misreads its first die as a one, once."""
    look = bot.peek

    async def peek(turn):
        faces = await look(turn)
        if not bot.misread:
            bot.misread = True
            faces[0] = 1
        return faces
    bot.misread = False
    bot.peek = peek


def fallbacks(ui, st, ev):
    if ev["ev"] == "start":
        # seat 1 first throws 5-3-2, misread as 1-3-2 (a Straße: no stand): keep_ones sets the "one" aside,
        # which the cup (wuerfel63: only ones aside) refuses
        ui.data["state"] = st
        ui.game.cup(0).bot.strategy = broken
        ui.game.cup(1).bot.dice = scripted(ui, {(1, 1): [5, 3, 2]}, False)
        misread_once(ui.game.cup(1).bot)


class PlainRecording(tablekit.RecordingUI):
    """Every event kept, and the plain output's lines (English) written beside them."""

    def __init__(self, hook=None):
        super().__init__(hook)
        self.out = io.StringIO()
        self.plain = PlainUI("en", out=self.out)

    def update(self, state, ev):
        super().update(state, ev)
        self.plain.update(state, ev)


GAMES = {
    "evidence": (dict(preset="standard", fair=False, settings={"deckel_total": 3}), the_evidence),
    "fallbacks": (dict(preset="wuerfel63", fair=False, settings={"deckel_total": 3}, strategy="schock"),
                  fallbacks),
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    lab = tablekit.Lab(tmp_path_factory.mktemp("fallback"))
    for name, (config, hook) in GAMES.items():
        lab.game(name, hook=hook, cups=3, ui_class=PlainRecording, **config)
    lab.cli("one-throw", ["--emulate", 4, "--bots", 4, "--set", "max_throws=1", "--set", "deckel_total=3"])
    yield lab
    lab.close()


def test_the_evidence_round_goes_on(lab):
    game, log = finished(lab, "evidence")
    first = game.ui.data["first"]
    order = [e for e in events(log, "turn") if e["round"] == first][0]["order"]
    dones = {e["seat"]: e for e in events(log, "done") if e["round"] == first}
    laid = [e for e in events(log, "progress") if e["round"] == first and e["seat"] == order[1]]
    assert dones[order[0]]["throws"] == 2 and dones[order[1]]["throws"] == 1
    assert sorted(v for _, v in laid[-1]["public"]) == [1, 1]
    reveal = [e for e in events(log, "reveal") if e["round"] == first and e["seat"] == order[2]][0]
    assert reveal["transcript"][0] == ["roll", [6, 6, 5]]       # the throw it stalled on, decided on
    assert any(e["round"] == first for e in events(log, "round"))
    assert max(e["round"] for e in events(log, "turn")) > first  # the game went on
    assert events(log, "bot_fallback") == []                     # optimal decided there itself
    assert [game.cup(s).bot.errors for s in range(3)] == [[], [], []]


def test_a_failing_strategy_and_a_refused_input_fall_back_logged_and_shown(lab):
    game, log = finished(lab, "fallbacks")
    fell_back = events(log, "bot_fallback")
    broken_ones = [e for e in fell_back if e["seat"] == 0]
    assert broken_ones and all(e["by"] == "strategy" and e["fallback"] == "schock" and "a strategy with a bug"
                               in e["reason"] and e["move"] == [] for e in broken_ones)
    refused = [e for e in fell_back if e["seat"] == 1]
    assert len(refused) == 1, refused       # once: the refused move is not pressed again
    assert refused[0]["by"] == "cup" and refused[0]["move"] == [["aside", 0], ["roll"]]
    assert refused[0]["fallback"] == "schock" and refused[0]["strategy"] == "schock"
    reveal = [e for e in events(log, "reveal") if e["round"] == refused[0]["round"] and e["seat"] == 1][0]
    # the five was not set aside: the bot threw again on what its cup really showed
    assert reveal["transcript"][0] == ["roll", [5, 3, 2]] and reveal["transcript"][1][0] == "roll"
    lines = game.ui.out.getvalue().splitlines()
    assert any(": die 1 aside, throw refused" in line and "the bot plays instead: the simple strategy" in line
               for line in lines), lines
    assert any(": the move refused" in line and "a strategy with a bug" in line for line in lines)


def test_the_browsers_check_reads_a_log_with_fallbacks(lab, tmp_path):
    """views/web/check (the rules package and TableState, as the browser runs them) takes bot_fallback events:
    on CPython and under the MicroPython unix port alike."""
    from schocken_host.table.game_check import check_lines
    game, log = finished(lab, "fallbacks")
    assert events(log, "bot_fallback")
    report = check_lines(game.log.read_text(encoding="utf-8"))
    assert report["ok"] and report["first_difference"] is None, report
    assert checkserver.micropython_report(micropython_path(), tmp_path, game.log) == report


def test_a_table_of_one_throw_plays(lab):
    """`schocken play --emulate 4 --bots 4 --set max_throws=1` ended at once with "throws must be 1 to 1, got
    2" (the odds tables the table makes before its first turn): it plays to the end."""
    proc, log_dir = [(p, lab.root / "one-throw") for p in lab.procs][0]
    assert tablekit.wait_proc(proc) == 0, (lab.root / "one-throw.out").read_text()
    log = tablekit.read_log(tablekit.the_log(log_dir))
    assert log[-1]["ev"] == "game_over" and {e["throws"] for e in events(log, "done")} == {1}
    assert events(log, "bot_fallback") == []
