"""The one key map of `schocken play` and `schocken cup --emulate` (host_tools/schocken_host/views/keymap.py),
the person's own cup as he sees it (table/own_cup.py), the host's refusals of his keys and the translations of
the cup's refusal texts (i18n.refusal). Fast: no cup is started here (tests/test_person.py plays with real
cups)."""

import ast
import re
from pathlib import Path

import pytest
from textual._xterm_parser import XTermParser

from schocken_host import i18n
from schocken_host.emulation import hands
from schocken_host.i18n import tr
from schocken_host.texts import refusals
from schocken_host.views import keymap
from schocken_host.views.keyboard import _decode_keys
from schocken_host.table.own_cup import OwnCup
from schocken_host.views.scoreboard import Scoreboard
from schocken_host.table.state import TableState

from kits.scorekit import FakeCup, Table

ROOT = Path(__file__).resolve().parents[1]


# --- one key map ----------------------------------------------------------------------------------------
def _typed():
    """Every key a terminal can send for the map: its single characters (and the capitals of its letters)."""
    chars = {k for k in keymap.KEYS if len(k) == 1}
    return sorted(chars | {c.upper() for c in chars if c.isalpha()})


def play_action(raw):
    """What `schocken play`'s scoreboard makes of raw terminal input: Textual's parser (as its driver uses
    it), the app's quit bindings, and for every other key what Scoreboard.on_key forwards to the person's
    cup."""
    actions = []
    for event in XTermParser().feed(raw):
        if event.key in keymap.QUIT_BINDINGS:
            actions.append(("quit",))
        else:
            actions.append(keymap.action_for(keymap.textual_key(event.key, event.character)))
    return actions


def cup_action(raw):
    """What `schocken cup --emulate` makes of the same raw input (its raw terminal mode)."""
    return [keymap.action_for(k) for k in _decode_keys(raw.encode())]


@pytest.mark.parametrize("raw", _typed())
def test_play_and_cup_resolve_every_key_to_the_same_action(raw):
    assert play_action(raw) == cup_action(raw) != [None], raw


def test_every_action_has_a_key_and_both_tools_reach_it():
    actions = {a for a in keymap.KEYS.values()}
    assert actions == {("shake",), ("tap", 0), ("tap", 1), ("tap", 2), ("long", 0), ("long", 1), ("long", 2),
                       ("peek",), ("stand",), ("reveal",), ("quit",)}
    reached = {a for raw in _typed() for a in play_action(raw)}
    assert reached == actions


def test_q_quits_and_the_long_presses_need_no_letter():
    assert keymap.action_for("q") == ("quit",) == keymap.action_for("ctrl+c")
    assert [keymap.action_for(k) for k in "456"] == [("long", 0), ("long", 1), ("long", 2)]
    assert keymap.action_for(" ") == keymap.action_for("space") == keymap.action_for("p") == ("peek",)
    assert keymap.action_for("enter") == keymap.action_for("\r") == ("stand",)
    assert "q" in keymap.QUIT_BINDINGS and "ctrl+c" in keymap.QUIT_BINDINGS
    bound = {b.key for b in Scoreboard.BINDINGS if b.action == "quit_game"}
    assert bound == set(keymap.QUIT_BINDINGS)


@pytest.mark.parametrize("long_ms", [300, 1200, 2000])
def test_a_peek_is_clearly_short_of_a_long_press_and_a_long_press_clearly_past_it(long_ms):
    peek = hands.hold_ms(("peek",), long_ms)
    assert peek <= long_ms // 2 and peek >= 100
    assert hands.hold_ms(("stand",), long_ms) >= long_ms + 250
    assert hands.hold_ms(("long", 1), long_ms) >= long_ms + 250
    assert hands.hold_ms(("tap", 0), long_ms) < 100 and hands.hold_ms(("reveal",), long_ms) < 100
    assert hands.button(("tap", 2)) == 2 and hands.button(("peek",)) == hands.button(("stand",)) == 3
    # A person's cup: 600 ms between a peek's release and the long press, whatever keeps the loop busy.
    assert keymap.PERSON_LONG_MS - hands.hold_ms(("peek",), keymap.PERSON_LONG_MS) >= 500


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_key_help_comes_from_the_map(lang):
    text = keymap.help_text(lang)
    assert text.startswith(tr(lang, "keys.title") + ": ")
    for name, keys, shown in keymap.ROWS:
        entry = "%s %s" % (shown.format(space=tr(lang, "keys.space")), tr(lang, "keys." + name))
        assert entry in text
        first = shown.split()[0].split("/")[0]
        if first != "Enter":
            assert first in keys, (first, name)
    assert "\n" not in text
    lines = keymap.help_text(lang, 40).splitlines()
    assert len(lines) > 2 and all(len(line) <= 40 for line in lines)
    assert " ".join(lines).replace("· ", "") == text.replace("· ", "")   # broken between entries only


def test_readme_lists_the_keys_of_the_map():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name, keys, shown in keymap.ROWS:
        assert "`%s`" % shown.split("/")[0].split()[0] in readme, name


# --- the cup's refusals, translated ------------------------------------------------------------------------
def _refuse_numbers():
    """The refusals of firmware/cup/core.py's ``_refuse`` calls, as (texts module, number): by number
    (``_NAME = const(n)``, a text of cup/texts.py), or picked by a condition (``_NOT_YOUR_TURN if ... else
    _NO_THROW_LEFT``)."""
    tree = ast.parse((ROOT / "firmware" / "cup" / "core.py").read_text(encoding="utf-8"))
    numbers = _const_numbers(tree)
    out = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "_refuse"):
            out += [(refusals.CUP, numbers[n.id]) for n in ast.walk(node.args[0])
                    if isinstance(n, ast.Name) and n.id in numbers]
    return out


def _texts_table(path):
    """A texts module's TEXTS tuple, read without importing it (cup.texts is firmware, not on the path)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return next(ast.literal_eval(n.value) for n in tree.body
                if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", None) == "TEXTS")


def _const_numbers(tree):
    return {n.targets[0].id: n.value.args[0].value for n in tree.body
            if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
            and getattr(n.value.func, "id", None) == "const"}


def _turn_refusals():
    """The RuleErrors of schocken.turn.Turn's moves and checks (``RuleError(_NAME, *args)``, a text of
    schocken/texts.py), which the cup passes on as an error's why: (texts module, number, arguments), the
    arguments made up (the constructor's are the host's)."""
    tree = ast.parse((ROOT / "firmware" / "lib" / "schocken" / "turn.py").read_text(encoding="utf-8"))
    numbers = _const_numbers(tree)
    turn = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Turn")
    methods = [n for n in turn.body if isinstance(n, ast.FunctionDef) and n.name != "__init__"]
    texts = _texts_table(ROOT / "firmware" / "lib" / "schocken" / "texts.py")
    out = []
    for node in (n for m in methods for n in ast.walk(m)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RuleError" and node.args:
            n = numbers[node.args[0].id]
            args = tuple(2 if kind == "d" else [7] for kind in re.findall(r"%([dr])", texts[n]))
            out.append((refusals.RULES, n) + args)
    return out


def _english(why):
    """What a cup of protocol version 1 sent for a refusal: the firmware's text with its arguments."""
    folder = "cup" if why[0] == refusals.CUP else "lib/schocken"
    table = _texts_table(ROOT / "firmware" / folder / "texts.py")
    return table[why[1]] % tuple(why[2:])


def test_the_firmware_refuses_with_these_texts():
    assert {_english(w) for w in _refuse_numbers()} >= {
        "not your turn", "no throw left", "peeking is not allowed now", "nothing to do",
        "the round is not over", "the dice are in the air"}
    assert "die 2 is already set aside" in {_english(w) for w in _turn_refusals()}


@pytest.mark.parametrize("why", _refuse_numbers() + _turn_refusals(), ids=str)
def test_every_refusal_of_the_cup_has_a_translation(why):
    """By its number (a cup of protocol version 2) and by its English text (version 1), in both languages."""
    assert i18n.refusal_known(list(why)) and i18n.refusal_known(_english(why)), why
    de, en = i18n.refusal("de", list(why)), i18n.refusal("en", list(why))
    assert de and en and "%" not in de + en and "{" not in de + en
    assert de != _english(why), (why, de)
    assert (de, en) == (i18n.refusal("de", _english(why)), i18n.refusal("en", _english(why)))
    assert i18n.firmware_text(list(why)) == _english(why)


def test_refusal_fills_in_the_numbers_and_keeps_an_unknown_text():
    assert i18n.refusal("de", "not your turn") == i18n.refusal("de", ["cup.texts", 0]) == "nicht dein Zug"
    assert i18n.refusal("en", "die 3 shows 4, not a six") == "die 3 shows 4, not a six"
    assert i18n.refusal("de", "die 3 shows 4, not a six") == "Würfel 3 zeigt 4, keine Sechs"
    assert i18n.refusal("de", ["schocken.texts", 16, 3, 4]) == "Würfel 3 zeigt 4, keine Sechs"
    assert i18n.refusal("de", "throw limit reached: 2 of 2 used") == "kein Wurf mehr (2 von 2)"
    assert i18n.refusal("de", "a new text") == "a new text" and not i18n.refusal_known("a new text")
    # A number this host has no reason for: the firmware's words, or the number itself.
    assert i18n.refusal("de", ["cup.texts", 12]) == "configure the cup first"
    assert i18n.refusal("de", ["cup.texts", 999, 1]) == "cup.texts 999 1"
    assert (i18n.tr("de", "play.refused", name="Anna", reason="nicht dein Zug")
            == "Anna: abgelehnt – nicht dein Zug")
    assert (i18n.tr("en", "play.refused", name="Anna", reason="not your turn")
            == "Anna: refused – not your turn")


def test_the_hosts_refusals_are_named_by_the_firmwares_numbers():
    core = _const_numbers(ast.parse((ROOT / "firmware" / "cup" / "core.py").read_text(encoding="utf-8")))
    turn = _const_numbers(ast.parse((ROOT / "firmware" / "lib" / "schocken" / "turn.py").read_text(
        encoding="utf-8")))
    assert refusals.NOT_YOUR_TURN == (refusals.CUP, core["_NOT_YOUR_TURN"])
    assert refusals.ROUND_NOT_OVER == (refusals.CUP, core["_ROUND_NOT_OVER"])
    assert refusals.CUP_EMPTY == (refusals.RULES, turn["_CUP_EMPTY"])
    assert refusals.TURN_OVER == (refusals.RULES, turn["_OVER"])
    assert refusals.THROW_FIRST == (refusals.RULES, turn["_THROW_FIRST"])
    assert refusals.IN_THE_AIR == (refusals.CUP, core["_IN_THE_AIR"])
    assert {k for k in refusals.REFUSALS if k[0] == refusals.HOST} == {
        refusals.NOTHING_TO_REVEAL, refusals.GAME_OVER, refusals.TABLE_REVEALS, refusals.GIVES_UP_GENERAL}


# --- the person's own cup -----------------------------------------------------------------------------
def _table(opener=0):
    table = Table()
    table.start(opener=opener)
    return table


def _turn(table, seat, order=(0, 1, 2), limit=None):
    table.emit({"ev": "turn", "round": 1, "seat": seat, "limit": limit, "kind": "round",
                "order": list(order)})


def _progress(table, seat, throws, public=()):
    table.emit({"ev": "progress", "round": 1, "seat": seat, "throws": throws,
                "public": [list(p) for p in public]})


def test_own_cup_remembers_the_dice_seen_until_the_next_throw():
    table, cup = _table(), FakeCup()
    own = OwnCup(cup, 0, table.st)
    cup.show((1, 0, 0), kinds=("cup", "cup", "cup"), status=(0, 0, 255))   # waiting: the seat number, in blue
    assert own.dice() == [(None, "empty")] * 3 and own.describe("de") == "noch nicht gewürfelt"
    _turn(table, 0)
    _progress(table, 0, 1)
    cup.show((0, 0, 0))                                       # thrown, covered
    assert own.describe("de") == "unter dem Becher: verdeckt"
    cup.show((4, 1, 6))                                       # peeking
    cup.show((0, 0, 0))                                       # released: the person remembers
    assert own.dice() == [(4, "cup"), (1, "cup"), (6, "cup")]
    assert own.summary("de") == "Dein Becher: unter dem Becher gesehen 4 1 6"
    cup.show((0, 1, 0), kinds=("cup", "aside", "cup"))        # die 2 set aside
    _progress(table, 0, 1, [[1, 1]])
    assert own.dice() == [(4, "cup"), (1, "aside"), (6, "cup")]
    assert own.describe("en") == "set aside 1 · seen under the cup 4 6"
    _progress(table, 0, 2, [[1, 1]])                          # thrown again: what was seen is gone
    cup.show((0, 1, 0), kinds=("cup", "aside", "cup"), status=(255, 255, 0))
    assert own.dice() == [(None, "empty"), (1, "aside"), (None, "empty")]
    assert own.describe("de") == "beiseite 1 · unter dem Becher: verdeckt"
    assert own.status("de") == ("gelb", "Wurf 2")


def test_own_cup_keeps_the_previous_listener_of_the_cup():
    seen = []
    cup = FakeCup()
    cup.on_frame = lambda c, f: seen.append(f)
    OwnCup(cup, 0, _table().st)
    cup.show((0, 0, 0))
    assert len(seen) == 1


def test_the_host_refuses_what_it_knows_with_the_firmwares_numbers():
    before = OwnCup(FakeCup(), 1, TableState())
    assert before.refusal(("shake",)) == refusals.NOT_YOUR_TURN   # the game has not begun
    table = _table()
    person = OwnCup(FakeCup(), 1, table.st, reveal_button=True)
    everyone = OwnCup(FakeCup(), 1, table.st)          # the host uncovers every cup at once: r does nothing
    assert everyone.refusal(("reveal",)) == refusals.TABLE_REVEALS
    assert i18n.refusal("de", everyone.refusal(("reveal",))) == "aufgedeckt wird für alle zugleich"
    assert person.refusal(("shake",)) == refusals.NOT_YOUR_TURN           # nobody on turn yet
    _turn(table, 0)
    assert person.refusal(("shake",)) == refusals.NOT_YOUR_TURN
    assert person.refusal(("peek",)) == refusals.NOT_YOUR_TURN and person.refusal(("quit",)) is None
    table.emit({"ev": "done", "round": 1, "seat": 0, "throws": 1, "commit": "00" * 32})
    _turn(table, 1, limit=1)
    assert person.refusal(("peek",)) == refusals.THROW_FIRST == person.refusal(("stand",))
    assert person.refusal(("tap", 0)) == refusals.THROW_FIRST == person.refusal(("long", 2))
    assert person.refusal(("shake",)) is None
    assert person.refusal(("reveal",)) == refusals.NOTHING_TO_REVEAL
    _progress(table, 1, 1, [[0, 2], [1, 3], [2, 4]])
    assert person.refusal(("shake",)) == refusals.CUP_EMPTY
    assert i18n.refusal("en", person.refusal(("shake",))) == "no die in the cup: stand"
    assert person.refusal(("stand",)) is None and person.refusal(("tap", 1)) is None
    table.emit({"ev": "done", "round": 1, "seat": 1, "throws": 1, "commit": "00" * 32})
    assert person.refusal(("shake",)) == refusals.TURN_OVER
    assert person.refusal(("peek",)) is None        # his own dice: he may look until the reveal (issue 31)
    assert person.refusal(("reveal",)) == refusals.ROUND_NOT_OVER   # seat 2 still to play
    assert i18n.refusal("de", person.refusal(("reveal",))) == "die Runde läuft noch"
    assert all(i18n.refusal_known(person.refusal(a)) for a in (("shake",), ("reveal",)))
