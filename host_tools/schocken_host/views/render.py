"""Turn one LED frame of the cup into text for a terminal.

A frame is what the cup puts on its WS2812B chain (firmware/cup/leds.py): 22 pixels, 3 bytes each in GRB
order, already scaled by the board's brightness. Die d (0..2) is pixels 7d..7d+6 with its pips wired
TL, TR, ML, C, MR, BL, BR; pixel 21 is the status pixel. Colors and their meaning follow
firmware/cup/leds.py and firmware/cup/view.py.

Pure functions: ``decode(frame)`` gives faces, pip colors and the status color; ``status_name`` names a
status color; ``faces_text(frame, lang)`` draws the three dice as 3x3 grids plus the status line.
"""

from schocken_host.i18n import tr
from schocken_host.links.ledframe import (DEFAULT_BRIGHTNESS, DIE_COLORS, N_DICE, PIP_CELLS, STATUS_COLORS, decode,
                                         die_kind, status_name)


LIT = "●"
DARK = "·"


def status_text(rgb, lang="de", brightness=DEFAULT_BRIGHTNESS):
    """(color name, meaning) of a status color in the given language."""
    name = status_name(rgb, brightness)
    return tr(lang, "led." + name), tr(lang, "led.%s_means" % name)


def _hex(rgb):
    return "#%02x%02x%02x" % rgb


def faces_text(frame, lang="de", markup=False, brightness=DEFAULT_BRIGHTNESS):
    """The three dice as 3x3 pip grids in boxes, a label line (face, set aside or in the cup) and the
    status line. ``markup=True`` colors lit pips and the status with rich markup (dice set aside orange,
    dice in the cup white); without markup, dice set aside are told apart by their label only."""
    info = decode(frame)
    width = 9
    rows = [["┌───────┐"] * N_DICE, [], [], [], ["└───────┘"] * N_DICE]
    labels, kinds = [], []
    for d in range(N_DICE):
        mask = info["masks"][d]
        kind = die_kind(info["colors"][d])
        grid = [[" "] * 3 for _ in range(3)]
        for p, (r, c) in enumerate(PIP_CELLS):
            if mask >> p & 1:
                ch = LIT
                if markup:
                    style = "bold " + _hex(DIE_COLORS[kind]) if kind else "bold"
                    ch = "[%s]%s[/]" % (style, LIT)
            else:
                ch = DARK if not markup else "[dim]%s[/]" % DARK
            grid[r][c] = ch
        for r in range(3):
            rows[1 + r].append("│ " + " ".join(grid[r]) + " │")
        face = info["dice"][d]
        label = "-" if face == 0 else tr(lang, "led.unknown") if face is None else str(face)
        labels.append(label.center(width))
        kinds.append((tr(lang, "led." + kind) if kind else "").center(width))
    lines = [" ".join(r) for r in rows]
    lines.append(" ".join(labels).rstrip())
    if any(k.strip() for k in kinds):
        lines.append(" ".join(kinds).rstrip())
    status = info["status"]
    name, meaning = status_text(status, lang, brightness)
    if markup and any(status):
        key = status_name(status, brightness)
        name = "[bold %s]■ %s[/]" % (_hex(STATUS_COLORS[key]), name)
    lines.append("%s: %s – %s" % (tr(lang, "led.status"), name, meaning))
    return "\n".join(lines)


