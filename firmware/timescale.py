"""Emulation only: the emulated board's clock running K times faster than the wall clock
(`emulate.py --time-scale K`, docs/emulation.md "Time scale").

`install(k)` puts a scaled clock into the firmware's clock shim (cup/clock.py) before the app is imported, so
the app, its buttons, LED view and shake detector run unchanged, in cup time. No board has this file; a cup
started without --time-scale never loads it.

- Cup time runs at K times real time while the board's physical world moves (busy(): a shake, a held button,
  and TAIL_MS after it) and at real speed otherwise: an idle cup costs what an unscaled one does, and the
  host's own work (real time) does not count K times in cup time. It is measured in microseconds (one cup ms
  is 1000/K real us at K), but it never moves by more than STEP_MS per read: when the process stalls (a loaded machine; at K = 20 a 10 ms stall
  would be 200 ms of cup time) cup time slows down instead of jumping, like a program paused in a debugger.
  The shake detector then never sees a gap between two samples that no board would show, and a button held
  for MS cup ms (the board's `hold` line) stays a tap or a long press whatever the stall.
- `ticks_ms()` wraps at 2**30 like a board's (`ticks_add`, `ticks_diff` match it), so all firmware arithmetic
  stays below 2**30; `start` sets its first value (to run a cup across the wrap).
- MicroPython: the asyncio scheduler runs in cup time too (`asyncio.sleep_ms(10)` lasts 10 cup ms). Its
  `ticks` is the unwrapped cup clock and its wait for I/O lasts dt/K real ms: `time.sleep_us` below one
  millisecond, which `select.poll` cannot wait. Tasks that asyncio queues without a time (new tasks, I/O,
  events) get the real `ticks_ms()` as key (the C task queue's default), so the cup clock always keeps ahead
  of the real one (_LEAD_MS, and never behind): such tasks are due at once, as without the scale.
- CPython (no unix port): asyncio keeps its own time; only the app's `sleep_ms` is shortened K times.
"""

import time

from cup import clock as shim
from cup.clock import asyncio

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

STEP_MS = const(20)           # the most cup time moves per read: twice the app's 10 ms sample/button loop
_MASK = const(0x3FFFFFFF)     # a board's ticks_ms period is 2**30
_HALF = const(0x20000000)
_WAIT_MAX_MS = const(10)      # the longest single wait of the scheduler, in cup ms (half a step)
TAIL_MS = const(1000)         # after an input, cup time stays fast this long (stillness, debounce, LEDs)
_LEAD_MS = const(600000)      # the scheduler's cup clock starts this far ahead of the real ticks_ms()

try:
    _real_us = time.ticks_us
    _real_ms = time.ticks_ms
    _real_diff = time.ticks_diff
    _PORT_MAX = time.ticks_add(0, -1)  # the port's own ticks period - 1 (2**62 - 1 on a 64-bit unix port)
    MICROPYTHON = True
except AttributeError:  # CPython
    def _real_us():
        return time.monotonic_ns() // 1000

    def _real_ms():
        return time.monotonic_ns() // 1000000

    def _real_diff(a, b):
        return a - b
    _PORT_MAX = (1 << 62) - 1
    MICROPYTHON = False


def ticks_add(a, b):
    return (a + b) & _MASK


def ticks_diff(a, b):
    return ((a - b + _HALF) & _MASK) - _HALF


class ScaledClock:
    """Cup time at ``k`` times real time while the board is busy (busy(): a shake, a held button) and ``idle``
    times real time otherwise, at most ``step_ms`` further per read. Ints only, no allocation per read."""

    def __init__(self, k, start=None, step_ms=STEP_MS, idle=1):
        if k < 1 or idle < 1:
            raise ValueError("time scale must be >= 1")
        self.fast = k
        self.idle = idle
        self.step_ms = step_ms
        self.last = _real_us()
        self.frac = 0                          # cup time below a whole ms, in cup us
        self.now = (_real_ms() + _LEAD_MS) & _PORT_MAX  # unwrapped cup ms (the scheduler's clock)
        self.offset = 0 if start is None else (start - self.now) & _MASK
        self.busy_until = self.now
        self._rate(idle)

    def _rate(self, k):
        self.k = k
        self.max_us = self.step_ms * 1000 // k + 1  # real us that make one full step; more counts as that

    def busy(self, ms):
        """The board: the physical world moves for the next ``ms`` cup ms (a shake, a held button; 0 for an
        edge): cup time runs at K until TAIL_MS after that."""
        until = (self.sched() + ms + TAIL_MS) & _PORT_MAX
        if self.k != self.fast or _real_diff(until, self.busy_until) > 0:
            self.busy_until = until
        self._rate(self.fast)

    def sched(self):
        """Cup ms in the port's own ticks period: the asyncio scheduler's clock."""
        t = _real_us()
        d = _real_diff(t, self.last)
        self.last = t
        if d > 0:
            if d > self.max_us:
                d = self.max_us
            d = d * self.k + self.frac
            self.now = (self.now + d // 1000) & _PORT_MAX
            self.frac = d % 1000
            if MICROPYTHON and _real_diff(_real_ms(), self.now) > 0:
                self.now = _real_ms()  # never behind the keys asyncio gives tasks queued without a time
            if self.k != self.idle and _real_diff(self.now, self.busy_until) >= 0:
                self._rate(self.idle)
        return self.now

    def ticks_ms(self):
        """The firmware's clock: cup ms, wrapping at 2**30 like a board's."""
        return (self.sched() + self.offset) & _MASK


def _io_wait(wait, c):
    def wait_io_event(dt):
        if dt > 0:
            # Cup time moves only when read, by STEP_MS at most: a longer wait would stretch cup time. The
            # app's own loops wake every 10 cup ms anyway; a longer sleep is a few of these waits.
            if dt > _WAIT_MAX_MS:
                dt = _WAIT_MAX_MS
            us = dt * 1000 // c.k
            if us < 1000:
                time.sleep_us(us)  # a blocking wait below poll's 1 ms: I/O is seen right after it
                dt = 0
            else:
                dt = us // 1000    # the rest below 1 ms in the scheduler's next round
        wait(dt)
    return wait_io_event


def install(k, start=None, idle=1):
    """Run the firmware in cup time; call before the cup app is imported. Returns the clock: give the board
    its busy() (EmulatedBoard.on_input) so that its inputs run at K."""
    c = ScaledClock(k, start, idle=idle)
    shim.ticks_ms = c.ticks_ms
    shim.ticks_diff = ticks_diff
    shim.ticks_add = ticks_add
    if MICROPYTHON:
        import asyncio.core as core
        core.ticks = c.sched
        q = core._io_queue
        q.wait_io_event = _io_wait(q.wait_io_event, c)
    else:
        def sleep_ms(ms):
            return asyncio.sleep(ms / c.k / 1000)
        shim.sleep_ms = sleep_ms
    return c
