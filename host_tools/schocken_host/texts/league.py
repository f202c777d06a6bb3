"""Texts of the league (`schocken liga`, league/): its standings, its import and its refusals.
{key: (German, English)}."""

TEXTS = {
    # --- the database (league/db.py): each refusal is one line and touches nothing
    "league.locked": ("{path}: die Liga-Datenbank ist in Benutzung (ein anderes schocken schreibt gerade); "
                      "später noch einmal",
                      "{path}: the league database is in use (another schocken is writing to it); try again "
                      "later"),
    "league.corrupt": ("{path}: die Liga-Datenbank ist beschädigt ({error}); `schocken liga rebuild` baut "
                       "sie aus den Spiel-Logs neu (die beschädigte Datei bleibt als {path}.bak)",
                       "{path}: the league database is damaged ({error}); `schocken liga rebuild` makes it "
                       "anew from the game logs (the damaged file is kept as {path}.bak)"),
    "league.newer": ("{path}: die Liga-Datenbank hat Schema-Version {version}, dieses schocken kennt nur bis "
                     "{known}: ein neueres schocken hat sie geschrieben; nimm das",
                     "{path}: the league database has schema version {version}, this schocken knows up to "
                     "{known}: a newer schocken wrote it; use that one"),
    "league.cannot_open": ("{path}: die Liga-Datenbank lässt sich nicht öffnen oder schreiben: {error}",
                           "{path}: cannot open or write the league database: {error}"),
    "league.is_a_folder": ("{path}: ist ein Ordner, keine Liga-Datenbank",
                           "{path}: is a folder, no league database"),
    # --- a log that is no game (league/games.py; the reader names file and line)
    "league.no_start": ("kein Spiel-Log: das erste Ereignis ist {kind}, nicht start",
                        "no game log: its first event is {kind}, not start"),
    # --- a game recorded as it ends (league/recorder.py)
    "league.recorded_now": ("in der Liga eingetragen: {path}", "recorded in the league: {path}"),
    "league.not_recorded": ("schocken: nicht in der Liga eingetragen: {why}; das Log bleibt, `schocken liga "
                            "import {log}` trägt das Spiel nach",
                            "schocken: not recorded in the league: {why}; the log stays, `schocken liga "
                            "import {log}` records the game later"),
    "league.still_busy": ("die Liga-Datenbank antwortet nicht rechtzeitig",
                          "the league database does not answer in time"),
    "league.failed": ("Fehler der Liga-Datenbank ({error})", "the league database failed ({error})"),
    "league.not_finished": ("{path}: das Spiel im Log ist nicht zu Ende",
                            "{path}: the game in the log is not over"),
    # --- evenings and seasons (league/evenings.py)
    "league.bad_day": ("{day}: kein Tag (JJJJ-MM-TT, etwa 2026-12-04)", "{day}: no day (YYYY-MM-DD, e.g. "
                                                                       "2026-12-04)"),
    "league.season_backwards": ("die Saison endet ({last}) vor ihrem Anfang ({first})",
                                "the season ends ({last}) before it begins ({first})"),
    "league.unknown_game": ("{game_id}: kein Spiel der Liga hat diese Nummer",
                            "{game_id}: no game of the league has that id"),
    "league.ambiguous_game": ("{game_id}: mehrere Spiele beginnen so; mehr Ziffern der Nummer angeben",
                              "{game_id}: several games begin so; give more digits of the id"),
    "league.unknown_season": ("{name}: keine Saison dieses Namens (es gibt: {known})",
                              "{name}: no season of that name (there are: {known})"),
    # --- stakes and the ledger (league/stakes.py, commands/liga_club.py)
    "league.bad_stake": ("{rule}: kein Einsatz (personen, spiel:BETRAG, getraenke, keiner)",
                         "{rule}: no stake rule (players, game:AMOUNT, drinks, none)"),
    "league.no_evening": ("{day}: an diesem Tag war kein Abend der Liga",
                          "{day}: no evening of the league on that day"),
    "league.stake_players": ("bis 5 Personen 5 €, ab 6 Personen 10 € je Spiel, wie im Regelwerk des Vereins "
                             "(Regelsatz verein)",
                             "€5 a game up to 5 players, €10 from 6, as in the club's rulebook (rule set "
                             "verein)"),
    "league.stake_game": ("{amount} je Spiel", "{amount} a game"),
    "league.stake_drinks": ("eine Getränkerunde je Spiel: ein Getränk für jeden am Tisch",
                            "a round of drinks a game: one drink for everyone at the table"),
    "league.stake_none": ("kein Einsatz", "no stake"),
    "league.stake_set": ("Einsatz der Liga: {rule}", "the league's stake: {rule}"),
    "league.stake_set_evening": ("Einsatz am Abend {day}: {rule}", "the stake of the evening {day}: {rule}"),
    "league.stake_is": ("Einsatz der Liga: {rule}", "the league's stake: {rule}"),
    "league.stake_of_evening": ("  am Abend {evening}: {rule}", "  on the evening {evening}: {rule}"),
    "league.settled": ("abgerechnet", "settled"),
    "league.open": ("offen", "open"),
    "league.settled_now": ("der Abend {day} ist abgerechnet", "the evening {day} is settled"),
    "league.reopened": ("der Abend {day} ist wieder offen", "the evening {day} is open again"),
    "league.ledger_evening": ("{evening}: {games}, {rule}, {settled}",
                              "{evening}: {games}, {rule}, {settled}"),
    "league.ledger_evening_free": ("{evening}: {games}, {rule}", "{evening}: {games}, {rule}"),
    "league.lost_games": ("{n} verloren", "lost {n}"),
    "league.no_stake_set": ("kein Einsatz festgelegt: `schocken liga einsatz REGEL` legt einen fest "
                            "(personen, spiel:BETRAG, getraenke)",
                            "no stake set: `schocken liga stake RULE` sets one (players, game:AMOUNT, "
                            "drinks)"),
    "league.n_games": ("{n} Spiele", "{n} games"),
    "league.n_games_1": ("1 Spiel", "1 game"),
    "league.drinks": ("{n} Getränke", "{n} drinks"),
    "league.still_open": ("noch offen:", "still open:"),
    "league.col_stakes": ("Einsatz", "stakes"),
    "league.col_owed": ("offen", "owed"),
    "league.col_drinks": ("Getränke", "drinks"),
    "league.bad_sort": ("--sort {column}: keine Spalte (es gibt: {columns})",
                        "--sort {column}: no such column (there are: {columns})"),
    # --- evenings and seasons (commands/liga_club.py)
    "league.evening_line": ("{evening}: {games}, {settled}", "{evening}: {games}, {settled}"),
    "league.evening_line_free": ("{evening}: {games}", "{evening}: {games}"),
    "league.no_evenings": ("noch kein Abend in der Liga", "no evening in the league yet"),
    "league.game_line": ("{game_id}  {when}  {place}  verloren: {loser}", "{game_id}  {when}  {place}  lost: "
                                                                          "{loser}"),
    "league.game_line_no_table": ("{game_id}  {when}  verloren: {loser}", "{game_id}  {when}  lost: {loser}"),
    "league.moved": ("Spiel {game_id} gehört jetzt zum Abend {evening}",
                     "game {game_id} now belongs to the evening {evening}"),
    "league.table_needs_evening": ("--table braucht --evening TAG: der Einsatz der Liga gilt an jedem Tisch",
                                   "--table needs --evening DAY: the league's stake holds at every table"),
    "league.move_needs_day": ("--move SPIEL braucht den Tag des Abends (schocken liga abend TAG --move "
                              "SPIEL)",
                              "--move GAME needs the evening's day (schocken liga evening DAY --move GAME)"),
    "league.season_needs_days": ("eine Saison braucht Namen, ersten und letzten Tag (schocken liga saison "
                                 "NAME VON BIS)",
                                 "a season needs its name, first and last day (schocken liga season NAME "
                                 "FROM TO)"),
    "league.season_set": ("Saison {name}: {first} bis {last}", "season {name}: {first} to {last}"),
    "league.season_line": ("Saison {name}: {first} bis {last}, {games}",
                           "season {name}: {first} to {last}, {games}"),
    "league.no_seasons": ("noch keine Saison (schocken liga saison NAME VON BIS)",
                          "no season yet (schocken liga season NAME FROM TO)"),
    # --- commands/liga.py
    "league.no_such_folder": ("{path}: diesen Ordner gibt es nicht", "{path}: no such folder"),
    "league.refused": ("{path} Zeile {line}: {error} (nicht eingetragen)",
                       "{path} line {line}: {error} (not recorded)"),
    "league.unreadable": ("{error} (nicht eingetragen)", "{error} (not recorded)"),
    "league.imported": ("{imported} eingetragen, {already} schon da, {skipped} unfertig "
                        "übersprungen{torn}, {refused} abgelehnt",
                        "{imported} recorded, {already} already there, {skipped} unfinished and "
                        "skipped{torn}, {refused} refused"),
    "league.torn_count": (", {n} am Ende abgerissen", ", {n} torn at the end"),
    "league.torn_skipped": ("{path} Zeile {line}: die letzte Zeile ist abgerissen (der Host endete, "
                            "während er sie schrieb): das Spiel darin ist unfertig (übersprungen)",
                            "{path} line {line}: the last line is torn (the host ended while writing it): "
                            "the game in it is unfinished (skipped)"),
    "league.torn": ("{path} Zeile {line}: die letzte Zeile ist abgerissen (der Host endete, während er sie "
                    "schrieb): das Spiel war schon entschieden und zählt",
                    "{path} line {line}: the last line is torn (the host ended while writing it): the game "
                    "was decided before it and counts"),
    "league.rebuilt": ("{path}: neu aus {folders} gebaut", "{path}: made anew from {folders}"),
    "league.kept_old": ("die alte Datei bleibt als {path}.bak", "the old file is kept as {path}.bak"),
    "league.job_metavar": ("AUFGABE", "JOB"),
    "league.rebuilt_lost": ("die alte Datei war nicht lesbar: ihre Umbenennungen und Zusammenlegungen sind "
                            "nicht übernommen",
                            "the old file could not be read: its renames and merges are not carried over"),
    "league.unknown_player": ("{name}: so heißt in der Liga niemand", "{name}: nobody of that name in the "
                                                                     "league"),
    "league.same_player": ("{name} und {into} sind schon dieselbe Person",
                           "{name} and {into} are one person already"),
    "league.same_table": ("{name} und {into} saßen zusammen am Tisch (Spiel {game_id}): zwei Personen",
                          "{name} and {into} sat at one table (game {game_id}): two people"),
    "league.two_seats": ("{path}: {name} und {other} sitzen hier beide am Tisch und sind doch in der Liga "
                         "dieselbe Person",
                         "{path}: {name} and {other} both sit at this table, yet are one person in the "
                         "league"),
    "league.merged": ("{name} gehört jetzt zu {into}", "{name} now counts for {into}"),
    "league.renamed": ("{name} heißt jetzt {into}", "{name} is now called {into}"),
    "league.empty_name": ("ein Name darf nicht leer sein", "a name cannot be empty"),
    "league.games": ("{n} Spiele in {path}", "{n} games in {path}"),
    "league.games_1": ("{n} Spiel in {path}", "{n} game in {path}"),
    "league.col_player": ("Spieler", "Player"),
    "league.col_games": ("Spiele", "games"),
    "league.col_lost": ("verloren", "lost"),
    "league.col_rate": ("je Spiel", "per game"),
    "league.col_halves": ("Hälften", "halves"),
    "league.col_finals": ("Finale", "finals"),
    "league.col_deckel": ("Deckel/Runde", "Deckel/round"),
    # --- the options' descriptions under --help (input_checks.OneLineParser finds them by their English)
    "help.liga_season": ("der Stand der Abende dieser Saison (schocken liga saison)",
                         "the standings of this season's evenings (schocken liga season)"),
    "help.liga_sort": ("das Höchste dieser Spalte zuerst (eine Spalte von --csv, oder das Wort der deutschen "
                       "Tabelle)",
                       "highest first in this column (a column of --csv, or the German table's word)"),
    "help.liga_table": ("der Tisch des Abends: der Name, den seine Tisch-Datei ihm gibt (Vorgabe: jeder "
                        "Tisch dieses Tages)",
                        "the evening's table: the name its table file gives it (default: every table of that "
                        "day)"),
    "help.liga_evening_table": ("nur die Abende dieses Tisches (der Name, den seine Tisch-Datei ihm gibt); "
                                "mit --move der Tisch, an den das Spiel kommt",
                                "only the evenings at this table (the name its table file gives it); with "
                                "--move, the table the game goes to"),
    "help.liga_table_filter": ("nur die Abende dieses Tisches (der Name, den seine Tisch-Datei ihm gibt)",
                               "only the evenings at this table (the name its table file gives it)"),
    "help.liga_evening_day": ("der Tag eines Abends, JJJJ-MM-TT", "an evening's day, YYYY-MM-DD"),
    "help.liga_move": ("dieses Spiel (seine Nummer, oder ihre ersten Ziffern) zum Abend von DAY legen",
                       "put this game (its id, or its first digits) into the evening of DAY"),
    "help.liga_season_name": ("der Name der Saison", "the season's name"),
    "help.liga_season_first": ("der Tag ihres ersten Abends, JJJJ-MM-TT",
                               "its first evening's day, YYYY-MM-DD"),
    "help.liga_season_last": ("der Tag ihres letzten Abends, JJJJ-MM-TT",
                              "its last evening's day, YYYY-MM-DD"),
    "help.liga_stake_rule": ("keiner (die Vorgabe), personen (5 Euro bis 5 Personen, 10 ab 6), spiel:BETRAG, "
                             "getraenke",
                             "none (the default), players (5 euros up to 5 players, 10 from 6), game:AMOUNT, "
                             "drinks"),
    "help.liga_stake_evening": ("die Regel nur dieses Abends (Vorgabe: die der Liga)",
                                "the rule of this evening only (default: of the league)"),
    "help.liga_ledger_season": ("die Abende dieser Saison", "the evenings of this season"),
    "help.liga_settle": ("der Abend von DAY ist abgerechnet", "the evening of DAY is settled"),
    "help.liga_reopen": ("der Abend von DAY ist wieder offen", "the evening of DAY is open again"),
    "help.liga_ledger_json": ("die Kasse als JSON", "the ledger as JSON"),
}
