"""Transports: how the host reaches a cup. The referee only sees ``Transport``: open, send, recv, close.

``SerialTransport`` speaks the wire protocol over a USB serial port (pyserial); emulated cups are reached the
same way, through the pseudo-terminal their process sits on. A reader thread cuts the byte stream into lines
(the protocol's LineSplitter), skips REPL noise and hands decoded messages to the asyncio loop.
"""

import asyncio
import threading

from schocken import protocol as P

# USB vendor ids of boards that carry a cup: Espressif, Raspberry Pi, Silicon Labs CP210x, WCH CH340, FTDI.
LIKELY_VIDS = {0x303A: "Espressif", 0x2E8A: "Raspberry Pi", 0x10C4: "CP210x", 0x1A86: "CH340", 0x0403: "FTDI"}


class TransportClosed(ConnectionError):
    pass


class Transport:
    """One cup's link. ``recv`` returns decoded messages; a line the cup garbled arrives as
    ``{"t": "garbage", "code": ..., "msg": ...}`` so the referee can flag the cup."""

    name = "?"

    async def open(self):
        raise NotImplementedError

    async def send(self, msg):
        raise NotImplementedError

    async def recv(self, timeout=None):
        raise NotImplementedError

    def close(self):
        raise NotImplementedError


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
            self.serial = serial.Serial(self.port, self.baudrate, timeout=0.1)
        except (serial.SerialException, OSError) as e:
            raise TransportClosed("cannot open %s: %s" % (self.port, e))
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
                if line is None:
                    self._put({"t": "garbage", "code": P.E_TOO_LONG, "msg": "line too long"})
                elif P.message_part(line) is not None:
                    try:
                        self._put(P.decode(P.message_part(line), P.CUP_TO_HOST))
                    except P.ProtocolError as e:
                        self._put({"t": "garbage", "code": e.code, "msg": e.msg})

    def _put(self, item):
        try:
            self.loop.call_soon_threadsafe(self.queue.put_nowait, item)
        except RuntimeError:  # loop closed: the host is shutting down
            pass

    async def send(self, msg):
        if self.serial is None or self.closed:
            raise TransportClosed("%s is closed" % self.port)
        data = P.encode(msg)
        try:
            await asyncio.get_running_loop().run_in_executor(None, self._write, data)
        except Exception as e:
            raise TransportClosed("%s: %s" % (self.port, e))

    def _write(self, data):
        self.serial.write(data)
        self.serial.flush()

    async def recv(self, timeout=None):
        item = await asyncio.wait_for(self.queue.get(), timeout)
        if isinstance(item, Exception):
            self.queue.put_nowait(item)  # stays closed for every later reader
            raise item
        return item

    def close(self):
        self.closed = True
        if self.serial is not None:
            try:
                self.serial.close()
            except Exception:
                pass


def likely_ports(ports=None):
    """Serial ports whose USB vendor id looks like a cup's board. ``ports`` defaults to pyserial's list
    (which does not list pseudo-terminals: pass them explicitly)."""
    if ports is None:
        from serial.tools import list_ports
        ports = list_ports.comports()
    return [p.device for p in ports if getattr(p, "vid", None) in LIKELY_VIDS]


async def hello(transport, timeout=2.0):
    """Open a transport and ask the cup who it is; returns the identity message or raises."""
    await transport.send({"t": "hello", "v": P.VERSION})
    while True:
        msg = await transport.recv(timeout)
        if msg["t"] == "identity":
            return msg
        if msg["t"] == "error" and msg.get("code") == P.E_VERSION:
            raise TransportClosed("%s: %s" % (transport.name, msg["msg"]))


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
