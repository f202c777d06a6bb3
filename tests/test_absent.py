"""A cup that stays away: after the timeout the table decides (wait, or its player takes the round's Deckel);
the referee never picks a default on its own."""

import os
import subprocess
import sys
import threading
import time

import pytest

from conftest import micropython_path
from kits.tablekit import SCALED, read_log

pytestmark = pytest.mark.skipif(micropython_path() is None, reason="needs the micropython unix port")


def test_absent_cup_table_decides(tmp_path):
    env = dict(os.environ, SCHOCKEN_LOG_DIR=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-m", "schocken_host.cli", "--lang", "en", "play", "--emulate",
                             "3", "--plain", "--strategy", "fast", "--set", "deckel_total=2", "--opener", "1",
                             "--absent-timeout", "1"] + SCALED, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    lines, waited = [], []

    def read():
        for line in proc.stdout:
            lines.append(line)
            if "The table decides" in line:
                # The first time the table waits a little longer; afterwards it rules: forfeit.
                if not waited:
                    waited.append(time.time())
                    proc.stdin.write("wait 3\n")
                else:
                    proc.stdin.write("forfeit 3\n")
                proc.stdin.flush()
    t = threading.Thread(target=read, daemon=True)
    t.start()
    try:
        deadline = time.time() + 30
        while not any("Round 2" in ln for ln in lines) and time.time() < deadline:
            time.sleep(0.05)
        proc.stdin.write("unplug 3\n")
        proc.stdin.flush()
        proc.wait(180)
    finally:
        if proc.poll() is None:
            proc.kill()
    t.join(5)
    assert proc.returncode == 0, "".join(lines[-30:])
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
