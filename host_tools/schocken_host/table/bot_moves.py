"""A bot's move after a throw, apart from its cup: what a strategy decides (``decision``), whether the
rules package's ``Turn`` and the cup's buttons take it (``check``), the presses that make it on a cup
(``cup_inputs``), and what a bot falls back to when a move fails or is refused (``FALLBACKS``). The steps are
in the words of a turn's transcript (docs/protocol.md): ``["aside", slot]``, ``["back", slot]``, ``["turn",
slots]``. table/bots.py plays them on an emulated cup; tests/test_bot_moves.py proves every one of them
legal on the rules package and on the cup's state machine.
"""

from schocken import RuleError
from schocken.sim import keep_ones
from schocken.turn import IN_CUP, PENDING, Turn


def _stand(turn):
    return True


def _throw(turn):
    """Throw again: the ones the rules make stay out (``ones_must_stay``) set aside, and if that leaves the
    cup empty a die set aside for now taken back into it, not a one where possible (after Sechsen drehen
    standing is no move)."""
    for i in range(3):
        if (turn.rules.ones_must_stay and turn.state[i] == IN_CUP and turn.values[i] == 1
                and not turn.locked[i]):
            turn.set_aside(i)
    if not turn.in_cup():
        pending = sorted((i for i in range(3) if turn.state[i] == PENDING), key=lambda i: turn.values[i] == 1)
        if pending:
            turn.take_back(pending[0])
    return False


# What a bot falls back to when its strategy's move fails or is refused, in this order: the simplest strategy,
# standing (legal after every throw but right after Sechsen drehen), throwing again (legal right after it).
FALLBACKS = (("schock", keep_ones), ("stand", _stand), ("throw", _throw))


def copy_turn(turn):
    """A Turn in the same state (the bot's own turn changes only as its cup takes each input, so its state is
    what its transcript made it): the state copied, not replayed, as a bot decides on copies many times a
    turn and tests/test_bot_moves.py hundreds of thousands of times. No part is shared with ``turn``."""
    copy = Turn(turn.rules, turn.limit)
    copy.values, copy.state, copy.locked = list(turn.values), list(turn.state), list(turn.locked)
    copy.throws_used, copy.turned, copy.finished = turn.throws_used, turn.turned, turn.finished
    # a roll's dice and a turn's slots are lists; aside and back carry a slot, stand nothing
    copy.transcript = [[step[0], list(step[1])] if step[0] in ("roll", "turn") else list(step)
                       for step in turn.transcript]
    return copy


def make_step(turn, step):
    """One transcript step (aside, back, turn) on a Turn, as the cup's button would make it. A Sechsen drehen
    turns every six offered: the cup's long press does nothing else."""
    if step[0] == "turn":
        sixes = turn.sixes_available()
        if sorted(step[1]) != sixes:
            raise RuleError("the cup turns every six offered (%s), not %s"
                            % (", ".join(str(s + 1) for s in sixes) or "-",
                               ", ".join(str(s + 1) for s in step[1])))
        turn.turn_sixes(sixes)
    elif step[0] == "aside":
        turn.set_aside(step[1])
    elif step[0] == "back":
        turn.take_back(step[1])
    else:
        raise RuleError("a bot does not %s between throws" % step[0])


def decision(strategy, turn):
    """(steps, stand): what ``strategy`` (a schocken.sim kind: called after a throw, True to stand) decides
    after the latest throw of ``turn``, tried on a copy, with its steps in the words of a turn's transcript. A
    strategy that turns only two of three sixes (``keep_ones``) gets what the cup's long press does, every six
    turned; its other steps stay, but none on a die that lies out after that. Raises what the strategy
    raises."""
    trial = copy_turn(turn)
    stand = bool(strategy(trial))
    steps = [list(step) for step in trial.transcript[len(turn.transcript):]]
    if any(step[0] == "turn" for step in steps):
        cup, kept, followed = copy_turn(turn), [], True
        for step in steps:
            if followed and step[0] == "turn":
                step = ["turn", cup.sixes_available()]
            elif followed and step[0] == "aside" and cup.state[step[1]] != IN_CUP:
                continue  # a six the strategy turned alone lies out as a one already
            kept.append(step)
            if followed:
                try:
                    make_step(cup, step)
                except RuleError:
                    followed = False  # ``check`` names what is wrong with it
        steps = kept
    return steps, stand


def check(turn, steps, stand):
    """None if the rules package's Turn and the cup's buttons take these steps and then the stand or the next
    throw, else the reason (the rules' words)."""
    trial = copy_turn(turn)
    try:
        for step in steps:
            make_step(trial, step)
        if stand:
            trial.stand()
        else:
            trial.roll([2] * len(trial.in_cup()))  # the dice count is checked after the rules' checks
    except RuleError as e:
        return str(e)
    return None


def as_move(steps, stand):
    """The steps and the stand or the next throw, as the log's ``move`` (transcript steps)."""
    return [list(step) for step in steps] + [["stand"] if stand else ["roll"]]


def cup_inputs(steps, stand):
    """The presses on the cup that make a decision: ("tap", slot) sets a die aside or takes it back, ("long",
    slot) turns the sixes, ("stand",) is the main button held long, ("shake",) the next throw."""
    presses = [("long", step[1][0]) if step[0] == "turn" else ("tap", step[1]) for step in steps]
    return presses + [("stand",) if stand else ("shake",)]
