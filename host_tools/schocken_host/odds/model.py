"""A turn as multisets, and the one Bellman solver over it.

Where the three dice lie does not matter to the rules, only their values do; so a turn's state before a throw
is ``(out, t)``: the values lying out for good (a sorted tuple, highest first, at most two of them) and the
number of throws used, and after a throw ``(out, fell, t)`` with the values that fell in it. This makes the
whole turn 57 states before a throw (the empty table before throw 1, each of 28 tables before throws 2 and 3)
and 671 after one, small enough to solve exactly.

The legal ways to go on after a throw (``Model.moves``) follow ``schocken.turn.Turn``: dice of the
latest throw are set aside (only ones with ``aside_only_ones``; every one with ``ones_must_stay``), two or
three sixes of it turned into one or two ones (the other six back into the cup, kept there with
``sixes_back``), and at least one die goes into the cup. tests/test_odds_check.py plays the chosen moves on
the real ``Turn``, so a move this module allows and the engine refuses fails there.
"""

from fractions import Fraction
from itertools import combinations_with_replacement
from math import factorial

from schocken.throws import ALL, all_throws, evaluate


def _rolls(n):
    """Every outcome of n dice as (sorted values, number of the 6**n ordered outcomes that give it)."""
    rolls = []
    for values in combinations_with_replacement(range(6, 0, -1), n):
        count = factorial(n)
        for v in set(values):
            count //= factorial(values.count(v))
        rolls.append((values, count))
    return tuple(rolls)


ROLLS = {n: _rolls(n) for n in range(4)}


def merge(*groups):
    return tuple(sorted(sum(groups, ()), reverse=True))


def remove(values, taken):
    rest = list(values)
    for v in taken:
        rest.remove(v)
    return tuple(rest)


def sub_multisets(values):
    """Every sub-multiset of a sorted tuple, once each."""
    found = {()}
    for v in values:
        found |= {merge(s, (v,)) for s in found}
    return sorted(found, key=lambda s: (len(s), s))


class Move:
    """A way to go on after a throw: ``turned`` sixes turned (0, 2 or 3), ``keep`` the other dice of the throw
    set aside, ``out`` every value lying out for the next throw."""
    __slots__ = ("turned", "keep", "out")

    def __init__(self, turned, keep, out):
        self.turned, self.keep, self.out = turned, keep, out

    def to_dict(self):
        return {"turn_sixes": self.turned, "keep": list(self.keep), "out": list(self.out)}

    def __repr__(self):
        return "Move(turned=%d, keep=%r)" % (self.turned, self.keep)


class Model:
    """The turn model of one rule set. ``cup_sixes``: Sechsen drehen turns every six offered, as a long press
    on the cup does (firmware/cup/core.py); else also two of three sixes, as ``Turn.turn_sixes`` allows."""

    def __init__(self, rules, cup_sixes=False):
        self.rules = rules
        self.cup_sixes = cup_sixes
        self._moves = {}
        self._final = {}
        # Every key a final throw can have, ascending, and what it is worth: the segments of equal worth are
        # what the round's expected Deckel sums over (odds.best).
        throws = {}
        # A throw with dice set aside takes two throws at least: under a limit of one only the hand's exist
        # (the rules package refuses the other kind).
        for dice in all_throws():
            for hand in (True, False) if rules.max_throws > 1 else (True,):
                throw = evaluate(dice, 1 if hand else 2, hand, rules)
                throws[throw.key] = throw
        self.keys = sorted(throws)
        self.index = {k: i for i, k in enumerate(self.keys)}
        self.throw_of_key = [throws[k] for k in self.keys]

    def final(self, dice, t, hand):
        """The Throw of final dice (sorted) after t throws, from the hand or not."""
        key = (dice, t, hand)
        throw = self._final.get(key)
        if throw is None:
            throw = self._final[key] = evaluate(dice, t, hand, self.rules)
        return throw

    def moves(self, out, fell):
        """The legal moves after a throw that is not the last, for dice ``out`` and ``fell`` (sorted)."""
        key = (out, fell)
        moves = self._moves.get(key)
        if moves is None:
            moves = self._moves[key] = self._make_moves(out, fell)
        return moves

    def _make_moves(self, out, fell):
        rules = self.rules
        sixes = fell.count(6)
        turns = [0]
        if rules.sixes_turn and sixes >= 2:
            turns += [sixes] if self.cup_sixes else list(range(2, sixes + 1))
        moves = []
        for turned in turns:
            ones = (1,) * (turned - 1) if turned else ()
            pool = remove(fell, (6,) * turned) if turned else fell
            back = (6,) if turned else ()      # the six that goes back into the cup
            if turned and not rules.sixes_back:
                pool, back = merge(pool, back), ()  # it may be set aside like any die of the throw
            for keep in sub_multisets(pool):
                if rules.aside_only_ones and any(v != 1 for v in keep):
                    continue
                if rules.ones_must_stay and keep.count(1) < pool.count(1):
                    continue
                after = merge(out, ones, keep)
                if len(after) >= 3:
                    continue  # no die left for the cup: that is standing, not a move
                moves.append(Move(turned, keep, after))
        return moves


def solve(model, limit, stand, minimize=False, exact=True):
    """Bellman over the turn: ``stand(throw, t)`` is what ending the turn on a Throw after t throws is worth;
    the player picks, after every throw but the last of ``limit``, standing or the best move. Returns a
    ``Solution`` whose values are Fractions (``exact``) or floats; states are solved when first asked for."""
    return Solution(model, limit, stand, minimize, Fraction(0) if exact else 0.0)


class Solution:
    def __init__(self, model, limit, stand, minimize, zero):
        self.model, self.limit, self.stand, self.minimize, self.zero = model, limit, stand, minimize, zero
        self._values = {}

    def value(self, out=(), t=1):
        """The expected worth before throw t with ``out`` lying out (throw 1: nothing out)."""
        key = (out, t)
        value = self._values.get(key)
        if value is None:
            n = 3 - len(out)
            total = self.zero
            for fell, count in ROLLS[n]:
                total += count * self.choose(out, fell, t)[0]
            value = self._values[key] = total / 6 ** n
        return value

    def choose(self, out, fell, t, turned=False):
        """(value, move) after throw t showed ``fell`` with ``out`` lying out; move None means stand. Ties go
        to standing, then to the first move listed (fewest dice kept). ``turned``: the sixes of this throw are
        turned already (a turn taken up between its moves): ``out`` holds their ones, ``fell`` the dice that
        may still be set aside, and the choice is among the moves that turn nothing (no stand; None only where
        there is no move)."""
        best = None if turned else self.stand(self.model.final(merge(out, fell), t, not out), t)
        choice = None
        if t < self.limit:
            for move in self.model.moves(out, fell):
                if turned and move.turned:
                    continue
                v = self.value(move.out, t + 1)
                if best is None or ((v < best) if self.minimize else (v > best)):
                    best, choice = v, move
        return best, choice

    def options(self, out, fell, t):
        """Every choice after a throw with its value: [(value, move or None for stand)], best first."""
        rows = [(self.stand(self.model.final(merge(out, fell), t, not out), t), None)]
        if t < self.limit:
            rows += [(self.value(m.out, t + 1), m) for m in self.model.moves(out, fell)]
        return sorted(rows, key=lambda r: r[0], reverse=not self.minimize)


def worth(throw, rules):
    """The Deckel a throw makes the loser take: a Schock-Aus counts as the whole half (``deckel_total``)."""
    return rules.deckel_total if throw.deckel == ALL else throw.deckel
