"""Rule sets: the presets drawn from the rule texts, and the options that tell them apart.

Every difference between the seeds is an option, so any option can be switched on any preset
(``Rules("standard", jule=True)``). ``docs/rules.md`` quotes the passage each choice comes from.
"""

from schocken import RuleError

from micropython import const

# Texts of schocken.texts (schocken.text): a number each, so this module keeps no string per message.
_NEEDS_BOOL = const(27)
_NEEDS_INT = const(28)
_OUT_OF_RANGE = const(29)
_ONE_OF = const(30)
_UNKNOWN_SET = const(31)
_UNKNOWN_OPTION = const(32)
_MAX_THROWS = const(33)
_DECKEL_TOTAL = const(34)
_MIN_PLAYERS = const(35)
_NO_PRESET = const(36)
_OPTIONS_OBJECT = const(37)


def _parse(name, value):
    default = getattr(Rules, name)
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        word = str(value).lower()
        if word in ("1", "true", "yes", "on", "ja"):
            return True
        if word in ("0", "false", "no", "off", "nein"):
            return False
        raise RuleError(_NEEDS_BOOL, name, value)
    if isinstance(default, int):
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise RuleError(_NEEDS_INT, name, value)
        if isinstance(value, bool) or number < 0 or number > 99:
            raise RuleError(_OUT_OF_RANGE, name, value)
        return number
    if value not in _CHOICES[name]:
        raise RuleError(_ONE_OF, name, ", ".join(_CHOICES[name]), value)
    return value


class Rules:
    """One rule set: a preset name plus option values. Immutable by convention; compare with ``options()``.

    The class attributes are the options and their defaults, the common bar rules of seed 002; the type of a
    default is the option's type. An instance keeps only what its preset and its options change, so a cup
    holds one small dict per rule set, not a copy of every option."""

    deckel_total = 13           # Deckel in the middle at the start of a half
    max_throws = 3              # throws the opener may take
    jule = False                # 1-2-4 is a special throw above every Schock
    jule_deckel = 7             # what a Jule is worth
    jule_only_hand = False      # a Jule counts only from the hand (no die set aside)
    strasse_only_hand = False   # a Straße counts only from the hand
    general_only_hand = False   # a General counts only from the hand
    ace_hundred = False         # in a plain number a one counts as a hundred: 1-5-4 is 154
    schock_aus = "all"          # "all": the loser takes all Deckel, the half is lost;
                                # "middle": worth all 13 by the usual flow
    schock_aus_hand_beats = False  # a Schock-Aus from the hand beats a built one, whatever the throws
    aside_only_ones = False     # only ones may be set aside
    ones_must_stay = False      # a one that fell must be set aside (house rule)
    sixes_turn = True           # Sechsen drehen: two sixes of one throw -> one 1, three -> two 1s
    sixes_back = False          # after Sechsen drehen the other six must go back into the cup
    one_half = False            # play one half only, no final
    two_player_final = True     # False: with two players the game is a single half
    min_players = 2
    throw_off_deckel = False    # the throw-off's lowest takes Deckel as the highest throw is worth
    einwuerfeln = False         # a player out of the half may throw his way back in
    drop_penalty = 0            # Deckel for a player who drops his dice
    final_opener = "first_half_loser"  # or "last_loser": the second half's loser, who lost the last round

    def __init__(self, name, **options):  # name: a preset ("standard", ...); no default (a cup's heap)
        if name not in PRESETS:
            raise RuleError(_UNKNOWN_SET, name, ", ".join(sorted(PRESETS)))
        self.name = name
        self.seed, changes = PRESETS[name]
        for key in changes:
            setattr(self, key, changes[key])
        for key in options:
            if key not in OPTION_NAMES:
                raise RuleError(_UNKNOWN_OPTION, key, ", ".join(OPTION_NAMES))
            setattr(self, key, _parse(key, options[key]))
        if not 1 <= self.max_throws <= 3:
            raise RuleError(_MAX_THROWS)
        if not 1 <= self.deckel_total <= 99:
            raise RuleError(_DECKEL_TOTAL)
        if self.min_players < 2:
            raise RuleError(_MIN_PLAYERS)

    def options(self):
        """All option values as a new dict."""
        return {k: getattr(self, k) for k in OPTION_NAMES}

    def changed(self):
        """Options that differ from the preset, as a dict (what ``--set`` changed)."""
        preset = PRESETS[self.name][1]
        changed = {}
        for k in OPTION_NAMES:
            value = getattr(self, k)
            if value != preset.get(k, getattr(Rules, k)):
                changed[k] = value
        return changed

    def to_dict(self):
        """What the wire protocol and the game log carry: the preset and the options changed on it."""
        return {"preset": self.name, "options": self.changed()}

    def __eq__(self, other):
        return isinstance(other, Rules) and self.name == other.name and self.options() == other.options()

    def __repr__(self):
        return "Rules(%r, %r)" % (self.name, self.changed())


_CHOICES = {
    "schock_aus": ("all", "middle"),
    "final_opener": ("first_half_loser", "last_loser"),
}

# Each preset names its seed and lists only what differs from the defaults (the class attributes of Rules).
# Below the class on purpose: compiled after the option names were seen as names, the keys here are the same
# interned strings (qstrs), not string objects a cup would keep besides.
PRESETS = {
    "standard": ("002", {}),
    "verein": ("000", {
        "schock_aus_hand_beats": True,
        "throw_off_deckel": True,
        "einwuerfeln": True,
    }),
    "wuerfel63": ("001", {
        "jule": True,
        "jule_only_hand": True,
        "strasse_only_hand": True,
        "general_only_hand": True,
        "schock_aus_hand_beats": True,
        "aside_only_ones": True,
        "min_players": 3,
        "final_opener": "last_loser",
    }),
    "beton": ("003", {
        "strasse_only_hand": True,
        "general_only_hand": True,
        "schock_aus_hand_beats": True,
        "sixes_back": True,
        "drop_penalty": 1,
        "final_opener": "last_loser",
    }),
    "ludomax": ("004", {
        "ace_hundred": True,
        "schock_aus": "middle",
        "two_player_final": False,
    }),
}

# The options, in the order they are listed for people.
OPTION_NAMES = tuple(sorted(k for k in Rules.__dict__ if k[0] != "_" and not callable(getattr(Rules, k))))


def from_dict(data):
    """Inverse of ``Rules.to_dict``; raises RuleError on anything malformed."""
    if not isinstance(data, dict) or not isinstance(data.get("preset"), str):
        raise RuleError(_NO_PRESET)
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise RuleError(_OPTIONS_OBJECT)
    return Rules(data["preset"], **options)
