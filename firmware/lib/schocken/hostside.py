"""What only the host does with the wire protocol: find the message in a noisy line from a cup, and check a
cup's reveal against its commitment and the rules. Shared like the rest of the package (tests and tools use it
too), but a cup never imports it, so the cup's heap does not carry it. The protocol itself is schocken.protocol.
"""

from schocken import RuleError
from schocken.protocol import commitment
from schocken.turn import Turn, apply_steps


def message_part(line):
    """Host side: the message in a line from a cup, or None for pure noise. REPL prompts and boot output can
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


def check_reveal(rules, limit, commit, revealed, round_id=None):
    """Verify a "revealed" message against the cup's earlier commitment and the rules.
    Returns the Throw; raises RuleError naming the first problem."""
    if round_id is not None and revealed["round"] != round_id:
        raise RuleError("the reveal is for round %d, not %d" % (revealed["round"], round_id))
    if commitment(revealed["round"], revealed["dice"], revealed["nonce"]) != commit:
        raise RuleError("the revealed dice do not match the commitment")
    if limit is not None and revealed["throws"] > limit:
        raise RuleError("%d throws used, the limit was %d" % (revealed["throws"], limit))
    turn = replay(rules, limit, revealed["transcript"])
    if turn.dice() != list(revealed["dice"]):
        raise RuleError("the transcript gives %s, the cup revealed %s" % (turn.dice(), revealed["dice"]))
    if turn.throws_used != revealed["throws"]:
        raise RuleError("the transcript has %d throws, the cup said %d" % (turn.throws_used, revealed["throws"]))
    if turn.hand() != revealed["hand"]:
        raise RuleError("the hand flag does not match the transcript")
    return turn.result()
