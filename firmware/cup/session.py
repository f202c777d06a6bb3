"""An authenticated host link (a cup with a secret; docs/protocol.md "Authentication").

Loaded by the app only when the cup has a secret, so a cup without one does not carry it. Every host line but
``hello`` must be signed under the session key with a counter that grows; every line the cup sends is signed
likewise, but an auth error and the public identity. A hello with the host's nonce only offers a new session:
anybody may send one, and that alone must not end the present host's session.
"""

import json

from schocken import fair
from schocken import protocol


class Session:
    def __init__(self, secret_hex, random_bytes, urandom):
        self.secret = fair.unhex(secret_hex)
        self.random_bytes = random_bytes  # health-tested nonces
        self.urandom = urandom            # the raw source, when the tested one refuses
        self.key = None                   # the session key of the present host
        self.tx_c = self.rx_c = 0         # counters of the session: last sent, last accepted
        self.offer = None                 # [key, send counter, cup nonce] of a session offered, not yet taken

    def hello(self, msg):
        """A hello: the cup's nonce for the identity that answers it, or None (no nonce: the public identity).
        The first offer becomes the session; a later one waits until a line signed under it arrives."""
        if not msg.get("nonce") or msg["v"] != protocol.VERSION:
            return None
        try:
            cup_nonce = fair.hexlify(self.random_bytes(16))
        except Exception:  # RollRefused: a session nonce needs freshness more than a tested source
            cup_nonce = fair.hexlify(self.urandom(16))
        key = fair.session_key(self.secret, msg["nonce"], cup_nonce)
        if self.key is None:
            self.key, self.tx_c, self.rx_c = key, 0, 0
        else:
            self.offer = [key, 0, cup_nonce]
        return cup_nonce

    def refusal(self, line, msg):
        """None if the line is signed with the session key (or the offered one, which then becomes the
        session) and its counter is new; else why not."""
        if self.key is None:
            return "this cup needs an authenticated host: hello with a nonce first"
        body = _rstrip(line)
        c = msg.get("c")
        offer = self.offer
        if _verifies(self.key, body):
            taken, last = None, self.rx_c
        elif offer is not None and _verifies(offer[0], body):
            taken, last = offer, 0
        else:
            return "message not signed by the host of this session"
        if type(c) is not int or c <= last:
            return "message replayed (counter %s, last %d)" % (c if type(c) is int else "missing", last)
        if taken is not None:  # the host of the offered session signed: from now on it is the host
            self.key, self.tx_c, self.offer = taken[0], taken[1], None
        self.rx_c = c
        return None

    def encode(self, msg, plain):
        """A message -> its signed line (``plain``: unsigned); the identity that answers an offer is signed
        under the offered key."""
        if msg.get("t") == "identity":
            offer = self.offer
            if "nonce" not in msg:
                plain = True
            elif offer is not None and msg["nonce"] == offer[2]:
                offer[1] += 1
                return _signed(offer[0], offer[1], msg)
        if self.key is None or plain:
            return protocol.encode(msg)
        self.tx_c += 1
        return _signed(self.key, self.tx_c, msg)


def _signed(key, counter, msg):
    msg["c"] = counter
    return protocol.line(fair.sign(key, json.dumps(msg).encode()))


def _verifies(key, body):
    try:
        fair.check(key, body)
    except Exception:
        return False
    return True


def _rstrip(line):
    # The line without trailing whitespace (a "\r" before the newline), as a slice of the same buffer.
    end = len(line)
    while end and line[end - 1] in b" \t\r":
        end -= 1
    return line[:end]
