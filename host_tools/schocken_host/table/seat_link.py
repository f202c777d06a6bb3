"""One seat's link to its cup, and what the table keeps of that link: the transport (and how to open it again
after the cup went away), the cup's identity from its hello, the inbox the seat's pump fills and the
connection each item came from, when the cup was last heard, and the status requests asked of it. The pump and
the waits that use it are table/cuplinks.py's."""

import asyncio


class SeatLink:
    def __init__(self, transport, reconnect=None):
        self.transport = transport
        self.reconnect = reconnect    # async () -> Transport, for a cup that went away
        self.identity = None          # the cup's hello (its id, presets, battery)
        self.inbox = None             # (connection, message or TransportClosed), filled by the seat's pump
        self.pump = None
        self.connection = 0           # which connection the inbox's items came from (a new one drops the old)
        self.heard = 0.0              # loop time of the cup's last message
        self.ping_id = 0              # id of the last status request
        self.ping_at = None           # loop time of an unanswered status request
        self.fresh_from = 1           # a status answers the present only if its id is at least this
        self.faults = {}              # round -> faults reported

    def new_connection(self, now):
        """A connection begins (or one that could not be made is put in its place): what the inbox held of
        the old one is dropped."""
        self.connection += 1
        self.inbox = asyncio.Queue()
        self.heard = now
        self.ping_at = None

    def heard_now(self, now):
        self.heard = now
        self.ping_at = None

    def next_ping(self):
        """The id of a new status request."""
        self.ping_id += 1
        return self.ping_id

    def commanded(self):
        """A command goes to the cup: what it said before it is old news."""
        self.fresh_from = self.ping_id + 1

    def fresh(self, status):
        """True when a status answers a request made after the table's last command to the cup."""
        return status.get("id") is not None and status["id"] >= self.fresh_from
