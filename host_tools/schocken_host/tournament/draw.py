"""The draw: every round's tables from the tournament's seed, so anyone can redo a draw and see it was fair
(docs/turnier.md, "The draw"). Table sizes follow the format; players who sat together in an earlier round
are kept apart where the count allows (the fewest repeated pairings found among a fixed number of seeded
shuffles, each improved by swaps). The same seed, players and earlier rounds give the same draw."""

import hashlib
import itertools
import random

from schocken_host.errors import CommandError

SHUFFLES = 24          # seeded shuffles tried per round; the one with the fewest repeated pairings is kept
SWAP_PASSES = 6        # passes of pairwise swaps that lower the repeated pairings


def rng_of(seed, *what):
    """A random.Random for one purpose of this tournament (a round's draw, the lot), from its seed."""
    text = "\x1f".join([str(seed)] + [str(w) for w in what])
    return random.Random(int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:16], "big"))


def table_sizes(n, size, low, high, fill):
    """The sizes of the tables for ``n`` players: as even as possible, each within [low, high], as many tables
    as ``n / size`` gives rounded up (``fill`` "smaller": the players left over make some tables one
    smaller, the Springer) or down ("larger": they sit at tables one larger); the nearest count that fits
    where that one does not. Largest first. CommandError when no count fits."""
    if n < low:
        raise CommandError("turnier.too_few", players=n, low=low)
    want = -(-n // size) if fill == "smaller" else max(1, n // size)
    for t in sorted(range(1, n + 1), key=lambda t: (abs(t - want), t if fill == "larger" else -t)):
        base, extra = divmod(n, t)
        if base >= low and base + (1 if extra else 0) <= high:
            return [base + 1] * extra + [base] * (t - extra)
    raise CommandError("turnier.no_sizes", players=n, low=low, high=high)


def pairs_met(rounds):
    """{(a, b): times sat together} over earlier rounds' tables (lists of player ids per table)."""
    met = {}
    for tables in rounds:
        for table in tables:
            for a, b in itertools.combinations(sorted(table), 2):
                met[(a, b)] = met.get((a, b), 0) + 1
    return met


def repeats(tables, met):
    """How many pairings of ``tables`` happened before (counted as often as they did)."""
    return sum(met.get((a, b) if a < b else (b, a), 0)
               for table in tables for a, b in itertools.combinations(table, 2))


def _cost_with(table, player, met, without=None):
    return sum(met.get((player, o) if player < o else (o, player), 0) for o in table if o != without)


def _improve(tables, met):
    """Swaps of two players of different tables while one lowers the repeated pairings (deterministic)."""
    for _ in range(SWAP_PASSES):
        better = False
        for i, j in itertools.combinations(range(len(tables)), 2):
            ti, tj = tables[i], tables[j]
            for x, a in enumerate(ti):
                for y, b in enumerate(tj):
                    now = _cost_with(ti, a, met, a) + _cost_with(tj, b, met, b)
                    after = _cost_with(ti, b, met, a) + _cost_with(tj, a, met, b)
                    if after < now:
                        ti[x], tj[y] = b, a
                        a = b
                        better = True
        if not better:
            break
    return tables


def draw_round(seed, round_no, players, sizes, earlier=()):
    """Round ``round_no``'s tables: lists of the ids in ``players`` (each seated exactly once), with the
    ``sizes`` given; seats in each table's order are its seats at the table. ``earlier``: the rounds before
    (tables of ids), whose pairings are avoided where possible."""
    if sum(sizes) != len(players):
        raise ValueError("sizes %r do not seat %d players" % (sizes, len(players)))
    met = pairs_met(earlier)
    rng = rng_of(seed, "round", round_no)
    best = None
    ordered = sorted(players)
    for _ in range(SHUFFLES if met else 1):
        shuffled = ordered[:]
        rng.shuffle(shuffled)
        tables, at = [], 0
        for size in sizes:
            tables.append(shuffled[at:at + size])
            at += size
        if met:
            _improve(tables, met)
        cost = repeats(tables, met)
        if best is None or cost < best[0]:
            best = (cost, tables)
        if cost == 0:
            break
    tables = best[1]
    for table in tables:              # who opens at each table: by lot as well
        rng.shuffle(table)
    return tables


def lot(seed, player_names):
    """The seeded lot that orders players equal in everything else: name -> a number, smaller ahead."""
    rng = rng_of(seed, "lot")
    numbers = list(range(len(player_names)))
    rng.shuffle(numbers)
    return dict(zip(sorted(player_names), numbers))
