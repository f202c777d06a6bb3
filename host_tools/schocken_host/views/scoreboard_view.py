"""How the scoreboard draws dice: die faces as pip grids (revealed dice white, dice set aside orange) or
Unicode faces, and the plain text of a widget. Pure helpers, no widgets (its texts: texts/scoreboard.py)."""

from rich.text import Text

from schocken_host.links.ledframe import PIPS, PIP_CELLS

# Die styles: revealed dice white like a die under the cup, dice set aside orange like the cup's LEDs.
DIE_STYLE = {"cup": "bold #000000 on #e8e8e8", "aside": "bold #000000 on #ff8000", "empty": "on #3a3a3a"}
PIP = "●"
FACES = "⚀⚁⚂⚃⚄⚅"


def die_rows(value):
    """A die face as three rows of five cells (pips in columns 0, 2, 4); ``None`` for a blank die."""
    rows = [[" "] * 5 for _ in range(3)]
    if value:
        for p, (r, c) in enumerate(PIP_CELLS):
            if PIPS[value] >> p & 1:
                rows[r][2 * c] = PIP
    return ["".join(r) for r in rows]


def dice_text(dice, kinds):
    """Up to three dice side by side as pip grids: ``dice`` values (None = not shown), ``kinds`` per die
    "cup" (revealed), "aside" (set aside) or "empty" (still in the covered cup)."""
    out = Text()
    grids = [die_rows(v) for v in dice]
    for r in range(3):
        if r:
            out.append("\n")
        for d, grid in enumerate(grids):
            if d:
                out.append(" ")
            out.append(grid[r], style=DIE_STYLE[kinds[d]])
    return out


def faces(dice):
    """Dice as Unicode die faces, e.g. ⚃⚃⚀."""
    return "".join(FACES[v - 1] for v in dice if 1 <= v <= 6)


def plain_text(content):
    """The plain text of a widget's content (a rich Text or anything printable)."""
    if isinstance(content, Text):
        return content.plain
    return str(content)
