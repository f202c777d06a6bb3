"""Game logs into the league: ``import_logs`` (every finished game once, a broken log named and passed over)
and ``rebuild`` (the database made anew from the logs, its names kept)."""

import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from schocken_host.errors import CommandError
from schocken_host.i18n import LocalizedError, Message, os_reason
from schocken_host.league import db
from schocken_host.league.evenings import drop_empty_evenings
from schocken_host.league.games import read_game, record
from schocken_host.table.gamelog import check_readable, start_of


def game_logs(folders):
    """Every ``*.jsonl`` under the folders (a file named itself counts as well), in order of path: logs are
    named by their start time, so games are recorded in the order they were played."""
    found = []
    for folder in folders:
        folder = Path(folder)
        found.extend([folder] if folder.is_file() else sorted(folder.rglob("*.jsonl")))
    return found


@dataclass
class Tally:
    imported: int = 0
    already: int = 0
    skipped: int = 0                              # unfinished games, empty logs
    torn: int = 0                                 # of the logs read, those whose last line is torn
    refused: list = field(default_factory=list)   # a Message per log that is no game, naming file and line
    notes: list = field(default_factory=list)     # a Message per torn log, naming file and line


def read_log(path):
    """A log read and replayed through the rules, nothing written: ("game", Game, torn) of a finished game,
    ("skipped", its game id or None, torn) of an unfinished one, ("refused", Message naming the file and line,
    None) of a log that is no game; ``torn`` a Message naming the file and its torn last line (a host that
    died while writing it), else None. Every value can be pickled: a process of a pool reads the logs of a
    large import."""
    try:
        check_readable(path)
        data = Path(path).read_bytes()
    except CommandError as e:
        return "refused", Message("league.unreadable", error=e.message), None
    except OSError as e:
        return "refused", Message("league.unreadable", error=Message("input.unreadable", path=path,
                                                                    error=os_reason(e))), None
    reading = read_game(data)
    if reading.refused is not None:
        line, error = reading.refused
        return "refused", Message("league.refused", path=path, line=line,
                                  error=error.message if isinstance(error, LocalizedError) else error), None
    torn = None if reading.torn is None else Message(
        "league.torn" if reading.game is not None and reading.game.over else "league.torn_skipped",
        path=path, line=reading.torn)
    if reading.game is None or not reading.game.over:
        return "skipped", reading.game.game_id if reading.game is not None else None, torn
    return "game", reading.game, torn


def _count(league, path, outcome, tally):
    """What ``read_log`` found in ``path``, recorded and counted in ``tally``."""
    kind, found, torn = outcome
    if torn is not None:
        tally.torn += 1
        tally.notes.append(torn)
    if kind == "refused":
        tally.refused.append(found)
        return
    if kind == "skipped":   # a copy of a game recorded before it in the same import, cut short, is there
        if found is not None and league.read("SELECT 1 FROM games WHERE game_id = ?", (found,)):
            tally.already += 1
        else:
            tally.skipped += 1
        return
    try:
        fresh = record(league, found, path)
    except CommandError as e:
        if e.message.key != "league.two_seats":
            raise   # the database's own trouble ends the import: the games before it are in
        tally.refused.append(Message("league.unreadable", error=e.message))
        return
    if fresh:
        tally.imported += 1
    else:
        tally.already += 1


def import_log(league, path, tally):
    """One log into the league, counted in ``tally``."""
    if _recorded(league, path):   # a weekly import of the whole folder replays only the new games
        tally.already += 1
        return
    _count(league, path, read_log(path), tally)


def _recorded(league, path):
    """Whether the game a log starts is in the league already (its first line alone is read; a log that
    cannot be read is not, and read_log says why)."""
    start = start_of(path)
    if start is None or not isinstance(start.get("game_id"), str):
        return False
    return bool(league.read("SELECT 1 FROM games WHERE game_id = ?", (start["game_id"],)))


# From this many logs to replay on, an import replays them in a pool of processes, one per core (the replay
# through the rules is nearly all of an import's time); SQLite writes in this process, in the logs' order.
POOL_FROM = 64
POOL_CHUNK = 16


def import_logs(league, paths, refused=None, noted=None):
    """Every log of ``paths`` into the league, one transaction per game; ``refused(message)`` is called for
    each log that is no game as it is found, in the order of ``paths``, ``noted(message)`` for each log torn
    at its end. Returns the Tally."""
    tally = Tally()
    todo = []
    for path in paths:
        if _recorded(league, path):
            tally.already += 1
        else:
            todo.append(path)
    with _readers(len(todo)) as pool:
        outcomes = pool.map(read_log, todo, chunksize=POOL_CHUNK) if pool else map(read_log, todo)
        for path, outcome in zip(todo, outcomes):
            before, notes = len(tally.refused), len(tally.notes)
            _count(league, path, outcome, tally)
            if noted is not None and len(tally.notes) > notes:
                noted(tally.notes[-1])
            if refused is not None and len(tally.refused) > before:
                refused(tally.refused[-1])
    return tally


def _reader_starts(parent):
    """In each process of the pool: Ctrl-C is the importing process's to answer (it ends the pool), and a
    process whose importer died (killed: nobody ends the pool then) ends itself within a second."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch():
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)
    threading.Thread(target=watch, name="importer-watch", daemon=True).start()


def cores():
    """The processes of a pool: one per core this process may run on, 8 at most."""
    found = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return min(found, 8)


@contextmanager
def _readers(logs):
    """A pool of processes to read ``logs`` logs, or None where one process does as well (few logs, one
    core). Its processes are forked: they start at once with everything imported."""
    if logs < POOL_FROM or cores() < 2 or "fork" not in multiprocessing.get_all_start_methods():
        yield None
        return
    pool = ProcessPoolExecutor(cores(), mp_context=multiprocessing.get_context("fork"),
                               initializer=_reader_starts, initargs=(os.getpid(),))
    try:
        yield pool
    finally:
        pool.shutdown(cancel_futures=True)


# What a scorekeeper told the league, carried over by a rebuild: people and their names, the games he moved to
# another evening, seasons, the stake rules and which evenings are settled.
CARRIED = (("players", "id, name, cup"), ("names", "name, player"), ("moved", "game_id, day, place"),
           ("seasons", "name, first, last"), ("settings", "key, value"),
           ("evenings", "day, place, stake, settled"))


def _names_of(path):
    """The rows of ``CARRIED`` in the database at ``path``, or None when it cannot be read."""
    try:
        old = db.open_league(path, create=False)
    except CommandError as e:
        if e.message.key in ("league.locked", "league.newer", "league.is_a_folder"):
            raise   # a newer program's data, or another's transaction: not this rebuild's to replace
        return None
    if old is None:
        return {}
    try:
        return {table: old.read("SELECT %s FROM %s ORDER BY 1" % (columns, table))
                for table, columns in CARRIED}
    except CommandError:
        return None
    finally:
        old.close()


def rebuild(path, paths, refused=None, noted=None):
    """The database at ``path`` made anew from the logs ``paths``: built beside it, the people and their names
    (renames, merges) carried over from the old one where it can be read, then put in its place; the old
    file is kept as ``<path>.bak``. Returns (Tally, whether the old names were carried over)."""
    path = Path(path)
    carried = _names_of(path)
    fresh = Path(str(path) + ".new")
    for suffix in ("", "-wal", "-shm"):
        Path(str(fresh) + suffix).unlink(missing_ok=True)   # a rebuild that died before
    league = db.open_league(fresh)
    try:
        if carried:
            with league.write() as conn:
                for table, columns in CARRIED:
                    conn.executemany("INSERT INTO %s (%s) VALUES (%s)" % (
                        table, columns, ", ".join("?" * len(columns.split(",")))), carried[table])
        tally = import_logs(league, paths, refused, noted)
        with league.write() as conn:
            drop_empty_evenings(conn)   # an evening whose logs are gone
    finally:
        league.close()   # the last connection: the WAL is checkpointed into the file and removed
    db.set_aside(path)
    os.replace(fresh, path)
    return tally, carried is not None
