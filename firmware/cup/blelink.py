"""The cup's side of BLE that is not the radio: the tracker that follows the cup's state from the messages on
its link, so the advertisement can say it without a hook in the app. The format itself (UUIDs, fragments, the
advertisement) is schocken.bleformat, shared with the host; the radio is firmware/boards/ble.py (aioble).
"""

import json

from schocken import protocol
from schocken.bleformat import advertising_data


# --- the cup's state, followed from its link ----------------------------------------------------------
class Tracker:
    """Follows state, name and seat from the lines the cup sends, so the advertisement can tell them without
    the app knowing about BLE. ``seq`` counts the changes (mod 256).

    Only the cup's own lines count: it says what it accepted (the ``ok`` to ``configure`` carries the name and
    seat it took, ``status`` and ``identity`` its name). What arrives from the link is never looked at: a line
    the cup refuses (forged, unsigned, replayed, or against the rules) must not reach the advertisement."""

    def __init__(self, cup_id, name="", battery=None):
        self.cup_id = cup_id
        self.name = name
        self.seat = None
        self.state = "idle"
        self.seq = 0
        self.battery = battery          # callable -> mV or None
        self.changed = None             # callable, called after every change
        self._out = protocol.LineSplitter(protocol.MAX_LINE)

    def _set(self, **kw):
        dirty = False
        for k in kw:
            if getattr(self, k) != kw[k]:
                setattr(self, k, kw[k])
                dirty = True
        if dirty:
            self.seq = (self.seq + 1) & 0xFF
            if self.changed is not None:
                self.changed()

    def cup_bytes(self, data):
        """Bytes the cup sends (whether anybody hears them or not): follows its state."""
        for line in self._out.feed(data):
            if line:
                msg = _loads(line)
                if msg is not None:
                    self.cup_message(msg)

    def cup_message(self, msg):
        t = msg.get("t")
        if t == "status":
            name = msg.get("name")
            self._set(state=msg.get("state", self.state), seat=msg.get("seat"),
                      name=name if isinstance(name, str) else self.name)
        elif t == "ok":
            re = msg.get("re")
            if re == "configure":
                name, seat = msg.get("name"), msg.get("seat")
                self._set(state="idle", name=name if isinstance(name, str) else self.name,
                          seat=seat if isinstance(seat, int) and not isinstance(seat, bool) else self.seat)
            elif re == "turn":
                self._set(state="turn")
            elif re == "round_end":
                self._set(state="reveal_ready")
            elif re == "outcome":
                self._set(state="idle")
        elif t == "progress":
            self._set(state="turn")
        elif t == "done":
            if self.state != "reveal_ready":
                self._set(state="done")
        elif t == "revealed":
            self._set(state="revealed")
        elif t == "identity":
            name = msg.get("name")
            if isinstance(name, str):
                self._set(name=name)

    def advertisement(self):
        bat = self.battery() if self.battery is not None else None
        return advertising_data(self.state, self.seq, self.seat, bat, self.cup_id, self.name)


def _loads(line):
    try:
        msg = json.loads(line)
    except (ValueError, TypeError, IndexError, KeyError, UnicodeError):
        # MicroPython's json raises a few kinds
        return None
    return msg if isinstance(msg, dict) else None
