"""What the command line says about bad input: arguments, files, the table file, game logs. Each is printed by
cli.main as one line, "schocken: Fehler: <text>" (errors.CommandError). {key: (German, English)}."""

TEXTS = {
    # --- cli.py
    "cli.error": ("Fehler", "error"),
    "cli.internal_error": ("interner Fehler: {kind}: {error} (SCHOCKEN_DEBUG=1 zeigt den Traceback)",
                           "internal error: {kind}: {error} (SCHOCKEN_DEBUG=1 shows the traceback)"),
    "cli.foreign_rules": (
        "das Modul schocken aus {where} ist nicht das Regelpaket dieses Projekts ({dist}); es vorn "
        "aus sys.path entfernen (PYTHONPATH?)",
        "the module schocken from {where} is not this project's rules package ({dist}); remove it from the "
        "front of sys.path (PYTHONPATH?)"),
    "cli.foreign_rules_dist": (
        "das Modul schocken aus {where} gehört zu {owner}, nicht zu {dist} (ein anderes Paket gleichen "
        "Namens auf PyPI): pip uninstall {name}, dann {dist} neu installieren (im Checkout: "
        "pip install -e .)",
        "the module schocken from {where} belongs to {owner}, not to {dist} (another package of that name on "
        "PyPI): pip uninstall {name}, then install {dist} again (in its checkout: pip install -e .)"),
    "cli.nested": ("Eingabe zu tief verschachtelt", "input nested too deeply"),
    "cli.not_utf8": ("Eingabe ist kein UTF-8-Text ({error})", "input is not UTF-8 text ({error})"),
    "cli.os_error": ("{error}", "{error}"),

    # --- input_checks.py
    "input.file": ("Datei", "file"),
    "input.table_file": ("Tischdatei", "table file"),
    "input.board_file": ("Board-Datei", "board file"),
    "input.log_folder": ("Log-Ordner", "log folder"),
    "input.is_a_folder": ("{path}: ist ein Ordner, keine {what}", "{path}: is a folder, not a {what}"),
    "input.no_such_file": ("{path}: {what} gibt es nicht", "{path}: no such {what}"),
    "input.unreadable": ("{path}: nicht lesbar: {error}", "{path}: cannot read it: {error}"),
    "input.not_utf8": ("{path}: kein UTF-8-Text (Byte 0x{byte:02x} an Stelle {offset})",
                       "{path}: not UTF-8 text (byte 0x{byte:02x} at offset {offset})"),
    "input.empty_port": ("{option}: leerer Portname", "{option}: empty port name"),
    "input.port_is_a_folder": ("{option} {port}: ist ein Ordner, kein serieller Port",
                               "{option} {port}: is a folder, not a serial port"),
    "input.no_such_device": ("{option} {port}: dieses Gerät gibt es nicht",
                             "{option} {port}: no such device"),
    "input.unknown_scheme": ("{option} {port}: unbekannte Art von Adresse {scheme}:// (ein Becher im Netz: "
                             "socket://HOST:PORT oder rfc2217://HOST:PORT)",
                             "{option} {port}: unknown kind of address {scheme}:// (a cup on the network: "
                             "socket://HOST:PORT or rfc2217://HOST:PORT)"),
    "input.url_needs_address": ("{option} {port}: braucht {scheme}://HOST:PORT mit einer Portnummer von "
                                "1 bis 65535",
                                "{option} {port}: needs {scheme}://HOST:PORT with a port number from 1 to "
                                "65535"),
    "input.folder_is_a_file": ("{what} {path}: {probe} ist eine Datei, kein Ordner",
                               "{what} {path}: {probe} is a file, not a folder"),
    "input.folder_not_writable": ("{what} {path}: {probe} ist nicht beschreibbar",
                                  "{what} {path}: {probe} is not writable"),
    "input.set_needs_value": ("--set braucht OPTION=WERT, nicht {item!r}",
                              "--set needs OPTION=VALUE, not {item!r}"),

    # --- table/table_file.py (docs/table-file.md)
    "table_file.name_not_text": ("{where}: braucht Text, nicht {name!r}",
                                 "{where}: needs text, not {name!r}"),
    "table_file.empty_name": ("{where}: leerer Name", "{where}: empty name"),
    "table_file.control_character": ("{where}: {name!r} enthält ein Steuerzeichen",
                                     "{where}: {name!r} has a control character"),
    "table_file.no_players": ("{path}: braucht [[players]]-Einträge, einen je Platz, jeden mit einem Namen",
                              "{path}: needs [[players]] entries, one per seat, each with a name"),
    "table_file.player_not_a_table": ("{where}: braucht eine Tabelle mit einem Namen ([[players]])",
                                      "{where}: needs a table with a name ([[players]])"),
    "table_file.unknown_key": ("{where}: unbekannter Schlüssel {keys} (bekannt: {known})",
                               "{where}: unknown key {keys} (known: {known})"),
    "table_file.no_name": ("{where}: braucht einen Namen", "{where}: needs a name"),
    "table_file.name_twice": ("{where}.name: {name!r} sitzt schon am Tisch",
                              "{where}.name: {name!r} sits at the table already"),
    "table_file.port_not_text": ("{where}.port: braucht einen Portnamen wie /dev/ttyACM0 oder COM3, nicht "
                                 "{port!r}",
                                 "{where}.port: needs a port name like /dev/ttyACM0 or COM3, not {port!r}"),
    "table_file.port_twice": ("{where}.port: {port} gehört schon einem anderen Spieler",
                              "{where}.port: {port} belongs to another player already"),
    "table_file.ports_first": ("{where}.port: Spieler mit Port kommen zuerst in der Datei "
                               "(players[{portless}] hat keinen)",
                               "{where}.port: players with a port come first in the file "
                               "(players[{portless}] has none)"),
    "table_file.unknown_rules": ("{path}: rules: unbekanntes Regelwerk {rules!r} (bekannt: {known})",
                                 "{path}: rules: unknown rule set {rules!r} (known: {known})"),
    "table_file.options_not_a_table": ("{path}: options: braucht eine Tabelle [options] mit OPTION = WERT",
                                       "{path}: options: needs a table [options] of OPTION = VALUE"),
    "table_file.unknown_option": ("{path}: options.{option}: unbekannte Option (bekannt: {known})",
                                  "{path}: options.{option}: unknown option (known: {known})"),
    "table_file.option_value": ("{path}: options.{option}: braucht true, false, eine ganze Zahl oder ein "
                                "Wort, nicht {value!r}",
                                "{path}: options.{option}: needs true, false, a whole number or a word, "
                                "not {value!r}"),
    "table_file.not_toml": ("{path}: kein TOML: {error}", "{path}: not TOML: {error}"),
    "table_file.nested": ("{path}: kein TOML: zu tief verschachtelt", "{path}: not TOML: nested too deeply"),

    # --- table/seating.py: who sits where
    "seating.no_names": ("--names: kein Name angegeben (Namen in Sitzordnung, durch Kommas getrennt)",
                         "--names: no name given (names in seating order, comma separated)"),
    "seating.name_twice": ("--names: {name!r} sitzt schon am Tisch",
                           "--names: {name!r} sits at the table already"),
    "seating.ports_twice": ("{table} nennt die Ports, --port auch: bitte nur an einer Stelle",
                            "{table} gives the ports, --port too: give them in one place"),
    "seating.port_twice": ("{option} {port}: doppelt angegeben (ein Becher, ein Platz)",
                           "{option} {port}: given twice (one cup, one seat)"),
    "seating.table_rules": ("{table}: {error}", "{table}: {error}"),
    "seating.too_many_emulated": ("--emulate {n}: höchstens {most} emulierte Becher",
                                  "--emulate {n}: at most {most} emulated cups"),
    "seating.too_many_bots": ("--bots {bots}: nur {cups} emulierte Becher (--emulate N) zum Spielen",
                              "--bots {bots}: only {cups} emulated cups (--emulate N) to play"),
    "seating.one_cup": ("ein Spiel braucht mindestens zwei Becher, dieser Tisch hat {seats} (--emulate N "
                        "oder --port)",
                        "a game needs at least two cups, this table has {seats} (use --emulate N or --port)"),
    "seating.too_few_cups": ("ein Spiel braucht mindestens zwei Becher (--emulate N oder --port)",
                             "a game needs at least two cups (use --emulate N or --port)"),
    "seating.too_few_players": ("die Regeln {rules} brauchen mindestens {least} Mitspieler, dieser Tisch "
                                "hat {seats}",
                                "rules {rules} need at least {least} players, this table has {seats}"),
    "seating.too_many_names": ("{n} Namen für {seats} Plätze: {extra}",
                               "{n} names for {seats} seats: {extra}"),
    "seating.opener": ("--opener {opener}: die Plätze sind von 0 bis {last} nummeriert",
                       "--opener {opener}: the seats are numbered 0 to {last}"),
    "seating.seed_and_fair": ("--seed legt die Würfe der emulierten Becher fest: das geht nicht mit --fair",
                              "--seed scripts the dice of the emulated cups: it cannot be combined with "
                              "--fair"),
    "seating.time_scale_people": ("--time-scale {scale}: {people} Mitspieler an diesem Tisch sind Menschen "
                                  "und spielen in Menschentempo (nur ein Tisch von Bots läuft schneller)",
                                  "--time-scale {scale}: {people} player(s) at this table are people, who "
                                  "play at human speed (only a table of bots runs faster)"),
    "seating.not_the_logged_table": ("der Tisch passt nicht zum Log: Plätze {seats}, das Log hat {logged}",
                                     "the table does not match the log: seats {seats}, the log has {logged}"),

    # --- commands/play.py
    "play.no_answer": ("ein Becher antwortet nicht ({cups})", "a cup does not answer ({cups})"),
    "play.log_failed": ("{error}; das Spiel endet hier, weiter mit --resume, sobald das Log schreibbar ist",
                        "{error}; the game stops here, continue with --resume once the log can be written"),

    # --- table/gamelog.py
    "gamelog.cannot_open": ("{path}: das Spiel-Log lässt sich nicht öffnen: {error}",
                            "{path}: cannot open the game log: {error}"),
    "gamelog.locked": ("{path}: ein anderes schocken play schreibt dieses Spiel-Log",
                       "{path}: another schocken play is writing this game log"),
    "gamelog.cannot_write": ("{path}: das Spiel-Log lässt sich nicht schreiben: {error}",
                             "{path}: cannot write the game log: {error}"),
    "gamelog.raw_newline": ("ein Ereignis mit einem rohen Zeilenumbruch", "an event with a raw newline"),
    "gamelog.completed_last_line": ("letzte Zeile ergänzt (ihr fehlte der Zeilenumbruch)",
                                    "completed the last line (its newline was missing)"),
    "gamelog.dropped_torn_line": ("eine abgerissene letzte Zeile entfernt ({n} Bytes, aufbewahrt in {torn})",
                                  "dropped a torn last line ({n} bytes, kept in {torn})"),
    "gamelog.not_utf8": ("kein UTF-8 (Byte {offset})", "not UTF-8 (byte {offset})"),
    "gamelog.line_not_json": ("Zeile {line} ist kein JSON", "line {line} is not JSON"),
    "gamelog.line_not_an_event": ("Zeile {line} ist kein Ereignis", "line {line} is not an event"),
    "gamelog.bad": ("{path}: {error}", "{path}: {error}"),
    "gamelog.bad_line": ("{path} Zeile {line}: {error}", "{path} line {line}: {error}"),
    "gamelog.nested": ("{path}: eine Zeile ist zu tief verschachtelt", "{path}: a line nested too deeply"),
    "gamelog.newest_empty": ("{path} ist leer: darin begann kein Spiel, und kein anderes Spiel ist "
                             "unvollendet",
                             "{path} is empty: no game was started in it, and no other game is unfinished"),
    "gamelog.none_unfinished": ("kein unvollendetes Spiel-Log in {folder}",
                                "no unfinished game log in {folder}"),
    "gamelog.no_such_log": ("{path}: dieses Spiel-Log gibt es nicht", "{path}: no such game log"),
    "gamelog.no_start": ("{path}: kein Spiel in diesem Log (es hat kein start-Ereignis)",
                         "{path}: no game in this log (it has no start event)"),
    "gamelog.over": ("{path}: dieses Spiel ist schon aus", "{path}: this game is over already"),

    # --- table/state.py: a log that does not replay (LogError)
    "log.unknown_event": ("unbekanntes Ereignis {kind!r}", "unknown event {kind!r}"),
    "log.rules_refuse": ("{kind}-Ereignis: die Regeln lehnen es ab: {error}",
                         "{kind} event: the rules refuse it: {error}"),
    "log.malformed": ("{kind}-Ereignis ist fehlerhaft: {error}", "{kind} event is malformed: {error}"),
    "log.version": ("Log-Version {version!r}, dieser Host liest {reads}",
                    "log version {version!r}, this host reads {reads}"),
    "log.throw_off_seats": ("Auswürfeln der Plätze {logged}, das Spiel erwartet {expected}",
                            "throw-off by seats {logged}, the game expected {expected}"),
    "log.throw_off_opener": ("beim Auswürfeln beginnt {opener!r}, das Log sagt {logged!r}",
                             "throw-off opener is {opener!r}, the log says {logged!r}"),
    "log.round_seats": ("Runde {round} der Plätze {logged}, das Spiel erwartet {expected}",
                        "round {round} by seats {logged}, the game expected {expected}"),
    "log.round_differs": ("Runde {round}: {field} ist {logged!r}, die Regeln ergeben {rules!r}",
                          "round {round}: {field} is {logged!r}, the rules give {rules!r}"),
    "log.penalty_moves": ("Strafdeckel {logged!r}, die Regeln ergeben {rules!r}",
                          "penalty moves {logged!r}, the rules give {rules!r}"),
    "log.einwuerfeln_moves": ("Einwürfeln {logged!r}, die Regeln ergeben {rules!r}",
                              "Einwürfeln moves {logged!r}, the rules give {rules!r}"),
    "log.loser": ("Spiel aus mit Verlierer {logged!r}, die Regeln sagen {rules!r}",
                  "game over with loser {logged!r}, the rules say {rules!r}"),

    # --- commands/rank.py, replay.py, stats.py, scan.py, cup.py, shake_replay.py
    "rank.not_json": ("Eingabe ist kein JSON: {error}", "input is not JSON: {error}"),
    "rank.nested": ("Eingabe zu tief verschachtelt: eine Runde ist ein Objekt mit einer \"throws\"-Liste",
                    "input nested too deeply: a round is an object with a \"throws\" list"),
    "rank.no_throws": ("Eingabe braucht ein Objekt mit einer \"throws\"-Liste",
                       "input needs an object with a \"throws\" list"),
    "rank.no_dice": ("Wurf {i}: braucht ein Objekt mit \"dice\"", "throw {i}: needs an object with \"dice\""),
    "rank.unknown_field": ("Wurf {i}: unbekanntes Feld {fields}", "throw {i}: unknown field {fields}"),
    "rank.one_throw": ("eine Runde braucht mindestens zwei Würfe, hier sind es {n}",
                       "a round needs at least two throws, got {n}"),
    "rank.not_utf8": ("Eingabe ist kein UTF-8-Text (Byte 0x{byte:02x} an Stelle {offset})",
                      "input is not UTF-8 text (byte 0x{byte:02x} at offset {offset})"),
    "replay.no_start": ("{path}: ein Spiel-Log beginnt mit einem start-Ereignis",
                        "{path}: a game log starts with a start event"),
    "stats.not_a_folder": ("{folder}: ist eine Datei, kein Ordner mit Spiel-Logs",
                           "{folder}: is a file, not a folder of game logs"),
    "stats.no_such_folder": ("--log-dir {folder}: diesen Ordner gibt es nicht",
                             "--log-dir {folder}: no such folder"),
    "scan.nothing_to_scan": ("--no-serial und --no-ble: nichts mehr zu suchen",
                             "--no-serial and --no-ble: nothing left to scan"),
    "cup.board_not_json": ("{path}: kein JSON: {error}", "{path}: not JSON: {error}"),
    "cup.board_nested": ("{path}: kein JSON: zu tief verschachtelt", "{path}: not JSON: nested too deeply"),
    "cup.board_not_object": ("{path}: eine Board-Datei ist ein JSON-Objekt (hardware/boards/*.json)",
                             "{path}: a board file is a JSON object (hardware/boards/*.json)"),
    "cup.board_leds": ("{path}: leds muss {n} sein (der Ring des Bechers), nicht {leds!r}",
                       "{path}: leds must be {n} (the cup's ring), not {leds!r}"),
    "cup.board_brightness": ("{path}: brightness muss eine Zahl von 0 bis 1 sein, nicht {brightness!r}",
                             "{path}: brightness must be a number from 0 to 1, not {brightness!r}"),
    "shake_replay.sensor": ("der Sensor ist accel oder switch, nicht {sensor!r}",
                            "sensor must be accel or switch, not {sensor!r}"),
    "shake_replay.cannot_run": ("die Firmware lässt sich nicht starten: {error}",
                                "cannot run the firmware: {error}"),
    "shake_replay.firmware_failed": ("die Firmware ist gescheitert: {error}", "the firmware failed: {error}"),
    "shake_replay.on_cpython": ("micropython nicht gefunden; der Schüttel-Detektor der Firmware lief unter "
                                "CPython",
                                "micropython not found; the firmware detector ran on CPython"),
}
