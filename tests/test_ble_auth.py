"""Authenticated cups over BLE (issue 7 on the transport of issue 6), end to end on bumble's virtual link: the
unchanged cup app with a secret on the firmware's BLE link (boards/ble.py on tests/kits/aioble_shim.py), the
host's bumble link and ``hello`` with the keystore of a deployed cup (cups.json in a temporary data dir).

"Messages carry a MAC and a counter; the host rejects a message that is forged, replayed or from an unknown
cup, and a cup rejects commands not from its host. Over BLE, a phone nearby cannot impersonate a cup or reveal
another cup's throw."

The cup serves one central at a time and does not advertise while it has one (boards/ble.py), so a phone can
neither see nor reach a cup its host is connected to; it gets the cup's connection only while no host holds
it, and then it meets a cup that refuses everything but ``hello``.
"""

import asyncio
import json

import pytest

from kits import blekit
from kits.blekit import expect, run
from cup.buttons import LONG, MAIN
from schocken import fair
from schocken import protocol
from schocken import hostside
from schocken.bleformat import payload_size
from schocken.rules import Rules
from schocken_host.links.keys import save_cup
from schocken_host.links.transport import TransportClosed, hello

SECRET = "00112233445566778899aabbccddeeff"
OTHER = "ffeeddccbbaa99887766554433221100"        # a secret the host does not know
RULES = {"preset": "standard", "options": {}}
GUESSED = fair.session_key(b"\x00" * 16, "00", "00")  # a key somebody without the secret might try


@pytest.fixture
def paired(tmp_path, monkeypatch):
    """The host deployed cup ble1 with SECRET: its keystore (cups.json) holds that secret and no other."""
    monkeypatch.setenv("SCHOCKEN_DATA_DIR", str(tmp_path))
    save_cup("ble1", {"secret": SECRET})


def sniff(t):
    """Records every line the host's transport writes, as anybody in radio range could."""
    lines = []
    encode = t._encode

    def recording(msg):
        data = encode(msg)
        lines.append(data)
        return data
    t._encode = recording
    return lines


def forged(msg, c, key=GUESSED):
    """A line signed with a key that is not the session's (with newline)."""
    return fair.sign(key, json.dumps(dict(msg, c=c)).encode()) + b"\n"


async def recorded_session(table, name, seat):
    """The host's session with cup 0, every line it writes recorded (as a phone in range could): the transport
    after hello and configure, and the list of recorded lines."""
    t = table.transport(0)
    sent = sniff(t)
    await t.open()
    await hello(t)
    await configure(t, name, seat)
    return t, sent


async def refused(p, line, why):
    """The phone writes ``line``: the cup answers with an unsigned auth error that says ``why``, nothing
    else."""
    await p.send_bytes(line)
    got = await p.recv(2)
    assert got["t"] == "error" and got["code"] == protocol.E_AUTH and why in got["msg"], (line, got)
    assert "mac" not in got and "c" not in got                           # refusals are unsigned


async def configure(t, name, seat):
    await t.send({"t": "configure", "rules": RULES, "name": name, "seat": seat})
    return await expect(t, "ok")


async def play_turn(t, rig, round_id):
    """The host's turn for the round, the player shakes once and stands: the cup's ``done``."""
    await t.send({"t": "turn", "round": round_id, "limit": None})
    assert (await expect(t, "ok"))["re"] == "turn"
    rig.cup.on_shake()
    await expect(t, "progress")
    rig.cup.on_button(MAIN, LONG, True)
    return await expect(t, "done")


async def finish_round(t, done):
    """round_end, reveal (checked against the commitment), outcome: the cup is idle again."""
    await t.send({"t": "round_end", "round": done["round"]})
    assert (await expect(t, "ok"))["re"] == "round_end"
    await t.send({"t": "reveal", "round": done["round"]})
    rev = await expect(t, "revealed")
    hostside.check_reveal(Rules("standard"), None, done["commit"], rev, done["round"])
    await t.send({"t": "outcome", "round": done["round"], "result": "won", "deckel": 0, "middle": 13})
    assert (await expect(t, "ok"))["re"] == "outcome"
    return rev


async def advertised(table, cup_id="ble1"):
    """What a scanner sees of the cup now (it advertises again within a few intervals of a disconnection)."""
    await asyncio.sleep(0.1)
    return {f["cup"]: f for f in await table.central.scan(0.15)}[cup_id]


def test_authenticated_cup_plays_over_ble(paired):
    async def go():
        table = blekit.Table(1, secrets=[SECRET])
        await table.start()
        rig = table.cups[0]
        try:
            t = table.transport(0)
            await t.open()
            ident = await hello(t)                       # the keystore holds ble1's secret: a session
            assert ident["cup"] == "ble1" and ident["nonce"] and t.session is not None
            assert rig.app.session.key == t.session.key
            ok = await configure(t, "Anna", 1)
            assert ok == {"t": "ok", "re": "configure", "name": "Anna", "seat": 1}
            assert b',"mac":"' in t.last_raw                # signed on the air, verified by the transport
            done = await play_turn(t, rig, 1)
            rev = await finish_round(t, done)
            assert rev["dice"] == rig.cup.turn.dice() and rig.cup.state == "idle"
            # configure, turn, round_end, reveal, outcome: every one signed and accepted in order; the cup's
            # eight messages (identity, 3 ok, progress, done, revealed, ok) all verified on the host
            assert rig.app.session.rx_c == t.session.sent == 5
            assert t.session.received == rig.app.session.tx_c == 8
        finally:
            await table.close()
    run(go())


def test_host_rejects_forged_and_replayed_notifications(paired):
    """Lines on the cup's TX characteristic that the cup's session did not sign: the transport hands them out
    as garbage (code auth), so the referee flags the seat; the session goes on."""
    async def go():
        table = blekit.Table(1, secrets=[SECRET])
        await table.start()
        rig = table.cups[0]
        try:
            t = table.transport(0)
            await t.open()
            await hello(t)
            await t.send({"t": "status"})
            assert (await t.recv(2))["state"] == "idle"
            captured = t.last_raw
            fake = forged({"t": "done", "round": 1, "throws": 1, "commit": "ab" * 32}, 99).rstrip()
            for line in (fake, captured.replace(b'"idle"', b'"done"'), b'{"t": "ok", "re": "turn"}',
                         captured):
                await rig.say(line + b"\n")
                got = await t.recv(2)
                assert got["t"] == "garbage" and got["code"] == protocol.E_AUTH, (line, got)
            assert (await configure(t, "Anna", 0))["name"] == "Anna"   # the real cup's next line verifies
        finally:
            await table.close()
    run(go())


def test_phone_without_the_secret_cannot_command_the_cup(paired):
    """The host plays a round, starts the next and leaves while the throw is hidden. A phone connects and
    tries unsigned, forged, tampered and replayed (sniffed) commands: every one is refused with an unsigned
    auth error, the cup's state, session and advertisement stay as they were, and the host comes back to the
    same throw."""
    async def go():
        table = blekit.Table(1, names=["Anna"], secrets=[SECRET])
        await table.start()
        rig = table.cups[0]
        try:
            t, sent = await recorded_session(table, "Anna", 1)
            await finish_round(t, await play_turn(t, rig, 1))
            await configure(t, "Bea", 2)
            done = await play_turn(t, rig, 2)
            await t.aclose()
            before = (rig.cup.snapshot(), rig.app.session.key, rig.app.session.rx_c)
            sniffed = [line for line in sent if json.loads(line)["t"] != "hello"]   # the signed ones

            phone = await table.phone()
            p = table.transport(0, via=phone)
            await p.open()                                # nobody else is connected: the phone gets the cup
            assert rig.ble.connections == 2
            mallory = {"t": "configure", "rules": RULES, "name": "Mallory", "seat": 5}
            reveal = [i for i, line in enumerate(sniffed) if b'"reveal"' in line][0]
            attacks = [
                (protocol.encode(mallory), "not signed"),                                    # unsigned
                (forged(mallory, 1000), "not signed"),                                # a guessed key
                (protocol.encode({"t": "round_end", "round": 2}), "not signed"),  # arm the reveal button
                (protocol.encode({"t": "reveal", "round": 2}), "not signed"),  # uncover the hidden throw
                (forged({"t": "reveal", "round": 2}, 1001), "not signed"),
                (sniffed[reveal].replace(b'"round": 1', b'"round": 2'), "not signed"),  # tampered host line
                (protocol.encode({"t": "status"}), "not signed"),
            ] + [(line, "replayed") for line in sniffed]                              # the host's own lines
            assert [json.loads(x)["t"] for x in sniffed] == ["configure", "turn", "round_end", "reveal",
                                                             "outcome", "configure", "turn"]
            for line, why in attacks:
                await refused(p, line, why)
            with pytest.raises(asyncio.TimeoutError):
                await p.recv(0.2)                         # nothing else: no revealed, no status, no ok
            assert (rig.cup.snapshot(), rig.app.session.key, rig.app.session.rx_c) == before
            # a hello without nonce is answered with the public identity (no nonce: no new session); while
            # the host's session lasts the cup signs it in that session, which gives the phone nothing to use
            await p.send({"t": "hello", "v": protocol.VERSION})
            ident = await expect(p, "identity")
            assert "nonce" not in ident and ident["name"] == "Bea"
            assert (rig.cup.snapshot(), rig.app.session.key, rig.app.session.rx_c) == before
            await p.aclose()

            ad = await advertised(table)
            assert (ad["name"], ad["seat"], ad["state"]) == ("Bea", 2, "done")
            await t.open()                                # the host comes back: a new session, the same throw
            await hello(t)
            await t.send({"t": "status"})
            st = await expect(t, "status")
            again = await expect(t, "done")
            assert (st["state"], st["name"], st["seat"]) == ("done", "Bea", 2) and again == done
            await t.send({"t": "reveal", "round": 2})
            hostside.check_reveal(Rules("standard"), None, done["commit"], await expect(t, "revealed"), 2)
        finally:
            await table.close()
    run(go())


def test_phone_hello_neither_ends_the_session_nor_gains_a_command(paired):
    """A phone's hello with a nonce only offers the cup a new session, under a key the phone cannot derive:
    the host's session stays, the phone's commands are refused, the host's recorded lines are replays, the
    hidden throw is untouched, and the host's next hello and first signed line take over the offered
    session."""
    async def go():
        table = blekit.Table(1, secrets=[SECRET])
        await table.start()
        rig = table.cups[0]
        try:
            t, sent = await recorded_session(table, "Anna", 1)
            done = await play_turn(t, rig, 1)
            sniffed = [line for line in sent if json.loads(line)["t"] != "hello"]
            await t.aclose()
            state, host_key = rig.cup.snapshot(), rig.app.session.key

            phone = await table.phone()
            p = table.transport(0, via=phone)
            await p.open()
            await p.send({"t": "hello", "v": protocol.VERSION, "nonce": "ab" * 16})
            ident = await expect(p, "identity")
            assert ident["nonce"] and "mac" in ident          # signed under a key made with the secret
            rx_c = rig.app.session.rx_c
            assert (rig.app.session.key == host_key
                    and rig.app.session.offer is not None)   # offered, not taken
            guessed = fair.session_key(b"", "ab" * 16, ident["nonce"])   # both nonces, a guessed secret
            attempts = [forged({"t": "reveal", "round": 1}, 1),
                        forged({"t": "round_end", "round": 1}, 2, guessed)]
            for line in attempts:
                await refused(p, line, "not signed by the host")
            # The host's session is still on: its lines are replays.
            for line in sniffed:
                await refused(p, line, "replayed")
            assert (rig.cup.snapshot() == state and rig.app.session.key == host_key
                    and rig.app.session.rx_c == rx_c)
            await p.aclose()

            await t.open()
            await hello(t)
            await t.send({"t": "reveal", "round": 1})
            hostside.check_reveal(Rules("standard"), None, done["commit"], await expect(t, "revealed"), 1)
        finally:
            await table.close()
    run(go())


def test_one_central_at_a_time(paired):
    """While the host is connected the cup does not advertise: a phone neither finds it nor connects to its
    address, and the host's session does not notice. When the host leaves, the cup advertises again."""
    async def go():
        table = blekit.Table(1, secrets=[SECRET])
        await table.start()
        rig = table.cups[0]
        try:
            phone = await table.phone()
            assert [f["cup"] for f in await phone.scan(0.1)] == ["ble1"]   # the phone learns the address
            t = table.transport(0)
            await t.open()
            await hello(t)
            assert rig.stack.advertising is False
            assert await phone.scan(0.15) == []
            assert await blekit.try_connect(phone, rig.address) is None
            p = table.transport(0, via=phone, attempts=1, connect_timeout=0.4)
            with pytest.raises(TransportClosed, match="not advertising"):
                await p.open()
            assert rig.ble.connections == 1 and len(rig.stack.connections) == 1
            await t.send({"t": "status"})
            assert (await expect(t, "status"))["state"] == "idle" and rig.app.session.rx_c == 1
            await t.aclose()
            p = table.transport(0, via=phone)
            await p.open()                                # now the phone gets it, and is refused
            await p.send({"t": "status"})
            assert (await p.recv(2))["code"] == protocol.E_AUTH
            assert rig.ble.connections == 2
        finally:
            await table.close()
    run(go())


def test_host_refuses_a_cup_impersonating_a_paired_one(paired):
    """Two peripherals call themselves ble1: one without a secret (answers unsigned), one with a secret of its
    own (signs, but under the wrong key). The host refuses both with a clear error and no session; the real
    ble1 on the same link is accepted."""
    async def go():
        table = blekit.Table(1, secrets=[SECRET])
        await table.start()
        try:
            plain = await table.add_cup(cup_id="ble1", name="Anna")
            other = await table.add_cup(cup_id="ble1", secret=OTHER)
            for rig, why in [(plain, "ble1 answers unauthenticated, but it is paired"),
                             (other, "ble1: identity not authentic: message MAC does not verify")]:
                t = table.transport(rig.index, address=True)
                await t.open()
                with pytest.raises(TransportClosed, match=why):
                    await hello(t)
                assert t.session is None
                await t.aclose()
            t = table.transport(0, address=True)
            await t.open()
            assert (await hello(t))["nonce"] and t.session is not None
        finally:
            await table.close()
    run(go())


def test_host_refuses_an_unknown_cup(paired):
    """A cup with a secret the host does not have: hello fails ("not paired"), and the cup refuses the host's
    unsigned commands. A cup without a secret that the host never paired is accepted unauthenticated."""
    async def go():
        table = blekit.Table(2, secrets=[SECRET, OTHER])   # ble2: a secret the host never got
        await table.start()
        try:
            t = table.transport(1)
            await t.open()
            with pytest.raises(TransportClosed, match="unknown cup ble2: not paired"):
                await hello(t)
            assert t.session is None
            await t.send({"t": "configure", "rules": RULES, "name": "Anna", "seat": 0})
            assert (await t.recv(2))["code"] == protocol.E_AUTH and table.cups[1].cup.hosted is False
            plain = await table.add_cup(cup_id="plain")  # no secret, never deployed: an open cup
            u = table.transport(plain.index)
            await u.open()
            assert (await hello(u))["cup"] == "plain" and u.session is None
        finally:
            await table.close()
    run(go())


@pytest.mark.parametrize("secret", [SECRET, None], ids=["forged", "refused-by-the-rules"])
def test_advertisement_follows_only_what_the_cup_accepted(paired, secret):
    """A genuine configure and, in the same write (before the cup's ok), one the cup refuses: forged (no MAC),
    or with a name longer than the protocol allows. The advertisement must show the configure the cup
    accepted, not the last one that went past on the link."""
    async def go():
        table = blekit.Table(1, names=["Anna"], secrets=[secret])
        await table.start()
        try:
            t = table.transport(0)
            await t.open()
            await hello(t, keys=None if secret else {})
            genuine = t._encode({"t": "configure", "rules": RULES, "name": "Bea", "seat": 2})
            name = "Mallory" if secret else "M" * (protocol.MAX_NAME + 1)
            refused = protocol.encode({"t": "configure", "rules": RULES, "name": name, "seat": 5})
            assert len(genuine + refused) <= payload_size(t.mtu)          # one ATT write
            await t.send_bytes(genuine + refused)
            assert (await expect(t, "ok"))["re"] == "configure"
            # the refusal: an unsigned auth error (garbage to a host in a session), or bad_message
            got = await expect(t, "garbage" if secret else "error")
            assert got["code"] == (protocol.E_AUTH if secret else protocol.E_BAD_MESSAGE)
            await asyncio.sleep(0.05)
            assert table.cups[0].ble.tracker.name == "Bea"
            await t.aclose()
            ad = await advertised(table)
            assert (ad["name"], ad["seat"]) == ("Bea", 2)
        finally:
            await table.close()
    run(go())
