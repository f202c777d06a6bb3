"""The full-screen scoreboard of `schocken play` (Textual).

One screen for the whole table: every player with his Deckel in large digits, the middle (Mitte), the phase,
who is on turn and how many throws he used against the limit, the dice set aside (drawn as pip grids), the
revealed throws with their labels, the round's result, the losers of the halves, players out of the half
greyed, a cup caught cheating in red with the reason, a paused (disconnected) cup, the own cup of a person at
the keyboard with his keys (views/scoreboard_own.py), and a log of recent events (``plain.PlainUI``'s texts).

The scoreboard is a view of a ``state.TableState``: ``Scoreboard.update(state, event)`` redraws it from the
state after the event was applied, exactly like the plain UI. ``run_scoreboard`` runs the game itself as a
Textual worker in the app's own event loop, so the referee calls ``update`` from the same loop and no thread
is involved (a call from another thread is handed over with ``call_from_thread``).
"""

import asyncio
import io
import threading

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.css.query import NoMatches
from textual.widgets import Digits, Footer, Log, Static

from schocken.throws import ALL, evaluate

from schocken_host.views import keymap
from schocken_host.i18n import LANGS, tr
from schocken_host.views.plain import PlainUI
from schocken_host.views.scoreboard_card import PlayerCard, ShownThrows, card_info, halves_line, throw_limit
from schocken_host.views.scoreboard_coach import CoachLine
from schocken_host.views.scoreboard_own import OwnCupPanel
from schocken_host.views.scoreboard_view import plain_text

LOG_LINES = 200


class _UI:
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


class Scoreboard(App):
    """The table on one screen. ``state``: a TableState (or anything with its reading interface);
    ``game``: optional ``async (ui_factory) -> TableState`` run as a worker once the app is up."""

    TITLE = "Schocken"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #top { height: 5; }
    #phase-box { width: 1fr; border: round $primary; padding: 0 1; height: 5; }
    #phase { text-style: bold; color: $text; }
    #middle-box { width: 22; border: round $accent; height: 5; padding: 0 1; }
    #middle-caption { width: 8; height: 3; content-align: left middle; text-style: bold; }
    #middle { width: 1fr; }
    #banner { height: auto; display: none; text-style: bold; padding: 0 1; }
    #banner.-show { display: block; }
    #banner.-over { background: $error; color: $text; text-align: center; border: heavy $error-lighten-2; }
    #banner.-pause { background: $warning 40%; color: $text; }
    #players { height: auto; grid-gutter: 0 1; }
    .card { border: round $panel-lighten-2; height: auto; padding: 0 1; }
    .card .name { text-style: bold; }
    .card .deckel-row { height: 3; }
    .card .deckel { width: auto; }
    .card .deckel-caption { width: 1fr; height: 3; content-align: left bottom; padding-left: 1;
                            color: $text-muted; }
    .card .dice { height: 3; margin-top: 1; }
    .card .label { height: auto; min-height: 1; }
    .card .flag { height: auto; color: $error; text-style: bold; }
    .card.-on-turn { border: heavy $success; background: $success 12%; }
    .card.-on-turn .status { color: $success; text-style: bold; }
    .card.-out { opacity: 45%; border: round $panel; }
    .card.-paused { border: dashed $warning; }
    .card.-paused .status { color: $warning; text-style: bold; }
    .card.-cheat { border: heavy $error; background: $error 15%; }
    .card.-worst .status { color: $error; text-style: bold; }
    .card.-best .status { color: $success; text-style: bold; }
    .card.-loser { border: double $error; }
    .card.-loser .status { color: $error; text-style: bold; }
    #result { height: auto; padding: 0 1; text-style: bold; }
    #halves { height: auto; padding: 0 1; color: $text-muted; }
    #coach { height: auto; padding: 0 1; color: $success; }
    #log { height: 1fr; min-height: 4; border: round $panel-lighten-1; }
    """
    # The quit keys of the one key map (views/keymap.py), bound whatever has the focus; the footer shows q.
    BINDINGS = [Binding(key, "quit_game", tr("de", "board.quit"), show=key == "q", priority=True)
                for key in keymap.QUIT_BINDINGS]

    def __init__(self, state=None, lang="de", game=None, auto_exit=None, coach=False):
        super().__init__()
        self.coach = coach           # the coach's line (--coach; views/scoreboard_coach.py)
        self.lang = lang if lang in LANGS else "de"
        self.state = state
        self.game = game
        self.auto_exit = auto_exit
        self.final_state = None
        self.shown = ShownThrows()    # the last ranked round's throws, kept for the cards (scoreboard_card)
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
                self._bindings.key_to_bindings[key] = [
                    dataclasses.replace(b, description=self.tr("quit")) if b.action == "quit_game" else b
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
                log = self.query_one("#log", Log)
            except NoMatches:
                return
            log.write_line(line, scroll_end=False)
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
        yield Static("", id="result")
        yield Static("", id="halves")
        yield OwnCupPanel(self.lang)
        yield Log(id="log", max_lines=LOG_LINES, highlight=False)
        yield Footer()

    def on_mount(self):
        self._loop_thread = threading.get_ident()
        self.query_one("#log", Log).border_title = self.tr("log")
        if self._lines:
            self.query_one("#log", Log).write_lines(self._lines, scroll_end=False)
            self.query_one("#log", Log).scroll_end(animate=False, x_axis=False)
        self.refresh_view()
        if self.game is not None:
            self._worker = self.run_worker(self._run_game(), name="game", exit_on_error=False)

    def on_key(self, event):
        """Every key but the bindings' goes to the game: a person at an emulated cup plays with it."""
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

    async def action_quit_game(self):
        """q / Ctrl-C: stop the game (its task is cancelled, play's finally closes the cups), then leave."""
        worker = self._worker
        if worker is not None and worker.is_running:
            worker.cancel()
            try:
                await asyncio.wait_for(worker.wait(), 10)
            except Exception:
                pass
        self.exit()

    # --- the person at the keyboard (views/play_keys.py) -------------------------------------------------
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
        phase = st.phase() if st is not None else "setup"
        players = list(st.players) if st is not None else []
        # Header: phase, round, who is on turn, the rule set; the middle in large digits.
        head = Text(self.tr(phase), style="bold")   # board.setup, board.half1, ...
        if st is not None and st.round and phase != "over":
            head.append("  ·  " + self.tr("round_no", n=st.round), style="")
        self.query_one("#phase", Static).update(head)
        self.query_one("#turn-line", Static).update(self._turn_line(st, phase))
        self.query_one(CoachLine).redraw(st)
        rules = self.tr("rules", name=st.rules.name) if st is not None and st.rules is not None else ""
        self.query_one("#rules-line", Static).update(Text(rules, style="dim"))
        self.query_one("#middle", Digits).update(str(st.middle()) if st is not None else "")
        # Banner: game over, paused cups.
        banner = self.query_one("#banner", Static)
        lines = []
        over = bool(st is not None and st.over)
        if over:
            blatt = self.tr("blatt") if st.game is not None and st.game.blattschuss else ""
            lines.append(self.tr("game_over", name=st.name(st.loser), blatt=blatt))
            lines.append(self.tr("hint_over"))
        if st is not None:
            for seat, reason in sorted(st.paused.items()):
                lines.append(self.tr("pause", name=st.name(seat), reason=reason))
            lines += [self.tr("asked", name=st.name(seat)) for seat in sorted(st.asked)]
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
            grid.styles.grid_size_columns = max(1, n if n <= 4 else min(4, (n + 1) // 2))
        for p in players:
            self._cards[p.seat].show(card_info(self.lang, st, p, phase, self.shown))
        new = [c for c in self._cards.values() if c.parent is None]
        if new:
            grid.mount(*new)
        # Result of the last round (or of the throw-off), losers of the halves.
        self.query_one("#result", Static).update(self.shown.with_half(self.lang, st, self._result_line(st)))
        self.query_one("#halves", Static).update(halves_line(self.lang, st))
        if self.own is not None:
            self.query_one(OwnCupPanel).redraw()

    def _turn_line(self, st, phase):
        if st is None or phase in ("over", "setup"):
            return Text("")
        if st.on_turn is None:
            lr = st.last_round
            ended = st.closed >= st.round or (lr is not None and lr.get("round") == st.round)
            if st.order and not ended and all(st.players[s].done for s in st.order):
                return Text(self.tr("nobody"), style="bold")
            return Text("")
        p = st.players[st.on_turn]
        return Text(self.tr("on_turn_head", name=p.name, n=p.throws, limit=throw_limit(st, p.seat)),
                    style="bold green")

    def _result_line(self, st):
        if st is None:
            return ""
        if self.throw_off_text:
            return self.throw_off_text
        lr = st.last_round
        if lr is None:
            return ""
        best, worst = st.name(lr["best"]), st.name(lr["worst"])
        if lr["deckel"] == ALL:
            return Text(self.tr("result_all", round=lr["round"], worst=worst, best=best), style="bold red")
        moved = sum(m[1] for m in lr["moves"])
        sources = [self.tr("from_middle") if src == "middle" else self.tr("from_player", name=st.name(src))
                   for src, _ in lr["moves"]]
        label = ""
        order, entries = lr.get("order", []), lr.get("entries", [])
        if lr["best"] in order and entries and entries[order.index(lr["best"])] is not None:
            try:
                dice, throws, hand = entries[order.index(lr["best"])]
                label = evaluate(dice, throws, hand, st.rules).label
            except Exception:
                label = ""
        return Text(self.tr("result", round=lr["round"], worst=worst, deckel=moved, source=", ".join(sources),
                                       best=best, label=label).replace(" ()", ""))

    # --- reading (tests, screen readers) ----------------------------------------------------------
    def text_of(self, selector):
        widget = self.query_one(selector)
        if isinstance(widget, Digits):
            return widget.value
        if isinstance(widget, Log):
            return "\n".join(widget.lines)
        content = getattr(widget, "content", None)  # Textual >= 2; older ones call it renderable
        return plain_text(content if content is not None else getattr(widget, "renderable", ""))

    def card_text(self, seat):
        return self._cards[seat].text()

    def card(self, seat):
        return self._cards[seat]


def run_scoreboard(args, play, lang="de"):
    """Run ``play(args, ui_factory)`` inside the scoreboard; keep the final screen until q. Returns the final
    TableState (the last one seen if the game was stopped); an error of the game is raised again after the
    screen is gone, so the command line reports it as usual."""
    app = Scoreboard(lang=lang, game=lambda ui_factory: play(args, ui_factory),
                     auto_exit=getattr(args, "auto_exit", None), coach=getattr(args, "coach", False))
    app.run()
    if app.error is not None:
        raise app.error
    return app.final_state if app.final_state is not None else app.state
