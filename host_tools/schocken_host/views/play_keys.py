"""The keys of a person at a `schocken play` table: read from the scoreboard (``ui_keys``) or from standard
input (``keyboard``, --plain), through the one key map of views/keymap.py, checked against the table first (a
refused key gets its reason on the screen at once) and carried out on the person's emulated cup with the
durations keymap.hold_ms gives for that cup's long press. The person's own cup, as he sees it, goes to the UI
(own_cup.OwnCup, with the key help).

His cup hides his dice from the others, not from him: after each throw of his that counts (a ``progress``
event of his seat with one throw more, also his last, after which the cup stood by itself) the host looks
under the cup for him (``_looks``), through the cup's real input: a hold of the main button as long as a peek
(keymap.hold_ms), timed by the cup's own clock, so it can never become a long press (a stand). His panel reads
the dice from the LED frames of that peek, as it reads his own peeks. The look and his keys take turns (one
lock): a key waits until the look has ended (its release seen, at most a few seconds), and a look never starts
inside a key's press."""

import asyncio
import os
import sys

from schocken_host.links import ledframe
from schocken_host.views import keymap
from schocken_host.i18n import refusal, tr
from schocken_host.views.own_cup import OwnCup


async def ui_keys(queue, cup, referee, table=None):
    """Keys the scoreboard forwards (it owns the terminal and binds the quit keys itself), read through the
    one key map (views/keymap.py) like the lines of standard input."""
    own = _person(cup, referee, table)
    turns = asyncio.Lock()
    looks = _start_looks(cup, referee, own, turns)
    try:
        while True:
            key = await queue.get()
            async with turns:
                await _safe_key(key, cup, referee, table, own)
    finally:
        if looks is not None:
            looks.cancel()


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
            lines.put_nowait(bytes(pending[:min(end, _LINE_MAX)]).decode(errors="replace").rstrip("\r"))
            del pending[:end + 1]
        del pending[_LINE_MAX:]
        if not data:
            loop.remove_reader(fd)
            lines.put_nowait(None)
    own = _person(cup, referee, table)
    turns = asyncio.Lock()
    looks = _start_looks(cup, referee, own, turns)
    loop.add_reader(fd, readable)  # no reader thread: nothing blocks the host's exit
    try:
        while True:
            line = await lines.get()
            if line is None:
                if cup is not None:
                    await _stop(game)  # the person has left the keyboard: nobody can play his cup
                return
            async with turns:
                done = await _safe_key(line if line.strip() else "enter", cup, referee, table, own)
            if done == "quit":
                await _stop(game)
                return
            if done == "unknown":  # a typed line that is neither a key nor a table word: say so, once
                lang = getattr(referee.ui, "lang", "de")
                referee.ui.note(tr(lang, "play.unknown_input", line=line.strip()[:40]))
            shown = getattr(referee.ui, "show_own_cup", None)
            if shown is not None:
                shown()
    finally:
        loop.remove_reader(fd)
        if looks is not None:
            looks.cancel()


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
    own = OwnCup(cup, seat, referee.state)
    show = getattr(referee.ui, "person", None)
    if show is not None:
        show(own)
    return own


def _start_looks(cup, referee, own, turns):
    """The task that looks under the person's cup after each throw of his (``_looks``), or None when nobody
    plays from the keyboard."""
    if own is None or not hasattr(cup, "hold"):
        return None
    return asyncio.ensure_future(_looks(cup, referee, own, turns))


LOOK_SLACK_S = 5.0   # beyond the peek's own length (in the cup's time): how long a look waits for its frames


async def _looks(cup, referee, own, turns):
    """After each counted throw of the person: a peek on his cup, his keys held back meanwhile (``turns``).
    Never raises: a look that fails is noted, and the next throw gets its own."""
    throws = asyncio.Queue()
    last = [None]

    def on_event(ev):  # the referee's listener: called in its emit, never blocks
        if ev.get("ev") != "progress" or ev.get("seat") != own.seat or not ev.get("throws"):
            return
        moment = (ev.get("round"), ev["throws"])
        if moment != last[0]:
            last[0] = moment
            throws.put_nowait(moment)
    referee.listeners.append(on_event)
    try:
        while True:
            moment = await throws.get()
            if not throws.empty():
                continue  # a later throw came already: look at that one
            if _armed_soon(referee, own):
                continue
            shown = getattr(referee.ui, "show_own_cup", None)  # --plain: a line as soon as he has seen them
            async with turns:
                try:
                    await _look(cup, own, moment, shown or (lambda: None))
                except (OSError, ValueError) as e:  # the cup was just unplugged, ...
                    referee.note("%s: %s" % (tr(getattr(referee.ui, "lang", "de"), "keys.peek"), e))
            if asyncio.current_task().cancelling():
                # The game's end cancelled this task while _look waited in asyncio.wait_for, which in Python
                # 3.11 loses a cancellation that meets a frame in the same turn of the loop (_stop says more):
                # it must end now, or asyncio.run waits for it for ever and the host never exits.
                raise asyncio.CancelledError
    finally:
        referee.listeners.remove(on_event)


def _armed_soon(referee, own):
    """With --reveal button, after the person's last allowed throw when everyone else has played: the round
    ends with it and his cup's main button becomes the reveal button (round_end), so a look could uncover the
    cup for him. He uncovers it himself, and sees his dice then."""
    st = own.state
    p = st.players[own.seat]
    last = p.throws >= (p.limit or (st.rules.max_throws if st.rules is not None else 3))
    return (getattr(referee, "reveal_mode", "all") == "button" and last
            and all(st.players[s].done for s in st.order if s != own.seat))


async def _look(cup, own, moment, on_seen):
    """One peek on the person's cup for him: the main button held for a peek's length on the cup's own clock
    (never a long press). Waits, bounded, until its frames showed the dice under the cup and then the cover
    again (or the cup refused it, or uncovered itself at the reveal), calling ``on_seen()`` once the dice have
    shown; unless the release was seen, lets go of the button for sure, so that the next press of a key never
    meets this one."""
    st = own.state
    p = st.players[own.seat]
    if (st.round, p.throws) != moment or p.revealed is not None:
        return  # he threw again, or the cup is uncovered already
    hold = keymap.hold_ms(("peek",), getattr(cup, "long_ms", None) or keymap.FIRMWARE_LONG_MS)
    scale = getattr(cup, "time_scale", 1) or 1
    loop = asyncio.get_running_loop()
    changed = asyncio.Event()

    def on_frame(frame):  # the cup's reader thread
        try:
            loop.call_soon_threadsafe(changed.set)
        except RuntimeError:  # the loop is closed: the game is over
            pass
    seen = cup.frame_count
    lit = [False]

    def how():
        """"released", "refused", "revealed" or None (still looking)."""
        for frame in cup.frames_since(seen):
            shown = ledframe.decode(frame)
            if ledframe.status_name(shown["status"]) == "red":
                return "refused"
            white = any(face and ledframe.die_kind(rgb) == "cup" and min(rgb) > 0
                        for face, rgb in zip(shown["dice"], shown["colors"]))
            if white:
                lit[0] = True
            elif lit[0]:
                return "released"
        if p.revealed is not None or (st.round, p.throws) != moment:
            # His cup is uncovered, or a new throw or round began: nothing left to look at. (Waiting for the
            # dice to light first held his next key for the whole slack, 5 s, when the reveal came first.)
            return "revealed"
        return None
    cup.listeners.append(on_frame)
    end = loop.time() + hold / 1000 / scale + LOOK_SLACK_S
    try:
        cup.hold(3, hold)
        told = False
        while how() is None and loop.time() < end:
            if lit[0] and not told:
                told = True
                on_seen()
            changed.clear()
            try:
                async with asyncio.timeout(min(0.25, max(0.0, end - loop.time()))):   # keeps a cancellation
                    await changed.wait()
            except TimeoutError:
                pass  # p.revealed comes with an event, not a frame: looked at again
        if not told:
            on_seen()
    finally:
        cup.listeners.remove(on_frame)
        if how() != "released":
            try:
                cup.control("release 3")  # ends the hold, or one still waiting: the button is up for sure
            except OSError:
                pass  # a closed cup has no button down; raised here it would replace a cancellation (the
                      # game's end closes the cups first): _looks took it for an unplugged cup and went on,
                      # and the host never exited
    await asyncio.sleep(keymap.GAP_MS / 1000)  # longer than the debounce: the next press counts


def _refused(referee, seat, why):
    """A key the table refuses: its reason on the screen at once, in the UI's language."""
    lang = getattr(referee.ui, "lang", "de")
    reason = refusal(lang, why)
    show = getattr(referee.ui, "refused", None)
    if show is not None:
        show(seat, reason)
    else:
        referee.ui.note(tr(lang, "play.refused", name=referee.state.name(seat), reason=reason))


async def _safe_key(key, cup, referee, table, own):
    # A key that fails (the cup was just unplugged, ...) is reported; the keyboard must outlive it.
    try:
        return await _key(key, cup, referee, table, own)
    except (OSError, ValueError, IndexError, KeyError) as e:
        referee.ui.note("%r: %s" % (key, e))
        return None


async def _key(key, cup, referee, table=None, own=None):
    """Carry out one key (or a table word); returns "quit" for a quit key, "unknown" for what is neither a
    key nor a table word, else None."""
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
        why = own.refusal(action)
        if why is not None:
            _refused(referee, own.seat, why)
            return None
    await _press(cup, action, own)
    return None


DECISION_KEYS = {"w": "wait", "f": "forfeit"}
# Emulated cups only, for testing a referee (docs/emulation.md): "unplug N" (seat N's cup is gone for good),
# "restart N" (pulled and plugged in again), "freeze N" / "thaw N" (stops answering on an open link, and
# back), "cheat N KIND [always]", "inject N JSON" (seat N misbehaves: firmware/cheat.py).
EMULATION_WORDS = ("unplug", "restart", "freeze", "thaw", "cheat", "inject")


def _emulation_word(key, words, table):
    seat = int(words[1]) - 1
    for emu in table.cups:
        if table.seat_of.get(emu.cup_id) != seat:
            continue
        if words[0] in ("unplug", "restart", "freeze", "thaw") and len(words) == 2:
            getattr(emu, words[0])()
        elif words[0] == "cheat" and len(words) in (3, 4):
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
