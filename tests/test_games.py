"""Whole tables end to end: the host referee with emulated cups on the MicroPython unix port, through
`schocken play` (as a subprocess) or `play_cmd.play` (in this process), bots playing the cups' real inputs.

All games of this module start together in one module fixture (tests/kits/tablekit.py) and run side by side;
each test waits for its own. Games use `--strategy fast` bots and `--set deckel_total=3` (complete games, just
fewer Deckel in the middle) so the module stays well under four minutes on two cores.
"""

import json
import os
import random
import time
import shutil
from pathlib import Path

import pytest

from conftest import micropython_path
from kits import tablekit

pytestmark = pytest.mark.skipif(micropython_path() is None, reason="needs the micropython unix port")

PRESETS = ("standard", "verein", "wuerfel63", "beton", "ludomax")
NAMES = ["Anna", "Bert", "Cleo", "Dora"]
SHORT = ["--set", "deckel_total=3", "--strategy", "fast"]
QUICK = {"settings": {"deckel_total": 3}, "strategy": "fast"}   # SHORT, for a GameConfig
RESUME_ARGV = ["--emulate", 4, "--rules", "standard", "--seed", 7] + SHORT
CHEATS = [("dice", "replay"), ("transcript", "deckel"), ("dice", "deckel"), ("transcript", "replay")]
WAIT = tablekit.GAME_TIMEOUT + 30


def flash(cup):
    """The cup's state in its emulated flash (cup.core.Cup.snapshot), flattened: its three parts in one
    dict."""
    data = json.loads(Path(cup.state_path).read_text())
    return dict(data["table"], **data["round"], **data["turn"])


def restart_hook(ui, st, ev):
    """Restart the opener's cup after its first throw of a round (turn in progress), and later the second
    player's cup right after it stood."""
    d = ui.data
    if (ev["ev"] == "progress" and "mid" not in d and st.round_kind == "round" and st.round >= 2
            and st.order and ev["seat"] == st.order[0] and ev["throws"] == 1
            and not st.players[ev["seat"]].done):
        cup = ui.game.cup(ev["seat"])
        before = flash(cup)
        cup.restart()
        d["mid"] = {"round": ev["round"], "seat": ev["seat"], "before": before, "after": flash(cup)}
    elif (ev["ev"] == "done" and "mid" in d and "stood" not in d and ev["round"] > d["mid"]["round"]
          and st.round_kind == "round" and len(st.order) > 1 and ev["seat"] == st.order[1]):
        cup = ui.game.cup(ev["seat"])
        cup.restart()
        d["stood"] = {"round": ev["round"], "seat": ev["seat"], "commit": ev["commit"], "after": flash(cup)}


def cheat_hook(kind, seat):
    def hook(ui, st, ev):
        if (ev["ev"] == "turn" and ev.get("kind") == "round" and "armed" not in ui.data
                and seat in ev["order"]):
            ui.data["armed"] = ev["round"]
            ui.game.cup(seat).control("cheat " + kind)
    return hook


def cheat_everywhere(ui, st, ev):
    """Every cup reveals dice of its own in every round from the first on: each round is void, the third in a
    row stops the game. The cheat is the cup processes' own (their control channels), not in their flash."""
    if ev["ev"] == "turn" and "armed" not in ui.data:
        ui.data["armed"] = ev["round"]
        for seat in range(len(st.players)):
            ui.game.cup(seat).control("cheat dice always")


STOPPED_ARGV = ["--rules", "standard", "--seed", 13, "--cheat", "replay"] + SHORT
STOPPED = dict(preset="standard", seed=13, cheat="replay", **QUICK)


def stopped_flow(lab):
    """The game that stopped after three void rounds, resumed from its log by a new host whose cups (new
    processes, their flash kept beside the log) no longer cheat."""
    game = lab.futures["stopped"].result(WAIT)
    stopped = tablekit.read_log(game.log)
    proc, _ = lab.cli("stopped-resume", ["--resume", game.log, "--emulate", 2] + STOPPED_ARGV,
                      log_dir=Path(game.log).parent)
    return {"rc": tablekit.wait_proc(proc), "stopped": stopped, "log": game.log,
            "out": (lab.root / "stopped-resume.out").read_text()}


def resume_flow(lab, name="resume", ready=None):
    """An uninterrupted game and the same seeded game killed (mid round, or where ``ready`` says), then
    resumed from its log."""
    a, _ = lab.cli(name + "-a", RESUME_ARGV)

    def mid_round(evs):
        rounds = [i for i, e in enumerate(evs) if e["ev"] == "round"]
        return len(rounds) >= 3 and any(e["ev"] == "done" for e in evs[rounds[2] + 1:])
    log, at_kill = tablekit.killed_game(lambda n: lab.cli("%s-b%d" % (name, n), RESUME_ARGV),
                                        ready or mid_round)
    c, _ = lab.cli(name + "-c", ["--resume", log] + RESUME_ARGV, log_dir=Path(log).parent)
    return {"a_rc": tablekit.wait_proc(a), "c_rc": tablekit.wait_proc(c),
            "a_log": tablekit.the_log(lab.root / (name + "-a")),
            "log": log, "at_kill": at_kill, "c_out": (lab.root / (name + "-c.out")).read_text()}


# Crash points drawn at random for every run (the seed is in the failure message to repeat one).
CRASH_SEED = int(os.environ.get("SCHOCKEN_CRASH_SEED", str(int(time.time()) % 100000)))
CRASH_POINTS = random.Random(CRASH_SEED).sample(range(8, 70), 2)


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    lab = tablekit.Lab(tmp_path_factory.mktemp("table"))
    for n, preset in enumerate(PRESETS):
        lab.game("preset-" + preset, names=NAMES, preset=preset, seed=100 + n, **QUICK)
    lab.game("restart", hook=restart_hook, seed=5, **QUICK)
    for kind, policy in CHEATS:
        lab.game("cheat-%s-%s" % (kind, policy), hook=cheat_hook(kind, 1), cups=3, seed=11, cheat=policy,
                 **QUICK)
    lab.game("stopped", hook=cheat_everywhere, cups=2, **STOPPED)
    lab.in_background("stopped-resumed", lambda: stopped_flow(lab))
    lab.in_background("resume", lambda: resume_flow(lab))
    for k, n in enumerate(CRASH_POINTS):
        lab.in_background("crash%d" % k, lambda k=k, n=n: resume_flow(
            lab, "crash%d" % k, lambda evs, n=n: len(evs) >= n))
    yield lab
    lab.close()


def result(lab, name):
    return lab.futures[name].result(WAIT)


def assert_complete(game):
    st = game.state
    assert game.ui.errors == []
    assert st.over and st.phase() == "over"
    assert st.loser is not None
    log = tablekit.read_log(game.log)
    assert log[0]["ev"] == "start" and log[-1]["ev"] == "game_over"
    assert log[-1]["loser"] == st.loser
    return log


# --- a. every preset to the end; replay gives the live standings ------------------------------------
@pytest.mark.parametrize("preset", PRESETS)
def test_full_game_of_every_preset(lab, preset):
    game = result(lab, "preset-" + preset)
    log = assert_complete(game)
    assert log[0]["rules"]["preset"] == preset
    assert len(log[0]["players"]) == 4
    assert tablekit.events(log, "round") and not tablekit.events(log, "cheat")
    live = json.loads(json.dumps(game.state.standings()))
    assert tablekit.replay_json(game.log) == live
    assert live["phase"] == "over" and live["loser"] in range(4)


# --- b. killed mid round, resumed: the same game as without the crash -----------------------------
def test_killed_host_resumes_to_the_same_result(lab):
    r = result(lab, "resume")
    assert r["a_rc"] == 0 and r["c_rc"] == 0, r["c_out"][-2000:]
    at_kill = r["at_kill"]
    assert at_kill[-1]["ev"] not in ("round", "game_over")        # killed inside a round
    assert len(tablekit.events(at_kill, "round")) >= 3
    log = tablekit.read_log(r["log"])
    assert log[:len(at_kill)] == at_kill                          # the resumed host appended to the same log
    assert "resumed" in [e["ev"] for e in log[len(at_kill):]]
    assert log[-1]["ev"] == "game_over"
    whole, resumed = tablekit.replay_json(r["a_log"]), tablekit.replay_json(r["log"])
    for key in ("phase", "loser", "half_losers", "middle", "blattschuss", "rounds"):
        assert resumed[key] == whole[key], key
    assert [p["deckel"] for p in resumed["players"]] == [p["deckel"] for p in whole["players"]]

    def rounds(evs):
        return [(e["round"], e["order"], e["entries"], e["worst"], e["deckel"])
                for e in tablekit.events(evs, "round")]
    assert rounds(log) == rounds(tablekit.read_log(r["a_log"]))           # the same dice, round by round


@pytest.mark.parametrize("k", range(len(CRASH_POINTS)))
def test_host_killed_at_a_random_point_resumes_to_the_same_result(lab, k):
    r = result(lab, "crash%d" % k)
    why = "crash seed %d, killed after %d events" % (CRASH_SEED, CRASH_POINTS[k])
    assert r["a_rc"] == 0 and r["c_rc"] == 0, why + "\n" + r["c_out"][-2000:]
    whole, resumed = tablekit.replay_json(r["a_log"]), tablekit.replay_json(r["log"])
    for key in ("phase", "loser", "half_losers", "middle", "blattschuss", "rounds"):
        assert resumed[key] == whole[key], (key, why)
    assert [p["deckel"] for p in resumed["players"]] == [p["deckel"] for p in whole["players"]], why


# --- c. a cup restarted mid turn and after it stood ---------------------------------------------
def test_restarted_cup_rejoins_without_losing_a_throw(lab):
    game = result(lab, "restart")
    log = assert_complete(game)
    d = game.ui.data
    assert "mid" in d and "stood" in d, d
    assert not tablekit.events(log, "cheat")

    def seat_events(kind, round_id, seat):
        return [e for e in log if e["ev"] == kind and e.get("round") == round_id and e.get("seat") == seat]

    for key in ("mid", "stood"):
        seat = d[key]["seat"]
        pauses = [e for e in log if e["ev"] == "pause" and e["seat"] == seat]
        resumes = [e for e in log if e["ev"] == "resume" and e["seat"] == seat]
        assert pauses and resumes, key
        assert log.index(pauses[0]) < log.index(resumes[0])

    # Mid turn: the cup came back with the throw it had; that throw is the first of the revealed transcript.
    mid = d["mid"]
    before = mid["before"]
    assert before["state"] == "turn" and before["round"] == mid["round"]
    assert [s[0] for s in before["transcript"]] == ["roll"]
    assert mid["after"]["transcript"] == before["transcript"]
    reveal, = seat_events("reveal", mid["round"], mid["seat"])
    assert reveal["transcript"][:1] == before["transcript"]
    assert reveal["throws"] == sum(1 for s in reveal["transcript"] if s[0] == "roll")
    assert len(seat_events("turn", mid["round"], mid["seat"])) == 1

    # After it stood: the same commitment before and after, and the reveal checked against it.
    stood = d["stood"]
    assert stood["after"]["commit"] == stood["commit"] and stood["after"]["state"] == "done"
    done, = seat_events("done", stood["round"], stood["seat"])
    assert done["commit"] == stood["commit"]
    assert seat_events("reveal", stood["round"], stood["seat"])
    assert any(e["ev"] == "round" and e["round"] == stood["round"] for e in log)
    assert tablekit.replay_json(game.log) == json.loads(json.dumps(game.state.standings()))


# --- d. cheating cups -------------------------------------------------------------------------------
@pytest.mark.parametrize("kind,policy", CHEATS)
def test_cheating_cup_is_caught(lab, kind, policy):
    game = result(lab, "cheat-%s-%s" % (kind, policy))
    log = assert_complete(game)
    armed = game.ui.data["armed"]
    cheats = tablekit.events(log, "cheat")
    assert [(e["round"], e["seat"]) for e in cheats] == [(armed, 1)]
    reason = cheats[0]["reason"]
    expected = {"dice": "commitment", "transcript": "step"}[kind]
    assert expected in reason, reason
    rounds = [e for e in tablekit.events(log, "round") if e["round"] == armed]
    if policy == "replay":
        replay, = tablekit.events(log, "replay_round")
        assert replay["round"] == armed and replay["seats"] == [1]
        assert rounds == []
    else:
        assert not tablekit.events(log, "replay_round")
        rnd, = rounds
        assert rnd["worst"] == 1 and rnd["forfeit"] == [1]
    assert tablekit.replay_json(game.log) == json.loads(json.dumps(game.state.standings()))


def test_a_cheat_in_the_log_stands_when_the_game_is_resumed(lab):
    """A cup caught cheating is not asked for its reveal again after a resume: the `cheat` events of the round
    in progress stand (before, a resumed host asked the flagged cups again and ranked the round with the
    honest reveals of their new processes). A game that stopped after three void rounds plays the round
    again, and on to the end."""
    r = result(lab, "stopped-resumed")
    stopped = r["stopped"]
    assert stopped[-1]["ev"] == "stop", stopped[-3:]
    last = stopped[-2]["round"]
    assert {(e["round"], e["seat"]) for e in tablekit.events(stopped, "cheat")} >= {(last, 0), (last, 1)}
    assert r["rc"] == 0, r["out"][-2000:]
    log = tablekit.read_log(r["log"])
    assert log[:len(stopped)] == stopped
    after = log[len(stopped):]
    assert after[0]["ev"] == "resumed"
    assert not [e for e in after if e["ev"] in ("reveal", "round") and e["round"] == last]
    replay, = [e for e in after if e["ev"] == "replay_round" and e["round"] == last]
    assert replay["reason"] == "cheat" and replay["seats"] == [0, 1]
    assert log[-1]["ev"] == "game_over" and not tablekit.events(after, "cheat")
    assert tablekit.replay_json(r["log"])["phase"] == "over"


# --- e. replay refuses a tampered log; stats ----------------------------------------------------------
def _tamper(src, dst, edit):
    lines = Path(src).read_text(encoding="utf-8").splitlines()
    n = edit(lines)
    Path(dst).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return n


def _round_line(lines, pick=0):
    idx = [i for i, ln in enumerate(lines) if json.loads(ln)["ev"] == "round"]
    return idx[pick]


@pytest.mark.parametrize("how", ["deckel", "worst", "delete"])
def test_replay_refuses_an_inconsistent_log(lab, tmp_path, how):
    game = result(lab, "preset-standard")
    bad = tmp_path / "bad.jsonl"

    def edit(lines):
        if how == "delete":
            i = _round_line(lines, -1)          # the last round: the game_over after it no longer adds up
            del lines[i]
            return None
        i = _round_line(lines, 0)
        ev = json.loads(lines[i])
        if how == "deckel":
            ev["deckel"] = ev["deckel"] + 1 if isinstance(ev["deckel"], int) else 1
        else:
            ev["worst"] = next(s for s in ev["order"] if s != ev["worst"])
        lines[i] = json.dumps(ev)
        return i + 1
    n = _tamper(game.log, bad, edit)
    proc = tablekit.schocken("--lang", "en", "replay", bad, "--json")
    assert proc.returncode != 0
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    if n is not None:
        assert "line %d:" % n in proc.stderr and how in proc.stderr, proc.stderr
    else:
        assert " line " in proc.stderr, proc.stderr


def test_stats_summarize_games_per_player(lab, tmp_path):
    games = [result(lab, "preset-" + p) for p in PRESETS]
    for g in games:
        shutil.copy(g.log, tmp_path / (g.name + ".jsonl"))
    proc = tablekit.schocken("stats", "--log-dir", tmp_path, "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["games"] == len(PRESETS)
    assert sorted(data["players"]) == sorted(NAMES)
    for name in NAMES:
        row = data["players"][name]
        assert row["games"] == len(PRESETS)
        lost = sum(1 for g in games if g.state.name(g.state.loser) == name)
        assert row["games_lost"] == lost
        halves = sum(1 for g in games for ev in tablekit.events(tablekit.read_log(g.log), "half_lost")
                     if ev["phase"] != "final" and g.state.name(ev["seat"]) == name)
        assert row["halves_lost"] == halves
    assert sum(r["games_lost"] for r in data["players"].values()) == len(PRESETS)
    text = tablekit.schocken("--lang", "en", "stats", "--log-dir", tmp_path)
    assert text.returncode == 0 and "%d games" % len(PRESETS) in text.stdout
    assert all(name in text.stdout for name in NAMES)


def test_stats_count_halves_from_the_rules_even_without_half_lost_lines(lab, tmp_path):
    """A host that died right after a round never wrote that half's half_lost line; stats count the half all
    the same (from the rounds, as the rules decide), and count it once where the line is there."""
    whole, torn = tmp_path / "whole", tmp_path / "torn"
    whole.mkdir()
    torn.mkdir()
    for p in PRESETS:
        log = result(lab, "preset-" + p).log
        shutil.copy(log, whole / (p + ".jsonl"))
        lines = Path(log).read_text().splitlines(keepends=True)
        (torn / (p + ".jsonl")).write_text("".join(ln for ln in lines if json.loads(ln)["ev"] != "half_lost"))
    counts = [json.loads(tablekit.schocken("stats", "--log-dir", d, "--json").stdout)["players"]
              for d in (whole, torn)]
    assert counts[0] == counts[1]
    assert sum(r["halves_lost"] for r in counts[0].values()) > 0


# --- f. a cup that is not there ----------------------------------------------------------------------
def test_missing_port_is_one_clear_line(tmp_path):
    env = dict(tablekit.os.environ, SCHOCKEN_LOG_DIR=str(tmp_path / "logs"))
    proc = tablekit.schocken("play", "--plain", "--port", "/dev/no-such-cup", "--port", "/dev/no-such-cup-2",
                             env=env)
    assert proc.returncode != 0
    err = proc.stderr.strip().splitlines()
    assert len(err) == 1 and "/dev/no-such-cup" in err[0], proc.stderr
    assert "Traceback" not in proc.stderr
    assert not list((tmp_path / "logs").glob("*.jsonl")) if (tmp_path / "logs").exists() else True
