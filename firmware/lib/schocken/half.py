"""A half (Hälfte) or the final: 13 Deckel in the middle, rounds until one player holds them all.

Deckel flow (seeds 000-003): the round's worst player takes as many Deckel as the best throw is worth,
from the middle while it has any (only what is left there), afterwards from the round's best player (only
what he holds). Once the middle is empty, players without Deckel are out of the half. The round's loser
opens the next round. A Schock-Aus ends the half at once ("all") or is worth all 13 by that same flow
("middle", seed 004).
"""

from schocken import RuleError
from schocken.throws import ALL


class Half:
    def __init__(self, rules, seats, opener=None, name="half1"):
        if len(seats) < 2:
            raise RuleError("a half needs at least two players")
        self.rules = rules
        self.name = name
        self.seats = list(seats)          # seat numbers in table order
        self.total = rules.deckel_total
        self.middle = self.total
        self.deckel = {s: 0 for s in self.seats}
        self.in_half = list(self.seats)   # who plays the next round
        self.opener = self.seats[0] if opener is None else opener
        if self.opener not in self.deckel:
            raise RuleError("opener %r does not play this half" % (opener,))
        self.loser = None

    # --- state -------------------------------------------------------------------------------------
    def order(self):
        """Players of the next round, in seating order starting with the opener."""
        start = self.seats.index(self.opener)
        ring = self.seats[start:] + self.seats[:start]
        return [s for s in ring if s in self.in_half]

    def out(self):
        return [s for s in self.seats if s not in self.in_half]

    def over(self):
        return self.loser is not None

    def check(self):
        """Deckel are conserved: the middle and the players hold exactly the total."""
        held = sum(self.deckel.values())
        if held + self.middle != self.total or self.middle < 0 or min(self.deckel.values()) < 0:
            raise RuleError("Deckel not conserved: middle %d + players %d != %d"
                            % (self.middle, held, self.total))

    # --- moves -------------------------------------------------------------------------------------
    def give(self, best, worst, worth):
        """The round's best player ``best`` makes ``worst`` take ``worth`` Deckel. Returns what moved
        as (from, amount) pairs, from being "middle" or a seat."""
        self._playing(best)
        self._playing(worst)
        if self.loser is not None:
            raise RuleError("the half is over")
        if best == worst:
            raise RuleError("best and worst must be different players")
        moves = []
        if worth == ALL and self.rules.schock_aus == "all":
            moves = self._take_all(worst)
        else:
            amount = self.total if worth == ALL else worth
            if self.middle:
                n = min(amount, self.middle)
                self.middle -= n
                moves.append(("middle", n))
            else:
                n = min(amount, self.deckel[best])
                self.deckel[best] -= n
                moves.append((best, n))
            self.deckel[worst] += n
        self.opener = worst
        self._settle()
        return moves

    def penalty(self, seat, amount=None):
        """A player dropped his dice (seed 003): he takes a penalty Deckel from the middle, or, once the
        middle is empty, from the next player in seating order who holds any."""
        self._playing(seat)
        if self.loser is not None:
            raise RuleError("the half is over")
        amount = self.rules.drop_penalty if amount is None else amount
        if amount <= 0:
            raise RuleError("these rules have no penalty for dropped dice")
        moves = []
        for _ in range(amount):
            if self.middle:
                self.middle -= 1
                moves.append(("middle", 1))
            else:
                giver = self._next_holder(seat)
                if giver is None:
                    break
                self.deckel[giver] -= 1
                moves.append((giver, 1))
            self.deckel[seat] += 1
        self._settle()
        return moves

    def einwuerfeln(self, seat):
        """A player out of the half throws his way back in (seed 000): every player still in gives him
        one Deckel. Whoever gave his last one stays in for this round and is out after it unless he
        takes Deckel again."""
        if not self.rules.einwuerfeln:
            raise RuleError("these rules have no Einwürfeln")
        if seat not in self.deckel:
            raise RuleError("seat %r does not play this half" % (seat,))
        if seat in self.in_half:
            raise RuleError("seat %r is still in the half" % (seat,))
        if self.loser is not None:
            raise RuleError("the half is over")
        moves = []
        for s in self.order():
            if self.deckel[s]:
                self.deckel[s] -= 1
                self.deckel[seat] += 1
                moves.append((s, 1))
        self.in_half.append(seat)
        self.in_half = [s for s in self.seats if s in self.in_half]
        self._check_loser()  # with few Deckel in play, throwing back in can collect them all
        return moves

    # --- internals ---------------------------------------------------------------------------------
    def _take_all(self, worst):
        moves = []
        if self.middle:
            moves.append(("middle", self.middle))
            self.middle = 0
        for s in self.seats:
            if s != worst and self.deckel[s]:
                moves.append((s, self.deckel[s]))
                self.deckel[s] = 0
        self.deckel[worst] = self.total
        return moves

    def _next_holder(self, seat):
        start = self.seats.index(seat)
        for k in range(1, len(self.seats)):
            s = self.seats[(start + k) % len(self.seats)]
            if self.deckel[s]:
                return s
        return None

    def _check_loser(self):
        for s in self.seats:
            if self.deckel[s] == self.total:
                self.loser = s
                self.opener = s

    def _settle(self):
        self._check_loser()
        if self.middle == 0:
            self.in_half = [s for s in self.in_half if self.deckel[s] > 0]

    def _playing(self, seat):
        if seat not in self.in_half:
            raise RuleError("seat %r is not in the half" % (seat,))

    def to_dict(self):
        return {"name": self.name, "middle": self.middle,
                "deckel": {str(s): self.deckel[s] for s in self.seats},
                "in_half": list(self.in_half), "opener": self.opener, "loser": self.loser}
