"""The referee (table/referee.py) on its own, with a fake link and no cup: what it tells the table."""

import asyncio
import io

import pytest

from schocken import protocol
from schocken.rules import Rules
from schocken_host.views.plain import PlainUI
from schocken_host.table.referee import Referee
from schocken_host.table.state import LOG_VERSION
from schocken_host.table.seating import Seat
from schocken_host.links.transport import Transport
from schocken_host.table.view import View


class MemoryLog:
    """A game log in a list: on disk at once."""
    def __init__(self, written=None):
        self.written = [] if written is None else written

    def append(self, ev):
        self.written.append(ev)

    async def on_disk(self):
        pass


@pytest.mark.parametrize("lang,words,code,text", [
    ("de", "Becher 2: Zufallsgenerator gestört", protocol.E_RNG, "repetition count test failed"),
    ("en", "Cup 2: random number generator failed", protocol.E_RNG, "repetition count test failed"),
    ("de", "Becher 2 meldet einen Fehler", protocol.E_INTERNAL, "state not saved: the flash refused it"),
    ("en", "Cup 2 reports an error", protocol.E_INTERNAL, "MemoryError: memory allocation failed")])
def test_referee_tells_the_table_of_a_cup_in_trouble(lang, words, code, text):
    """A cup that cannot roll (its RNG failed the health test) is never waited for in silence, nor is one that
    says it is in trouble of its own (an ``internal`` error answering nothing: a bug it survived, a flash that
    refused its state): the table reads it, in its language, the log has it as a fault of the cup, and the
    referee still takes its next message."""
    out = io.StringIO()
    link = Transport()
    seats = [Seat("Anna", None), Seat("Ben", link)]
    written = []
    log = MemoryLog(written)
    ref = Referee(Rules("standard"), seats, log=log, ui=PlainUI(lang, out=out))

    async def main():
        link.queue = asyncio.Queue()
        seats[1].link.inbox = asyncio.Queue()
        pump = asyncio.create_task(ref.links._pump(1, seats[1].link.connection))
        await link.queue.put(protocol.error(code, text, None))
        await link.queue.put({"t": "done", "round": 1, "throws": 1, "commit": "ab" * 32})
        try:
            return await ref.links.wait_for(1, lambda m: m if m["t"] == "done" else None)
        finally:
            pump.cancel()
    assert asyncio.run(main())["t"] == "done"
    assert [e["ev"] for e in written] == ["fault"] and text in written[0]["reason"]
    assert words in out.getvalue() and text in out.getvalue()


def test_whatever_a_cup_hears_of_is_on_disk_first():
    """The log syncs before every message to a cup: the turn, the nonce, the outcome's round are never known
    to a cup and lost to the record (a burst of events shares one fsync, tests/test_gamelog.py)."""
    steps = []

    class Log:
        def append(self, ev):
            steps.append(("append", ev["ev"]))

        async def on_disk(self):
            steps.append(("sync",))

    class Link(Transport):
        async def send(self, msg):
            steps.append(("send", msg["t"]))
    seats = [Seat("Anna", Link()), Seat("Ben", Link())]
    ref = Referee(Rules("standard"), seats, log=Log(), ui=PlainUI("en", out=io.StringIO()))

    async def main():
        ref.emit({"ev": "start", "version": LOG_VERSION, "game_id": "0123456789ab",
                  "rules": Rules("standard").to_dict(), "reveal": "all", "cheat": "replay", "fair": False,
                  "players": [{"seat": i, "name": s.name, "cup": "emu%d" % i, "kind": "cup"}
                              for i, s in enumerate(seats)]})
        await ref.links.send(1, {"t": "status", "id": 1})
    asyncio.run(main())
    assert steps == [("append", "start"), ("sync",), ("send", "status")]


def test_a_slow_cup_gets_longer_waits_for_its_answers_within_a_bound():
    """The pace's ``cup_slowness`` K (an emulated RP2040 runs ~26x slower than a chip: docs/build.md, "The
    target lane"): the host waits K times longer for a cup's hello, status answer and before it asks a quiet
    cup; the table's own timeouts stay. Outside 1..100 it is refused, as a time scale is."""
    from schocken_host.pace import MAX_FACTOR, Pace
    from schocken_host.table.cuplinks import PING_AFTER, REPLY_TIMEOUT

    def referee(k):
        return Referee(Rules("standard"), [Seat("Anna", Transport())], log=None, ui=View(),
                       pace=Pace(cup_slowness=k), turn_timeout=600.0)
    plain, slow = referee(1).links, referee(40).links
    assert (plain.ping_after, plain.reply_timeout, plain.hello_s) == (PING_AFTER, REPLY_TIMEOUT, 2.0)
    assert (slow.ping_after, slow.reply_timeout, slow.hello_s) == (40 * PING_AFTER, 40 * REPLY_TIMEOUT, 80.0)
    assert slow.presence.turn_timeout == plain.presence.turn_timeout == 600.0
    for k in (0, MAX_FACTOR + 1, 2.5):
        with pytest.raises(ValueError, match="cup_slowness"):
            referee(k)
        with pytest.raises(ValueError, match="time_scale"):
            Pace(time_scale=k)
    # `schocken play --cup-slowness K` says it so, within the same bound
    import argparse
    from schocken_host.commands.play import add_arguments
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert parser.parse_args(["--cup-slowness", "26"]).cup_slowness == 26
    assert parser.parse_args([]).cup_slowness == 1
    with pytest.raises(SystemExit):
        parser.parse_args(["--cup-slowness", str(MAX_FACTOR + 1)])


def test_a_status_that_crossed_the_nonce_does_not_bring_it_again():
    """The referee pinged a quiet cup; the cup sent its shake, got the nonce, but had answered the ping first
    with ``awaiting`` (its input held the ping before the nonce: seen on the emulated RP2040 at every throw).
    That status is older than the nonce: no second nonce. A status asked for after it that still says
    ``awaiting`` (the nonce was lost, or the cup was reset before it) gets the same nonce again."""
    sent = []

    class Link(Transport):
        async def send(self, msg):
            sent.append(msg)
    seats = [Seat("Anna", Link()), Seat("Ben", Link())]
    log = MemoryLog()
    ref = Referee(Rules("standard"), seats, log=log, ui=PlainUI("en", out=io.StringIO()), fair=True)
    status = {"t": "status", "state": "turn", "round": 1, "throws": 0, "public": [], "seat": 0,
              "name": "Anna", "seed": "ab" * 32, "awaiting": 1}

    async def main():
        ref.emit({"ev": "start", "version": LOG_VERSION, "game_id": "0123456789ab",
                  "rules": Rules("standard").to_dict(), "reveal": "all", "cheat": "replay", "fair": True,
                  "players": [{"seat": i, "name": s.name, "cup": "emu%d" % i, "kind": "cup"}
                              for i, s in enumerate(seats)]})
        ref.emit({"ev": "opener", "seat": 0})
        ref.emit({"ev": "turn", "round": 1, "seat": 0, "limit": None, "kind": "round", "order": [0, 1]})
        ref.emit({"ev": "seed", "round": 1, "seat": 0, "hash": "ab" * 32})
        await ref.links.ask_status(0, wait=False)                      # the ping, before the shake
        await ref.links._serve(0, {"t": "shake", "round": 1, "throw": 1, "public": []})
        await ref.links._serve(0, dict(status, id=1))                  # its answer, sent before the nonce
        assert [m["t"] for m in sent] == ["status", "nonce"], sent
        await ref.links.ask_status(0, wait=False)
        await ref.links._serve(0, dict(status, id=2))                  # still waiting after the nonce
    asyncio.run(main())
    assert [m["t"] for m in sent] == ["status", "nonce", "status", "nonce"], sent
    assert sent[1]["nonce"] == sent[3]["nonce"]
