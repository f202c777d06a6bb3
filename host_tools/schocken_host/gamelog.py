"""The game log: append-only JSON lines, one event per line, flushed and fsynced as it happens, so a game
survives the host crashing at any point. Logs live in the user's data directory (platformdirs)."""

import json
import os
import time
from pathlib import Path


def log_dir():
    try:
        import platformdirs
        base = Path(platformdirs.user_data_dir("schocken"))
    except ImportError:
        base = Path.home() / ".local" / "share" / "schocken"
    return Path(os.environ.get("SCHOCKEN_LOG_DIR", base / "games"))


class GameLog:
    def __init__(self, path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.file = open(self.path, "a", encoding="utf-8")

    @classmethod
    def new(cls, directory=None):
        directory = Path(directory) if directory else log_dir()
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = directory / ("%s-%d.jsonl" % (stamp, os.getpid()))
        return cls(path)

    def append(self, event):
        self.file.write(json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n")
        self.file.flush()
        os.fsync(self.file.fileno())

    def close(self):
        self.file.close()


def read(path):
    """Events of a log as (line number, event). A torn last line (the host died while writing it) is
    dropped; anything else that is not an event raises ValueError naming the line."""
    lines = Path(path).read_text(encoding="utf-8").split("\n")
    out = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            ev = json.loads(line)
        except ValueError:
            if n >= len(lines) - 1:  # only the very last line may be cut short
                break
            raise ValueError("line %d is not JSON" % n)
        if not isinstance(ev, dict) or "ev" not in ev:
            raise ValueError("line %d is not an event" % n)
        out.append((n, ev))
    return out


def latest(directory=None):
    directory = Path(directory) if directory else log_dir()
    logs = sorted(directory.glob("*.jsonl"), key=lambda p: p.stat().st_mtime)
    return logs[-1] if logs else None
