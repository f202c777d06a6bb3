"""A table of cups over a virtual BLE link, for tests/test_ble.py and bench/ble.py.

Each cup is the unchanged cup app (``cup.app.App``) on the emulated board, whose ``link()`` is the firmware's
BLE link (``firmware/boards/ble.py``) running on ``tests/aioble_shim.py`` (aioble on bumble). The host is one
bumble device (``schocken_host.ble.BumbleCentral``) with a ``BumbleTransport`` per cup. All bumble
controllers sit on one ``bumble.link.LocalLink`` in this process.
"""

import asyncio
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
for _p in (REPO / "firmware", REPO / "firmware" / "lib", REPO / "tests"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from bumble.controller import Controller  # noqa: E402
from bumble.device import Device  # noqa: E402
from bumble.hci import Address  # noqa: E402
from bumble.host import Host  # noqa: E402
from bumble.link import LocalLink  # noqa: E402
from bumble.transport.common import AsyncPipeSink  # noqa: E402

from aioble_shim import Stack  # noqa: E402
from boards import ble as board_ble  # noqa: E402
from boards import emulated  # noqa: E402
from cup.app import App  # noqa: E402
from schocken_host.ble import BumbleCentral, BumbleTransport  # noqa: E402

ADV_INTERVAL_US = 20000   # 20 ms, the shortest legal advertising interval: quick (re)connects in tests


class BleCup:
    def __init__(self, link, index, cup_id=None, name="", seed=None, battery_mv=3900):
        self.index = index
        self.cup_id = cup_id or "ble%d" % (index + 1)
        address = "F1:00:00:00:%02X:%02X" % (index >> 8, index & 0xFF)
        self.stack = Stack(link, address, name=self.cup_id)
        rnd = random.Random(seed if seed is not None else index)
        self.board = emulated.make_board(urandom=lambda n: bytes(rnd.getrandbits(8) for _ in range(n)),
                                         battery_mv=battery_mv)
        config = {"cup_id": self.cup_id, "name": name}
        self.ble = board_ble.attach(self.board, config, aioble=self.stack, bluetooth=self.stack.bluetooth)
        self.ble.interval_us = ADV_INTERVAL_US
        self.app = App(self.board, config)
        self.task = None

    @property
    def cup(self):
        return self.app.cup

    async def start(self):
        await self.stack.power_on()
        self.task = asyncio.create_task(self.app.run())
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
    """n cups and a host central on one virtual link."""

    def __init__(self, n, names=None, seed=0):
        self.link = LocalLink()
        self.cups = [BleCup(self.link, i, name=(names[i] if names else ""), seed=seed * 100 + i)
                     for i in range(n)]
        address = "F0:F0:F0:F0:F0:F0"
        controller = Controller("host", link=self.link, public_address=address)
        self.device = Device(address=Address(address), host=Host(controller, AsyncPipeSink(controller)))
        self.central = BumbleCentral(self.device)

    async def start(self):
        await self.central.start()
        for c in self.cups:
            await c.start()

    def transport(self, i, **kw):
        return BumbleTransport(self.central, cup=self.cups[i].cup_id, **kw)

    async def close(self):
        for c in self.cups:
            await c.close()
