"""One player's turn: up to three throws, dice set aside in between, Sechsen drehen, standing.

The cup has three dice in fixed slots 0..2 (one button each). After a throw, each die of that throw is
either still in the cup or set aside; a die set aside may be taken back until the next throw, after which
it lies on the table for good ("a die set aside never goes back into the cup"). Every refused move raises
RuleError with a reason a player understands; the turn is unchanged after a refusal.

The transcript records every accepted move, so the host can replay a revealed turn and check it.
"""

from schocken import RuleError

from micropython import const

# Texts of schocken.texts by number (``RuleError(_NAME, *args)``, put into words when read): this module keeps
# no string per message, and a cup passes a refusal on as its number (cup.core).
_LIMIT_RANGE = const(0)
_NO_THROW = const(1)
_TURNED_THROW = const(2)
_LIMIT_REACHED = const(3)
_ONE_STAYS = const(4)
_CUP_EMPTY = const(5)
_DICE_COUNT = const(6)
_DIE_VALUE = const(7)
_ALREADY_ASIDE = const(8)
_OTHER_SIX = const(9)
_ONLY_ONES = const(10)
_FOR_GOOD = const(11)
_NOT_ASIDE = const(12)
_NO_SIXES_TURN = const(13)
_SIXES_DICE = const(14)
_SIX_NOT_NOW = const(15)
_NOT_SIX = const(16)
_TURNED_ALREADY = const(17)
_SIXES_LAST = const(18)
_TURNED_STAND = const(19)
_OVER = const(20)
_THROW_FIRST = const(21)
_SLOT = const(22)
_NOT_A_LIST = const(23)
_UNKNOWN_MOVE = const(24)
_ONE_ARGUMENT = const(25)
_STEP = const(26)

IN_CUP = 0     # fell in the latest throw, goes into the next one
PENDING = 1    # fell in the latest throw, set aside; may still be taken back
ASIDE = 2      # set aside for good (an earlier throw, or a six turned into a one)

# Face -> the pips a die shows, bit i = pip i (row by row seen from the top: 0 TL, 1 TR, 2 ML, 3 C, 4 MR,
# 5 BL, 6 BR), face 0 a blank die. The one table of the cup's LEDs (cup/leds.py) and the host's LED frame
# codec (links/ledframe.py). A bytes literal: its data stays in the firmware image, only a small header takes
# heap.
PIPS = b"\x00\x08\x41\x49\x63\x6b\x77"


class Turn:
    def __init__(self, rules, limit):  # limit None: the rules' max_throws (the round's opener)
        self.rules = rules
        self.limit = rules.max_throws if limit is None else limit
        if not 1 <= self.limit <= rules.max_throws:
            raise RuleError(_LIMIT_RANGE, rules.max_throws, limit)
        self.values = [0, 0, 0]
        self.state = [IN_CUP, IN_CUP, IN_CUP]
        self.locked = [False, False, False]  # a six that must go back into the cup after Sechsen drehen
        self.throws_used = 0
        self.turned = False   # Sechsen drehen done in the latest throw
        self.finished = False
        self.transcript = []

    # --- what the turn looks like -------------------------------------------------------------------
    def dice(self):
        return list(self.values)

    def in_cup(self):
        """Slots that the next throw rolls."""
        return [i for i in range(3) if self.state[i] == IN_CUP]

    def public(self):
        """Dice lying open on the table: set aside for good or for now. (slot, value) pairs."""
        return [(i, self.values[i]) for i in range(3) if self.state[i] != IN_CUP]

    def hand(self):
        """True while no die has been set aside for good: the final dice all fell in one throw."""
        return ASIDE not in self.state

    def can_roll(self):
        return (not self.finished and self.throws_used < self.limit
                and (self.throws_used == 0 or IN_CUP in self.state))

    def may_peek(self):
        """The last permitted throw stays under the cup, also for its owner (seeds 000, 001, 003)."""
        return self.throws_used > 0 and self.throws_used < self.limit and not self.finished

    def result(self):
        # Imported here: only the host ranks throws, so a cup never loads schocken.throws.
        from schocken.throws import evaluate
        if not self.throws_used:
            raise RuleError(_NO_THROW)
        if self.turned:
            raise RuleError(_TURNED_THROW)
        return evaluate(self.values, self.throws_used, self.hand(), self.rules)

    # --- moves ------------------------------------------------------------------------------------
    # Each move checks inline (turn over, no throw yet, a slot 0..2) rather than through helper methods: a
    # method is an object in a cup's heap for as long as the module is loaded (docs/benchmarks.md).
    def roll(self, dice):
        """The dice that fell for the slots in the cup, in slot order."""
        if self.finished:
            raise RuleError(_OVER)
        if self.throws_used >= self.limit:
            raise RuleError(_LIMIT_REACHED, self.throws_used, self.limit)
        if self.throws_used and self.rules.ones_must_stay:
            for i in range(3):
                if self.state[i] == IN_CUP and self.values[i] == 1 and not self.locked[i]:
                    raise RuleError(_ONE_STAYS, i + 1)
        slots = self.in_cup()
        if not slots:
            raise RuleError(_CUP_EMPTY)
        if not isinstance(dice, (list, tuple)) or len(dice) != len(slots):
            raise RuleError(_DICE_COUNT, len(slots), dice)
        for d in dice:
            if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6:
                raise RuleError(_DIE_VALUE, d)
        for i in range(3):
            if self.state[i] == PENDING:
                self.state[i] = ASIDE
        for i, d in zip(slots, dice):
            self.values[i] = d
            self.locked[i] = False
        self.throws_used += 1
        self.turned = False
        self.transcript.append(["roll", list(dice)])

    def set_aside(self, slot):
        if self.finished:
            raise RuleError(_OVER)
        if not self.throws_used:
            raise RuleError(_THROW_FIRST)
        if not isinstance(slot, int) or isinstance(slot, bool) or not 0 <= slot <= 2:
            raise RuleError(_SLOT, slot)
        if self.state[slot] != IN_CUP:
            raise RuleError(_ALREADY_ASIDE, slot + 1)
        if self.locked[slot]:
            raise RuleError(_OTHER_SIX, slot + 1)
        if self.rules.aside_only_ones and self.values[slot] != 1:
            raise RuleError(_ONLY_ONES, slot + 1, self.values[slot])
        self.state[slot] = PENDING
        self.transcript.append(["aside", slot])

    def take_back(self, slot):
        if self.finished:
            raise RuleError(_OVER)
        if not isinstance(slot, int) or isinstance(slot, bool) or not 0 <= slot <= 2:
            raise RuleError(_SLOT, slot)
        if self.state[slot] == ASIDE:
            raise RuleError(_FOR_GOOD, slot + 1)
        if self.state[slot] == IN_CUP:
            raise RuleError(_NOT_ASIDE, slot + 1)
        self.state[slot] = IN_CUP
        self.transcript.append(["back", slot])

    def sixes_available(self):
        """Slots whose six fell in the latest throw and may be turned, if Sechsen drehen is legal now."""
        if (not self.rules.sixes_turn or self.finished or self.turned or not self.throws_used
                or self.throws_used >= self.limit):
            return []
        return [i for i in range(3) if self.state[i] != ASIDE and self.values[i] == 6]

    def turn_sixes(self, slots):
        """Sechsen drehen: two sixes of the latest throw -> one 1 set aside, three sixes -> two 1s."""
        if self.finished:
            raise RuleError(_OVER)
        if not self.throws_used:
            raise RuleError(_THROW_FIRST)
        if not self.rules.sixes_turn:
            raise RuleError(_NO_SIXES_TURN)
        if not isinstance(slots, (list, tuple)) or len(slots) not in (2, 3):
            raise RuleError(_SIXES_DICE)
        for s in slots:  # before set(): a transcript from a cup may hold anything, a dict is not hashable
            if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s <= 2:
                raise RuleError(_SLOT, s)
        if len(set(slots)) != len(slots):
            raise RuleError(_SIXES_DICE)
        for s in slots:
            if self.state[s] == ASIDE:
                raise RuleError(_SIX_NOT_NOW, s + 1)
            if self.values[s] != 6:
                raise RuleError(_NOT_SIX, s + 1, self.values[s])
        if self.turned:
            raise RuleError(_TURNED_ALREADY)
        if self.throws_used >= self.limit:
            raise RuleError(_SIXES_LAST)
        ordered = sorted(slots)
        for s in ordered[:-1]:
            self.values[s] = 1
            self.state[s] = ASIDE
        last = ordered[-1]
        self.state[last] = IN_CUP
        self.locked[last] = self.rules.sixes_back
        self.turned = True
        self.transcript.append(["turn", ordered])

    def stand(self):
        """Finish the turn (stand early, or after the last throw)."""
        if self.finished:
            raise RuleError(_OVER)
        if not self.throws_used:
            raise RuleError(_THROW_FIRST)
        if self.turned:
            raise RuleError(_TURNED_STAND)
        self.finished = True
        self.transcript.append(["stand"])


_MOVES = ("roll", "aside", "back", "turn", "stand")


def apply_steps(turn, transcript):
    """Apply a transcript's steps to a Turn; raises RuleError naming the first illegal step."""
    if not isinstance(transcript, (list, tuple)):
        raise RuleError(_NOT_A_LIST)
    for n, step in enumerate(transcript):
        if not isinstance(step, (list, tuple)) or not step or step[0] not in _MOVES:
            raise RuleError(_UNKNOWN_MOVE, n + 1, step)
        move = step[0]
        try:
            if move == "stand":
                turn.stand()
            elif len(step) != 2:
                raise RuleError(_ONE_ARGUMENT, move)
            elif move == "roll":
                turn.roll(step[1])
            elif move == "aside":
                turn.set_aside(step[1])
            elif move == "back":
                turn.take_back(step[1])
            else:
                turn.turn_sixes(step[1])
        except RuleError as e:
            raise RuleError(_STEP, n + 1, move, e)
    return turn
