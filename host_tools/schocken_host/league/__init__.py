"""The league: every finished game in a SQLite database, people across their seat names, the standings
(docs/league.md). ``db``: the file, its schema and migrations; ``games``: a log read and recorded as a game;
``logs``: import and rebuild from the game logs; ``standings``: the standings, merges and renames."""
