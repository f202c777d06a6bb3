"""Dice roller on the board's hardware RNG, guarded by SP 800-90B style health tests.

Source: the board's ``urandom(n)`` (``os.urandom``). On the ESP32 that is the hardware RNG, which
is only true random while the radio is on, so pass ``radio_on`` (or switch BLE on before
``health_check``). On the RP2040/RP2350 it is pico_rand (a PRNG mixed with ring oscillator or TRNG
entropy). The source is injected so tests can feed stuck or biased bytes.

A die is drawn by rejection sampling: bytes >= 252 are drawn again, bytes 0..251 map to
``b % 6 + 1``. 252 = 6 * 42, so each face gets exactly 42 byte values; ``% 6`` on all 256 values
would favour faces 1..4 (43 values against 42).

Health tests (NIST SP 800-90B section 4.4), on every byte drawn, before the byte is used, with a
false-alarm probability alpha = 2**-40 per byte and a claimed min-entropy H = 7 bits per byte
(docs/fairness.md, "RNG health tests", says why these and what they catch):

* Repetition Count Test: fail when the same byte comes C_RCT times in a row.
  C_RCT = 1 + ceil(-log2(alpha) / H) = 1 + ceil(40 / 7) = 7.
* Adaptive Proportion Test, window W = 512 (the non-binary window): the first byte of each window
  is the reference; fail when it occurs C_APT times in the window.
  C_APT = 1 + CRITBINOM(512, 2**-7, 1 - 2**-40) = 26.
* Startup only, a proportion test over every value ("developer-defined" in 90B): each byte value
  is counted per 512-byte window, fail at C_HIST = 1 + CRITBINOM(512, 2**-7, 1 - 2**-40 / 256)
  = 28, alpha shared over the 256 values (Bonferroni). The APT alone only notices a frequent value
  when that value happens to open a window; this catches a value at 10 % at once.

For an ideal 8-bit source the false alarm rate is about 3.6e-15 per byte (the RCT's 256**-6), so
about one in 2.8e14 bytes; a game draws some thousands. ``tests/test_roller.py`` recomputes the
cutoffs from alpha and H.

The startup test (``health_check``) draws at least 1024 bytes (SP 800-90B's minimum) and discards
them. After a failure the roller stays unhealthy and ``roll`` raises ``RollRefused`` until
``health_check`` passes again; whether and when to retry is the app's policy (the cup retries at
the next shake or turn, so a false alarm never lasts).
"""

from micropython import const

from schocken import text

RCT_CUTOFF = const(7)
APT_WINDOW = const(512)
APT_CUTOFF = const(26)
HIST_CUTOFF = const(28)
STARTUP_SAMPLES = const(1024)

_REJECT = const(252)  # first byte value that is drawn again (252 = 6 * 42)
_CHUNK = const(64)  # bytes per source read: one call (and at most one bytes object) per 64 bytes

# Reasons (``reason``), by number: texts of cup.texts (schocken.text), loaded only for the RollRefused a
# failure raises. A string constant longer than ten characters is an object in the heap for as long as the
# module is loaded.
_NOT_CHECKED = const(27)
FAIL_RCT = const(28)
FAIL_APT = const(29)
FAIL_HIST = const(30)
FAIL_SOURCE = const(31)


class RollRefused(Exception):
    """The RNG is not (or no longer) healthy: the cup must not roll and shows an error."""


def _refused(reason):
    # The exception with the reason's text (what the cup says on the wire), made here: with the call in them
    # the raising methods' frames would be more than 11 words, taken from the heap (docs/firmware.md).
    return RollRefused(text(reason, module="cup.texts"))


class Roller:
    """Rolls dice from ``urandom(n) -> bytes``.

    ``readinto(buf)``, if not None, fills a bytearray in place instead (e.g. a register-reading RNG);
    then ``roll_into`` allocates nothing at all. ``radio_on()``, if not None, is called before the
    startup test (the ESP32's RNG needs the radio on). No argument has a default: a function with
    defaults is an object twice the size in the cup's heap (docs/benchmarks.md).
    """

    def __init__(self, urandom, readinto, radio_on):
        self._urandom = urandom
        self._readinto = readinto
        self._radio_on = radio_on
        self._buf = bytearray(_CHUNK)  # target for readinto, allocated once
        self._pool = self._buf  # current chunk of tested bytes
        # Nothing may be rolled before the startup test passed. failed_at: which byte of its chunk tripped a
        # continuous test (bench/rng_health.py).
        self._fail(-1, _NOT_CHECKED)
        self._reset_tests()

    def _reset_tests(self):
        # The continuous tests' state, each in one int (two attributes, not five: the instance's table stays
        # at 12 slots): RCT last value + 1 << 4 | run length (< RCT_CUTOFF); APT reference value + 1 << 20 |
        # its count (< APT_CUTOFF) << 10 | position in the window (< APT_WINDOW). 0: no value yet.
        self._rct = self._apt = 0

    def _fail(self, at, reason):
        self.healthy = False
        self.reason = reason
        self.failed_at = at
        self._pos = _CHUNK  # next unused byte in _pool, _CHUNK: none; the rest of a chunk that failed goes
        return False

    def _fill(self):
        # Draw one chunk and run the continuous tests over all of it before any byte is used.
        try:
            if self._readinto is not None:
                self._readinto(self._buf)
                chunk = self._buf
            else:
                chunk = self._urandom(_CHUNK)
                if len(chunk) != _CHUNK:
                    return self._fail(-1, FAIL_SOURCE)
        except Exception:  # a dead source is a failed source, not a crash
            return self._fail(-1, FAIL_SOURCE)
        # Test state in locals: attribute access per byte is slow in MicroPython.
        rb = self._rct
        ra = (rb >> 4) - 1
        rb &= 15
        ab = self._apt
        aa = (ab >> 20) - 1
        ai = ab & 1023
        ab = ab >> 10 & 1023
        for i in range(_CHUNK):  # range loop, not "for x in chunk": no iterator object
            x = chunk[i]
            if x == ra:
                rb += 1
                if rb >= RCT_CUTOFF:
                    return self._fail(i, FAIL_RCT)
            else:
                ra = x
                rb = 1
            if ai == 0:
                aa = x
                ab = 1
                ai = 1
            else:
                if x == aa:
                    ab += 1
                    if ab >= APT_CUTOFF:
                        return self._fail(i, FAIL_APT)
                ai += 1
                if ai == APT_WINDOW:
                    ai = 0
        self._rct = (ra + 1) << 4 | rb
        self._apt = (aa + 1) << 20 | ab << 10 | ai
        self._pool = chunk
        self._pos = 0
        return True

    def health_check(self):
        """Startup test over STARTUP_SAMPLES fresh bytes; sets and returns ``healthy``."""
        if self._radio_on is not None:
            self._radio_on()
        self.healthy = False
        self._reset_tests()
        self._pos = _CHUNK
        windows = (STARTUP_SAMPLES + APT_WINDOW - 1) // APT_WINDOW
        counts = bytearray(256)  # boot only; counts stop at HIST_CUTOFF so a byte suffices
        for _ in range(windows):
            for v in range(256):
                counts[v] = 0
            for _ in range(APT_WINDOW):
                if self._pos >= _CHUNK and not self._fill():
                    return False
                x = self._pool[self._pos]
                self._pos += 1
                c = counts[x] + 1
                if c >= HIST_CUTOFF:
                    return self._fail(-1, FAIL_HIST)
                counts[x] = c
        self._pos = _CHUNK  # startup samples are not used for rolls
        self.healthy = True
        self.reason = None
        return True

    def roll_into(self, buf, n):
        """Write ``n`` dice (1..6) into ``buf[0:n]`` (a preallocated bytearray); returns ``buf``.

        Raises ``RollRefused`` when unhealthy or when a continuous test trips on the way (then
        ``buf`` may be partly written and must be ignored).
        """
        if not self.healthy:
            raise _refused(self.reason)
        pool = self._pool
        pos = self._pos
        i = 0
        while i < n:
            if pos >= _CHUNK:
                if not self._fill():
                    raise _refused(self.reason)
                pool = self._pool
                pos = 0
            x = pool[pos]
            pos += 1
            if x < _REJECT:  # rejection sampling: 252..255 are drawn again
                buf[i] = x % 6 + 1
                i += 1
        self._pos = pos
        return buf

    def random_bytes(self, n):
        """``n`` bytes that passed the same continuous tests as the dice (for a fair-play seed, a commitment
        nonce, a session nonce). Raises ``RollRefused`` like ``roll_into``."""
        if not self.healthy:
            raise _refused(self.reason)
        out = bytearray(n)
        for i in range(n):
            if self._pos >= _CHUNK and not self._fill():
                raise _refused(self.reason)
            out[i] = self._pool[self._pos]
            self._pos += 1
        return bytes(out)

    def roll(self, n):
        """Return a list of ``n`` dice 1..6 (allocates; the firmware's hot path uses roll_into)."""
        buf = bytearray(n)
        self.roll_into(buf, n)
        return list(buf)
