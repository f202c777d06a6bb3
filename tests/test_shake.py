"""Tests for the cup's shake detector (firmware/cup/shake.py), the trace replay (firmware/cup/replay.py)
and the host command `schocken shake-replay` (host_tools/schocken_host/commands/shake_replay.py).

Every recorded trace in tests/data/traces.json runs under the MicroPython unix port (64 KB heap) and on
CPython; the hot path is proven allocation-free with micropython.heap_lock()."""

import json
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

REPO = Path(__file__).resolve().parents[1]
FIRMWARE = REPO / "firmware"

from cup import shake  # noqa: E402
from cup.replay import TraceError, replay  # noqa: E402

from kits.tracekit import DATA, MANIFEST, check_throws  # noqa: E402
from schocken_host.provision.build import find_tool  # noqa: E402

MICROPYTHON = find_tool("micropython")
needs_mp = pytest.mark.skipif(MICROPYTHON is None, reason="MicroPython unix port not installed")
MP_ENV = dict(os.environ, MICROPYPATH=f"{FIRMWARE}:{FIRMWARE / 'lib'}:.frozen")


def run_mp(args, timeout=60):
    return subprocess.run([MICROPYTHON, "-X", "heapsize=64k", *args], capture_output=True, text=True,
                          env=MP_ENV, timeout=timeout)


def progress(det):
    """The throw's progress as the LED view reads it from ``motion``: shaking, settling, else idle."""
    return det.motion if det.motion in ("shaking", "settling") else "idle"


def test_manifest_lists_every_trace():
    assert sorted(MANIFEST) == sorted(p.name for p in DATA.glob("*.csv"))
    kinds = {m["sensor"] for m in MANIFEST.values()}
    assert kinds == {"accel", "switch"}
    for name, m in MANIFEST.items():
        assert len(m["shake_end_ms"]) == m["throws"], name


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_trace_cpython(name):
    with open(DATA / name) as f:
        check_throws(name, replay(f, MANIFEST[name]["sensor"]))


SHAKEN = sorted(n for n, m in MANIFEST.items() if m["sensor"] == "accel" and m["throws"])


@pytest.mark.parametrize("name", SHAKEN)
def test_an_accelerometer_throw_is_final_within_50_ms_of_the_stop_whatever_the_sampling_phase(name):
    """Issue 34's goal, shake stopped -> throw final <= 50 ms: the cup stops anywhere within a 10 ms pass of
    the 100 Hz loop, so each recorded shake is sampled at each of the ten phases (the trace's sample at the
    time of each read, as the emulated LIS3DH gives it). The first sample after the stop still differs from
    the last moving one (jerk), so 4 still samples make a throw final 40 to 49 ms after the stop (5 made it
    50 to 59)."""
    with open(DATA / name) as f:
        rows = [line.split(",") for line in f.read().split()[1:]]
    samples = [tuple(int(round(float(v) * 1000)) for v in row[1:4]) for row in rows]
    for phase in range(10):
        det, finals = shake.ShakeDetector("accel", "normal"), []
        for t in range(phase, 10 * len(samples), 10):
            if det.feed_accel(t, *samples[t // 10]):
                finals.append(t)
        late = [t - end for t, end in zip(finals, MANIFEST[name]["shake_end_ms"])]
        assert len(finals) == MANIFEST[name]["throws"] and all(0 <= ms <= 50 for ms in late), (phase, late)


@needs_mp
@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_trace_micropython(name):
    proc = run_mp(["-m", "cup.replay", str(DATA / name), MANIFEST[name]["sensor"]])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    throws = [json.loads(line)["t_ms"] for line in proc.stdout.splitlines()]
    check_throws(name, throws)
    with open(DATA / name) as f:  # the same integers in, the same throws out
        assert throws == replay(f)


@needs_mp
def test_hot_path_allocates_nothing_under_micropython():
    """Load each trace into preallocated int arrays, then feed it with the heap LOCKED: any allocation in
    feed_accel/feed_switch (a float, a tuple, a long int, a new attribute) raises MemoryError."""
    code = textwrap.dedent("""
        import gc, micropython
        from array import array
        from cup.shake import ShakeDetector

        def load(path, sensor):
            f = open(path)
            f.readline()
            cols = 4 if sensor == "accel" else 2
            n = 0
            for _ in f:
                n += 1
            f.close()
            arrs = [array("i", bytearray(4 * n)) for _ in range(cols)]
            f = open(path)
            f.readline()
            i = 0
            for line in f:
                v = line.split(",")
                arrs[0][i] = int(v[0])
                for k in range(1, cols):
                    arrs[k][i] = int(round(float(v[k]) * 1000)) if cols == 4 else int(v[k])
                i += 1
            f.close()
            return n, arrs

        def feed(det, n, arrs, sensor):
            throws = 0
            t = arrs[0]
            x = y = z = lv = None
            gc.collect()
            before = gc.mem_alloc()
            if sensor == "accel":
                x = arrs[1]; y = arrs[2]; z = arrs[3]
                micropython.heap_lock()
                for i in range(n):
                    if det.feed_accel(t[i], x[i], y[i], z[i]):
                        throws += 1
                micropython.heap_unlock()
            else:
                lv = arrs[1]
                micropython.heap_lock()
                for i in range(n):
                    if det.feed_switch(t[i], lv[i]):
                        throws += 1
                micropython.heap_unlock()
            return throws, gc.mem_alloc() - before

        for path, sensor in TRACES:
            n, arrs = load(path, sensor)
            det = ShakeDetector(sensor, "normal")
            det.feed_accel(0, 0, 0, 9807) if sensor == "accel" else det.feed_switch(0, 0)
            det.reset()
            throws, grew = feed(det, n, arrs, sensor)
            print(path.split("/")[-1], n, throws, grew)
            arrs = None
            gc.collect()
    """)
    traces = [(str(DATA / name), m["sensor"]) for name, m in sorted(MANIFEST.items())]
    proc = run_mp(["-c", "TRACES = %r\n%s" % (traces, code)])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = [line.split() for line in proc.stdout.splitlines()]
    assert len(rows) == len(MANIFEST)
    for name, n, throws, grew in rows:
        assert int(n) > 100
        assert int(throws) == MANIFEST[name]["throws"], name
        assert int(grew) == 0, name


def test_module_has_no_floats_or_forbidden_imports():
    src = (FIRMWARE / "cup" / "shake.py").read_text()
    for word in ("dataclass", "enum", "typing", "functools", "abc", "float(", "math"):
        assert word not in src.replace("floats", ""), word
    assert len(src.splitlines()) <= 450  # the quality rule, the motion it reports, the sensitivities


def test_intermediates_fit_a_32bit_small_int():
    """On ESP32/RP2 a small int has 31 bits; anything bigger silently becomes a heap long int. Feed wild
    input and check every int the hot path holds (locals, attributes and the slots of its state array) stays
    below 2**30."""
    assert 3 * (2 * shake._AMAX) ** 2 < 2 ** 30
    limit = 2 ** 30
    seen = []

    def tracer(frame, event, arg):
        if frame.f_code.co_name in ("feed_accel", "_sense", "_accel", "feed_switch", "_final"):
            def local(frame, event, arg):
                det = frame.f_locals["self"]
                slots = [("_s[%d]" % i, v) for i, v in enumerate(det._s)]
                for k, v in list(frame.f_locals.items()) + list(det.__dict__.items()) + slots:
                    if type(v) is int and k != "t_ms":
                        seen.append(abs(v))
                        assert -limit <= v < limit, (k, v)
                return local
            return local
        return None

    rng = random.Random(7)
    det = shake.ShakeDetector("accel", "normal")
    sys.settrace(tracer)
    try:
        for i in range(3000):
            big = rng.choice((200_000, 400_000, 1_000_000))
            det.feed_accel(i * 10, rng.randint(-big, big), rng.randint(-big, big), rng.randint(-big, big))
    finally:
        sys.settrace(None)
    assert max(seen) > 2 ** 27  # the test did reach the large values (|a|^2 of clamped input)


@pytest.mark.parametrize("name", ["shake_accel.csv", "shake_twice_accel.csv", "shake_switch.csv"])
def test_states_for_the_led_view(name):
    """idle -> shaking (once proven) -> settling (stopped, confirming) -> idle at the throw; no flicker."""
    sensor = MANIFEST[name]["sensor"]
    det = shake.ShakeDetector(sensor, "normal")
    changes = []
    with open(DATA / name) as f:
        next(f)
        for line in f:
            v = line.split(",")
            if sensor == "accel":
                hit = det.feed_accel(int(v[0]), *(int(round(float(x) * 1000)) for x in v[1:]))
            else:
                hit = det.feed_switch(int(v[0]), int(v[1]))
            if progress(det) != (changes[-1] if changes else "idle"):
                changes.append(progress(det))
            assert not hit or progress(det) == "idle"
    assert changes == ["shaking", "settling", "idle"] * MANIFEST[name]["throws"]


def test_reset_forgets_a_shake_in_progress():
    lines = (DATA / "shake_accel.csv").read_text().splitlines()
    det = shake.ShakeDetector("accel", "normal")
    for line in lines[1:]:
        t, x, y, z = line.split(",")
        det.feed_accel(int(t), *(int(round(float(v) * 1000)) for v in (x, y, z)))
        if int(t) == 2200:
            break
    assert progress(det) == "shaking"
    det.reset()
    assert progress(det) == "idle"
    for line in lines[1:]:
        t, x, y, z = line.split(",")
        if int(t) > 2200:
            assert not det.feed_accel(int(t), *(int(round(float(v) * 1000)) for v in (x, y, z)))


# (offset, mask) of a clock: the board's ticks_ms(), which wraps at 2**30 (in the middle of the first shake
# here), and a CPython cup's clock, which never wraps: past 2**31 its milliseconds no longer fit the
# detector's 32-bit slots as they are, so it keeps them modulo 2**30 as the board's ticks (x & -1 is x).
CLOCKS = {"ticks_ms": (2 ** 30 - 1500, 2 ** 30 - 1), "never_wraps": (3 * 2 ** 31 + 12345, -1)}


@pytest.mark.parametrize("clock", sorted(CLOCKS))
@pytest.mark.parametrize("name", ["shake_twice_accel.csv", "shake_switch.csv"])
def test_the_clock_may_wrap_or_not(name, clock):
    """t_ms may come from time.ticks_ms(), which wraps at 2**30 on the board, or from a clock that never
    wraps (an emulated cup under CPython, cup/clock.py): the throws come at the same times."""
    offset, mask = CLOCKS[clock]
    lines = (DATA / name).read_text().splitlines()
    det = shake.ShakeDetector(MANIFEST[name]["sensor"], "normal")
    throws = []
    for line in lines[1:]:
        v = line.split(",")
        t = (int(v[0]) + offset) & mask
        if len(v) == 4:
            hit = det.feed_accel(t, *(int(round(float(x) * 1000)) for x in v[1:]))
        else:
            hit = det.feed_switch(t, int(v[1]))
        if hit:
            throws.append((t - offset) & mask)
    check_throws(name, throws)


def test_bad_sensor():
    with pytest.raises(ValueError):
        shake.ShakeDetector("gyro", "normal")
    with pytest.raises(TypeError):  # the thresholds are constants of the detector, not settings
        shake.ShakeDetector("accel", min_shake_ms=1500)


@pytest.mark.parametrize("text, fragment", [
    ("", "empty"),
    ("time,ax,ay,az\n", "bad header"),
    ("t_ms,ax,ay,az\n0,1,2\n", "columns"),
    ("t_ms,ax,ay,az\n0,1,2,x\n", "bad number"),
    ("t_ms,ax,ay,az\n0,1,2,nan\n", "bad number"),
    ("t_ms,ax,ay,az\n10,0,0,9.8\n0,0,0,9.8\n", "backwards"),
    ("t_ms,level\n0,2\n", "level"),
    ("t_ms,level\n0.5,1\n", "t_ms"),
])
def test_replay_rejects_bad_input(text, fragment):
    with pytest.raises(TraceError, match=fragment):
        replay(iter(text.splitlines(True)))


# -- property tests (CPython) -------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), roll=st.floats(-3.14, 3.14), pitch=st.floats(-1.5, 1.5),
       amp=st.floats(0.0, 0.5), n=st.integers(50, 800))
def test_low_amplitude_noise_never_throws(seed, roll, pitch, amp, n):
    """Any orientation, noise of < 0.5 m/s^2 per sample (white or a tremor sine): never a throw."""
    import math
    rng = random.Random(seed)
    g = (math.sin(pitch) * 9.81, -math.sin(roll) * math.cos(pitch) * 9.81,
         math.cos(roll) * math.cos(pitch) * 9.81)
    det = shake.ShakeDetector("accel", "normal")
    for i in range(n):
        w = amp * math.sin(i * 0.6)
        v = [int(round((g[k] + max(-amp, min(amp, rng.gauss(0, amp / 2) + w / 2))) * 1000))
             for k in range(3)]
        assert not det.feed_accel(i * 10, *v)
        assert progress(det) == "idle"


@settings(max_examples=60, deadline=None)
@given(gaps=st.lists(st.integers(9, 60), min_size=1, max_size=60))
def test_switch_toggles_far_apart_never_throw(gaps):
    """Toggles at least 90 ms apart (steps, single taps) never make a shake, however many there are."""
    det = shake.ShakeDetector("switch", "normal")
    t, level = 0, 0
    assert not det.feed_switch(t, level)
    for g in gaps:
        for _ in range(g):
            t += 10
            assert not det.feed_switch(t, level)
        t += 10
        level ^= 1
        assert not det.feed_switch(t, level)


def test_accel_fallback_when_the_cup_never_gets_still():
    """Shake, then walk off with the cup (never still): the throw still comes, quiet_final_ms after the
    last strong sample or the last swing of the shake's oscillation (an axis's count lasts one half-swing,
    at most _HALF_MAX_MS, after its last swing), instead of staying pending for ever."""
    import math
    det = shake.ShakeDetector("accel", "normal")
    hits = []
    for i in range(400):
        t = i * 10
        if 1000 <= t < 2000:
            a = 20.0 * math.sin(2 * math.pi * 4 * t / 1000)
        else:
            a = 0.0
        # afterwards a brisk 3 Hz, 5 m/s^2 bounce: below the shake threshold, yet never 50 ms still
        b = 5.0 * math.sin(2 * math.pi * 3 * t / 1000) if t >= 2000 else 0.0
        if det.feed_accel(t, int(a * 1000), 0, 9807 + int(a * 300 + b * 1000)):
            hits.append(t)
    assert len(hits) == 1 and 2000 + 100 < hits[0] <= 2000 + shake._HALF_MAX_MS + shake._QUIET_FINAL_MS


def _switch_pattern(det, period_ms, burst, total_ms, t0=1000):
    """Toggle `burst` times (10 ms apart) every `period_ms`, for total_ms; then stay quiet 300 ms."""
    hits, level, t = [], 0, 0
    while t < t0 + total_ms + 300:
        if t0 <= t < t0 + total_ms and (t - t0) % period_ms < 10 * burst:
            level ^= 1
        if det.feed_switch(t, level):
            hits.append(t)
        t += 10
    return hits


def test_switch_drumming_is_not_a_shake_but_chatter_is():
    # fingers drumming next to the cup at ~14 Hz: 2 contact changes per knock, for a whole second. The
    # lenient 50 ms mean spacing (which the emulated board's 50 ms toggling needs) lets this chain into a
    # shake: a known limit of the switch sensor (docs/firmware.md), pinned here so a change is noticed.
    assert len(_switch_pattern(shake.ShakeDetector("switch", "normal"), 70, 2, 1000)) == 1
    # toggling every 50 ms (the emulated board's synthetic shake) is a shake with the defaults
    assert len(_switch_pattern(shake.ShakeDetector("switch", "normal"), 100, 1, 800)) == 0
    assert len(_switch_pattern(shake.ShakeDetector("switch", "normal"), 50, 1, 800)) == 1
    # a shaken contact chattering (a change every 20 ms) for 0.6 s: one throw, 80 ms after the last change (at
    # 1580 ms). A switch's stop is known only after the longest gap a shaking contact leaves (docs/rules.md):
    # 60 or 70 ms split the corpus's 2 Hz switch shakes in two (docs/benchmarks.md, the motion corpus).
    assert _switch_pattern(shake.ShakeDetector("switch", "normal"), 20, 1, 600) == [1580 + 80]
    # the same chatter for only 0.2 s is too short
    assert _switch_pattern(shake.ShakeDetector("switch", "normal"), 20, 1, 200) == []
