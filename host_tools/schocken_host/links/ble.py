"""Cups over Bluetooth Low Energy: two transports with the interface of ``SerialLink`` and ``schocken scan``.

- ``BleakTransport``: the system's Bluetooth stack through ``bleak`` (written for Linux/BlueZ, Windows 10+ and
  macOS; see README). Scanning by the service UUID, several cups at once (one BleakClient per cup, scans and
  connection set-ups one at a time per adapter), reconnect with backoff in ``open()``.
- ``BumbleTransport``: Google's ``bumble`` host stack, which drives a USB Bluetooth dongle itself (``usb:0``,
  no BlueZ in the way) or a virtual controller; this is what the tests use. Several cups share one
  ``BumbleCentral`` (one bumble device, many connections).

The referee sees only ``open``/``send``/``recv``/``close``. The link carries the serial link's JSON lines:
written to the cup's RX characteristic in pieces of ``mtu - 3`` bytes (with response: ATT flow control),
received as notifications of its TX characteristic and cut into lines by ``protocol.LineSplitter``.
The constants and the advertisement format are ``schocken.bleformat``, the same module the cup uses
(docs/protocol.md, "BLE").
"""

import asyncio
import time

from schocken import protocol

from schocken_host.i18n import Message
from schocken_host.links.transport import Transport, TransportClosed

from schocken.bleformat import (COMPANY_ID, DEFAULT_MTU, RX_UUID, SERVICE_UUID, TX_UUID, WANT_MTU,
                                decode_payload, payload_size)


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


class _BleTransport(Transport):
    """Shared by both backends: the line splitter, the queue, sending in fragments, reconnect with backoff."""

    def __init__(self, cup=None, address=None, attempts=4, backoff=(0.2, 2.0), connect_timeout=10.0):
        if cup is None and address is None:
            raise ValueError("a BLE transport needs the cup's id or its address")
        self.cup = cup
        self.address = address
        self.attempts = attempts
        self.backoff = backoff
        self.connect_timeout = connect_timeout
        self.name = "ble:%s" % (cup or address)
        self.queue = None
        self.splitter = None
        self.connected = False
        self.closed = False
        self.mtu = DEFAULT_MTU
        self.reconnects = 0
        self.write_lock = None
        self.connection = None  # the backend's link to the cup (bumble's Connection, bleak's BleakClient)

    async def open(self):
        """Connect (again): scan for the cup if needed, connect, exchange the MTU, subscribe. Tries
        ``attempts`` times with doubling pauses; raises TransportClosed when the cup stays away."""
        self.queue = asyncio.Queue()
        self.splitter = protocol.LineSplitter(protocol.MAX_LINE)
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
            try:
                await asyncio.wait_for(self._connect(), self.connect_timeout)
            except Exception as e:  # OSError, a timeout, LookupError, and bleak's and bumble's own classes
                last = e
                self.errors.append(e)
                await self._disconnect()
                continue
            self.connected = True
            self.reconnects += 1
            return
        raise TransportClosed("link.cannot_connect", name=self.name, error=last or Message("link.no_answer"))

    # backend hooks: _connect sets self.connection, _write sends one fragment over it
    async def _connect(self):
        raise NotImplementedError

    async def _write(self, chunk):
        raise NotImplementedError

    async def _disconnect(self):
        # Both backends' connection objects end with disconnect(); one that is already gone may raise.
        connection, self.connection = self.connection, None
        if connection is not None:
            try:
                await connection.disconnect()
            except Exception:  # noqa: BLE001 - already gone
                pass

    # data from the cup
    def _on_data(self, data):
        for line in self.splitter.feed(bytes(data)):
            item = self._line_item(line)
            if item is not None:
                self._put(item)

    def _on_disconnected(self, *_):
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
                    await self._write(bytes(data[i:i + n]))
                except Exception as e:  # noqa: BLE001 - a lost link shows up as many exception types
                    self._on_disconnected()
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


# --- bumble ---------------------------------------------------------------------------------------------
class BumbleCentral:
    """One bumble device acting as central for several cups. ``device`` is a bumble Device (tests: one on a
    virtual link); otherwise ``transport`` names a bumble transport, e.g. "usb:0" or "tcp-client:host:port".
    Scanning runs while somebody looks for a cup; connection set-ups happen one at a time."""

    def __init__(self, device=None, transport="usb:0", mtu=WANT_MTU):
        self.device = device
        self.mtu = mtu             # ATT MTU to ask for; None: no exchange (23, as some phones and old stacks)
        self.transport_name = transport
        self._hci = None
        self.seen = {}             # address -> (time, rssi, manufacturer dict, local name, data bytes)
        self._merged = {}          # address -> {ad type: value}: advertising PDU and scan response merged
        self._changed = None
        self._scanners = 0
        self._lock = None
        self._started = False

    async def start(self):
        if self._started:
            return
        from bumble.device import Device
        self._changed = asyncio.Condition()
        self._lock = asyncio.Lock()
        if self.device is None:
            from bumble.transport import open_transport
            self._hci = await open_transport(self.transport_name)
            self.device = Device.with_hci("schocken-host", "F0:F1:F2:F3:F4:F5", self._hci.source,
                                          self._hci.sink)
        self.device.on("advertisement", self._on_advertisement)
        await self.device.power_on()
        self._started = True

    async def close(self):
        if self._hci is not None:
            await self._hci.close()
            self._hci = None

    def _on_advertisement(self, adv):
        from bumble.core import AdvertisingData
        address = str(adv.address)
        merged = self._merged.setdefault(address, {})
        for kind, value in adv.data.ad_structures:
            merged[kind] = value
        manufacturer = {}
        raw = merged.get(AdvertisingData.MANUFACTURER_SPECIFIC_DATA)
        if raw is not None and len(raw) >= 2:
            manufacturer[raw[0] | (raw[1] << 8)] = bytes(raw[2:])
        name = (merged.get(AdvertisingData.COMPLETE_LOCAL_NAME)
                or merged.get(AdvertisingData.SHORTENED_LOCAL_NAME))
        uuids = merged.get(AdvertisingData.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS, b"")
        svc = bytes(reversed(bytes.fromhex(SERVICE_UUID.replace("-", ""))))
        if svc not in [bytes(uuids[i:i + 16]) for i in range(0, len(uuids) - 15, 16)]:
            return
        self.seen[address] = (time.monotonic(), adv.rssi, manufacturer,
                              name.decode("utf-8", "replace") if isinstance(name, (bytes, bytearray))
                              else name,
                              adv.address)

        async def notify():
            async with self._changed:
                self._changed.notify_all()
        asyncio.ensure_future(notify())

    async def _scanning(self, on):
        if on:
            self._scanners += 1
            if self._scanners == 1:
                await self.device.start_scanning(filter_duplicates=False)
        else:
            self._scanners -= 1
            if self._scanners == 0:
                await self.device.stop_scanning()

    def results(self, since=0.0):
        out = []
        for address, (t, rssi, manufacturer, name, _) in sorted(self.seen.items()):
            if t >= since:
                out.append(found(address, rssi, manufacturer, name, "bumble"))
        return out

    async def scan(self, timeout=2.0):
        await self.start()
        t0 = time.monotonic()
        await self._scanning(True)
        try:
            await asyncio.sleep(timeout)
        finally:
            await self._scanning(False)
        return self.results(t0)

    async def find(self, cup=None, address=None, timeout=5.0):
        """The bumble address of a cup advertising now (fresh advertisement, not one from before)."""
        await self.start()
        t0 = time.monotonic()
        await self._scanning(True)
        try:
            async with self._changed:
                end = t0 + timeout
                while True:
                    for addr, (t, rssi, manufacturer, name, raw) in self.seen.items():
                        if t < t0:
                            continue
                        f = found(addr, rssi, manufacturer, name, "bumble")
                        if (address is not None and addr.split("/")[0] == str(address).split("/")[0]) or (
                                cup is not None and f["cup"] == cup):
                            return raw
                    left = end - time.monotonic()
                    if left <= 0:
                        raise LookupError("cup %s is not advertising" % (cup or address))
                    try:
                        await asyncio.wait_for(self._changed.wait(), left)
                    except asyncio.TimeoutError:
                        pass
        finally:
            await self._scanning(False)

    async def connect(self, address, on_data, on_disconnected, timeout=5.0):
        """Connect, exchange the MTU, find the service, subscribe: (connection, peer, rx, mtu)."""
        from bumble.core import PhysicalTransport
        from bumble.device import Peer
        async with self._lock:
            conn = await self.device.connect(address, transport=PhysicalTransport.LE, timeout=timeout)
        conn.on("disconnection", on_disconnected)
        peer = Peer(conn)
        mtu = await peer.request_mtu(self.mtu) if self.mtu else DEFAULT_MTU
        services = await peer.discover_service(SERVICE_UUID)
        if not services:
            await conn.disconnect()
            raise LookupError("%s has no schocken service" % address)
        await services[0].discover_characteristics()
        rx = peer.get_characteristics_by_uuid(_bumble_uuid(RX_UUID), services[0])
        tx = peer.get_characteristics_by_uuid(_bumble_uuid(TX_UUID), services[0])
        if not rx or not tx:
            await conn.disconnect()
            raise LookupError("%s: characteristics missing" % address)
        await peer.subscribe(tx[0], on_data)
        return conn, peer, rx[0], mtu


def _bumble_uuid(text):
    from bumble.core import UUID
    return UUID(text)


class BumbleTransport(_BleTransport):
    def __init__(self, central, cup=None, address=None, **kw):
        _BleTransport.__init__(self, cup, address, **kw)
        self.central = central
        self.peer = self.rx = None
        self.name = "bumble:%s" % (cup or address)

    async def _connect(self):
        address = await self.central.find(self.cup, self.address, timeout=self.connect_timeout / 2)
        self.splitter = protocol.LineSplitter(protocol.MAX_LINE)
        conn, peer, rx, mtu = await self.central.connect(address, self._on_data, self._on_disconnected)
        self.connection, self.peer, self.rx, self.mtu = conn, peer, rx, mtu

    async def _write(self, chunk):
        await self.peer.write_value(self.rx, chunk, with_response=True)


# --- bleak ----------------------------------------------------------------------------------------------
_ADAPTER_LOCK = None


def _adapter_lock():
    global _ADAPTER_LOCK
    if _ADAPTER_LOCK is None:
        _ADAPTER_LOCK = asyncio.Lock()
    return _ADAPTER_LOCK


async def bleak_scan(timeout=2.0, scanner=None):
    """Cups advertising near the system's adapter: list of dicts (address, rssi, cup, name, seat, ...)."""
    if scanner is None:
        from bleak import BleakScanner as scanner
    async with _adapter_lock():
        pairs = await scanner.discover(timeout=timeout, return_adv=True, service_uuids=[SERVICE_UUID])
    out = []
    for address, (device, adv) in sorted(pairs.items()):
        out.append(found(address, adv.rssi, adv.manufacturer_data, adv.local_name, "bleak"))
    return out


class BleakTransport(_BleTransport):
    """One cup through bleak. ``client_factory`` and ``scanner`` default to bleak's classes (tests pass
    fakes with the same interface)."""

    def __init__(self, cup=None, address=None, client_factory=None, scanner=None, scan_timeout=5.0, **kw):
        _BleTransport.__init__(self, cup, address, **kw)
        self.client_factory = client_factory
        self.scanner = scanner
        self.scan_timeout = scan_timeout
        self.name = "bleak:%s" % (cup or address)

    async def _find(self):
        if self.address is not None and self.cup is None:
            return self.address
        for f in await bleak_scan(self.scan_timeout, self.scanner):
            if f["cup"] == self.cup or (self.address is not None and f["address"] == self.address):
                self.address = f["address"]
                return f["address"]
        raise LookupError("cup %s is not advertising" % (self.cup or self.address))

    async def _connect(self):
        factory = self.client_factory
        if factory is None:
            from bleak import BleakClient as factory
        target = await self._find()
        self.splitter = protocol.LineSplitter(protocol.MAX_LINE)
        client = factory(target, disconnected_callback=self._on_disconnected, services=[SERVICE_UUID])
        self.connection = client
        async with _adapter_lock():
            await client.connect()
        acquire = getattr(getattr(client, "_backend", None), "_acquire_mtu", None)
        if acquire is not None:  # BlueZ reports 23 until asked (bleak's documented work-around)
            try:
                await acquire()
            except Exception:  # noqa: BLE001 - an old BlueZ: stay at what it says
                pass
        self.mtu = client.mtu_size or DEFAULT_MTU
        await client.start_notify(TX_UUID, lambda _char, data: self._on_data(bytes(data)))

    async def _write(self, chunk):
        await self.connection.write_gatt_char(RX_UUID, chunk, response=True)
