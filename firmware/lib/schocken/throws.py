"""Throw evaluation: three dice and how they were reached -> kind, label, Deckel and an order key.

The key orders throws by their value alone (higher is better). Tie-breaks between players (fewer throws
wins, then the earlier player) belong to the round, see ``schocken.ranking``.
"""

import sys

from micropython import const

from schocken import RuleError

ALL = "all"  # the Deckel of a Schock-Aus: the whole half (or the whole middle, per rule set)

# Kinds from best to worst. The key of a kind starts at its class (5 for schock_aus .. 0 for zahl) * _CLASS.
KINDS = ("schock_aus", "jule", "schock", "general", "strasse", "zahl")
_CLASS = const(1000)
try:
    _set = object.__setattr__  # past Throw's own __setattr__
except AttributeError:  # a MicroPython port without __setattr__: there a Throw stays writable
    _set = setattr


class Throw:
    """A final throw: ``dice`` sorted high to low, ``throws`` used, ``hand`` (no die set aside). Read-only:
    on CPython ``evaluate`` hands out the same object again."""

    def __init__(self, dice, throws, hand, kind, label, deckel, key):
        _set(self, "dice", dice)
        _set(self, "throws", throws)
        _set(self, "hand", hand)
        _set(self, "kind", kind)
        _set(self, "label", label)
        _set(self, "deckel", deckel)
        _set(self, "key", key)

    def __setattr__(self, name, value=None):
        raise AttributeError("a Throw is read-only")

    __delattr__ = __setattr__

    def to_dict(self):
        return {"kind": self.kind, "label": self.label, "deckel": self.deckel}

    def __repr__(self):
        return "Throw(%d-%d-%d, %s, throws=%d, hand=%s)" % (self.dice + (self.label, self.throws, self.hand))


def check_dice(dice):
    """Raise RuleError unless ``dice`` is three whole numbers 1..6."""
    if not isinstance(dice, (list, tuple)) or len(dice) != 3:
        raise RuleError("a throw needs exactly three dice, got %r" % (dice,))
    for d in dice:
        if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6:
            raise RuleError("a die shows 1 to 6, got %r" % (d,))


def check_how(throws, hand, rules):
    if not isinstance(throws, int) or isinstance(throws, bool) or not 1 <= throws <= rules.max_throws:
        raise RuleError("throws must be 1 to %d, got %r" % (rules.max_throws, throws))
    if not isinstance(hand, bool):
        raise RuleError("hand must be true or false, got %r" % (hand,))
    if not hand and throws == 1:
        raise RuleError("a throw with dice set aside needs at least two throws")


def _classify(a, b, c, hand, rules):
    """Sorted dice a >= b >= c -> (kind, label, deckel, key)."""
    if a == 1:
        beats = 1 if (hand and rules.schock_aus_hand_beats) else 0
        return "schock_aus", "Schock-Aus", ALL, 5 * _CLASS + beats
    if b == 1:
        return "schock", "Schock %d" % a, a, 3 * _CLASS + a
    if rules.jule and a == 4 and b == 2 and c == 1 and (hand or not rules.jule_only_hand):
        return "jule", "Jule", rules.jule_deckel, 4 * _CLASS
    if a == c and (hand or not rules.general_only_hand):
        return "general", "General", 3, 2 * _CLASS + a
    if a == b + 1 and b == c + 1 and (hand or not rules.strasse_only_hand):
        return "strasse", "Straße", 2, _CLASS + a
    if rules.ace_hundred and c == 1:
        # The one reads as the hundreds digit and outranks every number without a one (seed 004).
        return "zahl", "1%d%d" % (a, b), 1, 700 + 10 * a + b
    value = 100 * a + 10 * b + c
    return "zahl", str(value), 1, value


def fresh(dice, throws=1, hand=True, rules=None):
    """Evaluate a final throw, classified afresh: ``evaluate`` on MicroPython. ``rules`` defaults to the
    standard preset; RuleError on bad input."""
    if rules is None:
        rules = _standard()
    check_dice(dice)
    check_how(throws, hand, rules)
    a, b, c = dice
    if a < b:
        a, b = b, a
    if b < c:
        b, c = c, b
        if a < b:
            a, b = b, a
    kind, label, deckel, key = _classify(a, b, c, hand, rules)
    return Throw((a, b, c), throws, hand, kind, label, deckel, key)


def all_throws():
    """The 56 distinct throws, each as a sorted (high to low) tuple."""
    return [(a, b, c) for a in range(1, 7) for b in range(1, a + 1) for c in range(1, b + 1)]


_STANDARD = []


def _standard():
    if not _STANDARD:
        from schocken.rules import Rules
        _STANDARD.append(Rules("standard"))
    return _STANDARD[0]


# On CPython ``evaluate`` keeps its results per rule set (schocken.results), so each throw is classified
# once. MicroPython classifies afresh: a table would cost a cup's heap more than it saves.
evaluate = fresh
if sys.implementation.name != "micropython":
    from schocken.results import keeping
    evaluate = keeping(fresh, _standard)
