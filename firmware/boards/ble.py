# The cup's host link over Bluetooth Low Energy: a GATT service on micropython-lib's aioble, behind the board
# layer (docs/protocol.md, "BLE"; docs/board-interface.md, link()).
#
# The only firmware module that talks to aioble/bluetooth for the link. The format (UUIDs, fragments,
# advertisement) is schocken/bleformat.py, shared with the host and tested on both interpreters.
#
#   link = BleLink(cup_id, name, battery=board.battery_mv)
#   board.link = link.link            # cup.app calls board.link() -> (reader, writer), as for USB serial
#
# One central at a time. While nobody is connected the cup advertises (service UUID, name, and in the scan
# response its id, name, seat, battery, state and a sequence number); when the connection drops it advertises
# again. The cup app never notices: its state (hidden throw, commitment, throws used) stays as it was, its
# messages meanwhile go nowhere (as on an unplugged cable), and a host that reconnects asks for `status`.
#
# aioble and bluetooth are imported when the link starts, or handed in (tests run this file unchanged on
# CPython with tests/kits/aioble_shim.py on Google's bumble stack).

import asyncio

from cup.blelink import Tracker
from cup.clock import sleep_ms
from schocken.bleformat import (ADV_IDLE_US, ADV_INTERVAL_US, RX_UUID, SERVICE_UUID, TX_UUID, WANT_MTU,
                                payload_size)

from micropython import const

RX_BUFFER = const(2048)        # host bytes waiting for the app; a flood beyond this is dropped
NOTIFY_RETRIES = const(50)     # a full notification queue (OSError ENOMEM on NimBLE): wait 2 ms, try again


class _Reader:
    """The app's reader without a poll (cup/app.py): ``await readinto(buf)`` puts what the host wrote, 1 to
    len(buf) bytes, into ``buf`` and returns how many (never 0: the link has no end of file; a dropped
    connection is not the end of the cup's host link)."""

    def __init__(self):
        self.buf = bytearray()
        self.event = asyncio.Event()
        self.dropped = 0

    def feed(self, data):
        room = RX_BUFFER - len(self.buf)
        if len(data) > room:
            self.dropped += len(data) - room
            data = data[:room]
        self.buf.extend(data)
        self.event.set()

    def clear(self):
        self.buf = bytearray()

    async def readinto(self, buf):
        while not self.buf:
            self.event.clear()
            await self.event.wait()
        n = min(len(buf), len(self.buf))
        buf[:n] = memoryview(self.buf)[:n]
        self.buf = self.buf[n:]
        return n


class _Writer:
    """asyncio-stream-like: write() queues, ``await drain()`` sends the queue as notifications."""

    def __init__(self, link):
        self.link = link

    def write(self, data):
        self.link._out(data)

    async def drain(self):
        await self.link._flush()

    def close(self):
        pass


class BleLink:
    def __init__(self, cup_id, name="", battery=None, aioble=None, bluetooth=None,
                 interval_us=ADV_INTERVAL_US, gap_name=None):
        self.tracker = Tracker(cup_id, name, battery)
        self.tracker.changed = self._changed
        self._aioble = aioble
        self._bluetooth = bluetooth
        self.interval_us = interval_us
        self.idle_interval_us = ADV_IDLE_US  # outside a game (no seat): relaxed, the radio rests more
        self.gap_name = gap_name
        self.reader = _Reader()
        self.writer = _Writer(self)
        self.connection = None
        self.connections = 0       # connections accepted so far
        self.pending = bytearray()
        self.task = None
        self.rx = self.tx = None
        self._adv_changed = None   # set when the advertisement should be rebuilt

    # --- the board's link() -------------------------------------------------------------------------
    def link(self):
        """(reader, writer) for cup.app; starts the GATT service and advertising (needs a running loop)."""
        if self.task is None:
            self._register()
            self.task = asyncio.create_task(self.run())
        return self.reader, self.writer

    def _register(self):
        aioble = self._aioble
        bluetooth = self._bluetooth
        if aioble is None:
            import aioble
            self._aioble = aioble
        if bluetooth is None:
            import bluetooth
            self._bluetooth = bluetooth
        uuid = bluetooth.UUID
        service = aioble.Service(uuid(SERVICE_UUID))
        # capture=True: every write is queued with its data, none is lost while the app is busy.
        self.rx = aioble.BufferedCharacteristic(service, uuid(RX_UUID), write=True, write_no_response=True,
                                                capture=True, max_len=payload_size(WANT_MTU))
        self.tx = aioble.Characteristic(service, uuid(TX_UUID), notify=True)
        aioble.register_services(service)
        try:
            aioble.config(mtu=WANT_MTU)
            if self.gap_name:
                aioble.config(gap_name=self.gap_name)
        except (OSError, ValueError):  # a port without these settings: 23 bytes it is
            pass
        self._adv_changed = asyncio.Event()

    async def run(self):
        """Advertise, serve one connection, advertise again after it drops; forever."""
        while True:
            conn = await self._advertise()
            if conn is None:
                continue  # the advertisement changed: advertise the new one
            await self._serve(conn)

    async def _advertise(self):
        """One advertising period: the connection, or None when the advertisement has to change first."""
        self._adv_changed.clear()  # first: a change while the advertisement is built wakes the next round
        adv, resp = self.tracker.advertisement()
        box = []
        done = asyncio.Event()

        async def advertise():
            try:
                # Relaxed outside a game (no seat yet): advertising is most of a shelved cup's radio time.
                interval = self.interval_us if self.tracker.seat is not None else self.idle_interval_us
                box.append(await self._aioble.advertise(interval, adv_data=adv, resp_data=resp,
                                                        connectable=True))
            finally:
                done.set()

        task = asyncio.create_task(advertise())
        waker = asyncio.create_task(self._wake_on_change(done))
        try:
            await done.wait()
        finally:  # also when the link itself is cancelled: no advertising task is left behind
            waker.cancel()
            if not box:
                task.cancel()
        if box and box[0] is not None:
            return box[0]
        await sleep_ms(0)
        return None

    async def _wake_on_change(self, done):
        await self._adv_changed.wait()
        done.set()

    async def _serve(self, conn):
        self.connection = conn
        self.connections += 1
        self.pending = bytearray()
        self.reader.clear()  # a new host starts with a clean line: nothing half-written survives a drop
        rx = asyncio.create_task(self._receive(conn))
        try:
            await conn.disconnected(timeout_ms=None)
        except Exception:  # noqa: BLE001 - whatever the stack says, the connection is over
            pass
        finally:
            rx.cancel()
            self.connection = None
            self.pending = bytearray()

    async def _receive(self, conn):
        while True:
            got = await self.rx.written()
            data = got[1] if isinstance(got, tuple) else self.rx.read()
            if self.connection is not conn or not data:
                continue
            self.reader.feed(data)  # the tracker never sees these: only what the cup says it accepted

    def mtu(self):
        conn = self.connection
        return getattr(conn, "mtu", None) if conn is not None else None

    # --- the writer's side ----------------------------------------------------------------------------
    def _out(self, data):
        self.tracker.cup_bytes(data)  # follows the cup's state even while nobody listens
        if self.connection is not None:
            self.pending.extend(data)

    async def _flush(self):
        while self.pending:
            conn = self.connection
            if conn is None:
                self.pending = bytearray()
                return
            n = payload_size(self.mtu())
            chunk = bytes(self.pending[:n])
            for _ in range(NOTIFY_RETRIES):
                try:
                    self.tx.notify(conn, chunk)
                    break
                except OSError:
                    await sleep_ms(2)
                    if self.connection is not conn:
                        break
            else:
                conn = None  # the stack never took it: treat the link as gone for this message
            if self.connection is not conn or conn is None:
                self.pending = bytearray()
                return
            self.pending = self.pending[n:]
            await sleep_ms(0)

    def _changed(self):
        # New state for the advertisement; only matters while advertising (nobody connected).
        if self._adv_changed is not None and self.connection is None:
            self._adv_changed.set()


def attach(board, config, aioble=None, bluetooth=None):
    """Make ``board.link()`` the BLE link (the hook for boot: /cup.json {"link": "ble"}). Returns the link."""
    link = BleLink(config.get("cup_id", "cup"), config.get("name", ""), battery=board.battery_mv,
                   aioble=aioble, bluetooth=bluetooth, gap_name=config.get("name") or config.get("cup_id"))
    board.link = link.link
    board.ble_link = link
    return link
