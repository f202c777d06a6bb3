"""The wire protocol between cup and host: one definition, imported by the firmware and by the host.

Line-delimited UTF-8 JSON objects, one message per line, at most MAX_LINE bytes with the newline. Every
message has a type field "t". The host skips lines from a cup that do not start with "{" (a REPL banner, a
boot message: ``hostside.is_noise``); the cup answers every line it cannot decode with an error and changes
nothing. docs/protocol.md documents every message, field and error. What only the host does with the protocol
(noise, the check of a reveal) is in ``schocken.hostside``, so a cup does not load it.
"""

import json
from binascii import hexlify

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

try:
    import hashlib
except ImportError:  # very small ports
    hashlib = None

from schocken import RuleError

VERSION = const(1)
MAX_LINE = const(1024)   # bytes per line, newline included; longer lines are refused unread
MAX_NAME = const(24)     # characters of a player's or cup's name

# Error codes, sent as {"t": "error", "code": ..., "msg": ...}.
E_TOO_LONG = "too_long"
E_BAD_JSON = "bad_json"
E_BAD_MESSAGE = "bad_message"      # not an object, or a field missing or of the wrong type
E_UNKNOWN = "unknown_type"
E_VERSION = "bad_version"
E_STATE = "out_of_turn"            # not allowed in the cup's present state
E_REFUSED = "refused"              # the rules refuse the move
E_RNG = "rng_failed"               # the health test failed: the cup does not roll
E_INTERNAL = "internal"            # a bug in the cup; it stays on the table and says so
E_AUTH = "auth"                    # a cup with a secret: the line is unsigned, forged or replayed

# Each message type's fields, as "name:kind" words. Kinds: i int, s string, b bool, d dice (list of 1..3 dice
# 1..6), l list, o object, h hex string; a trailing "?" allows null or absence. One string per type rather than a
# dict per type: a cup keeps this table for as long as it runs (``fields()`` gives the pairs). What a cup sends,
# the host checks against hostside.CUP_TO_HOST (same format), which a cup does not load.
HOST_TO_CUP = {
    "hello": "v:i nonce:h?",                    # nonce: the host's part of an authenticated session
    "configure": "rules:o name:s seat:i fair:b?",  # fair: dice from seed and nonces
    "turn": "round:i limit:i?",                 # your turn; limit null: you open the round
    "reveal": "round:i",                        # uncover now
    "round_end": "round:i",                     # everyone is done: the reveal button may uncover
    "outcome": "round:i result:s deckel:i middle:i",
    "status": "id:i?",                          # id: echoed, so the host knows which request a status answers
    "nonce": "round:i throw:i nonce:h",         # fair play: the host's part of one throw
    "forfeit": "round:i",                       # the table ruled you out of this round: your turn is void
}

def fields(spec):
    """A table entry -> its (name, kind) pairs in order: ``fields(HOST_TO_CUP["turn"])`` is
    ``[("round", "i"), ("limit", "i?")]``."""
    return [tuple(word.split(":")) for word in spec.split()]


RESULTS = ("lost", "won", "none", "half_lost", "game_lost")


class ProtocolError(ValueError):
    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code
        self.msg = msg


class LineSplitter:
    """Cuts a byte stream into lines of at most MAX_LINE bytes (newline included) in one buffer allocated
    once: an overlong line is dropped up to its newline and reported once, so garbage can neither exhaust nor
    fragment a cup's heap."""

    def __init__(self, limit=MAX_LINE):
        self.limit = limit
        self.buf = bytearray(limit)
        self.n = 0
        self.skipping = False

    def feed(self, data):
        """Returns a list of complete lines (bytes, without newline); an overlong line appears as None."""
        out = []
        view = memoryview(data)
        start = 0
        while start < len(data):
            end = data.find(b"\n", start)
            stop = len(data) if end < 0 else end
            if not self.skipping:
                k = stop - start
                if self.n + k >= self.limit:
                    self.skipping = True
                    self.n = 0
                    out.append(None)
                else:
                    self.buf[self.n:self.n + k] = view[start:stop]
                    self.n += k
            if end < 0:
                break
            if not self.skipping:
                out.append(bytes(memoryview(self.buf)[:self.n]))  # one copy, not a slice and a copy
            self.n = 0
            self.skipping = False
            start = end + 1
        return out


def _kind_ok(value, kind):
    if kind == "i":
        return isinstance(value, int) and not isinstance(value, bool) and -(1 << 30) < value < (1 << 30)
    if kind == "s":
        return isinstance(value, str) and len(value) <= MAX_LINE
    if kind == "b":
        return isinstance(value, bool)
    if kind == "l":
        return isinstance(value, list)
    if kind == "o":
        return isinstance(value, dict)
    if kind == "h":
        if not isinstance(value, str) or not value or len(value) > 128:
            return False
        for ch in value:
            if ch not in "0123456789abcdef":
                return False
        return True
    if kind == "d":
        if not isinstance(value, list) or not 1 <= len(value) <= 3:
            return False
        for d in value:
            if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6:
                return False
        return True
    return False


def validate(msg, table):
    """Check a decoded message against HOST_TO_CUP or hostside.CUP_TO_HOST; returns its type."""
    if not isinstance(msg, dict):
        raise ProtocolError(E_BAD_MESSAGE, "a message is a JSON object")
    kind = msg.get("t")
    if not isinstance(kind, str):
        raise ProtocolError(E_BAD_MESSAGE, "message has no type field t")
    spec = table.get(kind)
    if spec is None:
        raise ProtocolError(E_UNKNOWN, "unknown message type %s" % kind[:32])
    for word in spec.split():  # as fields(spec), without a list of pairs per message (measured: a cup's heap)
        name, field_kind = word.split(":")
        value = msg.get(name)
        if value is None:
            if field_kind[-1] == "?":
                continue
            raise ProtocolError(E_BAD_MESSAGE, "%s needs field %s" % (kind, name))
        if not _kind_ok(value, field_kind[0]):
            raise ProtocolError(E_BAD_MESSAGE, "%s: field %s has the wrong type" % (kind, name))
    return kind


def decode(line, table):
    """One received line (bytes or str, newline allowed) -> validated message dict."""
    if len(line) > MAX_LINE or (len(line) == MAX_LINE and line[-1:] not in (b"\n", "\n")):
        raise ProtocolError(E_TOO_LONG, "line longer than %d bytes" % MAX_LINE)
    if isinstance(line, (bytes, bytearray)):
        try:
            line = bytes(line).decode("utf-8")
        except UnicodeError:
            raise ProtocolError(E_BAD_JSON, "line is not UTF-8")
    try:
        msg = json.loads(line)
    except (ValueError, TypeError, IndexError, KeyError):  # MicroPython's json raises a few kinds
        raise ProtocolError(E_BAD_JSON, "line is not JSON")
    validate(msg, table)
    return msg


def encode(msg):
    """Message dict -> one line of bytes, newline included."""
    return line(json.dumps(msg).encode("utf-8"))


def line(body):
    """A message's bytes (plain JSON, or signed: fair.sign) -> the line to send; ProtocolError if too long."""
    data = body + b"\n"
    if len(data) > MAX_LINE:
        raise ProtocolError(E_TOO_LONG, "message longer than %d bytes" % MAX_LINE)
    return data


def error(code, msg, re=None):
    out = {"t": "error", "code": code, "msg": msg}
    if re is not None:
        out["re"] = re
    return out


# --- commitment -------------------------------------------------------------------------------------------
def commitment(round_id, dice, nonce):
    """SHA-256 over the round, the hidden final dice and the cup's random nonce (hex): fixes the result before
    anything is revealed, and the nonce keeps the 56 possible throws from being tried against it."""
    if hashlib is None:
        raise RuleError("this port has no hashlib")
    text = "schocken:%d:%s:%s" % (round_id, "".join(str(d) for d in dice), nonce)
    return hexlify(hashlib.sha256(text.encode()).digest()).decode()
