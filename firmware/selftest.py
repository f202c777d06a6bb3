"""The cup side of `schocken doctor` (next to boot_select.py: like the boot files it may import the
cup app and the boards, which the cup app itself may not): one test per call, run through the raw REPL while
the app is stopped.

The host (host_tools/schocken_host/provision/doctor.py) interrupts the app (Ctrl-C), enters the raw REPL and
runs, one at a time, e.g. ``import selftest; selftest.button(1, 15000)``. Every call prints one JSON line
with the measurements (``{"test": "button", "ok": true, ...}``); the host judges, asks the person holding the
cup ("drücke Taste 2") and reports. Nothing here runs in the game: it is imported only by the doctor.

The board is the one ``boot_select.boot()`` made (kept in ``boot_select.board`` when the app was interrupted),
else one made from /board.json. On the emulated board (docs/emulation.md) the buttons and the shake sensor are
driven through its control channel: a pseudo-terminal whose path the emulated /board.json gives as
``"control"`` (``schocken deploy --board emulated --control PATH``); ``_pump`` applies its lines while a test
waits, as the running emulation's control task would.
"""

import gc
import json
import sys
import time

ROOT = "/"
MANIFEST = "firmware.json"   # written by `schocken deploy`: {"version": ..., "files": {path: [size, sha256]}}
G_MMS2 = 9807
_board = None
_ctl = None                  # emulated control channel: None = not opened yet, False = none


def _out(d):
    print(json.dumps(d))
    return d


def _ticks():
    return time.ticks_ms()


def _since(t0):
    return time.ticks_diff(time.ticks_ms(), t0)


def board():
    """The board of the running cup (or one made from /board.json)."""
    global _board
    if _board is None:
        import boot_select as BS
        _board = BS.board
        if _board is None:
            spec = BS.read_json(ROOT + BS.SPEC_FILE)
            module = BS.check_spec(spec)
            _board = BS.make_board(module, spec)
    return _board


def _pump(b):
    # Emulated board only: apply the lines waiting on its control channel.
    global _ctl
    if not hasattr(b, "apply_control"):
        return
    if _ctl is None:
        path = b.spec.get("control") if type(b.spec) is dict else None
        if not path:
            _ctl = False
            return
        import select
        # No termios.setraw here: it flushes lines already waiting. The host made the pty raw (FlashCup does).
        f = open(path, "r+b")
        poller = select.poll()
        poller.register(f, select.POLLIN)
        _ctl = (f, poller, bytearray())
    if not _ctl:
        return
    f, poller, buf = _ctl
    while poller.poll(0):   # one line per call: a press and its release are seen as two readings
        c = f.read(1)
        if not c:
            return
        if c == b"\n":
            b.apply_control(bytes(buf))
            buf[:] = b""
            return
        buf.extend(c)


def info():
    """Firmware version, board, interpreter, free heap, and the deployed files against the manifest."""
    import os
    from cup.core import FIRMWARE
    b = board()
    try:
        machine = os.uname().machine
    except AttributeError:
        machine = sys.platform
    bad, missing, manifest_version = _check_files()
    gc.collect()
    return _out({"test": "info", "ok": not bad and not missing, "fw": FIRMWARE, "board": b.name,
                 "spec": b.spec.get("name") if type(b.spec) is dict else None, "sensor": b.sensor_kind,
                 "machine": machine, "mpy": getattr(sys.implementation, "_mpy", 0), "mem_free": gc.mem_free(),
                 "manifest": manifest_version, "bad_files": bad, "missing_files": missing})


def _check_files():
    import hashlib
    from binascii import hexlify
    try:
        with open(ROOT + MANIFEST) as f:
            manifest = json.load(f)
    except (OSError, ValueError):
        return [], [], None
    bad, missing = [], []
    buf = bytearray(512)
    mv = memoryview(buf)
    for path, (size, digest) in manifest.get("files", {}).items():
        h = hashlib.sha256()
        n_total = 0
        try:
            with open(ROOT + path, "rb") as f:
                while True:
                    n = f.readinto(buf)
                    if not n:
                        break
                    h.update(mv[:n])
                    n_total += n
        except OSError:
            missing.append(path)
            continue
        if n_total != size or hexlify(h.digest()).decode() != digest:
            bad.append(path)
    return bad, missing, manifest.get("version")


def leds(ms=120):
    """Light each of the pixels alone, white at the brightness cap, for ``ms``; check the bytes sent."""
    from cup.leds import DIE, OFF, DiceLeds
    b = board()
    px = b.pixels
    leds_ = DiceLeds(px, 1.0)   # caps the brightness, clears
    n = len(px)
    dark = []
    spill = []
    for i in range(n):
        px.fill(OFF)
        px[i] = DIE
        leds_.refresh()
        buf = px.buf
        if not (buf[3 * i] or buf[3 * i + 1] or buf[3 * i + 2]):
            dark.append(i)
        for j in range(n):
            if j != i and (buf[3 * j] or buf[3 * j + 1] or buf[3 * j + 2]):
                spill.append(i)
                break
        time.sleep_ms(ms)
    leds_.clear()
    leds_.refresh()
    return _out({"test": "leds", "ok": not dark and not spill, "n": n, "dark": dark, "spill": spill,
                 "brightness": px.brightness})


def show(what):
    """Light a pattern for the eye check: "dice" = three white sixes + green status, "off"."""
    from cup.leds import DIE, ON_TURN, DiceLeds
    leds_ = DiceLeds(board().pixels, 1.0)
    if what == "dice":
        for slot in range(3):
            leds_.show_die(slot, 6, DIE)
        leds_.status(ON_TURN)
    else:
        leds_.clear()
    leds_.refresh()
    return _out({"test": "show", "ok": True, "what": what})


def buttons():
    """The raw button mask now (0 = none pressed; a set bit before any press = stuck or shorted)."""
    b = board()
    _pump(b)
    m = b.read_buttons()
    return _out({"test": "buttons", "ok": m == 0, "mask": m})


def button(i, timeout_ms=15000):
    """Wait until button ``i`` (0..2 dice, 3 main) is pressed and released; note any other button pressed."""
    b = board()
    bit = 1 << i
    t0 = _ticks()
    pressed = released = False
    wrong = 0
    while _since(t0) < timeout_ms:
        _pump(b)
        m = b.read_buttons()
        wrong |= m & ~bit
        if m & bit:
            pressed = True
        elif pressed:
            released = True
            break
        time.sleep_ms(10)
    return _out({"test": "button", "i": i, "ok": pressed and released and not wrong, "pressed": pressed,
                 "released": released, "wrong": wrong, "ms": _since(t0)})


def sensor(samples=20):
    """At rest: the accelerometer must read about 1 g; the vibration switch is read once."""
    from array import array
    b = board()
    if b.sensor_kind != "accel":
        _pump(b)
        return _out({"test": "sensor", "ok": True, "kind": b.sensor_kind, "level": b.read_switch()})
    buf = array("i", (0, 0, 0))
    sx = sy = sz = 0
    try:
        for _ in range(samples):
            b.read_accel(buf)
            sx += buf[0]
            sy += buf[1]
            sz += buf[2]
            time.sleep_ms(10)
    except OSError as e:
        return _out({"test": "sensor", "ok": False, "kind": "accel", "error": "%s" % e})
    ax, ay, az = sx // samples, sy // samples, sz // samples
    g = int((ax * ax + ay * ay + az * az) ** 0.5)
    return _out({"test": "sensor", "ok": 7000 <= g <= 12500, "kind": "accel", "mean": [ax, ay, az],
                 "g_mms2": g})


def sensitivity():
    """The cup's shake sensitivity, as the app takes it from /cup.json (cup/app.py)."""
    import boot_select as BS
    try:
        return BS.read_json(ROOT + "cup.json").get("shake", "normal")
    except Exception:  # no /cup.json yet, or a broken one: the app's default
        return "normal"


def shake(timeout_ms=15000):
    """Feed the shake detector at 100 Hz, at the cup's sensitivity, until it reports a throw (the person
    shakes the cup)."""
    from cup.shake import ShakeDetector
    b = board()
    try:
        det = ShakeDetector(b.sensor_kind, sensitivity())
    except ValueError:  # as the app: a sensitivity it cannot take is normal
        det = ShakeDetector(b.sensor_kind, "normal")
    t0 = _ticks()
    thrown = False
    try:
        while _since(t0) < timeout_ms and not thrown:
            _pump(b)
            thrown = det.feed_board(_ticks(), b)
            time.sleep_ms(10)
    except OSError as e:
        return _out({"test": "shake", "ok": False, "error": "%s" % e})
    return _out({"test": "shake", "ok": bool(thrown), "ms": _since(t0)})


def record(ms):
    """The sensor at 100 Hz for ``ms`` (the owner shakes, or handles the cup), for the doctor's calibration:
    one line per sample, "t_ms,ax,ay,az" (mm/s^2) or "t_ms,level", printed after the recording (printing
    while sampling would slow the loop), then the JSON line."""
    from array import array
    b = board()
    n = ms // 10
    accel = b.sensor_kind == "accel"
    data = array("h", bytes(2 * n * (3 if accel else 1)))  # accel in 2 mm/s^2 units: +-4 g fits
    buf = array("i", bytes(12))
    t0 = _ticks()
    for i in range(n):
        _pump(b)
        if accel:
            b.read_accel(buf)
            for k in range(3):
                data[3 * i + k] = max(-32767, min(32767, buf[k] // 2))
        else:
            data[i] = b.read_switch()
        time.sleep_ms(max(0, 10 * (i + 1) - _since(t0)))
    for i in range(n):
        if accel:
            print("%d,%d,%d,%d" % (10 * i, 2 * data[3 * i], 2 * data[3 * i + 1], 2 * data[3 * i + 2]))
        else:
            print("%d,%d" % (10 * i, data[i]))
    return _out({"test": "record", "ok": True, "kind": b.sensor_kind, "n": n})


def rng(rolls=600):
    """The roller's startup health test (SP 800-90B), then ``rolls`` dice counted per face."""
    from cup.roller import Roller, RollRefused
    b = board()
    r = Roller(b.urandom, None, b.radio_on)
    ok = r.health_check()
    counts = [0] * 6
    if ok:
        try:
            for d in r.roll(rolls):
                counts[d - 1] += 1
        except RollRefused:
            ok = False
    from schocken import text
    reason = None if r.reason is None else text(r.reason, module="cup.texts")
    return _out({"test": "rng", "ok": ok, "reason": reason, "counts": counts})


def battery():
    """Battery voltage in mV (None: no sense divider fitted)."""
    b = board()
    _pump(b)
    return _out({"test": "battery", "ok": True, "mv": b.battery_mv()})


def power():
    """The power counters of the cup that ran until the doctor stopped it (cup/clock.py's meter, as the status
    message gives them), or None: the app has not run since the board started."""
    from cup.clock import report
    meter = getattr(board(), "power", None)
    return _out({"test": "power", "ok": True, "power": None if meter is None else report(meter)})
