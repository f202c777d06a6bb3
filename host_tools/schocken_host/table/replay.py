"""A game log replayed into a TableState: the one way every reader of a log takes its lines (`schocken
replay`, `stats`, `watch` and the web page, the browser's check of a game). Standard library only and no
files: it runs in the browser too (docs/web-check.md); the caller reads the log.

Two rules hold for every reader. A last line that is no whole event (the host died while writing it;
gamelog.py repairs such a tail when it opens the log again) is no part of the game: it is dropped and its
number kept in ``torn``. The first line that is no event, or whose event the state refuses, ends the replay:
its number and the error are kept in ``refused``, the events before it stand and none after it is applied.
"""

import json

from schocken_host.table.state import LogError, TableState

try:
    _NESTED: type[Exception] = RecursionError
except NameError:  # MicroPython: a line nested too deeply runs out of stack
    _NESTED = RuntimeError


def log_lines(data):
    """The lines of a whole log (bytes or text) as (line, last, offset): ``last`` for the last line with
    anything on it, ``offset`` where the line starts."""
    lines = data.split(b"\n" if isinstance(data, bytes) else "\n")
    end = len(lines)
    while end and not lines[end - 1].strip():
        end -= 1
    offset = 0
    for n in range(end):
        yield lines[n], n == end - 1, offset
        offset += len(lines[n]) + 1


def _loads(raw, offset):
    """(the JSON value of a line, None), or (None, LogError) for a line that is not UTF-8 or not JSON."""
    try:
        return json.loads(raw.decode("utf-8") if isinstance(raw, bytes) else raw), None
    except (ValueError, _NESTED) as e:  # UnicodeError is a ValueError
        start = getattr(e, "start", None) if isinstance(e, UnicodeError) else None
        return None, (LogError("log.not_json") if start is None
                      else LogError("log.not_utf8", offset=offset + start))


def _is_event(value):
    return isinstance(value, dict) and "ev" in value


def event_in(raw):
    """The event one line holds (bytes or text), else None: blank, cut short, not JSON, not an event. For a
    look at a single line (gamelog.py: a log's tail, its first line); a log is read with ``Replay``."""
    if not raw.strip():
        return None
    value, error = _loads(raw, 0)
    return value if error is None and _is_event(value) else None


class Replay:
    """A log replayed a line (``line``, ``log``) or an event (``event``, as a live game's come) at a time.
    ``apply(event)`` puts an event on ``state`` (``state.apply`` unless the reader does more around it: the
    web page's model, the browser's checks) and refuses it by raising one of ``refusals``."""

    def __init__(self, state=None, apply=None, refusals=(LogError,)):
        self.state = TableState() if state is None else state
        self.apply = self.state.apply if apply is None else apply
        self.refusals = refusals
        self.lines = 0          # lines read, blank ones too: a line's number is its number in the file
        self.torn = None        # the number of a last line that is no whole event
        self.refused = None     # (line number, error) of the first line refused

    def event(self, ev):
        """The log's next line, an event: True if the state took it, False once the log is refused (at this
        line or before; nothing is applied after the first refusal)."""
        self.lines += 1
        if self.refused is None:
            try:
                self.apply(ev)
            except self.refusals as e:
                self.refused = (self.lines, e)
        return self.refused is None

    def event_of(self, raw, last=False, offset=0):
        """The event a line holds (bytes or text without its newline), to hand to ``event``; None for a blank
        line, a torn one (``last``: no line with anything on it follows) or one that is no event (refused).
        ``offset``: where the line starts in the file, named when it is not UTF-8."""
        error = None
        if raw.strip():
            value, error = _loads(raw, offset)
            if error is not None and last:  # only the last line may be cut short (even inside a character)
                self.lines += 1
                self.torn = self.lines
                return None
            if error is None:
                if _is_event(value):
                    return value
                error = LogError("log.not_an_event")
        self.lines += 1
        if error is not None and self.refused is None:
            self.refused = (self.lines, error)
        return None

    def line(self, raw, last=False, offset=0):
        """The log's next line (``event_of``, then ``event``); False once the log is refused or torn."""
        ev = self.event_of(raw, last, offset)
        if ev is None:
            return self.refused is None and self.torn is None
        return self.event(ev)

    def log(self, data):
        """A whole log (its bytes or text), line by line; returns this Replay."""
        for raw, last, offset in log_lines(data):
            if not self.line(raw, last, offset):
                break
        return self


def replay(data, state=None, apply=None, refusals=(LogError,)):
    """A whole log (its bytes or text) replayed: the Replay, with its ``state``, ``torn`` and ``refused``."""
    return Replay(state, apply, refusals).log(data)
