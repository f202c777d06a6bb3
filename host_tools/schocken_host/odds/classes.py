"""The chance of each class of throw within k throws, and the final throw's distribution under a fixed
strategy.

- ``reach(rules, kind, k)``: the best chance of ending the turn on a throw of that class within k throws,
  playing for that class alone (Bellman over ``model``: keep what helps, turn sixes where that helps, stand as
  soon as it is there). Every class is played for separately, so these chances do not add up to one.
- ``distribution(rules, k, strategy)``: how a turn of at most k throws ends under one of ``schocken.sim``'s
  strategies, enumerated through the real ``schocken.turn.Turn``: each state is built by legal moves and the
  strategy itself decides on it; the chances add up to one.

All values are exact Fractions.
"""

from fractions import Fraction

from schocken.sim import keep_ones
from schocken.throws import KINDS
from schocken.turn import IN_CUP, Turn

from schocken_host.odds.model import ROLLS, Model, solve

_MODELS: dict[object, Model] = {}


def model_for(rules, cup_sixes=False):
    """One Model per rule set options (and kind of Sechsen drehen), kept: every query reuses its tables."""
    key = (tuple(sorted(rules.options().items())), cup_sixes)
    model = _MODELS.get(key)
    if model is None:
        if len(_MODELS) > 32:
            _MODELS.clear()
        model = _MODELS[key] = Model(rules, cup_sixes)
    return model


def kinds(rules):
    """The classes a rule set has, best first (Jule only where it is played)."""
    found = {t.kind for t in model_for(rules).throw_of_key}
    return [k for k in KINDS if k in found]


def reach(rules, kind, throws):
    """The best chance (Fraction) of a turn of at most ``throws`` throws ending on a throw of ``kind``."""
    return solve(model_for(rules), throws, lambda throw, t: 1 if throw.kind == kind else 0).value()


def reach_solution(rules, kind, throws):
    """The Solution behind ``reach``: its ``choose`` is the best play for that class (tests play it)."""
    return solve(model_for(rules), throws, lambda throw, t: 1 if throw.kind == kind else 0)


def beat(rules, target, limit):
    """The Solution of a turn of at most ``limit`` throws that must beat ``target`` (a Throw of a player
    before me): higher, or as high with fewer throws (with as many the earlier player wins). ``value()`` is
    the best chance, ``choose`` the best play."""
    def stand(throw, t):
        return 1 if throw.key > target.key or (throw.key == target.key and t < target.throws) else 0
    return solve(model_for(rules), limit, stand)


def turn_at(rules, limit, out, fell, t):
    """A real Turn after throw t showed ``fell``, with ``out`` set aside for good: reached by legal moves
    (the throws before carry dice that no strategy sees; only the last one is decided on)."""
    turn = Turn(rules, limit)
    if t > 1:
        filler = [2] * (3 - len(out))
        turn.roll(list(out) + filler)
        for slot in range(len(out)):
            turn.set_aside(slot)
        for _ in range(t - 2):
            turn.roll(filler)
    turn.roll(list(fell))
    return turn


def distribution(rules, throws, strategy=keep_ones):
    """{(key, throws used): Fraction} of a turn's final throw with at most ``throws`` throws when ``strategy``
    (a function of a Turn, True to stand, as in ``schocken.sim``) decides after every throw."""
    # Counted in whole numbers over 6 ** (3 * (throws - t + 1)) before throw t (at most three dice a throw),
    # made Fractions once at the end: the same chances, without a Fraction's gcd at every sum.
    memo = {}

    def before(out, t):
        key = (out, t)
        if key not in memo:
            scale = 6 ** len(out)  # 216 / 6 ** (dice thrown): from the next throw's denominator to this one's
            dist = {}
            for fell, count in ROLLS[3 - len(out)]:
                for outcome, n in after(out, fell, t).items():
                    dist[outcome] = dist.get(outcome, 0) + count * scale * n
            memo[key] = dist
        return memo[key]

    def after(out, fell, t):
        turn = turn_at(rules, throws, out, fell, t)
        if strategy(turn):   # sim.play_turn asks after the last throw too: a strategy stands then
            return {(turn.result().key, t): 6 ** (3 * (throws - t))}
        left = tuple(sorted((turn.values[i] for i in range(3) if turn.state[i] != IN_CUP), reverse=True))
        return before(left, t + 1)

    total = 6 ** (3 * throws)
    return {k: Fraction(n, total) for k, n in before((), 1).items()}


def by_kind(rules, dist):
    """A distribution over (key, throws) summed per class: {kind: Fraction}."""
    model = model_for(rules)
    out = {k: Fraction(0) for k in kinds(rules)}
    for (key, _), p in dist.items():
        out[model.throw_of_key[model.index[key]].kind] += p
    return out


def class_table(rules, throws, strategy=keep_ones):
    """Rows (kind, chance in one throw, best chance within ``throws``, share under ``strategy``), best class
    first: what `schocken odds` prints and docs/odds.md shows."""
    one = by_kind(rules, distribution(rules, 1, strategy))
    played = by_kind(rules, distribution(rules, throws, strategy))
    return [(kind, one[kind], reach(rules, kind, throws), played[kind]) for kind in kinds(rules)]
