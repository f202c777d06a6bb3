"""How a text is fitted to the room it has on a screen, without cutting a word: the first of its forms that
fits (a result read whole, else shortened by rule: "Schock 2 · 1 Wurf", "Schock 2 · 1 W.", "Schock 2"), and
lines broken between words but never between a word and its number ("Schock 3", "Spieler 4", "1 Wurf",
"Runde 9:"). Pure helpers on rich's Text, for the scoreboard (views/scoreboard/)."""

import re

from rich.cells import cell_len
from rich.text import Text

# A word that is a number people read with its neighbour: "3", "4/3", "(2", "9:", "12,".
_NUMBER = re.compile(r"^\(?\d+[\d/.,:;)]*$")


def first_fitting(forms, width):
    """The first of ``forms`` (Text or str, longest first) that fits ``width`` cells; the last one if none
    does (the shortest form is what the smallest supported screen has room for)."""
    for form in forms:
        if cell_len(form.plain if isinstance(form, Text) else form) <= width:
            return form
    return forms[-1]


def pad(text, width, right=False):
    """``text`` (a Text) filled with spaces to ``width`` cells, on the left with ``right``."""
    room = max(0, width - text.cell_len)
    return Text(" " * room) + text if right else text + Text(" " * room)


def _units(line):
    """The line's words as units that are never broken: a number stays with the word before and after it."""
    words = line.split(" ")
    units = []
    glue = False
    for word in words:
        number = bool(_NUMBER.match(word))
        if units and (glue or number) and word:
            units[-1] += " " + word
        else:
            units.append(word)
        glue = number
    return units


def wrap(line, width):
    """``line`` broken into lines of at most ``width`` cells between its units (``_units``); a unit longer
    than the width stands on a line of its own (the screen breaks it there)."""
    if not width or cell_len(line) <= width:
        return [line]
    lines = []
    current = ""
    for unit in _units(line):
        if not current:
            current = unit
        elif cell_len(current) + 1 + cell_len(unit) <= width:
            current += " " + unit
        else:
            lines.append(current)
            current = unit
    lines.append(current)
    return lines


def fit_lines(forms, width, lines=2, fewer_lines_first=False):
    """The first of ``forms`` (Text, longest first) that ``wrap`` breaks into at most ``lines`` lines of
    ``width``, broken there (its styles kept); the last form broken as it comes if none fits.
    ``fewer_lines_first``: a shorter form in fewer lines comes before a longer one in more (a result line
    that takes a second line takes it from the history)."""
    for most in (range(1, lines + 1) if fewer_lines_first else (lines,)):
        for form in forms:
            pieces = wrap(form.plain, width)
            if len(pieces) <= most:
                return _broken(form, pieces)
    return _broken(forms[-1], wrap(forms[-1].plain, width))


def _broken(text, pieces):
    """``text`` with a line break where ``wrap`` put one (each piece and one space between them)."""
    if len(pieces) == 1:
        return text
    out, at = Text(), 0
    for n, piece in enumerate(pieces):
        if n:
            out.append("\n")
            at += 1   # the space the line broke at
        out.append_text(text[at:at + len(piece)])
        at += len(piece)
    return out
