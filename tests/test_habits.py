"""The opponent model of the best play (odds/habits.py, docs/odds.md "Opponent model"): a habit's turn is the
rules' own (a simple strategy's habit gives exactly that strategy's distribution), a learnt habit is the
share of stands pulled toward its prior, the table learns only from rounds before the present one, and the
Deckel a round can move with the middle empty are those ``schocken.ranking`` and ``Half.give`` move."""

import itertools
import json
from pathlib import Path

import pytest

from schocken.rules import PRESETS, Rules
from schocken.ranking import rank_round
from schocken.sim import keep_ones, threshold
from schocken.throws import ALL

from schocken_host.odds import habits as habit_model
from schocken_host.odds.best import Context, SeatView, context_for
from schocken_host.odds.classes import distribution
from schocken_host.table.coach import public_context, round_habits, table_habits
from schocken_host.table.state import TableState

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_simple_strategys_habit_ends_its_turns_exactly_as_the_strategy(preset):
    rules = Rules(preset)
    for name, strategy in (("schock", keep_ones), ("general", threshold(2002)), ("fast", threshold(0))):
        for limit in range(1, rules.max_throws + 1):
            exact = distribution(rules, limit, strategy)
            got = habit_model.distribution(rules, limit, habit_model.OF_STRATEGY[name])
            assert set(got) <= set(exact) and abs(sum(got.values()) - 1) < 1e-12
            assert max(abs(float(p) - got.get(k, 0.0)) for k, p in exact.items()) < 1e-12, (name, limit)


def test_the_base_habit_gives_the_contexts_of_before():
    rules = Rules("standard")
    view = SeatView([1, 1], 2, True, [1, 1])
    for views, later, limit, opener in (([], 3, 3, True), ([(view, 3)], 2, 2, False),
                                        ([(view, 3)], 0, 2, False)):
        old = context_for(rules, views, later, limit, opener)
        new = context_for(rules, views, later, limit, opener,
                          habits=((habit_model.BASE,) * len(views), (habit_model.BASE,) * later))
        assert abs(old.expected() - new.expected()) < 1e-12


def test_a_learnt_habit_is_the_share_of_stands_pulled_toward_its_prior():
    cell = (1, 3, False, 0)                      # throw 1 of 3, not the opener, a Zahl of 4 or less
    i = habit_model.INDEX[cell]
    seen = [(1, 3, False, 0, True)] * 3 + [(1, 3, False, 0, False)]
    habit = habit_model.learn(seen, habit_model.BASE, strength=2.0)
    assert habit.stand[i] == pytest.approx((2.0 * 0.0 + 3) / (2.0 + 4))
    assert habit.stand[habit_model.INDEX[(1, 3, False, 6)]] == 1.0       # a cell never seen keeps the prior
    table = habit_model.Habits()
    table.add(0, seen)
    table.add(1, [(1, 3, False, 0, False)] * 4)
    pooled = table.pooled()
    assert pooled.stand[i] == pytest.approx(3 / (habit_model.PRIOR + 8))
    assert table.of(2).stand == pooled.stand                   # nobody seen: the table's habit
    prior = habit_model.PRIOR
    assert table.of(0).stand[i] == pytest.approx((prior * pooled.stand[i] + 3) / (prior + 4))


def _capped_by_the_rules(rules, ctx, groups, caps, mine_held, t, i):
    """The Deckel I take ending on key index i after t throws, every outcome of the others enumerated and
    ranked by schocken.ranking (seats in order: the earlier ones, me, the later ones), the best's Deckel moved
    as Half.give moves them with the middle empty."""
    model = ctx.model
    mine_throw = model.throw_of_key[i]
    total = 0.0
    for outcomes in itertools.product(*[list(d.items()) for d, _ in groups]):
        p = 1.0
        entries = []
        for ((key, s), q), _ in zip(outcomes, groups):
            p *= q
            th = model.throw_of_key[model.index[key]]
            entries.append((list(th.dice), s, th.hand))
        if p == 0:
            continue
        n_before = sum(1 for _, earlier in groups if earlier)
        entries.insert(n_before, (list(mine_throw.dice), t, mine_throw.hand))
        result = rank_round(rules, entries, limit_check=False)
        if result.worst != n_before:
            continue
        best = result.best if result.best < n_before else result.best - 1
        if result.deckel == ALL:
            moved = rules.deckel_total - mine_held
        else:
            moved = min(result.deckel, caps[best])
        total += p * moved
    return total


def test_with_the_middle_empty_the_round_moves_what_the_best_holds():
    rules = Rules("standard", max_throws=2)
    later = habit_model.OF_STRATEGY["general"]
    view = SeatView([], 1, True)
    holdings = (2, (1, 3))
    fast = habit_model.OF_STRATEGY["fast"]
    ctx = context_for(rules, [(view, 2)], 1, 1, False, None, habits=((fast,), (later,)), holdings=holdings)
    groups = [(ctx.earlier[0], True), (habit_model.distribution(rules, 1, later), False)]
    for i in range(0, len(ctx.model.keys), 5):
        if ctx.model.throw_of_key[i].throws > 1 or not ctx.model.throw_of_key[i].hand:
            continue
        expected = _capped_by_the_rules(rules, ctx, groups, holdings[1], holdings[0], 1, i)
        assert ctx.costs[1][i] == pytest.approx(expected, abs=1e-12), ctx.model.throw_of_key[i]


def test_the_table_learns_only_from_rounds_before_the_present_one():
    log = ROOT / "tests" / "data" / "luck" / "optimal_4.jsonl"
    st = TableState()
    seen_rounds = []
    for line in log.read_text().splitlines():
        ev = json.loads(line)
        st.apply(ev)
        if ev["ev"] == "reveal" and st.round_kind == "round":
            habits = table_habits(st)
            seen_rounds.append(st.round)
            counted = sum(habits.decisions(s) for s in habits.by_seat)
            fresh = habit_model.Habits()
            for r, seat, limit, opened, transcript in st.turns_seen:
                if r != st.round:
                    fresh.add(seat, habit_model.decisions_of(st.rules, limit, opened,
                                                   habit_model.throws_of(st.rules, limit, transcript)))
            assert counted == sum(fresh.decisions(s) for s in fresh.by_seat)
    assert len(set(seen_rounds)) > 10
    before, after = round_habits(st, st.order[0])
    assert len(after) == len(st.order) - 1 and not before
    assert public_context(st, st.order[0], st.rules.max_throws).later_habits == after


def test_a_player_with_a_habit_is_expected_to_take_what_his_play_takes():
    """expected_playing with a simple strategy's habit is the Bellman value of following that strategy: with
    the base habit everywhere, the opener who plays keep_ones expects no less than the best play."""
    rules = Rules("standard")
    ctx = Context(rules, later=2, limit=3, opener=True, later_habits=(habit_model.BASE, habit_model.BASE))
    best = ctx.expected()
    for name in ("schock", "general", "fast"):
        assert habit_model.expected_playing(ctx, habit_model.OF_STRATEGY[name], True) >= best - 1e-12


def test_the_host_remembers_each_players_habit_across_games(tmp_path):
    """table/habit_book.py: a game's revealed turns go into habits.json (a bot by its name and strategy), and
    the next table starts from them; a book that cannot be read is no book."""
    from schocken_host.table import habit_book
    log = ROOT / "tests" / "data" / "luck" / "optimal_4.jsonl"
    st = TableState()
    for line in log.read_text().splitlines():
        st.apply(json.loads(line))
    book = tmp_path / "habits.json"
    assert habit_book.record(st, book)
    known = habit_book.load(book)
    assert sorted(known) == ["Anna/optimal", "Bert/optimal", "Carla/optimal", "Dora/optimal"]
    fresh = habit_model.Habits()
    for r, seat, limit, opened, transcript in st.turns_seen:
        throws = habit_model.throws_of(st.rules, limit, transcript)
        fresh.add(seat, habit_model.decisions_of(st.rules, limit, opened, throws))
    assert [known[p.name + "/optimal"] for p in st.players] == [fresh.by_seat[p.seat] for p in st.players]
    assert habit_book.record(st, book, since=len(st.turns_seen))    # nothing new: the same counts
    assert habit_book.load(book) == known

    again = TableState()
    again.known_habits = known
    lines = log.read_text().splitlines()
    again.apply(json.loads(lines[0]))
    assert table_habits(again).of(0).stand == fresh.of(0).stand    # a regular, known before his first turn
    book.write_text("{not json", encoding="utf-8")
    assert habit_book.load(book) == {}


def test_the_calibration_bench_runs_draws_its_plot_and_reads_real_logs(tmp_path):
    """bench/calibration.py (docs/odds.md, "How well it predicts"): one game per table, the reliability plot
    written; ``--logs`` reads real game logs of `schocken play` (the optimal games of tests/data/luck)."""
    import subprocess
    import sys
    plot = tmp_path / "calibration.svg"
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "calibration.py"), "--games", "1", "--tables",
                           "schock,mixed", "--plot", str(plot)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "schock (" in done.stdout and "mixed tables: Deckel per round" in done.stdout
    assert "decision cost against the independent best response" in done.stdout
    assert plot.read_text().lstrip().startswith("<?xml")
    logs = tmp_path / "logs"
    logs.mkdir()
    for name in ("optimal_4.jsonl", "optimal_3_beton.jsonl"):
        (logs / name).write_bytes((ROOT / "tests" / "data" / "luck" / name).read_bytes())
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "calibration.py"), "--logs", str(logs)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "optimal tables, real logs of %s (2 games)" % logs in done.stdout, done.stdout
