"""Texts of the league's luck and decisions (`schocken liga luck`, league/luck/game.py, league/luck/table.py,
league/plot.py). {key: (German, English)}."""

TEXTS = {
    "luck.job": ("je Person: das Glück der Würfe gegen die genauen Chancen und was die eigenen "
                 "Entscheidungen an Deckeln kosteten",
                 "per person: the luck of the throws against the exact odds and the Deckel the own decisions "
                 "cost"),
    "luck.games_1": ("Glück und Entscheidungen aus 1 Spiel in {path}",
                     "Luck and decisions from 1 game in {path}"),
    "luck.games": ("Glück und Entscheidungen aus {n} Spielen in {path}",
                   "Luck and decisions from {n} games in {path}"),
    "luck.missing": ("Spiele, deren Log fehlt (verschoben oder gelöscht), nicht mitgezählt: {n}, z. B. {log}",
                     "games whose log is gone (moved or deleted), not counted: {n}, e.g. {log}"),
    "luck.col_player": ("Spieler", "Player"),
    "luck.col_throws": ("Würfe", "Throws"),
    "luck.col_luck": ("Glück", "Luck"),
    "luck.col_rare": ("so selten", "how rare"),
    "luck.col_decisions": ("Entsch.", "Decisions"),
    "luck.col_mistakes": ("Fehler", "Mistakes"),
    "luck.col_cost": ("kosteten", "cost"),
    "luck.lucky": ("Glück wie 1 von {n}", "as lucky as 1 in {n}"),
    "luck.unlucky": ("Pech wie 1 von {n}", "as unlucky as 1 in {n}"),
    "luck.none": ("–", "–"),
    "luck.ordinary": ("wie die meisten", "as most players"),
    "luck.lucky_extreme": ("Glück wie kaum einer (seltener als 1 von einer Milliarde)",
                           "lucky as hardly anyone (rarer than 1 in a billion)"),
    "luck.unlucky_extreme": ("Pech wie kaum einer (seltener als 1 von einer Milliarde)",
                             "unlucky as hardly anyone (rarer than 1 in a billion)"),
    "luck.classes": ("Klassen je Wurf, geworfen (erwartet; so selten wie 1 von N, wo 1 von 10 oder "
                     "seltener):",
                     "Classes per throw, thrown (expected; as rare as 1 in N, where 1 in 10 or rarer):"),
    "luck.class_rare": ("1 von {n}", "1 in {n}"),
    "luck.model": ("Gegnermodell: jede Entscheidung ist gegen die Gewohnheiten der anderen am Tisch "
                   "beurteilt, gelernt aus ihren aufgedeckten Zügen der Runden davor im selben Spiel (wie "
                   "oft sie stehen, je Wurf, Wurfgrenze, Eröffner oder nicht und Wurfklasse; Vorwissen: der "
                   "ganze Tisch, dann keep_ones mit dem Gewicht von {prior:g} Entscheidung(en)), und gegen "
                   "die Deckel vor jedem, wo die Mitte leer ist (docs/odds.md, „Gegnermodell“)",
                   "Opponent model: each decision is judged against the habits of the others at the table, "
                   "learnt from their turns revealed in the rounds before in the same game (how often they "
                   "stand, per throw, limit, opener or not and class of throw; prior: the whole table, then "
                   "keep_ones, weighing {prior:g} decision(s)), and against the Deckel in front of each "
                   "where the middle is empty (docs/odds.md, \"Opponent model\")"),
    "luck.explain": ("Glück: Deckel, die die Würfel gegenüber dem Erwarteten sparten (negativ: kosteten); "
                     "kosteten: Deckel, die die eigenen Entscheidungen gegenüber dem besten Spiel kosteten "
                     "(docs/odds.md)",
                     "Luck: Deckel the dice saved against the expected (negative: cost); cost: Deckel the "
                     "player's own decisions cost against the best play (docs/odds.md)"),
    # --- the options' help (input_checks.OneLineParser finds them by their English)
    "help.liga_plot": ("die Tabelle, die Deckel über die Abende und das Glück als Bild (braucht matplotlib: "
                       "das Extra [plot])",
                       "the standings, the Deckel over the evenings and the luck as a picture (needs "
                       "matplotlib: the extra [plot])"),
    "help.liga_luck_json": ("Glück und Entscheidungen als JSON", "luck and decisions as JSON"),
    "help.liga_luck_season": ("nur die Abende dieser Saison (schocken liga season)",
                              "only this season's evenings (schocken liga season)"),
    # --- league/plot.py
    "luck.no_matplotlib": ("--plot braucht matplotlib: pip install 'schocken-cup[plot]'",
                           "--plot needs matplotlib: pip install 'schocken-cup[plot]'"),
    "luck.plot_alone": ("--plot zeichnet die Tabelle: ohne {other}",
                        "--plot draws the standings: without {other}"),
    "luck.plot_suffix": ("{path}: --plot schreibt .svg oder .png", "{path}: --plot writes .svg or .png"),
    "luck.plot_written": ("Bild geschrieben: {path}", "Picture written: {path}"),
    "luck.plot_standings": ("Tabelle: verlorene Spiele je Spiel", "Standings: games lost per game"),
    "luck.plot_deckel": ("Deckel über die Abende", "Deckel over the evenings"),
    "luck.plot_deckel_games": ("Deckel über die Spiele", "Deckel over the games"),
    "luck.plot_evening": ("Abend (Datum, Tisch)", "Evening (date, table)"),
    "luck.plot_game": ("Spiel (Nummer)", "Game (number)"),
    "luck.plot_total": ("Deckel insgesamt (Summe bis dahin)", "Deckel in all (sum up to then)"),
    "luck.plot_lost_axis": ("verlorene Spiele je Spiel", "games lost per game"),
    "luck.plot_luck_axis": ("Deckel gespart gegen faire Würfel (Summe)",
                            "Deckel saved against fair dice (in all)"),
    "luck.plot_luck": ("Glück gegen die Wahrscheinlichkeit (Deckel gespart, ±1 und ±2 Standardabweichungen)",
                       "Luck against the odds (Deckel saved, ±1 and ±2 standard deviations)"),
    "luck.plot_empty": ("noch keine Spiele", "no games yet"),
    # --- views/web/season.py: the web page's season view
    "luck.web_title": ("Die Saison", "The season"),
    "web.page_season": ("Die Saison: Tabelle und Glück", "The season: standings and luck"),
    "luck.web_back": ("zurück zum Spiel", "back to the game"),
    "luck.web_picture": ("Bild für den Aushang (SVG)", "Picture for the notice board (SVG)"),
    "luck.web_wait": ("Die Saison wird berechnet …", "The season is being worked out …"),
    "luck.web_standings": ("Tabelle", "Standings"),
    "luck.web_col_place": ("Platz", "Place"),
    "luck.web_col_player": ("Spieler", "Player"),
    "luck.web_col_games": ("Spiele", "Games"),
    "luck.web_col_lost": ("verloren", "lost"),
    "luck.web_col_per_game": ("verloren je Spiel", "lost per game"),
    "luck.web_col_deckel": ("Deckel je Runde", "Deckel per round"),
    "luck.web_luck": ("Glück gegen die Wahrscheinlichkeit", "Luck against the odds"),
    "luck.web_col_luck": ("Glück (Deckel gespart)", "Luck (Deckel saved)"),
    "luck.web_col_rare": ("wie selten", "how rare"),
    "luck.web_busy": ("das Bild der Saison wird gerade gezeichnet; gleich noch einmal",
                      "the season's picture is being drawn; try again in a moment"),
    "luck.web_failed": ("das Bild der Saison ließ sich nicht zeichnen: {reason}",
                        "the season's picture could not be drawn: {reason}"),
}
