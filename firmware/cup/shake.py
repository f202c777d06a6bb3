"""Shake detector: decides when a throw happens.

A throw happens when shaking STOPS: first a real shake must be seen (strong
motion for a while, with direction reversals), then the throw becomes final as
soon as the cup is still again. Picking up, tilting, carrying, tapping and hard
set-downs must never throw, so each of them fails at least one shake test:
  - carrying / picking up: energy stays below the "high" threshold;
  - tilting: slow, one direction, no reversals;
  - taps / hard set-downs: spikes < 100 ms, far shorter than _MIN_SHAKE_MS, and
    mostly quiet in between (low duty), even when several come in a row.

Designed for 100 Hz sampling. Timestamps may be time.ticks_ms() values: all
elapsed times are taken modulo 2**30 (the ticks period), forward only.

Hot path rules (feed_board, with _sense and _accel or feed_switch, runs 100
times a second on the board): no allocation at all, frames included (at most
11 words each, see below). Integers only, and every intermediate value stays below
2**30 so it remains a small int on 32-bit ports (ESP32/RP2): a larger product
would silently become a heap-allocated long int. Hence inputs are scaled to
16 mm/s^2 units and clamped before anything is squared.
"""

from array import array

from micropython import const

IDLE = "idle"
SHAKING = "shaking"
SETTLING = "settling"

# A constant object (an Ellipsis: no heap object). Without one MicroPython keeps the heap object after this
# module's table of names alive with the module (docs/firmware.md, Memory; tests/test_micropython.py).
_CONSTANT = ...

# Tuning (mm/s^2, ms, samples). Constants, not per-instance settings: the hot path compares against
# literals, and the cup keeps no attribute (nor its name) per threshold.
_HI_MMS = const(8000)        # |a - g| above this is "high" (a shake is 15-30 m/s^2)
_MIN_SHAKE_MS = const(300)   # a shake lasts at least this long (taps < 100 ms)
_MIN_REVERSALS = const(2)    # ...and changes direction (tilting does not)
_MIN_DUTY_PCT = const(40)    # ...and is high most of the time (tap series are not)
_GAP_MS = const(120)         # longest low-energy dip inside a shake (zero crossings)
_STILL_JERK_MMS = const(1000)  # |a[n] - a[n-1]| below this: not moving...
_STILL_MAG_MMS = const(1500)   # ...and | |a| - 1 g | below this: not accelerating
_SENSOR = const(25)  # text of cup.texts (schocken.text), loaded only for the error
_STILL_N = const(4)          # consecutive still samples (40 ms) -> throw is final
_QUIET_FINAL_MS = const(500)  # fallback: no high sample for this long -> final anyway
_G_MMS = const(9807)         # 1 g; a cheap sensor's scale error hides in _STILL_MAG
_LP_CLAMP_MMS = const(8000)  # gravity filter ignores the excess of spikes beyond this
_SW_MIN_TOGGLES = const(10)  # switch: a shake gives many level changes...
_SW_MIN_MS = const(300)      # ...spread over at least this long...
_SW_SPACING_MS = const(50)   # ...and dense: mean spacing at most this (25 rejects fast
                             # drumming too, but needs a switch that really chatters)
_SW_QUIET_MS = const(80)     # no change for this long: shaking stopped (final)
_SW_SETTLE_MS = const(50)    # no change for this long: show "settling"

_SHIFT = const(4)       # mm/s^2 -> 16 mm/s^2 units (sensor noise is ~40 mm/s^2)
_AMAX = const(8191)     # clamp (131 m/s^2): (2*_AMAX)^2 * 3 < 2**30
_LP_SHIFT = const(4)    # gravity low-pass: alpha 1/16, tau ~160 ms at 100 Hz
_TICKS_MASK = const(0x3FFFFFFF)

# The thresholds in the units the hot path works in: squared 16 mm/s^2 units.
_HI2 = const((_HI_MMS >> _SHIFT) * (_HI_MMS >> _SHIFT))
_JERK2 = const((_STILL_JERK_MMS >> _SHIFT) * (_STILL_JERK_MMS >> _SHIFT))
_G = const(_G_MMS >> _SHIFT)
_TOL = const(_STILL_MAG_MMS >> _SHIFT)
_MAG_LO2 = const((_G - _TOL) * (_G - _TOL))  # |a|^2 window for "1 g only"
_MAG_HI2 = const((_G + _TOL) * (_G + _TOL))
_LP_CLAMP = const(_LP_CLAMP_MMS >> _SHIFT)

# Internal phases (the public `state` string is derived from these)
_P_IDLE = const(0)
_P_CAND = const(1)      # high energy seen, not yet proven to be a shake
_P_SHAKE = const(2)     # proven shake; waiting for stillness

# The detector's numbers, slots of one array('i') made once: the hot path reads and writes them without a
# dictionary lookup each, and the cup keeps three attributes instead of twenty-one (docs/benchmarks.md). Every
# value stays below 2**30 (see above), timestamps too: they are kept modulo 2**30, so 32-bit slots hold them.
_PHASE = const(0)
_SEEDED = const(1)      # 1 once the gravity estimate has its first sample
_GX = const(2)          # gravity, 16 mm/s^2 << _LP_SHIFT
_GY = const(3)
_GZ = const(4)
_PX = const(5)          # previous sample (for the jerk)
_PY = const(6)
_PZ = const(7)
_RX = const(8)          # direction of the last high sample
_RY = const(9)
_RZ = const(10)
_T0 = const(11)         # candidate start
_T_HIGH = const(12)     # last high sample (accel) / last toggle (switch)
_N = const(13)          # samples since candidate start
_N_HIGH = const(14)     # high samples since candidate start
_REV = const(15)        # direction reversals since candidate start
_STILL = const(16)      # consecutive still samples
_LEVEL = const(17)      # last switch level (-1: none yet)
_TOGGLES = const(18)    # switch level changes in the current burst
_DX = const(19)         # dynamic part of the sample (a - gravity)
_DY = const(20)
_DZ = const(21)
_E2 = const(22)         # |d|^2, |jerk|^2, |a|^2 of the sample
_J2 = const(23)
_M2 = const(24)
_SLOTS = const(25)


class ShakeDetector:
    def __init__(self, sensor):  # "accel" or "switch"; no default: a function with one is twice the size
        if sensor != "accel" and sensor != "switch":
            from schocken import text
            raise ValueError(text(_SENSOR, module="cup.texts"))
        self.sensor = sensor
        self._s = array("i", bytes(4 * _SLOTS))
        self._a = array("i", bytes(12))  # the sample: a board reads into it, feed_accel puts it there
        self.reset()

    def reset(self):
        """Forget everything (e.g. after a game state change). Tunables stay.

        Every attribute the hot path writes is created here and its numbers live in ``_s``, made once: the hot
        path never grows the instance dict nor allocates.
        """
        self.state = IDLE
        s = self._s
        for i in range(_SLOTS):
            s[i] = 0  # _P_IDLE, not seeded, no candidate
        s[_LEVEL] = -1

    # Every method the 100 Hz loop calls keeps its frame (arguments, locals, stack) to 11 words: MicroPython
    # takes a larger one from the heap at every call (tests/test_cup_loop.py). So a sample is taken
    # apart in two steps, whose numbers meet in the slots: _sense (per axis, in a loop) and the phases.
    def feed_board(self, t_ms, board):
        """One sample read from a board (docs/board-interface.md): its accelerometer (into the detector's
        sample buffer, made once), or its switch. The cup's 100 Hz loop and the doctor's self-test both use
        it."""
        if self.sensor == "accel":
            board.read_accel(self._a)
            return self._accel(t_ms, self._a)
        return self.feed_switch(t_ms, board.read_switch())

    def feed_accel(self, t_ms, ax, ay, az):
        """One accelerometer sample (ints, mm/s^2). True when a throw is final."""
        a = self._a
        a[0] = ax
        a[1] = ay
        a[2] = az
        return self._accel(t_ms, a)

    def _sense(self, a):
        """The sample ``a`` (x, y, z in mm/s^2) into the slots: scaled and clamped (_PX.., after the jerk is
        taken from the one before), its dynamic part d = a - gravity (_DX..), gravity moved; the squares of
        d, of the jerk and of a summed in _E2, _J2, _M2. False for the first sample: it seeds the filter."""
        s = self._s
        s[_E2] = s[_J2] = s[_M2] = 0
        i = 0
        while i < 3:  # x, y, z: a for loop would keep its counter on the stack, a word over the 11
            # Scale and clamp first, so all squares below fit in a small int.
            v = a[i] >> _SHIFT
            if v > _AMAX:
                v = _AMAX
            elif v < -_AMAX:
                v = -_AMAX
            if not s[_SEEDED]:
                # Assume the first sample is gravity; the filter corrects it anyway.
                s[_GX + i] = v << _LP_SHIFT
                s[_PX + i] = v
                i += 1
                continue
            # Dynamic part d = a - gravity estimate (estimate from before this sample).
            d = v - (s[_GX + i] >> _LP_SHIFT)
            s[_DX + i] = d
            s[_E2] += d * d
            # Gravity low-pass, fixed point: g += clamp(d) / 16. The clamp makes it robust: a 100 m/s^2
            # set-down spike moves g as little as an 8 m/s^2 one, yet slow tilts (any orientation, even
            # upside down) are followed.
            s[_GX + i] += _LP_CLAMP if d > _LP_CLAMP else (-_LP_CLAMP if d < -_LP_CLAMP else d)
            d = v - s[_PX + i]  # the jerk
            s[_J2] += d * d
            s[_PX + i] = v
            s[_M2] += v * v
            i += 1
        if s[_SEEDED]:
            return True
        s[_SEEDED] = 1
        return False

    def _accel(self, t_ms, a):
        """One sample ``a`` (x, y, z in mm/s^2) through the phases. True when a throw is final."""
        s = self._s
        if not self._sense(a):
            return False
        high = s[_E2] >= _HI2
        # Stillness does not use d: after a shake the gravity estimate lags and
        # the cup may be held at a new angle. Instead: the reading barely changes
        # (small jerk) AND its magnitude is 1 g (no linear acceleration). During
        # an oscillation both are never small at once (the jerk peaks at the zero
        # crossings, the magnitude at the turning points).
        still = s[_J2] < _JERK2 and _MAG_LO2 <= s[_M2] <= _MAG_HI2

        phase = s[_PHASE]
        if phase == _P_IDLE:
            if high:
                # Possible shake: start counting duration, duty and reversals.
                s[_PHASE] = _P_CAND
                s[_T0] = s[_T_HIGH] = t_ms & _TICKS_MASK  # mod 2**30: a clock that never wraps fits too
                s[_N] = s[_N_HIGH] = 1
                s[_REV] = 0
                s[_RX] = s[_DX]
                s[_RY] = s[_DY]
                s[_RZ] = s[_DZ]
            return False

        if high:
            s[_T_HIGH] = t_ms & _TICKS_MASK
        if phase == _P_CAND:
            s[_N] += 1
            if high:
                s[_N_HIGH] += 1
                # A reversal: this high sample points away (> 90 deg) from the
                # previous one. Taps ring, but are too short; tilts never do it.
                if s[_DX] * s[_RX] + s[_DY] * s[_RY] + s[_DZ] * s[_RZ] < 0:
                    s[_REV] += 1
                s[_RX] = s[_DX]
                s[_RY] = s[_DY]
                s[_RZ] = s[_DZ]
            elif (t_ms - s[_T_HIGH]) & _TICKS_MASK > _GAP_MS:
                s[_PHASE] = _P_IDLE      # it died out: was a tap / bump
                return False
            if ((t_ms - s[_T0]) & _TICKS_MASK >= _MIN_SHAKE_MS
                    and s[_REV] >= _MIN_REVERSALS
                    and s[_N_HIGH] * 100 >= s[_N] * _MIN_DUTY_PCT):
                s[_PHASE] = _P_SHAKE
                s[_STILL] = 0
                self.state = SHAKING
            return False

        # _P_SHAKE: a real shake happened; final once the cup is still again.
        if still:
            s[_STILL] += 1
            if s[_STILL] >= _STILL_N:
                return self._final()
            if s[_STILL] >= 2:    # one still sample also occurs mid-shake
                self.state = SETTLING
        else:
            s[_STILL] = 0
            self.state = SHAKING
        # Fallback for a hand that never gets quite still (tremor, walking off):
        # the shake clearly ended long ago, so do not keep the throw pending.
        if (t_ms - s[_T_HIGH]) & _TICKS_MASK >= _QUIET_FINAL_MS:
            return self._final()
        return False

    def _final(self):
        s = self._s
        # The cup is still (or at least calm, on the fallback): its reading
        # (_PX..) is ~gravity. Re-seed the filter so the lag built up during the
        # shake cannot start a false candidate.
        s[_GX] = s[_PX] << _LP_SHIFT
        s[_GY] = s[_PY] << _LP_SHIFT
        s[_GZ] = s[_PZ] << _LP_SHIFT
        s[_PHASE] = _P_IDLE
        self.state = IDLE
        return True

    def feed_switch(self, t_ms, level):
        """One vibration/tilt switch sample (0/1). True when a throw is final.

        A shake makes the contact chatter: a burst of level changes with no gap
        longer than _SW_QUIET_MS. A burst of enough, dense changes lasting long
        enough is a shake; it is final _SW_QUIET_MS after the last change. A tap
        gives a few changes within ~30 ms; walking gives a few per step, steps
        being far more than _SW_QUIET_MS apart, so their bursts never grow long;
        fast knocking/drumming chains but is too sparse (_SW_SPACING_MS).
        """
        s = self._s
        if level != s[_LEVEL]:
            first = s[_LEVEL] < 0
            s[_LEVEL] = level
            if first:
                return False            # initial level, not a change
            if s[_PHASE] == _P_IDLE:
                s[_PHASE] = _P_CAND
                s[_T0] = t_ms & _TICKS_MASK
                s[_TOGGLES] = 0
            s[_TOGGLES] += 1
            s[_T_HIGH] = t_ms & _TICKS_MASK
            if s[_PHASE] == _P_CAND and s[_TOGGLES] >= _SW_MIN_TOGGLES:
                el = (t_ms - s[_T0]) & _TICKS_MASK
                if el >= _SW_MIN_MS and s[_TOGGLES] * _SW_SPACING_MS >= el:
                    s[_PHASE] = _P_SHAKE
            if s[_PHASE] == _P_SHAKE:
                self.state = SHAKING
            return False
        if s[_PHASE] == _P_IDLE:
            return False
        quiet = (t_ms - s[_T_HIGH]) & _TICKS_MASK
        if s[_PHASE] == _P_CAND:
            if quiet >= _SW_QUIET_MS:
                s[_PHASE] = _P_IDLE   # burst ended before it proved a shake
            return False
        if quiet >= _SW_QUIET_MS:
            s[_PHASE] = _P_IDLE
            self.state = IDLE
            return True
        if quiet >= _SW_SETTLE_MS:
            self.state = SETTLING
        return False
