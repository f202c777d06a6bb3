"""Evenings and seasons: a game belongs to the evening of the day it began at its table, where an evening runs
past midnight (a game begun before ``EVENING_ENDS_H`` in the morning is the evening before's); the scorekeeper
moves a game to another evening where that is not how it was. A season is a range of evenings' days.

An evening is one table's evening, wherever its logs were written or imported from: its table is the name the
game's log gives it (the start event's ``table``: the table file's name, docs/table-file.md), and a game whose
log names none (played without a table file, or logged before logs named their table) is at the day's table
without a name (``NO_TABLE``). ``evening_name`` is how an evening is named for people, everywhere."""

import re
import time
from collections import namedtuple
from datetime import date
from pathlib import Path

from schocken_host.errors import CommandError

EVENING_ENDS_H = 6     # a game begun before 06:00 local time belongs to the evening of the day before
NO_DAY = "0000-00-00"  # a log without a start time and without one in its name
NO_TABLE = ""          # the table of a game whose log names none
PEOPLE_NAMED = 3       # an evening at a table without a name is named by this many of its people at most
_DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})$")
_LOG_NAME_DAY = re.compile(r"(\d{4})(\d{2})(\d{2})-(\d{2})")


def table_of(start):
    """The table a game was played at, from its log's start event: the name it gives (``table``), else
    ``NO_TABLE``. Where its log lies says nothing: logs of one table may be written to several folders."""
    table = start.get("table") if isinstance(start, dict) else None
    return table.strip() if isinstance(table, str) else NO_TABLE


def table_of_log(path):
    """``table_of`` the start event on the first line of the log at ``path``; ``NO_TABLE`` where it cannot be
    read (a log moved or deleted since: nothing else says more)."""
    from schocken_host.table.gamelog import start_of
    return table_of(start_of(path))


def evening_of(started, table, log=None):
    """(day, table) of a game begun at ``started`` (Unix seconds, local time) at ``table`` (``table_of`` its
    start event). Without a start time, the log's name (``YYYYMMDD-HHMMSS-...``, as `schocken play` names
    them) gives the day."""
    table = table or NO_TABLE
    if started is not None:
        return time.strftime("%Y-%m-%d", time.localtime(started - EVENING_ENDS_H * 3600)), table
    found = _LOG_NAME_DAY.match(Path(str(log)).name) if log else None
    if found is None:
        return NO_DAY, table
    y, m, d, h = (int(x) for x in found.groups())
    try:
        when = date(y, m, d)
    except ValueError:
        return NO_DAY, table
    if h < EVENING_ENDS_H:
        when = date.fromordinal(when.toordinal() - 1)
    return when.isoformat(), table


def table_name(table, people=()):
    """The name an evening's table goes by: its own, or at a table without a name the people who played there,
    in the order of the alphabet ("Anna, Bert, Cleo +2": the first ``PEOPLE_NAMED`` and how many more); ""
    without either."""
    if table:
        return table
    people = sorted(set(people))
    more = len(people) - PEOPLE_NAMED
    return ", ".join(people[:PEOPLE_NAMED]) + (" +%d" % more if more > 0 else "")


def evening_name(day, table, people=(), lang=None, lines=1):
    """How an evening is named for people (`liga abend`, `liga kasse`, the season on the web page and in its
    picture): its day and its table (``table_name``), "2026-12-07 · Clubhaus", on ``lines`` lines (2: the
    table under the day). ``lang`` "de" writes the day as Germans do ("07.12.2026"); without it the day is
    written as the league sorts it."""
    shown = day
    if lang == "de" and _DAY.match(day) and day != NO_DAY:
        shown = "%s.%s.%s" % (day[8:10], day[5:7], day[:4])
    name = table_name(table, people)
    return ("%s\n%s" if lines == 2 else "%s · %s") % (shown, name) if name else shown


# The people of each evening between two days (a season's evenings: a few thousand seats).
_PEOPLE = """
    SELECT DISTINCT g.day, g.place, p.name
    FROM games g JOIN seats s ON s.game_id = g.game_id JOIN players p ON p.id = s.player
    WHERE g.day BETWEEN ? AND ?
"""


def evening_tables(league, first=None, last=None):
    """{(day, table): table_name} of the evenings between the days ``first`` and ``last`` (both included;
    None: open) that have games."""
    if league is None:
        return {}
    people = {}
    for day, table, name in league.read(_PEOPLE, (first or NO_DAY, last or "9999-12-31")):
        people.setdefault((day, table), []).append(name)
    return {(day, table): table_name(table, names) for (day, table), names in people.items()}


def evening_names(league, first=None, last=None):
    """{(day, table): evening_name} of the evenings between the days ``first`` and ``last`` that have
    games."""
    return {(day, table): evening_name(day, shown)
            for (day, table), shown in evening_tables(league, first, last).items()}


EveningRow = namedtuple("EveningRow", "day table games stake settled name")


def a_day(text):
    """A day as the user writes it (YYYY-MM-DD), checked: CommandError naming it otherwise."""
    found = _DAY.match(text.strip())
    if found:
        try:
            return date(*(int(x) for x in found.groups())).isoformat()
        except ValueError:
            pass
    raise CommandError("league.bad_day", day=text)


def evenings(league, first=None, last=None):
    """[EveningRow(day, table, games, stake, settled, name)] of the evenings between ``first`` and ``last``
    (days, both included; None: open), in order of day and table."""
    if league is None:
        return []
    names = evening_names(league, first, last)
    return [EveningRow(*row, names.get((row[0], row[1]), row[0])) for row in league.read(
        "SELECT e.day, e.place, count(g.game_id), e.stake, e.settled FROM evenings e "
        "JOIN games g ON g.day = e.day AND g.place = e.place "
        "WHERE e.day BETWEEN ? AND ? GROUP BY e.day, e.place ORDER BY e.day, e.place",
        (first or NO_DAY, last or "9999-12-31"))]


def games_of(league, day, place=None):
    """[(game_id, table, started, loser's name)] of the evening(s) on ``day`` (at the table ``place``)."""
    if league is None:
        return []
    return league.read(
        "SELECT g.game_id, g.place, g.started, p.name FROM games g "
        "JOIN seats s ON s.game_id = g.game_id AND s.lost = 1 JOIN players p ON p.id = s.player "
        "WHERE g.day = ? AND (? IS NULL OR g.place = ?) ORDER BY g.started, g.game_id", (day, place, place))


def move(league, game_id, day, place=None):
    """The game ``game_id`` (its id, or the first digits of it that name one game) belongs to the evening on
    ``day`` (at the table ``place``; None: the table it was played at) from now on; rebuild keeps it.
    Returns (game_id, day, table)."""
    if league is None:
        raise CommandError("league.unknown_game", game_id=game_id)
    with league.write() as conn:
        rows = conn.execute("SELECT game_id, place FROM games WHERE game_id LIKE ? || '%' LIMIT 2",
                            (game_id.strip().lower(),)).fetchall() if game_id.strip() else []
        if len(rows) != 1:
            raise CommandError("league.ambiguous_game" if rows else "league.unknown_game", game_id=game_id)
        game_id, was = rows[0]
        place = was if place is None else place.strip()
        conn.execute("INSERT OR REPLACE INTO moved (game_id, day, place) VALUES (?, ?, ?)",
                     (game_id, day, place))
        conn.execute("INSERT OR IGNORE INTO evenings (day, place) VALUES (?, ?)", (day, place))
        conn.execute("UPDATE games SET day = ?, place = ? WHERE game_id = ?", (day, place, game_id))
        conn.execute("UPDATE seats SET day = ? WHERE game_id = ?", (day, game_id))
        drop_empty_evenings(conn)
    return game_id, day, place


def drop_empty_evenings(conn):
    """An evening whose games all went to others is no evening (its stake and settling go with it)."""
    conn.execute("DELETE FROM evenings WHERE NOT EXISTS (SELECT 1 FROM games g WHERE g.day = evenings.day "
                 "AND g.place = evenings.place)")


def define_season(league, name, first, last):
    """The season ``name`` runs over the evenings from ``first`` to ``last`` (days, both included); defining
    it again changes its range."""
    name = check_season(name, first, last)
    with league.write() as conn:
        conn.execute("INSERT OR REPLACE INTO seasons (name, first, last) VALUES (?, ?, ?)",
                     (name, first, last))


def check_season(name, first, last):
    """The season's name, stripped; CommandError for an empty name or a season that ends before it begins."""
    name = name.strip()
    if not name:
        raise CommandError("league.empty_name")
    if first > last:
        raise CommandError("league.season_backwards", first=first, last=last)
    return name


def seasons(league):
    """[(name, first, last, games)] in order of their first day."""
    if league is None:
        return []
    return league.read("SELECT s.name, s.first, s.last, (SELECT count(*) FROM games g WHERE g.day BETWEEN "
                       "s.first AND s.last) FROM seasons s ORDER BY s.first, s.name")


def season_range(league, name):
    """(first, last) of the season ``name``; CommandError naming the seasons there are when it is none."""
    rows = league.read("SELECT first, last FROM seasons WHERE name = ?", (name,)) if league else []
    if not rows:
        known = ", ".join(row[0] for row in seasons(league)) or "-"
        raise CommandError("league.unknown_season", name=name, known=known)
    return rows[0]
