"""Cups over Bluetooth Low Energy: one link with the interface of ``SerialLink``, over either of two stacks.

- ``ble_bleak``: the system's Bluetooth stack through ``bleak`` (written for Linux/BlueZ, Windows 10+ and
  macOS; see README). Scanning by the service UUID, several cups at once (one BleakClient per cup, scans and
  connection set-ups one at a time per adapter).
- ``ble_bumble``: Google's ``bumble`` host stack, which drives a USB Bluetooth dongle itself (``usb:0``,
  no BlueZ in the way) or a virtual controller; this is what the tests use. Several cups share one
  ``BumbleCentral`` (one bumble device, many connections).

``BleLink`` is what both share, with the stack as a part of it: the referee sees only
``open``/``send``/``recv``/``close``. The link carries the serial link's JSON lines: written to the cup's RX
characteristic in pieces of ``mtu - 3`` bytes (with response: ATT flow control), received as notifications of
its TX characteristic and cut into lines by ``protocol.LineSplitter``; reconnects with backoff in ``open()``.
A stack has ``label``, ``connect(link, timeout)`` (finds the cup, connects, subscribes with the link's
``on_data`` and ``on_disconnected``; returns the MTU), ``write(chunk)`` and ``disconnect()``. The constants
and the advertisement format are ``schocken.bleformat``, the same module the cup uses (docs/protocol.md,
"BLE").
"""

import asyncio

from schocken import protocol

from schocken_host.i18n import Message
from schocken_host.links.transport import Transport, TransportClosed

from schocken.bleformat import COMPANY_ID, DEFAULT_MTU, decode_payload, payload_size


def found(address, rssi, manufacturer, local_name, via):
    """One scan result as a dict, from the merged advertisement data (None: not a cup of ours)."""
    payload = manufacturer.get(COMPANY_ID) if manufacturer else None
    fields = None
    if payload is not None:
        try:
            fields = decode_payload(payload)
        except ValueError:
            fields = None
    if fields is None:
        fields = {"state": None, "seq": None, "seat": None, "battery": None, "cup": None, "name": local_name,
                  "truncated": True}
    fields.update(address=str(address), rssi=rssi, via=via, adv_name=local_name)
    return fields


class BleLink(Transport):
    """One cup over BLE: the line splitter, the queue, sending in fragments, reconnect with backoff; the
    stack (bumble's or bleak's) finds, connects and writes."""

    def __init__(self, stack, cup=None, address=None, attempts=4, backoff=(0.2, 2.0), connect_timeout=10.0):
        if cup is None and address is None:
            raise ValueError("a BLE transport needs the cup's id or its address")
        self.stack = stack
        self.cup = cup
        self.address = address
        self.attempts = attempts
        self.backoff = backoff
        self.connect_timeout = connect_timeout
        self.name = "%s:%s" % (stack.label, cup or address)
        self.queue = None
        self.splitter = None
        self.connected = False
        self.closed = False
        self.mtu = DEFAULT_MTU
        self.reconnects = 0
        self.write_lock = None
        self.errors = []

    async def open(self):
        """Connect (again): scan for the cup if needed, connect, exchange the MTU, subscribe. Tries
        ``attempts`` times with doubling pauses; raises TransportClosed when the cup stays away."""
        self.queue = asyncio.Queue()
        self.write_lock = asyncio.Lock()
        self.closed = False
        if self.connected:
            await self._disconnect()
        delay, last = self.backoff[0], None
        self.errors = []
        for attempt in range(self.attempts):
            if attempt:
                await asyncio.sleep(delay)
                delay = min(delay * 2, self.backoff[1])
            self.splitter = protocol.LineSplitter(protocol.MAX_LINE)   # no piece of a line from before
            try:
                self.mtu = await asyncio.wait_for(self.stack.connect(self, self.connect_timeout),
                                                  self.connect_timeout)
            except Exception as e:  # OSError, a timeout, LookupError, and bleak's and bumble's own classes
                last = e
                self.errors.append(e)
                await self._disconnect()
                continue
            self.connected = True
            self.reconnects += 1
            return
        raise TransportClosed("link.cannot_connect", name=self.name, error=last or Message("link.no_answer"))

    async def _disconnect(self):
        try:
            await self.stack.disconnect()
        except Exception:  # noqa: BLE001 - already gone
            pass

    # data from the cup
    def on_data(self, data):
        for line in self.splitter.feed(bytes(data)):
            item = self._line_item(line)
            if item is not None:
                self._put(item)

    def on_disconnected(self, *_):
        if self.connected:
            self.connected = False
            self._put(TransportClosed("link.connection_lost", name=self.name))

    def _put(self, item):
        if self.queue is not None:
            self.queue.put_nowait(item)

    async def send(self, msg):
        await self.send_bytes(self._encode(msg))

    async def send_bytes(self, data):
        """Raw bytes to the cup (tests: garbage), in fragments of the negotiated MTU."""
        if not self.connected or self.closed:
            raise TransportClosed("link.not_connected", name=self.name)
        n = payload_size(self.mtu)
        async with self.write_lock:  # the fragments of two messages must not interleave
            for i in range(0, len(data), n):
                try:
                    await self.stack.write(bytes(data[i:i + n]))
                except Exception as e:  # noqa: BLE001 - a lost link shows up as many exception types
                    self.on_disconnected()
                    raise TransportClosed("link.broken", name=self.name, error=e)

    def close(self):
        self.closed = True
        self.connected = False
        try:
            asyncio.get_running_loop().create_task(self._disconnect())
        except RuntimeError:  # no loop: nothing to disconnect asynchronously
            pass

    async def aclose(self):
        self.closed = True
        self.connected = False
        await self._disconnect()
