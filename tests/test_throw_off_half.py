"""A throw-off that costs Deckel (verein: throw_off_deckel) and holds a Schock-Aus ends the first half at
once: the lowest takes all the Deckel. The table is told who lost it, as after a round: a `half_lost` event
right after the `throw_off`, and its line on the screen (the log had no half_lost once, and the plain output
never named the first half's loser)."""

import os

from kits import tablekit


def test_a_schock_aus_in_a_costly_throw_off_ends_the_first_half(tmp_path):
    # --seed 34 scripts the throw-off (round 1, throw 1 of each seat): 3-4-1, 1-1-1, 6-5-1, 1-4-5. Seat 1's
    # Schock-Aus is worth all; seat 0's 431 is the lowest. Halves of 3 Deckel: the game after it is short.
    env = dict(os.environ, SCHOCKEN_LOG_DIR=str(tmp_path))
    proc = tablekit.schocken("--lang", "en", "play", "--plain", "--emulate", 4, "--rules", "verein",
                             "--seed", 34, "--set", "deckel_total=3", *tablekit.SCALED, env=env,
                             timeout=tablekit.GAME_TIMEOUT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    log = tablekit.read_log(tablekit.the_log(tmp_path))
    kinds = [e["ev"] for e in log]
    after = log[kinds.index("throw_off") + 1]
    assert log[kinds.index("throw_off")]["dice"][1] == [1, 1, 1]
    assert (after["ev"], after["phase"], after["seat"]) == ("half_lost", "half1", 0)
    assert "Bot 1 loses the first half." in proc.stdout.splitlines()
    assert tablekit.replay_json(tablekit.the_log(tmp_path))["half_losers"][0] == 0
