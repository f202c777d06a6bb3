"""Hypothesis strategies for the rules package: rule sets with options switched on any preset, dice, and the
example budget of a property (tests/test_rule_properties.py, tests/test_turn_properties.py)."""

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from schocken.rules import PRESETS, Rules

PRESET_NAMES = sorted(PRESETS)


def fast(n):
    return settings(max_examples=n, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- strategies --------------------------------------------------------------------------------------

# Options that change how throws compare; any may be switched on any preset.
RANKING_FLIPS = {
    "jule": st.booleans(),
    "jule_only_hand": st.booleans(),
    "strasse_only_hand": st.booleans(),
    "general_only_hand": st.booleans(),
    "ace_hundred": st.booleans(),
    "schock_aus_hand_beats": st.booleans(),
}

# Options that change the Deckel flow and the phases of a game.
GAME_FLIPS = {
    "schock_aus": st.sampled_from(["all", "middle"]),
    "one_half": st.booleans(),
    "einwuerfeln": st.booleans(),
    "drop_penalty": st.sampled_from([0, 1, 2]),
    "throw_off_deckel": st.booleans(),
    "two_player_final": st.booleans(),
    "final_opener": st.sampled_from(["first_half_loser", "last_loser"]),
    "deckel_total": st.sampled_from([1, 5, 13, 21]),
    "max_throws": st.sampled_from([1, 2, 3]),
    "jule": st.booleans(),
    "ace_hundred": st.booleans(),
    "schock_aus_hand_beats": st.booleans(),
    "sixes_back": st.booleans(),
    "aside_only_ones": st.booleans(),
    "ones_must_stay": st.booleans(),
}

# Options that change what a turn allows.
TURN_FLIPS = {
    "max_throws": st.sampled_from([1, 2, 3]),
    "sixes_turn": st.booleans(),
    "sixes_back": st.booleans(),
    "aside_only_ones": st.booleans(),
    "ones_must_stay": st.booleans(),
}


@st.composite
def flipped(draw, flips):
    """A subset of ``flips`` with drawn values (often empty: the preset as it is)."""
    names = draw(st.lists(st.sampled_from(sorted(flips)), unique=True, max_size=4))
    return {name: draw(flips[name]) for name in names}


@st.composite
def rule_sets(draw, flips):
    return Rules(draw(st.sampled_from(PRESET_NAMES)), **draw(flipped(flips)))


DIE = st.integers(1, 6)
DICE = st.lists(DIE, min_size=3, max_size=3)
