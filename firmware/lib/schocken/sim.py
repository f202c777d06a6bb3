"""Simulated play: simple strategies and whole random games, for tests and benchmarks.

The dice come from an injected ``rng`` with ``randint(a, b)`` and ``random()``: CPython's
``random.Random(seed)``, or MicroPython's ``random`` module itself. The package has no randomness of its own.
"""

from schocken.turn import Turn, IN_CUP, PENDING
from schocken.game import Game

_SCHOCK_KEY = 3000  # the key of the lowest Schock (see schocken.throws)


def keep_ones(turn, stand_key=_SCHOCK_KEY):
    """After a throw: stand on a throw at least as good as ``stand_key`` (a Schock by default);
    otherwise turn two sixes, set the ones aside and throw again (stand where a one that must stay out would
    be left alone in the cup). A turn caught between moves (a bot taking it up) goes on as it lies: what is
    set aside for now and not a one goes back into the cup; after Sechsen drehen no stand. True to stand."""
    if not turn.turned and (turn.throws_used >= turn.limit or turn.result().key >= stand_key):
        return True
    for i in range(3):
        if turn.state[i] == PENDING and turn.values[i] != 1:
            turn.take_back(i)
    sixes = turn.sixes_available()  # none after Sechsen drehen
    ones = sum(1 for v in turn.values if v == 1)
    if len(sixes) >= 2 and ones < 2:
        turn.turn_sixes(sixes[:2])
    for i in range(3):
        if turn.state[i] == IN_CUP and turn.values[i] == 1 and not turn.locked[i] and len(turn.in_cup()) > 1:
            turn.set_aside(i)
    # A one left alone in the cup may not be thrown again where ones must stay out: stand on it. Only ones
    # set aside for now and none in the cup: stand on them (after Sechsen drehen the six is in the cup).
    return not turn.turned and (not turn.in_cup() or turn.rules.ones_must_stay
                                and any(turn.state[i] == IN_CUP and turn.values[i] == 1 for i in range(3)))


def threshold(stand_key):
    """A strategy that stands as soon as the throw's key reaches ``stand_key`` (e.g. 2002: General 2)."""
    def strategy(turn):
        return keep_ones(turn, stand_key)
    return strategy


def play_turn(rules, limit, rng, strategy=keep_ones):
    turn = Turn(rules, limit)
    while True:
        turn.roll([rng.randint(1, 6) for _ in turn.in_cup()])
        if strategy(turn):
            break
    turn.stand()
    return turn


def play_round(game, rng, strategies=None):
    entries = []
    limit = None
    for seat in game.order():
        strategy = strategies[seat] if strategies else keep_ones
        turn = play_turn(game.rules, limit, rng, strategy)
        if limit is None:
            limit = turn.throws_used
        entries.append((turn.dice(), turn.throws_used, turn.hand()))
    return game.play_round(entries)


def random_game(rules, players, rng, strategies=None, max_rounds=10000, on_round=None):
    """Play a whole game with random dice; returns the finished Game."""
    game = Game(rules, players)
    while game.throw_off([[rng.randint(1, 6) for _ in range(3)] for _ in game.throw_off_seats]) is None:
        pass
    while game.phase != "over":
        if game.rounds >= max_rounds:
            raise RuntimeError("game did not end after %d rounds" % max_rounds)
        if rules.einwuerfeln and game.half.out() and rng.random() < 0.1:
            game.einwuerfeln(game.half.out()[0])
        outcome = play_round(game, rng, strategies)
        if on_round:
            on_round(game, outcome)
        if rules.drop_penalty and game.phase != "over" and rng.random() < 0.05:
            game.penalty(game.order()[0])
    return game
