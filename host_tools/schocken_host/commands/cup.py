"""`schocken cup --emulate`: one emulated cup, played from the keyboard.

The cup is the unchanged firmware in an EmulatedCup process (emulation/emulator.py). Its host
link is a pseudo-terminal whose path is printed as ``Link: /dev/pts/N``: a host (pyserial, a referee) can open
it at any time; until one configures the cup, it plays alone. The keyboard is the physical world: shake,
die buttons, main button. The dice are redrawn from the cup's LED frames (views/render.py).

On a terminal, keys are read raw (termios) and the screen is redrawn; the terminal is restored on exit (the
keys, the text and this terminal mode are in views/keyboard.py). When standard input is
not a terminal, it is read as lines, one key name each ("s", "1", "enter", "x", ...), each line is carried out
to the end before the next, and every change of the LEDs is printed as text. A line "dice D [D [D]]" queues
the dice of the next throw (tests); "#" starts a comment.
"""

import collections
import fcntl
import json
import os
import secrets
import select
import struct
import sys
import termios
import threading
import time

from schocken.rules import PRESETS

from schocken_host.emulation.emulator import SHAKE_MS
from schocken_host.emulation.hands import Hands, button
from schocken_host.i18n import Message, json_error, tr
from schocken_host.links import ledframe
from schocken_host.views import render
from schocken_host.input_checks import read_text
from schocken_host.views.keyboard import _run_tty
from schocken_host.views.keymap import action_for
from schocken_host.errors import CommandError

QUIET_S = 0.3            # scripted lines: the cup is settled after this long without a new LED frame
LINK_DRAIN_BYTES = 8192  # unread link output beyond this, nobody is reading: drop it (see _LinkGuard)


class _LinkGuard:
    """Keeps the cup's link from filling up while no host reads it.

    The cup writes its messages to the link whether or not a host listens; a pseudo-terminal holds ~17 KB,
    then the cup's output task stalls and its queue grows in the cup's small heap. Our own descriptor on the
    link path sees how much is unread (FIONREAD): a host that is connected reads it at once, so a backlog
    beyond LINK_DRAIN_BYTES means nobody is there, and it is dropped."""

    def __init__(self, port, limit=LINK_DRAIN_BYTES):
        self.limit = limit
        self.fd = os.open(port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        self.dropped = 0

    def pending(self):
        buf = fcntl.ioctl(self.fd, termios.FIONREAD, struct.pack("i", 0))
        return struct.unpack("i", buf)[0]

    def check(self):
        try:
            if self.pending() < self.limit:
                return
            while True:
                data = os.read(self.fd, 65536)
                self.dropped += len(data)
                if len(data) < 65536:
                    return
        except (BlockingIOError, OSError):
            return

    def close(self):
        try:
            os.close(self.fd)
        except OSError:
            pass


class CupSession:
    """An EmulatedCup with the keyboard's actions and a record of its LED frames."""

    def __init__(self, lang="de", sensor=None, board=None, name="", long_ms=None, on_change=None):
        from schocken_host.emulation.emulator import EmulatedCup

        self.lang = lang
        self.on_change = on_change           # called (from the reader thread) with a new frame
        self.messages = collections.deque(maxlen=6)
        self.frame = None
        self.frame_count = 0
        self.frame_at = 0.0                  # time.monotonic() of the newest frame
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)
        self._errors_seen = 0
        # An id of its own: two terminal cups can sit at one table, and "emu<N>" names the cups a `schocken
        # play` host runs itself (a resumed game starts those again instead of opening their ports).
        self.cup_id = "term-" + secrets.token_hex(3)
        self.cup = EmulatedCup(cup_id=self.cup_id, name=name, sensor=sensor, board=board, long_ms=long_ms,
                               on_frame=self._on_frame)
        self.hands = Hands(self.cup)
        self.port = self.cup.port
        self.guard = None
        try:
            self.guard = _LinkGuard(self.port)
            self._await_ready()
        except BaseException:
            self.close()
            raise

    def _await_ready(self, timeout=10.0):
        """Wait until the cup's tasks run: the first LED frame comes before them, and buttons pressed before
        the button task polls are lost. Nobody can be on the link yet (its path is not printed), so a hello
        on it is safe; the identity reply is dropped."""
        from schocken import protocol

        fd = self.guard.fd
        os.write(fd, protocol.encode({"t": "hello", "v": protocol.VERSION}))
        buf = b""
        end = time.monotonic() + timeout
        while time.monotonic() < end and self.cup.alive():
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                try:
                    buf += os.read(fd, 4096)
                except (BlockingIOError, OSError):
                    continue
                if b'"identity"' in buf and buf.endswith(b"\n"):
                    return
        raise RuntimeError("no answer on the link within %.0f s" % timeout)

    def _on_frame(self, cup, frame):
        with self.lock:
            self.frame = frame
            self.frame_count += 1
            self.frame_at = time.monotonic()
            self.changed.notify_all()
        if self.on_change:
            self.on_change(frame)

    def note(self, text):
        self.messages.append(text)

    def poll_errors(self):
        """Control-channel errors from the cup, as message lines."""
        errs = self.cup.control_errors
        while self._errors_seen < len(errs):
            self.note(tr(self.lang, "cup.cup_error", msg=errs[self._errors_seen]))
            self._errors_seen += 1

    def wait_frame(self, after, timeout):
        """Wait until more than ``after`` frames have come, at most ``timeout`` s."""
        end = time.monotonic() + timeout
        with self.lock:
            while self.frame_count <= after:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self.changed.wait(left)
        return True

    def wait_quiet(self, quiet=QUIET_S, timeout=3.0):
        """Wait until no frame has come for ``quiet`` s (a refusal's flash is over), at most ``timeout`` s."""
        start = time.monotonic()
        end = start + timeout
        while True:
            now = time.monotonic()
            left = max(self.frame_at, start) + quiet - now
            if left <= 0 or now >= end:
                return
            time.sleep(min(left, end - now))

    def do(self, action, settle=False):
        """Carry out one action (blocking for its presses, held as long as the hands say for this cup's
        long press, like `schocken play`). With ``settle``, also wait until the cup has shown what it did (the
        next LED frame), so scripted lines follow one another like a person's hands."""
        kind = action[0]
        before = self.frame_count
        if kind == "shake":
            self.hands.act(action)
            self.note(tr(self.lang, "cup.shake"))
            if settle:  # the throw lands (or is refused) once the shake is over and the cup is still
                self.wait_frame(before, self.hands.wall_s(SHAKE_MS) + 3.0)
        elif kind in ("tap", "long", "peek", "stand", "reveal"):
            self.hands.act(action)
            self.note(tr(self.lang, "cup." + kind, n=button(action) + 1))
            if settle:  # what the press did shows in a frame: a busy machine may draw it after the release
                self.wait_frame(before, 3.0)
        if settle:
            self.wait_quiet()
        self.guard.check()
        self.poll_errors()

    def alive(self):
        return self.cup.alive()

    def close(self):
        if self.guard is not None:
            self.guard.close()
        self.cup.close()


# --- line mode (standard input is not a terminal) ---------------------------------------------------------
def _run_lines(session, lang, out):
    last = [None]
    out_lock = threading.Lock()

    def show(frame):
        info = ledframe.decode(frame)
        key = (tuple(info["dice"]), tuple(info["colors"]), info["status"])
        with out_lock:
            if key == last[0]:
                return
            last[0] = key
            out.write(render.faces_text(frame, lang) + "\n\n")
            out.flush()

    session.on_change = show
    if session.frame is not None:
        show(session.frame)
    for raw in sys.stdin:
        word = raw.rstrip("\r\n")
        if not word.strip() or word.lstrip().startswith("#"):
            continue
        if word.split()[0] == "dice":  # scripted dice for the next throw (emulate.py's ScriptedRoller)
            session.cup.control(word.strip())
            continue
        action = action_for(word)
        if action is None:
            sys.stderr.write("schocken cup: %s\n" % tr(lang, "cup.unknown", pressed=word.strip()))
            continue
        if action[0] == "quit":
            break
        with out_lock:
            out.write("> %s\n" % word.strip())
            out.flush()
        session.do(action, settle=True)
        if not session.alive():
            sys.stderr.write("schocken cup: %s\n" % tr(lang, "cup.cup_gone"))
            return 1
    return 0




def board_file_problem(path):
    """What is wrong with a board file for the emulated board (hardware/boards/*.json), as a Message, or None:
    it must be a JSON object; what the emulated board reads of it must be usable (22 LEDs, a brightness of 0
    to 1)."""
    try:
        spec = json.loads(read_text(path, Message("input.board_file")))
    except CommandError as e:
        return e.message
    except ValueError as e:
        return Message("cup.board_not_json", path=path, error=json_error(e))
    except RecursionError:
        return Message("cup.board_nested", path=path)
    if not isinstance(spec, dict):
        return Message("cup.board_not_object", path=path)
    if spec.get("leds", ledframe.N_PIXELS) != ledframe.N_PIXELS:
        return Message("cup.board_leds", path=path, n=ledframe.N_PIXELS, leds=spec["leds"])
    brightness = spec.get("brightness", 0.2)
    if isinstance(brightness, bool) or not isinstance(brightness, (int, float)) or not 0 <= brightness <= 1:
        return Message("cup.board_brightness", path=path, brightness=brightness)
    return None


def run(args):
    lang = getattr(args, "lang", "de")
    # Refusals go the way of every verb's: one line "schocken: Fehler: ..." (cli.main), exit status 2.
    if not args.emulate:
        raise CommandError("cup.only_emulate")
    problem = args.board and board_file_problem(args.board)
    if problem:  # found here: the emulated cup would only die at its start, 20 s later, saying less
        raise CommandError(problem.key, **problem.fields)
    if args.long_ms is not None and not 100 <= args.long_ms <= 10000:
        raise CommandError("cup.long_ms")
    notes = [tr(lang, "cup.alone")]
    if args.rules != "standard":
        notes.append(tr(lang, "cup.rules_note", preset=args.rules))
        sys.stderr.write("schocken cup: %s\n" % notes[-1])
    try:
        session = CupSession(lang=lang, sensor=args.sensor, board=args.board, name=args.name,
                             long_ms=args.long_ms)
    except (RuntimeError, OSError) as e:
        sys.stderr.write("schocken cup: %s\n" % tr(lang, "cup.start_failed", err=e))
        return 1
    try:
        interactive = sys.stdin.isatty() and sys.stdout.isatty()
        if not interactive:
            sys.stdout.write(tr(lang, "cup.link", port=session.port) + "\n")
            sys.stdout.flush()
            return _run_lines(session, lang, sys.stdout)
        return _run_tty(session, lang, notes)
    finally:
        session.close()


def add_arguments(p):
    p.add_argument("--emulate", action="store_true", help="run an emulated cup (the only kind so far)")
    p.add_argument("--sensor", choices=("accel", "switch"), default=None,
                   help="shake sensor of the emulated board (default: the board's)")
    p.add_argument("--board", default=None, metavar="FILE",
                   help="board file, e.g. hardware/boards/pico_w.json")
    p.add_argument("--name", default="", help="the cup's player name")
    p.add_argument("--rules", default="standard", choices=sorted(PRESETS), metavar="PRESET",
                   help="rule set: %s (alone the firmware plays standard)" % ", ".join(sorted(PRESETS)))
    p.add_argument("--long-ms", type=int, default=None, metavar="MS",
                   help="long-press time of the cup's buttons (default: the firmware's 1200 ms)")
    return p
