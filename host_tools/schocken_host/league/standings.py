"""The league's standings per person, and a person's names made one (a merge, or a rename)."""

from dataclasses import dataclass

from schocken_host.errors import CommandError
from schocken_host.league.evenings import NO_DAY
from schocken_host.league.stakes import ledger, per_person
from schocken_host.table.seating import canonical_name

# Per person: what the seats he sat in add up to, in the games of the evenings between two days (read from
# their tallies, a row per person, evening and table size: db.py's migration 5).
_STANDINGS = """
    SELECT p.name, sum(t.games), sum(t.lost), sum(t.halves_lost), sum(t.final_lost), sum(t.rounds),
           sum(t.deckel), sum(t.schock_aus)
    FROM tallies t JOIN players p ON p.id = t.player
    WHERE t.day BETWEEN ? AND ?
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
    stakes: int = 0         # cents his lost games cost him by the stake rules (league/stakes.py)
    owed: int = 0           # of them, in evenings not settled yet
    drinks: int = 0         # drinks he owes by the rule of a round of drinks
    drinks_owed: int = 0

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
                "deckel_per_round": round(self.deckel_per_round, 4), "schock_aus": self.schock_aus,
                "stakes": self.stakes / 100, "owed": self.owed / 100, "drinks": self.drinks,
                "drinks_owed": self.drinks_owed}


COLUMNS = ("player", "games", "games_lost", "lost_per_game", "halves_lost", "finals_lost", "rounds", "deckel",
           "deckel_per_round", "schock_aus", "stakes", "owed", "drinks", "drinks_owed")
# --sort takes a column's name, in German too (the words of the German table's head, without umlauts).
SORT_WORDS = dict({c: c for c in COLUMNS}, spieler="player", spiele="games", verloren="games_lost",
                  je_spiel="lost_per_game", haelften="halves_lost", finale="finals_lost", runden="rounds",
                  deckel_je_runde="deckel_per_round", einsatz="stakes", offen="owed", getraenke="drinks",
                  getraenke_offen="drinks_owed")


def sort_column(text):
    """--sort's word -> the column; CommandError naming the columns there are."""
    column = SORT_WORDS.get(text.strip().lower().replace("-", "_").replace("ä", "ae"))
    if column is None:
        raise CommandError("league.bad_sort", column=text, columns=", ".join(COLUMNS))
    return column


def standings(league, first=None, last=None, sort=None):
    """(games recorded, [Standing]) of the evenings between the days ``first`` and ``last`` (both included;
    None, None: every game), best first: fewest games lost per game, then fewest halves lost per game, then
    more games played, then the name. ``sort`` (a column of COLUMNS) puts the highest first instead (the
    names: in the order of the alphabet), the order above between equals. An empty league (None: no database
    yet) has none."""
    if league is None:
        return 0, []
    span = (first or NO_DAY, last or "9999-12-31")
    games = league.read("SELECT count(*) FROM games WHERE day BETWEEN ? AND ?", span)[0][0]
    found = league.read(_STANDINGS, span)
    rows = [Standing(*row) for row in found]
    money = per_person(ledger(league, first, last, named=False))
    for row in rows:
        row.stakes, row.owed, row.drinks, row.drinks_owed = money.get(row.player, (0, 0, 0, 0))
    rows.sort(key=lambda s: (s.lost_per_game, s.halves_lost / s.games, -s.games, s.player))
    if sort == "player":
        rows.sort(key=lambda s: s.player)
    elif sort is not None:
        rows.sort(key=lambda s: -s.as_dict()[sort])
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
