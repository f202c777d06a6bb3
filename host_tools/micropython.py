"""MicroPython's ``micropython`` module as CPython needs it: ``const`` alone, so the firmware and the rules
package (``from micropython import const``) run unchanged on the host, in the tests and in the bench. One
stand-in for every module: none defines a fallback of its own (tests/test_each_fact_once.py).

Only CPython sees it. The boards, the unix port and the browser's WebAssembly port have the real module built
in, and nothing sends this file to a board: deploy, build and the frozen manifest take firmware/ only."""


def const(value):
    """``value`` itself: MicroPython's compiler puts the value in place of the name."""
    return value
