"""`schocken doctor`: the self-test of a freshly built (or misbehaving) cup.

It interrupts the cup app (Ctrl-C), enters the raw REPL (never a soft reset) and runs the cup side,
``firmware/selftest.py``, one test at a time; each prints one JSON line, judged here:

    firmware   version on the cup vs. this checkout; every deployed file against /firmware.json (SHA-256)
    LEDs       each pixel lit alone (the bytes sent are checked; the eye check is asked for on a terminal)
    buttons    none pressed at rest (stuck/shorted); then "drücke Taste N" for each, with a timeout
    sensor     the accelerometer reads about 1 g at rest (I2C wiring, address); then "schüttle den Becher"
               until the cup's own shake detector sees a throw
    RNG        the roller's SP 800-90B startup health test, then 600 dice and a chi-square test
    battery    the voltage through the divider

Afterwards the cup app is started again (``--no-start`` leaves it at the REPL). Exit status 1 when a test fails.
"""

import sys

from schocken_host.provision.boards import EMULATED, firmware_version
from schocken_host.provision import DeployError
from schocken_host.provision.device import Device, find_port

CHI2_LIMIT = 20.52        # chi-square, 5 degrees of freedom, p = 0.001: a fair die fails 1 run in 1000


BATTERY_EMPTY_MV = 3300   # a LiPo below this needs charging


BATTERY_NONE_MV = 2500    # below: no cell at the divider (running on USB)


BATTERY_MAX_MV = 4350     # above: the divider ratio in the board file is wrong


TEXT = {
    "de": {
        "connect": "Verbinde mit {port} (ein laufender Becher wird unterbrochen) …",
        "no_fw": "Keine Becher-Firmware auf dem Board: zuerst `schocken deploy`",
        "leds_watch": "Die {n} LEDs leuchten jetzt nacheinander weiß auf – schau auf den Boden des Bechers.",
        "leds_ask": "Hat jede LED einmal geleuchtet, alle gleich hell, und danach drei Sechsen? [j/n] ",
        "button": "Drücke Taste {n} (Würfel {n}) und lass sie los …",
        "main": "Drücke die Haupttaste (Taste 4) und lass sie los …",
        "shake": "Schüttle den Becher …",
        "ok": "ok", "fail": "FEHLER", "warn": "Achtung", "skip": "übersprungen",
        "all_ok": "Alles in Ordnung.",
        "failed": "{n} Test(s) fehlgeschlagen: {names}",
        "restarted": "Becher neu gestartet.",
        "left": "Becher bleibt im REPL (--no-start).",
    },
    "en": {
        "connect": "Connecting to {port} (a running cup is interrupted) …",
        "no_fw": "No cup firmware on the board: run `schocken deploy` first",
        "leds_watch": "The {n} LEDs now light up white one after the other: watch the bottom of the cup.",
        "leds_ask": "Did every LED light once, all equally bright, then three sixes? [y/n] ",
        "button": "Press button {n} (die {n}) and let go …",
        "main": "Press the main button (button 4) and let go …",
        "shake": "Shake the cup …",
        "ok": "ok", "fail": "FAILED", "warn": "warning", "skip": "skipped",
        "all_ok": "All good.",
        "failed": "{n} test(s) failed: {names}",
        "restarted": "Cup restarted.",
        "left": "Cup left at the REPL (--no-start).",
    },
}


class Doctor:
    def __init__(self, dev, lang="de", timeout=15.0, interactive=False, no_input=False, out=None, ask=None):
        self.dev = dev
        self.text = TEXT.get(lang, TEXT["de"])
        self.timeout = timeout
        self.interactive = interactive
        self.no_input = no_input
        self.out = out or sys.stdout
        self.ask = ask or input
        self.results = []   # (name, status, detail), status one of ok fail warn skip

    def say(self, text):
        self.out.write(text + "\n")
        self.out.flush()

    def t(self, key, **kw):
        return self.text[key].format(**kw)

    def check(self, name, status, detail=""):
        self.results.append((name, status, detail))
        self.say("  %-12s %-8s %s" % (name, self.t(status), detail))

    def call(self, expr, wait=None):
        return self.dev.json("selftest." + expr, timeout=(wait or 0) + 10)

    # --- the tests ------------------------------------------------------------------------------------
    def run(self):
        try:
            self.dev.run("import selftest")
        except DeployError:
            raise DeployError(self.t("no_fw"))
        info = self.call("info()")
        self.info = info
        self.firmware(info)
        self.leds()
        self.buttons()
        self.sensor()
        self.rng()
        self.battery()
        return self.results

    def firmware(self, info):
        here = firmware_version()
        detail = "%s on %s (%s, %d KB heap free)" % (info["fw"], info["board"], info["machine"] or "?",
                                                     info["mem_free"] // 1024)
        if info["bad_files"] or info["missing_files"]:
            self.check("firmware", "fail", "%s; damaged: %s; missing: %s: run schocken deploy" % (
                detail, ", ".join(info["bad_files"]) or "-", ", ".join(info["missing_files"]) or "-"))
        elif info["manifest"] is None:
            self.check("firmware", "warn", detail + "; no /firmware.json: not deployed by schocken deploy")
        elif info["fw"] != here:
            self.check("firmware", "warn", "%s; this checkout has %s: schocken deploy updates it" % (detail, here))
        else:
            self.check("firmware", "ok", detail + "; files match the manifest")

    def leds(self):
        if self.interactive and not self.no_input:
            self.say(self.t("leds_watch", n=22))
        r = self.call("leds(%d)" % (120 if self.interactive else 5), wait=10)
        if not r["ok"]:
            self.check("LEDs", "fail", "pixels without data: %s; data spilled: %s" % (r["dark"], r["spill"]))
            return
        detail = "%d pixels driven, brightness %.2f" % (r["n"], r["brightness"])
        if self.interactive and not self.no_input:
            self.call("show('dice')")
            answer = self.ask(self.t("leds_ask")).strip().lower()
            self.call("show('off')")
            if answer[:1] in ("n",):
                self.check("LEDs", "fail", detail + "; not seen: check 5 V, GND, the data resistor, the first "
                           "pixel's DIN (arrow direction) and the solder joints after the last lit pixel")
                return
            self.check("LEDs", "ok", detail + "; seen")
        else:
            self.check("LEDs", "ok", detail + "; eye check skipped (not a terminal)")

    def buttons(self):
        r = self.call("buttons()")
        stuck = r["mask"]
        if stuck:
            self.check("buttons", "fail", "pressed at rest: %s (shorted to GND or wired to the wrong side)" % (
                ", ".join(str(i + 1) for i in range(4) if stuck >> i & 1)))
        if self.no_input:
            self.check("buttons", "skip", "--no-input")
            return
        ms = int(self.timeout * 1000)
        for i in range(4):
            if stuck >> i & 1:
                continue
            self.say(self.t("button", n=i + 1) if i < 3 else self.t("main"))
            r = self.call("button(%d, %d)" % (i, ms), wait=self.timeout)
            name = "button %d" % (i + 1)
            if r["ok"]:
                self.check(name, "ok", "pressed and released")
            elif r["wrong"]:
                others = ", ".join(str(j + 1) for j in range(4) if r["wrong"] >> j & 1)
                self.check(name, "fail", "button %s answered instead: swapped wires?" % others)
            elif r["pressed"]:
                self.check(name, "fail", "pressed but not released within %g s" % self.timeout)
            else:
                self.check(name, "fail", "no press within %g s: check the switch, its GND and the pin" % self.timeout)

    def sensor(self):
        r = self.call("sensor()", wait=2)
        if r["kind"] == "accel":
            if r["ok"]:
                self.check("sensor", "ok", "accelerometer at rest: %.2f g" % (r["g_mms2"] / 9807))
            elif "error" in r:
                self.check("sensor", "fail", "accelerometer does not answer (%s): check SDA/SCL, 3V3, GND and "
                           "i2c_addr" % r["error"])
                return
            else:
                self.check("sensor", "fail", "accelerometer reads %.2f g at rest, expected about 1 g" % (
                    r["g_mms2"] / 9807))
        else:
            self.check("sensor", "ok", "vibration switch reads %d at rest" % r["level"])
        if self.no_input:
            self.check("shake", "skip", "--no-input")
            return
        self.say(self.t("shake"))
        r = self.call("shake(%d)" % int(self.timeout * 1000), wait=self.timeout)
        if r["ok"]:
            self.check("shake", "ok", "throw detected after %.1f s" % (r["ms"] / 1000))
        else:
            self.check("shake", "fail", r.get("error") or "no throw detected within %g s" % self.timeout)

    def rng(self):
        r = self.call("rng()", wait=20)
        if not r["ok"]:
            self.check("RNG", "fail", "health test failed (%s): the cup will not roll" % r["reason"])
            return
        counts = r["counts"]
        n = sum(counts)
        chi2 = sum((c - n / 6) ** 2 / (n / 6) for c in counts)
        status = "ok" if chi2 <= CHI2_LIMIT else "fail"
        self.check("RNG", status, "health test passed; %d dice %s, chi\u00b2 %.1f (limit %.1f)" % (
            n, counts, chi2, CHI2_LIMIT))

    def battery(self):
        mv = self.call("battery()")["mv"]
        if mv is None:
            self.check("battery", "ok", "no battery sense fitted")
        elif mv < BATTERY_NONE_MV:
            self.check("battery", "warn", "%d mV: no cell connected (on USB power?)" % mv)
        elif mv < BATTERY_EMPTY_MV:
            self.check("battery", "warn", "%d mV: empty, charge it" % mv)
        elif mv > BATTERY_MAX_MV:
            self.check("battery", "fail", "%d mV is above a LiPo's 4.2 V: battery_divider in the board file "
                       "does not match the resistors" % mv)
        else:
            self.check("battery", "ok", "%d mV" % mv)


def doctor(port=None, lang="de", timeout=15.0, interactive=None, no_input=False, start=True, out=None, ask=None,
           connect_timeout=5.0):
    """Run the self-test; returns (results, info)."""
    out = out or sys.stdout
    if interactive is None:
        interactive = sys.stdin.isatty() and out.isatty()
    port = find_port(port)
    text = TEXT.get(lang, TEXT["de"])
    out.write(text["connect"].format(port=port) + "\n")
    out.flush()
    dev = Device(port, connect_timeout)
    doc = Doctor(dev, lang, timeout, interactive, no_input, out, ask)
    started = False
    try:
        results = doc.run()
        failed = [name for name, status, _ in results if status == "fail"]
        out.write((text["failed"].format(n=len(failed), names=", ".join(failed)) if failed else text["all_ok"]) + "\n")
        if start:
            dev.start(doc.info["board"] == EMULATED)
            started = True
            out.write(text["restarted"] + "\n")
        else:
            out.write(text["left"] + "\n")
        return results, doc.info
    finally:
        if not started:
            dev.close()

