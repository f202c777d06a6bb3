"""`schocken odds`: the chance of each class of throw in a turn, and the chance of beating a given throw with
the best decision after the first throw (docs/odds.md)."""

import json
import sys

from schocken.throws import evaluate

from schocken_host.commands.rules import dice_text
from schocken_host.errors import CommandError
from schocken_host.i18n import tr
from schocken_host.input_checks import add_rule_arguments, make_rules
from schocken_host.odds.classes import beat, class_table
from schocken_host.odds.model import ROLLS
from schocken_host.table.bots import STRATEGIES

# The bots' strategy of `schocken play` (its default): the table shows how a turn ends when they play it.
BOTS_DEFAULT = "optimal"


def add_arguments(p):
    add_rule_arguments(p)
    p.add_argument("--throws", type=int, default=None, metavar="K",
                   help="at most K throws (default: the rules' maximum; with --beat: that throw's throws)")
    p.add_argument("--strategy", choices=sorted(STRATEGIES), default=BOTS_DEFAULT,
                   help="the bots' strategy whose final throws the table shows (default: %s, the bots' of "
                        "schocken play; at a table it plays against the throws before it, here as the opener "
                        "of a round of two)" % BOTS_DEFAULT)
    p.add_argument("--beat", metavar='"D D D N"',
                   help='the throw to beat: its three dice and throws used, e.g. "6 6 1 2"; "... hand" '
                        "when no die was set aside")
    p.add_argument("--json", action="store_true", help="print JSON")


def parse_beat(text, rules):
    """"6 6 1 2" or "6 6 1 2 hand" -> the Throw to beat; CommandError on anything else."""
    words = text.split()
    bad = CommandError("odds.bad_beat", most=rules.max_throws, text=text)
    if len(words) not in (4, 5) or not all(w.isdigit() and len(w) == 1 for w in words[:4]):
        raise bad
    if len(words) == 5 and words[4].lower() not in ("hand", "h"):
        raise bad
    *dice, throws = [int(w) for w in words[:4]]
    if not all(1 <= d <= 6 for d in dice) or not 1 <= throws <= rules.max_throws:
        raise bad
    return evaluate(dice, throws, throws == 1 or len(words) == 5, rules)


def limit_of(args, rules, default):
    n = default if args.throws is None else args.throws
    if not 1 <= n <= rules.max_throws:
        raise CommandError("odds.bad_throws", most=rules.max_throws, n=n)
    return n


def number(p):
    return {"fraction": str(p), "value": round(float(p), 6)}


def text_of_move(move, lang):
    if move is None:
        return tr(lang, "odds.stand")
    rest = tr(lang, "odds.keep", dice=" ".join(map(str, move.keep))) if move.keep else tr(lang, "odds.reroll")
    if not move.turned:
        return rest
    return tr(lang, "odds.then", first=tr(lang, "odds.turn", n=move.turned), then=rest)


def first_decisions(rules, target, limit):
    """(chance, [(first throw, move, chance from there)]) of beating ``target``, best first throws first."""
    solution = beat(rules, target, limit)
    rows = []
    for fell, _ in ROLLS[3]:
        chance, move = solution.choose((), fell, 1)
        rows.append((evaluate(fell, 1, True, rules), move, chance))
    rows.sort(key=lambda r: -r[0].key)
    return solution.value(), rows


def run(args):
    rules = make_rules(args.rules, args.set)
    out = sys.stdout
    if args.beat is not None:
        target = parse_beat(args.beat, rules)
        limit = limit_of(args, rules, target.throws)
        chance, rows = first_decisions(rules, target, limit)
        if args.json:
            json.dump({"rules": rules.to_dict(), "beat": {"dice": list(target.dice), "throws": target.throws,
                                                          "hand": target.hand, "label": target.label},
                       "limit": limit, "chance": number(chance),
                       "first": [{"dice": list(t.dice), "label": t.label, "chance": number(c),
                                  "move": None if m is None else m.to_dict()} for t, m, c in rows]},
                      out, ensure_ascii=False, indent=1)
            out.write("\n")
            return 0
        lang = args.lang
        how = tr(lang, "rank.hand" if target.hand else "rank.built")
        out.write(tr(lang, "odds.beat_title", dice=dice_text(target), label=target.label,
                     throws=throws_text(lang, target.throws, after=True), how=how,
                     limit=throws_text(lang, limit)) + "\n")
        out.write(tr(lang, "odds.beat_chance", fraction=chance, value="%.6f" % chance) + "\n\n")
        out.write(tr(lang, "odds.first") + "\n")
        for throw, move, c in rows:
            out.write("  %-6s %-10s %.6f  %s\n"
                      % (dice_text(throw), throw.label, c, text_of_move(move, lang)))
        return 0
    limit = limit_of(args, rules, rules.max_throws)
    rows = class_table(rules, limit, STRATEGIES[args.strategy])
    if args.json:
        json.dump({"rules": rules.to_dict(), "throws": limit, "strategy": args.strategy,
                   "classes": [{"kind": k, "one_throw": number(one), "reach": number(reach),
                                "strategy": number(played)} for k, one, reach, played in rows]},
                  out, ensure_ascii=False, indent=1)
        out.write("\n")
        return 0
    print_table(rules, limit, args.strategy, rows, args.lang, out)
    return 0


def throws_text(lang, n, after=False):
    """"1 Wurf", "3 Würfe"; ``after`` "in" or "nach": "3 Würfen"."""
    if n == 1:
        return tr(lang, "odds.throws_1", n=n)
    return tr(lang, "odds.in_throws" if after else "odds.throws", n=n)


def cell(p):
    return "%s = %.6f" % (p, p)


def print_table(rules, limit, strategy, rows, lang="de", out=sys.stdout):
    title = tr(lang, "odds.title", name=rules.name, seed=rules.seed, throws=throws_text(lang, limit))
    out.write(title + "\n\n")
    head = (tr(lang, "odds.col_class"), tr(lang, "odds.col_one"),
            tr(lang, "odds.col_reach", throws=throws_text(lang, limit, after=True)),
            tr(lang, "odds.col_strategy", strategy=strategy))
    body = [(tr(lang, "odds.kind_" + k), cell(one), cell(reach), cell(played))
            for k, one, reach, played in rows]
    widths = [max(len(r[i]) for r in body + [head]) for i in range(4)]
    for row in [head] + body:
        out.write("  ".join(row[i].ljust(widths[i]) for i in range(4)).rstrip() + "\n")
    out.write("\n%s\n%s\n" % (tr(lang, "odds.note_reach"), tr(lang, "odds.note_strategy", strategy=strategy)))
    if hasattr(STRATEGIES[strategy], "for_table"):  # it plays against the throws before it: which, said here
        out.write("%s\n" % tr(lang, "odds.note_at_table", strategy=strategy))
