"""What the page shows, as plain data: ``Tracker`` follows the events beside a TableState and keeps what the
state forgets (the last round's reveals with their dice, the halves' losers, the history); ``view()`` is the
whole page's model, sent to every browser after each burst of events. Words are put in by the page (texts
"web.page_*").

A round's reveals stay on the players' cards until the next round's first throw (``shown``): the state forgets
them at the next round's first turn, but people at the table look up after the last cup is uncovered. So does
a half that round ended (``ended``): its Deckel as they ended, the loser's all of them, though the state has
begun the next half. Rounds are named by the number people count them by (``TableState.number``)."""

from schocken.throws import ALL

HISTORY = 40            # entries the page gets (it shows as many as fit)


class Tracker:
    def __init__(self):
        self.reveals = {}            # seat -> reveal of the round being played
        self.last_round = None       # {"round", "kind", "best", "worst", "deckel", "reveals": [...]}
        self.history = []            # newest last
        self.halves = []             # [{"phase", "seat"}] of every half (and the final) lost so far
        self.shown = {}              # seat -> the last ranked round's (or throw-off's) reveal, until a throw
        self.shown_round = None      # the round ``shown`` is from
        self.ended = None            # the half that round ended, as it ended (TableState.ended_half)
        self.stopped = None

    def update(self, st, ev):
        kind = ev.get("ev")
        if kind == "turn" and ev.get("round") != getattr(self, "_round", None):
            self._round = ev.get("round")
            self.reveals = {}
        elif (kind in ("progress", "done") and (self.shown or self.ended)
              and ev.get("round") != self.shown_round and ev.get("throws")):
            # the next round's first throw: eyes on the new dice, and on the new half
            self.shown, self.shown_round, self.ended = {}, None, None
        elif kind == "reveal":
            self.reveals[ev["seat"]] = {"seat": ev["seat"], "dice": list(ev["dice"]),
                                        "label": ev.get("label"), "kind": ev.get("kind"),
                                        "throws": ev.get("throws"),
                                        "hand": ev.get("hand", True)}
        elif kind == "round":
            best = self.reveals.get(ev["best"], {})
            # What the loser took, not what the best throw is worth: with less left, less is taken.
            taken = sum(n for _, n in ev.get("moves") or [])
            number = st.number(ev["round"])
            self.last_round = {"round": number, "kind": "round", "best": ev["best"],
                               "worst": ev["worst"], "deckel": ev["deckel"], "taken": taken,
                               "reveals": self._ordered(ev.get("order"))}
            self._add("all" if ev["deckel"] == ALL else "round", round=number, best=ev["best"],
                      worst=ev["worst"], deckel=taken, label=best.get("label", "?"))
            self._show(self.last_round, ev["round"])
            self._keep_ended(st, ev["round"])
        elif kind == "throw_off":
            dice = {s: d for s, d in zip(ev["seats"], ev["dice"])}
            reveals = self._ordered(ev["seats"])
            for r in reveals:
                r["dice"] = dice.get(r["seat"], r["dice"])
            self.last_round = {"round": None, "kind": "throw_off", "best": ev.get("opener"),
                               "worst": None, "deckel": 0, "taken": 0, "reveals": reveals}
            self._show(self.last_round, ev["round"])
            self._keep_ended(st, ev["round"])
            if ev.get("opener") is not None:
                self._add("throw_off", seat=ev["opener"])
        elif kind == "opener":
            self._add("throw_off", seat=ev["seat"])
        elif kind == "half_lost":
            self._add("half", seat=ev["seat"], phase=ev["phase"])
            self.halves.append({"phase": ev["phase"], "seat": ev["seat"]})
        elif kind in ("penalty", "einwuerfeln", "forfeit"):
            self._add(kind, seat=ev["seat"])
            if kind == "penalty":
                self._keep_ended(st, None)
        elif kind == "cheat":
            self._add("cheat", seat=ev["seat"], reason=ev.get("reason", ""))
        elif kind == "replay_round":
            self._add("replay")
        elif kind == "bot_fallback" and ev.get("by") != "error":  # a bot's refused move (table/bots.py)
            self._add("bot", seat=ev["seat"], reason=ev.get("reason", ""))
        elif kind == "stop":
            self.stopped = ev.get("reason", "")

    def _show(self, last, round_id):
        self.shown = {r["seat"]: dict(r, round=last["round"], best=r["seat"] == last["best"],
                                      worst=r["seat"] == last["worst"])
                      for r in last["reveals"] if r.get("dice")}
        self.shown_round = round_id

    def _keep_ended(self, st, round_id):
        """The half this event ended, if it ended one, kept as it ended until the next round's first throw."""
        ended = st.ended_half
        if ended is not None and ended["round"] == round_id and not st.over:
            self.ended = ended

    def deckel(self, st, seat):
        return self.ended["deckel"].get(seat, 0) if self.ended is not None else st.deckel(seat)

    def reveal_of(self, player):
        """The reveal a player's card shows: his reveal of the round in play (once the round is ranked, with
        ``best`` and ``worst``), else the last ranked round's until the next round's first throw (``"past":
        True``), else None."""
        shown = self.shown.get(player.seat)
        if player.revealed is not None:
            ranked = shown is not None and shown["dice"] == list(player.revealed["dice"])
            return dict(player.revealed, past=False, best=ranked and shown["best"],
                        worst=ranked and shown["worst"])
        return dict(shown, past=True) if shown is not None else None

    def _ordered(self, order):
        seats = order if order else sorted(self.reveals)
        return [dict(self.reveals[s]) if s in self.reveals else {"seat": s, "dice": [], "label": None}
                for s in seats]

    def _add(self, kind, **fields):
        fields["kind"] = kind
        self.history.append(fields)
        del self.history[:-HISTORY]


def view(st, tracker, count):
    """The page's model after ``count`` events."""
    players = []
    for p in st.players:
        players.append({
            "seat": p.seat, "name": p.name, "kind": p.kind, "deckel": tracker.deckel(st, p.seat),
            "in_half": st.in_half(p.seat), "throws": p.throws, "public": [v for _, v in p.public],
            "done": p.done, "revealed": p.revealed, "flagged": p.flagged, "connected": p.connected,
            "paused": st.paused.get(p.seat), "asked": p.seat in st.asked, "battery": st.batteries.get(p.seat),
            "reveal": tracker.reveal_of(p),
        })
    game = st.game
    ended = tracker.ended
    max_throws = st.rules.max_throws if st.rules is not None else 3
    on_turn = st.on_turn
    return {
        "id": count,
        "game_id": st.game_id,
        "preset": st.rules.to_dict()["preset"] if st.rules is not None else None,
        "phase": ended["phase"] if ended is not None else st.phase(),
        "round": st.number(tracker.shown_round) if ended is not None else st.number(),
        "round_kind": st.round_kind,
        "on_turn": on_turn,
        "throw": st.players[on_turn].throws if on_turn is not None else None,
        "limit": st.limit or max_throws,
        "middle": ended["middle"] if ended is not None else st.middle(),
        "players": players,
        "last_round": tracker.last_round,
        "history": list(tracker.history),
        "halves": list(tracker.halves),
        "over": st.over,
        "loser": st.loser,
        "blattschuss": bool(game and game.blattschuss),
        "stopped": tracker.stopped,
        "standings": st.standings() if st.game is not None else None,
    }
