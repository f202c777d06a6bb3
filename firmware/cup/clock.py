"""ticks_ms / ticks_diff / ticks_add, the serial cup's wait and asyncio's sleep_ms, on MicroPython, with the
same names on CPython (emulated cups). timescale.py replaces them for a cup in scaled time.

And the time the cup counts per power state (the meter): the loop (cup/app.py ``App.serve``, cup/tasks.py)
hands ``spend`` how long it worked (a wake-up) and how long it waited between passes, and whether a host held
the cup; the board hands ``frame`` each LED frame it writes (what it lights: the sum of its bytes on the wire,
brightness applied) and whether it has the LED supply switch. ``report`` gives the counters to the ``power``
message (cup/core.py, docs/protocol.md) and the doctor; bench/energy.py multiplies them by
each board's datasheet currents (hardware/boards/*.json "power") into hours of play and days on the shelf
(hardware/power_budget.md). The meter is one ``array('i')``, kept here and not in a module of its own: the
cup's heap is counted in bytes (tests/test_cup.py), and a module of its own cost 640 of them. Counters are
whole seconds plus a remainder (ms, or for the LEDs byte x ms below one channel-second): a board's small ints
are 31-bit, and an evening in ms or a fortnight on the shelf would pass 2**30. ``spend`` and ``frame`` run in
the loop and allocate nothing.
"""

from micropython import const

# The clock's functions by name, the array module only in meter(): each name bound here is a slot of the
# module's table in the cup's heap (docs/benchmarks.md).
try:
    from time import ticks_add, ticks_diff, ticks_ms
except ImportError:  # CPython: a monotonic millisecond clock that never wraps
    import time

    def ticks_ms():
        return int(time.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b

    def ticks_add(a, b):
        return a + b


def wait(poller, ms):
    """Waits until a stream of ``poller`` (a ``select.poll``) can be read, or ``ms`` ms have passed: the
    serial cup's loop (cup/app.py ``App.serve``). ``ms`` below 0 (the next pass is overdue) waits for
    nothing: to poll, a negative timeout means for ever."""
    for _ in poller.ipoll(ms if ms > 0 else 0):
        break


def sleep_ms(ms):
    """asyncio's sleep, for the tasks of a link that needs asyncio (BLE, CPython). asyncio is imported here,
    when they first sleep, not with the clock: the serial cup never loads it."""
    import asyncio
    if hasattr(asyncio, "sleep_ms"):
        return asyncio.sleep_ms(ms)
    return asyncio.sleep(ms / 1000)


# Slots of the meter: the counters (seconds, then their remainders), then the present state.
# The CPU's states: waiting between passes with its clocks on (a poll that ends on input or at the next
# pass), in light sleep (clocks stopped, woken by a pin, the timer or the link), in deep sleep (off but for
# its wake pins: the cup boots again). It worked for the rest of the time counted.
WAITING = const(0)
_LIGHT_SLEEP = const(1)
DEEP_SLEEP = const(2)
WORKING = const(-1)
_HOSTED = const(3)       # a host holds the cup (configured, link open): on BLE its radio is connected then
_LEDS_ON = const(4)      # the LED supply switch is on: the 22 pixels' own ~1 mA each flows
_LED_LEVEL = const(5)    # the wire bytes x time, in channel-seconds: one colour channel at 255 for a second
#                          (the pixels' channel current is proportional to it)
_COUNTERS = const(6)
_REM = const(6)          # + i: counter i's remainder
_START = const(12)       # the cup's clock when counting began (ticks_ms: wraps, taken with ticks_diff)
_WAKES = const(13)       # wake-ups of the CPU: each pass of the loop, each read of the link
_LEVEL = const(14)       # what the LEDs show now: the sum of the bytes on the wire; dark, 0 where the supply
#                          switch is off, -1 where a board has none (its supply is on): one slot for both
_RESTING = const(15)     # since when the cup rests (dark, no host, no turn): the shelf is 10 minutes on
_SLOTS = const(16)       # 64 bytes: one more slot would take the array's buffer to 96 (32-byte blocks here)
_MS_PER_S = const(1000)
_CHANNEL_MS = const(255000)  # a byte of 255 for 1000 ms: one channel-second
_REST_MS = const(50)       # a resting cup's pass (``next_due``)
_SHELF_MS = const(600000)  # a cup left alone this long, dark, with no host and no turn: it is off the table
_SPLIT_MS = const(30000)  # level x ms stays below 2**30: 22 x 3 x 255 = 16,830 for 30 s at most


def next_due(due, period, m):
    """When the pass after the one due at ``due`` is due: ``period`` ms on, so a loop keeps its rate whatever
    a pass took (the shake detector counts samples: a pass that drifts by 2 ms makes a throw final 10 ms
    later); after a pass that took a whole period (a long line), ``period`` ms from now: no burst to catch
    up. While the cup rests (the meter ``m`` says so; None: never) a pass every 50 ms: the CPU waits longer,
    and a press of 70 ms or more is still seen. ``shelved``'s dark, hostless, turnless time has begun then; a
    physical input ends the rest at once (the emulated board; a board's buttons are read at the next pass)."""
    if m is not None and ticks_diff(due, m[_RESTING]) > 0:
        period = _REST_MS
    due = ticks_add(due, period)
    now = ticks_ms()
    return due if ticks_diff(due, now) > 0 else ticks_add(now, period)


def meter():
    """A new meter, counting from now."""
    from array import array
    m = array("i", bytes(4 * _SLOTS))
    m[_START] = m[_RESTING] = ticks_ms()
    return m


def spend(m, state, ms, hosted):
    """``ms`` ms passed in ``state`` (WAITING, _LIGHT_SLEEP, DEEP_SLEEP, or WORKING: a wake-up of the CPU);
    ``hosted``: a host held the cup meanwhile. Counts the CPU's state and what the LEDs did meanwhile."""
    if state < 0:
        m[_WAKES] += 1
    if ms <= 0:
        return
    # The counters ms counts for, each in seconds and a remainder: the CPU's state (a wake-up has none: its
    # work is the time the others leave), the host's hold, the LED supply. In place, not in a helper: a
    # function is an object and a name of the cup's heap; six locals keep the frame off the heap.
    i = state if state >= 0 else _HOSTED
    while i < _LED_LEVEL:
        if i == state or i == _HOSTED and hosted or i == _LEDS_ON and m[_LEVEL]:
            r = m[_REM + i] + ms
            m[i] += r // _MS_PER_S
            m[_REM + i] = r % _MS_PER_S
        i += 1
    while m[_LEVEL] > 0 and ms > 0:  # the LEDs' level x ms in channel-seconds, 30 s at a time
        i = ms if ms < _SPLIT_MS else _SPLIT_MS
        r = m[_REM + _LED_LEVEL] + m[_LEVEL] * i
        m[_LED_LEVEL] += r // _CHANNEL_MS
        m[_REM + _LED_LEVEL] = r % _CHANNEL_MS
        ms -= i


def frame(m, buf, switched):
    """The board writes the LED frame ``buf``: what it lights (the sum of its bytes; 0: every pixel dark),
    returned and, with a meter ``m``, noted with the supply: on while a pixel is lit where the board has the
    switch (``switched``), always otherwise. A counted loop: nothing is made per frame."""
    level = 0
    for i in range(len(buf)):
        level += buf[i]
    if m is not None:
        m[_LEVEL] = level if level or switched else -1
    return level


def shelved(m, now, idle):
    """True once the cup has rested for 10 minutes: dark (the view's minute without a change is over: nothing
    lit), with no host, in no turn (``idle``); the loop then puts it to deep sleep."""
    if not idle or m[_LEVEL] > 0:
        m[_RESTING] = now
        return False
    return ticks_diff(now, m[_RESTING]) >= _SHELF_MS


def report(m):
    """The counters as a dict, the ``power`` message's fields (docs/protocol.md): ms ``waiting``, in
    ``light_sleep``, ``deep_sleep``, ``hosted``, ``leds_on``; ``led_channel_s``, the LEDs' channel-seconds (a
    colour channel at 255 for a second); ``ms`` counted in all (the CPU worked for what its three counters
    leave of it); ``wakes``."""
    out = {"ms": ticks_diff(ticks_ms(), m[_START]), "wakes": m[_WAKES]}
    i = 0
    # One string object kept with the module, no tuple; the counters in their slots' order.
    for name in "waiting light_sleep deep_sleep hosted leds_on led_channel_s".split():
        out[name] = m[i] if i == _LED_LEVEL else m[i] * _MS_PER_S + m[_REM + i]
        i += 1
    return out
