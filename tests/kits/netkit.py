"""Test helpers: a cup's serial port behind a TCP bridge, as ser2net puts a cup on the network.

``Bridge(path)`` listens on 127.0.0.1 (a free port) and, for each connection, opens the pseudo-terminal at
``path`` (an emulated cup's port) and shuttles bytes both ways, one connection at a time: ``url`` is
``socket://127.0.0.1:N``. ``Bridge(path, rfc2217=True)`` speaks Telnet with RFC 2217 through pyserial's own
server side (``serial.rfc2217.PortManager``): ``rfc2217://127.0.0.1:N``. ``kill()`` takes the bridge away
(listener and connection: the host sees its connection end, and new ones refused), ``revive()`` brings it back
on the same port number. ``stall()`` stops taking the host's bytes (a cup whose input is full): its writes
fill the connection and then wait.

Every wait in here ends: the threads look at their stop flag at least every POLL seconds.
"""

import asyncio
import os
import select
import socket
import threading
import time

import serial
import serial.rfc2217

POLL = 0.05


class Bridge:
    def __init__(self, path, rfc2217=False):
        self.path = path
        self.rfc2217 = rfc2217
        self.number = 0
        self.connections = 0          # connections served so far
        self.stalled = threading.Event()   # set: the bridge takes no more bytes from the host
        self._listen()

    @property
    def url(self):
        return "%s://127.0.0.1:%d" % ("rfc2217" if self.rfc2217 else "socket", self.number)

    def _listen(self):
        self.stop = threading.Event()
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)   # revive() binds the same number
        self.server.bind(("127.0.0.1", self.number))
        self.server.listen(1)
        self.number = self.server.getsockname()[1]
        self.thread = threading.Thread(target=self._serve, args=(self.server, self.stop), daemon=True,
                                       name="bridge-%d" % self.number)
        self.thread.start()

    def _serve(self, server, stop):
        while not stop.is_set():
            if not select.select([server], [], [], POLL)[0]:
                continue
            try:
                conn, _ = server.accept()
            except OSError:
                return
            self.connections += 1
            # As ser2net does: a byte from the cup goes out at once (Nagle would hold the raw REPL's flow
            # control bytes back for a delayed ACK, 40 ms each).
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            try:
                self._shuttle(conn, stop)
            except OSError:
                pass   # the port or the connection went away: wait for the next one
            finally:
                conn.close()

    def _shuttle(self, conn, stop):
        """Bytes both ways: as they come for socket://; for rfc2217:// through pyserial's server side, which
        negotiates and filters the Telnet commands out."""
        with serial.Serial(self.path, timeout=0) as port:
            inward = outward = bytes
            if self.rfc2217:
                manager = serial.rfc2217.PortManager(TolerantPort(port), Connection(conn))

                def inward(data):
                    return b"".join(manager.filter(data))

                def outward(data):
                    return b"".join(manager.escape(data))
            fd = port.fileno()
            while not stop.is_set():
                ready = select.select([fd] if self.stalled.is_set() else [conn, fd], [], [], POLL)[0]
                if conn in ready:
                    data = conn.recv(4096)
                    if not data:
                        return   # the host closed it
                    _write_all(fd, inward(data))
                if fd in ready:
                    conn.sendall(outward(os.read(fd, 4096)))

    def stall(self):
        self.stalled.set()

    def kill(self):
        """The bridge goes away: its connection ends, new ones are refused. Returns at once; the threads end
        within POLL seconds."""
        self.stop.set()
        self.server.close()

    def revive(self):
        """Listen again on the same port number (after kill)."""
        self.thread.join(5)
        self._listen()

    def close(self):
        self.kill()
        self.thread.join(5)


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class Connection:
    """The socket as PortManager wants it: ``write`` sends."""

    def __init__(self, sock):
        self.sock = sock

    def write(self, data):
        self.sock.sendall(data)


class TolerantPort:
    """The pseudo-terminal as PortManager drives it: baud rate, DTR, RTS and breaks asked for by the client
    mean nothing on a pty (and some of their ioctls fail there); everything else passes through."""

    cts = dsr = ri = cd = False   # the modem lines a pty has not (PortManager reports them to the client)

    def __init__(self, port):
        self.__dict__["_port"] = port

    def __getattr__(self, name):
        return getattr(self._port, name)

    def __setattr__(self, name, value):
        try:
            setattr(self._port, name, value)
        except (OSError, ValueError, serial.SerialException):
            pass

    def reset_input_buffer(self):
        pass   # the client purges on opening: nothing the cup said may be lost to it here

    def reset_output_buffer(self):
        pass


async def send_into_a_stall(link, limit=30):
    """Send 900-byte lines on ``link`` until it gives up (the other side takes no bytes), with a task beating
    every 10 ms beside it: (lines sent, seconds until it gave up, the longest gap between beats, why). A write
    that blocked the loop shows as a long gap."""
    from schocken_host.links import transport
    ticks = []

    async def ticker():
        while True:
            ticks.append(time.monotonic())
            await asyncio.sleep(0.01)
    beat = asyncio.create_task(ticker())
    line = {"t": "status", "pad": "x" * 900}
    sent, start = 0, time.monotonic()
    try:
        while time.monotonic() - start < limit:
            await link.send(line)
            sent += 1
        raise AssertionError("the link took lines for %d s" % limit)
    except transport.TransportClosed as e:
        return sent, time.monotonic() - start, max(b - a for a, b in zip(ticks, ticks[1:])), str(e)
    finally:
        beat.cancel()
        link.close()
