"""Emulation only, for testing a referee: "cheat KIND" on the control channel makes the cup misbehave once, on
its next reveal (docs/emulation.md). Loaded by emulate.py at the first "cheat" line, it wraps the app's link
writer, the cup's send and its nonce handler; nothing in the cup app knows of it, and a cup never loads it."""

KINDS = ("dice", "transcript", "garbage", "chosen")


class Cheat:
    def __init__(self, app, roller):
        self.app = app
        self.roller = roller
        self.armed = None
        self.garble = False
        cup = app.cup
        self.real_send, cup.send = cup.send, self.send
        self.real_nonce, cup._msg_nonce = cup._msg_nonce, self.nonce
        self.writer = None

    def arm(self, words):
        if len(words) != 1 or words[0] not in KINDS:
            return "error: usage: cheat dice|transcript|garbage|chosen"
        self.armed = words[0]
        if self.app.writer is not self:  # the link task writes through us from its next line on
            self.writer, self.app.writer = self.app.writer, self
        return None

    def send(self, msg):
        if self.armed is not None and msg.get("t") == "revealed":
            kind, self.armed = self.armed, None
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
            # "chosen" did its work at the throws (nonce below); the reveal itself is honest
        self.real_send(msg)

    def nonce(self, msg):
        # "cheat chosen" (fair play): the cup takes the host's nonce but rolls dice of its own choosing; its
        # commitment and transcript stay consistent, only the seed-and-nonce check can catch it.
        cup = self.app.cup
        if self.armed != "chosen" or cup.awaiting != msg["throw"]:
            return self.real_nonce(msg)
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
