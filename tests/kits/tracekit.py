"""The shipped shake traces (tests/data/traces.json) and what a detector must make of them: the throws each
holds, each final within MAX_LATENCY_MS of the shaking's end (issue 42: 50 ms, as on the motion corpus)."""

import json
from pathlib import Path

from kits.motionkit import FINAL_MS as MAX_LATENCY_MS  # one figure for both

DATA = Path(__file__).resolve().parents[1] / "data"
MANIFEST = json.loads((DATA / "traces.json").read_text())


def check_throws(name, throws):
    m = MANIFEST[name]
    assert len(throws) == m["throws"], (name, throws)
    for t, end in zip(throws, m["shake_end_ms"]):
        assert end <= t <= end + MAX_LATENCY_MS, (name, t, end)
