"""The serial link (links/serial.py) against an emulated cup on a pseudo-terminal (pyserial opens it like a
USB port), and port discovery with an injected port list, since pyserial does not list pseudo-terminals."""

import asyncio
from types import SimpleNamespace

import pytest

from schocken import protocol
from schocken_host.links import transport
from schocken_host.links.serial import SerialLink, likely_ports

from conftest import micropython_path


def test_likely_ports_by_vendor_id():
    ports = [SimpleNamespace(device="/dev/ttyUSB0", vid=0x10C4),
             SimpleNamespace(device="/dev/ttyACM0", vid=0x2E8A),
             SimpleNamespace(device="/dev/ttyS0", vid=None),
             SimpleNamespace(device="/dev/ttyUSB1", vid=0x1234),
             SimpleNamespace(device="/dev/ttyUSB2", vid=0x303A),
             SimpleNamespace(device="/dev/ttyUSB3", vid=0x1A86),
             SimpleNamespace(device="/dev/ttyUSB4", vid=0x0403)]
    assert likely_ports(ports) == ["/dev/ttyUSB0", "/dev/ttyACM0", "/dev/ttyUSB2", "/dev/ttyUSB3",
                                   "/dev/ttyUSB4"]


def test_missing_port_is_a_clear_error():
    async def go():
        t = SerialLink("/dev/does-not-exist")
        with pytest.raises(transport.TransportClosed) as e:
            await t.open()
        assert "/dev/does-not-exist" in str(e.value)
    asyncio.run(go())


@pytest.mark.skipif(micropython_path() is None, reason="needs the micropython unix port")
def test_hello_noise_and_garbage_over_a_pty():
    from schocken_host.emulation.emulator import EmulatedCup

    async def go(cup):
        t = SerialLink(cup.port)
        await t.open()
        try:
            ident = await transport.hello(t)
            assert ident["cup"] == "emuT" and ident["v"] == protocol.VERSION
            await t.send({"t": "status"})
            status = await t.recv(5)
            assert status["t"] == "status" and status["state"] == "idle"
        finally:
            t.close()

    cup = EmulatedCup("emuT", "Tina")
    try:
        asyncio.run(go(cup))
    finally:
        cup.close()


def test_reader_skips_noise_and_reports_garbage(monkeypatch):
    """What a cup writes that is not a message: boot noise is skipped, a broken message is reported."""
    got = []

    class FakeSerial:
        chunks = [b"MicroPython v1.29 on 2026-08-29\r\n>>> ", b'{"t": "ok", "re": "x"}\n', b'{"t": "ok"\n',
                  b"{" + b"x" * 2000 + b"}\n", b'{"t": "error", "code": "c", "msg": "m"}\n']

        def __init__(self):
            self.in_waiting = 0

        def read(self, n):
            if self.chunks:
                return self.chunks.pop(0)
            raise OSError("unplugged")

    t = SerialLink("fake")
    t.serial = FakeSerial()
    t._put = got.append
    t._reader()
    kinds = [m["t"] if isinstance(m, dict) else "closed" for m in got]
    assert kinds == ["ok", "garbage", "garbage", "error", "closed"]
    assert got[2]["code"] == protocol.E_TOO_LONG
