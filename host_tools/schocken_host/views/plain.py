"""Plain output: one line per event, for logs, screen readers and when standard output is not a terminal."""

import sys
from typing import TYPE_CHECKING

from schocken.throws import ALL

from schocken_host.table.view import View
from schocken_host.views import keymap
from schocken_host.i18n import LANGS, refusal, tr

if TYPE_CHECKING:   # the events as types for mypy (table/event_types.py); nothing of it at run time
    from schocken_host.table.event_types import (
        AbsentEvent, BatteryEvent, BotFallbackEvent, CheatEvent, DoneEvent, EinwuerfelnEvent, FaultEvent,
        ForfeitEvent,
        GameOverEvent, HalfLostEvent, OpenerEvent, PauseEvent, PenaltyEvent, ProgressEvent,
        ReplayRoundEvent, ResumeEvent, ResumedEvent, RevealEvent, RoundEvent, StartEvent, StopEvent,
        ThrowOffEvent, TurnEvent, WaitEvent)
    from schocken_host.table.state import TableState

PHASES = ("half1", "half2", "final")
FALLBACK_WORDS = ("schock", "stand", "throw", "look_again")   # what a bot does instead (bot_fallback)
STEP_WORDS = ("aside", "back", "turn", "stand", "roll", "peek")   # the steps of its refused move


def _dice(d):
    return "-".join(str(x) for x in d)


class PlainUI(View):
    def __init__(self, lang="de", out=None):
        self.lang = lang if lang in LANGS else "de"
        self.out = out or sys.stdout
        self.st = None               # the table as of the last event
        self.own = None              # the person's own cup (own_cup.OwnCup), when one plays
        self._own_shown = None
        self._doing_shown = ""

    def say(self, key, **fields):
        self.note(self.tr(key, **fields))

    def tr(self, key, **fields):
        """The text ``plain.<key>`` in this view's language."""
        return tr(self.lang, "plain." + key, **fields)

    def _throws(self, n, key="throws"):
        """"1 Wurf", "2 Würfe" ("nach 2 Würfen": key after_throws)."""
        return self.tr(key + "_1" if n == 1 else key, n=n)

    def note(self, text):
        self.out.write(text + "\n")
        self.out.flush()

    # --- a person at the table (table/person.py) ------------------------------------------------------------
    def person(self, own):
        """A person plays ``own`` (own_cup.OwnCup) from the keyboard: the key help, once."""
        self.own = own
        self.note(keymap.help_text(self.lang, reveal=own.reveal_button))
        own.listeners.append(self._own_changed)

    def _own_changed(self):
        """His cup changed (an LED frame from the cup's reader thread, or a key taken up): what his keys
        are doing, once each time it changes ("Dein Becher: schüttelt …")."""
        doing = self.own.doing_text(self.lang)
        if doing and doing != self._doing_shown:
            self.note("%s: %s" % (tr(self.lang, "own.title"), doing))
        self._doing_shown = doing

    def show_own_cup(self):
        """The person's cup as he has seen it, when that changed (after each of his keys)."""
        own = self.own
        if own is None:
            return
        line = own.summary(self.lang)
        if line != self._own_shown:
            self._own_shown = line
            self.note(line)

    def refused(self, seat, reason):
        """A key of the person (or a press on his cup) that was refused, with its reason."""
        self.note(tr(self.lang, "play.refused", name=self._name(seat), reason=reason))
        return True

    def _name(self, seat):
        st = self.st
        return st.name(seat) if st is not None and 0 <= seat < len(st.players) else str(seat + 1)

    def update(self, st, ev):
        self.st = st
        kind = ev["ev"]
        fn = getattr(self, "_" + kind, None)
        if fn:
            fn(st, ev)

    def _start(self, st: "TableState", ev: "StartEvent") -> None:
        self.say("start", game_id=ev["game_id"], rules=ev["rules"]["preset"],
                 players=", ".join("%d %s" % (p["seat"] + 1, p["name"]) for p in ev["players"]))

    def _opener(self, st: "TableState", ev: "OpenerEvent") -> None:
        self.say("opener_void" if ev.get("reason") else "opener", name=st.name(ev["seat"]))

    def _turn(self, st: "TableState", ev: "TurnEvent") -> None:
        self._on_turn(st, ev["round"], ev["seat"], ev.get("limit"))

    def _on_turn(self, st, round_id, seat, limit):
        limit = self.tr("limit", n=self._throws(limit)) if limit else ""
        self.say("turn", round=self._round_name(st, round_id), name=st.name(seat), limit=limit)

    def _round_name(self, st, round_id):
        """"Runde 9" as people count rounds, or "Auswürfeln" for a throw-off (its round id has no number)."""
        number = st.number(round_id)
        return self.tr("round_no", n=number) if number is not None else self.tr("throw_off_name")

    def _progress(self, st: "TableState", ev: "ProgressEvent") -> None:
        public = self.tr("public", dice=_dice(v for _, v in ev["public"])) if ev["public"] else ""
        self.say("progress", name=st.name(ev["seat"]), throws=ev["throws"], public=public)

    def _done(self, st: "TableState", ev: "DoneEvent") -> None:
        self.say("done", name=st.name(ev["seat"]), throws=self._throws(ev["throws"], "after_throws"))

    def _reveal(self, st: "TableState", ev: "RevealEvent") -> None:
        self.say("reveal", name=st.name(ev["seat"]), dice=_dice(ev["dice"]), label=ev["label"],
                 throws=self._throws(ev["throws"]), built="" if ev["hand"] else self.tr("built"))

    def _throw_off(self, st: "TableState", ev: "ThrowOffEvent") -> None:
        if ev["opener"] is None:
            self.say("throw_off_again", names=", ".join(st.name(s) for s in st.game.throw_off_seats))
        else:
            self.say("throw_off", name=st.name(ev["opener"]))

    def _round(self, st: "TableState", ev: "RoundEvent") -> None:
        # What moved, not what the best throw is worth: with less left in the middle, less is taken.
        deckel = self.tr("all") if ev["deckel"] == ALL else sum(n for _, n in ev["moves"])
        # A round that ended a half: that half's Deckel as it ended (the state has begun the next one).
        ended = st.ended_half
        if ended is not None and ended["round"] == ev["round"]:
            held, middle = ended["deckel"], ended["middle"]
        else:
            held, middle = {p.seat: st.deckel(p.seat) for p in st.players}, st.middle()
        standings = ", ".join("%s %d" % (p.name, held.get(p.seat, 0)) for p in st.players)
        self.say("round", round=self._round_name(st, ev["round"]), best=st.name(ev["best"]),
                 worst=st.name(ev["worst"]), deckel=deckel, middle=middle, standings=standings)

    def _cheat(self, st: "TableState", ev: "CheatEvent") -> None:
        self.say("cheat", name=st.name(ev["seat"]), reason=ev["reason"])

    def _replay_round(self, st: "TableState", ev: "ReplayRoundEvent") -> None:
        self.say("replay_round", round=self._round_name(st, ev["round"]))

    def _half_lost(self, st: "TableState", ev: "HalfLostEvent") -> None:
        phase = ev["phase"]
        self.say("half_lost", name=st.name(ev["seat"]), phase=self.tr(phase) if phase in PHASES else phase)

    def _game_over(self, st: "TableState", ev: "GameOverEvent") -> None:
        self.say("game_over", name=st.name(ev["loser"]), blatt=self.tr("blatt") if ev["blattschuss"] else "")

    def _pause(self, st: "TableState", ev: "PauseEvent") -> None:
        self.say("pause", name=st.name(ev["seat"]), reason=ev["reason"])

    def _resume(self, st: "TableState", ev: "ResumeEvent") -> None:
        self.say("resume", name=st.name(ev["seat"]))

    def _absent(self, st: "TableState", ev: "AbsentEvent") -> None:
        key = "absent_slow" if ev.get("reason") == "slow" else "absent"
        self.say(key, name=st.name(ev["seat"]), after=ev["after"], n=ev["seat"] + 1)

    def _forfeit(self, st: "TableState", ev: "ForfeitEvent") -> None:
        self.say("forfeit_timeout" if ev.get("by") == "timeout" else "forfeit", name=st.name(ev["seat"]))

    def _wait(self, st: "TableState", ev: "WaitEvent") -> None:
        self.say("wait", name=st.name(ev["seat"]))

    def _fault(self, st: "TableState", ev: "FaultEvent") -> None:
        self.say("fault", name=st.name(ev["seat"]), reason=ev["reason"])

    def _step(self, step):
        """A transcript step of a bot's move in words, dice counted from 1."""
        if not isinstance(step, list) or not step or step[0] not in STEP_WORDS:
            return str(step)
        if step[0] in ("aside", "back") and len(step) > 1 and isinstance(step[1], int):
            return self.tr("step_" + step[0], n=step[1] + 1)
        if step[0] == "turn" and len(step) > 1 and isinstance(step[1], list):
            return self.tr("step_turn", n="+".join(str(s + 1) for s in step[1] if isinstance(s, int)))
        return self.tr("step_" + step[0])

    def _bot_fallback(self, st: "TableState", ev: "BotFallbackEvent") -> None:
        move = ", ".join(self._step(step) for step in ev["move"]) or self.tr("step_none")
        fallback = ev["fallback"]
        self.say("bot_fallback", name=st.name(ev["seat"]), move=move, reason=refusal(self.lang, ev["reason"]),
                 fallback=self.tr("fallback_" + fallback) if fallback in FALLBACK_WORDS else fallback)

    def _battery(self, st: "TableState", ev: "BatteryEvent") -> None:
        if ev["low"]:  # a warning: the cup will not last (links/battery.py); its charge otherwise is no news
            left = self.tr("battery_left", hours=ev["hours"]) if ev.get("hours") is not None else ""
            self.say("battery_low", name=st.name(ev["seat"]), percent=ev.get("percent"), left=left)

    def _stop(self, st: "TableState", ev: "StopEvent") -> None:
        self.say("stop", reason=ev["reason"])

    def _resumed(self, st: "TableState", ev: "ResumedEvent") -> None:
        self.say("resumed")
        # A seat on turn when the host stopped goes on with its turn without a new turn event (its cup
        # kept it): this host's screen has not said whose turn it is yet.
        if st.on_turn is not None and not st.over:
            self._on_turn(st, st.round, st.on_turn, st.players[st.on_turn].limit)

    def _penalty(self, st: "TableState", ev: "PenaltyEvent") -> None:
        self.say("penalty", name=st.name(ev["seat"]))

    def _einwuerfeln(self, st: "TableState", ev: "EinwuerfelnEvent") -> None:
        self.say("einwuerfeln", name=st.name(ev["seat"]))
