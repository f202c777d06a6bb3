"""Texts of the scoreboard of `schocken play` (views/scoreboard*.py) and of a person's own cup
(views/own_cup.py). {key: (German, English)}."""

TEXTS = {
    # --- the phases (also `schocken replay`)
    "board.setup": ("Vorbereitung", "Setup"),
    "board.throw_off": ("Auswürfeln", "Throw-off (Auswürfeln)"),
    "board.half1": ("1. Hälfte", "1st half"),
    "board.half2": ("2. Hälfte", "2nd half"),
    "board.final": ("Finale", "Final"),
    "board.over": ("Spiel aus", "Game over"),

    # --- views/scoreboard.py
    "board.title": ("Schocken", "Schocken"),
    "board.rules": ("Regeln: {name}", "Rules: {name}"),
    "board.round_no": ("Runde {n}", "Round {n}"),
    "board.middle": ("Mitte", "Middle"),
    "board.on_turn_head": ("▶ {name} ist am Zug · Wurf {n}/{limit}",
                           "▶ {name} is on turn · throw {n}/{limit}"),
    "board.nobody": ("Aufdecken …", "Reveal …"),
    "board.result": ("Runde {round}: {worst} verliert und bekommt {deckel} Deckel {source} ({best}: "
                     "{label}).",
                     "Round {round}: {worst} loses and takes {deckel} Deckel {source} ({best}: {label})."),
    "board.result_all": ("Runde {round}: {worst} verliert: Schock-Aus von {best}, alle Deckel!",
                         "Round {round}: {worst} loses: Schock-Aus by {best}, all Deckel!"),
    "board.from_middle": ("aus der Mitte", "from the middle"),
    "board.from_player": ("von {name}", "from {name}"),
    "board.throw_off_opener": ("Auswürfeln: {name} hat den niedrigsten Wurf und beginnt.",
                               "Throw-off: {name} has the lowest throw and opens."),
    "board.stechen": ("Auswürfeln: Gleichstand, Stechen zwischen {names}.",
                      "Throw-off: a tie, Stechen between {names}."),
    "board.halves": ("Hälften verloren: {list}", "Halves lost: {list}"),
    "board.none_yet": ("noch keine", "none yet"),
    "board.game_over": ("SPIEL AUS – {name} hat verloren{blatt}", "GAME OVER – {name} lost{blatt}"),
    "board.blatt": (" (Blattschuss)", " (Blattschuss)"),
    "board.pause": ("PAUSE: Becher von {name} ist weg ({reason}). Warte …",
                    "PAUSE: the cup of {name} is gone ({reason}). Waiting …"),
    "board.asked": ("Der Tisch entscheidet über {name}: w = weiter warten, f = aufgeben (bekommt die Deckel "
                    "der Runde)",
                    "The table decides on {name}: w = keep waiting, f = forfeit (takes the round's Deckel)"),
    "board.hint_over": ("Spiel aus – q beendet", "Game over – q quits"),
    "board.quit": ("Beenden", "Quit"),
    "board.log": ("Verlauf", "Log"),

    # --- views/scoreboard_card.py: one player's card
    "card.deckel": ("Deckel", "Deckel"),
    "card.bot": ("  (Bot)", "  (Bot)"),
    "card.on_turn": ("▶ am Zug · Wurf {n}/{limit}", "▶ on turn · throw {n}/{limit}"),
    "card.stands": ("steht · Wurf {n}/{limit}", "stands · throw {n}/{limit}"),
    "card.waits": ("wartet", "waits"),
    "card.out": ("raus aus der Hälfte", "out of the half"),
    "card.watches": ("schaut zu", "watches"),
    "card.paused": ("⏸ PAUSE: {reason}", "⏸ PAUSE: {reason}"),
    "card.flagged": ("✗ UNGÜLTIG: {reason}", "✗ INVALID: {reason}"),
    "card.game_lost": ("hat das Spiel verloren", "lost the game"),
    "card.covered": ("verdeckt", "covered"),
    "card.aside": ("beiseite", "set aside"),
    "card.throws_1": ("{n} Wurf", "{n} throw"),
    "card.throws": ("{n} Würfe", "{n} throws"),
    "card.built": ("zusammengewürfelt", "built"),
    "card.best": ("bester Wurf", "best throw"),
    "card.worst": ("verliert +{n}", "loses +{n}"),
    "card.worst_all": ("verliert: alle", "loses: all"),
    "card.kept": ("Runde {n}:", "round {n}:"),

    # --- views/own_cup.py, views/scoreboard_own.py: the person's own cup
    "own.title": ("Dein Becher", "Your cup"),
    "own.aside": ("beiseite", "set aside"),
    "own.seen": ("unter dem Becher gesehen", "seen under the cup"),
    "own.covered": ("unter dem Becher: verdeckt", "under the cup: covered"),
    "own.none": ("noch nicht gewürfelt", "not thrown yet"),
    "own.refused": ("✗ {reason}", "✗ {reason}"),
    "own.status": ("Status: {name} – {meaning}", "Status: {name} – {meaning}"),
}
