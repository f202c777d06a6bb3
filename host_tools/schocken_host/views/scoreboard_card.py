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
from schocken_host.views.scoreboard_view import dice_text, faces, plain_text


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
            self.query_one(".label", Static).update(info["label"])
            flag = self.query_one(".flag", Static)
            flag.update(info["flag"])
            flag.display = bool(info["flag"])
        except NoMatches:
            pass  # not composed yet: compose() reads self.info

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
    still has to see what everyone had. Fed every event after it was applied (``seen``)."""

    def __init__(self):
        self.round = None           # the round (or throw-off) whose throws are kept
        self.throws = {}            # seat -> its revealed throw (state.Player.revealed)
        self.half = None            # (phase, seat): the half that round decided

    def seen(self, st, ev):
        kind = ev.get("ev")
        if kind in ("round", "throw_off"):
            self.round = ev.get("round")
            self.throws = {p.seat: dict(p.revealed) for p in st.players if p.revealed}
            self.half = None
        elif kind == "half_lost" and self.round is not None:
            self.half = (ev.get("phase"), ev.get("seat"))
        elif kind in ("progress", "done", "replay_round", "start") and ev.get("round") != self.round:
            # the next round's first throw: its own dice from now on
            self.round, self.throws, self.half = None, {}, None

    def with_half(self, lang, st, result):
        """The round's result line (``result``), and the half it decided while its throws are kept: "… – Ben
        verliert die 1. Hälfte." (the Deckel and the phase show the new half already). The game's end has its
        banner."""
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


def _revealed_text(lang, r):
    """(dice, label) of a revealed throw: its dice all white, "6-4-2 642 · 1 Wurf"."""
    dice = dice_text(list(r["dice"]), ["cup"] * 3)
    throws = tr(lang, "card.throws_1" if r["throws"] == 1 else "card.throws", n=r["throws"])
    label = Text("%s %s" % (faces(r["dice"]), r["label"]), style="bold")
    label.append(" · " + throws + ("" if r["hand"] else ", " + tr(lang, "card.built")), style="")
    return dice, label


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
    ``shown`` (a ShownThrows): the last ranked round's throws, shown until the player's next throw."""
    seat = p.seat
    name = Text("%d  %s" % (seat + 1, p.name), style="bold")
    if getattr(p, "kind", "cup") == "bot":
        name.append(tr(lang, "card.bot"), style="dim")
    info = {"name": name, "deckel": str(st.deckel(seat)), "deckel_caption": tr(lang, "card.deckel")}
    in_play = phase in ("half1", "half2", "final")
    out = in_play and not st.in_half(seat)
    watches = phase == "throw_off" and st.game is not None and seat not in st.game.throw_off_seats
    on_turn = st.on_turn == seat and phase != "over"
    loser = st.over and st.loser == seat
    paused = seat in st.paused
    # Status line.
    if paused:
        status = tr(lang, "card.paused", reason=st.paused[seat])
    elif loser:
        status = tr(lang, "card.game_lost")
    elif out:
        status = tr(lang, "card.out")
    elif watches:
        status = tr(lang, "card.watches")
    elif on_turn:
        status = tr(lang, "card.on_turn", n=p.throws, limit=throw_limit(st, seat))
    elif p.done:
        status = tr(lang, "card.stands", n=p.throws, limit=throw_limit(st, seat))
    elif st.over:
        status = ""
    else:
        status = tr(lang, "card.waits")
    # Dice: the revealed throw, else the dice set aside (the rest still in the cup).
    label = Text("")
    lr = st.last_round
    current = lr is not None and lr.get("round") == st.round
    best = current and lr["best"] == seat
    worst = current and lr["worst"] == seat
    kept = shown.kept(p) if shown is not None else None
    if p.revealed:
        dice, label = _revealed_text(lang, p.revealed)
        # Once the round is ranked, the verdict takes the status line.
        if worst and not (paused or loser):
            moved = sum(m[1] for m in lr["moves"])
            status = tr(lang, "card.worst_all") if lr["deckel"] == ALL else tr(lang, "card.worst", n=moved)
        elif best and not (paused or loser):
            status = tr(lang, "card.best")
    elif kept is not None:  # the last round's throw, until his next: the table still looks at it
        dice, label = _revealed_text(lang, kept)
        label = Text(tr(lang, "card.kept", n=shown.round) + " ", style="dim") + label
    elif p.public or p.throws or p.done:
        slots = [None, None, None]
        for slot, value in p.public:
            if 0 <= slot < 3:
                slots[slot] = value
        dice = dice_text(slots, ["aside" if v else "empty" for v in slots])
        if p.public:
            label = Text("%s: %s" % (tr(lang, "card.aside"), "-".join(str(v) for v in slots if v)))
        if p.done:
            label.append((" · " if p.public else "") + tr(lang, "card.covered"))
    else:
        dice = Text("")
    flag = tr(lang, "card.flagged", reason=p.flagged) if p.flagged else ""
    info.update({"status": status, "dice": dice, "label": label, "flag": flag, "on-turn": on_turn,
                 "out": out or watches, "cheat": bool(p.flagged), "paused": paused, "loser": loser,
                 "done": p.done, "best": best, "worst": worst})
    return info
