"""The plain line of a ranked round says the Deckel that moved, not what the best throw is worth: with fewer
left in the middle (or fewer held by the others in the second half), the loser takes fewer (seed 002: "Der
schlechteste Wurf bekommt so viele Deckel, wie der beste Wurf wert ist", as far as there are)."""

import io

from schocken_host.views.plain import PlainUI


class Seat:
    def __init__(self, seat, name):
        self.seat, self.name = seat, name


class Table:
    """What PlainUI reads of a TableState for a round line."""
    players = [Seat(0, "Anna"), Seat(1, "Ben")]
    ended_half = None

    def name(self, seat):
        return self.players[seat].name

    def deckel(self, seat):
        return (12, 1)[seat]

    def middle(self):
        return 0

    def number(self, round_id=None):
        return 8   # the log's round 9 after a throw-off: people's round 8


def round_line(lang, moves, deckel):
    out = io.StringIO()
    PlainUI(lang, out).update(Table(), {"ev": "round", "round": 9, "order": [0, 1], "best": 0, "worst": 1,
                                        "deckel": deckel, "moves": moves, "ranking": [0, 1]})
    return out.getvalue().strip()


def test_the_line_counts_what_moved_from_the_middle():
    assert round_line("de", [["middle", 1]], 3).startswith("Runde 8: Anna hat den besten Wurf")
    assert "Ben verliert und bekommt 1 Deckel. Mitte: 0" in round_line("de", [["middle", 1]], 3)
    assert "Ben loses and takes 1 Deckel. Middle: 0" in round_line("en", [["middle", 1]], 3)


def test_the_line_adds_up_moves_from_several_places():
    assert "bekommt 3 Deckel" in round_line("de", [["middle", 1], [0, 2]], 3)


def test_a_schock_aus_says_all():
    assert "bekommt alle Deckel" in round_line("de", [["middle", 5]], "all")
