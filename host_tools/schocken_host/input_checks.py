"""Checks of what a user hands the command line, made before anything starts (no cup, no log, no output).

The argparse types (``count``, ``seconds``, ``heap_size``) turn a bad value into argparse's one-line error;
the other checks raise CommandError, which ``cli.main`` prints as one line with exit status 2 (README,
"Command line"). Files are read here as bytes and decoded on purpose, so a missing file, a folder, a file
without read permission and a file that is not UTF-8 all say so in words, naming the file."""

import argparse
import math
import os
import re
import stat
import urllib.parse
from pathlib import Path

from schocken.rules import PRESETS, Rules

from schocken_host.errors import BAD_INPUT, CommandError
from schocken_host.i18n import TEXTS, Message, os_reason, tr
from schocken_host.pace import MAX_FACTOR

# The heap the cup is tested in (tests/test_cup.py). The smallest that plays three rounds is 56 KB with fair
# play (the host's default) and the firmware in the emulated ROM, 86 KB as .mpy files without it
# (docs/benchmarks.md).
MIN_HEAP = 64 * 1024
# A board has well under this; more only costs the PC memory.
MAX_HEAP = 64 * 1024 * 1024
_HEAP = re.compile(r"([1-9]\d*)([kKmM]?)\Z")   # no leading 0: micropython would read it as octal


# argparse's own refusals, by their English text (as it hands them to ArgumentParser.error) -> our text keys.
# argparse has no public hook to word them itself: error() reads each back by its English form and says it in
# the parser's language (a refusal none of these forms matches stays as argparse wrote it).
ARGPARSE_REFUSALS = {
    "argument %(argument_name)s: %(message)s": "argparse.argument",
    "the following arguments are required: %s": "argparse.required",
    "unrecognized arguments: %s": "argparse.unrecognized",
    "expected one argument": "argparse.one",
    "expected at most one argument": "argparse.at_most_one",
    "expected at least one argument": "argparse.at_least_one",
    "invalid choice: %(value)r (choose from %(choices)s)": "argparse.invalid_choice",
    "invalid %(type)s value: %(value)r": "argparse.invalid_value",
    "not allowed with argument %s": "argparse.not_allowed_with",
    "ignored explicit argument %r": "argparse.ignored_explicit",
    "one of the arguments %s is required": "argparse.one_required",
    "ambiguous option: %(option)s could match %(matches)s": "argparse.ambiguous",
}
_FIELD = re.compile(r"%(?:\((\w+)\))?[sr]")


def _form(english):
    """An argparse message's English form as a pattern: each field (%s, %r, %(name)s) one group."""
    parts, at, n = [], 0, 0
    for field in _FIELD.finditer(english):
        parts.append(re.escape(english[at:field.start()]))
        n += 1
        parts.append("(?P<%s>.+?)" % (field.group(1) or "f%d" % n))
        at = field.end()
    return re.compile("".join(parts) + re.escape(english[at:]), re.S)


_REFUSAL_FORMS = [(_form(english), key) for english, key in ARGPARSE_REFUSALS.items()]


def argparse_words(lang, message):
    """argparse's English refusal in ``lang``: read back by its form, its fields put into our text (the inner
    message of "argument X: ..." as well)."""
    for form, key in _REFUSAL_FORMS:
        found = form.fullmatch(message)
        if found is None:
            continue
        fields = found.groupdict()
        if "message" in fields:
            fields["message"] = argparse_words(lang, fields["message"])
        text = _FIELD.sub(lambda f: "%%(%s)s" % f.group(1) if f.group(1) else "%s", tr(lang, key))
        positional = tuple(v for k, v in sorted(fields.items()) if k.startswith("f"))
        return text % (positional[0] if len(positional) == 1 else fields)
    return message


_GERMAN_HELP: dict[str, str] = {}   # an option's English description -> its German (help.* texts)


def _spoken(lang, kwargs):
    """An option's arguments with its description in ``lang``: the verbs write it in English where they
    define the option, and the texts hold each one's German by that English."""
    text = kwargs.get("help")
    if lang == "en" or not isinstance(text, str):
        return kwargs
    if not _GERMAN_HELP:
        _GERMAN_HELP.update({en: de for key, (de, en) in TEXTS.items() if key.startswith("help.")})
        _GERMAN_HELP["show this help message and exit"] = tr("de", "argparse.help")
    return dict(kwargs, help=_GERMAN_HELP.get(text, text))


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a bad argument is one line in the user's language: "schocken play: Fehler: Argument
    --emulate: ..." and exit status 2, without the usage block (``--help`` shows that), and each option's
    description in that language, put in where the option is added (argparse's public add_argument, also of
    its groups). Subparsers are made of the same class. ``lang``: set by cli.argparse_in before the parser is
    built."""
    lang = "de"

    def add_argument(self, *args, **kwargs):
        return super().add_argument(*args, **_spoken(self.lang, kwargs))

    def add_argument_group(self, *args, **kwargs):
        return self._speaking(super().add_argument_group(*args, **kwargs))

    def add_mutually_exclusive_group(self, **kwargs):
        return self._speaking(super().add_mutually_exclusive_group(**kwargs))

    def _speaking(self, group):
        plain, lang = group.add_argument, self.lang
        group.add_argument = lambda *args, **kwargs: plain(*args, **_spoken(lang, kwargs))
        return group

    def error(self, message):
        words = " ".join(argparse_words(self.lang, message).split())
        self.exit(BAD_INPUT, "%s: %s: %s\n" % (self.prog, tr(self.lang, "argparse.error"), words))


def argument_error(key, **fields):
    """The refusal of an argparse type, in the language the parser speaks (argparse puts "Argument --x: "
    before it)."""
    return argparse.ArgumentTypeError(tr(OneLineParser.lang, key, **fields))


def count(text):
    """argparse type: a whole number, 0 or more (a number of cups, of bots, a seat)."""
    try:
        n = int(text)
    except ValueError:
        raise argument_error("arg.whole_number", text=text)
    if n < 0:
        raise argument_error("arg.not_negative", n=n)
    return n


def time_scale(text):
    """argparse type of --time-scale and --cup-slowness: a whole number 1..pace.MAX_FACTOR."""
    k = count(text)
    if not 1 <= k <= MAX_FACTOR:
        raise argument_error("arg.time_scale", most=MAX_FACTOR, k=k)
    return k


def seat_number(text):
    """argparse type: a seat as the table counts them, 1 for the first (made 0-based for the referee)."""
    try:
        n = int(text)
    except ValueError:
        raise argument_error("arg.whole_number", text=text)
    if n < 1:
        raise argument_error("arg.seat", text=text)
    return n - 1


def seconds(text):
    """argparse type: a time in seconds above 0 (nan, inf and negative times are refused)."""
    try:
        s = float(text)
    except ValueError:
        raise argument_error("arg.seconds", text=text)
    if not math.isfinite(s) or s <= 0:
        raise argument_error("arg.seconds_positive", text=text)
    return s


def brightness(text):
    """argparse type of deploy's --brightness: a share of the LEDs' full brightness, above 0 and at most 1
    (the cup holds it below its own cap, cup/leds.py BRIGHTNESS_CAP)."""
    try:
        b = float(text)
    except ValueError:
        b = math.nan
    if not math.isfinite(b) or not 0 < b <= 1:
        raise argument_error("arg.brightness", text=text)
    return b


def seconds_or_zero(text):
    """argparse type: a time in seconds, 0 or more."""
    try:
        s = float(text)
    except ValueError:
        raise argument_error("arg.seconds", text=text)
    if not math.isfinite(s) or s < 0:
        raise argument_error("arg.seconds_or_zero", text=text)
    return s


WEB_PORT = 8015          # --web without a value: this port on every address of the machine


def web_address(text):
    """argparse type of --web: ``PORT``, ``:PORT``, ``HOST:PORT`` or ``[IPv6]:PORT`` -> (host, port); the host
    is "" (every address) when none is given, port 0 picks a free one."""
    text = text.strip()
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = "", text
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    elif ":" in host:
        raise argument_error("arg.web_ipv6", text=text)
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise argument_error("arg.web_port", text=text)
    if any(c.isspace() or c in "/[]" for c in host):
        raise argument_error("arg.web_host", text=text)
    return host, int(port)


def heap_size(text):
    """argparse type: a MicroPython heap size as ``micropython -X heapsize=`` takes it (bytes, or k/M)."""
    m = _HEAP.match(text.strip())
    if not m:
        raise argument_error("arg.heap_form", text=text)
    size = int(m.group(1)) * {"": 1, "k": 1024, "m": 1024 * 1024}[m.group(2).lower()]
    if not MIN_HEAP <= size <= MAX_HEAP:
        raise argument_error("arg.heap_range", text=text)
    return text.strip()


def special_file(path):
    """True for something that is there but neither a file nor a folder: a device (/dev/zero reads forever), a
    named pipe (its read waits for a writer), a socket. A reader refuses it rather than hang."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False  # missing or unreadable: the reader says so in its own words
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def read_text(path, what=None):
    """The text of a UTF-8 file; CommandError naming the file for every way it cannot be read. ``what``: the
    kind of file, a Message ("input.file", "input.table_file", ...)."""
    what = what or Message("input.file")
    if special_file(path):
        raise CommandError("input.not_a_file", path=path, what=what)
    try:
        data = Path(path).read_bytes()
    except IsADirectoryError:
        raise CommandError("input.is_a_folder", path=path, what=what)
    except FileNotFoundError:
        raise CommandError("input.no_such_file", path=path, what=what)
    except OSError as e:
        raise CommandError("input.unreadable", path=path, error=os_reason(e))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise CommandError("input.not_utf8", path=path, byte=data[e.start], offset=e.start)


# Ports named by a pyserial URL that reach a cup over TCP (links/urls.py says more); pyserial's other kinds
# (loop://, spy://, hwgrep://, ...) reach none.
URL_SCHEMES = ("socket", "rfc2217")


def is_url(port):
    return "://" in port


def url_scheme(port):
    return port.split("://", 1)[0].lower()


def url_address(port):
    """(host, port number) of a URL, or None when it has no ``HOST:PORT`` with a number 1..65535."""
    try:
        parts = urllib.parse.urlsplit(port)
        number = parts.port
    except ValueError:
        return None
    if not parts.hostname or number is None or not 1 <= number <= 65535:
        return None
    return parts.hostname, number


def _is_path(port):
    """A port that is a device path: every port on Linux and macOS (/dev/ttyACM0, a pseudo-terminal), not a
    pyserial URL (socket://...) nor a Windows name (COM3)."""
    return not is_url(port) and (os.name == "posix" or "/" in port)


def check_port(port, option="--port"):
    """A serial port named by path must exist (a typo would otherwise show up as a cup that does not answer,
    after every other cup has started); a folder is no port. A URL (links/urls.py) must be one that reaches a
    cup, with a host and a port number; whether the host answers is seen when it is opened."""
    if not port.strip():
        raise CommandError("input.empty_port", option=option)
    if is_url(port):
        kind = url_scheme(port)
        if kind not in URL_SCHEMES:
            raise CommandError("input.unknown_scheme", option=option, port=port, scheme=kind)
        if url_address(port) is None:
            raise CommandError("input.url_needs_address", option=option, port=port, scheme=kind)
        return
    if os.path.isdir(port):
        raise CommandError("input.port_is_a_folder", option=option, port=port)
    if _is_path(port) and not os.path.exists(port):
        raise CommandError("input.no_such_device", option=option, port=port)


def check_folder_for_writing(path, what):
    """``path`` is a folder we can create files in, or can be made one (its nearest existing parent is a
    writable folder). Nothing is created here. ``what``: the option, or a Message naming the folder."""
    path = Path(path)
    probe = path
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise CommandError("input.folder_is_a_file", what=what, path=path, probe=probe)
    if probe.exists() and not os.access(probe, os.W_OK | os.X_OK):
        raise CommandError("input.folder_not_writable", what=what, path=path, probe=probe)


def parse_assignments(items):
    """``["jule=true", "max_throws=2"]`` -> dict, as given on the command line with ``--set``."""
    result = {}
    for item in items:
        if "=" not in item:
            raise CommandError("input.set_needs_value", item=item)
        key, value = item.split("=", 1)
        result[key.strip()] = value.strip()
    return result


def make_rules(preset, assignments):
    return Rules(preset, **parse_assignments(assignments or []))


def add_rule_arguments(p):
    """--rules and --set of `rules` and `rank` (`play` has its own: no default preset, a table file may give
    one)."""
    p.add_argument("--rules", default="standard", metavar="PRESET",
                   help="rule set: %s (default: standard)" % ", ".join(sorted(PRESETS)))
    p.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                   help="change one option of the rule set (repeatable)")
