# What the emulated cup needs under CPython that MicroPython has built in: readers and writers over file
# descriptors. Imported only when the firmware runs under CPython (a Mac or Windows laptop has no unix port),
# so a cup never loads it.

import asyncio
import os


def fd_reader(fd):
    """An asyncio StreamReader fed from a file descriptor, in the running loop."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()

    def readable():
        try:
            data = os.read(fd, 4096)
        except OSError:
            data = b""
        if data:
            reader.feed_data(data)
        else:
            loop.remove_reader(fd)
            reader.feed_eof()
    loop.add_reader(fd, readable)
    return reader


class FdReader:
    """The app's reader without a poll (cup/app.py), as BLE's: ``await readinto(buf)`` puts what has come, 1
    to len(buf) bytes, into ``buf`` and returns how many (0: end of input). Its stream is made at the first
    read, in the loop that runs the cup (cup/app.py ``App.main``, after the board and its link are made)."""

    def __init__(self, fd):
        self.fd = fd
        self.stream = None

    async def readinto(self, buf):
        if self.stream is None:
            self.stream = fd_reader(self.fd)
        data = await self.stream.read(len(buf))
        buf[:len(data)] = data
        return len(data)


class FdWriter:
    """MicroPython's StreamWriter over a file descriptor: write() now, drain() has nothing left to do."""

    def __init__(self, fd):
        self.fd = fd

    def write(self, data):
        view = memoryview(data)
        while view:
            n = os.write(self.fd, view)
            view = view[n:]

    async def drain(self):
        pass


def open_control(path):
    """The control pseudo-terminal, raw: (file, reader as the app's, ``FdReader``)."""
    import tty
    fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
    tty.setraw(fd)
    return os.fdopen(fd, "wb", buffering=0), FdReader(fd)


def stdio_link():
    """(reader, writer) over standard input and output."""
    import sys
    return FdReader(sys.stdin.fileno()), FdWriter(sys.stdout.fileno())
