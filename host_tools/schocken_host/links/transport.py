"""Transports: how the host reaches a cup. The referee only sees ``Transport``: open, send, recv, close.

``SerialTransport`` speaks the wire protocol over a USB serial port (pyserial); emulated cups are reached the
same way, through the pseudo-terminal their process sits on. A reader thread cuts the byte stream into lines
(the protocol's LineSplitter), skips REPL noise and hands decoded messages to the asyncio loop.
"""

import asyncio
import json
import secrets
import threading

from schocken import RuleError
from schocken import fair as F
from schocken import protocol as P
from schocken import hostside as H

# USB vendor ids of boards that carry a cup: Espressif, Raspberry Pi, Silicon Labs CP210x, WCH CH340, FTDI.
LIKELY_VIDS = {0x303A: "Espressif", 0x2E8A: "Raspberry Pi", 0x10C4: "CP210x", 0x1A86: "CH340", 0x0403: "FTDI"}


class TransportClosed(ConnectionError):
    pass


# --- the host's keys and authenticated sessions (docs/protocol.md "Authentication") ------------------------
# cup id -> [secret hex, ...] registered at run time (emulated cups; tables side by side in one process may
# reuse a cup id, so every registered secret of an id is tried)
KEYS: "dict[str, list[str]]" = {}


def deployed_keys():
    """cup id -> secret hex of every cup this host deployed (deploy keeps them in cups.json)."""
    from schocken_host.deploy_cmd import load_cups
    out = {}
    for cup_id, entry in load_cups().items():
        if isinstance(entry, dict) and isinstance(entry.get("secret"), str):
            out[cup_id] = entry["secret"]
    return out


def keystore():
    """The default keystore, cup id -> secret hex: deployed cups, then the cups registered in this process
    (the newest registration wins here; ``hello`` tries all of them)."""
    keys = deployed_keys()
    for cup_id, found in KEYS.items():
        keys[cup_id] = found[-1]
    return keys


def register_key(cup_id, secret):
    KEYS.setdefault(cup_id, []).append(secret)


def unregister_key(cup_id, secret):
    found = KEYS.get(cup_id, [])
    if secret in found:
        found.remove(secret)
    if not found:
        KEYS.pop(cup_id, None)


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
        return P.line(F.sign(self.key, body))

    def check(self, raw, msg):
        """``raw``: the line the message was decoded from. Returns the message or raises ProtocolError."""
        try:
            F.verify(self.key, raw.rstrip())
        except RuleError as e:
            raise P.ProtocolError(P.E_AUTH, "%s (%s)" % (e, msg.get("t")))
        c = msg.get("c")
        if not isinstance(c, int) or isinstance(c, bool) or c <= self.received:
            raise P.ProtocolError(P.E_AUTH, "replayed message (counter %r, last %d)" % (c, self.received))
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
            return {"t": "garbage", "code": P.E_TOO_LONG, "msg": "line too long"}
        part = H.message_part(line)
        if part is None:
            return None
        try:
            msg = H.check_fields(P.decode(part, H.CUP_TO_HOST))
        except P.ProtocolError as e:
            return {"t": "garbage", "code": e.code, "msg": e.msg}
        except RecursionError:  # JSON nested deeper than the parser goes
            return {"t": "garbage", "code": P.E_BAD_JSON, "msg": "line nested too deep"}
        msg["_raw"] = bytes(part)
        return msg

    def _checked(self, item):
        """Consumer side (recv): the raw line is taken off; in a session the message must verify."""
        raw = item.pop("_raw", None)
        self.last_raw = raw
        if self.session is None or raw is None:
            return item
        try:
            return self.session.check(raw, item)
        except P.ProtocolError as e:
            return {"t": "garbage", "code": e.code, "msg": e.msg}

    def _encode(self, msg):
        return P.encode(msg) if self.session is None else self.session.seal(msg)

    async def open(self):
        raise NotImplementedError

    async def send(self, msg):
        raise NotImplementedError

    async def recv(self, timeout=None):
        """The next message from the queue the transport's reader fills; a closed link raises for good."""
        item = await asyncio.wait_for(self.queue.get(), timeout)
        if isinstance(item, Exception):
            self.queue.put_nowait(item)  # stays closed for every later reader
            raise item
        return self._checked(item)

    def close(self):
        raise NotImplementedError


WRITE_TIMEOUT = 2.0   # s: a cup that takes no bytes for this long (its input full, nobody reading) is gone


class SerialTransport(Transport):
    def __init__(self, port, baudrate=115200):
        self.port = port
        self.baudrate = baudrate
        self.name = "serial:%s" % port
        self.serial = None
        self.queue = None
        self.loop = None
        self.thread = None
        self.closed = False

    async def open(self):
        import serial
        self.loop = asyncio.get_running_loop()
        self.queue = asyncio.Queue()
        self.closed = False
        try:
            # Exclusive: another program on the port (a terminal, a second host) would take the cup's lines.
            self.serial = serial.Serial(self.port, self.baudrate, timeout=0.1, write_timeout=WRITE_TIMEOUT,
                                        exclusive=True)
        except (serial.SerialException, OSError, ValueError) as e:
            raise TransportClosed("cannot open %s: %s" % (self.port, e))
        _lock_tty(self.serial)
        self.thread = threading.Thread(target=self._reader, name=self.name, daemon=True)
        self.thread.start()

    def _reader(self):
        splitter = P.LineSplitter()
        while not self.closed:
            try:
                data = self.serial.read(self.serial.in_waiting or 1)
            except Exception as e:  # a pulled cable shows up as one of several pyserial/OS errors
                self._put(TransportClosed("%s: %s" % (self.port, e)))
                return
            for line in splitter.feed(data):
                try:
                    item = self._line_item(line)
                except Exception as e:  # whatever a line holds, this thread outlives it
                    item = {"t": "garbage", "code": P.E_BAD_MESSAGE, "msg": "%s: %s" % (type(e).__name__, e)}
                if item is not None:
                    self._put(item)

    def _put(self, item):
        try:
            self.loop.call_soon_threadsafe(self.queue.put_nowait, item)
        except RuntimeError:  # loop closed: the host is shutting down
            pass

    async def send(self, msg):
        if self.serial is None or self.closed:
            raise TransportClosed("%s is closed" % self.port)
        data = self._encode(msg)
        try:
            await asyncio.get_running_loop().run_in_executor(None, self._write, data)
        except Exception as e:
            raise TransportClosed("%s: %s" % (self.port, e))

    def _write(self, data):
        # Bounded by write_timeout: a stuck cup raises instead of holding the thread. No flush(): tcdrain has
        # no bound, and write() has handed every byte to the driver already.
        self.serial.write(data)

    def close(self):
        self.closed = True
        if self.serial is not None:
            try:
                self.serial.close()
            except Exception:
                pass


def _lock_tty(port):
    """TIOCEXCL on top of pyserial's flock: a program that does not ask for a lock (cat, a terminal) cannot open
    the cup's port either while the host holds it (Linux lets only root through). Not on every system."""
    try:
        import fcntl
        import termios
        fcntl.ioctl(port.fileno(), termios.TIOCEXCL)
    except (ImportError, AttributeError, OSError, ValueError):
        pass


def likely_ports(ports=None):
    """Serial ports whose USB vendor id looks like a cup's board. ``ports`` defaults to pyserial's list
    (which does not list pseudo-terminals: pass them explicitly)."""
    if ports is None:
        from serial.tools import list_ports
        ports = list_ports.comports()
    return [p.device for p in ports if getattr(p, "vid", None) in LIKELY_VIDS]


async def hello(transport, timeout=2.0, keys=None):
    """Ask the cup who it is; returns the identity message or raises TransportClosed. The hello carries a
    nonce: a cup with a secret answers with its own nonce and a signed identity, and the transport gets the
    session (everything after is signed and checked). ``keys``: cup id -> secret hex; by default the cups
    this host deployed (cups.json) and those registered in this process (register_key)."""
    transport.session = None  # a new hello is a new session; the old key is dropped
    host_nonce = secrets.token_hex(16)
    await transport.send({"t": "hello", "v": P.VERSION, "nonce": host_nonce})
    while True:
        msg = await transport.recv(timeout)
        if msg["t"] == "identity":
            return _authenticate(transport, msg, host_nonce, keys)
        if msg["t"] == "error" and msg.get("code") == P.E_VERSION:
            raise TransportClosed("%s: %s" % (transport.name, msg["msg"]))


def _authenticate(transport, ident, host_nonce, keys):
    cup_id = ident["cup"]
    paired = keys if keys is not None else deployed_keys()
    if ident.get("nonce") is None:
        if cup_id in paired:  # a cup we paired never answers unsigned: somebody else says it is this cup
            raise TransportClosed("%s: cup %s answers unauthenticated, but it is paired" % (transport.name, cup_id))
        return ident
    candidates = []
    if cup_id in paired:
        candidates.append(paired[cup_id])
    if keys is None:
        candidates.extend(KEYS.get(cup_id, []))
    if not candidates:
        raise TransportClosed("unknown cup %s: not paired" % cup_id)
    raw = getattr(transport, "last_raw", None)
    problem = "no signed line"
    for secret in candidates:
        try:
            session = Session(F.session_key(F.unhex(secret), host_nonce, ident["nonce"]))
            if raw is not None:
                session.check(raw, dict(ident))
                transport.session = session
                ident.pop("c", None)
                ident.pop("mac", None)
                return ident
        except RuleError:
            problem = "the stored secret is not hex"
        except P.ProtocolError as e:
            problem = e.msg
    raise TransportClosed("%s: cup %s: identity not authentic: %s" % (transport.name, cup_id, problem))


async def discover(ports=None, timeout=2.0):
    """Probe likely ports with hello; returns [(transport, identity)] of those that answer."""
    found = []
    for port in likely_ports(ports):
        t = SerialTransport(port)
        try:
            await t.open()
            found.append((t, await hello(t, timeout)))
        except (TransportClosed, asyncio.TimeoutError):
            t.close()
    return found
