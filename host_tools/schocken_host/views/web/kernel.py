"""What the kernel holds of a guest's connection, and its bounds (docs/web.md, "Threat model"). A socket the
process has closed is not gone: a close sends a FIN behind the data not yet sent, and the kernel keeps that
data (state FIN_WAIT1) for as long as the guest keeps its window shut, minutes and more. So a connection the
guard lets go with data left unsent is reset (``hang_up``), and every connection's unacknowledged data is
bounded in time (``bound_in_kernel``), which covers a response that ends in the send queue of a guest who
never reads it."""

import socket
import struct

_LINGER_RESET = struct.pack("ii", 1, 0)     # SO_LINGER on, 0 s: close() resets, the send queue is dropped


def bound_in_kernel(sock, send_buffer, unacked_ms):
    """``sock``'s send buffer fixed at ``send_buffer`` bytes (no autotuning to megabytes), and the kernel
    told to give the connection up when data it sent stays unacknowledged, or the window shut, for
    ``unacked_ms`` (TCP_USER_TIMEOUT: also once the process has closed it)."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
    if hasattr(socket, "TCP_USER_TIMEOUT"):     # Linux; elsewhere the process's own bounds only
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, unacked_ms)


def bound_orphan(sock, unacked_ms):
    """``sock`` about to be closed: what it leaves unsent the kernel gives up after ``unacked_ms`` without an
    acknowledgement (a guest who keeps his window shut), not after minutes."""
    if hasattr(socket, "TCP_USER_TIMEOUT"):
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, unacked_ms)
        except OSError:
            pass                                # closed already: nothing is held


def kernel_unsent(sock):
    """The bytes of a connection the kernel still holds to send (or has sent, unacknowledged); None where
    the OS does not say."""
    try:
        import fcntl                            # not on Windows
        import termios
        outq = termios.TIOCOUTQ                 # on a socket: Linux's SIOCOUTQ
        return struct.unpack("i", fcntl.ioctl(sock.fileno(), outq, b"\0\0\0\0"))[0]
    except (ImportError, AttributeError, OSError):
        return None


def hang_up(transport):
    """End a connection now. One with nothing left to send ends with a FIN, as a browser expects of an idle
    connection; one with data the guest has not taken (in the process or in the kernel, or where the OS does
    not say) is reset: SO_LINGER at 0 s makes the close a reset, and the send queue is freed at once."""
    if transport is None:
        return
    sock = transport.get_extra_info("socket")
    if sock is not None and (transport.get_write_buffer_size() or kernel_unsent(sock) != 0):
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _LINGER_RESET)
        except OSError:
            pass                                # closed already: nothing is held
    transport.abort()
