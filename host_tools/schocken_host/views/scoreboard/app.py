"""The full-screen scoreboard of `schocken play` (Textual).

One screen for the whole table: every player with his Deckel in large digits, the middle (Mitte), the phase,
who is on turn and how many throws he used against the limit, the dice set aside (drawn as pip grids), the
revealed throws with their labels, the round's result, the losers of the halves, players out of the half
greyed, a cup caught cheating in red with the reason, a paused (disconnected) cup, the own cup of a person at
the keyboard with his keys (views/scoreboard/own.py), the web page's address, PIN and QR code (--web), and a
log of recent events (``plain.PlainUI``'s texts).

The layout follows the terminal (``layout_for``): "big" with the Deckel and the middle in large digits,
"medium" with the same cards in fewer lines, "small" (80x24 and the like) with one line per player. Each keeps
the key help, the person's own cup, the last round and at least three lines of history on the screen.

The scoreboard is a view of a ``state.TableState``: ``Scoreboard.update(state, event)`` redraws it from the
state after the event was applied, exactly like the plain UI. ``run_scoreboard`` runs the game itself as a
Textual worker in the app's own event loop, so the referee calls ``update`` from the same loop and no thread
is involved (a call from another thread is handed over with ``call_from_thread``).
"""

import asyncio
import io
import threading
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.css.query import NoMatches
from textual.widgets import Digits, Footer, RichLog, Static

from schocken_host.views import fitting, keymap
from schocken_host.i18n import LANGS, tr
from schocken_host.views.plain import PlainUI
from schocken_host.views.scoreboard.card import PlayerCard, ShownThrows, card_info, halves_line
from schocken_host.table.view import View
from schocken_host.views.scoreboard.coach import CoachLine
from schocken_host.views.scoreboard.own import OwnCupPanel
from schocken_host.views.scoreboard.layout import (CSS, MIN_SIZE, QRCodeScreen, TooSmallScreen, banner_lines,
                                                    grid_columns, layout_for, log_width, phase_line,
                                                    player_rows, qr_text, result_line, text_of_content,
                                                    too_small, turn_line, web_text)
from schocken_host.views.scoreboard.dice import plain_text

LOG_LINES = 200

class _UI(View):
    """What the game runner gets from ``ui_factory()``: update/note forwarded to the scoreboard."""

    def __init__(self, app):
        self.app = app
        self.lang = app.lang         # the referee's notes speak the scoreboard's language
        self.keys = asyncio.Queue()  # keys for a person's emulated cup (the play verb reads them)

    def update(self, state, ev):
        self.app.update(state, ev)

    def note(self, text):
        self.app.note(text)

    def person(self, own):
        self.app.show_person(own)

    def refused(self, seat, reason):
        self.app.refused(seat, reason)
        return True


QR_KEY = "c"   # not a key of the cup (views/keymap.py): it shows the web page's QR code
KEY_ANSWER_S = 0.05   # a key's own answer comes within this: the last reason goes in the same redraw


class Scoreboard(App):
    """The table on one screen. ``state``: a TableState (or anything with its reading interface);
    ``game``: optional ``async (ui_factory) -> TableState`` run as a worker once the app is up."""

    TITLE = "Schocken"
    ENABLE_COMMAND_PALETTE = False
    CSS = CSS
    BINDINGS: ClassVar[list[BindingType]] = [   # the one key map's quit keys, whatever has the focus; c: QR
        *(Binding(key, "quit_game", tr("de", "board.quit"), show=key == "q", priority=True)
          for key in keymap.QUIT_BINDINGS),
        Binding(QR_KEY, "qr_code", tr("de", "board.qr_key"), priority=True)]

    def __init__(self, state=None, lang="de", game=None, auto_exit=None, coach=False, web=None):
        super().__init__()
        self.coach = coach           # the coach's line (--coach; views/scoreboard/coach.py)
        self.web = web               # the web page (views/web/server.WebView: url, pin) with --web
        self.layout_mode = None      # "big", "medium" or "small" (layout_for), set at every draw
        self._terminal = None        # the terminal's size at its last resize
        self.lang = lang if lang in LANGS else "de"
        self.state = state
        self.game = game
        self.auto_exit = auto_exit
        self.final_state = None
        self.shown = ShownThrows()    # the last ranked round's throws, kept for the cards (card.py)
        self.own = None              # the person's own cup (own_cup.OwnCup) when one plays from this keyboard
        self.error = None
        self.finished = False
        self.throw_off_text = None
        self._buf = io.StringIO()
        self._plain = PlainUI(self.lang, out=self._buf)
        self._lines = []
        self._cards = {}
        self._loop_thread = None
        self._worker = None
        self._ui = None
        self.title = self.tr("title")
        self._localize_bindings()

    def _localize_bindings(self):
        try:
            import dataclasses
            for key, bindings in self._bindings.key_to_bindings.items():
                words = {"quit_game": self.tr("quit"), "qr_code": self.tr("qr_key")}
                self._bindings.key_to_bindings[key] = [
                    dataclasses.replace(b, description=words[b.action]) if b.action in words else b
                    for b in bindings]
        except (AttributeError, TypeError):
            pass  # only the footer's wording; a Textual without this map keeps the German label

    def tr(self, key, **fields):
        """The text ``board.<key>`` in the scoreboard's language."""
        return tr(self.lang, "board." + key, **fields)

    # --- the interface of a UI (plain.PlainUI) ----------------------------------------------------
    def update(self, state, ev):
        """Redraw after ``ev`` was applied to ``state``. Safe from the app's own loop (the game worker);
        from another thread it is handed over to the loop."""
        if self._other_thread():
            self.call_from_thread(self.update, state, ev)
            return
        self.state = state
        kind = ev.get("ev")
        if kind == "throw_off":
            if ev.get("opener") is None:
                names = ", ".join(state.name(s) for s in state.game.throw_off_seats)
                self.throw_off_text = self.tr("stechen", names=names)
            else:
                self.throw_off_text = self.tr("throw_off_opener", name=state.name(ev["opener"]))
        elif kind in ("start", "round"):
            self.throw_off_text = None
        self.shown.seen(state, ev)
        self._buf.seek(0)
        self._buf.truncate()
        try:
            self._plain.update(state, ev)
        except Exception as e:  # the log line must never take the scoreboard down
            self._buf.write("%s: %s\n" % (kind, e))
        for line in self._buf.getvalue().splitlines():
            self._add_line(line)
        self.refresh_view()

    def note(self, text):
        if self._other_thread():
            self.call_from_thread(self.note, text)
            return
        for line in str(text).splitlines() or [""]:
            self._add_line(line)

    def _other_thread(self):
        return self._loop_thread is not None and threading.get_ident() != self._loop_thread

    def _add_line(self, line):
        self._lines.append(line)
        del self._lines[:-LOG_LINES]
        if self.is_running:
            try:
                log = self.query_one("#log", RichLog)
            except NoMatches:
                return
            # A long line breaks between words, never between a word and its number ("Schock 3"): a Log cut
            # it at the edge and took a line for its scroll bar, and rich's own wrapping breaks anywhere.
            width = log_width(log)
            for piece in fitting.wrap(line, width):
                log.write(Text(piece), width=width, scroll_end=False)
            # After the next layout, when the log knows its new height (an immediate scroll would use the
            # old one and leave a burst of lines below the fold).
            log.scroll_end(animate=False, x_axis=False)

    # --- layout -----------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            with Vertical(id="phase-box"):
                yield Static("", id="phase")
                yield Static("", id="turn-line")
                yield Static("", id="rules-line")
            with Horizontal(id="middle-box"):
                yield Static(self.tr("middle"), id="middle-caption")
                yield Digits("", id="middle")
        yield Static("", id="banner")
        yield CoachLine(self.lang, self.coach)
        yield Grid(id="players")
        yield Static("", id="rows")
        yield Static("", id="result")
        yield Static("", id="halves")
        yield OwnCupPanel(self.lang)
        web = self.web is not None
        yield Static(web_text(self.lang, self.web, QR_KEY) if web else "", id="web",
                     classes="-show" if web else "")
        yield RichLog(id="log", max_lines=LOG_LINES, wrap=True, markup=False, highlight=False, min_width=20)
        yield Footer()

    def on_mount(self):
        self._loop_thread = threading.get_ident()
        log = self.query_one("#log", RichLog)
        log.border_title = self.tr("log")
        for line in self._lines:
            for piece in fitting.wrap(line, log_width(log)):
                log.write(Text(piece), width=log_width(log), scroll_end=False)
        if self._lines:
            log.scroll_end(animate=False, x_axis=False)
        self.refresh_view()
        if self.game is not None:
            self._worker = self.run_worker(self._run_game(), name="game", exit_on_error=False)

    def on_resize(self, event):
        self._terminal = event.size   # the new size (the app's own may still be the old one here)
        self.refresh_view()
        self.call_after_refresh(self._log_to_end)   # the log breaks its lines anew and starts at its top

    def _log_to_end(self):
        try:
            self.query_one("#log", RichLog).scroll_end(animate=False, x_axis=False)
        except NoMatches:
            pass

    def on_key(self, event):
        """Every key but the bindings' goes to the game: a person at an emulated cup plays with it. A new key
        takes the reason of the last refused one away (a refused key brings its own)."""
        self._clear_refusal()
        if self._ui is not None:
            self._ui.keys.put_nowait(keymap.textual_key(event.key, event.character))

    async def _run_game(self):
        ui = self._ui = _UI(self)
        try:
            self.final_state = await self.game(lambda: ui)
        except asyncio.CancelledError:
            raise
        except Exception as e:
            self.error = e
            self.exit()
            return
        if self.final_state is not None:
            self.state = self.final_state
        self.finished = True
        self.refresh_view()
        if self.auto_exit:
            self.set_timer(float(self.auto_exit), self.exit)

    def check_action(self, action, parameters):
        if action == "qr_code":
            return self.web is not None   # without --web the key is no key of the scoreboard's
        return True

    def action_qr_code(self):
        """c: the web page's QR code over the table, until the next key."""
        if isinstance(self.screen, QRCodeScreen):
            self.pop_screen()
            return
        self.push_screen(QRCodeScreen(qr_text(self.lang, self.web)))

    async def action_quit_game(self):
        """q / Ctrl-C: stop the game (its task is cancelled, play's finally closes the cups), then leave."""
        worker, end = self._worker, asyncio.get_running_loop().time() + 10
        # Cancelled until it has ended (bounded): Python 3.11's asyncio.wait_for (the referee waits with it)
        # loses a cancellation that meets the message it waits for (views/play_keys.py, _stop).
        while worker is not None and worker.is_running and asyncio.get_running_loop().time() < end:
            worker.cancel()
            try:
                await asyncio.wait_for(worker.wait(), 0.25)
            except Exception:
                pass
        self.exit()

    # --- the person at the keyboard (table/person.py) -----------------------------------------------------
    def show_person(self, own):
        """``own`` (own_cup.OwnCup) is played from this keyboard: its panel, redrawn at every LED frame."""
        self.own = own
        self.query_one(OwnCupPanel).attach(own)

    def refused(self, seat, reason):
        """A refused key (or a press his cup refused): the reason in his panel at once, and the log."""
        if self._other_thread():
            self.call_from_thread(self.refused, seat, reason)
            return
        st = self.state
        name = st.name(seat) if st is not None and 0 <= seat < len(st.players) else str(seat + 1)
        self._add_line(tr(self.lang, "play.refused", name=name, reason=reason))
        if self.own is not None and seat == self.own.seat and self.is_running:
            self.query_one(OwnCupPanel).show_reason(reason)

    def _clear_refusal(self):
        """A key takes the last refused key's reason away; what the key itself answers (its own reason, or
        what it is doing) is drawn in the same redraw when it comes at once, so the person never sees an
        empty line between them. A key that answers nothing redraws the panel a moment later."""
        if self.own is not None and self.is_running:
            try:
                panel = self.query_one(OwnCupPanel)
            except NoMatches:
                return
            if panel.reason:
                panel.reason = ""
                self.set_timer(KEY_ANSWER_S, panel.redraw)

    def own_text(self):
        """The person's panel as plain text (tests, screen readers)."""
        return self.query_one(OwnCupPanel).text()

    # --- drawing ----------------------------------------------------------------------------------
    def refresh_view(self):
        if not self.is_running:
            return
        try:
            self._draw()
        except NoMatches:
            pass

    def _draw(self):
        st = self.state
        # A half that a round ended stays on the screen as it ended (its phase, middle and Deckel) while that
        # round's throws are kept (ShownThrows), though the state has begun the next half.
        phase = self.shown.phase(st) if st is not None else "setup"
        middle = self.shown.middle(st) if st is not None else None
        players = list(st.players) if st is not None else []
        mode = self._layout(len(players))
        # Header: phase, round, who is on turn, the rule set; the middle in large digits (in words beside the
        # phase where the screen is short).
        turn = turn_line(self.lang, st, st.phase() if st is not None else "setup")
        number = self.shown.number(st) if st is not None else None
        self.query_one("#phase", Static).update(phase_line(self.lang, st, phase, mode, turn, middle, number))
        self.query_one("#turn-line", Static).update(turn)
        self.query_one(CoachLine).redraw(st)
        rules = self.tr("rules", name=st.rules.name) if st is not None and st.rules is not None else ""
        self.query_one("#rules-line", Static).update(Text(rules, style="dim"))
        self.query_one("#middle", Digits).update(str(middle) if st is not None else "")
        # Banner: game over, paused cups.
        banner = self.query_one("#banner", Static)
        over = bool(st is not None and st.over)
        lines = banner_lines(self.lang, st)
        banner.update("\n".join(lines))
        banner.set_class(bool(lines), "-show")
        banner.set_class(over, "-over")
        banner.set_class(bool(lines) and not over, "-pause")
        # Players.
        grid = self.query_one("#players", Grid)
        if set(self._cards) != set(range(len(players))):
            grid.remove_children()
            self._cards = {p.seat: PlayerCard(p.seat) for p in players}
            n = len(players)
            grid.styles.grid_size_columns = grid_columns(n)
        infos = [card_info(self.lang, st, p, phase, self.shown) for p in players]
        for p, info in zip(players, infos):
            if mode == "medium":   # the Deckel in words: the large digits take three lines
                info = dict(info, deckel_caption=self.tr("deckel_n", n=info["deckel"]))
            self._cards[p.seat].show(info)
        new = [c for c in self._cards.values() if c.parent is None]
        if new:
            grid.mount(*new)
        rows_widget = self.query_one("#rows", Static)
        width = rows_widget.content_region.width or (self._terminal or self.size).width - 2
        rows = player_rows(self.lang, st, players, infos, self.shown, width) if mode == "small" else ""
        rows_widget.update(rows)
        # Result of the last round (or of the throw-off), losers of the halves.
        result, last = self.query_one("#result", Static), result_line(self.lang, st, self.throw_off_text)
        # In one line where it fits, shortened by rule before it takes two; never broken inside a hand.
        forms = [self.shown.with_half(self.lang, st, line)
                 for line in (last, result_line(self.lang, st, self.throw_off_text, short=True))]
        width = result.content_region.width or (self._terminal or self.size).width - 2
        result.update(fitting.fit_lines([Text(f) if isinstance(f, str) else f for f in forms], width,
                                        fewer_lines_first=True))
        result.display = bool(plain_text(last))   # no empty line before the first result
        halves = Text(rules + "  ·  ", style="dim") if mode == "small" and rules else Text("")
        self.query_one("#halves", Static).update(halves + halves_line(self.lang, st))
        if self.own is not None:
            panel = self.query_one(OwnCupPanel)
            panel.set_class(over, "-over")   # the game is over: no key of his cup is left to press
            panel.redraw()

    def _layout(self, players):
        """Works out the layout for the screen's size and sets it as the screen's class; below the smallest
        size the table is laid out for, says so over it."""
        size = self._terminal or self.size
        self._say_too_small(size)
        mode = layout_for(size.width, size.height, players, person=self.own is not None,
                          web=self.web is not None, coach=bool(self.coach))
        table = self.screen_stack[0]   # the table's screen (the QR code's may be over it)
        if mode != self.layout_mode:
            self.layout_mode = mode
            for name in ("big", "medium", "small"):
                table.set_class(name == mode, "-" + name)
        table.set_class(self.own is not None and not (self.state is not None and self.state.over), "-person")
        return mode

    def _say_too_small(self, size):
        notice = next((screen for screen in self.screen_stack if isinstance(screen, TooSmallScreen)), None)
        if too_small(size.width, size.height):
            text = self.tr("too_small", width=size.width, height=size.height, min_width=MIN_SIZE[0],
                           min_height=MIN_SIZE[1])
            if notice is None:
                self.push_screen(TooSmallScreen(text))
            else:
                notice.say(text)
        elif notice is not None and self.screen is notice:
            self.pop_screen()

    # --- reading (tests, screen readers) ----------------------------------------------------------
    def text_of(self, selector):
        widget = self.query_one(selector)
        if isinstance(widget, Digits):
            return widget.value
        if isinstance(widget, RichLog):
            return "\n".join(self._lines)   # the lines as written (the widget keeps them broken to its width)
        content = getattr(widget, "content", None)  # Textual >= 2; older ones call it renderable
        return text_of_content(content if content is not None else getattr(widget, "renderable", ""),
                               widget.size.width)

    def card_text(self, seat):
        return self._cards[seat].text()

    def card(self, seat):
        return self._cards[seat]


def run_scoreboard(game, lang="de", auto_exit=None, coach=False, web=None):
    """Run ``game(ui_factory)`` (a GameSession's ``run``) inside the scoreboard; keep the final screen until q
    (or ``auto_exit`` seconds after the game is over). Returns the final TableState (the last one seen if the
    game was stopped); an error of the game is raised again after the screen is gone, so the command line
    reports it as usual. ``web``: the page's WebView, whose address the scoreboard shows."""
    app = Scoreboard(lang=lang, game=game, auto_exit=auto_exit, coach=coach, web=web)
    app.run()
    if app.error is not None:
        raise app.error
    return app.final_state if app.final_state is not None else app.state
