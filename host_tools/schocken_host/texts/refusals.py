"""Why a cup refused a button or a shake, as a short reason in German and English, by the refusal's number.

A cup (protocol version 2) names a refusal by its texts module and number (``{"t": "error", "code":
"refused", "re": "input", "why": ["cup.texts", 0]}``): the numbers of firmware/cup/texts.py (core.py's
``_refuse`` calls) and of the rules package's schocken/texts.py (the RuleError of a move its ``Turn`` refuses,
which the cup passes on). The host's own refusals of keys it refuses before the cup sees them are numbered
under "host". ``i18n.refusal`` looks a number up here; an older cup's English text (version 1) is matched
against the firmware's own texts of these numbers. tests/test_keymap.py checks that every refusal of core.py
and turn.py is here and that the names below are the firmware's numbers."""

CUP = "cup.texts"          # firmware/cup/texts.py
RULES = "schocken.texts"   # firmware/lib/schocken/texts.py
HOST = "host"              # the host's own, never on the wire: English in REFUSALS

# The refusals the host names itself (table/own_cup.py), by the firmware's numbers where the cup has the text.
NOT_YOUR_TURN = (CUP, 0)        # cup.core._NOT_YOUR_TURN
IN_THE_AIR = (CUP, 4)           # cup.core._IN_THE_AIR
ROUND_NOT_OVER = (CUP, 8)       # cup.core._ROUND_NOT_OVER
CUP_EMPTY = (RULES, 5)          # schocken.turn._CUP_EMPTY
TURN_OVER = (RULES, 20)         # schocken.turn._OVER
THROW_FIRST = (RULES, 21)       # schocken.turn._THROW_FIRST
NOTHING_TO_REVEAL = (HOST, 0)
GAME_OVER = (HOST, 1)
TABLE_REVEALS = (HOST, 2)
GIVES_UP_GENERAL = (HOST, 3)

# (texts module, number) -> (German, English); the text's arguments are {0}, {1}.
REFUSALS = {
    # firmware/cup/texts.py, refused by cup/core.py
    (CUP, 0): ("nicht dein Zug", "not your turn"),
    (CUP, 1): ("kein Wurf mehr", "no throw left"),
    (CUP, 2): ("die Würfel rollen noch", "the dice are still rolling"),       # waiting for the host's nonce
    (CUP, 4): ("die Würfel rollen noch", "the dice are still rolling"),       # in the air
    (CUP, 5): ("Sechsen drehen geht jetzt nicht", "no Sechsen drehen now"),
    (CUP, 6): ("spicken geht jetzt nicht", "no peeking now"),
    (CUP, 7): ("jetzt nicht", "not now"),
    (CUP, 8): ("die Runde läuft noch", "the round is still on"),
    # firmware/lib/schocken/texts.py, raised by schocken/turn.py and passed on by the cup
    (RULES, 1): ("erst würfeln", "throw first"),                                 # no throw yet
    (RULES, 2): ("nach Sechsen drehen erst würfeln", "after Sechsen drehen throw first"),
    (RULES, 3): ("kein Wurf mehr ({0} von {1})", "no throw left ({0} of {1} used)"),
    (RULES, 4): ("eine gefallene Eins bleibt draußen (Würfel {0})", "a one that fell stays out (die {0})"),
    (RULES, 5): ("kein Würfel mehr im Becher: stehen", "no die in the cup: stand"),
    (RULES, 6): ("Würfel passen nicht zum Becher", "the dice do not fit the cup"),
    (RULES, 7): ("Würfel passen nicht zum Becher", "the dice do not fit the cup"),
    (RULES, 8): ("Würfel {0} liegt schon draußen", "die {0} is set aside already"),
    (RULES, 9): ("Würfel {0} ist die andere Sechs: zurück in den Becher",
                 "die {0} is the other six: back into the cup"),
    (RULES, 10): ("nur Einsen kommen raus, Würfel {0} zeigt {1}", "only ones go aside, die {0} shows {1}"),
    (RULES, 11): ("Würfel {0} liegt für immer draußen", "die {0} stays out for good"),
    (RULES, 12): ("Würfel {0} liegt nicht draußen", "die {0} is not set aside"),
    (RULES, 13): ("kein Sechsen drehen bei diesen Regeln", "no Sechsen drehen with these rules"),
    (RULES, 14): ("Sechsen drehen braucht zwei oder drei Sechsen", "Sechsen drehen needs two or three sixes"),
    (RULES, 15): ("Würfel {0} fiel nicht in diesem Wurf", "die {0} did not fall in this throw"),
    (RULES, 16): ("Würfel {0} zeigt {1}, keine Sechs", "die {0} shows {1}, not a six"),
    (RULES, 17): ("die Sechsen sind schon gedreht", "the sixes are turned already"),
    (RULES, 18): ("Sechsen drehen nur mit einem Wurf übrig", "Sechsen drehen needs a throw left"),
    (RULES, 19): ("nach Sechsen drehen erst würfeln", "after Sechsen drehen throw first"),
    (RULES, 20): ("du stehst schon", "you stand already"),
    (RULES, 21): ("erst würfeln", "throw first"),
    (RULES, 22): ("nur Würfel 1 bis 3", "only dice 1 to 3"),
    # the host's own
    NOTHING_TO_REVEAL: ("nichts aufzudecken", "nothing to reveal"),
    GAME_OVER: ("das Spiel ist aus", "the game is over"),
    TABLE_REVEALS: ("aufgedeckt wird für alle zugleich", "every cup is uncovered at once"),
    GIVES_UP_GENERAL: ("Sechsen drehen gibt den General auf: zum Drehen noch einmal drücken",
                       "Sechsen drehen gives up the General: press again to turn"),
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
