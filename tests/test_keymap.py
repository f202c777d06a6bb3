"""The one key map of `schocken play` and `schocken cup --emulate` (host_tools/schocken_host/views/keymap.py),
the person's own cup as he sees it (views/own_cup.py), the host's refusals of his keys and the translations of
the cup's refusal texts (i18n.refusal). Fast: no cup is started here (tests/test_person.py plays with real
cups)."""

import ast
from pathlib import Path

import pytest
from textual._xterm_parser import XTermParser

from schocken_host import i18n
from schocken_host.i18n import tr
from schocken_host.views import keymap
from schocken_host.views.keyboard import _decode_keys
from schocken_host.views.own_cup import OwnCup
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
    peek = keymap.hold_ms(("peek",), long_ms)
    assert peek <= long_ms // 2 and peek >= 100
    assert keymap.hold_ms(("stand",), long_ms) >= long_ms + 250
    assert keymap.hold_ms(("long", 1), long_ms) >= long_ms + 250
    assert keymap.hold_ms(("tap", 0), long_ms) < 100 and keymap.hold_ms(("reveal",), long_ms) < 100
    assert keymap.button(("tap", 2)) == 2 and keymap.button(("peek",)) == keymap.button(("stand",)) == 3
    # A person's cup: 600 ms between a peek's release and the long press, whatever keeps the loop busy.
    assert keymap.PERSON_LONG_MS - keymap.hold_ms(("peek",), keymap.PERSON_LONG_MS) >= 500


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


# --- the cup's refusal texts, translated --------------------------------------------------------------
def _refuse_literals():
    """The texts of firmware/cup/core.py's ``_refuse`` calls: by number (``_NAME = const(n)``) in
    cup/texts.py, or picked by a condition (``_NOT_YOUR_TURN if ... else _NO_THROW_LEFT``)."""
    tree = ast.parse((ROOT / "firmware" / "cup" / "core.py").read_text(encoding="utf-8"))
    texts = _texts_table(ROOT / "firmware" / "cup" / "texts.py")
    numbers = _const_numbers(tree)
    out = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "_refuse"):
            out += [texts[numbers[n.id]] for n in ast.walk(node.args[0])
                    if isinstance(n, ast.Name) and n.id in numbers]
            out += [n.value for n in ast.walk(node.args[0])
                    if isinstance(n, ast.Constant) and isinstance(n.value, str)]
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


def _turn_errors():
    """The RuleError texts of schocken.turn.Turn's moves and checks, which the cup passes on with
    _refuse(str(e)), with numbers filled in the way they are formatted (the constructor's are the host's).
    Turn raises ``RuleError(text(_NAME, ...))``: the text is schocken.texts' entry of that number."""
    tree = ast.parse((ROOT / "firmware" / "lib" / "schocken" / "turn.py").read_text(encoding="utf-8"))
    texts = _texts_table(ROOT / "firmware" / "lib" / "schocken" / "texts.py")
    numbers = _const_numbers(tree)
    turn = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Turn")
    methods = [n for n in turn.body if isinstance(n, ast.FunctionDef) and n.name != "__init__"]
    out = []
    for node in (n for m in methods for n in ast.walk(m)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RuleError" and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Call) and getattr(arg.func, "id", None) == "text":
                fmt = texts[numbers[arg.args[0].id]]
            else:
                fmt = arg.left.value if isinstance(arg, ast.BinOp) else arg.value
            out.append(fmt.replace("%d", "2").replace("%r", "[7]"))
    return out


def test_the_firmware_refuses_with_these_texts():
    assert set(_refuse_literals()) >= {"not your turn", "no throw left", "peeking is not allowed now",
                                       "nothing to do", "the round is not over", "the dice are in the air"}
    assert "die 2 is already set aside" in _turn_errors()


@pytest.mark.parametrize("text", _refuse_literals() + _turn_errors())
def test_every_refusal_of_the_cup_has_a_translation(text):
    assert i18n.refusal_known(text), text
    de, en = i18n.refusal("de", text), i18n.refusal("en", text)
    assert de and en and "%" not in de + en and "{" not in de + en
    assert de != text, (text, de)


def test_refusal_fills_in_the_numbers_and_keeps_an_unknown_text():
    assert i18n.refusal("de", "not your turn") == "nicht dein Zug"
    assert i18n.refusal("en", "die 3 shows 4, not a six") == "die 3 shows 4, not a six"
    assert i18n.refusal("de", "die 3 shows 4, not a six") == "Würfel 3 zeigt 4, keine Sechs"
    assert i18n.refusal("de", "throw limit reached: 2 of 2 used") == "kein Wurf mehr (2 von 2)"
    assert i18n.refusal("de", "a new text") == "a new text" and not i18n.refusal_known("a new text")
    assert (i18n.tr("de", "play.refused", name="Anna", reason="nicht dein Zug")
            == "Anna: abgelehnt – nicht dein Zug")
    assert (i18n.tr("en", "play.refused", name="Anna", reason="not your turn")
            == "Anna: refused – not your turn")


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


def test_the_host_refuses_what_it_knows_with_the_firmwares_words():
    assert OwnCup(FakeCup(), 1, TableState()).refusal(("shake",)) == "not your turn"   # before the game
    table = _table()
    person = OwnCup(FakeCup(), 1, table.st)
    assert person.refusal(("shake",)) == "not your turn"           # nobody on turn yet
    _turn(table, 0)
    assert person.refusal(("shake",)) == "not your turn"
    assert person.refusal(("peek",)) == "not your turn" and person.refusal(("quit",)) is None
    table.emit({"ev": "done", "round": 1, "seat": 0, "throws": 1, "commit": "00" * 32})
    _turn(table, 1, limit=1)
    assert person.refusal(("peek",)) == "throw first" and person.refusal(("stand",)) == "throw first"
    assert person.refusal(("tap", 0)) == "throw first" and person.refusal(("long", 2)) == "throw first"
    assert person.refusal(("shake",)) is None
    assert person.refusal(("reveal",)) == "nothing to reveal"
    _progress(table, 1, 1, [[0, 2], [1, 3], [2, 4]])
    assert person.refusal(("shake",)) == "no die left in the cup: stand instead"
    assert person.refusal(("stand",)) is None and person.refusal(("tap", 1)) is None
    table.emit({"ev": "done", "round": 1, "seat": 1, "throws": 1, "commit": "00" * 32})
    assert person.refusal(("shake",)) == "the turn is over"
    assert person.refusal(("peek",)) is None        # his own dice: he may look until the reveal (issue 31)
    assert person.refusal(("reveal",)) == "the round is not over"   # seat 2 still to play
    assert all(i18n.refusal_known(person.refusal(a)) for a in (("shake",), ("reveal",)))
