"""A cup's refusals on the wire (protocol version 2: by number, an error's ``why``) and what the host makes of
them: the reason in the person's language, through the real path (the serial link, the transport, the seat's
pump, the event sink, the view). A cup of version 1 (English prose, its own identity) is still understood, and
a cup of version 2 answers a hello of version 1 with ``bad_version`` in words an older host can show."""

import asyncio
import json
import os
import threading
import time

import pytest

from schocken import hostside, protocol
from schocken.rules import Rules
from schocken_host.links import transport
from schocken_host.links.serial import SerialLink
from schocken_host.table.cuplinks import CupLinks
from schocken_host.table.seating import Seat
from schocken_host.table.sink import EventSink
from schocken_host.table.view import View
from schocken_host.table.state import TableState

from kits.cupkit import CupDriver


class ReasonsView(View):
    """A view that keeps the reasons it is shown."""

    def __init__(self, lang):
        self.lang = lang
        self.reasons = []

    def note(self, text):
        pass

    def update(self, state, ev):
        pass

    def refused(self, seat, reason):
        self.reasons.append((seat, reason))
        return True


class Log:
    def append(self, ev):
        pass

    async def on_disk(self):
        pass


async def _refused_reason(port, lang, act):
    """Seat 0 (a person) on the cup at ``port``: connected as a game does, ``act()`` makes the cup refuse
    something; returns (the identity, the reason the view was shown)."""
    view = ReasonsView(lang)
    seat = Seat("Anna", SerialLink(port), kind="human")
    links = CupLinks([seat], EventSink(TableState(), Log(), view), Rules("standard"), lambda s: None)
    try:
        await links.connect(0)
        await asyncio.to_thread(act)
        loop = asyncio.get_running_loop()
        end = loop.time() + 20
        while not view.reasons and loop.time() < end:
            await asyncio.sleep(0.05)
        return seat.link.identity, view.reasons
    finally:
        links.close()


def _error_line(cup):
    """The next error on the cup's link as it came (tests/kits/cupkit.py puts a why into words)."""
    end = time.monotonic() + 20
    while time.monotonic() < end:
        line = cup.lines.next(end - time.monotonic())
        if line and not hostside.is_noise(line):
            msg = protocol.decode(line, hostside.CUP_TO_HOST)
            if msg["t"] == "error":
                return msg
    raise AssertionError("no error from the cup")


def test_a_cup_refuses_by_number_and_the_host_says_why_in_both_languages(micropython):
    from schocken_host.emulation.emulator import EmulatedCup
    cup = CupDriver()
    try:
        cup.cup.shake(400)                                         # not on turn
        assert _error_line(cup) == {"t": "error", "code": protocol.E_REFUSED, "re": "input",
                                    "why": ["cup.texts", 0]}       # the number alone: no text on the cup
        cup.start()
        cup.request(t="turn", round=1, limit=None)
        cup.throw(1, 4, 2)
        cup.cup.hold(1, 60)            # a tap in the cup's own time: however late this process runs
        cup.recv("progress")
        cup.throw(5, 5)
        cup.cup.hold(1, 60)                                        # set aside for good: the rules refuse
        err = cup.recv("error")
        assert err["why"] == ["schocken.texts", 11, 2], err
        # in the host's words (the firmware's English, tests/kits/cupkit.py as links/transport.py)
        assert err["msg"] == "die 2 was set aside for good and never goes back into the cup"
    finally:
        cup.close()
    emu = EmulatedCup("emuR", "Rita")
    try:
        for lang, words in (("de", "nicht dein Zug"), ("en", "not your turn")):
            ident, reasons = asyncio.run(_refused_reason(emu.port, lang, lambda: emu.shake(400)))
            assert ident["v"] == protocol.VERSION == 2
            assert reasons == [(0, words)], reasons
    finally:
        emu.close()


def test_a_line_the_cup_cannot_read_is_answered_by_number_too(micropython):
    """A broken line, a message without a field, an overlong line: the cup names the text by number (it loads
    no texts for a line it cannot read) and the host puts it into the firmware's words."""
    cup = CupDriver()
    try:
        cup.send_raw(b"{nope\n")
        assert _error_line(cup) == {"t": "error", "code": protocol.E_BAD_JSON, "why": ["schocken.texts", 45]}
        cup.send_raw(b'{"t": "turn"}\n')
        assert _error_line(cup) == {"t": "error", "code": protocol.E_BAD_MESSAGE,
                                    "why": ["schocken.texts", 41, "turn", "round"]}
        cup.send_raw(b"x" * (protocol.MAX_LINE + 10) + b"\n")
        err = _error_line(cup)
        assert err["code"] == protocol.E_TOO_LONG and err["why"][0] == "cup.texts" and "msg" not in err, err
        cup.send_raw(b"{nope\n")
        assert cup.recv("error")["msg"] == "line is not JSON"    # in words, as links/transport.py reads it
        cup.start()                                                   # and the cup plays on
    finally:
        cup.close()


def test_a_cup_of_version_2_answers_a_hello_of_version_1_in_words(micropython):
    cup = CupDriver()
    try:
        err = cup.request("error", t="hello", v=1)
        assert err == {"t": "error", "code": protocol.E_VERSION, "re": "hello",
                       "msg": "protocol version 1, cup speaks 2"}, err
        assert cup.request("identity", t="hello", v=2)["v"] == 2
    finally:
        cup.close()


class OldCup:
    """A cup of protocol version 1 at the far end of a pseudo-terminal: ``bad_version`` to any other hello,
    its refusals in English, an ``event`` in its progress."""

    def __init__(self):
        self.master, self.slave = os.openpty()
        self.port = os.ttyname(self.slave)
        self.heard = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def write(self, msg):
        os.write(self.master, (json.dumps(msg) + "\n").encode())

    def _serve(self):
        buf = b""
        while True:
            try:
                data = os.read(self.master, 1024)
            except OSError:
                return
            if not data:
                return
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                if line.strip():
                    self._answer(json.loads(line))

    def _answer(self, msg):
        self.heard.append(msg)
        kind = msg["t"]
        if kind == "hello" and msg["v"] != 1:
            self.write({"t": "error", "code": "bad_version", "re": "hello",
                        "msg": "protocol version %d, cup speaks 1" % msg["v"]})
        elif kind == "hello":
            self.write({"t": "identity", "v": 1, "cup": "old1", "name": "", "fw": "0.0.9", "board": "pico_w",
                        "battery": None, "presets": ["standard"]})
        elif kind == "status":
            self.write({"t": "status", "state": "idle", "round": None, "throws": 0, "public": [],
                        "seat": None, "name": "", "id": msg.get("id")})
        elif kind == "configure":
            self.write({"t": "ok", "re": "configure", "name": msg["name"], "seat": msg["seat"]})

    def refuse(self):
        self.write({"t": "progress", "round": 1, "throws": 1, "public": [[1, 1]], "event": "aside"})
        self.write({"t": "error", "code": "refused", "re": "input", "msg": "die 2 is already set aside"})

    def close(self):
        os.close(self.slave)
        os.close(self.master)


@pytest.mark.parametrize("lang, words", [("de", "Würfel 2 liegt schon draußen"),
                                         ("en", "die 2 is set aside already")])
def test_a_cup_of_version_1_is_still_understood(lang, words):
    old = OldCup()
    try:
        ident, reasons = asyncio.run(_refused_reason(old.port, lang, old.refuse))
        assert ident["v"] == 1 and ident["cup"] == "old1"
        assert [m["v"] for m in old.heard if m["t"] == "hello"] == [2, 1]   # asked in 2, then once in 1
        assert reasons == [(0, words)], reasons
    finally:
        old.close()


def test_the_transport_puts_a_why_into_words_and_refuses_a_bad_one():
    item = transport.Transport._line_item(b'{"t": "error", "code": "refused", "re": "input", '
                                          b'"why": ["schocken.texts", 16, 2, 5]}')
    assert item["msg"] == "die 2 shows 5, not a six" and item["why"] == ["schocken.texts", 16, 2, 5]
    for why in ('["elsewhere", 1]', '["cup.texts"]', '["cup.texts", -1]', '["cup.texts", true]', '"x"'):
        item = transport.Transport._line_item(('{"t": "error", "code": "refused", "why": %s}' % why).encode())
        assert item["t"] == "garbage", (why, item)
    assert transport.Transport._line_item(b'{"t": "error", "code": "refused"}')["t"] == "garbage"
