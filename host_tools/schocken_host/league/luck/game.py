"""Luck and decisions of one game, against the exact odds and the best play (docs/odds.md, "Luck and
decisions").

A log is replayed through table/replay.py. At each seat's reveal in a round (throw-offs decide only who opens,
not Deckel: they are left out) its transcript gives every throw of its turn: the dice that lay out before it,
the dice that fell, and what the player did next. The round's context is the one the seat saw when it played
(``table.coach.public_context``: the open dice and throws of the seats before it, how many play after it, its
limit, the Deckel in the middle), the context the ``optimal`` bots play in, and ``odds.best`` gives V, the
Deckel the seat expects to take playing best from any state of its turn. Then per throw and decision:

- luck = V(before the throw) − V(after it, the best choice on what fell): the Deckel the dice saved (negative:
  cost). Its mean over the throw's outcomes is exactly 0; its outcomes are kept (``luck_outcomes``) for how
  rare a player's luck is (league/luck/tails.py).
- loss = V(the choice made) − V(the best choice), after every throw but the last: at least 0.

Summed over a turn they add up exactly: the Deckel expected on the final throw = V(start) − luck + loss
(tests/test_luck.py holds it for every turn of whole games). Every throw's class (what lies after it: the
dice out and the dice that fell) is counted against its exact chance given the dice out and the throws used.
"""

import weakref
from dataclasses import dataclass, field

from schocken_host.odds.habits import throws_of
from schocken_host.odds.model import ROLLS, merge
from schocken_host.table.coach import limit_of, public_context
from schocken_host.table.replay import replay
from schocken_host.table.state import TableState

# per Context (kept while the Context lives): (out, t) -> the outcomes of a throw's luck
_OUTCOMES: "weakref.WeakKeyDictionary[object, dict]" = weakref.WeakKeyDictionary()
_CHANCES: dict[object, dict] = {}   # (rules, out, t) -> {kind: chance} of the class after a throw
# One tuple per distinct outcomes: the tallies of every person and game share it, however often the round
# contexts behind it were made anew (odds.best keeps only the latest contexts).
_SHARED: dict[tuple, tuple] = {}


@dataclass
class SeatTally:
    """What one seat's throws add up to (a game's, or a person's over many: ``add``)."""
    throws: int = 0
    luck: float = 0.0        # Deckel the dice saved against the expected (negative: they cost)
    spreads: dict = field(default_factory=dict)   # a throw's luck_outcomes -> how many throws had them
    decisions: int = 0
    mistakes: int = 0        # decisions that cost more than the best one
    cost: float = 0.0        # Deckel the player's own decisions cost against the best play
    classes: dict = field(default_factory=dict)   # kind -> [thrown, expected]
    chances: dict = field(default_factory=dict)   # kind -> {a throw's chance of it: how many throws had it}

    def add(self, other):
        self.throws += other.throws
        self.luck += other.luck
        for outcomes, n in other.spreads.items():
            self.spreads[outcomes] = self.spreads.get(outcomes, 0) + n
        self.decisions += other.decisions
        self.mistakes += other.mistakes
        self.cost += other.cost
        for kind, counts in other.chances.items():
            mine_counts = self.chances.setdefault(kind, {})
            for chance, n in counts.items():
                mine_counts[chance] = mine_counts.get(chance, 0) + n
        for kind, (thrown, expected) in other.classes.items():
            mine = self.classes.setdefault(kind, [0, 0.0])
            mine[0] += thrown
            mine[1] += expected


def shared(outcomes):
    """The one tuple of these outcomes (``_SHARED``; begun anew past 200,000 of them: a copy costs memory,
    not correctness)."""
    if len(_SHARED) >= 200_000:
        _SHARED.clear()
    return _SHARED.setdefault(outcomes, outcomes)


def luck_outcomes(context, out, t):
    """The luck of a throw with ``out`` lying out before throw t, as its outcomes: ((luck, chance), ...),
    equal lucks merged, sorted. Their mean is 0: V before a throw is the mean of the best choices after it."""
    known = _OUTCOMES.setdefault(context, {})
    outcomes = known.get((out, t))
    if outcomes is None:
        solution = context.solution
        before = solution.value(out, t)
        n = 3 - len(out)
        merged: dict[float, float] = {}
        for fell, count in ROLLS[n]:
            d = round(before - solution.choose(out, fell, t)[0], 12)
            merged[d] = merged.get(d, 0.0) + count / 6 ** n
        outcomes = known[(out, t)] = shared(tuple(sorted(merged.items())))
    return outcomes


def class_chances(model, out, t):
    """{kind: chance} of the class lying after throw t when ``out`` lay out before it (exact odds of the
    dice that fall; a throw is from the hand when nothing lay out)."""
    key = (tuple(sorted(model.rules.options().items())), out, t)
    chances = _CHANCES.get(key)
    if chances is None:
        n = 3 - len(out)
        chances = {}
        for fell, count in ROLLS[n]:
            kind = model.final(merge(out, fell), t, not out).kind
            chances[kind] = chances.get(kind, 0) + count / 6 ** n
        _CHANCES[key] = chances
    return chances


def turn_tally(context, throws, tally):
    """Adds the luck, the decisions and the classes of one turn's Throws in ``context`` to ``tally``;
    returns (V at the start, the luck, the loss) of this turn."""
    solution, model = context.solution, context.model
    start = solution.value((), 1)
    luck = loss = 0.0
    for throw in throws:
        before = solution.value(throw.out, throw.t)
        best, _ = solution.choose(throw.out, throw.fell, throw.t)
        luck += before - best
        outcomes = luck_outcomes(context, throw.out, throw.t)
        tally.spreads[outcomes] = tally.spreads.get(outcomes, 0) + 1
        tally.throws += 1
        for kind, chance in class_chances(model, throw.out, throw.t).items():
            tally.classes.setdefault(kind, [0, 0.0])[1] += chance
            counts = tally.chances.setdefault(kind, {})
            counts[chance] = counts.get(chance, 0) + 1
        tally.classes.setdefault(model.final(merge(throw.out, throw.fell), throw.t, not throw.out).kind,
                                 [0, 0.0])[0] += 1
        if throw.t >= context.limit:
            continue  # the last throw: the turn ends on it, nothing is decided
        if throw.next_out is None:   # stood on it
            chosen = context.costs[throw.t][model.index[model.final(merge(throw.out, throw.fell), throw.t,
                                                                     not throw.out).key]]
        else:
            chosen = solution.value(throw.next_out, throw.t + 1)
        tally.decisions += 1
        if chosen > best + 1e-9:
            tally.mistakes += 1
            loss += chosen - best
    tally.luck += luck
    tally.cost += loss
    return start, luck, loss


def game_luck(data):
    """(game id, {seat: SeatTally}) of a game log's bytes, over the rounds' valid reveals up to where the log
    stops. Turns that do not fit the rules' Turn or the throw limit (a log no cup could write) are left
    out."""
    state = TableState()
    tallies = {}

    def apply(ev):
        state.apply(ev)
        if ev["ev"] != "reveal" or state.round_kind != "round" or state.rules is None:
            return
        seat = ev["seat"]
        player = state.players[seat]
        if player.flagged:
            return
        limit = player.limit or limit_of(state, seat)
        try:
            throws = throws_of(state.rules, limit, ev["transcript"])
        except (ValueError, TypeError, IndexError, KeyError):  # RuleError is a ValueError
            return
        if not throws or throws[-1].t > limit:
            return
        context = public_context(state, seat, limit)
        turn_tally(context, throws, tallies.setdefault(seat, SeatTally()))
    replay(data, state, apply)
    return state.game_id, tallies
