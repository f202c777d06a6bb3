"""Who opens the final, played through ``schocken.game.Game`` for the presets whose seeds say it
(docs/rules.md, "Who opens the final"). The rule cases ``w63-final-opener`` and ``bet-final-opener`` check the
same on MicroPython.
"""

from schocken.game import Game
from schocken.rules import Rules


def _round(game, *throws):
    """One round, every throw from the hand at one throw, in the order of ``game.order()``."""
    game.play_round([([int(c) for c in t if c != "-"], 1, True) for t in throws])


def test_wuerfel63_the_last_loser_opens_the_final():
    """Seed 001: "Nun beginnt immer der Spieler, der als zuletzt verloren hat. Liegen alle Deckel bei einem
    Spieler, erhält er die erste "Hälfte" verloren und beginnt nun mit der zweiten "Hälfte", die wie die erste
    gespielt wird. Der Knobler der die zweite "Hälfte" bekommt muss mit dem Verlierer der ersten "Hälfte"
    stechen." The last loser before the final (the Endstechen) is the second half's loser: he opens it."""
    game = Game(Rules("wuerfel63"), 3)
    game.set_opener(0)
    _round(game, "3-2-2", "1-1-1", "6-5-4")      # Schock-Aus: seat 0 takes all 13, loses the first half
    assert game.phase == "half2" and game.half_losers == [0] and game.order() == [0, 1, 2]
    _round(game, "1-1-1", "3-2-2", "6-5-4")      # seat 1 loses the second half: the last loser
    assert game.phase == "final" and game.half_losers == [0, 1]
    assert game.half.opener == 1 and game.order() == [1, 0]
    _round(game, "6-6-6", "5-5-5")               # the final's first round, seat 1 first: seat 0 loses it
    assert game.order() == [0, 1]                # and opens the next, as in every round
    _round(game, "1-1-1", "3-2-2")
    assert game.phase == "over" and game.loser == 1


def test_beton_the_loser_of_the_round_before_opens_the_final():
    """Seed 003, under "Spielablauf einer Hälfte oder des Finales": "In einer einzelnen Runde wird reihum
    gewürfelt. Sie wird von dem Spieler begonnen, der die vorangegangene Runde verloren hat." The round before
    the final's first is the second half's last, lost by the second half's loser: he opens the final."""
    game = Game(Rules("beton"), 4)
    game.set_opener(0)
    _round(game, "3-2-2", "1-1-1", "6-5-4", "6-6-5")   # Schock-Aus: seat 0 loses the first half
    assert game.phase == "half2" and game.half_losers == [0] and game.order() == [0, 1, 2, 3]
    _round(game, "6-6-6", "6-5-4", "3-2-2", "1-1-1")   # Schock-Aus: seat 2 loses the second half
    assert game.phase == "final" and game.half_losers == [0, 2] and game.half.seats == [0, 2]
    assert game.half.opener == 2 and game.order() == [2, 0]


def test_verein_keeps_the_first_half_loser():
    """Seed 000: "Die/Der Hinrunden-Verliererin beginnt das Finale." The same game as for beton above, under
    the club rules: the first half's loser opens."""
    game = Game(Rules("verein"), 4)
    game.set_opener(0)
    _round(game, "3-2-2", "1-1-1", "6-5-4", "6-6-5")
    _round(game, "6-6-6", "6-5-4", "3-2-2", "1-1-1")
    assert game.phase == "final" and game.half_losers == [0, 2]
    assert game.half.opener == 0 and game.order() == [0, 2]
