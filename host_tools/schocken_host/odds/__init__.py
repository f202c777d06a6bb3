"""Odds and the best play of a Schocken turn, computed exactly by enumeration and dynamic programming over the
rules package (no sampling): docs/odds.md.

- ``model``: a turn as multisets (dice lying out, dice that just fell, throws used), the legal ways to go on
  after a throw (setting aside, Sechsen drehen) and the chances of every roll.
- ``classes``: the chance of reaching each class within k throws, and the final throw's distribution under a
  fixed strategy of ``schocken.sim`` (enumerated through the real ``schocken.turn.Turn``).
- ``best``: the decision that minimises the Deckel a player expects to take in a round (Bellman), and the
  ``Optimal`` strategy the bots play.

The tables are far too big for a cup's heap, so this lives on the host; it imports only the rules package.
"""
