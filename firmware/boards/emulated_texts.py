"""The texts of the emulated cup's answers on its control channel, by number
(``schocken.text(n, *args, module="boards.emulated_texts")``): the emulated board's usage errors and the
emulation's own (emulate.py). As cup.texts for the cup, the module is loaded for one answer and dropped again,
so an emulated cup keeps no string per answer it might give (tests/test_texts_lazy.py checks the numbers).
Only the emulated board has this file, as it has boards/emulated.py.
"""

TEXTS = (
    "error: line must be str or bytes",  # 0 emulated._NOT_TEXT
    "error: usage: %s N (N = 0..3)",  # 1 emulated._USAGE_BUTTON
    "error: button must be 0..3, got %r",  # 2 emulated._BAD_BUTTON
    "error: usage: hold N MS (N = 0..3, MS = 1..%d)",  # 3 emulated._USAGE_HOLD
    "error: usage: accel AX AY AZ (int mm/s^2)",  # 4 emulated._USAGE_ACCEL
    "error: usage: switch 0|1",  # 5 emulated._USAGE_SWITCH
    "error: usage: shake MS (1..%d)",  # 6 emulated._USAGE_SHAKE
    "error: usage: rng stuck|ok",  # 7 emulated._USAGE_RNG
    "error: usage: battery MV|none",  # 8 emulated._USAGE_BATTERY
    "error: unknown command %r",  # 9 emulated._UNKNOWN
    "error: %s: %r",  # 10 emulated._FAILED
    "error: usage: dice D [D [D]] (1..6)",  # 11 emulate._USAGE_DICE
    "error: control line longer than %d bytes: dropped",  # 12 emulate._LINE_TOO_LONG
    "error: control line dropped: %s",  # 13 emulate._LINE_DROPPED
    "error: frame of %d bytes",  # 14 emulate._BAD_FRAME
    "emulate.py: bad argument %r",  # 15 emulate._BAD_ARGUMENT
    "error: mem: the CPython emulation has no heap of its own to count",  # 16 emulate._NO_HEAP
)
