"""A strategy per seat: `schocken play --strategy optimal,fast,schock,general` (one per bot in seating order)
and the table file's ``strategy`` of a player, played by the real command line and written into the log's
start event (docs/gamelog.md), taken up again by a resumed game; what is refused, in one line before any cup
starts."""

import json
import os

import pytest

from conftest import micropython_path
from kits.tablekit import SCALED, play_args, schocken
from schocken_host.commands.play_table import bot_strategies
from schocken_host.errors import CommandError
from schocken_host.table.seating import Table
from schocken_host.table.session import GameConfig


def events(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.mark.skipif(micropython_path() is None, reason="needs the micropython unix port")
def test_four_bots_play_four_strategies_and_the_log_says_which(tmp_path):
    env = dict(os.environ, SCHOCKEN_LOG_DIR=str(tmp_path), SCHOCKEN_DATA_DIR=str(tmp_path / "data"))
    done = schocken("--lang", "en", "play", "--emulate", "4", "--strategy", "optimal,fast,schock,general",
                    "--plain", "--set", "deckel_total=2", "--opener", "1", "--no-league", *SCALED, env=env,
                    timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    log = events(next(tmp_path.glob("*.jsonl")))
    players = log[0]["players"]
    assert [p["strategy"] for p in players] == ["optimal", "fast", "schock", "general"]
    assert all(p["kind"] == "bot" for p in players)
    # Each bot plays its own: `fast` stands on its first throw in every round it plays, `general` never stands
    # before its limit on less than a General (a class the rules rank at 2002 and above).
    turns = {}
    for ev in log:
        if ev["ev"] == "turn":
            turns[(ev["round"], ev["seat"])] = ev
    reveals = [ev for ev in log
               if ev["ev"] == "reveal" and turns[(ev["round"], ev["seat"])]["kind"] == "round"]
    assert reveals, "no round was played"
    assert all(ev["throws"] == 1 for ev in reveals if ev["seat"] == 1)
    for ev in reveals:
        limit = turns[(ev["round"], ev["seat"])]["limit"] or 3
        if ev["seat"] == 2 and ev["throws"] < limit:
            assert ev["kind"] in ("schock", "schock_aus", "jule"), ev
        if ev["seat"] == 3 and ev["throws"] < limit:
            assert ev["kind"] in ("general", "schock", "schock_aus", "jule"), ev


def test_the_table_files_strategies_seat_the_bots_and_the_command_line_replaces_them(tmp_path):
    path = tmp_path / "tisch.toml"
    path.write_text('[[players]]\nname = "Anna"\nstrategy = "fast"\n[[players]]\nname = "Bert"\n'
                    '[[players]]\nname = "Cleo"\nstrategy = "general"\n', encoding="utf-8")
    from schocken_host.table.table_file import read_table
    table = read_table(path)
    args = play_args(["--table", path, "--emulate", 3])
    assert bot_strategies(args, table, []) == ["fast", "optimal", "general"]
    args = play_args(["--table", path, "--emulate", 3, "--strategy", "schock"])
    assert bot_strategies(args, table, []) == "schock"
    args = play_args(["--table", path, "--emulate", 3, "--strategy", "schock,fast,optimal"])
    assert bot_strategies(args, table, []) == ["schock", "fast", "optimal"]


def test_a_resumed_game_seats_each_bot_with_its_logged_strategy():
    start = {"players": [{"seat": 0, "name": "A", "cup": "emu1", "kind": "bot", "strategy": "fast"},
                         {"seat": 1, "name": "B", "cup": "emu2", "kind": "bot", "strategy": "general"},
                         {"seat": 2, "name": "C", "cup": "emu3", "kind": "bot"}]}   # a log from before
    table = Table(GameConfig(strategy="schock"), resume_start=start)
    logged = [p.get("strategy") for p in start["players"]]
    assert [table.bot_strategy(k, logged) for k in range(3)] == ["fast", "general", "schock"]


REFUSED = [
    (["play", "--emulate", "3", "--strategy", "optimal,fast"],
     "--strategy optimal,fast: 2 strategies for 3 bots"),
    (["play", "--emulate", "3", "--bots", "2", "--strategy", "optimal,fast,schock"],
     "--strategy optimal,fast,schock: 3 strategies for 2 bots"),
    (["play", "--emulate", "2", "--strategy", "optimal,clever"],
     "schocken play: error: argument --strategy: invalid choice: 'clever'"),
]


@pytest.mark.parametrize("argv,words", REFUSED, ids=[w for _, w in REFUSED])
def test_a_wrong_strategy_list_is_refused_in_one_line(tmp_path, argv, words):
    env = dict(os.environ, SCHOCKEN_LOG_DIR=str(tmp_path), SCHOCKEN_DATA_DIR=str(tmp_path / "data"))
    done = schocken("--lang", "en", *argv, env=env)
    assert done.returncode == 2 and done.stdout == "", done.stdout + done.stderr
    assert len(done.stderr.splitlines()) == 1 and words in done.stderr, done.stderr
    assert not list(tmp_path.glob("*.jsonl"))


@pytest.mark.parametrize("entry,argv,words", [
    ('strategy = "clever"', ["--emulate", "2"], "players[2].strategy: unknown strategy 'clever'"),
    ('strategy = "fast"', ["--emulate", "2", "--bots", "1", "--strategy", "schock"], None),
    ('strategy = 3', ["--emulate", "2"], "players[2].strategy: unknown strategy 3"),
], ids=["unknown", "replaced", "not-text"])
def test_a_table_files_bad_strategy_is_refused_naming_file_and_entry(tmp_path, entry, argv, words):
    path = tmp_path / "tisch.toml"
    path.write_text('[[players]]\nname = "Anna"\n[[players]]\nname = "Bert"\n%s\n' % entry, encoding="utf-8")
    if words is None:   # --strategy replaces the file's: Bert's seat (a person's) is not asked about then
        from schocken_host.table.table_file import read_table
        assert bot_strategies(play_args(["--table", path] + argv), read_table(path), []) == "schock"
        return
    env = dict(os.environ, SCHOCKEN_LOG_DIR=str(tmp_path), SCHOCKEN_DATA_DIR=str(tmp_path / "data"))
    done = schocken("--lang", "en", "play", "--table", path, *argv, env=env)
    assert done.returncode == 2 and done.stdout == "", done.stdout + done.stderr
    assert len(done.stderr.splitlines()) == 1 and "%s: %s" % (path, words) in done.stderr, done.stderr


def test_a_strategy_for_a_seat_no_bot_plays_is_refused(tmp_path):
    path = tmp_path / "tisch.toml"
    path.write_text('[[players]]\nname = "Anna"\n[[players]]\nname = "Bert"\nstrategy = "fast"\n',
                    encoding="utf-8")
    env = dict(os.environ, SCHOCKEN_LOG_DIR=str(tmp_path), SCHOCKEN_DATA_DIR=str(tmp_path / "data"))
    done = schocken("--lang", "en", "play", "--table", path, "--emulate", "2", "--bots", "1", env=env)
    assert done.returncode == 2 and done.stdout == "", done.stdout + done.stderr
    assert "players[2].strategy: Bert plays at seat 2, which no bot plays" in done.stderr, done.stderr
    with pytest.raises(CommandError):
        from schocken_host.table.table_file import read_table
        bot_strategies(play_args(["--table", path, "--emulate", 2, "--bots", 1]), read_table(path), [])
