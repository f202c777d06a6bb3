"""Emulation only: the emulated board's clock running K times faster than the wall clock
(`emulate.py --time-scale K`, docs/emulation.md "Time scale").

`install(k)` puts a scaled clock into the firmware's clock shim (cup/clock.py) before the app is imported, so
the app, its buttons, LED view and shake detector run unchanged, in cup time. No board has this file; a cup
started without --time-scale never loads it.

- What is K times shorter is the cup's waiting, not its work. Under MicroPython the cup's loop (cup/app.py
  ``App.serve``) waits in cup time (the clock shim's `wait`): a wait of dt cup ms for the next pass over the
  inputs lasts dt/K real ms (sleep_us below a millisecond, which `select.poll` cannot wait) and moves cup time
  by dt at most, however late the process wakes; the time the cup computes counts as it is, as if its CPU ran
  at the PC's speed. So the sensor's samples come 10 cup ms apart as on a board, and a message that takes 2 ms
  to handle takes 2 ms of cup time, not 2 K: the buttons are still polled every 10 ms around it.
- K applies while the board's physical world moves (busy(): a shake, a held button, and TAIL_MS after it);
  otherwise waits last as long as they say. An idle cup costs what an unscaled one does.
- While the board is busy, or always when the idle rate is above 1, cup time never moves by more than STEP_MS
  at once: a process that stalls while it computes (a loaded machine) slows cup time down instead of making
  it jump, like a program paused in a debugger, and does not catch up later. The board hands out a shake's
  samples as they are read, so the shake detector never sees a gap between two samples that no board would
  show, and a button held for MS cup ms (the board's `hold` line) stays a tap or a long press whatever the
  stall. An idle cup at rate 1 follows the real clock, as the port's own clock would: what it times then (a
  refusal's flash, the host's silence) lasts as long in real time however loaded the machine.
- `ticks_ms()` wraps at 2**30 like a board's (`ticks_add`, `ticks_diff` match it), so all firmware arithmetic
  stays below 2**30; `start` sets its first value (to run a cup across the wrap).
- CPython (no unix port): asyncio keeps its own time; the app's `sleep_ms` is shortened K times and all real
  time counts K times (with the same step bound).
"""

import time

from cup import clock as shim

from micropython import const

STEP_MS = const(20)           # the most cup time moves at once: twice the app's 10 ms sample/button loop
_MASK = const(0x3FFFFFFF)     # a board's ticks_ms period is 2**30
_HALF = const(0x20000000)
_WAIT_MAX_MS = const(10)      # the longest single wait of the loop, in cup ms
TAIL_MS = const(1000)         # after an input, cup time stays fast this long (stillness, debounce, LEDs)
_SLACK_MAX_US = const(100)    # the most a sleep is shortened for its lateness (more is load, not slack)

try:
    _real_us = time.ticks_us
    _real_diff = time.ticks_diff
    MICROPYTHON = True
except AttributeError:  # CPython
    def _real_us():
        return time.monotonic_ns() // 1000

    def _real_diff(a, b):
        return a - b
    MICROPYTHON = False


def ticks_add(a, b):
    return (a + b) & _MASK


def ticks_diff(a, b):
    return ((a - b + _HALF) & _MASK) - _HALF


class ScaledClock:
    """Cup time: K (``k``) while the board is busy, ``idle`` otherwise. With ``waits`` (the loop's waits
    report through waited()) only waiting is scaled and computing counts once; without, all real time counts
    K times. Never more than ``step_ms`` at once. Ints only, no allocation per read."""

    def __init__(self, k, start=None, step_ms=STEP_MS, idle=1, waits=False):
        if k < 1 or idle < 1:
            raise ValueError("time scale must be >= 1")
        self.fast = k
        self.idle = idle
        self.waits = waits
        self.step_ms = step_ms
        self.last = _real_us()
        self.frac = 0                          # cup time below a whole ms, in cup us
        self.now = 0                           # cup ms since the clock was made, wrapping at 2**30
        self.offset = 0 if start is None else start & _MASK
        self.busy_until = self.now
        self.steady = idle == 1                # idle at rate 1: cup time is the real clock's, stalls included
        self.slack = 0                         # us a short sleep is asked shorter: it ends this much late
        self._rate(idle)

    def _rate(self, k):
        self.k = k                             # how many times shorter a wait is now
        self.run_k = 1 if self.waits else k    # how many times real time counts outside waits
        self.max_us = self.step_ms * 1000 // self.run_k + 1  # real us that make one full step

    def busy(self, ms):
        """The board: the physical world moves for the next ``ms`` cup ms (a shake, a held button; 0 for an
        edge): cup time runs at K until TAIL_MS after that."""
        until = (self.tick() + ms + TAIL_MS) & _MASK
        if self.k != self.fast or self.steady or ticks_diff(until, self.busy_until) > 0:
            self.busy_until = until
        self.steady = False
        self._rate(self.fast)

    def _add(self, cup_us):
        cup_us += self.frac
        self.now = (self.now + cup_us // 1000) & _MASK
        self.frac = cup_us % 1000
        if not self.steady and ticks_diff(self.now, self.busy_until) >= 0:
            self.steady = self.idle == 1
            if self.k != self.idle:
                self._rate(self.idle)

    def tick(self):
        """Cup time now: what has passed since the last read counts (once, or K times without ``waits``, and
        never more than a step), in ms since the clock was made."""
        t = _real_us()
        d = _real_diff(t, self.last)
        self.last = t
        if d > 0:
            self._add(d if self.steady else (d if d < self.max_us else self.max_us) * self.run_k)
        return self.now

    def waited(self, dt, real_us):
        """The loop slept ``real_us`` real us (-1: all of it) of a wait for ``dt`` cup ms: cup time moves
        by the wait's part that passed (K times the sleep), never by more than dt, however late the process
        woke (idle at rate 1: by the real us that passed)."""
        self.last = _real_us()
        cap = dt * 1000
        if self.steady and real_us >= 0:
            self._add(real_us)
        elif real_us < 0 or real_us >= cap // self.k:  # < 0: it was not cut short
            self._add(cap)
        elif real_us > 0:
            self._add(real_us * self.k)

    def ticks_ms(self):
        """The firmware's clock: cup ms, wrapping at 2**30 like a board's."""
        return (self.tick() + self.offset) & _MASK


def _wait(c):
    """The serial cup's wait (cup/clock.py ``wait``, in cup/app.py ``App.serve``) in cup time: a wait of dt
    cup ms lasts dt/K real ms (sleep_us below one millisecond, which poll cannot wait) and moves cup time by
    what passed of it (ScaledClock.waited). Input that has come ends it at once, so a line that comes in
    pieces is read without a sleep between two; the loop still makes its pass over the inputs whenever one
    is due, however much comes."""

    def wait(poller, dt):
        c.tick()  # the time computed since the last read counts once
        if dt <= 0:
            return
        for _ in poller.ipoll(0):
            return  # something has come: it is taken now
        if dt > _WAIT_MAX_MS:
            dt = _WAIT_MAX_MS  # a longer wait is a few of these
        us = dt * 1000 // c.k
        t0 = _real_us()
        if us < 1000:
            # A blocking wait below poll's 1 ms (input is seen right after it). A sleep ends some 50 us late
            # (the kernel's timer slack), a quarter of a 10 ms wait at K = 50: it asks for that much less.
            if us > c.slack:
                time.sleep_us(us - c.slack)
            late = _real_diff(_real_us(), t0) - us
            c.slack += late // 4
            c.slack = 0 if c.slack < 0 else _SLACK_MAX_US if c.slack > _SLACK_MAX_US else c.slack
            c.waited(dt, -1)   # the whole wait passed
        else:
            for _ in poller.ipoll(us // 1000):  # returns early when input comes
                break
            c.waited(dt, _real_diff(_real_us(), t0))
    return wait


def install(k, start=None, idle=1):
    """Run the firmware in cup time; call before the cup app is imported. Returns the clock: give the board
    its busy() (EmulatedBoard.on_input) so that its inputs run at K."""
    c = ScaledClock(k, start, idle=idle, waits=MICROPYTHON)
    shim.ticks_ms = c.ticks_ms
    shim.ticks_diff = ticks_diff
    shim.ticks_add = ticks_add
    if MICROPYTHON:
        shim.wait = _wait(c)
    else:
        import asyncio

        def sleep_ms(ms):
            return asyncio.sleep(ms / c.k / 1000)
        shim.sleep_ms = sleep_ms
    return c
