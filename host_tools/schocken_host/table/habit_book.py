"""What this host remembers of how each player plays, across games: ``habits.json`` in the user's data folder
(docs/odds.md, "Opponent model"). Per player the counts of his decisions per cell of odds/habits.py (stood,
seen). A game's table starts from them (the optimal bots and the coach know a regular from the games before),
and a game adds its revealed turns when it ends, finished or stopped (``record``).

A player is his name; a bot is its name and its strategy ("Bot 2/fast"), since "Bot 2" is whoever the host
seats at seat 2. A game's session puts the book on its TableState (``known_habits``) and table/coach.py starts
the table's habits from it. The file is written whole (a temporary file, then renamed) and is a memory, not a
record: one that cannot be read or written is left alone and the game goes on, learning within the game
only."""

import json
import os
from pathlib import Path

from schocken_host.links.keys import data_dir
from schocken_host.odds.habits import CELLS, decisions_of, throws_of

FILE_NAME = "habits.json"
VERSION = 1


def book_path():
    return data_dir() / FILE_NAME


def who(player):
    """The key of a TableState Player in the book."""
    strategy = getattr(player, "strategy", None)
    return "%s/%s" % (player.name, strategy) if player.kind == "bot" and strategy else player.name


def load(path=None):
    """{player: (stands, seen)} of the book, or {} where it is missing or unreadable."""
    path = Path(path) if path is not None else book_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("version") != VERSION or data.get("cells") != len(CELLS):
            return {}
        found = {}
        for name, (stands, seen) in data["players"].items():
            if len(stands) == len(seen) == len(CELLS):
                found[name] = ([int(x) for x in stands], [int(x) for x in seen])
        return found
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return {}


def record(st, path=None, since=0):
    """Adds the turns revealed in ``st``'s rounds to the book, from the ``since``-th on (a resumed game's
    turns of before were added when its host stopped); False where it could not be written."""
    path = Path(path) if path is not None else book_path()
    book = load(path)
    for round_id, seat, limit, opened, transcript in st.turns_seen[since:]:
        try:
            found = decisions_of(st.rules, limit, opened, throws_of(st.rules, limit, transcript))
        except (ValueError, TypeError, IndexError, KeyError):
            continue
        stands, seen = book.setdefault(who(st.players[seat]), ([0] * len(CELLS), [0] * len(CELLS)))
        for t, lim, first, b, stood in found:
            i = CELLS.index((t, lim, first, b))
            seen[i] += 1
            stands[i] += 1 if stood else 0
    text = json.dumps({"version": VERSION, "cells": len(CELLS),
                       "players": {name: [s, k] for name, (s, k) in sorted(book.items())}})
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        return False
    return True
