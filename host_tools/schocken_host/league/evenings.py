"""Evenings and seasons: a game belongs to the evening of the day it began at its table, where an evening runs
past midnight (a game begun before ``EVENING_ENDS_H`` in the morning is the evening before's); the scorekeeper
moves a game to another evening where that is not how it was. A season is a range of evenings' days."""

import re
import time
from datetime import date
from pathlib import Path

from schocken_host.errors import CommandError

EVENING_ENDS_H = 6     # a game begun before 06:00 local time belongs to the evening of the day before
NO_DAY = "0000-00-00"  # a log without a start time and without one in its name
_DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})$")
_LOG_NAME_DAY = re.compile(r"(\d{4})(\d{2})(\d{2})-(\d{2})")


def evening_of(started, log):
    """(day, place) of a game begun at ``started`` (Unix seconds, local time) whose log is ``log``: the table
    is the folder its log lies in (one host's log folder is one table). Without a start time, the log's name
    (``YYYYMMDD-HHMMSS-...``, as `schocken play` names them) gives the day."""
    place = Path(str(log)).parent.name if log else ""
    if started is not None:
        day = time.strftime("%Y-%m-%d", time.localtime(started - EVENING_ENDS_H * 3600))
        return day, place
    found = _LOG_NAME_DAY.match(Path(str(log)).name) if log else None
    if found is None:
        return NO_DAY, place
    y, m, d, h = (int(x) for x in found.groups())
    try:
        when = date(y, m, d)
    except ValueError:
        return NO_DAY, place
    if h < EVENING_ENDS_H:
        when = date.fromordinal(when.toordinal() - 1)
    return when.isoformat(), place


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
    """[(day, place, games, stake, settled)] of the evenings between ``first`` and ``last`` (days, both
    included; None: open), in order of day and table."""
    if league is None:
        return []
    return league.read(
        "SELECT e.day, e.place, count(g.game_id), e.stake, e.settled FROM evenings e "
        "JOIN games g ON g.day = e.day AND g.place = e.place "
        "WHERE e.day BETWEEN ? AND ? GROUP BY e.day, e.place ORDER BY e.day, e.place",
        (first or NO_DAY, last or "9999-12-31"))


def games_of(league, day, place=None):
    """[(game_id, place, started, loser's name)] of the evening(s) on ``day``."""
    if league is None:
        return []
    return league.read(
        "SELECT g.game_id, g.place, g.started, p.name FROM games g "
        "JOIN seats s ON s.game_id = g.game_id AND s.lost = 1 JOIN players p ON p.id = s.player "
        "WHERE g.day = ? AND (? IS NULL OR g.place = ?) ORDER BY g.started, g.game_id", (day, place, place))


def move(league, game_id, day, place=None):
    """The game ``game_id`` (its id, or the first digits of it that name one game) belongs to the evening on
    ``day`` (at ``place``; None: the table it was played at) from now on; rebuild keeps it. Returns
    (game_id, day, place)."""
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
