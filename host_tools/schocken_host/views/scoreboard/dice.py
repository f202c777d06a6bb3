"""How the scoreboard draws dice: die faces as pip grids between edges (revealed dice white, dice set aside
orange with ◆ pips, covered dice shaded), and the plain text of a widget. Pure helpers, no widgets (its
texts: texts/scoreboard.py)."""

from rich.text import Text

from schocken_host.links.ledframe import PIPS, PIP_CELLS

# Die styles: revealed dice white like a die under the cup, dice set aside orange like the cup's LEDs.
DIE_STYLE = {"cup": "bold #000000 on #e8e8e8", "aside": "bold #000000 on #ff8000", "empty": "on #3a3a3a"}
PIP = "●"
FACES = "⚀⚁⚂⚃⚄⚅"   # a throw in a few cells, before its class on a card: ⚅⚃⚁ 642
ASIDE_PIP = "◆"      # a die set aside: marked in the picture itself, not only by its colour
COVERED = "░"        # a die still under the covered cup: nobody has seen it
EDGE = "│"           # between two dice and at the ends: neighbouring dice never run together


def die_rows(value, kind="cup"):
    """A die face as three rows of five cells (pips in columns 0, 2, 4); ``None`` for a die nobody sees (its
    cells shaded when it lies covered in the cup, ``kind`` "empty")."""
    fill = COVERED if kind == "empty" else " "
    rows = [[fill] * 5 for _ in range(3)]
    if value:
        pip = ASIDE_PIP if kind == "aside" else PIP
        for p, (r, c) in enumerate(PIP_CELLS):
            if PIPS[value] >> p & 1:
                rows[r][2 * c] = pip
    return ["".join(r) for r in rows]


def dice_text(dice, kinds):
    """Up to three dice side by side as pip grids between edges ("│●   ●│  ●  │"): ``dice`` values (None =
    not shown), ``kinds`` per die "cup" (revealed, or seen under the cup), "aside" (set aside: ◆ pips on
    orange) or "empty" (still in the covered cup: shaded)."""
    out = Text()
    grids = [die_rows(v, k) for v, k in zip(dice, kinds)]
    for r in range(3):
        if r:
            out.append("\n")
        out.append(EDGE, style="dim")
        for d, grid in enumerate(grids):
            out.append(grid[r], style=DIE_STYLE[kinds[d]])
            out.append(EDGE, style="dim")
    return out


DICE_WIDTH = 3 * 5 + 4      # three dice of five cells and their four edges


def plain_text(content):
    """The plain text of a widget's content (a rich Text or anything printable)."""
    if isinstance(content, Text):
        return content.plain
    return str(content)
