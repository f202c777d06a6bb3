"""One player's card on the scoreboard: the ``PlayerCard`` widget (name, Deckel in large digits, status, dice,
label, flag) and ``card_info``, which works out from a ``state.TableState`` what the card shows;
``ShownThrows`` keeps the revealed throws of the last ranked round (or throw-off) for the cards until the next
round's first throw."""

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.widgets import Digits, Static

from schocken.throws import ALL

from schocken_host.i18n import tr
from schocken_host.views import fitting
from schocken_host.views.scoreboard.dice import FACES, dice_text, plain_text


class PlayerCard(Vertical):
    """One player: name, Deckel (large), status, dice, label, flag."""

    def __init__(self, seat, info=None):
        super().__init__(id="seat-%d" % seat, classes="card")
        self.seat = seat
        self.info = info or {}

    def compose(self) -> ComposeResult:
        info = self.info
        yield Static(info.get("name", ""), classes="name")
        with Horizontal(classes="deckel-row"):
            yield Digits(info.get("deckel", "0"), classes="deckel")
            yield Static(info.get("deckel_caption", ""), classes="deckel-caption")
        yield Static(info.get("status", ""), classes="status")
        yield Static(info.get("dice", ""), classes="dice")
        yield Static(info.get("label", ""), classes="label")
        flag = Static(info.get("flag", ""), classes="flag")
        flag.display = bool(info.get("flag"))
        yield flag

    def show(self, info):
        self.info = info
        for cls in ("on-turn", "out", "cheat", "paused", "loser", "done", "best", "worst"):
            self.set_class(bool(info.get(cls)), "-" + cls)
        try:
            self.query_one(".name", Static).update(info["name"])
            self.query_one(".deckel", Digits).update(info["deckel"])
            self.query_one(".deckel-caption", Static).update(info["deckel_caption"])
            self.query_one(".status", Static).update(info["status"])
            self.query_one(".dice", Static).update(info["dice"])
            self._fit_label()
            flag = self.query_one(".flag", Static)
            flag.update(info["flag"])
            flag.display = bool(info["flag"])
        except NoMatches:
            pass  # not composed yet: compose() reads self.info

    def on_resize(self):
        self._fit_label()

    def _fit_label(self):
        """The label's longest form that fits the card in two lines (a result is shortened by rule, never
        cut, and never broken between a word and its number)."""
        try:
            label = self.query_one(".label", Static)
        except NoMatches:
            return
        forms = self.info.get("label_forms") or [self.info.get("label", "")]
        width = self.content_region.width or label.size.width
        self.info["label"] = fitting.fit_lines(forms, width) if width else forms[0]
        label.update(self.info["label"])

    def text(self):
        """Everything the card shows, as plain text (for tests and screen readers)."""
        i = self.info
        return "\n".join([plain_text(i.get("name", "")),
                          "%s %s" % (i.get("deckel", ""), i.get("deckel_caption", "")),
                          plain_text(i.get("status", "")), plain_text(i.get("label", "")),
                          plain_text(i.get("flag", ""))])


class ShownThrows:
    """The revealed throws of the last round ranked or throw-off decided, for the cards until the next round's
    first throw: the next round's turn clears the table's reveals (``state.Player.new_round``), and the table
    still has to see what everyone had, who took the Deckel, and, when the round ended a half, that half as it
    ended (its Deckel, its loser: the state has begun the next half by then). Fed every event after it was
    applied (``seen``)."""

    def __init__(self):
        self.round = None           # the round (or throw-off) whose throws are kept
        self.throws = {}            # seat -> its revealed throw (state.Player.revealed)
        self.half = None            # (phase, seat): the half that round decided
        self.ended = None           # that half as it ended (state.TableState.ended_half)

    def seen(self, st, ev):
        kind = ev.get("ev")
        if kind in ("round", "throw_off"):
            self.round = ev.get("round")
            self.throws = {p.seat: dict(p.revealed) for p in st.players if p.revealed}
            self.half = self.ended = None
        elif kind == "half_lost":
            self.half = (ev.get("phase"), ev.get("seat"))
            ended = st.ended_half
            self.ended = ended if ended is not None and ended["phase"] == ev.get("phase") else None
        elif kind in ("progress", "done", "replay_round", "start") and ev.get("round") != self.round:
            # the next round's first throw: its own dice from now on
            self.round, self.throws, self.half, self.ended = None, {}, None, None

    def deckel(self, st, seat):
        """The Deckel ``seat`` shows: as the half ended while it is kept, else as the state has them."""
        if self.ended is not None and not st.over:
            return self.ended["deckel"].get(seat, 0)
        return st.deckel(seat)

    def middle(self, st):
        return self.ended["middle"] if self.ended is not None and not st.over else st.middle()

    def number(self, st):
        """The round the header names: the kept round while the half it ended is kept, else the round in
        play (``state.TableState.number``)."""
        return st.number(self.round) if self.ended is not None and not st.over else st.number()

    def phase(self, st):
        """The phase the screen shows: the half that ended while it is kept."""
        return self.ended["phase"] if self.ended is not None and not st.over else st.phase()

    def is_kept(self, round_id):
        return round_id is not None and round_id == self.round

    def with_half(self, lang, st, result):
        """The round's result line (``result``), and the half it decided while its throws are kept: "… – Ben
        verliert die 1. Hälfte." The game's end has its banner."""
        if self.half is None or self.half[0] not in ("half1", "half2") or st is None:
            return result
        line = result.copy() if isinstance(result, Text) else Text(str(result))
        line.append(" " + tr(lang, "board.half_lost_now", name=st.name(self.half[1]),
                             half=tr(lang, "board." + self.half[0])), style="bold")
        return line

    def kept(self, p):
        """The kept throw of player ``p`` while he has nothing of the round in play to show, else None."""
        if self.round is None or p.revealed or p.throws or p.done or p.public:
            return None
        return self.throws.get(p.seat)

    def kept_label(self, lang, st):
        """"Runde 9:" (or "Auswürfeln:") before a kept throw: the round it is from, as people count."""
        number = st.number(self.round)
        return tr(lang, "card.kept", n=number) if number is not None else tr(lang, "card.kept_throw_off")


def throw_forms(lang, r, kept=""):
    """A revealed throw's label in its forms, longest first, for the room there is: "Runde 9: ⚀⚀⚁ Schock 2 ·
    1 Wurf, zusammengewürfelt", ..., "Schock 2 · 1 W.", "Schock 2" (never cut inside a word). What goes
    first: the die faces (the card draws the dice anyway), then "zusammengewürfelt", then the throws in full,
    then the round it is from. ``kept``: that round ("Runde 9:"), while the throw is kept from the last
    round."""
    n = r["throws"]
    throws = " · " + tr(lang, "card.throws_1" if n == 1 else "card.throws", n=n)
    short = " · " + tr(lang, "card.throws_short", n=n)
    built = "" if r["hand"] else ", " + tr(lang, "card.built")
    faces = "".join(FACES[v - 1] for v in r["dice"] if 1 <= v <= 6) + " "
    shapes = [(kept, faces, throws + built), (kept, "", throws + built), (kept, "", throws),
              (kept, "", short), ("", "", short), ("", "", "")]
    forms = []
    for head, dice, tail in shapes:
        line = Text(head + " " if head else "", style="dim")
        line.append(dice + r["label"], style="bold")
        line.append(tail)
        if line.plain not in [form.plain for form in forms]:
            forms.append(line)
    return forms


def _revealed_text(lang, r, kept=""):
    """(dice, label forms) of a revealed throw: its dice all white, "642 · 1 Wurf" and its shorter forms."""
    return dice_text(list(r["dice"]), ["cup"] * 3), throw_forms(lang, r, kept)


def throw_limit(st, seat):
    """How many throws ``seat`` may use this round: the opener the rule's maximum, the others his count."""
    max_throws = st.rules.max_throws if st.rules is not None else 3
    if st.round_kind == "throw_off":
        return st.limit or 1
    if st.order and seat == st.order[0]:
        return max_throws
    return st.limit or max_throws


def halves_line(lang, st):
    """Who lost which half so far."""
    if st is None or st.game is None:
        return ""
    names = ["%s: %s" % (tr(lang, "board.half1" if i == 0 else "board.half2"), st.name(seat))
             for i, seat in enumerate(st.half_losers)]
    return tr(lang, "board.halves", list=" · ".join(names) if names else tr(lang, "board.none_yet"))


def card_info(lang, st, p, phase, shown=None):
    """What the card of player ``p`` shows in ``phase`` (in ``lang``): the ``info`` of ``PlayerCard.show``.
    ``shown`` (a ShownThrows): the last ranked round's throws, shown until the next round's first throw,
    with who took the Deckel and the Deckel of a half that round ended."""
    shown = shown or ShownThrows()
    seat = p.seat
    name = Text("%d  %s" % (seat + 1, p.name), style="bold")
    if is_bot_unnamed(p):
        name.append(tr(lang, "card.bot"), style="dim")
    charge = st.batteries.get(seat)
    if charge is not None:  # the cup's charge (links/battery.py), once the table has heard of it
        text = tr(lang, "card.usb") if charge["usb"] else tr(lang, "card.battery", percent=charge["percent"])
        name.append(text, style="bold red" if charge["low"] else "dim")
    info = {"name": name, "deckel": str(shown.deckel(st, seat)), "deckel_caption": tr(lang, "card.deckel")}
    in_play = phase in ("half1", "half2", "final")
    out = in_play and not st.in_half(seat)
    watches = phase == "throw_off" and st.game is not None and seat not in st.game.throw_off_seats
    on_turn = st.on_turn == seat and phase != "over"
    loser = st.over and st.loser == seat
    paused = seat in st.paused
    # The verdict of the last round ranked, while it is the round in play or its throws are kept.
    lr = st.last_round
    ranked = lr is not None and (lr.get("round") == st.round or shown.is_kept(lr.get("round")))
    best = ranked and lr["best"] == seat
    worst = ranked and lr["worst"] == seat
    # Status line, and its short form for a narrow line (layout.player_rows).
    fields = {"n": p.throws, "limit": throw_limit(st, seat)}
    if paused:
        key, fields = "card.paused", {"reason": st.paused[seat]}
    elif loser:
        key = "card.game_lost"
    elif on_turn:
        key = "card.on_turn"
    elif worst:
        moved = sum(m[1] for m in lr["moves"])
        key, fields = ("card.worst_all", {}) if lr["deckel"] == ALL else ("card.worst", {"n": moved})
    elif best:
        key = "card.best"
    elif out:
        key = "card.out_final" if phase == "final" else "card.out"
    elif watches:
        key = "card.watches"
    elif p.done:
        key = "card.stands"
    else:
        key = None if st.over else "card.waits"
    status = tr(lang, key, **fields) if key else ""
    short = tr(lang, key + "_short", **fields) if key in SHORT_STATUS else status
    # Dice: the revealed throw, else the dice set aside (the rest still in the cup).
    forms = [Text("")]
    kept = shown.kept(p)
    if p.revealed:
        dice, forms = _revealed_text(lang, p.revealed)
    elif kept is not None:  # the last round's throw, until the next round's first: the table still looks
        dice, forms = _revealed_text(lang, kept, shown.kept_label(lang, st))
    elif p.public or p.throws or p.done:
        slots = [None, None, None]
        for slot, value in p.public:
            if 0 <= slot < 3:
                slots[slot] = value
        dice = dice_text(slots, ["aside" if v else "empty" for v in slots])
        aside = "%s: %s" % (tr(lang, "card.aside"), "-".join(str(v) for v in slots if v)) if p.public else ""
        covered = tr(lang, "card.covered") if p.done else ""
        forms = [Text(" · ".join(x for x in (aside, covered) if x))]
    else:
        dice = Text("")
    flag = tr(lang, "card.flagged", reason=p.flagged) if p.flagged else ""
    info.update({"status": status, "status_short": short, "dice": dice, "label": forms[0],
                 "label_forms": forms, "flag": flag, "on-turn": on_turn, "out": out or watches,
                 "cheat": bool(p.flagged), "paused": paused, "loser": loser, "done": p.done, "best": best,
                 "worst": worst})
    return info


SHORT_STATUS = ("card.paused", "card.game_lost", "card.on_turn", "card.out", "card.out_final", "card.stands")


def is_bot_unnamed(p):
    """A bot's seat whose name does not say so already: "(Bot)" follows it ("Bot 1" says Bot once)."""
    return getattr(p, "kind", "cup") == "bot" and "bot" not in p.name.lower()
