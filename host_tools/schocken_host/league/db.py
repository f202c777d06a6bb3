"""The league's database: one SQLite file (the standard library's sqlite3) in the user's data folder, its
schema made by numbered migrations (``PRAGMA user_version`` holds how many have run), in WAL mode with foreign
keys on. docs/league.md shows the schema and says why it is so.

The game logs stay the record: everything here is made from them (``schocken liga rebuild``) but for the
names a scorekeeper merged or renamed. So a database this program cannot trust (in use, damaged, of a newer
schema) is refused in one line before anything is written to it."""

import os
import sqlite3
from contextlib import contextmanager
from pathlib import Path

from schocken_host.errors import CommandError
from schocken_host.links.keys import data_dir

FILE_NAME = "league.sqlite3"
BUSY_TIMEOUT_S = 2.0    # how long a write waits for another schocken's transaction before it is refused

# What a seat adds to its tally and takes from it (migration 5's triggers): NEW's added, OLD's or s's taken.
_COUNTS = ("lost", "halves_lost", "final_lost", "rounds", "deckel", "schock_aus")
_TALLY = {key: ", ".join(["games = tallies.games %s 1" % sign]
                         + ["%s = tallies.%s %s %s.%s" % (c, c, sign, row, c) for c in _COUNTS])
          for key, sign, row in (("add", "+", "excluded"), ("take_old", "-", "OLD"), ("take_seat", "-", "s"))}

# Migration n takes the schema from version n-1 to n; a database is at the version of the last one it ran.
# A migration is never changed once released: a new schema is a new entry. Tables keyed by a name or a game
# are WITHOUT ROWID, stored in the order of their key: the same games and names make the same file's
# content, whatever order they were imported in (a rebuild equals the database it replaces).
MIGRATIONS = (
    # 1: players, the names they were seated under, games and each game's seats.
    """
    CREATE TABLE players (
        id   INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,           -- as the standings show the person
        cup  TEXT                            -- the id of the person's own cup, where a log had one
    );
    CREATE TABLE names (                     -- a seat's name in a log -> the person it stands for
        name   TEXT PRIMARY KEY,
        player INTEGER NOT NULL REFERENCES players(id)
    ) WITHOUT ROWID;
    CREATE INDEX names_player ON names(player);
    CREATE TABLE games (
        game_id     TEXT PRIMARY KEY,        -- the log's start event: the key of an import
        log         TEXT NOT NULL,           -- the file it was imported from
        started     REAL,                    -- the start event's ts (Unix seconds)
        rules       TEXT NOT NULL,           -- Rules.to_dict() as JSON
        rounds      INTEGER NOT NULL,        -- rounds ranked by the rules (throw-offs and void ones not)
        blattschuss INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE seats (
        game_id     TEXT NOT NULL REFERENCES games(game_id) ON DELETE CASCADE,
        seat        INTEGER NOT NULL,
        player      INTEGER NOT NULL REFERENCES players(id),
        name        TEXT NOT NULL,           -- the seat's name as logged
        cup         TEXT,
        kind        TEXT NOT NULL,           -- "cup", "human" or "bot"
        rounds      INTEGER NOT NULL,        -- rounds it played (it was in the round's order)
        deckel      INTEGER NOT NULL,        -- Deckel it took in those rounds
        halves_lost INTEGER NOT NULL,        -- first and second half
        final_lost  INTEGER NOT NULL,        -- 0 or 1
        lost        INTEGER NOT NULL,        -- 0 or 1: the game
        schock_aus  INTEGER NOT NULL,        -- Schock-Aus it threw (revealed)
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    CREATE INDEX seats_player ON seats(player);
    """,
    # 2: evenings and seasons, the stakes and their settling (docs/league.md, "Evenings, seasons, stakes").
    """
    ALTER TABLE games ADD COLUMN day TEXT;       -- the evening: the day it began (YYYY-MM-DD) ...
    ALTER TABLE games ADD COLUMN place TEXT;     -- ... and the table it was played at
    ALTER TABLE games ADD COLUMN players INTEGER;   -- seats at the table: the stake of seed 004 goes by them
    CREATE INDEX games_day ON games(day, place);
    CREATE TABLE evenings (
        day     TEXT NOT NULL,
        place   TEXT NOT NULL,
        stake   TEXT,                        -- its stake rule (league/stakes.py), NULL: the league's
        settled REAL,                        -- when its ledger was settled (Unix seconds), NULL: open
        PRIMARY KEY (day, place)
    ) WITHOUT ROWID;
    CREATE TABLE moved (                     -- a game the scorekeeper put into another evening
        game_id TEXT PRIMARY KEY,
        day     TEXT NOT NULL,
        place   TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE seasons (
        name  TEXT PRIMARY KEY,
        first TEXT NOT NULL,                 -- its first and last evening's day, both included
        last  TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE settings (                  -- the league's own: "stake", the stake rule of every evening
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    ) WITHOUT ROWID;
    UPDATE games SET players = (SELECT count(*) FROM seats WHERE seats.game_id = games.game_id);
    """,
    # 3: the standings of a season of 10,000 games within 50 ms: each seat keeps its game's evening's day, and
    # one index holds all the standings add up, per person and day (no seat is read from the table then).
    """
    ALTER TABLE seats ADD COLUMN day TEXT;
    UPDATE seats SET day = (SELECT day FROM games WHERE games.game_id = seats.game_id);
    CREATE INDEX seats_standing
        ON seats(player, day, lost, halves_lost, final_lost, rounds, deckel, schock_aus);
    DROP INDEX games_day;
    CREATE INDEX games_day ON games(day, place, players);
    """,
    # 4: an evening's table is the one its game's log names (games.place, evenings.place, moved.place: the
    # table's name, '' for none), no longer the folder its log lay in; a league without a stake rule of its
    # own charges none. Filled in by _tables_of_the_games.
    """
    -- the schema stays: what its columns mean changes
    """,
    # 5: the standings and the ledger of 10,000 games within a few milliseconds: what the seats add up to per
    # evening (day and table), table size and person, kept by triggers as seats and games are written, moved
    # and merged (the standings read a row per person and evening, not one per seat); migration 3's index,
    # which they read before, goes.
    """
    CREATE TABLE tallies (
        day         TEXT NOT NULL,           -- the evening: seats.day and games.place
        place       TEXT NOT NULL,
        players     INTEGER NOT NULL,        -- games.players: the stake goes by them
        player      INTEGER NOT NULL,        -- seats.player
        games       INTEGER NOT NULL,        -- his seats there, and what they add up to
        lost        INTEGER NOT NULL,
        halves_lost INTEGER NOT NULL,
        final_lost  INTEGER NOT NULL,
        rounds      INTEGER NOT NULL,
        deckel      INTEGER NOT NULL,
        schock_aus  INTEGER NOT NULL,
        PRIMARY KEY (day, place, players, player)
    ) WITHOUT ROWID;
    INSERT INTO tallies
        SELECT s.day, g.place, g.players, s.player, count(*), sum(s.lost), sum(s.halves_lost),
               sum(s.final_lost), sum(s.rounds), sum(s.deckel), sum(s.schock_aus)
        FROM seats s JOIN games g ON g.game_id = s.game_id
        GROUP BY s.day, g.place, g.players, s.player;
    DROP INDEX seats_standing;
    CREATE TRIGGER tally_seat_in AFTER INSERT ON seats BEGIN
        INSERT INTO tallies
            SELECT NEW.day, g.place, g.players, NEW.player, 1, NEW.lost, NEW.halves_lost, NEW.final_lost,
                   NEW.rounds, NEW.deckel, NEW.schock_aus
            FROM games g WHERE g.game_id = NEW.game_id
            ON CONFLICT DO UPDATE SET %(add)s;
    END;
    CREATE TRIGGER tally_seat_out AFTER DELETE ON seats BEGIN
        UPDATE tallies SET %(take_old)s
            FROM games g WHERE g.game_id = OLD.game_id AND tallies.day = OLD.day AND tallies.place = g.place
                AND tallies.players = g.players AND tallies.player = OLD.player;
        DELETE FROM tallies WHERE day = OLD.day AND player = OLD.player AND games = 0;
    END;
    CREATE TRIGGER tally_seat_changed AFTER UPDATE ON seats BEGIN
        UPDATE tallies SET %(take_old)s
            FROM games g WHERE g.game_id = OLD.game_id AND tallies.day = OLD.day AND tallies.place = g.place
                AND tallies.players = g.players AND tallies.player = OLD.player;
        DELETE FROM tallies WHERE day = OLD.day AND player = OLD.player AND games = 0;
        INSERT INTO tallies
            SELECT NEW.day, g.place, g.players, NEW.player, 1, NEW.lost, NEW.halves_lost, NEW.final_lost,
                   NEW.rounds, NEW.deckel, NEW.schock_aus
            FROM games g WHERE g.game_id = NEW.game_id
            ON CONFLICT DO UPDATE SET %(add)s;
    END;
    CREATE TRIGGER tally_game_moved AFTER UPDATE OF place, players ON games BEGIN
        UPDATE tallies SET %(take_seat)s
            FROM seats s WHERE s.game_id = OLD.game_id AND tallies.day = s.day AND tallies.place = OLD.place
                AND tallies.players = OLD.players AND tallies.player = s.player;
        DELETE FROM tallies WHERE place = OLD.place AND players = OLD.players AND games = 0;
        INSERT INTO tallies
            SELECT s.day, NEW.place, NEW.players, s.player, 1, s.lost, s.halves_lost, s.final_lost, s.rounds,
                   s.deckel, s.schock_aus
            FROM seats s WHERE s.game_id = NEW.game_id
            ON CONFLICT DO UPDATE SET %(add)s;
    END;
    CREATE TRIGGER tally_game_out BEFORE DELETE ON games BEGIN
        UPDATE tallies SET %(take_seat)s
            FROM seats s WHERE s.game_id = OLD.game_id AND tallies.day = s.day AND tallies.place = OLD.place
                AND tallies.players = OLD.players AND tallies.player = s.player;
        DELETE FROM tallies WHERE place = OLD.place AND players = OLD.players AND games = 0;
    END;
    """ % _TALLY,
)
VERSION = len(MIGRATIONS)


def _evenings_of_the_games(conn):
    """Migration 2's evenings of the games recorded before it: by their start and their log's folder (what
    an evening's table was until migration 4)."""
    from schocken_host.league.evenings import evening_of
    rows = conn.execute("SELECT game_id, started, log FROM games").fetchall()
    for game_id, started, log in rows:
        day, _ = evening_of(started, None, log)
        place = Path(str(log)).parent.name if log else ""
        conn.execute("UPDATE games SET day = ?, place = ? WHERE game_id = ?", (day, place, game_id))
        conn.execute("INSERT OR IGNORE INTO evenings (day, place) VALUES (?, ?)", (day, place))


def _tables_of_the_games(conn):
    """Migration 4: each game's table is the one its log names (evenings.table_of_log), as `liga rebuild`
    reads it, no longer its log's folder. A game the scorekeeper moved keeps his table, but where he named a
    folder of the logs (the table of before) it is at the table without a name. The evenings go with their
    games: evenings of one day that were one table's logs in several folders are one evening now, its stake
    rule the first one set (in the order of the folders' names), settled (at the latest time) only where
    all of them were, else open. An evening settled so under the default of before (5 or 10 euros a game,
    in a league without a rule of its own) keeps that rule, its money collected so; the default is none."""
    from schocken_host.league.evenings import NO_TABLE, drop_empty_evenings, table_of_log
    games = conn.execute("SELECT game_id, log FROM games").fetchall()
    folders = {Path(str(log)).parent.name for _, log in games if log}

    def table(place):
        return NO_TABLE if place in folders else place

    moved = {}
    for game_id, day, place in conn.execute("SELECT game_id, day, place FROM moved").fetchall():
        moved[game_id] = table(place)
        conn.execute("UPDATE moved SET place = ? WHERE game_id = ?", (moved[game_id], game_id))
    for game_id, log in games:
        place = moved[game_id] if game_id in moved else table_of_log(log) if log else NO_TABLE
        conn.execute("UPDATE games SET place = ? WHERE game_id = ?", (place, game_id))
    merged = {}
    for day, place, stake, settled in conn.execute(
            "SELECT day, place, stake, settled FROM evenings ORDER BY day, place").fetchall():
        one = merged.setdefault((day, table(place)), [None, []])
        one[0] = one[0] if one[0] is not None else stake
        one[1].append(settled)
    conn.execute("DELETE FROM evenings")
    for (day, place), (stake, settled) in merged.items():
        done = max(settled) if None not in settled else None
        conn.execute("INSERT INTO evenings (day, place, stake, settled) VALUES (?, ?, ?, ?)",
                     (day, place, stake, done))
    if conn.execute("SELECT 1 FROM settings WHERE key = 'stake'").fetchone() is None:
        conn.execute("UPDATE evenings SET stake = 'players' WHERE stake IS NULL AND settled IS NOT NULL")
    conn.execute("INSERT OR IGNORE INTO evenings (day, place) SELECT DISTINCT day, place FROM games "
                 "WHERE day IS NOT NULL")
    drop_empty_evenings(conn)


# What a migration fills in that SQL alone cannot: run after the migration of that number, in its transaction.
FILLS = {2: _evenings_of_the_games, 4: _tables_of_the_games}


def default_path():
    """The database in the user's data folder ($SCHOCKEN_DATA_DIR, as cups.json: links/keys.py)."""
    return data_dir() / FILE_NAME


def _reason(e):
    """An sqlite3 error as the refusal a person can act on."""
    name = getattr(e, "sqlite_errorname", "")
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return "league.locked"
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or (
            not name and type(e) is sqlite3.DatabaseError):
        return "league.corrupt"
    return "league.cannot_open"


@contextmanager
def refusing(path):
    """Every sqlite3 error inside as a CommandError naming the database: in use, damaged, not writable."""
    try:
        yield
    except sqlite3.Error as e:
        key = _reason(e)
        raise CommandError(key, path=path, **({} if key == "league.locked" else {"error": str(e)}))


class League:
    """An open database: ``conn`` in autocommit mode; a change is made inside ``write()``, one transaction."""

    def __init__(self, path, conn):
        self.path = Path(path)
        self.conn = conn

    @contextmanager
    def write(self):
        """One transaction that holds the write lock from its start (BEGIN IMMEDIATE): it commits whole or
        not at all, a process killed inside it included (the WAL rolls it back at the next open)."""
        with refusing(self.path):
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                _roll_back(self.conn)
                raise
            self.conn.execute("COMMIT")

    def read(self, sql, args=()):
        with refusing(self.path):
            return self.conn.execute(sql, args).fetchall()

    def close(self):
        self.conn.close()


def _roll_back(conn):
    # SQLite may have rolled back itself (a full disk, an I/O error): a second ROLLBACK would hide why.
    if conn.in_transaction:
        conn.execute("ROLLBACK")


def check_whole(league):
    """Refuses a database whose pages do not hold together (``PRAGMA quick_check``: every page, record and
    index entry read, without comparing an index to its table) as the standings refuse it on the page they
    read: an import would otherwise read only the pages it looks a game up in, find it there and say so,
    while the standings of the same file are refused. One pass over the file's pages, once per import."""
    with refusing(league.path):
        found = [row[0] for row in league.conn.execute("PRAGMA quick_check(1)").fetchall()]
    if found != ["ok"]:
        raise CommandError("league.corrupt", path=league.path, error="; ".join(map(str, found)))


def version_of(conn):
    return conn.execute("PRAGMA user_version").fetchone()[0]


def open_league(path=None, create=True):
    """The league at ``path`` (default: the data folder), migrated to ``VERSION``; None when it does not exist
    and ``create`` is false (nothing to read: no file is made for it). CommandError for a folder, a database
    that is in use, damaged or of a newer schema: each checked before anything is written."""
    path = Path(path) if path is not None else default_path()
    if path.is_dir():
        raise CommandError("league.is_a_folder", path=path)
    if not path.exists():
        if not create:
            return None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise CommandError("league.cannot_open", path=path, error=e.strerror or e)
    with refusing(path):
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        try:
            _prepare(path, conn)
        except BaseException:
            conn.close()
            raise
    return League(path, conn)


def _prepare(path, conn):
    version = version_of(conn)   # reads the header: a file that is no database fails here, untouched
    if version > VERSION:
        raise CommandError("league.newer", path=path, version=version, known=VERSION)
    if version:
        conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()   # the schema's pages can be read
    conn.execute("PRAGMA foreign_keys = ON")
    if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        conn.execute("PRAGMA journal_mode = WAL")
    # In WAL mode, NORMAL loses no committed transaction when the process dies, only on a power cut; the
    # logs are the record and rebuild the rest.
    conn.execute("PRAGMA synchronous = NORMAL")
    if version < VERSION:
        migrate(conn)


def statements(script):
    """The statements of an SQL script, one at a time (a trigger's body holds statements of its own)."""
    found, part = [], ""
    for piece in script.split(";"):
        part += piece + ";"
        if sqlite3.complete_statement(part):
            if part.strip(" \n;"):
                found.append(part)
            part = ""
    return found


def migrate(conn, to=None):
    """Runs the migrations the database has not had, up to ``to`` (all), in one transaction."""
    to = len(MIGRATIONS) if to is None else to
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = version_of(conn)   # another process may have migrated it meanwhile
        for n in range(version, to):
            for statement in statements(MIGRATIONS[n]):
                conn.execute(statement)
            if n + 1 in FILLS:
                FILLS[n + 1](conn)
            conn.execute("PRAGMA user_version = %d" % (n + 1))
    except BaseException:
        _roll_back(conn)
        raise
    conn.execute("COMMIT")


def set_aside(path):
    """Moves a database (and its WAL) to ``<path>.bak``, replacing an earlier one; rebuild's old file."""
    for suffix in ("", "-wal"):
        old = Path(str(path) + suffix)
        if old.exists():
            os.replace(old, Path(str(path) + ".bak" + suffix))
    Path(str(path) + "-shm").unlink(missing_ok=True)
