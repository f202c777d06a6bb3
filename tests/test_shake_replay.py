"""``schocken shake-replay TRACE.csv``: the firmware's shake detector over a recorded trace, one JSON line per
throw (under MicroPython, falling back to CPython), and one clear line for bad input. The detector itself:
tests/test_shake.py."""

import json
import os
import subprocess
import sys

import pytest

from schocken_host.commands import shake_replay
from schocken_host.provision.build import ROOT as REPO, find_tool

from kits.tracekit import DATA, check_throws

MICROPYTHON = find_tool("micropython")


def test_shake_replay_prints_json_lines(capsys):
    assert shake_replay.main([str(DATA / "shake_twice_accel.csv")]) == 0
    out, err = capsys.readouterr()
    throws = [json.loads(line) for line in out.splitlines()]
    assert all(set(t) == {"t_ms"} for t in throws)
    check_throws("shake_twice_accel.csv", [t["t_ms"] for t in throws])
    if MICROPYTHON:
        assert err == ""


def test_shake_replay_switch_and_no_throws(capsys):
    assert shake_replay.main([str(DATA / "shake_switch.csv"), "--sensor", "switch"]) == 0
    out, _ = capsys.readouterr()
    check_throws("shake_switch.csv", [json.loads(line)["t_ms"] for line in out.splitlines()])
    assert shake_replay.main([str(DATA / "tap_accel.csv")]) == 0
    assert capsys.readouterr().out == ""


def test_shake_replay_falls_back_to_cpython(capsys, monkeypatch):
    monkeypatch.setattr(shake_replay, "find_tool", lambda name: None)
    assert shake_replay.main([str(DATA / "shake_accel.csv"), "--lang", "en"]) == 0
    out, err = capsys.readouterr()
    check_throws("shake_accel.csv", [json.loads(line)["t_ms"] for line in out.splitlines()])
    assert "micropython not found" in err and "CPython" in err


@pytest.mark.parametrize("fallback", [False, True])
@pytest.mark.parametrize("content, args, fragment", [
    (None, [], "no such file"),
    ("time,x\n0,1\n", [], "bad header"),
    ("t_ms,ax,ay,az\n0,0,0,9.81\n10,0,oops,9.8\n", [], "line 3: bad number"),
    ("t_ms,ax,ay,az\n0,0,0,9.81\n", ["--sensor", "switch"], "header is for accel"),
])
def test_shake_replay_bad_input(tmp_path, capsys, monkeypatch, fallback, content, args, fragment):
    if fallback:
        monkeypatch.setattr(shake_replay, "find_tool", lambda name: None)
    path = tmp_path / "trace.csv"
    if content is not None:
        path.write_text(content)
    assert shake_replay.main([str(path), "--lang", "en", *args]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = [line for line in err.splitlines() if "micropython not found" not in line]
    assert len(lines) == 1 and lines[0].startswith("schocken shake-replay: ") and fragment in lines[0], err


def test_shake_replay_as_a_program(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(REPO / "host_tools"))
    cmd = [sys.executable, "-m", "schocken_host.commands.shake_replay"]
    proc = subprocess.run(cmd + [str(DATA / "shake_accel.csv")], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    check_throws("shake_accel.csv", [json.loads(line)["t_ms"] for line in proc.stdout.splitlines()])
    proc = subprocess.run(cmd + [str(tmp_path / "missing.csv")], capture_output=True, text=True, env=env)
    assert proc.returncode == 2 and proc.stdout == "" and len(proc.stderr.splitlines()) == 1
