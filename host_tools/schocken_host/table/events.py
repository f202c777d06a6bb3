"""The game log's events and their fields, as docs/gamelog.md lists them: one table, checked before an event
changes the table's state (``state.TableState.apply``), so a log line with a field of the wrong type or a seat
that is not at the table is refused naming its line, in `replay`, `stats`, `play --resume` and the browser's
check alike, instead of reaching a view or the referee.

Each event's fields as "name:kind" words, in the grammar of ``schocken.protocol``'s tables. The wire's kinds
are checked as on the wire (``protocol.kind_ok``): i integer (-2**30 < i < 2**30), s string, b bool,
h lowercase hex digits (1 to 128), l list, o object, d one to three dice 1..6. The table's own: n integer
>= 0 (an i), p a seat at the table, q a list of seats, a dice lying open (``[[slot 0..2, value 1..6], ...]``
on different slots: ``hostside.open_dice_problem``, as in a cup's messages), * anything; a trailing "?" allows
null or absence. What the rules recompute (a round's entries, ranking and moves, a throw-off's dice) is
checked by the recomputation; here only what would otherwise reach the state unchecked. Every event may carry
``ts`` (a number). Runs on CPython and on MicroPython (the browser's check).
"""

from schocken.hostside import open_dice_problem
from schocken.protocol import kind_ok

_INF = float("inf")

EVENTS = {
    "start": "version:i game_id:s rules:o reveal:s? cheat:s? fair:b? players:l table:s?",
    "opener": "seat:p round:n? reason:s?",
    "resumed": "",
    "turn": "round:n seat:p limit:n? kind:s? order:q? continued:b?",
    "progress": "round:n seat:p throws:n public:a",
    "seed": "round:n seat:p hash:h",
    "nonce": "round:n seat:p throw:n nonce:h",
    "done": "round:n seat:p throws:n commit:h",
    "reveal": "round:n seat:p dice:d throws:n hand:* nonce:* transcript:l seed:h? label:s kind:s",
    "cheat": "round:n seat:p reason:s",
    "fault": "round:n? seat:p reason:s",
    "replay_round": "round:n reason:s? seats:q",
    "throw_off": "round:n seats:q dice:l opener:p?",
    "round": "round:n order:q entries:l forfeit:q? ranking:q best:p worst:p deckel:* moves:l",
    "half_lost": "phase:s seat:p",
    "penalty": "seat:p moves:l",
    "einwuerfeln": "seat:p moves:l",
    "pause": "seat:p reason:s",
    "resume": "seat:p",
    "absent": "seat:p after:* reason:s",
    "wait": "seat:p round:n?",
    "forfeit": "round:n seat:p by:s",
    "stop": "reason:s",
    "game_over": "loser:p blattschuss:b",
    "bot_fallback": "round:n seat:p strategy:s throws:n by:s move:l reason:s fallback:s",
    "battery": "seat:p mv:n percent:n? usb:b hours:*? low:b",
}


def _ok(value, kind, seats):
    if kind == "n":
        return kind_ok(value, "i") and value >= 0
    if kind == "p":  # before a start event (a state being set up) the table's size is not known yet
        return kind_ok(value, "i") and 0 <= value and (value < seats or not seats)
    if kind == "q":
        return isinstance(value, list) and all(_ok(s, "p", seats) for s in value)
    if kind == "a":
        return open_dice_problem(value) is None
    return kind == "*" or kind_ok(value, kind)


def bad_field(ev, seats):
    """The first field of ``ev`` (an event of a known type) that is missing or not of its kind, as (name, its
    kind: a letter above, "missing" for a missing field, "number" for a time that is no number), or None.
    ``seats``: the players at the table (0 before the start event: then any seat >= 0 passes)."""
    return check_of(ev["ev"])(ev, seats)


def check_of(kind):
    """bad_field for events of type ``kind`` (a key of EVENTS): a function (ev, seats) -> its answer."""
    check = _CHECKS.get(kind)
    if check is None:
        check = _CHECKS[kind] = _compiled(kind)
    return check


def _bad_ts(ts):
    # NaN is not equal to itself; neither it nor infinity is a time
    return isinstance(ts, bool) or not isinstance(ts, (int, float)) or ts != ts or ts in (_INF, -_INF)


def _seats_ok(value, seats):
    for s in value:
        if type(s) is not int or not 0 <= s < seats:
            return False
    return True


def _dice_ok(value):
    if not 0 < len(value) <= 3:
        return False
    for d in value:
        if type(d) is not int or not 1 <= d <= 6:
            return False
    return True


# Every reader of a log checks every field of every event (an import of 10,000 games: millions), so each event
# type's fields are checked by a function made for it once, its checks written out in a row rather than looked
# up per field. Per kind, a test that passes only values the kind allows (``_ok``; exact types: a log's values
# are JSON's own); a value it does not pass is asked of ``_ok``, which decides. Written with "v" the value and
# "seats" the players at the table; tests/test_events_fields.py holds each to ``_ok``.
_FAST = {
    "i": "type(v) is int and -(1 << 30) < v < (1 << 30)",
    "n": "type(v) is int and 0 <= v < (1 << 30)",
    "p": "type(v) is int and 0 <= v < seats",
    "q": "type(v) is list and _seats_ok(v, seats)",
    "s": "type(v) is str",
    "b": "type(v) is bool",
    "l": "type(v) is list",
    "o": "type(v) is dict",
    "h": 'type(v) is str and 0 < len(v) <= 128 and not v.strip("0123456789abcdef")',
    "a": "type(v) is list and not v",
    "d": "type(v) is list and _dice_ok(v)",
}

_CHECKS = {}  # type: dict[str, object]  # event type -> its check, made when first asked for


def _source(kind):
    """The source of the function that checks an event of type ``kind`` as bad_field says."""
    lines = ["def check(ev, seats):",
             "    ts = ev.get('ts', 0)",
             "    if not (type(ts) is int or type(ts) is float and ts - ts == 0.0) and _bad_ts(ts):",
             "        return 'ts', 'number'"]
    for word in EVENTS[kind].split():
        name, spec = word.split(":")
        letter, optional = spec[0], spec[-1] == "?"
        if letter == "*" and optional:
            continue   # anything, or nothing
        lines.append("    v = ev.get(%r)" % name)
        if not optional:
            lines += ["    if v is None:", "        return %r, 'missing'" % name]
        if letter != "*":
            test = ("v is not None and not (%s)" if optional else "not (%s)") % _FAST[letter]
            lines += ["    if %s and not _ok(v, %r, seats):" % (test, letter),
                      "        return %r, %r" % (name, letter)]
    return "\n".join(lines + ["    return None", ""])


def _compiled(kind):
    scope = {"_ok": _ok, "_bad_ts": _bad_ts, "_seats_ok": _seats_ok, "_dice_ok": _dice_ok}
    exec(_source(kind), scope)
    return scope["check"]
