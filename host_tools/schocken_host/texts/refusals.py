"""Why a cup refused a button or a shake, as a short reason in German and English.

The firmware's refusal texts (English, in ``{"t": "error", "code": "refused", "re": "input", "msg": ...}``):
the ones of firmware/cup/core.py's ``_refuse`` calls (their texts in firmware/cup/texts.py) and the RuleError
texts of the rules package's Turn (firmware/lib/schocken/turn.py, texts in schocken/texts.py) that
``_refuse(str(e))`` passes on, written as there (%d, %r); plus the host's own ("nothing to reveal", "the game
is over") for keys it refuses before the cup sees them. tests/test_keymap.py checks that every refusal text
of core.py and turn.py is here; ``i18n.refusal`` looks them up."""

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
    "throw limit reached: %d of %d used": ("kein Wurf mehr ({0} von {1})",
                                           "no throw left ({0} of {1} used)"),
    "a one that fell must stay out (die %d)": ("eine gefallene Eins bleibt draußen (Würfel {0})",
                                               "a one that fell stays out (die {0})"),
    "no die left in the cup: stand instead": ("kein Würfel mehr im Becher: stehen",
                                              "no die in the cup: stand"),
    "expected %d dice for the cup, got %r": ("Würfel passen nicht zum Becher", "the dice do not fit the cup"),
    "a die shows 1 to 6, got %r": ("Würfel passen nicht zum Becher", "the dice do not fit the cup"),
    "die %d is already set aside": ("Würfel {0} liegt schon draußen", "die {0} is set aside already"),
    "die %d is the other six: it goes back into the cup": ("Würfel {0} ist die andere Sechs: zurück in den "
                                                           "Becher",
                                                           "die {0} is the other six: back into the cup"),
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
    "the sixes of this throw were turned already": ("die Sechsen sind schon gedreht",
                                                    "the sixes are turned already"),
    "Sechsen drehen only while another throw is left": ("Sechsen drehen nur mit einem Wurf übrig",
                                                        "Sechsen drehen needs a throw left"),
    "after Sechsen drehen the next throw must be taken": ("nach Sechsen drehen erst würfeln",
                                                          "after Sechsen drehen throw first"),
    "after Sechsen drehen throw again first": ("nach Sechsen drehen erst würfeln",
                                               "after Sechsen drehen throw first"),
    "the turn is over": ("du stehst schon", "you stand already"),
    "throw first": ("erst würfeln", "throw first"),
    "no throw yet": ("erst würfeln", "throw first"),
    "die number must be 1 to 3, got %r": ("nur Würfel 1 bis 3", "only dice 1 to 3"),
    # the host's own
    "nothing to reveal": ("nichts aufzudecken", "nothing to reveal"),
    "the game is over": ("das Spiel ist aus", "the game is over"),
}

# The rules package's other texts (firmware/lib/schocken/texts.py), by their number there: a rule set or an
# option the rules refuse, a turn's transcript that does not replay. The package raises them in English (it is
# the firmware's too, where every byte counts); the host puts them into the user's language (i18n.rule_text).
# Fields as there, in order: {0}, {1}.
RULE_TEXTS = {
    0: ("das Wurflimit ist 1 bis {0}, nicht {1}", "throw limit must be 1 to {0}, got {1}"),
    6: ("erwartet {0} Würfel, nicht {1}", "expected {0} dice for the cup, got {1}"),
    7: ("ein Würfel zeigt 1 bis 6, nicht {0}", "a die shows 1 to 6, got {0}"),
    23: ("das Protokoll eines Zugs ist eine Liste", "a turn's transcript is a list"),
    24: ("Schritt {0}: unbekannter Zug {1}", "step {0}: unknown move {1}"),
    25: ("der Zug {0} braucht ein Argument", "move {0} needs one argument"),
    26: ("Schritt {0} ({1}): {2}", "step {0} ({1}): {2}"),
    27: ("die Option {0} braucht true oder false, nicht {1}", "option {0} needs true or false, not {1}"),
    28: ("die Option {0} braucht eine ganze Zahl, nicht {1}", "option {0} needs a whole number, not {1}"),
    29: ("die Option {0} liegt außerhalb ihres Bereichs: {1}", "option {0} is out of range: {1}"),
    30: ("die Option {0} ist eins von {1}, nicht {2}", "option {0} must be one of {1}, not {2}"),
    31: ("unbekanntes Regelwerk {0} (bekannt: {1})", "unknown rule set {0} (known: {1})"),
    32: ("unbekannte Option {0} (bekannt: {1})", "unknown option {0} (known: {1})"),
    33: ("die Option max_throws ist 1, 2 oder 3", "option max_throws must be 1, 2 or 3"),
    34: ("die Option deckel_total ist mindestens 1", "option deckel_total must be at least 1"),
    35: ("die Option min_players ist mindestens 2", "option min_players must be at least 2"),
    36: ("ein Regelwerk braucht den Namen einer Vorgabe", "a rule set needs a preset name"),
    37: ("die Optionen eines Regelwerks sind ein Objekt", "rule options must be an object"),
}

# Texts the rules package raises without a number (schocken/throws.py, schocken/ranking.py: `rank`'s input),
# by their English text as there; a field that is a text of its own (player %d: %s) is put into words too.
RULE_PHRASES = {
    "player %d: %s": ("Spieler {0}: {1}", "player {0}: {1}"),
    "player %d used %d throws, more than the opener's %d": (
        "Spieler {0} hat {1} Würfe gebraucht, mehr als die {2} des Startspielers",
        "player {0} used {1} throws, more than the opener's {2}"),
    "player %d: an entry is (dice, throws, hand)": ("Spieler {0}: ein Eintrag ist (dice, throws, hand)",
                                                    "player {0}: an entry is (dice, throws, hand)"),
    "a round needs at least two throws": ("eine Runde braucht mindestens zwei Würfe",
                                          "a round needs at least two throws"),
    "a throw needs exactly three dice, got %r": ("ein Wurf braucht genau drei Würfel, nicht {0}",
                                                 "a throw needs exactly three dice, got {0}"),
    "throws must be 1 to %d, got %r": ("die Zahl der Würfe ist 1 bis {0}, nicht {1}",
                                       "throws must be 1 to {0}, got {1}"),
    "hand must be true or false, got %r": ("hand ist true oder false, nicht {0}",
                                           "hand must be true or false, got {0}"),
    "a throw with dice set aside needs at least two throws": (
        "ein Wurf mit herausgelegten Würfeln braucht mindestens zwei Würfe",
        "a throw with dice set aside needs at least two throws"),
}
