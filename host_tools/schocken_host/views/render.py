"""Turn one LED frame of the cup into text for a terminal.

What a frame holds (faces, pip colors, the status color) is read by the one codec, links/ledframe.py; this
module only words and draws it. Pure functions: ``status_text`` gives a status color's name and meaning in a
language; ``faces_text(frame, lang)`` draws the three dice as 3x3 grids plus the status line.
"""

from schocken_host.i18n import tr
from schocken_host.links import ledframe


LIT = "●"
DARK = "·"


def status_text(rgb, lang="de", brightness=ledframe.DEFAULT_BRIGHTNESS):
    """(color name, meaning) of a status color in the given language."""
    name = ledframe.status_name(rgb, brightness)
    return tr(lang, "led." + name), tr(lang, "led.%s_means" % name)


def _hex(rgb):
    return "#%02x%02x%02x" % rgb


def faces_text(frame, lang="de", markup=False, brightness=ledframe.DEFAULT_BRIGHTNESS):
    """The three dice as 3x3 pip grids in boxes, a label line (face, set aside or in the cup) and the
    status line. ``markup=True`` colors lit pips and the status with rich markup (dice set aside orange,
    dice in the cup white); without markup, dice set aside are told apart by their label only."""
    info = ledframe.decode(frame)
    width = 9
    n_dice = ledframe.N_DICE
    rows = [["┌───────┐"] * n_dice, [], [], [], ["└───────┘"] * n_dice]
    labels, kinds = [], []
    for d in range(n_dice):
        mask = info["masks"][d]
        kind = ledframe.die_kind(info["colors"][d])
        grid = [[" "] * 3 for _ in range(3)]
        for p, (r, c) in enumerate(ledframe.PIP_CELLS):
            if mask >> p & 1:
                ch = LIT
                if markup:
                    style = "bold " + _hex(ledframe.DIE_COLORS[kind]) if kind else "bold"
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
        key = ledframe.status_name(status, brightness)
        name = "[bold %s]■ %s[/]" % (_hex(ledframe.STATUS_COLORS[key]), name)
    # An unlit pixel means nothing: "Status: aus", not a placeholder after it.
    lines.append("%s: %s" % (tr(lang, "led.status"), name) + (" – %s" % meaning if any(status) else ""))
    return "\n".join(lines)


