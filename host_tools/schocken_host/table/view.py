"""What the table asks of a view, and several views side by side.

A view is what people see of a game: the terminal's (views/plain.py, the scoreboard), the web page
(views/web), the tournament's live report, a test's recorder. The table calls nothing but what ``View``
defines, and every method has its default here: a view overrides what it shows, and nobody asks a view by
name whether it has a method."""


class View:
    lang = "de"     # the language of the table's notes to this view
    keys = None     # an asyncio.Queue where this view reads a person's keys (the scoreboard); None: no keys

    def note(self, text):
        """A line for the people at the table (not an event: not logged)."""

    def update(self, state, ev):
        """An event, after the table's ``state`` (a TableState) applied it."""

    def refused(self, seat, reason):
        """A cup refused its person's press, ``reason`` in this view's language. False: this view does not
        show it apart, and the table says it as a note."""
        return False

    def person(self, own):
        """The person at the keyboard's own cup (table/own_cup.OwnCup), to show beside the table."""

    def show_own_cup(self):
        """The person's own cup once more, as it is now (a view that draws it all the time has nothing to do:
        --plain writes a line)."""


class Views(View):
    """Views side by side. The first (the terminal's) speaks for the table: its language, its keys, the
    refusals and the person's cup are its; what it raises reaches the sink (a note). What goes wrong in any
    other view stays there."""

    def __init__(self, first, *others):
        self.first = first
        self.others = others
        self.lang = first.lang
        self.keys = first.keys

    def note(self, text):
        self.first.note(text)

    def update(self, state, ev):
        for view in self.others:
            try:
                view.update(state, ev)
            except Exception:  # noqa: BLE001 - a view must never take the referee down with it
                pass
        self.first.update(state, ev)

    def refused(self, seat, reason):
        return self.first.refused(seat, reason)

    def person(self, own):
        self.first.person(own)

    def show_own_cup(self):
        self.first.show_own_cup()
