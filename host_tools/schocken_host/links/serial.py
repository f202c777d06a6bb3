"""A cup over a USB serial port (pyserial); emulated cups are reached the same way, through the
pseudo-terminal their process sits on. The port is read and written by the asyncio loop itself (non-blocking,
``add_reader``): no thread per link, so sixteen cups answering at once queue for nothing but the loop. What is
read is cut into lines (the protocol's LineSplitter), REPL noise is skipped and each message decoded. A port
without a file descriptor (another system, an rfc2217:// URL) is read by a thread instead, and written by
pyserial in the loop's executor, bounded all the same. A port may be a URL (links/urls.py): socket:// is a TCP
socket, which the loop reads and writes like a tty; it is opened in the executor, since a connection to
another machine may take seconds and the loop serves the other cups meanwhile. Named `SerialLink`, not
`SerialTransport`: mpremote has a class of that name, which provision/device.py uses for a board's REPL."""

import asyncio
import errno
import os
import threading
import time

from schocken import protocol

from schocken_host.links import urls
from schocken_host.links.transport import Transport, TransportClosed, hello

# USB vendor ids of boards that carry a cup: Espressif, Raspberry Pi, Silicon Labs CP210x, WCH CH340, FTDI.
LIKELY_VIDS = {0x303A: "Espressif", 0x2E8A: "Raspberry Pi", 0x10C4: "CP210x", 0x1A86: "CH340", 0x0403: "FTDI"}


WRITE_TIMEOUT = 2.0   # s: a cup that takes no bytes for this long (its input full, nobody reading) is gone
BUSY_WAIT = 3.0       # s: how long a port that another program holds is tried again


class SerialLink(Transport):
    def __init__(self, port, baudrate=115200):
        self.port = port
        self.baudrate = baudrate
        self.name = "serial:%s" % port
        self.serial = None
        self.queue = None
        self.loop = None
        self.thread = None
        self.splitter = protocol.LineSplitter(protocol.MAX_LINE)
        self.fd = None                # the port's descriptor while the loop reads it
        self.closed = False

    async def open(self):
        import serial
        self.loop = asyncio.get_running_loop()
        self.queue = asyncio.Queue()
        self.writing = asyncio.Lock()  # one line after the other: a line waiting for room is not cut into
        self.closed = False
        self._stop_reading()
        self._close_port()   # opened again after a broken link: the old connection must not linger
        self.thread = None
        try:
            # Exclusive: another program on the port (a terminal, a second host) would take the cup's lines.
            settings = dict(baudrate=self.baudrate, timeout=0.1, write_timeout=WRITE_TIMEOUT, exclusive=True)
            if urls.is_url(self.port):
                if urls.scheme(self.port) == "rfc2217":
                    del settings["write_timeout"]   # not supported there: _write_in_thread bounds writes
                self.serial = await _open_url(self.loop, self.port, settings)
                urls.no_delay(self.serial)
            else:
                self.serial = await _open_device(self.port, settings)
                _lock_tty(self.serial)
        except (serial.SerialException, OSError, ValueError, NotImplementedError) as e:
            if urls.is_url(self.port):
                key, fields = urls.open_error(self.port, e)
                raise TransportClosed(key, **fields)
            raise TransportClosed("link.cannot_open", port=self.port, error=e)
        if self.closed:  # closed while the connection was being made
            self._close_port()
            raise TransportClosed("link.closed", name=self.port)
        self.splitter = protocol.LineSplitter(protocol.MAX_LINE)
        self.fd = _fileno(self.serial)
        if self.fd is None:
            self.thread = threading.Thread(target=self._reader, name=self.name, daemon=True)
            self.thread.start()
        else:
            os.set_blocking(self.fd, False)  # pyserial opens it so; a read must never block the loop
            self.loop.add_reader(self.fd, self._readable)

    def _readable(self):
        """The loop's reader: whatever the port has, at once. Never raises (a line cannot end the loop)."""
        try:
            data = os.read(self.fd, 4096)
        except (BlockingIOError, InterruptedError):
            return
        except Exception as e:  # a pulled cable: EIO, or the descriptor went away
            return self._broken(e)
        if not data:  # a tty whose other side is gone, or a TCP connection the other side closed
            if urls.is_url(self.port):
                return self._stop_and_put(TransportClosed("link.connection_lost", name=self.port))
            return self._broken("end of file")
        self._take(data)

    def _broken(self, error):
        self._stop_and_put(TransportClosed("link.broken", name=self.port, error=error))

    def _stop_and_put(self, closed):
        self._stop_reading()
        self._put(closed)

    def _stop_reading(self):
        fd, self.fd = getattr(self, "fd", None), None
        if fd is not None and self.loop is not None and not self.loop.is_closed():
            self.loop.remove_reader(fd)

    def _reader(self):
        """A reader thread, for a port without a file descriptor. It serves the port it was started for:
        once the link is closed or opened again (another port object), it ends without a word, so nothing of
        an old connection reaches the new one's queue."""
        port = self.serial
        while not self.closed and self.serial is port:
            try:
                data = port.read(port.in_waiting or 1)
            except Exception as e:  # a pulled cable, a lost connection: one of several pyserial/OS errors
                if not self.closed and self.serial is port:
                    self._put(TransportClosed("link.broken", name=self.port, error=e))
                return
            if self.serial is port:
                self._take(data)

    def _take(self, data):
        for line in self.splitter.feed(data):
            try:
                item = self._line_item(line)
            except Exception as e:  # whatever a line holds, the reader outlives it
                item = {"t": "garbage", "code": protocol.E_BAD_MESSAGE,
                        "msg": "%s: %s" % (type(e).__name__, e)}
            if item is not None:
                self._put(item)

    def _put(self, item):
        if self.thread is None:  # in the loop
            self.queue.put_nowait(item)
            return
        try:
            self.loop.call_soon_threadsafe(self.queue.put_nowait, item)
        except RuntimeError:  # loop closed: the host is shutting down
            pass

    async def send(self, msg):
        if self.serial is None or self.closed:
            raise TransportClosed("link.closed", name=self.port)
        data = self._encode(msg)
        fd = _fileno(self.serial)  # None: no descriptor (another system, rfc2217://): pyserial's write
        try:
            # The line before holds the port for WRITE_TIMEOUT at most; this one waits as long, no longer.
            try:
                await asyncio.wait_for(self.writing.acquire(), WRITE_TIMEOUT)
            except asyncio.TimeoutError:
                raise TimeoutError("the line before held the port for %.0f s" % WRITE_TIMEOUT) from None
            if fd is None:
                await self._write_in_thread(data)
            else:
                try:
                    await _write_fd(fd, data)
                finally:
                    self.writing.release()
        except Exception as e:
            raise TransportClosed("link.broken", name=self.port, error=e)

    async def _write_in_thread(self, data):
        """pyserial's write in the executor (holding ``writing``), for a port without a descriptor. Its own
        write timeout may not bound it (rfc2217 sends with the socket's 5 s timeout), so the wait here ends
        after WRITE_TIMEOUT regardless; the port stays held until the thread is back, and the link counts as
        broken."""
        loop = asyncio.get_running_loop()
        lock = self.writing   # this link's: a link opened again meanwhile has a new one
        try:
            job = loop.run_in_executor(None, self.serial.write, data)
        except BaseException:
            lock.release()
            raise
        job.add_done_callback(lambda _: lock.release())
        try:
            await asyncio.wait_for(asyncio.shield(job), WRITE_TIMEOUT)
        except asyncio.TimeoutError:
            job.add_done_callback(lambda j: j.exception())   # seen: no "never retrieved" warning later
            raise TimeoutError("the cup took no bytes for %.0f s" % WRITE_TIMEOUT) from None

    def close(self):
        """Stops reading and closes the port; from the loop's thread (or once the loop is gone)."""
        self.closed = True
        self._stop_reading()  # before the descriptor closes: its number is soon another file's
        self._close_port()

    def _close_port(self):
        port, self.serial = self.serial, None
        if port is None:
            return
        if urls.is_url(self.port) and _fileno(port) is None:
            # rfc2217's close joins its reader thread and then sleeps 0.3 s: not in the loop's time.
            threading.Thread(target=_close_quietly, args=(port,), daemon=True).start()
        else:
            _close_quietly(port)


def _close_quietly(port):
    try:
        port.close()
    except Exception:
        pass


async def _open_url(loop, url, settings):
    """serial_for_url in the executor. A wait cancelled meanwhile leaves the connection to be made: it is
    closed when it comes, not left open for nobody."""
    import serial
    job = loop.run_in_executor(None, lambda: serial.serial_for_url(url, **settings))
    try:
        return await asyncio.shield(job)
    except asyncio.CancelledError:
        job.add_done_callback(lambda j: j.cancelled() or j.exception() or _close_quietly(j.result()))
        raise


async def _open_device(path, settings):
    """A device port. One another program holds for a moment is tried again for up to BUSY_WAIT s: Linux's
    ModemManager probes each new USB serial port, another host's search greets it, and a host reconnecting to
    a cup that went away tries the path it had. Held longer, it is the user's to free (the error says so)."""
    import serial
    end = time.monotonic() + BUSY_WAIT
    while True:
        try:
            return serial.Serial(path, **settings)
        except serial.SerialException as e:
            if e.errno not in (errno.EAGAIN, errno.EBUSY) or time.monotonic() >= end:
                raise
        await asyncio.sleep(0.1)


def _fileno(port):
    try:
        return port.fileno()
    except Exception:
        return None


async def _write_fd(fd, data):
    """Write on the event loop, without a thread: a line fits the driver's buffer at once as a rule, so one
    os.write does it; only a cup that takes no bytes makes it wait, for WRITE_TIMEOUT at most. pyserial's
    write would wait in a thread hop per line (and poll the port after every complete write)."""
    os.set_blocking(fd, False)  # pyserial opens the port so; a write must never block the loop
    view = memoryview(data)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WRITE_TIMEOUT
    while True:
        try:
            view = view[os.write(fd, view):]
        except (BlockingIOError, InterruptedError):
            pass
        if not view:
            return
        ready = loop.create_future()
        loop.add_writer(fd, lambda: ready.done() or ready.set_result(None))
        try:
            await asyncio.wait_for(ready, max(0.0, deadline - loop.time()))
        except asyncio.TimeoutError:
            raise TimeoutError("the cup took no bytes for %.0f s" % WRITE_TIMEOUT) from None
        finally:
            loop.remove_writer(fd)


def _lock_tty(port):
    """TIOCEXCL on top of pyserial's flock: a program that does not ask for a lock (cat, a terminal) cannot
    open the cup's port either while the host holds it (Linux lets only root through). Not on every system."""
    try:
        import fcntl
        import termios
        fcntl.ioctl(port.fileno(), termios.TIOCEXCL)
    except (ImportError, AttributeError, OSError, ValueError):
        pass


def likely_ports(ports=None):
    """Serial ports whose USB vendor id looks like a cup's board. ``ports`` defaults to pyserial's list
    (which does not list pseudo-terminals: pass them explicitly)."""
    if ports is None:
        from serial.tools import list_ports
        ports = list_ports.comports()
    return [p.device for p in ports if getattr(p, "vid", None) in LIKELY_VIDS]


async def cups_on_ports(ports=(), timeout=2.0, note=None, refused=None):
    """The one search for cups on serial ports (``schocken play`` through ``discover``, and ``scan``):
    each likely USB port and each of ``ports`` (named by the user, a URL too: links/urls.py) greeted with
    hello, one after the other. Yields (transport, identity) of each that answers, still open (the caller
    closes it); the next port is opened only when the caller asks for it. ``note(error)`` hears of each port
    of ``ports`` that does not open (a typo in a host name, a bridge that is not running: the user named it,
    so its silence would mislead); ``refused(transport)`` of each whose answer hello refused (closed; the
    line it answered with in ``last_raw``)."""
    named = list(ports)
    try:
        listed = likely_ports()
    except Exception:  # noqa: BLE001 - no pyserial port listing here
        listed = []
    for port in listed + [p for p in named if p not in listed]:
        t = SerialLink(port)
        try:
            await t.open()
        except TransportClosed as e:
            if note is not None and port in named:
                note(e)
            continue
        try:
            ident = await hello(t, timeout)
        except TransportClosed:
            t.close()
            if refused is not None:
                refused(t)
            continue
        except (asyncio.TimeoutError, OSError):
            t.close()
            continue
        yield t, ident


async def discover(ports=(), timeout=2.0):
    """Every cup that answers on a serial port (``cups_on_ports``), all open at once: [(transport,
    identity)]."""
    return [found async for found in cups_on_ports(ports, timeout)]
