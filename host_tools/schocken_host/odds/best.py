"""The best play of a turn: the decision that minimises the Deckel a player expects to take in the round.

The model (docs/odds.md, "Best play"):

- The round's worst throw takes as many Deckel as the best throw is worth (``schocken.ranking``): Zahl 1,
  Straße 2, General 3, Schock n n, Jule 7, a Schock-Aus the whole half (``deckel_total``), at most ``stake``
  when given (the Deckel left in the middle), except a Schock-Aus that ends the half (``schock_aus=all``).
  Ties: the fewer throws win, with equal throws the earlier seat.
- The players before me have played. Of each the table shows the dice lying open and the throws used
  (``SeatView``); the rest of the throw lies under the cup until all have played. A player who used all the
  throws he had never saw his last throw: those dice are uniform. One who stood earlier saw it and liked it:
  those dice are what the assumed strategy (``keep_ones``: stand on a Schock) stands on, decided on his last
  throw as it fell. Of the dice lying open, those that lay out when his last throw fell were out for good
  (none after throw 1); the others fell in his last throw and he laid them open before standing: they are
  part of the throw he stood on, and his throw is from the hand when nothing lay out for good. A throw known
  (``known``) counts as it is.
- The players after me play the assumed strategy with the throw limit that holds for them (mine, when I open).
- Every opponent is independent of the others given what the table shows, so the chance that all of them beat
  a throw of mine, and the worth of the best of them, come from products of their distributions.

``Context`` computes, for every final throw of mine, the Deckel I expect to take (``cost``), then solves my
turn with ``model.solve``. A context is cached (``context_for``): the bots decide in microseconds once their
round's context was seen, and in a few milliseconds when it is new (docs/benchmarks.md, "Strategy").
"""

from fractions import Fraction

from schocken import RuleError
from schocken.sim import keep_ones
from schocken.throws import ALL
from schocken.turn import ASIDE, IN_CUP, PENDING

from schocken_host.odds.classes import distribution, model_for, turn_at
from schocken_host.odds.habits import distribution as habit_distribution, stand_weight
from schocken_host.odds.model import ROLLS, merge, remove, solve, worth

_CACHE: dict[object, object] = {}
_CACHE_SIZE = 4096


class SeatView:
    """What the table shows of a seat that played before me: ``public`` the values lying open at its end,
    ``throws`` used, ``early`` whether it stood before its own limit (so it saw its last throw), ``out`` the
    values that lay open when its last throw fell (set aside for good after an earlier throw: the table saw
    them at that throw). The rest of ``public`` fell in the last throw and was laid open before standing.
    ``out`` None: not known, taken as all of ``public`` after more than one throw. After one throw nothing can
    lie out for good, whatever is given."""
    __slots__ = ("public", "throws", "early", "out")

    def __init__(self, public, throws, early, out=None):
        self.public = tuple(sorted(public, reverse=True))
        self.throws = throws
        self.early = early
        if throws <= 1:
            self.out = ()
        elif out is None:
            self.out = self.public
        else:  # only what still lies open: a sub-multiset of public
            rest, kept = list(self.public), []
            for v in sorted(out, reverse=True):
                if v in rest:
                    rest.remove(v)
                    kept.append(v)
            self.out = tuple(kept)

    @classmethod
    def after(cls, turn, own):
        """A seat's finished ``turn`` (schocken.turn.Turn) as the seats after it see it: the values lying
        open, its throws, and whether it stood before its limit ``own``."""
        public = [turn.values[i] for i in range(3) if turn.state[i] != IN_CUP]
        return cls(public, turn.throws_used, turn.throws_used < own)

    def key(self):
        return (self.public, self.throws, self.early, self.out)


def _stands(rules, assume, limit, out, fell, t):
    """Whether the assumed strategy stands after throw t showed ``fell`` with ``out`` lying out for good, in
    a turn of at most ``limit`` throws. A turn the rules cannot reach (more throws than the limit, a die out
    that could not be set aside) has no such decision: False."""
    try:
        return bool(assume(turn_at(rules, limit, out, fell, t)))
    except RuleError:
        return False


def seen(rules, view, own_limit, assume=keep_ones, habit=None, first=False):
    """{(key, throws): Fraction}: where a seat's throw lies given its SeatView. ``own_limit``: the throws
    it had (the opener: the rules' maximum). Never raises for a view the table shows: a view no turn can reach
    counts as a throw the assumed strategy does not explain (uniform under the cup). With a ``habit``
    (odds/habits.py; ``first``: the seat opened the round) a throw he stood on early counts with his chance of
    standing on it, in floats."""
    model = model_for(rules)
    t = min(max(view.throws, 1), rules.max_throws)
    public, out = view.public, view.out if view.throws == t else ()
    hand = not out
    if len(public) >= 3:
        return {(model.final(public[:3], t, hand).key, t): Fraction(1)}
    laid = remove(public, out)  # fell in the last throw, laid open before standing
    weights = {}
    for under, count in ROLLS[3 - len(public)]:
        if habit is not None:
            weight = count * (stand_weight(rules, own_limit, habit, first, out, merge(laid, under), t)
                              if view.early else 1.0)
            if weight <= 0:
                continue
        elif view.early and not _stands(rules, assume, own_limit, out, merge(laid, under), t):
            continue  # the assumed strategy would not have stood on this
        else:
            weight = count
        key = (model.final(merge(public, under), t, hand).key, t)
        weights[key] = weights.get(key, 0) + weight
    if not weights:  # it stood on what the assumed strategy never stands on: any throw, then
        return seen(rules, SeatView(public, t, False, out), own_limit, assume, habit, first)
    total = sum(weights.values())
    if habit is not None:
        return {k: w / total for k, w in weights.items()}
    return {k: Fraction(w, total) for k, w in weights.items()}


def known(rules, dice, throws, hand):
    """A throw that is known: {(key, throws): 1}."""
    throw = model_for(rules).final(tuple(sorted(dice, reverse=True)), throws, hand)
    return {(throw.key, throws): Fraction(1)}


class Context:
    """My round: ``earlier`` distributions (``seen``/``known``) of the seats before me, ``later`` players
    after me, my throw ``limit``, whether I ``opener`` (then my throws are the others' limit), the ``stake``.
    ``exact``: Fractions instead of floats (tests)."""

    def __init__(self, rules, earlier=(), later=0, limit=None, opener=None, stake=None, assume=keep_ones,
                 exact=False, cup_sixes=True, later_habits=None, holdings=None):
        self.rules = rules
        self.model = model_for(rules, cup_sixes)
        self.limit = rules.max_throws if limit is None else limit
        self.opener = not earlier if opener is None else opener
        self.later = later
        self.stake = stake
        self.exact = exact
        num = (lambda p: p) if exact else float
        self.earlier = [{k: num(p) for k, p in d.items()} for d in earlier]
        self._later = {}
        self.later_habits = tuple(later_habits) if later_habits else None
        for t in range(1, self.limit + 1):
            limit = t if self.opener else self.limit
            if later and limit not in self._later:
                if self.later_habits:   # one distribution per player after me, each his own habit's
                    self._later[limit] = [habit_distribution(rules, limit, h) for h in self.later_habits]
                else:
                    self._later[limit] = {k: num(p) for k, p in _later_dist(rules, limit, assume).items()}
        # (mine, each opponent's: the earlier seats', then the later ones') Deckel in front of them: with the
        # middle empty the round's best can give no more than he holds, and a Schock-Aus that ends the half
        # gives me all the Deckel I do not hold yet.
        self.holdings = holdings if holdings is not None and not exact else None
        self._worths = [self._worth(th, stake) for th in self.model.throw_of_key]
        # The runs of keys of equal worth: the last key of each, and for every key the run it lies in.
        w = self._worths
        self._ends = [k for k in range(len(w)) if k + 1 == len(w) or w[k + 1] != w[k]]
        self._first_run = [sum(1 for e in self._ends if e < k) for k in range(len(w))]
        self.costs = {t: self._costs(t) for t in range(1, self.limit + 1)}
        index, costs = self.model.index, self.costs
        self.solution = solve(self.model, self.limit, lambda throw, t: costs[t][index[throw.key]],
                              minimize=True, exact=exact)

    def _worth(self, throw, stake):
        w = worth(throw, self.rules)
        if throw.deckel == ALL and self.rules.schock_aus == "all":
            return w if self.holdings is None else self.rules.deckel_total - self.holdings[0]
        if stake is None:
            return w
        return min(w, stake)

    def _groups(self, t):
        """(distribution, earlier seat, how many such seats) of every opponent when I end after t throws."""
        groups = [(d, True, 1) for d in self.earlier]
        if self.later:
            later = self._later[t if self.opener else self.limit]
            if self.later_habits:
                groups.extend((d, False, 1) for d in later)
            else:
                groups.append((later, False, self.later))
        return groups

    def _costs(self, t):
        """The Deckel I expect to take if I end on each key (by index) after t throws."""
        if self.holdings is not None and self.stake is None:
            return self._costs_capped(t)
        model = self.model
        n = len(model.keys)
        zero = Fraction(0) if self.exact else 0.0
        tables = []
        for dist, earlier, times in self._groups(t):
            at = [[zero] * 4 for _ in range(n)]
            for (key, s), p in dist.items():
                at[model.index[key]][s] += p
            cum, run = [], zero
            for row in at:
                run += sum(row)
                cum.append(run)
            # tie[i]: the chance it ties my key i and wins the tie (fewer throws; the earlier seat on equal)
            tie = [sum(row[1:t]) + (row[t] if earlier else zero) for row in at]
            tables.append((cum, tie, times))
        if not tables:
            return [zero] * n
        worths, ends, first = self._worths, self._ends, self._first_run
        costs = []
        for i in range(n):
            # All opponents beat me, the best of them within keys i..k: F(k) = product of P(beat and <= k).
            # Summed over runs of equal worth (each run's last key in ``ends``): worth * (F(run end) -
            # F(before the run)).
            total, before = zero, zero
            for k in ends[first[i]:]:
                f = 1
                for cum, tie, times in tables:
                    f *= (cum[k] - cum[i] + tie[i]) ** times
                total += worths[k] * (f - before)
                before = f
            costs.append(total)
        return costs

    def _costs_capped(self, t):
        """``_costs`` with the middle empty: the best of the others gives me the worth of his throw, but no
        more than he holds (``holdings``). Exact over every opponent's outcomes (key, throws), ranked as
        ``schocken.ranking`` ranks them: higher key, then fewer throws, then the earlier seat."""
        import numpy as np
        model = self.model
        n = len(model.keys)
        caps = list(self.holdings[1])
        groups = [(d, True) for d in self.earlier]
        if self.later:
            later = self._later[t if self.opener else self.limit]
            groups.extend((d, False) for d in (later if self.later_habits else [later] * self.later))
        if not groups:
            return [0.0] * n
        caps = (caps + [self.rules.deckel_total] * len(groups))[:len(groups)]
        # an outcome's place: key index * 4 + (3 - throws), so higher is better before the seats' order
        places = 4 * n
        prob = np.zeros((len(groups), places))
        for g, (dist, _) in enumerate(groups):
            for (key, s), p in dist.items():
                prob[g, 4 * model.index[key] + 3 - s] += p
        below = np.cumsum(prob, axis=1) - prob          # P(strictly lower place)
        worths = np.array([self._worths[p // 4] for p in range(places)], dtype=float)
        takes_all = np.array([model.throw_of_key[p // 4].deckel == ALL and self.rules.schock_aus == "all"
                              for p in range(places)])
        costs = []
        for i in range(n):
            mine = 4 * i + 3 - t
            # P(opponent g beats me): a higher place, or my place and an earlier seat (the seats before me)
            beat_floor = np.array([below[g, mine] + (0 if groups[g][1] else prob[g, mine])
                                   for g in range(len(groups))])
            total = 0.0
            for g in range(len(groups)):
                start = mine if groups[g][1] else mine + 1
                if start >= places:
                    continue
                value = np.where(takes_all[start:], worths[start:],
                                 np.minimum(worths[start:], caps[g])) * prob[g, start:]
                others = np.ones(places - start)
                for h in range(len(groups)):
                    if h == g:
                        continue
                    # h beats me and ranks below g's outcome: on an equal place the earlier seat ranks higher
                    same = prob[h, start:] if h > g else 0.0
                    others *= np.maximum(below[h, start:] + same - beat_floor[h], 0.0)
                total += float(np.dot(value, others))
            costs.append(total)
        return costs

    def expected(self):
        """The Deckel I expect to take playing best from the start of my turn."""
        return self.solution.value()

    def cost(self, dice, throws, hand):
        """The Deckel I expect to take ending on these dice."""
        throw = self.model.final(tuple(sorted(dice, reverse=True)), throws, hand)
        return self.costs[throws][self.model.index[throw.key]]

    def decide(self, out, fell, t):
        """(expected Deckel, Move or None to stand) after throw t showed ``fell`` with ``out`` lying out."""
        return self.solution.choose(tuple(sorted(out, reverse=True)), tuple(sorted(fell, reverse=True)), t)


def _later_dist(rules, limit, assume):
    key = ("later", tuple(sorted(rules.options().items())), limit, assume)
    dist = _CACHE.get(key)
    if dist is None:
        dist = _remember(key, distribution(rules, limit, assume))
    return dist


def _remember(key, value):
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.clear()
    _CACHE[key] = value
    return value


def warm(rules, assume=keep_ones):
    """Make the tables of a rule set that every context needs (the later players' distributions, the turn
    model) now, so that no decision later pays for them (a bot calls this before the game)."""
    for limit in range(1, rules.max_throws + 1):
        _later_dist(rules, limit, assume)
        Context(rules, later=1, limit=limit).expected()


def context_for(rules, views, later, limit, opener, stake=None, assume=keep_ones, habits=None, holdings=None):
    """The Context of a round as the table shows it, kept for the next time the same round is seen. ``views``:
    (SeatView, its own throw limit) of each seat before me. ``habits`` (odds/habits.py): (a Habit per view, a
    Habit per player after me), how each of them plays; None: every one plays ``assume``. ``holdings``: (my
    Deckel, a tuple of each other's: the seats before me, then after me), what the round can move when the
    middle is empty; None: the worth of the best throw, as if everyone held enough."""
    options = tuple(sorted(rules.options().items()))
    if habits is None:
        seats = tuple(sorted((v.key(), lim) for v, lim in views))
        habit_key = None
    else:
        before, after = habits
        seats = tuple((v.key(), lim, h.key()) for (v, lim), h in zip(views, before))
        habit_key = tuple(h.key() for h in after)
    key = ("context", options, seats, later, limit, opener, stake, assume, habit_key, holdings)
    context = _CACHE.get(key)
    if context is None:
        earlier = []
        for i, (view, own) in enumerate(views):
            habit = habits[0][i] if habits is not None else None
            first = i == 0   # the round's opener (a seat ruled out of the round has no view)
            vkey = ("seen", options, view.key(), own, assume, habit.key() if habit else None, first)
            dist = _CACHE.get(vkey) or _remember(vkey, seen(rules, view, own, assume, habit, first))
            earlier.append(dist)
        context = _remember(key, Context(rules, earlier, later, limit, opener, stake, assume,
                                         later_habits=habits[1] if habits is not None else None,
                                         holdings=holdings))
    return context


def play(solution, turn):
    """Decide on a real Turn after a throw by a ``model.Solution`` (a Context's, or any other) and make the
    move on it; True to stand (a strategy of ``schocken.sim``'s kind). A turn caught between moves (a bot that
    takes it up after its host restarted or its cup refused an input) is decided as right after its throw:
    dice set aside for now are part of the throw and go back into the cup where the move does not keep them;
    after Sechsen drehen the choice is among the dice still free to set aside, and standing is no move."""
    if turn.throws_used >= turn.limit:
        return True
    out = [turn.values[i] for i in range(3) if turn.state[i] == ASIDE]
    # the throw's dice that a move may set aside: a six back in the cup after Sechsen drehen (sixes_back) not
    fell = [turn.values[i] for i in range(3) if turn.state[i] != ASIDE and not turn.locked[i]]
    _, move = solution.choose(tuple(sorted(out, reverse=True)), tuple(sorted(fell, reverse=True)),
                              turn.throws_used, turn.turned)
    if move is None:
        return True
    if move.turned:
        sixes = turn.sixes_available()
        turn.turn_sixes(sixes if solution.model.cup_sixes else sixes[:move.turned])
    keep = list(move.keep)
    kept = []
    for i in range(3):  # set aside for now already: stays where the move keeps its value
        if turn.state[i] == PENDING and turn.values[i] in keep:
            keep.remove(turn.values[i])
            kept.append(i)
    for i in range(3):
        if turn.state[i] == PENDING and i not in kept:
            turn.take_back(i)
    for i in range(3):
        if turn.state[i] == IN_CUP and not turn.locked[i] and turn.values[i] in keep:
            keep.remove(turn.values[i])
            turn.set_aside(i)
    return False


class Optimal:
    """A strategy for one turn (``schocken.sim``'s kind: called after every throw, True to stand) that plays
    ``play`` in a given Context. It turns sixes as the cup's long press does: every six offered."""

    def __init__(self, context):
        self.context = context

    def __call__(self, turn):
        return play(self.context.solution, turn)
