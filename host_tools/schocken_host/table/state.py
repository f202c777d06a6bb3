"""The table as the host sees it, rebuilt from events: the referee's live view, the scoreboard's model, and
the replay of a game log are one and the same thing.

Every event is a dict with "ev". ``TableState.apply(event)`` updates the state; events that change the game
(throw-off, round, penalty, Einwürfeln) are recomputed with the rules package and must agree with what the
event recorded, otherwise ``LogError`` says what differs. docs/gamelog.md lists the events.
"""

from schocken import RuleError
from schocken.game import Game
from schocken.rules import from_dict

from schocken_host.i18n import LocalizedValueError
from schocken_host.table.events import check_of

LOG_VERSION = 1

# What the rules compute from an event of the referee (TableState.apply with ``live``), by event.
RESULTS = {"round": ("ranking", "best", "worst", "deckel", "moves"), "throw_off": ("opener",),
           "penalty": ("moves",), "einwuerfeln": ("moves",)}


# Event type -> what it changes in a TableState: the functions the class registers with ``_handles``, so an
# event's whole life is found by its name (events.EVENTS, here, docs/gamelog.md).
HANDLERS = {}  # type: dict[str, object]

# Event type -> (its handler, its field check: events.check_of), made when first applied.
_KNOWN = {}  # type: dict[str, tuple]


def _handles(kind):
    """The decorated TableState method is what an event of ``kind`` changes."""
    def register(fn):
        HANDLERS[kind] = fn
        return fn
    return register


class LogError(LocalizedValueError):
    """A log that is no game: an event this host does not know, or one the rules recompute otherwise."""


class Player:
    def __init__(self, seat, name, cup=None, kind="cup", strategy=None):
        self.seat = seat
        self.name = name
        self.cup = cup
        self.kind = kind
        self.strategy = strategy  # a bot's strategy, as the start event names it
        self.throws = 0          # throws used in the current round
        self.public = []         # dice lying open: [[slot, value], ...]
        self.aside_at_throw = []  # the values lying open when its latest throw fell (out for good)
        self.limit = None        # the throws its turn of this round allows (its turn event), None before it
        self.done = False
        self.commit = None
        self.revealed = None     # {"dice", "throws", "hand", "label", "kind"}
        self.flagged = None      # why the cup was caught, if it was
        self.connected = True
        self.seed_hash = None    # fair play: the cup's committed seed for this round
        self.nonces = {}         # fair play: throw number -> the host's nonce

    def new_round(self):
        self.seed_hash = None
        self.nonces = {}
        self.flagged = None      # a cup caught cheating is flagged for the round it was caught in
        self.throws = 0
        self.public = []
        self.aside_at_throw = []
        self.limit = None
        self.done = False
        self.commit = None
        self.revealed = None


class TableState:
    def __init__(self):
        self.game = None
        self.rules = None
        self.players = []
        self.game_id = None
        self.round = 0               # round id of the round being played (throw-offs included)
        self.numbers = {}            # round id -> its number for people (rounds only: number())
        self.ended_half = None       # the half that ended last, as it ended (_after_change)
        self.closed = 0              # id of the last round that ended (ranked, thrown off or voided)
        self.round_kind = None       # "throw_off" or "round"
        self.order = []              # seats of the current round from the opener
        self.limit = None            # the opener's throws, once he stood
        self.on_turn = None
        self.last_round = None       # the last "round" event
        self.half_losers = []
        self.paused = {}             # seat -> reason
        self.batteries = {}          # seat -> its charge as the table sees it: percent, usb, hours, low
        self.replays = 0             # rounds voided in a row (replay_round since the last decided round)
        self.asked = set()           # seats the table has been asked about (absent) and not yet ruled on
        self.notes = []              # last messages for people
        self.events = 0
        self.over = False
        self.loser = None
        self.turns_seen = []         # (round, seat, limit, opened, transcript) of each round's valid reveal
        self.known_habits = None     # what the host remembers of each player's play (table/habit_book.py)

    # --- reading ----------------------------------------------------------------------------------
    def phase(self):
        return self.game.phase if self.game else "setup"

    def half_loser_since(self, phase):
        """The seat that lost the half played in ``phase`` if that half has ended since (the game moved on to
        another phase), else None. The referee's ``half_lost`` event and ``schocken stats`` both come from
        it."""
        game = self.game
        if phase == "throw_off" and game is not None and game.phase not in ("throw_off", "half1"):
            phase = "half1"  # a throw-off with Deckel (throw_off_deckel) can end the first half at once
        if game is None or phase not in ("half1", "half2", "final") or game.phase == phase:
            return None
        return game.half_losers[-1] if game.phase != "over" else game.loser

    def deckel(self, seat):
        half = self.game.half if self.game else None
        return half.deckel.get(seat, 0) if half else 0

    def middle(self):
        half = self.game.half if self.game else None
        return half.middle if half else (self.rules.deckel_total if self.rules else 13)

    def in_half(self, seat):
        half = self.game.half if self.game else None
        return bool(half) and seat in half.in_half

    def name(self, seat):
        return self.players[seat].name

    def number(self, round_id=None):
        """The number people count a round by (the round in play by default): the rounds ranked before it,
        plus one. A throw-off has none (None), and a round played again keeps its number, so the scoreboard,
        the page, `replay` (``standings()["rounds"]``) and the league count alike; the log's round ids also
        count throw-offs and void rounds."""
        return self.numbers.get(self.round if round_id is None else round_id)

    # --- applying events --------------------------------------------------------------------------
    def apply(self, ev, live=False):
        """Apply one event; LogError (the state unchanged) for one the rules refuse or that is malformed.
        ``live``: the referee's own event (table/sink.py), whose results the rules compute here, once, and
        write into it (``RESULTS``); a logged event carries them and they are checked."""
        kind = ev.get("ev")
        known = _KNOWN.get(kind) if type(kind) is str else None
        if known is None:
            handler = HANDLERS.get(kind)
            if handler is None:
                raise LogError("log.unknown_event", kind=kind)
            known = _KNOWN[kind] = (handler, check_of(kind))
        handler, check = known
        bad = check(ev, len(self.players))
        # A live event's results come last in its fields (events.py), so all before them were checked.
        if bad is not None and not (live and bad[1] == "missing" and bad[0] in RESULTS.get(kind, ())):
            raise LogError("log.field_" + bad[1], kind=kind, field=bad[0])
        try:
            handler(self, ev)
        except RuleError as e:
            raise LogError("log.rules_refuse", kind=kind, error=e)
        except (KeyError, TypeError, IndexError) as e:
            raise LogError("log.malformed", kind=kind, error=e)
        self.events += 1

    @_handles("start")
    def _ev_start(self, ev):
        if self.players:  # one game per log: a second start would silently replace the first game
            raise LogError("log.second_start")
        if ev.get("version") != LOG_VERSION:
            raise LogError("log.version", version=ev.get("version"), reads=LOG_VERSION)
        for seat, p in enumerate(ev["players"]):  # the state finds a player by seat: seat i is the i-th
            if (not isinstance(p, dict) or p.get("seat") != seat or isinstance(p.get("seat"), bool)
                    or not isinstance(p.get("name"), str)):
                raise LogError("log.field_players", kind="start", field="players")
        self.rules = from_dict(ev["rules"])
        self.game_id = ev["game_id"]
        self.players = [Player(p["seat"], p["name"], p.get("cup"), p.get("kind", "cup"), p.get("strategy"))
                        for p in ev["players"]]
        self.game = Game(self.rules, [p.name for p in self.players])

    @_handles("turn")
    def _ev_turn(self, ev):
        if ev["round"] != self.round:
            self.round = ev["round"]
            self.round_kind = ev.get("kind", "round")
            if self.round_kind == "round":
                self.numbers[self.round] = self.game.rounds + 1
            self.order = ev.get("order", [])
            self.limit = None
            for p in self.players:
                p.new_round()
        elif not ev.get("continued"):
            # On turn again in the same round: its cup lost the turn (a restart without its flash, a lost
            # line), and the new turn has a seed and nonces of its own.
            self.players[ev["seat"]].new_round()
        self.on_turn = ev["seat"]
        limit = ev.get("limit")
        if ev["seat"] < len(self.players):
            self.players[ev["seat"]].limit = limit if limit is not None else self.rules.max_throws
        if limit is not None:
            self.limit = limit

    @_handles("progress")
    def _ev_progress(self, ev):
        p = self.players[ev["seat"]]
        if ev["throws"] != p.throws:  # the progress of a throw: what lies open now lay out when it fell
            p.aside_at_throw = [v for _, v in ev["public"]]
        p.throws = ev["throws"]
        p.public = ev["public"]

    @_handles("done")
    def _ev_done(self, ev):
        p = self.players[ev["seat"]]
        p.done, p.throws, p.commit = True, ev["throws"], ev["commit"]
        if self.round_kind == "round" and self.limit is None:
            self.limit = ev["throws"]  # the round's first done: the opener's, or the first after it to play
        if self.on_turn == ev["seat"]:
            self.on_turn = None

    @_handles("seed")
    def _ev_seed(self, ev):
        self.players[ev["seat"]].seed_hash = ev["hash"]

    @_handles("nonce")
    def _ev_nonce(self, ev):
        self.players[ev["seat"]].nonces[ev["throw"]] = ev["nonce"]

    @_handles("reveal")
    def _ev_reveal(self, ev):
        p = self.players[ev["seat"]]
        p.revealed = {k: ev[k] for k in ("dice", "throws", "hand", "label", "kind")}
        if self.round_kind == "round" and not p.flagged and ev.get("transcript"):
            # what the table learns how each player plays (odds/habits.py, through table/coach.py)
            opened = bool(self.order) and self.order[0] == ev["seat"]
            self.turns_seen.append((self.round, ev["seat"], p.limit or self.rules.max_throws, opened,
                                    ev["transcript"]))

    @_handles("cheat")
    def _ev_cheat(self, ev):
        self.players[ev["seat"]].flagged = ev["reason"]
        self.notes.append("cheat:%d:%s" % (ev["seat"], ev["reason"]))

    @_handles("replay_round")
    def _ev_replay_round(self, ev):
        self.notes.append("replay:%s" % ev.get("reason", ""))
        self.closed = ev["round"]
        self.replays += 1

    @_handles("fault")
    def _ev_fault(self, ev):
        self.notes.append("fault:%d:%s" % (ev["seat"], ev["reason"]))

    @_handles("stop")
    def _ev_stop(self, ev):
        self.notes.append("stop:%s" % ev["reason"])
        self.replays = 0

    @_handles("throw_off")
    def _ev_throw_off(self, ev):
        seats = list(self.game.throw_off_seats)
        half = self.game.half
        if ev["seats"] != seats:
            raise LogError("log.throw_off_seats", logged=ev["seats"], expected=seats)
        opener = self.game.throw_off([list(d) for d in ev["dice"]])
        if "opener" not in ev:
            ev["opener"] = opener   # the referee's throw-off, decided here
        elif opener != ev["opener"]:
            raise LogError("log.throw_off_opener", opener=opener, logged=ev["opener"])
        self.closed = ev["round"]
        self.replays = 0
        self._after_change(half, ev["round"])

    @_handles("opener")
    def _ev_opener(self, ev):
        self.game.set_opener(ev["seat"])
        if ev.get("round") is not None:  # a throw-off decided without its void seats (referee.MAX_REPLAYS)
            self.closed = ev["round"]
        self.replays = 0
        self._after_change()

    @_handles("round")
    def _ev_round(self, ev):
        order = self.game.order()
        if ev["order"] != order:
            raise LogError("log.round_seats", round=ev["round"], logged=ev["order"], expected=order)
        entries = [tuple(e) if e is not None else ([1, 1, 1], 1, True) for e in ev["entries"]]
        forfeit = {order.index(s) for s in ev.get("forfeit", [])}
        half = self.game.half
        result, moves = self.game.play_round(entries, forfeit)
        got = {"best": order[result.best], "worst": order[result.worst], "deckel": result.deckel,
               "moves": [[m[0], m[1]] for m in moves]}
        if "best" not in ev:   # the referee's round, ranked here: the log holds what the state applied
            ev["ranking"] = [order[i] for i in result.ranking]
            ev.update(got)
        for key in got:
            if ev[key] != got[key]:
                raise LogError("log.round_differs", round=ev["round"], field=key, logged=ev[key],
                               rules=got[key])
        self.last_round = ev
        self.closed = ev["round"]
        self.replays = 0
        self._after_change(half, ev["round"])

    @_handles("penalty")
    def _ev_penalty(self, ev):
        half = self.game.half
        moves = [[m[0], m[1]] for m in self.game.penalty(ev["seat"])]
        if moves != ev.setdefault("moves", moves):
            raise LogError("log.penalty_moves", logged=ev["moves"], rules=moves)
        self._after_change(half, None)

    @_handles("einwuerfeln")
    def _ev_einwuerfeln(self, ev):
        moves = [[m[0], m[1]] for m in self.game.einwuerfeln(ev["seat"])]
        if moves != ev.setdefault("moves", moves):
            raise LogError("log.einwuerfeln_moves", logged=ev["moves"], rules=moves)

    @_handles("pause")
    def _ev_pause(self, ev):
        self.paused[ev["seat"]] = ev["reason"]
        self.players[ev["seat"]].connected = False

    @_handles("resume")
    def _ev_resume(self, ev):
        self.paused.pop(ev["seat"], None)
        self.asked.discard(ev["seat"])
        self.players[ev["seat"]].connected = True

    @_handles("absent")
    def _ev_absent(self, ev):
        self.notes.append("absent:%d" % ev["seat"])
        self.asked.add(ev["seat"])

    @_handles("wait")
    def _ev_wait(self, ev):
        self.asked.discard(ev["seat"])

    @_handles("forfeit")
    def _ev_forfeit(self, ev):
        self.notes.append("forfeit:%d" % ev["seat"])
        self.asked.discard(ev["seat"])

    @_handles("resumed")
    def _ev_resumed(self, ev):
        self.notes.append("resumed")
        self.replays = 0   # a new host gives the void seats their full count of tries again
        self.asked.clear()  # and asks the table again where it must

    @_handles("battery")
    def _ev_battery(self, ev):
        # What the table sees of a cup's charge (links/battery.py): no change of game.
        self.batteries[ev["seat"]] = {"percent": ev.get("percent"), "usb": ev["usb"],
                                      "hours": ev.get("hours"), "low": ev["low"]}

    @_handles("bot_fallback")
    def _ev_bot_fallback(self, ev):
        pass  # a bot's move that failed or was refused and what it did instead: for people, no change of game

    @_handles("half_lost")
    def _ev_half_lost(self, ev):
        pass  # derived from the round before it; kept in the log for people and stats

    @_handles("game_over")
    def _ev_game_over(self, ev):
        if not self.over or self.loser != ev["loser"]:
            raise LogError("log.loser", logged=ev["loser"], rules=self.loser)

    def _after_change(self, half=None, round_id=None):
        """After an event that moved Deckel: ``half``, the half played before it, is kept as it ended when
        the event ended it (a new half began, or the game is over): ``ended_half``, {"phase", "loser",
        "deckel": {seat: n}, "middle", "round": the round id that ended it, or None for a penalty}. The game
        has moved on to the next half by then, and people still look at the one that ended."""
        if half is not None and half.over():
            self.ended_half = {"phase": half.name, "loser": half.loser, "deckel": dict(half.deckel),
                               "middle": half.middle, "round": round_id}
        self.half_losers = list(self.game.half_losers)
        if self.game.phase == "over":
            self.over = True
            self.loser = self.game.loser

    def standings(self):
        """The documented shape of `schocken replay --json` (docs/gamelog.md)."""
        g = self.game
        return {
            "game_id": self.game_id,
            "rules": self.rules.to_dict() if self.rules else None,
            "phase": self.phase(),
            "rounds": g.rounds if g else 0,
            "players": [{"seat": p.seat, "name": p.name, "deckel": self.deckel(p.seat),
                         "in_half": self.in_half(p.seat), "flagged": p.flagged} for p in self.players],
            "middle": self.middle(),
            "half_losers": list(self.half_losers),
            "loser": self.loser,
            "blattschuss": bool(g and g.blattschuss),
        }
