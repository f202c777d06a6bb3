"""How the scoreboard (app.py) fits the terminal: its CSS with the three layouts, ``layout_for`` that picks
one for a size, the players' lines of the small layout, the turn and result lines, and the web
page's line and QR code (--web)."""

import io

from rich.console import Console
from rich.text import Text
from textual.app import ComposeResult
from textual.css.query import NoMatches
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from schocken.throws import ALL, evaluate

from schocken_host.i18n import tr
from schocken_host.views import fitting
from schocken_host.views.scoreboard.card import is_bot_unnamed, throw_forms, throw_limit
from schocken_host.views.scoreboard.dice import COVERED, DIE_STYLE, plain_text

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
    #log { height: 1fr; min-height: 5; border: round $panel-lighten-1; overflow-x: hidden;
           scrollbar-gutter: stable; }
    #rows { height: auto; padding: 0 1; display: none; }
    #web { height: auto; padding: 0 1; color: $accent; text-style: bold; display: none; }
    #web.-show { display: block; }
    OwnCupPanel.-over { display: none; }
    /* medium: the header in two lines, the middle beside the phase, the Deckel in words */
    .-medium #top, .-small #top { height: auto; }
    .-medium #phase-box, .-small #phase-box { border: none; height: auto; }
    .-medium #middle-box, .-small #middle-box, .-medium #rules-line, .-small #rules-line { display: none; }
    .-small #turn-line { display: none; }
    .-medium .card .deckel { display: none; }
    .-medium .card .deckel-row { height: 1; }
    .-medium .card .deckel-caption { height: 1; padding-left: 0; content-align: left top; color: $text; }
    .-medium .card .dice { margin-top: 0; }
    /* small: one line per player instead of the cards; the log and the own panel without their bottom line */
    .-small #players { display: none; }
    .-small #rows { display: block; }
    .-small #log { min-height: 4; border: none; border-top: round $panel-lighten-1; }
    .-small OwnCupPanel { border-bottom: none; }
    .-small.-person Footer { display: none; }   /* his key help says q; the web line says c */
"""

# Rows of the terminal each part takes (tests/test_screens.py checks the sums against real terminals).
CARD_MIN_WIDTH = 24          # a card narrower than this breaks "▶ am Zug · Wurf 1/3" in two (its dice: 19)
TOP_ROWS = {"big": 5, "medium": 2, "small": 1}
CARD_ROWS = {"big": 13, "medium": 10}
OWN_ROWS = 8                 # the person's panel: border, his dice (3 lines), the key help (up to 3 lines)
# (small: no bottom border, no footer while he plays: the key help in his panel says q)
LOG_ROWS = {"big": 5, "medium": 5, "small": 4}   # three lines of history, with a border or a title line


def grid_columns(players):
    """Cards side by side: all of them up to four, else two rows of them (at most four wide)."""
    return max(1, players if players <= 4 else min(4, (players + 1) // 2))


def layout_for(width, height, players, person=False, web=False, coach=False):
    """The richest layout of the table that fits a terminal of ``width`` x ``height``: "big" (cards with the
    Deckel in large digits), "medium" (the same cards in fewer lines) or "small" (one line per player).
    Each leaves room for the last round, the halves, the person's panel, the web line and three lines of
    history."""
    cols = grid_columns(players)
    card_lines = -(-max(players, 1) // cols)
    below = (2 + (OWN_ROWS if person else 0) + (1 if web else 0) + (2 if coach else 0)
             + 1)  # result, halves, own panel, web, coach, footer (small: 2 fewer with a person)
    if width >= cols * CARD_MIN_WIDTH:
        for mode in ("big", "medium"):
            if TOP_ROWS[mode] + card_lines * CARD_ROWS[mode] + below + LOG_ROWS[mode] <= height:
                return mode
    return "small"


def log_width(log):
    """The width the log breaks a line to: its own (RichLog measures a line against the console's), or
    None before it has one (it then waits for its size)."""
    return log.scrollable_content_region.width or None


def text_of_content(content, width):
    """A widget's content as plain text: a string or Text as it is, a table (the players' lines) rendered to
    the widget's width."""
    if isinstance(content, (str, Text)):
        return plain_text(content)
    console = Console(width=width or 80, file=io.StringIO(), color_system=None, record=True)
    console.print(content)
    return "\n".join(line.rstrip() for line in console.export_text().splitlines())


def dice_cells(dice, kinds):
    """Dice in one line, each its face on the color of its kind: revealed " 5 " (white), set aside "▐5▌"
    (orange, marked also where there is no colour), still under the cover " ░ "."""
    out = Text()
    for n, (value, kind) in enumerate(zip(dice, kinds)):
        if n:
            out.append(" ")
        if kind == "aside":
            out.append("▐%s▌" % (value or " "), style=DIE_STYLE[kind])
        else:
            out.append(" %s " % (value or COVERED), style=DIE_STYLE[kind])
    return out


MIN_SIZE = (80, 24)          # the smallest terminal the table is laid out for (tests/test_screens.py)


def too_small(width, height):
    return width < MIN_SIZE[0] or height < MIN_SIZE[1]


class TooSmallScreen(Screen):
    """Over the table while the terminal is smaller than MIN_SIZE: what is needed, in words, instead of a
    table cut at its edges. Keys still go to the game (the person's cup, q)."""

    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; }
    TooSmallScreen #too-small { width: auto; height: auto; padding: 0 1; text-style: bold; }
    """

    def __init__(self, text):
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        yield Static(self.text, id="too-small")

    def say(self, text):
        self.text = text
        try:
            self.query_one("#too-small", Static).update(text)
        except NoMatches:
            pass  # not composed yet: compose() reads self.text


class QRCodeScreen(ModalScreen):
    """The web page's QR code over the table, with its address and PIN; any key takes it away."""

    DEFAULT_CSS = """
    QRCodeScreen { align: center middle; }
    QRCodeScreen #qr { width: auto; height: auto; padding: 0 1; background: $surface;
                       border: round $accent; }
    """

    def __init__(self, text):
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        yield Static(self.text, id="qr")

    def on_key(self, event):
        event.stop()
        self.dismiss()



ROW_STYLES = (("loser", "bold red"), ("cheat", "bold red"), ("paused", "yellow"),
          ("on-turn", "bold green"), ("worst", "red"), ("best", "green"), ("out", "dim"))
ROW_GAP = 2                  # spaces between the columns of a player's line


def player_rows(lang, st, players, infos, shown, width):
    """The players one line each (the small layout), in ``width`` cells: seat and name, Deckel, status, dice,
    what they are. Every column is as wide as its widest line; what the dice are takes the rest, in the
    longest of its forms that fits (card.throw_forms: shortened by rule, never cut), and a status
    too long for the room takes its short form. A line that wrapped took the history's room at 80x24."""
    names, deckels, statuses, dice, labels, styles = [], [], [], [], [], []
    for p, info in zip(players, infos):
        style = next((s for key, s in ROW_STYLES if info.get(key)), "")
        styles.append(style)
        name = Text(("▶ " if info.get("on-turn") else "  ") + "%d %s" % (p.seat + 1, p.name), style=style)
        if is_bot_unnamed(p):
            name.append(" " + tr(lang, "card.bot").strip(), style="dim")
        names.append(name)
        deckels.append(Text(tr(lang, "board.deckel_n", n=info["deckel"])))
        statuses.append([Text(plain_text(form), style=style) for form in _status_forms(lang, info)])
        cells, forms = _row_dice(lang, st, p, shown)
        if info.get("flag"):
            flag = plain_text(info["flag"])
            flagged = [form + Text((" · " if form.plain else "") + flag, style="bold red") for form in forms]
            forms = flagged + [Text(tr(lang, "card.flagged_short"), style="bold red")]
        dice.append(cells)
        labels.append(forms)
    widths = [max((t.cell_len for t in column), default=0) for column in (names, deckels, dice)]
    room = width - sum(widths) - 4 * ROW_GAP
    shortest_label = max((forms[-1].cell_len for forms in labels), default=0)
    status_width = max((forms[0].cell_len for forms in statuses), default=0)
    if status_width + shortest_label > room:   # the short forms of the statuses
        status_width = max((forms[-1].cell_len for forms in statuses), default=0)
    label_width = max(0, room - status_width)
    gap = Text(" " * ROW_GAP)
    lines = []
    for name, deckel, status, cells, forms in zip(names, deckels, statuses, dice, labels):
        line = (fitting.pad(name, widths[0]) + gap + fitting.pad(deckel, widths[1], right=True) + gap
                + fitting.pad(fitting.first_fitting(status, status_width), status_width) + gap
                + fitting.pad(cells, widths[2]) + gap + fitting.first_fitting(forms, label_width))
        lines.append(line)
    return Text("\n").join(lines)


def _status_forms(lang, info):
    """A player's status and its short form for a narrow line: "▶ am Zug · Wurf 1/3", "▶ Wurf 1/3"."""
    status = plain_text(info["status"])
    short = info.get("status_short")
    return [status, short] if short and short != status else [status]


def _row_dice(lang, st, p, shown):
    """(dice cells, label forms) of one player's line."""
    kept = None if p.revealed else shown.kept(p)   # the last round's throw until the next round's first
    r = p.revealed or kept
    if r:
        return dice_cells(list(r["dice"]), ["cup"] * 3), throw_forms(
            lang, r, shown.kept_label(lang, st) if kept else "")
    if p.public or p.throws or p.done:
        slots = [None, None, None]
        for slot, value in p.public:
            if 0 <= slot < 3:
                slots[slot] = value
        label = Text(tr(lang, "card.covered") if p.done else "")
        return dice_cells(slots, ["aside" if v else "empty" for v in slots]), [label]
    return Text(""), [Text("")]


# --- the header, the banner and the last round's result ----------------------------------------------------
def phase_line(lang, st, phase, mode, turn, middle=None, number=None):
    """The header's first line: phase and round (``number``, as people count rounds: a throw-off has none);
    beside them the middle (``middle``, the state's by default) and the rules where the screen has no room
    for the middle's large digits; on the smallest screens the middle and the turn (``turn_line``), the
    rules go to the halves' line."""
    head = Text(tr(lang, "board." + phase), style="bold")   # board.setup, board.half1, ...
    if number is not None and phase not in ("over", "throw_off"):
        head.append("  ·  " + tr(lang, "board.round_no", n=number), style="")
    if mode != "big" and st is not None:
        head.append("  ·  " + tr(lang, "board.middle_n", n=st.middle() if middle is None else middle),
                    style="bold")
        if mode == "small" and turn.plain:
            head.append("  ·  ")
            head.append(turn)
        elif mode != "small" and st.rules is not None:
            head.append("  ·  " + tr(lang, "board.rules", name=st.rules.name), style="dim")
    return head


def banner_lines(lang, st):
    """The banner's lines: the game's end, paused cups, a cup the table decides on."""
    lines = []
    if st is None:
        return lines
    if st.over:
        blatt = tr(lang, "board.blatt") if st.game is not None and st.game.blattschuss else ""
        lines.append(tr(lang, "board.game_over", name=st.name(st.loser), blatt=blatt))
        lines.append(tr(lang, "board.hint_over"))
    for seat, reason in sorted(st.paused.items()):
        lines.append(tr(lang, "board.pause", name=st.name(seat), reason=reason))
    for seat, charge in sorted(st.batteries.items()):
        if charge["low"]:
            hours = charge["hours"]
            left = tr(lang, "board.battery_left", hours=hours) if hours is not None else ""
            lines.append(tr(lang, "board.battery_low", name=st.name(seat), percent=charge["percent"],
                            left=left))
    return lines + [tr(lang, "board.asked", name=st.name(seat)) for seat in sorted(st.asked)]


def turn_line(lang, st, phase):
    """The header's second line: who is on turn with his throws, or that the cups are uncovered next."""
    if st is None or phase in ("over", "setup"):
        return Text("")
    if st.on_turn is None:
        lr = st.last_round
        ended = st.closed >= st.round or (lr is not None and lr.get("round") == st.round)
        if st.order and not ended and all(st.players[s].done for s in st.order):
            return Text(tr(lang, "board.nobody"), style="bold")
        return Text("")
    p = st.players[st.on_turn]
    return Text(tr(lang, "board.on_turn_head", name=p.name, n=p.throws, limit=throw_limit(st, p.seat)),
                style="bold green")

def result_line(lang, st, throw_off_text, short=False):
    """The last round's result (or the throw-off's), one line; ``short``: its form for a narrow screen
    ("Runde 1: Bot 3 +4 Deckel (Spieler 4: Schock 4)")."""
    if st is None:
        return ""
    if throw_off_text:
        return throw_off_text
    lr = st.last_round
    if lr is None:
        return ""
    best, worst, number = st.name(lr["best"]), st.name(lr["worst"]), st.number(lr["round"])
    if lr["deckel"] == ALL:
        key = "board.result_all_short" if short else "board.result_all"
        return Text(tr(lang, key, round=number, worst=worst, best=best), style="bold red")
    moved = sum(m[1] for m in lr["moves"])
    sources = [tr(lang, "board.from_middle") if src == "middle"
               else tr(lang, "board.from_player", name=st.name(src)) for src, _ in lr["moves"]]
    label = ""
    order, entries = lr.get("order", []), lr.get("entries", [])
    if lr["best"] in order and entries and entries[order.index(lr["best"])] is not None:
        try:
            dice, throws, hand = entries[order.index(lr["best"])]
            label = evaluate(dice, throws, hand, st.rules).label
        except Exception:
            label = ""
    return Text(tr(lang, "board.result_short" if short else "board.result", round=number, worst=worst,
                   deckel=moved, source=", ".join(sources), best=best, label=label).replace(" ()", ""))


# --- --web: the page's address, PIN and QR code -------------------------------------------------------------
def _join_info(web):
    """The web view's join data (views/web/server.WebView.join_info): url, urls, pin, qr."""
    info = getattr(web, "join_info", None)
    if info is not None:
        return info()
    return {"url": web.url, "urls": [web.url], "pin": getattr(web, "pin", None), "qr": ""}


def web_text(lang, web, qr_key):
    """The web line: the page's address, its PIN and the QR code's key."""
    if web is None:
        return ""
    info = _join_info(web)
    text = tr(lang, "board.web", url=info["url"])
    if info.get("pin"):
        text += tr(lang, "board.web_pin", pin=info["pin"])
    return text + tr(lang, "board.web_qr", qr_key=qr_key)


def qr_text(lang, web):
    """The QR code screen's text: the addresses, the QR code, the PIN, how to close it."""
    try:
        info = _join_info(web)
    except Exception as e:  # noqa: BLE001 - a code that cannot be made must not take the scoreboard down
        info = {"url": web.url, "urls": [web.url], "pin": getattr(web, "pin", None), "qr": str(e)}
    lines = [tr(lang, "board.web", url=url) for url in info.get("urls") or [info["url"]]]
    if info.get("qr"):
        lines.append(info["qr"])
    if info.get("pin"):
        lines.append(tr(lang, "board.qr_pin", pin=info["pin"]))
    lines.append(tr(lang, "board.qr_close"))
    return Text("\n".join(lines))
