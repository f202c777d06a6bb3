"""Texts of a cup on the screen: `schocken cup --emulate` (commands/cup.py, views/keyboard.py), the one key
map (views/keymap.py) and the LED frame as text (views/render.py). {key: (German, English)}."""

TEXTS = {
    # --- commands/cup.py, views/keyboard.py
    "cup.title": ("Schocken-Becher (emuliert, {interp})", "Schocken cup (emulated, {interp})"),
    "cup.link": ("Link: {port}", "Link: {port}"),
    "cup.alone": ("Ohne Host spielt der Becher allein: vor dem Zug setzt Würfel k das Wurflimit k, Enter "
                  "beginnt.",
                  "Without a host the cup plays alone: before a turn die k sets the throw limit k, Enter "
                  "starts."),
    "cup.rules_note": ("Hinweis: allein spielt die Firmware immer nach 'standard'; --rules {preset} wirkt "
                       "nicht (die Regeln setzt ein Host mit configure).",
                       "Note: alone, the firmware always plays 'standard'; --rules {preset} has no effect "
                       "(a host sets the rules with configure)."),
    "cup.shake": ("geschüttelt", "shaken"),
    "cup.tap": ("Würfel {n} getippt", "die {n} tapped"),
    "cup.long": ("Würfel {n} lang gedrückt", "die {n} held long"),
    "cup.peek": ("gespickt", "peeked"),
    "cup.stand": ("Hauptknopf lang", "main button long"),
    "cup.reveal": ("Hauptknopf kurz", "main button short"),
    "cup.unknown": ("unbekannte Taste: {pressed!r}", "unknown key: {pressed!r}"),
    "cup.cup_error": ("Becher: {msg}", "cup: {msg}"),
    "cup.cup_gone": ("Der Becher-Prozess ist beendet.", "The cup process has ended."),
    "cup.start_failed": ("Becher startet nicht: {err}", "the cup does not start: {err}"),
    "cup.only_emulate": ("nur --emulate gibt es bisher", "only --emulate exists so far"),
    "cup.long_ms": ("--long-ms: 100 bis 10000", "--long-ms 100..10000"),

    # --- views/keymap.py: the key help
    "keys.title": ("Tasten", "Keys"),
    "keys.shake": ("schütteln", "shake"),
    "keys.tap": ("Würfel beiseite/zurück", "die aside/back"),
    "keys.long": ("lang: Sechsen drehen", "long: Sechsen drehen"),
    "keys.peek": ("spicken", "peek"),
    "keys.stand": ("stehen", "stand"),
    "keys.reveal": ("aufdecken", "reveal"),
    "keys.quit": ("beenden", "quit"),
    "keys.space": ("Leertaste", "space"),

    # --- views/render.py: the LEDs of a cup as text; each status color: its name and what it means
    "led.status": ("Status", "Status"),
    "led.aside": ("beiseite", "aside"),
    "led.cup": ("im Becher", "in cup"),
    "led.unknown": ("?", "?"),
    "led.green": ("grün", "green"),
    "led.green_means": ("am Zug", "your turn"),
    "led.cyan": ("türkis", "cyan"),
    "led.cyan_means": ("Wurf 1 · allein vor dem Zug: Limit 1", "throw 1 · alone before a turn: limit 1"),
    "led.yellow": ("gelb", "yellow"),
    "led.yellow_means": ("Wurf 2 · allein vor dem Zug: Limit 2", "throw 2 · alone before a turn: limit 2"),
    "led.pink": ("pink", "pink"),
    "led.pink_means": ("aufdecken", "reveal"),
    "led.orange": ("orange", "orange"),
    "led.orange_means": ("Wurf 3", "throw 3"),
    "led.blue": ("blau", "blue"),
    "led.blue_means": ("wartet", "waiting"),
    "led.red": ("rot", "red"),
    "led.red_means": ("abgelehnt / verloren", "refused / lost"),
    "led.white": ("weiß", "white"),
    "led.white_means": ("gewonnen", "won"),
    "led.magenta": ("magenta", "magenta"),
    "led.magenta_means": ("Fehler", "error"),
    "led.violet": ("violett", "violet"),
    "led.violet_means": ("verdeckt (gestanden)", "covered (stood)"),
    "led.dim": ("schwach weiß", "dim white"),
    "led.dim_means": ("allein, Limit 3", "alone, limit 3"),
    "led.off": ("aus", "off"),
    "led.off_means": ("-", "-"),
}
