"""A cup's charge as the table sees it: the percent left from the cell's curve (not raw millivolts), whether
it runs on USB, the drain measured over the evening and the warning when it will not last.

The cup reports its battery voltage (the divider's reading, in mV) in its identity and in every status; the
curve and the USB threshold are the cell's, in hardware/parts.json ("battery"). The referee logs a ``battery``
event when what the table should see changes (docs/gamelog.md); the scoreboard, the TV page and
`schocken scan` show it.
"""

import json
from pathlib import Path

PARTS = Path(__file__).resolve().parents[3] / "hardware" / "parts.json"
LOW_PERCENT = 20          # below this a cup's charge is called low
LOW_HOURS = 1.0           # ... and so is one that will not last the next hour at its measured drain
MEASURE_S = 600.0         # the drain is measured over at least ten minutes (the curve is in steps of 1 %)

_cell = None


def cell():
    """The battery section of hardware/parts.json (curve, USB threshold), read once."""
    global _cell
    if _cell is None:
        _cell = json.loads(PARTS.read_text())["battery"]
    return _cell


def on_usb(mv):
    """A cup whose reading is above what a resting LiPo can give is on USB (charging, or no cell at all)."""
    return mv is not None and mv > cell()["usb_mv"]


def percent(mv):
    """The charge left, 0..100, from the cell's curve (linear between its points); None without a reading."""
    if mv is None:
        return None
    curve = cell()["curve_mv_percent"]  # from full to empty
    if mv >= curve[0][0]:
        return 100
    for (hi_mv, hi_pc), (lo_mv, lo_pc) in zip(curve, curve[1:]):
        if mv >= lo_mv:
            return int(round(lo_pc + (hi_pc - lo_pc) * (mv - lo_mv) / (hi_mv - lo_mv)))
    return 0


class Drain:
    """One cup's readings over the evening: the percent now, the drain per hour once it has been measured over
    MEASURE_S, the hours left at that drain and whether the table should be warned."""

    def __init__(self):
        self.first = None   # (time s, percent) of the first reading on the cell
        self.now = None     # (time s, percent) of the latest
        self.usb = False

    def reading(self, mv, t):
        """A reading ``mv`` at time ``t`` (s): the state as the event gives it (``event_fields``)."""
        self.usb = on_usb(mv)
        p = percent(mv)
        if self.usb or p is None:
            self.first = self.now = None  # on USB (or no sense): a new measurement once it runs on the cell
            return
        if self.first is None or p > self.first[1]:   # charged meanwhile: measure from here
            self.first = (t, p)
        self.now = (t, p)

    def per_hour(self):
        if self.first is None or self.now[0] - self.first[0] < MEASURE_S or self.now[1] >= self.first[1]:
            return None
        return (self.first[1] - self.now[1]) * 3600.0 / (self.now[0] - self.first[0])

    def hours_left(self):
        rate = self.per_hour()
        return None if rate is None else self.now[1] / rate

    def low(self):
        if self.usb or self.now is None:
            return False
        left = self.hours_left()
        return self.now[1] < LOW_PERCENT or (left is not None and left < LOW_HOURS)

    def event_fields(self, mv):
        """The ``battery`` event's fields after a reading (docs/gamelog.md)."""
        left = self.hours_left()
        return {"mv": mv, "percent": None if self.usb or self.now is None else self.now[1], "usb": self.usb,
                "hours": None if left is None else round(left, 1), "low": self.low()}


class Charges:
    """The table's view of every cup's charge: a Drain per seat, and what its last ``battery`` event said."""

    def __init__(self):
        self.drains = {}   # seat -> Drain
        self.shown = {}    # seat -> (percent, usb, low) of its last event

    def reading(self, seat, mv, t):
        """A reading ``mv`` of the cup at ``seat`` at time ``t`` (s): the ``battery`` event to log (without
        its seat) when what the table sees changed (its percent, USB, the warning), else None."""
        if mv is None:
            return None
        drain = self.drains.setdefault(seat, Drain())
        drain.reading(mv, t)
        fields = drain.event_fields(mv)
        seen = (fields["percent"], fields["usb"], fields["low"])
        if self.shown.get(seat) == seen:
            return None
        self.shown[seat] = seen
        return fields

