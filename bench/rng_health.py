"""The roller's RNG health tests against honest and broken sources (docs/fairness.md, "RNG health tests").

Run:  nice -n 19 .venv/bin/python bench/rng_health.py                  # 10^8 honest bytes, ~1 min on 2 cores
      nice -n 19 .venv/bin/python bench/rng_health.py --samples 10**6  # a quick run

Three parts, all through the real ``cup.roller.Roller`` (its startup test and its continuous tests):

1. Honest bytes: ``--samples`` bytes from ``os.urandom`` in blocks of 10^7 (``--jobs`` processes, a fresh
   roller and startup test per block), driven by ``roll_into`` as the cup rolls. Every false alarm is counted
   (and the startup test run again); with the cutoffs of cup/roller.py none is expected (3.6e-15 per byte).
2. A stuck source: after honest bytes the source gives one value forever; how many stuck bytes until the
   roller refuses (the repetition count test's cutoff C), and the startup test on a source stuck from the
   start.
3. A biased source: one value at probability p, the other 255 values uniform. The startup test (two 512-byte
   windows) on such a source, and the continuous tests when a healthy source turns biased at a random point:
   bytes from the first biased byte to the refusal, over ``--trials`` runs, next to the exact probability that
   one APT window catches it.
"""

import argparse
import os
import platform
import random
import sys
import time
from fractions import Fraction
from math import comb
from multiprocessing import Pool
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"
# The cup's roller, the rules package, and MicroPython's const for CPython (host_tools/micropython.py).
sys.path[:0] = [str(FIRMWARE), str(FIRMWARE / "lib"), str(FIRMWARE.parent / "host_tools")]

from cup import roller  # noqa: E402
from cup.roller import Roller, RollRefused  # noqa: E402

BLOCK = 10**7
CHUNK = 64            # cup/roller.py's _CHUNK: bytes per source read, all tested before any is used
H = 7                 # the min-entropy claimed per byte (docs/fairness.md)


class Counting:
    """os.urandom, counting the bytes served."""

    def __init__(self):
        self.served = 0

    def __call__(self, n):
        self.served += n
        return os.urandom(n)


def honest_block(args):
    """One block of honest bytes through a fresh roller: (bytes tested after the startup test, alarms)."""
    n, _ = args
    src = Counting()
    r = Roller(src, None, None)
    alarms = []
    if not r.health_check():
        alarms.append(("startup", r.reason))
        r.health_check()
    start = src.served
    buf = bytearray(4096)
    while src.served - start < n:
        try:
            r.roll_into(buf, 4096)
        except RollRefused as e:
            alarms.append((src.served - CHUNK + r.failed_at - start, str(e)))
            r.health_check()
    return src.served - start, alarms


class Turning:
    """Honest bytes up to position ``switch``, then ``bad(rng)`` per byte; counts what it served."""

    def __init__(self, switch, bad, seed):
        self.pos = 0
        self.switch = switch
        self.bad = bad
        self.rng = random.Random(seed)
        self.first = bad(self.rng)  # the first bad byte; the honest byte before it differs (no head start)

    def __call__(self, n):
        out = bytearray(os.urandom(n))
        for i in range(n):
            k = self.pos + i
            if k == self.switch:
                out[i] = self.first
            elif k > self.switch:
                out[i] = self.bad(self.rng)
            elif k == self.switch - 1 and out[i] == self.first:
                out[i] ^= 1
        self.pos += n
        return bytes(out)


def stuck(v):
    return lambda rng: v


def biased(v, p):
    def draw(rng):
        if rng.random() < p:
            return v
        x = rng.randrange(255)
        return x if x < v else x + 1  # uniform over the other 255 values
    return draw


def detect(args):
    """A healthy roller whose source turns bad at a random point: bytes from the first bad byte to the refusal
    (None: not within ``cap`` bytes), and the reason."""
    kind, value, p, seed, cap = args
    rng = random.Random(seed)
    switch = roller.STARTUP_SAMPLES + rng.randrange(4 * roller.APT_WINDOW)  # any phase of the APT window
    bad = stuck(value) if kind == "stuck" else biased(value, p)
    src = Turning(switch, bad, seed)
    r = Roller(src, None, None)
    assert r.health_check()  # on the honest part
    buf = bytearray(1024)
    while src.pos - switch < cap:
        try:
            r.roll_into(buf, 1024)
        except RollRefused:
            at = src.pos - CHUNK + r.failed_at  # index of the byte that tripped
            return at - switch + 1, r.reason
    return None, None


def startup(args):
    """The startup test on a source bad from its first byte: (passed, reason, bytes to the failure)."""
    kind, value, p, seed = args
    bad = stuck(value) if kind == "stuck" else biased(value, p)
    src = Turning(0, bad, seed)
    r = Roller(src, None, None)
    ok = r.health_check()
    return ok, r.reason, None if ok or r.failed_at < 0 else src.pos - CHUNK + r.failed_at + 1


def tail(n, p, k):
    return sum(comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(k, n + 1))


def apt_per_window(p):
    """Exact probability that one APT window catches a source with one value at p, the rest uniform."""
    q = (1 - p) / 255
    need = roller.APT_CUTOFF - 1  # occurrences after the reference
    return p * tail(roller.APT_WINDOW - 1, p, need) + (1 - p) * tail(roller.APT_WINDOW - 1, q, need)


def hist_per_window(p):
    """Lower bound for one startup window: the biased value alone reaching the histogram cutoff."""
    return tail(roller.APT_WINDOW, p, roller.HIST_CUTOFF)


def quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--samples", default="10**8", help="honest bytes to test (default 10**8)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--trials", type=int, default=100, help="runs per failing source (default 100)")
    ap.add_argument("--seed", type=int, default=1)
    opts = ap.parse_args(argv)
    base, _, power = opts.samples.partition("**")
    samples = int(base) ** int(power) if power else int(float(base))
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                if line.startswith("model name")),
               platform.processor()) if os.path.exists("/proc/cpuinfo") else platform.processor()
    print("rng_health: %s, %d cores, Python %s, %s" % (cpu, os.cpu_count(), platform.python_version(),
                                                       time.strftime("%Y-%m-%d")))
    print("cutoffs: RCT %d, APT %d in %d, startup histogram %d (alpha = 2^-40, H = %d bits/byte)"
          % (roller.RCT_CUTOFF, roller.APT_CUTOFF, roller.APT_WINDOW, roller.HIST_CUTOFF, H))
    t_all = time.time()

    # 1. honest bytes
    blocks = [(min(BLOCK, samples - i), i) for i in range(0, samples, BLOCK)]
    t = time.time()
    tested = 0
    alarms = []
    with Pool(opts.jobs) as pool:
        for n, found in pool.imap_unordered(honest_block, blocks):
            tested += n
            alarms += found
            print("  honest: %d bytes tested, %d alarms, %.0f s" % (tested, len(alarms), time.time() - t),
                  flush=True)
    honest_s = time.time() - t
    print("honest os.urandom: %d bytes through the continuous tests (+ %d startup tests) in %.0f s: "
          "%d alarms %s" % (tested, len(blocks), honest_s, len(alarms), alarms or ""))

    # 2. and 3. failing sources
    rng = random.Random(opts.seed)
    sources = [("stuck", 0x00, None, 10**4), ("stuck", 0x55, None, 10**4), ("stuck", 0xFF, None, 10**4)]
    for p, cap in ((Fraction(4, 2**H), 4 * 10**6), (Fraction(1, 16), 10**6), (Fraction(1, 10), 10**6),
                   (Fraction(3, 10), 10**6)):
        sources.append(("biased", 0x55, p, cap))
    with Pool(opts.jobs) as pool:
        for kind, value, p, cap in sources:
            t = time.time()
            trials = opts.trials if kind == "biased" else 20
            if p is not None and p < Fraction(1, 20):
                trials = max(1, trials // 5)  # slow to catch: about 800,000 bytes each at 1/32
            seeds = [rng.randrange(2**30) for _ in range(trials)]
            fp = float(p) if p is not None else None
            starts = pool.map(startup, [(kind, value, fp, s) for s in seeds])
            found = pool.map(detect, [(kind, value, fp, s, cap) for s in seeds])
            caught = [n for n, _ in found if n is not None]
            reasons = sorted(set(r for _, r in found if r))
            failed = sum(1 for ok, _, _ in starts if not ok)
            if kind == "stuck":
                label = "stuck at 0x%02X" % value
                expect = "C = %d" % roller.RCT_CUTOFF
                first = sorted(set(n for _, _, n in starts if n is not None))
                extra = ", startup test fails after %s bytes" % first
            else:
                label = "0x%02X at p = %s (%.4f)" % (value, p, float(p))
                w = apt_per_window(p)
                expect = "APT catches a window with P = %.3g (mean %.0f windows), startup window >= %.3g" % (
                    float(w), float(1 / w), float(hist_per_window(p)))
                extra = ""
            print("%s: startup test fails %d/%d%s; continuous: caught %d/%d within %d bytes, "
                  "bytes to detection min %s, median %s, p90 %s, max %s; within 512 bytes %d/%d; "
                  "reasons %s; expected: %s "
                  "[%.0f s]" % (label, failed, trials, extra, len(caught), trials, cap,
                                min(caught) if caught else "-", quantile(caught, 0.5) if caught else "-",
                                quantile(caught, 0.9) if caught else "-", max(caught) if caught else "-",
                                sum(1 for n in caught if n <= roller.APT_WINDOW), trials, reasons, expect,
                                time.time() - t), flush=True)
    print("total %.0f s" % (time.time() - t_all))
    return 1 if alarms else 0


if __name__ == "__main__":
    sys.exit(main())
