"""ticks_ms / ticks_diff / sleep_ms on MicroPython, with the same names on CPython (emulated cups)."""

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

try:
    import asyncio
except ImportError:  # very old ports
    import uasyncio as asyncio

if hasattr(asyncio, "sleep_ms"):
    sleep_ms = asyncio.sleep_ms
else:
    def sleep_ms(ms):
        return asyncio.sleep(ms / 1000)
