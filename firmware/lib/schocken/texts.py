"""The texts of the rules package's errors (RuleError, ProtocolError), by number: ``schocken.text(n, *args)``.

Only what a message says lives here: which text a module raises is its own ``_NAME = const(n)``, so the
numbers below are the contract (tests/test_texts_lazy.py checks names, numbers and the arguments of every
use). Why a module of its own: a string constant of a module costs a cup heap for as long as the module is
loaded (about 40 bytes with the firmware in ROM, where its characters stay; 60 bytes plus its length from a
.mpy file), and these are the messages of refusals and broken lines a cup seldom sends. ``text`` loads this
module for one message and, on MicroPython, drops it again; the host keeps it. A RuleError raised by number
(``RuleError(n, *args)``) goes out from a cup by that number (docs/protocol.md, "Errors by number"): a text
keeps its number, new texts go at the end.
"""

TEXTS = (
    "throw limit must be 1 to %d, got %r",  # 0 turn._LIMIT_RANGE
    "no throw yet",  # 1 turn._NO_THROW
    "after Sechsen drehen throw again first",  # 2 turn._TURNED_THROW
    "throw limit reached: %d of %d used",  # 3 turn._LIMIT_REACHED
    "a one that fell must stay out (die %d)",  # 4 turn._ONE_STAYS
    "no die left in the cup: stand instead",  # 5 turn._CUP_EMPTY
    "expected %d dice for the cup, got %r",  # 6 turn._DICE_COUNT
    "a die shows 1 to 6, got %r",  # 7 turn._DIE_VALUE
    "die %d is already set aside",  # 8 turn._ALREADY_ASIDE
    "die %d is the other six: it goes back into the cup",  # 9 turn._OTHER_SIX
    "only ones may be set aside, die %d shows %d",  # 10 turn._ONLY_ONES
    "die %d was set aside for good and never goes back into the cup",  # 11 turn._FOR_GOOD
    "die %d is not set aside",  # 12 turn._NOT_ASIDE
    "Sechsen drehen is not played with these rules",  # 13 turn._NO_SIXES_TURN
    "Sechsen drehen needs two or three different dice",  # 14 turn._SIXES_DICE
    "die %d did not fall in this throw: only sixes of the same throw turn",  # 15 turn._SIX_NOT_NOW
    "die %d shows %d, not a six",  # 16 turn._NOT_SIX
    "the sixes of this throw were turned already",  # 17 turn._TURNED_ALREADY
    "Sechsen drehen only while another throw is left",  # 18 turn._SIXES_LAST
    "after Sechsen drehen the next throw must be taken",  # 19 turn._TURNED_STAND
    "the turn is over",  # 20 turn._OVER
    "throw first",  # 21 turn._THROW_FIRST
    "die number must be 1 to 3, got %r",  # 22 turn._SLOT
    "transcript must be a list",  # 23 turn._NOT_A_LIST
    "step %d: unknown move %r",  # 24 turn._UNKNOWN_MOVE
    "move %s needs one argument",  # 25 turn._ONE_ARGUMENT
    "step %d (%s): %s",  # 26 turn._STEP
    "option %s needs true or false, not %r",  # 27 rules._NEEDS_BOOL
    "option %s needs a whole number, not %r",  # 28 rules._NEEDS_INT
    "option %s is out of range: %r",  # 29 rules._OUT_OF_RANGE
    "option %s must be one of %s, not %r",  # 30 rules._ONE_OF
    "unknown rule set %r (known: %s)",  # 31 rules._UNKNOWN_SET
    "unknown option %r (known: %s)",  # 32 rules._UNKNOWN_OPTION
    "option max_throws must be 1, 2 or 3",  # 33 rules._MAX_THROWS
    "option deckel_total must be at least 1",  # 34 rules._DECKEL_TOTAL
    "option min_players must be at least 2",  # 35 rules._MIN_PLAYERS
    "rule set needs a preset name",  # 36 rules._NO_PRESET
    "rule options must be an object",  # 37 rules._OPTIONS_OBJECT
    "a message is a JSON object",  # 38 protocol._NOT_OBJECT
    "message has no type field t",  # 39 protocol._NO_TYPE
    "unknown message type %s",  # 40 protocol._UNKNOWN_TYPE
    "%s needs field %s",  # 41 protocol._NEEDS_FIELD
    "%s: field %s has the wrong type",  # 42 protocol._WRONG_TYPE
    "line longer than %d bytes",  # 43 protocol._LINE_TOO_LONG
    "line is not UTF-8",  # 44 protocol._NOT_UTF8
    "line is not JSON",  # 45 protocol._NOT_JSON
    "message longer than %d bytes",  # 46 protocol._MSG_TOO_LONG
    "this port has no hashlib",  # 47 protocol._NO_HASHLIB
)
