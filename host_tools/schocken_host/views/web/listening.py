"""Where the page is served: the listening socket --web asks for, the address other machines reach it at, the
host names it answers to, and the open-file limit its connections need."""

import ipaddress
import socket

from schocken_host.errors import CommandError
from schocken_host.i18n import os_reason


def lan_address():
    """The address other machines on the network reach this one at (no packet is sent)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 1))
        return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


def bind(address):
    """A listening socket on ``address`` (host, port) from --web; CommandError when it cannot be had."""
    host, port = address
    text = "%s:%d" % (host, port) if host else str(port)
    try:
        if host:
            family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
            return socket.create_server((host, port), family=family)
        return socket.create_server(("0.0.0.0", port))
    except (OSError, UnicodeError) as e:
        raise CommandError("web.bind", address=text, error=os_reason(e) if isinstance(e, OSError) else e)


def is_ip(host):
    try:
        ipaddress.ip_address(host.strip("[]"))
        return True
    except ValueError:
        return False


def raise_open_files():
    """The open-file limit, raised to the hard limit where the OS allows: every connection is a file."""
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard == resource.RLIM_INFINITY or hard > soft:
            wanted = 65536 if hard == resource.RLIM_INFINITY else hard
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        return soft
    except (ImportError, ValueError, OSError):
        return 1024


def own_names(given):
    """The host names the server answers to besides the address a client connected to: localhost, this
    machine's name (and its mDNS .local name, as a phone may type it), and the name given to --web."""
    names = {"localhost"}
    machine = socket.gethostname().lower().rstrip(".")
    if machine:
        names |= {machine, machine.split(".")[0] + ".local"}
    given = given.lower().rstrip(".")
    if given and not is_ip(given):
        names.add(given)
    return names
