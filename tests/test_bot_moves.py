"""Every move a bot can decide is one its cup takes: proved by enumeration, not by sampling (issue 31).

What is enumerated:

- rule sets: every preset of ``schocken.rules.PRESETS`` with every combination of the options that change a
  turn (``sixes_turn`` (Sechsen drehen), ``sixes_back``, ``ones_must_stay``, ``aside_only_ones``) and
  ``max_throws`` 1, 2 and 3: 240 rule sets;
- turn states where a bot decides (right after a throw that is not the last of its limit: after the last one
  the cup stands by itself): every throw number t below every limit 1..max_throws (the limit ``max_throws`` is
  the opener's: ``Turn(rules, None)`` is the same turn), every throw of the dice in the cup (each ordered
  outcome, so every slot holds every value) and every multiset of dice lying out for good before it (at most
  two, ones only with ``aside_only_ones``: what set-aside ones and turned sixes leave). Which slots the dice
  lying out hold does not matter: neither ``Turn`` nor the cup's ``core`` treats one slot other than another
  (every check looks at one slot's own state and value; of turned sixes the one that goes back is one of equal
  dice), so they lie in the first slots here;
- the states between the moves of a throw (dice set aside but not thrown yet, sixes turned, with
  ``sixes_back`` the locked six): every state the legal moves reach from each of the states above, where a
  bot decides when it takes up a turn its cup holds (its host restarted) or after its cup refused an input;
- every strategy of ``bots.STRATEGIES``. For ``optimal`` every move its solver can choose (standing and every
  move ``Model.moves`` offers, in the model of the cup's long press; after Sechsen drehen, between moves, the
  moves that turn nothing, no stand): whatever the round's context, the solver picks one of these, so every
  context is covered. The context itself is built from one distribution per earlier seat (``odds.best.seen``
  of its ``SeatView``) and combined only by sums and products over keys and throw counts
  (``Context._costs``); so a context of any combination of seats builds when each view's distribution is a
  probability distribution over the model's keys with a throw count 1..3. That is checked
  for every reachable ``SeatView`` of every rule set (public dice 0..3, split into those lying out for good
  at its last throw and those it laid open before standing, throws 1..its limit, early or not, every limit
  up to the opener's), plus a context of several seats for each rule set and limit (the players after me
  are one distribution per limit, the stake only caps what a throw is worth: neither depends on the views).

Each decision (``bot_moves.decision``, as the bot makes it) must pass ``bot_moves.check`` (the rules package's
``Turn``) and be taken by the cup's turn state machine (``firmware/cup/core.py``, run here under CPython) fed
the presses of ``bot_moves.cup_inputs``: no refusal, and the cup's turn ends where the bot's does. Each
decision is made and checked once per what it depends on (``Decided``, ``Checked``). A smaller
set of the same decisions, some of them between moves, goes through real emulated cups on the MicroPython
unix port (test_decisions_on_emulated_cups, their clocks 10 times faster). The states between moves are held
to the same: the strategy's own decision, never the fallback (``bot_moves.FALLBACKS`` stays the guard against
a strategy's bug).
"""

import copy
import itertools
from fractions import Fraction

import pytest

from schocken import RuleError
from schocken.rules import PRESETS, Rules
from schocken.sim import keep_ones
from schocken.throws import evaluate
from schocken.turn import ASIDE, IN_CUP, PENDING, Turn, apply_steps

from cup.buttons import LONG, MAIN, RELEASE
from cup.core import Cup

from schocken_host.odds.best import Context, Optimal, SeatView, seen
from schocken_host.odds.classes import model_for
from schocken_host.odds.model import ROLLS, merge
from schocken_host.table.bot_moves import check, copy_turn, cup_inputs, decision, make_step
from schocken_host.table.bots import STRATEGIES

TURN_OPTIONS = ("sixes_turn", "sixes_back", "ones_must_stay", "aside_only_ones")


def rule_sets():
    for preset in sorted(PRESETS):
        for values in itertools.product((False, True), repeat=len(TURN_OPTIONS)):
            for most in (1, 2, 3):
                yield Rules(preset, max_throws=most, **dict(zip(TURN_OPTIONS, values)))


def turn_key(rules):
    """What of a rule set a turn's legality reads: the turn options and the throw limit's range."""
    return tuple(getattr(rules, k) for k in TURN_OPTIONS) + (rules.max_throws,)


def multisets(values, most):
    return [c for n in range(most + 1) for c in itertools.combinations_with_replacement(values, n)]


def decision_states(rules, ordered=True):
    """Every Turn right after a throw on which a bot decides (see the module's docstring); not ``ordered``:
    each throw's dice once, in one order (the slots are alike)."""
    for limit in range(2, rules.max_throws + 1):
        for t in range(1, limit):
            outs = [()] if t == 1 else multisets((1,) if rules.aside_only_ones else range(1, 7), 2)
            for out in outs:
                throws = (itertools.product(range(1, 7), repeat=3 - len(out)) if ordered
                          else (fell for fell, _ in ROLLS[3 - len(out)]))
                for fell in throws:
                    turn = Turn(rules, limit)
                    if t > 1:
                        turn.roll(list(out) + [2] * (3 - len(out)))
                        for slot in range(len(out)):
                            turn.set_aside(slot)
                        for _ in range(t - 2):
                            turn.roll([2] * (3 - len(out)))
                    turn.roll(list(fell))
                    yield turn


def between_moves(turn):
    """Every state the moves of this throw (set aside, take back, Sechsen drehen) reach from ``turn``, itself
    left out."""
    found, todo = {}, [turn]
    while todo:
        here = todo.pop()
        moves = [("aside", s) for s in range(3)] + [("back", s) for s in range(3)] + [("turn", None)]
        for move, arg in moves:
            there = copy_turn(here)
            try:
                if move == "turn":
                    sixes = there.sixes_available()
                    if len(sixes) < 2:
                        continue
                    there.turn_sixes(sixes)
                elif move == "aside":
                    there.set_aside(arg)
                else:
                    there.take_back(arg)
            except RuleError:
                continue
            key = (tuple(there.values), tuple(there.state), tuple(there.locked), there.turned)
            if key not in found:
                found[key] = there
                todo.append(there)
    return list(found.values())


class Forced:
    """A solver's Solution that chooses one given move (None: stand), in the cup's model of Sechsen drehen."""

    def __init__(self, rules, move):
        self.model = model_for(rules, True)
        self.move = move

    def choose(self, out, fell, t, turned=False):
        return 0, self.move


class ForcedContext:
    def __init__(self, rules, move):
        self.solution = Forced(rules, move)


def optimal_moves(model, turn):
    """Every choice optimal's solver has in this state (``odds.best.play``: the dice out for good, the
    throw's dice still free to set aside; after Sechsen drehen only the moves that turn nothing), None for
    standing: an ``Optimal(ForcedContext(rules, move))`` makes each. ``model``: the turn's rules' model of
    the cup's long press (``model_for(rules, True)``)."""
    out = tuple(sorted((turn.values[i] for i in range(3) if turn.state[i] == ASIDE), reverse=True))
    fell = tuple(sorted((turn.values[i] for i in range(3) if turn.state[i] != ASIDE and not turn.locked[i]),
                        reverse=True))
    moves = list(model.moves(out, fell))
    return [m for m in moves if not m.turned] if turn.turned else [None] + moves


def move_key(move):
    return None if move is None else (move.turned, move.keep)


# --- the cup's side: firmware/cup/core.py under CPython ----------------------------------------------------
class _Roller:
    healthy = True

    def __init__(self):
        self.dice = []

    def roll(self, n):
        dice, self.dice = self.dice[:n], self.dice[n:]
        return dice

    def random_bytes(self, k):
        return bytes(k)


class _View:
    def __init__(self):
        self.refused = 0

    def show(self, cup):
        pass

    def error(self, cup):
        self.refused += 1

    def refuse(self, cup, color=None):
        self.refused += 1


def press(cup, what):
    if what[0] == "tap":
        cup.on_button(what[1], RELEASE, False)
    elif what[0] == "long":
        cup.on_button(what[1], LONG, True)
    elif what[0] == "stand":
        cup.on_button(MAIN, LONG, True)
    else:
        cup.roller.dice = [2] * len(cup.turn.in_cup())
        cup.on_shake()


def cup_at(rules, turn, configure):
    """A cup in ``turn``'s state, reached through its own inputs (configured by the host's message
    ``configure`` for ``rules``); else what went wrong."""
    sent = []
    view, roller = _View(), _Roller()
    cup = Cup(roller, view, sent.append, {"cup": "t", "name": "T", "board": "emulated"})
    cup.on_message(configure)
    cup.on_message({"t": "turn", "round": 1, "limit": None if turn.limit == rules.max_throws else turn.limit})
    for step in turn.transcript:   # the state, reached by the cup's own inputs
        if step[0] == "roll":
            roller.dice = list(step[1])
            cup.on_shake()
        elif step[0] == "turn":
            press(cup, ("long", step[1][0]))
        else:
            press(cup, ("tap", step[1]))
    if view.refused or cup.turn.transcript != turn.transcript:
        return "the cup did not reach the state: %s" % [m for m in sent if m["t"] == "error"]
    # A twin (``twin``) shares the rest of the cup: its identity (read only), values it replaces, never
    # changes in place.
    kept = [k for k, v in vars(cup).items() if k not in TWIN_OWNS and k != "identity"
            and not isinstance(v, (bool, int, str, bytes, type(None), Rules))]
    assert not kept, "a twin of the cup would share %s" % kept
    return cup


TWIN_OWNS = ("send", "view", "roller", "turn", "nonces")


def twin(cup):
    """(a cup in the same state as ``cup``, what it sends): its own outputs, dice, turn and nonces."""
    sent = []
    other = copy.copy(cup)
    other.send, other.view, other.roller = sent.append, _View(), _Roller()
    other.turn, other.nonces = copy_turn(cup.turn), dict(cup.nonces)
    return other, sent


def cup_takes(rules, turn, steps, stand, reached=None):
    """None if a cup in ``turn``'s state (reached through its own inputs: ``cup_at``, or the ``twin`` of
    ``reached``, one that was) takes the presses of the decision and ends where the rules package's Turn
    does; else what went wrong."""
    if reached is None:
        reached = cup_at(rules, turn, {"t": "configure", "rules": rules.to_dict(), "name": "T", "seat": 0})
    if isinstance(reached, str):
        return reached
    cup, sent = twin(reached)
    for what in cup_inputs(steps, stand):
        press(cup, what)
    errors = [m["msg"] for m in sent if m["t"] == "error"]
    if cup.view.refused or errors:
        return "refused %s: %s" % (cup_inputs(steps, stand), errors)
    expected = copy_turn(turn)
    for step in steps:
        make_step(expected, step)
    ended = cup.turn.transcript[:len(expected.transcript)]
    if ended != expected.transcript:
        return "the cup's turn %s, the rules' %s" % (cup.turn.transcript, expected.transcript)
    if stand and cup.state != "done":
        return "the cup did not stand"
    if not stand and cup.turn.throws_used != turn.throws_used + 1:
        return "the cup did not throw"
    return None


class Checked:
    """Each (turn rules, state, decision) checked once: the verdict does not depend on the preset. Nor on
    where the state ends and the decision begins: between moves (``between_moves``) a state is the throw's
    state and moves, and a decision there is the same steps on the same inputs of the cup, from the same
    throw, as a decision of those moves and its steps."""

    def __init__(self):
        self.verdicts = {}
        self.count = 0
        self.configure = {}   # id(rules): (rules, the message that configures a cup for them)
        self.reached = (None, None)   # the latest state checked, the cup in it (decisions come by state)

    def __call__(self, turn, steps, stand):
        key = (turn_key(turn.rules), turn.limit, repr(turn.transcript + steps), stand)
        verdict = self.verdicts.get(key, False)
        if verdict is False:
            self.count += 1
            verdict = check(turn, steps, stand)
            rules = turn.rules
            if id(rules) not in self.configure:
                self.configure[id(rules)] = rules, {"t": "configure", "rules": rules.to_dict(), "name": "T",
                                                    "seat": 0}
            state = (id(rules), turn.limit, repr(turn.transcript))
            if verdict is None and self.reached[0] != state:
                self.reached = state, cup_at(rules, turn, self.configure[id(rules)][1])
            verdict = self.verdicts[key] = (("rules: " + verdict) if verdict is not None
                                            else cup_takes(rules, turn, steps, stand, self.reached[1]))
        return verdict


class Decided:
    """Each decision made and checked once per what it depends on: the turn's options and limit
    (``turn_key``), the state (its transcript), the strategy and what it reads of the preset. A simple
    strategy reads the preset only through the ranking of the throw lying there (``Turn.result().key``, none
    after Sechsen drehen); a choice of optimal's solver (``Forced``) not at all, and so do the moves its model
    offers (``Model.moves`` reads only the turn options). The same key, the same decision and verdict: a
    decision of every rule set is covered by the one made for the first with its key."""

    def __init__(self):
        self.checked = Checked()
        self.made = set()
        self.forced = {}   # (turn options, move): the Optimal that makes it (it keeps no state of a turn)

    def __call__(self, rules, where, state, name, strategy, reads):
        """``state``: the Turn, under ``rules`` or under a rule set of the same ``turn_key`` (the same state:
        legality reads only the turn options); ``where``: (its turn_key, limit, repr of its transcript);
        ``reads``: what the strategy reads of the preset there. For ``name`` "optimal" ``strategy`` is the
        solver's choice (a Move, None: stand), made by ``Forced``."""
        key = (name, reads, where)
        if key in self.made:
            return
        self.made.add(key)
        turn = state if state.rules is rules else apply_steps(Turn(rules, state.limit), state.transcript)
        if name == "optimal":
            forced = (where[0], reads)
            if forced not in self.forced:
                self.forced[forced] = Optimal(ForcedContext(rules, strategy))
            strategy = self.forced[forced]
        steps, stand = decision(strategy, turn)
        verdict = self.checked(turn, steps, stand)
        assert verdict is None, (rules, name, turn.transcript, steps, stand, verdict)


def rule_sets_by_turn():
    """{turn_key: the rule sets of that key, one of each preset}: a state is the same state under each (its
    legality reads only the turn options), and so are optimal's choices and their decisions there."""
    groups = {}
    for rules in rule_sets():
        groups.setdefault(turn_key(rules), []).append(rules)
    return groups


SIMPLE = [(name, s) for name, s in STRATEGIES.items() if name != "optimal"]


def ranked(rules, turn):
    """What a simple strategy reads of the preset in ``turn``'s state (under a rule set of the same turn
    options): the key of the throw lying there, None after Sechsen drehen (no stand)."""
    return None if turn.turned else evaluate(turn.values, turn.throws_used, turn.hand(), rules).key


def decide_simple(decided, group, where, turn):
    """Every simple strategy's decision in ``turn``'s state under every rule set of ``group``; how many."""
    for rules in group:
        reads = ranked(rules, turn)
        for name, strategy in SIMPLE:
            decided(rules, where, turn, name, strategy, reads)
    return len(group) * len(SIMPLE)


def test_every_decision_after_a_throw_is_taken_by_the_rules_and_the_cup():
    """Every strategy on every state after a throw of every rule set; each decision made and checked once
    per what it depends on (``Decided``): the states and optimal's choices once per turn options
    (``rule_sets_by_turn``), the simple strategies' under every preset."""
    decided = Decided()
    decisions = 0
    for options, group in rule_sets_by_turn().items():
        model = model_for(group[0], True)
        for turn in decision_states(group[0]):
            where = (options, turn.limit, repr(turn.transcript))
            decisions += decide_simple(decided, group, where, turn)
            for move in optimal_moves(model, turn):
                decisions += len(group)
                decided(group[0], where, turn, "optimal", move, move_key(move))
    # decisions of every rule set; made once per what they depend on; the cup's runs
    assert decisions > 500000 and len(decided.made) > 100000 and decided.checked.count > 50000


def test_every_decision_between_moves_is_taken_by_the_rules_and_the_cup():
    """A bot that takes up a turn between moves (its host restarted, its cup refused an input) decides by its
    own strategy, with no fallback: every strategy's decision, for optimal every choice its solver has there,
    is taken by the rules and the cup. The throws here are taken in one order each (the slots are alike, see
    the module's docstring): every preset and option, in a time a test run can spend. The states between
    moves, optimal's choices and its moves depend on the turn's options only, not on the preset: they are
    found once per turn options (``rule_sets_by_turn``; the simple strategies stand by the preset's ranking:
    every preset, each decision made once per key of the throw lying there, ``Decided``)."""
    decided = Decided()
    states = decisions = 0
    for options, group in rule_sets_by_turn().items():
        rules, model = group[0], model_for(group[0], True)
        for turn in decision_states(rules, ordered=False):
            for between in between_moves(turn):
                where = (options, between.limit, repr(between.transcript))
                states += len(group)
                decisions += decide_simple(decided, group, where, between)
                # the decisions and checks copy the state: the copy is the turn its transcript makes
                assert vars(copy_turn(between)) == vars(apply_steps(Turn(rules, between.limit),
                                                                    between.transcript))
                moves = optimal_moves(model, between)
                assert moves, (rules, between.transcript)   # after Sechsen drehen: a move, no stand
                for move in moves:
                    decisions += len(group)
                    decided(rules, where, between, "optimal", move, move_key(move))
                # and the solver itself (as the opener of a round of two) once
                decisions += 1
                decided(rules, where, between, "optimal opener", STRATEGIES["optimal"], rules.name)
    assert states > 100000 and decisions > 800000 and len(decided.made) > 200000
    assert decided.checked.count > 50000


# --- optimal's context: every reachable view of an earlier seat --------------------------------------------
def seat_views(rules):
    """(SeatView, its own limit) of every way a seat before me can end its turn."""
    ones_only = rules.aside_only_ones
    faces = (1,) if ones_only else tuple(range(1, 7))
    for own in range(1, rules.max_throws + 1):
        for t in range(1, own + 1):
            early = t < own
            for out in ([()] if t == 1 else multisets(faces, 2)):
                # laid open from the last throw before standing: only one who saw it (early) could
                for laid in (multisets(faces, 3 - len(out)) if early else [()]):
                    yield SeatView(merge(out, laid), t, early, out), own


def test_every_seat_view_gives_a_distribution_a_context_can_use():
    for rules in rule_sets():
        model = model_for(rules)
        dists = []
        for view, own in seat_views(rules):
            dist = seen(rules, view, own)
            assert sum(dist.values()) == 1, (rules, view.key(), own)
            assert all(key in model.index and s == view.throws for key, s in dist), (rules, view.key(), own)
            dists.append(dist)
        # a context of several seats builds and decides (per-view coverage: see the module's docstring)
        for limit in range(1, rules.max_throws + 1):
            context = Context(rules, dists[-3:], later=1, limit=limit, opener=False)
            assert context.expected() >= 0


def test_the_stall_of_issue_31_a_stander_after_one_throw_with_two_ones_open():
    """The evidence (shared/evidence/bot-freeze): standard, a seat stood after one throw of a limit of two
    with two ones lying open. Its throw is 1-1-x from the hand, x under the cup: a Schock x or Schock-Aus."""
    rules = Rules("standard")
    dist = seen(rules, SeatView((1, 1), 1, True), 2)
    model = model_for(rules)
    kinds = {model.throw_of_key[model.index[key]].label: p for (key, _), p in dist.items()}
    assert kinds == {"Schock-Aus": Fraction(1, 6), **{"Schock %d" % x: Fraction(1, 6) for x in range(2, 7)}}
    # The same open dice after two throws: from the hand only if they fell in the last throw. Where a
    # Schock-Aus from the hand beats a built one (verein) that tells the two apart.
    verein = Rules("verein")
    model = model_for(verein)
    built = seen(verein, SeatView((1, 1), 2, True, (1, 1)), 3)
    laid = seen(verein, SeatView((1, 1), 2, True, ()), 3)
    aus = [k for k in model.keys if model.throw_of_key[model.index[k]].kind == "schock_aus"]
    assert len(aus) == 2 and (min(aus), 2) in built and (max(aus), 2) in laid
    assert (max(aus), 2) not in built and (min(aus), 2) not in laid


def test_a_view_no_turn_can_reach_counts_as_uniform_and_never_raises():
    rules = Rules("wuerfel63")   # only ones aside: a five out for good cannot be
    dist = seen(rules, SeatView((5,), 2, True, (5,)), 3)
    assert sum(dist.values()) == 1
    assert sum(seen(rules, SeatView((), 3, True), 2).values()) == 1   # more throws than its limit


def test_the_odds_tables_of_every_preset_and_throw_limit_are_made():
    """`schocken play --set max_throws=1` ended at the start with "throws must be 1 to 1, got 2": the turn
    model classed built throws, which a limit of one does not have. What a table makes before its first turn
    (seating's warm: the coach's and the optimal bots' tables), for every preset and limit."""
    from schocken_host.table.coach import Coach
    for preset in sorted(PRESETS):
        for most in (1, 2, 3):
            Coach.warm(Rules(preset, max_throws=most))


def test_keep_ones_decisions_follow_the_cups_long_press():
    """keep_ones turns two of three sixes; the cup turns every six offered: the bot makes the cup's move."""
    rules = Rules("standard")
    turn = Turn(rules, 3)
    turn.roll([6, 6, 6])
    steps, stand = decision(keep_ones, turn)
    assert (steps, stand) == ([["turn", [0, 1, 2]]], False)
    assert check(turn, steps, stand) is None
    general = STRATEGIES["general"]   # a General stands: it is not turned into two ones first
    assert decision(general, turn) == ([], True)
    ones = Rules("standard", ones_must_stay=True)
    turn = Turn(ones, 3)
    turn.roll([6, 6, 1])
    steps, stand = decision(keep_ones, turn)
    assert check(turn, steps, stand) is None and ["aside", 2] in steps


# --- the same decisions on real emulated cups (MicroPython unix port) -----------------------------------
EMULATED_RULES = [Rules("standard", ones_must_stay=True), Rules("beton"), Rules("wuerfel63")]
# (dice lying out, the throw's dice, highest first): two and three sixes, ones, a one beside sixes
EMULATED_THROWS = {((), (6, 6, 6)), ((), (6, 6, 1)), ((), (5, 1, 1)), ((1,), (6, 6)), ((1,), (4, 1))}


def between_samples(turn):
    """One state of each kind between the moves after ``turn`` where a strategy once threw what the rules
    refuse: the sixes just turned (a one beside them must stay out), the sixes turned and the cup emptied (the
    six that went back set aside), a die that is not a one set aside beside a one in the cup."""
    kinds = {}
    for state in sorted(between_moves(turn), key=lambda state: len(state.transcript)):
        pending = [i for i in range(3) if state.state[i] == PENDING]
        if state.turned:
            last = state.transcript[-1][0]
            kind = "emptied" if not state.in_cup() else "turned" if last == "turn" else None
        elif len(pending) == 1 and state.values[pending[0]] != 1 and 1 in [state.values[i]
                                                                          for i in state.in_cup()]:
            kind = "beside a one"
        else:
            kind = None
        if kind is not None:
            kinds.setdefault(kind, state)
    return list(kinds.values())


def emulated_decisions(rules):
    """(turn, steps, stand) of every strategy (optimal in the context of an opener of two) on a few throws
    that make each kind of move: Sechsen drehen of two and three sixes, ones set aside, standing, throwing;
    and on a state of each kind between moves after them (``between_samples``)."""
    found = {}
    opener = STRATEGIES["optimal"]
    for turn in decision_states(rules, ordered=False):
        out = tuple(turn.values[i] for i in range(3) if turn.state[i] != IN_CUP)
        fell = tuple(turn.values[i] for i in range(3) if turn.state[i] == IN_CUP)
        if turn.limit != 3 or (out, fell) not in EMULATED_THROWS or (turn.throws_used > 1) != bool(out):
            continue
        for state in [turn] + between_samples(turn):
            for name, strategy in STRATEGIES.items():
                steps, stand = decision(opener if name == "optimal" else strategy, state)
                found.setdefault((repr(state.transcript), repr(steps), stand), (state, steps, stand))
    return list(found.values())


def play_on_emulated_cup(rules):
    """Each of ``emulated_decisions(rules)`` on one emulated cup, a turn each: the state through the cup's
    inputs, then the bot's presses. The number of decisions the cup took without a refusal."""
    from kits.cupkit import CupDriver
    cup = CupDriver(time_scale=10)   # its clock 10 times faster: presses and shakes in cup time
    played = 0
    try:
        cup.start(preset=rules.name, options=rules.changed())
        for round_id, (turn, steps, stand) in enumerate(emulated_decisions(rules), 1):
            assert check(turn, steps, stand) is None
            cup.request(t="turn", round=round_id, limit=turn.limit, void=round_id - 1)
            got = []
            presses = [("dice", step[1]) if step[0] == "roll" else ("long", step[1][0]) if step[0] == "turn"
                       else ("tap", step[1]) for step in turn.transcript]   # the state, by the cup's inputs
            presses += [("dice", [2, 2, 2]) if what[0] == "shake" else what
                        for what in cup_inputs(steps, stand)]
            for what in presses:
                if what[0] == "dice":
                    cup.cup.control("dice " + " ".join(str(d) for d in what[1]))
                    cup.cup.shake(400)
                elif what[0] == "tap":
                    cup.die(what[1])
                elif what[0] == "long":
                    cup.die_long(what[1])
                else:
                    cup.cup.press(3, cup.long_ms + 200)
                got.append(cup.recv("done" if what[0] == "stand" else "progress"))
            refused = [m for m in got + cup.quiet(0.1) if m["t"] == "error"]
            assert not refused, (rules, turn.transcript, steps, stand, refused)
            expected = copy_turn(turn)
            for step in steps:
                make_step(expected, step)
            last = [m for m in got if m["t"] == "progress"][-1]
            assert sorted(map(tuple, last["public"])) == sorted(expected.public()), (rules, steps, last)
            played += 1
    finally:
        cup.close()
    return played


def test_decisions_on_emulated_cups():
    """A smaller set of the same decisions through real emulated cups (the firmware on the MicroPython unix
    port, pressed through its control channel), one cup per rule set, side by side."""
    from concurrent.futures import ThreadPoolExecutor
    from conftest import micropython_path
    if micropython_path() is None:
        pytest.skip("needs the micropython unix port")
    with ThreadPoolExecutor(len(EMULATED_RULES)) as pool:
        played = list(pool.map(play_on_emulated_cup, EMULATED_RULES))
    assert all(n >= 6 for n in played), played
