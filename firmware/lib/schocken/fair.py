"""Fair play: dice that neither the cup nor the host decides alone, and messages only the paired host and cup
can write. Pure functions on both interpreters (MicroPython has hashlib.sha256 but no hmac module, so HMAC is
written out here, RFC 2104). docs/fairness.md explains the construction and what it does not protect against.
"""

import hashlib
from binascii import hexlify as _binascii_hex, unhexlify as _unhexlify

from schocken import RuleError

_BLOCK = 64
MAC_HEX = 32           # hex digits of a message MAC (128 bits)
_MAC_SUFFIX = len(b',"mac":"') + MAC_HEX + len(b'"}')


def hexlify(data):
    # One string (binascii, on every MicroPython port), not one per byte: a fair cup saves its seed in hex at
    # every step of a turn, and the small strings fragment a board-sized heap.
    return _binascii_hex(data).decode()


_hex = hexlify


def unhex(text):
    """Hex digits (str, bytes or bytearray; either case) -> bytes; RuleError for anything else."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise RuleError("not a hex string")
    try:
        return _unhexlify(text)
    except ValueError:  # odd length, a character that is no hex digit (binascii.Error is a ValueError)
        raise RuleError("not a hex string")


def hmac_sha256(key, msg, tail=b""):
    """HMAC-SHA-256 of ``msg`` followed by ``tail``
    (any buffers: fed to the hash where they lie, never joined)."""
    if len(key) > _BLOCK:
        key = hashlib.sha256(key).digest()
    # One pad, XORed in place: the inner pad (0x36), then the outer (0x5C = 0x36 ^ 0x6A). A cup checks a MAC
    # on every signed line; a generator and a new bytes object per pad left it about 800 bytes of garbage.
    pad = bytearray(_BLOCK)
    pad[:len(key)] = key
    for i in range(_BLOCK):
        pad[i] ^= 0x36
    inner = hashlib.sha256(pad)
    inner.update(msg)
    if tail:
        inner.update(tail)
    for i in range(_BLOCK):
        pad[i] ^= 0x6A
    outer = hashlib.sha256(pad)
    outer.update(inner.digest())
    return outer.digest()


# --- provably fair dice ------------------------------------------------------------------------------
def seed_commitment(seed):
    """What the cup sends before its turn: the hash of its secret seed (hex)."""
    return _hex(hashlib.sha256(b"schocken-seed:" + seed).digest())


def derive_dice(seed, host_nonce, round_id, throw, n):
    """Throw ``throw`` of round ``round_id``: n dice from HMAC-SHA-256 keyed with the cup's seed over the
    host's nonce for that throw. Bytes >= 252 are drawn again (252 = 6 * 42: every face gets 42 values)."""
    dice = []
    counter = 0
    while len(dice) < n:
        msg = ("%d:%d:%s:%d" % (round_id, throw, host_nonce, counter)).encode()
        for b in hmac_sha256(seed, msg):
            if b < 252:
                dice.append(b % 6 + 1)
                if len(dice) == n:
                    break
        counter += 1
    return dice


def check_dice(seed_hex, seed_hash, nonces, round_id, transcript):
    """Host side at reveal: the disclosed seed matches the hash sent before the turn, and every roll of the
    transcript is what seed and host nonces give. ``nonces``: {throw number: host nonce}."""
    seed = unhex(seed_hex)
    if seed_commitment(seed) != seed_hash:
        raise RuleError("the disclosed seed does not match the cup's seed commitment")
    throw = 0
    for step in transcript:
        if step and step[0] == "roll":
            throw += 1
            nonce = nonces.get(throw)
            if nonce is None:
                raise RuleError("throw %d was rolled without a nonce from the host" % throw)
            want = derive_dice(seed, nonce, round_id, throw, len(step[1]))
            if list(step[1]) != want:
                raise RuleError("throw %d shows %s, seed and nonce give %s" % (throw, step[1], want))
    return throw


# --- authenticated messages --------------------------------------------------------------------------
def session_key(secret, host_nonce, cup_nonce):
    """A key per connection: replayed messages of an earlier session do not verify."""
    return hmac_sha256(secret, ("session:%s:%s" % (host_nonce, cup_nonce)).encode())


def sign(key, body):
    """``body``: the message's JSON bytes (with its counter "c"), ending in "}". Returns the line without
    newline: the body with a "mac" field appended."""
    mac = _hex(hmac_sha256(key, body))[:MAC_HEX]
    return body[:-1] + b',"mac":"' + mac.encode() + b'"}'


def verify(key, line):
    """A signed line (without newline) -> the body it signs; raises RuleError if forged or malformed."""
    check(key, line)
    return bytes(line[:-_MAC_SUFFIX]) + b"}"


def check(key, line):
    """As verify, without making the body: ``line`` may be any buffer (a cup checks a line where it lies)."""
    if (len(line) < _MAC_SUFFIX + 2 or line[-_MAC_SUFFIX:-_MAC_SUFFIX + 8] != b',"mac":"'
            or line[-2:] != b'"}'):
        raise RuleError("message is not signed")
    want = _binascii_hex(hmac_sha256(key, line[:-_MAC_SUFFIX], b"}"))  # bytes: no str, no slices made
    start = len(line) - _MAC_SUFFIX + 8
    diff = 0
    for i in range(MAC_HEX):  # compare all of it: no early exit to time
        diff |= line[start + i] ^ want[i]
    if diff:
        raise RuleError("message MAC does not verify")
