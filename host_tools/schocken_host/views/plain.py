"""Plain output: one line per event, for logs, screen readers and when standard output is not a terminal."""

import sys

from schocken.throws import ALL

from schocken_host.views import keymap
from schocken_host.i18n import tr

TEXT = {
    "de": {
        "start": "Spiel {game_id}: Regeln {rules}, Spieler: {players}",
        "opener": "{name} beginnt.",
        "turn": "Runde {round}: {name} ist am Zug{limit}.",
        "limit": " (höchstens {n})",
        "n_throws": ("{n} Wurf", "{n} Würfe"), "n_throws_dat": ("{n} Wurf", "{n} Würfen"),
        "progress": "{name}: Wurf {throws}{public}",
        "public": ", liegen: {dice}",
        "done": "{name} steht nach {throws_dat}.",
        "reveal": "{name} deckt auf: {dice} = {label} ({throws}{built})",
        "built": ", zusammengewürfelt",
        "throw_off": "Auswürfeln: {result}",
        "throw_off_again": "Auswürfeln: Gleichstand, Stechen zwischen {names}",
        "throw_off_opener": "{name} hat den niedrigsten Wurf und beginnt",
        "round": "Runde {round}: {best} hat den besten Wurf, {worst} verliert und bekommt {deckel} Deckel. Mitte: {middle}, {standings}",
        "all": "alle",
        "cheat": "ACHTUNG: Becher von {name} ist ungültig: {reason}",
        "replay_round": "Runde {round} wird wiederholt.",
        "half_lost": "{name} verliert {phase}.",
        "game_over": "Spiel aus: {name} hat verloren{blatt}.",
        "blatt": " (Blattschuss)",
        "pause": "PAUSE: Becher von {name} ist weg ({reason}). Warte …",
        "resume": "Becher von {name} ist wieder da, es geht weiter.",
        "resumed": "Spiel fortgesetzt.",
        "absent": "Becher von {name} ist seit {after} s weg. Der Tisch entscheidet: 'wait {n}' (weiter warten) oder 'forfeit {n}' ({name} bekommt die Deckel der Runde).",
        "absent_slow": "{name} ist seit {after} s am Zug. Der Tisch entscheidet: 'wait {n}' (weiter warten) oder 'forfeit {n}' ({name} bekommt die Deckel der Runde).",
        "forfeit": "{name} ist nicht da und bekommt die Deckel dieser Runde.",
        "forfeit_timeout": "Keine Antwort vom Tisch: {name} bekommt die Deckel dieser Runde.",
        "wait": "Der Tisch wartet weiter auf {name}.",
        "fault": "Becher von {name}: fehlerhafte Nachricht übergangen ({reason})",
        "stop": "Spiel angehalten: {reason}. Weiter mit 'schocken play --resume'.",
        "opener_void": "{name} hat keinen gültigen Wurf beim Auswürfeln und beginnt.",
        "penalty": "{name} hat die Würfel fallen lassen: ein Strafdeckel.",
        "einwuerfeln": "{name} würfelt sich wieder ein.",
        "half1": "die 1. Hälfte", "half2": "die 2. Hälfte", "final": "das Finale",
    },
    "en": {
        "start": "Game {game_id}: rules {rules}, players: {players}",
        "opener": "{name} opens.",
        "turn": "Round {round}: {name} is on turn{limit}.",
        "limit": " (at most {n})",
        "n_throws": ("{n} throw", "{n} throws"), "n_throws_dat": ("{n} throw", "{n} throws"),
        "progress": "{name}: throw {throws}{public}",
        "public": ", set aside: {dice}",
        "done": "{name} stands after {throws_dat}.",
        "reveal": "{name} reveals: {dice} = {label} ({throws}{built})",
        "built": ", built",
        "throw_off": "Throw-off: {result}",
        "throw_off_again": "Throw-off: a tie, Stechen between {names}",
        "throw_off_opener": "{name} has the lowest throw and opens",
        "round": "Round {round}: {best} has the best throw, {worst} loses and takes {deckel} Deckel. Middle: {middle}, {standings}",
        "all": "all",
        "cheat": "WARNING: the cup of {name} is invalid: {reason}",
        "replay_round": "Round {round} is played again.",
        "half_lost": "{name} loses {phase}.",
        "game_over": "Game over: {name} lost{blatt}.",
        "blatt": " (Blattschuss)",
        "pause": "PAUSE: the cup of {name} is gone ({reason}). Waiting …",
        "resume": "The cup of {name} is back, the game goes on.",
        "resumed": "Game resumed.",
        "absent": "The cup of {name} has been gone for {after} s. The table decides: 'wait {n}' (keep waiting) or 'forfeit {n}' ({name} takes the round's Deckel).",
        "absent_slow": "{name} has been on turn for {after} s. The table decides: 'wait {n}' (keep waiting) or 'forfeit {n}' ({name} takes the round's Deckel).",
        "forfeit": "{name} is absent and takes this round's Deckel.",
        "forfeit_timeout": "No answer from the table: {name} takes this round's Deckel.",
        "wait": "The table keeps waiting for {name}.",
        "fault": "The cup of {name}: a faulty message was passed over ({reason})",
        "stop": "Game stopped: {reason}. Continue with 'schocken play --resume'.",
        "opener_void": "{name} has no valid throw in the throw-off and opens.",
        "penalty": "{name} dropped the dice: one penalty Deckel.",
        "einwuerfeln": "{name} throws back in.",
        "half1": "the 1. Hälfte", "half2": "the 2. Hälfte", "final": "the Finale",
    },
}


def _dice(d):
    return "-".join(str(x) for x in d)


class PlainUI:
    def __init__(self, lang="de", out=None):
        self.lang = lang if lang in TEXT else "de"
        self.t = TEXT[self.lang]
        self.out = out or sys.stdout
        self.st = None               # the table as of the last event
        self.own = None              # the person's own cup (own_cup.OwnCup), when one plays
        self._own_shown = None

    def say(self, key, **kw):
        self.out.write(self.t[key].format(**kw) + "\n")
        self.out.flush()

    def _throws(self, n, key="n_throws"):
        """"1 Wurf", "2 Würfe" ("nach 2 Würfen": key n_throws_dat)."""
        return self.t[key][0 if n == 1 else 1].format(n=n)

    def note(self, text):
        self.out.write(text + "\n")
        self.out.flush()

    # --- a person at the table (views/play_keys.py) ------------------------------------------------------------
    def person(self, own):
        """A person plays ``own`` (own_cup.OwnCup) from the keyboard: the key help, once."""
        self.own = own
        self.note(keymap.help_text(self.lang))

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
        self.note(tr(self.lang, "refused", name=self._name(seat), reason=reason))

    def _name(self, seat):
        st = self.st
        return st.name(seat) if st is not None and 0 <= seat < len(st.players) else str(seat + 1)

    def update(self, st, ev):
        self.st = st
        kind = ev["ev"]
        fn = getattr(self, "_" + kind, None)
        if fn:
            fn(st, ev)

    def _start(self, st, ev):
        self.say("start", game_id=ev["game_id"], rules=ev["rules"]["preset"],
                 players=", ".join("%d %s" % (p["seat"] + 1, p["name"]) for p in ev["players"]))

    def _opener(self, st, ev):
        self.say("opener_void" if ev.get("reason") else "opener", name=st.name(ev["seat"]))

    def _turn(self, st, ev):
        limit = self.t["limit"].format(n=self._throws(ev["limit"])) if ev.get("limit") else ""
        self.say("turn", round=ev["round"], name=st.name(ev["seat"]), limit=limit)

    def _progress(self, st, ev):
        public = self.t["public"].format(dice=_dice(v for _, v in ev["public"])) if ev["public"] else ""
        self.say("progress", name=st.name(ev["seat"]), throws=ev["throws"], public=public)

    def _done(self, st, ev):
        self.say("done", name=st.name(ev["seat"]), throws_dat=self._throws(ev["throws"], "n_throws_dat"))

    def _reveal(self, st, ev):
        self.say("reveal", name=st.name(ev["seat"]), dice=_dice(ev["dice"]), label=ev["label"],
                 throws=self._throws(ev["throws"]), built="" if ev["hand"] else self.t["built"])

    def _throw_off(self, st, ev):
        if ev["opener"] is None:
            self.say("throw_off_again", names=", ".join(st.name(s) for s in st.game.throw_off_seats))
        else:
            self.say("throw_off", result=self.t["throw_off_opener"].format(name=st.name(ev["opener"])))

    def _round(self, st, ev):
        deckel = self.t["all"] if ev["deckel"] == ALL else ev["deckel"]
        standings = ", ".join("%s %d" % (p.name, st.deckel(p.seat)) for p in st.players)
        self.say("round", round=ev["round"], best=st.name(ev["best"]), worst=st.name(ev["worst"]),
                 deckel=deckel, middle=st.middle(), standings=standings)

    def _cheat(self, st, ev):
        self.say("cheat", name=st.name(ev["seat"]), reason=ev["reason"])

    def _replay_round(self, st, ev):
        self.say("replay_round", round=ev["round"])

    def _half_lost(self, st, ev):
        self.say("half_lost", name=st.name(ev["seat"]), phase=self.t.get(ev["phase"], ev["phase"]))

    def _game_over(self, st, ev):
        self.say("game_over", name=st.name(ev["loser"]), blatt=self.t["blatt"] if ev["blattschuss"] else "")

    def _pause(self, st, ev):
        self.say("pause", name=st.name(ev["seat"]), reason=ev["reason"])

    def _resume(self, st, ev):
        self.say("resume", name=st.name(ev["seat"]))

    def _absent(self, st, ev):
        key = "absent_slow" if ev.get("reason") == "slow" else "absent"
        self.say(key, name=st.name(ev["seat"]), after=ev["after"], n=ev["seat"] + 1)

    def _forfeit(self, st, ev):
        self.say("forfeit_timeout" if ev.get("by") == "timeout" else "forfeit", name=st.name(ev["seat"]))

    def _wait(self, st, ev):
        self.say("wait", name=st.name(ev["seat"]))

    def _fault(self, st, ev):
        self.say("fault", name=st.name(ev["seat"]), reason=ev["reason"])

    def _stop(self, st, ev):
        self.say("stop", reason=ev["reason"])

    def _resumed(self, st, ev):
        self.say("resumed")

    def _penalty(self, st, ev):
        self.say("penalty", name=st.name(ev["seat"]))

    def _einwuerfeln(self, st, ev):
        self.say("einwuerfeln", name=st.name(ev["seat"]))
