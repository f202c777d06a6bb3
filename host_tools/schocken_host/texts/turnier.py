"""Texts of the tournament (`schocken turnier`, tournament/): its jobs, its screens and its refusals.
{key: (German, English)}."""

TEXTS = {
    # --- the jobs (commands/turnier.py)
    "turnier.job_metavar": ("AUFGABE", "JOB"),
    "turnier.job_anlegen": ("ein Turnier anlegen: Ordner, Name, Format, Los-Seed, Spieler",
                            "create a tournament: folder, name, format, the draw's seed, players"),
    "turnier.job_anmelden": ("Spieler anmelden (Namen, oder eine Datei: ein Name je Zeile, \"Name; Team\")",
                             "register players (names, or a file: one name a line, \"name; team\")"),
    "turnier.job_auslosen": ("die nächste Runde auslosen und ihre Tischkarten schreiben",
                             "draw the next round and write its table cards"),
    "turnier.job_karten": ("die Tischkarten einer Runde als HTML (Spieler und QR-Code je Tisch)",
                           "a round's table cards as HTML (players and QR code per table)"),
    "turnier.job_leiten": ("die Turnierleitung: nimmt die geprüften Spiele der Tische an, zeigt die "
                           "Hallen-Leinwand",
                           "direct the tournament: take the tables' verified games, serve the hall's big "
                           "screen"),
    "turnier.job_stand": ("der Stand: Tabelle, Teams, Finale, Preise und die zurückgehaltenen Spiele",
                          "the standings: players, teams, final, prizes and the games held back"),
    "turnier.job_entscheiden": ("ein zurückgehaltenes Spiel werten (zaehlen) oder verwerfen",
                                "count (zaehlen) or reject (verwerfen) a game held back"),
    "turnier.job_nachzaehlen": ("den Stand aus den Spiel-Logs neu zählen und mit dem der Leitung vergleichen",
                                "count the standings anew from the game logs and compare them with the "
                                "director's"),
    "turnier.job_senden": ("die Spiele dieses Tisches senden, die noch auf das Netz warten",
                           "send this table's games that still wait for the network"),
    "turnier.job_formate": ("die Formate: Gonzerath, Ferschweiler, schocken.org",
                            "the formats: Gonzerath, Ferschweiler, schocken.org"),
    # --- what the jobs print
    "turnier.created": ("Turnier \"{name}\" angelegt in {path}: Format {format}, Los-Seed {seed}, {players} "
                        "Spieler",
                        "tournament \"{name}\" created in {path}: format {format}, draw seed {seed}, "
                        "{players} players"),
    "turnier.registered": ("{count} Spieler angemeldet, {total} insgesamt",
                           "{count} players registered, {total} in all"),
    "turnier.drawn": ("Runde {round} ({kind}) ausgelost aus dem Seed {seed}: {tables} Tische",
                      "round {round} ({kind}) drawn from the seed {seed}: {tables} tables"),
    "turnier.kind_round": ("Vorrunde", "round"),
    "turnier.kind_final": ("Finale, K.-o.", "final, knock-out"),
    "turnier.table_line": ("Tisch {table}: {players}", "table {table}: {players}"),
    "turnier.cards_at": ("Tischkarten: {path}", "table cards: {path}"),
    "turnier.serving": ("Turnierleitung \"{name}\" auf {url} (Leinwand: {url}leinwand); Strg-C beendet",
                        "directing \"{name}\" at {url} (big screen: {url}leinwand); Ctrl-C ends"),
    "turnier.heard_counted": ("Tisch {table}, Runde {round}: Spiel {game} geprüft und gewertet",
                              "table {table}, round {round}: game {game} verified and counted"),
    "turnier.heard_held": ("Tisch {table}, Runde {round}: Spiel {game} ZURÜCKGEHALTEN: {reason}; `schocken "
                           "turnier entscheiden {path} {game} zaehlen|verwerfen`",
                           "table {table}, round {round}: game {game} HELD BACK: {reason}; `schocken "
                           "turnier entscheiden {path} {game} zaehlen|verwerfen`"),
    "turnier.decided": ("Spiel {game}: {status}", "game {game}: {status}"),
    "turnier.standings_head": (
        "Platz  Name                  Spiele  Punkte  verl. Spiele  verl. Hälften  Deckel",
                               "place  name                  games  points  games lost  halves lost  Deckel"),
    "turnier.held_head": ("Zurückgehalten (warten auf die Entscheidung der Leitung):",
                          "held back (waiting for the director's word):"),
    "turnier.held_line": ("  {game} (Runde {round}, Tisch {table}): {reason}",
                          "  {game} (round {round}, table {table}): {reason}"),
    "turnier.teams_head": ("Teams:", "teams:"),
    "turnier.final_head": ("Finale (raus nach {out} verlorenen Spielen):",
                           "final (out after {out} lost games):"),
    "turnier.prizes_head": ("Preisgeld ({pool:.2f} €):", "prize money ({pool:.2f} €):"),
    "turnier.recount_equal": ("Nachgezählt aus {games} Logs: gleich dem Stand der Leitung",
                              "recounted from {games} logs: equal to the director's standings"),
    "turnier.recount_differs": ("Nachgezählt aus {games} Logs: WEICHT AB bei {name}",
                                "recounted from {games} logs: DIFFERS at {name}"),
    "turnier.report_sent": ("an die Turnierleitung gemeldet: {sent} Spiel(e); {waiting} warten",
                            "reported to the director: {sent} game(s); {waiting} waiting"),
    "turnier.report_waiting": ("Turnierleitung nicht erreichbar ({why}); {waiting} Spiel(e) warten in {path} "
                               "und gehen beim nächsten Spiel (oder `schocken turnier senden`) hinaus",
                               "the director cannot be reached ({why}); {waiting} game(s) wait in {path} "
                               "and go out with the next game (or `schocken turnier senden`)"),
    "turnier.report_refused": ("die Turnierleitung weist das Spiel {game} ab: {why}",
                               "the director refuses game {game}: {why}"),
    "turnier.seated": ("Turnier: Tisch {table}, Runde {round}: {players}",
                       "tournament: table {table}, round {round}: {players}"),
    "turnier.seated_offline": ("Turnierleitung nicht erreichbar ({why}): es gilt die zuletzt gemeldete "
                               "Auslosung; das Spiel geht hinaus, sobald das Netz zurück ist",
                               "the director cannot be reached ({why}): the seating it gave last holds; the "
                               "game goes out once the network is back"),
    # --- refusals
    "turnier.no_job": ("schocken turnier braucht eine Aufgabe: {jobs}",
                       "schocken turnier needs a job: {jobs}"),
    "turnier.no_format": ("{where}: kein Format {name} (bekannt: {known}, oder eine Datei .toml)",
                          "{where}: no format {name} (known: {known}, or a .toml file)"),
    "turnier.format_key": ("{path}: unbekannter Schlüssel {option} (bekannt: {known})",
                           "{path}: unknown key {option} (known: {known})"),
    "turnier.format_number": ("{path}: {option} = {value}: erwartet eine ganze Zahl von {low} bis {high}",
                              "{path}: {option} = {value}: expected a whole number from {low} to {high}"),
    "turnier.format_value": ("{path}: {option} = {value}: ungültig (docs/turnier.md)",
                             "{path}: {option} = {value}: not valid (docs/turnier.md)"),
    "turnier.format_ties": ("{path}: scoring.tie_breaks = {value}: erwartet eine Liste aus {known}, jedes "
                            "höchstens einmal",
                            "{path}: scoring.tie_breaks = {value}: expected a list of {known}, each at most "
                            "once"),
    "turnier.format_prizes": ("{path}: prizes.split = {value}: erwartet positive Prozente, zusammen "
                              "höchstens "
                              "100",
                              "{path}: prizes.split = {value}: expected positive percentages, at most 100 in "
                              "all"),
    "turnier.format_sizes": ("{path}: tables.size = {size} liegt nicht zwischen min {low} und max {high}",
                             "{path}: tables.size = {size} is not between min {low} and max {high}"),
    "turnier.format_rules": ("{path}: [rules]: {error}", "{path}: [rules]: {error}"),
    "turnier.format_not_utf8": ("{path}: keine UTF-8-Textdatei", "{path}: not a UTF-8 text file"),
    "turnier.format_unreadable": ("{path}: nicht lesbar: {error}", "{path}: cannot be read: {error}"),
    "turnier.format_syntax": ("{path}: kein gültiges TOML: {error}", "{path}: not valid TOML: {error}"),
    "turnier.too_few": ("{players} Spieler sind zu wenige: ein Tisch braucht mindestens {low}",
                        "{players} players are too few: a table needs at least {low}"),
    "turnier.no_sizes": ("{players} Spieler lassen sich nicht an Tische von {low} bis {high} setzen",
                         "{players} players cannot be seated at tables of {low} to {high}"),
    "turnier.no_tournament": ("{path}: kein Turnier-Ordner (`schocken turnier anlegen {path}` legt einen an)",
                              "{path}: no tournament folder (`schocken turnier anlegen {path}` makes one)"),
    "turnier.exists": ("{path}: hier ist schon ein Turnier angelegt",
                       "{path}: a tournament is there already"),
    "turnier.cannot_make": ("{path}: Ordner lässt sich nicht anlegen: {error}",
                            "{path}: cannot make the folder: {error}"),
    "turnier.db_failed": ("{path}: die Turnier-Datenbank versagt: {error}",
                          "{path}: the tournament database fails: {error}"),
    "turnier.player_twice": ("{name}: ist schon angemeldet", "{name}: is registered already"),
    "turnier.bad_name": ("{where}: {name}: kein Spielername (leer, Steuerzeichen oder ein ';')",
                         "{where}: {name}: no player's name (empty, control characters or a ';')"),
    "turnier.already_drawn": ("die erste Runde ist schon ausgelost: keine Anmeldung mehr",
                              "the first round is drawn already: no more registering"),
    "turnier.round_open": ("Runde {round} ist nicht fertig: {missing} Spiel(e) fehlen noch (--trotzdem lost "
                           "dennoch aus)",
                           "round {round} is not over: {missing} game(s) still to come (--anyway draws all "
                           "the same)"),
    "turnier.over": ("das Turnier ist zu Ende: keine Runde mehr auszulosen",
                     "the tournament is over: no round left to draw"),
    "turnier.no_round": ("Runde {round} ist nicht ausgelost", "round {round} is not drawn"),
    "turnier.not_enrolled": ("dieser Schlüssel gehört zu keinem Tisch des Turniers",
                             "this key belongs to no table of the tournament"),
    "turnier.no_such_round": ("Tisch {table} spielt in Runde {round} nicht",
                              "table {table} does not play in round {round}"),
    "turnier.no_log": ("das ist kein Spiel-Log (kein start-Ereignis, keine Spiel-ID)",
                       "this is no game log (no start event, no game id)"),
    "turnier.no_such_game": ("kein Spiel {game_id} in diesem Turnier",
                             "no game {game_id} in this tournament"),
    "turnier.not_held": ("Spiel {game_id} ist nicht zurückgehalten ({status})",
                         "game {game_id} is not held back ({status})"),
    "turnier.cannot_count": ("Spiel {game_id} lässt sich nicht werten: sein Log ist kein fertiges Spiel "
                             "angemeldeter Spieler",
                             "game {game_id} cannot count: its log is no finished game of registered "
                             "players"),
    "turnier.bad_url": ("{url}: keine Adresse eines Tisches bei der Turnierleitung "
                        "(http://HOST:PORT/tisch/SCHLÜSSEL, wie auf der Tischkarte)",
                        "{url}: no table's address at a director (http://HOST:PORT/tisch/KEY, as on the "
                        "table card)"),
    "turnier.unreachable": ("die Turnierleitung unter {url} antwortet nicht: {why}",
                            "the director at {url} does not answer: {why}"),
    "turnier.refused": ("die Turnierleitung unter {url} lehnt ab: {why}",
                        "the director at {url} refuses: {why}"),
    "turnier.not_seated": ("Tisch {table} spielt in Runde {round} nicht (die Runde hat weniger Tische)",
                           "table {table} does not play in round {round} (the round has fewer tables)"),
    "turnier.names_differ": ("--names ({given}) sind nicht die ausgelosten Spieler von Tisch {table} "
                             "({drawn})",
                             "--names ({given}) are not the players drawn at table {table} ({drawn})"),
    # --- the big screen and the table's page (tournament/hall.py)
    "turnier.screen_title": ("Turnier", "Tournament"),
    "turnier.guest_only": ("nur ansehen: melden können nur angemeldete Tische",
                           "look only: only enrolled tables can report"),
    "turnier.too_big": ("zu groß für ein Spiel-Log", "too big for a game log"),
    "turnier.bad_body": ("erwartet JSON {\"key\", \"round\", \"log\"}", "expected JSON {\"key\", \"round\", "
                                                                          "\"log\"}"),
}
