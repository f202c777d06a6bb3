"""Authenticated links (docs/protocol.md "Authentication"): a cup with a secret, on real MicroPython through
the emulated cup's serial link, accepts only lines signed with the session key and a new counter; the host
accepts only cups it paired and only signed, fresh lines from them."""

import asyncio
import json
import os
import secrets
import subprocess
import sys

import pytest

from kits.cupkit import CupDriver
from kits.tablekit import SCALED
from schocken import fair
from schocken import protocol
from schocken import hostside
from schocken_host.emulation.emulator import EmulatedCup
from schocken_host.provision.build import find_tool
from schocken_host.links.serial import SerialLink
from schocken_host.links.transport import TransportClosed, hello
from schocken_host.links.keys import keystore

pytestmark = pytest.mark.skipif(find_tool("micropython") is None, reason="needs the MicroPython unix port")

SECRET = "00112233445566778899aabbccddeeff"
RULES = {"preset": "standard", "options": {}}


class Host:
    """The host's half of a session written out by hand, to sign, forge and replay lines on the raw link."""

    def __init__(self, drv, secret=SECRET):
        self.drv = drv
        self.secret = secret
        self.key = None
        self.c = 0
        self.rx = 0

    def handshake(self):
        host_nonce = secrets.token_hex(16)
        self.drv.inbox = []
        self.drv.send(t="hello", v=protocol.VERSION, nonce=host_nonce)
        line = self._line("identity")
        ident = json.loads(line)
        assert ident["cup"] == self.drv.cup.cup_id and ident["nonce"]
        self.key = fair.session_key(bytes.fromhex(self.secret), host_nonce, ident["nonce"])
        fair.verify(self.key, line)  # the identity is signed with the session key
        self.c, self.rx = 0, ident["c"]
        return ident

    def line(self, key=None, c=None, **msg):
        """A signed line (with newline); by default the next counter and the session key."""
        if c is None:
            self.c += 1
            c = self.c
        msg["c"] = c
        return fair.sign(key or self.key, json.dumps(msg).encode()) + b"\n"

    def _line(self, kind, timeout=5.0):
        """The next raw line of type ``kind`` from the cup (others are dropped)."""
        while True:
            raw = self.drv.lines.next(timeout)
            assert raw, "no %s line" % kind
            if hostside.is_noise(raw):
                continue
            raw = raw.rstrip()
            if json.loads(raw)["t"] == kind:
                return raw

    def reply(self, kind):
        """The next ``kind`` message; it must verify and carry a higher counter."""
        raw = self._line(kind)
        msg = json.loads(fair.verify(self.key, raw))
        assert msg["c"] > self.rx
        self.rx = msg["c"]
        return msg

    def refused(self):
        raw = self._line("error")
        msg = json.loads(raw)
        assert msg["code"] == protocol.E_AUTH and "mac" not in msg, msg  # the refusal itself is unsigned
        return msg

    def status(self):
        self.drv.send_raw(self.line(t="status"))
        return self.reply("status")


@pytest.fixture
def drv():
    d = CupDriver(secret=SECRET)
    yield d
    d.close()


def test_cup_accepts_only_signed_fresh_lines(drv):
    host = Host(drv)
    # Without a session, nothing but hello: an unsigned command is refused and changes nothing.
    drv.send(t="configure", rules=RULES, name="Mallory", seat=5)
    host.refused()
    # A hello without a nonce: the public identity, no session.
    drv.send(t="hello", v=protocol.VERSION)
    assert "nonce" not in drv.recv("identity")
    drv.send(t="configure", rules=RULES, name="Mallory", seat=5)
    host.refused()

    host.handshake()
    good = host.line(t="configure", rules=RULES, name="Anna", seat=1)
    drv.send_raw(good)
    assert host.reply("ok")["re"] == "configure"
    assert host.status()["name"] == "Anna"

    # Forged: signed with a wrong key; tampered: a valid line with a changed field; unsigned in a session.
    drv.send_raw(host.line(key=b"k" * 32, t="configure", rules=RULES, name="Mallory", seat=5))
    host.refused()
    tampered = host.line(t="configure", rules=RULES, name="Berta", seat=2).replace(b"Berta", b"Bertx")
    drv.send_raw(tampered)
    host.refused()
    drv.send(t="configure", rules=RULES, name="Mallory", seat=5, c=host.c + 10)
    host.refused()
    # Replayed: the same line again, and a new line with a counter already used.
    drv.send_raw(good)
    host.refused()
    drv.send_raw(host.line(c=1, t="configure", rules=RULES, name="Mallory", seat=5))
    host.refused()
    st = host.status()
    assert (st["name"], st["seat"]) == ("Anna", 1)   # nothing changed

    # A new hello offers a new session; the first line signed under it makes it the session, and from then on
    # a line of the old one, with a counter never used, no longer verifies.
    old = host.line(c=host.c + 5, t="configure", rules=RULES, name="Mallory", seat=5)
    host.handshake()
    st = host.status()
    assert (st["name"], st["seat"]) == ("Anna", 1)
    drv.send_raw(old)
    host.refused()
    st = host.status()
    assert (st["name"], st["seat"]) == ("Anna", 1)


def test_a_hello_from_somebody_else_does_not_end_the_hosts_session(drv):
    """Anybody on the link may send a hello with a nonce; the cup answers it with an identity signed under a
    key that needs the secret, but keeps the present host's session until a line signed under the new key
    comes."""
    host = Host(drv)
    host.handshake()
    drv.send_raw(host.line(t="configure", rules=RULES, name="Anna", seat=1))
    assert host.reply("ok")["re"] == "configure"
    drv.send(t="hello", v=protocol.VERSION, nonce="cd" * 16)   # Mallory's hello, unsigned as every hello
    assert drv.recv("identity")["nonce"]                       # an offer only Mallory's host could take
    drv.send(t="configure", rules=RULES, name="Mallory", seat=5)
    host.refused()
    st = host.status()                                         # the host's session goes on, counters and all
    assert (st["name"], st["seat"]) == ("Anna", 1)


def test_cup_without_secret_is_unchanged():
    d = CupDriver()
    try:
        d.send(t="hello", v=protocol.VERSION, nonce="ab" * 16)
        ident = d.recv("identity")
        assert "nonce" not in ident and "mac" not in ident and "c" not in ident
        d.request(t="configure", rules=RULES, name="Anna", seat=0)
    finally:
        d.close()


def _run(coro):
    return asyncio.run(asyncio.wait_for(coro, 20))


def test_host_session_and_rejections():
    cup = EmulatedCup("auth-h1", secret=SECRET)
    plain = EmulatedCup("auth-h2")
    try:
        async def main():
            # an unknown cup (a secret the host does not have) is refused
            t = SerialLink(cup.port)
            await t.open()
            with pytest.raises(TransportClosed, match="unknown cup auth-h1: not paired"):
                await hello(t, keys={})
            # a cup that answers unsigned for a cup id the host paired is refused too
            u = SerialLink(plain.port)
            await u.open()
            with pytest.raises(TransportClosed, match="unauthenticated"):
                await hello(u, keys={"auth-h2": SECRET})
            u.close()
            # the default keystore knows the emulated cup: a session
            assert keystore()["auth-h1"] == SECRET
            ident = await hello(t)
            assert ident["nonce"] and t.session is not None
            await t.send({"t": "status"})
            st = await t.recv(2)
            assert st["t"] == "status" and "mac" not in st and "c" not in st
            replay = t.last_raw
            # forged by somebody on the cup's side of the link: wrong key, tampered, unsigned, replayed
            forged = fair.sign(b"x" * 32, json.dumps({"t": "done", "round": 1, "throws": 1,
                                                    "commit": "ab" * 32, "c": 99}).encode())
            tampered = replay.replace(b'"idle"', b'"done"')
            for line in (forged, tampered, b'{"t": "ok", "re": "turn"}', replay):
                os.write(cup._link_master, line + b"\n")
                got = await t.recv(2)
                assert got["t"] == "garbage" and got["code"] == protocol.E_AUTH, (line, got)
            # the session goes on: the real cup's next message still verifies
            await t.send({"t": "configure", "rules": RULES, "name": "Anna", "seat": 0})
            assert (await t.recv(2)) == {"t": "ok", "re": "configure", "name": "Anna", "seat": 0}
            # a new hello: the old session's counters and key are gone
            await hello(t)
            await t.send({"t": "status"})
            assert (await t.recv(2))["name"] == "Anna"
            t.close()
        _run(main())
    finally:
        cup.close()
        plain.close()
    assert "auth-h1" not in keystore() or keystore()["auth-h1"] != SECRET  # unregistered on close


def test_authenticated_game_ends(tmp_path):
    env = dict(os.environ, SCHOCKEN_LOG_DIR=str(tmp_path), SCHOCKEN_DATA_DIR=str(tmp_path / "data"))
    proc = subprocess.run([sys.executable, "-m", "schocken_host.cli", "--lang", "en", "play", "--emulate",
                           "3", "--plain", "--strategy", "fast", "--set", "deckel_total=3"] + SCALED,
                          capture_output=True,
                          text=True, timeout=120, env=env, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    out = proc.stdout.lower()
    assert "game over" in out or "lost" in out, proc.stdout[-1000:]
    assert "unsinn" not in out and "nonsense" not in out   # no line was flagged
    logs = list(tmp_path.glob("*.jsonl"))
    assert len(logs) == 1
    evs = [json.loads(x) for x in logs[0].read_text().splitlines() if x.strip()]
    assert [e for e in evs if e["ev"] == "game_over"]
    assert not [e for e in evs if e["ev"] in ("cheat", "pause") or e.get("reason") == "cheat"]
