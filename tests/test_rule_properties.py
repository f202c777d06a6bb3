"""Property tests (hypothesis, CPython) for the rules package: ranking order, Deckel conservation, game end.
Each property says which part of the rules it guards; the whole file runs in well under a minute. Turn move
sequences: tests/test_turn_properties.py; the strategies: tests/kits/rulekit.py.
"""

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import schocken.game
from schocken.half import Half
from schocken.ranking import rank, rank_round
from schocken.rules import Rules
from schocken.sim import random_game
from schocken.throws import ALL, KINDS, evaluate

from kits.rulekit import DICE, GAME_FLIPS, PRESET_NAMES, RANKING_FLIPS, fast, flipped, rule_sets


@st.composite
def rounds(draw):
    """(rules, entries): 2..8 legal entries in seating order from the opener. The opener's throws bind the
    rest; a throw with dice set aside needs at least two throws. Some entries repeat an earlier one (same
    dice in another order, same throws and hand) so that ties are common."""
    rules = draw(rule_sets(RANKING_FLIPS))
    n = draw(st.integers(2, 8))
    limit = draw(st.integers(1, rules.max_throws))
    entries = []
    for i in range(n):
        if i and draw(st.integers(0, 3)) == 0:
            dice, throws, hand = entries[draw(st.integers(0, i - 1))]
            entries.append((draw(st.permutations(dice)), throws, hand))
            continue
        throws = limit if i == 0 else draw(st.integers(1, limit))
        hand = True if throws == 1 else draw(st.booleans())
        entries.append((draw(DICE), throws, hand))
    return rules, entries


# --- (a) ranking --------------------------------------------------------------------------------------

def _pair_winner(rules, entries, results, lo, hi):
    """Winner (a seat of the round) when seats lo < hi are ranked alone, in their seating order."""
    winner = (lo, hi)[rank([results[lo], results[hi]])[0]]
    if results[hi].throws <= results[lo].throws:
        # A legal round by itself (the earlier seat opens): rank_round must agree with rank().
        alone = rank_round(rules, [entries[lo], entries[hi]])
        assert (lo, hi)[alone.best] == winner
        assert (lo, hi)[alone.worst] != winner
    return winner


@fast(400)
@given(rounds())
def test_ranking_is_a_strict_total_order(case):
    rules, entries = case
    result = rank_round(rules, entries)
    n = len(entries)
    ranking = list(result.ranking)
    assert sorted(ranking) == list(range(n)), "ranking is not a permutation of the seats"
    assert result.best == ranking[0] and result.worst == ranking[-1]
    assert result.deckel == result.results[result.best].deckel
    results = result.results
    for i, (dice, throws, hand) in enumerate(entries):
        assert results[i].to_dict() == evaluate(dice, throws, hand, rules).to_dict()
    position = {seat: p for p, seat in enumerate(ranking)}
    # Every pair ranked alone gives the same winner as the whole round: the pairwise relation is
    # antisymmetric, total and transitive because it is exactly the order of ``ranking``.
    for p in range(n):
        for q in range(p + 1, n):
            a, b = ranking[p], ranking[q]
            lo, hi = min(a, b), max(a, b)
            assert _pair_winner(rules, entries, results, lo, hi) == a
    # Value first, then fewer throws, then the earlier seat.
    for i in range(n):
        for j in range(i + 1, n):
            ti, tj = results[i], results[j]
            if ti.key != tj.key:
                better = i if ti.key > tj.key else j
            elif ti.throws != tj.throws:
                better = i if ti.throws < tj.throws else j
            else:
                better = i  # nachgelegt: the later seat only equalled
            assert position[better] < position[i + j - better]


@fast(200)
@given(rule_sets(RANKING_FLIPS), st.integers(2, 8), DICE, st.integers(1, 3), st.booleans(), st.data())
def test_equal_throws_earlier_seat_wins(rules, n, dice, throws, hand, data):
    throws = min(throws, rules.max_throws)
    hand = hand or throws == 1
    same = [(data.draw(st.permutations(dice)), throws, hand) for _ in range(n)]
    result = rank_round(rules, same)
    assert result.ranking == list(range(n))
    assert result.best == 0 and result.worst == n - 1


# Every throw of three dice, as a sorted list: 56.
ALL_DICE = [list(dice) for dice in itertools.combinations_with_replacement(range(1, 7), 3)]


@fast(200)
@given(rule_sets(RANKING_FLIPS), DICE, st.data())
def test_kinds_rank_in_their_order(rules, d1, data):
    """A throw of a better kind (Schock-Aus > Jule > Schock > General > Straße > Zahl) always wins."""
    t = data.draw(st.integers(1, rules.max_throws))
    h1 = True if t == 1 else data.draw(st.booleans())
    h2 = True if t == 1 else data.draw(st.booleans())
    a = evaluate(d1, t, h1, rules)
    # The second throw drawn among those of another kind, not filtered: most random pairs are both Zahl, and
    # hypothesis gave up on a fresh clone when it had to throw away that many.
    other = [dice for dice in ALL_DICE if evaluate(dice, t, h2, rules).kind != a.kind]
    d2 = data.draw(st.sampled_from(other).flatmap(st.permutations))
    b = evaluate(d2, t, h2, rules)
    better = a if KINDS.index(a.kind) < KINDS.index(b.kind) else b
    assert max((a, b), key=lambda x: x.key) is better
    for x in (a, b):
        assert (x.deckel == ALL) == (x.kind == "schock_aus")


# --- (b) Deckel conservation, (c) every game ends ---------------------------------------------------------

@st.composite
def games(draw):
    preset = draw(st.sampled_from(PRESET_NAMES))
    options = draw(flipped(GAME_FLIPS))
    rules = Rules(preset, **options)
    players = draw(st.integers(rules.min_players, 8))
    seed = draw(st.integers(0, 2 ** 32 - 1))
    return rules, players, seed


class _Recorder:
    """Collects every Half a game creates (Game looks up ``Half`` in schocken.game at run time)."""

    def __init__(self):
        self.halves = []

    def __enter__(self):
        recorder = self

        class RecordingHalf(Half):
            def __init__(self, *args, **kwargs):
                Half.__init__(self, *args, **kwargs)
                self.first_opener = self.opener
                recorder.halves.append(self)

        self._saved = schocken.game.Half
        schocken.game.Half = RecordingHalf
        return self

    def __exit__(self, *exc):
        schocken.game.Half = self._saved
        return False


def _conserved(half):
    half.check()
    assert half.middle + sum(half.deckel.values()) == half.rules.deckel_total
    assert half.middle >= 0 and min(half.deckel.values()) >= 0


def _play(rules, players, seed):
    rounds_seen = []
    with _Recorder() as rec:
        def on_round(game, outcome):
            for half in rec.halves:   # the current half and any that this round finished
                _conserved(half)
            rounds_seen.append(game.rounds)

        game = random_game(rules, players, random.Random(seed), max_rounds=5000, on_round=on_round)
    for half in rec.halves:
        _conserved(half)
    return game, rec.halves, rounds_seen


@fast(250)
@given(games())
def test_deckel_conserved_through_random_games(case):
    rules, players, seed = case
    game, halves, rounds_seen = _play(rules, players, seed)
    assert rounds_seen == list(range(1, game.rounds + 1))
    for half in halves:
        if half.over():
            # The half's loser holds every Deckel; nothing is left in the middle.
            assert half.deckel[half.loser] == rules.deckel_total
            assert half.middle == 0


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("options", [{}, {"schock_aus": "middle"}, {"one_half": True}, {"einwuerfeln": True},
                                     {"drop_penalty": 1}, {"throw_off_deckel": True}],
                         ids=lambda o: ",".join("%s=%s" % kv for kv in o.items()) or "preset")
def test_deckel_conserved_every_preset_and_player_count(preset, options):
    rules = Rules(preset, **options)
    for players in range(rules.min_players, 9):
        for seed in range(3):
            game, halves, _ = _play(rules, players, 1000 * players + seed)
            assert game.phase == "over"


def _check_end(rules, players, game, halves):
    assert game.phase == "over"
    assert game.loser in range(players), "the loser is not a seat"
    single = rules.one_half or (players == 2 and not rules.two_player_final)
    assert all(h.over() for h in halves)
    if single:
        assert game.half_losers == [] and not game.blattschuss
        assert len(halves) == 1 and game.loser == halves[0].loser
        return
    assert len(game.half_losers) == 2
    assert [h.loser for h in halves[:2]] == game.half_losers
    first, second = game.half_losers
    assert halves[1].first_opener == first, "the first half's loser opens the second half"
    if first == second:
        assert game.blattschuss, "a player lost both halves but the game is not a Blattschuss"
        assert game.half_losers[0] == game.half_losers[1] == game.loser
        assert len(halves) == 2
    else:
        assert not game.blattschuss
        assert len(halves) == 3
        final = halves[2]
        assert sorted(final.seats) == sorted(game.half_losers)
        assert game.loser in game.half_losers and game.loser == final.loser
        assert final.name == "final"
        assert final.total == rules.deckel_total
        assert final.first_opener == (first if rules.final_opener == "first_half_loser" else second)


@fast(250)
@given(games())
def test_every_game_ends_with_one_loser(case):
    rules, players, seed = case
    game, halves, _ = _play(rules, players, seed)
    _check_end(rules, players, game, halves)


def test_blattschuss_and_final_both_occur():
    """The game-end property above sees both endings (else it would prove little)."""
    seen = set()
    for seed in range(300):
        game, halves, _ = _play(Rules("standard"), 3, seed)
        _check_end(Rules("standard"), 3, game, halves)
        seen.add("blattschuss" if game.blattschuss else "final")
    assert seen == {"blattschuss", "final"}
