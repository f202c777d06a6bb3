"""The serial link (links/serial.py) against an emulated cup on a pseudo-terminal (pyserial opens it like a
USB port), and port discovery with an injected port list, since pyserial does not list pseudo-terminals."""

import asyncio
import json
import os
import time
from types import SimpleNamespace

import pytest

from schocken import protocol
from schocken_host.links import transport
from schocken_host.links.serial import SerialLink, likely_ports

from conftest import micropython_path
from kits import tablekit
from kits.netkit import send_into_a_stall
from kits.tablekit import one_line


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


@pytest.mark.skipif(micropython_path() is None, reason="needs the micropython unix port")
def test_hello_after_a_host_that_left_half_a_line_in_the_cup():
    """A host before this one was cut off in the middle of a line (its link dropped, the bridge stalled): the
    cup holds half a line. The next host's hello must not be glued to it (a garbled line, no identity within
    hello's two seconds: a cup not found, a table that does not start)."""
    import serial
    from schocken_host.emulation.emulator import EmulatedCup

    async def go(cup):
        t = SerialLink(cup.port)
        await t.open()
        try:
            assert (await transport.hello(t))["cup"] == "emuH"
        finally:
            t.close()

    cup = EmulatedCup("emuH", "Hanna")
    try:
        with serial.Serial(cup.port, timeout=0) as port:
            port.write(b'{"t": "status", "pad": "' + b"x" * 400)   # no end: the link went away here
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


@pytest.mark.parametrize("text", ["a\\udc00", "\\ud800", "\\u001b[2J", "A\\nB", "\\u0000", "\\u009b31m",
                                  "x\\u007f", "\\u202eannA", "A\\u2028B", "A\\u200bB", "\\ufeffA",
                                  "\\u2066A", "A\\u061cB"])
def test_a_cup_string_with_a_control_character_or_half_a_pair_is_garbage(text):
    """JSON can escape what no terminal line, view or UTF-8 log line should take from a cup: a terminal's
    control sequence in a name, a newline in a message that the plain view prints as one line, a direction
    override that shows the rest of a line backwards, half a UTF-16 pair that UTF-8 cannot hold. Such a
    message is garbage of its cup; an error text quoting one (an unknown type) carries it escaped; real text
    passes, escaped or not."""
    from schocken_host.links.transport import Transport
    def identity(name):
        return Transport._line_item(('{"t": "identity", "cup": "c1", "name": "%s", "v": 1, "board": "b", '
                                     '"fw": "1", "presets": []}' % name).encode())
    assert identity("Anna \\u00e4")["name"] == "Anna ä"
    named = identity(text)
    assert named["t"] == "garbage" and named["code"] == protocol.E_BAD_MESSAGE
    unknown = Transport._line_item(('{"t": "%s", "round": 1}' % text).encode())
    assert unknown["t"] == "garbage" and unknown["msg"].isprintable()
    json.dumps(unknown, ensure_ascii=False).encode("utf-8")   # a log line can hold it
    # JSON takes these unescaped too: DEL and C1, a right-to-left override (shows the rest of a line
    # backwards), a line separator, a zero-width space, a byte order mark
    for raw in ("x\x7fy", "x\x9by", "x\u202ey", "x\u2028y", "x\u200by", "x\ufeffy"):
        assert identity(raw)["t"] == "garbage", repr(raw)
    fine = Transport._line_item('{"t": "progress", "round": 1, "throws": 1, "public": [], '
                                '"event": "J\\u00fcrgen \\ud83c\\udfb2 \\"x\\" ü – „so“ …"}'.encode())
    assert fine["event"] == 'Jürgen \U0001f3b2 "x" ü – „so“ …'


def test_a_cup_that_takes_no_bytes_is_gone_within_the_write_timeout_and_never_blocks_the_loop(monkeypatch):
    """Lines go out on the event loop itself (no thread per write): a port whose other side reads nothing
    fills up, and then the send that finds no room ends in TransportClosed after WRITE_TIMEOUT, while the
    loop keeps running (other cups' lines, the view) all along."""
    import os
    from schocken_host.links import serial as serial_link
    monkeypatch.setattr(serial_link, "WRITE_TIMEOUT", 0.5)
    master, slave = os.openpty()  # the "cup": holds its end open and never reads

    async def go():
        link = SerialLink(os.ttyname(slave))
        await link.open()
        return await send_into_a_stall(link)
    try:
        sent, ended, longest_gap, why = asyncio.run(go())
    finally:
        os.close(master)
        os.close(slave)
    assert sent > 0 and ended < 25, (sent, ended)   # the port took lines until it was full, then gave up
    assert "no bytes" in why, why
    assert longest_gap < 0.3, longest_gap            # the loop never stood still for a write


def test_the_loop_reads_the_port_and_a_vanished_cup_ends_the_link():
    """No reader thread for a port with a descriptor: the loop reads it. Lines split across reads come whole,
    noise is skipped, and when the other side goes away (a pulled cable: EIO) recv raises TransportClosed."""
    import os
    import threading
    master, slave = os.openpty()

    async def go():
        link = SerialLink(os.ttyname(slave))
        threads = threading.active_count()
        await link.open()
        try:
            assert link.thread is None and threading.active_count() == threads
            os.write(master, b'>>> {"t": "ok", "re": "x"}\n{"t": "er')
            assert (await link.recv(5)) == {"t": "ok", "re": "x"}
            os.write(master, b'ror", "code": "c", "msg": "m"}\n')
            assert (await link.recv(5))["t"] == "error"
            os.close(master)
            with pytest.raises(transport.TransportClosed):
                await link.recv(5)
        finally:
            link.close()
    try:
        asyncio.run(go())
    finally:
        os.close(slave)


class FakeCup:
    """The far end of a pseudo-terminal as a cup that never says who it is: "mute" answers nothing, "chatter"
    answers every line with an ``ok`` and sends one more every 0.3 s (each used to start the hello's 2 s
    again, so the host waited for ever)."""

    def __init__(self, mode):
        import pty
        import threading
        self.master, slave = pty.openpty()
        self.port = os.ttyname(slave)
        self.slave = slave
        self.mode = mode
        self.stop = threading.Event()
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self):
        import select
        while not self.stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.3)
            try:
                if ready:
                    os.read(self.master, 4096)
                if self.mode == "chatter":
                    os.write(self.master, b'{"t": "ok", "re": "hello"}\n')
            except OSError:
                return

    def close(self):
        self.stop.set()
        os.close(self.slave)


@pytest.mark.skipif(micropython_path() is None, reason="needs the micropython unix port")
@pytest.mark.parametrize("mode", ["mute", "chatter"])
def test_a_cup_that_never_says_who_it_is_is_named_alone_and_play_ends(tmp_path, mode):
    """At the start of a game, a cup that answers nothing, or anything but its identity, ends `play` within
    the hellos' bound, in one line naming that cup and not the honest emulated cup beside it."""
    fake = FakeCup(mode)
    env = dict(os.environ, SCHOCKEN_LOG_DIR=str(tmp_path / "logs"))
    env.pop("SCHOCKEN_DEBUG", None)
    try:
        start = time.monotonic()
        r = tablekit.schocken("--lang", "en", "play", "--plain", "--port", fake.port, "--emulate", 1,
                              "--bots", 1, env=env, timeout=60)
        took = time.monotonic() - start
    finally:
        fake.close()
    line = one_line(r)
    assert r.returncode == 2 and fake.port in line and "does not answer" in line, line
    assert "emu" not in line and line.count("/dev/") == 1, line
    assert took < 45, took
    assert not list((tmp_path / "logs").glob("*.jsonl"))
