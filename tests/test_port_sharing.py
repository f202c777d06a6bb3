"""A port's path is a name the system hands out again: the host holds a port only while the cup behind it is
its seat's, waits a bounded moment on a port another program holds (ModemManager probing a new USB port,
another host's search), and never looks for an unplugged emulated cup at its old path, which may name another
cup's pseudo-terminal by then (a run of the suite found one host locked out of its cup that way)."""

import asyncio
import fcntl
import os
import pty

import pytest

from schocken.rules import Rules
from schocken_host.links import serial as serial_link
from schocken_host.links.serial import SerialLink
from schocken_host.links.transport import TransportClosed
from schocken_host.table.cuplinks import CupLinks
from schocken_host.table.seating import Seat, _reopen
from schocken_host.table.sink import EventSink
from schocken_host.table.state import TableState
from schocken_host.table.view import View

from conftest import micropython_path

needs_micropython = pytest.mark.skipif(micropython_path() is None, reason="needs the micropython unix port")


class Quiet(View):
    lang = "en"

    def note(self, text):
        pass

    def update(self, state, ev):
        pass

    def refused(self, seat, reason):
        pass

    def append(self, ev):
        pass

    async def on_disk(self):
        pass


def held(path):
    """The port opened and locked as pyserial locks it (another host, another program)."""
    fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fd


def free(path):
    """Whether nobody holds the port's lock."""
    fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


@pytest.fixture
def a_pty():
    master, slave = pty.openpty()
    yield os.ttyname(slave)
    os.close(master)
    os.close(slave)


def test_a_port_held_a_moment_opens_once_it_is_let_go(a_pty):
    holder = held(a_pty)

    async def go():
        asyncio.get_running_loop().call_later(0.4, os.close, holder)
        link = SerialLink(a_pty)
        await link.open()
        link.close()
    asyncio.run(go())


def test_a_port_held_for_good_is_one_clear_error_after_a_bounded_wait(a_pty, monkeypatch):
    monkeypatch.setattr(serial_link, "BUSY_WAIT", 0.3)
    holder = held(a_pty)
    try:
        with pytest.raises(TransportClosed) as e:
            asyncio.run(SerialLink(a_pty).open())
        assert str(e.value).startswith("cannot open %s: " % a_pty) and "lock" in str(e.value)
        assert "\n" not in str(e.value)
    finally:
        os.close(holder)


@needs_micropython
def test_a_port_whose_cup_is_not_the_seats_is_let_go_at_once():
    from schocken_host.emulation.emulator import EmulatedCup
    cup = EmulatedCup("emuP", "Paul")
    try:
        seat = Seat("Anna", SerialLink(cup.port), kind="human")
        seat.link.identity = {"cup": "emuA"}   # the seat's cup was another one
        view = Quiet()
        links = CupLinks([seat], EventSink(TableState(), view, view), Rules("standard"), lambda s: None)
        with pytest.raises(TransportClosed) as e:
            asyncio.run(links.connect(0))
        assert "emuP" in str(e.value)
        assert free(cup.port)    # the other cup's host can open it now, not after the next try
    finally:
        cup.close()


@needs_micropython
def test_an_unplugged_emulated_cup_is_not_looked_for_at_its_old_path():
    from schocken_host.emulation.emulator import EmulatedCup
    cup = EmulatedCup("emuU", "Uwe")
    old = cup.port
    reconnect = _reopen(cup)
    try:
        cup.unplug()
        master, slave = pty.openpty()     # the system may give the freed name to the next pseudo-terminal
        try:
            with pytest.raises(TransportClosed) as e:
                asyncio.run(reconnect())
            assert "unplugged" in str(e.value)
            if os.ttyname(slave) == old:
                assert free(old)
        finally:
            os.close(master)
            os.close(slave)
    finally:
        cup.close()
