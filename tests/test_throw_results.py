"""evaluate's kept results (schocken.results, CPython) against fresh classification, the read-only Throw, and
the same RuleError for every bad input, kept or not, on CPython and on MicroPython."""

import copy
import itertools
import pickle
import subprocess
import sys

import pytest

from conftest import ROOT, mp_env
from schocken import RuleError, results, throws
from schocken.game import Game
from schocken.rules import PRESETS, Rules
from schocken.throws import Throw, all_throws, evaluate, fresh

FIELDS = ("dice", "throws", "hand", "kind", "label", "deckel", "key")


def _fields(throw):
    return tuple(getattr(throw, f) for f in FIELDS) + (throw.to_dict(), repr(throw))


def _error(call):
    try:
        call()
    except RuleError as e:
        return str(e)
    raise AssertionError("no RuleError")


def test_cpython_evaluate_keeps_results():
    assert evaluate is not fresh and evaluate.__module__ == "schocken.results"
    assert throws.evaluate is evaluate


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_kept_results_equal_fresh_ones(preset):
    """Every order of the 56 throws, with 1..3 throws, from the hand or not: the kept result (asked twice, so
    the second comes from the table) equals a fresh one, and all orders of the same dice share one Throw."""
    rules = Rules(preset)
    for dice in all_throws():
        for n in range(1, rules.max_throws + 1):
            for hand in (True, False) if n > 1 else (True,):
                shared = evaluate(list(dice), n, hand, rules)
                for order in set(itertools.permutations(dice)):
                    for given in (order, list(order)):
                        first = evaluate(given, n, hand, rules)
                        assert evaluate(given, n, hand, rules) is first is shared
                        assert _fields(first) == _fields(fresh(given, n, hand, rules)), (given, n, hand)


def test_kept_results_follow_the_options():
    """Rule sets with equal options share a table, others do not: a Jule is a Jule only where it counts."""
    plain, jule, jule_too = Rules("standard"), Rules("standard", jule=True), Rules("standard", jule=True)
    assert evaluate([4, 2, 1], 1, True, plain).kind == "zahl"
    assert evaluate([4, 2, 1], 1, True, jule).kind == "jule"
    assert evaluate([1, 2, 4], 1, True, jule_too) is evaluate([4, 2, 1], 1, True, jule)
    assert jule._results is jule_too._results is not plain._results
    assert evaluate([1, 1, 1]) is evaluate((1, 1, 1), 1, True, Rules("standard"))  # the default rule set


def test_table_count_is_bounded():
    for total in range(1, 3 * results._MAX_TABLES):
        evaluate([6, 5, 4], 1, True, Rules("standard", deckel_total=total))
        assert len(results._TABLES) <= results._MAX_TABLES


BAD = [
    # (dice, throws, hand): wrong shapes and types, values equal to an int, out of range, illegal combinations
    (None, 1, True), (5, 1, True), ("123", 1, True), ([1, 2], 1, True), ((1, 2, 3, 4), 1, True),
    ({1, 2, 3}, 1, True), (range(1, 4), 1, True), ([1.0, 2, 3], 1, True), ([True, 2, 3], 1, True),
    ((1, 2, "3"), 1, True), ([0, 2, 3], 1, True), ([1, 2, 7], 1, True), ([-1, 2, 3], 1, True),
    ([1, 2, 3], 0, True), ([1, 2, 3], 4, True), ([1, 2, 3], True, True), ([1, 2, 3], 1.0, True),
    ([1, 2, 3], "2", True), ([1, 2, 3], None, True), ([1, 2, 3], 2, 1), ([1, 2, 3], 2, 0),
    ([1, 2, 3], 2, None), ([1, 2, 3], 2, "yes"), ([1, 2, 3], 1, False), ((1, 2, 3), 1, False),
]


@pytest.mark.parametrize("dice, n, hand", BAD, ids=[repr(b) for b in BAD])
def test_bad_input_raises_as_before(dice, n, hand):
    """The same message kept or fresh, before and after the valid neighbours of the input are in the table."""
    rules = Rules("standard")
    want = _error(lambda: fresh(dice, n, hand, rules))
    assert _error(lambda: evaluate(dice, n, hand, rules)) == want
    for d in ([1, 2, 3], (1, 2, 3), [2, 3, 1]):
        for t, h in ((1, True), (2, True), (2, False)):
            evaluate(d, t, h, rules)
    assert _error(lambda: evaluate(dice, n, hand, rules)) == want


def test_error_messages_are_pinned():
    rules = Rules("beton", max_throws=2)
    assert _error(lambda: evaluate([1, 2], 1, True, rules)) == "a throw needs exactly three dice, got [1, 2]"
    assert _error(lambda: evaluate([1.0, 2, 3], 1, True, rules)) == "a die shows 1 to 6, got 1.0"
    assert _error(lambda: evaluate([True, 2, 3], 1, True, rules)) == "a die shows 1 to 6, got True"
    assert _error(lambda: evaluate((1, 2, 3), 3, True, rules)) == "throws must be 1 to 2, got 3"
    assert _error(lambda: evaluate((1, 2, 3), 2, 1, rules)) == "hand must be true or false, got 1"
    assert (_error(lambda: evaluate((1, 2, 3), 1, False, rules))
            == "a throw with dice set aside needs at least two throws")


def test_an_int_subclass_is_evaluated_but_not_kept():
    class Die(int):
        pass

    rules = Rules("standard")
    dice = [Die(3), Die(2), Die(1)]
    got = evaluate(dice, 2, True, rules)
    assert _fields(got) == _fields(fresh([3, 2, 1], 2, True, rules))
    assert not any(type(k[0]) is Die for k in rules._results)


def test_throw_is_read_only():
    throw = evaluate([6, 6, 6])
    for name in FIELDS + ("other",):
        with pytest.raises(AttributeError):
            setattr(throw, name, 1)
        with pytest.raises(AttributeError):
            delattr(throw, name)
    assert (throw.label, throw.key) == ("General", 2006)
    assert repr(throw) == "Throw(6-6-6, General, throws=1, hand=True)"


def test_throws_and_rule_sets_copy_and_pickle():
    rules = Rules("ludomax")
    throw = evaluate([1, 5, 4], 2, False, rules)
    for twin in (copy.copy(throw), copy.deepcopy(throw), pickle.loads(pickle.dumps(throw))):
        assert isinstance(twin, Throw) and _fields(twin) == _fields(throw)
        assert twin.label == "154"
    copied = copy.deepcopy(rules)
    assert copied == rules and copied._results is rules._results  # the table is shared, not copied
    assert evaluate([1, 5, 4], 2, False, copied) is throw
    game = Game(Rules("standard"), ["a", "b", "c"])
    game.throw_off([[6, 5, 4], [3, 2, 1], [2, 2, 1]])
    assert copy.deepcopy(game).rules._results is game.rules._results


MP_SCRIPT = """
import sys
from schocken import RuleError
from schocken.rules import Rules
from schocken.throws import evaluate, fresh
rules = Rules("standard")
out = []
for dice, n, hand in %s:
    try:
        evaluate(dice, n, hand, rules)
        out.append(None)
    except RuleError as e:
        out.append(str(e))
print(repr(out))
t = evaluate([6, 6, 6])
try:
    t.label = "x"
    print("writable")
except AttributeError:
    print("read-only", t.label)
print(evaluate is fresh, "schocken.results" in sys.modules)
"""


def test_micropython_raises_the_same_and_throw_is_read_only(micropython, tmp_path):
    bad = [b for b in BAD if not isinstance(b[0], (set, range))]  # reprs that both interpreters write alike
    script = tmp_path / "script.py"
    script.write_text(MP_SCRIPT % repr(bad))
    proc = subprocess.run([micropython, "-X", "heapsize=256k", str(script)],
                          env=mp_env(ROOT / "firmware" / "lib"), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.strip().splitlines()
    rules = Rules("standard")
    assert lines[0] == repr([_error(lambda: fresh(d, n, h, rules)) for d, n, h in bad])
    assert lines[1:] == ["read-only General", "True False"]  # MicroPython classifies afresh, keeps nothing


def test_peer_bench_refuses_a_path_that_is_no_papr_checkout(tmp_path):
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "peer.py"), str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
    assert proc.stderr.strip().count("\n") == 0 and "not a papr/schocken-discord-bot checkout" in proc.stderr


def test_peer_bench_runs_against_a_stand_in(tmp_path):
    """bench/peer.py on a stand-in with papr's two entry points (papr's own code never enters this repo)."""
    wurf = tmp_path / "src" / "schocken" / "wurf.py"
    wurf.parent.mkdir(parents=True)
    wurf.write_text("def welcher_wurf(wuerfel_augen, aus_der_hand=True):\n"
                    "    return tuple(sorted(wuerfel_augen, reverse=True))\n\n\n"
                    "def prioritaet(wurf):\n"
                    "    return -(wurf[0] / 10 + wurf[1] / 100 + wurf[2] / 1000)\n")
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "peer.py"), str(tmp_path), "--rounds", "2"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "same order of the 56 throws (hand and not) as wuerfel63: NO" in proc.stdout
    assert proc.stdout.strip().splitlines()[-1].startswith("ratio ours/papr: best ")
