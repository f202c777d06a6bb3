"""A game log as the league records it: read through table/replay.py (the one reader of a log, every event
recomputed with the rules package) into what each seat did, then written in one transaction, once per game
id."""

import json
import re
from dataclasses import dataclass, field
from typing import Optional

from schocken_host.errors import CommandError
from schocken_host.league.evenings import NO_TABLE, evening_of, table_of
from schocken_host.table.replay import Replay, log_lines
from schocken_host.table.seating import canonical_name
from schocken_host.table.state import LogError, TableState


@dataclass
class Seat:
    seat: int
    name: str              # the person's name as the league counts it (seating.canonical_name)
    logged: str            # the name the log gives the seat
    cup: Optional[str]
    kind: str
    rounds: int = 0
    deckel: int = 0
    halves_lost: int = 0
    final_lost: int = 0
    lost: int = 0
    schock_aus: int = 0


@dataclass
class Game:
    game_id: str
    started: Optional[float]
    rules: dict
    table: str = NO_TABLE   # the table its log names (evenings.table_of)
    rounds: int = 0
    blattschuss: bool = False
    over: bool = False
    seats: list = field(default_factory=list)


@dataclass
class Reading:
    """What a log holds: ``game`` (None before a start event), whether it is ``over``, ``refused``: (line,
    error) of the line where the log stops being a game (table/replay.py), else None, and ``torn``: the number
    of a last line that is no whole event (its host died while writing it), else None."""
    game: Optional[Game]
    refused: Optional[tuple]
    torn: Optional[int] = None


def read_game(data):
    """A log's bytes -> Reading. Counted from the events as the rules apply them: a round's Deckel go to its
    worst seat (its ``moves``), a half is lost where the rules end it (TableState.half_loser_since, so a host
    that died before writing its half_lost counts the same), Schock-Aus from the reveals."""
    state = TableState()
    game = None

    def apply(ev):
        nonlocal game
        kind = ev["ev"]
        if game is None and kind != "start":
            raise LogError("league.no_start", kind=kind)
        before = state.game
        phase = before.phase if before is not None else "setup"
        state.apply(ev)
        if kind == "start":
            game = Game(ev["game_id"], ev.get("ts"), ev["rules"], table_of(ev),
                        seats=[Seat(p.seat, canonical_name(p.name), p.name, p.cup, p.kind)
                               for p in state.players])
            return
        # A half ends only where the game's phase moves on (half_loser_since is None otherwise).
        now = state.game
        lost = state.half_loser_since(phase) if now is not None and now.phase != phase else None
        if lost is not None:
            seat = game.seats[lost]
            if phase == "final":
                seat.final_lost += 1
            else:
                seat.halves_lost += 1
        if kind == "round":
            for s in ev["order"]:
                game.seats[s].rounds += 1
            game.seats[ev["worst"]].deckel += sum(m[1] for m in ev["moves"])
        elif kind == "reveal" and ev.get("kind") == "schock_aus":
            game.seats[ev["seat"]].schock_aus += 1
    done = _replay(data, state, apply)
    if game is not None and state.over:
        game.over = True
        game.rounds = state.game.rounds
        game.blattschuss = bool(state.game.blattschuss)
        game.seats[state.loser].lost = 1
    return Reading(game, done.refused, done.torn)


# The C scanner json.loads runs, without the Python around it (a fifth of a line's decoding): a line it takes
# whole is the value json.loads would give; any other line goes the usual way (Replay.line), which names it.
_SCAN = getattr(json.JSONDecoder(), "scan_once")   # an attribute the stubs do not know


def _replay(data, state, apply):
    """table/replay.py's replay of a whole log, each line through the rules as there. A log that is UTF-8 is
    decoded once, and each line's event scanned where it lies in it: a line whose scan ends at its newline,
    an object with "ev", is the event json.loads would give it. From the first line that is anything else
    on, the rest of the log goes through Replay.line as any reader's does (the same refusal, file line and
    all)."""
    done = Replay(state, apply)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:   # the line it is in is named by Replay.line
        text = ""
    pos, size, find = 0, len(text), text.find
    while pos < size:
        newline = find("\n", pos)
        if newline < 0:
            newline = size
        try:
            ev, end = _SCAN(text, pos)
        except (ValueError, StopIteration, RecursionError):
            break
        if end != newline or type(ev) is not dict or "ev" not in ev:
            break
        if not done.event(ev):
            return done
        pos = newline + 1
    base = len(text[:pos].encode("utf-8")) if pos else 0
    for raw, last, offset in log_lines(data[base:]):
        if not done.line(raw, last, base + offset):
            break
    return done


# Emulated cups ("emu1") are the host's, not a person's: only a real cup's id says who plays it.
_EMULATED = re.compile(r"emu\d+$")


def _player(conn, seat, seated, log):
    """The player id of a seat: the person its name stands for (a merge may have made it another's name), a
    new player when the name is new. A name whose person sits at this table already (a default seat name
    merged into somebody's) is a person of that name. A real cup's id is kept with the player."""
    cup = seat.cup if seat.kind == "cup" and seat.cup and not _EMULATED.match(seat.cup) else None
    row = conn.execute("SELECT player FROM names WHERE name = ?", (seat.name,)).fetchone()
    if row is None or row[0] in seated:
        mapped = row
        row = conn.execute("SELECT id FROM players WHERE name = ?", (seat.name,)).fetchone()
        if row is None:
            row = (conn.execute("INSERT INTO players (name) VALUES (?)", (seat.name,)).lastrowid,)
        elif row[0] in seated:
            other = conn.execute("SELECT name FROM players WHERE id = ?",
                                 ((mapped or row)[0],)).fetchone()[0]
            raise CommandError("league.two_seats", path=log, name=seat.name, other=other)
        conn.execute("INSERT OR IGNORE INTO names (name, player) VALUES (?, ?)", (seat.name, row[0]))
    if cup is not None:
        conn.execute("UPDATE players SET cup = ? WHERE id = ?", (cup, row[0]))
    return row[0]


def record(league, game, log):
    """Writes a finished game in one transaction: True, or False when its game id is there already (an
    import is idempotent); CommandError (nothing written) for a game with one person in two seats."""
    with league.write() as conn:
        if conn.execute("SELECT 1 FROM games WHERE game_id = ?", (game.game_id,)).fetchone():
            return False
        # Its evening: where the scorekeeper put it (a rebuild keeps his word), else its day and table.
        day_place = conn.execute("SELECT day, place FROM moved WHERE game_id = ?", (game.game_id,)).fetchone()
        day, place = day_place or evening_of(game.started, game.table, log)
        conn.execute("INSERT OR IGNORE INTO evenings (day, place) VALUES (?, ?)", (day, place))
        conn.execute("INSERT INTO games (game_id, log, started, rules, rounds, blattschuss, day, place, "
                     "players) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     (game.game_id, str(log), game.started, json.dumps(game.rules, sort_keys=True),
                      game.rounds, int(game.blattschuss), day, place, len(game.seats)))
        seated = set()
        for s in game.seats:
            player = _player(conn, s, seated, log)
            seated.add(player)
            conn.execute("INSERT INTO seats (game_id, seat, player, name, cup, kind, rounds, deckel, "
                         "halves_lost, final_lost, lost, schock_aus, day) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         (game.game_id, s.seat, player, s.logged, s.cup, s.kind, s.rounds, s.deckel,
                          s.halves_lost, s.final_lost, s.lost, s.schock_aus, day))
    return True
