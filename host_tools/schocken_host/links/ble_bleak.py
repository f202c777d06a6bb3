"""BLE through the system's Bluetooth stack with ``bleak`` (links/ble.py): a scan for cups, and a ``BleLink``
per cup with a ``BleakStack``; scans and connection set-ups one at a time per adapter."""

import asyncio

from schocken.bleformat import DEFAULT_MTU, RX_UUID, SERVICE_UUID, TX_UUID

from schocken_host.links.ble import BleLink, found

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


class BleakStack:
    """A cup's connection through bleak (the stack part of a ``BleLink``). ``client_factory`` and ``scanner``
    default to bleak's classes (tests pass fakes with the same interface)."""
    label = "bleak"

    def __init__(self, client_factory=None, scanner=None, scan_timeout=5.0):
        self.client_factory = client_factory
        self.scanner = scanner
        self.scan_timeout = scan_timeout
        self.connection = None

    async def _find(self, link):
        if link.address is not None and link.cup is None:
            return link.address
        for f in await bleak_scan(self.scan_timeout, self.scanner):
            if f["cup"] == link.cup or (link.address is not None and f["address"] == link.address):
                link.address = f["address"]
                return f["address"]
        raise LookupError("cup %s is not advertising" % (link.cup or link.address))

    async def connect(self, link, timeout):
        factory = self.client_factory
        if factory is None:
            from bleak import BleakClient as factory
        target = await self._find(link)
        client = factory(target, disconnected_callback=link.on_disconnected, services=[SERVICE_UUID])
        self.connection = client
        async with _adapter_lock():
            await client.connect()
        acquire = getattr(getattr(client, "_backend", None), "_acquire_mtu", None)
        if acquire is not None:  # BlueZ reports 23 until asked (bleak's documented work-around)
            try:
                await acquire()
            except Exception:  # noqa: BLE001 - an old BlueZ: stay at what it says
                pass
        await client.start_notify(TX_UUID, lambda _char, data: link.on_data(bytes(data)))
        return client.mtu_size or DEFAULT_MTU

    async def write(self, chunk):
        await self.connection.write_gatt_char(RX_UUID, chunk, response=True)

    async def disconnect(self):
        connection, self.connection = self.connection, None
        if connection is not None:
            await connection.disconnect()


def bleak_link(cup=None, address=None, client_factory=None, scanner=None, scan_timeout=5.0, **kw):
    """A ``BleLink`` to one cup through the system's Bluetooth (by its id, or its address)."""
    return BleLink(BleakStack(client_factory, scanner, scan_timeout), cup, address, **kw)
