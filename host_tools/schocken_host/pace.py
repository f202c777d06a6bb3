"""The table's pace: how the host's waits relate to the cups' own time, one value with one bound.

``time_scale``: emulated cups and their bots run K times faster than the wall clock (their clock is scaled,
docs/emulation.md "Time scale"); a real cup keeps its own clock. ``cup_slowness``: the cups are K times slower
than a chip (an emulated RP2040 is about 26, docs/build.md "The target lane"), so every wait on a cup's answer
grows by K. Both are whole numbers 1..MAX_FACTOR; the table's own timeouts (a turn, an absent cup) are the
table's and do not scale."""

MAX_FACTOR = 100


class Pace:
    __slots__ = ("time_scale", "cup_slowness")

    def __init__(self, time_scale=1, cup_slowness=1):
        for name, k in (("time_scale", time_scale), ("cup_slowness", cup_slowness)):
            if not isinstance(k, int) or not 1 <= k <= MAX_FACTOR:
                raise ValueError("%s %r: a whole number 1..%d" % (name, k, MAX_FACTOR))
        self.time_scale = time_scale
        self.cup_slowness = cup_slowness

    def wall_s(self, cup_ms):
        """The wall-clock seconds that ``cup_ms`` of a cup's own time take at this pace."""
        return cup_ms / 1000 * self.cup_slowness / self.time_scale

    def answer_s(self, seconds):
        """A wait of ``seconds`` on a chip's answer, for cups this slow."""
        return seconds * self.cup_slowness

    def __eq__(self, other):
        return isinstance(other, Pace) and (self.time_scale, self.cup_slowness) == (
            other.time_scale, other.cup_slowness)

    def __hash__(self):
        return hash((self.time_scale, self.cup_slowness))

    def __repr__(self):
        return "Pace(time_scale=%d, cup_slowness=%d)" % (self.time_scale, self.cup_slowness)
