"""Bad input to every verb of `schocken`, typed as a hostile new user would: bad arguments, missing files,
folders, binary garbage, broken and deeply nested TOML/JSON, empty input, impossible tables. Each is refused
with one line on standard error, exit status 2, nothing on standard output, no traceback, and nothing lost: a
refused `play` makes no log and leaves the logs there alone.

Most cases run `cli.main` in this process, as the command would (its own folder, environment and standard
streams as bytes: `schocken`); a few of each kind of failure (argparse's, a CommandError, a file that cannot
be read) and the arguments the shell hands over as bytes go through the real entry point in a subprocess
(`schocken_process`), and the two are compared on the same cases.

The verbs come from cli.py's parser: a new verb is walked with bad arguments at once, and must get cases of
its own in CASES. No case starts a cup: the errors are found before."""

import argparse
import hashlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from schocken_host import cli
from schocken_host.table.table_file import read_table
from schocken_host.errors import CommandError
from schocken_host.input_checks import OneLineParser

ROOT = Path(__file__).resolve().parents[1]
DEEP = "[" * 100000
TABLE = '[[players]]\nname = "Anna"\n[[players]]\nname = "Bert"\n'
LOG = '{"ev":"start","game":"old"}\n{"ev":"round"}\n'

# Files in the folder every case runs in (cwd); a name not here does not exist.
FILES = {
    "binary.dat": b"\xff\xfe\x00\x01garbage\x80",
    "empty.txt": b"",
    "deep.json": DEEP.encode(),
    "list.json": b"[]",
    "broken.toml": b"[[players]\nname =",
    "deep.toml": ("a = " + DEEP).encode(),
    "table.toml": TABLE.encode(),
    "three.toml": (TABLE + '[[players]]\nname = "Cleo"\n').encode(),
    "ported.toml": b'[[players]]\nname = "Anna"\nport = "/dev/null"\n[[players]]\nname = "Bert"\n',
    "gone.toml": b'[[players]]\nname = "Anna"\nport = "/dev/no-such-tty"\n[[players]]\nname = "Bert"\n',
    "ftp.toml": b'[[players]]\nname = "Anna"\nport = "ftp://bar:21"\n[[players]]\nname = "Bert"\n',
    "broken.jsonl": b'not json\n{"ev":"start"}\n',
    "deep.jsonl": (DEEP + '\n{"ev":"start"}\n').encode(),
    "trace.csv": b"t_ms,ax,ay,az\n0,0,0,9.81\n",
    "a-file": b"not a folder\n",
}

# One entry per verb: argument lists (and standard input after "<<") that must be refused.
CASES = {
    "rules": [["--rules", "nope"], ["--set", "jule"], ["--set", "nope=1"], ["--set", "jule=maybe"],
              ["--set", "max_throws=9"]],
    "rank": [["<<", b""], ["<<", b"\xff\xfe"], ["<<", DEEP.encode()], ["<<", b'{"a":' * 100000],
             ["<<", b"not json"], ["<<", b"[]"],
             ["<<", b'{"throws": [{"dice": [1, 1, 7]}, {"dice": [2, 2, 2]}]}'],
             ["--json", "<<", b"\x00\x01\x02"]],
    "odds": [["--rules", "nope"], ["--set", "jule=maybe"], ["--throws", "4"], ["--throws", "0"],
             ["--throws", "x"], ["--beat", "6 6 1"], ["--beat", "7 6 1 2"], ["--beat", "1 1 1 4"],
             ["--beat", "6 6 1 2 maybe"], ["--beat", ""], ["--beat", "6 6 1 2", "--throws", "9"],
             ["--set", "max_throws=2", "--beat", "6 6 1 3"], ["--strategy", "nope"]],
    "cup": [[], ["--emulate", "--board", "missing.json"], ["--emulate", "--board", "folder"],
            ["--emulate", "--board", "binary.dat"], ["--emulate", "--board", "empty.txt"],
            ["--emulate", "--board", "deep.json"], ["--emulate", "--board", "list.json"],
            ["--emulate", "--long-ms", "5"], ["--emulate", "--long-ms", "x"],
            ["--emulate", "--rules", "nope"]],
    "shake-replay": [[], ["missing.csv"], ["folder"], ["binary.dat"], ["empty.txt"], ["broken.toml"],
                     ["trace.csv", "--sensor", "x"]],
    "play": [["--turnier", "ftp://x/tisch/k"], ["--turnier", "http://127.0.0.1:9/tisch/k"],
             ["--emulate", "x"], ["--emulate", "-1"], ["--emulate", "1"], ["--emulate", "400"],
             ["--emulate", "4", "--bots", "5"],
             ["--emulate", "2", "--bots", "-1"], ["--bots", "1", "--port", "/dev/null"],
             ["--emulate", "2", "--heap", "nonsense"], ["--emulate", "2", "--heap", "1k"],
             ["--emulate", "2", "--absent-timeout", "-5"], ["--emulate", "2", "--absent-timeout", "nan"],
             ["--emulate", "2", "--opener", "3"], ["--emulate", "2", "--opener", "0"],
             ["--emulate", "2", "--opener", "-1"],
             ["--emulate", "2", "--seed", "1", "--fair"], ["--emulate", "2", "--names", ",,"],
             ["--emulate", "2", "--names", "Anna,Anna"], ["--emulate", "2", "--names", "A,B,C"],
             ["--emulate", "2", "--rules", "nope"], ["--emulate", "2", "--set", "jule"],
             ["--emulate", "2", "--rules", "wuerfel63"],
             ["--emulate", "2", "--log-dir", "a-file"], ["--emulate", "2", "--log-dir", "a-file/games"],
             ["--emulate", "2", "--port", "/dev/no-such-tty"], ["--emulate", "2", "--port", "folder"],
             ["--emulate", "2", "--port", "/dev/null", "--port", "/dev/null"],
             ["--table", "missing.toml"], ["--table", "folder"], ["--table", "binary.dat"],
             ["--table", "empty.txt"], ["--table", "broken.toml"], ["--table", "deep.toml"],
             ["--table", "three.toml", "--emulate", "2"], ["--table", "ported.toml", "--port", "/dev/null"],
             ["--table", "gone.toml", "--emulate", "1"], ["--table", "ftp.toml", "--emulate", "1"],
             ["--emulate", "2", "--port", "tcp://bar:4000"], ["--emulate", "2", "--port", "socket://bar"],
             ["--resume", "missing.jsonl"], ["--resume", "folder"], ["--resume", "binary.dat"],
             ["--resume", "broken.jsonl"], ["--resume", "deep.jsonl"],
             ["--emulate", "2", "--web", "x"], ["--emulate", "2", "--web", "host:"]],
    "deploy": [["--port", "/dev/no-such-tty"], ["--port", "folder"], ["--timeout", "-1"],
               ["--timeout", "nan"],
               ["--board", "nope"], ["--cup-id", "", "--port", "/dev/null"],
               ["--name", "x" * 25, "--port", "/dev/null"],
               ["--control", "/dev/no-such-tty", "--port", "/dev/null"],
               ["--link", "carrier-pigeon"], ["--port", "loop://"], ["--port", "rfc2217://bar:0"],
               ["--from", "missing"], ["--from", "a-file"], ["--from", "folder", "--port", "/dev/null"],
               ["--romfs", "--files"], ["--cup-slowness", "0"], ["--cup-slowness", "101"]],
    "build": [["--arch", "z80"], ["--out", "a-file"], ["--arch"]],
    "doctor": [["--port", "/dev/no-such-tty"], ["--port", "folder"], ["--timeout", "0"], ["--timeout", "x"],
               ["--cup-slowness", "0"], ["--cup-slowness", "101"],
               ["--port", "spy://bar:1"], ["--port", "socket://:4000"]],
    "scan": [["--timeout", "-1"], ["--timeout", "x"], ["--no-ble", "--no-serial"],
             ["--no-ble", "--port", "/dev/no-such-tty"], ["--no-ble", "--port", "folder"],
             ["--no-ble", "--port", "hwgrep://USB"], ["--no-ble", "--port", "socket://bar:x"],
             ["--backend", "x"]],
    "replay": [[], ["missing.jsonl"], ["folder"], ["binary.dat"], ["empty.txt"], ["broken.jsonl"],
               ["deep.jsonl"]],
    "stats": [["--log-dir", "missing"], ["--log-dir", "a-file"]],
    "watch": [[], ["missing.jsonl"], ["folder"], ["broken.jsonl", "--web", "x"],
              ["broken.jsonl", "--web", "70000"], ["broken.jsonl", "--web", "a:b:1"]],
    "liga": [["nope"], ["--json", "--csv"], ["import"], ["import", "missing"], ["rebuild", "missing"],
             ["merge", "Anna"], ["merge", "Anna", "Bert"], ["merge", "Anna", " "], ["--db", "folder"],
             ["--db", "binary.dat"], ["--db", "binary.dat", "import", "folder"],
             ["merge", "Anna", "Bert", "--db", "deep.json"], ["--sort", "luck"], ["--season", "Winter"],
             ["abend", "2026-13-01"], ["evening", "--move", "abc"],
             ["evening", "2026-12-04", "--move", "abc"],
             ["saison", "Winter", "2026-12-01"], ["season", "Winter", "morgen", "2026-12-31"],
             ["season", "Winter", "2026-12-31", "2026-12-01"], ["einsatz", "ein Bier"],
             ["stake", "drinks", "--evening", "2026-12-04"], ["kasse", "--settle", "2026-12-04"],
             ["ledger", "--settle", "x", "--reopen", "y"], ["ledger", "--season", "Winter"]],
    "turnier": [[], ["nope"], ["anlegen", "neu", "--format", "nope"],
                ["anlegen", "neu", "--format", "broken.toml"],
                ["anlegen", "neu", "--format", "deep.toml"], ["anlegen", "neu", "--format", "table.toml"],
                ["anlegen", "neu", "Anna", "Anna"], ["anlegen", "neu", "A,B"], ["anlegen", "neu", " "],
                ["anlegen", "neu", "--datei", "binary.dat"], ["anlegen", "neu", "--datei", "missing"],
                ["anmelden", "folder", "Anna"], ["auslosen", "missing"], ["stand", "a-file"],
                ["karten", "folder"], ["leiten", "folder"], ["nachzaehlen", "folder"],
                ["entscheiden", "folder", "abc", "vielleicht"], ["entscheiden", "folder", "abc", "zaehlen"],
                ["leiten", "folder", "--web", "99999"]],
}

# Bad arguments every verb gets, a new one too.
EVERY_VERB = [["--no-such-option"], ["--lang", "xx"]]


def _ids(cases):
    return [" ".join(a if isinstance(a, str) else "<%d bytes>" % len(a) for a in args)[:60] or "(none)"
            for _, args in cases]


ALL = [(verb, args) for verb in cli.verb_names() for args in CASES.get(verb, []) + EVERY_VERB]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile")
    for name, data in FILES.items():
        (root / name).write_bytes(data)
    (root / "folder").mkdir()
    logs = root / "logs"
    logs.mkdir()
    (logs / "old.jsonl").write_text(LOG)
    return root


def _env(root):
    env = dict(os.environ, SCHOCKEN_LOG_DIR=str(root / "logs"), SCHOCKEN_DATA_DIR=str(root / "data"))
    env.pop("SCHOCKEN_DEBUG", None)
    # This checkout's host and rules package, whatever the venv has installed.
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "host_tools"), str(ROOT / "firmware" / "lib"),
                                         env.get("PYTHONPATH", "")])
    return env


def _stdin(argv):
    """argv without its "<<" part, and the bytes given on standard input (None: /dev/null)."""
    if "<<" in argv:
        return argv[:argv.index("<<")], argv[argv.index("<<") + 1]
    return argv, None


def schocken_process(root, argv):
    """`schocken ARGV` through the real entry point: a new Python running schocken_host.cli in ``root``."""
    argv, stdin = _stdin(list(argv))
    return subprocess.run([sys.executable, "-m", "schocken_host.cli"] + argv, cwd=root, env=_env(root),
                          capture_output=True, timeout=60,
                          **({"input": stdin} if stdin is not None else {"stdin": subprocess.DEVNULL}))


def schocken(root, argv):
    """`schocken ARGV` as cli.main runs it in this process, with what the subprocess would have: ``root`` as
    the current folder, its log and data folders, standard input, output and error as UTF-8 bytes, and
    SystemExit turned into the exit status. Returns what subprocess.run returns."""
    argv, stdin = _stdin(list(argv))
    out, err = io.BytesIO(), io.BytesIO()
    streams = (io.TextIOWrapper(io.BytesIO(stdin or b""), encoding="utf-8"),
               io.TextIOWrapper(out, encoding="utf-8", write_through=True),
               io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", write_through=True))
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        mp.setenv("SCHOCKEN_LOG_DIR", str(root / "logs"))
        mp.setenv("SCHOCKEN_DATA_DIR", str(root / "data"))
        mp.delenv("SCHOCKEN_DEBUG", raising=False)
        mp.setattr(sys, "stdin", streams[0])
        mp.setattr(sys, "stdout", streams[1])
        mp.setattr(sys, "stderr", streams[2])
        # cli.main makes argparse speak the chosen language for the rest of the process: only for this run.
        mp.setattr(argparse, "_", argparse._)
        mp.setattr(OneLineParser, "lang", OneLineParser.lang)
        try:
            status = cli.main(argv)
        except SystemExit as e:
            status = e.code
            if isinstance(status, str):  # as Python's exit does: the text on standard error, status 1
                sys.stderr.write(status + "\n")
                status = 1
        for stream in streams[1:]:
            stream.flush()
        return subprocess.CompletedProcess(argv, status or 0, out.getvalue(), err.getvalue())


def snapshot(folder):
    """Every file under ``folder`` with its bytes' hash and mtime: "nothing lost" is this staying the same."""
    return {str(p.relative_to(folder)): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def assert_refused(proc):
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 2, (proc.returncode, err[-2000:])
    assert proc.stdout == b"", proc.stdout[:500]
    assert "Traceback" not in err, err[-2000:]
    lines = err.split("\n")
    assert len(lines) == 2 and lines[0].strip() and lines[1] == "", err   # exactly one line, newline-ended
    return lines[0]


def test_every_verb_has_cases_of_its_own():
    assert sorted(set(cli.verb_names()) - set(CASES)) == []
    assert sorted(set(CASES) - set(cli.verb_names())) == []


@pytest.mark.parametrize("verb,args", ALL, ids=["%s %s" % (v, i) for (v, _), i in zip(ALL, _ids(ALL))])
def test_bad_input_is_one_line_and_exit_2(workdir, verb, args):
    before = snapshot(workdir)
    line = assert_refused(schocken(workdir, [verb] + args))
    assert line.startswith("schocken"), line
    # Nothing lost, nothing left: no log made, no file touched (a refused play starts no cup and no log).
    assert snapshot(workdir) == before


def test_the_readme_example_without_its_file_and_the_recursion_bomb(workdir):
    line = assert_refused(schocken(workdir, ["--lang", "en", "play", "--table", "tisch.toml"]))
    assert "tisch.toml" in line and "no such table file" in line
    line = assert_refused(schocken(workdir, ["--lang", "en", "rank", "<<", ("[" * 100000 + "\n").encode()]))
    assert "nested too deeply" in line


# Every argument that names a file to read, given a device that reads forever or a named pipe nobody writes:
# through the real entry point, whose timeout ends a run that reads forever (in this process it would hang).
SPECIAL = [["replay", "{x}"], ["play", "--resume", "{x}"], ["play", "--table", "{x}", "--emulate", "2"],
           ["shake-replay", "{x}"], ["cup", "--emulate", "--board", "{x}"], ["watch", "{x}"]]


@pytest.mark.parametrize("argv", SPECIAL, ids=[" ".join(a) for a in SPECIAL])
def test_a_device_or_a_pipe_for_a_file_is_refused_not_read_forever(workdir, argv):
    fifo = workdir / "pipe.jsonl"
    if not fifo.exists():
        os.mkfifo(fifo)
    for special in ("/dev/zero", str(fifo)):
        line = assert_refused(schocken_process(workdir, ["--lang", "en"] + [a.format(x=special)
                                                                            for a in argv]))
        assert special in line, line


NOT_UTF8 = b"A\xff"


def test_an_argument_that_is_not_utf8_is_one_line_for_every_verb(workdir):
    """The shell hands over bytes; Python makes those that are no UTF-8 lone surrogates, which reached a cup's
    command line and a log line as a crash ("--names $'A\\xff'")."""
    for verb in cli.verb_names():
        assert "ist kein UTF-8-Text" in assert_refused(schocken(workdir, [verb, os.fsdecode(NOT_UTF8)])), verb
    # The bytes themselves, through the real entry point: what Python makes of them is what main() gets.
    before = snapshot(workdir)
    proc = subprocess.run([sys.executable, "-m", "schocken_host.cli", "play", "--emulate", "2", "--names",
                           NOT_UTF8 + b",B"], cwd=workdir, env=_env(workdir), capture_output=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert "ist kein UTF-8-Text" in assert_refused(proc) and snapshot(workdir) == before


# One case of each kind of refusal through the real entry point, compared with the same case in this process:
# argparse's (SystemExit from the parser), a verb's CommandError, a file that is not there, standard input
# that is no UTF-8, input nested too deeply (a RecursionError on the way).
REAL = [["play", "--emulate", "x"], ["--lang", "en", "play", "--emulate", "4", "--bots", "5"],
        ["--lang", "en", "play", "--table", "tisch.toml"], ["replay", "folder"], ["rank", "<<", b"\xff\xfe"],
        ["--lang", "en", "rank", "<<", ("[" * 100000 + "\n").encode()]]


@pytest.mark.parametrize("argv", REAL, ids=_ids([(None, a) for a in REAL]))
def test_the_real_command_line_refuses_as_main_does_in_this_process(workdir, argv):
    proc = schocken_process(workdir, argv)
    assert_refused(proc)
    ran = schocken(workdir, argv)
    assert (ran.returncode, ran.stdout, ran.stderr) == (proc.returncode, proc.stdout, proc.stderr)


def test_lang_and_argparse_errors(workdir):
    line = assert_refused(schocken(workdir, ["play", "--emulate", "x"]))
    assert line == "schocken play: Fehler: Argument --emulate: braucht eine ganze Zahl, nicht 'x'"
    line = assert_refused(schocken(workdir, ["play", "--emulate", "x", "--lang", "en"]))
    assert line == "schocken play: error: argument --emulate: needs a whole number, not 'x'"
    assert assert_refused(schocken(workdir, ["--lang", "en", "play", "--emulate", "4", "--bots", "5"])) == \
        "schocken: error: --bots 5: only 4 emulated cups (--emulate N) to play"
    assert assert_refused(schocken(workdir, ["play", "--emulate", "4", "--bots", "5"])).startswith(
        "schocken: Fehler: --bots 5")


# --- the table file -------------------------------------------------------------------------------------
BAD_TABLES = [
    ("players = 3\n", "needs [[players]] entries"),
    ('[[players]]\nport = "/dev/null"\n', "players[1]: needs a name"),
    ('[[players]]\nname = ""\n', "players[1].name: empty name"),
    ('[[players]]\nname = 5\n', "players[1].name: needs text"),
    ('[[players]]\nname = "A\\nB"\n', "players[1].name: 'A\\nB' has a control character"),
    ('[[players]]\nname = "Anna"\nprot = "/dev/null"\n', "players[1]: unknown key prot"),
    (TABLE + '[[players]]\nname = "Anna"\n', "players[3].name: 'Anna' sits at the table already"),
    ('[[players]]\nname = "A"\nport = "/dev/null"\n[[players]]\nname = "B"\nport = "/dev/null"\n',
     "players[2].port: /dev/null belongs to another player"),
    ('[[players]]\nname = "A"\n[[players]]\nname = "B"\nport = "/dev/null"\n',
     "players[2].port: players with a port come first"),
    ('[[players]]\nname = "A"\nport = 5\n', "players[1].port: needs a port name"),
    ('players = ["Anna", "Bert"]\n', "players[1]: needs a table"),
    ('rules = "nope"\n' + TABLE, "rules: unknown rule set 'nope'"),
    ("rules = 3\n" + TABLE, "rules: unknown rule set 3"),
    ("options = 3\n" + TABLE, "options: needs a table"),
    ("[options]\nnope = 1\n" + TABLE, "options.nope: unknown option"),
    ("[options]\njule = 1.5\n" + TABLE, "options.jule: needs true, false"),
    ("[options]\nmax_throws = 5\n" + TABLE, "max_throws must be 1, 2 or 3"),
    ("[options]\njule = \"maybe\"\n" + TABLE, "jule needs true or false"),
    ("player = []\n" + TABLE, "unknown key player"),
    ('name = ""\n' + TABLE, "tisch.toml: name: empty name"),
    ("name = 5\n" + TABLE, "tisch.toml: name: needs text"),
]


@pytest.mark.parametrize("text,words", BAD_TABLES, ids=[w for _, w in BAD_TABLES])
def test_a_table_file_with_bad_entries_is_refused_naming_file_and_entry(workdir, tmp_path, text, words):
    path = tmp_path / "tisch.toml"
    path.write_text(text, encoding="utf-8")
    line = assert_refused(schocken(workdir, ["--lang", "en", "play", "--table", str(path), "--emulate", "2"]))
    assert "%s: " % path in line and words in line, line
    assert sorted(p.name for p in (workdir / "logs").iterdir()) == ["old.jsonl"]


# TOML's own syntax errors, the detail too, in the user's language (i18n.toml_error): German by default.
# tomllib says each in English ("Expected '=' after a key in a key/value pair (at line 2, column 6)").
TOML_ERRORS = [
    ('[[players]]\nname "Anna"\n', "Zeile 2, Spalte 6: nach dem Schlüssel fehlt „=“",
     "line 2, column 6: '=' missing after the key"),
    ('[[players]\nname = "Anna"\n', "Zeile 1, Spalte 10: „]]“ fehlt am Ende der Überschrift [[...]]",
     "line 1, column 10: ']]' missing at the end of a [[...]] header"),
    ('[[players]]\nname = Anna\n', "Zeile 2, Spalte 8: ungültiger Wert (Text steht in Anführungszeichen",
     "line 2, column 8: invalid value (text goes in quotes"),
    ('[[players]]\nname = "Anna\n', "Zeile 2, Spalte 13: Text ohne schließendes Anführungszeichen",
     "line 2, column 13: string without its closing quote"),
    ('[players]\n[players]\n', "Zeile 2, Spalte 9: players steht zweimal in der Datei",
     "line 2, column 9: players is declared twice"),
    ('rules = [1, 2\n', "am Ende der Datei: Liste ohne schließende „]“",
     "at the end of the file: list without its closing ']'"),
]
TOMLLIB_WORDS = ("Expected", "Invalid", "Cannot", "Unclosed", "Illegal", "Unterminated", "(at ", "document")


@pytest.mark.parametrize("text,german,english", TOML_ERRORS, ids=[e for _, _, e in TOML_ERRORS])
def test_a_table_file_that_is_no_toml_is_refused_in_the_users_language(workdir, tmp_path, text, german,
                                                                        english):
    path = tmp_path / "tisch.toml"
    path.write_text(text, encoding="utf-8")
    for lang, head, words in ((), "kein TOML: ", german), (("--lang", "en"), "not TOML: ", english):
        line = assert_refused(schocken_process(workdir, [*lang, "play", "--table", str(path), "--emulate",
                                                         "2"]))
        assert "%s: %s%s" % (path, head, words) in line, line
        assert not any(word in line for word in TOMLLIB_WORDS), line


def test_every_message_of_tomllib_has_words_and_an_unknown_one_keeps_its_place():
    """Each message the installed tomllib can raise (read from its parser's source) is said in words of
    texts/, not in the generic line; a message it may say one day is the generic line with its place."""
    import tomllib
    from schocken_host.i18n import Message, toml_error
    source = (Path(tomllib.__file__).parent / "_parser.py").read_text(encoding="utf-8")
    messages = re.findall(r'suffixed_err\(\s*src,\s*\w+,\s*f?"([^"]*)"', source)
    assert len(messages) > 20
    for msg in messages:
        text = re.sub(r"\{[^}]*\}", "('players', 'name')", msg).replace("\\\\", "\\")
        said = toml_error(tomllib.TOMLDecodeError("%s (at line 3, column 5)" % text))
        assert isinstance(said, Message) and said.key == "toml.what_where", msg
        assert said.fields["what"].key != "toml.unknown", msg
        for lang in ("de", "en"):
            assert not any(word in said.localized(lang) for word in TOMLLIB_WORDS), (msg, lang)
    said = toml_error(tomllib.TOMLDecodeError("Something new (at line 3, column 5)"))
    assert (said.localized("de"), said.localized("en")) == ("Zeile 3, Spalte 5: ungültiges TOML",
                                                           "line 3, column 5: invalid TOML")


def test_the_example_table_file_loads_as_play_reads_it():
    table = read_table(ROOT / "examples" / "tisch.toml")
    assert table["name"] == "Stammtisch"
    assert [p["name"] for p in table["players"]] == ["Anna", "Bert", "Cleo", "Dora"]
    assert table["rules"]["preset"] == "verein"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in re.findall(r"--table (\S+)", readme):
        assert (ROOT / name).is_file(), "README's --table %s does not exist" % name


def test_the_docs_example_parses(tmp_path):
    doc = (ROOT / "docs" / "table-file.md").read_text(encoding="utf-8")
    example = re.search(r"```toml\n(.*?)```", doc, re.S).group(1)
    path = tmp_path / "doc.toml"
    path.write_text(example, encoding="utf-8")
    table = read_table(path)
    assert [(p["name"], p.get("port")) for p in table["players"]] == [
        ("Anna", "/dev/ttyACM0"), ("Bert", "/dev/ttyUSB0"), ("Cleo", None)]
    assert table["rules"] == {"preset": "verein", "options": {"jule": True, "deckel_total": 13}}
    for key in ("players", "players.name", "players.port", "rules", "options"):  # every key documented
        assert "| `%s` |" % key in doc, key


def test_read_table_refuses_what_it_cannot_read(tmp_path):
    with pytest.raises(CommandError, match="no such table file"):
        read_table(tmp_path / "nope.toml")
    with pytest.raises(CommandError, match="is a folder"):
        read_table(tmp_path)


# --- an error that is nobody's input: a bug -----------------------------------------------------------
def test_an_internal_error_is_one_line_and_exit_70_with_the_traceback_on_request(monkeypatch, capsys):
    from schocken_host.commands import rules as rules_cmd

    def broken(args):
        raise TypeError("a bug\nover two lines")
    monkeypatch.setattr(rules_cmd, "run", broken)
    monkeypatch.delenv("SCHOCKEN_DEBUG", raising=False)
    assert cli.main(["--lang", "en", "rules"]) == cli.INTERNAL_ERROR == 70
    out, err = capsys.readouterr()
    assert out == "" and err == ("schocken: internal error: TypeError: a bug over two lines "
                                 "(SCHOCKEN_DEBUG=1 shows the traceback)\n")
    monkeypatch.setenv("SCHOCKEN_DEBUG", "1")
    assert cli.main(["rules"]) == 70
    err = capsys.readouterr().err
    assert "Traceback" in err and err.splitlines()[-1].startswith("schocken: interner Fehler: TypeError")


# --- the name "schocken" on PyPI ------------------------------------------------------------------------

def _foreign_schocken(root, dist_info):
    """A package named schocken that is not ours (the unrelated one on PyPI), first on sys.path; with
    ``dist_info`` also the metadata pip would have written for it."""
    (root / "schocken").mkdir(parents=True)
    (root / "schocken" / "__init__.py").write_text('"""Some other schocken."""\n')
    if dist_info:
        info = root / "schocken-2.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text("Metadata-Version: 2.1\nName: schocken\nVersion: 2.0\n")
        (info / "RECORD").write_text("schocken/__init__.py,,\nschocken-2.0.dist-info/METADATA,,\n")
        (info / "top_level.txt").write_text("schocken\n")


@pytest.mark.parametrize("dist_info", [True, False], ids=["installed", "on_pythonpath"])
def test_a_foreign_schocken_package_stops_the_cli_with_one_line(tmp_path, dist_info):
    _foreign_schocken(tmp_path / "other", dist_info)
    host = Path(__file__).resolve().parents[1] / "host_tools"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path / "other"), str(host)]))
    r = subprocess.run([str(Path(sys.executable).parent / "schocken"), "--lang", "en", "rules", "standard"],
                       capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("schocken: error: the module schocken from ")
    assert str(tmp_path / "other" / "schocken" / "__init__.py") in r.stderr
    if dist_info:
        assert "belongs to schocken 2.0, not to schocken-cup" in r.stderr
        assert "pip uninstall schocken," in r.stderr
    else:
        assert "not this project's rules package (schocken-cup)" in r.stderr and "Traceback" not in r.stderr
