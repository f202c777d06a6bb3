"""BLE bench on bumble's virtual link (no radio): message round trip and connect time for 1 and 8 cups.

    .venv/bin/python bench/ble.py [--quick]

The cups are the unchanged cup app with the firmware's BLE link (firmware/boards/ble.py) on the aioble shim
(tests/kits/aioble_shim.py); the host is a bumble link (host_tools/schocken_host/links/ble_bumble.py); all in
one process (tests/kits/blekit.py). The figures measure the software path (two BLE host stacks, the GATT
server, the cup app, the transports) on this PC: a radio adds the connection interval (7.5 ms and up) to every
round trip and the advertising interval (here 20 ms) plus the scan to every connect.

- round trip: ``status`` -> ``status`` (one fragment each way) and a 900-byte ``hello`` -> ``identity`` (four
  writes of 244 bytes), median and 95th percentile of N, MTU 247; also at MTU 23 (20-byte fragments).
- connect: ``open()`` of a fresh transport = scan for the cup id, connect, MTU exchange, service discovery,
  subscribe; then ``hello``. One cup; eight cups one after another; eight cups at once (asyncio.gather).
"""

import asyncio
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from kits import blekit  # noqa: E402
from schocken import bleformat, protocol  # noqa: E402
from schocken_host.links.transport import hello  # noqa: E402


def ms(values):
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(len(values) * 0.95))]
    return "median %.2f ms, p95 %.2f ms (n=%d)" % (statistics.median(values) * 1000, p95 * 1000, len(values))


async def expect(t, kind):
    while True:
        msg = await t.recv(5)
        if msg["t"] == kind:
            return msg


async def round_trips(n):
    out = {}
    for mtu in (bleformat.WANT_MTU, None):
        table = blekit.Table(1)
        table.central.mtu = mtu
        await table.start()
        try:
            t = table.transport(0)
            await t.open()
            await hello(t)
            big_hello = {"t": "hello", "v": protocol.VERSION, "pad": "x" * 880}
            for label, msg, kind in (("status", {"t": "status"}, "status"),
                                     ("hello 900 B", big_hello, "identity")):
                times = []
                for _ in range(n):
                    t0 = time.perf_counter()
                    await t.send(msg)
                    await expect(t, kind)
                    times.append(time.perf_counter() - t0)
                out[(mtu or 23, label)] = times
            await t.aclose()
        finally:
            await table.close()
    return out


async def connects(n_cups, parallel, repeats):
    times = []
    for _ in range(repeats):
        table = blekit.Table(n_cups)
        await table.start()
        try:
            await asyncio.sleep(0.05)  # advertising under way, as for cups lying on the table
            ts = [table.transport(i) for i in range(n_cups)]
            t0 = time.perf_counter()
            if parallel:
                await asyncio.gather(*(t.open() for t in ts))
                await asyncio.gather(*(hello(t) for t in ts))
            else:
                for t in ts:
                    await t.open()
                    await hello(t)
            times.append(time.perf_counter() - t0)
            for t in ts:
                await t.aclose()
        finally:
            await table.close()
    return times


async def main(quick):
    n = 50 if quick else 300
    repeats = 3 if quick else 10
    print("BLE over bumble's virtual link (one process, CPython %d.%d)" % sys.version_info[:2])
    for (mtu, label), times in (await round_trips(n)).items():
        print("round trip, MTU %3d, %-12s %s" % (mtu, label + ":", ms(times)))
    for n_cups, parallel in ((1, False), (8, False), (8, True)):
        times = await connects(n_cups, parallel, repeats)
        what = "1 cup" if n_cups == 1 else "%d cups %s" % (n_cups, "at once" if parallel else "one by one")
        print("connect + hello, %-18s %s" % (what + ":", ms(times)))


if __name__ == "__main__":
    asyncio.run(main("--quick" in sys.argv))
