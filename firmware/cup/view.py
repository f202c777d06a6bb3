"""What the LEDs show in each state of the cup (docs/firmware.md has the table).

Dice set aside lie open on the table, so they are always lit (orange); the dice under the cup light (white)
only while the owner peeks and after the reveal. The status pixel tells the state; a refused input flashes it
red for a second, then the state color returns. Where the owner has nothing to do (another player's turn, his
own cup stood until the reveal, a round revealed, alone between turns) the cup goes dark after 10 s without a
change: the LED supply switch opens (boards/mcu.py), and 22 dark pixels cost nothing until the next change
lights them again.
"""

from micropython import const

from cup import leds
from cup.clock import ticks_ms, ticks_diff, ticks_add

_REFUSE_MS = const(1000)
_DARK_AFTER_MS = const(10000)
_FLASH_MS = const(250)      # the refusal's flash: on and off every quarter second
# The view's own colors of the palette (cup/leds.py has the rest and says how they were chosen).
_DONE = const(0x7800FF)       # violet: stood, throw hidden, waiting for the round to end
_READY = const(0xFF3080)      # pink: round over, press to reveal (yellow is two throws used)
_ALONE = const(0x282828)      # dim white: alone at a paper-Deckel table, not on turn


class View:
    def __init__(self, dice_leds):
        self.leds = dice_leds
        self.refusing_until = None
        self.failed = False
        self.dark_at = None         # when the LEDs go dark, if nothing changes before (None: they stay lit)

    def show(self, cup):
        # Dice set aside are public (orange), the rest lit (white) only while peeking or after the reveal; a
        # cup seated by the host shows its seat on die 1 (blue) before play.
        from schocken.turn import IN_CUP  # here: the module's table stays at 8 names
        turn = cup.turn
        for slot in range(3):
            value, color = 0, leds.OFF
            if not turn or not turn.throws_used:
                if (slot == 0 and cup.hosted and cup.state == "idle" and cup.seat is not None
                        and cup.seat < 6):
                    value, color = cup.seat + 1, leds.WAITING
            elif turn.state[slot] != IN_CUP:
                value, color = turn.values[slot], leds.DIE_KEPT
            elif cup.peeking or cup.state == "revealed":
                value, color = turn.values[slot], leds.DIE
            self.leds.show_die(slot, value, color)  # face 0: blank
        if self.refusing_until is None:
            self.leds.status(self._status_color(cup))
        self.leds.refresh()
        state = cup.state
        self.dark_at = (ticks_add(ticks_ms(), _DARK_AFTER_MS)
                        if (state == "idle" or state == "revealed" or state == "done") and not self.failed
                        else None)

    def _status_color(self, cup):
        if self.failed:
            return leds.ERROR
        state = cup.state
        if state == "turn":
            return leds.THROWS[min(cup.turn.throws_used, 3)]
        if state == "done":
            return _DONE
        if state == "reveal_ready":
            return _READY
        if state == "revealed" or cup.result is not None:
            return {"lost": leds.LOST, "half_lost": leds.LOST, "game_lost": leds.LOST,
                    "won": leds.WON}.get(cup.result, leds.OFF)
        if not cup.hosted:
            return leds.THROWS[cup.standalone_limit] if cup.standalone_limit < 3 else _ALONE
        return leds.WAITING

    def refuse(self, cup, fault=False):
        # fault: a step the flash did not keep (cup/core.py save), flashed in ERROR (magenta); else red
        now = ticks_ms()
        self.refusing_until = ticks_add(now, _REFUSE_MS)
        self.leds.flash(leds.ERROR if fault else leds.REFUSED, now, _FLASH_MS)

    def error(self, cup):
        self.failed = True
        self.leds.status(leds.ERROR)
        self.leds.refresh()

    def tick(self, cup):
        """Called at every pass of the cup's loop (10 ms): advances a flash and ends it after a second;
        darkens the LEDs when their 10 s without a change are over."""
        if self.refusing_until is None:
            if self.dark_at is not None and ticks_diff(ticks_ms(), self.dark_at) >= 0:
                self.dark_at = None
                self.leds.clear()
                self.leds.refresh()
            return
        now = ticks_ms()
        if ticks_diff(now, self.refusing_until) >= 0:
            self.refusing_until = None
            self.leds.status(self._status_color(cup))
            self.leds.refresh()
        else:
            self.leds.update(now)
