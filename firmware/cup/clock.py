"""ticks_ms / ticks_diff / ticks_add, the serial cup's wait and asyncio's sleep_ms, on MicroPython, with the
same names on CPython (emulated cups). timescale.py replaces them for a cup in scaled time."""

import time

try:
    ticks_ms = time.ticks_ms
    ticks_diff = time.ticks_diff
    ticks_add = time.ticks_add
except AttributeError:  # CPython: a monotonic millisecond clock that never wraps
    def ticks_ms():
        return int(time.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b

    def ticks_add(a, b):
        return a + b


def next_due(due, period):
    """When the pass after the one due at ``due`` is due: ``period`` ms on, so a loop keeps its rate whatever
    a pass took (the shake detector counts samples: a pass that drifts by 2 ms makes a throw final 10 ms
    later); after a pass that took a whole period (a long line), ``period`` ms from now: no burst to catch
    up."""
    due = ticks_add(due, period)
    now = ticks_ms()
    return due if ticks_diff(due, now) > 0 else ticks_add(now, period)


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
