"""The stakes: what the loser of a game owes, by the rule of its evening, and the ledger of who owes what,
settled per evening.

No stake is charged unless the table chose one: the league's rule is ``none`` until the scorekeeper sets one
(`schocken liga einsatz`), for the league or for an evening. The rules to choose from are those of the seeds:
the club's rulebook (seed 000, the rule set ``verein``) "Einsatz festlegen: Bis 5 Personen: 5 € Einsatz pro
Runde. Ab 6 Personen: 10 € Einsatz pro Runde. Bei Spielen in Gaststätten wird um eine Getränkerunde gespielt
(Ausnahme sind offizielle Vereinsabende)", where "Runde" is the whole game (the same rulebook: the final's
loser "verliert das Spiel und zahlt den Einsatz"); seed 002 "Traditionell zahlt der Gesamtverlierer die
nächste Runde", seed 004 "zahlt – traditionell die nächste Runde Getränke".

A rule as stored and as typed (German words too):

| rule | the loser of a game owes |
|---|---|
| ``none`` (``keiner``), the default | nothing: the ledger counts the games each lost |
| ``players`` (``personen``) | 5 € at a table of up to 5, 10 € from 6 (the club's rulebook) |
| ``game:AMOUNT`` (``spiel:AMOUNT``) | AMOUNT € (``game:2.50``, ``spiel:2,50``) |
| ``drinks`` (``getraenke``, ``runde``) | a round of drinks: one for each person at the table |

Money is counted in cents, drinks in drinks."""

import re
import time
from dataclasses import dataclass, field

from schocken_host.errors import CommandError
from schocken_host.league.evenings import evening_name, evening_names

DEFAULT = "none"
WORDS = {"players": "players", "personen": "players", "drinks": "drinks", "getraenke": "drinks",
         "getränke": "drinks", "runde": "drinks", "none": "none", "keiner": "none"}
_AMOUNT = re.compile(r"(?:game|spiel):(\d{1,6})(?:[.,](\d{1,2}))?$")


def parse_rule(text):
    """A rule as the user types it -> the stored rule; CommandError naming it otherwise."""
    word = text.strip().lower()
    if word in WORDS:
        return WORDS[word]
    found = _AMOUNT.match(word)
    if found:
        cents = int(found.group(1)) * 100 + int((found.group(2) or "0").ljust(2, "0"))
        return "game:%d" % cents
    raise CommandError("league.bad_stake", rule=text)


def owed(rule, players):
    """(cents, drinks) the loser of a game at a table of ``players`` owes under ``rule``."""
    if rule == "players":
        return (500 if players <= 5 else 1000), 0
    if rule == "drinks":
        return 0, players
    if rule.startswith("game:"):
        return int(rule[5:]), 0
    return 0, 0


def league_rule(league):
    rows = league.read("SELECT value FROM settings WHERE key = 'stake'")
    return rows[0][0] if rows else DEFAULT


def set_rule(league, rule, day=None, place=None):
    """The league's rule (``day`` None), or that of the evening(s) on ``day`` (at ``place``: None, every table
    that evening). Returns how many evenings it was set for (None: the league's)."""
    with league.write() as conn:
        if day is None:
            conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES ('stake', ?)", (rule,))
            return None
        done = conn.execute("UPDATE evenings SET stake = ? WHERE day = ? AND (? IS NULL OR place = ?)",
                            (rule, day, place, place)).rowcount
    if not done:
        raise CommandError("league.no_evening", day=day)
    return done


def settle(league, day, place=None, undo=False):
    """The evening(s) on ``day`` (at ``place``) are settled (``undo``: open again). Returns how many."""
    with league.write() as conn:
        done = conn.execute("UPDATE evenings SET settled = ? WHERE day = ? AND (? IS NULL OR place = ?)",
                            (None if undo else round(time.time(), 3), day, place, place)).rowcount
    if not done:
        raise CommandError("league.no_evening", day=day)
    return done


@dataclass
class Evening:
    day: str
    place: str                                   # its table's name ("": none, evenings.NO_TABLE)
    rule: str
    settled: bool
    name: str = ""                               # as people read it (evenings.evening_name)
    games: int = 0
    lost: dict = field(default_factory=dict)     # player's name -> games he lost that evening
    owes: dict = field(default_factory=dict)     # player's name -> [cents, drinks]

    def charges(self):
        """Whether its rule charges anything: without a stake there is nothing to settle."""
        return self.rule != "none"


# Per evening, table size and loser: how many games he lost there (a few hundred rows for a season), from the
# tallies (db.py's migration 5). The evenings' rules and the people's names are looked up apart.
_LOSSES = """
    SELECT day, place, players, player, lost
    FROM tallies
    WHERE day BETWEEN ? AND ? AND lost > 0
"""


def ledger(league, first=None, last=None, named=True):
    """[Evening] between the days ``first`` and ``last`` (both included, None: open), in order, each with
    what its losers owe; ``named``: each with its name (evenings.evening_name; the standings need none)."""
    if league is None:
        return []
    default = league_rule(league)
    span = (first or "0000-00-00", last or "9999-12-31")
    rules = {(day, place): (rule, settled) for day, place, rule, settled in league.read(
        "SELECT day, place, stake, settled FROM evenings WHERE day BETWEEN ? AND ?", span)}
    names = dict(league.read("SELECT id, name FROM players"))
    evening_named = evening_names(league, first, last) if named else {}
    evenings = {}
    for day, place, players, player, games in sorted(league.read(_LOSSES, span)):
        evening = evenings.get((day, place))
        if evening is None:
            rule, settled = rules.get((day, place), (None, None))
            evening = evenings[(day, place)] = Evening(
                day, place, rule or default, settled is not None,
                evening_named.get((day, place)) or evening_name(day, place))
        name = names[player]
        cents, drinks = owed(evening.rule, players)
        evening.games += games
        evening.lost[name] = evening.lost.get(name, 0) + games
        owes = evening.owes.setdefault(name, [0, 0])
        owes[0] += cents * games
        owes[1] += drinks * games
    return list(evenings.values())


def per_person(evenings):
    """{name: (cents, cents still open, drinks, drinks still open)} over the evenings."""
    total = {}
    for evening in evenings:
        for name, (cents, drinks) in evening.owes.items():
            row = total.setdefault(name, [0, 0, 0, 0])
            row[0] += cents
            row[2] += drinks
            if not evening.settled:
                row[1] += cents
                row[3] += drinks
    return {name: tuple(row) for name, row in total.items()}
