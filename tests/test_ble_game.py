"""A full game refereed over Bluetooth Low Energy (issue 6), without Bluetooth hardware: the firmware's real
BLE link (boards/ble.py) on an aioble shim over Google's bumble stack, the host's bumble link on the same
virtual link (tests/kits/blekit.py), the referee unchanged; one cup's link drops mid round and comes back."""

import asyncio
import random

from kits import blekit  # noqa: F401  (puts firmware/ on sys.path)
from cup.buttons import LONG, MAIN
from schocken.rules import Rules
from schocken_host.table.referee import Referee
from schocken_host.table.seating import Seat
from schocken_host.table.view import View

run = blekit.run


class _UI(View):
    def __init__(self):
        self.events = []
        self.notes = []

    def update(self, state, ev):
        self.events.append(ev)

    def note(self, text):
        self.notes.append(text)


async def _player(rig, rnd, drop_at=None):
    """Plays one cup through its core, as a person with the cup in hand: shakes, sometimes again, stands.
    ``drop_at`` = round: break the radio link once, right after standing in that round."""
    cup = rig.cup
    dropped = False
    while True:
        await asyncio.sleep(0.002)
        if cup.state != "turn" or cup.turn is None:
            continue
        if cup.turn.throws_used == 0 or (cup.turn.can_roll() and rnd.random() < 0.35):
            cup.on_shake()
        else:
            cup.on_button(MAIN, LONG, True)
        if cup.state == "done" and drop_at is not None and cup.round >= drop_at and not dropped:
            dropped = True
            await rig.drop()


class _Log(list):
    """The game log in memory: every event appended, nothing to sync."""

    async def on_disk(self):
        pass


def test_full_game_four_cups_refereed_over_ble():
    """The referee, unchanged, over bumble links; one cup's link drops mid round and comes back."""
    async def go():
        names = ["Anna", "Bo", "Cem", "Dana"]
        table = blekit.Table(4, names=names, seed=4)
        await table.start()
        rnd = random.Random(4)
        players = [asyncio.create_task(_player(c, random.Random(rnd.random()), drop_at=3 if i == 2 else None))
                   for i, c in enumerate(table.cups)]
        seats = [Seat(names[i], table.transport(i), "cup") for i in range(4)]
        ui = _UI()
        log = _Log()
        ref = Referee(Rules("standard"), seats, log, ui)
        try:
            await ref.run()
        finally:
            ref.close()
            for p in players:
                p.cancel()
            await asyncio.sleep(0.01)
            await table.close()
        kinds = [e["ev"] for e in log]
        assert kinds[0] == "start" and kinds[-1] == "game_over" and ref.state.over
        assert "cheat" not in kinds                              # every reveal matched its commitment
        rounds = [e for e in log if e["ev"] == "round"]
        assert len(rounds) >= 3
        pauses = [e for e in log if e["ev"] == "pause"]
        assert [p["seat"] for p in pauses] == [2] and "resume" in kinds
        assert table.cups[2].ble.connections == 2 and all(c.ble.connections == 1 for i, c in
                                                         enumerate(table.cups) if i != 2)
        # the dropped cup's round went on with the throw it had: its reveal is in the log, checked
        pause_at = kinds.index("pause")
        assert any(e["ev"] == "reveal" and e["seat"] == 2 for e in log[pause_at:])
    run(go(), timeout=150)  # 16 s alone: a bound, not a pace (on a loaded machine it took over 50)
