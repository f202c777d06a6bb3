"""BLE through Google's ``bumble`` host stack (links/ble.py): one ``BumbleCentral`` (a bumble device: a USB
dongle it drives itself, or a virtual controller in the tests) scans and connects for several cups, and a
``BleLink`` per cup with a ``BumbleStack``."""

import asyncio
import time

from schocken.bleformat import DEFAULT_MTU, RX_UUID, SERVICE_UUID, TX_UUID, WANT_MTU

from schocken_host.links.ble import BleLink, found


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


class BumbleStack:
    """A cup's connection through a ``BumbleCentral`` (the stack part of a ``BleLink``)."""
    label = "bumble"

    def __init__(self, central):
        self.central = central
        self.connection = self.peer = self.rx = None

    async def connect(self, link, timeout):
        address = await self.central.find(link.cup, link.address, timeout=timeout / 2)
        self.connection, self.peer, self.rx, mtu = await self.central.connect(
            address, link.on_data, link.on_disconnected)
        return mtu

    async def write(self, chunk):
        await self.peer.write_value(self.rx, chunk, with_response=True)

    async def disconnect(self):
        connection, self.connection = self.connection, None
        if connection is not None:
            await connection.disconnect()


def bumble_link(central, cup=None, address=None, **kw):
    """A ``BleLink`` to one cup through ``central`` (by its id, or its address); ``kw``: BleLink's options."""
    return BleLink(BumbleStack(central), cup, address, **kw)
