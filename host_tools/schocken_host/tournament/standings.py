"""The standings: loss points per player from the counted games (a lost half ``half_points``, a lost game
``game_points`` more), fewest first, equal points ordered by the format's tie-breaks and last by the seeded
lot; the teams' standings (the sum of their players'); the knock-out final's ranking; the prize split. Pure:
the director and the recount from the logs (``recount``) call the same ``table``."""

from dataclasses import dataclass

from schocken_host.tournament.draw import lot


@dataclass
class Line:
    name: str
    team: str = ""
    games: int = 0
    halves_lost: int = 0
    games_lost: int = 0
    deckel: int = 0
    points: int = 0
    place: int = 0

    def as_dict(self):
        return {"place": self.place, "name": self.name, "team": self.team, "games": self.games,
                "points": self.points, "games_lost": self.games_lost, "halves_lost": self.halves_lost,
                "deckel": self.deckel}


def add_game(lines, fmt, seats):
    """One counted game: ``seats`` is [(name, halves_lost, final_lost, lost, deckel)] of its players."""
    for name, halves, _final, lost, deckel in seats:
        line = lines[name]
        line.games += 1
        line.halves_lost += halves
        line.games_lost += lost
        line.deckel += deckel
        line.points += fmt.half_points * halves + fmt.game_points * lost


def table(fmt, seed, players, games):
    """``players``: [(name, team)]; ``games``: the counted games, each a list of seats as ``add_game`` takes
    them. The standings as Lines, first place first (places 1..n, no two equal: the lot decides last)."""
    lines = {name: Line(name, team or "") for name, team in players}
    for seats in games:
        add_game(lines, fmt, seats)
    drawn = lot(seed, list(lines))

    def key(line):
        return (line.points,) + tuple(drawn[line.name] if t == "lot" else getattr(line, t)
                                      for t in fmt.tie_breaks)
    ordered = sorted(lines.values(), key=key)
    for i, line in enumerate(ordered):
        line.place = i + 1
    return ordered


def teams(lines):
    """The teams' standings: (team, points, games_lost, players), fewest points first; players without a team
    are in none."""
    by_team = {}
    for line in lines:
        if line.team:
            t = by_team.setdefault(line.team, [line.team, 0, 0, 0])
            t[1] += line.points
            t[2] += line.games_lost
            t[3] += 1
    return sorted((tuple(t) for t in by_team.values()), key=lambda t: (t[1], t[2], t[0]))


def final_ranking(qualified, final_rounds, out_after):
    """The knock-out: ``qualified`` the names in their standing's order, ``final_rounds`` the lost games of
    each final round as {name: lost games}. -> (the ranking so far: [(name, lost, out in round or None)], the
    players still in). A player is out after ``out_after`` lost games; later out is better, and players out
    in the same round keep their standing's order."""
    lost = {name: 0 for name in qualified}
    out = {}
    for r, losses in enumerate(final_rounds, start=1):
        for name, n in losses.items():
            if name in lost and name not in out:
                lost[name] += n
                if lost[name] >= out_after:
                    out[name] = r
    still = [n for n in qualified if n not in out]
    if len(still) == 1 and final_rounds:
        still_in = []
        ranking = [(still[0], lost[still[0]], None)]
    else:
        still_in = still
        ranking = [(n, lost[n], None) for n in still]
    gone = sorted(out, key=lambda n: (-out[n], qualified.index(n)))
    ranking += [(n, lost[n], out[n]) for n in gone]
    return ranking, still_in


def prizes(fmt, players):
    """[(place, amount)] of the prize split: the pool is the players times the entry fee."""
    pool = fmt.entry_fee * players
    return [(i + 1, round(pool * share / 100.0, 2)) for i, share in enumerate(fmt.prizes)]
