"""The shake detector (firmware/cup/shake.py) over the motion corpus (tests/data/motion, PROVENANCE.md): real
recordings and modelled handling never throw, every shake is thrown exactly once and final within 50 ms of its
stop (issue 42), under CPython over every trace and under the MicroPython unix port over a sample; the
shake-quality rule as a property (hypothesis): motion with less oscillation than the rule asks never throws;
what the detector reports it saw (``motion``) for handling; the sensitivities and a calibration."""

import json
import math
import os
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from cup import shake
from kits.motionkit import CORPUS, FINAL_MS, MOTION, confusion, judge, load, run
from schocken_host.provision.build import ROOT as REPO, find_tool

MICROPYTHON = find_tool("micropython")
SENSITIVITIES = ("low", "normal", "high")
FIRMWARE = REPO / "firmware"


def test_every_trace_is_listed_with_where_it_comes_from():
    assert sorted(CORPUS) == sorted(p.name for p in MOTION.glob("*.csv"))
    provenance = (MOTION / "PROVENANCE.md").read_text()
    for name, m in CORPUS.items():
        assert m["sensor"] in ("accel", "switch") and len(m["shake_end_ms"]) == m["throws"], name
        assert m["class"] and m["minutes"] > 0, name
        if name.startswith("real_"):
            assert m["source"] and m["stands_for"] and name in provenance, name
    assert sum(m["minutes"] for m in CORPUS.values() if m["class"] == "real") > 5


@pytest.fixture(scope="module")
def normal_accel():
    return confusion(lambda sensor: shake.ShakeDetector(sensor, "normal"))


@pytest.mark.parametrize("cls", sorted({m["class"] for m in CORPUS.values() if m["sensor"] == "accel"}))
def test_each_motion_class_at_normal_sensitivity(normal_accel, cls):
    """The confusion table's row (bench/shake_target.py prints it): throws seen are the throws expected,
    none of them false, none late."""
    row = normal_accel[cls]
    assert (row["false"], row["missed"], row["seen"]) == (0, 0, row["expected"]), row
    assert row["late"] == [], row
    if row["worst_ms"] is not None:
        assert 0 <= row["worst_ms"] <= FINAL_MS


def test_sensitivities_never_throw_for_handling_and_low_needs_a_firmer_shake():
    tables = {}
    for level in SENSITIVITIES:
        def make(sensor, level=level):
            return shake.ShakeDetector(sensor, level)
        tables[level] = confusion(make)
    for level, table in tables.items():
        handling = [c for c in table if not c.startswith("shake") and c != "real"]
        assert sum(table[c]["false"] for c in handling) == 0, level
    seen = {level: sum(row["seen"] - row["false"] for row in table.values())
            for level, table in tables.items()}
    assert seen["low"] < seen["normal"] <= seen["high"], seen


def test_the_old_rule_threw_on_real_motion():
    """What the issue found, on this corpus: the old test (|a - g| over 8 m/s^2 for 300 ms with two reversals
    of direction between consecutive strong samples) threw on a walking leg again and again, and missed every
    circular shake. Here a walking thigh at the old thresholds ('high' with its reversal count and swing
    would be close): the new rule throws nowhere on it."""
    rows = load("real_xsens_walk_upper_leg.csv")
    assert run(shake.ShakeDetector("accel", "normal"), rows) == []
    circular = [n for n, m in CORPUS.items() if "circular" in n and m["sensor"] == "accel"]
    assert len(circular) >= 40
    for name in circular:
        assert len(run(shake.ShakeDetector("accel", "normal"), load(name))) == 1, name


SAMPLE = ["real_xsens_walk_upper_leg.csv", "real_ximu_hand.csv", "model_gestures_0.csv",
          "model_free_fall_30cm_0.csv", "model_shake_7hz_400ms_vigorous_circular.csv",
          "model_shake_2hz_3000ms_gentle_updown.csv", "model_shake_then_slam.csv",
          "model_switch_lift_peek.csv", "model_switch_shake_4hz_1000ms_medium_updown.csv"]


@pytest.mark.skipif(MICROPYTHON is None, reason="MicroPython unix port not installed")
def test_a_sample_of_the_corpus_on_the_unix_port():
    """The very code on the cup's interpreter, with a cup's heap: the same throws as CPython."""
    env = dict(os.environ, MICROPYPATH="%s:%s:.frozen" % (FIRMWARE, FIRMWARE / "lib"))
    for name in SAMPLE:
        proc = subprocess.run([MICROPYTHON, "-X", "heapsize=64k", "-m", "cup.replay", str(MOTION / name),
                               CORPUS[name]["sensor"]], capture_output=True, text=True, env=env, timeout=60)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        throws = [json.loads(line)["t_ms"] for line in proc.stdout.splitlines()]
        assert throws == run(shake.ShakeDetector(CORPUS[name]["sensor"], "normal"), load(name)), name
        assert judge(name, throws)[:2] == (0, 0), (name, throws)


# --- the rule as a property -------------------------------------------------------------------------------
# Motion with less oscillation than the rule asks: pieces, each followed by a rest, of
#   - one push-pull (a single back-and-forth, two half-swings) at any frequency and strength up to 4 g,
#   - a slow swing (below 1.3 Hz, an arm) of any strength and length, with the cup turning as it swings,
#   - a weak oscillation (under half the swing, 2.5 m/s^2) at any frequency,
#   - a knock (ringing at 25-45 Hz) of any strength.
PIECE = st.one_of(
    st.tuples(st.just("stroke"), st.floats(1.5, 9.0), st.floats(2.0, 39.0), st.integers(0, 2)),
    st.tuples(st.just("slow"), st.floats(0.3, 1.3), st.floats(2.0, 17.0), st.integers(0, 2)),
    st.tuples(st.just("weak"), st.floats(0.5, 12.0), st.floats(0.2, 2.5), st.integers(0, 2)),
    st.tuples(st.just("knock"), st.floats(25.0, 45.0), st.floats(5.0, 150.0), st.integers(0, 2)),
)


def _render(pieces):
    """-> [(t_ms, x, y, z)] in mm/s^2: the pieces one after the other, 0.6 s of rest after each."""
    rows, t = [], 0
    for kind, f, amp, axis in pieces:
        if kind == "stroke":
            n = int(100 / f)
        elif kind == "slow":
            n = int(100 * 3 / f)
        elif kind == "weak":
            n = 150
        else:
            n = 15
        for i in range(n + 60):
            v = [0.0, 0.0, 9.807]
            if i < n:
                w = 2 * math.pi * f * i / 100
                if kind == "stroke":
                    v[axis] += amp * math.sin(w)
                elif kind == "slow":  # the arm swings and turns the cup by up to 60 degrees
                    a = math.radians(60) * math.sin(w) * min(1.0, amp / 17.0)
                    g = [0.0, 9.807 * math.sin(a), 9.807 * math.cos(a)]
                    v = [g[0], g[1], g[2]]
                    v[axis] += amp * 0.5 * math.sin(w)
                elif kind == "weak":
                    v[axis] += amp * math.sin(w)
                else:
                    v[axis] += amp * math.exp(-i / 2.0) * math.cos(w)
            rows.append((t, int(v[0] * 1000), int(v[1] * 1000), int(v[2] * 1000)))
            t += 10
    return rows


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PIECE, min_size=1, max_size=8), st.sampled_from(SENSITIVITIES))
def test_less_oscillation_than_the_rule_never_throws(pieces, level):
    assert run(shake.ShakeDetector("accel", level), _render(pieces)) == []


def test_a_sustained_oscillation_throws_once():
    """The other side of the property: five half-swings at 4 Hz, 12 m/s^2, then rest: one throw."""
    rows = _render([])
    t = 0
    for i in range(300):
        a = 12.0 * math.sin(2 * math.pi * 4 * i / 100) if 100 <= i < 170 else 0.0
        rows.append((t, int(a * 1000), 0, 9807))
        t += 10
    assert len(run(shake.ShakeDetector("accel", "normal"), rows)) == 1


# --- what it saw -----------------------------------------------------------------------------------------

def _motions(name, level="normal"):
    det = shake.ShakeDetector(CORPUS[name]["sensor"], level)
    seen = []
    for row in load(name):
        if det.sensor == "accel":
            det.feed_accel(*row)
        else:
            det.feed_switch(*row)
        if not seen or seen[-1] != det.motion:
            seen.append(det.motion)
    return seen


def test_the_motion_it_reports():
    seen = _motions("model_lift_peek_0.csv")  # tipped by up to 35 degrees to look under: tilt on the way
    assert "handling" in seen and seen[-1] == "still" and "shaking" not in seen
    assert "tilt" in _motions("model_tilt_look_0.csv")
    assert "tilt" in _motions("model_upside_down_0.csv")
    assert "set_down" in _motions("model_setdown_hard_0.csv")
    assert "set_down" in _motions("model_switch_setdown_hard.csv")
    seen = _motions("model_shake_4hz_1000ms_medium_updown.csv")
    assert seen[-1] == "still" and "shaking" in seen and "settling" in seen
    assert "shaking" not in _motions("model_knocked_glass_0.csv")


def test_a_calibration_and_bad_sensitivities():
    """A calibration is taken as given: here one that asks for five half-swings misses the 400 ms rattle
    that normal (four) throws."""
    rows = load("model_shake_rattle_short.csv")
    assert len(run(shake.ShakeDetector("accel", [8000, 5000, 4]), rows)) == 1
    assert run(shake.ShakeDetector("accel", [8000, 5000, 6]), rows) == []
    for bad in ("medium", [1, 2], [9000, 5500, 1], [99999, 5000, 4], None, 3, "NORMAL"):
        with pytest.raises(ValueError):
            shake.ShakeDetector("accel", bad)
    shake.ShakeDetector("switch", [12, 40])
    with pytest.raises(ValueError):
        shake.ShakeDetector("switch", [9000, 5500, 5])


@pytest.mark.skipif(MICROPYTHON is None, reason="MicroPython unix port not installed")
def test_the_app_takes_the_sensitivity_of_its_configuration():
    """/cup.json's "shake" (`schocken deploy --shake`, `schocken doctor --calibrate`) is the app's detector's;
    one it cannot take leaves the cup at normal rather than not starting."""
    from conftest import run_firmware_code
    out = run_firmware_code("""
from boards import emulated
from cup.app import App
from cup.shake import ShakeDetector
board = emulated.make_board(link=(None, None))
for shake in ("low", "high", [9000, 5500, 4], "bogus", None):
    config = {"cup_id": "c"} if shake is None else {"cup_id": "c", "shake": shake}
    app = App(board, config, None, None)
    for level in ("low", "normal", "high", [9000, 5500, 4]):
        if list(app.detector._s) == list(ShakeDetector("accel", level)._s):
            print(repr(shake), repr(level))
""", "256k")
    assert out.strip().splitlines() == ["'low' 'low'", "'high' 'high'", "[9000, 5500, 4] [9000, 5500, 4]",
                                "'bogus' 'normal'", "None 'normal'"], out
