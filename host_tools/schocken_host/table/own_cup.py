"""A person's own emulated cup as he sees it, and the keys the host refuses before the cup sees them.

A person at a real cup sees its LEDs: the dice set aside (orange) all the time, the dice under the cup (white)
while he holds the main button (on turn after a throw, and after his turn until the reveal; the host also
looks for him after each of his throws, table/own_looks.py), and he remembers what he saw until he throws
again. ``OwnCup`` keeps exactly that from the LED frames of that one cup (``EmulatedCup.on_frame``, called
from the cup's reader thread): the dice lying out, the dice last seen under the cup in this throw, and the
status pixel; once his cup is uncovered, his revealed throw from the table. It reads nothing else, so nobody's
hidden dice, not even the person's own unseen ones, can reach the screen.

``refusal(action)`` is the host's check of a key against the table (``state.TableState``): a shake when it is
not the person's turn, a peek or a stand before the first throw, ... It answers with the refusal's number, the
firmware's where the cup has the same refusal (texts/refusals.py: ``NOT_YOUR_TURN`` is cup.texts 0), which
``i18n.refusal`` turns into the person's language like the cup's own.

What the person's keys are doing is part of what he sees: a key the host accepted is carried out in the
cup's own time (a shake lasts most of a second, a stand is a long press), so ``acting`` shows it at once
("schüttelt …"), with the keys pressed meanwhile after it ("dann: stehen"); where the host looks under the cup
for him after each throw (``looks``, table/own_looks.py), a throw whose dice he has not seen yet reads "schaut
nach …" until that look is over (``looked``), never "verdeckt" for the moment the look takes.
"""

import threading

from schocken_host.i18n import tr
from schocken_host.links import ledframe
from schocken_host.texts import refusals

def _white(rgb):
    # A die under the cup is white; the blue seat number of a waiting cup is not a die anyone threw.
    return rgb is not None and ledframe.die_kind(rgb) == "cup" and min(rgb) > 0


class OwnCup:
    """What the person has seen of his cup. ``cup``: anything with ``last_frame`` and an ``on_frame``
    attribute (an EmulatedCup); ``seat``: his seat; ``state``: the live TableState; ``reveal_button``: he
    uncovers his cup himself after the round (`play --reveal button`), else the host uncovers every cup."""

    def __init__(self, cup, seat, state, reveal_button=False):
        self.cup = cup
        self.seat = seat
        self.state = state
        self.lock = threading.Lock()
        self.frame = None
        self.seen = {}              # slot -> face seen under the cup ...
        self.seen_at = None         # ... in this (round, throws used): another throw and it is gone
        self.listeners = []         # called after every frame (from the reader thread) and every change below
        self.doing = None           # (action, die aside) of the key being carried out (keymap), or None
        self.then = []              # (action, die aside) of keys pressed meanwhile, carried out after it
        self.looks = False          # the host looks under the cup for him after each of his throws
        self.looked = None          # the (round, throws) whose look is over (seen, skipped or failed)
        self.warned = None          # (round, throws) of a General whose Sechsen drehen was warned about
        self.reveal_button = reveal_button
        self._chained = getattr(cup, "on_frame", None)
        cup.on_frame = self._on_frame
        if getattr(cup, "last_frame", None) is not None:
            self._on_frame(cup, cup.last_frame)

    def _moment(self):
        """(round, throws) of the person's throw in play, or None while he has no throw (the LEDs then show
        nothing he threw)."""
        st = self.state
        if st is None or not st.players or self.seat >= len(st.players):
            return None
        p = st.players[self.seat]
        return (st.round, p.throws) if p.throws else None

    def _on_frame(self, cup, frame):
        info = ledframe.decode(frame)
        moment = self._moment()
        with self.lock:
            self.frame = info
            if moment is not None:
                if self.seen_at != moment:
                    self.seen, self.seen_at = {}, moment
                for slot in range(3):
                    if info["dice"][slot] and _white(info["colors"][slot]):
                        self.seen[slot] = info["dice"][slot]
        if self._chained is not None:
            self._chained(cup, frame)
        self._changed()

    def _changed(self):
        for listener in list(self.listeners):
            listener()

    # --- what his keys are doing (table/person.py) ------------------------------------------------------
    def taken(self, action):
        """A key pressed meanwhile (``intend``) is taken up now: carried out or refused."""
        for n, (then, _) in enumerate(self.then):
            if then == action:
                del self.then[n]
                self._changed()
                return

    def acting(self, action):
        """``action`` is being carried out from now on (None: nothing is)."""
        self.doing = None if action is None else (action, self._aside(action))
        self._changed()

    def intend(self, action):
        """A key pressed while another is carried out: it follows that one."""
        self.then.append((action, self._aside(action)))
        self._changed()

    def _aside(self, action):
        """Whether the die a tap presses lies aside as the key is pressed: it then takes the die back (what
        the key does is said as it was pressed, not as the die lies once the cup has done it)."""
        return action[0] == "tap" and self.dice()[action[1]][1] == "aside"

    def look_over(self, moment):
        """The host's look under the cup for the throw ``moment`` is over: it saw the dice, was not made
        (another throw came first, he uncovers the cup himself) or failed."""
        self.looked = moment
        self._changed()

    def doing_text(self, lang):
        """"schüttelt …", "stehen … · dann: spicken": what his keys are doing, or ""."""
        words = [self._action_text(lang, *a) for a in ([self.doing] if self.doing else []) + self.then]
        if not words:
            return ""
        return " · ".join([words[0]] + [tr(lang, "own.then", what=w) for w in words[1:]])

    def _action_text(self, lang, action, aside):
        if action[0] == "tap":
            return tr(lang, "own.doing_back" if aside else "own.doing_aside", n=action[1] + 1)
        return tr(lang, "own.doing_" + action[0])

    def dice(self):
        """[(face or None, kind)] per slot: kind "aside" (lying out), "cup" (under the cup, seen in this
        throw, or uncovered: his revealed throw is everyone's to see) or "empty" (under the cup, not seen)."""
        moment = self._moment()
        revealed = self.state.players[self.seat].revealed if moment is not None else None
        if revealed is not None:
            return [(face, "cup") for face in revealed["dice"]]
        with self.lock:
            info, seen = self.frame, dict(self.seen) if self.seen_at == moment else {}
        out = []
        for slot in range(3):
            face = info["dice"][slot] if info and moment else None
            if face and ledframe.die_kind(info["colors"][slot]) == "aside":
                out.append((face, "aside"))
            elif slot in seen:
                out.append((seen[slot], "cup"))
            else:
                out.append((None, "empty"))
        return out

    def status(self, lang):
        """(color name, meaning) of the status pixel, or None before the first frame and while it is off
        (an unlit pixel says nothing: no "aus – -")."""
        with self.lock:
            info = self.frame
        if not info or ledframe.status_name(info["status"]) == "off":
            return None
        name = ledframe.status_name(info["status"])
        # "Wurf 1 · allein vor dem Zug: ...": a table's cup is never alone (the led. texts of texts/cup.py)
        return tr(lang, "led." + name), tr(lang, "led.%s_means" % name).split(" · ")[0]

    def describe(self, lang):
        """What the person knows of his cup: "beiseite 1 · unter dem Becher gesehen 4 6" (or covered, or not
        thrown yet)."""
        if self._moment() is None:
            return tr(lang, "own.none")
        revealed = self.state.players[self.seat].revealed
        if revealed is not None:
            return tr(lang, "own.revealed", dice=" ".join(str(f) for f in revealed["dice"]),
                      label=revealed["label"])
        dice = self.dice()
        parts = []
        aside = [str(f) for f, kind in dice if kind == "aside"]
        if aside:
            parts.append("%s %s" % (tr(lang, "own.aside"), " ".join(aside)))
        seen = [str(f) for f, kind in dice if kind == "cup"]
        if seen:
            parts.append("%s %s" % (tr(lang, "own.seen"), " ".join(seen)))
        elif any(kind == "empty" for _, kind in dice):
            looking = self.looks and self.looked != self._moment()
            parts.append(tr(lang, "own.looking" if looking else "own.covered"))
        return " · ".join(parts)

    def summary(self, lang):
        """One line for --plain: "Dein Becher: beiseite 1 · unter dem Becher gesehen 4 6"."""
        return "%s: %s" % (tr(lang, "own.title"), self.describe(lang))

    # --- the host's check of a key ---------------------------------------------------------------------
    def refusal(self, action):
        """The refusal (its number: texts/refusals.py) of a key the table does not allow now, or None. Only
        what the host knows for sure; everything else the cup decides (and says why)."""
        kind = action[0]
        st = self.state
        if kind == "quit":
            return None
        if st is None or not st.players:
            return refusals.NOT_YOUR_TURN   # the game has not begun
        if st.over:
            return refusals.GAME_OVER
        p = st.players[self.seat]
        if kind == "reveal":
            if not self.reveal_button:
                return refusals.TABLE_REVEALS   # the host uncovers every cup at once: r does nothing
            if not p.done or p.revealed is not None:
                return refusals.NOTHING_TO_REVEAL
            if not all(st.players[s].done for s in st.order):
                return refusals.ROUND_NOT_OVER
            return None
        if kind == "peek" and p.done and p.throws:
            # His cup hides his dice from the others, not from him: he looks until the reveal (and after it a
            # press changes nothing: they are open).
            return None
        if p.done:
            return refusals.TURN_OVER
        if st.on_turn != self.seat:
            return refusals.NOT_YOUR_TURN
        if kind == "shake":
            # The last permitted throw stands the cup by itself (done above), so only a full table is left.
            if p.throws and len(p.public) >= 3:
                return refusals.CUP_EMPTY
            return None
        if not p.throws:
            return refusals.THROW_FIRST
        return None

    def warns(self, action):
        """True when ``action`` must be said before it is done: Sechsen drehen on a General (three sixes he
        knows of, set aside or seen under the cup) gives the General up. The first press of the key only
        warns; the next press of a Sechsen drehen key in the same throw turns the sixes."""
        if action[0] != "long":
            return False
        moment = self._moment()
        faces = [face for face, kind in self.dice() if kind != "empty"]
        if moment is None or faces != [6, 6, 6] or self.warned == moment:
            return False
        self.warned = moment
        return True

