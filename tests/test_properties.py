"""Property tests (hypothesis, CPython) for the rules package: ranking order, Deckel conservation, game end,
and Turn move sequences. Each property says which part of the rules it guards; the whole file runs in well
under a minute.
"""

import copy
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from schocken import RuleError
import schocken.game
from schocken.half import Half
from schocken.ranking import rank, rank_round
from schocken.rules import PRESETS, Rules
from schocken.sim import random_game
from schocken.throws import ALL, KINDS, evaluate
from schocken.turn import ASIDE, IN_CUP, PENDING, Turn, replay

PRESET_NAMES = sorted(PRESETS)


def fast(n):
    return settings(max_examples=n, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# --- strategies --------------------------------------------------------------------------------------

# Options that change how throws compare; any may be switched on any preset.
RANKING_FLIPS = {
    "jule": st.booleans(),
    "jule_only_hand": st.booleans(),
    "strasse_only_hand": st.booleans(),
    "general_only_hand": st.booleans(),
    "ace_hundred": st.booleans(),
    "schock_aus_hand_beats": st.booleans(),
}

# Options that change the Deckel flow and the phases of a game.
GAME_FLIPS = {
    "schock_aus": st.sampled_from(["all", "middle"]),
    "one_half": st.booleans(),
    "einwuerfeln": st.booleans(),
    "drop_penalty": st.sampled_from([0, 1, 2]),
    "throw_off_deckel": st.booleans(),
    "two_player_final": st.booleans(),
    "final_opener": st.sampled_from(["first_half_loser", "last_loser"]),
    "deckel_total": st.sampled_from([1, 5, 13, 21]),
    "max_throws": st.sampled_from([1, 2, 3]),
    "jule": st.booleans(),
    "ace_hundred": st.booleans(),
    "schock_aus_hand_beats": st.booleans(),
    "sixes_back": st.booleans(),
    "aside_only_ones": st.booleans(),
    "ones_must_stay": st.booleans(),
}

# Options that change what a turn allows.
TURN_FLIPS = {
    "max_throws": st.sampled_from([1, 2, 3]),
    "sixes_turn": st.booleans(),
    "sixes_back": st.booleans(),
    "aside_only_ones": st.booleans(),
    "ones_must_stay": st.booleans(),
}


@st.composite
def flipped(draw, flips):
    """A subset of ``flips`` with drawn values (often empty: the preset as it is)."""
    names = draw(st.lists(st.sampled_from(sorted(flips)), unique=True, max_size=4))
    return {name: draw(flips[name]) for name in names}


@st.composite
def rule_sets(draw, flips):
    return Rules(draw(st.sampled_from(PRESET_NAMES)), **draw(flipped(flips)))


DIE = st.integers(1, 6)
DICE = st.lists(DIE, min_size=3, max_size=3)


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


@fast(200)
@given(rule_sets(RANKING_FLIPS), DICE, DICE, st.data())
def test_kinds_rank_in_their_order(rules, d1, d2, data):
    """A throw of a better kind (Schock-Aus > Jule > Schock > General > Straße > Zahl) always wins."""
    t = data.draw(st.integers(1, rules.max_throws))
    h1 = True if t == 1 else data.draw(st.booleans())
    h2 = True if t == 1 else data.draw(st.booleans())
    a, b = evaluate(d1, t, h1, rules), evaluate(d2, t, h2, rules)
    assume(a.kind != b.kind)
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


# --- (d) Turn ----------------------------------------------------------------------------------------------

def _snapshot(turn):
    return (list(turn.values), list(turn.state), list(turn.locked), turn.throws_used, turn.turned,
            turn.finished, copy.deepcopy(turn.transcript))


SLOT = st.integers(-1, 3)  # -1 and 3 are no slot: refused
FACE = st.one_of(DIE, st.just(6), st.just(1))


@st.composite
def turn_moves(draw, turn):
    kind = draw(st.sampled_from(["roll", "roll", "aside", "back", "turn", "stand"]))
    if kind == "roll":
        n = len(turn.in_cup())
        if draw(st.integers(0, 9)) == 0:
            n = draw(st.integers(0, 4))   # sometimes the wrong number of dice
        return "roll", draw(st.lists(FACE, min_size=n, max_size=n))
    if kind in ("aside", "back"):
        return kind, draw(SLOT)
    if kind == "turn":
        sixes = turn.sixes_available()
        if len(sixes) >= 2 and draw(st.booleans()):
            return kind, draw(st.sampled_from([sixes[:2], sixes[1:], sixes] if len(sixes) == 3 else [sixes]))
        return kind, draw(st.lists(SLOT, min_size=0, max_size=4))
    return "stand", None


def _apply(turn, move, arg):
    if move == "roll":
        turn.roll(arg)
    elif move == "aside":
        turn.set_aside(arg)
    elif move == "back":
        turn.take_back(arg)
    elif move == "turn":
        turn.turn_sixes(arg)
    else:
        turn.stand()


def _invariants(turn, before):
    assert 0 <= turn.throws_used <= turn.limit
    assert all(s in (IN_CUP, PENDING, ASIDE) for s in turn.state)
    if turn.throws_used:
        assert all(1 <= v <= 6 for v in turn.values)
    old_values, old_state = before[0], before[1]
    for i in range(3):
        if old_state[i] == ASIDE:
            assert turn.state[i] == ASIDE, "a die set aside for good went back into the cup"
            assert turn.values[i] == old_values[i], "a die set aside for good changed its value"
    if turn.rules.sixes_back:
        assert all(turn.state[i] == IN_CUP for i in range(3) if turn.locked[i])


def _finish(turn):
    """Bring a turn to its end by legal moves: there is no dead end."""
    for _ in range(8):
        if turn.finished:
            return
        try:
            turn.stand()
            return
        except RuleError:
            pass
        if turn.rules.ones_must_stay and turn.throws_used:
            for i in turn.in_cup():
                if turn.values[i] == 1 and not turn.locked[i] and len(turn.in_cup()) > 1:
                    turn.set_aside(i)
        if not turn.in_cup():
            turn.take_back([i for i in range(3) if turn.state[i] == PENDING][0])
        turn.roll([2] * len(turn.in_cup()))
    raise AssertionError("turn cannot be finished: %r" % (turn.transcript,))


@fast(400)
@given(rule_sets(TURN_FLIPS), st.data())
def test_turn_random_moves_keep_a_valid_state(rules, data):
    limit = data.draw(st.integers(1, rules.max_throws))
    turn = Turn(rules, limit)
    for _ in range(data.draw(st.integers(0, 25))):
        move, arg = data.draw(turn_moves(turn))
        before = _snapshot(turn)
        try:
            _apply(turn, move, arg)
        except RuleError:
            assert _snapshot(turn) == before, "a refused %s changed the turn" % move
            continue
        _invariants(turn, before)
        if turn.finished:
            break
    _finish(turn)
    throw = turn.result()  # a finished turn is a legal final throw
    assert throw.throws == turn.throws_used and throw.hand == turn.hand()
    again = replay(rules, limit, turn.transcript)
    assert again.dice() == turn.dice()
    assert again.hand() == turn.hand()
    assert again.throws_used == turn.throws_used
    assert again.state == turn.state and again.finished
