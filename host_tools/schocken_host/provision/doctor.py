"""`schocken doctor`: the self-test of a freshly built (or misbehaving) cup.

It interrupts the cup app (Ctrl-C), enters the raw REPL (never a soft reset) and runs the cup side,
``firmware/selftest.py``, one test at a time; each prints one JSON line, judged here:

    firmware   version on the cup vs. this checkout; every deployed file against /firmware.json (SHA-256)
    LEDs       each pixel lit alone (the bytes sent are checked; the eye check is asked for on a terminal)
    buttons    none pressed at rest (stuck/shorted); then "drücke Taste N" for each, with a timeout
    sensor     the accelerometer reads about 1 g at rest (I2C wiring, address); then "schüttle den Becher"
               until the cup's own shake detector sees a throw
    RNG        the roller's SP 800-90B startup health test, then 600 dice and a chi-square test
    battery    the voltage through the divider, the percent from the cell's curve
    power      what the cup spent its time on since it started (its power counters)

Afterwards the cup app is started again (``--no-start`` leaves it at the REPL). Exit status 1 when a test
fails.
"""

import sys

from schocken_host.i18n import Message, tr
from schocken_host.links import battery
from schocken_host.provision.boards import EMULATED, firmware_version
from schocken_host.provision import DeployError
from schocken_host.provision.device import Device, find_port

CHI2_LIMIT = 20.52        # chi-square, 5 degrees of freedom, p = 0.001: a fair die fails 1 run in 1000
ANSWER_S = 10.0           # s for each answer of a cup (a chip: under 1 s), beyond any wait for a person


BATTERY_EMPTY_MV = 3300   # a LiPo below this needs charging


BATTERY_NONE_MV = 2500    # below: no cell at the divider (running on USB)


BATTERY_MAX_MV = 4350     # above: the divider ratio in the board file is wrong


class Doctor:
    def __init__(self, dev, lang="de", timeout=15.0, interactive=False, no_input=False, out=None, ask=None,
                 slowness=1, calibrate=False):
        self.dev = dev
        self.lang = lang
        self.timeout = timeout
        self.answer_s = ANSWER_S * slowness   # for each answer of the cup, beyond a wait for a person
        self.interactive = interactive
        self.no_input = no_input
        self.out = out or sys.stdout
        self.ask = ask or input
        self.results = []   # (name, status, detail in English), status one of ok fail warn skip
        self.calibrating = calibrate

    def say(self, text):
        self.out.write(text + "\n")
        self.out.flush()

    def t(self, key, **fields):
        """The text ``doctor.<key>`` in the user's language."""
        return tr(self.lang, "doctor." + key, **fields)

    def check(self, name, status, detail_key, **fields):
        """A test's verdict: on the screen in the user's language, in the results (--json) in English."""
        detail = Message("doctor." + detail_key, **fields)
        self.results.append((name, status, str(detail)))
        shown = shown_name(self.lang, name)
        self.say("  %-12s %-8s %s" % (shown, self.t(status), detail.localized(self.lang)))

    def call(self, expr, wait=None):
        return self.dev.json("selftest." + expr, timeout=(wait or 0) + self.answer_s)

    # --- the tests ------------------------------------------------------------------------------------
    def run(self):
        try:
            self.dev.run("import selftest", self.answer_s)
        except DeployError:
            raise DeployError("doctor.no_fw")
        info = self.call("info()")
        self.info = info
        self.firmware(info)
        if self.calibrating:  # `doctor --calibrate`: only the shake sensitivity
            self.calibrate(info["sensor"])
            return self.results
        self.leds()
        self.buttons()
        self.sensor()
        self.rng()
        self.battery()
        self.power()
        return self.results

    def firmware(self, info):
        here = firmware_version()
        about = Message("doctor.firmware_about", fw=info["fw"], board=info["board"],
                        machine=info["machine"] or "?", kb=info["mem_free"] // 1024)
        if info["bad_files"] or info["missing_files"]:
            damaged, missing = ", ".join(info["bad_files"]) or "-", ", ".join(info["missing_files"]) or "-"
            self.check("firmware", "fail", "firmware_damaged", about=about, damaged=damaged, missing=missing)
        elif info["manifest"] is None:
            self.check("firmware", "warn", "firmware_no_manifest", about=about)
        elif info["fw"] != here:
            self.check("firmware", "warn", "firmware_other_version", about=about, here=here)
        else:
            self.check("firmware", "ok", "firmware_ok", about=about)

    def leds(self):
        if self.interactive and not self.no_input:
            self.say(self.t("leds_watch", n=22))
        r = self.call("leds(%d)" % (120 if self.interactive else 5), wait=10)
        if not r["ok"]:
            self.check("LEDs", "fail", "leds_no_data", dark=r["dark"], spill=r["spill"])
            return
        driven = Message("doctor.leds_driven", n=r["n"], brightness=r["brightness"])
        if self.interactive and not self.no_input:
            self.call("show('dice')")
            answer = self.ask(self.t("leds_ask")).strip().lower()
            self.call("show('off')")
            if answer[:1] in ("n",):
                self.check("LEDs", "fail", "leds_not_seen", driven=driven)
                return
            self.check("LEDs", "ok", "leds_seen", driven=driven)
        else:
            self.check("LEDs", "ok", "leds_no_eye_check", driven=driven)

    def buttons(self):
        r = self.call("buttons()")
        stuck = r["mask"]
        if stuck:
            self.check("buttons", "fail", "buttons_stuck",
                       buttons=", ".join(str(i + 1) for i in range(4) if stuck >> i & 1))
        if self.no_input:
            self.check("buttons", "skip", "no_input")
            return
        ms = int(self.timeout * 1000)
        for i in range(4):
            if stuck >> i & 1:
                continue
            self.say(self.t("button", n=i + 1) if i < 3 else self.t("main"))
            r = self.call("button(%d, %d)" % (i, ms), wait=self.timeout)
            name = "button %d" % (i + 1)
            if r["ok"]:
                self.check(name, "ok", "button_ok")
            elif r["wrong"]:
                others = ", ".join(str(j + 1) for j in range(4) if r["wrong"] >> j & 1)
                self.check(name, "fail", "button_swapped", others=others)
            elif r["pressed"]:
                self.check(name, "fail", "button_not_released", s=self.timeout)
            else:
                self.check(name, "fail", "button_no_press", s=self.timeout)

    def sensor(self):
        r = self.call("sensor()", wait=2)
        if r["kind"] == "accel":
            if r["ok"]:
                self.check("sensor", "ok", "sensor_ok", g=r["g_mms2"] / 9807)
            elif "error" in r:
                self.check("sensor", "fail", "sensor_silent", error=r["error"])
                return
            else:
                self.check("sensor", "fail", "sensor_reads", g=r["g_mms2"] / 9807)
        else:
            self.check("sensor", "ok", "switch_ok", level=r["level"])
        if self.no_input:
            self.check("shake", "skip", "no_input")
            return
        self.say(self.t("shake"))
        r = self.call("shake(%d)" % int(self.timeout * 1000), wait=self.timeout)
        if r["ok"]:
            self.check("shake", "ok", "shake_ok", s=r["ms"] / 1000)
        elif r.get("error"):
            self.check("shake", "fail", "as_reported", error=r["error"])
        else:
            self.check("shake", "fail", "shake_none", s=self.timeout)

    # --- the owner's calibration (docs/rules.md, "The shake") ----------------------------------------------
    def calibrate(self, sensor):
        """Record three shakes and a while of handling, replay both through the cup's own detector (its
        firmware under MicroPython, as `schocken shake-replay`) at a range of thresholds, and set the one
        midway between the lowest that never throws for the handling and the highest that still throws each
        shake exactly once; print the margins. Nothing is written when no threshold tells them apart."""
        import json
        import tempfile
        from pathlib import Path
        window = min(CALIBRATE_S, self.timeout)  # --timeout shortens it
        traces = []
        for key in ("calibrate_shakes", "calibrate_handling"):
            self.say(self.t(key, s=window))
            code = "selftest.record(%d)" % int(window * 1000)
            out = self.dev.run(code, window + self.answer_s).splitlines()
            traces.append([line for line in out if line[:1].isdigit()])
        with tempfile.TemporaryDirectory() as tmp:
            paths = []
            for name, rows in zip(("shakes.csv", "handling.csv"), traces):
                path = Path(tmp) / name
                if sensor == "accel":
                    text = "t_ms,ax,ay,az\n" + "".join(_in_m_s2(r) for r in rows)
                else:
                    text = "t_ms,level\n" + "".join(r + "\n" for r in rows)
                path.write_text(text)
                paths.append(path)
            grid = CALIBRATE_SWINGS if sensor == "accel" else CALIBRATE_CHANGES
            works_shakes, works_handling, best_count = [], [], 0
            for v in grid:
                level = [v + 2000, v, 3] if sensor == "accel" else [v, 50]
                shakes, handling = (_replay(p, sensor, level) for p in paths)
                best_count = max(best_count, len(shakes))
                if len(shakes) == 3:
                    works_shakes.append(v)
                if not handling:
                    works_handling.append(v)
        low = min(works_handling) if works_handling else None
        high = max(works_shakes) if works_shakes else None
        if low is None or high is None or low > high:
            self.check("calibration", "fail", "calibrate_apart", shakes=best_count)
            return
        chosen = (low + high) // 2
        if sensor == "accel":
            chosen = chosen // CALIBRATE_STEP * CALIBRATE_STEP
        level = [chosen + 2000, chosen, 3] if sensor == "accel" else [chosen, 50]
        config = self.dev.json("print(open('/cup.json').read())")
        config["shake"] = level
        self.dev.write("/cup.json", (json.dumps(config, sort_keys=True) + "\n").encode())
        if sensor == "accel":
            self.check("calibration", "ok", "calibrate_set", set=chosen / 1000, low=low / 1000,
                       high=high / 1000, margin=min(chosen - low, high - chosen) / 1000)
        else:
            self.check("calibration", "ok", "calibrate_set_switch", set=chosen, low=low, high=high)

    def rng(self):
        r = self.call("rng()", wait=20)
        if not r["ok"]:
            self.check("RNG", "fail", "rng_health", reason=r["reason"])
            return
        counts = r["counts"]
        n = sum(counts)
        chi2 = sum((c - n / 6) ** 2 / (n / 6) for c in counts)
        status = "ok" if chi2 <= CHI2_LIMIT else "fail"
        self.check("RNG", status, "rng_chi2", n=n, counts=counts, chi2=chi2, limit=CHI2_LIMIT)

    def battery(self):
        mv = self.call("battery()")["mv"]
        if mv is None:
            self.check("battery", "ok", "battery_none")
        elif mv < BATTERY_NONE_MV:
            self.check("battery", "warn", "battery_no_cell", mv=mv)
        elif mv < BATTERY_EMPTY_MV:
            self.check("battery", "warn", "battery_empty", mv=mv)
        elif mv > BATTERY_MAX_MV:
            self.check("battery", "fail", "battery_divider", mv=mv)
        else:
            self.check("battery", "ok", "battery_ok", mv=mv, percent=battery.percent(mv))

    def power(self):
        """What the cup spent its time on since it started (cup/clock.py): the figures hardware/energy.py
        turns into a board's current."""
        p = self.call("power()")["power"]
        if p is None or p["ms"] <= 0:
            self.check("power", "ok", "power_none")
            return
        ms = p["ms"]
        share = {k: round(100.0 * p[k] / ms) for k in ("waiting", "deep_sleep", "hosted", "leds_on")}
        self.check("power", "ok", "power_counted", minutes=round(ms / 60000.0, 1),
                   wakes=round(p["wakes"] * 1000.0 / ms), **share)


CALIBRATE_S = 10.0        # s for the three shakes, and again for the handling (at most: --timeout)
CALIBRATE_STEP = 250      # mm/s^2: the swing thresholds tried (firmware/cup/shake.py, docs/rules.md)
CALIBRATE_SWINGS = tuple(range(3000, 14001, CALIBRATE_STEP))
CALIBRATE_CHANGES = tuple(range(6, 31))  # a switch: the contact changes a shake needs


def _in_m_s2(row):
    """A recorded sample "t,x,y,z" in mm/s^2 -> a trace line in m/s^2 (what cup.replay reads)."""
    t, *axes = row.split(",")
    return "%s,%s\n" % (t, ",".join("%.3f" % (int(v) / 1000) for v in axes))


def _replay(path, sensor, level):
    """The cup's detector over a recorded trace at ``level``: the throws' times (the firmware, run as
    shake-replay runs it)."""
    from schocken_host.provision.build import find_tool
    from schocken_host.provision.replay import run_firmware
    throws, code, msg = run_firmware(find_tool("micropython"), path, sensor, level)
    if code:
        raise DeployError("doctor.as_reported", error=msg)
    return throws


def shown_name(lang, name):
    """A test's name on the screen ("button 2" -> "Taste 2"); the results keep the English one."""
    if name.startswith("button "):
        return tr(lang, "doctor.test_button", n=name.split()[1])
    return tr(lang, "doctor.test_" + name.lower())


def doctor(port=None, lang="de", timeout=15.0, interactive=None, no_input=False, start=True, out=None,
           ask=None, connect_timeout=5.0, slowness=1, calibrate=False):
    """Run the self-test; returns (results, info). ``slowness`` K: a cup K times slower than a chip (an
    emulated one) gets K times the time for its connection and each answer."""
    out = out or sys.stdout
    if interactive is None:
        interactive = sys.stdin.isatty() and out.isatty()
    port = find_port(port)
    out.write(tr(lang, "doctor.connect", port=port) + "\n")
    out.flush()
    dev = Device(port, connect_timeout * slowness)
    doc = Doctor(dev, lang, timeout, interactive, no_input, out, ask, slowness, calibrate)
    started = False
    try:
        results = doc.run()
        failed = [shown_name(lang, name) for name, status, _ in results if status == "fail"]
        out.write((tr(lang, "doctor.failed", n=len(failed), names=", ".join(failed)) if failed
                   else tr(lang, "doctor.all_ok")) + "\n")
        if start:
            dev.start(doc.info["board"] == EMULATED)
            started = True
            out.write(tr(lang, "doctor.restarted") + "\n")
        else:
            out.write(tr(lang, "doctor.left") + "\n")
        return results, doc.info
    finally:
        if not started:
            dev.close()

