"""What the scoreboard says and how it draws dice: the German and English texts of every widget, and the die
faces as pip grids (revealed dice white, dice set aside orange) or Unicode faces. Pure helpers, no widgets."""

from rich.text import Text

from schocken_host.links.ledframe import PIPS, PIP_CELLS

TEXT = {
    "de": {
        "title": "Schocken",
        "rules": "Regeln: {name}",
        "setup": "Vorbereitung", "throw_off": "Auswürfeln", "half1": "1. Hälfte", "half2": "2. Hälfte",
        "final": "Finale", "over": "Spiel aus",
        "round_no": "Runde {n}",
        "middle": "Mitte",
        "deckel": "Deckel",
        "on_turn": "▶ am Zug · Wurf {n}/{limit}",
        "on_turn_head": "▶ {name} ist am Zug · Wurf {n}/{limit}",
        "nobody": "Aufdecken …",
        "stands": "steht · Wurf {n}/{limit}",
        "waits": "wartet",
        "out": "raus aus der Hälfte",
        "watches": "schaut zu",
        "paused": "⏸ PAUSE: {reason}",
        "flagged": "✗ UNGÜLTIG: {reason}",
        "game_lost": "hat das Spiel verloren",
        "covered": "verdeckt",
        "aside": "beiseite",
        "throws": "{n} Würfe", "throws_1": "1 Wurf",
        "built": "zusammengewürfelt",
        "best": "bester Wurf",
        "worst": "verliert +{n}",
        "worst_all": "verliert: alle",
        "result": "Runde {round}: {worst} verliert und bekommt {deckel} Deckel {source} ({best}: {label}).",
        "result_all": "Runde {round}: {worst} verliert: Schock-Aus von {best}, alle Deckel!",
        "from_middle": "aus der Mitte",
        "from_player": "von {name}",
        "throw_off_opener": "Auswürfeln: {name} hat den niedrigsten Wurf und beginnt.",
        "stechen": "Auswürfeln: Gleichstand, Stechen zwischen {names}.",
        "halves": "Hälften verloren: {list}",
        "none_yet": "noch keine",
        "game_over": "SPIEL AUS – {name} hat verloren{blatt}",
        "blatt": " (Blattschuss)",
        "pause": "PAUSE: Becher von {name} ist weg ({reason}). Warte …",
        "asked": "Der Tisch entscheidet über {name}: w = weiter warten, f = aufgeben (bekommt die Deckel der Runde)",
        "hint": "q: beenden",
        "hint_over": "Spiel aus – q beendet",
        "error": "Fehler: {error}",
        "quit": "Beenden",
        "log": "Verlauf",
    },
    "en": {
        "title": "Schocken",
        "rules": "Rules: {name}",
        "setup": "Setup", "throw_off": "Throw-off (Auswürfeln)", "half1": "1. Hälfte", "half2": "2. Hälfte",
        "final": "Finale", "over": "Game over",
        "round_no": "Round {n}",
        "middle": "Middle",
        "deckel": "Deckel",
        "on_turn": "▶ on turn · throw {n}/{limit}",
        "on_turn_head": "▶ {name} is on turn · throw {n}/{limit}",
        "nobody": "Reveal …",
        "stands": "stands · throw {n}/{limit}",
        "waits": "waits",
        "out": "out of the half",
        "watches": "watches",
        "paused": "⏸ PAUSE: {reason}",
        "flagged": "✗ INVALID: {reason}",
        "game_lost": "lost the game",
        "covered": "covered",
        "aside": "set aside",
        "throws": "{n} throws", "throws_1": "1 throw",
        "built": "built",
        "best": "best throw",
        "worst": "loses +{n}",
        "worst_all": "loses: all",
        "result": "Round {round}: {worst} loses and takes {deckel} Deckel {source} ({best}: {label}).",
        "result_all": "Round {round}: {worst} loses: Schock-Aus by {best}, all Deckel!",
        "from_middle": "from the middle",
        "from_player": "from {name}",
        "throw_off_opener": "Throw-off: {name} has the lowest throw and opens.",
        "stechen": "Throw-off: a tie, Stechen between {names}.",
        "halves": "Halves lost: {list}",
        "none_yet": "none yet",
        "game_over": "GAME OVER – {name} lost{blatt}",
        "blatt": " (Blattschuss)",
        "pause": "PAUSE: the cup of {name} is gone ({reason}). Waiting …",
        "asked": "The table decides on {name}: w = keep waiting, f = forfeit (takes the round's Deckel)",
        "hint": "q: quit",
        "hint_over": "Game over – q quits",
        "error": "Error: {error}",
        "quit": "Quit",
        "log": "Log",
    },
}

# Die styles: revealed dice white like a die under the cup, dice set aside orange like the cup's LEDs.
DIE_STYLE = {"cup": "bold #000000 on #e8e8e8", "aside": "bold #000000 on #ff8000", "empty": "on #3a3a3a"}
PIP = "●"
FACES = "⚀⚁⚂⚃⚄⚅"


def die_rows(value):
    """A die face as three rows of five cells (pips in columns 0, 2, 4); ``None`` for a blank die."""
    rows = [[" "] * 5 for _ in range(3)]
    if value:
        for p, (r, c) in enumerate(PIP_CELLS):
            if PIPS[value] >> p & 1:
                rows[r][2 * c] = PIP
    return ["".join(r) for r in rows]


def dice_text(dice, kinds):
    """Up to three dice side by side as pip grids: ``dice`` values (None = not shown), ``kinds`` per die
    "cup" (revealed), "aside" (set aside) or "empty" (still in the covered cup)."""
    out = Text()
    grids = [die_rows(v) for v in dice]
    for r in range(3):
        if r:
            out.append("\n")
        for d, grid in enumerate(grids):
            if d:
                out.append(" ")
            out.append(grid[r], style=DIE_STYLE[kinds[d]])
    return out


def faces(dice):
    """Dice as Unicode die faces, e.g. ⚃⚃⚀."""
    return "".join(FACES[v - 1] for v in dice if 1 <= v <= 6)


def plain_text(content):
    """The plain text of a widget's content (a rich Text or anything printable)."""
    if isinstance(content, Text):
        return content.plain
    return str(content)
