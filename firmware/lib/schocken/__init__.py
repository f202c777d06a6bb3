"""Schocken rules and wire protocol: pure logic shared by the cup (MicroPython) and the host (CPython).

The package does no I/O, keeps no clock and draws no random numbers of its own. Import the submodule you
need (``schocken.throws``, ``schocken.turn``, ``schocken.ranking``, ``schocken.half``, ``schocken.game``,
``schocken.rules``); this file stays small so a cup with a 32 KB heap only pays for what it uses.
"""

__version__ = "0.1.0"
# Whose package this is: the name "schocken" is also taken on PyPI by an unrelated package, and the host
# refuses to start with that one (schocken_host/cli.py, foreign_rules_package).
__distribution__ = "schocken-cup"


class RuleError(ValueError):
    """A move, an input or a rule option that the rules do not allow. The message names the problem."""
