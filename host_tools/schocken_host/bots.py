"""Bot players: they drive an emulated cup through the inputs a person uses (shake, peek, die buttons,
stand, reveal) and see only what a person sees: the public table (whose turn, throws used, the limit, dice set
aside) and their own cup's LEDs while peeking. Decisions come from schocken.sim's strategies, applied to a
mirror of the turn built from what the bot saw.
"""

import asyncio

from schocken.sim import keep_ones, threshold
from schocken.turn import Turn, IN_CUP, PENDING

from schocken_host import render

STRATEGIES = {
    "schock": keep_ones,              # keep ones, stand on a Schock or better
    "general": threshold(2002),       # stand on a General or better
    "fast": threshold(0),             # stand on the first throw
}


class Bot:
    def __init__(self, seat, cup, strategy="schock", dice=None, shake_ms=400, long_ms=300):
        self.seat = seat
        self.cup = cup                # an EmulatedCup
        self.strategy = STRATEGIES[strategy] if isinstance(strategy, str) else strategy
        self.dice = dice              # optional (round, seat, throw, n) -> dice, for reproducible tables
        self.shake_ms = shake_ms
        self.long_ms = long_ms
        self.played = set()           # round ids this bot has finished
        self.revealed = set()

    async def run(self, referee):
        st = referee.state
        while True:
            await asyncio.sleep(0.02)
            if st.over:
                return
            p = st.players[self.seat] if st.players else None
            if p is None:
                continue
            if st.on_turn == self.seat and not p.done and st.round not in self.played:
                round_id = st.round
                try:
                    await self.play_turn(st)
                    self.played.add(round_id)
                except (TimeoutError, OSError):
                    pass  # an input got lost (refused, or the cup was just restarted): look again, go on
            elif (referee.reveal_mode == "button" and p.done and p.revealed is None
                  and st.round not in self.revealed and all(st.players[s].done for s in st.order)):
                self.revealed.add(st.round)
                await self.press(3, 60)

    async def press(self, button, hold_ms):
        self.cup.control("press %d" % button)
        await asyncio.sleep(hold_ms / 1000)
        self.cup.control("release %d" % button)
        await asyncio.sleep(0.06)  # longer than the cup's debounce, like a thumb

    async def until(self, check, timeout=5.0):
        end = asyncio.get_running_loop().time() + timeout
        while not check():
            if asyncio.get_running_loop().time() > end:
                raise TimeoutError("bot %d waited in vain" % self.seat)
            await asyncio.sleep(0.01)

    def on_turn_light(self):
        """The status pixel says the cup is on turn (green, or the color of the throws used so far)."""
        frame = self.cup.last_frame
        return frame is not None and render.status_name(render.decode(frame)["status"]) in (
            "green", "cyan", "yellow", "orange")

    async def peek(self, turn):
        """Hold the main button and read the dice under the cup from the LEDs."""
        slots = turn.in_cup()
        self.cup.control("press 3")

        def seen():
            frame = self.cup.last_frame
            return frame is not None and all(render.decode(frame)["dice"][s] for s in slots)
        try:
            await self.until(seen, 2.0)
            faces = render.decode(self.cup.last_frame)["dice"]
        finally:
            self.cup.control("release 3")
            await asyncio.sleep(0.06)
        return [faces[s] for s in slots]

    async def play_turn(self, st):
        me = st.players[self.seat]
        limit = None if st.order and st.order[0] == self.seat else st.limit
        turn = Turn(st.rules, limit)
        while True:
            n = len(turn.in_cup())
            if self.dice:
                self.cup.control("dice " + " ".join(str(d) for d in self.dice(st.round, self.seat,
                                                                           turn.throws_used + 1, n)))
            before = me.throws
            await self.until(self.on_turn_light, 5.0)
            self.cup.shake(self.shake_ms)
            await self.until(lambda: me.throws > before or me.done)
            if me.done or me.throws >= turn.limit:
                return  # the last permitted throw: the cup stood by itself, the throw stays hidden
            turn.roll(await self.peek(turn))
            sixes = turn.sixes_available()
            if len(sixes) >= 2 and sum(1 for v in turn.values if v == 1) < 2:
                turn.turn_sixes(sixes)
                await self.press(sixes[0], self.long_ms + 150)
            was = list(turn.state)
            if self.strategy(turn):
                await self.press(3, self.long_ms + 150)
                await self.until(lambda: me.done)
                return
            for slot in range(3):
                if was[slot] == IN_CUP and turn.state[slot] == PENDING:
                    await self.press(slot, 60)
            await self.until(lambda: len(me.public) >= sum(1 for s in turn.state if s != IN_CUP), 3.0)
