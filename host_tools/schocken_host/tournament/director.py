"""The director's work, apart from the network: register, draw the next round, take a table's game (checked
by table/game_check.py, "geprüft", before it counts; recorded once per game id), the director's word on a
held game, the standings after every game, and the recount from the logs that must equal them
(docs/turnier.md). hall.py serves it over HTTP."""

import hashlib
import json
import os
import re
import time
from pathlib import Path

from schocken_host.errors import CommandError
from schocken_host.league import db
from schocken_host.league.games import read_game, record
from schocken_host.table.game_check import check_lines
from schocken_host.table.seating import canonical_name
from schocken_host.tournament import standings as stand
from schocken_host.tournament.draw import draw_round, table_sizes
from schocken_host.tournament.store import COUNTED, LEAGUE, LOGS, Store

MAX_LOG_BYTES = 8 * 1024 * 1024       # a whole game's log is some 100 KB; a bigger body is no game
GAME_ID = re.compile(r"[0-9A-Za-z_-]{1,64}")


class Verdict:
    """What became of a game a table sent: ``status`` "counted", "held" (with ``reason``), "already" (the
    same game was there: nothing changed) or "conflict" (another log under that game id: refused)."""

    def __init__(self, status, game_id=None, reason=None, table=None, round_no=None):
        self.status = status
        self.game_id = game_id
        self.reason = reason
        self.table = table
        self.round = round_no

    def as_dict(self):
        return {"status": self.status, "game_id": self.game_id, "reason": self.reason, "table": self.table,
                "round": self.round}


def _same_rules(logged, wanted):
    from schocken import RuleError
    from schocken.rules import from_dict
    try:
        return from_dict(logged) == from_dict(wanted)
    except (RuleError, TypeError):
        return False


def seats_of(game):
    """A league Game's seats as the standings take them: [(name, halves, final, lost, deckel)]."""
    return [(s.name, s.halves_lost, s.final_lost, s.lost, s.deckel) for s in game.seats]


class Director:
    """One tournament's folder opened for directing."""

    def __init__(self, folder):
        self.store = Store(folder)
        self.folder = Path(folder)
        self.format = self.store.format
        self._standings = None

    def close(self):
        self.store.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- rounds ---------------------------------------------------------------------------------------
    def draw_next(self, force=False):
        """The next round's draw: a regular round while there are rounds left, then the knock-out's rounds.
        Refused while the current round has games to come (``force``: the director draws all the same)."""
        fmt = self.format
        round_no, kind = self.store.current()
        if round_no and not force and self.missing(round_no):
            raise CommandError("turnier.round_open", round=round_no, missing=self.missing(round_no))
        names = [n for n, _ in self.store.players()]
        ids = {n: i for i, n in enumerate(names)}
        earlier = [[[ids[n] for n in t] for t in self.store.tables_of(r).values()]
                   for r, k in self.store.rounds() if k == "round"]
        if round_no < fmt.rounds:
            kind, players = "round", names
            sizes = table_sizes(len(names), fmt.size, fmt.min_size, fmt.max_size, fmt.fill)
        else:
            if fmt.final is None:
                raise CommandError("turnier.over")
            ranking, players = self.final()
            if not players:
                raise CommandError("turnier.over")
            kind = "final"
            n = len(players)
            sizes = table_sizes(n, fmt.final.table_size, min(2, n), fmt.final.table_size, "larger")
            earlier = []
        tables = draw_round(self.store.seed, round_no + 1, [ids[n] for n in players], sizes, earlier)
        drawn = [[names[i] for i in t] for t in tables]
        self.store.save_draw(round_no + 1, kind, drawn)
        return round_no + 1, kind, drawn

    def games_due(self, round_no):
        kinds = dict(self.store.rounds())
        return self.format.games if kinds.get(round_no) == "round" else 1

    def missing(self, round_no):
        """How many games of the round have not counted yet."""
        due = self.games_due(round_no)
        return sum(max(0, due - self.store.games_at(round_no, t)) for t in self.store.tables_of(round_no))

    # --- a table's game -------------------------------------------------------------------------------
    def receive(self, key, round_no, text):
        """A game's log sent by the table enrolled with ``key`` for round ``round_no``: checked, then counted
        or held with its reason; once per game id. CommandError (nothing written) for a key that is no
        table's, a round not drawn, a body that is no log at all."""
        table_no = self.store.table_of_key(key) if isinstance(key, str) else None
        if table_no is None:
            raise CommandError("turnier.not_enrolled")
        if type(round_no) is not int or table_no not in self.store.tables_of(round_no):
            raise CommandError("turnier.no_such_round", round=round_no, table=table_no)
        if not isinstance(text, str) or not text or len(text) > MAX_LOG_BYTES:
            raise CommandError("turnier.no_log")
        data = text.encode("utf-8")
        reading = read_game(data)
        game = reading.game
        if game is None or not isinstance(game.game_id, str) or not GAME_ID.fullmatch(game.game_id):
            raise CommandError("turnier.no_log")
        sha = hashlib.sha256(data).hexdigest()
        known = self.store.game(game.game_id)
        if known is not None:
            return Verdict("already" if known[5] == sha else "conflict", game.game_id, known[3], known[1],
                           known[0])
        reason = self._reason(round_no, table_no, text, reading)
        log = self._keep(game.game_id, data)
        counts = reason is None
        if counts:
            self._league(game, log)
        fresh = self.store.add_game(game.game_id, round_no, table_no, "counted" if counts else "held", reason,
                                    log, sha, seats_of(game) if counts else None)
        if not fresh:    # the same game sent twice at once: the other request recorded it
            return Verdict("already", game.game_id, None, table_no, round_no)
        if counts:
            self._standings = None
        return Verdict("counted" if counts else "held", game.game_id, reason, table_no, round_no)

    def _reason(self, round_no, table_no, text, reading):
        """None for a game that counts, else why it is held (English, for the director's screen and log)."""
        report = check_lines(text)
        if not report["ok"]:
            d = report["first_difference"] or {}
            return "the check fails at line %s: %s" % (d.get("line"), d.get("reason"))
        if not report["fair"]:
            return "not played with fair play: its dice cannot be re-derived"
        if reading.refused is not None or not reading.game.over:
            return "the game is not over"
        if not _same_rules(reading.game.rules, self.format.rules):
            return "played under other rules (%s) than the format's (%s)" % (
                json.dumps(reading.game.rules, sort_keys=True), json.dumps(self.format.rules, sort_keys=True))
        drawn = self.store.tables_of(round_no)[table_no]
        seated = sorted(s.name for s in reading.game.seats)
        if seated != sorted(canonical_name(n) for n in drawn):
            return "its players (%s) are not the ones drawn at table %d of round %d (%s)" % (
                ", ".join(seated), table_no, round_no, ", ".join(drawn))
        if self.store.games_at(round_no, table_no) >= self.games_due(round_no):
            return "table %d has played its %d games of round %d" % (table_no, self.games_due(round_no),
                                                                     round_no)
        return None

    def _keep(self, game_id, data):
        """The log as sent, kept under logs/ (written whole, then renamed): the record the recount reads."""
        path = self.folder / LOGS / ("%s.jsonl" % game_id)
        tmp = path.with_suffix(".part")
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        return path

    def _league(self, game, log):
        league = db.open_league(self.folder / LEAGUE)
        try:
            record(league, game, log)
        finally:
            league.close()

    def decide(self, game_id, count):
        """The director's word on a held game: counted (it must read as a finished game of the table's
        players) or rejected. -> the new status."""
        known = self.store.game(game_id)
        if known is None:
            raise CommandError("turnier.no_such_game", game_id=game_id)
        round_no, table_no, status, _, log, _ = known
        if status != "held":
            raise CommandError("turnier.not_held", game_id=game_id, status=status)
        if not count:
            self.store.decide(game_id, "rejected")
            return "rejected"
        reading = read_game(Path(log).read_bytes())
        if reading.game is None or not reading.game.over:
            raise CommandError("turnier.cannot_count", game_id=game_id)
        players = {n for n, _ in self.store.players()}
        if any(s.name not in players for s in reading.game.seats):
            raise CommandError("turnier.cannot_count", game_id=game_id)
        self._league(reading.game, Path(log))
        self.store.decide(game_id, "admitted", seats_of(reading.game))
        self._standings = None
        return "admitted"

    # --- standings ------------------------------------------------------------------------------------
    def standings(self):
        """The standings of the regular rounds (stand.Line, first place first), made anew after each game."""
        if self._standings is None:
            games = [seats for _, _, _, seats in self.store.counted("round")]
            self._standings = stand.table(self.format, self.store.seed, self.store.players(), games)
        return self._standings

    def final(self):
        """(the knock-out's ranking so far, the players still in) once the regular rounds are drawn."""
        fmt = self.format
        qualified = [line.name for line in self.standings()[:fmt.final.players]]
        by_round = {}
        for _, rnd, _, seats in self.store.counted("final"):
            losses = by_round.setdefault(rnd, {})
            for name, _, _, lost, _ in seats:
                losses[name] = losses.get(name, 0) + lost
        rounds = [by_round.get(r, {}) for r, k in self.store.rounds() if k == "final"]
        return stand.final_ranking(qualified, rounds, fmt.final.out_after)


def recount(folder):
    """The standings counted again from the kept logs alone: every game the director counted, read anew
    from its log file. Equal to Director.standings() (tests/test_turnier.py)."""
    store = Store(folder)
    try:
        kinds = dict(store.rounds())
        games = []
        for game_id, rnd, _, status, _, log in store.all_games():
            if status in COUNTED and kinds.get(rnd) == "round":
                reading = read_game(Path(log).read_bytes())
                games.append(seats_of(reading.game))
        return stand.table(store.format, store.seed, store.players(), games)
    finally:
        store.close()


def standings_json(lines):
    return json.dumps([line.as_dict() for line in lines])


def now():
    return time.time()
