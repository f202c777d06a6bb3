"""Calibration of the best play's opponent model, and the mixed tables' contest (docs/odds.md, "How well it
predicts", "The best player").

    .venv/bin/python bench/calibration.py --games 200 --plot docs/odds-calibration.svg   # everything below
    .venv/bin/python bench/calibration.py --games 30 --no-contest --plot FILE.svg   # the calibration alone
    .venv/bin/python bench/calibration.py --learn game       # habits learnt anew each game (liga glueck's)
    .venv/bin/python bench/calibration.py --logs DIR         # real logs of `schocken play`, oldest first

Whole seeded games of 4 (``schocken.game.Game``: throw-off, rounds until the game is over; standard rules, the
user's defaults: 13 Deckel, 3 throws) at five tables: every seat ``optimal``, every seat ``fast``, ``schock``,
``general``, and mixed tables of one of each (the seats rotate with the game: game g seats strategy k at seat
(k + g) mod 4). Game g draws its dice from ``random.Random(seed * 1,000,003 + g)``, the same at every table. A
seat plays as the bots of `schocken play` do: ``optimal`` by ``odds.best.Optimal`` in the context
``table/coach.public_context`` builds (the open dice, throws and early stands of the seats before it, the
players after it, its limit, the middle, the Deckel each holds, and the habits the table has learnt of every
other player from the turns revealed in the rounds before: odds/habits.py; over the season by default, as the
host remembers them in habits.json), the others by their ``schocken.sim`` strategy.

**Calibration.** At the start of every turn the model predicts the Deckel the player will take in the round:
for an ``optimal`` seat the coach's expectation (the best play, ``Context.expected``), for the others the
expectation of their own play in the same context (``habits.expected_playing`` with the habit the table has
learnt of them: what the model believes they do). Over a table's games the predictions are summed per
strategy and set against the Deckel taken (the round's ``moves``, as the league counts them). The same is
printed for the model of before (every other player assumed to play ``keep_ones``, no habits). The
reliability plot bins every turn's prediction into deciles (by prediction) and shows the mean prediction
against the mean Deckel taken per decile, per table, with the diagonal.

**The best player.** At the mixed tables: Deckel per round and games lost per strategy. Significance:
``optimal`` against each other strategy, (a) Deckel per round, paired by game (each game gives both), by the
Wilcoxon signed-rank test; (b) games lost, by the sign test over the games that one of the two lost (a
binomial test with p = 1/2: under no difference either is as likely to be the loser). One-sided, ``optimal``
better; printed with the p-values.

**Decision cost against an independent best response.** Every decision (after each throw but the last) of
every seat at the mixed tables is judged by a best response that does not share the players' model: the
context built with each opponent's true play (a simple strategy's exact habit; an ``optimal`` opponent by
the habit learnt from all its decisions in a first pass of the same games, not the in-game estimate). Cost =
V(choice made) − V(best choice) in that context, summed per strategy per round.
"""

import argparse
import math
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "host_tools"), os.path.join(ROOT, "firmware", "lib")]

from schocken.game import Game  # noqa: E402
from schocken.rules import Rules  # noqa: E402
from schocken.turn import IN_CUP, Turn  # noqa: E402

from schocken_host.odds import habits as habit_model  # noqa: E402
from schocken_host.odds.best import Optimal, SeatView, context_for, warm  # noqa: E402
from schocken_host.odds.model import merge  # noqa: E402
from schocken_host.table.bots import STRATEGIES  # noqa: E402

SEED = 20261207
NAMES = ("optimal", "fast", "schock", "general")
TABLES = {"optimal": ("optimal",) * 4, "fast": ("fast",) * 4, "schock": ("schock",) * 4,
          "general": ("general",) * 4, "mixed": NAMES}


def seated(table, g):
    kinds = TABLES[table]
    if table != "mixed":
        return list(kinds)
    return [kinds[(s - g) % 4] for s in range(4)]


def out_of(turn):
    return tuple(sorted((turn.values[i] for i in range(3) if turn.state[i] != IN_CUP), reverse=True))


class Season:
    """What one table's games add up to."""

    def __init__(self):
        self.predicted = {k: 0.0 for k in NAMES}
        self.before = {k: 0.0 for k in NAMES}       # the model of before (keep_ones, no habits)
        self.taken = {k: 0 for k in NAMES}
        self.rounds = {k: 0 for k in NAMES}
        self.games = {k: 0 for k in NAMES}
        self.lost = {k: 0 for k in NAMES}
        self.pairs = []                              # per game: {kind: (deckel, rounds, lost)}
        self.turns = []                              # (prediction, taken) of every turn
        self.cost = {k: 0.0 for k in NAMES}         # against the independent best response
        self.decisions = {k: 0 for k in NAMES}
        self.learnt = {}                             # kind -> every decision of its seats (for the oracle)
        self.played = 0                              # games


class Learnt:
    """The table's Habits of each player, by who he is (``who[seat]``): learnt anew each game (as the bots and
    the coach of `schocken play` learn), or over the season's games (``season``)."""

    def __init__(self, season):
        self.season = season
        self.habits = habit_model.Habits()

    def for_game(self, who):
        if not self.season:
            self.habits = habit_model.Habits()
        habits = self.habits

        class Seats:
            def of(self, seat):
                return habits.of(who[seat])

            def add(self, seat, decisions):
                habits.add(who[seat], decisions)
        return Seats()


def play_game(rules, kinds, rng, season, oracle=None, learnt=None, who=None):
    """One game; everything counted into ``season``. ``oracle``: {kind: Habit} of each strategy's true play
    (the independent best response judges every decision in it), or None. ``learnt``: the Learnt habits,
    ``who``: who sits at each seat (default: the seats themselves)."""
    game = Game(rules, ["S%d" % i for i in range(4)])
    while game.throw_off([[rng.randint(1, 6) for _ in range(3)] for _ in game.throw_off_seats]) is None:
        pass
    habits = (learnt or Learnt(False)).for_game(who or list(range(4)))
    per_game = {k: [0, 0, 0] for k in set(kinds)}
    while game.phase != "over":
        order = game.order()
        views, entries, limit = [], [], None
        stake = game.half.middle or None if game.half else None
        turn_preds = []
        played = []
        for pos, seat in enumerate(order):
            kind = kinds[seat]
            own = rules.max_throws if pos == 0 else limit
            before = tuple(habits.of(s) for s in order[:pos])
            after = tuple(habits.of(s) for s in order[pos + 1:])
            later = len(order) - pos - 1
            held = game.half.deckel
            holdings = (held[seat], tuple(held[s] for s in order[:pos] + order[pos + 1:]))
            ctx = context_for(rules, views, later, own, pos == 0, stake, habits=(before, after),
                              holdings=holdings)
            old = context_for(rules, views, later, own, pos == 0, stake)
            if kind == "optimal":
                predicted, was = ctx.expected(), old.expected()
            else:
                predicted = habit_model.expected_playing(ctx, habits.of(seat), pos == 0)
                was = habit_model.expected_playing(old, habit_model.OF_STRATEGY[kind], pos == 0)
            turn_preds.append((seat, kind, predicted, was))
            judge = None
            if oracle is not None:
                judge = context_for(rules, views, later, own, pos == 0, stake,
                                    habits=(tuple(oracle[kinds[s]] for s in order[:pos]),
                                            tuple(oracle[kinds[s]] for s in order[pos + 1:])),
                                    holdings=holdings)
            strategy = Optimal(ctx) if kind == "optimal" else STRATEGIES[kind]
            turn = Turn(rules, None if pos == 0 else limit)
            throws = []
            while True:
                out = out_of(turn)
                turn.roll([rng.randint(1, 6) for _ in turn.in_cup()])
                fell = tuple(sorted((turn.values[i] for i in range(3) if turn.state[i] == IN_CUP),
                                    reverse=True))
                throws.append(habit_model.Throw(out, fell, turn.throws_used))
                stand = strategy(turn)
                if judge is not None and turn.throws_used < turn.limit:
                    best, _ = judge.solution.choose(out, fell, turn.throws_used)
                    if stand:
                        chosen = judge.cost(merge(out, fell), turn.throws_used, not out)
                    else:
                        chosen = judge.solution.value(out_of(turn), turn.throws_used + 1)
                    season.cost[kind] += max(0.0, chosen - best)
                    season.decisions[kind] += 1
                if stand:
                    break
                throws[-1].next_out = out_of(turn)
            turn.stand()
            if pos == 0:
                limit = turn.throws_used
            views.append((SeatView.after(turn, own), own))
            entries.append((turn.dice(), turn.throws_used, turn.hand()))
            played.append((seat, own, pos == 0, throws))
        result, moves = game.play_round(entries)
        worst = order[result.worst]
        taken = sum(n for _, n in moves)
        for seat, kind, predicted, was in turn_preds:
            got = taken if seat == worst else 0
            season.predicted[kind] += predicted
            season.before[kind] += was
            season.taken[kind] += got
            season.rounds[kind] += 1
            season.turns.append((predicted, got))
            per_game[kind][0] += got
            per_game[kind][1] += 1
        for seat, own, first, throws in played:   # revealed now: the table learns from them
            found = habit_model.decisions_of(rules, own, first, throws)
            habits.add(seat, found)
            season.learnt.setdefault(kinds[seat], []).extend(found)
    loser = kinds[game.loser] if hasattr(game, "loser") and game.loser is not None else None
    for seat, kind in enumerate(kinds):
        season.games[kind] += 1
    if loser is not None:
        season.lost[loser] += 1
        per_game[loser][2] = 1
    season.pairs.append({k: tuple(v) for k, v in per_game.items()})


def from_logs(folder):
    """The same calibration from real game logs (`schocken play`, oldest first): every log replayed through a
    TableState, and at each seat's turn in a round the coach's context (``table/coach.public_context``: the
    bots' and the coach's, the habits included) gives the prediction as above; the host's memory of the
    players (table/habit_book.py) is rebuilt as the games go, as a host with a fresh data folder had it.
    Returns {table kind: Season}."""
    import json
    from pathlib import Path
    from schocken_host.table import habit_book
    from schocken_host.table.coach import limit_of, public_context, table_habits
    from schocken_host.table.state import TableState
    seasons = {}
    book = {}
    for path in sorted(Path(folder).glob("*.jsonl")):
        lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        if not lines or lines[-1].get("ev") != "game_over":
            continue
        kinds = [p.get("strategy") or "optimal" for p in lines[0]["players"]]
        table = kinds[0] if len(set(kinds)) == 1 else "mixed"
        season = seasons.setdefault(table, Season())
        st = TableState()
        st.known_habits = book
        pending = {}
        for ev in lines:
            st.apply(ev)
            if ev["ev"] == "turn" and st.round_kind == "round" and not ev.get("continued"):
                seat = ev["seat"]
                limit = limit_of(st, seat)
                ctx = public_context(st, seat, limit)
                first = bool(st.order) and st.order[0] == seat
                kind = kinds[seat]
                pending[seat] = (kind, ctx.expected() if kind == "optimal" else
                                 habit_model.expected_playing(ctx, table_habits(st).of(seat), first))
            elif ev["ev"] == "round":
                taken = sum(n for _, n in ev["moves"])
                for seat, (kind, predicted) in pending.items():
                    got = taken if seat == ev["worst"] else 0
                    season.predicted[kind] += predicted
                    season.taken[kind] += got
                    season.rounds[kind] += 1
                    season.turns.append((predicted, got))
                pending = {}
            elif ev["ev"] in ("replay_round", "throw_off"):
                pending = {}
        for seat, kind in enumerate(kinds):
            season.games[kind] += 1
        season.played += 1
        season.lost[kinds[st.loser]] += 1
        # what the host remembers after this game
        for round_id, seat, limit, opened, transcript in st.turns_seen:
            throws = habit_model.throws_of(st.rules, limit, transcript)
            found = habit_model.decisions_of(st.rules, limit, opened, throws)
            stands, seen = book.setdefault(habit_book.who(st.players[seat]),
                                           ([0] * len(habit_model.CELLS), [0] * len(habit_model.CELLS)))
            habit_model.counts(found, (stands, seen))
    return seasons


def deciles(turns, bins=10):
    """[(mean prediction, mean taken, turns)] per decile of the predictions."""
    ranked = sorted(turns)
    n = len(ranked)
    out = []
    for b in range(bins):
        part = ranked[b * n // bins:(b + 1) * n // bins]
        if part:
            out.append((sum(p for p, _ in part) / len(part), sum(t for _, t in part) / len(part), len(part)))
    return out


def contest(season):
    """The mixed tables: optimal against each other strategy, the two tests (one-sided p-values)."""
    from scipy.stats import binomtest, wilcoxon
    rows = []
    for other in NAMES[1:]:
        diffs, mine_lost, theirs_lost = [], 0, 0
        for game in season.pairs:
            a, b = game["optimal"], game[other]
            diffs.append(a[0] / a[1] - b[0] / b[1])
            mine_lost += a[2]
            theirs_lost += b[2]
        p_deckel = wilcoxon(diffs, alternative="less").pvalue
        either = mine_lost + theirs_lost
        p_lost = binomtest(mine_lost, either, 0.5, alternative="less").pvalue if either else 1.0
        mean = sum(diffs) / len(diffs)
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1))
        half = 1.96 * sd / math.sqrt(len(diffs))
        rows.append((other, mean, half, p_deckel, mine_lost, theirs_lost, p_lost))
    return rows


def plot(path, by_table):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 6))
    top = 0.0
    for table, points in by_table.items():
        xs, ys = [p for p, _, _ in points], [t for _, t, _ in points]
        top = max(top, max(xs), max(ys))
        ax.plot(xs, ys, marker="o", label=table)
    ax.plot([0, top], [0, top], color="grey", linestyle="--", label="predicted = taken")
    ax.set_xlabel("Deckel predicted at the start of the turn (mean per decile)")
    ax.set_ylabel("Deckel taken in the round (mean per decile)")
    ax.set_title("Reliability of the opponent model (bench/calibration.py)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None} if str(path).endswith(".svg") else None)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per table (default 200)")
    parser.add_argument("--tables", default=",".join(TABLES))
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--plot", default=None, metavar="FILE.svg|png", help="the reliability plot")
    parser.add_argument("--learn", choices=("game", "season"), default="season",
                        help="the habits learnt over the season (as `schocken play` does: the host remembers "
                             "them, habits.json) or anew each game (as `liga glueck` judges, and `play "
                             "--no-league`)")
    parser.add_argument("--no-contest", action="store_true",
                        help="only the calibration: no mixed tables' contest, no independent best response")
    parser.add_argument("--logs", default=None, metavar="DIR",
                        help="instead of simulating: the real game logs of `schocken play` in DIR")
    args = parser.parse_args(argv)
    rules = Rules("standard")
    warm(rules)
    if args.logs:
        seasons = from_logs(args.logs)
        for table, season in sorted(seasons.items()):
            print("\n%s tables, real logs of %s (%d games)" % (table, args.logs, season.played))
            for kind in NAMES:
                if season.rounds[kind]:
                    print("  %-8s %7d rounds, taken %6d, predicted %9.1f, ratio %.3f, games lost %d of %d" % (
                        kind, season.rounds[kind], season.taken[kind], season.predicted[kind],
                        season.predicted[kind] / max(1, season.taken[kind]), season.lost[kind],
                        season.games[kind]))
        return 0
    print("%d games of 4 per table, standard rules (13 Deckel, 3 throws), seed %d, habits learnt per %s, "
          "Python %s" % (args.games, args.seed, args.learn, sys.version.split()[0]))
    by_table, seasons = {}, {}
    for table in args.tables.split(","):
        t0 = time.perf_counter()
        season = Season()
        learnt = Learnt(args.learn == "season")
        for g in range(args.games):
            kinds = seated(table, g)
            # at a mixed table each strategy is one player, whatever seat it takes
            who = kinds if table == "mixed" else list(range(4))
            play_game(rules, kinds, random.Random(args.seed * 1000003 + g), season, learnt=learnt, who=who)
        seasons[table] = season
        by_table[table] = deciles(season.turns)
        print("\n%s (%.0f s)" % (table, time.perf_counter() - t0))
        print("  strategy  rounds  taken  predicted  ratio  | model of before: predicted  ratio")
        for kind in NAMES:
            if season.rounds[kind]:
                print("  %-8s %7d %6d %10.1f %6.3f  | %26.1f %6.3f" % (
                    kind, season.rounds[kind], season.taken[kind], season.predicted[kind],
                    season.predicted[kind] / max(1, season.taken[kind]), season.before[kind],
                    season.before[kind] / max(1, season.taken[kind])))
        total_p = sum(season.predicted.values())
        total_t = sum(season.taken.values())
        print("  all      %7d %6d %10.1f %6.3f  | %26.1f %6.3f" % (
            sum(season.rounds.values()), total_t, total_p, total_p / max(1, total_t),
            sum(season.before.values()), sum(season.before.values()) / max(1, total_t)))
        print("  deciles (mean predicted / mean taken / turns): " + "; ".join(
            "%.3f/%.3f/%d" % d for d in by_table[table]), flush=True)
    if "mixed" in seasons and not args.no_contest:
        mixed = seasons["mixed"]
        print("\nmixed tables: Deckel per round and games lost per strategy")
        for kind in NAMES:
            print("  %-8s %.4f Deckel per round, %d of %d games lost" % (
                kind, mixed.taken[kind] / mixed.rounds[kind], mixed.lost[kind], mixed.games[kind]))
        print("  optimal against   Deckel/round difference (95%)   Wilcoxon p   games lost   sign test p")
        for other, mean, half, p_d, mine, theirs, p_l in contest(mixed):
            print("  %-8s %+10.4f ± %.4f %20.2g %9d : %-5d %10.2g" % (
                other, mean, half, p_d, mine, theirs, p_l))
        # The independent best response: each opponent's true play (a simple strategy's exact habit, optimal's
        # habit learnt from all its decisions of the pass above), the same games again.
        oracle = dict(habit_model.OF_STRATEGY)
        oracle["optimal"] = habit_model.learn(mixed.learnt.get("optimal", ()), habit_model.BASE)
        judged = Season()
        learnt = Learnt(args.learn == "season")   # the players learn as in the pass above
        for g in range(args.games):
            kinds = seated("mixed", g)
            play_game(rules, kinds, random.Random(args.seed * 1000003 + g), judged, oracle, learnt, kinds)
        print("\ndecision cost against the independent best response (mixed tables), Deckel per round:")
        for kind in NAMES:
            print("  %-8s %.4f (%d decisions)" % (kind, judged.cost[kind] / judged.rounds[kind],
                                                  judged.decisions[kind]))
    if args.plot:
        plot(args.plot, by_table)
        print("\nplot: %s" % args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
