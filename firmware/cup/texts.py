"""The texts of the cup's refusals and errors, by number (``schocken.text(n, *args, module="cup.texts")``).

As schocken.texts for the rules package: cup.core, cup.app and the modules below them (the errors of a wrong
argument too) name a text by their own ``_NAME = const(n)``
(tests/test_texts_lazy.py checks names, numbers and arguments), and the module is loaded for one message and
dropped again, so the cup does not keep a string per message it might send. The cup's refusals and answers go
out by number (an error's "why", docs/protocol.md) and the host puts them into words
(host_tools/schocken_host/texts/refusals.py): a text keeps its number, new texts go at the end.
"""

TEXTS = (
    "not your turn",  # 0 core._NOT_YOUR_TURN
    "no throw left",  # 1 core._NO_THROW_LEFT
    "waiting for the host's nonce",  # 2 core._WAITING_NONCE
    "no throw waits for this nonce",  # 3 core._NO_NONCE_WANTED
    "the dice are in the air",  # 4 core._IN_THE_AIR
    "Sechsen drehen is not possible now",  # 5 core._NO_SIXES
    "peeking is not allowed now",  # 6 core._NO_PEEKING
    "nothing to do",  # 7 core._NOTHING_TO_DO
    "the round is not over",  # 8 core._ROUND_NOT_OVER
    "protocol version %d, cup speaks %d",  # 9 core._VERSION
    "cannot change the rules during a round",  # 10 core._RULES_IN_ROUND
    "seat must be >= 0 and the name short",  # 11 core._SEAT_NAME
    "configure the cup first",  # 12 core._CONFIGURE_FIRST
    "a round is still open",  # 13 core._ROUND_OPEN
    "limit must be 1 to %d",  # 14 core._LIMIT
    "no finished turn of round %d",  # 15 core._NO_FINISHED
    "unknown result",  # 16 core._UNKNOWN_RESULT
    "reveal first",  # 17 core._REVEAL_FIRST
    "line longer than %d bytes",  # 18 app._TOO_LONG
    "state not saved: the flash refused it",  # 19 core._NOT_SAVED
    "a message was lost: %s",  # 20 app._LOST
    "need %d pixels",  # 21 leds._FEW_PIXELS
    "slot 0..2, face 0..6",  # 22 leds._SLOT_FACE
    "bpp must be 3",  # 23 pixels._BPP_3
    "pixel_order must be a permutation of RGB",  # 24 pixels._ORDER
    "sensor must be 'accel' or 'switch'",  # 25 shake._SENSOR
    "stdio_link() on CPython: pass link=(reader, writer) to the emulated board",  # 26 common._NO_STDIO
    "health not checked",  # 27 roller._NOT_CHECKED
    "repetition count test failed",  # 28 roller.FAIL_RCT
    "adaptive proportion test failed",  # 29 roller.FAIL_APT
    "proportion test failed",  # 30 roller.FAIL_HIST
    "random source failed",  # 31 roller.FAIL_SOURCE
    "shake sensitivity: low, normal, high or a calibration, not %r",  # 32 shake._SENSITIVITY
    "shake calibration out of range: %r",  # 33 shake._CALIBRATION
)
