"""A thin aioble-compatible shim on Google's bumble stack, so firmware/boards/ble.py runs unchanged on CPython
against a real BLE host stack (GATT server, ATT MTU exchange, notifications, advertising, connections and
disconnections) over bumble's virtual link.

Only what the firmware uses, with aioble's names and behaviour:

    stack = Stack(link, "F0:00:00:00:00:01")   # one BLE chip: a bumble Controller + Device on the LocalLink
    await stack.power_on()
    BleLink(..., aioble=stack, bluetooth=stack.bluetooth)

``stack`` stands for the ``aioble`` module (Service, Characteristic, BufferedCharacteristic,
register_services, advertise, config, stop) and ``stack.bluetooth`` for ``bluetooth`` (UUID). aioble is a
module-level singleton on a board (one radio); the shim makes one per cup so that eight cups run in one
process.

Where the shim differs from a radio (said here so no test relies on it unknowingly):
- bumble's virtual controller answers a scan request with the advertising data, not the scan response. The
  shim therefore advertises ``adv_data + resp_data`` in one PDU, which is what a scanning host sees after
  merging the advertising PDU and the scan response.
- Writes longer than the characteristic's buffer are cut to it, as MicroPython does (20 bytes unless
  BufferedCharacteristic(max_len=...)). Capture queues at most 10 writes and drops the oldest, as aioble.
- ``notify`` is synchronous as in aioble; the notifications leave in order from one sender task.
"""

import asyncio
from collections import deque

from bumble import gatt, hci
from bumble.controller import Controller
from bumble.core import UUID as BumbleUUID
from bumble.device import Device
from bumble.host import Host
from bumble.transport.common import AsyncPipeSink

_CAPTURE_LIMIT = 10
_DEFAULT_BUFFER = 20


class UUID:
    """bluetooth.UUID: from a string (or int), bytes() in little-endian order, equality by value."""

    def __init__(self, value):
        self._uuid = BumbleUUID(value) if isinstance(value, str) else BumbleUUID.from_16_bits(value)

    def __bytes__(self):
        return bytes(self._uuid.to_bytes())

    def __eq__(self, other):
        return isinstance(other, UUID) and bytes(self) == bytes(other)

    def __hash__(self):
        return hash(bytes(self))

    def __str__(self):
        return "UUID('%s')" % str(self._uuid).lower()


class _Bluetooth:
    UUID = UUID


class DeviceDisconnectedError(Exception):
    pass


class DeviceConnection:
    """aioble.DeviceConnection around a bumble Connection (the cup is the peripheral)."""

    def __init__(self, stack, connection):
        self.stack = stack
        self.connection = connection
        self.mtu = None
        self._conn_handle = connection.handle
        self._gone = asyncio.Event()
        connection.on(connection.EVENT_DISCONNECTION, self._on_disconnection)
        connection.on(connection.EVENT_CONNECTION_ATT_MTU_UPDATE, self._on_mtu)

    def _on_disconnection(self, reason):
        self._conn_handle = None
        self._gone.set()

    def _on_mtu(self):
        self.mtu = self.connection.att_mtu

    def is_connected(self):
        return self._conn_handle is not None

    async def disconnected(self, timeout_ms=None, disconnect=False):
        if not self.is_connected():
            return
        if disconnect:
            await self.connection.disconnect()
        if timeout_ms:
            await asyncio.wait_for(self._gone.wait(), timeout_ms / 1000)
        else:
            await self._gone.wait()

    async def disconnect(self, timeout_ms=2000):
        await self.disconnected(timeout_ms, disconnect=True)

    async def exchange_mtu(self, mtu=None, timeout_ms=1000):
        raise NotImplementedError("the cup never starts the MTU exchange: the host does")


class Service:
    def __init__(self, uuid):
        self.uuid = uuid
        self.characteristics = []


class Characteristic:
    def __init__(self, service, uuid, read=False, write=False, write_no_response=False, notify=False,
                 indicate=False, initial=None, capture=False):
        service.characteristics.append(self)
        self.uuid = uuid
        self.read_ok, self.write_ok, self.write_nr = read, write, write_no_response
        self.notify_ok, self.indicate_ok = notify, indicate
        self.capture = capture
        self.max_len = _DEFAULT_BUFFER
        self._value = bytes(initial or b"")
        self._stack = None
        self._bumble = None
        self._queue = deque((), _CAPTURE_LIMIT)
        self._event = asyncio.Event()
        self._last = None

    # --- aioble API ---
    def read(self):
        return self._value

    def write(self, data, send_update=False):
        self._value = bytes(data)
        if send_update and self._stack is not None:
            for conn in list(self._stack.connections):
                self.notify(conn)

    async def written(self, timeout_ms=None):
        while not self._queue:
            self._event.clear()
            if timeout_ms:
                await asyncio.wait_for(self._event.wait(), timeout_ms / 1000)
            else:
                await self._event.wait()
        conn, data = self._queue.popleft()
        return (conn, data) if self.capture else conn

    def notify(self, connection, data=None):
        if not self.notify_ok:
            raise ValueError("Not supported")
        if connection is None or not connection.is_connected():
            raise OSError(128, "ENOTCONN")
        self._stack._send(connection, self._bumble, bytes(self._value if data is None else data))

    # --- bumble side ---
    def _make(self, stack):
        self._stack = stack
        P = gatt.Characteristic.Properties
        props = P(0)
        perms = 0
        if self.read_ok:
            props |= P.READ
            perms |= gatt.Characteristic.READABLE
        if self.write_ok:
            props |= P.WRITE
        if self.write_nr:
            props |= P.WRITE_WITHOUT_RESPONSE
        if self.write_ok or self.write_nr:
            perms |= gatt.Characteristic.WRITEABLE
        if self.notify_ok:
            props |= P.NOTIFY
            perms |= gatt.Characteristic.READABLE
        if self.indicate_ok:
            props |= P.INDICATE
        value = gatt.CharacteristicValue(read=lambda conn: self._value, write=self._on_write)
        self._bumble = gatt.Characteristic(str(self.uuid._uuid), props, perms, value)
        return self._bumble

    def _on_write(self, connection, value):
        data = bytes(value)[:self.max_len]
        self._value = data
        conn = self._stack._conns.get(connection.handle)
        self._queue.append((conn, data))
        self._event.set()


class BufferedCharacteristic(Characteristic):
    def __init__(self, *args, max_len=_DEFAULT_BUFFER, append=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.max_len = max_len


class Stack:
    """One BLE chip: what ``import aioble`` gives a board, on a bumble device on a virtual link."""

    Service = Service
    Characteristic = Characteristic
    BufferedCharacteristic = BufferedCharacteristic
    DeviceDisconnectedError = DeviceDisconnectedError
    bluetooth = _Bluetooth()

    def __init__(self, link, address, name="cup"):
        self.address = hci.Address(address)
        self.controller = Controller(name, link=link, public_address=address)
        self.device = Device(address=self.address, host=Host(self.controller, AsyncPipeSink(self.controller)))
        self.device.name = name
        self._conns = {}
        self._waiter = None
        self._incoming = None
        self._outbox = asyncio.Queue()
        self._sender = None
        self._stopping = None
        self._stops = set()
        self.advertising = False
        self.device.on(self.device.EVENT_CONNECTION, self._on_connection)

    @property
    def connections(self):
        return list(self._conns.values())

    async def power_on(self):
        await self.device.power_on()
        self._sender = asyncio.create_task(self._send_loop())

    # --- aioble module functions ---
    def config(self, *args, **kwargs):
        if args == ("mac",):
            return (0, bytes(reversed(bytes(self.address))))
        if args == ("mtu",):
            return self.device.gatt_server.max_mtu
        if "mtu" in kwargs:
            self.device.gatt_server.max_mtu = kwargs["mtu"]
        if "gap_name" in kwargs:
            self.device.name = kwargs["gap_name"]
        return None

    def register_services(self, *services):
        for s in services:
            chars = [c._make(self) for c in s.characteristics]
            self.device.add_service(gatt.Service(str(s.uuid._uuid), chars))

    async def advertise(self, interval_us, adv_data=None, resp_data=None, connectable=True,
                        limited_disc=False, br_edr=False, name=None, services=None, appearance=0,
                        manufacturer=None, timeout_ms=None):
        if self._incoming is not None:  # a central connected while the last advertise() was being cancelled
            conn, self._incoming = self._incoming, None
            return conn
        if self._stopping is not None:
            await self._stopping
            self._stopping = None
        loop = asyncio.get_running_loop()
        self._waiter = loop.create_future()
        interval_ms = max(interval_us / 1000, 20)
        # HCI commands run to their end even when advertise() is cancelled (a cancelled command leaves
        # bumble's host waiting for a response nobody takes).
        start = asyncio.ensure_future(self.device.start_advertising(
            advertising_data=bytes(adv_data or b"") + bytes(resp_data or b""),
            scan_response_data=bytes(resp_data or b""),
            advertising_interval_min=interval_ms, advertising_interval_max=interval_ms))
        try:
            await asyncio.shield(start)
            self.advertising = True
            if timeout_ms:
                return await asyncio.wait_for(asyncio.shield(self._waiter), timeout_ms / 1000)
            return await asyncio.shield(self._waiter)
        except (asyncio.CancelledError, asyncio.TimeoutError):
            self.advertising = False
            self._stopping = asyncio.ensure_future(self._stop_after(start))
            self._stops.add(self._stopping)
            self._stopping.add_done_callback(self._stops.discard)
            raise
        finally:
            self._waiter = None

    async def _stop_after(self, start):
        try:
            await start
        except Exception:  # noqa: BLE001 - it never started
            return
        if self._waiter is None and not self._conns:
            await self.device.stop_advertising()

    def stop(self):
        for conn in self.connections:
            asyncio.ensure_future(conn.connection.disconnect())

    # --- bumble events ---
    def _on_connection(self, connection):
        conn = DeviceConnection(self, connection)
        self._conns[connection.handle] = conn
        connection.on(connection.EVENT_DISCONNECTION, lambda reason: self._conns.pop(connection.handle, None))
        self.advertising = False
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(conn)
        else:
            self._incoming = conn

    def _send(self, conn, characteristic, data):
        self._outbox.put_nowait((conn, characteristic, data))

    async def _send_loop(self):
        while True:
            conn, characteristic, data = await self._outbox.get()
            if conn.is_connected():
                try:
                    await self.device.notify_subscriber(conn.connection, characteristic, data)
                except Exception:  # noqa: BLE001 - the link went away under the notification
                    pass

    async def close(self):
        for task in list(self._stops):  # a stop the link no longer needs: the test is over
            task.cancel()
        if self._sender is not None:
            self._sender.cancel()
        for conn in self.connections:
            try:
                await conn.connection.disconnect()
            except Exception:  # noqa: BLE001
                pass
