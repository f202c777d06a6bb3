"""The coach (`schocken play --coach`, `schocken watch --coach`; docs/odds.md, "Where you meet it"): for the
seat on turn, what the public table allows to tell him, in the context the ``optimal`` bots play in
(``public_context``, built from ``TableState`` exactly as ``bots.OptimalAtTable`` builds it).

What the table shows of the seat on turn is his throws used and the dice he set aside; his latest throw lies
under the cup, known only to him until the reveal. So the coach says:

- before his first throw: the chance of beating every throw before his (their dice under the cups are known to
  nobody: each is the distribution ``odds.best.seen`` gives) within his limit, playing the best play
  (``odds.best``: the fewest Deckel expected) from here, and the Deckel he expects;
- after a throw: the same if he throws again with the dice lying open set aside, and the weakest throw on
  which standing is better than that (he knows his dice: he compares);
- the opener has no throw to beat: only the Deckel he expects.

Which dice to set aside or whether to turn sixes depends on the dice under his cup, which the host does not
see: the coach does not pretend to know them.

The computation runs in the coach's own thread (a daemon: it never holds the host at its end), never on the
referee's event path: ``Coach.advice`` answers at once, from its cache or "pending", and ``on_ready`` is
called on the event loop when an answer is there. A computation that fails, or takes longer than
``COACH_S``, is an answer with an error (``on_error`` reports it); the game goes on either way.
"""

import asyncio
import queue
import threading
import weakref

from schocken_host.odds.best import SeatView, context_for, warm
from schocken_host.odds.habits import Habits, decisions_of, throws_of
from schocken_host.table.habit_book import who
from schocken_host.odds.classes import model_for
from schocken_host.odds.model import ROLLS, merge

COACH_S = 5.0          # an answer not there after this long is reported as late (it may still come)
KEEP = 1024            # answers kept


def limit_of(st, seat):
    """The throws ``seat`` may use this round: the opener the rules' maximum, the others his count."""
    if st.order and seat == st.order[0]:
        return st.rules.max_throws
    return st.limit or st.rules.max_throws


def public_views(st, seat):
    """(views, later, opener) of ``seat``'s round as the table shows it: (SeatView, its own limit) of each
    seat before it that played, how many play after it, whether it opens."""
    order = st.order if seat in st.order else [seat]
    pos = order.index(seat)
    views = []
    for i, other in enumerate(order[:pos]):
        p = st.players[other]
        if not p.done:
            continue  # a seat the table ruled out of the round: it has no throw
        own = p.limit or (st.rules.max_throws if i == 0 else (st.limit or st.rules.max_throws))
        views.append((SeatView([v for _, v in p.public], p.throws, p.throws < own, p.aside_at_throw), own))
    return views, len(order) - pos - 1, pos == 0


_LEARNT: "weakref.WeakKeyDictionary[object, list]" = weakref.WeakKeyDictionary()   # TableState -> [n, Habits]


def table_habits(st):
    """The Habits (odds/habits.py) of the players at this table, learnt from every turn the table has seen
    revealed in the rounds of this game before the present one (``TableState.turns_seen``: every transcript
    is public once revealed; a reveal of this round came after every decision in it); only the turns
    revealed since the last call are read."""
    known = _LEARNT.get(st)
    if known is None:
        known = _LEARNT[st] = [0, Habits()]
        book = getattr(st, "known_habits", None) or {}
        for p in st.players:   # what the host remembers of each from the games before (table/habit_book.py)
            if who(p) in book:
                known[1].add_counts(p.seat, *book[who(p)])
    counted, habits = known
    for round_id, seat, limit, opened, transcript in st.turns_seen[counted:]:
        if round_id == st.round:
            break
        counted += 1
        try:
            throws = throws_of(st.rules, limit, transcript)
        except (ValueError, TypeError, IndexError, KeyError):  # RuleError is a ValueError: no turn has it
            continue
        habits.add(seat, decisions_of(st.rules, limit, opened, throws))
    known[0] = counted
    return habits


def round_habits(st, seat):
    """(a Habit of each seat before ``seat`` that played, in the order of ``public_views``, a Habit of each
    seat after it): how the table has seen each of them play."""
    habits = table_habits(st)
    order = st.order if seat in st.order else [seat]
    pos = order.index(seat)
    before = tuple(habits.of(other) for other in order[:pos] if st.players[other].done)
    return before, tuple(habits.of(other) for other in order[pos + 1:])


def round_holdings(st, seat):
    """(``seat``'s Deckel, a tuple of each other's in the order of ``round_habits``) in the present half, or
    None where the table shows no half."""
    half = st.game.half if st.game else None
    if half is None:
        return None
    order = st.order if seat in st.order else [seat]
    pos = order.index(seat)
    others = [s for s in order[:pos] if st.players[s].done] + list(order[pos + 1:])
    return half.deckel[seat], tuple(half.deckel[s] for s in others)


def public_context(st, seat, limit):
    """The odds.best Context of ``seat``'s round from the public table (the optimal bots' and the coach's):
    what the table shows of the round, how the table has seen each of the others play, and the Deckel in
    front of each."""
    views, later, opener = public_views(st, seat)
    return context_for(st.rules, views, later, limit, opener, st.middle() or None,
                       habits=round_habits(st, seat), holdings=round_holdings(st, seat))


class Situation:
    """What the coach computes from, taken from the table on the event loop (the thread gets only this)."""

    def __init__(self, st, seat):
        p = st.players[seat]
        self.rules, self.seat = st.rules, seat
        self.limit = limit_of(st, seat)
        self.views, self.later, self.opener = public_views(st, seat)
        self.habits = round_habits(st, seat)
        self.holdings = round_holdings(st, seat)
        self.stake = st.middle() or None
        self.out = tuple(sorted((v for _, v in p.public), reverse=True))
        self.throws = p.throws
        self.key = (tuple(sorted(st.rules.options().items())), tuple((v.key(), own) for v, own in self.views),
                    self.later, self.limit, self.opener, self.stake, self.out, self.throws,
                    tuple(h.key() for h in self.habits[0] + self.habits[1]), self.holdings)


def situation(st):
    """The Situation of the seat on turn in a round, or None (nobody on turn, a throw-off, no rules)."""
    seat = st.on_turn
    if seat is None or st.rules is None or st.round_kind != "round" or not 0 <= seat < len(st.players):
        return None
    if st.players[seat].done:
        return None
    return Situation(st, seat)


def beats(ctx):
    """{t: [P(a final throw of key index i after t throws beats every seat before me)]}."""
    model = ctx.model
    n = len(model.keys)
    table = {}
    for t in range(1, ctx.limit + 1):
        chance = [1.0] * n
        for dist in ctx.earlier:
            for i in range(n):
                chance[i] *= sum(p for (key, s), p in dist.items()
                                 if model.index[key] < i or (model.index[key] == i and s > t))
        table[t] = chance
    return table


def follow(ctx, value, out, t):
    """The expected ``value[t][key index]`` of the final throw when the best play (ctx.solution) is followed
    from before throw t with ``out`` lying out."""
    model, solution, memo = ctx.model, ctx.solution, {}

    def before(out, t):
        if (out, t) not in memo:
            total = 0.0
            for fell, count in ROLLS[3 - len(out)]:
                _, move = solution.choose(out, fell, t)
                if move is None:
                    total += count * value[t][model.index[model.final(merge(out, fell), t, not out).key]]
                else:
                    total += count * before(move.out, t + 1)
            memo[(out, t)] = total / 6 ** (3 - len(out))
        return memo[(out, t)]
    return before(out, t)


def compute(sit):
    """The coach's answer for a Situation: {"chance", "expected", "stand"} (None where there is nothing to
    say: no throw before his to beat, no throw left)."""
    out, t = sit.out, sit.throws
    if t >= sit.limit or len(out) >= 3:
        return {"chance": None, "expected": None, "stand": None}
    ctx = context_for(sit.rules, sit.views, sit.later, sit.limit, sit.opener, sit.stake,
                      habits=sit.habits, holdings=sit.holdings)
    expected = ctx.solution.value(out, t + 1)
    chance = follow(ctx, beats(ctx), out, t + 1) if sit.views else None
    stand = None
    if t >= 1:
        # The weakest throw he may have now (the open dice and any of the dice under the cup) on which
        # standing costs no more than throwing again with the open dice aside.
        model, costs = ctx.model, ctx.costs[t]
        good = [model.index[model.final(merge(out, fell), t, not out).key] for fell, _ in ROLLS[3 - len(out)]]
        good = [i for i in good if costs[i] <= expected]
        stand = model.throw_of_key[min(good)].label if good else None
    return {"chance": chance, "expected": expected, "stand": stand}


class Coach:
    """Answers for the seat on turn, computed in a thread of their own and kept. ``on_ready()`` and
    ``on_error(text)`` are called on the event loop."""

    def __init__(self, on_ready=None, on_error=None, timeout=COACH_S):
        self.on_ready = on_ready
        self.on_error = on_error
        self.timeout = timeout
        self.errors = []
        self._done = {}
        self._asked = set()
        self._jobs = queue.Queue()
        self._thread = None

    @staticmethod
    def warm(rules):
        """The tables every answer needs, made now (at the table's set-up, before the first turn)."""
        warm(rules)
        model_for(rules)

    def advice(self, st):
        """The page's and the scoreboard's ``coach``: None when nobody is on turn in a round, else
        {"seat", "throws", "limit", "aside", "first"} with the answer's fields, or "pending": True while it
        is computed, or "error"."""
        try:
            sit = situation(st)
        except Exception as e:  # noqa: BLE001 - a table the coach cannot read is no reason to stop
            return {"seat": st.on_turn, "error": "%s: %s" % (type(e).__name__, e)}
        if sit is None:
            return None
        head = {"seat": sit.seat, "throws": sit.throws, "limit": sit.limit, "aside": list(sit.out),
                "first": not sit.views}
        done = self._done.get(sit.key)
        if done is None and sit.key not in self._asked:
            done = self._ask(sit)
        return dict(head, **(done or {"pending": True}))

    def _ask(self, sit):
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:       # no event loop (a replay, a test): at once
            return self._finish(sit.key, self._run(sit), notify=False)
        self._asked.add(sit.key)
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="coach", daemon=True)
            self._thread.start()
        self._jobs.put((loop, sit))
        loop.call_later(self.timeout, self._late, sit.key)
        return None

    def _run(self, sit):
        try:
            return compute(sit)
        except Exception as e:  # noqa: BLE001 - reported, and the game goes on
            return {"error": "%s: %s" % (type(e).__name__, e)}

    def _work(self):
        while True:
            job = self._jobs.get()
            if job is None:
                return
            loop, sit = job
            answer = self._run(sit)
            try:
                loop.call_soon_threadsafe(self._finish, sit.key, answer)
            except RuntimeError:   # the loop is closed: the game is over
                pass

    def _finish(self, key, answer, notify=True):
        self._asked.discard(key)
        if len(self._done) >= KEEP:
            self._done.clear()
        self._done[key] = answer
        if "error" in answer:
            self._report(answer["error"])
        if notify:
            self._call(self.on_ready)
        return answer

    def _late(self, key):
        if key in self._asked and key not in self._done:
            self._done[key] = {"error": "no answer within %.0f s" % self.timeout}
            self._report(self._done[key]["error"])
            self._call(self.on_ready)

    def _report(self, text):
        self.errors.append(text)
        self._call(self.on_error, text)

    @staticmethod
    def _call(fn, *args):
        if fn is not None:
            try:
                fn(*args)
            except Exception:  # noqa: BLE001 - a view's redraw must not take the coach down
                pass

    def close(self):
        if self._thread is not None:
            self._jobs.put(None)
