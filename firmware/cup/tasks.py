"""The cup on a link that needs asyncio: BLE (aioble waits on asyncio's events) and the emulation under
CPython. Two tasks around the app (cup/app.py): one makes a pass over the inputs every 10 ms, the other hands
the link's lines to the app; each writes what the cup sent when it has acted. A serial cup runs in the app's
own loop (``App.serve``) and never loads this module, nor asyncio: they would cost it about 4 KB of heap for
as long as it runs (issue 16)."""

import asyncio
from gc import collect

from micropython import const

from cup.clock import next_due, sleep_ms, ticks_diff, ticks_ms

_RETRY_MS = const(10)       # after a read that failed for memory: the inputs run, the garbage goes
_READ_SIZE = const(32)      # bytes per read of the link at most (BLE's reader gives what one write brought)


class Tasks:
    """The two tasks of one app, with the app's pass period (``App.sample_ms``)."""

    def __init__(self, app):
        self.app = app
        self.flushing = False   # a task is writing the queue: the other leaves its messages to it

    async def inputs(self):
        app = self.app
        due = mark = ticks_ms()
        from cup.clock import WAITING, WORKING, spend
        meter, cup = app.board.power, app.cup
        while True:
            try:
                app.tick()
            except Exception as e:  # as App.serve: reported, the task goes on
                app.internal_error(e)
            if app.out or app.owed:  # a coroutine made only when there is something to write
                await self.flush()
            # Resting (dark, no host, no turn: cup/clock.py) a pass every 50 ms, as App.serve.
            due = next_due(due, app.sample_ms, meter)
            now = ticks_ms()  # the time since the last sleep was the CPU's work, the sleep its waiting
            spend(meter, WORKING, ticks_diff(now, mark), cup.hosted)
            await sleep_ms(ticks_diff(due, now))
            mark = ticks_ms()
            spend(meter, WAITING, ticks_diff(mark, now), cup.hosted)

    async def link_in(self):
        app = self.app
        reader, handle = app.reader, app.on_line
        buf = bytearray(_READ_SIZE)  # what has come, made once
        while True:
            try:
                n = await reader.readinto(buf)
            except MemoryError as e:  # where the line in the read ends is lost: dropped and answered
                app.splitter.drop()
                app.line_failed(e)
                await sleep_ms(_RETRY_MS)
                continue
            if not n:
                return  # host closed the link; the cup keeps working alone
            app.took(buf, n, handle)
            if app.out or app.owed:
                await self.flush()

    async def flush(self):
        """Writes the messages waiting, in order, each drained. Both tasks flush when they have acted; one
        that finds the other flushing leaves its messages to it (BLE's drain sends notifications: waits)."""
        if self.flushing:
            return
        self.flushing = True
        app = self.app
        try:
            while app.write_one():
                try:
                    await app.writer.drain()
                except MemoryError:
                    collect()
                except Exception:  # noqa: BLE001 - as in App.write_one: the line is lost, not the task
                    pass
        finally:
            self.flushing = False

    async def run(self, extra=()):
        """Runs the two tasks, and ``extra`` (more coroutines) beside them, until the link ends; then the
        inputs' task and ``extra`` go on (the cup plays on alone). Starts the app's link unless its ``main``
        has."""
        app = self.app
        if app.reader is None:
            app.start_link()
        running = [asyncio.create_task(t) for t in [self.inputs()] + list(extra)]
        try:
            await self.link_in()
            app.cup.hosted = app.cup.fair = False  # the host is gone: the cup plays on alone, own dice
            await asyncio.gather(*running)
        finally:
            for t in running:
                t.cancel()


def run(tasks, extra=()):
    """Runs ``tasks`` (a Tasks) in a new asyncio loop until interrupted; ``extra``: more coroutines."""
    try:
        asyncio.run(tasks.run(extra))
    finally:
        if hasattr(asyncio, "new_event_loop"):
            asyncio.new_event_loop()
