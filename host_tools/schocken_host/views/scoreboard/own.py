"""The scoreboard's panel of the person who plays an emulated cup from the keyboard: "Dein Becher", his own
cup as he sees it (own_cup.OwnCup: the dice set aside, the dice last seen under the cup, the status pixel),
the reason of a refused key, and the key help of views/keymap.py. Hidden while nobody plays from the
keyboard."""

import asyncio

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.widgets import Static

from schocken_host.i18n import LANGS, tr
from schocken_host.views import keymap
from schocken_host.views.scoreboard.dice import dice_text, plain_text


class OwnCupPanel(Vertical):
    """Dice on the left, with what they are, the cup's status and a refused key's reason (or what his keys are
    doing) beside them; the keys below."""

    DEFAULT_CSS = """
    OwnCupPanel { height: auto; display: none; border: round $success; padding: 0 1; }
    OwnCupPanel.-show { display: block; }
    OwnCupPanel #own-top { height: 3; }
    OwnCupPanel #own-dice { width: 20; height: 3; }   /* dice.DICE_WIDTH and a space */
    OwnCupPanel #own-lines { width: 1fr; height: 3; }
    OwnCupPanel #own-reason { color: $error; text-style: bold; }
    OwnCupPanel #own-reason.-doing { color: $accent; }
    OwnCupPanel #own-keys { color: $text-muted; }
    """

    def __init__(self, lang="de"):
        super().__init__(id="own")
        self.lang = lang if lang in LANGS else "de"
        self.own = None
        self.reason = ""
        self.last_reason = None     # the last reason shown, and how many keys in a row got it
        self.repeats = 0
        self._loop = None           # the app's event loop: LED frames come from the cup's reader thread

    def compose(self) -> ComposeResult:
        with Horizontal(id="own-top"):
            yield Static("", id="own-dice")
            with Vertical(id="own-lines"):
                yield Static("", id="own-label")
                yield Static("", id="own-status")
                yield Static("", id="own-reason")
        yield Static(keymap.help_text(self.lang, reveal=False), id="own-keys")

    def on_mount(self):
        self._loop = asyncio.get_running_loop()

    def on_resize(self):
        self.redraw()

    def attach(self, own):
        """Show ``own`` (own_cup.OwnCup) from now on, redrawn at every LED frame of its cup."""
        self.own = own
        own.listeners.append(self._changed)
        self.set_class(True, "-show")
        self.redraw()

    def _changed(self):
        # From the cup's reader thread: handed over without waiting (call_from_thread would block the reader,
        # and for good once the app is gone).
        if self._loop is None:
            return
        try:
            self._loop.call_soon_threadsafe(self.redraw)
        except RuntimeError:  # the loop is closed: the scoreboard is gone
            pass

    def show_reason(self, reason):
        """The reason of a refused key ("" takes it away): it stays until the scoreboard takes it away at his
        next key. The same reason again for the next key says how often ("(2×)"): a key must change what he
        sees, or he presses it once more."""
        if reason:
            self.repeats = self.repeats + 1 if reason == self.last_reason else 1
            self.last_reason = reason
        self.reason = reason
        self.redraw()

    def redraw(self):
        own = self.own
        if own is None or not self.is_mounted:
            return
        st = own.state
        name = st.name(own.seat) if st is not None and own.seat < len(st.players) else str(own.seat + 1)
        self.border_title = "%s · %s" % (tr(self.lang, "own.title"), name)
        dice = own.dice()
        status = own.status(self.lang)
        try:
            keys = self.query_one("#own-keys", Static)
            keys.update(keymap.help_text(self.lang, keys.size.width or None,   # broken between its entries
                                         reveal=own.reveal_button))
            self.query_one("#own-dice", Static).update(dice_text([f for f, _ in dice], [k for _, k in dice]))
            self.query_one("#own-label", Static).update(Text(own.describe(self.lang), style="bold"))
            self.query_one("#own-status", Static).update(
                tr(self.lang, "own.status", name=status[0], meaning=status[1]) if status else "")
            # A refused key's reason until his next key; else what his keys are doing ("schüttelt …").
            line = self.query_one("#own-reason", Static)
            doing = "" if self.reason else own.doing_text(self.lang)
            if doing:
                self.last_reason = None   # a key taken between two refusals: they are not in a row
            reason = self.reason + (" (%d×)" % self.repeats if self.repeats > 1 else "")
            line.update(tr(self.lang, "own.refused", reason=reason) if self.reason else doing)
            line.set_class(bool(doing), "-doing")
        except NoMatches:
            pass  # not composed yet: the next redraw fills it

    def text(self):
        """What the panel shows, as plain text (tests, screen readers)."""
        lines = []
        for sel in ("#own-label", "#own-status", "#own-reason", "#own-keys"):
            widget = self.query_one(sel, Static)
            content = getattr(widget, "content", None)
            lines.append(plain_text(content if content is not None else getattr(widget, "renderable", "")))
        return "\n".join(lines)
