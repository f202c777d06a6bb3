"""Luck and decisions per person over the league's games (`schocken liga luck`, docs/odds.md "Luck and
decisions"): each recorded game's log read again (game.py), its seats' tallies added up per person,
and how rare each one's luck is (tails.py: "as lucky as 1 in N players")."""

import math
from typing import Optional
from dataclasses import dataclass, field
from pathlib import Path

from schocken_host.i18n import tr
from schocken_host.league.evenings import NO_DAY
from schocken_host.league.luck.game import SeatTally, game_luck
from schocken_host.league.luck.cache import LuckCache
from schocken_host.league.luck.tails import count_tail, exact, tail, variance

_SEATS = """
    SELECT g.game_id, g.log, s.seat, p.name
    FROM games g JOIN seats s ON s.game_id = g.game_id JOIN players p ON p.id = s.player
    %s
    ORDER BY g.started, g.game_id, s.seat
"""
_IN_SEASON = "WHERE g.day BETWEEN ? AND ?"   # as the standings: the evenings between two days


@dataclass
class PersonLuck:
    player: str
    tally: SeatTally = field(default_factory=SeatTally)
    _share: Optional[float] = None

    @property
    def spread(self):
        """The standard deviation of his luck under fair dice, in Deckel."""
        return math.sqrt(variance(self.tally.spreads))

    @property
    def share(self):
        """The share of players with fair dice who, in his throws' situations, are at least as lucky as he
        (when he was lucky) or at least as unlucky (when not)."""
        if not self.tally.throws:
            return 1.0
        if self._share is None:
            self._share = tail(self.tally.spreads, self.tally.luck)
        return self._share

    @property
    def one_in(self):
        """"As lucky (or unlucky) as 1 in N players": N, rounded (None: rarer than one in a billion)."""
        return max(1, round(1 / self.share)) if self.share > 1e-9 else None

    def as_dict(self, kinds):
        t = self.tally
        return {"player": self.player, "throws": t.throws, "luck": round(t.luck, 4),
                "luck_spread": round(self.spread, 4), "lucky": t.luck >= 0, "share": round(self.share, 6),
                "one_in": self.one_in, "share_exact": exact(self.tally.spreads),
                "decisions": t.decisions, "mistakes": t.mistakes, "decision_cost": round(t.cost, 4),
                "classes": {k: self.class_dict(k) for k in kinds}}

    def class_rarity(self, kind):
        """(thrown more than expected, share, one in N) of a class: how rare its count is with fair dice."""
        thrown, expected = self.tally.classes.get(kind, [0, 0.0])
        share = count_tail(self.tally.chances.get(kind, {}), thrown)
        return thrown >= expected, share, (max(1, round(1 / share)) if share > 1e-9 else None)

    def class_dict(self, kind):
        thrown, expected = self.tally.classes.get(kind, [0, 0.0])
        more, share, one_in = self.class_rarity(kind)
        return {"thrown": thrown, "expected": round(expected, 4), "more": more, "share": round(share, 6),
                "one_in": one_in}


def rarity(lang, lucky, one_in):
    """"as lucky as 1 in 20" in words: as most players (1 in 2 or less rare), or rarer than 1 in a billion."""
    if one_in is None:
        return tr(lang, "luck.lucky_extreme" if lucky else "luck.unlucky_extreme")
    if one_in <= 2:
        return tr(lang, "luck.ordinary")
    return tr(lang, "luck.lucky" if lucky else "luck.unlucky", n=one_in)


@dataclass
class LeagueLuck:
    games: int = 0                       # games whose logs were read
    missing: list = field(default_factory=list)   # (game id, log) of games whose log is gone or another's
    players: list = field(default_factory=list)   # PersonLuck, luckiest first

    def kinds(self):
        """The classes thrown or expected, best first."""
        from schocken.throws import KINDS
        found = {k for p in self.players for k in p.tally.classes}
        return [k for k in KINDS if k in found]


# A game's tallies as read from its log, kept while the log is as it was (its size and time): a process that
# asks again (the web page's season view, after each game recorded) reads only the new games.
_READ: dict[tuple, tuple] = {}
_READ_KEPT = 20_000


def _game(log, game_id, cache):
    """(game id, {seat: SeatTally}) of a log (kept in this process, or in the cache file, while the log is
    unchanged); (None, {}) for one that cannot be read."""
    try:
        st = Path(log).stat()
        key = (log, st.st_size, st.st_mtime_ns)
        read = _READ.get(key)
        if read is None:
            kept = cache.get(game_id, log, st.st_size, st.st_mtime_ns)
            if kept is not None:
                read = (game_id, kept)
            else:
                read = game_luck(Path(log).read_bytes())
                if read[0] == game_id:
                    cache.put(game_id, log, st.st_size, st.st_mtime_ns, read[1])
            if len(_READ) >= _READ_KEPT:
                _READ.clear()
            _READ[key] = read
        return read
    except OSError:
        return None, {}


def league_luck(league, first=None, last=None):
    """LeagueLuck of the games of the evenings between the days ``first`` and ``last`` (both included; None,
    None: every game recorded). None: no database yet, nothing recorded."""
    result = LeagueLuck()
    if league is None:
        return result
    games = {}
    if first is None and last is None:
        rows = league.read(_SEATS % "")
    else:
        rows = league.read(_SEATS % _IN_SEASON, (first or NO_DAY, last or "9999-12-31"))
    for game_id, log, seat, name in rows:
        games.setdefault((game_id, log), []).append((seat, name))
    people = {}
    cache = LuckCache(league.path)
    try:
        read = {key: _game(key[1], key[0], cache) for key in games}
    finally:
        cache.close()
    for (game_id, log), seats in games.items():
        logged, tallies = read[(game_id, log)]
        if logged != game_id:
            result.missing.append((game_id, log))
            continue
        result.games += 1
        for seat, name in seats:
            person = people.setdefault(name, PersonLuck(name))
            if seat in tallies:
                person.tally.add(tallies[seat])
    result.players = sorted(people.values(), key=lambda p: (-p.tally.luck, p.player))
    return result
