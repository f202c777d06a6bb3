"""The cup's turn state machine: what the cup does with a throw, a button and a host message.

Synchronous and free of hardware: inputs come as method calls (from the app's tasks), outputs go to
``send(msg)`` (the link) and ``view`` (the LEDs). The rules package decides what is legal; the cup refuses
everything else with a flash of the status pixel and, where a host asked, an error message.

States: idle (not on turn) -> turn (shaking, peeking, setting aside) -> done (stood, throw hidden, committed)
-> reveal_ready (round over, reveal button armed) -> revealed. ``outcome`` returns to idle.
"""

from schocken import RuleError, text, why
from schocken import protocol
from schocken.rules import Rules, PRESETS
from schocken.turn import Turn, IN_CUP

from cup.buttons import MAIN, PRESS, RELEASE, LONG

from micropython import const

FIRMWARE = "0.1.0"

# Refusals and errors by number in cup.texts: sent as numbers (an error's "why"), or put into words by
# schocken.text, which loads the texts for one message, so the cup keeps no string per message (each about
# 40 B of heap with the firmware in ROM, 60 B plus its length as .mpy files).
_NOT_YOUR_TURN = const(0)
_NO_THROW_LEFT = const(1)
_WAITING_NONCE = const(2)
_NO_NONCE_WANTED = const(3)
_IN_THE_AIR = const(4)
_NO_SIXES = const(5)
_NO_PEEKING = const(6)
_NOTHING_TO_DO = const(7)
_ROUND_NOT_OVER = const(8)
_VERSION = const(9)
_RULES_IN_ROUND = const(10)
_SEAT_NAME = const(11)
_CONFIGURE_FIRST = const(12)
_ROUND_OPEN = const(13)
_LIMIT = const(14)
_NO_FINISHED = const(15)
_UNKNOWN_RESULT = const(16)
_REVEAL_FIRST = const(17)
_NOT_SAVED = const(19)

IDLE = "idle"
TURN = "turn"
DONE = "done"
READY = "reveal_ready"
REVEALED = "revealed"


def _fair():  # loaded only when a host asks for fair play: a cup alone or on an older host keeps the heap
    from schocken import fair
    return fair


class Cup:
    hello_nonce = None  # set by the app: the cup's nonce of a new authenticated session

    def __init__(self, roller, view, send, identity):
        self.roller = roller            # dice, and the seeds and nonces (random_bytes: health-tested)
        self.view = view
        self.send = send
        self.identity = identity        # dict: cup, name, board, battery (callable -> mV or None; optional),
                                        # shake (the app's ShakeDetector; optional)
        self.rules = Rules("standard")
        self.name = identity.get("name", "")
        self.seat = None
        self.hosted = False             # a host has configured the cup
        self.state = IDLE
        self.round = 0
        self.limit = None
        self.turn = None
        self.nonce = None
        self.commit = None
        self.peeking = False
        self.main_revealed = False      # the main button's press revealed: its long press does nothing
        self.standalone_limit = self.rules.max_throws
        self.result = None
        self.store = None               # a cup.store.Store: the state survives a reset
        self.fair = False               # dice from the cup's seed and the host's nonces (docs/fairness.md)
        self.seed = None                # this turn's secret seed (bytes), disclosed at the reveal
        self.nonces = {}                # throw number -> the host's nonce
        self.awaiting = None            # a throw that waits for its nonce
        self.view.show(self)

    # --- surviving a reset --------------------------------------------------------------------------
    def snapshot(self):
        # Three small dicts rather than one of fifteen keys: a save happens at every step of a turn, and on a
        # small, fragmented heap the one large table is the allocation that fails.
        t = self.turn
        return {"table": {"rules": self.rules.to_dict(), "name": self.name, "seat": self.seat,
                          "hosted": self.hosted, "fair": self.fair},
                "round": {"state": self.state, "round": self.round, "limit": self.limit, "nonce": self.nonce,
                          "commit": self.commit, "result": self.result},
                "turn": {"seed": _fair().hexlify(self.seed) if self.seed else None,
                         "nonces": [[k, v] for k, v in self.nonces.items()], "awaiting": self.awaiting,
                         "transcript": t.transcript if t else None}}

    def save(self):
        # A flash that refuses the state leaves none (cup.store): the cup plays on, and says so at every step
        # it could not save (a reset now would start it afresh).
        if self.store is not None and not self.store.save(self.snapshot()):
            self.view.refuse(self, True)  # magenta (ERROR), flashed: its owner sees it too, not only a host
            self.send(protocol.error(protocol.E_INTERNAL, text(_NOT_SAVED, module="cup.texts"), None))

    # --- physical inputs ----------------------------------------------------------------------------
    # Few methods, each with branches: every method is an object in the cup's heap for as long as it runs
    # (about 85 bytes on the 64-bit port, docs/benchmarks.md), however small.
    def on_shake(self):
        """The shake detector says a throw happened: roll the dice still in the cup."""
        if self.state != TURN or not self.turn.can_roll():
            return self._refuse(_NOT_YOUR_TURN if self.state != TURN else _NO_THROW_LEFT)
        if not self._secrets():
            return
        if self.fair:  # the set-aside decisions are final now; the host's nonce for this throw follows them
            if self.awaiting is not None:
                return self._refuse(_WAITING_NONCE)
            self.awaiting = self.turn.throws_used + 1
            self.save()
            return self.send({"t": "shake", "round": self.round, "throw": self.awaiting,
                              "public": [[s, v] for s, v in self.turn.public()]})
        try:
            self._recheck()
            dice = self.roller.roll(len(self.turn.in_cup()))
        except Exception as e:  # RollRefused: the health test failed; never roll from a bad source
            self.view.error(self)
            return self._report(protocol.E_RNG, None, str(e))
        self._rolled(dice)

    def _recheck(self):
        # A failed health test is retried with a fresh startup test before the cup refuses: a false alarm of
        # the continuous tests is rare but possible (cup/roller.py); a broken source fails it again.
        if not self.roller.healthy and self.roller.health_check():
            self.view.failed = False

    def _secrets(self):
        """This turn's secrets, drawn from the health-tested stream before its first throw: the commitment's
        nonce and, in fair play, the seed (committed at once). False, with an rng_failed error, while the RNG
        cannot give them; nothing later in the turn needs the RNG but the dice of a cup that rolls alone."""
        if self.nonce is not None and (self.seed is not None or not self.fair):
            return True
        try:
            self._recheck()
            nonce = self.roller.random_bytes(16)
            seed = self.roller.random_bytes(32) if self.fair else None
        except Exception as e:  # RollRefused
            self.view.error(self)
            self._report(protocol.E_RNG, None, str(e))
            return False
        self.nonce = "".join("%02x" % b for b in nonce)
        self.seed = seed
        self.save()
        if seed is not None:  # committed before the first throw: no seed can be chosen after seeing a nonce
            self.send({"t": "seed", "round": self.round, "hash": _fair().seed_commitment(seed)})
        return True

    def _rolled(self, dice):
        try:
            self.turn.roll(dice)
        except RuleError as e:
            return self._refuse(e)
        if self.turn.throws_used >= self.turn.limit:
            # The last permitted throw ends the turn (its owner may still look: on_button). Throw, stand and
            # commitment in one save: reset between two, a cup woke on turn, no throw left, never to stand.
            self.turn.stand()
            self.state = DONE
            self.peeking = False
            self.commit = protocol.commitment(self.round, self.turn.dice(), self.nonce)
        self._progress()
        if self.state == DONE:
            self.send({"t": "done", "round": self.round, "throws": self.turn.throws_used,
                       "commit": self.commit})

    def on_button(self, button, event, was_long):
        """A debounced button event (cup.buttons: button 0..2 a die, MAIN; PRESS, RELEASE or LONG).

        Main button: pressed on turn it looks under the cup (as lifting it would) until released; pressed
        after the round it is the reveal button; held long it stands (on turn), starts a turn (alone, idle) or
        clears the table (alone, revealed). A die button: released on turn it sets the die aside or takes it
        back within the same throw; held long on a six it turns the sixes (Sechsen drehen: all offered
        sixes, two -> one 1, three -> two 1s); released alone before the turn, die k sets the throw limit to
        k + 1."""
        state = self.state
        if button == MAIN and event != LONG:
            if event == RELEASE:
                if self.peeking:
                    self.peeking = False
                    self.view.show(self)
                return
            self.main_revealed = False
            # The cup hides the dice from the others, not from its owner: he looks on turn after a throw, and
            # after his turn (stood, or his last permitted throw) until the reveal, when no decision is left.
            if state == TURN or (self.hosted and state == DONE):
                if not self.turn.throws_used:
                    return self._refuse(_NO_PEEKING)
                self.peeking = True
                return self.view.show(self)
            if state == READY or state == DONE:  # alone: a stood cup's press reveals
                self.main_revealed = True  # this press's long press must not also start the next turn
                return self._reveal()
            return  # alone and idle: the long press that starts a turn is on its way
        if button == MAIN:
            if self.main_revealed:
                return
            if state != TURN:  # stood and still looking: the dice stay lit until the release
                if not self.hosted and state in (IDLE, REVEALED):
                    return self._begin(self.round + 1, self.standalone_limit)
                return self._refuse(_ROUND_NOT_OVER if state == DONE else _NOTHING_TO_DO)
            self.peeking = False
        elif event == PRESS or (event == RELEASE and was_long):
            return  # a die counts when released, or once held long
        elif event == RELEASE and state != TURN:
            if self.hosted or state not in (IDLE, REVEALED):
                return self._refuse(_NOT_YOUR_TURN)
            self.standalone_limit = min(button + 1, self.rules.max_throws)
            return self.view.show(self)
        # A move on turn; not while a fair throw waits for the host's nonce.
        if state != TURN or self.awaiting is not None:
            return self._refuse(_NOT_YOUR_TURN if state != TURN else _IN_THE_AIR)
        turn = self.turn
        try:
            if button == MAIN:
                turn.stand()
            elif event == LONG:
                sixes = turn.sixes_available()
                if button not in sixes:
                    return self._refuse(_NO_SIXES)
                turn.turn_sixes(sixes)
            elif turn.state[button] == IN_CUP:
                turn.set_aside(button)
            else:
                turn.take_back(button)
        except RuleError as e:
            return self._refuse(e)
        if button != MAIN:
            return self._progress()
        self.state = DONE
        self.commit = protocol.commitment(self.round, turn.dice(), self.nonce)
        self.save()  # the commitment is in flash before anyone hears of it
        self.send({"t": "done", "round": self.round, "throws": turn.throws_used, "commit": self.commit})
        self.view.show(self)

    # --- host messages ------------------------------------------------------------------------------
    def on_message(self, msg):
        """A message that protocol.decode validated against HOST_TO_CUP: one branch per type."""
        kind = msg["t"]
        state = self.state
        if kind == "status":
            out = {"t": "status", "state": state, "round": self.round if self.turn else None,
                   "throws": self.turn.throws_used if self.turn else 0,
                   "public": [[s, v] for s, v in self.turn.public()] if self.turn else [],
                   "seat": self.seat, "name": self.name}
            battery = self.identity.get("battery")  # every status: the table follows the cup's charge
            out["battery"] = battery() if battery else None
            if self.identity.get("shake") is not None:  # what the sensor saw: still, tilt, handling, ...
                out["motion"] = self.identity["shake"].motion
            if msg.get("id") is not None:
                out["id"] = msg["id"]
            if state == TURN and self.seed is not None:  # a host that missed the seed or the shake gets them
                out["seed"] = _fair().seed_commitment(self.seed)
                if self.awaiting is not None:
                    out["awaiting"] = self.awaiting
            self.send(out)
            if state in (DONE, READY, REVEALED):  # a host that lost the commitment gets it again
                self.send({"t": "done", "round": self.round, "throws": self.turn.throws_used,
                           "commit": self.commit})
        elif kind == "power":  # what the cup spent its time on (cup/clock.py): the host's energy figures
            from cup.clock import report
            out = report(self.identity["power"])
            out["t"] = "power"
            if msg.get("id") is not None:
                out["id"] = msg["id"]
            self.send(out)
        elif kind == "nonce":
            if msg["round"] == self.round and self.nonces.get(msg["throw"]) == msg["nonce"]:
                return  # sent again after a status that crossed the shake: this throw is rolled already
            if state != TURN or msg["round"] != self.round or msg["throw"] != self.awaiting:
                return self._report(protocol.E_STATE, kind, _NO_NONCE_WANTED)
            self.nonces[self.awaiting] = msg["nonce"]
            self.awaiting = None
            self._rolled(_fair().derive_dice(self.seed, msg["nonce"], self.round, len(self.nonces),
                                             len(self.turn.in_cup())))
        elif kind == "hello":
            if msg["v"] != protocol.VERSION:  # in words: a host of another version reads msg, not why
                return self._report(protocol.E_VERSION, kind,
                                    text(_VERSION, msg["v"], protocol.VERSION, module="cup.texts"))
            battery = self.identity.get("battery")
            out = {"t": "identity", "v": protocol.VERSION, "cup": self.identity["cup"], "name": self.name,
                   "fw": FIRMWARE, "board": self.identity["board"],
                   "battery": battery() if battery else None, "presets": sorted(PRESETS)}
            if self.hello_nonce is not None:
                out["nonce"] = self.hello_nonce
            self.send(out)
        elif kind == "configure":
            if state in (TURN, DONE, READY):
                return self._report(protocol.E_STATE, kind, _RULES_IN_ROUND)
            from schocken.rules import from_dict  # here: one name more takes the module's table to 29 slots
            try:
                rules = from_dict(msg["rules"])
            except RuleError as e:
                return self._report(protocol.E_BAD_MESSAGE, kind, e)
            if msg["seat"] < 0 or len(msg["name"]) > protocol.MAX_NAME:
                return self._report(protocol.E_BAD_MESSAGE, kind, _SEAT_NAME)
            # The state stays: a revealed throw may still be owed to a host that restarted before logging it.
            self.rules, self.name, self.seat, self.hosted = rules, msg["name"], msg["seat"], True
            self.fair = bool(msg.get("fair"))
            if self.fair:  # loaded now, while the heap has room for a module: mid turn it may not
                _fair()
            self.result = None
            self.save()
            # what the cup took, for its BLE advert
            self.send({"t": "ok", "re": kind, "name": self.name, "seat": self.seat})
            self.view.show(self)
        elif kind == "turn":
            if not self.hosted:
                return self._report(protocol.E_STATE, kind, _CONFIGURE_FIRST)
            # "void": the table ruled this cup out of the round it still holds (it was away): that turn is
            # void.
            if state in (TURN, DONE, READY) and msg.get("void") != self.round:
                return self._report(protocol.E_STATE, kind, _ROUND_OPEN)
            limit = msg.get("limit")
            if limit is not None and not 1 <= limit <= self.rules.max_throws:
                return self._report(protocol.E_BAD_MESSAGE, kind, _LIMIT, self.rules.max_throws)
            self.send({"t": "ok", "re": kind})
            self._begin(msg["round"], limit)
        elif kind == "outcome":
            if msg["result"] not in protocol.RESULTS:
                return self._report(protocol.E_BAD_MESSAGE, kind, _UNKNOWN_RESULT)
            if state in (TURN, DONE, READY):
                return self._report(protocol.E_STATE, kind, _REVEAL_FIRST)
            self.result = msg["result"]
            self.state = IDLE
            self.save()
            self.send({"t": "ok", "re": kind})
            self.view.show(self)
        else:  # round_end, reveal: for the round this cup finished
            if state not in ((DONE,) if kind == "round_end" else (DONE, READY, REVEALED)) \
                    or msg["round"] != self.round:
                return self._report(protocol.E_STATE, kind, _NO_FINISHED, msg["round"])
            if kind == "reveal":
                return self._reveal()
            self.state = READY
            self.save()
            self.send({"t": "ok", "re": kind})
            self.view.show(self)

    # --- internals ----------------------------------------------------------------------------------
    def _begin(self, round_id, limit):
        self.round = round_id
        self.limit = limit
        self.turn = Turn(self.rules, limit)
        self.state = TURN
        self.nonce = self.commit = self.result = self.awaiting = self.seed = None
        self.peeking = False
        self.nonces = {}
        # The new turn's LEDs first: the round before's dice go dark before the secrets are drawn and saved,
        # and what that runs into (a stuck RNG, a flash that refuses the turn) is drawn over this turn's.
        self.view.show(self)
        if not self._secrets():  # drawn and saved with the turn; else the turn is saved without them
            self.save()

    def _reveal(self):
        self.state = REVEALED
        self.save()
        t = self.turn
        msg = {"t": "revealed", "round": self.round, "dice": t.dice(), "nonce": self.nonce,
               "throws": t.throws_used, "hand": t.hand(), "transcript": t.transcript}
        if self.seed is not None:
            msg["seed"] = _fair().hexlify(self.seed)
        self.send(msg)
        self.view.show(self)

    def _progress(self):
        self.save()
        self.send({"t": "progress", "round": self.round, "throws": self.turn.throws_used,
                   "public": [[s, v] for s, v in self.turn.public()]})
        self.view.show(self)

    def _report(self, code, re, what, *args):
        # what: a text of cup.texts by number (with args), a RuleError, or a text made already. A numbered
        # text goes out as its number, the error's "why" (docs/protocol.md): the cup loads no texts for it.
        self.view.refuse(self)  # first: the status pixel flashes even when there is no memory for a text
        if type(what) is int:
            what = ["cup.texts", what] + list(args)
        elif isinstance(what, RuleError):
            what = why(what)
        self.send(protocol.error(code, what, re))

    def _refuse(self, what):
        # A physical input the rules refuse: the status pixel flashes; the host hears of it too.
        self._report(protocol.E_REFUSED, "input", what)
