"""The one key map of a person's emulated cup: `schocken play` (scoreboard and --plain) and `schocken cup
--emulate` read their keys through it, carry them out with the press durations it gives, and show the key help
it writes.

A key is a character (what a raw terminal or a typed line gives: "s", "1", " ", "\\r", "\\x03"), a Textual key
name ("space", "enter", "ctrl+c") or a word of a scripted line ("shake", "long2", "quit"). It maps to an
action: ("shake",), ("tap", slot), ("long", slot), ("peek",), ("stand",), ("reveal",), ("quit",).

`q` quits in both tools (it is what a terminal program's user tries first, and the scoreboard's footer shows
it); the long presses of the die buttons are 4 5 6 or Shift+1 2 3, so no letter is needed for them.
"""

from schocken_host.i18n import tr
from schocken_host.emulation.emulator import FIRMWARE_LONG_MS, GAP_MS, PERSON_LONG_MS, SHAKE_MS, TAP_MS  # noqa: F401

# What the person presses, grouped by what it does. A row: (what it does: text key keys.<name>, the keys with
# their action, the keys as the help shows them; {space}: the space bar's name). KEYS, the help line and the
# scoreboard's bindings all come from here.
ROWS = (
    ("shake", {"s": ("shake",), "shake": ("shake",)}, "s"),
    ("tap", {"1": ("tap", 0), "2": ("tap", 1), "3": ("tap", 2)}, "1 2 3"),
    # Shift+1/2/3 on German ("!", '"', "§") and US ("!", "@", "#") layouts; 4 5 6 on any layout.
    ("long", {"4": ("long", 0), "5": ("long", 1), "6": ("long", 2),
              "!": ("long", 0), '"': ("long", 1), "@": ("long", 1), "§": ("long", 2), "#": ("long", 2),
              "long1": ("long", 0), "long2": ("long", 1), "long3": ("long", 2)},
     "4 5 6"),
    ("peek", {"p": ("peek",), " ": ("peek",), "space": ("peek",), "peek": ("peek",)}, "p/{space}"),
    ("stand", {"\r": ("stand",), "\n": ("stand",), "enter": ("stand",), "ctrl+j": ("stand",),
               "stand": ("stand",)},
     "Enter"),
    ("reveal", {"r": ("reveal",), "reveal": ("reveal",)}, "r"),
    ("quit", {"q": ("quit",), "x": ("quit",), "\x03": ("quit",), "\x04": ("quit",), "ctrl+c": ("quit",),
              "ctrl+d": ("quit",), "quit": ("quit",), "exit": ("quit",)}, "q"),
)

KEYS = {key: action for _, keys, _ in ROWS for key, action in keys.items()}

# The quit keys by Textual's names (a letter, or "ctrl+c"): the scoreboard binds them, so they work whatever
# has the focus; every other key goes to the person's cup.
QUIT_BINDINGS = tuple(k for k, action in KEYS.items()
                      if action == ("quit",) and ((len(k) == 1 and k.isalpha()) or k.startswith("ctrl+")))


# --- reading keys ---------------------------------------------------------------------------------------
def action_for(key):
    """The action of a key or a line's word (case-insensitive for words), or None."""
    if key in KEYS:
        return KEYS[key]
    word = key.strip().lower()
    return KEYS.get(word) if word else None


def textual_key(key, character):
    """A Textual key event (its ``key`` and ``character``) as a key of the map: a printable character as
    itself, anything else (space, enter, ctrl+...) by Textual's name."""
    if character and character.isprintable() and not character.isspace():
        return character
    return key


def help_rows(lang, reveal=True):
    """[(keys as shown, what they do)] in the order of ROWS; the reveal key only where it does something
    (``reveal``: the player uncovers his own cup, `play --reveal button`, or a cup on its own)."""
    space = tr(lang, "keys.space")
    return [(shown.format(space=space), tr(lang, "keys." + name)) for name, _, shown in ROWS
            if reveal or name != "reveal"]


def help_text(lang, width=None, reveal=True):
    """The key help with its title, "Tasten: s schütteln · ...", broken into lines of at most ``width``
    characters between its entries (never inside one: "q beenden" stays together). A line broken after an
    entry ends in " ·", so an entry that leaves no room for it goes to the next line (the " ·" would else
    wrap onto a line of its own)."""
    entries = ["%s %s" % row for row in help_rows(lang, reveal)]
    line = tr(lang, "keys.title") + ":"
    lines = []
    for n, entry in enumerate(entries):
        piece = (" · " if n else " ") + entry
        tail = 0 if n == len(entries) - 1 else len(" ·")
        if width and len(line) + len(piece) + tail > width and n:
            lines.append(line + " ·")
            line = entry
        else:
            line += piece
    return "\n".join(lines + [line])
