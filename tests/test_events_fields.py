"""One field grammar for the wire and the game log: the log's events (table/events.py) check the kinds the
wire has too with the wire's own check (``protocol.kind_ok``), and the dice lying open with the one check of a
cup's ``public`` (``hostside.open_dice_problem``). What a game log held before stays valid."""

import json
from pathlib import Path

import pytest

from schocken import hostside, protocol
from schocken_host.table import events
from schocken_host.table.events import EVENTS, bad_field

ROOT = Path(__file__).resolve().parents[1]

SAMPLES = [None, True, False, 0, -1, 3, 7, 1 << 29, 1 << 30, -(1 << 30), 2.5, "", "a", "0f", "0F", "xyz",
           "ab" * 64, "a" * 129, "x" * 2000, [], [1], [1, 2, 3], [0, 1, 2, 3], [7], [True], [[0, 1]], {},
           {"a": 1}]


@pytest.mark.parametrize("kind", "isblohd")
def test_the_log_checks_the_wires_kinds_as_the_wire_does(kind):
    for value in SAMPLES:
        assert events._ok(value, kind, 3) == protocol.kind_ok(value, kind), (kind, value)


def test_hex_is_one_rule_up_to_128_digits():
    assert protocol.kind_ok("ab" * 64, "h") and not protocol.kind_ok("a" * 129, "h")
    seed = {"ev": "seed", "round": 1, "seat": 0, "hash": "a" * 129}
    assert bad_field(seed, 2) == ("hash", "h")
    assert bad_field(dict(seed, hash="0123456789abcdef" * 4), 2) is None


@pytest.mark.parametrize("public, ok", [
    ([], True), ([[0, 1], [2, 6]], True), ([[0, 1], [0, 1]], False),
    ([[0, 1], [1, 1], [2, 1], [0, 2]], False), ([[3, 1]], False), ([[0, 7]], False), ([[0, True]], False),
    ([(0, 1)], False), ("[[0, 1]]", False)])
def test_dice_lying_open_are_one_check_for_a_cup_and_the_log(public, ok):
    assert (hostside.open_dice_problem(public) is None) == ok
    progress = {"ev": "progress", "round": 1, "seat": 0, "throws": 1, "public": public}
    assert (bad_field(progress, 2) is None) == ok
    line = json.dumps({"t": "progress", "round": 1, "throws": 1, "public": public}).encode()
    if isinstance(public, list) and all(isinstance(p, list) for p in public):
        msg = protocol.decode(line, hostside.CUP_TO_HOST)
        if ok:
            assert hostside.check_fields(msg) is msg
        else:
            with pytest.raises(protocol.ProtocolError):
                hostside.check_fields(msg)


def test_the_tables_own_kinds():
    assert events._ok(0, "n", 3) and not events._ok(-1, "n", 3) and not events._ok(True, "n", 3)
    assert events._ok(2, "p", 3) and not events._ok(3, "p", 3) and events._ok(5, "p", 0)
    assert events._ok([0, 2], "q", 3) and not events._ok([0, 3], "q", 3)
    assert events._ok(object(), "*", 3)


def _game_logs():
    """Game logs written by this host's games (tests/data), every line of them."""
    for path in sorted((ROOT / "tests" / "data").glob("*.jsonl")):
        for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if raw.strip():
                yield "%s:%d" % (path.name, n), json.loads(raw)


def test_a_log_that_was_valid_stays_valid():
    lines = list(_game_logs())
    assert lines, "no game log in tests/data"
    seats = 0
    for where, ev in lines:
        if ev["ev"] == "start":
            seats = len(ev["players"])
        assert ev["ev"] in EVENTS and bad_field(ev, seats) is None, where


def _the_grammar(ev, seats):
    """bad_field as the grammar above reads, a field at a time: what each event type's compiled check must
    answer."""
    ts = ev.get("ts", 0)
    if isinstance(ts, bool) or not isinstance(ts, (int, float)) or ts != ts or ts in (float("inf"),
                                                                                       float("-inf")):
        return "ts", "number"
    for word in EVENTS[ev["ev"]].split():
        name, spec = word.split(":")
        value = ev.get(name)
        if value is None:
            if spec.endswith("?"):
                continue
            return name, "missing"
        if not events._ok(value, spec[0], seats):
            return name, spec[0]
    return None


@pytest.mark.parametrize("kind", sorted(events._FAST))
def test_each_kinds_quick_test_passes_only_what_the_kind_allows(kind):
    test = eval("lambda v, seats: " + events._FAST[kind], vars(events))
    values = SAMPLES + [[], [0, 1], [[0, 1]], [[0, 1], [1, 6]], [1.5], 1.0, -0.0, "0123456789abcdef", "ab\n"]
    for seats in (0, 1, 3):
        for value in values:
            if test(value, seats):
                assert events._ok(value, kind, seats), (kind, value, seats)


def test_every_events_check_answers_as_the_grammar():
    """Each event type's check, made once (events.check_of), against the grammar read field by field: every
    field of a valid event missing, null, or each sample value, and the time as each kind of value."""
    examples = {ev["ev"]: ev for _, ev in _game_logs()}
    times = [0, 1.5, -3, float("nan"), float("inf"), float("-inf"), True, None, "1", [1]]
    checked = 0
    for kind, spec in EVENTS.items():
        names = [word.split(":")[0] for word in spec.split()]
        ev = dict(examples.get(kind) or {name: 1 for name in names}, ev=kind)
        variants = [ev] + [dict(ev, ts=t) for t in times] + [{k: v for k, v in ev.items() if k != name}
                                                             for name in names]
        variants += [dict(ev, **{name: value}) for name in names for value in SAMPLES]
        for variant in variants:
            for seats in (0, 2, 8):
                assert bad_field(variant, seats) == _the_grammar(variant, seats), (variant, seats)
                checked += 1
    assert checked > 5000
