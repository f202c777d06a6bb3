"""A table of cups over a virtual BLE link, for tests/test_ble.py, test_ble_game.py, test_ble_auth.py and
bench/ble.py.

Each cup is the unchanged cup app (``cup.app.App``) on the emulated board, whose ``link()`` is the firmware's
BLE link (``firmware/boards/ble.py``) running on ``tests/kits/aioble_shim.py`` (aioble on bumble). The host is
one bumble device (``schocken_host.links.ble_bumble.BumbleCentral``) with a ``bumble_link`` per cup. All
bumble controllers sit on one ``bumble.link.LocalLink`` in this process; more centrals (a phone nearby) and
more peripherals (a cup impersonating another) can join it.
"""

import asyncio
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
for _p in (REPO / "firmware", REPO / "firmware" / "lib"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from bumble.controller import Controller  # noqa: E402
from bumble.device import Device  # noqa: E402
from bumble.hci import Address  # noqa: E402
from bumble.host import Host  # noqa: E402
from bumble.link import LocalLink  # noqa: E402
from bumble.transport.common import AsyncPipeSink  # noqa: E402

from kits.aioble_shim import Stack  # noqa: E402
from boards import ble as board_ble  # noqa: E402
from boards import emulated  # noqa: E402
from cup.app import App  # noqa: E402
from cup.tasks import Tasks  # noqa: E402
from schocken_host.links.ble_bumble import BumbleCentral, bumble_link  # noqa: E402

ADV_INTERVAL_US = 20000   # 20 ms, the shortest legal advertising interval: quick (re)connects in tests


def run(coro, timeout=30):
    async def guarded():
        return await asyncio.wait_for(coro, timeout)
    return asyncio.run(guarded())


async def expect(t, kind, timeout=5):
    """The next message of type ``kind`` from transport ``t`` (others are dropped)."""
    while True:
        msg = await t.recv(timeout)
        if msg["t"] == kind:
            return msg


def central(link, address, name="central"):
    """A BLE central on the virtual link: a bumble device of its own (the host's, or a phone's)."""
    controller = Controller(name, link=link, public_address=address)
    device = Device(address=Address(address), host=Host(controller, AsyncPipeSink(controller)))
    out = BumbleCentral(device)
    out.controller = controller
    return out


async def try_connect(central, address, timeout=0.3):
    """A plain LE connection attempt from ``central`` to ``address``: the connection, or None when nothing
    answered within ``timeout`` (a peripheral that does not advertise does not answer)."""
    from bumble.core import PhysicalTransport
    await central.start()
    try:
        return await asyncio.wait_for(central.device.connect(address, transport=PhysicalTransport.LE),
                                      timeout)
    except asyncio.TimeoutError:
        # A real controller drops the attempt on LE Create Connection Cancel; bumble's virtual controller
        # (0.0.236) keeps it pending and would complete it at the next advertisement, to a host that gave up.
        central.controller.pending_le_connection = None
        return None


class BleCup:
    def __init__(self, link, index, cup_id=None, name="", seed=None, battery_mv=3900, secret=None):
        self.index = index
        self.cup_id = cup_id or "ble%d" % (index + 1)
        self.secret = secret              # hex: the cup accepts only an authenticated host
        address = "F1:00:00:00:%02X:%02X" % (index >> 8, index & 0xFF)
        self.stack = Stack(link, address, name=self.cup_id)
        rnd = random.Random(seed if seed is not None else index)
        self.board = emulated.make_board(urandom=lambda n: bytes(rnd.getrandbits(8) for _ in range(n)),
                                         battery_mv=battery_mv)
        config = {"cup_id": self.cup_id, "name": name}
        if secret:
            config["secret"] = secret
        self.ble = board_ble.attach(self.board, config, aioble=self.stack, bluetooth=self.stack.bluetooth)
        self.ble.interval_us = ADV_INTERVAL_US
        self.ble.idle_interval_us = ADV_INTERVAL_US  # the tests scan for 0.15 s: every cup advertises fast
        self.app = App(self.board, config, None, None)
        self.task = None

    @property
    def cup(self):
        return self.app.cup

    @property
    def address(self):
        return self.stack.address

    async def say(self, data):
        """Bytes on the cup's TX characteristic as if the cup sent them (forged or replayed lines)."""
        self.ble.pending.extend(data)
        await self.ble._flush()

    async def start(self):
        await self.stack.power_on()
        self.task = asyncio.create_task(Tasks(self.app).run())
        while self.ble.task is None:  # link() has registered the service and started advertising
            await asyncio.sleep(0.001)

    async def drop(self):
        """The radio link breaks (from the cup's side): the host sees a disconnection."""
        for conn in self.stack.connections:
            await conn.connection.disconnect()

    async def close(self):
        for task in (self.ble.task, self.task):
            if task is not None:
                task.cancel()
                try:
                    await task
                except BaseException:  # noqa: BLE001 - cancelled, or ended with the stack
                    pass
        await asyncio.sleep(0.005)
        await self.stack.close()


class Table:
    """n cups and a host central on one virtual link. ``secrets``: a secret (hex) or None per cup."""

    def __init__(self, n, names=None, seed=0, secrets=None):
        self.link = LocalLink()
        self.cups = [BleCup(self.link, i, name=(names[i] if names else ""), seed=seed * 100 + i,
                            secret=secrets[i] if secrets else None) for i in range(n)]
        self.central = central(self.link, "F0:F0:F0:F0:F0:F0", "host")
        self.device = self.central.device
        self._phones = 0

    async def start(self):
        await self.central.start()
        for c in self.cups:
            await c.start()

    async def add_cup(self, cup_id=None, secret=None, name=""):
        """One more cup on the link, started (e.g. another device calling itself by a known cup's id)."""
        rig = BleCup(self.link, len(self.cups), cup_id=cup_id, name=name, secret=secret)
        self.cups.append(rig)
        await rig.start()
        return rig

    async def phone(self):
        """Another central in radio range (a phone nearby), started; it knows no secret."""
        self._phones += 1
        c = central(self.link, "F2:F2:F2:F2:F2:%02X" % self._phones, "phone%d" % self._phones)
        await c.start()
        return c

    def transport(self, i, via=None, **kw):
        """A transport to cup i from the host (or the central ``via``), found by its cup id (by its address
        with ``address=True``)."""
        rig = self.cups[i]
        if kw.pop("address", False):
            return bumble_link(via or self.central, address=str(rig.address), **kw)
        return bumble_link(via or self.central, cup=rig.cup_id, **kw)

    async def close(self):
        for c in self.cups:
            await c.close()
