"""The person at the keyboard, playing his emulated cup, beside the bots: what his keys do once
views/play_keys.py has read them (an action of views/keymap.py, or a word of the table).

An action is checked against the table first (his own cup as he sees it, table/own_cup.OwnCup: a refused one
gets its reason on the screen at once), acknowledged on his panel at once, and carried out on his cup by its
hands (emulation/hands.py: the durations for that cup's long press). After each throw of his the host looks
under his cup for him (table/own_looks.py). The look and his actions take turns (one lock): an action waits
until the look has ended (its release seen, at most a few seconds) before it presses; a look never starts
inside an action's press.

The table's words: "drop N" (seat N dropped the dice: a penalty Deckel), "ein N" (seat N throws back in),
"wait N" / "forfeit N" (the table's answer about an absent seat); and for emulated cups only, for testing a
referee (docs/emulation.md): "unplug N" (seat N's cup is gone for good), "restart N" (pulled and plugged in
again), "freeze N" / "thaw N" (stops answering on an open link, and back), "cheat N KIND [always]",
"inject N JSON" (seat N misbehaves: firmware/cheat.py), "battery N MV" (seat N's battery reads MV millivolts
from now on: the table's view of its charge, links/battery.py)."""

import asyncio
import contextlib

from schocken_host.emulation.emulator import SHAKE_MS
from schocken_host.emulation.hands import Hands
from schocken_host.i18n import refusal, tr
from schocken_host.table.gamelog import LogFileError
from schocken_host.table.own_cup import OwnCup
from schocken_host.table.own_looks import start_looks
from schocken_host.texts import refusals

# Refusals no action before it can make right: a key pressed meanwhile is refused at once.
FINAL_REFUSALS = (refusals.TURN_OVER, refusals.NOT_YOUR_TURN, refusals.GAME_OVER, refusals.TABLE_REVEALS)
TABLE_WORDS = {"drop": "penalty", "ein": "einwuerfeln", "wait": "wait", "forfeit": "forfeit"}
EMULATION_WORDS = ("unplug", "restart", "freeze", "thaw", "cheat", "inject", "battery")

_NO_LOOKS = contextlib.nullcontext()   # an action with no looks to wait for


class Person:
    """The person at ``cup`` (an EmulatedCup of ``table``, or None: nobody plays from the keyboard, and only
    the table's words count). ``own``: his cup as he sees it, handed to the view (``View.person``)."""

    def __init__(self, cup, referee, table=None):
        self.cup = cup
        self.referee = referee
        self.table = table
        self.turns = asyncio.Lock()    # the looks under his cup and his actions take turns
        self.hands = Hands(cup) if cup is not None else None
        seat = table.seat_of.get(cup.cup_id) if cup is not None and table is not None else None
        self.own = None
        if seat is not None:
            self.own = OwnCup(cup, seat, referee.state, reveal_button=referee.reveal_mode == "button")
            referee.ui.person(self.own)
        self.looks = start_looks(cup, referee, self.own, self.turns)

    def close(self):
        if self.looks is not None:
            self.looks.cancel()

    def busy(self):
        """An earlier action is still carried out, or waits for it."""
        return self.own is not None and self.own.doing is not None

    def refuse(self, why):
        """An action the table refuses: its reason on the screen at once, in the view's language."""
        ui = self.referee.ui
        reason = refusal(ui.lang, why)
        if not ui.refused(self.own.seat, reason):
            ui.note(tr(ui.lang, "play.refused", name=self.referee.state.name(self.own.seat), reason=reason))

    def meanwhile(self, action):
        """An action while an earlier one is carried out: True when it is answered now and dropped (the same
        shake or stand again, or one no earlier action can make right: refused), else it is shown as following
        the earlier one (False: it waits its turn)."""
        own = self.own
        pressed = [a for a, _ in ([own.doing] if own.doing else []) + own.then]
        if pressed and action == pressed[-1] and action[0] in ("shake", "stand"):
            why = refusals.IN_THE_AIR if action[0] == "shake" else refusals.TURN_OVER
        else:
            why = own.refusal(action)
            if why not in FINAL_REFUSALS:
                why = None   # an action before it may still make it right (a peek after the shake in the air)
        if why is not None:
            self.refuse(why)
            return True
        own.intend(action)
        return False

    def word(self, words, line):
        """A word of the table (``words``: the line split); False when the line is none."""
        referee = self.referee
        if len(words) == 2 and words[0] in TABLE_WORDS and words[1].isdigit():
            referee.request(TABLE_WORDS[words[0]], int(words[1]) - 1)
            return True
        if len(words) >= 2 and words[0] in EMULATION_WORDS and words[1].isdigit() and self.table is not None:
            self._emulation_word(line, words)
            return True
        return False

    def decide(self, decision):
        """The table's answer ("wait" or "forfeit") about the seat it was asked about; False when it was asked
        nothing."""
        asked = self.referee.state.asked
        if asked:
            self.referee.request(decision, min(asked))
        return bool(asked)

    async def act(self, action):
        """Carry out an action of his cup. One the table refuses gets its reason at once; one it accepts is
        acknowledged on his panel at once (OwnCup.acting), before it waits for a look under his cup to end and
        for the cup's own time of the press: a shake takes most of a second, a stand a long press."""
        own = self.own
        try:
            if self.cup is None:
                return
            if own is not None:
                own.taken(action)
                why = own.refusal(action)
                if why is not None:
                    self.refuse(why)
                    return
                if own.warns(action):   # Sechsen drehen on a General: said first, done at the next press
                    self.refuse(refusals.GIVES_UP_GENERAL)
                    return
                own.acting(action)
            async with self.turns if own is not None else _NO_LOOKS:
                if own is not None:
                    # The look under his cup may have taken a while: the table may have moved on meanwhile.
                    why = own.refusal(action)
                    if why is not None:
                        own.acting(None)
                        self.refuse(why)
                        return
                if action[0] == "shake":
                    # The screen shows his turn before the log has it on disk, and his cup hears of it only
                    # after (cuplinks._raw_send): a shake pressed on the screen's word waits for the disk too,
                    # or it reaches his cup before its turn does ("not your turn").
                    with contextlib.suppress(LogFileError):  # a log that cannot be written ends the game
                        await self.referee.sink.on_disk()
                await self._press(action)
        finally:
            if own is not None:
                own.acting(None)

    async def _press(self, action):
        hands, own = self.hands, self.own
        if action[0] == "shake":
            p = own.state.players[own.seat] if own is not None else None
            before = (p.throws, p.done) if p is not None else None
            hands.act(action)
            if p is not None:
                # The next action waits for the throw to land: a peek while the dice still roll would show
                # the last throw, or be refused before the first.
                loop = asyncio.get_running_loop()
                end = loop.time() + hands.wall_s(SHAKE_MS) + 3.0
                while (p.throws, p.done) == before and loop.time() < end:
                    await asyncio.sleep(0.02)
            return
        # Held and released in a thread: a busy event loop (a redraw) cannot stretch a peek into a stand, and
        # a press that has begun always ends with its release.
        await asyncio.to_thread(hands.act, action)

    def _emulation_word(self, line, words):
        seat = int(words[1]) - 1
        for emu in self.table.cups:
            if self.table.seat_of.get(emu.cup_id) != seat:
                continue
            if words[0] in ("unplug", "restart", "freeze", "thaw") and len(words) == 2:
                getattr(emu, words[0])()
            elif words[0] == "cheat" and len(words) in (3, 4) or words[0] == "battery" and len(words) == 3:
                emu.control(" ".join(words[0:1] + words[2:]))
            elif words[0] == "inject":
                emu.control("inject " + line.strip().split(None, 2)[2])
