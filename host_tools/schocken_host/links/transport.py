"""Transports: how the host reaches a cup. The referee only sees ``Transport``: open, send, recv, close.

``SerialTransport`` speaks the wire protocol over a USB serial port (pyserial); emulated cups are reached the
same way, through the pseudo-terminal their process sits on. A reader thread cuts the byte stream into lines
(the protocol's LineSplitter), skips REPL noise and hands decoded messages to the asyncio loop.
"""

import asyncio
import json
import re
import secrets
from typing import TYPE_CHECKING

from schocken import RuleError
from schocken import fair
from schocken import protocol
from schocken import hostside
from schocken_host.i18n import LocalizedError, Message, firmware_text
from schocken_host.links.keys import REGISTERED_SECRETS, deployed_keys

if TYPE_CHECKING:
    from schocken_host.links.message_types import IdentityMessage


class TransportClosed(LocalizedError, ConnectionError):
    """The cup cannot be reached (any more), with why: ``TransportClosed(key, **fields)``."""


# --- the host's keys and authenticated sessions (docs/protocol.md "Authentication") ------------------------


class Session:
    """One authenticated link: what the host sends gets a counter "c" and a MAC, what it receives must carry
    a valid MAC and a counter above the last one accepted. The same for every transport."""

    def __init__(self, key, last_received=0):
        self.key = key
        self.sent = 0
        self.received = last_received

    def seal(self, msg):
        self.sent += 1
        body = json.dumps(dict(msg, c=self.sent)).encode("utf-8")
        return protocol.line(fair.sign(self.key, body))

    def check(self, raw, msg):
        """``raw``: the line the message was decoded from. Returns the message or raises ProtocolError."""
        try:
            fair.verify(self.key, raw.rstrip())
        except RuleError as e:
            raise protocol.ProtocolError(protocol.E_AUTH, "%s (%s)" % (e, msg.get("t")))
        c = msg.get("c")
        if not isinstance(c, int) or isinstance(c, bool) or c <= self.received:
            raise protocol.ProtocolError(protocol.E_AUTH,
                                         "replayed message (counter %r, last %d)" % (c, self.received))
        self.received = c
        del msg["c"]
        msg.pop("mac", None)   # checked: the message reads as on an unauthenticated link
        return msg


class Transport:
    """One cup's link. ``recv`` returns decoded messages; a line the cup garbled arrives as
    ``{"t": "garbage", "code": ..., "msg": ...}`` so the referee can flag the cup. With a ``session`` (set
    by ``hello`` for a cup with a secret) every message is signed and checked here, in one place."""

    name = "?"
    session = None
    last_raw = None     # the line of the message recv returned last (hello verifies the identity with it)

    @staticmethod
    def _line_item(line):
        """A line from the cup (reader side) -> a message with its raw line under "_raw", garbage, or None."""
        if line is None:
            return {"t": "garbage", "code": protocol.E_TOO_LONG, "msg": "line too long"}
        part = hostside.message_part(line)
        if part is None:
            return None
        raw = bytes(part)
        try:
            msg = hostside.check_fields(protocol.decode(raw, hostside.CUP_TO_HOST))
            # Only an escape, a raw DEL or the UTF-8 lead bytes below can put a control character, a
            # direction or line override or half a UTF-16 pair in a string (JSON refuses the other raw
            # ones): text no terminal, view or log should take.
            if any(b in raw for b in _SUSPECT) and _holds_control(msg):
                return {"t": "garbage", "code": protocol.E_BAD_MESSAGE,
                        "msg": "a string holds a control character or half a UTF-16 pair"}
        except protocol.ProtocolError as e:
            return {"t": "garbage", "code": e.code, "msg": _escaped(e.msg)}
        except RecursionError:  # JSON nested deeper than the parser goes
            return {"t": "garbage", "code": protocol.E_BAD_JSON, "msg": "line nested too deep"}
        if msg["t"] == "error" and msg.get("msg") is None:
            # A text the cup named by number (protocol version 2): every reader above has it in words as from
            # a cup of version 1, in the firmware's English; "why" stays for a translation (i18n.refusal).
            msg["msg"] = firmware_text(msg["why"])
        msg["_raw"] = raw
        return msg

    def _checked(self, item):
        """Consumer side (recv): the raw line is taken off; in a session the message must verify."""
        raw = item.pop("_raw", None)
        self.last_raw = raw
        if self.session is None or raw is None:
            return item
        try:
            return self.session.check(raw, item)
        except protocol.ProtocolError as e:
            return {"t": "garbage", "code": e.code, "msg": e.msg}

    def _encode(self, msg):
        if self.session is not None:
            return self.session.seal(msg)
        line = protocol.encode(msg)
        # A hello starts on a line of its own: a host before this one may have left half a line in the cup's
        # input (a link cut in the middle of a write), which would swallow the hello. The newline ends that
        # line (the cup answers it with an error, which hello passes over); an empty line the cup skips.
        return b"\n" + line if msg.get("t") == "hello" else line

    async def open(self):
        raise NotImplementedError

    async def send(self, msg):
        raise NotImplementedError

    async def recv(self, timeout=None):
        """The next message from the queue the transport's reader fills; a closed link raises for good."""
        async with asyncio.timeout(timeout):   # not wait_for: it can drop the caller's cancellation (3.11)
            item = await self.queue.get()
        if isinstance(item, Exception):
            self.queue.put_nowait(item)  # stays closed for every later reader
            raise item
        return self._checked(item)

    def close(self):
        raise NotImplementedError


def cup_name(identity):
    """The name a cup says it has in its identity, cut to a name's length; "" when it has none."""
    return identity.get("name", "")[:protocol.MAX_NAME].strip()


async def hello(transport, timeout=2.0, keys=None) -> "IdentityMessage":
    """Ask the cup who it is; returns the identity message, raises TransportClosed, or asyncio.TimeoutError
    when no identity has come within ``timeout`` s (whatever else came meanwhile). The hello says this host's
    protocol version (2); a cup that answers ``bad_version`` is asked once more in version 1, which an older
    cup speaks (the identity says which: hostside.VERSIONS). The hello carries a nonce: a cup with a secret
    answers with its own nonce and a signed identity, and the transport gets the session (everything after is
    signed and checked). ``keys``: cup id -> secret hex; by default the cups this host deployed (cups.json)
    and those registered in this process (register_key). An identity that does not verify is never taken; it
    is what ``hello`` raises when no authentic one has come within ``timeout``."""
    transport.session = None  # a new hello is a new session; the old key is dropped
    host_nonce = secrets.token_hex(16)
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout  # for the whole exchange: a cup that chatters without an identity ends too
    forged = None   # an identity that did not verify: said when no authentic one comes
    for version in hostside.VERSIONS:
        await transport.send({"t": "hello", "v": version, "nonce": host_nonce})
        while True:
            try:
                msg = await transport.recv(max(0.0, end - loop.time()))  # asyncio.TimeoutError: silence
            except asyncio.TimeoutError:
                if forged is not None:
                    raise forged
                raise
            if msg["t"] == "identity":
                if msg["v"] not in hostside.VERSIONS:
                    raise TransportClosed("link.refused", name=transport.name,
                                          error="identity of protocol version %d" % msg["v"])
                try:
                    return _authenticate(transport, msg, host_nonce, keys)
                except TransportClosed as e:
                    if e.message.key != "link.not_authentic":
                        raise
                    # Signed under another nonce: the late answer to an earlier hello (a loaded machine, a
                    # retry), or forged. Never taken; the answer to this hello may still come.
                    forged = e
                    continue
            if msg["t"] == "error" and msg.get("code") == protocol.E_VERSION:
                break
    raise TransportClosed("link.refused", name=transport.name, error=msg["msg"])


# C0 and C1 control characters; the invisible ones that change how a terminal shows the text after them
# (the bidirectional marks, embeddings, overrides and isolates, which can show a line backwards, the line and
# paragraph separators, zero-width characters, the byte order mark); the UTF-16 surrogates, which UTF-8
# cannot hold alone.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f"
                      "\ufeff\ud800-\udfff]")
# What a raw line holds when a string of it may hold one: an escape, DEL, or the first bytes of one in UTF-8.
_SUSPECT = (b"\\", b"\x7f", b"\xc2", b"\xd8\x9c", b"\xe2\x80", b"\xe2\x81", b"\xef\xbb\xbf")


def _escaped(text):
    """A text quoting a cup's (an error naming what it sent), its control characters written as escapes."""
    return _CONTROL.sub(lambda m: "\\u%04x" % ord(m.group()), text)


def _holds_control(value):
    if isinstance(value, str):
        return _CONTROL.search(value) is not None
    if isinstance(value, list):
        return any(_holds_control(v) for v in value)
    if isinstance(value, dict):
        return any(_holds_control(k) or _holds_control(v) for k, v in value.items())
    return False


def _authenticate(transport, ident, host_nonce, keys):
    cup_id = ident["cup"]
    paired = keys if keys is not None else deployed_keys()
    if ident.get("nonce") is None:
        if cup_id in paired:  # a cup we paired never answers unsigned: somebody else says it is this cup
            raise TransportClosed("link.unsigned_but_paired", name=transport.name, cup=cup_id)
        return ident
    candidates = []
    if cup_id in paired:
        candidates.append(paired[cup_id])
    if keys is None:
        candidates.extend(REGISTERED_SECRETS.get(cup_id, []))
    if not candidates:
        raise TransportClosed("link.not_paired", cup=cup_id)
    raw = getattr(transport, "last_raw", None)
    problem = Message("link.no_signed_line")
    for secret in candidates:
        try:
            session = Session(fair.session_key(fair.unhex(secret), host_nonce, ident["nonce"]))
            if raw is not None:
                session.check(raw, dict(ident))
                transport.session = session
                ident.pop("c", None)
                ident.pop("mac", None)
                return ident
        except RuleError:
            problem = Message("link.secret_not_hex")
        except protocol.ProtocolError as e:
            problem = e.msg
    raise TransportClosed("link.not_authentic", name=transport.name, cup=cup_id, problem=problem)


