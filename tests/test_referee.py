"""The referee (table/referee.py) on its own, with a fake link and no cup: what it tells the table."""

import asyncio
import io

import pytest

from schocken import protocol
from schocken.rules import Rules
from schocken_host.views.plain import PlainUI
from schocken_host.table.referee import Referee
from schocken_host.table.cuplinks import Seat
from schocken_host.links.transport import Transport


@pytest.mark.parametrize("lang,words", [("de", "Becher 2: Zufallsgenerator gestört"),
                                        ("en", "Cup 2: random number generator failed")])
def test_referee_tells_the_table_of_a_cup_whose_rng_failed(lang, words):
    """A cup that cannot roll (its RNG failed the health test) is never waited for in silence: the table reads
    why, in its language, the log has it as a fault of the cup, and the referee still takes its next
    message."""
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
        await link.queue.put(protocol.error(protocol.E_RNG, "repetition count test failed"))
        await link.queue.put({"t": "done", "round": 1, "throws": 1, "commit": "ab" * 32})
        try:
            return await ref.wait_for(1, lambda m: m if m["t"] == "done" else None)
        finally:
            pump.cancel()
    assert asyncio.run(main())["t"] == "done"
    assert [e["ev"] for e in written] == ["fault"] and "repetition count test failed" in written[0]["reason"]
    assert words in out.getvalue() and "repetition count test failed" in out.getvalue()
