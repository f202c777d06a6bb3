"""Every text the host shows exists in German and English, with the same fields, and says it in that language
(i18n.tr over schocken_host/texts/); errors raised deep down are printed in the user's language."""

import ast
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest

from schocken_host import i18n
from schocken_host.errors import CommandError
from schocken_host.i18n import LANGS, Lines, LocalizedError, Message, tr

ROOT = Path(__file__).resolve().parents[1]
HOST = ROOT / "host_tools" / "schocken_host"

# Words that give away an untranslated text. Game terms (Deckel, Schock-Aus, General, Straße, Jule, Sechsen
# drehen, Blattschuss, Stechen, Auswürfeln) are German in both languages and on neither list.
GERMAN_WORDS = ("Hälfte", "Hälften", "Spieler", "Runde", "Becher", "Fehler", "Würfel", "nicht", "und")
ENGLISH_WORDS = ("error", "player", "round", "cup", "the", "not")
KEY = re.compile(r"[a-z_]+\.[a-z0-9_]+")     # area.name
# Left out before the German texts are checked: what the user types or reads as code (options, `commands`,
# file keys like players[1].port, identifiers like battery_divider).
CODE = re.compile(r"`[^`]*`|--[\w-]+|\[\[?\w+\]?\]|\w+\[\w*\][\w.]*|\w+_\w+|'[^']*'|\"[^\"]*\"")


def fields(text):
    """{name: format spec} of a text's fields."""
    return {name: spec for _, name, spec, _ in string.Formatter().parse(text) if name is not None}


def rendered(lang, key):
    """The text with every field filled: a number where the field has a format spec ({byte:02x}), else "X"."""
    return tr(lang, key, **{name: 1 if spec else "X" for name, spec in fields(i18n.TEXTS[key][0]).items()})


KEYS = sorted(i18n.TEXTS)


def test_every_key_has_a_german_and_an_english_text_with_the_same_fields():
    for key, texts in i18n.TEXTS.items():
        assert KEY.fullmatch(key), key
        assert isinstance(texts, tuple) and len(texts) == len(LANGS) == 2, key
        de, en = texts
        assert de.strip() and en.strip(), key
        assert fields(de) == fields(en), key


@pytest.mark.parametrize("key", KEYS)
def test_every_text_renders_in_both_languages_and_speaks_them(key):
    de, en = rendered("de", key), rendered("en", key)
    for word in GERMAN_WORDS:
        assert not re.search(r"(?<!\w)%s(?!\w)" % word, en, re.I), "%s: German %r in %r" % (key, word, en)
    prose = CODE.sub(" ", de)
    for word in ENGLISH_WORDS:
        assert not re.search(r"(?<![\w.-])%s(?![\w.-])" % word, prose, re.I), \
            "%s: English %r in the German text %r" % (key, word, de)


def test_the_word_lists_catch_what_the_issue_saw():
    """Issue 13: "Bot 3 loses the 1. Hälfte" (English) and "schocken: Fehler: input is not JSON" (German)."""
    assert any(re.search(r"(?<!\w)%s(?!\w)" % w, "Bot 3 loses the 1. Hälfte") for w in GERMAN_WORDS)
    assert re.search(r"(?<![\w.-])not(?![\w.-])", CODE.sub(" ", "input is not JSON"))


def test_an_unknown_language_is_german_and_a_missing_key_is_a_bug():
    assert tr("xx", "plain.resumed") == tr("de", "plain.resumed") == "Spiel fortgesetzt."
    with pytest.raises(KeyError):
        tr("de", "plain.no_such_text")
    with pytest.raises(KeyError):
        Message("plain.no_such_text")


def test_a_message_waits_for_its_language_and_is_english_as_str():
    hint = Message("boards.tool_uf2")
    msg = Message("boards.flash_hint", name="pico_w", image="I", url="U", hint="h", tool=hint)
    assert "tool: UF2 copy" in str(msg) and "Werkzeug: UF2 kopieren" in msg.localized("de")
    assert Lines([msg, "plain"]).localized("de").endswith("\nplain")


def test_an_error_is_english_as_str_and_the_users_language_when_shown():
    e = CommandError("seating.too_many_bots", bots=5, cups=4)
    assert str(e) == e.args[0] == "--bots 5: only 4 emulated cups (--emulate N) to play"
    assert e.localized("de") == "--bots 5: nur 4 emulierte Becher (--emulate N) zum Spielen"
    inner = LocalizedError("log.not_json")
    outer = CommandError("gamelog.bad_line", path="g.jsonl", line=3, error=inner)
    assert str(outer) == "g.jsonl line 3: not JSON"
    assert outer.localized("de") == "g.jsonl Zeile 3: kein JSON"
    again = CommandError.of(inner, status=1)
    assert again.status == 1 and again.localized("de") == inner.localized("de")


# --- every key a call names exists ---------------------------------------------------------------------
KEYED_CALLS = {"tr": 1, "Message": 0, "Command": 1}   # the function and where its key is; an error class: 0
# Methods that put their area in front of the key: {file: {method: (area, where the key is)}}.
AREA_METHODS = {"views/plain.py": {"say": ("plain.", 0), "tr": ("plain.", 0)},
                "views/scoreboard.py": {"tr": ("board.", 0)},
                "provision/doctor.py": {"t": ("doctor.", 0), "check": ("doctor.", 2)},
                "provision/deploy.py": {"say": ("deploy.", 0)}}


def literal_keys():
    """(file, key) of every text key written in a call: tr(lang, "a.b"), Message("a.b"), SomeError("a.b"), and
    self.say("turn") in views/plain.py ("plain.turn")."""
    found = []
    for path in sorted(HOST.rglob("*.py")):
        where = path.relative_to(HOST).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            area, at = "", None
            if isinstance(func, ast.Attribute) and func.attr in AREA_METHODS.get(where, {}):
                area, at = AREA_METHODS[where][func.attr]
            else:
                name = getattr(func, "id", None) or getattr(func, "attr", "")
                at = KEYED_CALLS.get(name, 0 if name.endswith(("Error", "Closed")) else None)
            if at is None or len(node.args) <= at:
                continue
            arg = node.args[at]
            if (isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                    and KEY.fullmatch(area + arg.value)):
                found.append((where, area + arg.value))
    return found


def test_every_key_written_in_the_code_has_its_texts():
    found = literal_keys()
    assert len(found) > 250
    assert ("views/plain.py", "plain.turn") in found and ("provision/doctor.py", "doctor.rng_chi2") in found
    missing = sorted({"%s: %s" % f for f in found if f[1] not in i18n.TEXTS})
    assert not missing, missing


# --- through the real command line ----------------------------------------------------------------------
def schocken(cwd, *argv):
    env = {"PYTHONPATH": "%s:%s" % (ROOT / "host_tools", ROOT / "firmware" / "lib"), "PATH": "/usr/bin:/bin",
           "SCHOCKEN_LOG_DIR": str(cwd / "logs"), "SCHOCKEN_DATA_DIR": str(cwd / "data")}
    return subprocess.run([sys.executable, "-m", "schocken_host.cli", *argv], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


def test_a_bad_table_file_is_refused_in_the_users_language(tmp_path):
    (tmp_path / "tisch.toml").write_text('player = []\n[[players]]\nname = "Anna"\n', encoding="utf-8")
    de = schocken(tmp_path, "play", "--table", "tisch.toml", "--emulate", "2")
    en = schocken(tmp_path, "--lang", "en", "play", "--table", "tisch.toml", "--emulate", "2")
    assert de.returncode == en.returncode == 2 and de.stdout == en.stdout == ""
    assert de.stderr == ("schocken: Fehler: tisch.toml: unbekannter Schlüssel player (bekannt: name, "
                         "players, rules, options)\n")
    assert en.stderr == ("schocken: error: tisch.toml: unknown key player (known: name, players, rules, "
                         "options)\n")
    de = schocken(tmp_path, "play", "--table", "fehlt.toml")
    en = schocken(tmp_path, "play", "--table", "fehlt.toml", "--lang", "en")
    assert de.stderr == "schocken: Fehler: fehlt.toml: Tischdatei gibt es nicht\n"
    assert en.stderr == "schocken: error: fehlt.toml: no such table file\n"


SAMPLE = {"%d": 7, "%r": "nope", "%s": "x y"}


@pytest.mark.parametrize("n", sorted(i18n.RULE_TEXTS))
def test_a_rule_error_raised_by_number_is_translated_by_its_number(n):
    """RuleError(n, *args) is put into words by its number and arguments: the same words as matching its
    English text gives, in both languages."""
    from schocken import RuleError
    from schocken.texts import TEXTS
    args = [SAMPLE[c] for c in re.findall(r"%[rsd]", TEXTS[n])]
    error = RuleError(n, *args)
    for lang in LANGS:
        assert i18n.RuleText(error).localized(lang) == i18n.rule_text(lang, str(error)), (n, lang)


def test_a_rule_error_by_number_keeps_a_field_that_reads_like_its_own_text():
    """A transcript step's refusal holds another rule text; matched by words, a field with "): " in it
    would be cut in the wrong place. By number each field stays whole and is itself put into words."""
    from schocken import RuleError
    error = RuleError(26, 3, "roll): x", "a die shows 1 to 6, got 9")
    assert i18n.RuleText(error).localized("de") == "Schritt 3 (roll): x): ein Würfel zeigt 1 bis 6, nicht 9"
    assert str(i18n.RuleText(error)) == "step 3 (roll): x): a die shows 1 to 6, got 9"
