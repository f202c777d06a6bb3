"""The keyboard side of `schocken cup --emulate` (commands/cup.py): the terminal mode.

A key (a raw byte from the terminal, or a line's word when standard input is not a terminal) maps to an action
of the emulated cup through the one key map that `schocken play` uses too (views/keymap.py: KEYS, action_for,
and the key help). On a terminal, keys are read raw (termios), the screen is redrawn from
the cup's LED frames (views/render.py) and the terminal is restored on exit (_run_tty). Its texts are the
"cup." ones of texts/cup.py.
"""

import os
import select
import sys
import termios
import threading

from schocken_host.i18n import tr
from schocken_host.views import keymap
from schocken_host.views import render
from schocken_host.views.keymap import action_for


# --- terminal mode ------------------------------------------------------------------------------------------
def _ansi(markup):
    """Rich markup -> ANSI text with CR LF line ends (the terminal is raw)."""
    import io

    from rich.console import Console

    buf = io.StringIO()
    Console(file=buf, force_terminal=True, color_system="truecolor", width=120, highlight=False,
            soft_wrap=True).print(markup, end="")
    return buf.getvalue().replace("\n", "\r\n")


def _screen(session, lang, interp, notes):
    from rich.markup import escape

    import shutil

    width = shutil.get_terminal_size((120, 40)).columns  # the key help breaks between its entries, not inside
    lines = ["[bold]%s[/]" % escape(tr(lang, "cup.title", interp=interp)),
             "[bold cyan]%s[/]" % escape(tr(lang, "cup.link", port=session.port)),
             "[dim]%s[/]" % escape(keymap.help_text(lang, width - 1))]
    lines += ["[dim]%s[/]" % escape(n) for n in notes]
    lines.append("")
    if session.frame is not None:
        lines.append(render.faces_text(session.frame, lang, markup=True))
    lines.append("")
    lines += ["» " + escape(m) for m in session.messages]
    return "\x1b[H\x1b[2J" + _ansi("\n".join(lines)) + "\r\n"


def _decode_keys(data):
    """Raw bytes from the terminal -> key strings (UTF-8 aware, so "§" is one key)."""
    text = data.decode("utf-8", errors="ignore")
    keys = []
    i = 0
    while i < len(text):
        if text[i] == "\x1b":  # an escape sequence (arrows & co.): skip it whole
            j = i + 1
            if j < len(text) and text[j] in "[O":
                j += 1
                while j < len(text) and not (text[j].isalpha() or text[j] == "~"):
                    j += 1
                j += 1
            i = j
            continue
        keys.append(text[i])
        i += 1
    return keys


def _run_tty(session, lang, notes):
    import queue
    import tty

    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    dirty = threading.Event()
    dirty.set()
    actions = queue.Queue()
    stop = threading.Event()

    def worker():  # presses take time; the screen keeps redrawing meanwhile
        while not stop.is_set():
            try:
                action = actions.get(timeout=0.1)
            except queue.Empty:
                continue
            session.do(action)
            dirty.set()

    session.on_change = lambda frame: dirty.set()
    hands = threading.Thread(target=worker, daemon=True)
    out = sys.stdout
    try:
        tty.setraw(fd)
        out.write("\x1b[?25l")  # hide the cursor
        hands.start()
        while True:
            if dirty.is_set():
                dirty.clear()
                session.poll_errors()
                out.write(_screen(session, lang, session.cup.interpreter, notes))
                out.flush()
            if not session.alive():
                session.note(tr(lang, "cup.cup_gone"))
                out.write(_screen(session, lang, session.cup.interpreter, notes))
                return 1
            ready, _, _ = select.select([fd], [], [], 0.05)
            if not ready:
                session.guard.check()
                continue
            data = os.read(fd, 64)
            if not data:
                return 0
            for key in _decode_keys(data):
                action = action_for(key)
                if action is None:
                    session.note(tr(lang, "cup.unknown", pressed=key))
                    dirty.set()
                elif action[0] == "quit":
                    return 0
                else:
                    actions.put(action)
    finally:
        stop.set()
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
        out.write("\x1b[?25h\r\n")
        out.flush()
