"""`schocken rules` and `schocken rank` as a user runs them: the console script, stdin, stdout, exit codes."""

import json
import re
import subprocess
import sys

import pytest

from schocken.rules import PRESETS

ROUND = {"throws": [{"dice": [1, 1, 4], "throws": 1, "hand": True}, {"dice": [5, 5, 5]}, {"dice": [6, 3, 2]}]}


def schocken(args, stdin=""):
    return subprocess.run([sys.executable, "-m", "schocken_host.cli"] + args, input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_rank_json_shape():
    """The issue's example: Schock 4, General, 632."""
    proc = schocken(["rank", "--json"], json.dumps(ROUND))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {
        "best": 0, "worst": 2, "deckel": 4, "ranking": [0, 1, 2],
        "results": [{"kind": "schock", "label": "Schock 4", "deckel": 4},
                    {"kind": "general", "label": "General", "deckel": 3},
                    {"kind": "zahl", "label": "632", "deckel": 1}]}


def test_rank_schock_aus_is_all():
    data = {"throws": [{"dice": [2, 3, 4]}, {"dice": [1, 1, 1]}]}
    out = json.loads(schocken(["rank", "--json"], json.dumps(data)).stdout)
    assert out["deckel"] == "all" and out["best"] == 1 and out["worst"] == 0


def test_rank_preset_and_option():
    data = {"throws": [{"dice": [1, 5, 4]}, {"dice": [6, 6, 5]}]}
    out = json.loads(schocken(["rank", "--rules", "ludomax", "--json"], json.dumps(data)).stdout)
    assert out["best"] == 0 and out["results"][0]["label"] == "154"
    out = json.loads(schocken(["rank", "--json"], json.dumps(data)).stdout)
    assert out["best"] == 1 and out["results"][0]["label"] == "541"
    data = {"throws": [{"dice": [1, 2, 4]}, {"dice": [6, 1, 1]}]}
    out = json.loads(schocken(["rank", "--set", "jule=true", "--json"], json.dumps(data)).stdout)
    assert out["best"] == 0 and out["deckel"] == 7


def test_rank_for_people_in_german_and_english():
    de = schocken(["rank"], json.dumps(ROUND))
    en = schocken(["--lang", "en", "rank"], json.dumps(ROUND))
    assert de.returncode == en.returncode == 0
    assert "Spieler 3 verliert die Runde und bekommt 4 Deckel" in de.stdout
    assert "Player 3 loses the round and takes 4 Deckel" in en.stdout


BAD = [
    ("not json", "{throws", "not JSON"),
    ("one throw", json.dumps({"throws": [{"dice": [1, 1, 4]}]}), "at least two"),
    ("no throws", json.dumps({"dice": [1, 1, 4]}), "throws"),
    ("die 7", json.dumps({"throws": [{"dice": [1, 1, 7]}, {"dice": [2, 2, 2]}]}), "1 to 6"),
    ("die 0", json.dumps({"throws": [{"dice": [0, 1, 1]}, {"dice": [2, 2, 2]}]}), "1 to 6"),
    ("die text", json.dumps({"throws": [{"dice": ["1", 1, 1]}, {"dice": [2, 2, 2]}]}), "1 to 6"),
    ("two dice", json.dumps({"throws": [{"dice": [1, 1]}, {"dice": [2, 2, 2]}]}), "three dice"),
    ("four dice", json.dumps({"throws": [{"dice": [1, 1, 2, 3]}, {"dice": [2, 2, 2]}]}), "three dice"),
    ("throws 4", json.dumps({"throws": [{"dice": [1, 1, 2], "throws": 4}, {"dice": [2, 2, 2]}]}),
     "throws must be"),
    ("throws 0", json.dumps({"throws": [{"dice": [1, 1, 2], "throws": 0}, {"dice": [2, 2, 2]}]}),
     "throws must be"),
    ("hand false one throw",
     json.dumps({"throws": [{"dice": [1, 1, 2], "hand": False}, {"dice": [2, 2, 2]}]}),
     "at least two throws"),
    ("later player more throws",
     json.dumps({"throws": [{"dice": [1, 1, 2]}, {"dice": [2, 2, 2], "throws": 2}]}),
     "more than the opener"),
]


@pytest.mark.parametrize("name,text,words", BAD, ids=[b[0] for b in BAD])
def test_rank_bad_input(name, text, words):
    proc = schocken(["--lang", "en", "rank", "--json"], text)
    assert proc.returncode != 0
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], proc.stderr


@pytest.mark.parametrize("args,words", [
    (["rank", "--rules", "kneipe"], "unknown rule set"),
    (["rank", "--set", "julia=true"], "unknown option"),
    (["rank", "--set", "jule=vielleicht"], "true or false"),
    (["rank", "--set", "jule"], "OPTION=VALUE"),
    (["rules", "--set", "schock_aus=half"], "must be one of"),
])
def test_unknown_preset_or_option(args, words):
    proc = schocken(["--lang", "en"] + args, json.dumps(ROUND))
    assert proc.returncode != 0 and proc.stdout == ""
    assert words in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_rules_table(preset):
    proc = schocken(["rules", "--rules", preset])
    assert proc.returncode == 0, proc.stderr
    assert "Schock-Aus" in proc.stdout and "Schock 6 … Schock 2" in proc.stdout
    assert "General" in proc.stdout and "Straße" in proc.stdout
    ranking = proc.stdout.split("\nOptionen:")[0]   # the options below explain the Jule in every rule set
    assert ("Jule" in ranking) == (preset == "wuerfel63")
    assert "max_throws = 3" in proc.stdout


def test_rules_shows_changed_option():
    proc = schocken(["rules", "--set", "jule=true", "--set", "max_throws=2"])
    assert re.search(r"jule = true +1-2-4 ist die Jule, über jedem Schock \(geändert\)", proc.stdout)
    assert re.search(r"max_throws = 2 +so viele Würfe hat der Startspieler \(geändert\)", proc.stdout)
    assert "Jule" in proc.stdout and "1-2-4" in proc.stdout


def test_console_script_installed():
    """pyproject installs `schocken`; the venv that runs the tests has it."""
    import shutil
    from pathlib import Path
    exe = Path(sys.executable).parent / "schocken"
    path = str(exe) if exe.exists() else shutil.which("schocken")
    assert path, "console script schocken is not installed"
    proc = subprocess.run([path, "rules"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "Regeln: standard" in proc.stdout
