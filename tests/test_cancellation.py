"""A stopped game stops: the waits on a cup's messages keep the game's cancellation while messages stream in
(a person's look under his cup streams LED frames). Python 3.11's ``asyncio.wait_for`` returned a message that
met the cancellation in the same turn of the loop and dropped the cancellation: a soak host whose person had
left (end of input, the game cancelled) played on for half an hour. The waits use ``asyncio.timeout`` now;
with ``wait_for`` this test loses the cancellation in nearly every trial."""

import asyncio

from schocken_host.links.transport import Transport


class StreamingLink(Transport):
    def __init__(self):
        self.queue = asyncio.Queue()


async def cancelled_while_streaming(steps):
    """Whether a task that reads a link that streams a message each turn of the loop ends when cancelled."""
    link = StreamingLink()

    async def reader():
        while True:
            await link.recv(1.0)

    async def stream():
        while True:
            link.queue.put_nowait({"t": "frame"})
            await asyncio.sleep(0)
    reading, streaming = asyncio.create_task(reader()), asyncio.create_task(stream())
    for _ in range(steps):
        await asyncio.sleep(0)
    reading.cancel()
    done, _ = await asyncio.wait({reading}, timeout=0.5)
    streaming.cancel()
    reading.cancel()
    await asyncio.wait({reading, streaming}, timeout=1.0)
    return reading in done and reading.cancelled()


def test_a_read_that_meets_a_streaming_message_keeps_the_cancellation():
    async def main():
        return [steps for steps in range(30) if not await cancelled_while_streaming(steps)]
    assert asyncio.run(main()) == []
