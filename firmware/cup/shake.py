"""Shake detector: decides when a throw happens, and says what it saw otherwise."""

# (Comments, not the docstring: MicroPython keeps a docstring in the parse tree while it compiles the
# module, and a cup compiling from source has a small heap.)
#
# A throw happens when shaking STOPS: first a real shake must be seen, then the throw becomes final as soon
# as the cup is still again. A shake is what the shake-quality rule says (docs/rules.md, "The shake"): a
# sustained oscillation, half-swings in a row on one axis at a shaking hand's rate, strong and long enough;
# how this module tests it: docs/firmware.md, "Shake detector". ``motion`` says what the sensor saw
# otherwise ("still", "tilt", "handling", "set_down"); "shaking" and "settling" are the throw's progress.
# Designed for 100 Hz sampling. Timestamps may be time.ticks_ms() values: all elapsed times are taken
# modulo 2**30 (the ticks period), forward only.
#
# Hot path rules (feed_board, with _sense, _swing and _accel or feed_switch, runs 100 times a second on the
# board): no allocation at all, frames included (at most 11 words each, see below). Integers only, and every
# intermediate value stays below 2**30 so it remains a small int on 32-bit ports (ESP32/RP2): a larger
# product would silently become a heap-allocated long int. Hence inputs are scaled to 16 mm/s^2 units and
# clamped before anything is squared.

from array import array

from micropython import const

# What the cup saw (``motion``), as the cup's status answer reports it (docs/protocol.md): "still", "tilt",
# "handling", "set_down", "shaking", "settling". Literals, not names of this module: each name would cost the
# cup's heap a slot of the module's table (docs/firmware.md, Memory).

# A constant object (an Ellipsis: no heap object). Without one MicroPython keeps the heap object after this
# module's table of names alive with the module (docs/firmware.md, Memory; tests/test_micropython.py).
_CONSTANT = ...

# Tuning (mm/s^2, ms, samples). The three thresholds a sensitivity sets are slots (``_HI2`` ...), the rest
# constants: the hot path compares against literals, and the cup keeps no attribute per threshold.
_HALF_MIN_MS = const(55)     # a half-swing lasts at least this (9 Hz: faster is the ringing of a knock)...
_HALF_MAX_MS = const(330)    # ...and at most this (1.5 Hz: slower is an arm, a gesture, a step)
_SLOW_MS = const(600)        # an axis that swung slowly this recently vetoes the count (see _swing)...
_SLOWEST_MS = const(1000)    # ...a half-swing of at most this (0.5 Hz); a longer one is a pause
_MIN_SHAKE_MS = const(300)   # a shake lasts at least this long (taps < 100 ms)
_GAP_MS = const(300)         # longest stretch without a high sample inside a shake (a half-swing)
_IMPACT_MMS = const(12000)   # a knock or set-down: |a - g| above this...
_IMPACT_MS = const(250)      # ...at most this long before the burst of motion ends
_STILL_JERK_MMS = const(900)   # |a[n] - a[n-1]| below this: not moving...
_STILL_MAG_MMS = const(1200)  # ...and | |a| - 1 g | below this: not accelerating
_SENSOR = const(25)  # texts of cup.texts (schocken.text), loaded only for the error
_SENSITIVITY = const(32)
_CALIBRATION = const(33)
_STILL_N = const(4)          # consecutive still samples (40 ms) -> throw is final
_REST_N = const(30)          # consecutive still samples (300 ms): the cup rests (still or tilt)
_QUIET_FINAL_MS = const(500)  # fallback: no high sample for this long -> final anyway
_G_MMS = const(9807)         # 1 g; a cheap sensor's scale error hides in _STILL_MAG
_LP_CLAMP_MMS = const(8000)  # gravity filter ignores the excess of spikes beyond this
_TILT_COS_PCT = const(87)    # resting turned by more than 30 degrees (cos 30 = 0.87): "tilt"
_SW_MIN_MS = const(300)      # switch: a shake's burst of level changes lasts at least this...
_SW_QUIET_MS = const(80)     # no change for this long: shaking stopped (final)
_SW_SETTLE_MS = const(50)    # no change for this long: show "settling"

# The sensitivities (``__init__``): high and swing in 500 mm/s^2 and half-swings (accelerometer), bits 10,
# 5 and 0; level changes (switch), bit 15.
_LOW = const(14 << 15 | 20 << 10 | 14 << 5 | 4)
_NORMAL = const(10 << 15 | 16 << 10 | 12 << 5 | 3)
_HIGH = const(8 << 15 | 13 << 10 | 9 << 5 | 3)
_SW_SPACING_MS = const(50)

_SHIFT = const(4)       # mm/s^2 -> 16 mm/s^2 units (sensor noise is ~40 mm/s^2)
_AMAX = const(8191)     # clamp (131 m/s^2): (2*_AMAX)^2 * 3 < 2**30
_LP_SHIFT = const(4)    # gravity low-pass: alpha 1/16, tau ~160 ms at 100 Hz
_TICKS_MASK = const(0x3FFFFFFF)

# The thresholds in the units the hot path works in: squared 16 mm/s^2 units.
_JERK2 = const((_STILL_JERK_MMS >> _SHIFT) * (_STILL_JERK_MMS >> _SHIFT))
_IMPACT2 = const((_IMPACT_MMS >> _SHIFT) * (_IMPACT_MMS >> _SHIFT))
_G = const(_G_MMS >> _SHIFT)
_TOL = const(_STILL_MAG_MMS >> _SHIFT)
_MAG_LO2 = const((_G - _TOL) * (_G - _TOL))  # |a|^2 window for "1 g only"
_MAG_HI2 = const((_G + _TOL) * (_G + _TOL))
_LP_CLAMP = const(_LP_CLAMP_MMS >> _SHIFT)
_TILT_DOT = const(_G * _G * _TILT_COS_PCT // 100)

# Internal phases (the public `state` string is derived from these)
_P_IDLE = const(0)
_P_CAND = const(1)      # high energy seen, not yet proven to be a shake
_P_SHAKE = const(2)     # proven shake; waiting for stillness

# The detector's numbers, slots of one array('i') made once: the hot path reads and writes them without a
# dictionary lookup each, and the cup keeps a few attributes instead of thirty (docs/benchmarks.md). Every
# value stays below 2**30 (see above), timestamps too: they are kept modulo 2**30, so 32-bit slots hold them.
# Slots 0-2: the sample (x, y, z in mm/s^2) as a board reads it (``read_accel(buf)`` fills buf[0..2]), so
# the cup keeps no second array for it.
_PHASE = const(3)
_SEEDED = const(4)      # 1 once the gravity estimate has its first sample
_GX = const(5)          # gravity, 16 mm/s^2 << _LP_SHIFT
_GY = const(6)
_GZ = const(7)
_PX = const(8)          # previous sample (for the jerk)
_PY = const(9)
_PZ = const(10)
_WX = const(11)          # the side of the last swing per axis: -1, 0 (none yet), +1
_WY = const(12)
_WZ = const(13)
_T0 = const(14)         # candidate start
_T_HIGH = const(15)     # last high sample (accel) / last toggle (switch)
_PEAK = const(16)       # the largest |d|^2 since the candidate started
# slot 17 is free
_LEVEL = const(18)      # last switch level (-1: none yet)
_TOGGLES = const(19)    # switch level changes in the current burst
_STILL = const(20)      # consecutive still samples
_DX = const(21)         # dynamic part of the sample (a - gravity)
_DY = const(22)
_DZ = const(23)
_E2 = const(24)         # |d|^2, |jerk|^2, |a|^2 of the sample
_J2 = const(25)
_M2 = const(26)
_TX = const(27)         # time of the last swing per axis
_TY = const(28)
_TZ = const(29)
_NX = const(30)         # half-swings in a row per axis, each 55-300 ms
_NY = const(31)
_NZ = const(32)
_HI2 = const(33)        # sensitivity: high, squared 16 mm/s^2 units
_SWING = const(34)      # sensitivity: swing, 16 mm/s^2 units
_HALVES = const(35)     # sensitivity: half-swings (accel); level changes (switch)
_RX = const(36)         # where the cup rests (gravity, 16 mm/s^2) after a throw or at the start
_RY = const(37)
_RZ = const(38)
_LX = const(39)         # the last half-swing's duration per axis
_LY = const(40)
_LZ = const(41)
_SLOW = const(42)       # 1 while an axis swings slowly (its last half-swing longer than _HALF_MAX_MS)
_T_PEAK = const(43)     # time of _PEAK
_SLOTS = const(44)


class ShakeDetector:
    def __init__(self, sensor, sensitivity):
        # ``sensor``: "accel" or "switch". ``sensitivity`` (the cup's configuration, /cup.json "shake"):
        # "low", "normal", "high", or a calibration [high mm/s^2, swing mm/s^2, half-swings] (accel) or
        # [level changes, mean spacing ms] (switch), as the doctor's calibration gives it. Anything else:
        # ValueError. No defaults: a function with one is twice the size; and no method to change the
        # sensitivity later: a method is a heap object of the cup (a new detector is made instead).
        # Accelerometer, for low, normal, high: high 10, 8, 6.5 m/s^2; swing 7, 6, 4.5 m/s^2; half-swings 4,
        # 3, 3. Switch: level changes 14, 10, 8, at most 50 ms apart on average (50 ms lets fingers drumming
        # beside the cup for a second, two changes a knock at ~14 Hz, pass as a shake; 25 would reject that,
        # but needs a switch that chatters densely, which the emulated board's 50 ms toggling does not).
        if sensor != "accel" and sensor != "switch":
            from schocken import text
            raise ValueError(text(_SENSOR, module="cup.texts"))
        self.sensor = sensor
        level = sensitivity  # the name the errors say
        # Each level's three numbers packed in one int (5 bits each), not a tuple or a bytes constant: either
        # would be an object kept in the cup's heap, an int is in the code.
        k = (_LOW if level == "low" else _NORMAL if level == "normal" else _HIGH if level == "high" else -1)
        if k >= 0:
            if self.sensor == "accel":  # high, swing in 500 mm/s^2, half-swings
                values = ((k >> 10 & 31) * 500, (k >> 5 & 31) * 500, k & 31)
            else:  # mean spacing at most 50 ms, level changes
                values = (0, _SW_SPACING_MS << _SHIFT, k >> 15)
        elif isinstance(level, (list, tuple)) and self.sensor == "accel" and len(level) == 3:
            values = level
        elif isinstance(level, (list, tuple)) and self.sensor == "switch" and len(level) == 2:
            values = (0, level[1] << _SHIFT, level[0])  # switch: level changes, mean spacing in ms
        else:
            from schocken import text
            raise ValueError(text(_SENSITIVITY, level, module="cup.texts"))
        hi, swing, halves = int(values[0]), int(values[1]), int(values[2])  # no comprehension: a function
        if not (0 <= hi <= 60000 and 0 <= swing <= 40000 and 2 <= halves <= 60):
            from schocken import text
            raise ValueError(text(_CALIBRATION, level, module="cup.texts"))
        self._s = s = array("i", bytes(4 * _SLOTS))
        s[_HI2] = (hi >> _SHIFT) * (hi >> _SHIFT)
        s[_SWING] = swing >> _SHIFT
        s[_HALVES] = halves
        self.reset()

    def reset(self):
        """Forget the motion (e.g. after a game state change). The sensitivity stays.

        Every attribute the hot path writes is created here and its numbers live in ``_s``, made once: the hot
        path never grows the instance dict nor allocates.
        """
        self.motion = "still"
        s = self._s
        for i in range(_HI2):
            s[i] = 0  # no sample, _P_IDLE, not seeded, no candidate
        s[_LEVEL] = -1

    # Every method the 100 Hz loop calls keeps its frame (arguments, locals, stack) to 11 words: MicroPython
    # takes a larger one from the heap at every call (tests/test_cup_loop.py). So a sample is taken
    # apart in steps, whose numbers meet in the slots: _sense and _swing (per axis, in a loop), the phases.
    def feed_board(self, t_ms, board):
        """One sample read from a board (docs/board-interface.md): its accelerometer (into the detector's
        sample buffer, made once), or its switch. The cup's 100 Hz loop and the doctor's self-test both use
        it."""
        if self.sensor == "accel":
            board.read_accel(self._s)  # into slots 0-2
            return self._accel(t_ms)
        return self.feed_switch(t_ms, board.read_switch())

    def feed_accel(self, t_ms, ax, ay, az):
        """One accelerometer sample (ints, mm/s^2). True when a throw is final."""
        s = self._s
        s[0] = ax
        s[1] = ay
        s[2] = az
        return self._accel(t_ms)

    def _sense(self):
        """The sample (slots 0-2, mm/s^2) into the slots: scaled and clamped (_PX.., after the jerk is taken
        from the one before), its dynamic part d = a - gravity (_DX..), gravity moved; the squares of d, of
        the jerk and of a summed in _E2, _J2, _M2; the still samples counted. False for the first sample."""
        s = self._s
        s[_E2] = s[_J2] = s[_M2] = 0
        i = 0
        while i < 3:  # x, y, z: a for loop would keep its counter on the stack, a word over the 11
            # Scale and clamp first, so all squares below fit in a small int.
            v = s[i] >> _SHIFT
            if v > _AMAX:
                v = _AMAX
            elif v < -_AMAX:
                v = -_AMAX
            if not s[_SEEDED]:
                # Assume the first sample is gravity, and where the cup rests; the filter corrects it anyway.
                s[_GX + i] = v << _LP_SHIFT
                s[_PX + i] = s[_RX + i] = v
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
        if not s[_SEEDED]:
            s[_SEEDED] = 1
            return False
        # Stillness does not use d: after a shake the gravity estimate lags and the cup may be held at a new
        # angle. Instead: the reading barely changes (small jerk) AND its magnitude is 1 g (no linear
        # acceleration). During an oscillation both are never small at once (the jerk peaks at the zero
        # crossings, the magnitude at the turning points).
        if s[_J2] < _JERK2 and _MAG_LO2 <= s[_M2] <= _MAG_HI2:
            s[_STILL] += 1
        else:
            s[_STILL] = 0
        return True

    def _swing(self, t):
        # The reversals, per axis: d crossed from beyond -swing to beyond +swing (or back). A half-swing of
        # 55-330 ms adds one to the axis's count, any other starts it again. -> the most half-swings in a row
        # of an axis that swung within 330 ms; 0 while another axis swings slowly (a half-swing of 330-1000
        # ms within _SLOW_MS): an arm turning slowly swings gravity through the axis it turns about at twice
        # its rate, an oscillation that is no shake. Without a candidate it also sets ``motion``.
        s = self._s
        best = 0
        s[_SLOW] = 0
        i = 0
        while i < 3:
            d = s[_DX + i]
            if (d > s[_SWING] and s[_WX + i] <= 0) or (d < -s[_SWING] and s[_WX + i] >= 0):
                d = (t - s[_TX + i]) & _TICKS_MASK  # this half-swing's duration
                if s[_WX + i] == 0 or not _HALF_MIN_MS <= d <= _HALF_MAX_MS:
                    s[_NX + i] = 0
                elif s[_NX + i] and (d + d < s[_LX + i] or d > s[_LX + i] + s[_LX + i]):
                    s[_NX + i] = 1  # a rhythm: half as long or twice the last one starts a new count
                else:
                    s[_NX + i] += 1
                s[_LX + i] = d if d <= _SLOWEST_MS else 0  # longer: a pause, not a slow swing
                s[_WX + i] = 1 if s[_DX + i] > 0 else -1
                s[_TX + i] = t
            elif (t - s[_TX + i]) & _TICKS_MASK > _HALF_MAX_MS:
                s[_NX + i] = 0  # the swing stopped: no oscillation on this axis now
            if s[_LX + i] > _HALF_MAX_MS and (t - s[_TX + i]) & _TICKS_MASK < _SLOW_MS:
                s[_SLOW] = 1
            if s[_NX + i] > best:
                best = s[_NX + i]
            i += 1
        if s[_PHASE] == _P_IDLE:  # no candidate: what the cup does now (a high sample makes it "handling")
            if s[_STILL] >= _REST_N:
                # Resting: cos of the angle between gravity now and where the cup rested (both ~1 g long).
                d = ((s[_GX] >> _LP_SHIFT) * s[_RX] + (s[_GY] >> _LP_SHIFT) * s[_RY]
                     + (s[_GZ] >> _LP_SHIFT) * s[_RZ])
                self.motion = "tilt" if d < _TILT_DOT else "still"
            elif s[_STILL] == 0 and self.motion != "set_down":
                self.motion = "handling"  # moving; right after a set-down it says so until the cup rests
        return 0 if s[_SLOW] else best

    def _accel(self, t_ms):
        """One sample (slots 0-2: x, y, z in mm/s^2) through the phases. True when a throw is final."""
        s = self._s
        if not self._sense():
            return False
        t_ms &= _TICKS_MASK  # mod 2**30: a clock that never wraps fits too
        halves = self._swing(t_ms)
        high = s[_E2] >= s[_HI2]
        phase = s[_PHASE]
        if phase == _P_IDLE:
            if high:
                # Possible shake: from here on it must prove the quality rule.
                s[_PHASE] = _P_CAND
                s[_T0] = s[_T_HIGH] = t_ms
                s[_PEAK] = s[_E2]
                s[_T_PEAK] = t_ms
                self.motion = "handling"
            return False

        if high:
            s[_T_HIGH] = t_ms
            if s[_E2] > s[_PEAK]:
                s[_PEAK] = s[_E2]
                s[_T_PEAK] = t_ms
        elif halves >= s[_HALVES] and phase == _P_SHAKE:
            s[_T_HIGH] = t_ms  # a gentle shake swings on below "high": still shaking
        if phase == _P_CAND:
            if (t_ms - s[_T_HIGH]) & _TICKS_MASK > _GAP_MS:
                # It died out: handling, or a knock or set-down (it ended with its hardest jolt).
                s[_PHASE] = _P_IDLE
                self.motion = ("set_down" if s[_PEAK] >= _IMPACT2
                               and (s[_T_HIGH] - s[_T_PEAK]) & _TICKS_MASK <= _IMPACT_MS else "handling")
            elif halves >= s[_HALVES] and (t_ms - s[_T0]) & _TICKS_MASK >= _MIN_SHAKE_MS:
                s[_PHASE] = _P_SHAKE
                self.motion = "shaking"
            return False

        # _P_SHAKE: a real shake happened; final once the cup is still again, or on the fallback for a hand
        # that never gets quite still (tremor, walking off): the shake clearly ended long ago, so the throw
        # does not stay pending.
        if s[_STILL] < _STILL_N and (t_ms - s[_T_HIGH]) & _TICKS_MASK < _QUIET_FINAL_MS:
            self.motion = "settling" if s[_STILL] >= 2 else "shaking"  # one still sample occurs mid-shake too
            return False
        # Final. The cup is still (or at least calm, on the fallback): its reading (_PX..) is ~gravity.
        # Re-seed the filter so the lag built up during the shake cannot start a false candidate; the cup
        # rests here now. Here, not in a method of its own: a method is an object of the cup's heap.
        s[_GX] = s[_PX] << _LP_SHIFT
        s[_GY] = s[_PY] << _LP_SHIFT
        s[_GZ] = s[_PZ] << _LP_SHIFT
        s[_RX] = s[_PX]
        s[_RY] = s[_PY]
        s[_RZ] = s[_PZ]
        s[_PHASE] = _P_IDLE
        s[_NX] = s[_NY] = s[_NZ] = 0
        self.motion = "still"
        return True

    def feed_switch(self, t_ms, level):
        """One vibration/tilt switch sample (0/1). True when a throw is final.

        A shake makes the contact chatter: a burst of level changes with no gap
        longer than _SW_QUIET_MS. A burst of enough (10 at normal), dense (25 ms
        apart on average at normal) changes lasting long enough is a shake; it is final _SW_QUIET_MS
        after the last change. A tap gives a few changes within ~30 ms ("set_down");
        walking gives a few per step, steps being far more than _SW_QUIET_MS apart,
        so their bursts never grow long; fast knocking/drumming chains but is too
        sparse. A tilt switch resting at the other level than where
        the cup last rested: "tilt".
        """
        s = self._s
        t_ms &= _TICKS_MASK
        if level != s[_LEVEL]:
            if s[_LEVEL] < 0:
                s[_LEVEL] = s[_RX] = level
                return False            # initial level, not a change
            s[_LEVEL] = level
            if s[_PHASE] == _P_IDLE:
                s[_PHASE] = _P_CAND
                s[_T0] = t_ms
                s[_TOGGLES] = 0
                self.motion = "handling"
            s[_TOGGLES] += 1
            s[_T_HIGH] = t_ms
            if s[_PHASE] == _P_CAND and s[_TOGGLES] >= s[_HALVES]:
                el = (t_ms - s[_T0]) & _TICKS_MASK
                if el >= _SW_MIN_MS and s[_TOGGLES] * s[_SWING] >= el:  # _SWING: the spacing (ms)
                    s[_PHASE] = _P_SHAKE
            if s[_PHASE] == _P_SHAKE:
                self.motion = "shaking"
            return False
        quiet = (t_ms - s[_T_HIGH]) & _TICKS_MASK
        if s[_PHASE] == _P_IDLE:
            if quiet >= _REST_N * 10 and self.motion != "set_down":
                self.motion = "tilt" if level != s[_RX] else "still"
            return False
        if s[_PHASE] == _P_CAND:
            if quiet >= _SW_QUIET_MS:
                s[_PHASE] = _P_IDLE   # burst ended before it proved a shake
                self.motion = ("set_down" if s[_TOGGLES] <= 4 and (s[_T_HIGH] - s[_T0]) & _TICKS_MASK
                               <= _IMPACT_MS else "handling")
            return False
        if quiet >= _SW_QUIET_MS:
            s[_PHASE] = _P_IDLE
            s[_RX] = level
            self.motion = "still"
            return True
        if quiet >= _SW_SETTLE_MS:
            self.motion = "settling"
        return False
