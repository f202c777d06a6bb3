"""Cups over Bluetooth Low Energy (issue 6), without Bluetooth hardware.

- The format (schocken/bleformat.py, shared by cup and host): fragments, reassembly, the advertisement; the
  same answers on the MicroPython unix port; the cup's state tracker (cup/blelink.py).
- The firmware's real BLE link (boards/ble.py) on an aioble shim over Google's bumble stack, with the host's
  bumble link on the same virtual link (tests/kits/blekit.py): messages larger than the MTU, a link
  dropped mid round, eight cups at once, garbage written to the characteristic; a full refereed game with
  four cups: tests/test_ble_game.py.
- The bleak backend with a fake bleak client and scanner, and ``schocken scan``: tests/test_ble_bleak.py.
"""

import asyncio
import json
import random
import subprocess

import pytest

from kits import blekit  # noqa: F401  (puts firmware/ on sys.path)
from cup.blelink import Tracker
from cup.buttons import LONG, MAIN, RELEASE
from schocken import bleformat
from schocken import fair
from schocken import protocol
from schocken import hostside
from schocken.rules import Rules
from schocken_host.links import ble
from schocken_host.links.transport import TransportClosed, hello

from conftest import micropython_path, mp_env

REPO = blekit.REPO
run = blekit.run
_expect = blekit.expect


# --- the format -------------------------------------------------------------------------------------------

def test_fragments_follow_the_mtu_and_reassemble():
    line = protocol.encode({"t": "hello", "v": 1, "pad": "x" * 700})
    for mtu in (None, 23, 100, 247, 517):
        parts = bleformat.fragments(line, mtu)
        size = (mtu or 23) - 3
        assert all(0 < len(p) <= size for p in parts) and b"".join(parts) == line
        r = bleformat.Reassembler()
        lines = []
        for p in parts:
            lines += r.feed(p)
        assert lines == [line[:-1]]
    assert bleformat.payload_size(5) == 20  # below the minimum ATT MTU: the minimum


def test_reassembler_resets_between_connections_and_limits_lines():
    r = bleformat.Reassembler()
    assert r.feed(b'{"t": "sta') == [] and r.pending() == 10
    r.reset()  # the link dropped: the half line must not run into the next connection's first line
    assert r.feed(b'{"t": "status"}\n') == [b'{"t": "status"}']
    assert r.feed(b"x" * 3000) == [None] and r.feed(b"\n{}\n") == [b"{}"]


def test_advertisement_round_trip_and_sizes():
    adv, resp = bleformat.advertising_data("done", 7, 2, 3912, "cup-7", "Anna")
    assert len(adv) <= bleformat.ADV_MAX and len(resp) <= bleformat.ADV_MAX
    got = bleformat.decode_advertisement(adv + resp)
    assert got == {"state": "done", "seq": 7, "seat": 2, "battery": 3900, "cup": "cup-7", "name": "Anna",
                   "truncated": False, "adv_name": "Anna"}
    assert bleformat.decode_advertisement(adv)["name"] == "Anna"       # passive scan: the name, no payload
    assert bleformat.decode_advertisement(resp) is None                # no service UUID: not ours


@pytest.mark.parametrize("cup_id, name", [("c" * 24, "n" * 24), ("cup-1", "Jürgen Müller-Lüdenscheid"),
                                          ("cup-1", ""), ("ü" * 12, "x")])
def test_long_names_are_cut_on_character_boundaries(cup_id, name):
    adv, resp = bleformat.advertising_data("turn", 300, None, None, cup_id, name)
    assert len(adv) <= bleformat.ADV_MAX and len(resp) <= bleformat.ADV_MAX
    got = bleformat.decode_advertisement(adv + resp)
    assert got["seq"] == 300 & 0xFF and got["seat"] is None and got["battery"] is None
    assert cup_id.startswith(got["cup"]) and name.startswith(got["name"])
    assert got["truncated"] == (got["cup"] != cup_id or got["name"] != name)
    assert got["adv_name"] and (name or cup_id).startswith(got["adv_name"])


def test_payload_round_trip_and_refusals():
    """The payload the cup encodes is what the host decodes (one module serves both)."""
    assert ble.decode_payload is bleformat.decode_payload
    rnd = random.Random(1)
    for _ in range(300):
        state = rnd.choice(["idle", "turn", "done", "reveal_ready", "revealed"])
        args = (state, rnd.randrange(1000), rnd.choice([None, 0, 5, 254]), rnd.choice([None, 0, 3700, 9000]),
                "".join(rnd.choice("aäz-1") for _ in range(rnd.randrange(1, 25))),
                "".join(rnd.choice("Bö é") for _ in range(rnd.randrange(0, 25))))
        got = bleformat.decode_payload(bleformat.encode_payload(*args))
        assert got["state"] == bleformat.STATES[bleformat.STATE_CODE[state]] and got["seq"] == args[1] & 0xFF
        assert got["seat"] == args[2]
        assert args[4].startswith(got["cup"]) and args[5].startswith(got["name"])
    for bad in (b"", b"\x10\x00", b"\x27\x00\x00\x00\x00", b"\x10\x00\x00\x00\x09ab"):
        with pytest.raises(ValueError):
            bleformat.decode_payload(bad)
        with pytest.raises(ValueError):
            bleformat.decode_payload(bad)


def test_tracker_follows_the_cup_from_its_link():
    bat = [3800]
    t = Tracker("cup-1", "Anna", battery=lambda: bat[0])
    changes = []
    t.changed = lambda: changes.append(t.seq)
    for msg, state in [({"t": "ok", "re": "configure", "name": "Bea", "seat": 3}, "idle"),
                       ({"t": "ok", "re": "turn"}, "turn"),
                       ({"t": "done", "round": 1, "throws": 1, "commit": "ab"}, "done"),
                       ({"t": "ok", "re": "round_end"}, "reveal_ready"),
                       ({"t": "done", "round": 1, "throws": 1, "commit": "ab"}, "reveal_ready"),
                       ({"t": "revealed"}, "revealed"), ({"t": "ok", "re": "outcome"}, "idle")]:
        data = protocol.encode(msg)
        t.cup_bytes(data[:5])
        t.cup_bytes(data[5:])                               # a line in two writes
        assert t.state == state, msg
    assert (t.name, t.seat) == ("Bea", 3) and changes == list(range(1, len(changes) + 1))
    t.cup_bytes(b"garbage\n\xff\xfe\n")                      # never raises
    body = json.dumps({"t": "ok", "re": "configure", "name": "Cem", "seat": 0, "c": 7}).encode()
    t.cup_bytes(fair.sign(b"k" * 32, body) + b"\n")              # in a session the cup's lines are signed
    got = bleformat.decode_advertisement(b"".join(t.advertisement()))
    assert (got["state"], got["seat"], got["name"], got["battery"]) == ("idle", 0, "Cem", 3800)


MP_SCRIPT = r"""
import json
from schocken import bleformat
out = []
for args in json.loads(input()):
    adv, resp = bleformat.advertising_data(*args)
    out.append([adv.hex(), resp.hex(), bleformat.decode_advertisement(adv + resp)])
frags = [f.hex() for f in bleformat.fragments(b"x" * 600 + b"\n", 100)]
r = bleformat.Reassembler()
lines = []
for f in bleformat.fragments(b'{"t": "status"}\n' * 30, 23):
    lines += r.feed(f)
print(json.dumps([out, frags, len(lines)]))
"""

MP_CASES = [["done", 7, 2, 3912, "cup-7", "Anna"], ["turn", 255, None, None, "c" * 24, "Jürgen Müller"],
            ["idle", 0, 0, 0, "ü" * 12, ""]]


def test_blelink_runs_on_micropython():
    mp = micropython_path()
    if mp is None:
        pytest.skip("the micropython unix port is only on Linux x86_64")
    r = subprocess.run([mp, "-X", "heapsize=64k", "-c", MP_SCRIPT], input=json.dumps(MP_CASES) + "\n",
                       capture_output=True, text=True, timeout=60,
                       env=mp_env(REPO / "firmware", REPO / "firmware" / "lib"))
    assert r.returncode == 0, r.stdout + r.stderr
    out, frags, n = json.loads(r.stdout.strip().splitlines()[-1])
    for (adv, resp, dec), args in zip(out, MP_CASES):
        a, s = bleformat.advertising_data(*args)
        assert (adv, resp) == (a.hex(), s.hex())
        assert dec == bleformat.decode_advertisement(a + s)
    assert frags == [f.hex() for f in bleformat.fragments(b"x" * 600 + b"\n", 100)] and n == 30


# --- over the virtual BLE link ------------------------------------------------------------------------------

def test_scan_lists_cups_with_name_seat_battery_state():
    async def go():
        table = blekit.Table(3, names=["Anna", "Bo", ""])
        await table.start()
        try:
            t = table.transport(1)
            await t.open()
            await hello(t)
            await t.send({"t": "configure", "rules": {"preset": "standard", "options": {}}, "name": "Bea",
                          "seat": 4})
            assert (await _expect(t, "ok"))["re"] == "configure"
            await t.aclose()
            await asyncio.sleep(0.1)  # the cup advertises again, now with its seat
            found = {f["cup"]: f for f in await table.central.scan(0.15)}
        finally:
            await table.close()
        assert sorted(found) == ["ble1", "ble2", "ble3"]
        assert ((found["ble1"]["name"], found["ble1"]["seat"], found["ble1"]["state"])
                == ("Anna", None, "idle"))
        assert (found["ble2"]["name"], found["ble2"]["seat"]) == ("Bea", 4) and found["ble2"]["seq"] >= 1
        assert found["ble3"]["name"] == "" and found["ble3"]["adv_name"] == "ble3"
        assert all(f["battery"] == 3900 and f["rssi"] is not None for f in found.values())
    run(go())


def test_messages_larger_than_the_mtu_both_ways():
    async def go():
        table = blekit.Table(1)
        await table.start()
        try:
            for mtu in (bleformat.WANT_MTU, None):  # 244 and 20 bytes per fragment
                table.central.mtu = mtu
                t = table.transport(0)
                await t.open()
                assert t.mtu == (mtu or 23)
                writes = []
                write = t.stack.write

                async def counting(chunk):
                    writes.append(len(chunk))
                    await write(chunk)
                t.stack.write = counting
                # 900 bytes to the cup (unknown fields are ignored): several writes, one message
                big = {"t": "hello", "v": protocol.VERSION, "pad": "x" * 880}
                await t.send(big)
                ident = await _expect(t, "identity")
                assert len(writes) == -(-len(protocol.encode(big)) // ((mtu or 23) - 3))
                assert max(writes) == (mtu or 23) - 3
                assert ident["cup"] == "ble1"
                # a revealed message with a long transcript, from the cup
                cup = table.cups[0].cup
                await t.send({"t": "configure", "rules": {"preset": "standard", "options": {}}, "name": "A",
                              "seat": 0})
                await t.send({"t": "turn", "round": 5, "limit": None})
                await _expect(t, "ok")
                while cup.state != "turn":
                    await asyncio.sleep(0.001)
                cup.on_shake()
                for _ in range(20):
                    cup.on_button(0, RELEASE, False)       # aside, back, aside, ...: a long transcript
                cup.on_button(0, RELEASE, False)
                cup.on_shake()
                cup.on_button(MAIN, LONG, True)
                done = await _expect(t, "done")
                await t.send({"t": "reveal", "round": 5})
                rev = await _expect(t, "revealed")
                assert len(protocol.encode(rev)) > (mtu or 23) - 3          # came in several notifications
                hostside.check_reveal(Rules("standard"), None, done["commit"], rev)
                await t.send({"t": "outcome", "round": 5, "result": "won", "deckel": 0, "middle": 0})
                await _expect(t, "ok")
                await t.aclose()
                await asyncio.sleep(0.05)
        finally:
            await table.close()
    run(go())


def test_garbage_written_to_the_characteristic():
    async def go():
        table = blekit.Table(1)
        await table.start()
        try:
            t = table.transport(0)
            await t.open()
            await t.send_bytes(b"\xff\xfe\x00garbage\n")
            assert (await _expect(t, "error"))["code"] == protocol.E_BAD_JSON
            await t.send_bytes(b"not json at all\n")
            assert (await _expect(t, "error"))["code"] == protocol.E_BAD_JSON
            await t.send_bytes(b'{"t": "launch"}\n')
            assert (await _expect(t, "error"))["code"] == protocol.E_UNKNOWN
            await t.send_bytes(bytes(random.Random(3).getrandbits(8) for _ in range(3000))
                               .replace(b"\n", b" ") + b"\n")
            assert (await _expect(t, "error"))["code"] == protocol.E_TOO_LONG
            # writes that bypass the transport: raw ATT writes of odd sizes, also an empty one
            for chunk in (b"", b"\n", b"{", b"}\n"):
                await t.stack.peer.write_value(t.stack.rx, chunk, with_response=True)
            assert (await _expect(t, "error"))["code"] == protocol.E_BAD_MESSAGE   # "{}" has no type
            ident = await hello(t)
            assert ident["cup"] == "ble1" and table.cups[0].task.done() is False
        finally:
            await table.close()
    run(go())


def test_link_dropped_mid_round_keeps_the_hidden_throw():
    async def go():
        table = blekit.Table(1)
        await table.start()
        rig = table.cups[0]
        cup = rig.cup
        try:
            t = table.transport(0)
            await t.open()
            await hello(t)
            await t.send({"t": "configure", "rules": {"preset": "standard", "options": {}}, "name": "A",
                          "seat": 1})
            await t.send({"t": "turn", "round": 3, "limit": None})
            await _expect(t, "ok")
            while cup.state != "turn":
                await asyncio.sleep(0.001)
            cup.on_shake()
            await _expect(t, "progress")
            await rig.drop()                                  # the radio link breaks mid turn
            with pytest.raises(TransportClosed):
                await _expect(t, "never")
            with pytest.raises(TransportClosed):
                await t.send({"t": "status"})
            cup.on_shake()                                    # the player goes on alone ...
            cup.on_button(MAIN, LONG, True)  # ... and stands: "done" goes nowhere
            commit, dice, transcript = cup.commit, cup.turn.dice(), list(cup.turn.transcript)
            assert cup.state == "done"
            # the advertisement says so before anybody connects
            await asyncio.sleep(0.05)
            found = await table.central.scan(0.1)
            assert found[0]["state"] == "done" and found[0]["seat"] == 1
            await t.open()                                    # the host reconnects
            assert t.reconnects == 2 and rig.ble.connections == 2
            await hello(t)
            await t.send({"t": "status"})
            status = await _expect(t, "status")
            done = await _expect(t, "done")
            assert status["state"] == "done" and done["commit"] == commit and done["round"] == 3
            await t.send({"t": "reveal", "round": 3})
            rev = await _expect(t, "revealed")
            assert rev["dice"] == dice and rev["transcript"] == transcript
            hostside.check_reveal(Rules("standard"), None, commit, rev)
        finally:
            await table.close()
    run(go())


def test_eight_cups_at_once():
    async def go():
        table = blekit.Table(8)
        await table.start()
        try:
            ts = [table.transport(i) for i in range(8)]
            await asyncio.gather(*(t.open() for t in ts))
            idents = await asyncio.gather(*(hello(t) for t in ts))
            assert [i["cup"] for i in idents] == ["ble%d" % (k + 1) for k in range(8)]
            for rnd in range(3):  # everybody talks at once, nobody hears another cup's lines
                await asyncio.gather(*(t.send({"t": "hello", "v": protocol.VERSION, "pad": "%d" % k * 400})
                                       for k, t in enumerate(ts)))
                again = await asyncio.gather(*(_expect(t, "identity") for t in ts))
                assert [i["cup"] for i in again] == [i["cup"] for i in idents]
            assert all(c.ble.connections == 1 for c in table.cups)
            assert len(table.device.connections) == 8
        finally:
            await table.close()
    run(go())
