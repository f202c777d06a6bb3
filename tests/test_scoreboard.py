"""The full-screen scoreboard of `schocken play` (host_tools/schocken_host/views/scoreboard.py).

The table is rebuilt from realistic event sequences (tests/kits/scorekit.py: shaped like the referee's and
computed with the rules package, the referee's own ``_peek_throw_off`` / ``_peek_round`` on a copy of the
game), then fed to a running Scoreboard through ``update(state, event)`` exactly as the referee does. Each
phase is checked by the text of its widgets and by an SVG snapshot in tests/snapshots/ (written when missing,
compared after normalizing what Textual varies between runs; delete a file to accept a deliberate change).
"""

import asyncio

import pytest
from textual.app import App

from schocken_host.views.scoreboard import Scoreboard, run_scoreboard
from schocken_host.table.own_cup import OwnCup
from schocken_host.views.scoreboard.dice import die_rows
from schocken_host.errors import CommandError

from kits.scorekit import (FINAL, PLAYS, ROUND_2, ROUND_3, ROUND_4, SIZE, THROW_OFF, FakeCup, Table,
                           check_snapshot, run_async, until)

def card_classes(app, seat):
    return set(app.card(seat).classes)


# --- the game, phase by phase ---------------------------------------------------------------------------
@run_async
async def test_a_whole_game_phase_by_phase():
    app = Scoreboard(lang="de")
    async with app.run_test(size=SIZE) as pilot:
        table = Table(app=app)
        table.start()
        await pilot.pause()
        assert app.text_of("#phase").startswith("Auswürfeln")
        assert app.text_of("#middle") == "13"
        assert len(app.query(".card")) == 3

        # Throw-off: Anna has thrown (covered), Ben is on turn with one throw allowed.
        events = table.throw_off(THROW_OFF)
        table.emit_all(events[:until(events, "turn", seat=1)])
        await pilot.pause()
        assert app.text_of("#phase") == "Auswürfeln"   # a throw-off is no round people count (issue 41)
        assert app.text_of("#turn-line") == "▶ Ben ist am Zug · Wurf 0/1"
        assert "steht · Wurf 1/1" in app.card_text(0) and "verdeckt" in app.card_text(0)
        assert "-on-turn" in card_classes(app, 1) and "-on-turn" not in card_classes(app, 0)
        assert "wartet" in app.card_text(2)
        assert "Runde 1: Ben ist am Zug" not in app.text_of("#log")
        assert "Auswürfeln: Ben ist am Zug (höchstens 1 Wurf)." in app.text_of("#log")
        await check_snapshot(pilot, app, "throw_off")
        table.emit_all(events[until(events, "turn", seat=1):])
        await pilot.pause()
        assert app.text_of("#phase").startswith("1. Hälfte")
        assert app.text_of("#result") == "Auswürfeln: Ben hat den niedrigsten Wurf und beginnt."
        assert "Zahl" in app.card_text(1) or "322" in app.card_text(1)

        # 1. Hälfte mid-round: Ben opens, has thrown twice and set two ones aside.
        events = table.round(ROUND_2)
        table.emit_all(events[:until(events, "progress", seat=1, throws=2)])
        await pilot.pause()
        assert app.text_of("#phase") == "1. Hälfte  ·  Runde 1"   # the first round after the throw-off
        assert app.text_of("#turn-line") == "▶ Ben ist am Zug · Wurf 2/3"
        ben = app.card_text(1)
        assert "am Zug · Wurf 2/3" in ben and "beiseite: 1-1" in ben
        assert "◆" in app.text_of("#seat-1 .dice")   # the two ones drawn as pip grids
        # Between edges, the dice set aside marked with ◆ pips, the one still in the cup shaded (issue 41).
        assert app.text_of("#seat-1 .dice").splitlines()[1] == "│  ◆  │  ◆  │░░░░░│"
        assert "-on-turn" in card_classes(app, 1)
        # The result line still tells the throw-off until the first round is over.
        await check_snapshot(pilot, app, "half1_turn")
        # Cem follows with the limit Ben set.
        rest = events[until(events, "progress", seat=1, throws=2):]
        table.emit_all(rest[:until(rest, "turn", seat=2)])
        await pilot.pause()
        assert app.text_of("#turn-line") == "▶ Cem ist am Zug · Wurf 0/2"
        assert "steht · Wurf 2/3" in app.card_text(1)

        # Everybody stands: the cups are uncovered next.
        rest = rest[until(rest, "turn", seat=2):]
        table.emit_all(rest[:until(rest, "done", seat=0)])
        await pilot.pause()
        assert app.text_of("#turn-line") == "Aufdecken …"
        assert all("verdeckt" in app.card_text(s) for s in range(3))
        # After the round: revealed throws, labels, the result, Anna took 4 Deckel from the middle.
        table.emit_all(rest[until(rest, "done", seat=0):])
        await pilot.pause()
        assert app.text_of("#result") == ("Runde 1: Anna verliert und bekommt 4 Deckel aus der Mitte "
                                          "(Ben: Schock 4).")
        assert app.text_of("#middle") == "9"
        assert app.text_of("#seat-0 .deckel") == "4" and app.text_of("#seat-1 .deckel") == "0"
        assert "Schock 4" in app.card_text(1) and "zusammengewürfelt" in app.card_text(1)
        assert "bester Wurf" in app.card_text(1)
        assert "General" in app.card_text(2)
        assert "verliert +4" in app.card_text(0) and "-worst" in card_classes(app, 0)
        assert app.text_of("#turn-line") == ""
        assert "Runde 1: Ben hat den besten Wurf, Anna verliert und bekommt 4 Deckel." in app.text_of("#log")
        assert app.text_of("#halves") == "Hälften verloren: noch keine"
        await check_snapshot(pilot, app, "after_round")

        # Cem's Schock-Aus: Ben loses the 1. Hälfte; the 2. Hälfte starts with Ben opening.
        events = table.round(ROUND_3)
        assert [e["ev"] for e in events[-2:]] == ["round", "half_lost"]
        table.emit_all(events)
        await pilot.pause()
        # The half as it ended, the moment the deciding round is ranked (issue 41): Ben's 13 Deckel.
        assert "13 Deckel" in app.card_text(1) or app.text_of("#seat-1 .deckel") == "13"
        assert "verliert: alle" in app.card_text(1) and "bester Wurf" in app.card_text(2)
        nxt = table.round(ROUND_4)
        table.emit_all(nxt[:until(nxt, "turn", seat=1)])
        await pilot.pause()
        # Until the next round's first throw the result says which half it decided (issue 31), and the half
        # stays as it ended: Ben's 13 Deckel, the middle empty, the phase the 1. Hälfte (issue 41).
        assert app.text_of("#result") == ("Runde 2: Ben verliert: Schock-Aus von Cem, alle Deckel! "
                                          "– Ben verliert die 1. Hälfte.")
        assert "Runde 2: ⚀⚀⚀ Schock-Aus · 1 Wurf" in app.card_text(2)
        assert app.text_of("#seat-1 .deckel") == "13" and app.text_of("#middle") == "0"
        assert app.text_of("#phase") == "1. Hälfte  ·  Runde 2"
        assert app.text_of("#turn-line") == "▶ Ben ist am Zug · Wurf 0/3"   # the next half's opener
        table.emit_all(nxt[until(nxt, "turn", seat=1):until(nxt, "progress", seat=1, throws=1)])
        await pilot.pause()
        assert "Hälfte" not in app.text_of("#result")
        assert app.text_of("#phase") == "2. Hälfte  ·  Runde 3"
        assert app.text_of("#halves") == "Hälften verloren: 1. Hälfte: Ben"
        assert app.text_of("#middle") == "13"
        assert all(app.text_of("#seat-%d .deckel" % s) == "0" for s in range(3))
        assert app.text_of("#turn-line") == "▶ Ben ist am Zug · Wurf 1/3"
        assert "Ben verliert die 1. Hälfte." in app.text_of("#log")
        # The round's first throw (Ben's) ends what the cards kept of round 2 (issue 31).
        assert not any("Runde 2:" in app.card_text(s) for s in range(3))
        await check_snapshot(pilot, app, "half2")

        # Cem again: Anna loses the 2. Hälfte, the Finale is Anna against Ben; Cem is out (greyed).
        table.emit_all(nxt[until(nxt, "progress", seat=1, throws=1):])
        fin = table.round(FINAL)
        table.emit_all(fin[:until(fin, "turn", seat=1)])
        await pilot.pause()
        assert app.text_of("#phase") == "2. Hälfte  ·  Runde 3"   # the half that ended, until the first throw
        assert app.text_of("#seat-0 .deckel") == "13"
        assert app.text_of("#halves") == "Hälften verloren: 1. Hälfte: Ben · 2. Hälfte: Anna"
        assert "-out" in card_classes(app, 2) and "bester Wurf" in app.card_text(2)
        assert "-out" not in card_classes(app, 0) and "-out" not in card_classes(app, 1)
        assert app.text_of("#turn-line") == "▶ Ben ist am Zug · Wurf 0/3"
        # Until the final's first throw the cards keep round 3's throws and the result stays (issue 31).
        assert "Runde 3: ⚅⚃⚁ 642 · 1 Wurf" in app.card_text(0)
        assert "Runde 3: ⚂⚁⚀ Straße · 1 Wurf" in app.card_text(1)
        assert "Runde 3: ⚀⚀⚀ Schock-Aus · 1 Wurf" in app.card_text(2)
        assert app.text_of("#result") == ("Runde 3: Anna verliert: Schock-Aus von Cem, alle Deckel! "
                                          "– Anna verliert die 2. Hälfte.")
        await check_snapshot(pilot, app, "final")

        # The final's first throw: the two players outside it watch (issue 41: not "out of the half").
        table.emit_all(fin[until(fin, "turn", seat=1):until(fin, "progress", seat=1, throws=1)])
        await pilot.pause()
        assert "schaut zu (nicht im Finale)" in app.card_text(2) and "-out" in card_classes(app, 2)
        assert app.text_of("#phase").startswith("Finale  ·  Runde 4")
        # Anna's Schock-Aus in the Finale: Ben loses the game.
        table.emit_all(fin[until(fin, "progress", seat=1, throws=1):])
        await pilot.pause()
        assert table.st.over and table.st.loser == 1
        assert app.text_of("#phase") == "Spiel aus"
        assert app.text_of("#banner").splitlines()[0] == "SPIEL AUS – Ben hat verloren"
        assert "-over" in app.query_one("#banner").classes
        assert "hat das Spiel verloren" in app.card_text(1) and "-loser" in card_classes(app, 1)
        assert app.text_of("#result") == "Runde 4: Ben verliert: Schock-Aus von Anna, alle Deckel!"
        assert "Spiel aus: Ben hat verloren." in app.text_of("#log")
        await check_snapshot(pilot, app, "game_over")


@run_async
async def test_a_cup_caught_cheating_is_flagged_in_red():
    app = Scoreboard(lang="de")
    async with app.run_test(size=SIZE) as pilot:
        table = Table(app=app)
        table.start(opener=0)
        events = table.round(ROUND_2 | {0: ((6, 3, 2), 3, [])})
        order = table.st.game.order()
        reveals = [e for e in events if e["ev"] == "reveal"]
        table.emit_all([e for e in events if e["ev"] in ("turn", "progress", "done")])
        table.emit_all([e for e in reveals if e["seat"] != 2])
        reason = "the transcript does not match the commitment"
        table.emit({"ev": "cheat", "round": 1, "seat": 2, "reason": reason})
        table.emit({"ev": "replay_round", "round": 1, "reason": "cheat", "seats": [2]})
        await pilot.pause()
        assert order == [0, 1, 2]
        assert "-cheat" in card_classes(app, 2)
        assert "✗ UNGÜLTIG: " + reason in app.card_text(2)
        assert app.text_of("#seat-2 .flag") == "✗ UNGÜLTIG: " + reason
        assert "ACHTUNG: Becher von Cem ist ungültig: " + reason in app.text_of("#log")
        assert "Runde 1 wird wiederholt." in app.text_of("#log")
        await check_snapshot(pilot, app, "cheat")


@run_async
async def test_a_paused_cup_shows_a_message_until_it_is_back():
    app = Scoreboard(lang="de")
    async with app.run_test(size=SIZE) as pilot:
        table = Table(app=app)
        table.start(opener=2)
        events = table.round({2: ((5, 3, 1), 2, [[2, 1]]), 0: ((2, 2, 2), 1, []), 1: ((6, 6, 1), 1, [])})
        table.emit_all(events[:until(events, "turn", seat=0)])
        table.emit({"ev": "pause", "seat": 0, "reason": "link lost"})
        await pilot.pause()
        banner = app.query_one("#banner")
        assert banner.display and "-pause" in banner.classes
        assert app.text_of("#banner") == "PAUSE: Becher von Anna ist weg (link lost). Warte …"
        assert "⏸ PAUSE: link lost" in app.card_text(0) and "-paused" in card_classes(app, 0)
        assert app.text_of("#turn-line") == "▶ Anna ist am Zug · Wurf 0/2"
        await check_snapshot(pilot, app, "paused")
        table.emit({"ev": "resume", "seat": 0})
        await pilot.pause()
        assert not app.query_one("#banner").display
        assert "-paused" not in card_classes(app, 0)
        assert "Becher von Anna ist wieder da, es geht weiter." in app.text_of("#log")


@run_async
async def test_english_labels_keep_the_german_game_terms():
    app = Scoreboard(lang="en")
    async with app.run_test(size=SIZE) as pilot:
        table = Table(app=app)
        table.start()
        table.emit_all(table.throw_off(THROW_OFF))
        events = table.round(ROUND_2)
        table.emit_all(events[:until(events, "progress", seat=1, throws=2)])
        await pilot.pause()
        assert app.text_of("#phase") == "1st half  ·  Round 1"
        assert app.text_of("#turn-line") == "▶ Ben is on turn · throw 2/3"
        assert app.text_of("#middle-caption") == "Middle"
        assert "set aside: 1-1" in app.card_text(1) and "0 Deckel" in app.card_text(1)
        assert app.text_of("#result") == "Throw-off: Ben has the lowest throw and opens."
        assert "Round 1: Ben is on turn." in app.text_of("#log")
        table.emit_all(events[until(events, "progress", seat=1, throws=2):])
        await pilot.pause()
        assert app.text_of("#result") == ("Round 1: Anna loses and takes 4 Deckel from the middle "
                                          "(Ben: Schock 4).")
        assert "best throw" in app.card_text(1) and "built" in app.card_text(1)
        await check_snapshot(pilot, app, "english")


@run_async
async def test_a_state_given_up_front_is_drawn_at_once():
    table = Table()
    table.start()
    table.emit_all(table.throw_off(THROW_OFF))
    app = Scoreboard(table.st, lang="de")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.text_of("#phase") == "1. Hälfte"     # the throw-off is decided, no round has begun
        assert [app.card_text(s).splitlines()[0] for s in range(3)] == ["1  Anna", "2  Ben", "3  Cem  (Bot)"]


@run_async
async def test_the_persons_panel_shows_his_own_cup_his_keys_and_a_refusal():
    app = Scoreboard(lang="de")
    async with app.run_test(size=SIZE) as pilot:
        table = Table(app=app)
        table.start(opener=0)
        await pilot.pause()
        assert not app.query_one("#own").display          # nobody plays from this keyboard yet
        cup = FakeCup()
        app.show_person(OwnCup(cup, 0, table.st))
        table.emit({"ev": "turn", "round": 1, "seat": 0, "limit": None, "kind": "round", "order": [0, 1, 2]})
        table.emit({"ev": "progress", "round": 1, "seat": 0, "throws": 1, "public": []})
        cup.show((4, 1, 6))                                # Anna peeks ...
        cup.show((0, 0, 0))                                # ... lets go, and sets the one aside
        cup.show((0, 1, 0), kinds=("cup", "aside", "cup"))
        table.emit({"ev": "progress", "round": 1, "seat": 0, "throws": 1, "public": [[1, 1]]})
        app.refused(0, "spicken geht jetzt nicht")
        await pilot.pause()
        assert app.query_one("#own").display
        assert app.own_text().splitlines()[:3] == ["beiseite 1 · unter dem Becher gesehen 4 6",
                                                   "Status: türkis – Wurf 1", "✗ spicken geht jetzt nicht"]
        assert " ".join(app.own_text().splitlines()[3:]).startswith("Tasten: s schütteln · 1 2 3 Würfel")
        assert app.query_one("#own").border_title == "Dein Becher · Anna"
        assert "Anna: abgelehnt – spicken geht jetzt nicht" in app.text_of("#log")
        assert "beiseite: 1" in app.card_text(0) and "4" not in app.card_text(0).splitlines()[3]
        await check_snapshot(pilot, app, "person")
        app.refused(1, "nicht dein Zug")                  # another seat's refusal: the log only
        await pilot.pause()
        assert "✗ spicken geht jetzt nicht" in app.own_text()


def test_die_faces_follow_the_pip_table():
    assert die_rows(1) == ["     ", "  ●  ", "     "]
    assert die_rows(6) == ["●   ●", "●   ●", "●   ●"]
    assert die_rows(None) == ["     "] * 3


# --- the game as a worker inside the app ----------------------------------------------------------------
def fake_play(steps, delay=0.0, fail=None, closed=None):
    """A stand-in for a GameSession's run: emits ``steps`` events through the UI it gets from ui_factory."""
    async def play(args, ui_factory):
        table = Table()
        ui = ui_factory()
        table.app = ui
        try:
            ui.note("Log: /tmp/game.jsonl")
            table.start()
            for ev in steps(table):
                table.emit(ev)
                await asyncio.sleep(delay)
            if fail:
                raise fail
            if closed is not None and delay:
                await asyncio.sleep(3600)
            return table.st
        finally:
            if closed is not None:
                closed.append(True)
    return play


def whole_game(table):
    for ev in table.throw_off(THROW_OFF):
        yield ev
    while not table.st.over:
        for ev in table.round(PLAYS[table.st.phase()]):
            yield ev


@run_async
async def test_the_game_runs_as_a_worker_and_q_leaves_the_final_screen():
    play = fake_play(whole_game)
    app = Scoreboard(lang="de", game=lambda ui_factory: play(None, ui_factory))
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(100):
            if app.finished:
                break
            await pilot.pause(0.02)
        assert app.finished and app.final_state is not None and app.final_state.over
        assert app.text_of("#banner").startswith("SPIEL AUS – Ben hat verloren")
        assert "Log: /tmp/game.jsonl" in app.text_of("#log")
        assert app.is_running
        await pilot.press("q")
        await pilot.pause()
    assert not app.is_running


@pytest.mark.parametrize("key", ["q", "ctrl+c"])
@run_async
async def test_q_during_a_game_cancels_it_and_the_cups_are_closed(key):
    closed = []
    play = fake_play(lambda table: iter(table.throw_off(THROW_OFF)[:2]), delay=0.01, closed=closed)
    app = Scoreboard(lang="de", game=lambda ui_factory: play(None, ui_factory))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.1)
        assert app.state is not None and app.state.on_turn == 0 and not app.finished
        await pilot.press(key)
        await pilot.pause()
        assert closed == [True]
    assert not app.finished and app.final_state is None


def _headless(monkeypatch):
    monkeypatch.setattr(Scoreboard, "run", lambda self, **kw: App.run(self, headless=True, size=SIZE, **kw))


def test_run_scoreboard_returns_the_final_state(monkeypatch):
    _headless(monkeypatch)
    play = fake_play(whole_game)
    state = run_scoreboard(lambda ui_factory: play(None, ui_factory), "en", auto_exit=0.05)
    assert state.over and state.loser == 1


def test_run_scoreboard_raises_the_game_error_after_the_screen_is_gone(monkeypatch):
    _headless(monkeypatch)
    with pytest.raises(CommandError, match="at least two cups"):
        play = fake_play(lambda t: iter(()), fail=CommandError("seating.too_few_cups"))
        run_scoreboard(lambda ui_factory: play(None, ui_factory), "de")
