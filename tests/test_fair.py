"""schocken.fair: HMAC, provably fair dice, signed messages; the same results on CPython and MicroPython."""

import hashlib
import hmac
import json
import os
import subprocess

import pytest
from hypothesis import given, settings, strategies as st

from schocken import RuleError
from schocken import fair

from conftest import ROOT, micropython_path, mp_env


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=100), st.binary(max_size=300))
def test_hmac_matches_the_standard_library(key, msg):
    assert fair.hmac_sha256(key, msg) == hmac.new(key, msg, hashlib.sha256).digest()


def test_dice_are_uniform_and_depend_on_both_sides():
    seed = os.urandom(32)
    counts = [0] * 6
    for k in range(3000):
        for d in fair.derive_dice(seed, "%032x" % k, 1, 1, 3):
            counts[d - 1] += 1
    n = sum(counts)
    chi2 = sum((c - n / 6) ** 2 / (n / 6) for c in counts)
    assert chi2 < 25.7, counts  # 5 degrees of freedom, p = 0.0001
    a = fair.derive_dice(seed, "00" * 16, 7, 2, 3)
    assert a == fair.derive_dice(seed, "00" * 16, 7, 2, 3)
    others = {tuple(fair.derive_dice(seed, "%032x" % k, 7, 2, 3)) for k in range(40)}
    assert len(others) > 20, "the host's nonce must change the dice"
    seeds = {tuple(fair.derive_dice(os.urandom(32), "00" * 16, 7, 2, 3)) for _ in range(40)}
    assert len(seeds) > 20, "the cup's seed must change the dice"


def test_check_dice_catches_a_chosen_throw():
    seed = os.urandom(32)
    nonces = {1: "aa" * 16, 2: "bb" * 16}
    t1 = fair.derive_dice(seed, nonces[1], 5, 1, 3)
    t2 = fair.derive_dice(seed, nonces[2], 5, 2, 2)
    transcript = [["roll", t1], ["aside", 0], ["roll", t2], ["stand"]]
    assert fair.check_dice(seed.hex(), fair.seed_commitment(seed), nonces, 5, transcript) == 2
    chosen = [["roll", t1], ["aside", 0], ["roll", [1, 1]], ["stand"]]
    if t2 != [1, 1]:
        with pytest.raises(RuleError, match="throw 2"):
            fair.check_dice(seed.hex(), fair.seed_commitment(seed), nonces, 5, chosen)
    with pytest.raises(RuleError, match="seed"):
        fair.check_dice(os.urandom(32).hex(), fair.seed_commitment(seed), nonces, 5, transcript)
    with pytest.raises(RuleError, match="nonce"):
        fair.check_dice(seed.hex(), fair.seed_commitment(seed), {1: nonces[1]}, 5, transcript)


def test_signed_messages():
    key = fair.session_key(b"cup secret", "h" * 8, "c" * 8)
    body = json.dumps({"t": "done", "round": 3, "c": 9}).encode()
    line = fair.sign(key, body)
    assert fair.verify(key, line) == body
    for forged in (line.replace(b'"round": 3', b'"round": 4'), line[:-3] + b'0"}', body,
                   fair.sign(fair.session_key(b"other", "h" * 8, "c" * 8), body)):
        with pytest.raises(RuleError):
            fair.verify(key, forged)
    old = fair.session_key(b"cup secret", "h" * 8, "old cup nonce")
    with pytest.raises(RuleError):
        fair.verify(key, fair.sign(old, body))  # replayed from an earlier session


UNHEX_BAD = ("abc", "zz", "0g", "+1", " 1", "\u00e9\u00e9", b"0", None, 12, ["ab"])


def test_unhex_takes_hex_strings_and_bytes_only():
    assert fair.unhex("00ff10Ab") == b"\x00\xff\x10\xab" == fair.unhex(b"00ff10ab")
    assert fair.unhex(bytearray(b"7f")) == b"\x7f" and fair.unhex("") == b""
    for bad in UNHEX_BAD:
        with pytest.raises(RuleError, match="not a hex string"):
            fair.unhex(bad)


SCRIPT = """
from schocken import RuleError, fair
import json
seed = bytes(range(32))
bad = []
for x in UNHEX_BAD:
    try:
        fair.unhex(x)
    except RuleError as e:
        bad.append(str(e))
key = fair.session_key(b"s", "a", "b")
signed = fair.sign(key, b'{"t": "ok", "c": 1}')
forged = []
for line in (signed, signed[:-3] + b'0"}', signed.replace(b'"c": 1', b'"c": 2'), signed[:-10]):
    try:
        fair.check(key, memoryview(line))
        forged.append("ok")
    except RuleError as e:
        forged.append(str(e))
out = {"hmac": fair._hex(fair.hmac_sha256(b"k" * 70, b"message")),
       "unhex": [list(fair.unhex("00ff10Ab")), list(fair.unhex(b"7f"))], "bad": bad, "forged": forged,
       "dice": [fair.derive_dice(seed, "%032x" % k, 2, 1, 3) for k in range(20)],
       "commit": fair.seed_commitment(seed),
       "signed": signed.decode()}
print(json.dumps(out))
""".replace("UNHEX_BAD", repr(UNHEX_BAD))


@pytest.mark.skipif(micropython_path() is None, reason="needs the micropython unix port")
def test_same_results_on_micropython(tmp_path):
    script = tmp_path / "fair_mp.py"
    script.write_text(SCRIPT)
    proc = subprocess.run([micropython_path(), "-X", "heapsize=64k", str(script)], capture_output=True,
                          text=True, env=mp_env(ROOT / "firmware" / "lib"), timeout=60)
    got = json.loads(proc.stdout)
    ns = {}
    exec(SCRIPT.replace("print(json.dumps(out))", ""), ns)
    assert got == json.loads(json.dumps(ns["out"]))
