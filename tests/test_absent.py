"""A cup that stays away: after the timeout the table decides (wait, or its player takes the round's Deckel);
the referee never picks a default on its own."""

import time

import pytest

from conftest import micropython_path
from kits.tablekit import plain_game, read_log

pytestmark = pytest.mark.skipif(micropython_path() is None, reason="needs the micropython unix port")


def test_absent_cup_table_decides(tmp_path):
    waited = []

    def decide(line, stdin):
        if "The table decides" in line:
            # The first time the table waits a little longer; afterwards it rules: forfeit.
            if not waited:
                waited.append(time.time())
                stdin.write("wait 3\n")
            else:
                stdin.write("forfeit 3\n")
            stdin.flush()
    argv = ["--emulate", 3, "--strategy", "fast", "--set", "deckel_total=2", "--opener", 1,
            "--absent-timeout", 1]
    status, lines = plain_game(argv, tmp_path, "Round 2", "unplug 3", on_line=decide, start_s=30)
    assert status == 0, "".join(lines[-30:])
    log = next(tmp_path.glob("*.jsonl"))
    evs = read_log(log)
    kinds = [e["ev"] for e in evs]
    assert "pause" in kinds and "absent" in kinds and "forfeit" in kinds, kinds
    assert kinds.count("absent") >= 2, "the table's 'wait' must restart the timeout, then it is asked again"
    forfeited = [e for e in evs if e["ev"] == "forfeit"]
    rounds = {e["round"]: e for e in evs if e["ev"] == "round"}
    for f in forfeited:
        r = rounds.get(f["round"])
        if r is not None:
            assert r["worst"] == 2 and 2 in r["forfeit"], r  # the absent player took the round's Deckel
    assert kinds[-1] == "game_over"
