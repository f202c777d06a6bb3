"""Results kept per rule set: ``schocken.throws.evaluate`` on CPython classifies each throw once.

A table maps (die, die, die, throws, hand), the dice in the order given, to the read-only ``Throw`` that
``schocken.throws.fresh`` made for it; every order of the same dice shares one Throw: at most 1,296 keys and
336 Throws a table. Rule sets with equal options share a table, which the Rules object keeps as
``_results``, so a rule set must not change after its first evaluate (rule sets are immutable by convention).
MicroPython never loads this module: there ``evaluate`` is ``fresh``.
"""

_TABLES = {}
_MAX_TABLES = 32  # more option sets than a host plays with (property tests make up many): start over


class Results(dict):
    def __deepcopy__(self, memo):  # a deep copy of a rule set (or of a game) shares the table
        return self


def table_for(rules):
    """The table of the rule sets with the options of ``rules``."""
    options = tuple(rules.options().items())
    table = _TABLES.get(options)
    if table is None:
        if len(_TABLES) >= _MAX_TABLES:
            _TABLES.clear()
        table = _TABLES[options] = Results()
    return table


def keeping(fresh, standard):
    """``fresh(dice, throws, hand, rules)`` with its results kept; ``standard()`` is the default rule set."""

    def evaluate(dice, throws=1, hand=True, rules=None):
        """Evaluate a final throw (RuleError on bad input); ``rules`` defaults to the standard preset. The
        result is read-only and may be handed out again."""
        if rules is None:
            rules = standard()
        try:
            table = rules._results
        except AttributeError:
            table = rules._results = table_for(rules)
        # Exact types only (a bool or a float equals an int): then the key stands for one input, which
        # fresh() checked when it first came. Anything else is evaluated afresh, with the full checks.
        if (type(dice) is list or type(dice) is tuple) and len(dice) == 3 and type(hand) is bool \
                and type(throws) is int:
            a, b, c = dice
            if type(a) is int and type(b) is int and type(c) is int:
                key = (a, b, c, throws, hand)
                throw = table.get(key)
                if throw is None:
                    throw = fresh(dice, throws, hand, rules)  # RuleError on bad input
                    throw = table[key] = table.setdefault(throw.dice + (throws, hand), throw)
                return throw
        return fresh(dice, throws, hand, rules)
    return evaluate
