"""What a cup claims about its turn, checked by the referee through the real path (emulated cups on the
MicroPython unix port, the host's referee, the real game log): the throws it stood after (an opener's count
is everyone else's limit), a turn it says it lost after the host's nonce (it may have seen those dice), and a
seat ruled out before its turn (whose round, and who plays as the opener then). A false claim costs the
cup that made it, never an honest seat.

All games of this module start together (tests/kits/tablekit.py) and run side by side; each test waits for its
own.
"""

import os

import pytest

from conftest import micropython_path
from kits import tablekit
from kits.tablekit import arm_at_first_round, finished

pytestmark = pytest.mark.skipif(micropython_path() is None, reason="needs the micropython unix port")

SHORT = {"settings": {"deckel_total": 2}, "strategy": "fast"}


def lose_turn_after_nonce(ui, st, ev):
    """The host has logged the nonce of seat 1's first throw of a round: its cup loses power and its flash
    (what a cup would say that wants that throw again: it holds no turn)."""
    if ev["ev"] == "nonce" and ev["seat"] == 1 and "lost" not in ui.data and st.round_kind == "round":
        ui.data["lost"] = dict(ev)
        cup = ui.game.cup(1)
        cup.kill()
        if os.path.exists(cup.state_path):
            os.remove(cup.state_path)
        cup.restart()


def next_opener_goes_silent(ui, st, ev):
    """A round is ranked: its loser, who opens the next one, stops answering before its turn (and comes back
    once the table has ruled)."""
    if ev["ev"] == "round" and "gone" not in ui.data and st.round >= 2:
        ui.data["gone"] = {"seat": ev["worst"], "after": ev["round"]}
        ui.game.cup(ev["worst"]).freeze()
    elif ev["ev"] == "forfeit" and "gone" in ui.data and "back" not in ui.data:
        ui.data["back"] = ev["round"]
        ui.game.cup(ui.data["gone"]["seat"]).thaw()


GAMES = {
    "done-lie": ({"opener": 0, "cheat": "deckel"}, arm_at_first_round(0, "cheat throws")),
    "lost-after-nonce": ({"opener": 0}, lose_turn_after_nonce),
    "opener-gone": ({"absent_timeout": 2.0}, next_opener_goes_silent),
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    lab = tablekit.Lab(tmp_path_factory.mktemp("claims"))
    for name, (config, hook) in GAMES.items():
        lab.game(name, hook=hook, cups=3, **config, **SHORT)
    yield lab
    lab.close()


def test_an_opener_that_lies_about_its_throws_is_caught_and_caps_nobody_at_zero(lab):
    """The opener's `done` says one throw fewer than it took: after one throw 0, a count no cup can stand
    after (the throw is void at once), after more a limit for everyone else that its reveal contradicts.
    Either way a `cheat` of the opener alone; nobody after it is told a limit of 0, waits in vain or is
    forfeited."""
    game, log = finished(lab, "done-lie")
    armed = game.ui.data["armed"]
    cheat, = tablekit.events(log, "cheat")
    assert (cheat["round"], cheat["seat"]) == (armed, 0) and "stood after" in cheat["reason"], cheat
    assert not [e for e in tablekit.events(log, "turn") if e.get("limit") == 0]
    assert not [e for e in log if e["ev"] in ("forfeit", "absent", "fault")], log
    rnd, = [e for e in tablekit.events(log, "round") if e["round"] == armed]
    assert rnd["forfeit"] == [0] and rnd["worst"] == 0
    assert [game.cup(s).bot.errors for s in (1, 2)] == [[], []]   # the honest bots played every turn


def test_a_cup_that_loses_its_turn_after_a_nonce_gets_no_second_chance(lab):
    """A cup that holds no turn any more after the host's nonce for one of its throws may have seen those
    dice (a modified cup could say so until it likes them): it is not given the turn again, its throw is void
    ("lost"), and the round is played again; a fault of that cup, nobody else's."""
    game, log = finished(lab, "lost-after-nonce")
    lost = game.ui.data["lost"]
    rnd, seat = lost["round"], lost["seat"]
    turns = [e for e in tablekit.events(log, "turn") if e["round"] == rnd and e["seat"] == seat]
    assert len(turns) == 1, turns                               # no second turn in that round
    assert [n["nonce"] for n in tablekit.events(log, "nonce") if (n["round"], n["seat"]) == (rnd, seat)] \
        == [lost["nonce"]]
    fault, = [e for e in tablekit.events(log, "fault")
              if e["round"] == rnd and "lost its turn" in e["reason"]]
    assert fault["seat"] == seat
    replay, = [e for e in tablekit.events(log, "replay_round") if e["round"] == rnd]
    assert replay["reason"] == "lost" and replay["seats"] == [seat]
    assert not tablekit.events(log, "cheat")
    assert not [e for e in tablekit.events(log, "fault") if e["seat"] != seat]


def test_an_opener_gone_before_its_turn_is_forfeited_in_the_round_in_play(lab):
    """The next round's opener stops answering before its turn: its forfeit names the round it is ruled
    out of (not the one before), and the first seat to play after it plays as the opener (no limit: not the
    last round's), its throws the limit of the seats after it."""
    game, log = finished(lab, "opener-gone")
    gone = game.ui.data["gone"]
    forfeit = [e for e in tablekit.events(log, "forfeit") if e["seat"] == gone["seat"]][0]
    assert forfeit["round"] == gone["after"] + 1, forfeit
    rnd, = [e for e in tablekit.events(log, "round") if e["round"] == forfeit["round"]]
    assert rnd["forfeit"] == [gone["seat"]] and rnd["order"][0] == gone["seat"], rnd
    turns = [e for e in tablekit.events(log, "turn") if e["round"] == forfeit["round"]]
    assert turns[0]["seat"] == rnd["order"][1] and turns[0]["limit"] is None, turns
    first_done = [e for e in tablekit.events(log, "done") if e["round"] == forfeit["round"]][0]
    assert all(t["limit"] == first_done["throws"] for t in turns[1:]), (turns, first_done)
