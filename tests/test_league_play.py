"""A game recorded in the league as it ends (docs/league.md, "Recorded as a game ends"): through the real
command line, `schocken play` with emulated bot cups, its league a real SQLite file in SCHOCKEN_DATA_DIR. The
game is in the standings when the command returns, `liga import` of its log finds it there; `--no-league`
records nothing; a database that is in use or damaged during the game costs one line on standard error, the
game ends as always and its log is whole."""

import json
import os
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from kits import tablekit
from schocken_host.table.gamelog import finished

GAME = ["--plain", "--emulate", 2, "--bots", 2, "--strategy", "fast", "--set", "deckel_total=3",
        *tablekit.SCALED]


@pytest.fixture
def place(tmp_path):
    """(env, data folder, log folder) of a table of its own."""
    data, logs = tmp_path / "data", tmp_path / "games"
    env = dict(os.environ, SCHOCKEN_DATA_DIR=str(data), SCHOCKEN_LOG_DIR=str(logs))
    env.pop("SCHOCKEN_DEBUG", None)
    return env, data, logs


def play(env, *extra):
    proc = tablekit.schocken("--lang", "en", "play", *GAME, *extra, env=env, timeout=tablekit.GAME_TIMEOUT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc


def liga(env, *argv):
    proc = tablekit.schocken("--lang", "en", "liga", *argv, env=env, timeout=60)
    return proc


def the_game(log):
    return json.loads(Path(log).read_text(encoding="utf-8").split("\n")[0])["game_id"]


def test_a_finished_game_is_in_the_league_when_play_returns(place, micropython):
    env, data, logs = place
    proc = play(env)
    log = tablekit.the_log(logs)
    assert "recorded in the league: %s" % (data / "league.sqlite3") in proc.stdout.splitlines()
    assert proc.stderr == ""
    conn = sqlite3.connect(data / "league.sqlite3")
    assert conn.execute("SELECT game_id, log, players, place FROM games").fetchall() == [
        (the_game(log), str(log), 2, "games")]
    conn.close()
    table = json.loads(liga(env, "--json").stdout)
    assert table["games"] == 1 and sorted(r["player"] for r in table["players"]) == ["Bot 1", "Bot 2"]
    again = liga(env, "import", logs)
    assert again.returncode == 0 and again.stdout.startswith("0 recorded, 1 already there")   # idempotent


def test_no_league_records_nothing(place, micropython):
    env, data, logs = place
    proc = play(env, "--no-league")
    assert finished(tablekit.the_log(logs))
    assert "in the league" not in proc.stdout + proc.stderr
    assert not (data / "league.sqlite3").exists()


def test_a_database_in_use_costs_one_line_and_the_game_ends_as_always(place, micropython):
    env, data, logs = place
    data.mkdir()
    holder = sqlite3.connect(data / "league.sqlite3", isolation_level=None)
    holder.execute("PRAGMA journal_mode = WAL")
    holder.execute("CREATE TABLE other (x)")
    holder.execute("BEGIN IMMEDIATE")    # another writer holds the database for the whole game
    holder.execute("INSERT INTO other VALUES (1)")
    try:
        proc = play(env)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    log = tablekit.the_log(logs)
    assert finished(log) and "Final standings:" in proc.stdout
    err = proc.stderr.splitlines()
    assert len(err) == 1 and err[0].startswith("schocken: not recorded in the league: "), proc.stderr
    assert "in use" in err[0] and "schocken liga import %s" % log in err[0]
    done = liga(env, "import", logs)     # what the line says to do, once the database is free
    assert done.returncode == 0 and done.stdout.startswith("1 recorded"), done.stdout + done.stderr


def test_a_database_damaged_during_the_game_is_left_alone_and_the_log_is_whole(place, micropython):
    env, data, logs = place
    data.mkdir()
    damaged = b"this is no database, whatever its name says\n" * 100
    proc = subprocess.Popen(tablekit.SCHOCKEN + ["--lang", "en", "play"] + [str(a) for a in GAME],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            text=True, env=env, cwd=tablekit.ROOT)
    try:
        deadline = time.monotonic() + tablekit.GAME_TIMEOUT
        while not list(logs.glob("*.jsonl")) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        # While the game goes on (on a fast machine it may be over already: the same for the recording).
        (data / "league.sqlite3").write_bytes(damaged)
        out, err = proc.communicate(timeout=tablekit.GAME_TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    log = tablekit.the_log(logs)
    assert finished(log) and "Final standings:" in out
    assert (data / "league.sqlite3").read_bytes() == damaged
    lines = err.splitlines()
    assert len(lines) == 1 and "not recorded in the league" in lines[0] and "damaged" in lines[0], err
    replayed = tablekit.schocken("replay", "--json", log, env=env, timeout=60)
    assert replayed.returncode == 0 and json.loads(replayed.stdout)["phase"] == "over"


# --- the recorder alone (league/recorder.py), no game played ------------------------------------------------
RECORDED = sorted((tablekit.ROOT / "tests" / "data").glob("*.jsonl"))


def test_the_recorder_returns_at_once_and_records_once_the_database_is_free(tmp_path):
    """The session's hook must not hold up the end of a game: with another writer holding the database, the
    hook has returned while its thread still waits; once the writer lets go, the game is recorded."""
    from schocken_host.league.recorder import Recorder
    path = tmp_path / "league.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA journal_mode = WAL")
    holder.execute("BEGIN EXCLUSIVE")
    recorder = Recorder(path)
    recorder(RECORDED[0])
    alive = recorder.thread.is_alive()   # waiting for the database (db.BUSY_TIMEOUT_S), not done
    holder.execute("ROLLBACK")
    holder.close()
    assert alive
    line, error = recorder.line("en")
    if error:   # the writer held it past the wait: the one line says so, and a second try records it
        assert "in use" in line and "schocken liga import %s" % RECORDED[0] in line
        recorder(RECORDED[0])
        line, error = recorder.line("en")
    assert (line, error) == ("recorded in the league: %s" % path, False)
    again = Recorder(path)
    again(RECORDED[0])
    assert again.line("en") == ("recorded in the league: %s" % path, False)   # once: by its game id
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 1
    conn.close()


def test_a_newer_database_or_a_broken_log_is_one_line_of_the_recorder(tmp_path):
    from schocken_host.league import db
    from schocken_host.league.recorder import Recorder
    path = tmp_path / "league.sqlite3"
    db.open_league(path).close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = %d" % (db.VERSION + 1))
    conn.close()
    before = path.read_bytes()
    recorder = Recorder(path)
    recorder(RECORDED[0])
    line, error = recorder.line("de")
    assert error and line.startswith("schocken: nicht in der Liga eingetragen: ") and "Schema-Version" in line
    assert path.read_bytes() == before
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(RECORDED[0].read_bytes().replace(b'"ev":"round"', b'"ev":"rund"', 1))
    recorder = Recorder(tmp_path / "other.sqlite3")
    recorder(broken)
    line, error = recorder.line("en")
    assert error and "%s line " % broken in line and "\n" not in line
    assert Recorder().line("en") is None   # no game handed over: nothing to say
