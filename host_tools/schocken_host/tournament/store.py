"""The director's record of a tournament, `turnier.sqlite3` in the tournament's folder (WAL): the players,
the format and the seed, every round's draw, the tables' enrolment keys, and every game a table sent with
its verdict. The counted games themselves are recorded in the league's database beside it
(`league.sqlite3`, league/games.py, by game id) and their logs are kept under `logs/` (docs/turnier.md)."""

import json
import secrets
import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path

from schocken_host.errors import CommandError
from schocken_host.tournament.formats import Final, Format

FILE = "turnier.sqlite3"
LEAGUE = "league.sqlite3"
LOGS = "logs"
COUNTED = ("counted", "admitted")       # a game that passed the check, or one the director let count
BUSY_TIMEOUT_S = 5.0

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL, team TEXT);
CREATE TABLE IF NOT EXISTS keys (table_no INTEGER PRIMARY KEY, key TEXT UNIQUE NOT NULL);
CREATE TABLE IF NOT EXISTS rounds (round INTEGER PRIMARY KEY, kind TEXT NOT NULL, drawn REAL NOT NULL);
CREATE TABLE IF NOT EXISTS draws (round INTEGER NOT NULL, table_no INTEGER NOT NULL, seat INTEGER NOT NULL,
    player INTEGER NOT NULL REFERENCES players(id), PRIMARY KEY (round, table_no, seat));
CREATE TABLE IF NOT EXISTS games (game_id TEXT PRIMARY KEY, round INTEGER NOT NULL, table_no INTEGER NOT NULL,
    received REAL NOT NULL, status TEXT NOT NULL, reason TEXT, log TEXT NOT NULL, sha256 TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS games_at ON games(round, table_no);
CREATE TABLE IF NOT EXISTS results (game_id TEXT NOT NULL REFERENCES games(game_id), player INTEGER NOT NULL,
    halves_lost INTEGER NOT NULL, final_lost INTEGER NOT NULL, lost INTEGER NOT NULL, deckel INTEGER NOT NULL,
    PRIMARY KEY (game_id, player));
"""


def _format_of(data):
    final = data.get("final")
    return Format(data["name"], data["rounds"], data["games"], data["size"], data["min_size"],
                  data["max_size"], data["fill"], data["half_points"], data["game_points"],
                  tuple(data["tie_breaks"]), Final(**final) if final else None, tuple(data["prizes"]),
                  data["entry_fee"], rules=data.get("rules") or {"preset": "standard", "options": {}})


class Store:
    """One tournament's folder: ``Store.create`` makes it, ``Store(folder)`` opens it."""

    def __init__(self, folder):
        self.folder = Path(folder)
        path = self.folder / FILE
        if not path.is_file():
            raise CommandError("turnier.no_tournament", path=self.folder)
        self.conn = self._connect(path)
        self.format = _format_of(json.loads(self.meta("format")))
        self.seed = self.meta("seed")
        self.name = self.meta("name")

    @staticmethod
    def _connect(path):
        try:
            conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_S, isolation_level=None,
                                   check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.executescript(SCHEMA)
        except sqlite3.Error as e:
            raise CommandError("turnier.db_failed", path=path, error=e)
        return conn

    @classmethod
    def create(cls, folder, name, fmt, seed=None, players=()):
        """A new tournament in ``folder`` (made; refused where one is already): CommandError in one line."""
        folder = Path(folder)
        if (folder / FILE).exists():
            raise CommandError("turnier.exists", path=folder)
        try:
            (folder / LOGS).mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise CommandError("turnier.cannot_make", path=folder, error=e.strerror or e)
        conn = cls._connect(folder / FILE)
        seed = seed if seed is not None else secrets.token_hex(8)
        with _tx(conn):
            for key, value in (("name", name), ("format", json.dumps(fmt.as_dict())), ("seed", seed),
                               ("created", repr(time.time())), ("director", secrets.token_urlsafe(16))):
                conn.execute("INSERT INTO meta VALUES (?, ?)", (key, value))
            for player, team in players:
                conn.execute("INSERT INTO players (name, team) VALUES (?, ?)", (player, team or None))
        conn.close()
        return cls(folder)

    def close(self):
        self.conn.close()

    def meta(self, key):
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    @contextmanager
    def write(self):
        with _tx(self.conn) as conn:
            yield conn

    # --- players ------------------------------------------------------------------------------------
    def players(self):
        """[(name, team)] in the order they were registered."""
        return [(n, t) for n, t in self.conn.execute("SELECT name, team FROM players ORDER BY id")]

    def add_players(self, players):
        """Registers (name, team) pairs; a name there already is refused (nothing written)."""
        if self.rounds():
            raise CommandError("turnier.already_drawn")
        with self.write() as conn:
            for name, team in players:
                if conn.execute("SELECT 1 FROM players WHERE name = ?", (name,)).fetchone():
                    raise CommandError("turnier.player_twice", name=name)
                conn.execute("INSERT INTO players (name, team) VALUES (?, ?)", (name, team or None))

    def _ids(self):
        return dict(self.conn.execute("SELECT name, id FROM players"))

    # --- rounds and draws ---------------------------------------------------------------------------
    def rounds(self):
        """[(round, kind)], the rounds drawn so far ("round" or "final")."""
        return list(self.conn.execute("SELECT round, kind FROM rounds ORDER BY round"))

    def current(self):
        rounds = self.rounds()
        return rounds[-1] if rounds else (0, None)

    def drawn_at(self, round_no):
        """When the round was drawn (time.time()), or None."""
        row = self.conn.execute("SELECT drawn FROM rounds WHERE round = ?", (round_no,)).fetchone()
        return row[0] if row else None

    def tables_of(self, round_no):
        """{table number: [names in seating order]} of a round."""
        tables = {}
        for table_no, name in self.conn.execute(
                "SELECT d.table_no, p.name FROM draws d JOIN players p ON p.id = d.player WHERE d.round = ? "
                "ORDER BY d.table_no, d.seat", (round_no,)):
            tables.setdefault(table_no, []).append(name)
        return tables

    def save_draw(self, round_no, kind, tables):
        """Round ``round_no``'s draw (tables: lists of names), and a key for every table number that has
        none yet."""
        ids = self._ids()
        with self.write() as conn:
            conn.execute("INSERT INTO rounds VALUES (?, ?, ?)", (round_no, kind, time.time()))
            for t, names in enumerate(tables, start=1):
                for seat, name in enumerate(names):
                    conn.execute("INSERT INTO draws VALUES (?, ?, ?, ?)", (round_no, t, seat, ids[name]))
                if not conn.execute("SELECT 1 FROM keys WHERE table_no = ?", (t,)).fetchone():
                    conn.execute("INSERT INTO keys VALUES (?, ?)", (t, secrets.token_urlsafe(12)))

    def keys(self):
        """{table number: its enrolment key}."""
        return dict(self.conn.execute("SELECT table_no, key FROM keys"))

    def table_of_key(self, key):
        row = self.conn.execute("SELECT table_no FROM keys WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    # --- games --------------------------------------------------------------------------------------
    def game(self, game_id):
        """(round, table, status, reason, log, sha256) of a game sent, or None."""
        return self.conn.execute("SELECT round, table_no, status, reason, log, sha256 FROM games "
                                 "WHERE game_id = ?", (game_id,)).fetchone()

    def games_at(self, round_no, table_no):
        return self.conn.execute("SELECT count(*) FROM games WHERE round = ? AND table_no = ? AND status IN "
                                 "(?, ?)", (round_no, table_no) + COUNTED).fetchone()[0]

    def add_game(self, game_id, round_no, table_no, status, reason, log, sha, seats):
        """A game as sent, with its verdict, and its seats' results [(name, halves, final, lost, deckel)]
        where it counts; once per game id (False: it was there)."""
        ids = self._ids()
        with self.write() as conn:
            if conn.execute("SELECT 1 FROM games WHERE game_id = ?", (game_id,)).fetchone():
                return False
            conn.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                         (game_id, round_no, table_no, time.time(), status, reason, str(log), sha))
            for name, halves, final, lost, deckel in seats or ():
                conn.execute("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?)",
                             (game_id, ids[name], halves, final, lost, deckel))
        return True

    def decide(self, game_id, status, seats=None):
        """The director's word on a held game: "admitted" (with its seats' results) or "rejected"."""
        ids = self._ids()
        with self.write() as conn:
            conn.execute("UPDATE games SET status = ? WHERE game_id = ?", (status, game_id))
            for name, halves, final, lost, deckel in seats or ():
                conn.execute("INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?)",
                             (game_id, ids[name], halves, final, lost, deckel))

    def held(self):
        """[(game_id, round, table, reason)] of the games waiting for the director's word."""
        return list(self.conn.execute("SELECT game_id, round, table_no, reason FROM games WHERE status = "
                                      "'held' ORDER BY received"))

    def all_games(self):
        return list(self.conn.execute("SELECT game_id, round, table_no, status, reason, log FROM games "
                                      "ORDER BY received"))

    def counted(self, kind="round"):
        """The counted games of the rounds of ``kind``: [(game_id, round, table, [(name, halves, final, lost,
        deckel)])], in the order they arrived."""
        games = {}
        for gid, rnd, tno, name, h, f, lost, d in self.conn.execute(
                "SELECT g.game_id, g.round, g.table_no, p.name, r.halves_lost, r.final_lost, r.lost, "
                "r.deckel FROM games g JOIN rounds k ON k.round = g.round JOIN results r ON r.game_id = "
                "g.game_id JOIN players p ON p.id = r.player WHERE g.status IN (?, ?) AND k.kind = ? "
                "ORDER BY g.received, g.game_id, p.id", COUNTED + (kind,)):
            games.setdefault(gid, (gid, rnd, tno, []))[3].append((name, h, f, lost, d))
        return list(games.values())


@contextmanager
def _tx(conn):
    try:
        conn.execute("BEGIN IMMEDIATE")
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
