"""docs/odds.md "How the numbers were checked": the exact values against turns played on the real
``schocken.turn.Turn`` with the cups' fair-play dice (``schocken.fair.derive_dice``).

Each check plays N turns from a fixed seed, so it gives the same answer on every run. The bound is five
standard errors of the exact value, sqrt(p (1 - p) / N): with a correct model a fresh seed would fail one
check in about 1.7 million (the two-sided normal tail beyond 5 sigma, 5.7e-7), and an error of a few
standard errors of these N (about 0.3 percentage points at N = 20,000 and p = 0.04) shows. The moves are made
on the real Turn, so a move the model allows and the engine refuses raises RuleError here.
"""

import math

import pytest

from schocken.fair import derive_dice
from schocken.rules import Rules
from schocken.sim import keep_ones
from schocken.turn import Turn

from schocken_host.odds import best
from schocken_host.odds.classes import by_kind, distribution, reach, reach_solution

SEED = b"odds-check 2026"
N = 20000


def play(rules, limit, strategy, n, salt):
    """n turns, turn i's throw k drawn as a cup draws it for round i, throw k, with nonce ``salt``."""
    for i in range(n):
        turn = Turn(rules, limit)
        while True:
            turn.roll(derive_dice(SEED, salt, i, turn.throws_used + 1, len(turn.in_cup())))
            if strategy(turn):
                break
        turn.stand()
        yield turn


def within(count, n, p, sigmas=5):
    p = float(p)
    return abs(count / n - p) <= sigmas * math.sqrt(p * (1 - p) / n)


@pytest.mark.parametrize("name", ["standard", "beton"])
def test_keep_ones_classes_match_the_enumeration(name):
    rules = Rules(name)
    exact = by_kind(rules, distribution(rules, 3, keep_ones))
    counts = dict.fromkeys(exact, 0)
    for turn in play(rules, 3, keep_ones, N, "keep-" + name):
        counts[turn.result().kind] += 1
    for kind, p in exact.items():
        assert within(counts[kind], N, p), (kind, counts[kind] / N, float(p))


@pytest.mark.parametrize("options", [{}, {"sixes_turn": False}])
def test_playing_for_a_schock_aus_matches(options):
    rules = Rules("standard", **options)
    solution = reach_solution(rules, "schock_aus", 3)
    hits = sum(turn.result().kind == "schock_aus"
               for turn in play(rules, 3, lambda t: best.play(solution, t), N, "aus-%s" % options))
    assert within(hits, N, reach(rules, "schock_aus", 3)), hits / N


@pytest.mark.parametrize("name", ["standard", "wuerfel63"])
def test_the_optimal_play_takes_what_the_bellman_value_says(name):
    """The mean Deckel expected on the final throws of the optimal play equals the context's Bellman value."""
    rules = Rules(name)
    first = best.known(rules, (6, 6, 1), 3, False)  # the opener's, after three throws
    context = best.Context(rules, [first], later=2, limit=3, opener=False)
    costs = [context.cost(t.dice(), t.throws_used, t.hand())
             for t in play(rules, 3, best.Optimal(context), N, "best-" + name)]
    mean = sum(costs) / N
    sd = math.sqrt(sum((c - mean) ** 2 for c in costs) / (N - 1))
    assert abs(mean - context.expected()) <= 5 * sd / math.sqrt(N), (mean, context.expected())
