"""User-facing text in German (default) and English. Game terms stay German in both."""

import re

TEXT = {
    "de": {
        "rules_title": "Regeln: {name} (Regeltext {seed})",
        "col_throw": "Wurf", "col_dice": "Würfel", "col_deckel": "Deckel",
        "all_half": "alle (Hälfte verloren)",
        "all_middle": "alle 13 (aus der Mitte, dann vom Besten)",
        "options": "Optionen",
        "changed": "geändert",
        "player": "Spieler {n}",
        "throws_n": "{n} Wurf", "throws_n_pl": "{n} Würfe",
        "hand": "aus der Hand", "built": "zusammengewürfelt",
        "best": "Bester", "worst": "Schlechtester",
        "gets": "{who} verliert die Runde und bekommt {n} Deckel ({whom} hat den besten Wurf).",
        "gets_all": "{who} verliert die Runde: Schock-Aus, alle Deckel!",
        "error": "Fehler",
        "internal_error": "interner Fehler",
        "traceback": "zeigt den Traceback",
        "paired_elsewhere": "gepaart mit einem anderen Host",
        "not_authentic": "Identität nicht echt",
        "cup_garbage": "Becher {n} sendet Unsinn: {msg}",
        "cup_rng": "Becher {n}: Zufallsgenerator gestört ({msg}); er würfelt wieder, sobald sein Test besteht",
        "faults_muted": "Becher {n}: weitere fehlerhafte Nachrichten in dieser Runde werden nur gezählt",
        "no_seat": "Keinen Platz {n} am Tisch",
        "not_asked": "Platz {n}: der Tisch wurde nicht gefragt ('wait'/'forfeit' gilt nur für einen abwesenden Becher)",
        "refused": "{name}: abgelehnt – {reason}",
        "interrupted": "Spiel unterbrochen. Weiter mit: {command}",
    },
    "en": {
        "rules_title": "Rules: {name} (rule text {seed})",
        "col_throw": "Throw", "col_dice": "Dice", "col_deckel": "Deckel",
        "all_half": "all (half lost)",
        "all_middle": "all 13 (from the middle, then from the best)",
        "options": "Options",
        "changed": "changed",
        "player": "Player {n}",
        "throws_n": "{n} throw", "throws_n_pl": "{n} throws",
        "hand": "from the hand", "built": "built",
        "best": "Best", "worst": "Worst",
        "gets": "{who} loses the round and takes {n} Deckel ({whom} has the best throw).",
        "gets_all": "{who} loses the round: Schock-Aus, all Deckel!",
        "error": "error",
        "internal_error": "internal error",
        "traceback": "shows the traceback",
        "paired_elsewhere": "paired with another host",
        "not_authentic": "identity not authentic",
        "cup_garbage": "Cup {n} sends garbage: {msg}",
        "cup_rng": "Cup {n}: random number generator failed ({msg}); it rolls again once its test passes",
        "faults_muted": "Cup {n}: further faulty messages in this round are only counted",
        "no_seat": "No seat {n} at the table",
        "not_asked": "Seat {n}: the table was not asked ('wait'/'forfeit' is for an absent cup only)",
        "refused": "{name}: refused – {reason}",
        "interrupted": "Game interrupted. Continue with: {command}",
    },
}

LANGS = tuple(TEXT)


def tr(lang, key, **kw):
    text = TEXT.get(lang, TEXT["de"]).get(key) or TEXT["de"][key]
    return text.format(**kw) if kw else text


# --- why a cup refused a button or a shake ----------------------------------------------------------------
# The firmware's refusal texts (English, in ``{"t": "error", "code": "refused", "re": "input", "msg": ...}``):
# the literal ones of firmware/cup/core.py's ``_refuse`` calls and the RuleError texts of the rules package's
# Turn (firmware/lib/schocken/turn.py) that ``_refuse(str(e))`` passes on, written as there (%d, %r); plus the
# host's own ("nothing to reveal", "the game is over") for keys it refuses before the cup sees them.
# tests/test_keys.py checks that every refusal text of core.py and turn.py is here.
REFUSALS = {
    # firmware/cup/core.py
    "not your turn": ("nicht dein Zug", "not your turn"),
    "no throw left": ("kein Wurf mehr", "no throw left"),
    "waiting for the host's nonce": ("die Würfel rollen noch", "the dice are still rolling"),
    "the dice are in the air": ("die Würfel rollen noch", "the dice are still rolling"),
    "Sechsen drehen is not possible now": ("Sechsen drehen geht jetzt nicht", "no Sechsen drehen now"),
    "peeking is not allowed now": ("spicken geht jetzt nicht", "no peeking now"),
    "nothing to do": ("jetzt nicht", "not now"),
    "the round is not over": ("die Runde läuft noch", "the round is still on"),
    # firmware/lib/schocken/turn.py, passed on by the cup
    "throw limit reached: %d of %d used": ("kein Wurf mehr ({0} von {1})", "no throw left ({0} of {1} used)"),
    "a one that fell must stay out (die %d)": ("eine gefallene Eins bleibt draußen (Würfel {0})",
                                               "a one that fell stays out (die {0})"),
    "no die left in the cup: stand instead": ("kein Würfel mehr im Becher: stehen", "no die in the cup: stand"),
    "expected %d dice for the cup, got %r": ("Würfel passen nicht zum Becher", "the dice do not fit the cup"),
    "a die shows 1 to 6, got %r": ("Würfel passen nicht zum Becher", "the dice do not fit the cup"),
    "die %d is already set aside": ("Würfel {0} liegt schon draußen", "die {0} is set aside already"),
    "die %d is the other six: it goes back into the cup": ("Würfel {0} ist die andere Sechs: zurück in den "
                                                           "Becher", "die {0} is the other six: back into the cup"),
    "only ones may be set aside, die %d shows %d": ("nur Einsen kommen raus, Würfel {0} zeigt {1}",
                                                    "only ones go aside, die {0} shows {1}"),
    "die %d was set aside for good and never goes back into the cup": (
        "Würfel {0} liegt für immer draußen", "die {0} stays out for good"),
    "die %d is not set aside": ("Würfel {0} liegt nicht draußen", "die {0} is not set aside"),
    "Sechsen drehen is not played with these rules": ("kein Sechsen drehen bei diesen Regeln",
                                                      "no Sechsen drehen with these rules"),
    "Sechsen drehen needs two or three different dice": ("Sechsen drehen braucht zwei oder drei Sechsen",
                                                         "Sechsen drehen needs two or three sixes"),
    "die %d did not fall in this throw: only sixes of the same throw turn": (
        "Würfel {0} fiel nicht in diesem Wurf", "die {0} did not fall in this throw"),
    "die %d shows %d, not a six": ("Würfel {0} zeigt {1}, keine Sechs", "die {0} shows {1}, not a six"),
    "the sixes of this throw were turned already": ("die Sechsen sind schon gedreht", "the sixes are turned already"),
    "Sechsen drehen only while another throw is left": ("Sechsen drehen nur mit einem Wurf übrig",
                                                        "Sechsen drehen needs a throw left"),
    "after Sechsen drehen the next throw must be taken": ("nach Sechsen drehen erst würfeln",
                                                          "after Sechsen drehen throw first"),
    "after Sechsen drehen throw again first": ("nach Sechsen drehen erst würfeln", "after Sechsen drehen throw first"),
    "the turn is over": ("du stehst schon", "you stand already"),
    "throw first": ("erst würfeln", "throw first"),
    "no throw yet": ("erst würfeln", "throw first"),
    "die number must be 1 to 3, got %r": ("nur Würfel 1 bis 3", "only dice 1 to 3"),
    # the host's own
    "nothing to reveal": ("nichts aufzudecken", "nothing to reveal"),
    "the game is over": ("das Spiel ist aus", "the game is over"),
}


def _pattern(text):
    return re.compile("^%s$" % re.escape(text).replace("%d", r"(-?\d+)").replace("%r", "(.+?)"))


_REFUSAL_PATTERNS = [(_pattern(k), v) for k, v in REFUSALS.items() if "%" in k]


def refusal_known(msg):
    """True when ``msg`` (a refusal text of the firmware) has a translation."""
    return msg in REFUSALS or any(p.match(msg) for p, _ in _REFUSAL_PATTERNS)


def refusal(lang, msg):
    """A cup's refusal text (English, from the firmware) as a short reason in ``lang``: "not your turn" ->
    "nicht dein Zug". A text this host does not know is given as it came, so no reason is ever lost."""
    i = 1 if lang == "en" else 0
    if msg in REFUSALS:
        return REFUSALS[msg][i]
    for pattern, texts in _REFUSAL_PATTERNS:
        m = pattern.match(msg)
        if m:
            return texts[i].format(*m.groups())
    return msg
