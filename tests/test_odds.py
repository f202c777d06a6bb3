"""The odds of a turn and the best play (schocken_host.odds, docs/odds.md): exact values, properties, the rule
passages they rest on, the expected Deckel against the real ranking, and docs/odds.md against the code."""

from fractions import Fraction
from itertools import product
from types import SimpleNamespace

import pytest

from schocken.ranking import rank
from schocken.rules import PRESETS, Rules
from schocken.sim import keep_ones, threshold

from schocken_host.odds import best
from schocken_host.odds.classes import beat, by_kind, distribution, kinds, model_for, reach
from schocken_host.odds.model import Model, worth
from kits import odds_doc

STANDARD = Rules("standard")


def test_one_throw_from_the_rule_table():
    """Seed 002: "Schock aus · 1-1-1 · … Schock 6 bis Schock 2 · 1-1-6 bis 1-1-2 … General · drei gleiche,
    z. B. 4-4-4 … Straße · 4-5-6 bis 1-2-3 … Zahl · alles andere" (1-1-1 is the Schock-Aus: five
    Generals)."""
    for name in PRESETS:
        one = by_kind(Rules(name), distribution(Rules(name), 1, keep_ones))
        assert one["schock_aus"] == Fraction(1, 216)
        assert one["schock"] == Fraction(15, 216)
        assert one["general"] == Fraction(5, 216)
        assert one["strasse"] == Fraction(24, 216)
        assert sum(one.values()) == 1
    # "Jule: 4-2-1 zählt als Sonderwurf" (a variant of seed 002; played in wuerfel63): its six orders
    assert by_kind(Rules("wuerfel63"), distribution(Rules("wuerfel63"), 1))["jule"] == Fraction(6, 216)
    assert "jule" not in kinds(STANDARD) and "jule" in kinds(Rules("standard", jule=True))


def test_schock_aus_within_three_throws():
    """Keeping ones: each die gets three tries at a one, (1 - (5/6)**3)**3. Seed 002: "Sechsen drehen: Zwei
    Sechsen aus demselben Wurf dürfen zu einer Eins umgedreht werden, drei Sechsen zu zwei Einsen – nur, wenn
    danach noch ein Wurf erlaubt ist." raises it."""
    keeping = reach(Rules("standard", sixes_turn=False), "schock_aus", 3)
    assert keeping == Fraction(753571, 10077696) == (1 - Fraction(5, 6) ** 3) ** 3
    assert round(float(keeping), 6) == 0.074776
    turning = reach(STANDARD, "schock_aus", 3)
    assert turning == Fraction(54271, 629856)
    assert round(float(turning), 6) == 0.086164


@pytest.mark.parametrize("name", list(PRESETS))
def test_distributions_add_up_to_one_and_more_throws_reach_more(name):
    rules = Rules(name)
    for strategy in (keep_ones, threshold(2002), threshold(0)):
        for k in range(1, rules.max_throws + 1):
            dist = distribution(rules, k, strategy)
            assert sum(dist.values()) == 1
            assert all(p > 0 and 1 <= t <= k for (_, t), p in dist.items())
    for kind in kinds(rules):
        chances = [reach(rules, kind, k) for k in range(1, rules.max_throws + 1)]
        assert chances == sorted(chances) and all(0 < c <= 1 for c in chances)
        # Playing for the class reaches it at least as often as any strategy ends on it
        assert chances[-1] >= by_kind(rules, distribution(rules, rules.max_throws))[kind]


def test_the_moves_follow_the_rule_texts():
    # Seed 003: "Die zweite Sechs muss dann für den nächsten Wurf wieder in den Becher."
    beton = Model(Rules("beton"))
    assert all(6 not in m.keep for m in beton.moves((), (6, 6, 5)) if m.turned)
    assert any(6 in m.keep for m in Model(STANDARD).moves((), (6, 6, 5)) if m.turned)
    # Seed 001: "Einsen können jederzeit herausgelegt werden, um einen Schock „zu sammeln“, andere Zahlen
    # müssen erneut geworfen werden."
    assert {m.keep for m in Model(Rules("wuerfel63")).moves((), (5, 1, 1))} == {(), (1,), (1, 1)}
    # Seed 002: Sechsen drehen "nur, wenn danach noch ein Wurf erlaubt ist": after the last throw, no move
    six_six_six = model_for(STANDARD).final((6, 6, 6), 1, True)
    assert beat(STANDARD, six_six_six, 1).choose((), (6, 6, 2), 1)[1] is None
    # seed 004 house rule "Eins weglegen Pflicht": a one that fell stays out
    must = Model(Rules("ludomax", ones_must_stay=True))
    assert all(m.keep.count(1) == 1 for m in must.moves((), (5, 3, 1)))


def test_ties_in_beating_a_throw():
    """Seed 002: "Bei Gleichstand verliert, wer später gleichgezogen hat – es sei denn, er hat weniger Würfe
    gebraucht." The throw to beat came before mine."""
    model = model_for(STANDARD)
    after_two = model.final((6, 6, 1), 2, False)
    assert beat(STANDARD, after_two, 2).choose((), (6, 6, 1), 1)[0] == 1      # fewer throws: mine wins
    after_one = model.final((6, 6, 1), 1, True)
    assert beat(STANDARD, after_one, 1).value() < 1
    assert beat(STANDARD, after_one, 1).choose((), (6, 6, 1), 1)[0] == 0       # as many: the earlier wins


def _brute_cost(rules, context_dists, mine, t):
    """The Deckel I take ending on ``mine`` after t throws, by ranking every combination of the opponents'
    outcomes with schocken.ranking (earlier seats first, me, then the later ones)."""
    model = model_for(rules)
    total = Fraction(0)
    earlier, later = context_dists
    for combo in product(*[list(d.items()) for d in earlier + later]):
        p = Fraction(1)
        results = []
        for (key, s), q in combo:
            p *= q
            results.append(SimpleNamespace(key=key, throws=s))
        me = len(earlier)
        results.insert(me, SimpleNamespace(key=mine, throws=t))
        order = rank(results)
        if order[-1] == me:
            total += p * worth(model.throw_of_key[model.index[results[order[0]].key]], rules)
    return total


@pytest.mark.parametrize("name", ["standard", "wuerfel63"])
def test_expected_deckel_equal_the_ranking_of_every_outcome(name):
    """Seed 002: "Der schlechteste Wurf bekommt so viele Deckel, wie der beste Wurf wert ist." and "Wie oft
    der Startspieler würfelt, gilt für alle": as opener my throws are the later player's limit."""
    rules = Rules(name)
    first = best.known(rules, (6, 5, 2), 2, False)
    for context, opener in ((best.Context(rules, [first], later=1, limit=2, exact=True), False),
                            (best.Context(rules, [], later=2, exact=True), True)):
        model = context.model
        for t in range(1, context.limit + 1):
            later = [context._later[t if opener else context.limit]] * context.later
            for i in range(0, len(model.keys), 3):
                assert context.costs[t][i] == _brute_cost(rules, (context.earlier, later), model.keys[i], t)


CONTEXTS = [
    dict(later=1), dict(later=3), dict(later=3, stake=2),
    dict(earlier=[("known", (1, 1, 4), 2, False)], later=1, limit=2),
    dict(earlier=[("seen", (1,), 3, False, 3), ("seen", (), 2, True, 3)], later=2, limit=3),
    dict(earlier=[("known", (6, 4, 2), 1, True)], later=0, limit=1),
]


def _context(rules, spec, cup_sixes):
    spec = dict(spec)
    earlier = []
    for e in spec.pop("earlier", []):
        if e[0] == "known":
            earlier.append(best.known(rules, *e[1:]))
        else:
            earlier.append(best.seen(rules, best.SeatView(e[1], e[2], e[3]), e[4]))
    return best.Context(rules, earlier, exact=True, cup_sixes=cup_sixes, **spec)


@pytest.mark.parametrize("name", ["standard", "wuerfel63", "beton"])
def test_optimal_is_never_worse_than_keeping_ones(name):
    """Exactly, in Fractions: the Bellman value of a context against keep_ones' final throws in it."""
    rules = Rules(name)
    for spec in CONTEXTS:
        for cup_sixes in (False, True):
            context = _context(rules, spec, cup_sixes)
            index = context.model.index
            keeping = sum(p * context.costs[t][index[key]]
                          for (key, t), p in distribution(rules, context.limit, keep_ones).items())
            assert context.expected() <= keeping, (spec, cup_sixes)
        assert context.expected() >= 0


def test_a_seat_that_used_its_throws_never_saw_them():
    """Seed 000 ("Der letzte Wurf … verdeckt"), docs/rules.md "Hidden last throw": the last permitted throw
    stays under the cup, so the dice of a seat that used all its throws are uniform; one that stood early
    stood on what the assumed strategy stands on."""
    forced = best.seen(STANDARD, best.SeatView((1,), 3, False), 3)
    assert sum(forced.values()) == 1 and len(forced) > 10
    early = best.seen(STANDARD, best.SeatView((1,), 2, True), 3)
    schock = 3000
    assert sum(early.values()) == 1 and all(key >= schock for key, _ in early)


def test_decisions_are_fast():
    import time
    rules = Rules("verein")
    best.warm(rules)
    t0 = time.perf_counter()
    context = best.context_for(rules, [(best.SeatView((1, 1), 3, False), 3)], 2, 3, False, 9)
    context.decide((), (6, 6, 1), 1)
    assert time.perf_counter() - t0 < 0.1   # measured: a few ms (docs/benchmarks.md, "Strategy")


def test_the_doc_tables_are_what_the_code_computes():
    assert odds_doc.generated(odds_doc.DOC.read_text(encoding="utf-8")) == odds_doc.render().strip()
