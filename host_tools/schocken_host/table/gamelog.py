"""The game log: append-only JSON lines, one event per line, written as it happens and fsynced before the host
sends anything to a cup, so a game survives the host crashing at any point. Logs live in the user's data
directory (platformdirs).

Only whole lines go in: each event is one write of one complete line, and a write that fails half-way is cut
off again. A host that died while writing leaves a torn last line; opening the log to append repairs that tail
first (the torn bytes go to a ``.torn`` file beside it, out of the record). One host at a time: a log being
written is locked, and a second host is refused.
"""

import asyncio
import json
import os
import stat
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from schocken_host.errors import CommandError
from schocken_host.i18n import LocalizedError, Message, os_reason
from schocken_host.input_checks import special_file
from schocken_host.table.replay import Replay, event_in
from schocken_host.table.state import LogError, TableState


class LogFileError(LocalizedError):
    """The log cannot be opened or written (in use, unwritable, full disk)."""


def log_dir():
    try:
        import platformdirs
        base = Path(platformdirs.user_data_dir("schocken"))
    except ImportError:
        base = Path.home() / ".local" / "share" / "schocken"
    return Path(os.environ.get("SCHOCKEN_LOG_DIR", base / "games"))


class GameLog:
    def __init__(self, path, repair=True):
        """Opens (creates) and locks the log; with ``repair``, repairs its tail at once (``repair``). A resume
        checks the log first and repairs only a log it takes: a refused file is left as it was."""
        self.path = Path(path)
        self.repaired = None          # what repair() did to the tail, for the one note the host shows
        self.synced = None            # None: all on disk; else the size the file had at its last fsync
        self.sync_due = False         # an fsync is queued for the end of the event loop's turn
        self.flushing = None          # the fsync running on the log's own thread (an asyncio future)
        self.failed = None            # a LogFileError of a late fsync, raised by the next append or sync
        self._fd_lock = threading.Lock()   # an fsync on the log's thread and close() never meet
        self._disk = None             # that thread (a one-worker pool), made at the first late fsync
        self.written = []             # called once the log holds a line (when_written)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        except OSError as e:
            raise LogFileError("gamelog.cannot_open", path=self.path, error=os_reason(e))
        if not stat.S_ISREG(os.fstat(self.fd).st_mode):  # a device, a pipe: no record, no tail to repair
            os.close(self.fd)
            raise LogFileError("gamelog.cannot_open", path=self.path, error=Message("gamelog.not_a_file"))
        try:
            _lock(self.fd)
        except OSError:
            os.close(self.fd)
            raise LogFileError("gamelog.locked", path=self.path)
        if repair:
            self.repaired = self.repair()

    @classmethod
    def new(cls, directory=None):
        directory = Path(directory) if directory else log_dir()
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = directory / ("%s-%d.jsonl" % (stamp, os.getpid()))
        return cls(path)

    def repair(self):
        """Make the file end with a whole line. A last line without its newline that is a whole event gets the
        newline; anything else after the last newline (a torn line) is moved to ``<log>.torn``. Returns a
        description of what was done (a Message), or None."""
        size = os.fstat(self.fd).st_size
        if size == 0 or os.pread(self.fd, 1, size - 1) == b"\n":
            return None
        keep_to = _last_newline(self.fd, size)
        fragment = os.pread(self.fd, size - keep_to, keep_to)
        if event_in(fragment) is not None:
            _write_all(self.fd, b"\n")
            os.fsync(self.fd)
            return Message("gamelog.completed_last_line")
        with open(str(self.path) + ".torn", "ab") as torn:
            torn.write(fragment + b"\n")
        os.ftruncate(self.fd, keep_to)
        os.fsync(self.fd)
        return Message("gamelog.dropped_torn_line", n=len(fragment), torn=self.path.name + ".torn")

    def append(self, event):
        """One event as one whole line, written before this returns (a host killed after it keeps the line);
        raises LogFileError if it cannot be. The fsync follows: at once outside an event loop; inside one it
        starts at the end of the loop's turn, one for every event of a burst (a round's reveals arrive
        together), and runs on the log's own thread, so the views and the cups' lines do not wait for the
        disk; before the host sends anything to a cup, ``on_disk`` waits for it."""
        self._check()
        # A lone surrogate (from a \\u escape in a cup's JSON, or a name that was not UTF-8) cannot be UTF-8:
        # it is written as the JSON escape it came as, which reads back as the same string.
        line = json.dumps(event, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode(
            "utf-8", "backslashreplace")
        if b"\n" in line:  # json.dumps escapes newlines; this would be a bug, and it must not tear the log
            raise LogFileError("gamelog.raw_newline")
        size = os.fstat(self.fd).st_size
        try:
            _write_all(self.fd, line + b"\n")
        except OSError as e:
            self._cut(size)  # nothing half-written stays behind
            raise LogFileError("gamelog.cannot_write", path=self.path, error=os_reason(e))
        if self.synced is None:
            self.synced = size
        if self.written:
            self._tell_written()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return self.sync()
        if not self.sync_due:
            self.sync_due = True
            loop.call_soon(self._sync_later)

    def when_written(self, call):
        """``call()`` once the log holds a line: now, or after the next append. The host names the log only
        then: a start the cups refuse leaves no log, and no line on the terminal that names one."""
        self.written.append(call)
        if os.fstat(self.fd).st_size:
            self._tell_written()

    def _tell_written(self):
        calls, self.written = self.written, []
        for call in calls:
            call()

    def sync(self):
        """Everything appended is on disk when this returns; raises LogFileError if it cannot be (and cuts the
        log back to what was on disk: what the disk may not hold is not the record)."""
        self._check()
        if self.synced is None or self.fd is None:
            return
        try:
            with self._fd_lock:
                os.fsync(self.fd)
        except OSError as e:
            self._failed(e)
        self.synced = None

    async def on_disk(self):
        """Everything appended so far is on disk when this returns (the fsync on the log's thread, the loop
        free meanwhile); raises LogFileError if it cannot be, as ``sync`` does."""
        while True:
            self._check()
            if self.synced is None or self.fd is None:
                return
            await asyncio.wait([self._fsync_soon()])   # its outcome is taken by _fsynced, which runs first

    def _sync_later(self):
        self.sync_due = False
        if self.synced is not None and self.fd is not None and self.failed is None:
            self._fsync_soon()

    def _fsync_soon(self):
        """The fsync on the log's thread: the one running, or a new one of everything written until now."""
        if self.flushing is None:
            if self._disk is None:
                self._disk = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gamelog-fsync")
            end = os.fstat(self.fd).st_size
            self.flushing = asyncio.get_running_loop().run_in_executor(self._disk, self._fsync_fd)
            self.flushing.add_done_callback(lambda done: self._fsynced(done, end))
        return self.flushing

    def _fsync_fd(self):
        with self._fd_lock:
            if self.fd is not None:
                os.fsync(self.fd)

    def _fsynced(self, done, end):
        self.flushing = None
        error = done.exception() if not done.cancelled() else OSError("fsync cancelled")
        if self.fd is None or self.failed is not None or self.synced is None:
            return
        if error is not None:
            try:
                self._failed(error)
            except LogFileError:
                pass  # kept: the next append, sync or on_disk raises it in the referee
        elif os.fstat(self.fd).st_size == end:
            self.synced = None
        else:
            self.synced = end    # written meanwhile: on disk up to end, the rest waits for the next fsync

    def _failed(self, error):
        self._cut(self.synced)
        self.failed = LogFileError("gamelog.cannot_write", path=self.path, error=os_reason(error))
        raise self.failed

    def _check(self):
        if self.failed is not None:
            raise self.failed

    def _cut(self, size):
        try:
            os.ftruncate(self.fd, size)
        except OSError:
            pass

    def close(self):
        if self.fd is not None:
            try:
                if self.failed is None:
                    self.sync()
            finally:
                with self._fd_lock:       # after a late fsync still running on the log's thread
                    os.close(self.fd)     # also releases the lock
                    self.fd = None
                if self._disk is not None:
                    self._disk.shutdown(wait=False)


def _lock(fd):
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks here; one host per log is then the user's care
        return
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _last_newline(fd, end):
    """Offset just after the last newline before ``end`` (0 if there is none)."""
    pos = end
    while pos > 0:
        start = max(0, pos - 65536)
        chunk = os.pread(fd, pos - start, start)
        cut = chunk.rfind(b"\n")
        if cut >= 0:
            return start + cut + 1
        pos = start
    return 0


class Events(list):
    """The events of a log, as (line number, event); ``torn``: the number of a torn last line that is not part
    of them (the host died while writing it, or is writing it now), else None."""
    torn = None


def read(path):
    """Events of a log as (line number, event), its lines taken as every reader takes them (table/replay.py):
    a torn last line (the host died while writing it) is dropped, its number kept in ``torn``; the first line
    that is no event raises LogError (a ValueError) naming the line, in the words of `schocken replay`."""
    if special_file(path):
        raise LogError("gamelog.bad", path=path, error=Message("gamelog.not_a_file"))
    out = Events()
    reader = Replay(apply=lambda ev: out.append((reader.lines, ev)))
    reader.log(Path(path).read_bytes())
    if reader.refused is not None:
        raise LogError("gamelog.bad_line", path=path, line=reader.refused[0], error=reader.refused[1])
    out.torn = reader.torn
    return out


def finished(path):
    """True if the log's last event is game_over (read from the end only)."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - 4096))
            tail = f.read().rstrip(b"\n").rsplit(b"\n", 1)[-1]
    except OSError:
        return False
    return (event_in(tail) or {}).get("ev") == "game_over"


def latest(directory=None, unfinished=False):
    """The newest log in the directory (by modification time); with ``unfinished``, the newest one that has
    a game in it (its first line a start event) and no game_over yet. None if there is none."""
    directory = Path(directory) if directory else log_dir()
    logs = sorted(directory.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True)
    for path in logs:
        if not unfinished:
            return path
        if path.stat().st_size and _starts_a_game(path) and not finished(path):
            return path
    return None


def start_of(path):
    """The start event on the first line of the log at ``path`` (its first line alone is read), or None: no
    regular file (a folder; a pipe, whose open would wait for a writer), unreadable, or a first line that is
    no start event."""
    try:
        if not os.path.isfile(path):
            return None
        with open(path, "rb") as f:
            first = f.readline(1 << 20)
    except OSError:
        return None
    start = event_in(first.rstrip(b"\r\n"))
    return start if start is not None and start.get("ev") == "start" else None


def _starts_a_game(path):
    """True if the file's first line is a start event: a file without one (a stray or broken .jsonl) is no
    game to resume, and an older log that is one must not hide behind it."""
    return start_of(path) is not None


def check_readable(path):
    """A CommandError naming ``path`` when it is no game log that can be read: missing, a folder, not
    readable. The same words for every verb that reads a log (replay, stats, watch, play --resume)."""
    if not os.path.exists(path):
        raise CommandError("gamelog.no_such_log", path=path)
    if os.path.isdir(path):
        raise CommandError("input.is_a_folder", path=path, what=Message("input.file"))
    if special_file(path):  # a named pipe's open would wait for a writer
        raise CommandError("gamelog.bad", path=path, error=Message("gamelog.not_a_file"))
    try:
        with open(path, "rb"):
            pass
    except OSError as e:
        raise CommandError("input.unreadable", path=path, error=os_reason(e))


def read_log(path):
    """read, every way a log cannot be read a CommandError naming the file."""
    try:
        return read(path)
    except OSError as e:
        check_readable(path)
        raise CommandError("input.unreadable", path=path, error=os_reason(e))
    except LogError as e:
        raise CommandError.of(e)


def open_resume(path):
    """The log of a game to continue: (GameLog, TableState, start event). The log is locked, then read (a torn
    last line is not part of the game), then its torn tail repaired; a log that does not replay is refused
    naming the line, and left as it was."""
    try:
        log = GameLog(path, repair=False) if os.path.exists(path) else None
    except LogFileError as e:
        raise CommandError.of(e)
    if log is None:
        raise CommandError("gamelog.no_such_log", path=path)
    try:
        state, seen = TableState(), {}

        def take(ev):
            state.apply(ev)
            if ev["ev"] == "start" and seen.get("start") is None:
                seen["start"] = ev
            seen["last"] = ev
        try:
            done = Replay(state, take).log(Path(path).read_bytes())   # a torn last line is no part of it
        except OSError as e:
            raise CommandError("input.unreadable", path=path, error=os_reason(e))
        if done.refused is not None:
            raise CommandError("gamelog.bad_line", path=path, line=done.refused[0], error=done.refused[1])
        if seen.get("start") is None:
            raise CommandError("gamelog.no_start", path=path)
        if seen["last"]["ev"] == "game_over":
            raise CommandError("gamelog.over", path=path)
        log.repaired = log.repair()  # only now: a log refused above keeps its bytes, a torn tail included
    except BaseException:
        log.close()
        raise
    return log, state, seen["start"]


def flash_folder(log_path):
    return Path(log_path).with_suffix(".cups")

