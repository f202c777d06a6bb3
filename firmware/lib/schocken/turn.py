"""One player's turn: up to three throws, dice set aside in between, Sechsen drehen, standing.

The cup has three dice in fixed slots 0..2 (one button each). After a throw, each die of that throw is
either still in the cup or set aside; a die set aside may be taken back until the next throw, after which
it lies on the table for good ("a die set aside never goes back into the cup"). Every refused move raises
RuleError with a reason a player understands; the turn is unchanged after a refusal.

The transcript records every accepted move, so the host can replay a revealed turn and check it.
"""

from schocken import RuleError

IN_CUP = 0     # fell in the latest throw, goes into the next one
PENDING = 1    # fell in the latest throw, set aside; may still be taken back
ASIDE = 2      # set aside for good (an earlier throw, or a six turned into a one)


class Turn:
    def __init__(self, rules, limit=None):
        self.rules = rules
        self.limit = rules.max_throws if limit is None else limit
        if not 1 <= self.limit <= rules.max_throws:
            raise RuleError("throw limit must be 1 to %d, got %r" % (rules.max_throws, limit))
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
            raise RuleError("no throw yet")
        if self.turned:
            raise RuleError("after Sechsen drehen throw again first")
        return evaluate(self.values, self.throws_used, self.hand(), self.rules)

    # --- moves ------------------------------------------------------------------------------------
    def roll(self, dice):
        """The dice that fell for the slots in the cup, in slot order."""
        self._open()
        if self.throws_used >= self.limit:
            raise RuleError("throw limit reached: %d of %d used" % (self.throws_used, self.limit))
        if self.throws_used and self.rules.ones_must_stay:
            for i in range(3):
                if self.state[i] == IN_CUP and self.values[i] == 1 and not self.locked[i]:
                    raise RuleError("a one that fell must stay out (die %d)" % (i + 1))
        slots = self.in_cup()
        if not slots:
            raise RuleError("no die left in the cup: stand instead")
        if not isinstance(dice, (list, tuple)) or len(dice) != len(slots):
            raise RuleError("expected %d dice for the cup, got %r" % (len(slots), dice))
        for d in dice:
            if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6:
                raise RuleError("a die shows 1 to 6, got %r" % (d,))
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
        self._open()
        self._thrown()
        self._slot(slot)
        if self.state[slot] != IN_CUP:
            raise RuleError("die %d is already set aside" % (slot + 1))
        if self.locked[slot]:
            raise RuleError("die %d is the other six: it goes back into the cup" % (slot + 1))
        if self.rules.aside_only_ones and self.values[slot] != 1:
            raise RuleError("only ones may be set aside, die %d shows %d" % (slot + 1, self.values[slot]))
        self.state[slot] = PENDING
        self.transcript.append(["aside", slot])

    def take_back(self, slot):
        self._open()
        self._slot(slot)
        if self.state[slot] == ASIDE:
            raise RuleError("die %d was set aside for good and never goes back into the cup" % (slot + 1))
        if self.state[slot] == IN_CUP:
            raise RuleError("die %d is not set aside" % (slot + 1))
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
        self._open()
        self._thrown()
        if not self.rules.sixes_turn:
            raise RuleError("Sechsen drehen is not played with these rules")
        if not isinstance(slots, (list, tuple)) or len(slots) not in (2, 3):
            raise RuleError("Sechsen drehen needs two or three different dice")
        for s in slots:
            self._slot(s)  # before set(): a transcript from a cup may hold anything, a dict is not hashable
        if len(set(slots)) != len(slots):
            raise RuleError("Sechsen drehen needs two or three different dice")
        for s in slots:
            if self.state[s] == ASIDE:
                raise RuleError("die %d did not fall in this throw: only sixes of the same throw turn"
                                % (s + 1))
            if self.values[s] != 6:
                raise RuleError("die %d shows %d, not a six" % (s + 1, self.values[s]))
        if self.turned:
            raise RuleError("the sixes of this throw were turned already")
        if self.throws_used >= self.limit:
            raise RuleError("Sechsen drehen only while another throw is left")
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
        self._open()
        self._thrown()
        if self.turned:
            raise RuleError("after Sechsen drehen the next throw must be taken")
        self.finished = True
        self.transcript.append(["stand"])

    # --- checks -----------------------------------------------------------------------------------
    def _open(self):
        if self.finished:
            raise RuleError("the turn is over")

    def _thrown(self):
        if not self.throws_used:
            raise RuleError("throw first")

    def _slot(self, slot):
        if not isinstance(slot, int) or isinstance(slot, bool) or not 0 <= slot <= 2:
            raise RuleError("die number must be 1 to 3, got %r" % (slot,))


_MOVES = ("roll", "aside", "back", "turn", "stand")


def apply_steps(turn, transcript):
    """Apply a transcript's steps to a Turn; raises RuleError naming the first illegal step."""
    if not isinstance(transcript, (list, tuple)):
        raise RuleError("transcript must be a list")
    for n, step in enumerate(transcript):
        if not isinstance(step, (list, tuple)) or not step or step[0] not in _MOVES:
            raise RuleError("step %d: unknown move %r" % (n + 1, step))
        move = step[0]
        try:
            if move == "stand":
                turn.stand()
            elif len(step) != 2:
                raise RuleError("move %s needs one argument" % move)
            elif move == "roll":
                turn.roll(step[1])
            elif move == "aside":
                turn.set_aside(step[1])
            elif move == "back":
                turn.take_back(step[1])
            else:
                turn.turn_sixes(step[1])
        except RuleError as e:
            raise RuleError("step %d (%s): %s" % (n + 1, move, e))
    return turn
