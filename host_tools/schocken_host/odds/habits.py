"""How the other players at the table play: each one's habit, learnt from the turns the table has seen of him
(docs/odds.md, "Opponent model").

A habit is the chance that a player stands after throw t of a turn of at most L throws (t < L) on a throw of
one bucket, as the opener of the round or later in it. The buckets are the throw as it lies when he decides:
Zahl by its highest dice (4 or less, 5, 6 with a lower second die, 6-5), Straße, General, Schock, Jule,
Schock-Aus. When he goes on he plays the move every simple strategy plays (``keep_ones``'s: the ones set
aside, two sixes turned), so a habit is a strategy of chances, and the distribution of a turn's end under it
is exact for that strategy (``distribution``, by the same enumeration through the rules' ``Turn`` as
``odds.classes.distribution``, its transitions kept per rule set and limit).

A habit is learnt from turns (``learn``): every throw of a revealed turn that was not the last he had is one
decision in its cell, stood or went on. The estimate of a cell is the share of stands, pulled toward the
prior's chance by ``PRIOR`` decisions: (PRIOR * prior + stands) / (PRIOR + decisions). A cell never seen keeps
the prior. The prior is the table's pooled habit (every player's decisions together, pulled toward the base
habit the same way), so a player seen a few times is judged like the table, and a table seen a few times like
the base: ``keep_ones``, the strategy the best play assumed before there were habits.
"""

from dataclasses import dataclass

from schocken import RuleError
from schocken.sim import keep_ones
from schocken.turn import IN_CUP, Turn, apply_steps

from schocken_host.odds.classes import model_for, turn_at
from schocken_host.odds.model import ROLLS

PRIOR = 1.0            # decisions the prior counts as, against a player's own
LIMITS = (2, 3)        # a turn of one throw decides nothing
CELLS = tuple((t, limit, first, bucket) for limit in LIMITS for t in range(1, limit)
              for first in (True, False) for bucket in range(9))
INDEX = {cell: i for i, cell in enumerate(CELLS)}
_KINDS = {"strasse": 4, "general": 5, "schock": 6, "jule": 7, "schock_aus": 8}
BUCKET_NAMES = ("Zahl 4", "Zahl 5", "Zahl 6", "Zahl 6-5", "Straße", "General", "Schock", "Jule", "Schock-Aus")
_NEVER = 10 ** 9       # a key no throw reaches: keep_ones's move without its stand


def bucket(throw):
    """The bucket of a Throw as it lies (0..8, the order of BUCKET_NAMES)."""
    if throw.kind != "zahl":
        return _KINDS[throw.kind]
    high, second = throw.dice[0], throw.dice[1]
    if high <= 4:
        return 0
    if high == 5:
        return 1
    return 3 if second >= 5 else 2


class Habit:
    """A player's chances of standing, per cell of ``CELLS`` (a tuple of floats, so a habit is a key of the
    caches), with ``decisions`` the number of his own decisions it was learnt from and ``name`` what it is
    (``"keep_ones"``, ``"learnt"``)."""
    __slots__ = ("stand", "decisions", "name")

    def __init__(self, stand, decisions=0, name="learnt"):
        self.stand = tuple(round(p, 6) for p in stand)
        self.decisions = decisions
        self.name = name

    def key(self):
        return self.stand

    def chance(self, t, limit, first, b):
        i = INDEX.get((t, limit, first, b))
        return 1.0 if i is None else self.stand[i]

    def __repr__(self):
        return "Habit(%s, %d decisions)" % (self.name, self.decisions)


def _stands_by_rule(b):
    return 1.0 if b >= _KINDS["schock"] else 0.0


BASE = Habit([_stands_by_rule(b) for _, _, _, b in CELLS], name="keep_ones")
# The bots' simple strategies as habits: exactly what they do (keep_ones's move, standing by the bucket).
OF_STRATEGY = {
    "schock": BASE,
    "general": Habit([1.0 if b >= _KINDS["general"] else 0.0 for _, _, _, b in CELLS], name="general"),
    "fast": Habit([1.0] * len(CELLS), name="fast"),
}


def counts(decisions, into=None):
    """(stands, seen) per cell of ``decisions`` ((t, limit, first, bucket, stood) each), added to ``into``."""
    stands, seen = into if into is not None else ([0] * len(CELLS), [0] * len(CELLS))
    for t, limit, first, b, stood in decisions:
        i = INDEX.get((t, limit, first, b))
        if i is not None:
            seen[i] += 1
            stands[i] += 1 if stood else 0
    return stands, seen


def learn(decisions, prior=BASE, strength=PRIOR, counted=None):
    """The Habit of ``decisions`` ((t, limit, first, bucket, stood) each; or ``counted``: (stands, seen) per
    cell) pulled toward ``prior``."""
    stands, seen = counted if counted is not None else counts(decisions)
    return Habit([(strength * p + s) / (strength + k) for p, s, k in zip(prior.stand, stands, seen)],
                 sum(seen))


@dataclass
class Throw:
    """One throw of a turn: ``out`` the dice lying out for good before it, ``fell`` the dice it threw (both
    sorted, highest first), ``t`` the throws used with it, ``next_out`` what lay out before the next throw
    (None: the player stood on it, or it was the last)."""
    out: tuple
    fell: tuple
    t: int
    next_out: object = None


def throws_of(rules, limit, transcript):
    """The Throws of a revealed turn (its transcript replayed on the rules' Turn; RuleError, ValueError,
    TypeError, IndexError, KeyError for a transcript no turn can have)."""
    turn = Turn(rules, limit)
    found = []
    for step in transcript:
        if step[0] == "roll":
            out = tuple(sorted((turn.values[i] for i in range(3) if turn.state[i] != IN_CUP), reverse=True))
            if found:
                found[-1].next_out = out
            apply_steps(turn, [step])
            found.append(Throw(out, tuple(sorted(step[1], reverse=True)), turn.throws_used))
        else:
            apply_steps(turn, [step])
    return found


def decisions_of(rules, limit, first, throws):
    """The decisions of one revealed turn: its Throws (``throws_of``) -> [(t, limit, first, bucket, stood)],
    one per throw before its last permitted one."""
    model = model_for(rules)
    found = []
    for throw in throws:
        if throw.t >= limit:
            continue
        lying = tuple(sorted(throw.out + throw.fell, reverse=True))
        b = bucket(model.final(lying, throw.t, not throw.out))
        found.append((throw.t, limit, bool(first), b, throw.next_out is None))
    return found


class Habits:
    """The habits of the players at a table, learnt from their turns: ``add(seat, decisions)`` (or
    ``add_counts``: what a host remembers of a player from games before, table/habit_book.py), then
    ``of(seat)`` (a player's, with the table's pooled habit as prior) and ``pooled()``."""

    def __init__(self, base=BASE, strength=PRIOR):
        self.base = base
        self.strength = strength
        self.by_seat = {}       # seat -> (stands, seen) per cell
        self._made = {}

    def add(self, seat, decisions):
        if decisions:
            counts(decisions, self._counts(seat))
            self._made.clear()

    def add_counts(self, seat, stands, seen):
        mine = self._counts(seat)
        for i in range(len(CELLS)):
            mine[0][i] += stands[i]
            mine[1][i] += seen[i]
        self._made.clear()

    def _counts(self, seat):
        if seat not in self.by_seat:
            self.by_seat[seat] = ([0] * len(CELLS), [0] * len(CELLS))
        return self.by_seat[seat]

    def decisions(self, seat):
        return sum(self.by_seat[seat][1]) if seat in self.by_seat else 0

    def pooled(self):
        if "pooled" not in self._made:
            stands, seen = [0] * len(CELLS), [0] * len(CELLS)
            for s, k in self.by_seat.values():
                for i in range(len(CELLS)):
                    stands[i] += s[i]
                    seen[i] += k[i]
            self._made["pooled"] = learn((), self.base, self.strength, (stands, seen))
        return self._made["pooled"]

    def of(self, seat):
        if seat not in self._made:
            self._made[seat] = learn((), self.pooled(), self.strength,
                                     self.by_seat.get(seat, ([0] * len(CELLS), [0] * len(CELLS))))
        return self._made[seat]


# --- the distributions a habit gives ---------------------------------------------------------------------
_TRANSITIONS: dict[object, dict] = {}
_DISTS: dict[object, dict] = {}


def _transitions(rules, limit):
    """{(out, t): [(fell, count, (key, t), bucket, next out or None)]}: every throw of a turn of at most
    ``limit`` throws, on the rules' Turn, with keep_ones's move after it (None: that move stands, e.g. no die
    is left for the cup)."""
    key = (tuple(sorted(rules.options().items())), limit)
    found = _TRANSITIONS.get(key)
    if found is not None:
        return found
    model = model_for(rules)
    found = {}
    todo = [((), 1)]
    while todo:
        out, t = todo.pop()
        if (out, t) in found:
            continue
        rows = []
        for fell, count in ROLLS[3 - len(out)]:
            turn = turn_at(rules, limit, out, fell, t)
            final = turn.result()
            b = bucket(model.final(final.dice, t, final.hand))
            nxt = None
            if t < limit:
                try:
                    if not keep_ones(turn, _NEVER):
                        nxt = tuple(sorted((turn.values[i] for i in range(3) if turn.state[i] != IN_CUP),
                                           reverse=True))
                except RuleError:
                    nxt = None
            rows.append((fell, count, (final.key, t), b, nxt))
            if nxt is not None:
                todo.append((nxt, t + 1))
        found[(out, t)] = rows
    if len(_TRANSITIONS) > 64:
        _TRANSITIONS.clear()
    _TRANSITIONS[key] = found
    return found


def distribution(rules, limit, habit, first=False):
    """{(key, throws): chance} of the end of a turn of at most ``limit`` throws played by ``habit`` (floats;
    they add up to one)."""
    key = (tuple(sorted(rules.options().items())), limit, habit.key(), first)
    dist = _DISTS.get(key)
    if dist is not None:
        return dist
    rows = _transitions(rules, limit)
    memo = {}

    def before(out, t):
        if (out, t) not in memo:
            n = 6 ** (3 - len(out))
            d = {}
            for _, count, end, b, nxt in rows[(out, t)]:
                w = count / n
                p = 1.0 if nxt is None else habit.chance(t, limit, first, b)
                if p > 0:
                    d[end] = d.get(end, 0.0) + w * p
                if p < 1:
                    for k, q in before(nxt, t + 1).items():
                        d[k] = d.get(k, 0.0) + w * (1 - p) * q
            memo[(out, t)] = d
        return memo[(out, t)]
    dist = before((), 1)
    if len(_DISTS) > 4096:
        _DISTS.clear()
    _DISTS[key] = dist
    return dist


def stand_weight(rules, limit, habit, first, out, fell, t):
    """The chance that ``habit`` stands after throw t showed ``fell`` with ``out`` lying out for good (1 on
    the last permitted throw; 0 where the rules' Turn cannot be in that state)."""
    if t >= limit:
        return 1.0
    try:
        turn = turn_at(rules, limit, out, fell, t)
    except RuleError:
        return 0.0
    final = turn.result()
    return habit.chance(t, limit, first, bucket(model_for(rules).final(final.dice, t, final.hand)))


def expected_playing(context, habit, first, out=(), t=1):
    """The Deckel a player expects to take in ``context`` (odds.best.Context: the round as he sees it, the
    others' habits) when he plays ``habit`` from before throw t with ``out`` lying out, rather than the best
    play: the model's prediction of a player who is not the optimal bot."""
    rules, limit = context.rules, context.limit
    rows = _transitions(rules, limit)
    index, costs = context.model.index, context.costs
    memo = {}

    def before(out, t):
        if (out, t) not in memo:
            n = 6 ** (3 - len(out))
            total = 0.0
            for _, count, (key, s), b, nxt in rows[(out, t)]:
                p = 1.0 if nxt is None else habit.chance(t, limit, first, b)
                value = p * costs[s][index[key]]
                if p < 1:
                    value += (1 - p) * before(nxt, t + 1)
                total += count * value
            memo[(out, t)] = total / n
        return memo[(out, t)]
    return before(out, t)
