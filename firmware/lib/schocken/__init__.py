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
    """A move, an input or a rule option that the rules do not allow. The message names the problem: a text
    made already, or a text's number in schocken.texts and its arguments (``RuleError(n, *args)``), put into
    words only when somebody reads it (``str``). A cup passes the number on (cup.core: an error's ``why``) and
    never loads the texts for it."""

    def __str__(self):
        a = self.args
        if a and type(a[0]) is int:
            return text(*a)
        return str(a[0]) if len(a) == 1 else str(a)


def why(error):
    """What an error message says of ``error`` (a RuleError, a ProtocolError): a text raised by number as
    ["schocken.texts", number, argument, ...], which a cup sends without loading the texts; else its words."""
    a = error.args
    return ["schocken.texts"] + list(a) if a and type(a[0]) is int else str(error)


def text(n, *args, **keywords):
    """Text number ``n`` of a texts module (``module=``: this package's schocken.texts unless named, or the
    cup's cup.texts), formatted with ``args``. The module is loaded for the one message and, on MicroPython,
    dropped again at once: a cup keeps none of the texts it might send (each a string object in heap while
    loaded: docs/benchmarks.md), only a number per place that raises one. A cup with no room to load the
    module says which text it means instead ("cup.texts 10"): the error still goes out with its code, which is
    what a host acts on."""
    import sys
    # module= read from ``**``: a keyword-only argument with a default would keep a dict in a cup's heap.
    module = keywords.pop("module", "schocken.texts")
    if keywords:  # a misspelt keyword, named
        raise TypeError(*keywords)
    modules = sys.modules
    texts = modules.get(module)
    if texts is None:
        try:
            __import__(module)
        except MemoryError:
            return "%s %d" % (module, n)
        texts = modules[module]
        if sys.implementation.name == "micropython":
            del modules[module]
            package, _, name = module.rpartition(".")
            try:
                delattr(modules[package], name)  # the import set it on the package too
            except (AttributeError, KeyError):
                pass
    s = texts.TEXTS[n]
    return s % args if args else s
