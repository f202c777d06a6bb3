"""A whole game: throw-off for the opener, first half, second half, final; Blattschuss / Beton.

Phases: "throw_off" -> "half1" -> "half2" -> "final" -> "over". A player who loses both halves loses the
game at once (Blattschuss, Beton; no final). With ``one_half`` the first half decides the game, and so
does it with two players where ``two_player_final`` is off (seed 004).
"""

from schocken import RuleError
from schocken.throws import evaluate
from schocken.ranking import rank_round, RoundResult
from schocken.half import Half

PHASES = ("throw_off", "half1", "half2", "final", "over")


class Game:
    def __init__(self, rules, players):
        """``players``: the number of seats, or a list of names in seating order."""
        if isinstance(players, int):
            players = ["Spieler %d" % (i + 1) for i in range(players)]
        if len(players) < rules.min_players:
            raise RuleError("these rules need at least %d players, got %d"
                            % (rules.min_players, len(players)))
        self.rules = rules
        self.names = list(players)
        self.seats = list(range(len(players)))
        self.phase = "throw_off"
        self.throw_off_seats = list(self.seats)  # who throws in the (next) throw-off, Stechen included
        self.throw_off_worth = None               # verein: Deckel the first throw-off's best throw is worth
        self.half = None
        self.half_losers = []
        self.loser = None
        self.blattschuss = False
        self.rounds = 0

    # --- throw-off ---------------------------------------------------------------------------------
    def throw_off(self, dice_list):
        """One throw each for ``throw_off_seats``, in that order. The lowest throw opens; a tie for the
        lowest is thrown again among the tied (Stechen). Returns the opener's seat, or None for a Stechen."""
        if self.phase != "throw_off":
            raise RuleError("the throw-off is over")
        if len(dice_list) != len(self.throw_off_seats):
            raise RuleError("throw-off needs one throw for each of %d players" % len(self.throw_off_seats))
        results = []
        for i, dice in enumerate(dice_list):
            try:
                results.append(evaluate(dice, 1, True, self.rules))
            except RuleError as e:
                raise RuleError("seat %d: %s" % (self.throw_off_seats[i], e))
        if self.throw_off_worth is None:
            self.throw_off_worth = max(results, key=lambda t: t.key).deckel
        low = min(t.key for t in results)
        lowest = [self.throw_off_seats[i] for i in range(len(results)) if results[i].key == low]
        if len(lowest) > 1:
            self.throw_off_seats = lowest
            return None
        self._start_half("half1", self.seats, lowest[0])
        if self.rules.throw_off_deckel:
            # seed 000: the lowest takes as many Deckel as the first throw-off's best throw is worth. The
            # middle is full, so they come from there; the giver only matters once it is empty.
            giver = [s for s in self.seats if s != lowest[0]][0]
            self.half.give(giver, lowest[0], self.throw_off_worth)
            self._after_round()
        return lowest[0]

    def set_opener(self, seat):
        """Skip the throw-off (the table agreed on the opener)."""
        if self.phase != "throw_off":
            raise RuleError("the throw-off is over")
        if seat not in self.seats:
            raise RuleError("no seat %r" % (seat,))
        self._start_half("half1", self.seats, seat)

    # --- rounds ------------------------------------------------------------------------------------
    def order(self):
        """Seats of the next round in seating order from the opener."""
        self._in_play()
        return self.half.order()

    def play_round(self, entries, forfeit=()):
        """``entries``: (dice, throws, hand) for each seat of ``order()``, in that order. ``forfeit``:
        positions in that order whose throw is void (a cup caught cheating, when the table rules that the
        cheater takes the Deckel); they rank below everyone, the first of them in seating order is the round's
        worst. Returns (RoundResult, moves) where moves are the Deckel moved, see ``Half.give``."""
        self._in_play()
        order = self.half.order()
        if len(entries) != len(order):
            raise RuleError("this round needs %d throws (seats %s), got %d"
                            % (len(order), order, len(entries)))
        honest = [i for i in range(len(order)) if i not in forfeit]
        if not honest:
            raise RuleError("no valid throw in this round: it must be played again")
        if forfeit:
            if len(honest) > 1:
                # With the opener's throw void the others played to the full limit: no limit check among them.
                sub = rank_round(self.rules, [entries[i] for i in honest], limit_check=0 in honest)
                ranking = [honest[i] for i in sub.ranking]
                results = [None] * len(order)
                for k, i in enumerate(honest):
                    results[i] = sub.results[k]
            else:
                results = [None] * len(order)
                results[honest[0]] = rank_round(self.rules, [entries[honest[0]]] * 2, False).results[0]
                ranking = honest
            forfeited = [i for i in range(len(order)) if i in forfeit]
            result = RoundResult(results, ranking + forfeited[1:] + forfeited[:1])
        else:
            result = rank_round(self.rules, entries)
        moves = self.half.give(order[result.best], order[result.worst], result.deckel)
        self.rounds += 1
        self._after_round()
        return result, moves

    def penalty(self, seat):
        self._in_play()
        moves = self.half.penalty(seat)
        self._after_round()
        return moves

    def einwuerfeln(self, seat):
        self._in_play()
        return self.half.einwuerfeln(seat)

    # --- phases ------------------------------------------------------------------------------------
    def _start_half(self, phase, seats, opener):
        self.phase = phase
        self.half = Half(self.rules, seats, opener, phase)

    def _single_half(self):
        return self.rules.one_half or (len(self.seats) == 2 and not self.rules.two_player_final)

    def _after_round(self):
        half = self.half
        if not half.over():
            return
        lost = half.loser
        if self.phase == "final" or (self.phase == "half1" and self._single_half()):
            self._end(lost)
        elif self.phase == "half1":
            self.half_losers.append(lost)
            self._start_half("half2", self.seats, lost)
        else:
            first = self.half_losers[0]
            self.half_losers.append(lost)
            if lost == first:
                self.blattschuss = True
                self._end(lost)
            else:
                two = [s for s in self.seats if s in (first, lost)]
                opener = first if self.rules.final_opener == "first_half_loser" else lost
                self._start_half("final", two, opener)

    def _end(self, seat):
        self.phase = "over"
        self.loser = seat

    def _in_play(self):
        if self.phase == "throw_off":
            raise RuleError("throw off for the opener first")
        if self.phase == "over":
            raise RuleError("the game is over")

    def to_dict(self):
        return {"phase": self.phase, "names": list(self.names), "half_losers": list(self.half_losers),
                "loser": self.loser, "blattschuss": self.blattschuss, "rounds": self.rounds,
                "half": self.half.to_dict() if self.half else None}
