"""A game's check, "geprüft": replay a game's events with the rules package and the host's TableState,
recheck every reveal (commitment, transcript, and in fair play every throw from its seed and nonces), and
report the first event where the log and the recomputation differ. The one check of a game for the web
page's second referee in the browser (MicroPython's WebAssembly port: views/web/check/check.js imports it as
``schocken_host.table.game_check``, docs/web-check.md) and for the tournament's director, which counts a
table's game only once it passes (tournament/, docs/turnier.md). Runs on CPython and MicroPython alike
(tests/test_web_check.py): standard library, the rules package and table/replay.py, table/state.py only.

``Check().feed(event)`` one event at a time (a live game; ``feed_line`` a line of a log, table/replay.py's
rules for a torn or refused line), ``compare(standings)`` with the host's standings
at that point, ``report()`` the result: {ok, events, first_difference: {index, event, host, browser, reason},
throws_checked, throws_total, fair, standings, throws: [[index, round, seat, n], ...]}.
docs/web-check.md says what it proves."""

import json

from schocken import RuleError
from schocken.fair import check_dice
from schocken.hostside import check_reveal
from schocken_host.table.replay import Replay, log_lines
from schocken_host.table.state import LogError

_PROBLEMS = (RuleError, KeyError, TypeError, IndexError, ValueError, AttributeError)


class Differs(Exception):
    def __init__(self, host, browser, reason):
        super().__init__(reason)
        self.host = host
        self.browser = browser
        self.reason = reason


def _plain(value):
    """``value`` as JSON gives it back (tuples as lists), so equal standings compare equal."""
    return json.loads(json.dumps(value))


def _fields(error):
    fields = getattr(error, "fields", None)
    if fields is None:  # CPython's i18n: the fields are on the Message
        fields = getattr(getattr(error, "message", None), "fields", None) or {}
    return fields


class Check:
    def __init__(self):
        self.replay = Replay(apply=self._apply, refusals=(Differs, LogError) + _PROBLEMS)
        self.state = self.replay.state
        self.index = 0               # events (and lines that are none) fed so far
        self.fair = False
        self.limits = {}             # seat -> its throw limit from its turn event (None: the opener's own)
        self.reveals = {}            # (round, seat) -> [dice, throws, hand]
        self.throws = []             # [event index, round, seat, throws checked] per reveal
        self.throws_checked = 0
        self.throws_total = 0
        self.first_difference = None
        self.last = None

    # --- feeding events ---------------------------------------------------------------------------
    def feed(self, ev):
        self.index += 1
        self.last = ev
        if self.first_difference is not None:  # the standings differed (compare): the check stops there too
            return False
        self.replay.event(ev)
        return self._settled()

    def feed_line(self, line, last=False):
        """A line of a log: its event fed, or a line that is no event the first difference (a torn last line
        is no part of the game: ``last``, no line with anything on it follows)."""
        ev = self.replay.event_of(line, last)
        if ev is not None:
            return self.feed(ev)
        if self.replay.refused is not None and self.first_difference is None:
            self.index += 1
            self.last = line
        return self._settled()

    def _settled(self):
        """The first refusal of the replay as the first difference; True while there is none."""
        if self.first_difference is None and self.replay.refused is not None:
            e = self.replay.refused[1]
            if isinstance(e, Differs):
                self._differ(self.index - 1, self.last, e.host, e.browser, e.reason)
            elif isinstance(e, LogError):
                f = _fields(e)
                browser = f.get("rules", f.get("expected", f.get("opener")))
                self._differ(self.index - 1, self.last, f.get("logged"), browser, str(e))
            else:
                self._differ(self.index - 1, self.last, None, None, "%s: %s" % (type(e).__name__, e))
        return self.first_difference is None

    def _apply(self, ev):
        """One event through the checks the host's referee made before it logged it, then onto the state."""
        if not isinstance(ev, dict):
            raise Differs("an event", repr(ev)[:80], "not an event")
        kind = ev.get("ev")
        if kind == "reveal":
            self._reveal(self.index - 1, ev)
        elif kind == "round":
            self._entries(ev)
        elif kind == "throw_off":
            self._throw_off(ev)
        self.state.apply(ev)
        if kind == "start":
            self.fair = bool(ev.get("fair"))
        elif kind == "turn":
            self.limits[ev["seat"]] = ev.get("limit")
            if not ev.get("continued"):  # a turn started afresh voids the seat's reveal of the round
                self.reveals.pop((ev["round"], ev["seat"]), None)

    def feed_json(self, line):
        return self.feed(json.loads(line))

    def _differ(self, index, ev, host, browser, reason):
        self.first_difference = {"index": index, "line": index + 1, "event": ev, "host": _plain(host),
                                 "browser": _plain(browser), "reason": reason}

    def _reveal(self, i, ev):
        """What the host's referee did before it logged the reveal (Referee._collect), done again here."""
        p = self.state.players[ev["seat"]]
        revealed = {"round": ev["round"], "dice": ev["dice"], "nonce": ev["nonce"], "throws": ev["throws"],
                    "hand": ev["hand"], "transcript": ev["transcript"]}
        rolls = len([s for s in ev["transcript"] if s and s[0] == "roll"])
        self.throws_total += rolls
        try:
            throw = check_reveal(self.state.rules, self.limits.get(ev["seat"]), p.commit, revealed)
            if throw.label != ev["label"] or throw.kind != ev["kind"]:
                raise RuleError("the rules call it %s (%s)" % (throw.label, throw.kind))
            checked = 0
            if self.fair:
                checked = check_dice(ev.get("seed") or "", p.seed_hash or "", p.nonces, ev["round"],
                                     ev["transcript"])
        except RuleError as e:
            raise Differs("accepted", "refused", "reveal of seat %d: %s" % (ev["seat"], e))
        self.throws_checked += checked
        self.throws.append([i, ev["round"], ev["seat"], checked])
        self.reveals[(ev["round"], ev["seat"])] = [list(ev["dice"]), ev["throws"], ev["hand"]]

    def _entries(self, ev):
        for seat, entry in zip(ev["order"], ev["entries"]):
            if entry is None:
                continue
            got = self.reveals.get((ev["round"], seat))
            if got is None or [list(entry[0]), entry[1], entry[2]] != got:
                raise Differs(entry, got, "round %d: seat %d's throw is not the one it revealed"
                              % (ev["round"], seat))

    def _throw_off(self, ev):
        for seat, dice in zip(ev["seats"], ev["dice"]):
            got = self.reveals.get((ev["round"], seat))
            if got is None or list(dice) != got[0]:
                raise Differs(dice, got and got[0], "throw-off %d: seat %d's dice are not the ones it "
                              "revealed" % (ev["round"], seat))

    # --- against the host -------------------------------------------------------------------------
    def compare(self, host):
        """The host's standings after the events fed so far: equal to the browser's, or the difference."""
        if self.first_difference is not None or host is None:
            return self.first_difference is None
        mine = _plain(self.state.standings())
        host = _plain(host)
        if mine != host:
            keys = [k for k in mine if mine.get(k) != host.get(k)] or sorted(host)
            key = keys[0]
            self._differ(self.index - 1, self.last, {key: host.get(key)}, {key: mine.get(key)},
                         "the standings differ: %s" % key)
        return self.first_difference is None

    def compare_json(self, text):
        return self.compare(json.loads(text))

    def report(self):
        return {"ok": self.first_difference is None and self.index > 0, "events": self.index,
                "first_difference": self.first_difference, "throws_checked": self.throws_checked,
                "throws_total": self.throws_total, "fair": self.fair,
                "standings": _plain(self.state.standings()), "names": [p.name for p in self.state.players],
                "throws": self.throws}

    def report_json(self):
        return json.dumps(self.report())


def check_lines(text):
    """A whole log (its JSON lines) checked: the report. A line that is no event is the first difference; a
    torn last line is no part of the game (table/replay.py)."""
    c = Check()
    for line, last, _ in log_lines(text):
        if not c.feed_line(line, last):
            break
    return c.report()


def check_lines_json(text):
    return json.dumps(check_lines(text))
