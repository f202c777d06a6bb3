"""A game recorded in the league as it ends (docs/league.md, "Recorded as a game ends"): through the real
command line, `schocken play` with emulated bot cups, its league a real SQLite file in SCHOCKEN_DATA_DIR. The
game is in the standings when the command returns, `liga import` of its log finds it there; `--no-league`
records nothing; a database that is in use or damaged during the game costs one line on standard error, the
game ends as always and its log is whole. One table's games are one evening whatever folders their logs went
to; no stake is charged unless the table chose one; `stats` and `liga` count the same games (a game that was
quit is none)."""

import json
import os
import signal
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
        (the_game(log), str(log), 2, "")]     # played without a table file: a table without a name
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


# --- evenings, stakes and what a game is, through the real command line -----------------------------------
TABLE_FILE = 'name = "Stammtisch"\n[[players]]\nname = "Anna"\n[[players]]\nname = "Bert"\n'


def test_one_tables_games_are_one_evening_whatever_folders_their_logs_went_to(place, tmp_path, micropython):
    """Two games of the table the table file names, their logs written to two folders (another laptop, a
    --log-dir): one evening, named by its day and the table, in `liga abend` and after `liga rebuild` of
    both folders. Without a stake chosen, `liga kasse` shows the games and who lost them, no money."""
    env, data, logs = place
    # Local time about 18:00, far from the evening's end at 06:00 (league/evenings.py), whenever this runs.
    offset = (18 - time.gmtime().tm_hour + 12) % 24 - 12
    env = dict(env, TZ="LOC%+d" % -offset)
    table = tmp_path / "stammtisch.toml"
    table.write_text(TABLE_FILE, encoding="utf-8")
    laptop = tmp_path / "laptop"
    play(env, "--table", table)
    play(dict(env, SCHOCKEN_LOG_DIR=str(laptop)), "--table", table)
    starts = [json.loads(tablekit.the_log(folder).read_text(encoding="utf-8").split("\n")[0])
              for folder in (logs, laptop)]
    assert [start["table"] for start in starts] == ["Stammtisch", "Stammtisch"]
    evenings = liga(env, "abend")
    assert evenings.returncode == 0, evenings.stderr
    [line] = evenings.stdout.splitlines()
    day = line.split(" · ")[0]
    assert line == "%s · Stammtisch: 2 games" % day
    german = tablekit.schocken("liga", "kasse", env=env)
    lines = german.stdout.splitlines()
    assert german.returncode == 0 and lines[0] == "%s · Stammtisch: 2 Spiele, kein Einsatz" % day, lines
    losers = [x.split() for x in lines[1:-1]]   # who lost how many: one line each
    assert "€" not in german.stdout and sum(int(n) for _, n, _ in losers) == 2
    assert all(name in ("Anna", "Bert") and word == "verloren" for name, _, word in losers)
    assert lines[-1].startswith("kein Einsatz festgelegt: `schocken liga einsatz REGEL`")
    rule = tablekit.schocken("liga", "einsatz", "personen", env=env)
    assert rule.stdout == ("Einsatz der Liga: bis 5 Personen 5 €, ab 6 Personen 10 € je Spiel, wie im "
                           "Regelwerk des Vereins (Regelsatz verein)\n")
    charged = tablekit.schocken("liga", "kasse", env=env).stdout.splitlines()
    owed = charged[charged.index("noch offen:") + 1:]   # 5 € a game at a table of 2
    assert sum(int(x.split()[1].split(",")[0]) for x in owed) == 10 and all(x.endswith(" €") for x in owed)
    assert liga(env, "abend").stdout == "%s · Stammtisch: 2 games, open\n" % day   # now there is to settle
    rebuilt = liga(env, "rebuild", logs, laptop)
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert liga(env, "abend").stdout == "%s · Stammtisch: 2 games, open\n" % day


def quit_game(env, logs):
    """`schocken play` quit (Ctrl-C) once its first round is ranked: a game without a result."""
    argv = ["--lang", "en", "play", "--plain", "--emulate", "2", "--bots", "2", "--strategy", "fast",
            *tablekit.SCALED]
    before = set(logs.glob("*.jsonl"))
    proc = subprocess.Popen(tablekit.SCHOCKEN + argv,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            text=True, env=dict(env, SCHOCKEN_LOG_DIR=str(logs)), cwd=tablekit.ROOT)
    try:
        deadline = time.monotonic() + tablekit.GAME_TIMEOUT
        while time.monotonic() < deadline and proc.poll() is None:
            found = set(logs.glob("*.jsonl")) - before
            if found and b'"ev":"round"' in next(iter(found)).read_bytes():
                break
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    [log] = set(logs.glob("*.jsonl")) - before
    assert not finished(log), "the game ended before it could be quit"
    return log


def test_stats_and_the_league_count_the_same_games(place, micropython):
    """A game that was quit has no result: neither `stats` nor the league count it (stats says it left it
    out); the finished game's figures are the same in both."""
    env, data, logs = place
    play(env)
    quit_game(env, logs)
    counted = tablekit.schocken("stats", "--log-dir", logs, "--json", env=env)
    assert counted.returncode == 0, counted.stderr
    stats = json.loads(counted.stdout)
    imported = liga(env, "import", logs)
    assert imported.stdout.startswith("0 recorded, 1 already there, 1 unfinished and skipped")
    league = json.loads(liga(env, "--json").stdout)
    assert (stats["games"], stats["unfinished"]) == (league["games"], 1) == (1, 1)
    assert {name: (row["games"], row["games_lost"], row["halves_lost"], row["finals_lost"],
                   row["schock_aus"], row["deckel_taken"]) for name, row in stats["players"].items()} == {
        row["player"]: (row["games"], row["games_lost"], row["halves_lost"], row["finals_lost"],
                        row["schock_aus"], row["deckel"]) for row in league["players"]}
    text = tablekit.schocken("stats", "--log-dir", logs, env=env).stdout.splitlines()
    assert text[:2] == ["1 Spiel in %s" % logs, "nicht gezählt: 1 unfertig (ohne Ergebnis), 0 abgelehnt"]


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
