"""The keys of a person at a `schocken play` table: read from the scoreboard (``ui_keys``) or from standard
input (``keyboard``, --plain), through the one key map of views/keymap.py, checked against the table first (a
refused key gets its reason on the screen at once) and carried out on the person's emulated cup with the
durations keymap.hold_ms gives for that cup's long press. The person's own cup, as he sees it, goes to the UI
(own_cup.OwnCup, with the key help).

After each throw of his the host looks under his cup for him (views/own_looks.py). The look and his keys
take turns (one lock): a key is answered at once (its reason, or what it is doing), then waits until the look
has ended (its release seen, at most a few seconds) before it presses; a look never starts inside a key's
press."""

import asyncio
import contextlib
import os
import sys

from schocken_host.views import keymap
from schocken_host.i18n import refusal, tr
from schocken_host.table.gamelog import LogFileError
from schocken_host.texts import refusals
from schocken_host.views.own_cup import OwnCup
from schocken_host.views.own_looks import start_looks


async def ui_keys(queue, cup, referee, table=None):
    """Keys the scoreboard forwards (it owns the terminal and binds the quit keys itself), read through the
    one key map (views/keymap.py) like the lines of standard input."""
    await _serve(queue.get, cup, referee, table)


def keyboard(cup, referee, table=None):
    """The human at an emulated table: keys as lines on standard input (views/keymap.py; a line with nothing
    on it is the Enter key); and the table's word: "drop N" (seat N dropped the dice: a penalty Deckel),
    "ein N" (seat N throws back in). A quit key, or the end of the input while a person plays, stops the game:
    play()'s task, the one calling this, is cancelled (commands/play.py then says how to continue)."""
    return _read_lines(asyncio.current_task(), cup, referee, table)


_LINE_MAX = 1024  # bytes of a typed line that are kept: the rest of a longer one is read and dropped


async def _read_lines(game, cup, referee, table):
    loop = asyncio.get_running_loop()
    lines = asyncio.Queue()
    fd = sys.stdin.fileno()
    pending = bytearray()  # a line whose end has not come yet: a read ends anywhere, in a word or a character

    def readable():
        data = os.read(fd, 4096)
        pending.extend(data if data else b"\n" if pending else b"")  # the end of input ends the last line
        while True:
            end = pending.find(b"\n")
            if end < 0:
                break
            line = bytes(pending[:min(end, _LINE_MAX)]).decode(errors="replace").rstrip("\r")
            lines.put_nowait(line if line.strip() else "enter")
            del pending[:end + 1]
        del pending[_LINE_MAX:]
        if not data:
            loop.remove_reader(fd)
            lines.put_nowait(None)
    loop.add_reader(fd, readable)  # no reader thread: nothing blocks the host's exit
    try:
        ended = await _serve(lines.get, cup, referee, table, lines_typed=True)
    finally:
        loop.remove_reader(fd)
    if ended == "quit" or cup is not None:
        await _stop(game)  # a quit key, or the person has left the keyboard: nobody can play his cup


async def _serve(next_key, cup, referee, table, lines_typed=False):
    """The keys ``next_key()`` gives (None: the input has ended), until a quit key ("quit") or the end of
    the input ("end"). Each key is answered as it comes: a key pressed while an earlier one is still carried
    out (a shake lasts most of a second, a stand is a long press) is shown after it at once and carried out
    in its turn; the same shake or stand again meanwhile is refused (a newcomer presses twice when nothing
    seems to happen). ``lines_typed``: the keys are typed lines (--plain), and a line that is no key is said
    to be none."""
    own = _person(cup, referee, table)
    turns = asyncio.Lock()
    looks = start_looks(cup, referee, own, turns)
    keys = asyncio.Queue()
    quit_key = asyncio.get_running_loop().create_future()

    async def carry_out():
        while True:
            key = await keys.get()
            done = await _safe_key(key, cup, referee, table, own, turns)
            if done == "quit":
                quit_key.set_result("quit")
                return
            if done == "unknown" and lines_typed:  # a typed line that is neither a key nor a table word
                lang = getattr(referee.ui, "lang", "de")
                referee.ui.note(tr(lang, "play.unknown_input", line=key.strip()[:40]))
            shown = getattr(referee.ui, "show_own_cup", None)
            if shown is not None and lines_typed:
                shown()
    worker = asyncio.ensure_future(carry_out())
    got = None
    try:
        while True:
            got = asyncio.ensure_future(next_key())
            await asyncio.wait({got, quit_key}, return_when=asyncio.FIRST_COMPLETED)
            if quit_key.done():
                got.cancel()
                return "quit"
            key = got.result()
            if key is None:
                return "end"
            busy = own is not None and (own.doing is not None or not keys.empty())
            if busy and _meanwhile(key, own, referee):
                continue
            keys.put_nowait(key)
    finally:
        if got is not None:
            got.cancel()
        worker.cancel()
        if looks is not None:
            looks.cancel()


FINAL_REFUSALS = (refusals.TURN_OVER, refusals.NOT_YOUR_TURN, refusals.GAME_OVER, refusals.TABLE_REVEALS)


def _meanwhile(key, own, referee):
    """A key pressed while an earlier one is carried out: True when it is answered now and dropped (the
    same shake or stand again, or a key no earlier key can make right: refused), else it is shown as
    following the earlier one (False: queued)."""
    action = keymap.action_for(key)
    if action is None or action[0] == "quit":
        return False
    pressed = [a for a, _ in ([own.doing] if own.doing else []) + own.then]
    if pressed and action == pressed[-1] and action[0] in ("shake", "stand"):
        why = refusals.IN_THE_AIR if action[0] == "shake" else refusals.TURN_OVER
    else:
        why = own.refusal(action)
        if why not in FINAL_REFUSALS:
            why = None   # a key before it may still make it right (a peek after the shake in the air)
    if why is not None:
        _refused(referee, own.seat, why)
        return True
    own.intend(action)
    return False


STOP_TRIES_S = 10.0   # how long a quit key goes on cancelling the game


async def _stop(game):
    """Cancels the game's task until it has ended (bounded): Python 3.11's ``asyncio.wait_for`` loses a
    cancellation that meets the result it waits for in the same turn of the loop (it returns the result), and
    the referee waits that way for every message of a cup; so a q right as messages came in was lost, and the
    game went on."""
    loop = asyncio.get_running_loop()
    end = loop.time() + STOP_TRIES_S
    while not game.done() and loop.time() < end:
        game.cancel()
        await asyncio.wait({game}, timeout=0.2)


def _person(cup, referee, table):
    """The person's own cup as he sees it (own_cup.OwnCup), handed to the UI with the key help; None when
    nobody plays from the keyboard."""
    seat = table.seat_of.get(cup.cup_id) if cup is not None and table is not None else None
    if seat is None:
        return None
    own = OwnCup(cup, seat, referee.state, reveal_button=getattr(referee, "reveal_mode", "all") == "button")
    show = getattr(referee.ui, "person", None)
    if show is not None:
        show(own)
    return own


def _refused(referee, seat, why):
    """A key the table refuses: its reason on the screen at once, in the UI's language."""
    lang = getattr(referee.ui, "lang", "de")
    reason = refusal(lang, why)
    show = getattr(referee.ui, "refused", None)
    if show is not None:
        show(seat, reason)
    else:
        referee.ui.note(tr(lang, "play.refused", name=referee.state.name(seat), reason=reason))


async def _safe_key(key, cup, referee, table, own, turns):
    # A key that fails (the cup was just unplugged, ...) is reported; the keyboard must outlive it.
    try:
        return await _key(key, cup, referee, table, own, turns)
    except (OSError, ValueError, IndexError, KeyError) as e:
        referee.ui.note("%r: %s" % (key, e))
        return None
    finally:
        if own is not None:
            own.acting(None)


async def _key(key, cup, referee, table=None, own=None, turns=None):
    """Carry out one key (or a table word); returns "quit" for a quit key, "unknown" for what is neither a
    key nor a table word, else None. A key the table refuses gets its reason at once; one it accepts is
    acknowledged on his panel at once (own_cup.OwnCup.acting), before it waits for a look under his cup to
    end (``turns``) and for the cup's own time of the press: a shake takes most of a second, a stand a long
    press."""
    words = key.split()
    if len(words) == 2 and words[0] in ("drop", "ein", "wait", "forfeit") and words[1].isdigit():
        what = {"drop": "penalty", "ein": "einwuerfeln"}.get(words[0], words[0])
        referee.request(what, int(words[1]) - 1)
        return None
    if key.strip().lower() in DECISION_KEYS and referee.state.asked:
        # The scoreboard has no line to type "forfeit N" into: w / f rule on the seat the table was asked
        # about.
        referee.request(DECISION_KEYS[key.strip().lower()], min(referee.state.asked))
        return None
    if len(words) >= 2 and words[0] in EMULATION_WORDS and words[1].isdigit() and table is not None:
        return _emulation_word(key, words, table)
    action = keymap.action_for(key)
    if action is None:
        return "unknown"
    if action[0] == "quit":
        return "quit"
    if cup is None:
        return None
    if own is not None:
        own.taken(action)
        why = own.refusal(action)
        if why is not None:
            _refused(referee, own.seat, why)
            return None
        if own.warns(action):   # Sechsen drehen on a General: said first, done at the next press of the key
            _refused(referee, own.seat, refusals.GIVES_UP_GENERAL)
            return None
        own.acting(action)
    async with turns or _NO_LOOKS:
        if own is not None:
            # The look under his cup may have taken a while: the table may have moved on meanwhile.
            why = own.refusal(action)
            if why is not None:
                own.acting(None)
                _refused(referee, own.seat, why)
                return None
        if action[0] == "shake":
            # The screen shows his turn before the log has it on disk, and his cup hears of it only after
            # (cuplinks._raw_send): a shake pressed on the screen's word waits for the disk too, or it
            # reaches his cup before its turn does ("not your turn").
            with contextlib.suppress(LogFileError):  # a log that cannot be written: the referee ends the game
                await referee.sink.on_disk()
        await _press(cup, action, own)
    return None


_NO_LOOKS = contextlib.nullcontext()   # a key with no person's looks to wait for


DECISION_KEYS = {"w": "wait", "f": "forfeit"}
# Emulated cups only, for testing a referee (docs/emulation.md): "unplug N" (seat N's cup is gone for good),
# "restart N" (pulled and plugged in again), "freeze N" / "thaw N" (stops answering on an open link, and
# back), "cheat N KIND [always]", "inject N JSON" (seat N misbehaves: firmware/cheat.py), "battery N MV" (seat
# N's battery reads MV millivolts from now on: the table's view of its charge, links/battery.py).
EMULATION_WORDS = ("unplug", "restart", "freeze", "thaw", "cheat", "inject", "battery")


def _emulation_word(key, words, table):
    seat = int(words[1]) - 1
    for emu in table.cups:
        if table.seat_of.get(emu.cup_id) != seat:
            continue
        if words[0] in ("unplug", "restart", "freeze", "thaw") and len(words) == 2:
            getattr(emu, words[0])()
        elif words[0] == "cheat" and len(words) in (3, 4) or words[0] == "battery" and len(words) == 3:
            emu.control(" ".join(words[0:1] + words[2:]))
        elif words[0] == "inject":
            emu.control("inject " + key.strip().split(None, 2)[2])
    return None


async def _press(cup, action, own):
    """One key's presses on the person's cup, with the durations of keymap.hold_ms for this cup's long
    press."""
    if action[0] == "shake":
        p = own.state.players[own.seat] if own is not None else None
        before = (p.throws, p.done) if p is not None else None
        cup.shake(keymap.SHAKE_MS)
        if p is not None:
            # The next key waits for the throw to land: a peek while the dice still roll would show the last
            # throw, or be refused before the first.
            end = asyncio.get_running_loop().time() + keymap.SHAKE_MS / 1000 + 3.0
            while (p.throws, p.done) == before and asyncio.get_running_loop().time() < end:
                await asyncio.sleep(0.02)
        return
    hold = keymap.hold_ms(action, getattr(cup, "long_ms", None) or keymap.FIRMWARE_LONG_MS)
    # Held and released in a thread: a busy event loop (a redraw) cannot stretch a peek into a stand, and a
    # press that has begun always ends with its release.
    await asyncio.to_thread(cup.press, keymap.button(action), hold, keymap.GAP_MS)
