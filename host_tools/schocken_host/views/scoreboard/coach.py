"""The coach's line on the scoreboard (`schocken play --coach`): for the seat on turn, what table/coach.py
says from the public table, in words (``coach_text``). Hidden without --coach."""

from rich.text import Text
from textual.widgets import Static

from schocken_host.i18n import tr
from schocken_host.table.coach import Coach


def number(lang, value, digits=1):
    text = "%.*f" % (digits, value)
    return text.replace(".", ",") if lang == "de" else text


def percent(lang, p):
    """A chance as a percentage: "37 %", below 1 % with one decimal ("0,4 %")."""
    return number(lang, 100 * p, 0 if p >= 0.01 or p == 0 else 1) + " %"


def coach_text(lang, advice, name):
    """The coach's line for an answer of ``Coach.advice`` ("" when nobody is on turn)."""
    if advice is None:
        return ""
    head = tr(lang, "coach.head", name=name)
    if advice.get("error"):
        return head + tr(lang, "coach.error", error=advice["error"])
    if advice.get("pending"):
        return head + tr(lang, "coach.pending")
    if advice.get("expected") is None:
        return head + tr(lang, "coach.last")
    parts = []
    again = advice["throws"] > 0
    if advice["first"]:
        parts.append(tr(lang, "coach.opener"))
    else:
        parts.append(tr(lang, "coach.chance_again" if again else "coach.chance",
                        chance=percent(lang, advice["chance"])))
    if again and advice["aside"]:
        parts.append(tr(lang, "coach.aside", aside="-".join(str(v) for v in advice["aside"])))
    parts.append(tr(lang, "coach.expected", deckel=number(lang, advice["expected"])))
    if advice.get("stand"):
        parts.append(tr(lang, "coach.stand", label=advice["stand"]))
    return head + " · ".join(parts)


class CoachLine(Static):
    """The line under the header; with ``on`` False it is hidden and computes nothing."""

    def __init__(self, lang, on=False):
        super().__init__("", id="coach")
        self.lang = lang
        self.state = None
        self.coach = Coach(on_ready=self._ready, on_error=self._failed) if on else None
        self.display = on

    def redraw(self, st):
        self.state = st
        if self.coach is None or st is None:
            return
        advice = self.coach.advice(st)
        name = st.name(advice["seat"]) if advice is not None and advice.get("seat") is not None else ""
        self.update(Text(coach_text(self.lang, advice, name), style="italic"))

    def _ready(self):
        if self.is_mounted:
            self.redraw(self.state)

    def _failed(self, error):
        self.app.note(tr(self.lang, "coach.failed", error=error))
