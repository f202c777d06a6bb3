"""Debounced buttons with long-press detection, polled every few ms from the button task.

Raw levels come as a bit mask (bit 0..2 die buttons, bit 3 main; 1 = pressed). A level counts once it has
been stable for _DEBOUNCE_MS. Each button reports press, release (with whether it was long) and, once, long
when it has been held for long_ms. Integers only: no allocation per poll.
"""

from micropython import const

from cup.clock import ticks_diff

# A constant object (an Ellipsis: no heap object). Without one MicroPython keeps the heap object after this
# module's table of names alive with the module (docs/firmware.md, Memory; tests/test_micropython.py).
_CONSTANT = ...

_N_BUTTONS = const(4)
MAIN = const(3)
_DEBOUNCE_MS = const(20)
LONG_MS = const(1200)

PRESS = const(1)
RELEASE = const(2)
LONG = const(3)


class Buttons:
    def __init__(self, handler, long_ms):  # no defaults: a function with them is twice the size in the heap
        self.handler = handler          # handler(button, event, was_long)
        self.long_ms = long_ms
        self.debounce_ms = _DEBOUNCE_MS
        self.stable = 0                 # debounced levels
        self.raw = 0
        self.raw_since = 0
        self.pressed_at = [0] * _N_BUTTONS
        self.long_sent = 0              # bit mask: long already reported for this press

    def poll(self, now, mask):
        # At most 11 words of frame (arguments, locals, stack), or MicroPython takes it from the heap at every
        # call, 100 times a second (tests/test_cup_loop.py): one name for the bits to look at, the
        # buttons counted in a while loop (a for loop keeps its counter on the stack).
        if mask != self.raw:
            self.raw = mask
            self.raw_since = now
        elif mask != self.stable and ticks_diff(now, self.raw_since) >= self.debounce_ms:
            bits = mask ^ self.stable  # changed
            self.stable = mask
            b = 0
            while b < _N_BUTTONS:
                if bits >> b & 1:
                    if mask >> b & 1:
                        self.pressed_at[b] = now
                        self.long_sent &= ~(1 << b)
                        self.handler(b, PRESS, False)
                    else:
                        self.handler(b, RELEASE, self.long_sent >> b & 1 == 1)
                b += 1
        bits = self.stable & ~self.long_sent  # held, long not yet reported
        b = 0
        while bits:
            if bits & 1 and ticks_diff(now, self.pressed_at[b]) >= self.long_ms:
                self.long_sent |= 1 << b
                self.handler(b, LONG, True)
            bits >>= 1
            b += 1
