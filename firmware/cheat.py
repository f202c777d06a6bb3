"""Emulation only, for testing a referee: "cheat KIND [always]" on the control channel makes the cup misbehave
on its next reveal (or on every reveal, with "always"; "throws": on its next ``done``), and "inject JSON"
makes it send any message the host must survive (docs/emulation.md). Loaded by emulate.py at the first
"cheat" or "inject" line, it wraps the app's link writer, the cup's send and its message handler (for the
nonce); nothing in the cup app knows of it, and a cup never loads it."""

import json

KINDS = ("dice", "transcript", "garbage", "chosen", "round", "malformed", "throws")
USAGE = ("error: usage: cheat dice|transcript|garbage|chosen|round|malformed|throws [always] | cheat off"
         " | inject JSON")


class Cheat:
    def __init__(self, app, roller):
        self.app = app
        self.roller = roller
        self.armed = None
        self.always = False
        self.garble = False
        cup = app.cup
        self.real_send, cup.send = cup.send, self.send
        self.real_message, cup.on_message = cup.on_message, self.on_message
        self.writer = None

    def arm(self, words):
        if words == ["off"]:
            self.armed, self.always = None, False
            return None
        if not 1 <= len(words) <= 2 or words[0] not in KINDS or words[1:] not in ([], ["always"]):
            return USAGE
        self.armed = words[0]
        self.always = len(words) == 2
        self._wrap_writer()
        return None

    def inject(self, text):
        """Send ``text`` as this cup's: a JSON object as a message, signed like its own (a malformed field, a
        reveal naming another round, ...), anything else as a raw line on the link (noise, garbage)."""
        try:
            msg = json.loads(text)
        except ValueError:
            msg = None
        if isinstance(msg, dict):
            self.real_send(msg)
        else:
            self.app.writer.write(text.encode() + b"\n")  # a whole line between two of the link task's
        return None

    def _wrap_writer(self):
        if self.app.writer is not self:  # the link task writes through us from its next line on
            self.writer, self.app.writer = self.app.writer, self

    def send(self, msg):
        if self.armed == "throws" and msg.get("t") == "done":
            # stood after one throw fewer than it took (an opener's count is the others' limit; 0 after one)
            if not self.always:
                self.armed = None
            msg = dict(msg, throws=msg["throws"] - 1)
        if self.armed is not None and msg.get("t") == "revealed":
            kind = self.armed
            if not self.always:
                self.armed = None
            msg = dict(msg)
            dice = list(msg["dice"])
            if kind == "dice":  # other dice than the committed ones
                dice[0] = dice[0] % 6 + 1
                msg["dice"] = dice
            elif kind == "transcript":  # same dice and commitment, a move the rules forbid: a die set aside
                # comes back into the cup after a later throw
                msg["transcript"] = [["roll", dice], ["aside", 0], ["roll", dice[1:]], ["back", 0], ["stand"]]
            elif kind == "garbage":
                self.garble = True  # the writer garbles the line of this message
            elif kind == "round":  # the reveal names another round
                msg["round"] = msg["round"] + 1
            elif kind == "malformed":  # a transcript entry of the wrong type
                msg["transcript"] = [["roll", dice], ["turn", [0, {}]], ["stand"]]
            # "chosen" did its work at the throws (nonce below); the reveal itself is honest
        self.real_send(msg)

    def on_message(self, msg):
        # "cheat chosen" (fair play): the cup takes the host's nonce but rolls dice of its own choosing; its
        # commitment and transcript stay consistent, only the seed-and-nonce check can catch it.
        cup = self.app.cup
        if msg["t"] != "nonce" or self.armed != "chosen" or cup.awaiting != msg["throw"]:
            return self.real_message(msg)
        cup.nonces[cup.awaiting] = msg["nonce"]
        cup.awaiting = None
        cup._rolled(self.roller.roll(len(cup.turn.in_cup())))

    def write(self, data):
        if self.garble and b'"revealed"' in data:
            self.garble = False
            data = b'{"t": "revealed", "dice": [1, 1\xff\xfe garbage\n'
        self.writer.write(data)

    async def drain(self):
        await self.writer.drain()
