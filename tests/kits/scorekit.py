"""Scoreboard test helpers: a table that makes events the way the referee does (table/referee.py), computed
with the rules package (``_peek_throw_off`` / ``_peek_round`` on a copy of the game, to make them ahead), and
the dice of a whole game of three (tests/test_scoreboard.py); running Textual tests and their SVG
snapshots."""

import asyncio
import copy
import functools
import re
from pathlib import Path

from schocken.rules import Rules
from schocken.throws import evaluate

from schocken_host.links import ledframe
from schocken_host.table.state import LOG_VERSION, TableState

NAMES = ("Anna", "Ben", "Cem")


def _peek_throw_off(game, dice):
    """The throw-off's opener, on a copy: the events are made before they are applied."""
    return copy.deepcopy(game).throw_off(dice)


def _peek_round(game, entries, forfeit):
    return copy.deepcopy(game).play_round(entries, set(forfeit))


# --- events, the way the referee makes them ------------------------------------------------------------
class Table:
    """A TableState and the events that built it; ``app`` (if set) sees every event like the referee's UI."""

    def __init__(self, names=NAMES, rules="standard", app=None):
        self.rules = Rules(rules)
        self.names = names
        self.st = TableState()
        self.app = app

    def emit(self, ev):
        self.st.apply(ev)
        if self.app is not None:
            self.app.update(self.st, ev)

    def emit_all(self, events):
        for ev in events:
            self.emit(ev)

    def start(self, opener=None):
        self.emit({"ev": "start", "version": LOG_VERSION, "game_id": "0123456789ab",
                   "rules": self.rules.to_dict(), "reveal": "all", "cheat": "replay",
                   "players": [{"seat": i, "name": n, "cup": "emu%d" % (i + 1),
                                "kind": "bot" if i == 2 else "cup"}
                               for i, n in enumerate(self.names)]})
        if opener is not None:
            self.emit({"ev": "opener", "seat": opener})

    def next_round(self):
        st = self.st
        return st.round + 1 if st.round <= st.closed else st.round

    def turn_events(self, round_id, order, plays, kind="round"):
        """turn / progress / done per seat of ``order``; ``plays[seat] = (dice, throws, aside)`` with
        ``aside`` the dice set aside as [[slot, value], ...] (shown from the second throw on)."""
        events, limit = [], None
        for pos, seat in enumerate(order):
            dice, throws, aside = plays[seat]
            lim = 1 if kind == "throw_off" else (None if pos == 0 else limit)
            events.append({"ev": "turn", "round": round_id, "seat": seat, "limit": lim, "kind": kind,
                           "order": order})
            for k in range(1, throws + 1):
                events.append({"ev": "progress", "round": round_id, "seat": seat, "throws": k,
                               "public": aside if k > 1 else []})
            events.append({"ev": "done", "round": round_id, "seat": seat, "throws": throws,
                           "commit": "%064x" % (round_id * 10 + seat)})
            if pos == 0:
                limit = throws
        return events

    def reveal_events(self, round_id, order, plays, skip=()):
        events = []
        for seat in order:
            if seat in skip:
                continue
            dice, throws, aside = plays[seat]
            throw = evaluate(dice, throws, not aside, self.rules)
            events.append({"ev": "reveal", "round": round_id, "seat": seat, "dice": list(dice),
                           "throws": throws, "hand": not aside, "nonce": "00" * 8, "transcript": [],
                           "label": throw.label, "kind": throw.kind})
        return events

    def throw_off(self, dice):
        """A whole throw-off, one throw each: returns its events (not emitted yet)."""
        game = self.st.game
        seats = list(game.throw_off_seats)
        round_id = self.next_round()
        plays = {s: (d, 1, []) for s, d in zip(seats, dice)}
        opener = _peek_throw_off(game, [list(d) for d in dice])
        return (self.turn_events(round_id, seats, plays, "throw_off")
                + self.reveal_events(round_id, seats, plays)
                + [{"ev": "throw_off", "round": round_id, "seats": seats, "dice": [list(d) for d in dice],
                    "opener": opener}])

    def round(self, plays):
        """A whole round of the current half: returns its events (not emitted yet), up to game_over."""
        game = self.st.game
        order = game.order()
        round_id = self.next_round()
        entries = [[list(plays[s][0]), plays[s][1], not plays[s][2]] for s in order]
        result, moves = _peek_round(game, entries, [])
        events = self.turn_events(round_id, order, plays) + self.reveal_events(round_id, order, plays)
        events.append({"ev": "round", "round": round_id, "order": order, "entries": entries, "forfeit": [],
                       "ranking": [order[i] for i in result.ranking], "best": order[result.best],
                       "worst": order[result.worst], "deckel": result.deckel,
                       "moves": [[m[0], m[1]] for m in moves]})
        # What the referee adds when the round ended a half or the game: computed on a copy.
        probe = TableState()
        probe.__dict__.update({k: v for k, v in self.st.__dict__.items() if k != "game"})
        probe.game = copy.deepcopy(game)
        probe.game.play_round([tuple(e) for e in entries], set())
        if probe.game.phase != game.phase:
            lost = probe.game.half_losers[-1] if probe.game.phase != "over" else probe.game.loser
            events.append({"ev": "half_lost", "phase": game.phase, "seat": lost})
        if probe.game.phase == "over":
            events.append({"ev": "game_over", "loser": probe.game.loser,
                           "blattschuss": probe.game.blattschuss})
        return events


class FakeCup:
    """Stands in for a person's EmulatedCup (own_cup.OwnCup): the test feeds its LED frames, as the cup's
    reader thread would."""

    def __init__(self):
        self.on_frame = None
        self.last_frame = None

    def show(self, faces, kinds=("cup", "cup", "cup"), status=(0, 255, 255)):
        self.last_frame = ledframe.frame_from(faces, kinds, status)
        self.on_frame(self, self.last_frame)


def until(events, kind, seat=None, throws=None):
    """Index just after the first event of ``kind`` (for ``seat``, with ``throws``)."""
    for i, ev in enumerate(events):
        if ev["ev"] == kind and (seat is None or ev.get("seat") == seat) and (
                throws is None or ev.get("throws") == throws):
            return i + 1
    raise AssertionError("no %s event for seat %s" % (kind, seat))


# A whole game of three: Ben opens after the throw-off, Anna takes 4 in round 2, Cem's Schock-Aus ends the
# 1. Hälfte for Ben and the 2. Hälfte for Anna, and Anna's Schock-Aus in the Finale makes Ben lose the game.
THROW_OFF = [(6, 5, 3), (3, 2, 2), (5, 4, 2)]
FINAL = {0: ((1, 1, 1), 1, []), 1: ((4, 4, 2), 1, [])}
ROUND_2 = {1: ((1, 1, 4), 2, [[0, 1], [1, 1]]), 2: ((5, 5, 5), 1, []), 0: ((6, 3, 2), 2, [])}
ROUND_3 = {0: ((6, 4, 2), 1, []), 1: ((2, 2, 1), 1, []), 2: ((1, 1, 1), 1, [])}
ROUND_4 = {0: ((6, 4, 2), 1, []), 1: ((3, 2, 1), 1, []), 2: ((1, 1, 1), 1, [])}
PLAYS = {"half1": ROUND_3, "half2": ROUND_4, "final": FINAL}


# --- running Textual tests, and their snapshots ---------------------------------------------------------
SNAPSHOTS = Path(__file__).resolve().parents[1] / "snapshots"
SIZE = (110, 40)


def run_async(fn):
    """The suite has no asyncio plugin: run each Textual test in its own event loop."""
    @functools.wraps(fn)
    def wrapper(*args, **kw):
        return asyncio.run(fn(*args, **kw))
    return wrapper


def normalize_svg(svg):
    """Textual/Rich name every SVG class and clip path after a hash of the content plus a per-export id
    ("terminal-1234567-r5", "terminal-1234567-clip-line-3"): reduce them to stable names."""
    svg = re.sub(r"terminal-\d+", "terminal", svg)
    svg = re.sub(r"\s+$", "", svg, flags=re.M)
    return svg


async def check_snapshot(pilot, app, name):
    """The screen against tests/snapshots/scoreboard_NAME.svg, once it has settled: two captures 50 ms
    apart agree (a log's scroll to its end, a widget's refresh, come after the event that caused them, later
    on a loaded machine)."""
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()   # what the app has queued (a layout, the log's scroll after it) is done first
    svg = normalize_svg(app.export_screenshot(title="schocken %s" % name))
    for _ in range(40):
        await pilot.pause(0.05)
        await pilot.pause()
        again = normalize_svg(app.export_screenshot(title="schocken %s" % name))
        if again == svg:
            break
        svg = again
    path = SNAPSHOTS / ("scoreboard_%s.svg" % name)
    if not path.exists():
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(svg, encoding="utf-8")
        return
    stored = normalize_svg(path.read_text(encoding="utf-8"))
    new = path.with_suffix(".new.svg")
    if stored == svg:
        new.unlink(missing_ok=True)
    else:
        new.write_text(svg, encoding="utf-8")
        raise AssertionError("scoreboard snapshot %s changed: compare %s with %s (delete the stored file to "
                             "accept the change)" % (name, path.name, new.name))
