"""The wire protocol between cup and host: one definition, imported by the firmware and by the host.

Line-delimited UTF-8 JSON objects, one message per line, at most MAX_LINE bytes with the newline. Every
message has a type field "t". The host skips lines from a cup that do not start with "{" (a REPL banner, a
boot message: ``hostside.is_noise``); the cup answers every line it cannot decode with an error and changes
nothing. docs/protocol.md documents every message, field and error. What only the host does with the protocol
(noise, the check of a reveal) is in ``schocken.hostside``, so a cup does not load it.
"""

import json
import sys
from binascii import hexlify

from micropython import const

try:
    import hashlib
except ImportError:  # very small ports
    hashlib = None

from schocken import RuleError, text

# Texts of schocken.texts (schocken.text): a number each, so this module keeps no string per message.
_NOT_OBJECT = const(38)
_NO_TYPE = const(39)
_UNKNOWN_TYPE = const(40)
_NEEDS_FIELD = const(41)
_WRONG_TYPE = const(42)
_LINE_TOO_LONG = const(43)
_NOT_UTF8 = const(44)
_NOT_JSON = const(45)
_MSG_TOO_LONG = const(46)
_NO_HASHLIB = const(47)

# MicroPython's json.loads parses any buffer where it lies, and checks the UTF-8 of every string it makes as
# bytes.decode would (both follow MICROPY_PY_BUILTINS_STR_UNICODE_CHECK): a cup decodes a line without copying
# it. CPython's json takes no memoryview and guesses UTF-16 and -32 in bytes: the host decodes UTF-8 first.
_IN_PLACE = sys.implementation.name == "micropython"

VERSION = const(2)       # 2: an error may name its text by number (why) instead of msg
MAX_LINE = const(1024)   # bytes per line, newline included; longer lines are refused unread
MAX_NAME = const(24)     # characters of a player's or cup's name

# Error codes, sent as {"t": "error", "code": ..., "msg": ...} or, for a numbered text of the firmware, as
# {"t": "error", "code": ..., "why": [texts module, number, argument, ...]} (docs/protocol.md).
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
E_MEMORY = "no_memory"             # the cup had no memory for the line: dropped unread, nothing changed

# Each message type's fields, as "name:kind" words. Kinds: i int, s string, b bool, d dice (list of 1..3 dice
# 1..6), l list, o object, h hex string; a trailing "?" allows null or absence. One string per type rather
# than a dict per type: a cup keeps this table for as long as it runs (``hostside.fields()`` gives the pairs).
# What a cup sends, the host checks against hostside.CUP_TO_HOST (same format), which a cup does not load.
HOST_TO_CUP = {
    "hello": "v:i nonce:h?",                    # nonce: the host's part of an authenticated session
    "configure": "rules:o name:s seat:i fair:b?",  # fair: dice from seed and nonces
    "turn": "round:i limit:i? void:i?",         # your turn; limit null: you open the round; void: see docs
    "reveal": "round:i",                        # uncover now
    "round_end": "round:i",                     # everyone is done: the reveal button may uncover
    "outcome": "round:i result:s deckel:i middle:i",
    "status": "id:i?",                          # id: echoed, so the host knows which request a status answers
    "power": "id:i?",                           # the cup's power counters (cup/clock.py), id echoed
    "nonce": "round:i throw:i nonce:h",         # fair play: the host's part of one throw
}

RESULTS = ("lost", "won", "none", "half_lost", "game_lost")


class ProtocolError(ValueError):
    """A line or a message the protocol refuses, with its error ``code``. What it says is a text's number
    in schocken.texts and its arguments (``ProtocolError(code, n, *args)``), which a cup passes on as an
    error's ``why`` without loading the texts (``schocken.why``), or a text made already (the host's own
    checks)."""

    def __init__(self, code, *what):
        super().__init__(*what)
        self.code = code

    @property
    def msg(self):
        """What it says, in words."""
        a = self.args
        return text(*a) if type(a[0]) is int else a[0]

    def __str__(self):
        return self.msg


class LineSplitter:
    """Cuts a byte stream into lines of at most MAX_LINE bytes (newline included) in one buffer allocated
    once: an overlong line is dropped up to its newline and reported once, so garbage can neither exhaust nor
    fragment a cup's heap. ``scan`` hands each line over in place (the cup); ``feed`` returns copies (the
    host)."""

    def __init__(self, limit):  # MAX_LINE on the link; no default: a function with one is twice the size
        self.limit = limit
        self.buf = bytearray(limit)
        self.n = 0
        self.skipping = False

    def scan(self, data, handle, size):
        """Calls ``handle(line)`` for every line ``data`` (its first ``size`` bytes: a reader's buffer; -1 for
        all of it) completes: a memoryview of the line (without newline) in the splitter's buffer, valid only
        during the call, or None for an overlong line. A line is never copied, so its length costs no heap. If
        ``handle`` raises, the exception propagates with the splitter ready for the next line; the rest of
        ``data`` is lost."""
        start = 0
        if size < 0:
            size = len(data)
        while start < size:
            end = data.find(b"\n", start, size)
            stop = size if end < 0 else end
            if not self.skipping:
                k = stop - start
                n = self.n
                if n + k >= self.limit:
                    self.skipping = True
                    self.n = 0
                    handle(None)
                elif k:
                    self.buf[n:n + k] = memoryview(data)[start:stop]
                    self.n = n + k
            if end < 0:
                break
            start = end + 1
            if self.skipping:
                self.skipping = False
                self.n = 0
            else:
                n = self.n
                self.n = 0  # first: whatever handle does, the next line starts clean
                handle(memoryview(self.buf)[:n])

    def drop(self):
        """Forget the line being received and skip what is left of it up to its newline (a reader that lost
        bytes, e.g. out of memory, cannot tell where the line it is in went wrong)."""
        self.n = 0
        self.skipping = True

    def feed(self, data):
        """Returns a list of complete lines (bytes, without newline); an overlong line appears as None."""
        out = []
        self.scan(data, lambda line: out.append(None if line is None else bytes(line)), -1)
        return out


def kind_ok(value, kind):
    """True when ``value`` is of the field kind ``kind`` (one letter: the table above; docs/protocol.md). The
    one check of these kinds: the game log's events use it too (schocken_host/table/events.py)."""
    if kind == "i":
        return isinstance(value, int) and not isinstance(value, bool) and -(1 << 30) < value < (1 << 30)
    if kind == "s":  # a line's MAX_LINE bytes bound it on the wire; a game log's reason may be longer
        return isinstance(value, str)
    if kind == "b":
        return isinstance(value, bool)
    if kind == "l":
        return isinstance(value, list)
    if kind == "o":
        return isinstance(value, dict)
    if kind == "h":
        # All hex digits when nothing is left once they are stripped from both ends: one pass in C, and an
        # empty result is the interned "" (a cup allocates nothing for a good value).
        return isinstance(value, str) and 0 < len(value) <= 128 and not value.strip("0123456789abcdef")
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
        raise ProtocolError(E_BAD_MESSAGE, _NOT_OBJECT)
    kind = msg.get("t")
    if not isinstance(kind, str):
        raise ProtocolError(E_BAD_MESSAGE, _NO_TYPE)
    spec = table.get(kind)
    if spec is None:
        raise ProtocolError(E_UNKNOWN, _UNKNOWN_TYPE, kind[:32])
    for word in spec.split():  # as hostside.fields(spec), without a list of pairs per message (a cup's heap)
        name, field_kind = word.split(":")
        value = msg.get(name)
        if value is None:
            if field_kind[-1] == "?":
                continue
            raise ProtocolError(E_BAD_MESSAGE, _NEEDS_FIELD, kind, name)
        if not kind_ok(value, field_kind[0]):
            raise ProtocolError(E_BAD_MESSAGE, _WRONG_TYPE, kind, name)
    return kind


def decode(line, table):
    """One received line (bytes, bytearray, memoryview or str; newline allowed) -> validated message dict."""
    if len(line) > MAX_LINE or (len(line) == MAX_LINE and line[-1:] != b"\n" and line[-1:] != "\n"):
        raise ProtocolError(E_TOO_LONG, _LINE_TOO_LONG, MAX_LINE)
    if not isinstance(line, str) and not _IN_PLACE:
        try:
            line = bytes(line).decode("utf-8")
        except UnicodeError:
            raise ProtocolError(E_BAD_JSON, _NOT_UTF8)
    try:
        msg = json.loads(line)
    except UnicodeError:  # MicroPython: a string in the line is not UTF-8
        raise ProtocolError(E_BAD_JSON, _NOT_UTF8)
    except (ValueError, TypeError, IndexError, KeyError):  # MicroPython's json raises a few kinds
        raise ProtocolError(E_BAD_JSON, _NOT_JSON)
    validate(msg, table)
    return msg


def encode(msg):
    """Message dict -> one line of bytes, newline included."""
    return line(json.dumps(msg).encode("utf-8"))


def pieces(msg):
    """Message dict -> its line as bytes in pieces, a field each and "}" with the newline last, checked as
    ``line`` checks. One after another they are the line ``encode`` makes, but never all in one piece of
    memory: a cup's fragmented heap may have no hole as large as its longest line (the reveal's,
    200 to 300 bytes)."""
    out = []
    size = 1  # the closing brace
    for key in msg:
        part = ("%s%s: %s" % (", " if out else "{", json.dumps(key), json.dumps(msg[key]))).encode("utf-8")
        size += len(part)
        out.append(part)
    if size >= MAX_LINE:  # with its newline, as in line()
        raise ProtocolError(E_TOO_LONG, _MSG_TOO_LONG, MAX_LINE)
    out.append(b"}\n")
    return out


def line(body):
    """A message's bytes (plain JSON, or signed: fair.sign) -> the line to send; ProtocolError if too long."""
    data = body + b"\n"
    if len(data) > MAX_LINE:
        raise ProtocolError(E_TOO_LONG, _MSG_TOO_LONG, MAX_LINE)
    return data


def error(code, msg, re):
    """An error message; ``msg`` is its text, or a list (a numbered text: [texts module, number, argument,
    ...]) sent as ``why``; ``re`` (None: left out) names the message it answers. No default: a function with
    defaults is an object twice the size in a cup's heap (docs/benchmarks.md)."""
    out = {"t": "error", "code": code}
    out["why" if type(msg) is list else "msg"] = msg
    if re is not None:
        out["re"] = re
    return out


# --- commitment -------------------------------------------------------------------------------------------
def commitment(round_id, dice, nonce):
    """SHA-256 over the round, the hidden final dice and the cup's random nonce (hex): fixes the result before
    anything is revealed, and the nonce keeps the 56 possible throws from being tried against it."""
    if hashlib is None:
        raise RuleError(text(_NO_HASHLIB))
    data = "schocken:%d:%s:%s" % (round_id, "".join(str(d) for d in dice), nonce)
    return hexlify(hashlib.sha256(data.encode()).digest()).decode()
