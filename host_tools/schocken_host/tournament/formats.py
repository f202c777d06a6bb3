"""A tournament's format: how many rounds of how many games, the table sizes, the scoring, the tie-breaks,
the knock-out final and the prize split. The published formats are presets (``PRESETS``); an organiser's own
is a TOML file (docs/turnier.md, "The format file"), read by ``read_format`` and checked in full before
anything starts (a refusal names the file and the key)."""

import tomllib
from dataclasses import dataclass, field, replace
from typing import Optional

from schocken_host.errors import CommandError
from schocken_host.i18n import RuleText, toml_error

# The criteria that order players with equal loss points, in the order a format lists them; "lot" is the
# seeded lot (draw.lot), always last: two players are never left equal.
TIE_BREAKS = ("games_lost", "halves_lost", "deckel", "lot")
FILLS = ("smaller", "larger")


@dataclass(frozen=True)
class Final:
    """The knock-out after the rounds: the best ``players`` at final tables of at most ``table_size``; a
    player is out after ``out_after`` lost games; the last one left wins."""
    players: int
    out_after: int
    table_size: int


@dataclass(frozen=True)
class Format:
    name: str
    rounds: int                     # rounds with the tables drawn anew
    games: int                      # games per table and round
    size: int                       # the table size the draw aims at
    min_size: int
    max_size: int
    fill: str                       # players left over make tables "smaller" (Springer) or "larger"
    half_points: int = 1            # loss points for a lost half
    game_points: int = 1            # loss points for a lost game, on top of its half
    tie_breaks: tuple = ("games_lost", "lot")
    final: Optional[Final] = None
    prizes: tuple = ()              # the prize pool's split in percent, first place first
    entry_fee: float = 0.0          # per player; the prize pool is the players times this
    source: str = ""                # where the format is published (docs/turnier.md)
    rules: dict = field(default_factory=lambda: {"preset": "standard", "options": {}})   # Rules.to_dict()

    def as_dict(self):
        return {"name": self.name, "rounds": self.rounds, "games": self.games, "size": self.size,
                "min_size": self.min_size, "max_size": self.max_size, "fill": self.fill,
                "half_points": self.half_points, "game_points": self.game_points,
                "tie_breaks": list(self.tie_breaks),
                "final": None if self.final is None else {"players": self.final.players,
                                                          "out_after": self.final.out_after,
                                                          "table_size": self.final.table_size},
                "prizes": list(self.prizes), "entry_fee": self.entry_fee, "rules": self.rules}


PRESETS = {
    # Gonzerath: tables of at most 6 by lot, 5 games a table, then drawn anew, 3 rounds; a lost half 1 loss
    # point, a lost game 1 more; fewer lost games ahead; the best 6 at a final table, out after two lost
    # games.
    "gonzerath": Format("gonzerath", rounds=3, games=5, size=6, min_size=3, max_size=6, fill="smaller",
                        tie_breaks=("games_lost", "lot"), final=Final(6, 2, 6),
                        source="Schocken-Turnier Gonzerath"),
    # Ferschweiler: tables of 4 (3 or 5 where the count does not divide), 2 rounds of 6 games, the best 16
    # into a knock-out; the entry fees split 50/30/20 among the first three.
    "ferschweiler": Format("ferschweiler", rounds=2, games=6, size=4, min_size=3, max_size=5, fill="larger",
                           tie_breaks=("games_lost", "halves_lost", "lot"), final=Final(16, 2, 4),
                           prizes=(50, 30, 20), entry_fee=10.0, source="Schocken-Turnier Ferschweiler"),
    # schocken.org: tables of 3 to 5, "Springer" where the count does not divide (14 players: 4, 4, 3, 3).
    "schockenorg": Format("schockenorg", rounds=3, games=4, size=4, min_size=3, max_size=5, fill="smaller",
                          tie_breaks=("games_lost", "deckel", "lot"), source="schocken.org"),
}

_TOP = {"name", "base", "rounds", "games", "tables", "scoring", "final", "prizes", "rules"}
_TABLES = {"size", "min", "max", "fill"}
_SCORING = {"half", "game", "tie_breaks"}
_FINAL = {"players", "out_after", "table_size"}
_PRIZES = {"entry_fee", "split"}


def preset(name, where="--format"):
    if name not in PRESETS:
        raise CommandError("turnier.no_format", name=name, known=", ".join(sorted(PRESETS)), where=where)
    return PRESETS[name]


def _unknown(path, table, allowed, prefix):
    for key in table:
        if key not in allowed:
            raise CommandError("turnier.format_key", path=path, option=prefix + key,
                               known=", ".join(sorted(prefix + k for k in allowed)))


def _int(path, key, value, low, high=None):
    if type(value) is not int or value < low or (high is not None and value > high):
        raise CommandError("turnier.format_number", path=path, option=key, value=value, low=low,
                           high=high if high is not None else "∞")
    return value


def parse_format(path, data):
    """A format file's data (its TOML read) -> Format, every key checked."""
    if not isinstance(data, dict):
        raise CommandError("turnier.format_key", path=path, option="?", known=", ".join(sorted(_TOP)))
    _unknown(path, data, _TOP, "")
    base = preset(data["base"], "%s: base" % path) if "base" in data else PRESETS["gonzerath"]
    changes = {}
    name = data.get("name", base.name if "base" in data else str(path))
    if not isinstance(name, str) or not name.strip():
        raise CommandError("turnier.format_value", path=path, option="name", value=name)
    changes["name"] = name.strip()
    for key in ("rounds", "games"):
        if key in data:
            changes[key] = _int(path, key, data[key], 1, 99)
    for section, allowed in (("tables", _TABLES), ("scoring", _SCORING), ("final", _FINAL),
                             ("prizes", _PRIZES)):
        if section in data and not isinstance(data[section], dict):
            raise CommandError("turnier.format_value", path=path, option=section, value=data[section])
        _unknown(path, data.get(section, {}), allowed, section + ".")
    tables = data.get("tables", {})
    for key, attr in (("size", "size"), ("min", "min_size"), ("max", "max_size")):
        if key in tables:
            changes[attr] = _int(path, "tables." + key, tables[key], 2, 10)
    if "fill" in tables:
        if tables["fill"] not in FILLS:
            raise CommandError("turnier.format_value", path=path, option="tables.fill", value=tables["fill"])
        changes["fill"] = tables["fill"]
    scoring = data.get("scoring", {})
    if "half" in scoring:
        changes["half_points"] = _int(path, "scoring.half", scoring["half"], 0, 100)
    if "game" in scoring:
        changes["game_points"] = _int(path, "scoring.game", scoring["game"], 0, 100)
    if "tie_breaks" in scoring:
        ties = scoring["tie_breaks"]
        if (not isinstance(ties, list) or any(t not in TIE_BREAKS for t in ties)
                or len(set(ties)) != len(ties)):
            raise CommandError("turnier.format_ties", path=path, value=ties, known=", ".join(TIE_BREAKS))
        changes["tie_breaks"] = tuple(t for t in ties if t != "lot") + ("lot",)
    if "final" in data:
        final = data["final"]
        if final == {} or final.get("players", 1) == 0:
            changes["final"] = None
        else:
            old = base.final or Final(6, 2, 6)
            players = _int(path, "final.players", final.get("players", old.players), 2, 1000)
            changes["final"] = Final(players, _int(path, "final.out_after", final.get("out_after",
                                                                                      old.out_after), 1, 9),
                                     _int(path, "final.table_size", final.get("table_size", old.table_size),
                                          2, 10))
    prizes = data.get("prizes", {})
    if "split" in prizes:
        split = prizes["split"]
        if (not isinstance(split, list) or any(type(s) not in (int, float) or s <= 0 for s in split)
                or sum(split) > 100):
            raise CommandError("turnier.format_prizes", path=path, value=split)
        changes["prizes"] = tuple(split)
    if "entry_fee" in prizes:
        fee = prizes["entry_fee"]
        if type(fee) not in (int, float) or fee < 0:
            raise CommandError("turnier.format_value", path=path, option="prizes.entry_fee", value=fee)
        changes["entry_fee"] = float(fee)
    if "rules" in data:
        changes["rules"] = _rules(path, data["rules"])
    fmt = replace(base, source=str(path), **changes)
    if not fmt.min_size <= fmt.size <= fmt.max_size:
        raise CommandError("turnier.format_sizes", path=path, size=fmt.size, low=fmt.min_size,
                           high=fmt.max_size)
    return fmt


def _rules(path, table):
    """``[rules]``: ``preset`` and any option of docs/rules.md, checked by the rule set itself; as
    Rules.to_dict() gives it (what a game's log says its rules were)."""
    from schocken import RuleError
    from schocken.rules import Rules
    if not isinstance(table, dict):
        raise CommandError("turnier.format_value", path=path, option="rules", value=table)
    options = {k: v for k, v in table.items() if k != "preset"}
    try:
        return Rules(table.get("preset", "standard"), **options).to_dict()
    except (RuleError, TypeError) as e:
        raise CommandError("turnier.format_rules", path=path, error=RuleText(e))


def read_format(path):
    """A format file (TOML, UTF-8) -> Format; CommandError naming the file for anything wrong in it."""
    try:
        text = open(path, encoding="utf-8").read()
    except UnicodeDecodeError:
        raise CommandError("turnier.format_not_utf8", path=path)
    except OSError as e:
        raise CommandError("turnier.format_unreadable", path=path, error=e.strerror or e)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise CommandError("turnier.format_syntax", path=path, error=toml_error(e))
    return parse_format(path, data)


def format_of(name_or_path):
    """``--format``: a preset's name, or a format file's path (ends in .toml)."""
    if str(name_or_path).endswith(".toml"):
        return read_format(name_or_path)
    return preset(name_or_path)
