"""Runs the shared rule cases of tests/cases/*.json. Imported by pytest on CPython and executed by
tests/kits/mp_cases.py on the MicroPython unix port: one set of cases, two interpreters.

Each case is a dict with "id", "type", "preset" (and optional "set": options), "seed", "quote" (the passage of
the rule text it checks) and what the type needs. ``run_case`` returns None when the case holds, or a string
saying what differed. MicroPython subset only: no f-string debugging, no CPython-only modules.
"""

import json

from schocken import RuleError
from schocken.rules import Rules
from schocken.throws import evaluate
from schocken.ranking import rank_round
from schocken.turn import Turn, apply_steps
from schocken.half import Half
from schocken.game import Game


def load(path):
    with open(path) as f:
        return json.load(f)


def rules_of(case):
    return Rules(case.get("preset", "standard"), **case.get("set", {}))


def _dice(text):
    # "1-1-4" or "114" -> [1, 1, 4]
    return [int(ch) for ch in text if ch != "-"]


def _entry(item):
    if isinstance(item, str):
        return (_dice(item), 1, True)
    return (item["dice"] if not isinstance(item["dice"], str) else _dice(item["dice"]),
            item.get("throws", 1), item.get("hand", True))


def _compare(what, got, want):
    for key in want:
        if key not in got:
            return "%s: no field %s in %r" % (what, key, got)
        if got[key] != want[key]:
            return "%s: %s is %r, expected %r" % (what, key, got[key], want[key])
    return None


def _error(fn, want_error):
    """Run fn; check it raises RuleError whose message contains want_error (case-insensitive)."""
    try:
        fn()
    except RuleError as e:
        if want_error.lower() in str(e).lower():
            return None
        return "error %r does not mention %r" % (str(e), want_error)
    return "expected an error mentioning %r" % want_error


def case_throw(case):
    rules = rules_of(case)
    dice, throws, hand = _entry(case)
    if "error" in case:
        return _error(lambda: evaluate(dice, throws, hand, rules), case["error"])
    return _compare("throw", evaluate(dice, throws, hand, rules).to_dict(), case["expect"])


def case_better(case):
    """"better" beats "worse" in every legal seating: first or second (a later player may not use more
    throws than the opener, so a seating that would break that is skipped)."""
    rules = rules_of(case)
    a, b = _entry(case["better"]), _entry(case["worse"])
    checked = 0
    for entries, want in (([a, b], 0), ([b, a], 1)):
        if entries[1][1] > entries[0][1]:
            continue
        res = rank_round(rules, entries)
        checked += 1
        if res.best != want:
            return "seating %r: best is %d, expected %d" % (entries, res.best, want)
    return None if checked else "no legal seating"


def case_round(case):
    rules = rules_of(case)
    entries = [_entry(x) for x in case["throws"]]
    if "error" in case:
        return _error(lambda: rank_round(rules, entries), case["error"])
    return _compare("round", rank_round(rules, entries).to_dict(), case["expect"])


def case_table(case):
    """The seed's table: all 56 throws from the hand, best first; "=" joins throws of equal value."""
    rules = rules_of(case)
    rows = case["order"]
    seen = []
    prev = None
    for row in rows:
        group = [evaluate(_dice(x), 1, True, rules) for x in row.split("=")]
        for t in group:
            if t.key != group[0].key:
                return "%s should be equal in value" % row
            seen.append(t.dice)
        if prev is not None and not prev.key > group[0].key:
            return "%s should rank above %s" % ("-".join(str(d) for d in prev.dice), row)
        prev = group[0]
    if len(seen) != 56 or len(set(seen)) != 56:
        return "table lists %d throws (%d distinct), expected all 56" % (len(seen), len(set(seen)))
    return None


def _apply_move(turn, move):
    apply_steps(turn, [move])  # the same step interpreter the host uses on a revealed transcript


def case_turn(case):
    rules = rules_of(case)
    turn = Turn(rules, case.get("limit"))
    moves = case["moves"]
    for i, move in enumerate(moves):
        last = i == len(moves) - 1
        if last and "error" in case:
            return _error(lambda: _apply_move(turn, move), case["error"])
        try:
            _apply_move(turn, move)
        except RuleError as e:
            return "move %d %r refused: %s" % (i + 1, move, e)
    want = case.get("expect", {})
    got = {"throws": turn.throws_used, "hand": turn.hand(), "may_peek": turn.may_peek(),
           "can_roll": turn.can_roll(), "sixes": turn.sixes_available(), "dice": turn.dice()}
    if turn.finished:
        res = turn.result()
        got["kind"], got["label"] = res.kind, res.label
    return _compare("turn", got, want)


def _half_state(half):
    return {"middle": half.middle, "deckel": [half.deckel[s] for s in half.seats],
            "in_half": list(half.in_half), "loser": half.loser, "opener": half.opener, "order": half.order()}


def case_half(case):
    rules = rules_of(case)
    half = Half(rules, list(range(case["players"])), case.get("opener", 0))
    if "deckel" in case:  # start from a given distribution (middle = the rest)
        for s, n in enumerate(case["deckel"]):
            half.deckel[s] = n
        half.middle = rules.deckel_total - sum(case["deckel"])
        if half.middle == 0:
            half.in_half = [s for s in half.seats if half.deckel[s]]
    steps = case["steps"]
    for i, step in enumerate(steps):
        last = i == len(steps) - 1

        def run(step=step):
            if step[0] == "give":
                worth = step[3]
                half.give(step[1], step[2], worth)
            elif step[0] == "round":
                order = half.order()
                res = rank_round(rules, [_entry(x) for x in step[1]])
                half.give(order[res.best], order[res.worst], res.deckel)
            elif step[0] == "penalty":
                half.penalty(step[1])
            elif step[0] == "einwuerfeln":
                half.einwuerfeln(step[1])
            else:
                raise ValueError("unknown step %r" % (step[0],))
        if last and "error" in case:
            return _error(run, case["error"])
        try:
            run()
        except RuleError as e:
            return "step %d %r refused: %s" % (i + 1, step, e)
        half.check()
    return _compare("half", _half_state(half), case["expect"])


def case_game(case):
    rules = rules_of(case)
    if "error" in case and "steps" not in case:
        return _error(lambda: Game(rules, case["players"]), case["error"])
    game = Game(rules, case["players"])
    for i, step in enumerate(case["steps"]):
        try:
            if step[0] == "throw_off":
                got = game.throw_off([_dice(x) for x in step[1]])
                if len(step) > 2 and got != step[2]:
                    return "throw-off %d: opener %r, expected %r" % (i + 1, got, step[2])
            elif step[0] == "opener":
                game.set_opener(step[1])
            elif step[0] == "round":
                game.play_round([_entry(x) for x in step[1]])
            elif step[0] == "penalty":
                game.penalty(step[1])
            elif step[0] == "einwuerfeln":
                game.einwuerfeln(step[1])
            elif step[0] == "expect":
                err = _compare("after step %d" % i, _game_state(game), step[1])
                if err:
                    return err
            else:
                raise ValueError("unknown step %r" % (step[0],))
        except RuleError as e:
            return "step %d %r refused: %s" % (i + 1, step[0], e)
    return _compare("game", _game_state(game), case.get("expect", {}))


def _game_state(game):
    state = {"phase": game.phase, "half_losers": list(game.half_losers), "loser": game.loser,
             "blattschuss": game.blattschuss, "throw_off_seats": list(game.throw_off_seats)}
    if game.half is not None:
        state.update({"middle": game.half.middle, "deckel": [game.half.deckel[s] for s in game.half.seats],
                      "players": list(game.half.seats), "order": game.half.order(),
                      "in_half": list(game.half.in_half)})
    return state


RUNNERS = {"throw": case_throw, "better": case_better, "round": case_round, "table": case_table,
           "turn": case_turn, "half": case_half, "game": case_game}


def run_case(case):
    runner = RUNNERS.get(case.get("type"))
    if runner is None:
        return "unknown case type %r" % case.get("type")
    try:
        return runner(case)
    except RuleError as e:
        return "unexpected refusal: %s" % e
