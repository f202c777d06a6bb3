"""Every text the host shows a person, in German (the default) and English, through one lookup: ``tr``.

The texts live in ``schocken_host/texts/``, one module per area, each a dict ``{key: (German, English)}``; a
key names its area first ("plain.turn", "doctor.connect", "table_file.unknown_key"). Game terms stay German in
both languages (Deckel, Schock-Aus, General, Straße, Jule, Sechsen drehen). tests/test_texts.py renders every
key in both languages.

Where the language is not known yet (an error raised deep in a layer, printed by ``cli.main``, which knows
``--lang``), a ``Message`` carries the key and its fields, and is put into words where it is shown; ``str()``
of a Message, and of a ``LocalizedError``, is the English text, for logs and tests."""

import ast
import re
from pathlib import Path

import schocken
from schocken_host.texts import (board_tools, cli, coach, cup, input_errors, league, link_errors, luck,
                                 odds, option_help, play, releases, scoreboard, turnier, web)
from schocken_host.texts.refusals import HOST, REFUSALS, RULE_PHRASES, RULE_TEXTS

LANGS = ("de", "en")


def _gather(*modules):
    texts = {}
    for module in modules:
        twice = texts.keys() & module.TEXTS.keys()
        if twice:
            raise ValueError("text keys defined twice: %s" % ", ".join(sorted(twice)))
        texts.update(module.TEXTS)
    return texts


TEXTS = _gather(board_tools, cli, coach, cup, input_errors, league, link_errors, luck, odds, option_help,
                play, releases, scoreboard, turnier, web)


def tr(lang, key, **fields):
    """The text of ``key`` in ``lang`` (German for any language but "en"), its fields filled in; a field that
    is a Message, Lines or LocalizedError is put into the same language first."""
    text = TEXTS[key][1 if lang == "en" else 0]
    if not fields:
        return text
    return text.format(**{name: localized(value, lang) for name, value in fields.items()})


def localized(value, lang):
    """``value`` in ``lang`` when it is a text still without a language (a Message, Lines, a LocalizedError, a
    RuleText), else ``value`` itself."""
    if isinstance(value, LocalizedError):
        return value.message.localized(lang)
    if isinstance(value, (Message, Lines, RuleText)):
        return value.localized(lang)
    return value


class Message:
    """A text whose language is not known where it is made: its key and fields. ``localized(lang)`` puts it
    into words; ``str()`` is the English text."""

    def __init__(self, key, **fields):
        if key not in TEXTS:
            raise KeyError("no text %r (schocken_host/texts)" % key)
        self.key = key
        self.fields = fields

    def localized(self, lang):
        return tr(lang, self.key, **self.fields)

    def __str__(self):
        return self.localized("en")

    def __repr__(self):
        return "Message(%r, %r)" % (self.key, self.fields)


class Lines:
    """Texts (Messages or plain strings) one per line, put into words together."""

    def __init__(self, parts):
        self.parts = list(parts)

    def localized(self, lang):
        return "\n".join(str(localized(part, lang)) for part in self.parts)

    def __str__(self):
        return self.localized("en")


class LocalizedError(Exception):
    """An error whose text is a Message: ``str(e)`` (and ``e.args[0]``) is the English text, for logs and
    tests; ``e.localized(lang)`` is what a person reads. Raised as ``SomeError(key, **fields)``."""

    def __init__(self, key, **fields):
        self.message = Message(key, **fields)
        super().__init__(str(self.message))

    def localized(self, lang):
        return self.message.localized(lang)


class LocalizedValueError(LocalizedError, ValueError):
    """A LocalizedError that is a ValueError (table.state.LogError). One class to derive from, because
    MicroPython allows one built-in base per class: the browser's check serves its own
    ``LocalizedValueError`` in place of this module (views/web/check/i18n_shim.py, docs/web-check.md)."""


# --- why a cup refused a button or a shake ----------------------------------------------------------------
def _pattern(text):
    return re.compile("^%s$" % re.escape(text).replace("%d", r"(-?\d+)").replace("%r", "(.+?)")
                      .replace("%s", "(.+?)"))


_FIRMWARE_TEXTS: dict[str, tuple] = {}     # texts module -> its TEXTS, read when first needed
_REFUSAL_PATTERNS = None  # (pattern of the firmware's text, (module, number)) per refusal, when needed


def firmware_texts(module):
    """The TEXTS of a firmware texts module ("schocken.texts", "cup.texts"): the English of what a cup names
    by number. cup/texts.py is firmware, not a host module: read from the checkout beside the rules package
    (without it, as in an installed host without the firmware: empty)."""
    if module not in _FIRMWARE_TEXTS:
        if module == "schocken.texts":
            from schocken import texts
            _FIRMWARE_TEXTS[module] = texts.TEXTS
        else:
            firmware = Path(schocken.__file__).resolve().parents[2]   # firmware/lib/schocken/__init__.py
            path = firmware.joinpath(*module.split(".")).with_suffix(".py")
            try:
                tree = ast.parse(path.read_text(encoding="utf-8"))
                _FIRMWARE_TEXTS[module] = next(ast.literal_eval(n.value) for n in tree.body
                                               if isinstance(n, ast.Assign)
                                               and getattr(n.targets[0], "id", None) == "TEXTS")
            except (OSError, SyntaxError, ValueError, StopIteration):
                _FIRMWARE_TEXTS[module] = ()
    return _FIRMWARE_TEXTS[module]


def firmware_text(why):
    """A text a cup names by number (an error's ``why``: [texts module, number, argument, ...]) in the
    firmware's English, as a cup of protocol version 1 sent it; one this host cannot put into words is named
    as the cup does without room for its texts ("cup.texts 9"), with its arguments."""
    module, n, args = why[0], why[1], tuple(why[2:])
    try:
        if module == HOST:
            return REFUSALS[(module, n)][1]
        text = firmware_texts(module)[n]
        return text % args if args else text
    except (KeyError, IndexError, TypeError, ValueError):
        return " ".join(["%s %s" % (module, n)] + [repr(a) for a in args])


def _refusal_key(why):
    """(module, number) and the text's arguments of a refusal: named by number (a list or tuple), or an
    English text of the firmware matched against its texts (a cup of protocol version 1, a game log's
    ``bot_fallback.reason``); (None, ()) for a text this host does not know."""
    global _REFUSAL_PATTERNS
    if not isinstance(why, str):
        return (why[0], why[1]), tuple(why[2:])
    if _REFUSAL_PATTERNS is None:
        _REFUSAL_PATTERNS = [(_pattern(firmware_texts(key[0])[key[1]]), key) for key in REFUSALS
                             if key[0] != HOST and key[1] < len(firmware_texts(key[0]))]
    for pattern, key in _REFUSAL_PATTERNS:
        m = pattern.match(why)
        if m:
            return key, m.groups()
    return None, ()


def refusal_known(why):
    """True when ``why`` (a refusal's number, or an English text of the firmware) has a translation."""
    return _refusal_key(why)[0] in REFUSALS


def refusal(lang, why):
    """A cup's refusal as a short reason in ``lang``: by its number (``[module, number, argument, ...]``, an
    error's ``why``; the host's own: texts/refusals.py) or by the firmware's English text (a cup of protocol
    version 1): ["cup.texts", 0] or "not your turn" -> "nicht dein Zug". What this host does not know is given
    in the firmware's words, so no reason is ever lost."""
    key, args = _refusal_key(why)
    if key not in REFUSALS:
        return why if isinstance(why, str) else firmware_text(why)
    return REFUSALS[key][1 if lang == "en" else 0].format(*args)


_RULE_PATTERNS = None    # (pattern, (German, English)) per numbered text of the rules package, when needed


def _rule_patterns():
    global _RULE_PATTERNS
    if _RULE_PATTERNS is None:
        from schocken.texts import TEXTS as RULE_ENGLISH   # the rules package's texts, by number
        _RULE_PATTERNS = ([(_pattern(english), texts) for english, texts in RULE_PHRASES.items()]
                          + [(_pattern(RULE_ENGLISH[n]), texts) for n, texts in sorted(RULE_TEXTS.items())])
    return _RULE_PATTERNS


def rule_text(lang, msg):
    """A RuleError's text (English, from the rules package, which is the firmware's too) in ``lang``: found by
    its number in schocken.texts (texts/refusals.py, RULE_TEXTS), by its words (RULE_PHRASES) or, for a move
    the rules refuse, as a cup's refusal. A text this host does not know is given as it came."""
    i = 1 if lang == "en" else 0
    for pattern, texts in _rule_patterns():
        m = pattern.match(msg)
        if m:
            return texts[i].format(*(rule_text(lang, field) for field in m.groups()))
    if refusal_known(msg):
        return refusal(lang, msg)
    return msg


_CONVERSIONS = re.compile(r"%[rsd]")


class RuleText:
    """A RuleError's text as a field of a Message: put into the user's language where it is shown. An error
    raised by number (``RuleError(n, *args)``) is translated by that number and its arguments, each put
    into words as the English text puts it (``%r``, ``%s``, ``%d``); only a text raised as words is matched
    by them (``rule_text``)."""

    def __init__(self, error):
        self.text = str(error)
        args = getattr(error, "args", ())
        self.number = args if args and type(args[0]) is int and args[0] in RULE_TEXTS else None

    def localized(self, lang):
        if self.number is not None:
            from schocken.texts import TEXTS as RULE_ENGLISH
            n, values = self.number[0], self.number[1:]
            conversions = _CONVERSIONS.findall(RULE_ENGLISH[n])
            if len(conversions) == len(values):
                fields = [repr(v) if c == "%r" else str(v) for c, v in zip(conversions, values)]
                return RULE_TEXTS[n][1 if lang == "en" else 0].format(*(rule_text(lang, f) for f in fields))
        return rule_text(lang, self.text)

    def __str__(self):
        return self.localized("en")


# --- what the system says: an OSError by its errno, a JSON syntax error by its text ---------------------
def os_reason(e):
    """Why the system refused (an OSError) as a Message, by its errno: the C library's strerror is English
    whatever the user's language. An errno without a text here keeps the system's words."""
    import errno
    import socket
    if isinstance(e, socket.gaierror):
        return Message("os.gaierror")
    name = errno.errorcode.get(getattr(e, "errno", None) or 0)
    if name and "os." + name.lower() in TEXTS:
        return Message("os." + name.lower())
    return getattr(e, "strerror", None) or str(e) or type(e).__name__


def os_error(e):
    """An OSError in the user's words, naming its file when it has one: "FILE: gibt es nicht"."""
    reason = os_reason(e)
    if getattr(e, "filename", None) is not None:
        if getattr(e, "filename2", None) is not None:
            return Message("os.with_two_files", path=e.filename, other=e.filename2, error=reason)
        return Message("os.with_file", path=e.filename, error=reason)
    return reason


_JSON_KEYS = {
    "Expecting value": "json.expecting_value",
    "Expecting property name enclosed in double quotes": "json.expecting_name",
    "Expecting ':' delimiter": "json.expecting_colon",
    "Expecting ',' delimiter": "json.expecting_comma",
    "Unterminated string starting at": "json.unterminated_string",
    "Invalid control character at": "json.control_character",
    "Invalid \\escape": "json.invalid_escape",
    "Invalid \\uXXXX escape": "json.invalid_u_escape",
    "Extra data": "json.extra_data",
    "Illegal trailing comma before end of object": "json.comma_object",
    "Illegal trailing comma before end of array": "json.comma_array",
}


def json_error(e):
    """A json.JSONDecodeError as a Message: what is wrong and where (line, column, character)."""
    msg = getattr(e, "msg", None) or ""
    key = next((key for start, key in _JSON_KEYS.items() if msg.startswith(start)), None)
    if key is None or not hasattr(e, "lineno"):
        return str(e)
    return Message("json.at", what=Message(key), line=e.lineno, column=e.colno, pos=e.pos)


# tomllib's messages (the same words in Python 3.11 to 3.14), by their English text: a pattern's named groups
# are the fields of its text; the place tomllib writes after each ("(at line 3, column 5)") is read apart.
_TOML_KEYS = (
    (r"Expected '=' after a key in a key/value pair$", "toml.expected_equals"),
    (r"Expected '\]' at the end of a table declaration$", "toml.table_bracket"),
    (r"Expected '\]\]' at the end of an array declaration$", "toml.array_bracket"),
    (r"Expected newline or end of document after a statement$", "toml.expected_newline"),
    (r"Expected (?P<what>.+)$", "toml.expected"),
    (r"Invalid date or datetime$", "toml.bad_date"),
    (r"Invalid hex value$", "toml.bad_hex"),
    (r"Invalid initial character for a key part$", "toml.bad_key"),
    (r"Invalid statement$", "toml.bad_statement"),
    (r"Invalid value$", "toml.bad_value"),
    (r"Unclosed array$", "toml.unclosed_array"),
    (r"Unclosed inline table$", "toml.unclosed_inline_table"),
    (r"Unescaped '\\' in a string$", "toml.unescaped_backslash"),
    (r"Unterminated string$", "toml.unterminated_string"),
    (r"Escaped character is not a Unicode scalar value$", "toml.bad_escaped_character"),
    (r"Cannot overwrite a value$", "toml.overwrite"),
    (r"Cannot declare (?P<name>.+) twice$", "toml.declared_twice"),
    (r"Cannot mutate immutable namespace (?P<name>.+)$", "toml.immutable"),
    (r"Cannot redefine namespace (?P<name>.+)$", "toml.redefined"),
    (r"Duplicate inline table key (?P<name>.+)$", "toml.duplicate_key"),
    (r"Found invalid character (?P<char>.+)$", "toml.invalid_character"),
    (r"Illegal character '\\n'$", "toml.unterminated_string"),   # a string that the line's end cuts off
    (r"Illegal character (?P<char>.+)$", "toml.illegal_character"),
)
_TOML_AT = re.compile(r"(?P<msg>.*) \(at (?:line (?P<line>\d+), column (?P<column>\d+)|end of document)\)$",
                      re.DOTALL)


def _toml_key(text):
    """A key as tomllib writes it (a tuple's repr, ``('players', 'name')``) as the file writes it:
    ``players.name``; a quoted key (``'name'``) without its quotes."""
    try:
        parts = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return text
    if isinstance(parts, tuple) and all(isinstance(p, str) for p in parts):
        return ".".join(parts)
    return parts if isinstance(parts, str) else text


def toml_error(e):
    """A tomllib.TOMLDecodeError as a Message: what is wrong, in words, and where (line and column, or the end
    of the file). A message this table does not know is said in general words, with its place."""
    found = _TOML_AT.match(str(e))
    msg = found.group("msg") if found else str(e)
    if found is None:
        where = None
    elif found.group("line") is None:
        where = Message("toml.at_end")
    else:
        where = Message("toml.at", line=int(found.group("line")), column=int(found.group("column")))
    what = None
    for pattern, key in _TOML_KEYS:
        matched = re.match(pattern, msg, re.DOTALL)
        if matched:
            what = Message(key, **{name: _toml_key(value) if name == "name" else value
                                   for name, value in matched.groupdict().items()})
            break
    if what is None:
        return Message("toml.unknown_at", where=where) if where is not None else Message("toml.unknown")
    return Message("toml.what_where", what=what, where=where) if where is not None else what
