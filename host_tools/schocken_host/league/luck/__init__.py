"""Luck and decisions against the exact odds and the best play (docs/odds.md, "Luck and decisions"): one
game's log read again (`game`), how rare a player's luck is (`tails`), the tallies per person over the league
(`table`) and what was read of each game, kept beside the league's database (`cache`)."""
