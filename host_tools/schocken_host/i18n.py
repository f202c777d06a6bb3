"""User-facing text in German (default) and English. Game terms stay German in both."""

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
    },
}

LANGS = tuple(TEXT)


def tr(lang, key, **kw):
    text = TEXT.get(lang, TEXT["de"]).get(key) or TEXT["de"][key]
    return text.format(**kw) if kw else text
