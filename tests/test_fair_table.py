"""Provably fair rolls at a whole emulated table (`schocken play`, fair by default): every throw comes from
the cup's committed seed and the host's nonce for that throw; a cup that rolls dice of its own choosing is
caught."""

import json
import os
import subprocess
import sys

import pytest

from schocken import fair

from conftest import micropython_path
from kits.tablekit import SCALED

pytestmark = pytest.mark.skipif(micropython_path() is None, reason="needs the micropython unix port")


def events(log_dir):
    logs = sorted(log_dir.glob("*.jsonl"))
    assert len(logs) == 1
    return [json.loads(line) for line in logs[0].read_text().splitlines() if line.strip()]


def play(tmp_path, *extra, stdin=None):
    env = dict(os.environ, SCHOCKEN_LOG_DIR=str(tmp_path))
    return subprocess.run([sys.executable, "-m", "schocken_host.cli", "play", "--emulate", "3", "--plain",
                           "--strategy", "schock", "--set", "deckel_total=3", "--opener", "1"]
                          + SCALED + list(extra),
                          env=env, capture_output=True, text=True, timeout=240, input=stdin)


def test_fair_play_is_the_default_and_scripted_dice_turn_it_off():
    import argparse
    from schocken_host.errors import CommandError
    from schocken_host.commands.play import add_arguments
    from schocken_host.commands.play_table import fair_mode
    from schocken_host.table.session import GameConfig, fair_play
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert fair_mode(parser.parse_args([])) is True
    assert fair_mode(parser.parse_args(["--no-fair"])) is False
    assert fair_mode(parser.parse_args(["--seed", "3"])) is False     # scripted dice are not fair dice
    with pytest.raises(CommandError, match="--seed"):
        fair_mode(parser.parse_args(["--seed", "3", "--fair"]))
    # a resumed game keeps the mode its log started with, whatever the config says now
    assert fair_play(GameConfig(fair=False), {"ev": "start", "fair": True}) is True
    assert fair_play(GameConfig(fair=True), {"ev": "start", "fair": False}) is False
    assert fair_play(GameConfig(fair=True), None) is True


def test_fair_game_every_throw_from_seed_and_nonce(tmp_path):
    proc = play(tmp_path)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    evs = events(tmp_path)
    assert evs[0]["fair"] is True and evs[-1]["ev"] == "game_over"
    assert not [e for e in evs if e["ev"] == "cheat"]
    seeds = {(e["round"], e["seat"]): e["hash"] for e in evs if e["ev"] == "seed"}
    nonces = {}
    for e in evs:
        if e["ev"] == "nonce":
            nonces.setdefault((e["round"], e["seat"]), {})[e["throw"]] = e["nonce"]
    reveals = [e for e in evs if e["ev"] == "reveal"]
    assert reveals
    for r in reveals:
        key = (r["round"], r["seat"])
        # The log holds all a third party needs to recompute every throw (the cup's seed is in its reveal).
        rolled = fair.check_dice(r["seed"] if "seed" in r else _seed(tmp_path, r), seeds[key], nonces[key],
                              r["round"], r["transcript"])
        assert rolled == r["throws"]


def _seed(tmp_path, reveal):
    pytest.fail("the reveal event must carry the cup's seed: %r" % sorted(reveal))


def test_a_cup_choosing_its_dice_is_caught(tmp_path):
    # Seat 2 rolls dice of its own choosing for its next turn; commitment and transcript stay consistent.
    proc = play(tmp_path, "--cheat", "deckel", stdin="cheat 3 chosen\n")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    cheats = [e for e in events(tmp_path) if e["ev"] == "cheat"]
    assert cheats and cheats[0]["seat"] == 2 and "seed and nonce give" in cheats[0]["reason"]


def test_killed_fair_game_resumes_fair_and_every_throw_checks(tmp_path):
    """The host killed mid round of a fair game (the default), then resumed from its log: the game stays fair,
    ends, and every throw of every reveal, before and after the crash, comes from the seed and the nonces."""
    from kits import tablekit
    argv = ["--emulate", "3", "--plain", "--strategy", "schock", "--set", "deckel_total=3", "--opener", "1"]
    argv += SCALED
    env = dict(os.environ, SCHOCKEN_LOG_DIR=str(tmp_path))

    def start(attempt):
        for stale in tmp_path.glob("*.jsonl"):  # a game played again starts from an empty folder
            stale.unlink()
        return subprocess.Popen(tablekit.SCHOCKEN + ["play"] + argv, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL), tmp_path

    def in_second_round(evs):
        rounds = [i for i, e in enumerate(evs) if e["ev"] == "round"]
        return rounds and any(e["ev"] == "nonce" for e in evs[rounds[0] + 1:])
    log, at_kill = tablekit.killed_game(start, in_second_round)
    resumed = subprocess.run(tablekit.SCHOCKEN + ["play", "--resume", str(log)] + argv, env=env,
                             capture_output=True, text=True, timeout=240, stdin=subprocess.DEVNULL)
    assert resumed.returncode == 0, resumed.stdout[-2000:] + resumed.stderr[-2000:]
    evs = events(tmp_path)
    assert evs[:len(at_kill)] == at_kill and "resumed" in [e["ev"] for e in evs[len(at_kill):]]
    assert evs[0]["fair"] is True and evs[-1]["ev"] == "game_over"
    assert not [e for e in evs if e["ev"] == "cheat"]
    seeds, nonces = {}, {}
    for e in evs:  # a turn played again after the resume commits a new seed and gets new nonces
        if e["ev"] == "seed":
            seeds[(e["round"], e["seat"])] = e["hash"]
            nonces[(e["round"], e["seat"])] = {}
        elif e["ev"] == "nonce":
            nonces[(e["round"], e["seat"])][e["throw"]] = e["nonce"]
        elif e["ev"] == "reveal":
            key = (e["round"], e["seat"])
            assert (fair.check_dice(e["seed"], seeds[key], nonces[key], e["round"], e["transcript"])
                    == e["throws"])
