"""bench/soak.py end to end on two games, so that the soak cannot rot: the real `schocken play --plain
--emulate 4 --bots 3 --time-scale 20` with the bots' default strategy, a scripted person at the keyboard on
the fourth seat, preset and turn options from the soak's cycle; every game finished, no stall, no false
accusation, no corrupt log, and the person played his turns through his keys. Whole games with 3 Deckel in
the middle (--deckel 3: halves and final in fewer rounds; with 13 a game took 9 to 60 s, by its dice). In the
`table` and `slow` lanes (tests/conftest.py), outside `make check`."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_soak_two_games(tmp_path):
    # Games 16 and 17 of the cycle: Sechsen drehen on (the person's long press), only ones aside, 2 or 3
    # throws.
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "soak.py"), "--games", "2", "--first", "16",
                           "--jobs", "2", "--deckel", "3", "--out", str(tmp_path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0 and "target met" in proc.stdout, proc.stdout + proc.stderr
    total = re.search(r"^total +(.*)$", proc.stdout, re.M).group(1).split()
    games, finished, stalls, accusations, lost, repeated, unfair, corrupt, turns, refused, problems = map(
        int, total)
    assert (games, finished) == (2, 2)
    assert (stalls, accusations, lost, repeated, unfair, corrupt, problems) == (0,) * 7
    assert turns >= 2
    for game in ("game016", "game017"):
        keys = (tmp_path / game / "person.txt").read_text()
        assert "key 's'" in keys and "my turn" in keys, keys
        assert len(list((tmp_path / game).glob("*.jsonl"))) == 1
