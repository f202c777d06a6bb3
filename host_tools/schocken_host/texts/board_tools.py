"""Texts of the tools for a cup's board: `schocken deploy` (provision/deploy.py), `schocken doctor`
(provision/doctor.py) and `schocken scan` (commands/scan.py). {key: (German, English)}."""

TEXTS = {
    # --- deploy: what it does, step by step
    "deploy.connecting": ("verbinde mit {port} (ein laufender Becher wird unterbrochen)",
                          "connecting to {port} (interrupting the cup if it runs)"),
    "deploy.micropython": ("MicroPython {version} auf {machine} ({platform})",
                           "MicroPython {version} on {machine} ({platform})"),
    "deploy.board": ("Board {board} ({arch}), Becher {cup}{name}", "board {board} ({arch}), cup {cup}{name}"),
    "deploy.compiling": ("kompiliere mit mpy-cross für {arch}", "compiling with mpy-cross for {arch}"),
    "deploy.unix_port": ("den Unix-Port", "the unix port"),
    "deploy.files": ("{n} Dateien, {size} B; {copy} zu kopieren, {same} unverändert",
                     "{n} files, {size} B; {copy} to copy, {same} unchanged"),
    "deploy.copying": ("kopiere", "copying"),
    "deploy.copied": ("  [{i}/{n}] {path} ({size} B)", "  [{i}/{n}] {path} ({size} B)"),
    "deploy.removed_stale": ("  veraltete Datei {path} entfernt", "  removed stale {path}"),
    "deploy.installing_aioble": ("installiere aioble (mpremote mip install aioble)",
                                 "installing aioble (mpremote mip install aioble)"),
    "deploy.aioble_installed": ("aioble installiert", "aioble installed"),
    "deploy.aioble_no_mip": ("aioble nicht installiert (--no-mip): später `mpremote connect {port} resume "
                             "mip install aioble`",
                             "aioble not installed (--no-mip): later `mpremote connect {port} resume mip "
                             "install aioble`"),
    "deploy.aioble_skipped": ("aioble übersprungen: Board {board} hat kein Bluetooth (der Unix-Port hat "
                              "kein `bluetooth`-Modul)",
                              "aioble skipped: board {board} has no Bluetooth (the unix port has no "
                              "`bluetooth` module)"),
    "deploy.aioble_timeout": ("aioble NICHT installiert (mip brauchte zu lange: kein Netz?): noch einmal "
                              "mit `{command}`",
                              "aioble NOT installed (mip timed out: no network?): retry with `{command}`"),
    "deploy.aioble_failed": ("aioble NICHT installiert ({why}): noch einmal mit `mpremote connect {port} "
                             "resume mip install aioble`",
                             "aioble NOT installed ({why}): retry with `mpremote connect {port} resume mip "
                             "install aioble`"),
    "deploy.verified": ("geprüft: {n} Dateien, {size} B auf dem Becher, SHA-256 gleich",
                        "verified: {n} files, {size} B on the cup, SHA-256 equal"),
    "deploy.secret_kept": ("Geheimnis von {cup} aufbewahrt in {path}", "secret of {cup} kept in {path}"),
    "deploy.started": ("Becher gestartet", "cup started"),
    "deploy.started_reset": ("Becher gestartet (Reset)", "cup started (reset)"),
    "deploy.left": ("Becher bleibt im REPL (--no-start): zum Spielen zurücksetzen oder aus- und einstecken",
                    "cup left at the REPL (--no-start): reset it or unplug and plug it in to play"),

    # --- doctor: the self-test
    "doctor.connect": ("Verbinde mit {port} (ein laufender Becher wird unterbrochen) …",
                       "Connecting to {port} (a running cup is interrupted) …"),
    "doctor.leds_watch": ("Die {n} LEDs leuchten jetzt nacheinander weiß auf – schau auf den Boden des "
                          "Bechers.",
                          "The {n} LEDs now light up white one after the other: watch the bottom of the "
                          "cup."),
    "doctor.leds_ask": ("Hat jede LED einmal geleuchtet, alle gleich hell, und danach drei Sechsen? [j/n] ",
                        "Did every LED light once, all equally bright, then three sixes? [y/n] "),
    "doctor.button": ("Drücke Taste {n} (Würfel {n}) und lass sie los …",
                      "Press button {n} (die {n}) and let go …"),
    "doctor.main": ("Drücke die Haupttaste (Taste 4) und lass sie los …",
                    "Press the main button (button 4) and let go …"),
    "doctor.shake": ("Schüttle den Becher …", "Shake the cup …"),
    "doctor.ok": ("ok", "ok"),
    "doctor.fail": ("FEHLER", "FAILED"),
    "doctor.warn": ("Achtung", "warning"),
    "doctor.skip": ("übersprungen", "skipped"),
    "doctor.all_ok": ("Alles in Ordnung.", "All good."),
    "doctor.failed": ("{n} Test(s) fehlgeschlagen: {names}", "{n} test(s) failed: {names}"),
    "doctor.restarted": ("Becher neu gestartet.", "Cup restarted."),
    "doctor.left": ("Becher bleibt im REPL (--no-start).", "Cup left at the REPL (--no-start)."),
    "doctor.test_firmware": ("Firmware", "firmware"),
    "doctor.test_leds": ("LEDs", "LEDs"),
    "doctor.test_buttons": ("Tasten", "buttons"),
    "doctor.test_button": ("Taste {n}", "button {n}"),
    "doctor.test_sensor": ("Sensor", "sensor"),
    "doctor.test_shake": ("Schütteln", "shake"),
    "doctor.test_rng": ("Zufall", "RNG"),
    "doctor.test_battery": ("Akku", "battery"),
    "doctor.test_power": ("Strom", "power"),
    "doctor.test_calibration": ("Kalibrierung", "calibration"),
    "doctor.calibrate_shakes": ("Schüttle den Becher dreimal, mit einer Pause dazwischen ({s:g} s) …",
                                "Shake the cup three times, with a pause in between ({s:g} s) …"),
    "doctor.calibrate_handling": (
        "Jetzt ohne zu schütteln: heben, kippen, weiterreichen, abstellen ({s:g} s) …",
        "Now without shaking: lift, tilt, pass, set down the cup ({s:g} s) …"),
    "doctor.calibrate_set": (
        "Schwelle {set:.1f} m/s²: Hantieren wirft erst unter {low:.1f}, deine Würfe zählen bis {high:.1f} "
        "(Spielraum {margin:.1f} m/s² je Seite); gespeichert in /cup.json",
        "threshold {set:.1f} m/s²: handling throws only below {low:.1f}, your shakes count up to {high:.1f} "
        "(margin {margin:.1f} m/s² each way); saved in /cup.json"),
    "doctor.calibrate_set_switch": (
        "Schwelle {set} Kontaktwechsel: Hantieren wirft erst unter {low}, deine Würfe zählen bis {high}; "
        "gespeichert in /cup.json",
        "threshold {set} contact changes: handling throws only below {low}, your shakes count up to {high}; "
        "saved in /cup.json"),
    "doctor.calibrate_apart": (
        "deine Würfe ({shakes} von 3 erkannt) und dein Hantieren sind nicht zu trennen: nichts geändert "
        "(kräftiger oder länger schütteln, dann noch einmal)",
        "your shakes ({shakes} of 3 seen) cannot be told from your handling: nothing changed (shake harder "
        "or longer, then try again)"),
    # what each test found
    "doctor.firmware_about": ("{fw} auf {board} ({machine}, {kb} KB Heap frei)",
                              "{fw} on {board} ({machine}, {kb} KB heap free)"),
    "doctor.firmware_damaged": ("{about}; beschädigt: {damaged}; fehlt: {missing}: schocken deploy ausführen",
                                "{about}; damaged: {damaged}; missing: {missing}: run schocken deploy"),
    "doctor.firmware_no_manifest": ("{about}; kein /firmware.json: nicht mit schocken deploy aufgespielt",
                                    "{about}; no /firmware.json: not deployed by schocken deploy"),
    "doctor.firmware_other_version": ("{about}; dieser Checkout hat {here}: schocken deploy bringt sie auf "
                                      "den Stand",
                                      "{about}; this checkout has {here}: schocken deploy updates it"),
    "doctor.firmware_ok": ("{about}; die Dateien passen zum Manifest", "{about}; files match the manifest"),
    "doctor.leds_no_data": ("Pixel ohne Daten: {dark}; Daten übergelaufen: {spill}",
                            "pixels without data: {dark}; data spilled: {spill}"),
    "doctor.leds_driven": ("{n} Pixel angesteuert, Helligkeit {brightness:.2f}",
                           "{n} pixels driven, brightness {brightness:.2f}"),
    "doctor.leds_not_seen": ("{driven}; nicht gesehen: prüfe 5 V, GND, den Datenwiderstand, DIN des ersten "
                             "Pixels (Pfeilrichtung) und die Lötstellen hinter dem letzten leuchtenden Pixel",
                             "{driven}; not seen: check 5 V, GND, the data resistor, the first pixel's DIN "
                             "(arrow direction) and the solder joints after the last lit pixel"),
    "doctor.leds_seen": ("{driven}; gesehen", "{driven}; seen"),
    "doctor.leds_no_eye_check": ("{driven}; Sichtprüfung übersprungen (kein Terminal)",
                                 "{driven}; eye check skipped (not a terminal)"),
    "doctor.buttons_stuck": ("in Ruhe gedrückt: {buttons} (Kurzschluss nach GND oder falsch verdrahtet)",
                             "pressed at rest: {buttons} (shorted to GND or wired to the wrong side)"),
    "doctor.no_input": ("--no-input", "--no-input"),
    "doctor.button_ok": ("gedrückt und losgelassen", "pressed and released"),
    "doctor.button_swapped": ("Taste {others} hat stattdessen geantwortet: Drähte vertauscht?",
                              "button {others} answered instead: swapped wires?"),
    "doctor.button_not_released": ("gedrückt, aber nicht binnen {s:g} s losgelassen",
                                   "pressed but not released within {s:g} s"),
    "doctor.button_no_press": ("kein Druck binnen {s:g} s: prüfe den Taster, seine GND-Leitung und den Pin",
                               "no press within {s:g} s: check the switch, its GND and the pin"),
    "doctor.sensor_ok": ("Beschleunigungssensor in Ruhe: {g:.2f} g", "accelerometer at rest: {g:.2f} g"),
    "doctor.sensor_silent": ("Beschleunigungssensor antwortet nicht ({error}): prüfe SDA/SCL, 3V3, GND und "
                             "i2c_addr",
                             "accelerometer does not answer ({error}): check SDA/SCL, 3V3, GND and i2c_addr"),
    "doctor.sensor_reads": ("Beschleunigungssensor misst in Ruhe {g:.2f} g, erwartet etwa 1 g",
                            "accelerometer reads {g:.2f} g at rest, expected about 1 g"),
    "doctor.switch_ok": ("Vibrationsschalter zeigt in Ruhe {level}",
                         "vibration switch reads {level} at rest"),
    "doctor.shake_ok": ("Wurf erkannt nach {s:.1f} s", "throw detected after {s:.1f} s"),
    "doctor.as_reported": ("{error}", "{error}"),
    "doctor.shake_none": ("kein Wurf erkannt binnen {s:g} s", "no throw detected within {s:g} s"),
    "doctor.rng_health": ("Gesundheitstest fehlgeschlagen ({reason}): der Becher würfelt nicht",
                          "health test failed ({reason}): the cup will not roll"),
    "doctor.rng_chi2": ("Gesundheitstest bestanden; {n} Würfe {counts}, Chi² {chi2:.1f} (Grenze {limit:.1f})",
                        "health test passed; {n} dice {counts}, chi² {chi2:.1f} (limit {limit:.1f})"),
    "doctor.battery_none": ("keine Akkumessung verbaut", "no battery sense fitted"),
    "doctor.battery_no_cell": ("{mv} mV: kein Akku angeschlossen (an USB?)",
                               "{mv} mV: no cell connected (on USB power?)"),
    "doctor.battery_empty": ("{mv} mV: leer, bitte laden", "{mv} mV: empty, charge it"),
    "doctor.battery_divider": ("{mv} mV liegt über den 4,2 V eines LiPo: battery_divider in der Board-Datei "
                               "passt nicht zu den Widerständen",
                               "{mv} mV is above a LiPo's 4.2 V: battery_divider in the board file does "
                               "not match the resistors"),
    "doctor.battery_ok": ("{mv} mV: {percent} %", "{mv} mV: {percent} %"),
    "doctor.power_none": ("keine Zähler: der Becher lief seit dem Start nicht",
                          "no counters: the cup has not run since it started"),
    "doctor.power_counted": ("in {minutes} min: CPU wartet {waiting} %, tief schlafend {deep_sleep} %, "
                             "mit Host {hosted} %, LED-Strom an {leds_on} %, {wakes} Wecker/s",
                             "in {minutes} min: CPU waiting {waiting} %, in deep sleep {deep_sleep} %, "
                             "hosted {hosted} %, LED supply on {leds_on} %, {wakes} wake-ups/s"),

    # --- scan: the cups in reach
    "scan.via": ("über", "via"),
    "scan.address": ("Adresse", "address"),
    "scan.cup": ("Becher", "cup"),
    "scan.name": ("Name", "name"),
    "scan.seat": ("Platz", "seat"),
    "scan.rssi": ("Signal", "rssi"),
    "scan.battery": ("Akku", "battery"),
    "scan.charge": ("{percent} %", "{percent} %"),
    "scan.charge_low": ("{percent} % – laden!", "{percent} % – charge it!"),
    "scan.usb": ("USB-Strom", "USB power"),
    "scan.state": ("Zustand", "state"),
    "scan.state_idle": ("bereit", "idle"),
    "scan.state_turn": ("am Zug", "turn"),
    "scan.state_done": ("steht", "done"),
    "scan.state_reveal_ready": ("bereit zum Aufdecken", "reveal_ready"),
    "scan.state_revealed": ("aufgedeckt", "revealed"),
    "scan.motion_still": ("ruht", "still"),
    "scan.motion_tilt": ("gekippt", "tilted"),
    "scan.motion_handling": ("bewegt", "handled"),
    "scan.motion_set_down": ("abgesetzt", "set down"),
    "scan.motion_shaking": ("wird geschüttelt", "shaking"),
    "scan.motion_settling": ("kommt zur Ruhe", "settling"),
    "scan.paired_elsewhere": ("gepaart mit einem anderen Host", "paired with another host"),
    "scan.not_authentic": ("Identität nicht echt", "identity not authentic"),
    "scan.none_found": ("keine Becher gefunden", "no cups found"),
    "scan.no_bluetooth": ("Bluetooth ({backend}) nicht verfügbar: {error}",
                          "Bluetooth ({backend}) not available: {error}"),
}
