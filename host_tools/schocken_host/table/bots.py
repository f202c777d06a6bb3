"""Bot players: they drive an emulated cup through the inputs a person uses (shake, peek, die buttons,
stand, reveal) and see only what a person sees: the public table (whose turn, throws used, the limit, dice set
aside) and their own cup's LEDs while peeking. Decisions come from schocken.sim's strategies, applied to a
mirror of the turn built from what the bot saw; ``optimal`` (the default of `schocken play`) is the best play
of odds.best, given the round as the public table shows it: of each seat before the bot its open dice, its
throws and whether it stood before its limit (its final throw stays under the cup until the reveal), the
players after it, the throw limit and the Deckel left in the middle.

Bots react to events, they do not poll: the referee calls them after every event (``Referee.listeners``) and
the cup's reader thread after every LED frame (``EmulatedCup.listeners``); a bot waits on one asyncio.Event
that both set. Their inputs are in the cup's own time: ``shake MS`` counts sensor samples and ``hold N MS``
is released by the emulated board's clock, so a bot never sleeps for a press and its taps stay taps however
late this process runs. With a time scale K (``--time-scale``) the cups' clocks run K times faster, and so do
the bots; every wait has a bound (real seconds for the host's part, cup time divided by K for the cup's) and
ends with an error that says what did not come.

A bot never stalls on a move it cannot make: its strategy decides on a copy of its turn, the rules and the
cup's buttons are asked before a button is pressed (table/bot_moves.py); a strategy that fails, a move they
refuse or an input its cup refuses (the red flash) makes it fall back within the throw to the first legal
of ``FALLBACKS``, never to a move refused before in that state: a ``bot_fallback`` event (docs/gamelog.md).
"""

import asyncio
import json

from schocken import RuleError
from schocken.sim import keep_ones, threshold
from schocken.turn import Turn, IN_CUP, apply_steps

from schocken_host.emulation.hands import Hands
from schocken_host.links import ledframe
from schocken_host.odds.best import Optimal, context_for
from schocken_host.pace import Pace
from schocken_host.table.bot_moves import FALLBACKS, make_step, as_move, check, decision
from schocken_host.table.coach import public_context


class OptimalAtTable:
    """The ``optimal`` strategy: ``for_table`` gives the strategy of one turn in the round the table shows."""

    def for_table(self, st, seat, limit):
        return Optimal(public_context(st, seat, limit))   # the coach's context too (table/coach.py)

    def __call__(self, turn):
        """Without a table: as the opener of a round of two."""
        return Optimal(context_for(turn.rules, [], 1, turn.limit, True))(turn)


STRATEGIES = {
    "optimal": OptimalAtTable(),      # the least Deckel expected in the round (odds.best, docs/odds.md)
    "schock": keep_ones,              # keep ones, stand on a Schock or better
    "general": threshold(2002),       # stand on a General or better
    "fast": threshold(0),             # stand on the first throw
}


def strategy_name(strategy):
    names = [name for name, known in STRATEGIES.items() if known is strategy]
    return names[0] if names else getattr(strategy, "__name__", type(strategy).__name__)


HOST_S = 10.0          # real seconds a wait allows for the host's part (referee, links) on a loaded machine
RETRY_S = 0.2          # after a lost input, the next look at the table comes at the next event or after this
ON_TURN = ("green", "cyan", "yellow", "orange")


class BotError(TimeoutError):
    """A bot waited in vain (or its cup was restarted meanwhile): it looks at the table again."""


class Refused(BotError):
    """The cup flashed red at the bot's input: it refused it."""


class Bot:
    def __init__(self, seat, cup, strategy="schock", dice=None, shake_ms=400, pace=Pace(), host_s=HOST_S):
        self.seat = seat
        self.host_s = pace.answer_s(host_s)   # the host's part of a wait, longer for a cup slower than a chip
        self.cup = cup                # an EmulatedCup
        self.strategy = STRATEGIES[strategy] if isinstance(strategy, str) else strategy
        self.dice = dice              # optional (round, seat, throw, n) -> dice, for reproducible tables
        self.shake_ms = shake_ms
        self.hands = Hands(cup)       # presses timed by the cup's long press (a bot's cup has 300: seating)
        self.long_ms = self.hands.long_ms
        self.pace = pace
        self.played = set()           # round ids this bot has finished
        self.revealed = set()
        self.progress = 0             # progress events of this seat seen so far
        self.limits = {}              # round -> the throw limit its turn event announced (None: the rules')
        self.errors = []              # what ended a turn: waits in vain (BotError), lost inputs, the rest
        self._changed = None          # set by the referee's events and the cup's frames
        self.referee = None           # while it runs: its fallbacks are events of the game
        self.refused_moves = {}       # round -> {(turn state, steps, stand)} refused: never tried again
        self._reported = None         # the last error reported as an event (the same one is not repeated)

    # --- waking up -----------------------------------------------------------------------------------
    def _on_event(self, ev):
        if ev.get("seat") == self.seat:
            if ev.get("ev") == "progress":
                self.progress += 1
            elif ev.get("ev") == "turn":
                self.limits[ev.get("round")] = ev.get("limit")  # what the table announced for this turn
        self._changed.set()

    def _frame_listener(self, loop):
        wake = self._changed.set

        def on_frame(frame):  # the cup's reader thread
            try:
                loop.call_soon_threadsafe(wake)
            except RuntimeError:  # the loop is closed: the game is over
                pass
        return on_frame

    async def _changes(self, timeout):
        """Until the table or the cup's LEDs change, at most ``timeout`` s; True if they did."""
        try:
            async with asyncio.timeout(timeout):   # not wait_for: it can drop a cancellation (Python 3.11)
                return await self._changed.wait()   # True
        except TimeoutError:
            return False

    async def until(self, check, what, cup_ms=0, since=None):
        """Wait for check() to be true; returns its value. Bounded: ``host_s`` real seconds plus cup_ms of the
        cup's time at the table's pace. Ends with a BotError that names ``what`` when it does not
        come, as soon as the cup was restarted (what was sent to the old process is lost), and, given
        ``since`` (a frame count), as soon as a later frame shows the red flash of a refused input."""
        loop = asyncio.get_running_loop()
        timeout = self.host_s + self.pace.wall_s(cup_ms)
        end = loop.time() + timeout
        starts = self.cup.starts
        while True:
            self._changed.clear()  # before the check: a change after it wakes the wait below
            value = check()
            if value:
                return value
            if self.cup.starts != starts:
                raise BotError("bot %d: its cup was restarted while it waited for %s" % (self.seat + 1, what))
            if since is not None and self.refused(since):
                raise Refused("bot %d: its cup refused the input it waited on for %s"
                              % (self.seat + 1, what))
            left = end - loop.time()
            if left <= 0 or not await self._changes(left):
                raise BotError("bot %d waited %.1f s in vain for %s" % (self.seat + 1, timeout, what))

    # --- the table -----------------------------------------------------------------------------------
    async def run(self, referee):
        st = referee.state
        loop = asyncio.get_running_loop()
        self._changed = asyncio.Event()
        on_frame = self._frame_listener(loop)
        self.referee = referee
        referee.listeners.append(self._on_event)
        self.cup.listeners.append(on_frame)
        try:
            while not st.over:
                self._changed.clear()
                p = st.players[self.seat] if st.players else None
                if p is None:
                    pass
                elif st.on_turn == self.seat and not p.done and st.round not in self.played:
                    round_id = st.round
                    try:
                        await self.play_turn(st)
                        self.played.add(round_id)
                    except Exception as e:  # noqa: BLE001 - a bot outlives a turn it cannot play (a limit
                        # the rules refuse, a bug): it looks again, as after a lost input
                        error = "%s: %s" % (type(e).__name__, e)
                        self.errors.append(error)
                        if (round_id, error) != self._reported:  # logged once, not at every look
                            self._reported = (round_id, error)
                            self.report(st, "error", [], error, "look_again")
                        # An input got lost (refused, or the cup was just restarted): look again at the next
                        # change, or a little later (never in a tight loop: a dead cup fails at once).
                        await self._changes(RETRY_S)
                    continue
                elif (referee.reveal_mode == "button" and p.done and p.revealed is None
                      and st.round not in self.revealed and self.light() == "pink"):
                    self.revealed.add(st.round)
                    self.hands.hold(("reveal",))
                    continue
                await self._changed.wait()  # the table's next event, or a frame of this bot's cup
        finally:
            referee.listeners.remove(self._on_event)
            self.cup.listeners.remove(on_frame)

    # --- what the bot sees on its cup ----------------------------------------------------------------
    def light(self):
        """The name of the cup's status color (ledframe.STATUS_COLORS), None before its first frame."""
        return self.hands.light()

    def refused(self, since):
        """A frame after the first ``since`` flashed red: the cup refused an input (on turn, red is nothing
        else)."""
        return self.hands.refused_since(since)

    def on_turn_light(self):
        """The status pixel says the cup is on turn (green, or the color of the throws used so far)."""
        return self.light() in ON_TURN

    async def peek(self, turn):
        """Hold the main button (shorter than a long press: that would stand) and read the dice under the cup
        from the LED frames that came while it was held."""
        slots = turn.in_cup()
        seen = self.cup.frame_count
        faces, lit = [], [seen]

        def shown():
            for i, frame in enumerate(self.cup.frames_since(seen)):
                shown = ledframe.decode(frame)
                dice = shown["dice"]
                if ledframe.status_name(shown["status"]) in ON_TURN and all(dice[s] for s in slots):
                    faces[:] = dice
                    lit[0] = seen + i + 1
                    return True
            return False

        def covered():  # a later frame shows the cup covered again: the next input comes after the peek
            return any(not any(ledframe.decode(f)["dice"][s] for s in slots)
                       for f in self.cup.frames_since(lit[0]))
        peek = ("peek",)
        self.hands.hold(peek)
        peek_ms = self.hands.hold_ms(peek)
        await self.until(shown, "its dice while peeking", cup_ms=peek_ms + 1000, since=seen)
        await self.until(covered, "the cup covered after peeking", cup_ms=peek_ms + 1000)
        return [faces[s] for s in slots]

    async def tap(self, action, what):
        """An input that the cup reports (progress: a die set aside or taken back, Sechsen drehen): its button
        held as long as the action wants, then its report."""
        before, seen = self.progress, self.cup.frame_count
        self.hands.hold(action)
        await self.until(lambda: self.progress > before, what, cup_ms=self.hands.hold_ms(action) + 1000,
                         since=seen)

    # --- a turn --------------------------------------------------------------------------------------
    def remembered_turn(self, st, limit):
        """(the bot's picture of its turn, whether its latest throw was decided on). A bot whose host was
        restarted while the cup held its turn remembers what it did, as a person would: from its cup's flash
        (its own moves of this turn), so it goes on with the same throws and the same decisions."""
        try:
            with open(self.cup.state_path) as f:
                saved = json.load(f)
            rnd, steps = saved["round"], saved["turn"]["transcript"]
            if rnd["round"] == st.round and rnd["state"] in ("done", "reveal_ready", "revealed"):
                return None, True  # it stood before the host went down: nothing left to do (a shake now
                # could land in the next turn)
            if rnd["round"] == st.round and rnd["state"] == "turn" and steps:
                # Decide on the latest throw again: what was decided already is in the steps, and deciding is
                # idempotent (a die set aside is not tapped again, sixes are turned once).
                return apply_steps(Turn(st.rules, rnd["limit"]), steps), False
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RuleError):
            pass
        return Turn(st.rules, limit), True

    def report(self, st, by, move, reason, fallback=None):
        """A move that failed or was refused, and what the bot does instead: an event (logged, shown)."""
        ev = {"ev": "bot_fallback", "round": st.round, "seat": self.seat,
              "strategy": strategy_name(self.strategy), "throws": st.players[self.seat].throws, "by": by,
              "move": move, "reason": str(reason)[:200], "fallback": fallback}
        try:
            self.referee.emit(ev)
        except Exception as e:  # noqa: BLE001 - kept at least here
            self.errors.append("bot_fallback not logged: %s: %s" % (type(e).__name__, e))

    def choose(self, st, turn, refused, own=True):
        """(steps, stand, fallback name or None, what failed or None) after the latest throw: the bot's own
        strategy's move (``own``), else the first of FALLBACKS whose move the rules and the cup's buttons take
        and that was not ``refused`` in this state before. What failed: (by, move, reason) of the own
        strategy (by "strategy": it raised; "rules": the rules or the buttons refuse its move)."""
        state = repr(turn.transcript)
        failed = None
        candidates = [(None, self.strategy)] if own else []
        for name, strategy in candidates + list(FALLBACKS):
            try:
                if hasattr(strategy, "for_table"):
                    strategy = strategy.for_table(st, self.seat, turn.limit)
                steps, stand = decision(strategy, turn)
            except Exception as e:  # noqa: BLE001 - a strategy's bug must not stall the game
                if failed is None:
                    failed = ("strategy", [], "%s: %s" % (type(e).__name__, e))
                continue
            if (state, repr(steps), stand) in refused:
                continue  # never the same refused move again
            reason = check(turn, steps, stand)
            if reason is not None:
                refused.add((state, repr(steps), stand))
                if failed is None:
                    failed = ("rules", as_move(steps, stand), reason)
                continue
            return steps, stand, name, failed
        raise BotError("bot %d: no move left that was not refused (%s)"
                       % (self.seat + 1, failed and failed[2]))

    async def cup_reason(self):
        """The cup's words for the input it refused (its error line comes beside the red frame; 0.5 s)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + 0.5
        while True:
            text = self.referee.refusals.get(self.seat)
            if text is not None or loop.time() >= end:
                return text or "refused (red flash)"
            await asyncio.sleep(0.05)

    def resync(self, st, turn, limit):
        """The bot's turn after its cup refused an input: as the cup keeps it in its flash (the truth; the bot
        remembers its own moves from there, as after a restart), or as the bot made it when that cannot be
        read. None: the cup stood already."""
        saved, _ = self.remembered_turn(st, limit)
        if saved is None:
            return None
        return saved if saved.throws_used else turn

    async def make(self, st, turn, steps, stand, taken):
        """Press the buttons of a decision on the cup, each step into the bot's turn (and into ``taken``) as
        the cup takes it. Ends with Refused at a red flash."""
        me = st.players[self.seat]
        self.referee.refusals.pop(self.seat, None)
        for step in steps:
            if step[0] == "turn":  # the cup's long press turns every six offered, as the decision says
                await self.tap(("long", step[1][0]), "its sixes turned")
            else:
                await self.tap(("tap", step[1]), "die %d %s" % (step[1] + 1, "set aside" if step[0] == "aside"
                                                                else "taken back"))
            make_step(turn, step)
            taken.append(step)
        if stand:
            seen = self.cup.frame_count
            stand = ("stand",)
            self.hands.hold(stand)
            await self.until(lambda: me.done, "its cup to stand", cup_ms=self.hands.hold_ms(stand) + 1000,
                             since=seen)
            return
        await self.until(lambda: len(me.public) >= sum(1 for s in turn.state if s != IN_CUP),
                         "its dice set aside on the table", cup_ms=1000)

    async def throw(self, st, turn):
        """Shake the cup for the next throw; True when the turn goes on with a throw to decide on (the bot's
        turn holds it), False when that was the last permitted throw (the cup stood by itself)."""
        me = st.players[self.seat]
        n = len(turn.in_cup())
        if self.dice:
            self.cup.control("dice " + " ".join(str(d) for d in self.dice(st.round, self.seat,
                                                                       turn.throws_used + 1, n)))
        await self.until(self.on_turn_light, "its cup's on-turn light")
        # not me.throws: a resumed host's may be stale
        before, seen = self.progress, self.cup.frame_count
        self.referee.refusals.pop(self.seat, None)
        self.hands.act(("shake",), self.shake_ms)
        await self.until(lambda: self.progress > before or me.done, "its throw to be counted",
                         cup_ms=self.shake_ms + 1000, since=seen)
        if me.done or me.throws >= turn.limit:
            return False  # the last permitted throw: the cup stood by itself, the throw stays hidden
        turn.roll(await self.peek(turn))
        return True

    async def play_turn(self, st):
        if st.round in self.limits:
            limit = self.limits[st.round]  # a throw-off's opener has a limit of 1 too
        else:  # a host resumed with this turn under way: the turn event came before the bot listened
            limit = None if st.order and st.order[0] == self.seat else st.limit
        turn, decided = self.remembered_turn(st, limit)
        if turn is None:
            return
        # (state, steps, stand) refused in this round: never tried again, also after the bot looked again
        refused = self.refused_moves.setdefault(st.round, set())
        while True:
            refusal = None
            if decided:
                try:
                    if not await self.throw(st, turn):
                        return
                except Refused:
                    if not turn.throws_used:
                        raise  # before the first throw there is nothing else to do: look again
                    # The throw that the last decision ended with was refused (or the look under the cup
                    # after it): not that decision again; the cup's flash holds the throw if it was counted.
                    counted = st.players[self.seat].throws > turn.throws_used
                    refused.add((repr(turn.transcript), repr([]), False))
                    refusal = ("cup", [["peek"] if counted else ["roll"]], await self.cup_reason())
                    turn = self.resync(st, turn, limit)
                    if turn is None:
                        return
            decided = True
            steps, stand, name, failed = self.choose(st, turn, refused, own=refusal is None)
            if refusal is not None or failed is not None:
                self.report(st, *(refusal or failed), fallback=name)
            while True:
                taken = []
                try:
                    await self.make(st, turn, steps, stand, taken)
                    break
                except Refused:
                    # ``turn`` holds the steps the cup took; the rest of the decision was refused
                    refused.add((repr(turn.transcript), repr(steps[len(taken):]), stand))
                    move, reason = as_move(steps, stand), await self.cup_reason()
                    turn = self.resync(st, turn, limit)
                    if turn is None:
                        return
                    steps, stand, name, _ = self.choose(st, turn, refused, own=False)
                    self.report(st, "cup", move, reason, fallback=name)
            if stand:
                return
