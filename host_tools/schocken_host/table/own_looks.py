"""The host looks under a person's emulated cup for him after each throw of his.

His cup hides his dice from the others, not from him: after each throw of his that counts (a ``progress``
event of his seat with one throw more, also his last, after which the cup stood by itself) the host looks
under the cup for him (``looks``), through the cup's real input: a hold of the main button as long as a peek
(emulation/hands.py), timed by the cup's own clock, so it can never become a long press (a stand). His panel
reads the dice from the LED frames of that peek (own_cup.OwnCup), as it reads his own peeks; from the throw
until the look has seen them it says that the host looks. The look and his keys (table/person.py) take
turns: one lock, handed in."""

import asyncio

from schocken_host.emulation.emulator import GAP_MS
from schocken_host.emulation.hands import Hands
from schocken_host.i18n import tr
from schocken_host.links import ledframe


def start_looks(cup, referee, own, turns):
    """The task that looks under the person's cup after each throw of his (``looks``), or None when nobody
    plays from the keyboard."""
    if own is None or not hasattr(cup, "hold"):
        return None
    return asyncio.ensure_future(looks(cup, referee, own, turns))


LOOK_SLACK_S = 5.0   # beyond the peek's own length (in the cup's time): how long a look waits for its frames


async def looks(cup, referee, own, turns):
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
            if _armed_soon(referee, own):
                own.look_over(moment)   # he uncovers the cup himself: no look, his panel says "verdeckt"
    own.looks = True   # his panel says the host looks, from each throw until its look is over
    referee.listeners.append(on_event)
    try:
        while True:
            moment = await throws.get()
            if not throws.empty():
                own.look_over(moment)
                continue  # a later throw came already: look at that one
            if _armed_soon(referee, own):
                continue
            async with turns:
                try:   # --plain writes a line as soon as he has seen them
                    await _look(cup, own, moment, referee.ui.show_own_cup)
                except (OSError, ValueError) as e:  # the cup was just unplugged, ...
                    referee.note("%s: %s" % (tr(referee.ui.lang, "keys.peek"), e))
                finally:
                    own.look_over(moment)
            if asyncio.current_task().cancelling():
                # The game's end cancelled this task while _look waited in asyncio.wait_for, which in Python
                # 3.11 loses a cancellation that meets a frame in the same turn of the loop (_stop says more):
                # it must end now, or asyncio.run waits for it for ever and the host never exits.
                raise asyncio.CancelledError
    finally:
        own.looks = False
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
    hands = Hands(cup)
    peek = ("peek",)
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
    end = loop.time() + hands.wall_s(hands.hold_ms(peek)) + LOOK_SLACK_S
    try:
        hands.hold(peek)
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
                hands.let_go(peek)  # ends the hold, or one still waiting: the button is up for sure
            except OSError:
                pass  # a closed cup has no button down; raised here it would replace a cancellation (the
                      # game's end closes the cups first): _looks took it for an unplugged cup and went on,
                      # and the host never exited
    await asyncio.sleep(GAP_MS / 1000)  # longer than the debounce: the next press counts
