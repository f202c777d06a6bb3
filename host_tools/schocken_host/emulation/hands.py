"""The hands at an emulated cup: what a bot, the person at the keyboard and `schocken cup --emulate` do to it
(shake it, press and hold its buttons, peek under it) and what they see on its LEDs, in the cup's own time.

The durations are tied to the cup's long press here and nowhere else: a tap far below it, a peek clearly short
of it (it must never stand), a long press or a stand clearly past it. The cup's long press and its clock's
scale are read from the cup once, when the hands take it up."""

from schocken_host.emulation.emulator import FIRMWARE_LONG_MS, GAP_MS, SHAKE_MS, TAP_MS
from schocken_host.links import ledframe


def button(action):
    """The cup's button an action presses: die 0..2 or the main button 3."""
    return action[1] if action[0] in ("tap", "long") else 3


def hold_ms(action, long_ms):
    """How long the button of ``action`` is held on a cup whose long press is ``long_ms``; None for actions
    that press no button (shake, quit)."""
    kind = action[0]
    if kind in ("tap", "reveal"):
        return TAP_MS
    if kind == "peek":
        return long_ms // 2   # clearly short of a long press: a peek must never stand
    if kind in ("long", "stand"):
        return long_ms + max(250, long_ms // 4)   # clearly past it
    return None


class Hands:
    """One emulated cup (emulation/emulator.EmulatedCup, or a board with its press, hold, shake and frames),
    taken in hand. An action is ("shake",), ("tap", die), ("long", die), ("peek",), ("stand",) or
    ("reveal",), as views/keymap.py maps keys to them."""

    def __init__(self, cup):
        self.cup = cup
        self.long_ms = getattr(cup, "long_ms", None) or FIRMWARE_LONG_MS   # None: the firmware's own
        self.time_scale = getattr(cup, "time_scale", 1) or 1

    # --- doing ---------------------------------------------------------------------------------------
    def hold_ms(self, action):
        return hold_ms(action, self.long_ms)

    def wall_s(self, cup_ms):
        """The wall-clock seconds that ``cup_ms`` of this cup's time take."""
        return cup_ms / 1000 / self.time_scale

    def act(self, action, shake_ms=SHAKE_MS):
        """Carry out an action; blocks for a press (held, released, and a thumb's gap after it), not for a
        shake (the cup shakes for ``shake_ms`` of its own time)."""
        if action[0] == "shake":
            self.cup.shake(shake_ms)
        else:
            self.cup.press(button(action), self.hold_ms(action), GAP_MS)

    def hold(self, action, ms=None):
        """Hold an action's button for ``ms`` (its own duration unless given) of the cup's time, without
        waiting: the cup's control channel times the release."""
        self.cup.hold(button(action), self.hold_ms(action) if ms is None else ms)

    def let_go(self, action):
        """The action's button up for sure: ends a hold, or one still waiting."""
        self.cup.control("release %d" % button(action))

    # --- seeing --------------------------------------------------------------------------------------
    def frames_since(self, count):
        return self.cup.frames_since(count)

    @property
    def frame_count(self):
        return self.cup.frame_count

    def light(self):
        """The name of the cup's status color (ledframe.STATUS_COLORS), None before its first frame."""
        frame = self.cup.last_frame
        return None if frame is None else ledframe.status_name(ledframe.decode(frame)["status"])

    def refused_since(self, count):
        """A frame after the first ``count`` flashed red: the cup refused an input."""
        return any(ledframe.status_name(ledframe.decode(f)["status"]) == "red"
                   for f in self.cup.frames_since(count))
