"""The league (`schocken liga`, docs/league.md) on a real SQLite file: logs of real games imported once each,
a broken log among good ones, merges and renames, the standings against `schocken replay --json` of the same
logs, and a database that is newer, damaged, in use or killed in the middle of an import, refused or recovered
without losing anything."""

import argparse
import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from schocken_host import cli
from schocken_host.input_checks import OneLineParser
from schocken_host.league import db
from schocken_host.league import logs as logs_module

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
RECORDED = sorted(DATA.glob("*.jsonl"))     # whole games of 4 and 8 bots
PYTHONPATH = os.pathsep.join([str(ROOT / "host_tools"), str(ROOT / "firmware" / "lib")])   # this checkout's


def variant(source, target, game_id, names=None):
    """A copy of a recorded game as another game: its own game id (12 hex digits), its seats renamed. Only the
    start event changes; the rules replay the rest as before."""
    lines = Path(source).read_text(encoding="utf-8").splitlines(keepends=True)
    start = json.loads(lines[0])
    start["game_id"] = game_id
    for player, name in zip(start["players"], names or ()):
        player["name"] = name
    lines[0] = json.dumps(start, separators=(",", ":"), ensure_ascii=False) + "\n"
    Path(target).write_text("".join(lines), encoding="utf-8")
    return Path(target)


def many_games(folder, n):
    folder.mkdir(parents=True, exist_ok=True)
    return [variant(RECORDED[i % len(RECORDED)], folder / ("game-%03d.jsonl" % i), "%012x" % (0xa000 + i))
            for i in range(n)]


@pytest.fixture
def liga(tmp_path, monkeypatch, capsys):
    """`schocken ARGV` through cli.main in this process, its data folder in tmp_path: (status, out, err)."""
    monkeypatch.setenv("SCHOCKEN_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("SCHOCKEN_LOG_DIR", str(tmp_path / "logs"))
    monkeypatch.delenv("SCHOCKEN_DEBUG", raising=False)
    monkeypatch.setattr(argparse, "_", argparse._)      # main makes argparse speak --lang: for this test only
    monkeypatch.setattr(OneLineParser, "lang", OneLineParser.lang)

    def run(*argv):
        capsys.readouterr()
        try:
            status = cli.main(["--lang", "en", "liga"] + [str(a) for a in argv])
        except SystemExit as e:
            status = e.code
        out, err = capsys.readouterr()
        return status, out, err
    return run


def standings(liga):
    status, out, err = liga("--json")
    assert status == 0, err
    return json.loads(out)


def dump(path):
    """Everything the database holds, as SQL: "the same database"."""
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def expected_standings(logs):
    """The standings worked out without the league: the result of each game from `schocken replay --json`
    (in this process: the same function), Deckel, rounds and Schock-Aus counted from the log's own lines."""
    from schocken_host.commands.replay import replay
    table = {}
    for log in logs:
        result = replay(log).standings()
        assert result["phase"] == "over"
        names = [p["name"] for p in result["players"]]
        for name in names:
            row = table.setdefault(name, dict(games=0, games_lost=0, halves_lost=0, finals_lost=0, rounds=0,
                                              deckel=0, schock_aus=0))
            row["games"] += 1
        loser, halves = result["loser"], result["half_losers"]
        table[names[loser]]["games_lost"] += 1
        for seat in halves:
            table[names[seat]]["halves_lost"] += 1
        if len(halves) == 2 and halves[0] != halves[1]:   # a final was played: its loser lost the game
            table[names[loser]]["finals_lost"] += 1
        for line in Path(log).read_text(encoding="utf-8").splitlines():
            ev = json.loads(line)
            if ev["ev"] == "round":
                for seat in ev["order"]:
                    table[names[seat]]["rounds"] += 1
                table[names[ev["worst"]]]["deckel"] += sum(n for _, n in ev["moves"])
            elif ev["ev"] == "reveal" and ev["kind"] == "schock_aus":
                table[names[ev["seat"]]]["schock_aus"] += 1
    return table


def without_quotients(rows):
    left_out = ("player", "lost_per_game", "deckel_per_round", "stakes", "owed", "drinks", "drinks_owed")
    return {r["player"]: {k: v for k, v in r.items() if k not in left_out} for r in rows}


# --- import -------------------------------------------------------------------------------------------------
def test_recorded_games_are_imported_once_and_stand_as_replay_says(liga, tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    games = [variant(log, logs / log.name, json.loads(log.read_text().split("\n")[0])["game_id"])
             for log in RECORDED] + many_games(logs / "more", 3)
    status, out, err = liga("import", logs)
    assert (status, err) == (0, "")
    assert out == "5 recorded, 0 already there, 0 unfinished and skipped, 0 refused\n"
    table = standings(liga)
    assert table["games"] == 5
    assert without_quotients(table["players"]) == expected_standings(games)
    for row in table["players"]:
        assert row["lost_per_game"] == round(row["games_lost"] / row["games"], 4)
        assert row["deckel_per_round"] == round(row["deckel"] / row["rounds"], 4)
    rates = [row["lost_per_game"] for row in table["players"]]
    assert rates == sorted(rates) and rates[-1] > 0   # best first: fewest games lost per game

    once = dump(tmp_path / "data" / "league.sqlite3")
    status, out, _ = liga("import", logs, logs / "more")
    assert status == 0 and out == "0 recorded, 8 already there, 0 unfinished and skipped, 0 refused\n"
    assert dump(tmp_path / "data" / "league.sqlite3") == once


def test_the_standings_in_words_csv_and_german(liga, tmp_path):
    status, out, _ = liga()
    assert status == 0 and out.startswith("0 games in ")   # no database yet: none is made for reading
    assert not (tmp_path / "data").exists()
    liga("import", *RECORDED)
    _, out, _ = liga()
    lines = out.splitlines()
    assert lines[0].startswith("2 games in ") and lines[1].split()[:3] == ["Player", "games", "lost"]
    assert len(lines) == 2 + 8 and lines[-1].split()[:4] == ["Bot", "8", "1", "1"]
    _, out, _ = liga("--csv")
    rows = out.splitlines()
    assert rows[0] == ("player,games,games_lost,lost_per_game,halves_lost,finals_lost,rounds,deckel,"
                       "deckel_per_round,schock_aus,stakes,owed,drinks,drinks_owed") and len(rows) == 9
    proc = subprocess.run([sys.executable, "-m", "schocken_host.cli", "liga"], capture_output=True, text=True,
                          timeout=60, env=dict(os.environ, SCHOCKEN_DATA_DIR=str(tmp_path / "data"),
                                                       PYTHONPATH=PYTHONPATH))
    assert proc.returncode == 0 and proc.stdout.startswith("2 Spiele in ") and "Deckel/Runde" in proc.stdout
    assert "Bot 8                 1        1     1,00" in proc.stdout    # German decimal comma


@pytest.mark.parametrize("pool", [False, True], ids=["one process", "a pool of processes"])
def test_a_broken_log_is_named_and_the_import_goes_on(liga, tmp_path, monkeypatch, pool):
    """The same in one process and in the pool of processes of a large import (league/logs.py POOL_FROM)."""
    if pool:
        monkeypatch.setattr(logs_module, "POOL_FROM", 1)
        monkeypatch.setattr(logs_module, "POOL_CHUNK", 2)
    logs = tmp_path / "logs"
    good = many_games(logs, 2)
    lines = good[0].read_text(encoding="utf-8").splitlines(keepends=True)
    (logs / "broken.jsonl").write_text("".join(lines[:56] + ["not json\n"] + lines[57:]), encoding="utf-8")
    (logs / "foreign.jsonl").write_text('{"ev":"turn","round":1}\n', encoding="utf-8")
    (logs / "shopping.jsonl").write_text('{"milk": 2}\n', encoding="utf-8")
    other = variant(good[0], tmp_path / "other.jsonl", "0000000000ff").read_text().splitlines(keepends=True)
    (logs / "unfinished.jsonl").write_text("".join(other[:120]), encoding="utf-8")
    (logs / "torn.jsonl").write_text("".join(other[:120]) + other[120][:20], encoding="utf-8")
    (logs / "z-cut-short.jsonl").write_text("".join(lines[:120]), encoding="utf-8")   # a game that is in
    (logs / "empty.jsonl").write_text("", encoding="utf-8")
    (logs / "binary.jsonl").write_bytes(b"\xff\xfe\x00garbage\n{}\n")
    (logs / "folder.jsonl").mkdir()
    os.mkfifo(logs / "pipe.jsonl")
    status, out, err = liga("import", logs)
    assert status == 1   # the others are in; the status says not all were
    assert out == "2 recorded, 1 already there, 3 unfinished and skipped, 1 torn at the end, 6 refused\n"
    said = err.splitlines()
    assert len(said) == 7 and all(line.startswith("schocken: ") for line in said), said
    assert said[6] == ("schocken: %s line 121: the last line is torn (the host ended while writing it): the "
                       "game in it is unfinished (skipped)" % (logs / "torn.jsonl")), said
    assert "%s line 57: not JSON (not recorded)" % (logs / "broken.jsonl") in said[1]
    assert "%s line 1: no game log: its first event is turn, not start" % (logs / "foreign.jsonl") in err
    assert "%s line 1: " % (logs / "shopping.jsonl") in err and "%s line 1: " % (logs / "binary.jsonl") in err
    assert str(logs / "folder.jsonl") in err and str(logs / "pipe.jsonl") in err
    assert standings(liga)["games"] == 2


def test_a_game_decided_before_its_torn_last_line_counts_and_the_tear_is_named(liga, tmp_path):
    logs = tmp_path / "logs"
    game = many_games(logs, 1)[0]
    text = game.read_text(encoding="utf-8")
    assert text.splitlines()[-1].startswith('{"ev":"game_over"')
    game.write_text(text[:-20], encoding="utf-8")   # the host ended while writing game_over
    lines = text.count("\n")
    status, out, err = liga("import", logs)
    assert status == 0
    assert out == "1 recorded, 0 already there, 0 unfinished and skipped, 1 torn at the end, 0 refused\n"
    assert err == ("schocken: %s line %d: the last line is torn (the host ended while writing it): the game "
                   "was decided before it and counts\n" % (game, lines))
    assert standings(liga)["games"] == 1


# --- people -------------------------------------------------------------------------------------------------
def test_merge_and_rename(liga, tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    variant(RECORDED[0], logs / "a.jsonl", "00000000000a", ["Anna", "Bert", "Cleo", "Spieler 4"])
    variant(RECORDED[0], logs / "b.jsonl", "00000000000b", ["Anna", "Bert", "Cleo", "Dora"])
    liga("import", logs)
    before = {r["player"]: r for r in standings(liga)["players"]}
    assert before["Spieler 4"]["games"] == before["Dora"]["games"] == 1

    assert liga("merge", "Spieler 4", "Dora")[1] == "Spieler 4 now counts for Dora\n"
    after = {r["player"]: r for r in standings(liga)["players"]}
    assert "Spieler 4" not in after and after["Dora"]["games"] == 2
    for key in ("games_lost", "halves_lost", "finals_lost", "rounds", "deckel", "schock_aus"):
        assert after["Dora"][key] == before["Dora"][key] + before["Spieler 4"][key]

    assert liga("merge", "Dora", "Dorothea")[1] == "Dora is now called Dorothea\n"
    assert {r["player"] for r in standings(liga)["players"]} == {"Anna", "Bert", "Cleo", "Dorothea"}
    # Her old names count for her in later logs; "Player 4" of an older English log is "Spieler 4".
    variant(RECORDED[0], logs / "c.jsonl", "00000000000c", ["Anna", "Bert", "Cleo", "Player 4"])
    liga("import", logs)
    assert {r["player"]: r["games"] for r in standings(liga)["players"]}["Dorothea"] == 3

    for argv, words in ((("Bert", "Anna"), "Bert and Anna sat at one table (game 00000000000a): two people"),
                        (("Nobody", "Anna"), "Nobody: nobody of that name in the league"),
                        (("Dora", "Dorothea"), "Dora and Dorothea are one person already")):
        status, out, err = liga("merge", *argv)
        assert (status, out) == (2, "") and err == "schocken: error: %s\n" % words
    # A merged default name seated beside its person is a person of that name again.
    variant(RECORDED[0], logs / "d.jsonl", "00000000000d", ["Anna", "Dorothea", "Cleo", "Spieler 4"])
    assert liga("import", logs)[0] == 0
    assert {r["player"]: r["games"] for r in standings(liga)["players"]}["Spieler 4"] == 1


# --- what the database refuses, and how it comes back ----------------------------------------------------
def refused(liga, argv, words):
    status, out, err = liga(*argv)
    assert (status, out) == (2, ""), (status, out, err)
    assert err.count("\n") == 1 and words in err and "Traceback" not in err, err
    return err


def test_a_newer_schema_is_refused_and_left_alone(liga, tmp_path):
    liga("import", *RECORDED)
    path = tmp_path / "data" / "league.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = %d" % (db.VERSION + 1))
    conn.close()
    before = path.read_bytes()
    for argv in ([], ["import", DATA], ["merge", "Bot 1", "Anna"], ["rebuild", DATA]):
        refused(liga, argv, "has schema version %d, this schocken knows up to %d" % (db.VERSION + 1,
                                                                                     db.VERSION))
    assert path.read_bytes() == before and not Path(str(path) + ".bak").exists()


def test_a_damaged_database_is_refused_and_rebuild_makes_it_anew(liga, tmp_path):
    logs = tmp_path / "logs"
    many_games(logs, 4)
    liga("import", logs)
    liga("merge", "Bot 1", "Anna")
    path = tmp_path / "data" / "league.sqlite3"
    data = bytearray(path.read_bytes())
    conn = sqlite3.connect(path)
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    data[page:] = b"\xa5" * (len(data) - page)   # every page but the first (the header) overwritten
    path.write_bytes(bytes(data))
    for argv in ([], ["import", logs], ["merge", "Anna", "Bert"]):
        err = refused(liga, argv, "the league database is damaged")
        assert "`schocken liga rebuild`" in err
    assert path.read_bytes() == bytes(data)

    status, out, err = liga("rebuild")     # from the log folder of `schocken play` ($SCHOCKEN_LOG_DIR)
    assert status == 0 and "made anew from %s" % logs in out and "not carried over" in out
    assert Path(str(path) + ".bak").read_bytes() == bytes(data)
    assert "Bot 1" in {r["player"] for r in standings(liga)["players"]}   # the rename was in the damage
    assert liga("--db", tmp_path / "clean.sqlite3", "import", logs)[0] == 0
    assert dump(path) == dump(tmp_path / "clean.sqlite3")

    path.write_bytes(b"no database at all, " * 100)
    refused(liga, [], "file is not a database")


def test_an_import_into_a_database_damaged_where_the_standings_read_refuses_as_they_do(liga, tmp_path):
    """Only the pages of the standings' tallies damaged: an import of games that are there already reads none
    of them (it looks each game up in ``games``), yet it refuses as the standings do, and writes nothing."""
    logs = tmp_path / "logs"
    many_games(logs, 4)
    liga("import", logs)
    path = tmp_path / "data" / "league.sqlite3"
    conn = sqlite3.connect(path)
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    root = conn.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'tallies'").fetchone()[0]
    conn.close()
    data = bytearray(path.read_bytes())
    data[(root - 1) * page + 8:root * page] = b"\xa5" * (page - 8)   # the tallies' root page, past its header
    path.write_bytes(bytes(data))
    refused(liga, [], "the league database is damaged")
    err = refused(liga, ["import", logs], "the league database is damaged")
    assert "`schocken liga rebuild`" in err
    assert path.read_bytes() == bytes(data)


def test_rebuild_keeps_the_names_and_equals_an_import(liga, tmp_path):
    logs = tmp_path / "logs"
    many_games(logs, 3)
    liga("import", logs)
    liga("merge", "Bot 1", "Anna")
    path = tmp_path / "data" / "league.sqlite3"
    before = dump(path)
    status, out, _ = liga("rebuild", logs)
    assert status == 0 and "not carried over" not in out and "the old file is kept as %s.bak" % path in out
    assert dump(path) == before and Path(str(path) + ".bak").exists()


def test_a_database_in_use_is_refused_in_one_line(liga, tmp_path):
    liga("import", RECORDED[0])
    path = tmp_path / "data" / "league.sqlite3"
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")     # another schocken in the middle of its transaction
    try:
        before = dump(path)
        refused(liga, ["import", RECORDED[1]], "the league database is in use")
        refused(liga, ["merge", "Bot 1", "Anna"], "the league database is in use")
        assert standings(liga)["games"] == 1     # reading goes on beside a writer (WAL)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert dump(path) == before
    assert liga("import", RECORDED[1])[0] == 0


def test_the_schema_is_made_by_its_migrations(tmp_path):
    league = db.open_league(tmp_path / "l.sqlite3")
    conn = league.conn
    assert db.version_of(conn) == db.VERSION == len(db.MIGRATIONS)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
    assert tables == {"players", "names", "games", "seats", "evenings", "moved", "seasons", "settings",
                      "tallies"}
    with pytest.raises(sqlite3.IntegrityError):   # a seat of no game
        conn.execute("INSERT INTO seats VALUES ('nope', 0, 1, 'A', NULL, 'bot', 0, 0, 0, 0, 0, 0, NULL)")
    league.close()
    again = db.open_league(tmp_path / "l.sqlite3")   # opened again: nothing runs twice
    assert db.version_of(again.conn) == db.VERSION
    again.close()


def test_a_database_of_the_first_schema_is_migrated_with_its_games(liga, tmp_path, monkeypatch):
    """Migrations 2 (evenings, seasons, stakes), 3 (the standings' index) and 4 (an evening's table is the
    one its logs name) run on a database of schema 1 at its next open, in one transaction, and keep what it
    held: the games get their evening (their day and the table their log names: none in these) and their
    count of players, their seats the day; the standings stay the same."""
    fresh = tmp_path / "fresh.sqlite3"     # the games and a merge in a database of the newest schema ...
    liga("--db", fresh, "import", *RECORDED)
    liga("--db", fresh, "merge", "Bot 1", "Anna")
    path = tmp_path / "data" / "league.sqlite3"
    path.parent.mkdir()
    conn = sqlite3.connect(path, isolation_level=None)   # ... and the same in a file of schema 1
    db.migrate(conn, to=1)
    conn.execute("ATTACH DATABASE ? AS fresh", (str(fresh),))
    seats = ("game_id, seat, player, name, cup, kind, rounds, deckel, halves_lost, final_lost, lost, "
             "schock_aus")
    for table, columns in (("players", "*"), ("names", "*"), ("seats", seats),
                           ("games", "game_id, log, started, rules, rounds, blattschuss")):
        conn.execute("INSERT INTO main.%s SELECT %s FROM fresh.%s" % (table, columns, table))
    conn.execute("DETACH DATABASE fresh")
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    assert "day" not in {row[1] for row in conn.execute("PRAGMA table_info(games)")}
    conn.close()
    assert standings(liga) == json.loads(liga("--db", fresh, "--json")[1])
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == db.VERSION
    rows = conn.execute("SELECT game_id, day, place, players FROM games ORDER BY game_id").fetchall()
    assert conn.execute("SELECT count(*) FROM seats s JOIN games g ON g.game_id = s.game_id "
                        "WHERE s.day IS g.day").fetchone()[0] == 12   # migration 3: each seat its game's day
    conn.close()
    from schocken_host.league.evenings import evening_of
    by_id = sorted(RECORDED, key=lambda log: first_event(log)["game_id"])
    for (_, day, place, players), log in zip(rows, by_id):
        assert (day, place) == evening_of(first_event(log)["ts"], None, log) and place == ""
        assert players == len(first_event(log)["players"])


def test_a_database_of_the_third_schema_gets_the_tables_its_logs_name(liga, tmp_path):
    """Migration 4 on a file of schema 3, whose evenings were a day and the folder of the logs: one table's
    logs of one day in two folders are one evening now (settled where both parts were, else open), a game
    the scorekeeper moved keeps the table he named, an evening settled under the stake of before (5 or 10
    euros by the players, the default then) keeps that stake, and the league's stake is none. `liga
    rebuild` from the logs then makes the same database."""
    from test_league_club import game
    logs = tmp_path / "logs"
    day = 1796414400   # 2026-12-04 20:00 UTC (the night's game: 2026-12-05 01:30, the 4th's evening)
    made = [game(RECORDED[0], logs / "a", "dddd00000001", day), game(RECORDED[1], logs / "b", "dddd00000002",
                                                                     day + 5.5 * 3600),
            game(RECORDED[0], logs / "b", "dddd00000003", day + 86400),
            game(RECORDED[0], logs / "b", "dddd00000004", day + 2 * 86400)]
    fresh = tmp_path / "fresh.sqlite3"
    liga("--db", fresh, "import", logs)
    path = tmp_path / "data" / "league.sqlite3"
    path.parent.mkdir()
    conn = sqlite3.connect(path, isolation_level=None)   # the same games as schocken of schema 3 kept them
    db.migrate(conn, to=3)
    conn.execute("ATTACH DATABASE ? AS fresh", (str(fresh),))
    for table in ("players", "names", "games", "seats"):
        conn.execute("INSERT INTO main.%s SELECT * FROM fresh.%s" % (table, table))
    conn.execute("DETACH DATABASE fresh")
    days = {}
    for log in made:
        game_id = first_event(log)["game_id"]
        (when,) = conn.execute("SELECT day FROM games WHERE game_id = ?", (game_id,)).fetchone()
        days[game_id] = when
        conn.execute("UPDATE games SET place = ? WHERE game_id = ?", (log.parent.name, game_id))
    assert days == {"dddd00000001": "2026-12-04", "dddd00000002": "2026-12-04", "dddd00000003": "2026-12-05",
                    "dddd00000004": "2026-12-06"}
    conn.executemany("INSERT INTO evenings (day, place, stake, settled) VALUES (?, ?, ?, ?)", [
        ("2026-12-04", "a", None, 1796500000.0), ("2026-12-04", "b", None, None),   # half settled: open
        ("2026-12-05", "b", None, 1796600000.0),                                   # settled by the players
        ("2026-12-06", "Kneipe", "drinks", None)])                                # the moved game's
    conn.execute("INSERT INTO moved VALUES ('dddd00000004', '2026-12-06', 'Kneipe')")
    conn.execute("UPDATE games SET place = 'Kneipe' WHERE game_id = 'dddd00000004'")
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 3
    conn.close()
    ledger = json.loads(liga("ledger", "--json")[1])
    assert [(e["day"], e["table"], e["games"], e["rule"], e["settled"]) for e in ledger] == [
        ("2026-12-04", "", 2, "none", False), ("2026-12-05", "", 1, "players", True),
        ("2026-12-06", "Kneipe", 1, "drinks", False)]
    assert liga("stake")[1].splitlines()[0] == "the league's stake: no stake"
    migrated = dump(path)
    assert liga("rebuild", logs)[0] == 0
    assert dump(path) == migrated


def first_event(log):
    return json.loads(Path(log).read_text(encoding="utf-8").split("\n")[0])


def test_a_later_migration_runs_once_and_the_program_before_it_refuses_the_file(liga, tmp_path, monkeypatch):
    """The way every later schema comes: one more migration (here one a test makes) runs on the database at
    its next open and keeps what it held; the program before it then refuses the newer file."""
    liga("import", *RECORDED)
    before = standings(liga)
    path = tmp_path / "data" / "league.sqlite3"
    every = db.MIGRATIONS
    monkeypatch.setattr(db, "MIGRATIONS", every + ("ALTER TABLE games ADD COLUMN weather TEXT;"
                                                   "CREATE INDEX games_weather ON games(weather)",))
    monkeypatch.setattr(db, "VERSION", len(every) + 1)
    assert standings(liga) == before
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == len(every) + 1
    assert conn.execute("SELECT count(weather), count(*) FROM games").fetchone() == (0, 2)
    conn.close()
    monkeypatch.setattr(db, "MIGRATIONS", every)
    monkeypatch.setattr(db, "VERSION", len(every))
    refused(liga, [], "has schema version %d, this schocken knows up to %d" % (len(every) + 1, len(every)))


# --- a crash in the middle of an import --------------------------------------------------------------------
# The import in a process of its own that kills itself with SIGKILL in the middle of a game's transaction:
# after the seats of some games, at the INSERT of a seat (sqlite3's trace callback sees each statement).
KILLER = """
import os, signal, sqlite3, sys
from schocken_host import cli
from schocken_host.league import logs
logs.POOL_FROM = int(os.environ["POOL_FROM"])
seats = set()   # a trigger's statements are traced with the statement that fired them: each seat once
real_connect = sqlite3.connect

def connect(*a, **kw):
    conn = real_connect(*a, **kw)
    def trace(sql):
        if sql.startswith("INSERT INTO seats"):
            seats.add(sql)
            if len(seats) == int(sys.argv[1]):
                os.kill(os.getpid(), signal.SIGKILL)
    conn.set_trace_callback(trace)
    return conn

sqlite3.connect = connect
cli.main(sys.argv[2:])
"""


@pytest.mark.parametrize("pool_from", [64, 1], ids=["one process", "a pool of processes"])
def test_an_import_killed_mid_way_then_run_again_is_one_clean_import(liga, tmp_path, pool_from):
    """Also with the logs replayed in a pool of processes: the pool's processes end with the import (each
    watches its importer: until they do, they hold the output pipes subprocess.run waits on), the database is
    the same."""
    logs = tmp_path / "logs"
    many_games(logs, 6)
    clean = tmp_path / "clean.sqlite3"
    assert liga("--db", clean, "import", logs)[0] == 0
    killed = tmp_path / "data" / "league.sqlite3"
    env = dict(os.environ, SCHOCKEN_DATA_DIR=str(tmp_path / "data"), PYTHONPATH=PYTHONPATH,
               POOL_FROM=str(pool_from))
    proc = subprocess.run([sys.executable, "-c", KILLER, "15", "liga", "import", str(logs)], env=env,
                          capture_output=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    conn = sqlite3.connect(killed)
    # Games 1 and 2 (4 and 8 seats) are in, game 3 was killed at its third seat: not there at all.
    assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 2
    assert conn.execute("SELECT count(*) FROM seats").fetchone()[0] == 12
    conn.close()
    status, out, _ = liga("import", logs)
    assert status == 0 and out.startswith("4 recorded, 2 already there")
    assert dump(killed) == [line.replace(str(clean), str(killed)) for line in dump(clean)]


def test_a_full_disk_stops_the_import_in_one_line_and_loses_nothing(liga, tmp_path):
    """The file may grow by 8 KB only (RLIMIT_FSIZE: the kernel refuses the write beyond it, as a full disk
    does): the import stops with one line and exit status 2; what it had recorded stays whole, and the same
    import once there is room records the rest, the same database as an import that had room."""
    import resource
    logs = tmp_path / "logs"
    many_games(logs, 30)
    clean = tmp_path / "clean.sqlite3"
    assert liga("--db", clean, "import", logs)[0] == 0
    path = tmp_path / "data" / "league.sqlite3"
    assert liga("import", logs / "game-000.jsonl")[0] == 0
    room = path.stat().st_size + 8192

    def small_disk():
        resource.setrlimit(resource.RLIMIT_FSIZE, (room, room))
    env = dict(os.environ, SCHOCKEN_DATA_DIR=str(tmp_path / "data"), PYTHONPATH=PYTHONPATH)
    proc = subprocess.run([sys.executable, "-m", "schocken_host.cli", "--lang", "en", "liga", "import",
                           str(logs)], env=env, capture_output=True, text=True, timeout=120,
                          preexec_fn=small_disk)
    assert (proc.returncode, proc.stdout) == (2, ""), proc.stderr
    assert proc.stderr.count("\n") == 1 and "cannot open or write the league database" in proc.stderr
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        recorded = conn.execute("SELECT count(*) FROM games").fetchone()[0]
    finally:
        conn.close()
    assert 1 <= recorded < 30
    status, out, _ = liga("import", logs)
    assert status == 0 and out.startswith("%d recorded, %d already there" % (30 - recorded, recorded))
    assert dump(path) == [line.replace(str(clean), str(path)) for line in dump(clean)]


# --- a game played for it -----------------------------------------------------------------------------------
def test_a_game_played_by_bots_is_recorded(liga, tmp_path, micropython):
    from kits import tablekit
    logs = tmp_path / "logs"
    proc = tablekit.schocken("play", "--emulate", 4, "--bots", 4, "--plain", "--strategy", "fast", "--set",
                             "deckel_total=3", *tablekit.SCALED,
                             env=dict(os.environ, SCHOCKEN_LOG_DIR=str(logs)), timeout=tablekit.GAME_TIMEOUT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    log = tablekit.the_log(logs)
    assert liga("import", logs)[1].startswith("0 recorded, 1 already there")   # play recorded it as it ended
    assert without_quotients(standings(liga)["players"]) == expected_standings([log])


# --- the league's reading of a log is table/replay.py's -----------------------------------------------------
ODD_LINES = [b' {"ev":"turn","round":1,"seat":0}', b'{"ev":"turn","round":1,"seat":0}\x0c',
             b'{"ev":"turn","round":1,"seat":0} {"ev":"turn"}', b'', b'   ', b'{"ev":"turn","x":NaN}',
             b'[{"ev":"turn"}]', b'{"ev":"turn","round":1,"seat":0}\r', b'\xff{"ev":1}', b'"ev"', b'{"e":1}',
             b'{"ev":"turn","round":1,"seat":0', b'[' * 100000, b'{"ev":"turn","round":1,"seat":0}  ',
             b'{"ev":"turn","round":1,"seat":0,"x":[', b'{"ev":"turn","round":1,"seat":0,',
             b'{"ev":"turn",\xc3']
# A line of the log before the odd one, with characters of more than one byte in UTF-8.
WIDE = '{"ev":"fault","seat":0,"reason":"Jörg\'s cup: ☕"}'.encode("utf-8")


@pytest.mark.parametrize("odd", ODD_LINES, ids=range(len(ODD_LINES)))
@pytest.mark.parametrize("where", [20, -1], ids=["inside", "last"])
@pytest.mark.parametrize("wide", [False, True], ids=["ascii", "wide"])
def test_every_line_is_read_as_replay_reads_it(odd, where, wide):
    """league/games.py scans a plain line's event where it lies in the log decoded once (bench/league.py):
    any other line must come out as table/replay.py's Replay has it, the same line refused for the same
    reason, the same torn tail, also after lines whose characters take more than one byte."""
    from schocken_host.league.games import _replay
    from schocken_host.table.replay import replay
    from schocken_host.table.state import TableState
    lines = RECORDED[0].read_bytes().split(b"\n")[:-1]
    lines[where] = odd
    if wide:
        lines.insert(10, WIDE)
    data = b"\n".join(lines) + (b"\n" if where != -1 else b"")
    ours, theirs = _replay(data, TableState(), None), replay(data, TableState())
    assert (ours.lines, ours.torn) == (theirs.lines, theirs.torn)
    assert (ours.refused is None) == (theirs.refused is None)
    if ours.refused is not None:
        assert ours.refused[0] == theirs.refused[0] and str(ours.refused[1]) == str(theirs.refused[1])
    assert ours.state.phase() == theirs.state.phase() and ours.state.over == theirs.state.over
