"""Issue 31, "Words and endings", through the real command line (subprocesses, a tmux terminal): every line a
user reads is in the chosen language (argparse's, the system's, JSON's and the rules package's words too), the
same words for the same problem in every verb, seats counted from 1, singular and plural; a game ends with its
standings and the log's path on the terminal, `--exit-after` ends the scoreboard by itself (`make demo`), a
refused start prints nothing, the resume hint is a command that runs as shown; default names are one name
whatever --lang; `replay` says where a torn log stops; `odds` and `rules` say what their columns and options
are."""

import argparse
import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from schocken_host import cli
from schocken_host.i18n import TEXTS
from schocken_host.table.seating import canonical_name, default_name

from test_person import Lines, Terminal, env, needs_mp, needs_tmux

ROOT = Path(__file__).resolve().parents[1]
SCHOCKEN = [sys.executable, "-m", "schocken_host.cli"]
GAME_S = 240       # a table of bots at --time-scale 20 plays a short game, on a busy machine
QUICK = ["--time-scale", "20", "--set", "deckel_total=2"]
# What gave the English through in a German line (issue 31): the system's, argparse's, JSON's, the rules'.
ENGLISH = ("No such file", "Address already in use", "Expecting", "unknown rule set", "needs true or false",
           "error:", "argument", "invalid choice", "unrecognized", "required", "not JSON")


def run(argv, cwd=ROOT, stdin=b"", log_dir=None, timeout=60):
    return subprocess.run(SCHOCKEN + [str(a) for a in argv], cwd=cwd, env=env(log_dir), input=stdin,
                          capture_output=True, timeout=timeout)


def refusal(argv, **kw):
    """The one line of a refused command (exit status 2, nothing on standard output)."""
    proc = run(argv, **kw)
    err = proc.stderr.decode()
    assert proc.returncode == 2 and proc.stdout == b"", (proc.returncode, proc.stdout, err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err.rstrip("\n")


def german(line):
    assert not [word for word in ENGLISH if word in line], line
    return line


# --- the command line's own words ------------------------------------------------------------------------
def test_bare_schocken_lists_the_verbs_under_a_usage_line():
    for argv, usage, words in (([], "Aufruf: schocken ", "schocken: Fehler: schocken braucht einen Befehl: "),
                               (["--lang", "en"], "usage: schocken ",
                                "schocken: error: schocken needs a command: ")):
        proc = run(argv)
        lines = proc.stderr.decode().splitlines()
        assert proc.returncode == 2 and proc.stdout == b"" and len(lines) == 2, lines
        assert lines[0].startswith(usage) and lines[1].startswith(words), lines
        assert all(verb in lines[1] for verb in cli.verb_names()), lines


ARGPARSE = [
    (["play", "--no-such"], "schocken play: Fehler: unbekannte Argumente: --no-such",
     "schocken play: error: unrecognized arguments: --no-such"),
    (["replay"], "schocken replay: Fehler: diese Argumente fehlen: log",
     "schocken replay: error: the following arguments are required: log"),
    (["play", "--strategy", "x"], "schocken play: Fehler: Argument --strategy: ungültige Wahl: 'x'",
     "schocken play: error: argument --strategy: invalid choice: 'x'"),
    (["play", "--emulate"], "schocken play: Fehler: Argument --emulate: braucht einen Wert",
     "schocken play: error: argument --emulate: expected one argument"),
    (["play", "--heap", "1k"], "schocken play: Fehler: Argument --heap: muss 64k bis 64M sein",
     "schocken play: error: argument --heap: must be 64k to 64M"),
    (["play", "--exit-after", "-1"], "schocken play: Fehler: Argument --exit-after: braucht eine Zahl von "
     "Sekunden ab 0", "schocken play: error: argument --exit-after: needs a number of seconds from 0"),
    (["play", "--resume", "fehlt.jsonl"], "schocken play: Fehler: Argument --resume: fehlt.jsonl: dieses "
     "Spiel-Log gibt es nicht", "schocken play: error: argument --resume: fehlt.jsonl: no such game log"),
    (["odds", "--strategy", "nope"], "schocken odds: Fehler: Argument --strategy: ungültige Wahl: 'nope'",
     "schocken odds: error: argument --strategy: invalid choice: 'nope'"),
]


@pytest.mark.parametrize("argv,de,en", ARGPARSE, ids=[" ".join(a) for a, _, _ in ARGPARSE])
def test_argparse_errors_name_the_verb_and_speak_the_language(argv, de, en):
    assert german(refusal(argv)).startswith(de)
    assert refusal(["--lang", "en"] + argv).startswith(en)
    assert refusal(argv + ["--lang", "en"]).startswith(en)   # --lang after the verb says so as well


def test_help_speaks_the_language():
    de = run(["play", "--help"]).stdout.decode()
    assert de.startswith("Aufruf: schocken play") and "\nOptionen:\n" in de
    assert "diese Hilfe zeigen und beenden" in de and "nach Spielende so viele Sekunden warten" in de
    en = run(["--lang", "en", "play", "--help"]).stdout.decode()
    assert en.startswith("usage: schocken play") and "once the game is over, wait this many seconds" in en
    top = run(["--help"]).stdout.decode()
    assert "ein geloggtes Spiel nachrechnen" in top and "BEFEHL" in top


def test_every_option_is_described_in_both_languages():
    """Each option's description under --help is in texts/option_help.py, found by its English text: a new
    option, or a changed English description, without its German one fails here."""
    described = {en for key, (de, en) in TEXTS.items() if key.startswith("help.")}
    parser = cli.build_parser("en")
    for name, verb in parser.verb_parsers.items():
        for action in verb._actions:
            if action.help in (None, argparse.SUPPRESS) or action.dest in ("help", "lang"):
                continue
            text = verb._get_formatter()._expand_help(action)
            assert text in described, (name, action.option_strings or action.dest, text)
    cli.argparse_in("de")


def test_seats_count_from_one():
    line = german(refusal(["play", "--emulate", "4", "--opener", "9"]))
    assert line == "schocken: Fehler: --opener 9: die Plätze sind von 1 bis 4 nummeriert"
    assert refusal(["--lang", "en", "play", "--emulate", "4", "--opener", "5"]) == \
        "schocken: error: --opener 5: the seats are numbered 1 to 4"
    assert "braucht eine Platznummer ab 1, nicht '0'" in refusal(["play", "--emulate", "4", "--opener", "0"])


# --- the system's, JSON's and the rules' words --------------------------------------------------------------
def test_the_same_file_problem_in_the_same_words_for_every_verb(tmp_path):
    (tmp_path / "ordner").mkdir()
    for name, de, en in (("fehlt.jsonl", "fehlt.jsonl: dieses Spiel-Log gibt es nicht",
                          "fehlt.jsonl: no such game log"),
                         ("ordner", "ordner: ist ein Ordner, keine Datei",
                          "ordner: is a folder, not a file")):
        for verb in (["replay"], ["watch"]):
            assert german(refusal(verb + [name], cwd=tmp_path)) == "schocken: Fehler: " + de
            assert refusal(["--lang", "en"] + verb + [name], cwd=tmp_path) == "schocken: error: " + en
        assert german(refusal(["play", "--resume", name], cwd=tmp_path)).endswith(de)


def test_json_rule_and_board_errors_speak_the_language(tmp_path):
    assert german(refusal(["rank"], stdin=b'{"throws": [')) == (
        "schocken: Fehler: Eingabe ist kein JSON: ein Wert erwartet: Zeile 1, Spalte 13 (Zeichen 12)")
    assert refusal(["--lang", "en", "rank"], stdin=b'{"throws" 1}') == (
        "schocken: error: input is not JSON: expecting ':': line 1, column 11 (char 10)")
    bad_die = b'{"throws": [{"dice": [1, 1, 7]}, {"dice": [2, 2, 2]}]}'
    assert german(refusal(["rank"], stdin=bad_die)) == (
        "schocken: Fehler: Spieler 1: ein Würfel zeigt 1 bis 6, nicht 7")
    assert refusal(["--lang", "en", "rank"], stdin=bad_die) == (
        "schocken: error: player 1: a die shows 1 to 6, got 7")
    assert german(refusal(["rules", "--rules", "nope"])).startswith(
        "schocken: Fehler: unbekanntes Regelwerk 'nope' (bekannt: beton,")
    assert refusal(["--lang", "en", "rules", "--rules", "nope"]).startswith(
        "schocken: error: unknown rule set 'nope' (known: beton,")
    assert german(refusal(["odds", "--set", "jule=maybe"])) == (
        "schocken: Fehler: die Option jule braucht true oder false, nicht 'maybe'")
    assert german(refusal(["play", "--emulate", "2", "--set", "max_throws=9"])) == (
        "schocken: Fehler: die Option max_throws ist 1, 2 oder 3")
    board = tmp_path / "board.json"
    board.write_text('{"leds": 22,}')
    assert german(refusal(["cup", "--emulate", "--board", str(board)])) == (
        "schocken: Fehler: %s: kein JSON: ein Name in doppelten Anführungszeichen erwartet: Zeile 1, "
        "Spalte 13 (Zeichen 12)" % board)
    table = tmp_path / "tisch.toml"
    table.write_text('rules = "nope"\n[[players]]\nname = "Anna"\n[[players]]\nname = "Bert"\n')
    assert "unbekanntes Regelwerk" in german(refusal(["play", "--table", str(table), "--emulate", "2"]))


def test_a_web_port_in_use_is_said_in_the_language(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = german(refusal(["play", "--emulate", "2", "--plain", "--web", "127.0.0.1:%d" % port],
                              log_dir=tmp_path))
        assert "die Adresse ist schon belegt" in line, line
        line = refusal(["--lang", "en", "watch", "x.jsonl", "--web", "127.0.0.1:%d" % port], log_dir=tmp_path)
        assert "no such game log" in line   # the log is checked first; the port only when there is one
    assert list(tmp_path.iterdir()) == []


# --- odds and rules say what they show ----------------------------------------------------------------------
def test_odds_labels_its_column_by_the_bots_strategy():
    de = run(["odds"]).stdout.decode()
    assert "Endwurf der Bots (optimal)" in de and "Strategie schock" not in de
    assert "optimal ist die Strategie der Bots in schocken play" in de
    en = run(["--lang", "en", "odds", "--strategy", "schock"]).stdout.decode()
    assert "bots' final throw (schock)" in en and "optimal is the strategy" not in en
    data = json.loads(run(["odds", "--json"]).stdout)
    assert data["strategy"] == "optimal"


def test_rules_explains_every_option_in_words():
    from schocken.rules import OPTION_NAMES
    for lang, word in (("de", "Sechsen drehen: zwei Sechsen eines Wurfs werden eine Eins"),
                       ("en", "Sechsen drehen: two sixes of one throw make a one")):
        out = run(["--lang", lang, "rules"]).stdout.decode()
        options = out.split(":\n")[-1].splitlines()
        assert len(options) == len(OPTION_NAMES) and word in out
        for name, line in zip(OPTION_NAMES, options):
            setting, _, words = line.strip().partition("  ")
            assert setting.startswith(name + " = ") and len(words.strip().split()) >= 3, line


# --- names -----------------------------------------------------------------------------------------------
def test_default_names_are_one_name_whatever_the_language():
    assert default_name(3, "human") == default_name(3, "cup") == "Spieler 4"
    assert default_name(0, "bot") == "Bot 1"
    assert canonical_name("Player 4") == "Spieler 4" and canonical_name("Playerin") == "Playerin"


@needs_mp
def test_an_english_game_logs_the_default_name_and_stats_counts_old_logs_as_the_same_player(tmp_path):
    logs = tmp_path / "logs"
    game = Lines(["--lang", "en", "play", "--plain", "--emulate", 2, "--bots", 1, "--opener", 1], logs)
    try:
        game.until(lambda t: "Round 1: Bot 1 is on turn" in t, 120, "the first turn")
        game.proc.send_signal(signal.SIGINT)
        assert game.finish() == 0, game.text()[-3000:]
    finally:
        game.kill()
    log = next(logs.glob("*.jsonl"))
    start = json.loads(log.read_text().splitlines()[0])
    assert [p["name"] for p in start["players"]] == ["Bot 1", "Spieler 2"]
    assert "Spieler 2" in game.text()
    # stats counts whole games (docs/gamelog.md): this one was quit. A whole game of four seats, logged once
    # under today's default name and once as an older English host named the seat.
    whole = (ROOT / "tests" / "data" / "web_game.jsonl").read_text(encoding="utf-8").split("\n")
    for name, game_id in (("Spieler 2", "0000000000a1"), ("Player 2", "0000000000a2")):
        first = json.loads(whole[0])
        first["game_id"] = game_id
        first["players"][1]["name"] = name
        (logs / ("%s.jsonl" % game_id)).write_text("\n".join([json.dumps(first)] + whole[1:]))
    stats = json.loads(run(["stats", "--log-dir", logs, "--json"]).stdout)
    assert stats["players"]["Spieler 2"]["games"] == 2 and "Player 2" not in stats["players"]
    out = run(["stats", "--log-dir", logs]).stdout.decode()
    assert out.startswith("2 Spiele in ")


# --- the end of a game ------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """One short game of two bots through `schocken --lang en play --plain`: (its output, its log)."""
    logs = tmp_path_factory.mktemp("played")
    proc = run(["--lang", "en", "play", "--plain", "--emulate", 2] + QUICK, log_dir=logs, timeout=GAME_S)
    assert proc.returncode == 0, proc.stderr.decode()[-3000:]
    return proc.stdout.decode(), next(logs.glob("*.jsonl"))


@needs_mp
def test_a_plain_game_ends_with_the_standings_and_the_logs_path(played):
    out, log = played
    end = out[out.index("Game over: "):].splitlines()
    assert end[1] == "Final standings:" and end[2].startswith("Game ") and ", Game over, " in end[2], end
    assert any(re.fullmatch(r"  Bot 1 +\d+ Deckel", line) for line in end), end
    assert end[-1] == "The game log: %s" % log, end
    assert out.index("Log: %s" % log) < out.index("Game ")   # named once the log holds the game
    assert not re.search(r"\b1 throws\b", out) and re.search(r"\(1 throw[,)]", out)


@needs_mp
def test_replay_of_a_log_cut_mid_line_says_where_it_stops(played, tmp_path):
    _, log = played
    lines = log.read_bytes().split(b"\n")
    first_round = next(i for i, line in enumerate(lines) if b'"ev":"round"' in line)
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"\n".join(lines[:first_round + 1]) + b"\n" + lines[first_round + 1][:9])
    proc = run(["replay", cut])
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.decode() == (
        "schocken: %s: das Log ist unvollständig: es bricht in Zeile %d mitten in einem Eintrag ab (sein "
        "Host endete beim Schreiben oder schreibt noch); es folgt der Stand davor\n" % (cut, first_round + 2))
    assert ", 1 Runde\n" in proc.stdout.decode()    # one round: singular
    proc = run(["--lang", "en", "replay", cut, "--json"])
    assert json.loads(proc.stdout)["rounds"] == 1
    assert "stops in line %d" % (first_round + 2) in proc.stderr.decode()
    whole = run(["replay", log])
    assert whole.returncode == 0 and whole.stderr == b"" and " Runden\n" in whole.stdout.decode()


@needs_mp
def test_a_refused_start_prints_nothing_on_standard_output(tmp_path):
    with socket.socket() as silent:   # a "cup" that takes the connection and never says who it is
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = "socket://127.0.0.1:%d" % silent.getsockname()[1]
        for web in ([], ["--web", "127.0.0.1:0"]):   # the page's address and PIN only once a game began
            line = german(refusal(["play", "--plain", "--emulate", 1, "--bots", 1, "--port", port] + web,
                                  log_dir=tmp_path / "logs", timeout=GAME_S))
            assert "antwortet nicht" in line
    assert not list((tmp_path / "logs").glob("*.jsonl"))


@needs_mp
def test_the_resume_hint_is_a_command_that_runs_as_shown(tmp_path):
    """Started as `.venv/bin/schocken` (what `make play` runs), stopped with Ctrl-C: the hint's command, typed
    as shown in the same folder, continues the game."""
    typed = os.path.relpath(Path(sys.executable).parent / "schocken", ROOT)
    logs = tmp_path / "logs"
    out = stopped([typed, "play", "--plain", "--emulate", "2", "--bots", "1", "--opener", "1"], logs,
                  "ist am Zug")
    log = next(logs.glob("*.jsonl"))
    hint = re.search(r"Spiel unterbrochen\. Weiter mit: (.*)", out).group(1)
    words = shlex.split(hint)
    assert words[0] in (typed, "schocken") and words[1:4] == ["play", "--resume", str(log)], hint
    assert "Stand beim Anhalten:" in out and "Das Spiel-Log: %s" % log in out
    again = stopped(words, logs, "Spiel fortgesetzt.")
    assert "Spiel unterbrochen. Weiter mit: %s" % hint in again


def stopped(argv, logs, until):
    """Run ``argv`` in the checkout (as a user types it there), stop it with Ctrl-C once ``until`` is in its
    output; its output, after it exited with status 0."""
    proc = subprocess.Popen(argv, cwd=ROOT, env=env(logs), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    out = ""
    try:
        end = time.monotonic() + 120
        while until not in out and time.monotonic() < end and proc.poll() is None:
            out += proc.stdout.readline()
        assert until in out, out[-3000:]
        proc.send_signal(signal.SIGINT)
        out += proc.communicate(timeout=60)[0]
    finally:
        proc.kill()
    assert proc.returncode == 0, out[-3000:]
    return out


@needs_mp
@needs_tmux
def test_make_demo_ends_by_itself_with_the_standings(tmp_path):
    """The demo line of the Makefile, in a real terminal (at a time scale, with two Deckel a half, so that it
    is short): the scoreboard shows the end, leaves by itself, and the terminal keeps the standings."""
    demo = re.search(r"(?m)^demo:.*\n\t\$\(BIN\)/schocken (.*)$", (ROOT / "Makefile").read_text()).group(1)
    argv = shlex.split(demo)
    assert "--exit-after" in argv
    term = Terminal(tmp_path)
    try:
        term.start(argv + QUICK, tmp_path / "logs")
        rc = term.exit_status(GAME_S)
        screen = term.screen()
    finally:
        term.close()
    log = next((tmp_path / "logs").glob("*.jsonl"))
    assert rc == 0, screen
    assert "Endstand:" in screen and "Verloren: Bot " in screen, screen
    assert "Das Spiel-Log: %s" % log in screen, screen
