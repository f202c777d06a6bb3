"""The keys of a person at a `schocken play` table: read from the scoreboard (``ui_keys``) or from standard
input (``keyboard``, --plain) through the one key map of views/keymap.py, and handed to the person's player
(table/person.py), which checks each against the table, answers it at once and carries it out on his cup.
Each key is answered as it comes: a key pressed while an earlier one is still carried out is shown after it
at once and carried out in its turn."""

import asyncio
import os
import sys

from schocken_host.i18n import tr
from schocken_host.table.person import Person
from schocken_host.views import keymap


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
    person = Person(cup, referee, table)
    keys = asyncio.Queue()
    quit_key = asyncio.get_running_loop().create_future()

    async def carry_out():
        while True:
            key = await keys.get()
            done = await _safe_key(key, person)
            if done == "quit":
                quit_key.set_result("quit")
                return
            if done == "unknown" and lines_typed:  # a typed line that is neither a key nor a table word
                referee.ui.note(tr(referee.ui.lang, "play.unknown_input", line=key.strip()[:40]))
            if lines_typed:
                referee.ui.show_own_cup()
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
            action = keymap.action_for(key)
            busy = person.own is not None and (person.busy() or not keys.empty())
            if busy and action is not None and action[0] != "quit" and person.meanwhile(action):
                continue
            keys.put_nowait(key)
    finally:
        if got is not None:
            got.cancel()
        worker.cancel()
        person.close()


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


async def _safe_key(key, person):
    # A key that fails (the cup was just unplugged, ...) is reported; the keyboard must outlive it.
    try:
        return await _key(key, person)
    except (OSError, ValueError, IndexError, KeyError) as e:
        person.referee.ui.note("%r: %s" % (key, e))
        return None


async def _key(key, person):
    """One key (or a table word) to the person's player; returns "quit" for a quit key, "unknown" for what is
    neither a key nor a table word, else None."""
    if person.word(key.split(), key):
        return None
    if key.strip().lower() in DECISION_KEYS and person.decide(DECISION_KEYS[key.strip().lower()]):
        # The scoreboard has no line to type "forfeit N" into: w / f rule on the seat the table was asked
        # about.
        return None
    action = keymap.action_for(key)
    if action is None:
        return "unknown"
    if action[0] == "quit":
        return "quit"
    await person.act(action)
    return None


DECISION_KEYS = {"w": "wait", "f": "forfeit"}
