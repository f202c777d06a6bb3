"""Issue 43: the cup counts what it spends its time on (cup/clock.py's meter) and reports it in the status
message; the LED supply switch is off while no pixel is lit. Through an emulated cup's real link."""

import time

import pytest

from kits.cupkit import CupDriver
from schocken_host.links import ledframe


def status_power(cup):
    msg = cup.request("power", t="power", id=7)
    assert msg.pop("id") == 7 and msg.pop("t") == "power"
    return msg


def test_the_status_reports_the_cups_power_states():
    cup = CupDriver()
    try:
        assert "power" not in cup.request("status", t="status")   # a message of its own: a status stays short
        before = status_power(cup)   # dark, no host: nothing lit, not hosted
        assert set(before) == {"ms", "wakes", "waiting", "light_sleep", "deep_sleep", "hosted", "leds_on",
                               "led_channel_s"}
        cup.start()                  # configured: the status pixel lights (blue, waiting for its turn)
        time.sleep(1.0)
        after = status_power(cup)
        counted = after["ms"] - before["ms"]
        assert counted >= 900
        # A cup between passes waits (how much of the time depends on how busy this machine is: the rest is
        # counted as its work), and wakes for each pass: 100 a second at most, and a line read now and then.
        assert after["waiting"] > before["waiting"]
        assert 10 <= after["wakes"] - before["wakes"] <= counted // 10 + 20
        # The host held it, and the status pixel kept the LED supply on.
        assert after["hosted"] - before["hosted"] >= 800
        assert after["leds_on"] - before["leds_on"] >= 800
        assert after["light_sleep"] == after["deep_sleep"] == 0
    finally:
        cup.close()


def test_the_meter_counts_the_led_supply_only_while_a_pixel_is_lit(monkeypatch):
    """cup/clock.py's meter under CPython, on a clock of the test's own: a dark frame opens the supply switch
    (on a board with one), a lit frame closes it; the level counts the bytes on the wire times the time."""
    from cup import clock
    now = [1000]
    monkeypatch.setattr(clock, "ticks_ms", lambda: now[0])
    m = clock.meter()
    assert clock.frame(m, bytes(66), True) == 0
    clock.spend(m, clock.WAITING, 2000, False)
    lit = bytearray(66)
    lit[63:66] = bytes((255, 255, 255))  # the status pixel white at full: three channels
    assert clock.frame(m, lit, True) == 765
    clock.spend(m, clock.WORKING, 1000, True)
    clock.spend(m, clock.WAITING, 3000, True)
    now[0] += 6000
    r = clock.report(m)
    assert r["ms"] == 6000 and r["waiting"] == 5000 and r["wakes"] == 1
    assert r["leds_on"] == 4000 and r["hosted"] == 4000 and r["led_channel_s"] == 3 * 4
    clock.frame(m, lit, False)           # a board without the switch: the strip is always powered
    clock.frame(m, bytes(66), False)
    clock.spend(m, clock.WAITING, 1000, False)
    assert clock.report(m)["leds_on"] == 5000


def test_the_meter_keeps_long_times_below_a_boards_small_ints(monkeypatch):
    """A fortnight in ms passes 2**30, and a lit frame's bytes x ms would too: seconds and a remainder."""
    from cup import clock
    m = clock.meter()
    lit = bytes([255]) * 66
    clock.frame(m, lit, True)
    for _ in range(14 * 24):
        clock.spend(m, clock.WAITING, 3_600_000, True)
    assert all(-2**30 <= v < 2**30 for v in m)
    r = clock.report(m)
    assert r["waiting"] == 14 * 86_400_000 and r["led_channel_s"] == 66 * 14 * 86_400


def test_the_view_goes_dark_where_its_owner_has_nothing_to_do(monkeypatch):
    """After 10 s without a change, a cup waiting for another player's turn is dark (its supply off); any
    change lights it again. On turn it stays lit."""
    import types
    from cup import leds as cup_leds
    from cup import view as cup_view
    from cup.leds import DiceLeds
    now = [0]
    monkeypatch.setattr(cup_view, "ticks_ms", lambda: now[0])
    frames = []

    class Pixels:
        brightness = 0.2

        def __init__(self):
            self.px = [0] * 22

        def __setitem__(self, i, v):
            self.px[i] = v

        def __getitem__(self, i):
            return self.px[i]

        def __len__(self):
            return 22

        def show(self):
            frames.append(list(self.px))

        def fill(self, v):
            self.px = [v] * 22

    view = cup_view.View(DiceLeds(Pixels(), 1))
    cup = types.SimpleNamespace(turn=None, hosted=True, state="idle", seat=2, result=None, peeking=False,
                                standalone_limit=3)
    view.show(cup)
    assert frames[-1][21] == cup_leds.WAITING
    now[0] = 9_950
    view.tick(cup)
    assert any(frames[-1])
    now[0] = 10_000
    view.tick(cup)
    assert not any(frames[-1])
    cup.state = "turn"
    cup.turn = types.SimpleNamespace(throws_used=0)
    view.show(cup)
    assert frames[-1][21] == cup_leds.THROWS[0]
    now[0] = 200_000
    view.tick(cup)
    assert frames[-1][21] == cup_leds.THROWS[0]    # on turn: lit whatever the time


def test_a_cup_left_alone_sleeps_deep_and_wakes_on_a_button():
    """Off the table (no host, no turn, dark) for 10 minutes of its clock, the cup goes to deep sleep: no
    passes, the time counted as deep sleep; a press wakes it and it shows its state again. The clock runs
    600 times faster, idle too: 10 minutes are a second."""
    from schocken_host.emulation.emulator import EmulatedCup
    emu = EmulatedCup(time_scale=600, idle_scale=600)
    cup = CupDriver(cup=emu)
    try:
        end = time.time() + 40                # 10 s + 10 min of its clock (some 100 s a second here)
        while "asleep" not in emu.control_lines and time.time() < end:
            time.sleep(0.05)
        assert "asleep" in emu.control_lines
        time.sleep(1.0)                       # asleep: its clock counts deep sleep
        frames = emu.frame_count
        emu.press(0, 60)                      # die 1's button: wakes it (a board: the main button or INT1)
        end = time.time() + 10
        while emu.frame_count == frames and time.time() < end:
            time.sleep(0.02)
        # Its first frame awake shows its state again: alone, not hosted, the status pixel dim white. The
        # first, not the newest: 10 s of its clock later (some 20 ms here, less than press() waits) the view
        # goes dark again, as it does after any change where the owner has nothing to do.
        woken = emu.frames_since(frames)
        assert woken, "no frame after the press"
        assert ledframe.status_name(ledframe.decode(woken[0])["status"]) == "dim", woken[0].hex()
        power = status_power(cup)
        assert power["deep_sleep"] >= 1000, power           # its clock counted the sleep
        # Asleep, it made no passes: its wakes are those of its time awake (a pass every 10 ms).
        assert power["wakes"] <= (power["ms"] - power["deep_sleep"]) // 10 + 200, power
    finally:
        cup.close()


def test_brightness_by_need_is_a_setting_of_the_cup(capsys):
    """deploy --brightness writes /cup.json's brightness (kept by later deploys); the LEDs take it, never
    above their cap; a value that is no share of full brightness is refused in one line."""
    from boards import emulated
    from cup.app import App
    from cup.leds import BRIGHTNESS_CAP
    from schocken_host import cli
    from schocken_host.provision.deploy import cup_config
    spec = {"name": "pico_w", "ble": True}
    config = cup_config(spec, {}, "cup-1", None, False, None, 0.1)
    assert config["brightness"] == 0.1
    assert cup_config(spec, {"cup": config}, "cup-1")["brightness"] == 0.1     # kept
    quiet = (None, None)  # a link of its own, never read: the apps are made, not run
    dim = App(emulated.make_board(None, link=quiet), {"brightness": 0.1}, None, None)
    full = App(emulated.make_board(None, link=quiet), {}, None, None)
    bright = App(emulated.make_board(None, link=quiet), {"brightness": 0.9}, None, None)
    assert dim.view.leds.brightness == pytest.approx(0.1)
    assert full.view.leds.brightness == pytest.approx(BRIGHTNESS_CAP)
    assert bright.view.leds.brightness == pytest.approx(BRIGHTNESS_CAP)
    with pytest.raises(SystemExit) as e:
        cli.main(["--lang", "en", "deploy", "--brightness", "2"])
    assert e.value.code == 2 and "needs a share of full brightness" in capsys.readouterr().err


def test_ble_advertising_is_relaxed_outside_a_game():
    """Issue 43: a cup no host has seated advertises every second (its radio rests); a seated cup whose host
    is gone every 100 ms, so the host finds it again at once."""
    import asyncio
    from kits import blekit  # noqa: F401  (puts firmware/ on sys.path)
    from boards import ble
    from schocken.bleformat import ADV_IDLE_US, ADV_INTERVAL_US

    class Aioble:
        def __init__(self):
            self.intervals = []

        async def advertise(self, interval_us, **kw):
            self.intervals.append(interval_us)
            return "a connection"

    async def go():
        stack = Aioble()
        link = ble.BleLink("cup-1", aioble=stack)
        link._adv_changed = asyncio.Event()
        assert await link._advertise() == "a connection"
        link.tracker.seat = 2                 # configured by a host: in a game
        await link._advertise()
        return stack.intervals
    assert asyncio.run(go()) == [ADV_IDLE_US, ADV_INTERVAL_US]
    assert ADV_IDLE_US >= 10 * ADV_INTERVAL_US


def test_a_cup_woken_from_deep_sleep_comes_back_in_the_turn_it_kept():
    """A board wakes from deep sleep by a reset (boards/esp32.py, boards/rp2.py): the cup comes back from its
    flash where it was when it went to sleep, in its round with its throws (tests/test_cup_resets.py has the
    resets mid-turn)."""
    from schocken_host.emulation.emulator import EmulatedCup
    emu = EmulatedCup(time_scale=600, idle_scale=600, long_ms=300)
    cup = CupDriver(cup=emu)
    try:
        cup.start()
        cup.request(t="turn", round=3, limit=None)
        cup.throw(2, 2, 1)
        cup.stand()
        revealed = cup.request("revealed", t="reveal", round=3)
        cup.request(t="outcome", round=3, result="none", deckel=0, middle=13)
        before = cup.request("status", t="status")
        cup.link.close()                       # the host leaves; the cup is alone
        emu.hang_up()
        end = time.time() + 40
        while "asleep" not in emu.control_lines and time.time() < end:
            time.sleep(0.05)
        assert "asleep" in emu.control_lines
        cup.restart()                          # the wake: a board boots again from its flash
        after = cup.request("status", t="status")
        assert after == before and (after["round"], after["throws"]) == (3, 1), after
        assert revealed["dice"] and revealed["round"] == 3
    finally:
        cup.close()
