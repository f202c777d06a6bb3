"""The shipped shake traces (tests/data/traces.json) and what a detector must make of them: the throws each
holds, each final within MAX_LATENCY_MS of the shaking's end (issue 3: 100 ms)."""

import json
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data"
MANIFEST = json.loads((DATA / "traces.json").read_text())
MAX_LATENCY_MS = 100


def check_throws(name, throws):
    m = MANIFEST[name]
    assert len(throws) == m["throws"], (name, throws)
    for t, end in zip(throws, m["shake_end_ms"]):
        assert end <= t <= end + MAX_LATENCY_MS, (name, t, end)
