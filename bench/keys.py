"""Key to screen (issue 41): how long a person's key takes to change what he sees, in a real terminal (tmux
at 80x24) running `schocken play --emulate 4 --bots 3`, what `make play` gives (time scale 1, the bots'
default strategy, fair play on).

    .venv/bin/python bench/keys.py [--turns N] [--size 80x24]

At each of his turns (the throw-off's too) the person presses, as a newcomer would: p before his first throw
(refused: throw first), s (shake), p (a peek), 1 (a die aside, or refused), 4 (Sechsen drehen, mostly
refused by the cup), Enter (stand; the throw-off's single throw stands by itself), then s again (refused: he
stands already) and r (refused: the table uncovers every cup at once).

Two times per key, from the moment the key is handed to tmux:
- to the terminal: until the program has written the key's answer (what it does, "schüttelt …", or its
  reason, "✗ …") to the terminal, read from a tmux control-mode client (`tmux -C`, the pane's output as it
  comes): the program's own answer time, to a few ms;
- to a capture: until `tmux capture-pane` (every 2 ms, each capture a process of its own) shows the panel
  changed, as tests/test_evening_screen.py measures it; it adds the captures' own time (~10-25 ms each).
Prints min, median and max per key in ms.
"""

import argparse
import os
import re
import select
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from kits.termkit import Terminal  # noqa: E402

START_S = 120
TURN_S = 300
ANSWER_S = 10
CSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-B]|\x1b[=>]")
OCTAL = re.compile(rb"\\([0-7]{3})")
# What answers each key: its acknowledgement, or the reason of a refusal.
ANSWERS = {"s": r"schüttelt …|✗", "p": r"schaut unter den Becher …|✗", "1": r"Würfel 1 …|Würfel 1 \S+ …|✗",
           "4": r"dreht die Sechsen …|✗", "Enter": r"stehen …|✗", "r": r"✗"}


class Control:
    """A tmux control-mode client on the terminal's session: keys sent through it, the pane's output read
    as it comes."""

    def __init__(self, term):
        self.proc = subprocess.Popen(["tmux", "-L", term.socket, "-C", "attach-session", "-t", "play"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        self.buf = b""
        self.send("refresh-client -C %d,%d" % (term.width, term.height))

    def send(self, command):
        self.proc.stdin.write(command.encode() + b"\n")

    def output_until(self, pattern, timeout):
        """Seconds until the pane's output (escape sequences taken out) matches ``pattern``, or None."""
        start, text = time.perf_counter(), ""
        while time.perf_counter() - start < timeout:
            if not select.select([self.proc.stdout], [], [], 0.05)[0]:
                continue
            self.buf += os.read(self.proc.stdout.fileno(), 65536)
            *lines, self.buf = self.buf.split(b"\n")
            for line in lines:
                if line.startswith(b"%output "):
                    data = OCTAL.sub(lambda m: bytes([int(m.group(1), 8)]), line.split(b" ", 2)[2])
                    text += CSI.sub("", data.decode("utf-8", "replace"))
                    if re.search(pattern, text):
                        return time.perf_counter() - start
        return None

    def drain(self):
        while select.select([self.proc.stdout], [], [], 0)[0]:
            if not os.read(self.proc.stdout.fileno(), 65536):
                break
        self.buf = b""

    def close(self):
        self.proc.kill()
        self.proc.wait(10)


def panel(screen):
    lines = screen.splitlines()
    top = next((n for n, line in enumerate(lines) if "Dein Becher" in line), 0)
    end = next((n for n, line in enumerate(lines) if "Tasten:" in line and n > top), len(lines))
    return lines[top:end]


def to_capture(term, key):
    before = panel(term.screen())
    start = time.perf_counter()
    term.keys(key)
    while time.perf_counter() - start < ANSWER_S:
        if panel(term.screen()) != before:
            return time.perf_counter() - start
        time.sleep(0.002)
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=4, help="turns of the person to measure (default 4)")
    parser.add_argument("--size", default="80x24", help="the terminal (default 80x24)")
    args = parser.parse_args()
    width, height = (int(x) for x in args.size.split("x"))
    steps = [("p (refused)", "p"), ("s", "s"), ("p", "p"), ("1", "1"), ("4", "4"), ("Enter", "Enter"),
             ("s (refused)", "s"), ("r (refused)", "r")]
    times = {name: ([], []) for name, _ in steps}
    with tempfile.TemporaryDirectory() as tmp:
        term = Terminal(tmp, width, height)
        control = None
        try:
            term.start(["play", "--emulate", 4, "--bots", 3], Path(tmp) / "logs")
            term.until(lambda s: "Dein Becher" in s, START_S, "the scoreboard")
            control = Control(term)
            for turn in range(args.turns):
                term.until(lambda s: "Spieler 4 ist am Zug" in s, TURN_S, "his turn")
                for name, key in steps:
                    if name == "Enter" and "steht" in "\n".join(panel(term.screen())):
                        continue   # the throw-off's single throw stood by itself
                    control.drain()
                    control.send("send-keys -t play %s" % key)
                    terminal = control.output_until(ANSWERS[key], ANSWER_S)
                    times[name][0].append(terminal)
                    # let the key's press end before the next one (a stand is a long press)
                    term.until(lambda s: "…" not in "\n".join(panel(s)), 20, "the key carried out")
                    time.sleep(0.3)
                print("turn %d measured" % (turn + 1), file=sys.stderr)
            # The same keys once more, timed by captures (a refusal like the one on screen is not drawn anew).
            term.until(lambda s: "Spieler 4 ist am Zug" in s, TURN_S, "his turn")
            for name, key in steps[:3]:
                times[name][1].append(to_capture(term, key))
                term.until(lambda s: "…" not in "\n".join(panel(s)), 20, "the key carried out")
                time.sleep(0.3)
            term.keys("q")
        finally:
            if control is not None:
                control.close()
            term.close()
    print("load average %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
    print("key           n  to the terminal: min  median   max   | to a capture (n): median")
    for name, (terminal, captured) in times.items():
        got = [t * 1000 for t in terminal if t is not None]
        caps = [t * 1000 for t in captured if t is not None]
        line = "%-12s %2d" % (name, len(terminal))
        line += ("  %19.0f  %6.0f  %5.0f" % (min(got), statistics.median(got), max(got)) if got
                 else "  %27s" % "no answer")
        if len(got) < len(terminal):
            line += " (%d without an answer)" % (len(terminal) - len(got))
        if caps:
            line += "   | %d: %.0f" % (len(caps), statistics.median(caps))
        print(line)


if __name__ == "__main__":
    main()
