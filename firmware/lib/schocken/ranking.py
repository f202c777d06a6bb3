"""Ranking a round: all final throws in seating order from the opener -> best, worst and the Deckel.

Ties (seeds 000, 001, 002, 003): fewer throws wins; with equal throws the earlier player wins, the later one
has only "nachgelegt". A Schock-Aus from the hand outranks a built one where the rule set says so; that is
part of the throw's key (``schocken.throws``), so it wins whatever the throws.
"""

from schocken import RuleError
from schocken.throws import evaluate


class RoundResult:
    def __init__(self, results, ranking):
        self.results = results        # Throw per player, in seating order from the opener
        self.ranking = ranking        # player indices from best to worst
        self.best = ranking[0]
        self.worst = ranking[-1]
        self.deckel = results[self.best].deckel  # what the best throw is worth (int, or throws.ALL)

    def to_dict(self):
        return {"best": self.best, "worst": self.worst, "deckel": self.deckel,
                "ranking": list(self.ranking),
                "results": [t.to_dict() if t is not None else None for t in self.results]}


def order_key(throw, position):
    """Sort key, ascending = better: value first, then fewer throws, then the earlier seat."""
    return (-throw.key, throw.throws, position)


def rank(results):
    """Player indices from best to worst for a list of Throw in seating order from the opener."""
    if len(results) < 2:
        raise RuleError("a round needs at least two throws, got %d" % len(results))
    return sorted(range(len(results)), key=lambda i: order_key(results[i], i))


def check_limit(results):
    """The opener's number of throws binds everyone after him."""
    limit = results[0].throws
    for i in range(1, len(results)):
        if results[i].throws > limit:
            raise RuleError("player %d used %d throws, more than the opener's %d"
                            % (i + 1, results[i].throws, limit))


def rank_round(rules, entries, limit_check=True):
    """``entries``: (dice, throws, hand) per player in seating order from the opener. ``limit_check``: the
    opener's throws bind the others (off when the opener's throw is void and everyone had the full limit)."""
    if not isinstance(entries, (list, tuple)) or len(entries) < 2:
        raise RuleError("a round needs at least two throws")
    results = []
    for i, entry in enumerate(entries):
        try:
            dice, throws, hand = entry
            results.append(evaluate(dice, throws, hand, rules))
        except RuleError as e:
            raise RuleError("player %d: %s" % (i + 1, e))
        except (TypeError, ValueError):
            raise RuleError("player %d: an entry is (dice, throws, hand)" % (i + 1))
    if limit_check:
        check_limit(results)
    return RoundResult(results, rank(results))
