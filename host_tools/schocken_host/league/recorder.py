"""A game recorded in the league the moment it ends: `schocken play` hands ``Recorder`` to the game session
(table/session.py ``finished``), which calls it once the finished game's log is closed. The recording runs in
a thread of its own, so the referee and the views never wait on the database; whatever goes wrong there (a
database in use, damaged, a full disk) is one line at the end, and the log stays the record: `schocken liga
import` records the game later, once (by its game id)."""

import threading

from schocken_host.errors import CommandError
from schocken_host.i18n import Message, tr

# How long the end of `schocken play` waits for the recording: the database's own wait for another writer
# (db.BUSY_TIMEOUT_S) and the replay of one log fit in it many times over.
WAIT_S = 10.0


class Recorder:
    """``recorder(log_path)`` records the game of that log in the league at ``path`` (None: the data
    folder's) in a thread; ``outcome(timeout)`` is then (Message, whether it is an error)."""

    def __init__(self, path=None):
        self.path = path
        self.log = None
        self.thread = None
        self.result = None

    def __call__(self, log_path):
        self.log = log_path
        self.thread = threading.Thread(target=self._record, name="league", daemon=True)
        self.thread.start()

    def _record(self):
        try:
            # Imported here, in the thread: `schocken play` starts without them, and a Python without sqlite3
            # costs the one line below, not the game.
            from schocken_host.league import db
            from schocken_host.league.logs import Tally, import_log
            league = db.open_league(self.path)
            try:
                tally = Tally()
                import_log(league, self.log, tally)
            finally:
                league.close()
        except CommandError as e:
            self.result = (e.message, True)
            return
        except Exception as e:  # noqa: BLE001 - the game is over and logged: a failure here is a line, no more
            self.result = (Message("league.failed", error="%s: %s" % (type(e).__name__, e)), True)
            return
        if tally.refused:
            self.result = (tally.refused[0], True)
        elif tally.imported or tally.already:
            self.result = (Message("league.recorded_now", path=league.path), False)
        else:
            self.result = (Message("league.not_finished", path=self.log), True)

    def outcome(self, timeout=WAIT_S):
        """(Message, is_error) of the recording, waiting for it ``timeout`` s at most; None when no game was
        handed over. A recording still going on is left to finish or die with the process: a transaction cut
        short is rolled back, and `schocken liga import` adds the game later."""
        if self.thread is None:
            return None
        self.thread.join(timeout)
        if self.thread.is_alive():
            return Message("league.still_busy"), True
        return self.result

    def line(self, lang, timeout=WAIT_S):
        """(the outcome as the one line a person reads, whether it is an error), or None."""
        outcome = self.outcome(timeout)
        if outcome is None:
            return None
        message, error = outcome
        text = " ".join(message.localized(lang).split())
        return (tr(lang, "league.not_recorded", why=text, log=self.log) if error else text), error
