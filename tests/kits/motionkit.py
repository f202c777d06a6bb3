"""The motion corpus (tests/data/motion: real recordings and modelled traces, PROVENANCE.md) and what the
cup's
shake detector makes of it, per motion class: throws expected and seen, false throws, missed shakes, and how
late each throw is final after the shake stopped. Used by tests/test_shake_corpus.py and
bench/shake_target.py."""

import json
from pathlib import Path

MOTION = Path(__file__).resolve().parents[1] / "data" / "motion"
CORPUS = {}
for _part in ("real.json", "model.json"):
    CORPUS.update(json.loads((MOTION / _part).read_text()))
FINAL_MS = 50   # shake stopped -> throw final (issue 34, issue 42)


def load(name):
    """A trace as ints, as the board delivers them: [(t_ms, x, y, z)] in mm/s^2, or [(t_ms, level)]."""
    rows = []
    with open(MOTION / name) as f:
        f.readline()
        for line in f:
            v = line.split(",")
            rows.append((int(v[0]),) + tuple(int(round(float(x) * 1000)) for x in v[1:]) if len(v) == 4
                        else (int(v[0]), int(v[1])))
    return rows


def run(detector, rows):
    """Feed a trace; -> the times of the throws."""
    detector.reset()
    if detector.sensor == "switch":
        return [t for t, level in rows if detector.feed_switch(t, level)]
    return [t for t, x, y, z in rows if detector.feed_accel(t, x, y, z)]


def judge(name, throws):
    """-> (false throws, missed shakes, latencies in ms) of one trace's throws against the corpus."""
    ends = CORPUS[name]["shake_end_ms"]
    latencies, false, used = [], 0, set()
    for t in throws:
        match = [e for e in ends if e - 300 <= t <= e + 600 and e not in used]
        if match:
            used.add(match[0])
            latencies.append(t - match[0])
        else:
            false += 1
    return false, len(ends) - len(used), latencies


def confusion(make_detector, sensor="accel", names=None):
    """{class: {traces, minutes, expected, seen, false, missed, worst_ms, late}} over the corpus's traces of
    one sensor; ``make_detector(sensor)`` makes a fresh detector."""
    table = {}
    for name in sorted(names or CORPUS):
        m = CORPUS[name]
        if m["sensor"] != sensor:
            continue
        throws = run(make_detector(sensor), load(name))
        false, missed, lat = judge(name, throws)
        row = table.setdefault(m["class"], {"traces": 0, "minutes": 0.0, "expected": 0, "seen": 0, "false": 0,
                                            "missed": 0, "worst_ms": None, "late": []})
        row["traces"] += 1
        row["minutes"] += m["minutes"]
        row["expected"] += m["throws"]
        row["seen"] += len(throws)
        row["false"] += false
        row["missed"] += missed
        if not m.get("latency_judged", True):
            lat = []  # a real recording's shake by the rule: its end is not marked in the data set
        if lat:
            row["worst_ms"] = max(lat + ([row["worst_ms"]] if row["worst_ms"] is not None else []))
        row["late"] += [name for x in lat if x > FINAL_MS or x < 0]
    return table
