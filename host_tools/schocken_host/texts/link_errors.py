"""What goes wrong between the host and a cup: a link that breaks or cannot be trusted (links/), a board that
does not answer or does not fit (provision/). {key: (German, English)}."""

TEXTS = {
    # --- links/: TransportClosed
    "link.refused": ("{name}: {error}", "{name}: {error}"),
    "link.unsigned_but_paired": ("{name}: Becher {cup} antwortet ohne Signatur, ist aber gepaart",
                                 "{name}: cup {cup} answers unauthenticated, but it is paired"),
    "link.not_paired": ("unbekannter Becher {cup}: nicht gepaart", "unknown cup {cup}: not paired"),
    "link.no_signed_line": ("keine signierte Zeile", "no signed line"),
    "link.secret_not_hex": ("das gespeicherte Geheimnis ist kein Hex", "the stored secret is not hex"),
    "link.not_authentic": ("{name}: Becher {cup}: Identität nicht echt: {problem}",
                           "{name}: cup {cup}: identity not authentic: {problem}"),
    "link.cannot_connect": ("{name}: keine Verbindung: {error}", "{name}: cannot connect: {error}"),
    "link.no_answer": ("keine Antwort", "no answer"),
    "link.cup_silent": ("{name}: der Becher antwortet nicht (er sagt nicht, wer er ist)",
                        "{name}: the cup does not answer (it does not say who it is)"),
    "link.connection_lost": ("{name}: Verbindung verloren", "{name}: connection lost"),
    "link.not_connected": ("{name} ist nicht verbunden", "{name} is not connected"),
    "link.cannot_open": ("{port} lässt sich nicht öffnen: {error}", "cannot open {port}: {error}"),
    "link.unknown_host": ("{port}: Rechner {host} unbekannt (Name vertippt oder kein Netz?)",
                          "{port}: unknown host {host} (a typo, or no network?)"),
    "link.connection_refused": ("{port}: {host} lehnt die Verbindung ab (läuft dort ser2net oder die "
                                "Simulation, auf diesem Port?)",
                                "{port}: {host} refuses the connection (is ser2net or the simulation running "
                                "there, on this port?)"),
    "link.host_silent": ("{port}: {host} antwortet nicht (Adresse falsch, eine Firewall?)",
                         "{port}: {host} does not answer (a wrong address, a firewall?)"),
    "link.closed": ("{name} ist geschlossen", "{name} is closed"),
    "link.broken": ("{name}: {error}", "{name}: {error}"),
    "link.failed": ("{kind}: {error}", "{kind}: {error}"),
    "link.other_cup": ("ein anderer Becher ({cup}) antwortet für Platz {seat}",
                       "a different cup ({cup}) answers for seat {seat}"),
    "link.unknown_rules": ("Becher {cup} kennt das Regelwerk {rules} nicht",
                           "cup {cup} does not know the rule set {rules}"),

    # --- provision/device.py, boards.py: the board over mpremote
    "device.usb_hint": ("prüfe das USB-Kabel (ein reines Ladekabel hat keine Datenleitungen) und dass kein "
                        "anderes Programm (ein serieller Monitor, Thonny, ein anderes mpremote) den Port "
                        "belegt",
                        "check the USB cable (a charge-only cable has no data lines) and that no other "
                        "program (a serial monitor, Thonny, another mpremote) holds the port"),
    "device.no_board": ("kein Board an USB gefunden: steck den Becher an ({hint}) oder gib --port an",
                        "no board found on USB: plug the cup in ({hint}), or give --port"),
    "device.several_boards": ("mehrere Boards gefunden ({ports}): wähle eins mit --port",
                              "several boards found ({ports}): choose one with --port"),
    "device.cannot_open": ("{port} lässt sich nicht öffnen: {error} ({hint})",
                           "cannot open {port}: {error} ({hint})"),
    "device.stopped_answering": ("der Becher an {port} antwortet nicht mehr: {error}",
                                 "the cup stopped answering on {port}: {error}"),
    "device.on_the_cup": ("auf dem Becher: {error}", "on the cup: {error}"),
    "device.printed_nothing": ("der Becher gab nichts aus für {code!r}",
                               "the cup printed nothing for {code!r}"),
    "device.write_failed": ("{path} schreiben fehlgeschlagen: {error}", "writing {path} failed: {error}"),
    "device.not_micropython": ("an {port} antwortet kein MicroPython-REPL. Ist das Board neu, zuerst "
                               "MicroPython flashen:\n{hints}\nDann schocken deploy noch einmal. (Sonst: "
                               "{hint}.)",
                               "no MicroPython REPL answers on {port}. If the board is new, flash "
                               "MicroPython first:\n{hints}\nThen run schocken deploy again. (Otherwise: "
                               "{hint}.)"),
    "boards.unknown": ("unbekanntes Board {name!r} (bekannt: {known})",
                       "unknown board {name!r} (known: {known})"),
    "boards.flash_hint": ("{name}: MicroPython-Image {image} von {url}\n  {hint}\n  Werkzeug: {tool}",
                          "{name}: MicroPython image {image} from {url}\n  {hint}\n  tool: {tool}"),
    "boards.tool_esptool": ("esptool (pip install esptool): BOOT halten, wenn es sich nicht verbindet, dann "
                            "einmal löschen mit `esptool.py --chip {chip} erase_flash`",
                            "esptool (pip install esptool): hold BOOT if it does not connect, then erase "
                            "once with `esptool.py --chip {chip} erase_flash`"),
    "boards.tool_uf2": ("UF2 kopieren: kein Werkzeug nötig, das Board erscheint als USB-Laufwerk, solange "
                        "BOOTSEL gedrückt ist",
                        "UF2 copy: no tool needed, the board shows up as a USB drive while BOOTSEL is held"),
    "boards.tool_none": ("kein Flashen: das emulierte Board ist der Unix-Port",
                         "no flashing: the emulated board is the unix port"),

    # --- provision/deploy.py: DeployError
    "deploy.cup_id_length": ("--cup-id braucht 1 bis {most} Zeichen, nicht {cup_id!r}",
                             "--cup-id must be 1 to {most} characters, not {cup_id!r}"),
    "deploy.name_length": ("--name hat höchstens {most} Zeichen, nicht {name!r}",
                           "--name must be at most {most} characters, not {name!r}"),
    "deploy.no_bluetooth": ("Board {board} hat kein Bluetooth: --link ble geht nicht",
                            "board {board} has no Bluetooth: --link ble is not possible"),
    "deploy.which_board": ("welches Board das ist, lässt sich nicht erkennen ({machine}): gib --board an "
                           "({known})",
                           "cannot tell which board this is ({machine}): give --board ({known})"),
    "deploy.control_emulated_only": ("--control gibt es nur für das emulierte Board",
                                     "--control is for the emulated board only"),
    "deploy.verify_failed": ("Prüfung fehlgeschlagen: {files} weichen auf dem Becher ab (Flash voll oder "
                             "defekt?); deploy noch einmal",
                             "verify failed: {files} differ on the cup (flash full or failing?); run "
                             "deploy again"),
    "deploy.mpy_version": ("MicroPython auf dem Becher lädt .mpy-Version {loads}, diese Firmware braucht "
                           "{needs}: flashe ein aktuelles Image:\n{hint}",
                           "MicroPython on the cup loads .mpy version {loads}, this firmware needs "
                           "{needs}: flash a current image:\n{hint}"),
    "deploy.wrong_arch": ("dieses MicroPython läuft auf {runs}, Board {board} braucht {arch}: falsches "
                          "--board? ({machine})",
                          "this MicroPython runs {runs}, but board {board} needs {arch}: wrong --board? "
                          "({machine})"),
    "deploy.no_native_arch": ("keiner nativen Architektur", "no native arch"),
    "deploy.needs_unix_port": ("das emulierte Board braucht den MicroPython-Unix-Port, dies ist {platform}",
                               "board emulated needs the MicroPython unix port, this is {platform}"),
    "doctor.no_fw": ("Keine Becher-Firmware auf dem Board: zuerst `schocken deploy`",
                     "No cup firmware on the board: run `schocken deploy` first"),
}
