"""The league's standings per person, and a person's names made one (a merge, or a rename)."""

from dataclasses import dataclass

from schocken_host.errors import CommandError
from schocken_host.table.seating import canonical_name

# Per person: what the seats he sat in add up to.
_STANDINGS = """
    SELECT p.name, count(*), sum(s.lost), sum(s.halves_lost), sum(s.final_lost), sum(s.rounds),
           sum(s.deckel), sum(s.schock_aus)
    FROM seats s JOIN players p ON p.id = s.player
    GROUP BY p.id
"""


@dataclass
class Standing:
    player: str
    games: int
    games_lost: int
    halves_lost: int
    finals_lost: int
    rounds: int
    deckel: int
    schock_aus: int

    @property
    def lost_per_game(self):
        return self.games_lost / self.games

    @property
    def deckel_per_round(self):
        return self.deckel / self.rounds if self.rounds else 0.0

    def as_dict(self):
        return {"player": self.player, "games": self.games, "games_lost": self.games_lost,
                "lost_per_game": round(self.lost_per_game, 4), "halves_lost": self.halves_lost,
                "finals_lost": self.finals_lost, "rounds": self.rounds, "deckel": self.deckel,
                "deckel_per_round": round(self.deckel_per_round, 4), "schock_aus": self.schock_aus}


def standings(league):
    """(games recorded, [Standing]) best first: fewest games lost per game, then fewest halves lost per game,
    then more games played, then the name. An empty league (None: no database yet) has none."""
    if league is None:
        return 0, []
    games = league.read("SELECT count(*) FROM games")[0][0]
    rows = [Standing(*row) for row in league.read(_STANDINGS)]
    rows.sort(key=lambda s: (s.lost_per_game, s.halves_lost / s.games, -s.games, s.player))
    return games, rows


def player_of(conn, name):
    """(id, name) of the person ``name`` stands for: his name in the standings, or a seat's name that counts
    for him; None for a name the league does not know."""
    row = conn.execute("SELECT id, name FROM players WHERE name = ?", (name,)).fetchone()
    if row is None:
        row = conn.execute("SELECT p.id, p.name FROM names n JOIN players p ON p.id = n.player "
                           "WHERE n.name = ?", (canonical_name(name),)).fetchone()
    return row


def merge(league, name, into):
    """``name``'s games count for ``into`` from now on, and so do later logs with any name of his: when
    ``into`` is somebody's, the two are one person (his games, his seat names, his cup go over); when it is
    nobody's yet, it is a rename. Returns "merged" or "renamed". One transaction."""
    into = into.strip()
    if not into or not name.strip():
        raise CommandError("league.empty_name")
    if league is None:
        raise CommandError("league.unknown_player", name=name)
    with league.write() as conn:
        source = player_of(conn, name)
        if source is None:
            raise CommandError("league.unknown_player", name=name)
        target = player_of(conn, into)
        if target is None:
            conn.execute("UPDATE players SET name = ? WHERE id = ?", (into, source[0]))
            conn.execute("INSERT OR REPLACE INTO names (name, player) VALUES (?, ?)", (into, source[0]))
            return "renamed"
        if target[0] == source[0]:
            raise CommandError("league.same_player", name=name, into=into)
        table = conn.execute("SELECT a.game_id FROM seats a JOIN seats b ON a.game_id = b.game_id "
                             "WHERE a.player = ? AND b.player = ? ORDER BY a.game_id LIMIT 1",
                             (source[0], target[0])).fetchone()
        if table is not None:   # one person has one seat at a table
            raise CommandError("league.same_table", name=source[1], into=target[1], game_id=table[0])
        conn.execute("UPDATE seats SET player = ? WHERE player = ?", (target[0], source[0]))
        conn.execute("UPDATE names SET player = ? WHERE player = ?", (target[0], source[0]))
        conn.execute("INSERT OR REPLACE INTO names (name, player) VALUES (?, ?)", (source[1], target[0]))
        conn.execute("UPDATE players SET cup = coalesce(cup, (SELECT cup FROM players WHERE id = ?)) "
                     "WHERE id = ?", (source[0], target[0]))
        conn.execute("DELETE FROM players WHERE id = ?", (source[0],))
    return "merged"
