"""A reconnecting flood against a real host's page (issue 47), measured in the kernel: `schocken play --plain
--web 127.0.0.1:0` as a subprocess (tests/kits/hostile.PlayHost) and guests from many loopback addresses
(tests/kits/flood.py). What the server's process frees is not the measure: its sockets as /proc/net/tcp lists
them are, the listen queue as the kernel holds it, and each connect's SYN retransmits. bench/web_flood.py
measures the same floods with the game's pace and the page's load times (a pace is a time: on a machine
shared with other work it is a bench's figure, not a test's; tests/test_web_guard.py checks how the pages'
wakes keep to their share of the loop)."""

import asyncio
import time

import pytest

from kits import flood, hostile
from kits.hostile import PlayHost, guest_addresses, http_request

try:  # the defences' numbers, where the server has them (views/web/guard.py; issue 47's values otherwise)
    from schocken_host.views.web import guard
except ImportError:
    guard = None
WRITE_S = getattr(guard, "WRITE_S", 10.0)
MAX_CONNECTIONS = guard.MAX_CONNECTIONS
MAX_SUBSCRIBERS = guard.MAX_SUBSCRIBERS

PAGES = 256             # the guest: 256 pages every 11 s from 100 addresses
EVERY_S = 11.0
SLACK_S = 3.0           # a server's timer may fire this late on a loaded machine and still be right


@pytest.fixture(scope="module")
def host(tmp_path_factory, micropython):
    hostile.raise_open_files()
    h = PlayHost(tmp_path_factory.mktemp("flood"), hostile.LONG_GAME)
    try:
        yield h
    finally:
        h.stop()


async def unread(port, path, source):
    """GET ``path`` with Connection: close and a small receive window, never read: the server ends the
    response into its send queue and closes."""
    sock = await hostile.connect(port, source, hostile.SINK_RCVBUF)
    sock.send(http_request("GET", path, port))
    return sock


def test_pages_that_never_read_are_reset_and_the_kernel_holds_nothing_of_them(host):
    # The guest: 256 pages that never read every 11 s from 100 addresses, held open; beside it,
    # responses the server ends and closes into a shut window (the page's script, its style).
    hoarder = flood.Hoarder(host.port, guest_addresses(100, net=47), PAGES, EVERY_S)
    sources = guest_addresses(8, net=46)
    graceful = []

    async def attack():
        for path, source in zip(["/static/app.js", "/static/style.css"] * 4, sources):
            graceful.append(await unread(host.port, path, source))
        await hoarder.run(waves=2)
        # the second wave let go by the guard (WRITE_S after it last took anything); what was closed behind
        # unread data given up by the kernel (WRITE_S after the close)
        end = time.monotonic() + WRITE_S + SLACK_S + 6.0
        await asyncio.sleep(WRITE_S + SLACK_S)
        view = flood.kernel_view(host.port)
        while (view.fin_wait1 or view.held) and time.monotonic() < end:
            await asyncio.sleep(0.5)
            view = flood.kernel_view(host.port)
        return view

    try:
        view = asyncio.run(attack())
        guests = hoarder.states()
    finally:
        hoarder.close()
        for sock in graceful:
            sock.close()
    said = "%s; the guest's sockets: %s" % (view.said(), dict(guests))
    assert hoarder.waves == 2 and not hoarder.failed, (hoarder.failed, said)
    # nothing the kernel holds for a guest who is gone: no socket waits to send behind a shut window
    assert view.fin_wait1 == 0 and view.held == 0, said
    # the pages the guard let go were reset: the guest's side of each is closed, not waiting for a FIN
    assert guests["CLOSE"] >= MAX_SUBSCRIBERS, said
    assert host.playing(), host.text()[-2000:]


@pytest.mark.parametrize("in_flight", [8, 32])
def test_a_burst_of_connects_within_the_caps_waits_in_the_listen_queue(host, in_flight):
    # The listen queue holds as many connects as the server holds connections (asyncio's default is 100):
    # a burst of them within the caps, from 100 addresses, waits for the server's accept instead of being
    # dropped by the kernel (a dropped connect is retried after 1 s). A fresh page loads in the middle.
    assert flood.listen_backlog(host.port) in (None, min(MAX_CONNECTIONS, flood.somaxconn()))
    burst = flood.Connector(host.port, guest_addresses(100, net=45 - in_flight // 8), in_flight, hold=True)
    count = MAX_CONNECTIONS - 64       # a page's own connections and a hoarder's leftovers fit beside it

    async def attack():
        connects = asyncio.create_task(burst.run(seconds=15.0, count=count))
        await asyncio.sleep(0)
        page = await hostile.page_load(host.port, "127.44.%d.1" % in_flight, timeout=10.0)
        await connects
        return page

    try:
        page = asyncio.run(attack())
    finally:
        burst.close()
    assert burst.connects.made == count and burst.connects.retried == 0, burst.connects.said()
    assert page.ok and page.syn_retransmits == 0, page
    assert host.playing(), host.text()[-2000:]
