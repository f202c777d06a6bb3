"""What league/luck/game.py read from each game's log, kept in a file of its own beside the league's database
(`league-luck.sqlite3` for `league.sqlite3`), so `schocken liga luck` reads only the games it has not read
before: a log is read again when its size or time changed, or when this program computes luck otherwise
(``VERSION``).

It is a cache and nothing else: made from the logs, never part of the league's schema or its rebuild, and
whatever goes wrong with it (a damaged file, a disk that refuses, another process writing) makes luck read the
logs as if it were not there. Deleting it loses nothing."""

import json
import sqlite3
from pathlib import Path

from schocken_host.league.luck.game import SeatTally, shared

VERSION = 3            # of what a game's tallies are: a new way to compute them makes every game read anew
_SCHEMA = """
    CREATE TABLE IF NOT EXISTS outcomes (         -- a throw's luck outcomes, once each: [[luck, chance], ...]
        id       INTEGER PRIMARY KEY,
        outcomes TEXT NOT NULL UNIQUE
    );
    CREATE TABLE IF NOT EXISTS games (
        game_id TEXT PRIMARY KEY,
        log     TEXT NOT NULL,                    -- the log it was read from, its size and time then
        size    INTEGER NOT NULL,
        mtime   INTEGER NOT NULL,
        version INTEGER NOT NULL,
        seats   TEXT NOT NULL                     -- {seat: the SeatTally, its outcomes by id}
    ) WITHOUT ROWID;
"""


def cache_path(league_path):
    league_path = Path(league_path)
    return league_path.with_name(league_path.stem + "-luck.sqlite3")


class LuckCache:
    """The cache of one league's database; every method answers None or does nothing where the file fails."""

    def __init__(self, league_path):
        self.conn = None
        self.ids = {}          # outcomes -> id, of this run
        self.found = {}        # id -> outcomes, of this run
        self.pending = 0       # games written since the last commit
        path = cache_path(league_path)
        for attempt in (1, 2):
            try:
                conn = sqlite3.connect(path, timeout=0.5, isolation_level=None)
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = NORMAL")   # a power cut may lose the latest: read again
                conn.executescript(_SCHEMA)
                self.conn = conn
                return
            except sqlite3.DatabaseError as e:
                damaged = getattr(e, "sqlite_errorname", "").startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))
                if attempt == 2 or not damaged:
                    return
                for suffix in ("", "-wal", "-shm"):   # a damaged cache is no loss: made anew
                    Path(str(path) + suffix).unlink(missing_ok=True)

    def get(self, game_id, log, size, mtime):
        """{seat: SeatTally} kept for this game's log as it is now, else None."""
        if self.conn is None:
            return None
        try:
            row = self.conn.execute("SELECT log, size, mtime, version, seats FROM games WHERE game_id = ?",
                                    (game_id,)).fetchone()
            if row is None or tuple(row[:4]) != (str(log), size, mtime, VERSION):
                return None
            seats = json.loads(row[4])
            for i in {i for tally in seats.values() for i, _ in tally["spreads"]} - self.found.keys():
                text = self.conn.execute("SELECT outcomes FROM outcomes WHERE id = ?", (i,)).fetchone()
                if text is None:
                    return None
                self.found[i] = shared(tuple(tuple(pair) for pair in json.loads(text[0])))
            return {int(seat): _tally(t, self.found) for seat, t in seats.items()}
        except (sqlite3.Error, ValueError, KeyError, TypeError):
            return None

    def put(self, game_id, log, size, mtime, tallies):
        """Keeps a game's tallies; written in one transaction with the next ones (``flush``)."""
        if self.conn is None:
            return
        try:
            if not self.conn.in_transaction:
                self.conn.execute("BEGIN IMMEDIATE")
            seats = {seat: self._row(t) for seat, t in tallies.items()}
            self.conn.execute("INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?)",
                              (game_id, str(log), size, mtime, VERSION, json.dumps(seats)))
            self.pending += 1
            if self.pending >= 200:
                self.flush()
        except sqlite3.Error:
            self._give_up()

    def flush(self):
        if self.conn is not None and self.conn.in_transaction:
            try:
                self.conn.execute("COMMIT")
                self.pending = 0
            except sqlite3.Error:
                self._give_up()

    def _give_up(self):
        """What this run would write is dropped; the logs stay the record."""
        try:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass
        self.ids.clear()       # ids of outcomes rolled back are no longer there
        self.conn.close()
        self.conn = None

    def _row(self, tally):
        spreads = []
        for outcomes, n in tally.spreads.items():
            i = self.ids.get(outcomes)
            if i is None:
                text = json.dumps(outcomes)
                self.conn.execute("INSERT OR IGNORE INTO outcomes (outcomes) VALUES (?)", (text,))
                i = self.ids[outcomes] = self.conn.execute("SELECT id FROM outcomes WHERE outcomes = ?",
                                                           (text,)).fetchone()[0]
            spreads.append([i, n])
        return {"throws": tally.throws, "luck": tally.luck, "decisions": tally.decisions,
                "mistakes": tally.mistakes, "cost": tally.cost, "classes": tally.classes, "spreads": spreads,
                "chances": {kind: list(counts.items()) for kind, counts in tally.chances.items()}}

    def close(self):
        self.flush()
        if self.conn is not None:
            self.conn.close()


def _tally(row, outcomes):
    return SeatTally(throws=row["throws"], luck=row["luck"], decisions=row["decisions"],
                     mistakes=row["mistakes"], cost=row["cost"], classes=row["classes"],
                     spreads={outcomes[i]: n for i, n in row["spreads"]},
                     chances={kind: {p: n for p, n in counts} for kind, counts in row["chances"].items()})
