"""A real terminal for the scoreboard: a tmux server of its own (its own socket: nobody else's sessions are
touched) with one window of a given size, the command started in it once the window has that size, its screen
captured as text, keys sent to it. Used by tests/test_person.py and tests/test_screens.py."""

import itertools
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCHOCKEN = [sys.executable, "-m", "schocken_host.cli"]
_TERMINALS = itertools.count(1)


def python_path():
    """This checkout's host tools and rules package first (another checkout may be installed in the venv)."""
    return os.pathsep.join([str(ROOT / "host_tools"), str(ROOT / "firmware" / "lib")]
                           + ([os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else []))


class Terminal:
    """One tmux window of ``width`` x ``height`` running `schocken ARGV`; every wait is bounded."""

    def __init__(self, tmp_path, width=160, height=50):
        # A socket of its own for every terminal: the last test's server, killed on the same socket, may still
        # be going away when the next one starts ("server exited unexpectedly").
        self.socket = "schocken-test-%d-%d" % (os.getpid(), next(_TERMINALS))
        self.status = Path(tmp_path) / ("status-%dx%d" % (width, height))
        self.width, self.height = width, height

    def tmux(self, *argv):
        return subprocess.run(["tmux", "-L", self.socket] + list(argv), capture_output=True, text=True,
                              timeout=20)

    def start(self, argv, log_dir):
        # The tmux server has its own environment: the command says what it needs (no COLUMNS/LINES either:
        # the terminal's size is the window's).
        words = (["env", "-u", "COLUMNS", "-u", "LINES", "PYTHONPATH=" + python_path(),
                  "SCHOCKEN_LOG_DIR=" + str(log_dir), "TERM=xterm-256color"]
                 + SCHOCKEN + [str(a) for a in argv])
        cmd = "cd %s && %s; echo $? > %s; sleep 120" % (
            shlex.quote(str(ROOT)), " ".join(shlex.quote(w) for w in words), shlex.quote(str(self.status)))
        # The window first, the command once it has its size: a program started with the window gets the
        # default 80x24 terminal and its resize signal may come before it listens for one.
        proc = self.tmux("new-session", "-d", "-s", "play", "-x", str(self.width), "-y", str(self.height),
                         "sleep 900")
        assert proc.returncode == 0, proc.stderr
        self.until_size(self.width, self.height)
        proc = self.tmux("respawn-pane", "-k", "-t", "play", cmd)
        assert proc.returncode == 0, proc.stderr

    def until_size(self, width, height, timeout=10):
        end = time.monotonic() + timeout
        while self.tmux("display", "-p", "-t", "play", "#{pane_width}x#{pane_height}").stdout.strip() != (
                "%dx%d" % (width, height)):
            if time.monotonic() > end:
                raise AssertionError("the tmux pane never got %dx%d" % (width, height))
            time.sleep(0.1)

    def screen(self):
        """The screen as text, one line per row (no joining of wrapped lines: what the eye sees)."""
        return self.tmux("capture-pane", "-p", "-t", "play").stdout

    def until(self, check, timeout, what):
        """The first screen for which ``check`` holds (one capture: a second one could catch a redraw)."""
        end = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if check(screen):
                return screen
            if time.monotonic() > end:
                raise AssertionError("waited %.0f s in vain for %s:\n%s" % (timeout, what, screen))
            time.sleep(0.2)

    def keys(self, *keys):
        self.tmux("send-keys", "-t", "play", *keys)

    def exit_status(self, timeout):
        end = time.monotonic() + timeout
        while not (self.status.exists() and self.status.read_text().strip()):
            if time.monotonic() > end:
                raise AssertionError("the command did not end within %d s:\n%s" % (timeout, self.screen()))
            time.sleep(0.2)
        return int(self.status.read_text())

    def close(self):
        self.tmux("kill-server")
