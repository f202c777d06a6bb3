"""`schocken cup --emulate` and its LED rendering (links/ledframe.py, views/render.py, commands/cup.py), and
the `shake-replay` verb of the command line."""

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
import serial

from schocken import hostside, protocol
from schocken_host import cli
from schocken_host.links import ledframe
from schocken_host.views import render

from conftest import micropython_path
from kits.cupkit import LineReader

ROOT = Path(__file__).resolve().parents[1]
SCHOCKEN = [sys.executable, "-m", "schocken_host.cli"]
needs_mp = pytest.mark.skipif(micropython_path() is None, reason="needs the micropython unix port")


# --- render: synthetic frames ---------------------------------------------------------------------------
@pytest.mark.parametrize("faces", [(1, 2, 3), (4, 5, 6), (0, 6, 0), (0, 0, 0), (6, 6, 6)])
def test_decode_faces_and_colors(faces):
    info = ledframe.decode(ledframe.frame_from(faces, ("cup", "aside", "cup"), (0, 255, 0)))
    assert info["dice"] == list(faces)
    assert info["status"] == (0, 51, 0)
    for d, face in enumerate(faces):
        if face:
            assert info["colors"][d] == ((51, 51, 51) if d != 1 else (51, 25, 0))
            assert ledframe.die_kind(info["colors"][d]) == ("aside" if d == 1 else "cup")
        else:
            assert info["colors"][d] is None


def test_decode_rejects_short_frames():
    f = ledframe.frame_from((3, 1, 5), ("aside", "cup", "cup"), (128, 0, 255))
    with pytest.raises(ValueError):
        ledframe.decode(f[:30])


def test_pattern_that_is_no_face():
    f = bytearray(ledframe.frame_from((0, 0, 0)))
    f[0:3] = f[3:6] = bytes((51, 51, 51))  # pips TL and TR of die 1: no face has that
    info = ledframe.decode(bytes(f))
    assert info["dice"] == [None, 0, 0]
    assert "?" in render.faces_text(bytes(f)).splitlines()[5]


@pytest.mark.parametrize("rgb,name,de,en", [
    ((0, 255, 0), "green", "am Zug", "your turn"),
    ((0, 255, 255), "cyan", "Wurf 1", "throw 1"),
    ((255, 255, 0), "yellow", "Wurf 2", "throw 2"),
    ((255, 96, 0), "orange", "Wurf 3", "throw 3"),
    ((0, 0, 255), "blue", "wartet", "waiting"),
    ((255, 0, 0), "red", "abgelehnt", "refused"),
    ((255, 255, 255), "white", "gewonnen", "won"),
    ((40, 40, 40), "dim", "allein", "alone"),
    ((128, 0, 255), "violet", "verdeckt", "covered"),
    ((255, 0, 255), "magenta", "Fehler", "error"),
    ((0, 0, 0), "off", "aus", "off"),
])
def test_status_names(rgb, name, de, en):
    f = ledframe.frame_from((0, 0, 0), status=rgb)
    status = ledframe.decode(f)["status"]
    assert ledframe.status_name(status) == name
    assert de in " ".join(render.status_text(status, "de"))
    assert en in " ".join(render.status_text(status, "en"))
    assert de in render.faces_text(f, "de").splitlines()[-1]
    assert en in render.faces_text(f, "en").splitlines()[-1]


def test_faces_text_draws_grids_and_marks_dice_set_aside():
    f = ledframe.frame_from((5, 2, 0), ("aside", "cup", "cup"), (0, 255, 255))
    lines = render.faces_text(f, "de").splitlines()
    assert lines[0] == "┌───────┐ ┌───────┐ ┌───────┐"
    assert lines[1] == "│ ●   ● │ │ ●   · │ │ ·   · │"
    assert lines[2] == "│ · ● · │ │ · · · │ │ · · · │"
    assert lines[3] == "│ ●   ● │ │ ·   ● │ │ ·   · │"
    assert lines[5].split() == ["5", "2", "-"]
    assert "beiseite" in lines[6] and "im Becher" in lines[6]
    assert lines[6].index("beiseite") < lines[6].index("im Becher")
    assert "aside" in render.faces_text(f, "en")
    marked = render.faces_text(f, "de", markup=True)
    assert "[bold #ff8000]●[/]" in marked and "[bold #ffffff]●[/]" in marked


# --- render: frames of a real emulated cup --------------------------------------------------------------
def _status_shown(cup):
    return ledframe.status_name(ledframe.decode(cup.cup.last_frame)["status"])


@needs_mp
def test_decode_real_frames():
    from kits.cupkit import CupDriver

    cup = CupDriver()
    try:
        cup.settle(0.3)
        assert _status_shown(cup) == "dim"  # alone, limit 3
        cup.start()
        cup.settle(0.2)
        assert _status_shown(cup) == "blue"  # hosted, waiting
        cup.request(t="turn", round=1, limit=None)
        cup.throw(1, 4, 2)
        cup.settle()
        info = ledframe.decode(cup.cup.last_frame)
        assert info["dice"] == [0, 0, 0] and ledframe.status_name(info["status"]) == "cyan"
        cup.hold_main()
        info = ledframe.decode(cup.cup.last_frame)
        assert info["dice"] == [1, 4, 2] == cup.faces()
        assert [ledframe.die_kind(c) for c in info["colors"]] == ["cup"] * 3
        cup.release_main()
        cup.die(0)
        cup.recv("progress")
        cup.settle()
        info = ledframe.decode(cup.cup.last_frame)
        assert info["dice"] == [1, 0, 0]
        assert ledframe.die_kind(info["colors"][0]) == "aside"
        cup.stand()
        cup.settle()
        assert _status_shown(cup) == "violet"
    finally:
        cup.close()


# --- schocken cup --emulate ---------------------------------------------------------------------------
def _start_cup(*extra):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(SCHOCKEN + ["cup", "--emulate", "--long-ms", "300"] + list(extra),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, cwd=ROOT)
    first = proc.stdout.readline()
    m = re.match(r"Link: (/dev/\S+)$", first.strip())
    if not m:
        proc.kill()
        raise AssertionError("no Link line first: %r %r" % (first, proc.communicate(timeout=10)))
    return proc, m.group(1)


def _blocks(text):
    """The renderings in the output: lists of lines, each from a box top to the status line."""
    out, cur = [], None
    for line in text.splitlines():
        if line.startswith("┌"):
            cur = [line]
        elif cur is not None:
            cur.append(line)
            if line.startswith("Status:"):
                out.append(cur)
                cur = None
    return out


@needs_mp
def test_cup_scripted_alone_turn():
    proc, port = _start_cup("--lang", "en")
    try:
        # die 2 sets the limit to 2; long press starts the turn; throw; stand; reveal; quit with x while
        # standard input stays open
        proc.stdin.write("2\nenter\ndice 2 3 5\ns\nenter\nr\nx\n")
        proc.stdin.flush()
        rc = proc.wait(20)
        out = proc.stdout.read()
    finally:
        if proc.poll() is None:
            proc.kill()
    assert rc == 0, proc.stderr.read()
    blocks = _blocks(out)
    assert len(blocks) >= 4
    assert "limit 2" in "\n".join(b[-1] for b in blocks)
    last = blocks[-1]
    assert last[5].split() == ["2", "3", "5"]                 # three lit dice after the reveal
    assert last[6].split() == ["in", "cup"] * 3
    stood = [b for b in blocks if "covered" in b[-1]]
    assert stood and stood[-1][5].split() == ["-", "-", "-"]  # stood: the throw is hidden
    assert out.index("> r") < out.rindex("┌")                 # the dice appear after the reveal key


def _identity(port):
    link = serial.Serial(port, timeout=0.2)
    try:
        link.write(protocol.encode({"t": "hello", "v": protocol.VERSION}))
        lines = LineReader(link)
        end = time.time() + 5
        while time.time() < end:
            line = lines.next(end - time.time())
            if line and not hostside.is_noise(line):
                msg = protocol.decode(line, hostside.CUP_TO_HOST)
                if msg["t"] == "identity":
                    return msg
        return None
    finally:
        link.close()


@needs_mp
def test_host_opens_the_link_while_the_cup_runs():
    """Two terminal cups for one table: each answers a host's hello on its link, under an id of its own that
    is not one a `schocken play` host gives its own emulated cups (emu1, emu2, ...: a resumed game starts
    those again rather than open their ports)."""
    cups = [_start_cup(), _start_cup()]
    try:
        idents = [_identity(port) for _, port in cups]
        for ident in idents:
            assert ident and ident["v"] == protocol.VERSION and ident["board"] == "emulated"
            assert not ident["cup"].startswith("emu"), ident
        assert idents[0]["cup"] != idents[1]["cup"]
        for proc, _ in cups:
            proc.stdin.write("x\n")
            proc.stdin.flush()
            assert proc.wait(10) == 0
    finally:
        for proc, _ in cups:
            if proc.poll() is None:
                proc.kill()


def test_cup_bad_arguments():
    proc = subprocess.run(SCHOCKEN + ["cup", "--emulate", "--board", "no/such.json"], capture_output=True,
                          text=True, cwd=ROOT, stdin=subprocess.DEVNULL, timeout=20)
    assert proc.returncode == 2 and proc.stdout == "" and len(proc.stderr.splitlines()) == 1
    proc = subprocess.run(SCHOCKEN + ["cup", "--emulate", "--rules", "nope"], capture_output=True,
                          text=True, cwd=ROOT, stdin=subprocess.DEVNULL, timeout=20)
    assert proc.returncode == 2 and proc.stdout == ""


def test_board_file_must_have_the_cups_pixel_count(tmp_path):
    from schocken_host.commands.cup import board_file_problem

    board = tmp_path / "board.json"
    board.write_text('{"leds": 12, "brightness": 0.1}')
    assert "leds must be 22" in str(board_file_problem(str(board)))
    board.write_text('{"leds": 22, "brightness": 0.1}')
    assert board_file_problem(str(board)) is None


def test_key_table():
    from schocken_host.views.keyboard import _decode_keys
    from schocken_host.views.keymap import action_for

    assert action_for("s") == ("shake",) and action_for("ENTER") == ("stand",)
    assert action_for("2") == ("tap", 1) and action_for("§") == ("long", 2) and action_for("5") == ("long", 1)
    assert action_for("\x03") == ("quit",) and action_for("q") == ("quit",) and action_for("zap") is None
    assert _decode_keys("1\x1b[A§ ".encode()) == ["1", "§", " "]


# --- schocken shake-replay ------------------------------------------------------------------------------
def test_shake_replay_verb(capsys):
    rc = cli.main(["shake-replay", str(ROOT / "tests/data/shake_accel.csv")])
    out = capsys.readouterr().out.splitlines()
    assert rc == 0 and len(out) == 1
    assert isinstance(json.loads(out[0])["t_ms"], int)


def test_shake_replay_verb_bad_file(capsys):
    rc = cli.main(["--lang", "en", "shake-replay", "no-such-trace.csv"])
    captured = capsys.readouterr()
    assert rc == 2 and captured.out == "" and "no such file" in captured.err
