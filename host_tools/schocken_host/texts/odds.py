"""Texts of `schocken odds` (commands/odds.py): the class table, the chance of beating a throw, the best
decision after the first throw, and the refusals of its input."""

TEXTS = {
    "odds.title": ("Chancen: {name} (Regeltext {seed}), höchstens {throws}",
                   "Odds: {name} (rule text {seed}), at most {throws}"),
    "odds.throws_1": ("{n} Wurf", "{n} throw"),
    "odds.throws": ("{n} Würfe", "{n} throws"),
    "odds.in_throws": ("{n} Würfen", "{n} throws"),   # after "in", "nach": the dative plural
    "odds.col_class": ("Klasse", "Class"),
    "odds.col_one": ("mit einem Wurf", "in one throw"),
    "odds.col_reach": ("erreichbar in {throws}", "reachable within {throws}"),
    "odds.col_strategy": ("Endwurf der Bots ({strategy})", "bots' final throw ({strategy})"),
    "odds.note_reach": ("„erreichbar“: die beste Chance, den Zug mit dieser Klasse zu beenden, wenn man nur "
                        "auf sie spielt (jede Klasse für sich, die Spalte ergibt nicht 1).",
                        "\"reachable\": the best chance of ending the turn on that class when playing for it "
                        "alone (each class on its own, the column does not add up to 1)."),
    "odds.note_strategy": ("„Endwurf der Bots“: wie der Zug eines Bots mit der Strategie {strategy} endet "
                           "(Summe 1; --strategy nennt eine andere).",
                           "\"bots' final throw\": how the turn of a bot playing the strategy {strategy} "
                           "ends (adds up to 1; --strategy names another)."),
    "odds.note_at_table": ("{strategy} ist die Strategie der Bots in schocken play: am Tisch spielt sie "
                           "gegen die Würfe vor ihr; diese Spalte zeigt sie als Eröffner einer Runde zu "
                           "zweit.",
                           "{strategy} is the strategy of the bots in schocken play: at a table it plays "
                           "against the throws before it; this column shows it as the opener of a round of "
                           "two."),
    "odds.kind_schock_aus": ("Schock-Aus", "Schock-Aus"),
    "odds.kind_jule": ("Jule", "Jule"),
    "odds.kind_schock": ("Schock 2–6", "Schock 2–6"),
    "odds.kind_general": ("General", "General"),
    "odds.kind_strasse": ("Straße", "Straße"),
    "odds.kind_zahl": ("Zahl", "Zahl"),
    "odds.beat_title": ("Zu schlagen: {dice} = {label} nach {throws} ({how}); du hast höchstens {limit} "
                        "und kommst nach ihm",
                        "To beat: {dice} = {label} after {throws} ({how}); you have at most {limit} and come "
                        "after him"),
    "odds.beat_chance": ("Chance, ihn zu schlagen (bestes Spiel): {fraction} = {value}",
                         "Chance of beating it (best play): {fraction} = {value}"),
    "odds.first": ("Beste Entscheidung nach dem ersten Wurf (und die Chance danach):",
                   "Best decision after the first throw (and the chance from there):"),
    "odds.stand": ("stehen lassen", "stand"),
    "odds.reroll": ("alle drei neu würfeln", "throw all three again"),
    "odds.keep": ("{dice} herauslegen, Rest neu würfeln", "set {dice} aside, throw the rest again"),
    "odds.turn": ("Sechsen drehen ({n} Sechsen)", "turn the sixes ({n} sixes)"),
    "odds.then": ("{first}, dann {then}", "{first}, then {then}"),
    "odds.bad_beat": ("--beat braucht „W W W N“: drei Augen 1 bis 6 und die Zahl der Würfe 1 bis {most}, "
                      "dahinter wahlweise „hand“ (kein Würfel herausgelegt); nicht „{text}“",
                      "--beat needs \"D D D N\": three dice 1 to 6 and the number of throws 1 to {most}, "
                      "optionally followed by \"hand\" (no die set aside); not \"{text}\""),
    "odds.bad_throws": ("--throws muss 1 bis {most} sein (die Regeln erlauben höchstens {most}), nicht {n}",
                        "--throws must be 1 to {most} (the rules allow at most {most}), not {n}"),
}
