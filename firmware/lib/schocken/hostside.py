"""What only the host does with the wire protocol: the messages a cup sends (``CUP_TO_HOST``, in the format of
protocol.HOST_TO_CUP), find the message in a noisy line from a cup, and check a cup's reveal against its
commitment and the rules. Shared like the rest of the package, but a cup never imports it, so the cup's heap
does not carry it. The protocol itself (framing, HOST_TO_CUP, error codes, the commitment) is
schocken.protocol.
"""

from schocken import RuleError
from schocken.protocol import E_BAD_MESSAGE, ProtocolError, commitment
from schocken.turn import Turn, apply_steps

# Cup -> host: validated by the host with protocol.decode(line, CUP_TO_HOST); docs/protocol.md.
CUP_TO_HOST = {
    # nonce: the cup's part of the session
    "identity": "v:i cup:s name:s fw:s board:s battery:i? presets:l nonce:h?",
    "ok": "re:s name:s? seat:i?",               # configure: the name and seat the cup took
    "error": "code:s msg:s? re:s? why:l?",     # msg or why (a numbered text: WHY_TEXTS), never neither
    "progress": "round:i throws:i public:l",
    "done": "round:i throws:i commit:h",
    "revealed": "round:i dice:d nonce:h throws:i hand:b transcript:l seed:h?",
    "seed": "round:i hash:h",                   # fair play: the cup's seed, committed
    "shake": "round:i throw:i public:l",        # fair play: shaken, waiting for the nonce
    "status": ("state:s round:i? throws:i public:l seat:i? name:s seed:h? awaiting:i? id:i? battery:i? "
               "motion:s?"),
    # what the cup spent its time on (cup/clock.py's meter), the answer to "power"
    "power": ("ms:i wakes:i waiting:i light_sleep:i deep_sleep:i hosted:i leds_on:i led_channel_s:i "
              "id:i?"),
}


# The protocol versions this host speaks: 2, and 1 (whose errors always carry msg).
VERSIONS = (2, 1)
# The texts modules an error's "why" names (its first item, the import name), then the text's number there
# and its arguments.
WHY_TEXTS = ("cup.texts", "schocken.texts")


def fields(spec):
    """A table entry (of protocol.HOST_TO_CUP or CUP_TO_HOST) -> its (name, kind) pairs in order:
    ``fields(HOST_TO_CUP["turn"])`` is ``[("round", "i"), ("limit", "i?"), ("void", "i?")]``. Only the host
    and the tests take the table apart; a cup checks a message word by word (protocol.validate)."""
    return [tuple(word.split(":")) for word in spec.split()]


def check_fields(msg):
    """What the table format cannot say about a cup's message: the dice lying open (``public``) are pairs
    [slot 0..2, value 1..6] on different slots, throw counts are 0..3, an error has ``msg`` or a ``why`` that
    names a texts module and a number (and at most six arguments). Raises ProtocolError, so a message
    that would break a view or a log line is a reported fault of its cup, never an exception in the host."""
    public = msg.get("public")
    if public is not None:
        problem = open_dice_problem(public)
        if problem is not None:
            raise ProtocolError(E_BAD_MESSAGE, "public: " + problem)
    if msg.get("t") == "error":
        why = msg.get("why")
        if why is None and msg.get("msg") is None:
            raise ProtocolError(E_BAD_MESSAGE, "error: neither msg nor why")
        if why is not None and (len(why) < 2 or why[0] not in WHY_TEXTS or not _small(why[1], 0, 999)
                                or len(why) > 8):
            raise ProtocolError(E_BAD_MESSAGE, "why: %r is no [texts, number, argument, ...]" % (why[:8],))
    for name in ("throws", "throw", "awaiting"):
        if name in msg and msg[name] is not None and not _small(msg[name], 0, 3):
            raise ProtocolError(E_BAD_MESSAGE, "%s: %r is not 0..3" % (name, msg[name]))
    if "round" in msg and msg["round"] is not None and msg["round"] < 0:
        raise ProtocolError(E_BAD_MESSAGE, "round: %r is negative" % (msg["round"],))
    return msg


def open_dice_problem(public):
    """None when ``public`` is dice lying open: a list of at most three [slot 0..2, value 1..6] pairs on
    different slots; else what is wrong with it. The one check of them: a cup's messages (check_fields) and
    the game log's events (schocken_host/table/events.py, kind "a")."""
    if not isinstance(public, list):
        return "not a list"
    if len(public) > 3:
        return "more than three dice"
    slots = []
    for pair in public:
        if (not isinstance(pair, list) or len(pair) != 2 or not _small(pair[0], 0, 2)
                or not _small(pair[1], 1, 6) or pair[0] in slots):
            return "%r is no [slot 0..2, value 1..6]" % (pair,)
        slots.append(pair[0])
    return None


def _small(value, low, high):
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def message_part(line):
    """The message in a line from a cup, or None for pure noise. REPL prompts and boot output can
    run into a message on the same line ('>>> {"t": ...}'): everything before the first "{" is dropped."""
    i = line.find(b"{" if isinstance(line, (bytes, bytearray)) else "{")
    return None if i < 0 else line[i:]


def is_noise(line):
    """True for lines that are not messages at all (REPL prompts, boot output, empty lines)."""
    s = line.strip()
    if not s:
        return True
    return s[0] != (123 if isinstance(s, (bytes, bytearray)) else "{")  # 123 is "{"


def replay(rules, limit, transcript):
    """Replay a finished turn's transcript into a new Turn (the host's check of a reveal)."""
    turn = apply_steps(Turn(rules, limit), transcript)
    if not turn.finished:
        raise RuleError("transcript does not end with stand")
    return turn


def check_reveal(rules, limit, commit, revealed, round_id=None, stood=None):
    """Verify a "revealed" message against the cup's earlier commitment and the rules; ``stood``: the throws
    its ``done`` said (the commitment does not cover them, and an opener's count is the others' limit).
    Returns the Throw; raises RuleError naming the first problem."""
    if round_id is not None and revealed["round"] != round_id:
        raise RuleError("the reveal is for round %d, not %d" % (revealed["round"], round_id))
    if commitment(revealed["round"], revealed["dice"], revealed["nonce"]) != commit:
        raise RuleError("the revealed dice do not match the commitment")
    if stood is not None and revealed["throws"] != stood:
        raise RuleError("the cup stood after %d throws, its reveal shows %d" % (stood, revealed["throws"]))
    if limit is not None and revealed["throws"] > limit:
        raise RuleError("%d throws used, the limit was %d" % (revealed["throws"], limit))
    turn = replay(rules, limit, revealed["transcript"])
    if turn.dice() != list(revealed["dice"]):
        raise RuleError("the transcript gives %s, the cup revealed %s" % (turn.dice(), revealed["dice"]))
    if turn.throws_used != revealed["throws"]:
        raise RuleError("the transcript has %d throws, the cup said %d"
                        % (turn.throws_used, revealed["throws"]))
    if turn.hand() != revealed["hand"]:
        raise RuleError("the hand flag does not match the transcript")
    return turn.result()
