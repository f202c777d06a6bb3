"""The options' descriptions under `schocken VERB --help`, in German and English. A verb gives its option's
help in English where it defines the option (commands/*.py); input_checks.OneLineParser finds it here by that
English text as the option is added and keeps the text of the user's language (tests/test_cli_words.py checks
that every option has one). {key: (German, English)}."""

TEXTS = {
    "help.rules_rules": ("Regelwerk: beton, ludomax, standard, verein, wuerfel63 (Vorgabe: standard)",
                         "rule set: beton, ludomax, standard, verein, wuerfel63 (default: standard)"),
    "help.rules_set": ("eine Option des Regelwerks ändern (mehrfach möglich)",
                       "change one option of the rule set (repeatable)"),
    "help.rank_json": ("das Ergebnis als JSON ausgeben", "print the result as JSON"),
    "help.odds_throws": ("höchstens K Würfe (Vorgabe: das Höchste der Regeln; mit --beat: die Würfe dieses "
                         "Wurfs)",
                         "at most K throws (default: the rules' maximum; with --beat: that throw's throws)"),
    "help.odds_strategy": ("die Strategie der Bots, deren Endwürfe die Tabelle zeigt (Vorgabe: optimal, die "
                           "der "
                           "Bots in schocken play; am Tisch spielt sie gegen die Würfe vor ihr, hier als "
                           "Eröffner einer Runde zu zweit)",
                           "the bots' strategy whose final throws the table shows (default: optimal, the "
                           "bots' "
                           "of schocken play; at a table it plays against the throws before it, here as the "
                           "opener of a round of two)"),
    "help.odds_beat": ("der zu schlagende Wurf: seine drei Augen und seine Würfe, z. B. \"6 6 1 2\"; "
                       "\"... hand\", wenn kein Würfel herausgelegt war",
                       "the throw to beat: its three dice and throws used, e.g. \"6 6 1 2\"; \"... hand\" "
                       "when "
                       "no die was set aside"),
    "help.odds_json": ("als JSON ausgeben", "print JSON"),
    "help.cup_emulate": ("einen emulierten Becher starten (bisher die einzige Art)",
                         "run an emulated cup (the only kind so far)"),
    "help.cup_sensor": ("Schüttelsensor des emulierten Boards (Vorgabe: der des Boards)",
                        "shake sensor of the emulated board (default: the board's)"),
    "help.cup_board": ("Board-Datei, z. B. hardware/boards/pico_w.json",
                       "board file, e.g. hardware/boards/pico_w.json"),
    "help.cup_name": ("der Spielername des Bechers", "the cup's player name"),
    "help.cup_rules": ("Regelwerk: beton, ludomax, standard, verein, wuerfel63 (allein spielt die Firmware "
                       "standard)",
                       "rule set: beton, ludomax, standard, verein, wuerfel63 (alone the firmware plays "
                       "standard)"),
    "help.cup_long_ms": ("Dauer eines langen Drucks der Tasten (Vorgabe: die 1200 ms der Firmware)",
                         "long-press time of the cup's buttons (default: the firmware's 1200 ms)"),
    "help.shake_replay_trace": ("CSV: 't_ms,ax,ay,az' (m/s^2) oder 't_ms,level'",
                                "CSV: 't_ms,ax,ay,az' (m/s^2) or 't_ms,level'"),
    "help.shake_replay_sensor": ("Art des Sensors (Vorgabe: aus der Kopfzeile der CSV)",
                                 "sensor kind (default: from the CSV header)"),
    "help.shake_replay_shake": ("die Empfindlichkeit des Bechers (Vorgabe normal; docs/rules.md, "
                                "'The shake')",
                                "the cup's shake sensitivity (default normal; docs/rules.md, 'The shake')"),
    "help.deploy_shake": ("wie kräftig ein Schütteln sein muss, um zu werfen (docs/rules.md, 'The shake'; "
                          "Vorgabe: was der Becher hat, sonst normal)",
                          "how firm a shake must be to throw (docs/rules.md, 'The shake'; default: what the "
                          "cup has, else normal)"),
    "help.doctor_calibrate": ("die Schüttel-Schwelle zwischen drei eigenen Würfen und dem eigenen Hantieren "
                              "setzen (statt des Selbsttests; docs/rules.md, 'The shake')",
                              "set the shake threshold between three shakes of yours and your handling of "
                              "the cup (instead of the self-test; docs/rules.md, 'The shake')"),
    "help.play_emulate": ("N emulierte Becher starten (höchstens 32)", "start N emulated cups (at most 32)"),
    "help.play_bots": ("K der emulierten Becher spielen Bots (Vorgabe: alle)",
                       "K of the emulated cups are played by bots (default: all)"),
    "help.play_port": ("serieller Port eines Bechers, oder socket://HOST:PORT, rfc2217://HOST:PORT für einen "
                       "Becher im Netz (mehrfach möglich)",
                       "serial port of a cup, or socket://HOST:PORT, rfc2217://HOST:PORT for a cup on the "
                       "network (repeatable)"),
    "help.play_ble": ("ein Becher über Bluetooth LE, nach seiner Kennung, über den Bluetooth-Stack des "
                      "Systems "
                      "(bleak; mehrfach möglich)",
                      "a cup over Bluetooth LE by its id, through the system's stack (bleak; repeatable)"),
    "help.play_names": ("die Namen der Spieler in Sitzordnung, durch Kommas getrennt",
                        "player names in seating order, comma separated"),
    "help.play_table": ("Spieler, ihre Ports und die Regeln aus einer Tischdatei (docs/table-file.md)",
                        "players, their ports and the rules from a table file (docs/table-file.md)"),
    "help.play_plain": ("eine Zeile je Ereignis statt der Tafel",
                        "one line per event instead of the scoreboard"),
    "help.play_reveal": ("alle Becher auf einmal aufdecken, oder jeder drückt die Taste seines Bechers",
                         "uncover all cups at once, or each player presses his cup's button"),
    "help.play_cheat": ("ein Becher beim Schummeln ertappt: die Runde neu spielen, oder der Schummler "
                        "bekommt "
                        "die Deckel",
                        "a cup caught cheating: play the round again, or the cheater takes the Deckel"),
    "help.play_absent_timeout": ("so viele Sekunden darf ein Becher weg oder stumm sein, bevor der Tisch "
                                 "entscheidet: warten oder aufgeben (Vorgabe 120; ein Tisch, der nicht in "
                                 "ebenso langer Zeit antwortet, gibt auf)",
                                 "seconds a cup may be gone or silent before the table decides: wait or "
                                 "forfeit "
                                 "(default 120; a table that does not answer within as long again forfeits)"),
    "help.play_turn_timeout": ("so viele Sekunden darf ein anwesender Spieler für einen Zug oder das "
                               "Aufdecken "
                               "brauchen, bevor der Tisch entscheidet (Vorgabe 600)",
                               "seconds a present player may take for a turn or a reveal before the table "
                               "decides (default 600)"),
    "help.play_no_auth": ("emulierte Becher ohne Geheimnis: Verbindungen ohne Signatur (sonst bekommt jeder "
                          "emulierte Becher ein frisches Geheimnis, und jede Nachricht ist signiert)",
                          "emulated cups without a secret: unauthenticated links (by default each emulated "
                          "cup "
                          "gets a fresh secret and every message is signed)"),
    "help.play_no_fair": ("nachweislich faire Würfel: jeder Wurf aus dem zugesagten Startwert des Bechers "
                          "und "
                          "einer Zufallszahl des Hosts (docs/fairness.md; Vorgabe, aus mit --seed; "
                          "--no-fair: "
                          "jeder Becher würfelt allein)",
                          "provably fair dice: each throw from the cup's committed seed and a host nonce "
                          "(docs/fairness.md; on by default, off with --seed; --no-fair: each cup rolls "
                          "alone)"),
    "help.play_strategy": ("wie die Bots spielen: eine Strategie für alle Bots oder eine je Bot in "
                           "Sitzordnung (optimal,fast,schock,general); Vorgabe: die der Tischdatei, sonst "
                           "optimal (docs/odds.md)",
                           "how the bots play: one strategy for every bot, or one per bot in seating order "
                           "(optimal,fast,schock,general); default: the table file's, else optimal "
                           "(docs/odds.md)"),
    "help.play_seed": ("die Würfe der emulierten Bot-Becher aus diesem Startwert (festgelegte Würfe: kein "
                       "faires Spiel)",
                       "dice for emulated bot cups from this seed (scripted dice: fair play is off)"),
    "help.play_turnier": (
        "ein Turniertisch: die Adresse auf seiner Tischkarte (http://HOST:PORT/tisch/SCHLÜSSEL); die "
        "Spieler kommen aus der Auslosung der Turnierleitung, das beendete Spiel wird dort gemeldet "
        "(docs/turnier.md)",
        "a tournament's table: the address on its table card (http://HOST:PORT/tisch/KEY); the players come "
        "from the director's draw and the finished game is reported there (docs/turnier.md)"),
    "help.play_opener": ("der Platz, der beginnt, 1 für den ersten (kein Auswürfeln)",
                         "seat that opens, 1 for the first (skips the throw-off)"),
    "help.play_resume": ("ein unterbrochenes Spiel fortsetzen (das neueste Log, wenn keines genannt ist)",
                         "continue an interrupted game (the newest log if none is named)"),
    "help.play_log_dir": ("wohin die Spiel-Logs kommen (Vorgabe: der Datenordner des Benutzers)",
                          "where game logs go (default: the user data directory)"),
    "help.play_heap": ("Heap jedes emulierten Bechers (micropython -X heapsize, 64k bis 64M)",
                       "heap of each emulated cup (micropython -X heapsize, 64k to 64M)"),
    "help.play_cup_slowness": ("die Becher laufen K-mal langsamer als ein Chip (1..100; ein emulierter "
                               "RP2040 etwa 26, docs/build.md): der Host wartet K-mal länger auf jede "
                               "Antwort",
                               "the cups run K times slower than a chip (1..100; an emulated RP2040 about "
                               "26, docs/build.md): the host waits K times longer for each answer"),
    "help.play_time_scale": ("emulierte Becher und Bots laufen K-mal schneller (1..100; nur emulierte "
                             "Becher: "
                             "ein Mensch an einem spielt ihn mit seinen Tasten wie sonst, die Bots sind "
                             "schneller)",
                             "emulated cups and bots run K times faster (1..100; only emulated cups: a "
                             "person "
                             "at one plays it with his keys as usual, the bots go faster)"),
    "help.play_coach": ("dem Spieler am Zug seine Chance zeigen, die Würfe vor ihm zu schlagen, und die "
                        "Deckel, "
                        "die er erwarten kann, aus dem, was der Tisch zeigt (Tafel und --web; aus als "
                        "Vorgabe: "
                        "es ändert das Spiel; docs/odds.md)",
                        "show the player on turn his chance of beating the throws before his and the Deckel "
                        "he "
                        "can expect, from what the table shows (scoreboard and --web; off by default: it "
                        "changes the game; docs/odds.md)"),
    "help.play_rules": ("Regelwerk (Vorgabe: das der Tischdatei, sonst standard; schocken rules zeigt sie)",
                        "rule set (default: the table file's, else standard; schocken rules shows them)"),
    "help.play_exit_after": ("nach Spielende so viele Sekunden warten (die Tafel zeigt das Ende), dann "
                             "beenden; "
                             "ohne: die Tafel bleibt bis q",
                             "once the game is over, wait this many seconds (the scoreboard shows the end), "
                             "then "
                             "exit; without it the scoreboard stays until q"),
    "help.play_web": ("das Spiel als Live-Webseite zeigen (Vorgabe: Port 8015 auf jeder Adresse; "
                      "docs/web.md)",
                      "serve the game as a live web page (default port 8015 on every address; docs/web.md)"),
    "help.deploy_port": ("serieller Port des Bechers, oder socket://HOST:PORT, rfc2217://HOST:PORT (Vorgabe: "
                         "das eine gefundene USB-Board)",
                         "serial port of the cup, or socket://HOST:PORT, rfc2217://HOST:PORT (default: the "
                         "one "
                         "USB board found)"),
    "help.deploy_board": ("das Board (Vorgabe: die /board.json darauf, sonst erkannt)",
                          "board (default: the /board.json on it, else detected)"),
    "help.deploy_name": ("der Spielername, den der Becher zeigt, bis ein Host ihn setzt (höchstens 24)",
                         "player name the cup shows until a host seats it (max. 24)"),
    "help.deploy_cup_id": ("die Kennung des Bechers (Vorgabe: die darauf, sonst eine neue)",
                           "the cup's id (default: the one on it, else a new one)"),
    "help.deploy_new_secret": ("dem Becher ein neues Geheimnis fürs faire Spiel geben",
                               "give the cup a new fair-play secret"),
    "help.deploy_link": ("wie der Host den Becher erreicht: USB seriell (Vorgabe) oder Bluetooth LE",
                         "how the host reaches the cup: USB serial (default) or Bluetooth LE"),
    "help.deploy_brightness": ("die Helligkeit der LEDs als Anteil der vollen, z. B. 0.1 in einer dunklen "
                               "Kneipe (Vorgabe: die auf dem Becher, sonst seine Grenze 0.21)",
                               "the LEDs' brightness as a share of full, e.g. 0.1 in a dark bar (default: "
                               "the one on the cup, else its cap of 0.21)"),
    "help.deploy_no_mip": ("aioble nicht installieren (braucht das Netz)",
                           "do not install aioble (needs network)"),
    "help.deploy_no_start": ("den Becher danach an der REPL lassen", "leave the cup at the REPL afterwards"),
    "help.deploy_control": ("nur emuliertes Board: sein Steuerkanal (Tasten, Schütteln)",
                            "emulated board only: its control channel (buttons, shakes)"),
    "help.deploy_timeout": ("so viele Sekunden auf die REPL warten (Vorgabe 5)",
                            "seconds to wait for the REPL (default 5)"),
    "help.deploy_cup_slowness": ("der Becher läuft K-mal langsamer als ein Chip (1..100; ein emulierter "
                                 "RP2040 etwa 26, docs/build.md): deploy wartet K-mal länger auf die REPL "
                                 "und jede Antwort",
                                 "the cup runs K times slower than a chip (1..100; an emulated RP2040 "
                                 "about 26, docs/build.md): deploy waits K times longer for the REPL and "
                                 "each answer"),
    "help.deploy_romfs": ("die Firmware in die ROMFS-Partition des Boards, wo es eine hat (Vorgabe)",
                          "the firmware into the board's ROMFS partition where it has one (default)"),
    "help.deploy_no_romfs": (".mpy-Dateien ins Dateisystem des Boards, auch wo es eine ROMFS-Partition hat",
                             ".mpy files on the board's filesystem, even where it has a ROMFS partition"),
    "help.deploy_from": ("die Artefakte von `schocken build` in DIR aufspielen (keine Firmware-Quellen und "
                         "kein "
                         "mpy-cross nötig; ihre Hashes werden zuerst geprüft)",
                         "deploy the artefacts of `schocken build` in DIR (no firmware sources or mpy-cross "
                         "needed; their hashes are checked first)"),
    "help.build_out": ("Ordner für die Artefakte (Vorgabe: build/release im Checkout)",
                       "folder for the artefacts (default: build/release in the checkout)"),
    "help.build_arch": ("eine mpy-Architektur, für die gebaut wird (mehrfach möglich; Vorgabe: die jedes "
                        "Boards "
                        "und Bytecode)",
                        "an mpy architecture to build for (repeatable; default: every board's and bytecode)"),
    "help.doctor_timeout": ("so viele Sekunden auf jeden Druck und jedes Schütteln warten (Vorgabe 15)",
                            "seconds to wait for each press or shake (default 15)"),
    "help.doctor_cup_slowness": ("der Becher läuft K-mal langsamer als ein Chip (1..100; ein emulierter "
                                 "RP2040 etwa 26, docs/build.md): doctor wartet K-mal länger auf jede "
                                 "Antwort",
                                 "the cup runs K times slower than a chip (1..100; an emulated RP2040 "
                                 "about 26, docs/build.md): doctor waits K times longer for each answer"),
    "help.doctor_no_input": ("die Tests auslassen, die einen Menschen brauchen (Tasten, Schütteln)",
                             "skip the tests that need a person (buttons, shake)"),
    "help.doctor_yes": ("nicht nach dem Blick auf die LEDs fragen",
                        "do not ask for the eye check of the LEDs"),
    "help.doctor_json": ("mit den Ergebnissen als eine JSON-Zeile enden",
                         "end with the results as one JSON line"),
    "help.scan_timeout": ("so viele Sekunden nach BLE-Bechern horchen (Vorgabe 3)",
                          "seconds to listen for BLE cups (default 3)"),
    "help.scan_port": ("auch diesen seriellen Port prüfen, oder einen Becher im Netz: socket://HOST:PORT, "
                       "rfc2217://HOST:PORT (mehrfach möglich; Pseudo-Terminals listet das System nicht auf, "
                       "nach Bechern im Netz wird nie gesucht)",
                       "also probe this serial port, or a cup on the network: socket://HOST:PORT, "
                       "rfc2217://HOST:PORT (repeatable; pseudo-terminals are not listed by the OS, network "
                       "cups are never searched for)"),
    "help.scan_no_serial": ("die seriellen Ports auslassen", "skip the serial ports"),
    "help.scan_no_ble": ("Bluetooth auslassen", "skip Bluetooth"),
    "help.scan_backend": ("BLE-Stack: bleak (das Bluetooth des Systems) oder bumble (ein USB-Dongle, direkt "
                          "gesteuert)",
                          "BLE stack: bleak (the system's Bluetooth) or bumble (a USB dongle driven "
                          "directly)"),
    "help.scan_bumble_transport": ("bumble-Transport für --backend bumble (Vorgabe usb:0)",
                                   "bumble transport for --backend bumble (default usb:0)"),
    "help.scan_json": ("ein JSON-Objekt je Becher", "one JSON object per cup"),
    "help.replay_log": ("ein Spiel-Log (.jsonl)", "a game log (.jsonl)"),
    "help.replay_json": ("der Endstand als JSON (docs/gamelog.md)",
                         "the final state as JSON (docs/gamelog.md)"),
    "help.stats_log_dir": ("Ordner der Spiel-Logs (Vorgabe: der Datenordner des Benutzers)",
                           "folder of game logs (default: the user data directory)"),
    "help.play_no_league": ("das fertige Spiel nicht in die Liga eintragen (schocken liga; sonst wird es am "
                            "Ende in league.sqlite3 im Datenordner des Benutzers eingetragen)",
                            "do not record the finished game in the league (schocken liga; by default it is "
                            "recorded in league.sqlite3 in the user data directory as it ends)"),
    "help.liga_db": ("die Liga-Datenbank (Vorgabe: league.sqlite3 im Datenordner des Benutzers)",
                     "the league database (default: league.sqlite3 in the user data directory)"),
    "help.liga_json": ("der Stand als JSON", "the standings as JSON"),
    "help.liga_csv": ("der Stand als CSV", "the standings as CSV"),
    "help.liga_import_dir": ("ein Ordner mit Spiel-Logs (*.jsonl, auch in Unterordnern) oder ein Log",
                             "a folder of game logs (*.jsonl, in its subfolders too) or one log"),
    "help.liga_merge_name": ("der Name, dessen Spiele ab jetzt für INTO zählen",
                             "the name whose games count for INTO from now on"),
    "help.liga_merge_into": ("der Name einer Person, oder ein neuer Name (Umbenennen)",
                             "a player's name, or a new name (a rename)"),
    "help.liga_rebuild_dir": ("Ordner mit Spiel-Logs (Vorgabe: der Log-Ordner von schocken play)",
                              "folders of game logs (default: the log directory of schocken play)"),
    "help.watch_log": ("ein Spiel-Log (.jsonl), fertig oder noch im Entstehen",
                       "a game log (.jsonl), finished or still being written"),
    "help.watch_web": ("das Spiel als Live-Webseite zeigen (Vorgabe: Port 8015 auf jeder Adresse; ohne --web "
                       "folgt das Terminal dem Spiel)",
                       "serve the game as a live web page (default port 8015 on every address; without --web "
                       "the game is followed in the terminal)"),
    "help.watch_coach": ("die Seite zeigt dem Spieler am Zug seine Chance aus dem, was der Tisch zeigt "
                         "(nur mit --web; docs/odds.md)",
                         "the page shows the player on turn his chance from what the table shows "
                         "(only with --web; docs/odds.md)"),
}
