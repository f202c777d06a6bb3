"""The serial transport and discovery, against an emulated cup on a pseudo-terminal (pyserial opens it like a
USB port); port discovery with an injected port list, since pyserial does not list pseudo-terminals."""

import asyncio
from types import SimpleNamespace

import pytest

from schocken import protocol as P
from schocken_host.links import transport as T
from schocken_host.links.serial import SerialLink, likely_ports
from schocken_host.table.table_file import read_table
from schocken_host.table.seating import seeded_dice
from schocken_host.errors import CommandError

from conftest import micropython_path


def test_likely_ports_by_vendor_id():
    ports = [SimpleNamespace(device="/dev/ttyUSB0", vid=0x10C4), SimpleNamespace(device="/dev/ttyACM0", vid=0x2E8A),
             SimpleNamespace(device="/dev/ttyS0", vid=None), SimpleNamespace(device="/dev/ttyUSB1", vid=0x1234),
             SimpleNamespace(device="/dev/ttyUSB2", vid=0x303A), SimpleNamespace(device="/dev/ttyUSB3", vid=0x1A86),
             SimpleNamespace(device="/dev/ttyUSB4", vid=0x0403)]
    assert likely_ports(ports) == ["/dev/ttyUSB0", "/dev/ttyACM0", "/dev/ttyUSB2", "/dev/ttyUSB3", "/dev/ttyUSB4"]


def test_missing_port_is_a_clear_error():
    async def go():
        t = SerialLink("/dev/does-not-exist")
        with pytest.raises(T.TransportClosed) as e:
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
            ident = await T.hello(t)
            assert ident["cup"] == "emuT" and ident["v"] == P.VERSION
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
    assert got[2]["code"] == P.E_TOO_LONG


def test_table_file(tmp_path):
    path = tmp_path / "tisch.toml"
    path.write_text('rules = "verein"\n[[players]]\nname = "Anna"\nport = "/dev/ttyACM0"\n'
                    '[[players]]\nname = "Bert"\n', encoding="utf-8")
    data = read_table(path)
    assert [p["name"] for p in data["players"]] == ["Anna", "Bert"]
    bad = tmp_path / "bad.toml"
    bad.write_text('[[players]]\nport = "/dev/x"\n', encoding="utf-8")
    with pytest.raises(CommandError):
        read_table(bad)


def test_seeded_dice_are_a_function_of_round_seat_throw():
    d = seeded_dice(7)
    assert d(3, 1, 2, 3) == d(3, 1, 2, 3)
    assert all(1 <= x <= 6 for x in d(3, 1, 2, 3)) and len(d(3, 1, 2, 2)) == 2
    assert [d(r, 0, 1, 3) for r in range(1, 20)] != [d(r, 1, 1, 3) for r in range(1, 20)]


@pytest.mark.parametrize("lang,words", [("de", "Becher 2: Zufallsgenerator gestört"),
                                        ("en", "Cup 2: random number generator failed")])
def test_referee_tells_the_table_of_a_cup_whose_rng_failed(lang, words):
    """A cup that cannot roll (its RNG failed the health test) is never waited for in silence: the table reads
    why, in its language, the log has it as a fault of the cup, and the referee still takes its next message."""
    from schocken.rules import Rules
    from schocken_host.views.plain import PlainUI
    from schocken_host.table.referee import Referee
    from schocken_host.table.cuplinks import Seat
    from schocken_host.links.transport import Transport
    import io
    out = io.StringIO()
    link = Transport()
    seats = [Seat("Anna", None), Seat("Ben", link)]
    written = []
    log = type("Log", (), {"append": lambda self, ev: written.append(ev)})()
    ref = Referee(Rules("standard"), seats, log=log, ui=PlainUI(lang, out=out))

    async def main():
        link.queue = asyncio.Queue()
        seats[1].inbox = asyncio.Queue()
        pump = asyncio.create_task(ref._pump(1, seats[1].link))
        await link.queue.put(P.error(P.E_RNG, "repetition count test failed"))
        await link.queue.put({"t": "done", "round": 1, "throws": 1, "commit": "ab" * 32})
        try:
            return await ref.wait_for(1, lambda m: m if m["t"] == "done" else None)
        finally:
            pump.cancel()
    assert asyncio.run(main())["t"] == "done"
    assert [e["ev"] for e in written] == ["fault"] and "repetition count test failed" in written[0]["reason"]
    assert words in out.getvalue() and "repetition count test failed" in out.getvalue()
