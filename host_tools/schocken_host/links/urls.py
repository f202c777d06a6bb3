"""Ports named by a pyserial URL: a cup behind a TCP bridge instead of on a local serial port.

``socket://HOST:PORT`` is a raw TCP stream (ser2net in raw mode on a Raspberry Pi at the bar, a cup simulated
in Wokwi); ``rfc2217://HOST:PORT`` is Telnet with RFC 2217 (ser2net's telnet mode, pyserial's own server).
pyserial opens both with ``serial_for_url``; its other URL kinds (loop://, spy://, hwgrep://, ...) reach no
cup and are refused. Only ports the user names are URLs: discovery stays on USB (no scanning of networks).

Why a failed connection says what it says: pyserial folds every cause into one SerialException text, but
raises it while handling the socket's own error, so ``__context__`` still tells a refused connection from an
unknown host or a silent one. mpremote (deploy, doctor) drops even that: ``why_not`` asks the network again.
"""

import socket

# What a URL looks like is checked with the user's input (input_checks: the base layer, below the links).
from schocken_host.input_checks import URL_SCHEMES as SCHEMES, is_url, url_address as address  # noqa: F401
from schocken_host.input_checks import url_scheme as scheme  # noqa: F401

CONNECT_TIMEOUT = 5.0   # s: what pyserial's URL handlers allow a TCP connect; a diagnosis waits no longer


KNOWN_CAUSES = ((socket.gaierror, "link.unknown_host"), (ConnectionRefusedError, "link.connection_refused"),
                (TimeoutError, "link.host_silent"))   # socket.timeout is TimeoutError


def open_error(port, error):
    """The TransportClosed key and fields for a URL that did not open: why, in words, from the socket error
    under pyserial's exception (or ``error`` itself)."""
    where = address(port)
    host = where[0] if where else port
    cause, seen = error, 0
    while cause is not None and seen < 10:   # pyserial's SerialException is an OSError too: look beneath it
        for kind, key in KNOWN_CAUSES:
            if isinstance(cause, kind):
                return key, {"port": port, "host": host}
        cause, seen = cause.__context__, seen + 1
    return "link.cannot_open", {"port": port, "error": error}


def no_delay(port):
    """TCP_NODELAY on an opened URL port (pyserial sets it for rfc2217 only): the protocol and the raw REPL
    go back and forth in short lines and flow-control bytes, which Nagle's algorithm would each hold back for
    the other side's delayed ACK (40 ms a time: a deploy ten times slower). ``_socket`` is pyserial's."""
    sock = getattr(port, "_socket", None)
    if sock is not None:
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            pass


def why_not(port):
    """Why a URL cannot be reached: the exception of a fresh connection attempt, or None when it connects
    (then something beyond the TCP connection failed)."""
    where = address(port)
    if where is None:
        return None
    try:
        socket.create_connection(where, timeout=CONNECT_TIMEOUT).close()
    except OSError as e:
        return e
    return None
