"""The shared rule cases (tests/cases/*.json, each quoting its rule text) on CPython and on MicroPython."""

import glob
import subprocess

import pytest

from kits import casekit
from conftest import ROOT, mp_env

CASE_FILES = sorted(glob.glob(str(ROOT / "tests" / "cases" / "*.json")))
CASES = [c for path in CASE_FILES for c in casekit.load(path)]


def test_cases_are_documented():
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)), "case ids must be unique"
    for c in CASES:
        assert c.get("quote") and c.get("seed"), c["id"]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case_cpython(case):
    assert casekit.run_case(case) is None, casekit.run_case(case)


def test_cases_micropython(micropython):
    proc = subprocess.run(
        [micropython, "-X", "heapsize=256k", str(ROOT / "tests" / "kits" / "mp_cases.py")] + CASE_FILES,
        env=mp_env(ROOT / "firmware" / "lib", ROOT / "tests" / "kits"), capture_output=True, text=True,
        timeout=300)
    lines = proc.stdout.strip().splitlines()
    assert lines, proc.stderr
    assert lines[-1] == "%d passed, 0 failed" % len(CASES), proc.stdout
    assert proc.returncode == 0


def test_a_wrong_expectation_fails():
    """The runner can fail: a case with a wrong expectation is reported, on CPython."""
    case = dict(CASES[0])
    case = {"id": "wrong", "type": "throw", "preset": "standard", "dice": [1, 1, 4],
            "expect": {"label": "Schock 5"}, "quote": "-", "seed": "002"}
    assert "Schock 4" in casekit.run_case(case)
